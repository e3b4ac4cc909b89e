import XCTest
@testable import FBRuntime

/// The app-side media clock: CLOCK_MONOTONIC in seconds, and the manual
/// clock tests drive.
final class MediaClockTests: XCTestCase {
    func testCurrentMediaTimeIsTheMonotonicClockInSeconds() {
        // Bracketed by two raw CLOCK_MONOTONIC readings (the oracle), and
        // never decreasing across many reads.
        let before = System.monotonicNanoseconds()
        let t = currentMediaTime()
        let after = System.monotonicNanoseconds()
        XCTAssertGreaterThanOrEqual(t, Double(before) / 1e9)
        XCTAssertLessThanOrEqual(t, Double(after) / 1e9)
        let clock: any Clock = MonotonicClock()
        var last = clock.now
        for _ in 0..<10_000 {
            let now = clock.now
            XCTAssertGreaterThanOrEqual(now, last)
            last = now
        }
    }

    func testManualClockMovesOnlyWhenToldAndIgnoresBadInput() {
        let clock = ManualClock(now: 5)
        XCTAssertEqual(clock.now, 5)
        clock.advance(by: 0.25)
        XCTAssertEqual(clock.now, 5.25)
        clock.advance(by: .nan)
        clock.advance(by: -1)
        clock.advance(by: .infinity)
        XCTAssertEqual(clock.now, 5.25)
        clock.set(.nan)
        XCTAssertEqual(clock.now, 5.25)
        clock.set(1)                       // back in time on purpose: allowed
        XCTAssertEqual(clock.now, 1)
        XCTAssertEqual(ManualClock(now: .nan).now, 0)
    }
}
