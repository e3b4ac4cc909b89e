import CInput
import CPosix
import DemoScenes
import FBRuntime
import FBRuntimeKMS
import Input
import FBRuntimeTesting

/// `--test-fault NAME` (scripts/vm-test, issue #10's faults in the VM):
/// while the scene runs, cause one fault, require the runtime to ride it
/// out and show the right thing again (a screendump against a golden),
/// and print how long it took. Test scaffolding: each writes to sysfs,
/// arms the presenter's test hook or makes a uinput device, as root.
///
/// - `connector`: the KMS connector unplugged and plugged back, by writing
///   `off` then `detect` to its sysfs `status` (`KMSOutput.sysfsStatusPath`).
///   The kernel then reports it disconnected, as for a cable pulled;
///   `detect` gives the state back to the driver (connected). Drivers that
///   poll connectors send a hotplug uevent each time; virtio-gpu and bochs
///   do not, and the presenter's connector poll notices. Chosen over unbinding the
///   driver (which destroys the card: every handle, buffer and the fd
///   become dead, and a new card must be opened — a restart, not a
///   reconnection) and over QEMU's monitor (no command unplugs a
///   virtio-gpu or VGA output in QEMU 7.2). Screendump `connector-back`.
/// - `connector-mode[:WxH]`: the same unplug, and while unplugged the host
///   makes QEMU's display WxH (default 800x600) — a monitor swapped for
///   one with another preferred mode (`HostDisplaySize`: QEMU's VNC
///   server hands the size to virtio-gpu, which gives the guest a new
///   EDID; the debugfs `edid_override` does not reach these drivers'
///   mode lists in 6.1: they read the host's EDID themselves). Plugged
///   back, the presenter must follow the new mode (new buffers, modeset),
///   the render loop render at the new size, and the app thread lay the
///   scene out for it: a marker constrained to the bottom right corner
///   (`ConstraintLayoutManager` on the root) must sit at the new edges.
///   Screendump `connector-mode-back` (the new size, at rest; on a turned
///   board `connector-mode-back-rotated-DEGREES`); then the host puts its
///   size back (for the tests after) with the connector plugged in, and
///   the presenter must follow that too (a hotplug event). Skipped, with the
///   host's reason, where the display cannot change size (QEMU's VGA).
/// - `flip-error[:ERRNO[:N]]`: the next N (default 3) commits fail with
///   ERRNO (default EINVAL) through the committer fbcheck wraps around the real one (`FaultInjectingCommitter`): the first
///   flip's failure is retried at once as a modeset, the failed modesets
///   with back-off, the last good frame stays on screen. Screendump
///   `flip-error-recovered`.
/// - `tree-replace`: the app thread throws away the animated orbit tree and
///   builds the showcase scene's (at rest) in its place, in one commit.
///   Screendump `tree-replaced`. (Every frame being a whole tree is checked
///   on the host: DisplayFaultTests.)
/// - `touch-replug` (with `--still`, under udevd): a uinput touchscreen is
///   made, hot-plugged into the udev seat, destroyed (the seat drops it)
///   and made again; a drag on the new one must move the card
///   (`TouchControl.uinputDragCheck`). Screendump `touch-replugged`.
///
/// Prints VMTEST-CHECK lines; returns the exit status.
func faultCheck(_ fault: String, _ loop: RenderLoop, presenter: FramePresenter, kms: KMSPresenter?,
                scene: any DemoScene, config: BoardConfig, panelWidth: Int, panelHeight: Int) -> Int32 {
    let parts = fault.split(separator: ":").map { String($0) }
    switch parts.first ?? "" {
    case "connector":
        guard let kms else { print("VMTEST-CHECK FAIL fbcheck: --test-fault connector needs KMS"); return 1 }
        return connectorFault(loop, kms)
    case "connector-mode":
        guard let kms else { print("VMTEST-CHECK FAIL fbcheck: --test-fault connector-mode needs KMS"); return 1 }
        let size = parts.count > 1 ? parts[1].split(separator: "x").compactMap { Int(String($0)) } : [800, 600]
        guard size.count == 2, size[0] >= 64, size[1] >= 64, size[0] <= 4096, size[1] <= 4096 else {
            print("VMTEST-CHECK FAIL fbcheck: --test-fault connector-mode[:WxH] (64…4096 each)"); return 1
        }
        // A turned board has its own golden: the UI is the new mode turned.
        let golden = "connector-mode-back" + (config.rotation == 0 ? "" : "-rotated-\(config.rotation)")
        return connectorModeFault(loop, kms, scene: scene, width: size[0], height: size[1], screendump: golden)
    case "flip-error":
        guard let kms else { print("VMTEST-CHECK FAIL fbcheck: --test-fault flip-error needs KMS"); return 1 }
        let errno = parts.count > 1 ? CommitFaultInjection.errno(named: parts[1]) : EINVAL
        let count = parts.count > 2 ? Int(parts[2]) : 3
        guard let errno, let count, count > 0, count < 100 else {
            print("VMTEST-CHECK FAIL fbcheck: --test-fault flip-error[:ERRNO[:N]] (EINVAL, EBUSY, ENOSPC, ENOMEM, EIO, ENODEV, EACCES; N 1…99)")
            return 1
        }
        return flipErrorFault(loop, kms, errno: errno, errnoName: parts.count > 1 ? parts[1] : "EINVAL", count: count)
    case "tree-replace":
        return treeReplaceFault(loop, width: Double(presenter.width), height: Double(presenter.height))
    case "touch-replug":
        guard let touch = TouchControl(board: config, scene: scene, width: panelWidth, height: panelHeight) else {
            print("VMTEST-CHECK FAIL fbcheck: no input seat")
            return 1
        }
        return touchReplugFault(loop, touch, width: panelWidth, height: panelHeight)
    default:
        print("VMTEST-CHECK FAIL fbcheck: unknown --test-fault \(fault) (connector, connector-mode[:WxH], flip-error[:ERRNO[:N]], tree-replace, touch-replug)")
        return 1
    }
}

/// Milliseconds since `start` (monotonic ns), as text with two decimals.
private func since(_ start: Int64) -> String { formatMilliseconds(System.monotonicNanoseconds() - start) }

private func check(_ ok: Bool, _ text: String) -> Bool {
    print("VMTEST-CHECK \(ok ? "PASS" : "FAIL") fbcheck: \(text)")
    return ok
}

/// Writes `text` to the sysfs file at `path`.
func writeSysfs(_ path: String, _ text: String) -> Bool {
    guard let fd = try? System.open(path, O_WRONLY) else { return false }
    defer { System.close(fd) }
    let bytes = Array(text.utf8)
    // sysfs takes the whole value in one write.
    let n = bytes.withUnsafeBytes { write(fd, $0.baseAddress, $0.count) }
    return n == bytes.count
}

/// Removes the animations, waits for the scene to come to rest and asks
/// for the screendump `name`.
private func screendumpAtRest(_ loop: RenderLoop, _ name: String) -> Bool {
    loop.update { root in removeAllAnimations(root) }
    let shown = loop.statistics.framesShown
    let settled = loop.waitUntil(timeoutNanoseconds: 10_000_000_000) { $0.framesShown > shown }
        && loop.waitUntil(timeoutNanoseconds: 10_000_000_000) { [idle = loop.statistics.idleWaits] in $0.idleWaits > idle }
    guard check(settled, "the scene came to rest") else { return false }
    do throws(HandshakeError) { try ScreendumpHandshake.request(name) } catch {
        return check(false, error.description)
    }
    return true
}

private func removeAllAnimations(_ layer: Layer) {
    layer.removeAllAnimations()
    for sublayer in layer.sublayers { removeAllAnimations(sublayer) }
}

private func connectorFault(_ loop: RenderLoop, _ kms: KMSPresenter) -> Int32 {
    guard loop.waitUntil(timeoutNanoseconds: 20_000_000_000, { $0.framesShown >= 10 }) else {
        _ = check(false, "the animations did not start"); return 1
    }
    let path = kms.output.sysfsStatusPath
    guard check(kms.hotplugMonitor != nil, "a kernel uevent socket for DRM hotplug events") else { return 1 }
    let before = loop.statistics
    let unplugged = System.monotonicNanoseconds()
    guard check(writeSysfs(path, "off"), "wrote off to \(path)") else { return 1 }
    let noticed = loop.waitUntil(timeoutNanoseconds: 5_000_000_000) { $0.displaySuspensions > before.displaySuspensions }
    let noticeTime = since(unplugged)
    guard check(noticed, "the render loop stopped for the unplugged connector (\(noticeTime) after the write)") else {
        _ = writeSysfs(path, "detect"); return 1
    }
    // Half a second unplugged: nothing may reach the (dead) output.
    let during = loop.statistics
    fbr_sleep_ns(500_000_000)
    let still = loop.statistics
    var ok = check(still.framesShown == during.framesShown && still.framesRendered == during.framesRendered,
                   "nothing rendered or flipped while unplugged (\(still.suspendedWaits - during.suspendedWaits) waits)")
    let plugged = System.monotonicNanoseconds()
    guard check(writeSysfs(path, "detect"), "wrote detect to \(path)") else { return 1 }
    let back = loop.waitUntil(timeoutNanoseconds: 5_000_000_000) { $0.displayResumptions > before.displayResumptions }
    let backTime = since(plugged)
    let atBack = loop.statistics
    let goesOn = back && loop.waitUntil(timeoutNanoseconds: 10_000_000_000) { $0.framesShown >= atBack.framesShown + 20 }
    ok = check(back, "the display came back (modeset, whole frame) \(backTime) after the write") && ok
    ok = check(goesOn, "the animations go on after the reconnection (\(loop.statistics.framesShown - atBack.framesShown) frames)") && ok
    print("fbcheck: connector fault: noticed in \(noticeTime), display back \(backTime) after the reconnection; "
          + "\(loop.statistics.displayLostCommits - before.displayLostCommits) commits refused")
    return ok && screendumpAtRest(loop, "connector-back") ? 0 : 1
}

private func connectorModeFault(_ loop: RenderLoop, _ kms: KMSPresenter, scene: any DemoScene, width: Int, height: Int,
                                screendump: String) -> Int32 {
    guard loop.waitUntil(timeoutNanoseconds: 20_000_000_000, { $0.framesShown >= 10 }) else {
        _ = check(false, "the animations did not start"); return 1
    }
    let oldWidth = kms.output.width, oldHeight = kms.output.height
    let root = scene.root
    // A marker the root's layout holds 16 px from the bottom right corner.
    let marker = Layer(name: "edge-marker")
    let inset = 16.0, side = 24.0
    loop.update { _ in
        Transaction.withoutActions {
            marker.bounds = Rect(x: 0, y: 0, width: side, height: side)
            marker.backgroundColor = Color(rgb: 0xFFFFFF)
            marker.constraints = [LayoutConstraint(.maxX, offset: -inset), LayoutConstraint(.maxY, offset: -inset)]
            try? root.addSublayer(marker)
            root.layoutManager = ConstraintLayoutManager()
        }
    }
    // The app thread's side: the scene's root takes the display's new
    // size and is laid out for it at once (as the app shell's Screen does).
    var delivered: [(Int, Int)] = []
    loop.deliverDisplaySizeChanges(to: AppRunLoop.current) { w, h in
        delivered.append((w, h))
        Transaction.withoutActions {
            root.bounds = Rect(x: 0, y: 0, width: Double(w), height: Double(h))
            root.position = Point(x: Double(w) / 2, y: Double(h) / 2)
            root.layoutIfNeeded()
        }
    }
    let path = kms.output.sysfsStatusPath
    let before = loop.statistics
    guard check(writeSysfs(path, "off"), "wrote off to \(path)") else { return 1 }
    let noticed = loop.waitUntil(timeoutNanoseconds: 5_000_000_000) { $0.displaySuspensions > before.displaySuspensions }
    guard check(noticed, "the render loop stopped for the unplugged connector") else { _ = writeSysfs(path, "detect"); return 1 }

    // Another display: the host makes QEMU's output width × height.
    let refused: String?
    do throws(HandshakeError) { refused = try HostDisplaySize.request("connector-mode", width: width, height: height) } catch {
        _ = writeSysfs(path, "detect"); _ = check(false, error.description); return 1
    }
    let plugged = System.monotonicNanoseconds()
    let atPlug = loop.statistics
    guard check(writeSysfs(path, "detect"), "wrote detect to \(path)") else { return 1 }
    if let refused {
        // The same display back: nothing to follow. Said, not failed.
        let back = loop.waitUntil(timeoutNanoseconds: 5_000_000_000) { $0.displayResumptions > before.displayResumptions }
        print("VMTEST-CHECK SKIP fbcheck: connector-mode: the host cannot change this display's size (\(refused))")
        return check(back, "the display came back at its old size") ? 0 : 1
    }
    let back = loop.waitUntil(timeoutNanoseconds: 5_000_000_000) {
        $0.displayResumptions > before.displayResumptions && $0.displaySizeChanges > before.displaySizeChanges && $0.framesShown > atPlug.framesShown
    }
    let backTime = since(plugged)
    var ok = check(back && kms.output.width == width && kms.output.height == height && kms.statistics.modeChanges == 1,
                   "the presenter followed the new mode: \(kms.output.modeDescription) (was \(oldWidth)x\(oldHeight)), "
                   + "\(kms.bufferCount) new buffers, modeset \(backTime) after the write")
    let size = loop.displaySize
    ok = check(size.width == kms.width && size.height == kms.height && loop.statistics.displaySizeChanges == before.displaySizeChanges + 1,
               "the render loop renders \(size.width)x\(size.height) frames") && ok
    // The app thread: its next run-loop turn delivers the size, and the
    // commit hands the new layout to the render thread.
    let waitStart = System.monotonicNanoseconds()
    while delivered.isEmpty && System.monotonicNanoseconds() - waitStart < 5_000_000_000 {
        if AppRunLoop.current.hasPostedBlocks { loop.update { _ in AppRunLoop.current.runTurn() } }
        else { fbr_sleep_ns(10_000_000) }
    }
    let laidOut = delivered.count == 1 && delivered[0] == (kms.width, kms.height)
        && root.bounds == Rect(x: 0, y: 0, width: Double(kms.width), height: Double(kms.height))
        && marker.frame == Rect(x: Double(kms.width) - inset - side, y: Double(kms.height) - inset - side, width: side, height: side)
    ok = check(laidOut, "the app thread laid the scene out for \(kms.width)x\(kms.height) (root \(Int(root.bounds.width))x\(Int(root.bounds.height)), "
               + "the corner marker at \(Int(marker.frame.minX)),\(Int(marker.frame.minY)))") && ok
    let atLayout = loop.statistics
    let goesOn = loop.waitUntil(timeoutNanoseconds: 10_000_000_000) { $0.framesShown >= atLayout.framesShown + 20 }
    ok = check(goesOn, "the animations go on at the new size (\(loop.statistics.framesShown - atLayout.framesShown) frames)") && ok
    ok = check(loop.error == nil, "the loop goes on") && ok
    print("fbcheck: connector-mode fault: \(oldWidth)x\(oldHeight) → \(kms.output.modeDescription), display back \(backTime) after the reconnection")
    let shown = ok && screendumpAtRest(loop, screendump)
    // The host puts the old size back (the next tests expect it) while the
    // connector stays connected: the driver sends a hotplug event, and the
    // presenter follows the mode in place.
    let atRestore = loop.statistics
    let events = kms.statistics.hotplugEvents
    do throws(HandshakeError) { _ = try HostDisplaySize.request("connector-mode-restore", width: oldWidth, height: oldHeight) } catch {
        _ = check(false, error.description); return 1
    }
    let followed = loop.waitUntil(timeoutNanoseconds: 5_000_000_000) {
        $0.displaySizeChanges > atRestore.displaySizeChanges && $0.framesShown > atRestore.framesShown
    }
    ok = check(followed && kms.output.width == oldWidth && kms.output.height == oldHeight && kms.statistics.modeChanges == 2,
               "still connected, the presenter followed the host's \(oldWidth)x\(oldHeight) back "
               + "(\(kms.statistics.hotplugEvents - events) hotplug events; \(kms.output.modeDescription))") && ok
    return shown && ok ? 0 : 1
}

private func flipErrorFault(_ loop: RenderLoop, _ kms: KMSPresenter, errno: Int32, errnoName: String, count: Int) -> Int32 {
    guard let faults = (kms.committer as? FaultInjectingCommitter)?.faults else {
        _ = check(false, "the presenter's committer injects no faults"); return 1
    }
    guard loop.waitUntil(timeoutNanoseconds: 20_000_000_000, { $0.framesShown >= 10 }) else {
        _ = check(false, "the animations did not start"); return 1
    }
    let before = loop.statistics
    let armed = System.monotonicNanoseconds()
    faults.arm(failures: count, errno: errno)
    print("fbcheck: the next \(count) commits fail with \(errnoName) (test hook) after \(before.framesShown) frames")
    let spent = loop.waitUntil(timeoutNanoseconds: 10_000_000_000) { _ in faults.pending == 0 }
    let resumed = spent && loop.waitUntil(timeoutNanoseconds: 10_000_000_000) { [s = loop.statistics] in
        $0.framesShown > s.framesShown && ($0.displayResumptions > before.displayResumptions || $0.busyRetries > before.busyRetries)
    }
    let recoveredIn = since(armed)
    let after = loop.statistics
    let atRecovery = after
    var ok = check(spent && resumed, "\(faults.injected) injected \(errnoName) failures ridden out; frames again \(recoveredIn) after arming")
    let goesOn = loop.waitUntil(timeoutNanoseconds: 10_000_000_000) { $0.framesShown >= atRecovery.framesShown + 20 }
    ok = check(goesOn, "the animations go on after the failures") && ok
    ok = check(loop.error == nil, "the loop did not end (\(after.displayLostCommits - before.displayLostCommits) commits lost, "
               + "\(after.busyRetries - before.busyRetries) EBUSY retries, \(after.masterLostCommits - before.masterLostCommits) without master)") && ok
    return ok && screendumpAtRest(loop, "flip-error-recovered") ? 0 : 1
}

private func treeReplaceFault(_ loop: RenderLoop, width: Double, height: Double) -> Int32 {
    guard loop.waitUntil(timeoutNanoseconds: 20_000_000_000, { $0.framesShown >= 10 }) else {
        _ = check(false, "the animations did not start"); return 1
    }
    let before = loop.statistics
    let replaced = System.monotonicNanoseconds()
    // One commit: every old layer out, every new one in, the root's own
    // properties changed with them, without implicit animations.
    let counts: (Int, Int) = loop.update { root in
        Transaction.withoutActions {
            let old = root.sublayers.count
            while let last = root.sublayers.last { last.removeFromSuperlayer() }
            let next = ShowcaseScene(width: width, height: height)
            root.backgroundColor = next.root.backgroundColor
            while let first = next.root.sublayers.first {
                first.removeFromSuperlayer()
                try? root.addSublayer(first)
            }
            return (old, root.sublayers.count)
        }
    }
    let shown = loop.waitUntil(timeoutNanoseconds: 10_000_000_000) { $0.commitsApplied > before.commitsApplied && $0.framesShown > before.framesShown + 1 }
    var ok = check(shown, "the tree of \(counts.0) top-level layers replaced by one of \(counts.1) in one commit; on screen \(since(replaced)) after it")
    ok = check(loop.error == nil, "the loop goes on") && ok
    return ok && screendumpAtRest(loop, "tree-replaced") ? 0 : 1
}

private func touchReplugFault(_ loop: RenderLoop, _ touch: TouchControl, width: Int, height: Int) -> Int32 {
    let name = TouchControl.uinputTouchscreenName
    let fd: Int32
    do { fd = try System.open("/dev/uinput", O_WRONLY | O_NONBLOCK) } catch {
        _ = check(false, error.description); return 1
    }
    let r = name.withCString { fbr_uinput_create_touchscreen(fd, $0, 4095, 4095, 16, 10) }
    guard check(r >= 0, "made a uinput touchscreen (\(r))") else { System.close(fd); return 1 }
    let created = System.monotonicNanoseconds()
    while touch.addedCount(of: name) < 1 && System.monotonicNanoseconds() - created < 5_000_000_000 {
        touch.waitAndDispatch(loop, timeoutMilliseconds: 50)
    }
    guard check(touch.addedCount(of: name) == 1, "the udev seat added it (\(since(created)))") else { System.close(fd); return 1 }
    let removed = System.monotonicNanoseconds()
    _ = fbr_uinput_destroy(fd)
    System.close(fd)
    while touch.removedCount(of: name) < 1 && System.monotonicNanoseconds() - removed < 5_000_000_000 {
        touch.waitAndDispatch(loop, timeoutMilliseconds: 50)
    }
    guard check(touch.removedCount(of: name) == 1, "the seat dropped it when it was destroyed (\(since(removed)))") else { return 1 }
    // Made again; uinputDragCheck waits for the seat to add it, then drags.
    let readded = System.monotonicNanoseconds()
    let dragged = touch.uinputDragCheck(loop, width: width, height: height)
    var ok = check(touch.addedCount(of: name) == 2, "the seat added it again (\(since(readded)) to the end of the drag)")
    ok = check(dragged == 0, "a drag on the re-added touchscreen moved the card") && ok
    let shown = loop.statistics.framesShown
    _ = loop.waitUntil(timeoutNanoseconds: 2_000_000_000) { $0.framesShown > shown }
    _ = loop.waitUntil(timeoutNanoseconds: 2_000_000_000) { [idle = loop.statistics.idleWaits] in $0.idleWaits > idle }
    do throws(HandshakeError) { try ScreendumpHandshake.request("touch-replugged") } catch {
        return check(false, error.description) ? 0 : 1
    }
    return ok ? 0 : 1
}
