"""PPM and PNG reading and writing, and golden comparison (standard library
only: the harness needs no PIL). PNG support covers what the harness writes
and what the project's goldens use: 8-bit RGB or RGBA, not interlaced.
Images are (width, height, bytes) with 3 bytes (R, G, B) per pixel."""
import os
import struct
import zlib


def read_ppm(path):
    data = open(path, "rb").read()
    fields, pos = [], 0
    while len(fields) < 4:   # magic, width, height, maxval; comments allowed
        while data[pos:pos + 1].isspace():
            pos += 1
        if data[pos:pos + 1] == b"#":
            pos = data.index(b"\n", pos)
            continue
        end = pos
        while not data[end:end + 1].isspace():
            end += 1
        fields.append(data[pos:end])
        pos = end
    if fields[0] != b"P6" or fields[3] != b"255":
        raise ValueError(f"{path}: not a binary 8-bit PPM")
    width, height = int(fields[1]), int(fields[2])
    pixels = data[pos + 1:pos + 1 + width * height * 3]
    if len(pixels) != width * height * 3:
        raise ValueError(f"{path}: truncated")
    return width, height, pixels


def write_png(path, width, height, rgb):
    def chunk(kind, body):
        return struct.pack(">I", len(body)) + kind + body + struct.pack(">I", zlib.crc32(kind + body))

    stride = width * 3
    raw = b"".join(b"\0" + rgb[y * stride:(y + 1) * stride] for y in range(height))
    # Written aside and renamed: two guests may write the same golden.
    tmp = f"{path}.{os.getpid()}.tmp"
    with open(tmp, "wb") as f:
        f.write(b"\x89PNG\r\n\x1a\n")
        f.write(chunk(b"IHDR", struct.pack(">IIBBBBB", width, height, 8, 2, 0, 0, 0)))
        f.write(chunk(b"IDAT", zlib.compress(raw, 9)))
        f.write(chunk(b"IEND", b""))
    os.replace(tmp, path)


def read_png(path):
    data = open(path, "rb").read()
    if data[:8] != b"\x89PNG\r\n\x1a\n":
        raise ValueError(f"{path}: not a PNG")
    pos, idat, header = 8, b"", None
    while pos < len(data):
        length, kind = struct.unpack_from(">I4s", data, pos)
        body = data[pos + 8:pos + 8 + length]
        if kind == b"IHDR":
            header = struct.unpack(">IIBBBBB", body)
        elif kind == b"IDAT":
            idat += body
        pos += 12 + length
    width, height, depth, color, _, _, interlace = header
    if depth != 8 or color not in (2, 6) or interlace:
        raise ValueError(f"{path}: only 8-bit RGB/RGBA non-interlaced PNGs are supported")
    bpp = 3 if color == 2 else 4
    stride = width * bpp
    raw = zlib.decompress(idat)
    out, prev = bytearray(), bytearray(stride)
    for y in range(height):
        kind = raw[y * (stride + 1)]
        line = bytearray(raw[y * (stride + 1) + 1:(y + 1) * (stride + 1)])
        for i in range(stride):
            a = line[i - bpp] if i >= bpp else 0
            b = prev[i]
            c = prev[i - bpp] if i >= bpp else 0
            if kind == 1:
                line[i] = (line[i] + a) & 255
            elif kind == 2:
                line[i] = (line[i] + b) & 255
            elif kind == 3:
                line[i] = (line[i] + (a + b) // 2) & 255
            elif kind == 4:
                p = a + b - c
                pa, pb, pc = abs(p - a), abs(p - b), abs(p - c)
                line[i] = (line[i] + (a if pa <= pb and pa <= pc else b if pb <= pc else c)) & 255
        out += line
        prev = line
    if bpp == 4:
        out = bytearray(b for i in range(0, len(out), 4) for b in out[i:i + 3])
    return width, height, bytes(out)


def compare(actual, expected, tolerance):
    """None if every channel of every pixel is within `tolerance`, else a
    description and an error image: differing pixels red, the rest the
    actual image darkened."""
    aw, ah, a = actual
    ew, eh, e = expected
    if (aw, ah) != (ew, eh):
        return f"size {aw}x{ah}, golden is {ew}x{eh}", None
    if a == e:
        return None, None
    first, count, worst = None, 0, 0
    error = bytearray(len(a))
    for i in range(0, len(a), 3):
        d = max(abs(a[i] - e[i]), abs(a[i + 1] - e[i + 1]), abs(a[i + 2] - e[i + 2]))
        if d > tolerance:
            count += 1
            worst = max(worst, d)
            if first is None:
                first = i // 3
            error[i] = 255
        else:
            error[i] = error[i + 1] = error[i + 2] = (a[i] + a[i + 1] + a[i + 2]) // 9
    if count == 0:
        return None, None
    x, y = first % aw, first // aw
    p = first * 3
    return (f"{count} pixels differ by more than {tolerance} (worst {worst}); first at ({x}, {y}): "
            f"got #{a[p]:02x}{a[p + 1]:02x}{a[p + 2]:02x}, want #{e[p]:02x}{e[p + 1]:02x}{e[p + 2]:02x}",
            (aw, ah, bytes(error)))
