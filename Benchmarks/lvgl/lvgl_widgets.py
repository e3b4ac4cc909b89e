"""Scene 15 of LVGL 9.5's ``lv_demo_benchmark``, "Widgets demo", as far as
the ``pydevices-lvgl`` wheel allows (``lvgl_scenes.scene_15`` is this
module's ``build``).

LVGL's benchmark runs ``lv_demo_widgets()`` and its slideshow (the Profile,
Analytics and Shop tabs in turn, each scrolled down and back, the tab view
sliding between them; 20 s). The wheel is built without the demos (no
``lv.demo_widgets``, no demo images), so this builds the widgets demo's
first screen, the Profile tab, object by object as
``lv_demo_widgets.c`` (9.x) builds it for a large display, with the same
widgets, styles, grids and texts:

* Screen as the benchmark's ``widgets_demo_cb``: padding 0 except the top
  (8: the benchmark's 48 px header for its performance label is left out,
  as in every scene here), the default light theme re-initialised with
  primary BLUE, secondary RED and font montserrat_16 (the demo's
  ``font_normal`` for a display 720 px wide or more; ``font_large`` is
  montserrat_24). Both sizes measured here (800x480 and 1920x1080) are
  ``DISP_LARGE`` in the demo, so both use its large layout.
* A tab view with a 70 px tab bar (tabs "Profile", "Analytics", "Shop";
  the tab bar's left padding W/2, the title "LVGL v9.5.0" and the muted
  "Widgets demo" at its left). Deviation: the LVGL logo left of the
  title is an empty 42x42 box (the wheel has no demo images).
* The Profile tab: panel 1 (avatar, "Elena Smith", a wrapped muted
  description, e-mail and phone with their symbols, a "Log out" button and
  a disabled "Invite" button), panel 2 "Your profile" (user name and
  password text areas with placeholders, a gender drop-down, a birthday
  text area) and panel 3 "Your skills" (the "Experience" slider and two
  switches), on the demo's grids. Deviation: the avatar is the 80x80
  benchmark avatar of ``assets.py`` (the demo's own picture is not in the
  wheel).
* The hidden keyboard and the floating colour changer (a white circle
  holding seven transparent colour buttons, and the round primary button
  with the tint symbol at the bottom right), as the demo makes them.
* Deviation: the Analytics and Shop tabs are left empty; they are never
  shown here (no tab change).

Motion, computed per frame like every scene (``Scene.update``), each value
set only when it changes:

* The slideshow's first step: the Profile tab scrolls from 0 to its
  ``get_scroll_bottom()`` and back, linearly, at the demo's speed
  (``lv_anim_speed(dpi)``: 130 px/s at LVGL's default 130 dpi), forever
  (the demo goes on to the next tab instead). At 1920x1080 the tab fits
  the screen and does not scroll, as in the demo.
* Deviation, standing in for the animations of the Analytics tab (its
  scales' arcs and needle, which run through the demo's whole 20 s): the
  Experience slider's value runs 0 -> 100 -> 0 (2000 ms each way,
  ``triangle``), switch1 is on in every other 1000 ms period of LVGL's
  tick (off first) and switch2 in every other 1500 ms period (``lv_obj_add_state`` /
  ``remove_state`` of CHECKED: the knob jumps, no animation).

For the other engine, ``layout()`` lists every object's box as LVGL laid
it out (screen pixels, scroll 0) and the motion's parameters; ``bench.py``
writes it to ``widgets-layout-WxH.txt`` in the assets folder (see
``write_layout``).
"""

import array

import lvgl as lv

# The demo's grids for DISP_LARGE (lv_demo_widgets.c, profile_create).
_FR = lv.grid_fr
_C = lv.GRID_CONTENT
_END = lv.GRID_TEMPLATE_LAST

TAB_BAR_H = 70
SLIDER_MS = 2000           # the slider's ramp, each way
SWITCH_MS = (1000, 1500)   # toggle periods of the two switches


def _grid(values):
    return array.array("i", values)


class _Widgets:
    """The built screen: the objects the motion moves and the layout."""

    def __init__(self, s):
        self.s = s
        self.boxes = []          # (key, obj)
        self.scroll_range = 0
        self.scroll_ms = 0
        self.keep = []           # grid arrays LVGL points to

    def box(self, key, obj):
        self.boxes.append((key, obj))
        return obj


def build(s, common):
    """Builds scene 15 on the Scene `s` (see the module doc); `common` is
    ``lvgl_scenes`` (its triangle and tick_at)."""
    d = s.d
    w, h = s.w, s.h
    scr = s.scr
    # widgets_demo_cb: no side and bottom padding; the top stays 8.
    scr.set_style_pad_left(0, 0)
    scr.set_style_pad_right(0, 0)
    scr.set_style_pad_bottom(0, 0)

    font_large = lv.font_montserrat_24
    font_normal = lv.font_montserrat_16
    theme = lv.theme_default_init(d.disp, lv.palette_main(lv.PALETTE.BLUE), lv.palette_main(lv.PALETTE.RED),
                                  False, font_normal)
    lv.display_set_theme(d.disp, theme)

    style_text_muted = lv.style_t()
    lv.style_init(style_text_muted)
    lv.style_set_text_opa(style_text_muted, 127)       # LV_OPA_50
    style_title = lv.style_t()
    lv.style_init(style_title)
    lv.style_set_text_font(style_title, font_large)
    style_icon = lv.style_t()
    lv.style_init(style_icon)
    lv.style_set_text_color(style_icon, lv.palette_main(lv.PALETTE.BLUE))
    lv.style_set_text_font(style_icon, font_large)

    wd = _Widgets(s)
    wd.keep += [style_text_muted, style_title, style_icon]
    box = wd.box

    tv = box("tabview", lv.tabview(scr))
    tv.set_tab_bar_size(TAB_BAR_H)
    scr.set_style_text_font(font_normal, 0)
    t1 = box("tab", tv.add_tab("Profile"))
    tv.add_tab("Analytics")
    tv.add_tab("Shop")

    tab_bar = box("tab_bar", tv.get_tab_bar())
    for k in range(3):
        box("tab_button_%d" % k, tv.get_tab_button(k))
    tab_bar.set_style_pad_left(w // 2, 0)
    logo = lv.obj(tab_bar)               # the demo's LVGL logo (not in the wheel)
    logo.remove_style_all()
    logo.set_size(42, 42)
    logo.add_flag(lv.OBJ_FLAG.IGNORE_LAYOUT)
    logo.align(lv.ALIGN.LEFT_MID, -w // 2 + 25, 0)
    label = box("title", lv.label(tab_bar))
    label.add_style(style_title, 0)
    label.add_flag(lv.OBJ_FLAG.IGNORE_LAYOUT)
    label.set_text("LVGL v%d.%d.%d" % (lv.version_major(), lv.version_minor(), lv.version_patch()))
    label.align_to(logo, lv.ALIGN.OUT_RIGHT_TOP, 10, 0)
    label = box("subtitle", lv.label(tab_bar))
    label.set_text("Widgets demo")
    label.add_flag(lv.OBJ_FLAG.IGNORE_LAYOUT)
    label.add_style(style_text_muted, 0)
    label.align_to(logo, lv.ALIGN.OUT_RIGHT_BOTTOM, 10, 0)

    # profile_create(t1)
    panel1 = box("panel1", lv.obj(t1))
    panel1.set_height(lv.SIZE_CONTENT)
    avatar = box("avatar", lv.image(panel1))
    avatar.set_src(s.images.avatar)
    name = box("name", lv.label(panel1))
    name.set_text("Elena Smith")
    name.add_style(style_title, 0)
    dsc = box("description", lv.label(panel1))
    dsc.add_style(style_text_muted, 0)
    dsc.set_text("This is a short description of me. Take a look at my profile!")
    dsc.set_long_mode(lv.label.LONG_MODE.WRAP)
    email_icn = box("email_icon", lv.label(panel1))
    email_icn.add_style(style_icon, 0)
    email_icn.set_text(lv.SYMBOL.ENVELOPE)
    email_label = box("email", lv.label(panel1))
    email_label.set_text("elena@smith.com")
    call_icn = box("call_icon", lv.label(panel1))
    call_icn.add_style(style_icon, 0)
    call_icn.set_text(lv.SYMBOL.CALL)
    call_label = box("call", lv.label(panel1))
    call_label.set_text("+79 246 123 4567")
    log_out_btn = box("log_out", lv.button(panel1))
    log_out_btn.set_height(lv.SIZE_CONTENT)
    lbl = lv.label(log_out_btn)
    lbl.set_text("Log out")
    lbl.center()
    invite_btn = box("invite", lv.button(panel1))
    invite_btn.add_state(lv.STATE.DISABLED)
    invite_btn.set_height(lv.SIZE_CONTENT)
    lbl = lv.label(invite_btn)
    lbl.set_text("Invite")
    lbl.center()

    kb = lv.keyboard(scr)
    kb.add_flag(lv.OBJ_FLAG.HIDDEN)

    panel2 = box("panel2", lv.obj(t1))
    panel2.set_height(lv.SIZE_CONTENT)
    panel2_title = box("panel2_title", lv.label(panel2))
    panel2_title.set_text("Your profile")
    panel2_title.add_style(style_title, 0)
    user_name_label = box("user_name_label", lv.label(panel2))
    user_name_label.set_text("User name")
    user_name_label.add_style(style_text_muted, 0)
    user_name = box("user_name", lv.textarea(panel2))
    user_name.set_one_line(True)
    user_name.set_placeholder_text("Your name")
    password_label = box("password_label", lv.label(panel2))
    password_label.set_text("Password")
    password_label.add_style(style_text_muted, 0)
    password = box("password", lv.textarea(panel2))
    password.set_one_line(True)
    password.set_password_mode(True)
    password.set_placeholder_text("Min. 8 chars.")
    gender_label = box("gender_label", lv.label(panel2))
    gender_label.set_text("Gender")
    gender_label.add_style(style_text_muted, 0)
    gender = box("gender", lv.dropdown(panel2))
    gender.set_options_static("Male\nFemale\nOther")
    birthday_label = box("birthday_label", lv.label(panel2))
    birthday_label.set_text("Birthday")
    birthday_label.add_style(style_text_muted, 0)
    birthdate = box("birthday", lv.textarea(panel2))
    birthdate.set_one_line(True)

    panel3 = box("panel3", lv.obj(t1))
    panel3_title = box("panel3_title", lv.label(panel3))
    panel3_title.set_text("Your skills")
    panel3_title.add_style(style_title, 0)
    experience_label = box("experience_label", lv.label(panel3))
    experience_label.set_text("Experience")
    experience_label.add_style(style_text_muted, 0)
    slider1 = box("slider", lv.slider(panel3))
    slider1.set_width(lv.pct(95))
    # The demo's slider_event_cb: at least 60 px of extra draw area around
    # the slider (for the value it shows above the knob while pressed), so
    # every value change redraws the slider with that margin.
    wd.keep.append(_ext_draw_60)
    slider1.add_event_cb(_ext_draw_60, lv.EVENT.REFR_EXT_DRAW_SIZE, None)
    slider1.refresh_ext_draw_size()
    team_player_label = box("team_player_label", lv.label(panel3))
    team_player_label.set_text("Team player")
    team_player_label.add_style(style_text_muted, 0)
    sw1 = box("switch1", lv.switch(panel3))
    hard_working_label = box("hard_working_label", lv.label(panel3))
    hard_working_label.set_text("Hard-working")
    hard_working_label.add_style(style_text_muted, 0)
    sw2 = box("switch2", lv.switch(panel3))

    main_col = _grid([_FR(1), _FR(1), _END])
    main_row = _grid([_C, _C, _END])
    g1_col = _grid([_C, 5, _C, _FR(2), _FR(1), _FR(1), _END])
    g1_row = _grid([_C, _C, 10, _C, _C, _END])
    g2_col = _grid([_FR(1), _FR(1), _END])
    g2_row = _grid([_C, 5, _C, 30, 5, _C, 30, _END])
    wd.keep += [main_col, main_row, g1_col, g1_row, g2_col, g2_row]
    A = lv.GRID_ALIGN
    t1.set_grid_dsc_array(main_col, main_row)
    panel1.set_grid_cell(A.STRETCH, 0, 2, A.CENTER, 0, 1)
    panel1.set_grid_dsc_array(g1_col, g1_row)
    avatar.set_grid_cell(A.CENTER, 0, 1, A.CENTER, 0, 5)
    name.set_grid_cell(A.START, 2, 2, A.CENTER, 0, 1)
    dsc.set_grid_cell(A.STRETCH, 2, 4, A.START, 1, 1)
    email_icn.set_grid_cell(A.CENTER, 2, 1, A.CENTER, 3, 1)
    email_label.set_grid_cell(A.START, 3, 1, A.CENTER, 3, 1)
    call_icn.set_grid_cell(A.CENTER, 2, 1, A.CENTER, 4, 1)
    call_label.set_grid_cell(A.START, 3, 1, A.CENTER, 4, 1)
    log_out_btn.set_grid_cell(A.STRETCH, 4, 1, A.CENTER, 3, 2)
    invite_btn.set_grid_cell(A.STRETCH, 5, 1, A.CENTER, 3, 2)

    panel2.set_grid_cell(A.STRETCH, 0, 1, A.START, 1, 1)
    panel2.set_grid_dsc_array(g2_col, g2_row)
    panel2_title.set_grid_cell(A.START, 0, 2, A.CENTER, 0, 1)
    user_name.set_grid_cell(A.STRETCH, 0, 1, A.CENTER, 3, 1)
    user_name_label.set_grid_cell(A.START, 0, 1, A.START, 2, 1)
    password.set_grid_cell(A.STRETCH, 1, 1, A.CENTER, 3, 1)
    password_label.set_grid_cell(A.START, 1, 1, A.START, 2, 1)
    birthdate.set_grid_cell(A.STRETCH, 1, 1, A.CENTER, 6, 1)
    birthday_label.set_grid_cell(A.START, 1, 1, A.START, 5, 1)
    gender.set_grid_cell(A.STRETCH, 0, 1, A.CENTER, 6, 1)
    gender_label.set_grid_cell(A.START, 0, 1, A.START, 5, 1)

    panel3.set_grid_cell(A.STRETCH, 1, 1, A.STRETCH, 1, 1)
    panel3.set_grid_dsc_array(g2_col, g2_row)
    panel3_title.set_grid_cell(A.START, 0, 2, A.CENTER, 0, 1)
    slider1.set_grid_cell(A.CENTER, 0, 2, A.CENTER, 3, 1)
    experience_label.set_grid_cell(A.START, 0, 1, A.START, 2, 1)
    sw2.set_grid_cell(A.START, 1, 1, A.CENTER, 6, 1)
    hard_working_label.set_grid_cell(A.START, 0, 1, A.START, 5, 1)
    sw1.set_grid_cell(A.START, 0, 1, A.CENTER, 6, 1)
    team_player_label.set_grid_cell(A.START, 1, 1, A.START, 5, 1)

    # color_changer_create(tv)
    dpx = lv.dpx
    color_cont = box("color_changer", lv.obj(tv))
    color_cont.remove_style_all()
    color_cont.set_flex_flow(lv.FLEX_FLOW.ROW)
    color_cont.set_flex_align(lv.FLEX_ALIGN.SPACE_EVENLY, lv.FLEX_ALIGN.CENTER, lv.FLEX_ALIGN.CENTER)
    color_cont.add_flag(lv.OBJ_FLAG.FLOATING)
    color_cont.set_style_bg_color(lv.color_white(), 0)
    color_cont.set_style_pad_right(dpx(55), 0)
    color_cont.set_style_bg_opa(lv.OPA.COVER, 0)
    color_cont.set_style_radius(lv.RADIUS_CIRCLE, 0)
    color_cont.set_size(dpx(60), dpx(60))
    color_cont.align(lv.ALIGN.BOTTOM_RIGHT, -dpx(10), -dpx(10))
    for p in (lv.PALETTE.BLUE, lv.PALETTE.GREEN, lv.PALETTE.BLUE_GREY, lv.PALETTE.ORANGE,
              lv.PALETTE.RED, lv.PALETTE.PURPLE, lv.PALETTE.TEAL):
        c = lv.button(color_cont)
        c.set_style_bg_color(lv.palette_main(p), 0)
        c.set_style_radius(lv.RADIUS_CIRCLE, 0)
        c.set_style_opa(lv.OPA.TRANSP, 0)
        c.set_size(20, 20)
        c.remove_flag(lv.OBJ_FLAG.SCROLL_ON_FOCUS)
    btn = box("color_button", lv.button(tv))
    btn.add_flag(lv.OBJ_FLAG.FLOATING | lv.OBJ_FLAG.CLICKABLE)
    btn.set_style_bg_color(lv.color_white(), lv.STATE.CHECKED)
    btn.set_style_pad_all(10, 0)
    btn.set_style_radius(lv.RADIUS_CIRCLE, 0)
    btn.set_style_shadow_width(0, 0)
    tint = lv.SYMBOL.TINT.encode() + b"\0"   # a C string: LVGL keeps the pointer
    wd.keep.append(tint)
    btn.set_style_bg_image_src(tint, 0)
    btn.set_size(dpx(50), dpx(50))
    btn.align(lv.ALIGN.BOTTOM_RIGHT, -dpx(15), -dpx(15))

    scr.update_layout()

    # The slideshow's scroll of the Profile tab: 0 -> bottom -> 0 at the
    # demo's lv_anim_speed(dpi).
    wd.scroll_range = t1.get_scroll_bottom()
    wd.scroll_ms = speed_to_time(lv.display_get_dpi(d.disp), wd.scroll_range)
    # The tab's vertical scrollbar (shown while it can scroll) at both ends.
    wd.scrollbars = [_scrollbar(t1)]
    if wd.scroll_range > 0:
        t1.scroll_to_y(wd.scroll_range, False)
        scr.update_layout()
        wd.scrollbars.append(_scrollbar(t1))
        t1.scroll_to_y(0, False)
        scr.update_layout()

    last = {}

    def frame(i):
        if wd.scroll_range > 0:
            v = common.triangle(i, wd.scroll_ms, wd.scroll_ms, wd.scroll_range)
            if last.get("scroll") != v:
                last["scroll"] = v
                t1.scroll_to_y(v, False)
        v = common.triangle(i, SLIDER_MS, SLIDER_MS, 100)
        if last.get("slider") != v:
            last["slider"] = v
            slider1.set_value(v, False)
        t = common.tick_at(i)
        for k, (sw, period) in enumerate(((sw1, SWITCH_MS[0]), (sw2, SWITCH_MS[1]))):
            on = (t // period) % 2 == 1
            if last.get(("switch", k)) != on:
                last[("switch", k)] = on
                if on:
                    sw.add_state(lv.STATE.CHECKED)
                else:
                    sw.remove_state(lv.STATE.CHECKED)

    s.frame_hooks.append(frame)
    s.widgets = wd
    s.notes["widgets"] = {"scroll_range": wd.scroll_range, "scroll_ms": wd.scroll_ms,
                          "slider_ms": SLIDER_MS, "switch_ms": list(SWITCH_MS)}
    s.layout_text = layout(wd)


def _ext_draw_60(e):
    e.set_ext_draw_size(60)


def speed_to_time(speed, distance):
    """The duration (ms) LVGL gives an animation over `distance` whose time
    is ``lv_anim_speed(speed)``: the speed is stored in units of 10/s
    (rounded), the time is distance * 1000 / speed, within 0..10000 ms
    (lv_anim.c, ``lv_anim_speed_clamped`` and its conversion at start)."""
    if distance <= 0:
        return 0
    per_s = ((speed + 5) // 10) * 10
    return min(10000, max(1, distance * 1000 // per_s))


def _scrollbar(obj):
    hor = lv.area_t()
    ver = lv.area_t()
    obj.get_scrollbar_area(hor, ver)
    return (ver.x1, ver.y1, ver.x2 - ver.x1 + 1, ver.y2 - ver.y1 + 1)


def _coords(obj):
    a = lv.area_t()
    obj.get_coords(a)
    return (a.x1, a.y1, a.x2 - a.x1 + 1, a.y2 - a.y1 + 1)


def layout(wd):
    """The text the other engine reads: one line per object,
    ``KEY X Y W H`` (screen pixels, inclusive coordinates turned into a
    size, the tab scrolled to 0), then the motion: ``scroll RANGE MS``
    (RANGE <= 0: the tab does not scroll), ``scrollbar I X Y W H`` (at
    scroll 0 and, when the tab scrolls, at RANGE; the bar moves linearly
    in between), ``slider_ms MS``, ``switch1_ms MS``, ``switch2_ms MS``."""
    lines = ["%s %d %d %d %d" % ((key,) + _coords(obj)) for key, obj in wd.boxes]
    lines.append("scroll %d %d" % (wd.scroll_range, wd.scroll_ms))
    for k, sb in enumerate(wd.scrollbars):
        lines.append("scrollbar %d %d %d %d %d" % ((k,) + sb))
    lines.append("slider_ms %d" % SLIDER_MS)
    lines.append("switch1_ms %d" % SWITCH_MS[0])
    lines.append("switch2_ms %d" % SWITCH_MS[1])
    return "\n".join(lines) + "\n"
