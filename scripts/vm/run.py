#!/usr/bin/env python3
"""Boots one QEMU guest for scripts/vm-test and judges it.

Prints one line per check on stdout (`PASS name: …` / `FAIL name: …`), the
guest's serial console on stderr, and exits 1 if any check failed.

The guest side (scripts/vm/init and the test programs) speaks on the
serial console, one marker per line:
  READY-FOR-SCREENDUMP NAME   the screen shows what NAME should; the guest
                              blocks reading one line from the console.
                              We take a QMP screendump, compare it with
                              GOLDENS/vm-NAME.png, and answer
                              `SCREENDUMP-DONE NAME`. NAME: letters,
                              digits, '-' and '_'.
  READY-FOR-SCREENDUMP-UNCHECKED NAME [EARLIER]   as above, but the dump
                              is only saved (a moving screen has no golden);
                              with EARLIER, it must differ from that dump.
  VMTEST-RESULT TEST PASS|FAIL DETAIL   one finished test program.
  VMTEST-CHECK PASS|FAIL DETAIL         one check inside a test program
                              (touchprobe prints one per gesture).
  READY-FOR-POINTER NAME [X0 Y0 X1 Y1]  the guest waits for a pointer
                              drag on QEMU's virtio tablet (axes 0…32767):
                              we send it over QMP (input-send-event: move to
                              X0, Y0 — default 16384, 8192 — press left,
                              move to X1, Y1 — default 24576, 8192 —
                              release) and answer `POINTER-DONE NAME`.
  READY-FOR-TAP NAME X Y      the guest waits for a tap on the virtio
                              tablet at X, Y (axes 0…32767): we move the
                              pointer there, press the left button,
                              release it 50 ms later and answer
                              `TAP-DONE NAME` (scripts/vm/run-app: a tap
                              on an app that has no test hooks).
  READY-FOR-KEY NAME QCODE    a press and release of a key on the virtio
                              keyboard (--keyboard), QEMU's key name
                              ("tab", "ret", "up"); answers `KEY-DONE NAME`.
  READY-FOR-WHEEL NAME N      N clicks of the tablet's wheel (positive:
                              down); answers `WHEEL-DONE NAME`.
  READY-FOR-DISPLAY-SIZE NAME W H   the guest waits while we make QEMU's
                              display W×H: a SetDesktopSize from a VNC
                              client on QEMU's VNC server (every boot with a
                              display has one, on a socket in --work), which
                              QEMU hands to the display device as its new
                              preferred size (virtio-gpu: a new EDID and
                              display info, and a config interrupt).
                              Answers `DISPLAY-SIZE-DONE NAME`, or
                              `DISPLAY-SIZE-REFUSED NAME REASON` where the
                              device cannot change size (QEMU's VGA).
  VMTEST-CHECK SKIP DETAIL    a check that cannot run on this guest, with
                              the reason: printed `SKIP`, neither passed
                              nor failed.
  VMTEST-DONE                 every test ran; the guest then leaves QEMU
                              (isa-debug-exit on amd64, power-off on arm64).
QEMU is killed by its PID if the guest has not finished by --timeout.
"""
import argparse
import ctypes
import json
import os
import re
import selectors
import signal
import socket
import struct
import subprocess
import sys
import time

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import images  # noqa: E402

# isa-debug-exit turns the byte written to its port into exit status
# (value << 1) | 1; /init writes 0 when every test passed, 1 otherwise.
DEBUG_EXIT_PASSED, DEBUG_EXIT_FAILED = 1, 3


class QMP:
    """A minimal QMP client on a Unix socket."""

    def __init__(self, path, deadline):
        while True:
            try:
                self.sock = socket.socket(socket.AF_UNIX, socket.SOCK_STREAM)
                self.sock.connect(path)
                break
            except OSError:
                self.sock.close()
                if time.monotonic() > deadline:
                    raise
                time.sleep(0.05)
        self.sock.settimeout(max(1.0, deadline - time.monotonic()))
        self.buffer = b""
        self.read()                                   # the greeting
        self.execute("qmp_capabilities")

    def read(self):
        while b"\n" not in self.buffer:
            chunk = self.sock.recv(65536)
            if not chunk:
                raise ConnectionError("QMP socket closed")
            self.buffer += chunk
        line, self.buffer = self.buffer.split(b"\n", 1)
        return json.loads(line)

    def execute(self, command, **arguments):
        message = {"execute": command}
        if arguments:
            message["arguments"] = arguments
        self.sock.sendall(json.dumps(message).encode() + b"\n")
        while True:
            reply = self.read()
            if "return" in reply:
                return reply["return"]
            if "error" in reply:
                raise RuntimeError(f"QMP {command}: {reply['error'].get('desc', reply['error'])}")
            # Anything else is an asynchronous event; skip it.


def recv_exact(sock, n):
    data = b""
    while len(data) < n:
        chunk = sock.recv(n - len(data))
        if not chunk:
            raise EOFError("the VNC server closed the connection")
        data += chunk
    return data


# The answers QEMU's VNC server gives a SetDesktopSize (ExtendedDesktopSize
# rectangle's status, RFB 7.8.2; 4 is QEMU's own "request forwarded").
VNC_RESIZE_FORWARDED, VNC_RESIZE_INVALID = 4, 3


def vnc_set_desktop_size(path, width, height, timeout=10):
    """Asks QEMU's VNC server on the Unix socket PATH for a display of
    WIDTH x HEIGHT, as a VNC client whose window was resized does
    (RFB 3.8, no authentication, SetDesktopSize with one screen). QEMU
    passes the size to the display device (dpy_set_ui_info), if it takes
    one. Returns the status of QEMU's answer: VNC_RESIZE_FORWARDED, or
    VNC_RESIZE_INVALID for a device without that (the standard VGA)."""
    with socket.socket(socket.AF_UNIX) as sock:
        sock.settimeout(timeout)
        sock.connect(path)
        recv_exact(sock, 12)                               # "RFB 003.008\n"
        sock.sendall(b"RFB 003.008\n")
        types = recv_exact(sock, recv_exact(sock, 1)[0])
        if 1 not in types:
            raise RuntimeError(f"the VNC server wants authentication (types {list(types)})")
        sock.sendall(b"\x01")                              # security: none
        if struct.unpack(">I", recv_exact(sock, 4))[0] != 0:
            raise RuntimeError("the VNC server refused the connection")
        sock.sendall(b"\x01")                              # ClientInit, shared
        recv_exact(sock, 20)                               # ServerInit: size, pixel format
        recv_exact(sock, struct.unpack(">I", recv_exact(sock, 4))[0])   # and name
        # SetEncodings: ExtendedDesktopSize (-308), DesktopSize (-223).
        sock.sendall(struct.pack(">BBHii", 2, 0, 2, -308, -223))
        # SetDesktopSize: the size and one screen covering it.
        sock.sendall(struct.pack(">BBHHBB", 251, 0, width, height, 1, 0)
                     + struct.pack(">IHHHHI", 0, 0, 0, width, height, 0))
        # The answer: an ExtendedDesktopSize rectangle with x = 1 (a client
        # asked) and y = the status. Nothing else was asked for, so only
        # framebuffer updates of those two encodings, bells and cut text come.
        while True:
            kind = recv_exact(sock, 1)[0]
            if kind == 0:
                count = struct.unpack(">xH", recv_exact(sock, 3))[0]
                for _ in range(count):
                    x, y, _, _, encoding = struct.unpack(">HHHHi", recv_exact(sock, 12))
                    if encoding == -308:
                        recv_exact(sock, 16 * recv_exact(sock, 4)[0])
                        if x == 1:
                            return y
                    elif encoding != -223:
                        raise RuntimeError(f"unexpected VNC rectangle encoding {encoding}")
            elif kind == 2:
                pass
            elif kind == 3:
                recv_exact(sock, 3)
                recv_exact(sock, struct.unpack(">I", recv_exact(sock, 4))[0])
            else:
                raise RuntimeError(f"unexpected VNC message {kind}")


def qemu_command(arch, accel, cpu, display, kernel, initrd, qmp_path, append="",
                 nic=("-nic", "none"), extra=(), icount_shift=None):
    """The QEMU command line of a guest (and its serial console's name):
    ARCH amd64 or arm64 (QEMU's "virt" board), the DISPLAY device (empty:
    none), a virtio tablet, the serial console on standard input and output,
    QMP on QMP_PATH, no monitor, no reboot (a reboot ends QEMU). NIC and
    EXTRA (more arguments: disks, devices) for scripts/vm/systemd.py.
    ICOUNT_SHIFT (TCG only): the guest's clock counts instructions, 2^SHIFT
    ns each, instead of following the host's (see --icount)."""
    # -cpu max gives the guest a hardware random number generator (RDRAND,
    # RNDR), so the kernel's random pool is ready at once: with the default
    # CPU models the first getrandom() (the Swift runtime makes one at
    # start) blocks for about a second under TCG waiting for jitter entropy.
    if arch == "amd64":
        machine = ["qemu-system-x86_64", "-accel", accel, "-cpu", "max", "-vga", "none",
                   "-device", "isa-debug-exit,iobase=0xf4,iosize=0x04"]
        console = "ttyS0"
    else:
        # The boards' architecture, on QEMU's generic "virt" board. No
        # isa-debug-exit there: /init powers off (PSCI), QEMU exits with 0.
        # pauth-impdef: a cheaper pointer-authentication hash under TCG.
        machine = ["qemu-system-aarch64", "-M", "virt", "-accel", "tcg", "-cpu", cpu or "max,pauth-impdef=on"]
        console = "ttyAMA0"
    if icount_shift is not None:
        if accel != "tcg" and arch == "amd64":
            raise ValueError("an instruction-counted clock (-icount) needs TCG")
        # sleep=off: while the guest idles, its clock jumps to the next timer
        # at once rather than waiting for the host's clock to get there.
        machine += ["-icount", f"shift={icount_shift},sleep=off"]
    command = machine + [
        "-m", "512", "-smp", "1", "-display", "none", *(["-device", display] if display else []),
        # An absolute pointer for touchprobe's pointer-as-touch check.
        "-device", "virtio-tablet-pci",
        *nic, *extra, "-no-reboot", "-monitor", "none", "-serial", "stdio",
        "-qmp", f"unix:{qmp_path},server=on,wait=off",
        "-kernel", kernel, "-initrd", initrd,
        "-append", f"console={console} panic=-1 quiet loglevel=3 " + append,
    ]
    return command, console


def main():
    parser = argparse.ArgumentParser()
    parser.add_argument("--name", required=True, help="run name: prefixes check lines and output files")
    parser.add_argument("--arch", default="amd64", choices=["amd64", "arm64"], help="guest architecture")
    parser.add_argument("--kernel", required=True)
    parser.add_argument("--initrd", required=True)
    parser.add_argument("--display", required=True,
                        help="QEMU display device, e.g. virtio-gpu-pci,xres=640,yres=480; empty: none (the vkms boot)")
    parser.add_argument("--out", required=True, help="folder for screendumps, error images and the serial log")
    parser.add_argument("--work", required=True, help="folder for the QMP socket and raw screendumps")
    parser.add_argument("--goldens", required=True)
    parser.add_argument("--timeout", type=float, default=60)
    parser.add_argument("--tolerance", type=int, default=0)
    parser.add_argument("--accel", default="tcg")
    # For the timed vkms boot (scripts/vm-test): under plain TCG the guest's
    # clock is the host's, so whenever the host keeps QEMU's threads off a
    # CPU (4–9 ms behind other processes on a busy 2-core host) the guest
    # sees its render thread wake late and misses a vblank it had time for.
    # With an instruction-counted clock the guest's time advances only by
    # what it executes (2^SHIFT ns per instruction) and by jumps to the next
    # timer while it idles, so the host's load cannot reach it: a stall of
    # QEMU's stretches the run, and the guest's time stands still meanwhile.
    parser.add_argument("--icount", type=int, default=None, metavar="SHIFT",
                        help="TCG with an instruction-counted guest clock: 2^SHIFT ns per instruction")
    parser.add_argument("--update-goldens", action="store_true")
    parser.add_argument("--append", default="")
    # For scripts/qemu-board: the board's CPU model (arm64) and its goldens'
    # prefix (GOLDENS/PREFIXNAME.png).
    parser.add_argument("--cpu", default=None, help="QEMU CPU model (default: max, with pauth-impdef=on on arm64)")
    parser.add_argument("--golden-prefix", default="vm-")
    parser.add_argument("--keyboard", action="store_true", help="give the guest a virtio keyboard (READY-FOR-KEY)")
    args = parser.parse_args()

    os.makedirs(args.out, exist_ok=True)
    os.makedirs(args.work, exist_ok=True)
    qmp_path = os.path.join(args.work, f"{args.name}.qmp")
    if os.path.exists(qmp_path):
        os.unlink(qmp_path)

    results = []   # one bool per check

    def check(passed, text):
        results.append(passed)
        print(f"{'PASS' if passed else 'FAIL'} {args.name}: {text}", flush=True)

    # A keyboard for apps driven by keys (scripts/vm/run-app --key).
    keyboard = ("-device", "virtio-keyboard-pci") if args.keyboard else ()
    # A VNC server on a socket, for READY-FOR-DISPLAY-SIZE (nothing
    # connects to it otherwise).
    vnc_path = os.path.join(os.path.abspath(args.work), f"{args.name}.vnc")
    if os.path.exists(vnc_path):
        os.unlink(vnc_path)
    vnc = ("-vnc", f"unix:{vnc_path}") if args.display else ()
    command, console = qemu_command(args.arch, args.accel, args.cpu, args.display, args.kernel, args.initrd,
                                    qmp_path, args.append, extra=keyboard + vnc, icount_shift=args.icount)
    accel = "tcg" if args.arch == "arm64" else args.accel
    clock = f", instruction-counted clock ({2 ** args.icount} ns per instruction)" if args.icount is not None else ""
    sys.stderr.write(f"[run.py] {args.name}: QEMU with {accel}{clock}\n")
    start = time.monotonic()
    deadline = start + args.timeout
    qemu_log = open(os.path.join(args.out, "qemu.log"), "wb")
    # QEMU must not outlive us (a Ctrl-C, a killed scripts/vm-test): the
    # kernel sends it SIGKILL when we die, and SIGTERM here ends the loop.
    libc = ctypes.CDLL(None, use_errno=True)
    PR_SET_PDEATHSIG = 1
    qemu = subprocess.Popen(command, stdin=subprocess.PIPE, stdout=subprocess.PIPE, stderr=qemu_log,
                            preexec_fn=lambda: libc.prctl(PR_SET_PDEATHSIG, signal.SIGKILL))
    signal.signal(signal.SIGTERM, lambda *_: sys.exit(f"[run.py] {args.name}: terminated"))
    serial_log = open(os.path.join(args.out, "serial.log"), "wb")
    qmp = None
    done = booted = False
    pending = b""
    selector = selectors.DefaultSelector()
    selector.register(qemu.stdout, selectors.EVENT_READ)

    def screendump(name):
        nonlocal qmp
        if qmp is None:
            qmp = QMP(qmp_path, deadline)
        ppm = os.path.join(os.path.abspath(args.work), f"{args.name}-{name}.ppm")
        qmp.execute("screendump", filename=ppm)
        actual = images.read_ppm(ppm)
        os.unlink(ppm)
        png = os.path.join(args.out, f"{name}.png")
        images.write_png(png, *actual)
        golden = os.path.join(args.goldens, f"{args.golden_prefix}{name}.png")
        error_png = os.path.join(args.out, f"{name}.error.png")
        if os.path.exists(error_png):
            os.unlink(error_png)
        if args.update_goldens:
            if os.path.exists(golden) and images.read_png(golden) == actual:
                check(True, f"screendump {name}: golden {golden} unchanged")
            else:
                images.write_png(golden, *actual)
                check(True, f"screendump {name}: wrote golden {golden}")
            return
        if not os.path.exists(golden):
            check(False, f"screendump {name}: no golden {golden} (FBR_UPDATE_GOLDENS=1 writes it); got {png}")
            return
        problem, error = images.compare(actual, images.read_png(golden), args.tolerance)
        if problem is None:
            check(True, f"screendump {name} matches {os.path.basename(golden)} ({actual[0]}x{actual[1]})")
        else:
            if error:
                images.write_png(error_png, *error)
            check(False, f"screendump {name}: {problem}; see {png}" + (f" and {error_png}" if error else ""))

    unchecked_dumps = {}

    def unchecked_screendump(name, earlier):
        nonlocal qmp
        if qmp is None:
            qmp = QMP(qmp_path, deadline)
        ppm = os.path.join(os.path.abspath(args.work), f"{args.name}-{name}.ppm")
        qmp.execute("screendump", filename=ppm)
        actual = images.read_ppm(ppm)
        os.unlink(ppm)
        images.write_png(os.path.join(args.out, f"{name}.png"), *actual)
        unchecked_dumps[name] = actual
        if earlier is None:
            return
        if earlier not in unchecked_dumps:
            check(False, f"screendump {name}: no earlier screendump {earlier} to compare with")
        else:
            check(unchecked_dumps[earlier] != actual,
                  f"screendump {name} differs from {earlier} (the screen changed between them)"
                  if unchecked_dumps[earlier] != actual else
                  f"screendump {name} is the same as {earlier}: the screen did not change between them")

    def pointer_steps(steps):
        """Sends each step's events on the virtio tablet (axes 0…32767),
        50 ms apart; a step is a list of ("move", x, y) and ("button",
        down) items."""
        nonlocal qmp
        if qmp is None:
            qmp = QMP(qmp_path, deadline)

        def event(item):
            if item[0] == "move":
                return [{"type": "abs", "data": {"axis": "x", "value": item[1]}},
                        {"type": "abs", "data": {"axis": "y", "value": item[2]}}]
            return [{"type": "btn", "data": {"down": item[1], "button": "left"}}]

        for step in steps:
            qmp.execute("input-send-event", events=[e for item in step for e in event(item)])
            time.sleep(0.05)

    def key_press(qcode):
        """A press and release of the key QEMU calls `qcode` ("tab", "ret",
        "up"…), on the virtio keyboard (run.py --keyboard)."""
        nonlocal qmp
        if qmp is None:
            qmp = QMP(qmp_path, deadline)
        for down in (True, False):
            qmp.execute("input-send-event", events=[{"type": "key", "data": {"down": down, "key": {"type": "qcode", "data": qcode}}}])
            time.sleep(0.05)

    def wheel_turn(detents):
        """`detents` clicks of the virtio tablet's wheel: positive down
        (libinput's positive vertical axis), negative up; 100 ms apart."""
        nonlocal qmp
        if qmp is None:
            qmp = QMP(qmp_path, deadline)
        button = "wheel-down" if detents > 0 else "wheel-up"
        for _ in range(abs(detents)):
            for down in (True, False):
                qmp.execute("input-send-event", events=[{"type": "btn", "data": {"down": down, "button": button}}])
            time.sleep(0.1)

    def pointer_drag(x0=16384, y0=8192, x1=24576, y1=8192):
        """A left-button drag on the virtio tablet."""
        pointer_steps([[("move", x0, y0)], [("button", True)], [("move", x1, y1)], [("button", False)]])

    def pointer_tap(x, y):
        """A left-button press and release at one place on the tablet."""
        if x > 32767 or y > 32767:
            raise ValueError(f"{x}, {y} is off the tablet's axes (0…32767)")
        pointer_steps([[("move", x, y)], [("button", True)], [("button", False)]])

    # The guest's input requests: READY-FOR-KIND NAME ARGS…, answered
    # KIND-DONE NAME once sent (a failure is reported; the guest's own check
    # of what it saw fails too). KIND, its arguments' pattern, the action.
    input_requests = (
        ("POINTER", r"(?: (\d+) (\d+) (\d+) (\d+))?", lambda *v: pointer_drag(*[int(a) for a in v if a is not None])),
        ("TAP", r" (\d+) (\d+)", lambda x, y: pointer_tap(int(x), int(y))),
        ("KEY", r" ([a-z0-9_]+)", lambda qcode: key_press(qcode)),
        ("WHEEL", r" (-?\d+)", lambda n: wheel_turn(int(n))))

    def handle(line):
        nonlocal done, booted
        text = line.decode(errors="replace").rstrip("\r\n")
        sys.stderr.write(f"  [{args.name} {time.monotonic() - start:5.1f}s] {text}\n")
        if "VMTEST-BOOTED" in text:
            booted = True
        # Names become file names: letters, digits, '-' and '_' only.
        m = re.search(r"READY-FOR-SCREENDUMP ([A-Za-z0-9_-]+)", text)
        if m:
            name = m.group(1)
            try:
                screendump(name)
            except Exception as e:   # report, and let the guest go on
                check(False, f"screendump {name}: {e}")
            qemu.stdin.write(f"SCREENDUMP-DONE {name}\n".encode())
            qemu.stdin.flush()
        # A screendump of a moving screen: kept, not compared with a golden;
        # with a second name it must differ from that earlier dump (the
        # screen changed between the two).
        m = re.search(r"READY-FOR-SCREENDUMP-UNCHECKED ([A-Za-z0-9_-]+)(?: ([A-Za-z0-9_-]+))?", text)
        if m:
            name, earlier = m.group(1), m.group(2)
            try:
                unchecked_screendump(name, earlier)
            except Exception as e:
                check(False, f"screendump {name}: {e}")
            qemu.stdin.write(f"SCREENDUMP-DONE {name}\n".encode())
            qemu.stdin.flush()
        for kind, args_pattern, act in input_requests:
            m = re.search(rf"READY-FOR-{kind} ([A-Za-z0-9_-]+){args_pattern}", text)
            if m:
                try:
                    act(*m.groups()[1:])
                except Exception as e:
                    check(False, f"{kind.lower()} {m.group(1)}: {e}")
                qemu.stdin.write(f"{kind}-DONE {m.group(1)}\n".encode())
                qemu.stdin.flush()
        m = re.search(r"READY-FOR-DISPLAY-SIZE ([A-Za-z0-9_-]+) (\d+) (\d+)", text)
        if m:
            name, width, height = m.group(1), int(m.group(2)), int(m.group(3))
            answer = f"DISPLAY-SIZE-DONE {name}"
            try:
                status = vnc_set_desktop_size(vnc_path, width, height) if vnc else None
                if status is None:
                    answer = f"DISPLAY-SIZE-REFUSED {name} no display device"
                elif status == VNC_RESIZE_INVALID:
                    answer = f"DISPLAY-SIZE-REFUSED {name} QEMU's {args.display.split(',')[0]} takes no size from the display (VNC status 3)"
                elif status != VNC_RESIZE_FORWARDED:
                    raise RuntimeError(f"VNC SetDesktopSize answered status {status}")
            except Exception as e:
                check(False, f"display size {name} {width}x{height}: {e}")
                answer = f"DISPLAY-SIZE-REFUSED {name} {e}"
            qemu.stdin.write(f"{answer}\n".encode())
            qemu.stdin.flush()
        m = re.search(r"VMTEST-CHECK SKIP (.*)", text)
        if m:
            print(f"SKIP {args.name}: {m.group(1).strip()}", flush=True)
        m = re.search(r"VMTEST-RESULT (\S+) (PASS|FAIL) ?(.*)", text)
        if m:
            check(m.group(2) == "PASS", f"{m.group(1)} {m.group(3)}".strip())
        m = re.search(r"VMTEST-CHECK (PASS|FAIL) (.*)", text)
        if m:
            check(m.group(1) == "PASS", m.group(2).strip())
        if "VMTEST-DONE" in text:
            done = True

    while True:
        left = deadline - time.monotonic()
        if left <= 0:
            break
        if not selector.select(timeout=min(left, 1.0)):
            if qemu.poll() is not None:
                break
            continue
        chunk = os.read(qemu.stdout.fileno(), 65536)
        if not chunk:
            break
        serial_log.write(chunk)
        pending += chunk
        while b"\n" in pending:
            line, pending = pending.split(b"\n", 1)
            handle(line)
    if pending:
        handle(pending)

    timed_out = False
    try:
        status = qemu.wait(timeout=max(0.5, min(5.0, deadline - time.monotonic())))
    except subprocess.TimeoutExpired:
        timed_out = True
        qemu.kill()
        status = qemu.wait()
    elapsed = time.monotonic() - start
    if timed_out:
        check(False, f"guest killed after the {args.timeout:.0f} s timeout"
                     + ("" if booted else " (it never reached /init)") + f"; serial log {args.out}/serial.log")
    elif not done:
        check(False, f"guest stopped before finishing its tests (QEMU exit {status}); "
                     f"see {args.out}/serial.log and {args.out}/qemu.log")
    elif status not in (DEBUG_EXIT_PASSED, DEBUG_EXIT_FAILED, 0):
        check(False, f"QEMU exited with {status}; see {args.out}/qemu.log")
    if done and len(results) == 0:
        check(False, "the guest ran no test")
    sys.stderr.write(f"[run.py] {args.name}: QEMU ran {elapsed:.1f} s, exit status {status}\n")
    sys.exit(0 if all(results) and results else 1)


if __name__ == "__main__":
    main()
