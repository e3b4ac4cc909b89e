import CPosix
import FBRuntime

/// `--master-handoff` (scripts/vm-test): DRM master is taken by another
/// process while the animations run, and given back.
///
/// 1. With frames flowing, start `kmsprobe --take-master` (next to this
///    program), which polls drmSetMaster.
/// 2. Drop master (the test signal standing in for another session taking
///    the display): the render thread's next commit fails with EACCES, the
///    presenter goes to `masterLost`, renders nothing and retries
///    drmSetMaster with a bounded back-off.
/// 3. kmsprobe gets master, shows its own pattern (screendump
///    `master-taken` against its golden), drops master and waits until our
///    frame is on the CRTC again.
/// 4. We must have regained master (a modeset with the whole frame) and
///    the animations must go on (frames after the regain); then they are
///    removed, and the scene at rest must match the first frame's golden
///    (`master-regained`, a copy of `vm-orbit-first.png`).
/// Prints VMTEST-CHECK lines; returns the exit status.
func masterHandoffCheck(_ loop: RenderLoop, presenter: KMSPresenter, scene: any DemoScene) -> Int32 {
    guard loop.waitUntil(timeoutNanoseconds: 20_000_000_000, { $0.framesShown >= 10 }) else {
        print("VMTEST-CHECK FAIL fbdemo: the animations did not start")
        return 1
    }
    let arguments = System.arguments()
    var directory = arguments.first ?? "."
    if let slash = directory.lastIndex(of: "/") { directory = String(directory[..<slash]) } else { directory = "." }
    let probe = directory + "/kmsprobe"
    let device = presenter.output.device
    let pid = spawn(probe, ["kmsprobe", "--take-master", "--device", device.path])
    guard pid > 0 else {
        print("VMTEST-CHECK FAIL fbdemo: cannot start \(probe) (errno \(-pid))")
        return 1
    }
    // Let kmsprobe start polling before the display is free.
    MonotonicFrameTime().sleep(untilNanoseconds: System.monotonicNanoseconds() + 300_000_000)
    let before = loop.statistics
    print("fbdemo: dropping DRM master for kmsprobe (pid \(pid)) after \(before.framesShown) frames")
    do throws(KMSError) { try device.dropMaster() } catch {
        print("VMTEST-CHECK FAIL fbdemo: \(error.description)")
        return 1
    }
    // kmsprobe ends once our frame is back on its CRTC (or fails).
    var probeStatus: Int32 = -1
    let deadline = System.monotonicNanoseconds() + 40_000_000_000
    while System.monotonicNanoseconds() < deadline {
        probeStatus = fbr_wait_child(pid, 1)
        if probeStatus != -EAGAIN { break }
        _ = loop.waitUntil(timeoutNanoseconds: 50_000_000) { _ in false }
    }
    if probeStatus == -EAGAIN { _ = kill(pid, SIGKILL); probeStatus = fbr_wait_child(pid, 0) }
    var status: Int32 = 0
    print("VMTEST-CHECK \(probeStatus == 0 ? "PASS" : "FAIL") fbdemo: kmsprobe --take-master exited with \(probeStatus)")
    if probeStatus != 0 { status = 1 }

    let regained = loop.waitUntil(timeoutNanoseconds: 10_000_000_000) { $0.displayResumptions > before.displayResumptions }
    let atRegain = loop.statistics
    let goesOn = regained && loop.waitUntil(timeoutNanoseconds: 10_000_000_000) { $0.framesShown >= atRegain.framesShown + 20 }
    let after = loop.statistics
    print("fbdemo: master lost: \(after.masterLostCommits - before.masterLostCommits) commits refused, "
          + "\(after.suspendedWaits - before.suspendedWaits) waits without the display, "
          + "\(after.displayResumptions - before.displayResumptions) regains; \(after.framesShown - atRegain.framesShown) frames since")
    print("VMTEST-CHECK \(regained && after.masterLostCommits > before.masterLostCommits ? "PASS" : "FAIL") fbdemo: "
          + "a commit was refused without master and the display was taken back")
    print("VMTEST-CHECK \(goesOn ? "PASS" : "FAIL") fbdemo: the animations go on after the regain "
          + "(\(after.framesShown - atRegain.framesShown) frames)")
    if !regained || !goesOn || after.masterLostCommits == before.masterLostCommits { status = 1 }

    // The scene at rest: the first frame's picture again.
    loop.update { root in removeAnimations(root) }
    let shown = loop.statistics.framesShown
    let settled = loop.waitUntil(timeoutNanoseconds: 10_000_000_000) { $0.framesShown > shown }
        && loop.waitUntil(timeoutNanoseconds: 10_000_000_000) { [idle = loop.statistics.idleWaits] in $0.idleWaits > idle }
    if !settled { print("VMTEST-CHECK FAIL fbdemo: the scene did not come to rest"); return 1 }
    do throws(KMSError) { try ScreendumpHandshake.request("master-regained") } catch {
        print("VMTEST-CHECK FAIL fbdemo: \(error.description)")
        status = 1
    }
    return status
}

private func removeAnimations(_ layer: Layer) {
    layer.removeAllAnimations()
    for sublayer in layer.sublayers { removeAnimations(sublayer) }
}

/// posix_spawn of `path` with `arguments` (the first is argv[0]); the
/// child's pid, or -errno.
func spawn(_ path: String, _ arguments: [String]) -> Int32 {
    var argv: [UnsafeMutablePointer<CChar>?] = arguments.map { $0.withCString { strdup($0) } }
    argv.append(nil)
    defer { for p in argv { free(p) } }
    return path.withCString { p in argv.withUnsafeBufferPointer { fbr_spawn(p, $0.baseAddress!) } }
}
