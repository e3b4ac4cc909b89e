import XCTest
@testable import FBRuntime

/// CAMediaTiming's two-stage map from parent time to local time.
final class MediaTimingTests: XCTestCase {
    private func timing(_ configure: (inout MediaTiming) -> Void) -> MediaTiming {
        var t = MediaTiming()
        t.duration = 2
        configure(&t)
        return t
    }

    private func progress(_ t: MediaTiming, _ time: Double) -> Double? {
        t.state(atParentTime: time, default: 0.25)?.progress
    }

    func testBeginTimeAndSpeed() {
        let t = timing { $0.beginTime = 10; $0.speed = 2 }
        XCTAssertNil(progress(t, 9.99))
        XCTAssertEqual(progress(t, 10), 0)
        XCTAssertEqual(progress(t, 10.5), 0.5)       // twice as fast: 1 s of 2 after 0.5 s
        XCTAssertNil(progress(t, 11))                  // over after 1 s of parent time
        XCTAssertEqual(t.parentActiveDuration(default: 0.25), 1)
        XCTAssertTrue(t.hasFinished(atParentTime: 11, default: 0.25))
    }

    func testSpeedZeroPausesAndTimeOffsetScrubs() {
        var t = timing { $0.speed = 0; $0.timeOffset = 0.5 }
        for now in [0.0, 3, 1000] { XCTAssertEqual(progress(t, now), 0.25) }
        t.timeOffset = 1.5
        XCTAssertEqual(progress(t, 7), 0.75)
        XCTAssertFalse(t.hasFinished(atParentTime: 1e9, default: 0.25))   // paused: never finishes
    }

    func testTimeOffsetWrapsWithinTheActiveDuration() {
        // Core Animation: a 2 s animation with timeOffset 1.5 plays 1.5→2, then 0→1.5.
        let t = timing { $0.timeOffset = 1.5 }
        XCTAssertEqual(progress(t, 0), 0.75)
        XCTAssertEqual(progress(t, 0.25), 0.875)
        XCTAssertEqual(progress(t, 0.5), 0)
        XCTAssertEqual(progress(t, 1.9)!, 0.7, accuracy: 1e-12)
        XCTAssertNil(progress(t, 2))
    }

    func testRepeatCountRepeatDurationAndAutoreverse() {
        var t = timing { $0.repeatCount = 2.5 }
        XCTAssertEqual(t.activeDuration(default: 0.25), 5)
        XCTAssertEqual(progress(t, 4.5), 0.25)
        t.fillMode = .forwards
        XCTAssertEqual(progress(t, 99), 0.5)             // stopped half-way through the third pass
        t = timing { $0.autoreverses = true; $0.repeatCount = 1; $0.fillMode = .forwards }
        XCTAssertEqual(progress(t, 1), 0.5)
        XCTAssertEqual(progress(t, 3), 0.5)              // on the way back
        XCTAssertEqual(progress(t, 50), 0)               // ends where it started
        t = timing { $0.repeatDuration = 3; $0.fillMode = .forwards }
        XCTAssertEqual(progress(t, 2.5), 0.25)
        XCTAssertEqual(progress(t, 3.5), 0.5)            // held where repeatDuration cut it
        t = timing { $0.repeatCount = .infinity }
        XCTAssertEqual(progress(t, 1e6 + 1), 0.5)
        XCTAssertFalse(t.hasFinished(atParentTime: 1e12, default: 0.25))
    }

    func testFillBackwardsHoldsTheFirstValue() {
        let t = timing { $0.beginTime = 5; $0.fillMode = .backwards }
        XCTAssertEqual(progress(t, 0), 0)
        XCTAssertNil(progress(t, 8))
        let both = timing { $0.beginTime = 5; $0.fillMode = .both }
        XCTAssertEqual(progress(both, 0), 0)
        XCTAssertEqual(progress(both, 8), 1)
    }

    func testBadValuesAreClamped() {
        XCTAssertEqual(progress(timing { $0.duration = 0 }, 0.125), 0.5)      // default duration 0.25
        XCTAssertEqual(progress(timing { $0.duration = .nan }, 0.125), 0.5)
        XCTAssertEqual(progress(timing { $0.speed = .nan }, 1), 0.5)           // NaN speed counts as 1
        XCTAssertEqual(progress(timing { $0.timeOffset = .infinity }, 1), 0.5) // non-finite offset ignored
        XCTAssertNil(progress(timing { _ in }, .nan))
        XCTAssertEqual(progress(timing { $0.speed = -1 }, 0.5), 0.75)          // negative speed: backwards
    }

    func testBasicAnimationUsesTheTimingModel() {
        var a = BasicAnimation(key: .opacity, from: .scalar(0), to: .scalar(1), duration: 1)
        a.beginTime = 2
        a.speed = 0.5
        XCTAssertEqual(a.value(at: 3), .scalar(0.5))
        a.fillsForwards = true
        XCTAssertEqual(a.fillMode, .forwards)
        XCTAssertEqual(a.value(at: 100), .scalar(1))
    }
}

/// CABasicAnimation's from/to/by table, additive and cumulative.
final class BasicAnimationValueTests: XCTestCase {
    private func at(_ a: BasicAnimation, _ t: Double, base: Double? = nil) -> Double? {
        guard case let .scalar(v)? = a.value(at: t, base: base.map { .scalar($0) }) else { return nil }
        return v
    }

    func testFromToByCombinations() {
        func make(_ from: Double?, _ to: Double?, _ by: Double?) -> BasicAnimation {
            BasicAnimation(key: .opacity, from: from.map { .scalar($0) }, to: to.map { .scalar($0) }, by: by.map { .scalar($0) }, duration: 1)
        }
        XCTAssertEqual(at(make(2, 4, nil), 0.5, base: 100), 3)      // from → to
        XCTAssertEqual(at(make(2, nil, 6), 0.5, base: 100), 5)      // from → from + by
        XCTAssertEqual(at(make(nil, 4, 6), 0.5, base: 100), 1)      // to − by → to
        XCTAssertEqual(at(make(2, nil, nil), 0.5, base: 10), 6)     // from → base
        XCTAssertEqual(at(make(nil, 4, nil), 0.5, base: 10), 7)     // base → to
        XCTAssertEqual(at(make(nil, nil, 6), 0.5, base: 10), 13)    // base → base + by
        XCTAssertEqual(at(make(nil, nil, nil), 0.5, base: 10), 10)  // base → base
        XCTAssertNil(at(make(nil, 4, nil), 0.5))                    // needs a base that was not given
    }

    func testAdditiveAndCumulative() {
        var a = BasicAnimation(key: .opacity, from: .scalar(0), to: .scalar(10), duration: 1)
        a.isAdditive = true
        XCTAssertEqual(at(a, 0.5, base: 100), 105)
        var by = BasicAnimation(key: .opacity, by: .scalar(10), duration: 1)
        by.isAdditive = true
        XCTAssertEqual(at(by, 0.5, base: 100), 105)                 // 0 → by, added to the base
        var c = BasicAnimation(key: .opacity, from: .scalar(1), to: .scalar(3), duration: 1)
        c.isCumulative = true
        c.repeatCount = 3
        c.fillMode = .forwards
        XCTAssertEqual(at(c, 0.5), 2)
        XCTAssertEqual(at(c, 1.5), 4)                               // second pass starts where the first ended
        XCTAssertEqual(at(c, 2.5), 6)
        XCTAssertEqual(at(c, 10), 7)                                // held at the end of the third pass
    }
}
