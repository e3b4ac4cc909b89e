"""LVGL 9.5 ``lv_demo_benchmark`` scenes 0-15 as LVGL object trees, for the
side-by-side benchmark against FBRuntime (``bench.py``).

The scenes follow LVGL's demo (see the shared description of the scenes)
with these rules, so that another engine can draw the same screens:

* Display: ``lv.display_create(W, H)``, XRGB8888, one full-size buffer,
  ``DISPLAY_RENDER_MODE.DIRECT``, a flush callback that calls
  ``flush_ready`` (and records the flushed area, see ``Display``). A fresh
  display (hence a fresh screen, top layer and default theme) per scene; the
  previous one is deleted first.
* Screen (as the demo's ``load_scene``): the theme's styles are removed from
  the screen (``remove_style_all``, so no scrollbar is drawn), then
  bg #F5F5F5 (``palette_lighten(GREY, 4)``) opaque, text colour black,
  text font montserrat_14, padding 8 on every side (no header: the demo's
  48 px header is for its on-screen performance label, absent here), row and
  column gap 8. All widgets keep LVGL's default light theme (dpi 130).
* Motion is computed here, per frame, with no ``lv_anim`` (no Python runs in
  LVGL's render): ``Scene.update(i)`` sets the state of frame i, which is at
  time t = i/60 s. All times are computed exactly in integers, in units of
  1/60 ms: t60 = i * 1000.
* ``triangle(i, f, r, amp)``: the value at frame i of a linear 0 -> amp -> 0
  ramp with forward duration f ms and reverse duration r ms, repeating:
  tau = (i*1000) mod (60*(f+r)); F = 60 f, R = 60 r; |v| = (2|amp| tau + F)
  div (2F) while tau < F, else (2|amp| (R - (tau - F)) + R) div (2R)
  (integer division of non-negative numbers, i.e. rounding half up); v has
  the sign of amp.
* Pseudo-random numbers: xorshift32 (``Rng``) seeded 0x2545F491 at the start
  of every scene, drawn in object creation order; then, every frame, one
  colour per colour-animated object in creation order.
* "Fall": right after the object is created f = rand(300, 3000), then
  r = rand(300, 3000); translate_y(i) = triangle(i, f, r, max).
* As with lv_anim, a translate, arc value or scroll position is only set
  when it differs from the previous frame's (LVGL redraws an object whenever
  a style is set, even to the same value), so frames where nothing moved
  redraw nothing.
* Colour "every frame": colour = next() & 0xFFFFFF, drawn at the start of
  every frame (frame 0 included) for each object, in creation order.
* Scrolling (8, 14): ``scroll_to_y(triangle(i, 3000, 3000, range), OFF)``
  on the screen, range = ``get_scroll_bottom()`` of the screen right after
  it is built (scroll position 0).

Font sizes: the demo uses montserrat 26 above 800x480 and 20 above 320x240;
the wheel has 14, 16, 24, 32 and 40, so "Hello LVGL!" labels and the
screen-sized text use montserrat_24 when W*H > 800*480, montserrat_16 when
W*H > 320*240, else montserrat_14.

Every scene's docstring gives the geometry it produces; ``Scene.describe()``
returns the laid-out coordinates (at translate 0, scroll 0) of every object
and the animation parameters, which ``bench.py`` writes to
``geometry-WxH.json``.
"""

import os
import sys

import lvgl as lv

import assets

SEED = 0x2545F491
PAD_BASIC = 8
FALL_HEIGHT = 80
SCREEN_BG = 0xF5F5F5      # lv_palette_lighten(LV_PALETTE_GREY, 4)
OPA_50 = 127              # LV_OPA_50
SCROLL_MS = 3000          # top to bottom, and the same back

SCENE_NAMES = [
    "Empty screen",
    "Moving wallpaper",
    "Single rectangle",
    "Multiple rectangles",
    "Multiple RGB images",
    "Multiple ARGB images",
    "Rotated ARGB images",
    "Multiple labels",
    "Screen sized text",
    "Multiple arcs",
    "Containers",
    "Containers with overlay",
    "Containers with opa",
    "Containers with opa_layer",
    "Containers with scrolling",
    "Widgets demo",
]

# The screen-sized text (scene 8): 7 paragraphs separated by an empty line
# ("\n\n"), no trailing newline, 5,888 characters. It is LVGL's demo text
# (about 3,900 characters) with two sentences added to each paragraph: with
# montserrat_24 instead of the demo's 26 px, the demo text is only 945 px
# tall at 1920x1080 and would not scroll at all; this one is 1296 px tall
# there (1314 px at 800x480 with montserrat_16), so the screen moves on every
# frame at both sizes, as in LVGL's demo. Also written to lorem.txt next to
# this file (and into the assets folder by bench.py).
LOREM = (
    "Lorem ipsum dolor sit amet, consectetur adipiscing elit. Pellentesque fringilla, lorem dapibus fringilla "
    "feugiat, justo arcu volutpat magna, vitae ultricies metus tortor nec est. Fusce ut tellus arcu. Fusce eu "
    "rutrum metus, nec porta felis. Sed sed ligula laoreet, sodales lacus blandit, elementum justo. Sed posuere"
    " quam ut pellentesque ullamcorper. In quis consequat magna. Etiam quis turpis nec lorem dictum finibus. "
    "Donec mattis enim dolor, consequat lacinia nisi scelerisque id. Nulla euismod, purus sit amet accumsan "
    "tempus, lorem lectus euismod dolor, sit amet facilisis nisl quam elementum nisi. Curabitur et massa eget "
    "lorem lacinia scelerisque eget vitae felis. Nulla facilisi. Praesent varius, ipsum vel tincidunt faucibus,"
    " massa neque tempor urna, at dictum risus lorem sed mauris. Cras vehicula sem non nisl pretium, in porta "
    "justo placerat. Suspendisse potenti. Nam commodo turpis vitae quam ultricies, sit amet elementum magna "
    "laoreet.\n\n"
    "Vivamus auctor sit amet ante id rhoncus. Duis a dolor neque. Mauris eu ornare tortor. Vivamus consequat, "
    "ipsum a volutpat congue, sem libero laoreet nulla, malesuada efficitur leo orci a est. Donec tincidunt "
    "nulla nibh, quis pretium mi fermentum quis. Fusce a mattis libero. Curabitur in felis suscipit, ultrices "
    "diam imperdiet, vestibulum arcu. Praesent id faucibus turpis. Pellentesque sed massa tincidunt, interdum "
    "purus tempus, pellentesque risus. Fusce feugiat magna eget nisl eleifend efficitur. Mauris ut convallis "
    "justo. Integer malesuada rutrum orci non tincidunt. Quisque dignissim nisl at sapien interdum, vel viverra"
    " est laoreet. Aenean non lectus ut nibh convallis vulputate. Nam euismod felis sit amet arcu ultrices, ac "
    "fermentum quam iaculis. Sed ac ligula at urna vulputate tempus, ut aliquet turpis viverra. Donec iaculis "
    "velit sed massa tempor.\n\n"
    "Nullam aliquet leo sit amet volutpat tincidunt. Mauris ac accumsan nibh. Morbi accumsan commodo leo, at "
    "hendrerit massa hendrerit et. Aliquam nec sodales ex. Morbi at aliquet sem. Sed at magna ut felis mollis "
    "dictum ut ac orci. Nunc id lorem lacus. Vivamus id accumsan dolor, sed suscipit nulla. Pellentesque dictum"
    " erat non bibendum tempor. Fusce arcu risus, eleifend in lacus a, iaculis fermentum sapien. Praesent "
    "sodales libero vitae massa suscipit tincidunt. Aliquam quis arcu urna. Nunc sit amet mi leo. Phasellus "
    "tempor, justo vel bibendum tristique, nisl risus posuere metus, a facilisis ipsum tortor quis est. Sed "
    "consequat ante eu orci sagittis, nec pulvinar lorem efficitur. Ut lobortis metus nec turpis rutrum, quis "
    "sollicitudin sem imperdiet. Cras id mi a elit dictum luctus.\n\n"
    "Aliquam erat volutpat. Sed viverra pharetra ipsum, sed varius arcu varius nec. Curabitur rutrum odio et "
    "pretium fermentum. Maecenas vitae ligula nisi. Maecenas nec dapibus erat. Suspendisse vel accumsan erat. "
    "Proin congue diam at turpis accumsan eleifend. Integer sed augue at ligula tincidunt bibendum. Curabitur "
    "posuere, odio in hendrerit consequat, neque quam volutpat nibh, vitae rhoncus mauris augue in sem. Nulla "
    "porttitor justo ut mi feugiat, sit amet mollis nunc gravida. Vivamus placerat, purus ut commodo porta, "
    "eros massa mattis lorem, non maximus elit nibh at nisl.\n\n"
    "Etiam suscipit metus magna, in vulputate magna cursus eget. Donec vel rhoncus turpis. Phasellus vitae enim"
    " quis sapien pharetra aliquam quis a quam. In mauris nulla, euismod quis orci et, interdum finibus lorem. "
    "Aenean quis dolor eget est ultricies consectetur eu nec metus. Nullam at pulvinar elit. Aenean blandit "
    "faucibus sodales. Vivamus vel porta enim, et pharetra libero. Donec aliquet pretium erat viverra "
    "fermentum. Fusce sit amet porta mi. Nullam non elit ex. In luctus, nunc id iaculis ullamcorper, eros quam "
    "eleifend elit, quis dictum sem justo eu eros. Nulla vitae faucibus lectus. Nunc blandit, mi eget suscipit "
    "scelerisque, lorem nunc tincidunt tellus, eget gravida libero metus sed nunc. Vestibulum sagittis velit "
    "non dui fermentum, in auctor ligula ultricies. Ut a erat ac magna cursus ullamcorper. Morbi ut neque sed "
    "leo hendrerit pharetra vitae non enim. Maecenas eu nunc in neque consequat sodales. Pellentesque habitant "
    "morbi tristique senectus et netus.\n\n"
    "Morbi erat libero, commodo sit amet turpis eget, efficitur pulvinar dolor. Pellentesque vehicula, velit "
    "eget auctor scelerisque, sem risus aliquam lectus, sit amet dapibus massa ex non magna. Donec magna leo, "
    "laoreet quis erat vitae, consequat aliquet tellus. Etiam vitae lectus erat. Mauris interdum feugiat "
    "aliquet. Nunc justo augue, mattis id finibus eu, sagittis id enim. Vivamus malesuada mauris sed nibh "
    "luctus, porta bibendum quam ornare. Vestibulum ante ipsum primis in faucibus orci luctus et ultrices "
    "posuere cubilia curae; Vivamus malesuada magna nec diam tempus, laoreet imperdiet magna faucibus. Aliquam "
    "erat volutpat. Mauris faucibus justo quis velit pellentesque, eget tincidunt lacus aliquam. Duis nec "
    "sapien eget est placerat rhoncus. Cras tincidunt elit in nisi vestibulum, quis blandit urna convallis. "
    "Quisque vitae arcu sit amet tortor dictum molestie. Integer at tellus vel lorem feugiat consequat.\n\n"
    "Aenean mattis lobortis quam in venenatis. Sed euismod convallis lectus vel euismod. Vestibulum consequat "
    "luctus neque. Quisque consequat bibendum neque eget mollis. Vivamus viverra vehicula eros vel dapibus. "
    "Nullam id lectus aliquam, sagittis mi efficitur, interdum mauris. Nunc at felis lobortis, lobortis erat a,"
    " euismod augue. In id purus malesuada, tempus magna at, porta mi. Sed tristique nunc eget placerat luctus."
    " Pellentesque posuere non purus vitae malesuada. Curabitur hendrerit dolor metus, nec posuere orci "
    "placerat ac. Donec ultrices, erat et consequat luctus, lectus tellus vehicula massa, in ultricies nibh "
    "lorem non ligula. Etiam porta tortor id sem dictum, vitae aliquet nisl finibus. Fusce pharetra, dolor nec "
    "efficitur fermentum, sapien libero sodales nisl, et sagittis urna justo ac ante."
)

HERE = os.path.dirname(os.path.abspath(__file__))


def write_lorem(path=None):
    """Writes LOREM (UTF-8, no trailing newline) to path, default lorem.txt
    next to this file; leaves an identical file alone."""
    path = path or os.path.join(HERE, "lorem.txt")
    data = LOREM.encode("utf-8")
    try:
        with open(path, "rb") as f:
            if f.read() == data:
                return path
    except OSError:
        pass
    with open(path, "wb") as f:
        f.write(data)
    return path


# --------------------------------------------------------------------------
# Shared arithmetic
# --------------------------------------------------------------------------

class Rng:
    """xorshift32: x ^= x << 13; x ^= x >> 17; x ^= x << 5 (mod 2^32)."""

    def __init__(self, seed=SEED):
        self.x = seed & 0xFFFFFFFF

    def next(self):
        x = self.x
        x ^= (x << 13) & 0xFFFFFFFF
        x ^= x >> 17
        x ^= (x << 5) & 0xFFFFFFFF
        self.x = x
        return x

    def rand(self, lo, hi):
        """lo + x % (hi - lo + 1) after one step."""
        return lo + self.next() % (hi - lo + 1)

    def colour(self):
        """0xRRGGBB = x & 0xFFFFFF after one step."""
        return self.next() & 0xFFFFFF


def triangle(i, f, r, amp):
    """Value at frame i (t = i/60 s) of the linear ramp 0 -> amp in f ms, then
    amp -> 0 in r ms, repeating; exact integer arithmetic, rounded half up
    in magnitude."""
    F = 60 * f
    R = 60 * r
    tau = (i * 1000) % (F + R)
    a = abs(amp)
    if tau < F:
        v = (2 * a * tau + F) // (2 * F)
    else:
        v = (2 * a * (R - (tau - F)) + R) // (2 * R)
    return v if amp >= 0 else -v


def tick_at(i):
    """LVGL's tick (ms) at frame i: floor(i * 1000 / 60)."""
    return i * 1000 // 60


def label_font(w, h):
    """montserrat_24 above 800x480, 16 above 320x240, else 14 (the demo's
    26 / 20 / 14 px, nearest the wheel has)."""
    if w * h > 800 * 480:
        return lv.font_montserrat_24, 24
    if w * h > 320 * 240:
        return lv.font_montserrat_16, 16
    return lv.font_montserrat_14, 14


# --------------------------------------------------------------------------
# Display
# --------------------------------------------------------------------------

class Display:
    """A headless LVGL display: W x H, XRGB8888, one full-size buffer, direct
    mode. The flush callback appends the flushed area (x1, y1, x2, y2,
    inclusive) to self.areas and calls flush_ready. In direct mode LVGL
    renders exactly its (joined) invalidated areas into the buffer and calls
    the flush callback once per area, so the union of the areas recorded
    during one refr_now is the set of pixels redrawn in that frame."""

    def __init__(self, w, h):
        self.w, self.h = w, h
        self.disp = lv.display_create(w, h)
        lv.display_set_default(self.disp)
        lv.display_set_color_format(self.disp, lv.COLOR_FORMAT.XRGB8888)
        self.buf = bytearray(w * h * 4)
        lv.display_set_buffers(self.disp, self.buf, None, len(self.buf), lv.DISPLAY_RENDER_MODE.DIRECT)
        self.areas = []
        areas = self.areas

        def flush(disp, area, px_map):
            areas.append((area.x1, area.y1, area.x2, area.y2))
            lv.display_flush_ready(disp)

        self._flush = flush
        lv.display_set_flush_cb(self.disp, flush)
        self.screen = lv.display_get_screen_active(self.disp)
        self.layer_top = lv.display_get_layer_top(self.disp)

    def refresh(self):
        lv.refr_now(self.disp)

    def delete(self):
        if self.disp is not None:
            lv.display_delete(self.disp)
            self.disp = None
            self.screen = None
            self.layer_top = None

    def rgb(self):
        """The buffer as packed RGB bytes (top row first)."""
        n = self.w * self.h
        out = bytearray(n * 3)
        out[0::3] = self.buf[2::4]
        out[1::3] = self.buf[1::4]
        out[2::3] = self.buf[0::4]
        return bytes(out)


def union_area(areas):
    """Number of pixels covered by the union of inclusive rectangles."""
    if not areas:
        return 0
    if len(areas) == 1:
        x1, y1, x2, y2 = areas[0]
        return max(0, x2 - x1 + 1) * max(0, y2 - y1 + 1)
    xs = sorted({a[0] for a in areas} | {a[2] + 1 for a in areas})
    total = 0
    for k in range(len(xs) - 1):
        xa, xb = xs[k], xs[k + 1]
        spans = sorted((a[1], a[3] + 1) for a in areas if a[0] <= xa and a[2] + 1 >= xb)
        covered = 0
        cur_s = cur_e = None
        for s, e in spans:
            if cur_e is None or s > cur_e:
                if cur_e is not None:
                    covered += cur_e - cur_s
                cur_s, cur_e = s, e
            elif e > cur_e:
                cur_e = e
        if cur_e is not None:
            covered += cur_e - cur_s
        total += covered * (xb - xa)
    return total


# --------------------------------------------------------------------------
# Images
# --------------------------------------------------------------------------

class Images:
    """The three assets as lv.image_dsc_t; keeps the pixel bytes alive.
    logo_rgb: XRGB8888 (LVGL's native 32-bit format, all opaque);
    logo_argb, avatar: ARGB8888, not premultiplied."""

    def __init__(self, folder):
        self._keep = []
        self.logo_rgb = self._load(folder, "logo_rgb.png", lv.COLOR_FORMAT.XRGB8888, True)
        self.logo_argb = self._load(folder, "logo_argb.png", lv.COLOR_FORMAT.ARGB8888, False)
        self.avatar = self._load(folder, "avatar.png", lv.COLOR_FORMAT.ARGB8888, False)

    def _load(self, folder, name, cf, opaque):
        w, h, data = assets.load_for_lvgl(folder, name, opaque)
        dsc = lv.image_dsc_t()
        dsc.header.magic = lv.IMAGE_HEADER_MAGIC
        dsc.header.cf = cf
        dsc.header.w = w
        dsc.header.h = h
        dsc.header.stride = w * 4
        dsc.data = data
        dsc.data_size = len(data)
        self._keep.append((dsc, data))
        return dsc


# --------------------------------------------------------------------------
# Scenes
# --------------------------------------------------------------------------

def _hex(c):
    return "#%06X" % c


def _coords(obj):
    a = lv.area_t()
    obj.get_coords(a)
    return [a.x1, a.y1, a.x2 - a.x1 + 1, a.y2 - a.y1 + 1]


class Scene:
    """A built scene: ``update(i)`` applies the state of frame i;
    ``describe()`` lists the objects as laid out."""

    def __init__(self, number, display, images):
        self.number = number
        self.name = SCENE_NAMES[number]
        self.d = display
        self.w, self.h = display.w, display.h
        self.images = images
        self.rng = Rng(SEED)
        self.scr = display.screen
        self.falls = []        # (obj, f, r, amp)
        self.colours = []      # (obj, kind): kind "bg" or "text"
        self.arcs = []         # (obj, f, r)
        self.scroll_range = None
        self.info = {}         # per-object extra data for describe(), keyed by id(obj)
        self.notes = {}
        self._last = {}
        self.frame_hooks = []  # more of update(i), scene 15's motion
        self.layout_text = None  # scene 15: the layout for the other engine
        self._setup_screen()

    # The demo's load_scene().
    def _setup_screen(self):
        scr = self.scr
        scr.remove_style_all()
        scr.set_style_bg_opa(lv.OPA.COVER, 0)
        scr.set_style_bg_color(lv.color_hex(SCREEN_BG), 0)
        scr.set_style_text_color(lv.color_hex(0x000000), 0)
        scr.set_style_text_font(lv.font_montserrat_14, 0)
        scr.set_style_pad_all(PAD_BASIC, 0)
        scr.set_style_pad_row(PAD_BASIC, 0)
        scr.set_style_pad_column(PAD_BASIC, 0)
        self.d.layer_top.set_style_bg_opa(lv.OPA.TRANSP, 0)

    def flex(self, main, cross, track):
        self.scr.set_flex_flow(lv.FLEX_FLOW.ROW_WRAP)
        self.scr.set_flex_align(main, cross, track)

    def fall(self, obj, amp):
        f = self.rng.rand(300, 3000)
        r = self.rng.rand(300, 3000)
        self.falls.append((obj, f, r, amp))
        self.info.setdefault(id(obj), {})["fall"] = {"f_ms": f, "r_ms": r, "max": amp}

    def colour_anim(self, obj, kind):
        self.colours.append((obj, kind))
        self.info.setdefault(id(obj), {})["colour_every_frame"] = kind

    def update(self, i):
        """Applies frame i. Like lv_anim, a translate, arc value or scroll
        position is set only when it differs from the previous frame's (LVGL
        invalidates an object whenever a style is set, even to the same
        value); colours are set every frame."""
        rng = self.rng
        for obj, kind in self.colours:
            c = lv.color_hex(rng.colour())
            if kind == "bg":
                obj.set_style_bg_color(c, 0)
            else:
                obj.set_style_text_color(c, 0)
        last = self._last
        for k, (obj, f, r, amp) in enumerate(self.falls):
            v = triangle(i, f, r, amp)
            if last.get(("fall", k)) != v:
                last[("fall", k)] = v
                obj.set_style_translate_y(v, 0)
        for k, (obj, f, r) in enumerate(self.arcs):
            v = triangle(i, f, r, 100)
            if last.get(("arc", k)) != v:
                last[("arc", k)] = v
                obj.set_value(v)
        if self.scroll_range is not None:
            v = triangle(i, SCROLL_MS, SCROLL_MS, self.scroll_range)
            if last.get("scroll") != v:
                last["scroll"] = v
                self.scr.scroll_to_y(v, False)
        for hook in self.frame_hooks:
            hook(i)

    def card(self):
        """The demo's card (default theme 'card' style): a 270x120 lv.obj,
        white, radius 10, 2 px border #E0E0E0 (drawn after the children),
        padding 8, no shadow; content area = the card minus 2 + 8 on each
        side (250x100). Children, relative to the content area: the avatar
        (80x80) aligned LEFT_MID (0, 10); "John Smith" montserrat_24 at
        (100, 0); "A DIY enthusiast" montserrat_14 at (100, 30); a theme
        button at (100, 50) (content-sized: "Connect" montserrat_14 white plus
        padding 20 left/right, 11 top/bottom; bg #2196F3, radius 13, shadow
        width 2, offset (0, 2), #9E9E9E at opa 127) holding the label
        "Connect". Text colour #212121 (theme)."""
        panel = lv.obj(self.scr)
        panel.set_size(270, 120)
        panel.set_style_pad_all(8, 0)
        child = lv.image(panel)
        child.align(lv.ALIGN.LEFT_MID, 0, 0)
        child.set_src(self.images.avatar)
        child = lv.label(panel)
        child.set_text("John Smith")
        child.set_style_text_font(lv.font_montserrat_24, 0)
        child.set_pos(100, 0)
        child = lv.label(panel)
        child.set_text("A DIY enthusiast")
        child.set_style_text_font(lv.font_montserrat_14, 0)
        child.set_pos(100, 30)
        child = lv.button(panel)
        child.set_pos(100, 50)
        label = lv.label(child)
        label.set_text("Connect")
        return panel

    def grid_count(self, cell_w, cell_h):
        cw = self.scr.get_content_width()
        ch = self.scr.get_content_height()
        return max(1, cw // cell_w), max(1, ch // cell_h)

    def finish(self):
        self.scr.update_layout()
        self.d.layer_top.update_layout()

    def describe(self):
        """The laid-out tree (x, y, w, h in screen pixels, translate 0,
        scroll 0) with the animation parameters."""
        def walk(obj):
            item = {"type": type(obj).__name__, "xywh": _coords(obj)}
            extra = self.info.get(id(obj))
            if extra:
                item.update(extra)
            kids = [walk(obj.get_child(k)) for k in range(obj.get_child_count())]
            if kids:
                item["children"] = kids
            return item

        out = {
            "scene": self.number,
            "name": self.name,
            "size": [self.w, self.h],
            "screen_content_wh": [self.scr.get_content_width(), self.scr.get_content_height()],
            "objects": [walk(self.scr.get_child(k)) for k in range(self.scr.get_child_count())],
        }
        if self.scroll_range is not None:
            out["scroll_range"] = self.scroll_range
        out.update(self.notes)
        return out


def scene_0(s):
    """Empty screen: no children; the screen's background colour (full
    screen, opaque) is a new random colour every frame."""
    s.colour_anim(s.scr, "bg")


def scene_1(s):
    """Moving wallpaper: screen padding 0; one image object at (0, 0) of
    size 150 % x 150 % of the screen (1200x720 at 800x480, 2880x1620 at
    1920x1080) showing logo_rgb (XRGB8888, opaque) tiled from its top-left
    corner (inner align TILE); falls with max = -(H // 3) (moves up by up
    to 160 px at 480, 360 px at 1080), so the screen stays covered."""
    s.scr.set_style_pad_all(0, 0)
    img = lv.image(s.scr)
    img.set_size(lv.pct(150), lv.pct(150))
    img.set_src(s.images.logo_rgb)
    img.set_inner_align(lv.image.ALIGN.TILE)
    s.fall(img, -(s.h // 3))


def scene_2(s):
    """Single rectangle: one plain opaque rectangle (no radius, border or
    shadow), 30 % x 30 % of the screen's content area (W-16, H-16),
    truncated (235x139 at 800x480, 571x319 at 1920x1080), centred in the
    content area; background colour new every frame."""
    obj = lv.obj(s.scr)
    obj.remove_style_all()
    obj.set_style_bg_opa(lv.OPA.COVER, 0)
    obj.center()
    obj.set_size(lv.pct(30), lv.pct(30))
    s.colour_anim(obj, "bg")


def scene_3(s):
    """Multiple rectangles: 9 plain opaque rectangles of 25 % x 25 % of the
    content area (196x116 at 800x480, 476x266 at 1920x1080), flex row wrap,
    main SPACE_EVENLY, cross CENTER, tracks SPACE_EVENLY, gaps 8 (3 per row,
    3 rows); each background colour new every frame (in creation order)."""
    s.flex(lv.FLEX_ALIGN.SPACE_EVENLY, lv.FLEX_ALIGN.CENTER, lv.FLEX_ALIGN.SPACE_EVENLY)
    for _ in range(9):
        obj = lv.obj(s.scr)
        obj.remove_style_all()
        obj.set_style_bg_opa(lv.OPA.COVER, 0)
        obj.set_size(lv.pct(25), lv.pct(25))
        s.colour_anim(obj, "bg")


def _image_grid(s, src, cell, rotate):
    s.flex(lv.FLEX_ALIGN.SPACE_EVENLY, lv.FLEX_ALIGN.START, lv.FLEX_ALIGN.SPACE_EVENLY)
    s.scr.set_style_pad_bottom(FALL_HEIGHT + PAD_BASIC, 0)
    hor, ver = s.grid_count(cell, cell)
    s.notes["grid"] = [hor, ver]
    for y in range(ver):
        for x in range(hor):
            obj = lv.image(s.scr)
            obj.set_src(src)
            if x == 0:
                obj.add_flag(lv.OBJ_FLAG.FLEX_IN_NEW_TRACK)
            if rotate:
                angle = s.rng.rand(100, 3500)
                obj.set_rotation(angle)
                s.info.setdefault(id(obj), {})["rotation_deci_deg"] = angle
            s.fall(obj, FALL_HEIGHT)


def scene_4(s):
    """Multiple RGB images: screen padding bottom 88 (80 + 8); flex row wrap,
    main SPACE_EVENLY, cross START, tracks SPACE_EVENLY, gaps 8;
    (content_w // 160) x (content_h // 160) 100x100 logo_rgb images (4 x 2
    at 800x480, content 784x384; 11 x 6 at 1920x1080, content 1904x984),
    each row a new flex track; each image falls with max 80."""
    _image_grid(s, s.images.logo_rgb, 160, False)


def scene_5(s):
    """Multiple ARGB images: as scene 4 with logo_argb (ARGB8888)."""
    _image_grid(s, s.images.logo_argb, 160, False)


def scene_6(s):
    """Rotated ARGB images: as scene 5 but one per 240x240 (3 x 1 at
    800x480, 7 x 4 at 1920x1080); per image, drawn in this order:
    rotation = rand(100, 3500) in 0.1 degree (clockwise, about the image
    centre, anti-aliased; layout uses the unrotated 100x100 box), then the
    fall's f and r; falls with max 80."""
    _image_grid(s, s.images.logo_argb, 240, True)


def scene_7(s):
    """Multiple labels: screen font montserrat_24 (W*H > 800*480) or
    montserrat_16; flex row wrap, main SPACE_EVENLY, cross START, tracks
    SPACE_EVENLY, gaps 8; text size (tw, th) of "Hello LVGL!" (139x27 at 24,
    91x18 at 16); (content_w // (tw*3//2)) x (content_h // (th*3)) labels
    (5 x 8 at 800x480, 9 x 13 at 1920x1080), each row a new track, each
    label content-sized (tw x th); each label's text colour new every frame
    (no background)."""
    font, _ = label_font(s.w, s.h)
    s.flex(lv.FLEX_ALIGN.SPACE_EVENLY, lv.FLEX_ALIGN.START, lv.FLEX_ALIGN.SPACE_EVENLY)
    s.scr.set_style_text_font(font, 0)
    p = lv.point_t()
    lv.text_get_size(p, "Hello LVGL!", font, 0, 0, lv.COORD.MAX, lv.TEXT_FLAG.NONE)
    hor = max(1, s.scr.get_content_width() // (p.x * 3 // 2))
    ver = max(1, s.scr.get_content_height() // (p.y * 3))
    s.notes["grid"] = [hor, ver]
    s.notes["text_size"] = [p.x, p.y]
    for y in range(ver):
        for x in range(hor):
            obj = lv.label(s.scr)
            if x == 0:
                obj.add_flag(lv.OBJ_FLAG.FLEX_IN_NEW_TRACK)
            obj.set_text("Hello LVGL!")
            s.colour_anim(obj, "text")


def scene_8(s):
    """Screen sized text: screen font montserrat_24 / 16 (as scene 7), text
    black; one label at the content origin (8, 8), width 100 % of the
    content (W-16), height = the wrapped text (LVGL wraps at spaces, line
    height = the font's: 27 px for 24, 18 px for 16, no extra line space),
    text LOREM (5,888 characters; 1296 px tall at 1920x1080, 1314 px at
    800x480); the screen scrolls linearly 0 -> range in 3 s and back in 3 s,
    range = label height + 16 - H (the bottom padding included): 232 px at
    1920x1080, 850 px at 800x480."""
    font, _ = label_font(s.w, s.h)
    s.scr.set_style_text_font(font, 0)
    obj = lv.label(s.scr)
    obj.set_width(lv.pct(100))
    obj.set_text(LOREM)
    s.scr.update_layout()
    s.scroll_range = s.scr.get_scroll_bottom()


def scene_9(s):
    """Multiple arcs: flex row wrap, main SPACE_EVENLY, cross START, tracks
    SPACE_EVENLY, gaps 8, normal padding 8; (content_w // 160) x
    (content_h // 160) arcs of 100x100 (4 x 2 at 800x480, 11 x 6 at
    1920x1080), each row a new track. Per arc, drawn in this order: colour
    (0xRRGGBB), then f = rand(1000, 3000), r = rand(1000, 3000). Only the
    indicator is drawn: background angles 0..360, arc rotation 0, so the
    indicator runs clockwise from 0 degrees (3 o'clock) to value * 3.6
    degrees; width 10 px, square ends, centred in the 100x100 box with outer
    radius 50 (the ring covers radii 40..50); value = triangle(i, f, r, 100)
    (range 0..100). Main arc opa 0, knob bg opa 0 (knob invisible)."""
    s.flex(lv.FLEX_ALIGN.SPACE_EVENLY, lv.FLEX_ALIGN.START, lv.FLEX_ALIGN.SPACE_EVENLY)
    hor, ver = s.grid_count(160, 160)
    s.notes["grid"] = [hor, ver]
    for y in range(ver):
        for x in range(hor):
            obj = lv.arc(s.scr)
            if x == 0:
                obj.add_flag(lv.OBJ_FLAG.FLEX_IN_NEW_TRACK)
            obj.set_size(100, 100)
            obj.center()
            obj.set_bg_angles(0, 360)
            obj.set_style_arc_opa(lv.OPA.TRANSP, lv.PART.MAIN)
            obj.set_style_bg_opa(lv.OPA.TRANSP, lv.PART.KNOB)
            obj.set_style_arc_width(10, lv.PART.INDICATOR)
            obj.set_style_arc_rounded(False, lv.PART.INDICATOR)
            colour = s.rng.colour()
            obj.set_style_arc_color(lv.color_hex(colour), lv.PART.INDICATOR)
            f = s.rng.rand(1000, 3000)
            r = s.rng.rand(1000, 3000)
            obj.set_value(0)
            s.arcs.append((obj, f, r))
            s.info[id(obj)] = {"arc_colour": _hex(colour), "arc": {"f_ms": f, "r_ms": r}}


def _card_rows(s, hor, ver):
    """hor x ver cards, row by row, each row a new flex track; returns them
    in creation order."""
    s.notes["grid"] = [hor, ver]
    cards = []
    for y in range(ver):
        for x in range(hor):
            card = s.card()
            if x == 0:
                card.add_flag(lv.OBJ_FLAG.FLEX_IN_NEW_TRACK)
            cards.append(card)
    return cards


def _cards(s, per_card=None):
    s.flex(lv.FLEX_ALIGN.SPACE_EVENLY, lv.FLEX_ALIGN.START, lv.FLEX_ALIGN.SPACE_EVENLY)
    s.scr.set_style_pad_bottom(FALL_HEIGHT + PAD_BASIC, 0)
    hor, ver = s.grid_count(350, 170)
    for card in _card_rows(s, hor, ver):
        if per_card:
            per_card(card)
        s.fall(card, 30)


def scene_10(s):
    """Containers: screen padding bottom 88; flex row wrap, main
    SPACE_EVENLY, cross START, tracks SPACE_EVENLY, gaps 8;
    (content_w // 350) x (content_h // 170) cards (2 x 2 at 800x480, 5 x 5
    at 1920x1080), each row a new track; each card falls with max 30."""
    _cards(s)


def scene_11(s):
    """Containers with overlay: scene 10, plus the display's top layer
    (full screen, above the screen) with background opa 127 (LV_OPA_50),
    its colour new every frame (drawn after the cards' f, r)."""
    _cards(s)
    top = s.d.layer_top
    top.set_style_bg_opa(OPA_50, 0)
    s.colour_anim(top, "bg")
    s.notes["overlay"] = {"opa": OPA_50, "colour_every_frame": "bg"}


def scene_12(s):
    """Containers with opa: scene 10 with style opa 127 on every card: each
    part (card, avatar, labels, button and its shadow) blended at 50 %
    separately, no group layer."""
    _cards(s, lambda card: card.set_style_opa(OPA_50, 0))


def scene_13(s):
    """Containers with opa_layer: scene 10 with opa_layered 127 on every
    card: the card and its children are rendered into a layer, then the
    layer blended at 50 %."""
    _cards(s, lambda card: card.set_style_opa_layered(OPA_50, 0))


def scene_14(s):
    """Containers with scrolling: normal padding (8 all round), row gap 32,
    column gap 8; flex row wrap, main SPACE_EVENLY, cross START, tracks
    START; hor = content_w // 400, ver = max(20, 2 * (content_h // 152))
    (1 x 20 at 800x480, 4 x 20 at 1920x1080), each row a new track; no
    fall; the screen scrolls 0 -> range in 3 s and back, range =
    ver * 120 + (ver - 1) * 32 + 16 - H."""
    s.flex(lv.FLEX_ALIGN.SPACE_EVENLY, lv.FLEX_ALIGN.START, lv.FLEX_ALIGN.START)
    s.scr.set_style_pad_row(32, 0)
    cw = s.scr.get_content_width()
    ch = s.scr.get_content_height()
    hor = max(1, cw // 400)
    ver = max(1, ch // (120 + 32)) * 2
    ver = max(ver, 20)
    _card_rows(s, hor, ver)
    s.scr.update_layout()
    s.scroll_range = s.scr.get_scroll_bottom()


def scene_15(s):
    """Widgets demo: the widgets demo's Profile tab with its slideshow
    scroll, a slider and two switches moving (lvgl_widgets.py)."""
    import lvgl_widgets
    lvgl_widgets.build(s, sys.modules[__name__])


SCENES = [scene_0, scene_1, scene_2, scene_3, scene_4, scene_5, scene_6, scene_7,
          scene_8, scene_9, scene_10, scene_11, scene_12, scene_13, scene_14, scene_15]

_lv_ready = False


def init():
    global _lv_ready
    if not _lv_ready:
        lv.init()
        _lv_ready = True


def build(number, display, images):
    """Builds scene `number` on a fresh Display; returns the Scene."""
    s = Scene(number, display, images)
    SCENES[number](s)
    s.finish()
    return s
