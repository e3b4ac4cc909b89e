#!/usr/bin/env python3
"""Writes an uncompressed newc cpio archive (an initramfs) from a list.

  mkcpio.py LIST OUT

Each line of LIST is one entry (paths in the archive are absolute):
  dir PATH
  file PATH SOURCE [MODE]     contents of SOURCE (symlinks followed)
  symlink PATH TARGET
  nod PATH c|b MAJOR MINOR MODE
Parent directories are added as needed. Every entry is owned by root with
mtime 0, so the archive does not depend on who builds it or when, and
device nodes need no root on the host. Uncompressed because under TCG the
kernel unpacks it several times faster than a compressed one.
"""
import os
import stat
import sys


def main(list_path, out_path):
    entries = {}   # archive path -> (mode, data, rdev)

    def add_dirs(path):
        parent = os.path.dirname(path)
        while parent not in ("/", "") and parent not in entries:
            entries[parent] = (stat.S_IFDIR | 0o755, b"", (0, 0))
            parent = os.path.dirname(parent)

    for number, line in enumerate(open(list_path), 1):
        fields = line.split()
        if not fields or fields[0].startswith("#"):
            continue
        kind, path = fields[0], fields[1]
        if not path.startswith("/"):
            sys.exit(f"mkcpio.py: {list_path}:{number}: path must be absolute: {path}")
        add_dirs(path)
        if kind == "dir":
            entries[path] = (stat.S_IFDIR | 0o755, b"", (0, 0))
        elif kind == "file":
            source = fields[2]
            data = open(source, "rb").read()
            mode = int(fields[3], 8) if len(fields) > 3 else os.stat(source).st_mode & 0o777
            entries[path] = (stat.S_IFREG | mode, data, (0, 0))
        elif kind == "symlink":
            entries[path] = (stat.S_IFLNK | 0o777, fields[2].encode(), (0, 0))
        elif kind == "nod":
            kind_bits = stat.S_IFCHR if fields[2] == "c" else stat.S_IFBLK
            entries[path] = (kind_bits | int(fields[5], 8), b"", (int(fields[3]), int(fields[4])))
        else:
            sys.exit(f"mkcpio.py: {list_path}:{number}: unknown entry kind {kind}")

    with open(out_path + ".tmp", "wb") as out:
        def record(ino, name, mode, data, rdev):
            name_bytes = name.encode() + b"\0"
            header = "070701" + "".join(f"{v:08X}" for v in (
                ino, mode, 0, 0, 2 if stat.S_ISDIR(mode) else 1, 0, len(data),
                0, 0, rdev[0], rdev[1], len(name_bytes), 0))
            out.write(header.encode() + name_bytes)
            out.write(b"\0" * (-(110 + len(name_bytes)) % 4))
            out.write(data)
            out.write(b"\0" * (-len(data) % 4))

        # Sorted, so a directory always comes before what it holds.
        for ino, path in enumerate(sorted(entries), 1):
            mode, data, rdev = entries[path]
            record(ino, path.lstrip("/"), mode, data, rdev)
        record(0, "TRAILER!!!", 0, b"", (0, 0))
    os.replace(out_path + ".tmp", out_path)


if __name__ == "__main__":
    if len(sys.argv) != 3:
        sys.exit(__doc__)
    main(sys.argv[1], sys.argv[2])
