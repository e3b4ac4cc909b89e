import CPosix
import DemoScenes
import FBRuntime
import FBRuntimeKMS
import FBRuntimeTesting
import Input

/// `--idle-blank-check` (scripts/vm-test `fbcheck-idle-blank`, issue #23):
/// idle blanking on a real KMS display, woken by a real touch.
///
/// On the still orbit scene at rest, an `IdleBlanker` (dim after 0.5 s to
/// 20 %, off after 1 s) runs on the app thread, fed by a uinput
/// touchscreen read through libinput (`ScriptedTouchscreen`, the path
/// backend). Checked, each a VMTEST-CHECK line:
/// - dimmed: the backlight's `brightness` holds 20 % of its maximum, the
///   CRTC still on;
/// - off: the backlight at 0, the render loop powered the display off and
///   the kernel reports it so (atomic: the CRTC's ACTIVE property reads 0;
///   legacy: the connector's DPMS property reads off; fbdev, which blanks
///   through FBIOBLANK, DRM's fbdev emulation: the CRTC's `active=0` in
///   DRM's atomic state in debugfs); for a second, with an animation
///   added meanwhile, no frame rendered and no flip;
/// - a tap wakes it: the CRTC on again (read back), a frame shown (a
///   modeset with the whole frame), the brightness restored, and the tap
///   routed to nothing (the wake sequence is swallowed); a second tap is
///   routed (down and up);
/// - the screen matches `vm-orbit-first.png` (screendump `orbit-first`;
///   on fbdev `fbdev-orbit-first`, the same pixels):
///   the animation added while off ran its course in media time, so the
///   first frame after the wake shows the scene at rest, as before.
///
/// The backlight: QEMU's guest has no backlight device (no
/// /sys/class/backlight entry on virtio-gpu or bochs), so where none
/// exists the check uses a directory shaped like one
/// (/tmp/fbcheck-backlight/fake: `max_brightness` 255, `brightness` 200)
/// and says so; only the backlight is stood in for, the display power is
/// the kernel's. Where a real backlight exists, it is used.
func idleBlankCheck(_ loop: RenderLoop, kms: KMSPresenter?, scene: any DemoScene, config: BoardConfig,
                    panelWidth: Int, panelHeight: Int) -> Int32 {
    func check(_ ok: Bool, _ text: String) -> Bool {
        print("VMTEST-CHECK \(ok ? "PASS" : "FAIL") fbcheck idle blank: \(text)")
        return ok
    }
    // The backlight: a real one where there is one, else the stand-in.
    let found = Backlight.open(.auto)
    var backlight = found.backlight
    if backlight == nil {
        print("fbcheck: idle blank: no real backlight (\(found.reason ?? "")): using a directory shaped like one")
        backlight = makeFakeBacklight("/tmp/fbcheck-backlight/fake", max: 255, brightness: 200)
    }
    guard let backlight, let normal = try? backlight.brightness() else {
        return check(false, "a backlight to dim") ? 0 : 1
    }
    print("fbcheck: idle blank: backlight \(backlight.directory), brightness \(normal) of \(backlight.maxBrightness)")

    guard let screen = ScriptedTouchscreen(width: panelWidth, height: panelHeight) else { return 1 }
    var board = config
    board.touchDevice = screen.node
    guard let touch = TouchControl(board: board, scene: scene, width: panelWidth, height: panelHeight) else { return 1 }

    // At rest before the clock starts: the first frame shown, then idle.
    guard check(loop.waitUntil(timeoutNanoseconds: 10_000_000_000) { $0.idleWaits > 0 }, "the still scene is at rest") else { return 1 }
    let timeouts = IdleTimeouts(dimAfterNanoseconds: 500_000_000, offAfterNanoseconds: 1_000_000_000, dimPercent: 20)
    let blanker = IdleBlanker(timeouts: timeouts, backlight: backlight, loop: loop)
    touch.admit = { event in
        guard let input = idleInput(event) else { return true }
        return blanker.admit(input)
    }
    defer { touch.admit = nil; blanker.restoreBacklight() }
    /// The blanker's clock is ticked until the wake has been checked;
    /// after that only its input side runs, so the later checks (the
    /// second tap, the screendump) cannot race a new dim or blank in a
    /// slow guest.
    var ticking = true
    /// The app thread's turns until `done` holds (at most `seconds`):
    /// input routed when there is some, the blanker's clock ticked.
    func pump(seconds: Int64, until done: () -> Bool) -> Bool {
        let deadline = System.monotonicNanoseconds() + seconds * 1_000_000_000
        while !done() && System.monotonicNanoseconds() < deadline {
            touch.dispatchIfReadable(loop, timeoutMilliseconds: 5)
            if ticking { blanker.tick() }
        }
        return done()
    }
    func brightness() -> Int { (try? backlight.brightness()) ?? -1 }
    /// The display's power as the kernel reports it: the CRTC's ACTIVE
    /// where fbcheck is an atomic client, else the connector's DPMS; on
    /// fbdev, DRM's atomic state in debugfs.
    func poweredPerKernel() -> Bool? {
        guard let kms else { return debugfsCRTCActive() }
        let (active, dpms) = kms.output.displayPowerReadBack()
        return active ?? dpms
    }
    let readBackName = kms.map { $0.output.displayPowerReadBack().crtcActive != nil ? "CRTC ACTIVE" : "connector DPMS" }
        ?? "debugfs CRTC active"
    let start = System.monotonicNanoseconds()
    func at() -> String { formatMilliseconds(System.monotonicNanoseconds() - start) }

    // Dimmed.
    var ok = check(pump(seconds: 3) { blanker.state == .dimmed }, "dimmed at \(at()) (idle-dim-after 500 ms)")
    let dim = backlight.steps(percent: 20)
    ok = check(brightness() == dim, "dimmed brightness \(brightness()) (want \(dim), 20 % of \(backlight.maxBrightness))") && ok
    ok = check(poweredPerKernel() == true, "\(readBackName) still on while dimmed") && ok

    // Off.
    ok = check(pump(seconds: 3) { blanker.state == .off }, "off at \(at()) (idle-off-after 1000 ms)") && ok
    ok = check(loop.waitUntil(timeoutNanoseconds: 2_000_000_000) { $0.displayPowerOffs == 1 && $0.displayOffWaits > 0 },
               "the render loop powered the display off (\(loop.statistics.displayPowerErrors) refused)") && ok
    ok = check(brightness() == 0, "backlight brightness \(brightness()) while off (want 0)") && ok
    ok = check(poweredPerKernel() == false, "\(readBackName) reads off from the kernel") && ok

    // A second off, with an animation added: nothing rendered or flipped.
    let during = loop.statistics
    let offStart = System.monotonicNanoseconds()
    loop.update { root in
        if let layer = root.sublayers.first {
            try? layer.add(BasicAnimation(key: .opacity, from: .scalar(0.2), duration: 0.3), forKey: "idle-check-fade")
        }
    }
    _ = pump(seconds: 1) { System.monotonicNanoseconds() - offStart >= 1_000_000_000 }
    let still = loop.statistics
    ok = check(still.framesRendered == during.framesRendered && still.framesShown == during.framesShown,
               "no frame rendered and no flip in 1 s off, with a commit and an animation meanwhile "
               + "(\(still.framesRendered - during.framesRendered) frames, \(still.framesShown - during.framesShown) flips, "
               + "\(still.displayOffWaits - during.displayOffWaits) off waits)") && ok
    ok = check(blanker.state == .off, "still off") && ok

    // The wake: a tap in the corner (on the background), swallowed.
    let routedBefore = touch.touchCount
    let woken = System.monotonicNanoseconds()
    let corner = (x: 8, y: 8)
    screen.contact(x: corner.x, y: corner.y, down: true, first: true)
    _ = pump(seconds: 1) { blanker.state != .off }
    let wakeNoticed = formatMilliseconds(System.monotonicNanoseconds() - woken)
    _ = pump(seconds: 1) { System.monotonicNanoseconds() - woken >= 60_000_000 }
    screen.contact(x: corner.x, y: corner.y, down: false, first: false)
    ok = check(pump(seconds: 3) { blanker.state == .active }, "woken by a touch in \(wakeNoticed), backlight back at \(formatMilliseconds(System.monotonicNanoseconds() - woken))") && ok
    ok = check(loop.statistics.displayPowerOns == 1 && loop.statistics.framesShown > still.framesShown,
               "the display powered on and a frame shown (\(loop.statistics.framesShown - still.framesShown))") && ok
    ok = check(poweredPerKernel() == true, "\(readBackName) reads on again") && ok
    ok = check(brightness() == normal, "brightness restored to \(brightness()) (was \(normal))") && ok
    ticking = false
    _ = pump(seconds: 1) { touch.touchCount > routedBefore }   // would have come by now
    ok = check(touch.touchCount == routedBefore, "the waking touch was not delivered (\(touch.touchCount - routedBefore) events routed)") && ok

    // A later tap is delivered.
    screen.contact(x: corner.x, y: corner.y, down: true, first: true)
    _ = pump(seconds: 1) { touch.touchCount > routedBefore }
    screen.contact(x: corner.x, y: corner.y, down: false, first: false)
    ok = check(pump(seconds: 2) { touch.touchCount >= routedBefore + 2 }, "a later tap is delivered (\(touch.touchCount - routedBefore) events routed)") && ok
    ok = check(blanker.state == .active && loop.isDisplayPowerRequested, "on and bright for the screendump") && ok

    // At rest, the screen as before the blanking.
    let shown = loop.statistics.framesShown
    _ = loop.waitUntil(timeoutNanoseconds: 2_000_000_000) { $0.framesShown > shown }
    let settled = loop.waitUntil(timeoutNanoseconds: 5_000_000_000) { [idle = loop.statistics.idleWaits] in $0.idleWaits > idle }
    ok = check(settled, "at rest after the wake") && ok
    ok = check(loop.error == nil, "the loop goes on") && ok
    if kms == nil {
        // DRM's fbdev emulation flushes CPU writes to the display from a
        // worker, 50 ms later (as fbcheck-fbdev's first-frame screendump).
        fbr_sleep_ns(200_000_000)
    }
    do throws(HandshakeError) { try ScreendumpHandshake.request(kms == nil ? "fbdev-orbit-first" : "orbit-first") } catch {
        return check(false, error.description) ? 0 : 1
    }
    return ok ? 0 : 1
}

/// Idle blanking's view of a libinput event; nil for what is no user
/// input (devices coming and going, the end of a hardware frame).
func idleInput(_ event: InputEvent) -> IdleInput? {
    switch event {
    case .touchDown(let slot, _, _, _): return .touch(id: slot, phase: .began)
    case .touchMotion(let slot, _, _, _): return .touch(id: slot, phase: .moved)
    case .touchUp(let slot, _): return .touch(id: slot, phase: .ended)
    case .touchCancel(let slot, _): return .touch(id: slot, phase: .cancelled)
    case .key(let code, let pressed, _): return .key(code: code, pressed: pressed)
    case .wheel, .pointerMoved: return .other
    case .touchFrame, .deviceAdded, .deviceRemoved: return nil
    }
}

/// Whether the first CRTC in DRM's atomic state (debugfs
/// `/sys/kernel/debug/dri/N/state`, mounted here if it is not) is active:
/// the kernel's own view, for fbdev, where fbcheck has no DRM file; nil
/// when it cannot be read.
func debugfsCRTCActive() -> Bool? {
    if !System.exists("/sys/kernel/debug/dri") {
        let pid = spawn("/bin/mount", ["mount", "-t", "debugfs", "debugfs", "/sys/kernel/debug"])
        if pid > 0 { _ = fbr_wait_child(pid, 0) }
    }
    for n in 0..<8 {
        guard let bytes = try? System.readFile("/sys/kernel/debug/dri/\(n)/state", limit: 1 << 16) else { continue }
        var inCRTC = false
        for line in bytes.split(separator: UInt8(ascii: "\n")) {
            let text = String(decoding: line, as: UTF8.self)
            if text.hasPrefix("crtc[") { inCRTC = true; continue }
            if inCRTC && !text.hasPrefix("\t") && !text.hasPrefix(" ") { break }
            if inCRTC && text.hasPrefix("\tactive=") { return text == "\tactive=1" }
        }
    }
    return nil
}

/// A directory shaped like /sys/class/backlight/NAME at `path`, with
/// `max_brightness` and `brightness` files (test scaffolding: where the
/// guest has no backlight device).
private func makeFakeBacklight(_ path: String, max: Int, brightness: Int) -> Backlight? {
    do { try System.makeDirectories(path) } catch { print("fbcheck: error: \(error.description)"); return nil }
    for (name, value) in [("max_brightness", max), ("brightness", brightness)] {
        let fd = fbr_open_mode(path + "/" + name, O_WRONLY | O_CREAT | O_TRUNC, 0o644)
        guard fd >= 0 else { print("fbcheck: error: cannot create \(path)/\(name)"); return nil }
        let bytes = Array("\(value)\n".utf8)
        _ = bytes.withUnsafeBytes { write(fd, $0.baseAddress, $0.count) }
        System.close(fd)
    }
    return try? Backlight(directory: path)
}
