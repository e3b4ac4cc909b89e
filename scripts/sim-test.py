#!/usr/bin/env python3
"""The desktop simulator's checks (scripts/sim-test): runs fbsim in an Xvfb
server with SDL's x11 driver, drives the mouse through the X server
(xdotool, XTEST) and captures the window as the X server has it (xwd).

    sim-test.py FBSIM OUTDIR

Checks, one PASS/FAIL line each on stdout:
  sim-frames     an animated run of 30 frames through the render loop into
                 the window, never two frames less than a refresh period
                 apart (--check-pacing).
  sim-drag       --drag-check at 640x480: the window at rest equals the
                 scene rendered headless; a mouse drag moves the card by the
                 distance dragged (fbsim checks it); the window afterwards
                 equals the headless render of the scene with the card
                 moved.
  sim-drag-pi5   the same on raspberry-pi-5's board file (720x1280 panel,
                 rotation 90): the window shows the UI turned a quarter
                 clockwise, and the drag goes through DisplayOrientation.
"""
import os
import select
import subprocess
import sys
import time

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), "vm"))
import images  # noqa: E402

TIMEOUT = float(os.environ.get("FBR_SIM_TIMEOUT", "90"))


def log(message):
    print(f"[sim-test] {message}", file=sys.stderr, flush=True)


def start_xvfb():
    """An Xvfb server on a free display number; returns (process, ':N')."""
    read_end, write_end = os.pipe()
    xvfb = subprocess.Popen(["Xvfb", "-displayfd", str(write_end), "-screen", "0", "1600x1600x24", "-nolisten", "tcp"],
                            pass_fds=(write_end,), stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
    os.close(write_end)
    number = b""
    deadline = time.monotonic() + 20
    while not number.endswith(b"\n") and time.monotonic() < deadline:
        ready, _, _ = select.select([read_end], [], [], 1)
        if ready:
            chunk = os.read(read_end, 16)
            if not chunk:
                break
            number += chunk
    os.close(read_end)
    if not number.strip():
        xvfb.kill()
        raise RuntimeError("Xvfb did not start")
    return xvfb, ":" + number.decode().strip()


def window_id(env):
    out = subprocess.run(["xdotool", "search", "--sync", "--onlyvisible", "--name", "^fbsim"], env=env,
                         capture_output=True, text=True, timeout=20).stdout.split()
    if not out:
        raise RuntimeError("no fbsim window")
    return out[0]


def read_xwd(path):
    """A ZPixmap XWD of a 24/32-bit TrueColor window (what xwd writes for
    Xvfb's depth-24 screen) as (width, height, RGB bytes)."""
    import struct
    data = open(path, "rb").read()
    header = struct.unpack(">25I", data[:100])
    header_size, _, pixmap_format, depth, width, height = header[:6]
    byte_order, bits_per_pixel, bytes_per_line = header[7], header[11], header[12]
    red_mask, green_mask, blue_mask, ncolors = header[14], header[15], header[16], header[19]
    if pixmap_format != 2 or bits_per_pixel != 32:
        raise ValueError(f"{path}: unsupported XWD (format {pixmap_format}, {bits_per_pixel} bpp, depth {depth})")
    pos = header_size + ncolors * 12
    order = "<" if byte_order == 0 else ">"
    shifts = [(m, (m & -m).bit_length() - 1) for m in (red_mask, green_mask, blue_mask)]
    out = bytearray(width * height * 3)
    for y in range(height):
        row = data[pos + y * bytes_per_line:pos + y * bytes_per_line + width * 4]
        values = struct.unpack(f"{order}{width}I", row)
        o = y * width * 3
        for v in values:
            out[o] = (v & shifts[0][0]) >> shifts[0][1]
            out[o + 1] = (v & shifts[1][0]) >> shifts[1][1]
            out[o + 2] = (v & shifts[2][0]) >> shifts[2][1]
            o += 3
    return width, height, bytes(out)


def rotate_clockwise(image, degrees):
    """The UI-oriented oracle turned as the board's rotation turns it onto
    the panel (DisplayOrientation: 90 puts the UI's top-left at the panel's
    top-right)."""
    w, h, rgb = image
    for _ in range((degrees // 90) % 4):
        out = bytearray(len(rgb))
        # Clockwise: UI (u, v) → panel (h − 1 − v, u) on a panel h wide.
        for v in range(h):
            for u in range(w):
                s = (v * w + u) * 3
                d = (u * h + (h - 1 - v)) * 3
                out[d:d + 3] = rgb[s:s + 3]
        w, h, rgb = h, w, bytes(out)
    return w, h, rgb


def run_fbsim(name, fbsim, args, outdir, env, rotation=0):
    """Runs fbsim, answering its capture and drag requests. Returns a
    failure message or None."""
    os.makedirs(outdir, exist_ok=True)
    proc = subprocess.Popen([fbsim] + args, stdin=subprocess.PIPE, stdout=subprocess.PIPE, env=env, text=True, bufsize=1)
    failure = None
    deadline = time.monotonic() + TIMEOUT
    wid = None
    try:
        while True:
            left = deadline - time.monotonic()
            if left <= 0:
                failure = f"no end within {TIMEOUT:.0f} s"
                break
            ready, _, _ = select.select([proc.stdout], [], [], left)
            if not ready:
                continue
            line = proc.stdout.readline()
            if not line:
                break
            line = line.rstrip("\n")
            print(f"  {name}: {line}", file=sys.stderr, flush=True)
            words = line.split()
            if words[:1] == ["READY-FOR-SCREENDUMP"]:
                dump = words[1]
                wid = wid or window_id(env)
                xwd_path = os.path.join(outdir, dump + ".xwd")
                subprocess.run(["xwd", "-silent", "-id", wid, "-out", xwd_path], env=env, check=True, timeout=20)
                got = read_xwd(xwd_path)
                images.write_png(os.path.join(outdir, dump + ".png"), *got)
                os.remove(xwd_path)
                oracle_path = os.path.join(outdir, "oracle", dump + ".png")
                want = rotate_clockwise(images.read_png(oracle_path), rotation)
                problem, error_image = images.compare(got, want, 0)
                if problem:
                    failure = failure or f"{dump}: the window differs from the headless render: {problem}"
                    if error_image:
                        images.write_png(os.path.join(outdir, dump + ".error.png"), *error_image)
                else:
                    log(f"{name}: {dump}: the window equals the headless render ({got[0]}x{got[1]})")
                proc.stdin.write(f"SCREENDUMP-DONE {dump}\n")
                proc.stdin.flush()
            elif words[:1] == ["READY-FOR-DRAG"]:
                x0, y0, x1, y1 = (int(w) for w in words[1:5])
                wid = wid or window_id(env)
                steps = 8
                command = ["xdotool", "mousemove", "--window", wid, str(x0), str(y0), "sleep", "0.1", "mousedown", "1"]
                for i in range(1, steps + 1):
                    command += ["sleep", "0.05", "mousemove", "--window", wid,
                                str(x0 + (x1 - x0) * i // steps), str(y0 + (y1 - y0) * i // steps)]
                command += ["sleep", "0.1", "mouseup", "1"]
                subprocess.run(command, env=env, check=True, timeout=30)
    except (OSError, RuntimeError, ValueError, subprocess.SubprocessError) as error:
        failure = f"harness: {error}"
        proc.kill()
    finally:
        if proc.poll() is None:
            try:
                proc.wait(timeout=max(1, deadline - time.monotonic()))
            except subprocess.TimeoutExpired:
                proc.kill()
                proc.wait()
                failure = failure or "killed after the timeout"
    if proc.returncode != 0 and not failure:
        failure = f"fbsim exited with status {proc.returncode}"
    return failure


def main():
    fbsim, outdir = sys.argv[1], sys.argv[2]
    xvfb, display = start_xvfb()
    log(f"Xvfb on {display}")
    # The software renderer: no GL stack needed, pixels as the frame has them.
    env = dict(os.environ, DISPLAY=display, SDL_VIDEODRIVER="x11", SDL_RENDER_DRIVER="software")
    env.pop("WAYLAND_DISPLAY", None)
    checks = [
        ("sim-frames", ["--frames", "30", "--check-pacing"], 0),
        ("sim-drag", ["--size", "640x480", "--drag-check", "--oracle", os.path.join(outdir, "sim-drag", "oracle")], 0),
        ("sim-drag-pi5", ["--board", "raspberry-pi-5", "--drag-check",
                          "--oracle", os.path.join(outdir, "sim-drag-pi5", "oracle")], 90),
    ]
    only = os.environ.get("FBR_SIM_ONLY")
    failures = 0
    try:
        for name, args, rotation in checks:
            if only and only not in name:
                continue
            failure = run_fbsim(name, fbsim, args, os.path.join(outdir, name), env, rotation)
            if failure:
                failures += 1
                print(f"FAIL {name}: {failure}", flush=True)
            else:
                print(f"PASS {name}", flush=True)
    finally:
        xvfb.terminate()
        try:
            xvfb.wait(timeout=5)
        except subprocess.TimeoutExpired:
            xvfb.kill()
    ran = sum(1 for name, _, _ in checks if not only or only in name)
    print(f"sim-test: {ran - failures} passed, {failures} failed", flush=True)
    return 1 if failures else 0


if __name__ == "__main__":
    sys.exit(main())
