#!/usr/bin/env python3
"""Side-by-side benchmark: LVGL 9.5 (software renderer, ``pydevices-lvgl``)
against our engine on the scenes 0-15 of LVGL's ``lv_demo_benchmark``.

    bench.py [--sizes 1920x1080,800x480] [--scenes 0-15] [--frames 300]
             [--warmup 30] [--ours CMD] [--out out/lvglbench]

For each size and scene, alternately:

1. LVGL, in this process: the scene is built on a fresh display
   (``lvgl_scenes.py``); frame i (t = i/60 s, ``lv.tick_inc`` moves LVGL's
   clock accordingly) has its state set from Python, then only
   ``lv.refr_now(disp)`` is timed. ``--warmup`` frames, then ``--frames``
   measured frames: mean and p95 (nearest rank) of the per-frame time in ms,
   and dirty %: the union of the areas LVGL redrew in a frame over the
   screen's pixels, averaged over the measured frames.
2. Our engine, as a subprocess (when ``--ours`` is given):

       CMD --scene N --size WxH --frames F --warmup W --png PATH --assets DIR

   renders frames 0 .. W+F-1 of the same scene (same timing rule: frame i at
   i/60 s), times the last F, writes the last frame to PATH (a PNG) and prints
   one line

       result scene=N mean_ms=X p95_ms=Y dirty_pct=Z [other=value ...]

   or ``unsupported scene=N``. DIR holds logo_rgb.png, logo_argb.png,
   avatar.png (assets.py), lorem.txt (the screen-sized text) and, written
   by step 1 of scene 15, widgets-layout-WxH.txt (LVGL's layout of the
   widgets demo screen, ``lvgl_widgets.layout``).

Per size, a table: LVGL and our mean and p95, the ratios LVGL/ours (above 1:
ours is faster), the dirty % of each, the geometric means of the ratios over
the scenes measured on both, and how many scenes have both ratios >= 1.
Written to the output folder: results.json, geometry-WxH.json (every scene's
objects as LVGL laid them out, with their animation parameters),
scene-NN-WxH-lvgl.png (LVGL's frame after the last measured frame),
scene-NN-WxH-ours.png (our --png) and scene-NN-WxH-pair.png (LVGL left, ours
right, when ours exists), and assets/.

The whole run is pinned to one CPU (the last one allowed) when
os.sched_setaffinity exists; the subprocess inherits the pinning.
"""

import argparse
import gc
import json
import math
import os
import shlex
import subprocess
import sys
import time

HERE = os.path.dirname(os.path.abspath(__file__))
REPO = os.path.dirname(os.path.dirname(HERE))
sys.path.insert(0, HERE)
sys.dont_write_bytecode = True  # no __pycache__ in the source tree

import assets  # noqa: E402

try:
    import lvgl as lv  # noqa: E402
except ImportError:
    sys.exit("bench.py: the 'lvgl' module is missing: pip install pydevices-lvgl==9.5.37 (see scripts/bench lvgl)")

import lvgl_scenes as scenes  # noqa: E402

DASH = "\u2014"
OURS_TIMEOUT_S = 900


def parse_sizes(text):
    out = []
    for part in text.split(","):
        part = part.strip().lower()
        if not part:
            continue
        w, _, h = part.partition("x")
        out.append((int(w), int(h)))
    return out


def parse_scenes(text):
    out = []
    for part in text.split(","):
        part = part.strip()
        if not part:
            continue
        if "-" in part:
            a, b = part.split("-", 1)
            out.extend(range(int(a), int(b) + 1))
        else:
            out.append(int(part))
    for n in out:
        if not 0 <= n < len(scenes.SCENES):
            raise argparse.ArgumentTypeError("scene %d is out of range 0-%d" % (n, len(scenes.SCENES) - 1))
    return out


def p95(values):
    """Nearest-rank 95th percentile."""
    s = sorted(values)
    k = max(0, math.ceil(0.95 * len(s)) - 1)
    return s[k]


def pin_to_one_cpu():
    if not hasattr(os, "sched_setaffinity"):
        print("note: os.sched_setaffinity is not available; the run is not pinned", flush=True)
        return None
    cpus = sorted(os.sched_getaffinity(0))
    cpu = cpus[-1]
    os.sched_setaffinity(0, {cpu})
    print("pinned to CPU %d (of %s); the subprocess inherits it" % (cpu, ",".join(map(str, cpus))), flush=True)
    return cpu


# --------------------------------------------------------------------------
# LVGL
# --------------------------------------------------------------------------

def run_lvgl(number, w, h, images, warmup, frames, png_path, assets_dir):
    """Builds scene `number` on a fresh display, renders warmup + frames
    frames and returns (stats, geometry). Writes the final frame to
    png_path, and a scene's layout for the other engine (scene 15) to
    assets_dir."""
    display = scenes.Display(w, h)
    try:
        scene = scenes.build(number, display, images)
        geometry = scene.describe()
        if scene.layout_text is not None:
            with open(os.path.join(assets_dir, "widgets-layout-%dx%d.txt" % (w, h)), "w") as f:
                f.write(scene.layout_text)
        disp = display.disp
        areas = display.areas
        refr_now = lv.refr_now
        clock = time.perf_counter_ns
        times = []
        frame_areas = []
        tick = 0
        gc.collect()
        gc.disable()
        try:
            for i in range(warmup + frames):
                t = scenes.tick_at(i)
                if t != tick:
                    lv.tick_inc(t - tick)
                    tick = t
                scene.update(i)
                del areas[:]
                t0 = clock()
                refr_now(disp)
                t1 = clock()
                if i >= warmup:
                    times.append(t1 - t0)
                    frame_areas.append(list(areas))
        finally:
            gc.enable()
        # Dirty %: in direct mode LVGL draws only its invalidated areas (after
        # joining) and calls the flush callback once per drawn area with its
        # coordinates; the flush callback (lvgl_scenes.Display) appends each
        # area to a list. The pixels redrawn in a frame are the union of that
        # frame's areas (computed here, outside the timed part; joined areas
        # may still overlap, so they are not simply summed). When more than
        # LVGL's 32 invalidated areas pile up in a frame, LVGL invalidates
        # the whole screen, and that is what this reports (100 %). Recording
        # the area is one list append in the Python flush callback, which must
        # exist anyway to call flush_ready (LVGL waits for it); the callback
        # runs inside the timed refr_now, as a C flush callback would: a
        # frame that redraws a single pixel, callback included, takes about
        # 4 us in all.
        screen = float(w * h)
        dirty = [scenes.union_area(a) / screen for a in frame_areas]
        ms = [t / 1e6 for t in times]
        stats = {
            "mean_ms": sum(ms) / len(ms),
            "p95_ms": p95(ms),
            "median_ms": sorted(ms)[len(ms) // 2],
            "min_ms": min(ms),
            "dirty_pct": 100.0 * sum(dirty) / len(dirty),
            "areas_per_frame": sum(len(a) for a in frame_areas) / len(frame_areas),
        }
        assets.write_png(png_path, w, h, display.rgb(), 3)
        return stats, geometry
    finally:
        display.delete()


# --------------------------------------------------------------------------
# Our engine
# --------------------------------------------------------------------------

class OursUnavailable(Exception):
    pass


def run_ours(cmd, number, w, h, warmup, frames, png_path, assets_dir):
    """Runs our engine; returns (status, stats or None, message).
    status: "ok", "unsupported" or "failed"."""
    argv = shlex.split(cmd) + [
        "--scene", str(number), "--size", "%dx%d" % (w, h),
        "--frames", str(frames), "--warmup", str(warmup),
        "--png", png_path, "--assets", assets_dir,
    ]
    try:
        if os.path.exists(png_path):
            os.remove(png_path)
        proc = subprocess.run(argv, stdout=subprocess.PIPE, stderr=subprocess.PIPE,
                              universal_newlines=True, timeout=OURS_TIMEOUT_S)
    except FileNotFoundError as e:
        raise OursUnavailable(str(e))
    except PermissionError as e:
        raise OursUnavailable(str(e))
    except subprocess.TimeoutExpired:
        return "failed", None, "timed out after %d s" % OURS_TIMEOUT_S
    status = None
    fields = {}
    for line in proc.stdout.splitlines():
        words = line.strip().split()
        if not words or words[0] not in ("result", "unsupported"):
            continue
        kv = {}
        for word in words[1:]:
            k, sep, v = word.partition("=")
            if sep:
                kv[k] = v
        if kv.get("scene") not in (None, str(number)):
            continue
        status, fields = words[0], kv
    if proc.returncode != 0 and status != "unsupported":
        tail = (proc.stderr.strip().splitlines() or proc.stdout.strip().splitlines() or [""])[-1]
        return "failed", None, "exit status %d: %s" % (proc.returncode, tail)
    if status == "unsupported":
        return "unsupported", None, ""
    if status != "result":
        return "failed", None, "no 'result' line in its output"
    stats = {}
    for key in ("mean_ms", "p95_ms", "dirty_pct"):
        try:
            stats[key] = float(fields[key])
        except (KeyError, ValueError):
            stats[key] = None
    if stats["mean_ms"] is None or stats["p95_ms"] is None:
        return "failed", None, "the result line lacks mean_ms or p95_ms"
    stats["extra"] = {k: v for k, v in fields.items() if k not in ("scene", "mean_ms", "p95_ms", "dirty_pct")}
    return "ok", stats, ""


def write_pair(lvgl_png, ours_png, out_path):
    """LVGL's frame on the left, ours on the right, an 8 px grey bar between."""
    lw, lh, lpx = assets.read_png(lvgl_png)
    ow, oh, opx = assets.read_png(ours_png)
    gap = 8
    w = lw + gap + ow
    h = max(lh, oh)
    out = bytearray(b"\x80" * (w * h * 3))

    def put(px, pw, ph, x0):
        rgb = bytearray(pw * ph * 3)
        rgb[0::3] = px[0::4]
        rgb[1::3] = px[1::4]
        rgb[2::3] = px[2::4]
        for y in range(ph):
            o = (y * w + x0) * 3
            out[o:o + pw * 3] = rgb[y * pw * 3:(y + 1) * pw * 3]

    put(lpx, lw, lh, 0)
    put(opx, ow, oh, lw + gap)
    assets.write_png(out_path, w, h, bytes(out), 3)


# --------------------------------------------------------------------------
# Report
# --------------------------------------------------------------------------

def fmt(v, digits=3):
    return DASH if v is None else ("%.*f" % (digits, v))


def ratio(a, b):
    if a is None or b is None or b <= 0:
        return None
    return a / b


def geomean(values):
    if not values:
        return None
    return math.exp(sum(math.log(v) for v in values) / len(values))


def print_table(size_key, rows, summary):
    print()
    print("LVGL %s vs ours at %s: ms per frame (render only), ratio = LVGL / ours (above 1: ours is faster)"
          % (lv_version(), size_key))
    head = ("#", "scene", "LVGL mean", "LVGL p95", "ours mean", "ours p95", "ratio mean", "ratio p95",
            "LVGL dirty%", "ours dirty%")
    widths = (2, 26, 9, 9, 9, 9, 10, 9, 11, 11)
    line = "  ".join(("%-*s" if k == 1 else "%*s") % (widths[k], head[k]) for k in range(len(head)))
    print(line)
    print("-" * len(line))
    for row in rows:
        lvs = row.get("lvgl") or {}
        ours = row.get("ours") or {}
        cells = (
            str(row["scene"]), row["name"][:26],
            fmt(lvs.get("mean_ms")), fmt(lvs.get("p95_ms")),
            fmt(ours.get("mean_ms")), fmt(ours.get("p95_ms")),
            fmt(row.get("ratio_mean"), 2), fmt(row.get("ratio_p95"), 2),
            fmt(lvs.get("dirty_pct"), 1), fmt(ours.get("dirty_pct"), 1),
        )
        note = ""
        if row.get("ours_status") not in (None, "ok", "not run"):
            note = "  (ours: %s)" % row["ours_status"]
        if row.get("lvgl_error"):
            note += "  (LVGL: %s)" % row["lvgl_error"]
        print("  ".join(("%-*s" if k == 1 else "%*s") % (widths[k], cells[k]) for k in range(len(cells))) + note)
    print("-" * len(line))
    print("geometric mean of the ratios over %d scene(s) measured on both: mean %s, p95 %s; "
          "scenes with both ratios >= 1.0: %d of %d"
          % (summary["scenes_compared"], fmt(summary["geomean_ratio_mean"], 2),
             fmt(summary["geomean_ratio_p95"], 2), summary["scenes_ours_not_slower"], summary["scenes_compared"]))
    sys.stdout.flush()


_LV_VERSION = None


def lv_version():
    global _LV_VERSION
    if _LV_VERSION is None:
        try:
            _LV_VERSION = "%d.%d.%d" % (lv.version_major(), lv.version_minor(), lv.version_patch())
        except Exception:  # pragma: no cover - older bindings
            _LV_VERSION = "?"
    return _LV_VERSION


def wheel_version():
    try:
        from importlib import metadata
        return metadata.version("pydevices-lvgl")
    except Exception:
        return None


def main():
    ap = argparse.ArgumentParser(description="LVGL 9.5 benchmark scenes 0-15: LVGL vs our engine")
    ap.add_argument("--sizes", default="1920x1080,800x480", help="comma-separated WxH (default 1920x1080,800x480)")
    ap.add_argument("--scenes", default="0-15", help="scenes, e.g. 0-15 or 1,3,8-10 (default 0-15)")
    ap.add_argument("--frames", type=int, default=300, help="measured frames per scene (default 300)")
    ap.add_argument("--warmup", type=int, default=30, help="frames rendered before measuring (default 30)")
    ap.add_argument("--ours", default=None, help="our engine's command (run with --scene ... --assets DIR)")
    ap.add_argument("--out", default=None, help="output folder (default out/lvglbench under the repository)")
    args = ap.parse_args()

    sizes = parse_sizes(args.sizes)
    scene_list = parse_scenes(args.scenes)
    if args.frames < 1 or args.warmup < 0:
        ap.error("--frames must be >= 1 and --warmup >= 0")
    out_dir = os.path.abspath(args.out) if args.out else os.path.join(REPO, "out", "lvglbench")
    assets_dir = os.path.join(out_dir, "assets")
    os.makedirs(out_dir, exist_ok=True)

    cpu = pin_to_one_cpu()

    assets.write_assets(assets_dir)
    scenes.write_lorem()
    scenes.write_lorem(os.path.join(assets_dir, "lorem.txt"))

    scenes.init()
    images = scenes.Images(assets_dir)

    ours_cmd = args.ours
    ours_disabled_reason = None if ours_cmd else "not given"
    print("LVGL %s (pydevices-lvgl %s), %d warm-up + %d measured frames per scene, simulated 60 Hz; ours: %s"
          % (lv_version(), wheel_version() or "?", args.warmup, args.frames, ours_cmd or DASH), flush=True)

    results = {
        "lvgl_version": lv_version(),
        "wheel": "pydevices-lvgl %s" % (wheel_version() or "?"),
        "frames": args.frames,
        "warmup": args.warmup,
        "cpu": cpu,
        "ours_cmd": ours_cmd,
        "python": sys.version.split()[0],
        "sizes": {},
    }

    for (w, h) in sizes:
        size_key = "%dx%d" % (w, h)
        rows = []
        geometry = []
        for n in scene_list:
            row = {"scene": n, "name": scenes.SCENE_NAMES[n], "lvgl": None, "ours": None,
                   "ours_status": "not run", "ratio_mean": None, "ratio_p95": None}
            lvgl_png = os.path.join(out_dir, "scene-%02d-%s-lvgl.png" % (n, size_key))
            ours_png = os.path.join(out_dir, "scene-%02d-%s-ours.png" % (n, size_key))
            pair_png = os.path.join(out_dir, "scene-%02d-%s-pair.png" % (n, size_key))
            try:
                stats, geo = run_lvgl(n, w, h, images, args.warmup, args.frames, lvgl_png, assets_dir)
                row["lvgl"] = stats
                geometry.append(geo)
            except Exception as e:  # keep going with the other scenes
                row["lvgl_error"] = "%s: %s" % (type(e).__name__, e)
            msg = ""
            if ours_cmd and ours_disabled_reason is not None:
                row["ours_status"] = "unavailable"
            elif ours_cmd:
                try:
                    status, ostats, msg = run_ours(ours_cmd, n, w, h, args.warmup, args.frames, ours_png, assets_dir)
                except OursUnavailable as e:
                    ours_disabled_reason = str(e)
                    status, ostats, msg = "failed", None, str(e)
                    print("warning: cannot run our engine (%s); LVGL only from here" % e, file=sys.stderr, flush=True)
                row["ours_status"] = status
                row["ours"] = ostats
                if msg:
                    row["ours_message"] = msg
                if ostats and row["lvgl"]:
                    row["ratio_mean"] = ratio(row["lvgl"]["mean_ms"], ostats["mean_ms"])
                    row["ratio_p95"] = ratio(row["lvgl"]["p95_ms"], ostats["p95_ms"])
                if row["lvgl"] and os.path.exists(ours_png):
                    try:
                        write_pair(lvgl_png, ours_png, pair_png)
                    except Exception as e:
                        print("warning: scene %d %s: no pair image (%s)" % (n, size_key, e), file=sys.stderr)
            if os.path.exists(pair_png) and not os.path.exists(ours_png):
                os.remove(pair_png)  # a stale pair from an earlier run
            lvs = row["lvgl"] or {}
            ours = row["ours"] or {}
            note = ""
            if row["ours_status"] not in ("ok", "not run"):
                note += "  [ours %s%s]" % (row["ours_status"], ": " + msg if msg else "")
            if row.get("lvgl_error"):
                note += "  [LVGL %s]" % row["lvgl_error"]
            print("  %s scene %2d %-26s LVGL %s ms (p95 %s, dirty %s%%)  ours %s ms (p95 %s)%s"
                  % (size_key, n, row["name"], fmt(lvs.get("mean_ms")), fmt(lvs.get("p95_ms")),
                     fmt(lvs.get("dirty_pct"), 1), fmt(ours.get("mean_ms")), fmt(ours.get("p95_ms")), note),
                  file=sys.stderr, flush=True)
            rows.append(row)

        both = [r for r in rows if r["ratio_mean"] is not None and r["ratio_p95"] is not None]
        summary = {
            "scenes_compared": len(both),
            "geomean_ratio_mean": geomean([r["ratio_mean"] for r in both]),
            "geomean_ratio_p95": geomean([r["ratio_p95"] for r in both]),
            "scenes_ours_not_slower": sum(1 for r in both if r["ratio_mean"] >= 1.0 and r["ratio_p95"] >= 1.0),
        }
        results["sizes"][size_key] = {"scenes": rows, "summary": summary}
        with open(os.path.join(out_dir, "geometry-%s.json" % size_key), "w") as f:
            json.dump(geometry, f, indent=1)
        print_table(size_key, rows, summary)

    with open(os.path.join(out_dir, "results.json"), "w") as f:
        json.dump(results, f, indent=2)
    shown = os.path.relpath(out_dir)
    if shown.startswith(".."):
        shown = out_dir
    print("\nwritten: %s (results.json, geometry-*.json, scene-*.png)" % shown)


if __name__ == "__main__":
    main()
