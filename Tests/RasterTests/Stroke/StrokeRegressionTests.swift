import XCTest
@testable import Raster

/// Inputs the fuzzer (scripts/fuzz path) found, kept as regression tests.
final class StrokeRegressionTests: XCTestCase {
    /// A subpath whose length is NaN (∞ − ∞, from points that overflowed when
    /// mapped back through a nearly singular transform) made the total
    /// length NaN, which slipped past the dash-count limit; the dash walk
    /// then stepped a long finite subpath by a tiny period and hung. Now the
    /// limit refuses NaN and the walk is bounded.
    func testNonFiniteSubpathLengthDoesNotDefeatTheDashLimit() {
        let stroker = Stroker(style: StrokeStyle(width: 1, dash: [1e-6, 1e-6]), tolerance: 0.1)
        let long = Stroker.Piece(points: [PathPoint(0, 0), PathPoint(1e9, 0)], corners: [true, true], closed: false,
                                 direction: PathPoint(1, 0))
        let broken = Stroker.Piece(points: [PathPoint(.infinity, 0), PathPoint(.infinity, 1)], corners: [true, true],
                                   closed: false, direction: PathPoint(1, 0))
        // (A walk that did not end would hang here; the counts below show
        // the limit's effect. No wall-clock bound: tests never time.)
        let out = stroker.dashed([long, broken])
        XCTAssertEqual(out.count, 2, "over the dash limit: the pieces stay solid")
        // A finite total over the limit behaves the same.
        XCTAssertEqual(stroker.dashed([long]).count, 1)
        // Within the limit, a dash pattern still dashes.
        let short = Stroker.Piece(points: [PathPoint(0, 0), PathPoint(1e-3, 0)], corners: [true, true], closed: false,
                                  direction: PathPoint(1, 0))
        XCTAssertEqual(stroker.dashed([short]).count, 500)
    }

    /// Found by the stroke fuzzer (seed Fuzz/corpus/stroke/regression-huge-dash-phase):
    /// a phase of 1e55 against a period of 0.75 reduced, after rounding, to
    /// about 1e39 instead of a value in [0, period), and the walk to the
    /// phase subtracted 0.375 from it forever (the subtraction no longer
    /// changed it). Such a phase now starts the pattern at its beginning:
    /// the same dashes as phase 0.
    func testHugeDashPhaseStartsThePattern() {
        let line = Stroker.Piece(points: [PathPoint(0, 0), PathPoint(10, 0)], corners: [true, true], closed: false,
                                 direction: PathPoint(1, 0))
        func dashes(_ phase: Double) -> [[PathPoint]] {
            Stroker(style: StrokeStyle(width: 1, dash: [0.375, 0.375], dashPhase: phase), tolerance: 0.1).dashed([line]).map(\.points)
        }
        for phase in [1.0594515088221858e+55, 5.479507873039661e+79, -1.0594515088221858e+55] {
            XCTAssertEqual(dashes(phase), dashes(0), "phase \(phase)")
        }
        // An ordinary phase still shifts the pattern.
        XCTAssertEqual(dashes(0.375).first?.first, PathPoint(0.375, 0))
    }
}
