#!/usr/bin/env python3
"""An app in the desktop simulator's window (the app shell's fallback after
KMS and fbdev when an X11 or Wayland display is there), under Xvfb:

    app-window-test.py APP OUTDIR FIRST_GOLDEN X,Y TAPPED_GOLDEN [APP ARGS...]

Starts APP with DISPLAY set to a fresh Xvfb server, waits for its window
(named after the app), captures it at rest (xwd) and compares it with
FIRST_GOLDEN, clicks at X,Y (window pixels) through the X server (xdotool,
XTEST: the shell's SDL window reads it as one finger), waits for the window
to come to rest and compares it with TAPPED_GOLDEN; then closes the window
(the app must end with status 0); then runs APP --frames 30, which must end
by itself though its screen goes still. The goldens are the app's headless frames:
the window must show exactly what a headless run renders.
One PASS/FAIL line per check on stdout; exit status 1 on any failure."""
import importlib.util
import os
import subprocess
import sys
import time

here = os.path.dirname(os.path.abspath(__file__))
spec = importlib.util.spec_from_file_location("simtest", os.path.join(here, "sim-test.py"))
simtest = importlib.util.module_from_spec(spec)
spec.loader.exec_module(simtest)
images = simtest.images

app, outdir, first_golden, tap, tapped_golden = sys.argv[1:6]
extra = sys.argv[6:]
name = os.path.basename(app)
os.makedirs(outdir, exist_ok=True)
failed = 0


def check(ok, text):
    global failed
    print(("PASS " if ok else "FAIL ") + text, flush=True)
    failed += 0 if ok else 1


def capture(wid, env, dump):
    path = os.path.join(outdir, dump + ".xwd")
    subprocess.run(["xwd", "-silent", "-id", wid, "-out", path], env=env, check=True, timeout=20)
    image = simtest.read_xwd(path)
    images.write_png(os.path.join(outdir, dump + ".png"), *image)
    return image


def at_rest(wid, env, dump, limit=20):
    """Captures until two captures 0.5 s apart are equal."""
    last = capture(wid, env, dump)
    deadline = time.monotonic() + limit
    while time.monotonic() < deadline:
        time.sleep(0.5)
        now = capture(wid, env, dump)
        if now == last:
            return now
        last = now
    return last


def compare(image, golden, what):
    problem, error = images.compare(image, images.read_png(golden), 0)
    if error is not None:
        images.write_png(os.path.join(outdir, what + ".error.png"), *error)
    check(problem is None, f"{name} window {what} equals its headless frame {os.path.basename(golden)}"
          + ("" if problem is None else f": {problem}"))


xvfb, display = simtest.start_xvfb()
env = dict(os.environ, DISPLAY=display, SDL_VIDEODRIVER="x11")
log = open(os.path.join(outdir, "app.log"), "w")
proc = subprocess.Popen([app] + extra, env=env, stdout=log, stderr=subprocess.STDOUT)
try:
    out = subprocess.run(["xdotool", "search", "--sync", "--onlyvisible", "--name", "^" + name + "$"], env=env,
                         capture_output=True, text=True, timeout=60).stdout.split()
    check(bool(out), f"{name} opens its simulator window")
    if out:
        wid = out[0]
        compare(at_rest(wid, env, "first"), first_golden, "first")
        x, y = tap.split(",")
        subprocess.run(["xdotool", "mousemove", "--window", wid, x, y, "click", "1"], env=env, check=True, timeout=20)
        time.sleep(0.5)
        compare(at_rest(wid, env, "tapped"), tapped_golden, "tapped")
        subprocess.run(["xdotool", "key", "--window", wid, "Escape"], env=env, timeout=20)
    try:
        status = proc.wait(timeout=20)
    except subprocess.TimeoutExpired:
        proc.kill()
        status = "still running 20 s after Escape"
    check(status == 0, f"{name} ends with status 0 when its window is closed (got {status})")

    # --frames N on a display: the screen goes still after the first
    # frames (only changes are rendered), and the run must still end by
    # itself, soon after N refresh periods.
    with open(os.path.join(outdir, "frames.log"), "w") as frames_log:
        started = time.monotonic()
        framed = subprocess.Popen([app, "--frames", "30"] + extra, env=env, stdout=frames_log, stderr=subprocess.STDOUT)
        try:
            frames_status = framed.wait(timeout=20)
        except subprocess.TimeoutExpired:
            framed.kill()
            frames_status = "still running after 20 s"
    check(frames_status == 0, f"{name} --frames 30 in the window ends by itself with status 0 on a still screen "
          f"(got {frames_status} after {time.monotonic() - started:.1f} s)")
finally:
    if proc.poll() is None:
        proc.kill()
    xvfb.kill()
    log.close()
    print(open(os.path.join(outdir, "app.log")).read(), file=sys.stderr)
sys.exit(1 if failed else 0)
