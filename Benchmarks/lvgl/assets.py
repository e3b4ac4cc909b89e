"""Deterministic test images for the LVGL side-by-side benchmark.

LVGL's ``lv_demo_benchmark`` uses three images that the ``pydevices-lvgl``
wheel does not carry (the LVGL logo as opaque RGB and as ARGB, and an
avatar), so this module draws stand-ins of the same sizes and writes them as
8-bit RGBA PNG files (colour type 6, non-premultiplied alpha), using only
``zlib`` and ``struct``:

* ``logo_rgb.png``  100x100, every pixel opaque: a rounded tile with a
  vertical blue gradient, a white "L"-like letter, an orange gradient dot and
  a soft shadow, over an opaque diagonal dark-violet gradient background.
* ``logo_argb.png`` 100x100, the same tile, shadow, letter and dot with
  transparent surroundings: anti-aliased, partially transparent edges and a
  partially transparent shadow.
* ``avatar.png``    80x80, a round face-like picture (teal disc, head, eyes,
  mouth, shirt) with transparent corners and an anti-aliased rim.

The pictures are computed from signed distance functions sampled at pixel
centres; the output is the same bytes on every run.

``write_assets(folder)`` writes the three files; ``read_png(path)`` reads a
PNG back to ``(w, h, rgba_bytes)``; ``lvgl_pixels(...)`` converts RGBA bytes
to LVGL's in-memory ARGB8888 / XRGB8888 layout (B, G, R, A bytes per pixel);
``load_for_lvgl(folder, name)`` does both.

Run directly to write the files: ``python assets.py FOLDER``.
"""

import math
import os
import struct
import sys
import zlib

LOGO_SIZE = 100
AVATAR_SIZE = 80

# --------------------------------------------------------------------------
# PNG writing and reading (zlib + struct only)
# --------------------------------------------------------------------------

_PNG_SIGNATURE = b"\x89PNG\r\n\x1a\n"


def _chunk(kind, data):
    crc = zlib.crc32(kind + data) & 0xFFFFFFFF
    return struct.pack(">I", len(data)) + kind + data + struct.pack(">I", crc)


def encode_png(width, height, pixels, channels=4, level=6):
    """PNG bytes for 8-bit pixels: channels 4 = RGBA (colour type 6),
    3 = RGB (colour type 2). Every row uses filter 0 (none)."""
    if channels not in (3, 4):
        raise ValueError("channels must be 3 or 4")
    stride = width * channels
    if len(pixels) != stride * height:
        raise ValueError("pixel buffer has %d bytes, expected %d" % (len(pixels), stride * height))
    raw = bytearray((stride + 1) * height)
    mv = memoryview(pixels)
    for y in range(height):
        o = y * (stride + 1)
        raw[o] = 0
        raw[o + 1:o + 1 + stride] = mv[y * stride:(y + 1) * stride]
    colour_type = 6 if channels == 4 else 2
    ihdr = struct.pack(">IIBBBBB", width, height, 8, colour_type, 0, 0, 0)
    return (_PNG_SIGNATURE + _chunk(b"IHDR", ihdr)
            + _chunk(b"IDAT", zlib.compress(bytes(raw), level)) + _chunk(b"IEND", b""))


def write_png(path, width, height, pixels, channels=4, level=6):
    data = encode_png(width, height, pixels, channels, level)
    with open(path, "wb") as f:
        f.write(data)


def _paeth(a, b, c):
    p = a + b - c
    pa, pb, pc = abs(p - a), abs(p - b), abs(p - c)
    if pa <= pb and pa <= pc:
        return a
    return b if pb <= pc else c


def read_png(path):
    """Reads an 8-bit, non-interlaced PNG (grey, grey+alpha, RGB or RGBA) and
    returns (width, height, RGBA bytes, non-premultiplied)."""
    with open(path, "rb") as f:
        data = f.read()
    if data[:8] != _PNG_SIGNATURE:
        raise ValueError("%s: not a PNG" % path)
    pos = 8
    idat = []
    width = height = depth = colour_type = interlace = None
    while pos < len(data):
        (length,) = struct.unpack(">I", data[pos:pos + 4])
        kind = data[pos + 4:pos + 8]
        body = data[pos + 8:pos + 8 + length]
        pos += 12 + length
        if kind == b"IHDR":
            width, height, depth, colour_type, _, _, interlace = struct.unpack(">IIBBBBB", body)
        elif kind == b"IDAT":
            idat.append(body)
        elif kind == b"IEND":
            break
    channels = {0: 1, 2: 3, 4: 2, 6: 4}.get(colour_type)
    if width is None or depth != 8 or channels is None or interlace != 0:
        raise ValueError("%s: only 8-bit non-interlaced grey/RGB/RGBA PNG is supported" % path)
    raw = zlib.decompress(b"".join(idat))
    stride = width * channels
    out = bytearray(stride * height)
    prev = bytearray(stride)
    bpp = channels
    for y in range(height):
        ftype = raw[y * (stride + 1)]
        line = bytearray(raw[y * (stride + 1) + 1:(y + 1) * (stride + 1)])
        if ftype == 1:
            for i in range(bpp, stride):
                line[i] = (line[i] + line[i - bpp]) & 0xFF
        elif ftype == 2:
            for i in range(stride):
                line[i] = (line[i] + prev[i]) & 0xFF
        elif ftype == 3:
            for i in range(stride):
                left = line[i - bpp] if i >= bpp else 0
                line[i] = (line[i] + ((left + prev[i]) >> 1)) & 0xFF
        elif ftype == 4:
            for i in range(stride):
                left = line[i - bpp] if i >= bpp else 0
                upleft = prev[i - bpp] if i >= bpp else 0
                line[i] = (line[i] + _paeth(left, prev[i], upleft)) & 0xFF
        elif ftype != 0:
            raise ValueError("%s: bad filter type %d" % (path, ftype))
        out[y * stride:(y + 1) * stride] = line
        prev = line
    if channels == 4:
        return width, height, bytes(out)
    rgba = bytearray(width * height * 4)
    n = width * height
    if channels == 3:
        rgba[0::4] = out[0::3]
        rgba[1::4] = out[1::3]
        rgba[2::4] = out[2::3]
        rgba[3::4] = b"\xff" * n
    elif channels == 1:
        rgba[0::4] = out
        rgba[1::4] = out
        rgba[2::4] = out
        rgba[3::4] = b"\xff" * n
    else:  # grey + alpha
        rgba[0::4] = out[0::2]
        rgba[1::4] = out[0::2]
        rgba[2::4] = out[0::2]
        rgba[3::4] = out[1::2]
    return width, height, bytes(rgba)


def lvgl_pixels(rgba, opaque):
    """Converts RGBA bytes to LVGL's 32-bit in-memory layout (little-endian
    0xAARRGGBB, i.e. bytes B, G, R, A). opaque=True gives XRGB8888 (the
    fourth byte 0xFF), else ARGB8888 with the alpha kept (not premultiplied)."""
    out = bytearray(len(rgba))
    out[0::4] = rgba[2::4]
    out[1::4] = rgba[1::4]
    out[2::4] = rgba[0::4]
    out[3::4] = b"\xff" * (len(rgba) // 4) if opaque else rgba[3::4]
    return bytes(out)


def load_for_lvgl(folder, name, opaque=None):
    """(width, height, bytes) of an asset in LVGL's B, G, R, A layout.
    opaque defaults to True for logo_rgb.png (use as XRGB8888) and False
    otherwise (ARGB8888)."""
    w, h, rgba = read_png(os.path.join(folder, name))
    if opaque is None:
        opaque = name == "logo_rgb.png"
    return w, h, lvgl_pixels(rgba, opaque)


# --------------------------------------------------------------------------
# Drawing
# --------------------------------------------------------------------------

def _clamp01(v):
    return 0.0 if v < 0.0 else (1.0 if v > 1.0 else v)


def _cov(d):
    """Coverage of a pixel whose centre is at signed distance d (px) from an
    edge, negative inside: a one-pixel linear ramp."""
    return _clamp01(0.5 - d)


def _sd_circle(x, y, cx, cy, r):
    return math.hypot(x - cx, y - cy) - r


def _sd_round_rect(x, y, x0, y0, x1, y1, r):
    cx, cy = (x0 + x1) / 2.0, (y0 + y1) / 2.0
    hw, hh = (x1 - x0) / 2.0, (y1 - y0) / 2.0
    qx = abs(x - cx) - hw + r
    qy = abs(y - cy) - hh + r
    return math.hypot(max(qx, 0.0), max(qy, 0.0)) + min(max(qx, qy), 0.0) - r


def _sd_ellipse(x, y, cx, cy, rx, ry):
    return (math.hypot((x - cx) / rx, (y - cy) / ry) - 1.0) * min(rx, ry)


def _lerp(a, b, t):
    return a + (b - a) * t


def _mix(c0, c1, t):
    return (_lerp(c0[0], c1[0], t), _lerp(c0[1], c1[1], t), _lerp(c0[2], c1[2], t))


def _over(dst, src):
    """Non-premultiplied 'source over' of (r, g, b, a) tuples, floats 0..1."""
    sa = src[3]
    if sa <= 0.0:
        return dst
    da = dst[3]
    oa = sa + da * (1.0 - sa)
    if oa <= 0.0:
        return (0.0, 0.0, 0.0, 0.0)
    k = da * (1.0 - sa)
    return ((src[0] * sa + dst[0] * k) / oa,
            (src[1] * sa + dst[1] * k) / oa,
            (src[2] * sa + dst[2] * k) / oa,
            oa)


def _q(v):
    return int(_clamp01(v) * 255.0 + 0.5)


def _rgb(hexv):
    return (((hexv >> 16) & 0xFF) / 255.0, ((hexv >> 8) & 0xFF) / 255.0, (hexv & 0xFF) / 255.0)


# The logo: a rounded tile (8..92, radius 18) with a vertical gradient, a soft
# shadow offset 3 px down, a white "L" and an orange dot.
_TILE = (8.0, 7.0, 92.0, 91.0, 18.0)
_TILE_TOP = _rgb(0x3D8BFF)
_TILE_BOTTOM = _rgb(0x1A3F9E)
_DOT_TOP = _rgb(0xFFB547)
_DOT_BOTTOM = _rgb(0xF0562E)
_BG_A = _rgb(0x1F1B3A)
_BG_B = _rgb(0x5A3D7A)


def _logo_pixel(x, y):
    """Premultiplication-free RGBA (floats) of the logo at pixel centre (x, y),
    transparent surroundings."""
    px = (0.0, 0.0, 0.0, 0.0)
    x0, y0, x1, y1, r = _TILE
    # Shadow: the tile's distance field moved 3 px down, fading over 6 px.
    ds = _sd_round_rect(x, y - 3.0, x0, y0, x1, y1, r)
    if ds < 6.0:
        a = 0.45 * (1.0 - _clamp01((ds + 1.0) / 7.0)) ** 2
        px = _over(px, (0.0, 0.0, 0.05, a))
    d = _sd_round_rect(x, y, x0, y0, x1, y1, r)
    c = _cov(d)
    if c > 0.0:
        t = _clamp01((y - y0) / (y1 - y0))
        col = _mix(_TILE_TOP, _TILE_BOTTOM, t)
        # A lighter band along the top edge.
        band = _clamp01(1.0 - (y - y0) / 10.0) * 0.25
        col = _mix(col, (1.0, 1.0, 1.0), band)
        # The "L": a vertical and a horizontal bar, rounded corners.
        dl = min(_sd_round_rect(x, y, 24.0, 22.0, 39.0, 76.0, 4.0),
                 _sd_round_rect(x, y, 24.0, 62.0, 72.0, 76.0, 4.0))
        cl = _cov(dl)
        if cl > 0.0:
            col = _mix(col, (1.0, 1.0, 1.0), cl)
        # The dot.
        dd = _sd_circle(x, y, 63.0, 36.0, 10.0)
        cd = _cov(dd)
        if cd > 0.0:
            td = _clamp01((y - 26.0) / 20.0)
            col = _mix(col, _mix(_DOT_TOP, _DOT_BOTTOM, td), cd)
        px = _over(px, (col[0], col[1], col[2], c))
    return px


def _logo(opaque):
    n = LOGO_SIZE
    out = bytearray(n * n * 4)
    for j in range(n):
        y = j + 0.5
        for i in range(n):
            x = i + 0.5
            p = _logo_pixel(x, y)
            if opaque:
                t = (x + y) / (2.0 * n)
                bg = _mix(_BG_A, _BG_B, t)
                p = _over((bg[0], bg[1], bg[2], 1.0), p)
            o = (j * n + i) * 4
            if p[3] <= 0.0:
                out[o:o + 4] = b"\x00\x00\x00\x00"
            else:
                out[o] = _q(p[0])
                out[o + 1] = _q(p[1])
                out[o + 2] = _q(p[2])
                out[o + 3] = 255 if opaque else _q(p[3])
    return bytes(out)


_AV_BG_TOP = _rgb(0x4FD1C5)
_AV_BG_BOTTOM = _rgb(0x2C7A7B)
_AV_SKIN = _rgb(0xF2C29B)
_AV_SKIN_SHADE = _rgb(0xD99B6C)
_AV_HAIR = _rgb(0x4A2F1B)
_AV_SHIRT = _rgb(0x2B4C9B)
_AV_DARK = _rgb(0x2A1A12)


def _avatar_pixel(x, y):
    n = AVATAR_SIZE
    c = n / 2.0
    disc = _cov(_sd_circle(x, y, c, c, c - 0.5))
    if disc <= 0.0:
        return (0.0, 0.0, 0.0, 0.0)
    col = _mix(_AV_BG_TOP, _AV_BG_BOTTOM, _clamp01(y / n))
    # Shirt / shoulders.
    col = _mix(col, _mix(_AV_SHIRT, (0.1, 0.15, 0.35), _clamp01((y - 58.0) / 22.0)),
               _cov(_sd_ellipse(x, y, 40.0, 80.0, 28.0, 22.0)))
    # Neck.
    col = _mix(col, _AV_SKIN_SHADE, _cov(_sd_round_rect(x, y, 34.0, 40.0, 46.0, 60.0, 3.0)))
    # Hair behind the head, then the head.
    col = _mix(col, _AV_HAIR, _cov(_sd_ellipse(x, y, 40.0, 30.0, 17.0, 18.0)))
    head = _cov(_sd_ellipse(x, y, 40.0, 34.0, 14.5, 16.5))
    skin = _mix(_AV_SKIN, _AV_SKIN_SHADE, _clamp01((x - 28.0) / 30.0) * 0.6)
    col = _mix(col, skin, head)
    # Fringe.
    col = _mix(col, _AV_HAIR, _cov(max(_sd_ellipse(x, y, 40.0, 20.0, 15.0, 7.0), 18.0 - y)) * head)
    # Eyes and mouth.
    col = _mix(col, _AV_DARK, _cov(_sd_circle(x, y, 34.5, 33.0, 2.0)))
    col = _mix(col, _AV_DARK, _cov(_sd_circle(x, y, 45.5, 33.0, 2.0)))
    col = _mix(col, (0.7, 0.25, 0.25), _cov(_sd_ellipse(x, y, 40.0, 42.5, 5.0, 2.0)))
    return (col[0], col[1], col[2], disc)


def _avatar():
    n = AVATAR_SIZE
    out = bytearray(n * n * 4)
    for j in range(n):
        for i in range(n):
            p = _avatar_pixel(i + 0.5, j + 0.5)
            o = (j * n + i) * 4
            if p[3] <= 0.0:
                continue
            out[o] = _q(p[0])
            out[o + 1] = _q(p[1])
            out[o + 2] = _q(p[2])
            out[o + 3] = _q(p[3])
    return bytes(out)


ASSET_NAMES = ("logo_rgb.png", "logo_argb.png", "avatar.png")


def write_assets(folder):
    """Writes logo_rgb.png, logo_argb.png and avatar.png into folder (made if
    missing) and returns their paths."""
    os.makedirs(folder, exist_ok=True)
    items = (
        ("logo_rgb.png", LOGO_SIZE, _logo(True)),
        ("logo_argb.png", LOGO_SIZE, _logo(False)),
        ("avatar.png", AVATAR_SIZE, _avatar()),
    )
    paths = []
    for name, n, px in items:
        path = os.path.join(folder, name)
        data = encode_png(n, n, px, 4, 9)
        # Leave an identical file alone (keeps its timestamp).
        try:
            with open(path, "rb") as f:
                same = f.read() == data
        except OSError:
            same = False
        if not same:
            with open(path, "wb") as f:
                f.write(data)
        paths.append(path)
    return paths


if __name__ == "__main__":
    if len(sys.argv) != 2:
        sys.exit("usage: assets.py FOLDER")
    for p in write_assets(sys.argv[1]):
        print(p)
