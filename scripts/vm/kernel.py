#!/usr/bin/env python3
"""Kernel helpers for scripts/vm-kernel (standard library only).

  kernel.py image VMLINUZ OUT
      Writes the kernel QEMU should boot to OUT. From an x86 bzImage, the
      uncompressed ELF vmlinux inside it: QEMU boots it directly (PVH
      entry), which under TCG saves the ~4 s the guest would spend
      decompressing itself. An arm64 Image is copied (gunzipped if needed).

  kernel.py modules MODDIR OUTDIR NAME...
      Copies the named modules and everything they depend on from MODDIR
      (a /lib/modules/VERSION tree) into OUTDIR, decompressed, and writes
      OUTDIR/load-order: one file name per line, dependencies first.
      Dependencies come from each module's .modinfo section (`depends=`);
      Debian's package ships no modules.dep and the host need not have
      depmod. Names built into the kernel (modules.builtin) are skipped;
      names found nowhere are reported and skipped.
"""
import lzma
import os
import shutil
import struct
import subprocess
import sys
import zlib


def die(message):
    print(f"kernel.py: error: {message}", file=sys.stderr)
    sys.exit(1)


def decompress(data, what):
    """Decompresses gzip, xz or zstd data that may be followed by padding."""
    if data[:2] == b"\x1f\x8b":
        return zlib.decompressobj(16 + zlib.MAX_WBITS).decompress(data)
    if data[:6] == b"\xfd7zXZ\x00":
        return lzma.LZMADecompressor(format=lzma.FORMAT_XZ).decompress(data)
    if data[:4] == b"\x28\xb5\x2f\xfd":
        if not shutil.which("zstd"):
            die(f"{what} is zstd-compressed and zstd is not installed")
        return subprocess.run(["zstd", "-dc"], input=data, stdout=subprocess.PIPE, check=True).stdout
    die(f"{what}: unknown compression (magic {data[:6].hex()})")


def extract_kernel(vmlinuz, out):
    data = open(vmlinuz, "rb").read()
    if data[:2] == b"\x1f\x8b":
        data = decompress(data, vmlinuz)
    if data[0x38:0x3C] == b"ARM\x64":   # arm64 Image header magic
        kernel = data
    elif data[0x202:0x206] == b"HdrS":
        kernel = extract_vmlinux(data, vmlinuz)
    else:
        die(f"{vmlinuz} is neither an x86 bzImage nor an arm64 Image")
    tmp = out + ".tmp"
    with open(tmp, "wb") as f:
        f.write(kernel)
    os.replace(tmp, out)


def extract_vmlinux(data, bzimage):
    # boot_params.hdr: setup_sects at 0x1f1; payload_offset/payload_length
    # (boot protocol 2.08+) at 0x248, relative to the protected-mode code,
    # which follows the (setup_sects + 1) 512-byte setup sectors.
    setup_sectors = data[0x1F1] or 4
    payload_offset, payload_length = struct.unpack_from("<II", data, 0x248)
    start = (setup_sectors + 1) * 512 + payload_offset
    payload = data[start:start + payload_length]
    if payload[:4] == b"\x28\xb5\x2f\xfd":
        # The kernel appends the uncompressed size (4 bytes, little endian)
        # to its compressed payload (Makefile.lib's *_with_size); xz and gzip
        # stop at their stream's end, the zstd tool refuses trailing bytes.
        payload = payload[:-4]
    kernel = decompress(payload, bzimage)
    if kernel[:4] != b"\x7fELF":
        die(f"the payload of {bzimage} is not an ELF file")
    return kernel


def modinfo_depends(ko_bytes, path):
    """The `depends=` list in an ELF64 module's .modinfo section."""
    if ko_bytes[:4] != b"\x7fELF" or ko_bytes[4] != 2:
        die(f"{path} is not an ELF64 module")
    shoff, = struct.unpack_from("<Q", ko_bytes, 0x28)
    shentsize, shnum, shstrndx = struct.unpack_from("<HHH", ko_bytes, 0x3A)

    def section(i):
        name, _, _, _, offset, size = struct.unpack_from("<IIQQQQ", ko_bytes, shoff + i * shentsize)
        return name, offset, size

    _, strtab_offset, _ = section(shstrndx)
    for i in range(shnum):
        name, offset, size = section(i)
        end = ko_bytes.index(b"\0", strtab_offset + name)
        if ko_bytes[strtab_offset + name:end] == b".modinfo":
            for entry in ko_bytes[offset:offset + size].split(b"\0"):
                if entry.startswith(b"depends="):
                    value = entry[len(b"depends="):].decode()
                    return [d for d in value.split(",") if d]
            return []
    die(f"{path} has no .modinfo section")


def module_name(filename):
    for suffix in (".ko", ".ko.xz", ".ko.zst", ".ko.gz"):
        if filename.endswith(suffix):
            return filename[:-len(suffix)].replace("-", "_")
    return None


def select_modules(moddir, outdir, wanted):
    files = {}
    for root, _, names in os.walk(os.path.join(moddir, "kernel")):
        for n in names:
            m = module_name(n)
            if m:
                files[m] = os.path.join(root, n)
    builtin = set()
    builtin_list = os.path.join(moddir, "modules.builtin")
    if os.path.exists(builtin_list):
        for line in open(builtin_list):
            builtin.add(module_name(os.path.basename(line.strip())))

    os.makedirs(outdir, exist_ok=True)
    order, state, contents = [], {}, {}

    def visit(name, chain):
        name = name.replace("-", "_")
        if state.get(name) == "done":
            return
        if state.get(name) == "visiting":
            die("module dependency cycle: " + " -> ".join(chain + [name]))
        if name not in files:
            print(f"kernel.py: {name}: " + ("built in" if name in builtin else "not in this kernel, skipped"),
                  file=sys.stderr)
            state[name] = "done"
            return
        state[name] = "visiting"
        path = files[name]
        data = open(path, "rb").read()
        if not data.startswith(b"\x7fELF"):
            data = decompress(data, path)
        for dependency in modinfo_depends(data, path):
            visit(dependency, chain + [name])
        state[name] = "done"
        contents[name] = data
        order.append(name)

    for w in wanted:
        visit(w, [])
    for name in order:
        with open(os.path.join(outdir, name + ".ko"), "wb") as f:
            f.write(contents[name])
    with open(os.path.join(outdir, "load-order"), "w") as f:
        f.write("".join(n + ".ko\n" for n in order))


def main(argv):
    if len(argv) == 3 and argv[0] == "image":
        extract_kernel(argv[1], argv[2])
    elif len(argv) >= 4 and argv[0] == "modules":
        select_modules(argv[1], argv[2], argv[3:])
    else:
        die(__doc__)


if __name__ == "__main__":
    main(sys.argv[1:])
