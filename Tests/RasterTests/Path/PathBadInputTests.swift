import XCTest
import Raster

/// Bad geometry never crashes, never allocates without bound, and has the
/// documented result.
final class PathBadInputTests: XCTestCase {
    let clip = IntRect(x: 0, y: 0, width: 64, height: 64)

    func spans(_ path: Path, rule: FillRule = .nonZero, transform: AffineTransform = .identity, clip: IntRect? = nil,
               tolerance: Double = FlattenLimits.defaultTolerance) -> [(y: Int, x: Int, coverage: [UInt8])] {
        var out: [(Int, Int, [UInt8])] = []
        let r = PathRasterizer()
        r.tolerance = tolerance
        r.fill(path, transform: transform, rule: rule, clip: clip ?? self.clip) { y, x, cov, n in
            out.append((y, x, Array(UnsafeBufferPointer(start: cov, count: n))))
        }
        return out
    }

    func testNonFiniteCoordinatesDropTheirSubpath() {
        let good = Path(rect: 4, 4, 20, 20)
        for bad in [Double.nan, .infinity, -.infinity] {
            var p = good
            p.move(to: PathPoint(30, 30)); p.line(to: PathPoint(60, 30)); p.line(to: PathPoint(bad, 60)); p.close()
            var q = good
            q.move(to: PathPoint(30, 30)); q.cubic(to: PathPoint(60, 60), control1: PathPoint(40, bad), control2: PathPoint(50, 30)); q.close()
            XCTAssertEqual(coveredArea(p, clip: clip), 400, "\(bad)")
            XCTAssertEqual(coveredArea(q, clip: clip), 400, "\(bad)")
        }
        // A transform that makes everything non-finite draws nothing.
        XCTAssertTrue(spans(good, transform: AffineTransform(a: .nan, b: 0, c: 0, d: 1, tx: 0, ty: 0)).isEmpty)
        XCTAssertTrue(spans(good, transform: AffineTransform(a: 1, b: 0, c: 0, d: 1, tx: .infinity, ty: 0)).isEmpty)
        // Shapes built from non-finite numbers are empty.
        XCTAssertTrue(Path(rect: .nan, 0, 10, 10).verbs.isEmpty)
        XCTAssertTrue(Path(ellipseIn: 0, 0, .infinity, 10).verbs.isEmpty)
        XCTAssertTrue(Path(roundedRect: 0, 0, 10, -.infinity, radii: CornerRadii(2)).verbs.isEmpty)
    }

    func testHugeCoordinatesAreClamped() {
        // ±1e9 is clamped to ±2^22: a rectangle that far out still covers the clip exactly.
        let huge = Path(rect: -1e9, -1e9, 2e9, 2e9)
        XCTAssertEqual(coveredArea(huge, clip: clip), 64 * 64)
        XCTAssertEqual(coveredArea(Path(rect: -1e300, -1e300, 2e300, 2e300), clip: clip), 64 * 64)
        // Half-planes: a huge triangle with one edge through the clip.
        var tri = Path()
        tri.move(to: PathPoint(-1e9, 32)); tri.line(to: PathPoint(1e9, 32)); tri.line(to: PathPoint(0, 1e9)); tri.close()
        XCTAssertEqual(coveredArea(tri, clip: clip), 64 * 32)
        // Curves with control points 1e9 away flatten into a bounded number
        // of segments and finish promptly.
        var wild = Path()
        wild.move(to: PathPoint(10, 10))
        wild.cubic(to: PathPoint(50, 50), control1: PathPoint(1e9, -1e9), control2: PathPoint(-1e9, 1e9))
        wild.quad(to: PathPoint(10, 50), control: PathPoint(1e12, 1e12))
        wild.close()
        let polys = wild.flattened()
        XCTAssertLessThanOrEqual(polys[0].points.count, 2 * FlattenLimits.maxSegmentsPerCurve + 2)
        _ = spans(wild)
        _ = spans(wild, rule: .evenOdd)
        // Huge, far away clips are limited to RasterLimits.maxDimension.
        XCTAssertTrue(spans(huge, clip: IntRect(x: -1_000_000_000, y: 5, width: 1 << 40, height: 2)).allSatisfy { $0.coverage.count <= RasterLimits.maxDimension })
        XCTAssertEqual(PathRasterizer.effectiveClip(IntRect(x: 3, y: 4, width: Int.max, height: 7)), IntRect(x: 3, y: 4, width: RasterLimits.maxDimension, height: 7))
    }

    func testEmptyAndDegeneratePaths() {
        XCTAssertTrue(spans(Path()).isEmpty)
        var moves = Path(); moves.move(to: PathPoint(3, 3)); moves.move(to: PathPoint(5, 5))
        XCTAssertTrue(spans(moves).isEmpty)
        var line = Path(); line.move(to: PathPoint(3, 3)); line.line(to: PathPoint(40, 50))
        XCTAssertEqual(coveredArea(line, clip: clip), 0)                 // a closed line encloses nothing
        var point = Path(); point.move(to: PathPoint(3, 3)); point.line(to: PathPoint(3, 3)); point.close()
        XCTAssertTrue(spans(point).isEmpty)
        var backAndForth = Path()
        backAndForth.move(to: PathPoint(1, 1)); backAndForth.cubic(to: PathPoint(1, 1), control1: PathPoint(30, 40), control2: PathPoint(30, 40))
        XCTAssertEqual(coveredArea(backAndForth, clip: clip), 0, accuracy: 0.05)
        // Zero and negative sizes.
        XCTAssertEqual(coveredArea(Path(rect: 5, 5, 0, 30), clip: clip), 0)
        XCTAssertEqual(coveredArea(Path(rect: 5, 5, 30, 0), clip: clip), 0)
        XCTAssertEqual(coveredArea(Path(rect: 35, 35, -30, -20), clip: clip), 600)
        XCTAssertEqual(coveredArea(Path(ellipseIn: 5, 5, 0, 0), clip: clip), 0)
        XCTAssertEqual(coveredArea(Path(circleCenter: PathPoint(20, 20), radius: -10), clip: clip), Double.pi * 100, accuracy: 6.3)
        // Empty and negative clips.
        let r = Path(rect: 0, 0, 64, 64)
        XCTAssertTrue(spans(r, clip: .zero).isEmpty)
        XCTAssertTrue(spans(r, clip: IntRect(x: 10, y: 10, width: -5, height: 20)).isEmpty)
        // Entirely outside the clip, on each side.
        for (dx, dy) in [(-100.0, 0.0), (100, 0), (0, -100), (0, 100)] {
            XCTAssertEqual(coveredArea(r, transform: AffineTransform(translationX: dx, y: dy), clip: clip), 0)
        }
    }

    func testBadTolerances() {
        let circle = Path(circleCenter: PathPoint(32, 32), radius: 20)
        // NaN gives the default; 0, negative and tiny give the 0.01 minimum.
        for t in [Double.nan, 0, -1, 1e-300] {
            let r = PathRasterizer(); r.tolerance = t
            var area = 0.0
            r.fill(circle, clip: clip) { _, _, cov, n in for i in 0..<n { area += Double(cov[i]) / 255 } }
            XCTAssertEqual(area, Double.pi * 400, accuracy: 0.02 * Double.pi * 400, "tolerance \(t)")
        }
        // Infinity gives the 16-pixel maximum: coarse, but still a shape.
        XCTAssertEqual(circle.flattened(tolerance: .infinity).first!.points.count, circle.flattened(tolerance: 16).first!.points.count)
        XCTAssertEqual(circle.flattened(tolerance: 0).first!.points.count, circle.flattened(tolerance: 0.01).first!.points.count)
    }

    func testManyOverlappingWindings() {
        var p = Path()
        for _ in 0..<1000 { p.addRect(8, 8, 16, 16) }            // winding 1000
        XCTAssertEqual(coveredArea(p, clip: clip), 256)
        XCTAssertEqual(coveredArea(p, rule: .evenOdd, clip: clip), 0)
        p.addRect(8, 8, 16, 16)                                   // 1001: odd
        XCTAssertEqual(coveredArea(p, rule: .evenOdd, clip: clip), 256)
        // Standardised negative sizes keep the clockwise orientation
        // (winding 2); a counter-clockwise copy brings it back to 1.
        var q = Path(rect: 8, 8, 16, 16); q.addRect(24, 8, -16, 16)
        var r = Path(); r.move(to: PathPoint(8, 8)); r.line(to: PathPoint(8, 24)); r.line(to: PathPoint(24, 24)); r.line(to: PathPoint(24, 8)); r.close()
        q.append(r)
        XCTAssertEqual(coveredArea(q, clip: clip), 256)
        XCTAssertEqual(coveredArea(q, rule: .evenOdd, clip: clip), 256)
        q.append(r)
        XCTAssertEqual(coveredArea(q, clip: clip), 0)            // winding 0
    }
}
