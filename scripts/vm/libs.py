#!/usr/bin/env python3
"""Lists the shared libraries a cross-built program needs, found in a
sysroot, for its initramfs (ldd cannot run a foreign binary).

  libs.py SYSROOT BINARY

Prints `file GUEST-PATH HOST-PATH 755` lines (scripts/vm/mkcpio.py's
format): the program interpreter at its own path, every DT_NEEDED library,
recursively, under /lib/<triplet>/ where the dynamic loader looks by
default. Exits non-zero naming any library the sysroot lacks.
"""
import os
import struct
import sys


def elf_info(path):
    """(interpreter or None, [DT_NEEDED names]) of a 64-bit little-endian ELF."""
    data = open(path, "rb").read()
    if data[:4] != b"\x7fELF" or data[4] != 2 or data[5] != 1:
        sys.exit(f"libs.py: {path} is not a 64-bit little-endian ELF file")
    phoff, shoff = struct.unpack_from("<QQ", data, 0x20)
    phentsize, phnum, shentsize, shnum = struct.unpack_from("<HHHH", data, 0x36)
    interpreter = None
    for i in range(phnum):
        p_type, _, p_offset, _, _, p_filesz = struct.unpack_from("<IIQQQQ", data, phoff + i * phentsize)
        if p_type == 3:   # PT_INTERP
            interpreter = data[p_offset:p_offset + p_filesz].rstrip(b"\0").decode()
    needed = []
    sections = [struct.unpack_from("<IIQQQQII", data, shoff + i * shentsize) for i in range(shnum)]
    for _, sh_type, _, _, offset, size, link, _ in sections:
        if sh_type != 6:  # SHT_DYNAMIC
            continue
        strtab = sections[link][4]
        for j in range(0, size, 16):
            tag, value = struct.unpack_from("<qQ", data, offset + j)
            if tag == 0:
                break
            if tag == 1:  # DT_NEEDED
                end = data.index(b"\0", strtab + value)
                needed.append(data[strtab + value:end].decode())
    return interpreter, needed


def main(sysroot, binary):
    search = [d for d in ("lib/aarch64-linux-gnu", "usr/lib/aarch64-linux-gnu",
                          "lib/x86_64-linux-gnu", "usr/lib/x86_64-linux-gnu", "lib", "usr/lib")
              if os.path.isdir(os.path.join(sysroot, d))]
    interpreter, needed = elf_info(binary)
    triplet = next((d.split("/")[-1] for d in search if d.endswith("-linux-gnu")), "")
    lines, missing, seen = [], [], set()
    if interpreter:
        host = os.path.join(sysroot, interpreter.lstrip("/"))
        if not os.path.exists(host):
            missing.append(interpreter)
        else:
            lines.append(f"file {interpreter} {os.path.realpath(host)} 755")
            seen.add(os.path.basename(interpreter))
    queue = list(needed)
    while queue:
        name = queue.pop(0)
        if name in seen:
            continue
        seen.add(name)
        host = next((os.path.join(sysroot, d, name) for d in search
                     if os.path.exists(os.path.join(sysroot, d, name))), None)
        if host is None:
            missing.append(name)
            continue
        lines.append(f"file /lib/{triplet}/{name} {os.path.realpath(host)} 755")
        queue += elf_info(os.path.realpath(host))[1]
    if missing:
        sys.exit(f"libs.py: {sysroot} lacks {', '.join(missing)} (needed by {binary})")
    print("\n".join(lines))


if __name__ == "__main__":
    if len(sys.argv) != 3:
        sys.exit(__doc__)
    main(sys.argv[1], sys.argv[2])
