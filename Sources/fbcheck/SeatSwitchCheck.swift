import CPosix
import FBRuntime
import FBRuntimeTesting
import Seat

/// The file that tells `scripts/vm/with-seatd` (root, outside) that the
/// display was released: it then switches back to our VT (`chvt`), which a
/// user in no group cannot do.
let seatAwayFile = "/tmp/fbcheck-seat-away"

/// `--seat-switch-check` (scripts/vm-test, under seatd): a VT switch
/// through the seat manager while the animations run.
///
/// 1. Ask seatd to switch to VT 2 (`libseat_switch_session`): the seat is
///    disabled, the render thread acknowledges between frames and stops
///    rendering (a display suspension).
/// 2. Write `seatAwayFile`; with-seatd switches back to our VT as root.
/// 3. The seat is enabled again: master is ours (seatd gives it), the
///    next frame is a modeset with the whole frame, and the animations go
///    on; at rest the screen must match `vm-master-regained.png` (the first
///    frame's picture).
/// Prints VMTEST-CHECK lines; returns the exit status.
func seatSwitchCheck(_ loop: RenderLoop, seat: SeatSession) -> Int32 {
    guard loop.waitUntil(timeoutNanoseconds: 20_000_000_000, { $0.framesShown >= 10 }) else {
        print("VMTEST-CHECK FAIL fbcheck: the animations did not start")
        return 1
    }
    _ = unlink(seatAwayFile)
    let before = loop.statistics
    print("fbcheck: asking the seat manager for VT 2 after \(before.framesShown) frames")
    guard seat.switchSession(2) else {
        print("VMTEST-CHECK FAIL fbcheck: libseat_switch_session(2) was refused")
        return 1
    }
    let released = loop.waitUntil(timeoutNanoseconds: 5_000_000_000) { $0.displaySuspensions > before.displaySuspensions }
    print("VMTEST-CHECK \(released ? "PASS" : "FAIL") fbcheck: the render thread \(released ? "released" : "did not release") the display on the seat's disable")
    if !released { return 1 }
    let away = loop.statistics.framesShown
    fbr_sleep_ns(300_000_000)
    let stillAway = loop.statistics.framesShown == away
    print("VMTEST-CHECK \(stillAway ? "PASS" : "FAIL") fbcheck: no frame shown while the seat is away")
    do throws(SystemError) {
        System.close(try System.open(seatAwayFile, O_WRONLY | O_CREAT | O_TRUNC))
    } catch {
        print("VMTEST-CHECK FAIL fbcheck: \(error.description)")
        return 1
    }
    let regained = loop.waitUntil(timeoutNanoseconds: 10_000_000_000) { $0.displayResumptions > before.displayResumptions }
    let atRegain = loop.statistics
    let goesOn = regained && loop.waitUntil(timeoutNanoseconds: 10_000_000_000) { $0.framesShown >= atRegain.framesShown + 20 }
    print("VMTEST-CHECK \(regained && goesOn ? "PASS" : "FAIL") fbcheck: the display was taken back on the seat's enable, "
          + "\(loop.statistics.framesShown - atRegain.framesShown) frames since")
    let status: Int32 = released && stillAway && regained && goesOn ? 0 : 1
    return restsAsRegained(loop) ? status : 1
}
