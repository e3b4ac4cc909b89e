@testable import FBRuntime
import XCTest

/// Timing tables in the style of the web-platform tests of the Web
/// Animations timing model (issue 22), mapped onto `MediaTiming`: each row
/// is an effect's timing (delay, iterations, iteration start, direction,
/// fill, playback rate) and is sampled before, across and after its active
/// interval; the expected directed progress comes from an oracle written
/// here from the specification's formulas (Web Animations Level 1, §4
/// "Core animation effect calculations": phases, active time, overall
/// progress, simple iteration progress, current iteration, directed
/// progress), not from `MediaTiming`'s code.
///
/// The mapping: delay → `beginTime` (at playback rate 1), iterations →
/// `repeatCount` (direction alternate: `autoreverses`, `repeatCount` =
/// iterations / 2, since a Core Animation cycle is there and back),
/// iteration start → `timeOffset` = start × duration, fill → `fillMode`,
/// the playback rate (positive) → `speed`.
///
/// What does not map, and is left out on purpose: zero iterations (a Core
/// Animation `repeatCount` of 0 means one), negative rates (Core
/// Animation plays each pass backwards; Web Animations plays the timeline
/// backwards), and an iteration start whose iterations do not end on a
/// whole cycle of the direction (Core Animation's `timeOffset` wraps
/// within the active duration, so such an effect ends elsewhere; covered
/// by `MediaTimingTests`).
final class WebAnimationsTimingTableTests: XCTestCase {
    enum Fill { case none, forwards, backwards, both }

    struct Row {
        var delay = 0.0
        var duration = 1.0
        var iterations = 1.0
        var iterationStart = 0.0
        var alternate = false
        var fill = Fill.none
        var rate = 1.0
    }

    /// The specification's directed progress at local time `t` (seconds
    /// since the animation's start, before the playback rate), or nil
    /// where the effect has none (unresolved active time).
    static func oracle(_ r: Row, at t: Double) -> Double? {
        let local = t * r.rate
        let active = r.duration * r.iterations
        // Phases (end delay 0, positive rate).
        let activeTime: Double
        var inAfterPhase = false
        if local < r.delay {
            guard r.fill == .backwards || r.fill == .both else { return nil }
            activeTime = 0
        } else if local >= r.delay + active {
            guard r.fill == .forwards || r.fill == .both else { return nil }
            activeTime = active
            inAfterPhase = true
        } else {
            activeTime = local - r.delay
        }
        let overall = activeTime / r.duration + r.iterationStart
        var simple = overall.truncatingRemainder(dividingBy: 1)
        if simple == 0 && (inAfterPhase || activeTime == active) && activeTime == active && r.iterations != 0 && overall != 0 {
            simple = 1
        }
        let iteration = simple == 1 ? overall.rounded(.down) - 1 : overall.rounded(.down)
        if r.alternate && Int(iteration) % 2 == 1 { return 1 - simple }
        return simple
    }

    static func timing(_ r: Row) -> MediaTiming {
        var m = MediaTiming()
        m.duration = r.duration
        m.beginTime = r.delay / r.rate
        m.speed = r.rate
        m.timeOffset = r.iterationStart * r.duration
        if r.alternate {
            m.autoreverses = true
            m.repeatCount = r.iterations / 2
        } else {
            m.repeatCount = r.iterations
        }
        switch r.fill {
        case .none: m.fillMode = .removed
        case .forwards: m.fillMode = .forwards
        case .backwards: m.fillMode = .backwards
        case .both: m.fillMode = .both
        }
        return m
    }

    /// The table: every combination of the fields below that maps.
    static var rows: [Row] {
        var rows: [Row] = []
        for fill in [Fill.none, .forwards, .backwards, .both] {
            for delay in [0.0, 0.5] {
                for duration in [1.0, 2.5] {
                    for iterations in [1.0, 2, 2.5, 3] {
                        for alternate in [false, true] {
                            for iterationStart in [0.0, 0.25, 1.5] {
                                for rate in [1.0, 2.0] {
                                    if rate != 1 && delay != 0 { continue }          // delay is in local time
                                    if iterationStart != 0 {
                                        // Ends on a whole cycle of the direction only.
                                        let cycle = alternate ? 2.0 : 1.0
                                        if (iterations / cycle).rounded(.down) != iterations / cycle { continue }
                                    }
                                    rows.append(Row(delay: delay, duration: duration, iterations: iterations,
                                                    iterationStart: iterationStart, alternate: alternate, fill: fill, rate: rate))
                                }
                            }
                        }
                    }
                }
            }
        }
        return rows
    }

    func testDirectedProgressMatchesTheSpecificationsTables() {
        let rows = WebAnimationsTimingTableTests.rows
        XCTAssertGreaterThan(rows.count, 200)
        var samples = 0
        for r in rows {
            let m = WebAnimationsTimingTableTests.timing(r)
            let end = (r.delay + r.duration * r.iterations) / r.rate
            // Before, at the start, across the active interval (quarter
            // steps of a pass, between pass boundaries), at and after the end.
            var times: [Double] = [-1, 0]
            if r.delay > 0 { times += [r.delay / r.rate * 0.5, r.delay / r.rate] }
            var k = 1.0
            while k < r.iterations * 4 {
                times.append((r.delay + r.duration * (k / 4 + 0.01)) / r.rate)
                k += 1
            }
            times += [end - 1e-6, end, end + 3]
            for t in times {
                let expected = WebAnimationsTimingTableTests.oracle(r, at: t)
                let got = m.state(atParentTime: t, default: 0.25)?.progress
                samples += 1
                switch (expected, got) {
                case (nil, nil): break
                case let (e?, g?): XCTAssertEqual(g, e, accuracy: 1e-6, "\(r) at \(t)")
                default: XCTFail("\(r) at \(t): expected \(String(describing: expected)), got \(String(describing: got))")
                }
            }
        }
        XCTAssertGreaterThan(samples, 3000)
    }

    /// The active duration and the end (`hasFinished`) as the
    /// specification counts them: end time = delay + duration × iterations
    /// (over the rate).
    func testActiveDurationAndEnd() {
        for r in WebAnimationsTimingTableTests.rows where r.fill == .none {
            let m = WebAnimationsTimingTableTests.timing(r)
            XCTAssertEqual(m.activeDuration(default: 0.25), r.duration * r.iterations, accuracy: 1e-12, "\(r)")
            let end = (r.delay + r.duration * r.iterations) / r.rate
            XCTAssertFalse(m.hasFinished(atParentTime: end - 1e-6, default: 0.25), "\(r)")
            XCTAssertTrue(m.hasFinished(atParentTime: end, default: 0.25), "\(r)")
        }
    }
}
