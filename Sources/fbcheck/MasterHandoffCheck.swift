import CPosix
import DemoScenes
import FBRuntime
import FBRuntimeKMS
import FBRuntimeTesting

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
///
/// With `viaVT` (`--vt-handoff`), step 2 is a VT switch instead: `chvt 2`
/// (our VT is in VT_PROCESS mode, so the render thread drops master and
/// acknowledges the release), and kmsprobe, once done, switches back to
/// our VT (`--vt-back N`): the acquire signal makes us take master again.
/// Prints VMTEST-CHECK lines; returns the exit status.
func masterHandoffCheck(_ loop: RenderLoop, presenter: KMSPresenter, scene: any DemoScene, viaVT: Bool = false) -> Int32 {
    guard loop.waitUntil(timeoutNanoseconds: 20_000_000_000, { $0.framesShown >= 10 }) else {
        print("VMTEST-CHECK FAIL fbcheck: the animations did not start")
        return 1
    }
    let arguments = System.arguments()
    var directory = arguments.first ?? "."
    if let slash = directory.lastIndex(of: "/") { directory = String(directory[..<slash]) } else { directory = "." }
    let probe = directory + "/kmsprobe"
    let device = presenter.output.device
    let before = loop.statistics
    let readyFile = "/tmp/fbcheck-master-handoff.ready"
    _ = unlink(readyFile)
    var probeArguments = ["kmsprobe", "--take-master", "--device", device.path]
    if !viaVT { probeArguments += ["--ready-file", readyFile] }
    if viaVT {
        guard let vt = presenter.vtSwitcher else {
            print("VMTEST-CHECK FAIL fbcheck: no VT switching (see above)")
            return 1
        }
        let away = vt.number == 2 ? 3 : 2
        print("fbcheck: chvt \(away) after \(before.framesShown) frames (we are on \(vt.path))")
        let chvt = spawn("/bin/chvt", ["chvt", String(away)])
        let chvtStatus = chvt > 0 ? waitChild(chvt, seconds: 10) : chvt
        let released = loop.waitUntil(timeoutNanoseconds: 5_000_000_000) { $0.displaySuspensions > before.displaySuspensions }
        print("VMTEST-CHECK \(chvtStatus == 0 && released ? "PASS" : "FAIL") fbcheck: chvt \(away) exited with \(chvtStatus); "
              + "the render thread \(released ? "released" : "did not release") the display")
        if chvtStatus != 0 || !released { return 1 }
        probeArguments += ["--vt-back", String(vt.number)]
    }
    let pid = spawn(probe, probeArguments)
    guard pid > 0 else {
        print("VMTEST-CHECK FAIL fbcheck: cannot start \(probe) (errno \(-pid))")
        return 1
    }
    if !viaVT {
        // Drop master only once kmsprobe polls for it; our first retry
        // comes `retryBackoff.initialNanoseconds` after the refused commit
        // (250 ms in this test), time enough for its 2 ms polls.
        let ready = System.monotonicNanoseconds() + 20_000_000_000
        while !System.exists(readyFile) && System.monotonicNanoseconds() < ready { fbr_sleep_ns(10_000_000) }
        guard System.exists(readyFile) else {
            print("VMTEST-CHECK FAIL fbcheck: kmsprobe did not start polling for master within 20 s")
            _ = kill(pid, SIGKILL)
            return 1
        }
        print("fbcheck: dropping DRM master for kmsprobe (pid \(pid)) after \(loop.statistics.framesShown) frames")
        do throws(KMSError) { try device.dropMaster() } catch {
            print("VMTEST-CHECK FAIL fbcheck: \(error.description)")
            return 1
        }
    }
    // kmsprobe ends once our frame is back on its CRTC (or fails).
    let probeStatus = waitChild(pid, seconds: 40)
    var status: Int32 = 0
    print("VMTEST-CHECK \(probeStatus == 0 ? "PASS" : "FAIL") fbcheck: kmsprobe --take-master exited with \(probeStatus)")
    if probeStatus != 0 { status = 1 }

    let regained = loop.waitUntil(timeoutNanoseconds: 10_000_000_000) { $0.displayResumptions > before.displayResumptions }
    let atRegain = loop.statistics
    let goesOn = regained && loop.waitUntil(timeoutNanoseconds: 10_000_000_000) { $0.framesShown >= atRegain.framesShown + 20 }
    let after = loop.statistics
    print("fbcheck: master lost: \(after.masterLostCommits - before.masterLostCommits) commits refused, "
          + "\(after.suspendedWaits - before.suspendedWaits) waits without the display, "
          + "\(after.displayResumptions - before.displayResumptions) regains; \(after.framesShown - atRegain.framesShown) frames since")
    // Through the VT nothing is refused: the release stops the commits first.
    let refusedAsExpected = viaVT || after.masterLostCommits > before.masterLostCommits
    print("VMTEST-CHECK \(regained && refusedAsExpected ? "PASS" : "FAIL") fbcheck: "
          + (viaVT ? "the display was released on the VT switch and taken back on the return"
                   : "a commit was refused without master and the display was taken back"))
    print("VMTEST-CHECK \(goesOn ? "PASS" : "FAIL") fbcheck: the animations go on after the regain "
          + "(\(after.framesShown - atRegain.framesShown) frames)")
    if !regained || !goesOn || !refusedAsExpected { status = 1 }

    return restsAsRegained(loop) ? status : 1
}

/// The scene at rest after the display came back: its animations removed,
/// a frame shown and the loop idle, then the screendump `master-regained`
/// (the first frame's picture again). False, after a failing VMTEST-CHECK
/// line, when it does not come to rest or the screendump fails.
func restsAsRegained(_ loop: RenderLoop) -> Bool {
    loop.update { root in removeAnimations(root) }
    let shown = loop.statistics.framesShown
    let settled = loop.waitUntil(timeoutNanoseconds: 10_000_000_000) { $0.framesShown > shown }
        && loop.waitUntil(timeoutNanoseconds: 10_000_000_000) { [idle = loop.statistics.idleWaits] in $0.idleWaits > idle }
    if !settled { print("VMTEST-CHECK FAIL fbcheck: the scene did not come to rest"); return false }
    do throws(HandshakeError) { try ScreendumpHandshake.request("master-regained") } catch {
        print("VMTEST-CHECK FAIL fbcheck: \(error.description)")
        return false
    }
    return true
}

/// Waits (polling) at most `seconds` for child `pid` to end; kills it
/// after that. Its exit status, 128 + signal, or -errno.
func waitChild(_ pid: Int32, seconds: Int64) -> Int32 {
    let deadline = System.monotonicNanoseconds() + seconds * 1_000_000_000
    while System.monotonicNanoseconds() < deadline {
        let status = fbr_wait_child(pid, 1)
        if status != -EAGAIN { return status }
        fbr_sleep_ns(20_000_000)
    }
    _ = kill(pid, SIGKILL)
    return fbr_wait_child(pid, 0)
}

func removeAnimations(_ layer: Layer) {
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
