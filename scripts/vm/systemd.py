#!/usr/bin/env python3
"""Drives scripts/vm-systemd's guest: an arm64 Debian root file system with
systemd as PID 1 and sshd, booted in QEMU (scripts/vm/run.py's command
line), an app deployed with scripts/deploy over real ssh, and the checks of
issue 23's "Deploy under a real systemd" and of its seat management under
logind. Prints `PASS NAME: …` or
`FAIL NAME: …` per check, `figure NAME: …` lines with the times measured,
and exits 1 when any check failed.

Boots: (1) deploy with scripts/deploy, then `systemctl reboot` (QEMU runs
with -no-reboot, so it exits and is started again on the same disk: a
power cycle); (2) the checks, on the boot after the deploy.

Times: from the host's monotonic clock, except where the guest's own
clock says it better (the new PID after kill -9: one shell loop in the
guest, /proc/uptime before the kill and at the first new PID). The screen
is polled with QMP screendumps, back to back (each takes about 10–50 ms).
"""
import argparse
import os
import shlex
import socket
import subprocess
import sys
import time

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import images  # noqa: E402
from run import QMP, qemu_command  # noqa: E402

HOST_KEY_ALIAS = "fbr-vm-systemd"   # the name in the cached known_hosts
UNIT = "fbruntime.service"


class Guest:
    """One boot of the disk in QEMU: serial log, QMP, ssh."""

    def __init__(self, args, boot):
        self.args = args
        self.boot = boot
        with socket.socket() as s:          # a free port for ssh's hostfwd
            s.bind(("127.0.0.1", 0))
            self.port = s.getsockname()[1]
        self.qmp_path = os.path.join(args.work, f"boot{boot}.qmp")
        if os.path.exists(self.qmp_path):
            os.unlink(self.qmp_path)
        command, _ = qemu_command(
            "arm64", "tcg", "cortex-a72", f"virtio-gpu-pci,xres={args.width},yres={args.height}",
            args.kernel, args.initrd, self.qmp_path,
            # console=tty1 first: the VT shows the kernel's lines as a
            # board's screen would; the serial console stays /dev/console.
            append="root=/dev/vda rw console=tty1 console=ttyAMA0",
            nic=("-nic", f"user,model=virtio-net-pci,hostfwd=tcp:127.0.0.1:{self.port}-:22"),
            extra=("-drive", f"file={args.disk},format=raw,if=none,id=root", "-device", "virtio-blk-pci,drive=root",
                   "-device", "virtio-keyboard-pci"))
        self.serial = open(os.path.join(args.out, f"serial-boot{boot}.log"), "wb")
        self.started = time.monotonic()
        self.qemu = subprocess.Popen(command, stdin=subprocess.DEVNULL, stdout=self.serial,
                                     stderr=open(os.path.join(args.out, f"qemu-boot{boot}.log"), "wb"))
        self.qmp = None
        self.control = os.path.join(args.work, f"ssh-boot{boot}")

    def ssh_options(self, multiplexed=True):
        options = [f"Port={self.port}", f"IdentityFile={self.args.key}", "IdentitiesOnly=yes",
                   f"UserKnownHostsFile={self.args.known_hosts}", f"HostKeyAlias={HOST_KEY_ALIAS}",
                   "StrictHostKeyChecking=yes", "BatchMode=yes", "ConnectTimeout=20", "LogLevel=ERROR"]
        if multiplexed:   # the checks' many commands share one connection
            options += ["ControlMaster=auto", f"ControlPath={self.control}", "ControlPersist=600"]
        return options

    def ssh_command(self, command):
        return ["ssh", *[a for o in self.ssh_options() for a in ("-o", o)], "root@127.0.0.1", command]

    def run(self, command, timeout=60, stdin=None):
        """Runs COMMAND in the guest over ssh; returns (status, output)."""
        try:
            done = subprocess.run(self.ssh_command(command), input=stdin, stdout=subprocess.PIPE,
                                  stderr=subprocess.STDOUT, timeout=timeout)
        except subprocess.TimeoutExpired:
            return 124, "(ssh timed out)"
        return done.returncode, done.stdout.decode(errors="replace").strip()

    def out(self, command, timeout=60):
        return self.run(command, timeout)[1]

    def wait_for_ssh(self, timeout):
        deadline = self.started + timeout
        while time.monotonic() < deadline:
            if self.qemu.poll() is not None:
                return None
            if self.run("true", timeout=30)[0] == 0:
                return time.monotonic() - self.started
            time.sleep(1)
        return None

    def screendump(self, name=None):
        if self.qmp is None:
            self.qmp = QMP(self.qmp_path, time.monotonic() + 30)
        ppm = os.path.join(os.path.abspath(self.args.work), "screendump.ppm")
        self.qmp.execute("screendump", filename=ppm)
        image = images.read_ppm(ppm)
        os.unlink(ppm)
        if name:
            images.write_png(os.path.join(self.args.out, f"{name}.png"), *image)
        return image

    def wait_for_exit(self, timeout):
        try:
            self.qemu.wait(timeout=timeout)
            return True
        except subprocess.TimeoutExpired:
            return False

    def kill(self):
        subprocess.run(["ssh", "-o", f"ControlPath={self.control}", "-O", "exit", "x"],
                       stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
        if self.qemu.poll() is None:
            self.qemu.kill()
            self.qemu.wait()


def main():
    parser = argparse.ArgumentParser()
    for a in ("kernel", "initrd", "disk", "key", "known-hosts", "golden", "out", "work"):
        parser.add_argument(f"--{a}", required=True)
    parser.add_argument("--width", type=int, default=640)
    parser.add_argument("--height", type=int, default=480)
    parser.add_argument("--deploy", required=True, help="scripts/deploy's arguments after HOST (one string)")
    parser.add_argument("--deb", help="an app's .deb to install with apt after the checks")
    parser.add_argument("--deb-unit", help="the .deb's unit")
    parser.add_argument("--deb-golden", help="the .deb's app's first screen")
    parser.add_argument("--boot-timeout", type=float, default=300)
    parser.add_argument("--keep", action="store_true")
    args = parser.parse_args()
    os.makedirs(args.out, exist_ok=True)
    os.makedirs(args.work, exist_ok=True)
    results = []

    def check(name, passed, text):
        results.append(passed)
        print(f"{'PASS' if passed else 'FAIL'} {name}: {text}", flush=True)

    def figure(name, text):
        print(f"figure {name}: {text}", flush=True)

    golden = images.read_png(args.golden) if os.path.exists(args.golden) else None
    program = args.deploy.split("--app ")[-1].split()[0] if "--app " in args.deploy else "fbdemo"
    program_name = os.path.basename(program)   # its log lines' prefix and syslog identifier

    # Boot 1: deploy over ssh.
    guest = Guest(args, 1)
    try:
        up = guest.wait_for_ssh(args.boot_timeout)
        check("boot", up is not None, f"first boot: sshd answers {up:.1f} s after QEMU started" if up else
              f"no ssh within {args.boot_timeout:.0f} s; see {args.out}/serial-boot1.log")
        if up is None:
            return 1
        figure("boot-1", f"ssh up {up:.1f} s after QEMU started; systemd says: "
               + guest.out("systemd-analyze time | head -1"))
        host = "root@127.0.0.1"
        deploy = [os.path.join(os.path.dirname(os.path.dirname(os.path.abspath(__file__))), "deploy"), host,
                  *shlex.split(args.deploy), *[a for o in guest.ssh_options(multiplexed=False) for a in ("--ssh-option", o)]]
        t = time.monotonic()
        with open(os.path.join(args.out, "deploy.log"), "wb") as log:
            status = subprocess.run(deploy, stdout=log, stderr=subprocess.STDOUT).returncode
        check("deploy", status == 0, f"scripts/deploy {host} {args.deploy} over ssh: exit {status} "
              f"({time.monotonic() - t:.1f} s; log {args.out}/deploy.log)")
        if status != 0:
            return 1
        # Reboot: QEMU (-no-reboot) exits, and boots the same disk again.
        guest.run("systemctl reboot", timeout=20)
        if not guest.wait_for_exit(120):
            check("reboot", False, "the guest did not go down within 120 s of systemctl reboot")
            return 1
        guest.kill()

        # Boot 2: the service as systemd started it.
        guest = Guest(args, 2)
        up = guest.wait_for_ssh(args.boot_timeout)
        if up is None:
            check("reboot", False, f"no ssh within {args.boot_timeout:.0f} s; see {args.out}/serial-boot2.log")
            return 1
        figure("boot-2", f"ssh up {up:.1f} s after QEMU started; systemd says: "
               + guest.out("systemd-analyze time | head -1"))

        # 1. Enabled, active, the user, the VT.
        def prop(name, unit=UNIT):
            return guest.out(f"systemctl show -p {name} --value {unit}")

        def wait_active(unit=UNIT, timeout=60):
            deadline = time.monotonic() + timeout
            while prop("ActiveState", unit) != "active" and time.monotonic() < deadline:
                time.sleep(0.5)

        def session_of(pid):
            """logind's session of PID (GetSessionByPID), as loginctl
            show-session's properties; {} when it has none."""
            said = guest.out(
                "p=$(busctl call org.freedesktop.login1 /org/freedesktop/login1 org.freedesktop.login1.Manager "
                f"GetSessionByPID u {pid} | cut -d'\"' -f2) && "
                "id=$(busctl get-property org.freedesktop.login1 \"$p\" org.freedesktop.login1.Session Id | cut -d'\"' -f2) && "
                "loginctl show-session \"$id\" -p Id -p Seat -p VTNr -p Active -p State -p Type -p Class -p Leader -p Name")
            return dict(l.split("=", 1) for l in said.splitlines() if "=" in l)

        def seat_lines(pid):
            """The app's lines on how it opened its devices, from process PID."""
            lines = guest.out(f"journalctl -b -o cat _PID={pid} --no-pager").splitlines()
            return [l for l in lines if "devices through libseat" in l or "devices opened directly" in l]

        def tty1_mode():
            # KDGETMODE (0x4B3B) on tty1 through Debian's essential perl: 0
            # is KD_TEXT, 1 KD_GRAPHICS.
            mode = guest.out("perl -e 'open(my $t, \"<\", \"/dev/tty1\") or die; my $m = pack(\"L\", 0); "
                             "ioctl($t, 0x4B3B, $m) or die; print unpack(\"L\", $m)'")
            return {"0": "KD_TEXT", "1": "KD_GRAPHICS"}.get(mode, mode)

        def on_logind_seat(pid, user):
            """(passed, text): PID said it opened its devices through libseat's
            logind backend on seat0, and its session is USER's, active, on
            seat0 and VT 1, with tty1 in graphics mode (logind's doing for
            the session's controller)."""
            said, session, mode = seat_lines(pid), session_of(pid), tty1_mode()
            passed = (any(l.endswith("devices through libseat (logind, seat0)") for l in said)
                      and session.get("Seat") == "seat0" and session.get("VTNr") == "1"
                      and session.get("Active") == "yes" and session.get("State") == "active"
                      and session.get("Name") == user and mode == "KD_GRAPHICS")
            shown = ", ".join(f"{k}={session[k]}" for k in ("Id", "Name", "Seat", "VTNr", "Active", "State", "Type",
                                                              "Class", "Leader") if k in session)
            return passed, (f"PID {pid} says {' | '.join(said) or 'nothing on its devices'}; its logind session: "
                            f"{shown or 'none'}; tty1 in {mode}")

        wait_active()
        enabled, active = guest.out(f"systemctl is-enabled {UNIT}"), prop("ActiveState")
        pid = prop("MainPID")
        active_at = int(prop("ActiveEnterTimestampMonotonic") or 0) / 1e6
        status = guest.out(f"grep -E '^(Uid|Gid|Groups):' /proc/{pid}/status | tr -s '\\t' ' ' | paste -sd';'")
        user = guest.out(f"ps -o user= -p {pid}")
        groups = guest.out(f"id -nG {user}") if user else ""
        ps_tty = guest.out(f"ps -o tty= -p {pid}")
        active_vt = guest.out("cat /sys/class/tty/tty0/active")
        getty = prop("ActiveState", "getty@tty1.service")
        kd_mode = tty1_mode()
        uid = guest.out(f"id -u {user}") if user else ""
        check("at-boot", enabled == "enabled" and active == "active",
              f"{UNIT} is-enabled {enabled}, {active} after the reboot (active {active_at:.1f} s after the kernel started, "
              f"guest clock)")
        check("unprivileged", user not in ("", "root") and uid.isdigit() and 0 < int(uid) < 1000
              and set(groups.split()) == {user, "video", "input"},
              f"main PID {pid} runs as {user} (uid {uid}, groups {groups}); {status}")
        check("vt", active_vt == "tty1" and getty != "active",
              f"the active VT is {active_vt}, getty@tty1 is {getty} (the unit takes its place); the process's "
              f"controlling tty: {ps_tty or '?'}, tty1's mode {kd_mode}")
        # The unit's logind session (PAMName=login, TTYPath=/dev/tty1):
        # the app took its devices through libseat's logind backend.
        deadline = time.monotonic() + 30
        while not seat_lines(pid) and time.monotonic() < deadline:
            time.sleep(0.5)
        check("logind-seat", *on_logind_seat(pid, user))
        figure("sessions", "loginctl list-sessions: "
               + " | ".join(" ".join(l.split()) for l in guest.out("loginctl list-sessions --no-legend").splitlines()))

        # 2. The screen shows the app.
        def wait_for_screen(target, timeout, must_differ_first=False):
            """Polls screendumps until one equals TARGET (after one that
            differs, with MUST_DIFFER_FIRST); returns (seconds, differed,
            last image) or (None, differed, last image)."""
            t0, differed, last = time.monotonic(), False, None
            while time.monotonic() - t0 < timeout:
                last = guest.screendump()
                if last != target:
                    differed = True
                elif differed or not must_differ_first:
                    return time.monotonic() - t0, differed, last
            return None, differed, last

        if golden is None:
            time.sleep(10)   # the scene at rest
            first = guest.screendump("app")
            check("screen", False, f"no golden {args.golden}; got {args.out}/app.png")
            golden = first   # for the checks below
        else:
            seconds, _, last = wait_for_screen(golden, 60)
            images.write_png(os.path.join(args.out, "app.png"), *last)
            if seconds is None:
                problem, error = images.compare(last, golden, 0)
                if error:
                    images.write_png(os.path.join(args.out, "app.error.png"), *error)
                check("screen", False, f"no screendump matched {args.golden} within 60 s: {problem}; see {args.out}/app.png")
            else:
                check("screen", True, f"a screendump matches {os.path.basename(args.golden)} "
                      f"({golden[0]}x{golden[1]}), {up + seconds:.1f} s after QEMU started")
                uptime = float(guest.out("cut -d' ' -f1 /proc/uptime"))
                started_at = int(prop("ExecMainStartTimestampMonotonic") or 0) / 1e6
                figure("first-frame", f"the app's start to its screen: at most {uptime - started_at:.1f} s "
                       f"(the first matching screendump; TCG)")
        plane_before = guest.out("grep -m1 'allocated by' /sys/kernel/debug/dri/0/state | tr -d '\\t'")

        # 3. kill -9: systemd restarts it; the app comes back on screen.
        #    The guest's clock for the restart: /proc/uptime at the kill and
        #    the new main process's ExecMainStartTimestampMonotonic (both
        #    CLOCK_MONOTONIC-like, in a guest that never suspends), read
        #    afterwards so that no polling competes with systemd for the
        #    guest's one emulated CPU. The host's clock for the screen.
        old_pid = prop("MainPID")
        t_sent = time.monotonic()
        status, said = guest.run(f"kill -9 {old_pid} && cut -d' ' -f1 /proc/uptime", timeout=20)
        t_kill = time.monotonic()
        if status != 0:
            check("kill-9", False, f"kill -9 {old_pid} over ssh: {said}")
        else:
            guest_kill = float(said.split()[-1])
            back, differed, last = wait_for_screen(golden, 60, must_differ_first=True)
            images.write_png(os.path.join(args.out, "after-kill.png"), *last)
            deadline = time.monotonic() + 30
            while prop("MainPID") in ("0", old_pid) and time.monotonic() < deadline:
                time.sleep(0.5)
            new_pid = prop("MainPID")
            new_start = int(prop("ExecMainStartTimestampMonotonic") or 0) / 1e6
            if new_pid not in ("0", old_pid):
                restart = new_start - guest_kill
                check("kill-9-restart", restart <= 2.0,
                      f"kill -9 of PID {old_pid}: systemd started PID {new_pid} {restart:.2f} s later (guest clock; "
                      f"limit 2 s; the unit's RestartSec={prop('RestartUSec')}, NRestarts={prop('NRestarts')})")
            else:
                check("kill-9-restart", False, f"kill -9 of PID {old_pid}: no new main PID within 30 s")
            if back is None:
                check("kill-9-screen", False, "the app did not come back on screen within 60 s"
                      + ("" if differed else " (the screen never changed after the kill)"))
            else:
                check("kill-9-screen", True,
                      f"the screen left the app and matched {os.path.basename(args.golden)} again {back:.2f} s after "
                      f"the kill returned (host clock; the ssh round trip of the kill took {t_kill - t_sent:.2f} s)")
                restart = new_start - guest_kill
                figure("kill-9", f"new PID {restart:.2f} s after the kill, the app on screen {back:.2f} s after it "
                       f"({'within' if back <= 2.0 else 'over'} the issue's 2 s); the new process's own start to "
                       f"its screen about {back - restart:.2f} s")

        # 4. systemctl stop: the console is back.
        time.sleep(2)   # rest, so the stop is from a running app
        t = time.monotonic()
        status, said = guest.run(f"systemctl stop {UNIT}", timeout=30)
        stop_seconds = time.monotonic() - t
        after = prop("ActiveState")
        plane_after = guest.out("grep -m1 'allocated by' /sys/kernel/debug/dri/0/state | tr -d '\\t'")
        time.sleep(1)
        stopped = guest.screendump("stopped")
        guest.run("printf '\\n\\n   FBRUNTIME CONSOLE IS BACK\\n' > /dev/tty1")
        time.sleep(1)
        marked = guest.screendump("console")
        check("stop-console", status == 0 and after == "inactive" and "[fbcon]" in plane_after
              and stopped != golden and marked != stopped,
              f"systemctl stop: {after} after {stop_seconds:.1f} s; primary plane's framebuffer "
              f"'{plane_after}' (while running: '{plane_before}'); the screen left the app, and a line "
              f"written to tty1 shows on it ({args.out}/console.png)")

        # 5. The journal: the app's own lines (stdout, stderr). Under its
        #    logind session the process is in the session's scope, and
        #    journald files its lines there, not under the unit: they are
        #    found by the program's name (SYSLOG_IDENTIFIER, journalctl -t).
        lines = guest.out(f"journalctl -b -o cat -t {program_name} --no-pager")
        with open(os.path.join(args.out, "journal.txt"), "w") as f:
            f.write(lines + "\n")
        units = guest.out(f"journalctl -b -o verbose -t {program_name} --no-pager | "
                          "sed -n 's/^ *_SYSTEMD_UNIT=//p' | sort -u | paste -sd' '")
        own = [l for l in lines.splitlines() if l.startswith(program_name + ":")]
        check("journal", len(own) > 0,
              f"{len(own)} of the app's own lines in journalctl -t {program_name} this boot, under {units or '?'} "
              f"(all in {args.out}/journal.txt), e.g. " + " | ".join(own[:3]))

        # 6. Without the video and input groups: the user taken out of both
        #    (gpasswd) and a drop-in that empties the unit's
        #    SupplementaryGroups=, as a board's owner would do (docs/deploy.md).
        #    The app must still show, its devices through logind. The proof
        #    that they came from logind: the app holds the input nodes, which
        #    its user cannot open (root:input 0660, no ACL; setpriv with the
        #    same uid and gid and no supplementary groups is refused). The
        #    card is no proof: logind also gives the active session's user
        #    an ACL on it (udev's uaccess tag), which the line says.
        dropins = f"/etc/systemd/system/{UNIT}.d"
        gids = set(guest.out("getent group video input | cut -d: -f3").split())
        status, said = guest.run(
            f"gpasswd -d {user} video && gpasswd -d {user} input && mkdir -p {dropins} && "
            f"printf '[Service]\\nSupplementaryGroups=\\n' > {dropins}/no-groups.conf && "
            f"systemctl daemon-reload && systemctl start {UNIT}")
        wait_active()
        pid = prop("MainPID")
        process_gids = set(guest.out(f"grep '^Groups:' /proc/{pid}/status | cut -d: -f2").split())
        seconds, _, last = wait_for_screen(golden, 60)
        images.write_png(os.path.join(args.out, "no-groups.png"), *last)
        seat_passed, seat_text = on_logind_seat(pid, user)
        held = sorted(set(guest.out(f"readlink /proc/{pid}/fd/* | grep -E '^/dev/(dri|input)/'").split()))
        refused = {node: guest.run(f"setpriv --reuid=$(id -u {user}) --regid=$(id -g {user}) --clear-groups sh -c 'exec 3<>{node}'")[0] != 0
                   for node in held}
        inputs = [node for node in held if node.startswith("/dev/input/")]

        # 7. A VT switch while the app runs through logind without groups:
        #    VT 2 (VT_ACTIVATE as root, with perl: the root has no kbd)
        #    takes the screen from the app's session (the console of VT 2
        #    shows), VT 1 gives it back; the same process shows its screen
        #    again (libseat's disable and enable, logind handing DRM master
        #    back and forth).
        def activate_vt(n):
            return guest.run(f"perl -e 'open(my $t, \"+<\", \"/dev/tty0\") or die $!; "
                             f"ioctl($t, 0x5606, {n}) or die $!; ioctl($t, 0x5607, {n}) or die $!'")[0] == 0
        vt_away = vt_back = False
        vt_seconds = None
        if seconds is not None:
            vt_away = activate_vt(2)
            t0 = time.monotonic()
            while vt_away and time.monotonic() - t0 < 15:
                if guest.screendump() != golden:
                    break
                time.sleep(0.3)
            else:
                vt_away = False
            guest.screendump("vt-away")
            vt_back = activate_vt(1)
            vt_seconds, _, last_back = wait_for_screen(golden, 60)
            images.write_png(os.path.join(args.out, "vt-back.png"), *last_back)
        pid_after_vt = prop("MainPID")
        check("vt-switch", vt_away and vt_back and vt_seconds is not None and pid_after_vt == pid,
              f"VT 2 took the screen from PID {pid} ({'the screen changed' if vt_away else 'the screen did not change'}, "
              f"{args.out}/vt-away.png); back on VT 1 "
              + (f"the same process showed {os.path.basename(args.golden)} again after {vt_seconds:.1f} s"
                 if vt_seconds is not None and pid_after_vt == pid else
                 f"the screen did not match {os.path.basename(args.golden)} within 60 s ({args.out}/vt-back.png)"
                 if vt_seconds is None else f"the main PID is {pid_after_vt}, not {pid}"))

        guest.run(f"systemctl stop {UNIT}; rm -rf {dropins}; gpasswd -a {user} video; gpasswd -a {user} input; "
                  "systemctl daemon-reload")
        check("no-groups", status == 0 and bool(gids) and not (gids & process_gids) and seat_passed
              and seconds is not None and len(inputs) > 0 and all(refused[node] for node in inputs),
              f"{user} out of video and input (gids {' '.join(sorted(gids))}), SupplementaryGroups= emptied: PID {pid} "
              f"has groups {' '.join(sorted(process_gids)) or 'none'}; the screen "
              f"{'matches' if seconds is not None else 'does not match'} {os.path.basename(args.golden)} "
              f"({args.out}/no-groups.png); {seat_text}; it holds "
              + (", ".join(f"{node} ({'refused' if refused[node] else 'allowed'} to {user} itself)" for node in held)
                 or "no DRM or input node"))

        # 7. An app's .deb, installed with apt over ssh.
        if args.deb:
            name = os.path.basename(args.deb)
            with open(args.deb, "rb") as f:
                guest.run(f"cat > /tmp/{name}", stdin=f.read())
            guest.run(f"systemctl disable {UNIT}")
            t = time.monotonic()
            status, said = guest.run(f"cd /tmp && DEBIAN_FRONTEND=noninteractive apt-get install -y ./{name}", timeout=300)
            with open(os.path.join(args.out, "apt-install.log"), "w") as f:
                f.write(said + "\n")
            unit = args.deb_unit
            deadline = time.monotonic() + 60
            while prop("ActiveState", unit) != "active" and time.monotonic() < deadline:
                time.sleep(0.5)
            deb_active, deb_pid = prop("ActiveState", unit), prop("MainPID", unit)
            deb_user = guest.out(f"ps -o user= -p {deb_pid}")
            check("deb", status == 0 and deb_active == "active" and deb_user not in ("", "root"),
                  f"apt-get install ./{name}: exit {status} ({time.monotonic() - t:.1f} s); {unit} {deb_active}, "
                  f"PID {deb_pid} as {deb_user}")
            if args.deb_golden:
                expected = images.read_png(args.deb_golden)
                seconds, _, last = wait_for_screen(expected, 60)
                images.write_png(os.path.join(args.out, "deb-app.png"), *last)
                check("deb-screen", seconds is not None,
                      f"the screen {'matches' if seconds is not None else 'does not match'} "
                      f"{os.path.basename(args.deb_golden)} ({args.out}/deb-app.png)")

        if args.keep:
            print(f"the guest runs on: ssh {' '.join('-o ' + o for o in guest.ssh_options(False))} root@127.0.0.1",
                  flush=True)
            guest.qemu.wait()
        else:
            guest.run("systemctl poweroff", timeout=20)
            guest.wait_for_exit(60)
    finally:
        guest.kill()
    return 0 if results and all(results) else 1


if __name__ == "__main__":
    sys.exit(main())
