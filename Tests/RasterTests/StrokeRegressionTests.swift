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
        let start = DispatchTime.now().uptimeNanoseconds
        let out = stroker.dashed([long, broken])
        XCTAssertLessThan(DispatchTime.now().uptimeNanoseconds - start, 5_000_000_000, "the dash walk must stay bounded")
        XCTAssertEqual(out.count, 2, "over the dash limit: the pieces stay solid")
        // A finite total over the limit behaves the same.
        XCTAssertEqual(stroker.dashed([long]).count, 1)
        // Within the limit, a dash pattern still dashes.
        let short = Stroker.Piece(points: [PathPoint(0, 0), PathPoint(1e-3, 0)], corners: [true, true], closed: false,
                                  direction: PathPoint(1, 0))
        XCTAssertEqual(stroker.dashed([short]).count, 500)
    }
}
