import XCTest
import Raster

/// The work limit of one stroke (`StrokeStyle.maxOutlinePoints`, and
/// `maxDashCount`): strokes the stroke fuzzer found taking seconds each
/// (tens of thousands of dashes, or a huge width that gave a thousand-point
/// round join at every vertex inside a curve) now give a bounded outline,
/// with the documented result. The oracles are independent of the limit:
/// a short stroke's own outline, the coverage of the whole clip, and counts
/// of points.
final class StrokeWorkLimitTests: XCTestCase {
    func line(_ x0: Double, _ y0: Double, _ x1: Double, _ y1: Double) -> Path {
        var p = Path(); p.move(to: PathPoint(x0, y0)); p.line(to: PathPoint(x1, y1)); return p
    }

    /// At most the limit plus the one piece under way: three points per
    /// vertex on each side and its caps.
    func assertWithinLimit(_ outline: Path, of path: Path, file: StaticString = #filePath, line: UInt = #line) {
        var flattened = 0
        for polyline in path.flattened() { flattened += polyline.points.count }
        XCTAssertLessThanOrEqual(outline.points.count, StrokeStyle.maxOutlinePoints + 6 * flattened + 16,
                                 "outline of \(outline.points.count) points", file: file, line: line)
    }

    /// 10⁹ dashes: over `maxDashCount`, so the stroke is solid, exactly the
    /// undashed outline.
    func testBillionDashesAreSolid() {
        let path = line(0, 10, 1e9, 10)
        let dashed = path.stroked(StrokeStyle(width: 4, cap: .round, dash: [0.5, 0.5]))
        let solid = path.stroked(StrokeStyle(width: 4, cap: .round))
        XCTAssertEqual(dashed.points, solid.points)
        XCTAssertEqual(dashed.verbs, solid.verbs)
        assertWithinLimit(dashed, of: path)
    }

    /// 30,000 dashes, within `maxDashCount` but past the outline limit:
    /// the first `maxOutlinePoints / 4` are drawn as they would be on a
    /// short line, and nothing after them.
    func testDashesPastTheOutlineLimitAreLeftOut() {
        let style = StrokeStyle(width: 1, cap: .butt, dash: [1, 1])
        let long = line(0, 10, 60_000, 10)
        let outline = long.stroked(style)
        assertWithinLimit(outline, of: long)
        // The start is drawn as the same pattern on a short line draws it.
        let clip = IntRect(x: 0, y: 0, width: 128, height: 20)
        XCTAssertEqual(coveredArea(outline, clip: clip), coveredArea(line(0, 10, 200, 10).stroked(style), clip: clip),
                       accuracy: 0.01)
        XCTAssertEqual(coveredArea(outline, clip: clip), 64, accuracy: 0.5)      // 64 one-pixel dashes in 128
        // The last dash drawn starts at 2 × (maxOutlinePoints / 4 − 1).
        let lastStart = 2.0 * Double(StrokeStyle.maxOutlinePoints / 4 - 1)
        var maxX = -Double.infinity
        for p in outline.points { maxX = max(maxX, p.x) }
        XCTAssertEqual(maxX, lastStart + 1, accuracy: 1e-6)
    }

    /// A width of 10⁹ around a circle: a round join at each of its
    /// flattened points would have a thousand points. Within the limit, and
    /// the stroke still covers the whole canvas, as a stroke that wide must.
    func testHugeWidthOnCurvesStaysWithinTheLimitAndCovers() {
        let circle = Path(circleCenter: PathPoint(x: 64, y: 32), radius: 100)
        for cap in [LineCap.round, .square] {
            let outline = circle.stroked(StrokeStyle(width: 1e9, cap: cap, join: .round))
            assertWithinLimit(outline, of: circle)
            let clip = IntRect(x: 0, y: 0, width: 128, height: 64)
            XCTAssertEqual(coveredArea(outline, clip: clip), 128 * 64, accuracy: 0.5)
        }
        // Open curves: round caps as well as joins.
        var arc = Path(); arc.move(to: PathPoint(0, 0)); arc.cubic(to: PathPoint(128, 0), control1: PathPoint(0, 200), control2: PathPoint(128, 200))
        let outline = arc.stroked(StrokeStyle(width: 1e9, cap: .round, join: .round))
        assertWithinLimit(outline, of: arc)
        XCTAssertEqual(coveredArea(outline, clip: IntRect(x: 0, y: 0, width: 128, height: 64)), 128 * 64, accuracy: 0.5)
    }

    /// Ordinary strokes are far below the limit: a dashed border around a
    /// 1920×1080 screen is drawn whole (every dash, as on its own).
    func testOrdinaryStrokesAreNotLimited() {
        let border = Path(rect: 0.5, 0.5, 1919, 1079)
        let style = StrokeStyle(width: 1, cap: .butt, dash: [1, 1])
        let outline = border.stroked(style)
        XCTAssertLessThan(outline.points.count, StrokeStyle.maxOutlinePoints / 2)
        // Every dash: a perimeter of 5,996 at a period of 2 (no dash
        // crosses a corner, all four lie at whole lengths).
        var contours = 0
        for verb in outline.verbs where verb == .move { contours += 1 }
        XCTAssertEqual(contours, 2_998)
        // The bottom right corner is dashed as the top left is.
        let topLeft = coveredArea(outline, clip: IntRect(x: 0, y: 0, width: 40, height: 40))
        XCTAssertGreaterThan(topLeft, 30)
        let flipped = AffineTransform(a: -1, b: 0, c: 0, d: -1, tx: 1920, ty: 1080)
        XCTAssertEqual(coveredArea(outline, transform: flipped, clip: IntRect(x: 0, y: 0, width: 40, height: 40)), topLeft,
                       accuracy: 4)
    }
}
