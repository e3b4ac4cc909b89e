import XCTest
@testable import FBRuntime

/// `IdlePolicy`'s state machine on a manual clock (ns): every transition
/// of its diagram, the swallowed wake sequences and the deadlines.
final class IdlePolicyTests: XCTestCase {
    let s: Int64 = 1_000_000_000
    var timeouts: IdleTimeouts { IdleTimeouts(dimAfterNanoseconds: 10 * s, offAfterNanoseconds: 30 * s, dimPercent: 25) }

    func testDimsThenTurnsOffCountingFromTheLastInput() {
        var policy = IdlePolicy(timeouts: timeouts, now: 0)
        XCTAssertEqual(policy.nextDeadlineNanoseconds, 10 * s)
        XCTAssertNil(policy.tick(now: 10 * s - 1))
        XCTAssertEqual(policy.tick(now: 10 * s), .dimBacklight)
        XCTAssertEqual(policy.state, .dimmed)
        XCTAssertEqual(policy.nextDeadlineNanoseconds, 30 * s)
        XCTAssertNil(policy.tick(now: 20 * s))
        XCTAssertNil(policy.tick(now: 30 * s - 1))
        XCTAssertEqual(policy.tick(now: 30 * s), .displayOff)
        XCTAssertEqual(policy.state, .off)
        XCTAssertNil(policy.nextDeadlineNanoseconds, "off: only input changes anything")
        XCTAssertNil(policy.tick(now: 1000 * s))

        // Input while active restarts the count.
        var other = IdlePolicy(timeouts: timeouts, now: 0)
        XCTAssertEqual(other.input(.other, at: 9 * s).deliver, true)
        XCTAssertNil(other.tick(now: 10 * s))
        XCTAssertEqual(other.nextDeadlineNanoseconds, 19 * s)
        XCTAssertEqual(other.tick(now: 19 * s), .dimBacklight)
    }

    func testWithoutDimOrWhenBothAreDueItGoesStraightOff() {
        var offOnly = IdlePolicy(timeouts: IdleTimeouts(dimAfterNanoseconds: nil, offAfterNanoseconds: 5 * s), now: 0)
        XCTAssertEqual(offOnly.nextDeadlineNanoseconds, 5 * s)
        XCTAssertEqual(offOnly.tick(now: 5 * s), .displayOff)
        // A late tick (the app thread was busy) past both times: off at once.
        var late = IdlePolicy(timeouts: timeouts, now: 0)
        XCTAssertEqual(late.tick(now: 31 * s), .displayOff)
        // Dim only: never off.
        var dimOnly = IdlePolicy(timeouts: IdleTimeouts(dimAfterNanoseconds: 2 * s, offAfterNanoseconds: nil), now: 0)
        XCTAssertEqual(dimOnly.tick(now: 2 * s), .dimBacklight)
        XCTAssertNil(dimOnly.nextDeadlineNanoseconds)
        XCTAssertNil(dimOnly.tick(now: 1000 * s))
    }

    func testInputWhileDimmedIsDeliveredAndBrightens() {
        var policy = IdlePolicy(timeouts: timeouts, now: 0)
        _ = policy.tick(now: 10 * s)
        let r = policy.input(.touch(id: 0, phase: .began), at: 11 * s)
        XCTAssertTrue(r.deliver)
        XCTAssertEqual(r.action, .restoreBacklight)
        XCTAssertEqual(policy.state, .active)
        XCTAssertEqual(policy.input(.touch(id: 0, phase: .ended), at: 11 * s).deliver, true)
    }

    /// The touch that wakes the screen is swallowed from down to up, moves
    /// included; the backlight comes back with the first frame; later
    /// touches (even while waking) are delivered.
    func testWakingTouchIsSwallowedToItsEnd() {
        var policy = IdlePolicy(timeouts: timeouts, now: 0)
        _ = policy.tick(now: 30 * s)
        let down = policy.input(.touch(id: 2, phase: .began), at: 40 * s)
        XCTAssertEqual(down.deliver, false)
        XCTAssertEqual(down.action, .displayOn)
        XCTAssertEqual(policy.state, .waking)
        XCTAssertEqual(policy.input(.touch(id: 2, phase: .moved), at: 40 * s).deliver, false)
        XCTAssertEqual(policy.input(.touch(id: 5, phase: .began), at: 40 * s).deliver, true, "another finger while waking")
        XCTAssertEqual(policy.frameShown(), .restoreBacklight)
        XCTAssertEqual(policy.state, .active)
        XCTAssertNil(policy.frameShown())
        XCTAssertEqual(policy.input(.touch(id: 2, phase: .moved), at: 41 * s).deliver, false, "still the waking touch")
        XCTAssertEqual(policy.input(.touch(id: 2, phase: .ended), at: 41 * s).deliver, false)
        XCTAssertEqual(policy.swallowedTouches, [])
        XCTAssertEqual(policy.input(.touch(id: 2, phase: .began), at: 42 * s).deliver, true, "the id's next touch is a new one")
        // A cancel ends a swallowed touch as well.
        var other = IdlePolicy(timeouts: timeouts, now: 0)
        _ = other.tick(now: 30 * s)
        _ = other.input(.touch(id: 1, phase: .began), at: 31 * s)
        XCTAssertEqual(other.input(.touch(id: 1, phase: .cancelled), at: 31 * s).deliver, false)
        XCTAssertEqual(other.swallowedTouches, [])
    }

    func testWakingKeyIsSwallowedWithItsRepeatsAndRelease() {
        var policy = IdlePolicy(timeouts: timeouts, now: 0)
        _ = policy.tick(now: 30 * s)
        let press = policy.input(.key(code: 28, pressed: true), at: 40 * s)
        XCTAssertEqual(press.deliver, false)
        XCTAssertEqual(press.action, .displayOn)
        XCTAssertEqual(policy.input(.key(code: 28, pressed: true), at: 40 * s).deliver, false, "auto-repeat")
        XCTAssertEqual(policy.input(.key(code: 103, pressed: true), at: 40 * s).deliver, true, "another key")
        XCTAssertEqual(policy.input(.key(code: 28, pressed: false), at: 40 * s).deliver, false)
        XCTAssertEqual(policy.input(.key(code: 28, pressed: true), at: 41 * s).deliver, true)
    }

    /// A touch or key that began before the display went off ends as it
    /// is (delivered), without waking it; other input wakes and is dropped.
    func testSequencesFromBeforeTheBlankEndDeliveredAndOtherInputWakes() {
        var policy = IdlePolicy(timeouts: timeouts, now: 0)
        XCTAssertTrue(policy.input(.touch(id: 0, phase: .began), at: 0).deliver)
        XCTAssertTrue(policy.input(.key(code: 30, pressed: true), at: 0).deliver)
        _ = policy.tick(now: 30 * s)
        XCTAssertEqual(policy.state, .off)
        let up = policy.input(.touch(id: 0, phase: .ended), at: 31 * s)
        XCTAssertEqual(up.deliver, true)
        XCTAssertNil(up.action)
        XCTAssertEqual(policy.input(.key(code: 30, pressed: false), at: 31 * s).deliver, true)
        XCTAssertEqual(policy.state, .off)
        let wheel = policy.input(.other, at: 32 * s)
        XCTAssertEqual(wheel.deliver, false)
        XCTAssertEqual(wheel.action, .displayOn)
    }

    func testWakeWithoutAFrameRestoresTheBacklightAfterTheTimeout() {
        var policy = IdlePolicy(timeouts: timeouts, now: 0)
        _ = policy.tick(now: 30 * s)
        _ = policy.input(.touch(id: 0, phase: .began), at: 40 * s)
        XCTAssertEqual(policy.nextDeadlineNanoseconds, 40 * s + policy.wakeTimeoutNanoseconds)
        XCTAssertNil(policy.tick(now: 40 * s + policy.wakeTimeoutNanoseconds - 1))
        XCTAssertEqual(policy.tick(now: 40 * s + policy.wakeTimeoutNanoseconds), .restoreBacklight)
        XCTAssertEqual(policy.state, .active)
        // Idle counts from the wake.
        XCTAssertEqual(policy.nextDeadlineNanoseconds, 50 * s)
    }
}
