import XCTest
import Foundation
import Raster

/// Fixed point, the libm-free maths, transforms and path construction.
final class PathGeometryTests: XCTestCase {
    func testFixedWorkedExamples() {
        XCTAssertEqual(Fixed<Shift8>(1.5).raw, 384)
        XCTAssertEqual(Fixed<Shift8>(1.0 / 512).raw, 1)
        XCTAssertEqual(Fixed<Shift8>(-1.0 / 512).raw, -1)
        XCTAssertEqual(Fixed<Shift8>(0.001).raw, 0)
        XCTAssertEqual(Fixed<Shift8>(1e12).raw, Int32.max)
        XCTAssertEqual(Fixed<Shift8>(-1e12).raw, Int32.min)
        XCTAssertEqual(Fixed<Shift8>(Double.nan).raw, 0)
        XCTAssertEqual(Fixed<Shift8>(Double.infinity).raw, Int32.max)
        XCTAssertEqual(Fixed<Shift8>(raw: 640).floor, 2)
        XCTAssertEqual(Fixed<Shift8>(raw: 640).ceil, 3)
        XCTAssertEqual(Fixed<Shift8>(raw: 640).fraction.raw, 128)
        XCTAssertEqual(Fixed<Shift8>(raw: -1).floor, -1)
        XCTAssertEqual(Fixed<Shift8>(raw: -1).ceil, 0)
        XCTAssertEqual(Fixed<Shift8>(2.5).rounded, 3)
        XCTAssertEqual(Fixed<Shift8>(-2.5).rounded, -2)
        XCTAssertEqual((Fixed<Shift8>(1.5) * Fixed<Shift8>(2.25)).raw, 864)
        XCTAssertEqual(Fixed<Shift8>(1.5).converted(to: Shift16.self).raw, 98304)
        XCTAssertEqual(Fixed<Shift16>(raw: 98431).converted(to: Shift8.self).raw, 384)
        XCTAssertEqual(Fixed<Shift16>(raw: 98432).converted(to: Shift8.self).raw, 385)
        XCTAssertEqual(Fixed<Shift8>(3).raw, 768)
        XCTAssertEqual(Fixed<Shift8>(Int.max).raw, (Int32.max >> 8) << 8)
        XCTAssertEqual(Fixed<Shift8>(1.25).double, 1.25)
        XCTAssertEqual(Fixed<Shift8>.one.raw, 256)
        XCTAssertEqual(CoverageArea.one.raw, 131_072)
        XCTAssertEqual((Fixed<Shift8>(1.25) + Fixed<Shift8>(2)).double, 3.25)
        XCTAssertEqual((-Fixed<Shift8>(1.25)).raw, -320)
    }

    func testFloatMathAgainstLibm() {
        var rng = SplitMix64(seed: 7)
        var values: [Double] = [0, -0.0, 0.5, -0.5, 1.5, -1.5, 2.5, -2.5, 0.49999999999999994, -0.49999999999999994,
                                4_503_599_627_370_495.5, 1e300, -1e300, 1e-300, .infinity, -.infinity]
        for _ in 0..<20000 {
            let scale = [1.0, 1e3, 1e9, 1e17][rng.below(4)]
            values.append((rng.unit() * 2 - 1) * scale)
        }
        for v in values {
            XCTAssertEqual(FloatMath.floor(v), Foundation.floor(v), "floor \(v)")
            XCTAssertEqual(FloatMath.ceil(v), Foundation.ceil(v), "ceil \(v)")
            XCTAssertEqual(FloatMath.round(v), Foundation.round(v), "round \(v)")
            if v > 1e-300 && v.isFinite {
                let r = FloatMath.squareRoot(v), e = Foundation.sqrt(v)
                XCTAssertLessThanOrEqual(abs(r - e), e.ulp, "sqrt \(v)")
            }
        }
        XCTAssertTrue(FloatMath.floor(.nan).isNaN)
        XCTAssertTrue(FloatMath.squareRoot(-1).isNaN)
        XCTAssertEqual(FloatMath.squareRoot(0), 0)
        XCTAssertEqual(FloatMath.squareRoot(.infinity), .infinity)
    }

    func testTrigAgainstLibm() {
        var rng = SplitMix64(seed: 11)
        for i in 0..<20000 {
            let x = i < 1000 ? Double(i) * Double.pi / 8 : (rng.unit() * 2 - 1) * 2000
            let (s, c) = FloatMath.sinCos(x)
            XCTAssertEqual(s, Foundation.sin(x), accuracy: 4e-15, "sin \(x)")
            XCTAssertEqual(c, Foundation.cos(x), accuracy: 4e-15, "cos \(x)")
        }
        XCTAssertTrue(FloatMath.sinCos(.nan).sin.isNaN)
        XCTAssertTrue(FloatMath.sinCos(.infinity).cos.isNaN)
        // Regression (fuzz target animation, Fuzz/corpus/animation/regression-huge-rotation):
        // a rotation of 1e20 rad trapped converting the quadrant to Int64.
        // Beyond 2^52 there is no fraction of a turn left: NaN, never a trap.
        for huge in [1e20, -1e20, 0x1p52, -.greatestFiniteMagnitude, 9.3e18 * Double.pi] {
            let (s, c) = FloatMath.sinCos(huge)
            XCTAssertTrue(s.isNaN && c.isNaN, "\(huge)")
        }
        // Just below the bound the reduction still gives a point on the unit circle.
        let (s, c) = FloatMath.sinCos(0x1p52 - 1)
        XCTAssertEqual(s * s + c * c, 1, accuracy: 1e-9)
    }

    func testAffineTransform() {
        let t = AffineTransform(a: 2, b: 0.5, c: -1, d: 3, tx: 10, ty: -4)
        let p = PathPoint(3, 7)
        XCTAssertEqual(t.apply(p), PathPoint(2 * 3 - 7 + 10, 0.5 * 3 + 21 - 4))
        let u = AffineTransform(rotationAngle: 0.7).translatedBy(x: 5, y: 1)
        let tu = t.concatenating(u)
        let a = tu.apply(p), b = u.apply(t.apply(p))
        XCTAssertEqual(a.x, b.x, accuracy: 1e-12); XCTAssertEqual(a.y, b.y, accuracy: 1e-12)
        let inv = t.inverted()!
        let q = inv.apply(t.apply(p))
        XCTAssertEqual(q.x, p.x, accuracy: 1e-12); XCTAssertEqual(q.y, p.y, accuracy: 1e-12)
        XCTAssertNil(AffineTransform(a: 1, b: 2, c: 2, d: 4, tx: 0, ty: 0).inverted())
        XCTAssertNil(AffineTransform(a: .nan, b: 0, c: 0, d: 1, tx: 0, ty: 0).inverted())
        // Rotation by π/2 on a y-down screen turns +x into +y (clockwise).
        let r = AffineTransform(rotationAngle: Double.pi / 2).apply(PathPoint(1, 0))
        XCTAssertEqual(r.x, 0, accuracy: 1e-15); XCTAssertEqual(r.y, 1, accuracy: 1e-15)
        XCTAssertEqual(AffineTransform(scaleX: 3, y: -5).rotated(by: 1.1).maxScale, 5, accuracy: 1e-12)
        XCTAssertEqual(AffineTransform.identity.scaledBy(x: 2, y: 2).apply(PathPoint(1, 1)), PathPoint(2, 2))
    }

    func testPathBuildingRules() {
        var p = Path()
        XCTAssertTrue(p.isEmpty)
        XCTAssertNil(p.currentPoint)
        p.line(to: PathPoint(5, 0))                       // starts a subpath at the origin
        XCTAssertEqual(p.verbs, [.move, .line])
        XCTAssertEqual(p.points, [PathPoint(0, 0), PathPoint(5, 0)])
        p.close()
        XCTAssertEqual(p.currentPoint, PathPoint(0, 0))
        p.line(to: PathPoint(0, 5))                       // after close: a new subpath at the old start
        XCTAssertEqual(p.verbs, [.move, .line, .close, .move, .line])
        p.move(to: PathPoint(9, 9)); p.move(to: PathPoint(8, 8))   // two moves: the second wins
        XCTAssertEqual(p.verbs.last, .move); XCTAssertEqual(p.points.last, PathPoint(8, 8))
        p.close()                                          // closing a lone move removes it
        XCTAssertEqual(p.verbs, [.move, .line, .close, .move, .line])
        p.quad(to: PathPoint(10, 10), control: PathPoint(-3, 20))
        XCTAssertEqual(p.bounds, BoundingBox(minX: -3, minY: 0, maxX: 10, maxY: 20))
        let moved = p.applying(AffineTransform(translationX: 1, y: 2))
        XCTAssertEqual(moved.bounds, BoundingBox(minX: -2, minY: 2, maxX: 11, maxY: 22))
        var q = Path(); q.append(p)
        XCTAssertEqual(q.verbs, p.verbs); XCTAssertEqual(q.points, p.points)
        XCTAssertEqual(Path().bounds, .empty)
        XCTAssertEqual(BoundingBox(minX: 0.5, minY: -1.5, maxX: 3, maxY: 2.01).enclosingIntRect, IntRect(x: 0, y: -2, width: 3, height: 5))
    }

    func testRoundedRectRadiiAreClamped() {
        // Radii far beyond the size: scaled by one factor so they fit (a circle).
        let circle = Path(roundedRect: 0, 0, 20, 20, radii: CornerRadii(100))
        // Chords lie inside convex curves: flattening loses up to about
        // tolerance × perimeter of area (0.1 × 63 here).
        XCTAssertEqual(coveredArea(circle, clip: IntRect(x: 0, y: 0, width: 20, height: 20)), Double.pi * 100, accuracy: 6.3)
        // 30 + 30 on a side of 40: factor 2/3, other corners scaled with it.
        let mixed = Path(roundedRect: 0, 0, 40, 100, radii: CornerRadii(topLeft: 30, topRight: 30, bottomRight: 6, bottomLeft: -5))
        let f = 40.0 / 60
        let expected = 40.0 * 100 - 2 * (1 - Double.pi / 4) * (30 * f) * (30 * f) - (1 - Double.pi / 4) * (6 * f) * (6 * f)
        XCTAssertEqual(coveredArea(mixed, clip: IntRect(x: 0, y: 0, width: 40, height: 100)), expected, accuracy: 4)
        // Negative size is standardised; NaN radii count as zero.
        XCTAssertEqual(coveredArea(Path(roundedRect: 30, 20, -30, -20, radii: CornerRadii(.nan)), clip: IntRect(x: 0, y: 0, width: 40, height: 40)), 600, accuracy: 0.01)
    }

    func testArcSweeps() {
        let c = PathPoint(50, 50)
        func arcPath(_ a0: Double, _ a1: Double, _ cw: Bool) -> Path {
            var p = Path(); p.move(to: c); p.arc(center: c, radius: 40, startAngle: a0, endAngle: a1, clockwise: cw); p.close(); return p
        }
        let clip = IntRect(x: 0, y: 0, width: 100, height: 100)
        let full = Double.pi * 1600
        // Clockwise (increasing angle) quarter: a quarter disc.
        // (Tolerance 0.1 × perimeter 251: flattening loses up to ~25 px² of area.)
        XCTAssertEqual(coveredArea(arcPath(0, .pi / 2, true), clip: clip), full / 4, accuracy: 8)
        // The same angles counter-clockwise: three quarters.
        XCTAssertEqual(coveredArea(arcPath(0, .pi / 2, false), clip: clip), full * 3 / 4, accuracy: 20)
        // Wrapping angles: the sweep is brought into [0, 2π).
        XCTAssertEqual(coveredArea(arcPath(-.pi / 2, .pi / 2 - 4 * .pi, true), clip: clip), full / 2, accuracy: 14)
        // At least a full turn in the sweep direction: a full circle.
        XCTAssertEqual(coveredArea(arcPath(-.pi / 2, .pi / 2 + 4 * .pi, true), clip: clip), full, accuracy: 25)
        XCTAssertEqual(coveredArea(arcPath(1, 1 + 2 * .pi, true), clip: clip), full, accuracy: 25)
        XCTAssertEqual(coveredArea(arcPath(1, 1 - 7, false), clip: clip), full, accuracy: 25)
        XCTAssertEqual(coveredArea(arcPath(1, 1, true), clip: clip), 0, accuracy: 0.01)
        // The quarter ends where it should: (50, 90) on a y-down screen.
        var p = Path(); p.arc(center: c, radius: 40, startAngle: 0, endAngle: .pi / 2, clockwise: true)
        XCTAssertEqual(p.points.first!, PathPoint(90, 50))
        XCTAssertEqual(p.currentPoint!.x, 50, accuracy: 1e-12); XCTAssertEqual(p.currentPoint!.y, 90, accuracy: 1e-12)
        // Bad radii and angles add nothing; radius 0 adds the centre.
        var bad = Path()
        bad.arc(center: c, radius: -1, startAngle: 0, endAngle: 1, clockwise: true)
        bad.arc(center: c, radius: .nan, startAngle: 0, endAngle: 1, clockwise: true)
        bad.arc(center: c, radius: 3, startAngle: .infinity, endAngle: 1, clockwise: true)
        XCTAssertTrue(bad.verbs.isEmpty)
        bad.arc(center: c, radius: 0, startAngle: 0, endAngle: 1, clockwise: true)
        XCTAssertEqual(bad.points, [c])
    }

    func testFlatteningToleranceIsInDevicePixels() {
        // A unit circle zoomed 1000×: every flattened vertex lies on the
        // circle and every chord's midpoint is within the tolerance of it.
        let circle = Path(circleCenter: PathPoint(0, 0), radius: 1)
        let zoom = AffineTransform(scaleX: 1000, y: 1000)
        let polys = circle.flattened(transform: zoom, tolerance: 0.1)
        XCTAssertEqual(polys.count, 1)
        let pts = polys[0].points
        XCTAssertGreaterThan(pts.count, 100)
        for i in 0..<pts.count {
            let a = pts[i], b = pts[(i + 1) % pts.count]
            let mid = PathPoint.lerp(a, b, 0.5)
            XCTAssertEqual(a.length, 1000, accuracy: 0.3)          // the cubic's own radial error is 0.27 px at r = 1000
            XCTAssertLessThan(1000 - mid.length, 0.1 + 0.3)
        }
        // The same circle unzoomed needs only a handful.
        XCTAssertLessThan(circle.flattened(tolerance: 0.1).first!.points.count, 12)
    }
}

/// The total coverage of `path` in `clip`, in pixels.
func coveredArea(_ path: Path, rule: FillRule = .nonZero, transform: AffineTransform = .identity, clip: IntRect) -> Double {
    var total = 0
    PathRasterizer().fill(path, transform: transform, rule: rule, clip: clip) { _, _, cov, n in
        for i in 0..<n { total += Int(cov[i]) }
    }
    return Double(total) / 255
}
