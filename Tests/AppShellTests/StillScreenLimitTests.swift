@testable import AppShell
import FBRuntime
import XCTest

/// `--frames N` on a display: a still screen ends the run too.
final class StillScreenLimitTests: XCTestCase {
    /// 60 frames at 60 Hz: not before 1 s from the start, and only after a
    /// second without a new frame.
    func testAStillScreenEndsAfterNRefreshPeriodsAndASecondWithoutFrames() {
        var limit = App.StillScreenLimit(frames: 60, refreshIntervalNanoseconds: 16_666_667, start: 10)
        XCTAssertFalse(limit.isReached(framesRendered: 1, now: 10))       // the first frame
        XCTAssertFalse(limit.isReached(framesRendered: 1, now: 10.9))     // still, but before N periods
        XCTAssertTrue(limit.isReached(framesRendered: 1, now: 11.01))     // N periods and a still second
    }

    /// Frames still coming (an animation slower than the refresh rate)
    /// keep the run going past N periods.
    func testFramesStillComingKeepTheRunGoing() {
        var limit = App.StillScreenLimit(frames: 10, refreshIntervalNanoseconds: 16_666_667, start: 0)
        var rendered = 0
        var now: MediaTime = 0
        while now < 3 {
            rendered += 1
            XCTAssertFalse(limit.isReached(framesRendered: rendered, now: now), "at \(now) s")
            now += 0.25
        }
        XCTAssertFalse(limit.isReached(framesRendered: rendered, now: now + 0.5))
        XCTAssertTrue(limit.isReached(framesRendered: rendered, now: now + 1))
    }
}
