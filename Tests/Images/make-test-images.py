#!/usr/bin/env python3
"""Makes the JPEG test images and their reference decodes (run by hand when
the images must change; the outputs are committed, so the tests need
neither Python nor Pillow).

Pillow is the independent decoder: its own JPEG reader and colour
conversions (CMYK → RGB in particular) give the `*.ref.png` files the
tests compare FBRuntime's decode with, within a small tolerance.

    python3 Tests/Images/make-test-images.py      (needs python3-pil)
"""
import math
import os
from PIL import Image, ImageDraw

here = os.path.dirname(os.path.abspath(__file__))


def photo(w, h):
    """Smooth gradients, a disc and bars: JPEG-friendly, with edges."""
    img = Image.new("RGB", (w, h))
    px = img.load()
    for y in range(h):
        for x in range(w):
            r = int(255 * x / max(1, w - 1))
            g = int(255 * y / max(1, h - 1))
            b = int(128 + 100 * math.sin(x / w * 6.28) * math.cos(y / h * 3.14))
            px[x, y] = (r, g, b)
    d = ImageDraw.Draw(img)
    d.ellipse((w * 0.55, h * 0.2, w * 0.9, h * 0.2 + w * 0.35), fill=(250, 240, 40))
    d.rectangle((w * 0.1, h * 0.6, w * 0.35, h * 0.85), fill=(30, 40, 200))
    d.rectangle((w * 0.12, h * 0.1, w * 0.16, h * 0.5), fill=(255, 255, 255))
    return img


def save(img, name, reference=True, **kw):
    path = os.path.join(here, name)
    img.save(path, **kw)
    print(name, os.path.getsize(path), "bytes")
    if not reference:
        return
    ref = Image.open(path)
    ref.load()
    ref.convert("RGB").save(os.path.splitext(path)[0] + ".ref.png")


save(photo(64, 48), "photo-64x48.jpg", quality=90)
save(photo(64, 48), "progressive-64x48.jpg", quality=85, progressive=True)
save(photo(40, 30).convert("L"), "gray-40x30.jpg", quality=90)
save(photo(40, 30).convert("CMYK"), "cmyk-40x30.jpg", quality=92)
# Big enough to be downsampled by DCT scaling and the area filter; its
# oracle is the area mean of FBRuntime's own full-size decode (the test
# computes it), whose decode is checked against Pillow on the small ones.
save(photo(480, 360), "large-480x360.jpg", reference=False, quality=80)
