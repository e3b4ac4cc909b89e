import XCTest
import Raster
import TestSupport

/// Coverage accuracy of `PathRasterizer` against `SupersampledReference`.
///
/// Stated bounds, in levels of 255, per pixel:
/// - max |rasterizer − reference| ≤ 255/16 + 2 ≈ 17.9: the reference's own
///   sampling error (≤ 1/16 of a pixel per edge, see `SupersampledReference`)
///   plus one level of rounding and the 1/256-pixel vertex quantisation.
///   Everywhere, pixels where the path crosses itself or overlaps
///   included (windings 2 or more apart inside a pixel): the rasterizer
///   resolves those rows per slab between crossings (see
///   `PathRasterizer+Overlaps.swift`) rather than averaging windings as
///   FreeType and Blend2D do (up to 171 levels off on these polygons).
/// - mean |error| over the pixels the path touches (when it touches at
///   least 16) ≤ 2.5 levels: sampling
///   errors of the reference are unbiased and mostly far below their bound
///   (shapes of a few pixels, all edge, sit near 2).
final class PathFillTests: XCTestCase {
    static let maxErrorBound = 255.0 / 16 + 2
    static let meanErrorBound = 2.5

    struct Measurement { var maxError = 0.0, meanError = 0.0, worst = (0, 0), touched = 0 }

    /// Fills `path` into an A8 mask over `clip` and compares with the
    /// reference; asserts the bounds and returns what it measured.
    @discardableResult
    func check(_ name: String, _ path: Path, transform: AffineTransform = .identity, rule: FillRule = .nonZero,
               clip: IntRect, file: StaticString = #filePath, line: UInt = #line) -> Measurement {
        let rasterizer = PathRasterizer()
        var actual = [UInt8](repeating: 0, count: clip.width * clip.height)
        var lastY = Int.min, lastEnd = Int.min
        rasterizer.fill(path, transform: transform, rule: rule, clip: clip) { y, x, cov, n in
            XCTAssertTrue(y > lastY || (y == lastY && x >= lastEnd), "\(name): spans out of order", file: file, line: line)
            XCTAssertGreaterThan(n, 0, file: file, line: line)
            XCTAssertTrue(clip.contains(IntRect(x: x, y: y, width: n, height: 1)), "\(name): span outside the clip", file: file, line: line)
            lastY = y; lastEnd = x + n
            for i in 0..<n { actual[(y - clip.y) * clip.width + x - clip.x + i] = cov[i] }
        }
        let segs = SupersampledReference.segments(path, transform: transform, tolerance: rasterizer.tolerance)
        let expected = SupersampledReference.coverage(segs, rule: rule, clip: clip)
        var m = Measurement()
        var sum = 0.0
        for py in 0..<clip.height {
            for px in 0..<clip.width {
                let got = Double(actual[py * clip.width + px])
                let want = expected[py * clip.width + px] * 255
                let err = abs(got - want)
                if got != 0 || want != 0 { m.touched += 1; sum += err }
                if err > m.maxError { m.maxError = err; m.worst = (clip.x + px, clip.y + py) }
            }
        }
        m.meanError = m.touched == 0 ? 0 : sum / Double(m.touched)
        let report = "\(name): max \(m.maxError) at \(m.worst), mean \(m.meanError) over \(m.touched) px"
        print(report)
        XCTAssertLessThanOrEqual(m.maxError, PathFillTests.maxErrorBound, report, file: file, line: line)
        if m.touched >= 16 {        // a mean over a handful of pixels is just their max
            XCTAssertLessThanOrEqual(m.meanError, PathFillTests.meanErrorBound, report, file: file, line: line)
        }
        return m
    }

    static func star(center: PathPoint, radius: Double, points: Int = 5, step: Int = 2) -> Path {
        var p = Path()
        for i in 0..<points {
            let a = -Double.pi / 2 + 2 * Double.pi * Double(i * step) / Double(points)
            let q = PathPoint(center.x + radius * cos(a), center.y + radius * sin(a))
            if i == 0 { p.move(to: q) } else { p.line(to: q) }
        }
        p.close()
        return p
    }

    func testThinSlivers() {
        // Triangles far thinner than a pixel, at several angles.
        var p = Path()
        p.move(to: PathPoint(2.3, 3.1)); p.line(to: PathPoint(60.7, 20.4)); p.line(to: PathPoint(60.7, 20.45)); p.close()
        p.move(to: PathPoint(5.5, 30.2)); p.line(to: PathPoint(5.53, 62.9)); p.line(to: PathPoint(5.6, 62.9)); p.close()
        p.move(to: PathPoint(10, 40)); p.line(to: PathPoint(58, 63)); p.line(to: PathPoint(58.2, 62.9)); p.close()
        // A hairline rectangle 0.1 px tall straddling a row boundary.
        p.addRect(20.25, 9.95, 30, 0.1)
        check("slivers", p, clip: IntRect(x: 0, y: 0, width: 64, height: 64))
    }

    func testSelfIntersectingStarBothRules() {
        let star = PathFillTests.star(center: PathPoint(32.3, 33.7), radius: 29.6)
        let clip = IntRect(x: 0, y: 0, width: 66, height: 66)
        let nz = check("star nonzero", star, rule: .nonZero, clip: clip)
        let eo = check("star evenodd", star, rule: .evenOdd, clip: clip)
        // The rules must differ in the centre pentagon (winding 2).
        let r = PathRasterizer()
        let a = Surface<A8>(width: 66, height: 66)!, b = Surface<A8>(width: 66, height: 66)!
        r.fill(star, rule: .nonZero, into: a.view); r.fill(star, rule: .evenOdd, into: b.view)
        XCTAssertEqual(a.view[32, 34], 255); XCTAssertEqual(b.view[32, 34], 0)
        XCTAssertGreaterThan(nz.touched, eo.touched)
        // A seven-point star {7/3}: windings up to 3.
        check("star7 nonzero", PathFillTests.star(center: PathPoint(40, 40), radius: 37.5, points: 7, step: 3), rule: .nonZero,
              clip: IntRect(x: 0, y: 0, width: 80, height: 80))
        check("star7 evenodd", PathFillTests.star(center: PathPoint(40, 40), radius: 37.5, points: 7, step: 3), rule: .evenOdd,
              clip: IntRect(x: 0, y: 0, width: 80, height: 80))

        // Stars inside frames turning the same way, and with a plain edge
        // right of them on their rows: the star's columns are rebuilt from
        // a winding number of 1 or 2 left of them (not 0), and the
        // columns right of them must still see the winding numbers they
        // would have.
        var framed = Path()
        framed.addRect(2.2, 3.4, 86.1, 70.3)
        framed.addRect(5.7, 6.1, 79.4, 64.2)
        framed.append(PathFillTests.star(center: PathPoint(33.4, 38.2), radius: 27.1))
        framed.append(PathFillTests.star(center: PathPoint(66.8, 36.9), radius: 14.3, points: 7, step: 3))
        check("framed stars nonzero", framed, rule: .nonZero, clip: IntRect(x: 0, y: 0, width: 92, height: 78))
        check("framed stars evenodd", framed, rule: .evenOdd, clip: IntRect(x: 0, y: 0, width: 92, height: 78))
    }

    func testTinyCircles() {
        for (i, c) in [(3.5, 3.5), (8.0, 3.0), (12.25, 3.75), (17.9, 4.1)].enumerated() {
            let m = check("circle r=0.3 #\(i)", Path(circleCenter: PathPoint(c.0, c.1), radius: 0.3), clip: IntRect(x: 0, y: 0, width: 20, height: 8))
            XCTAssertGreaterThan(m.touched, 0)
        }
        // The total coverage is the area of the flattened circle (shoelace),
        // which the tolerance keeps within 15 % of π·0.3².
        let r = PathRasterizer()
        let circle = Path(circleCenter: PathPoint(12.25, 3.75), radius: 0.3)
        var total = 0
        r.fill(circle, clip: IntRect(x: 0, y: 0, width: 20, height: 8)) { _, _, cov, n in
            for i in 0..<n { total += Int(cov[i]) }
        }
        var area = 0.0
        for s in SupersampledReference.segments(circle, transform: .identity, tolerance: r.tolerance) { area += (s.x0 * s.y1 - s.x1 * s.y0) / 2 }
        XCTAssertEqual(Double(total) / 255, abs(area), accuracy: 4.0 / 255)
        XCTAssertGreaterThan(abs(area), 0.85 * Double.pi * 0.09)
    }

    func testHugeClippedCircles() {
        let big = Path(circleCenter: PathPoint(2600.3, 2400.7), radius: 5000)
        // Windows on the rim, inside, and outside.
        check("r=5000 rim top", big, clip: IntRect(x: 2500, y: -2640, width: 96, height: 64))
        check("r=5000 rim left", big, clip: IntRect(x: -2440, y: 2350, width: 64, height: 96))
        check("r=5000 rim diagonal", big, clip: IntRect(x: 6100, y: 5900, width: 80, height: 80))
        let inside = check("r=5000 inside", big, clip: IntRect(x: 2000, y: 2000, width: 64, height: 64))
        XCTAssertEqual(inside.touched, 64 * 64)
        let outside = check("r=5000 outside", big, clip: IntRect(x: 7000, y: 7000, width: 64, height: 64))
        XCTAssertEqual(outside.touched, 0)
    }

    func testCubicsAtExtremeScales() {
        var wave = Path()
        wave.move(to: PathPoint(0, 0))
        wave.cubic(to: PathPoint(1, 0.2), control1: PathPoint(0.3, -0.4), control2: PathPoint(0.6, 0.9))
        wave.cubic(to: PathPoint(0.1, 1), control1: PathPoint(1.4, 0.9), control2: PathPoint(-0.5, 0.3))
        wave.close()
        // Zoomed 60 000×, only a window visible: must stay smooth (flattened in
        // device space).
        let zoom = AffineTransform(scaleX: 60_000, y: 60_000).concatenating(AffineTransform(translationX: -27_702, y: -12_702))
        check("cubic ×60000", wave, transform: zoom, clip: IntRect(x: 0, y: 0, width: 96, height: 96))
        check("cubic ×60", wave, transform: AffineTransform(scaleX: 60, y: 60).concatenating(AffineTransform(translationX: 10.3, y: 8.9)),
              clip: IntRect(x: 0, y: 0, width: 80, height: 80))
        // Shrunk to a couple of pixels.
        check("cubic ×2.5", wave, transform: AffineTransform(scaleX: 2.5, y: 2.5).concatenating(AffineTransform(translationX: 3.3, y: 2.2)),
              clip: IntRect(x: 0, y: 0, width: 10, height: 10))
        // Rotated and sheared.
        let skew = AffineTransform(a: 40, b: 12, c: -25, d: 35, tx: 40, ty: 5)
        check("cubic skewed", wave, transform: skew, rule: .evenOdd, clip: IntRect(x: 0, y: 0, width: 80, height: 80))
    }

    func testRoundedRects() {
        var p = Path(roundedRect: 3.3, 4.6, 50.2, 30.1, radii: CornerRadii(topLeft: 12, topRight: 0, bottomRight: 5.5, bottomLeft: 40))
        p.addRoundedRect(60.5, 4.25, 20, 20, radii: CornerRadii(100))      // clamped to a circle
        p.addRoundedRect(8.1, 40.7, 70, 8.2, radii: CornerRadii(3))
        check("rounded rects", p, clip: IntRect(x: 0, y: 0, width: 88, height: 56))
    }

    func testSeededRandomPolygons() {
        var rng = SplitMix64(seed: 0x5EED)
        for i in 0..<12 {
            var p = Path()
            let n = 3 + rng.below(12)
            for k in 0..<n {
                let q = PathPoint(rng.unit() * 48 - 4, rng.unit() * 48 - 4)          // some points outside the clip
                if k == 0 { p.move(to: q) } else { p.line(to: q) }
            }
            p.close()
            check("random polygon #\(i)", p, rule: i % 2 == 0 ? .nonZero : .evenOdd, clip: IntRect(x: 0, y: 0, width: 40, height: 40))
        }
    }

    func testClipOffsetsAndPartialWindows() {
        // The same shape through a clip not at the origin, with the shape
        // crossing every side of it.
        let p = PathFillTests.star(center: PathPoint(30, 30), radius: 40)
        check("star clipped window", p, rule: .evenOdd, clip: IntRect(x: 13, y: 7, width: 31, height: 29))
    }

    /// Pieces of one path that overlap without crossing: rectangles
    /// sharing their (horizontal) top and bottom edges, a sliver laid over
    /// a rectangle's edge, and nested contours turning the same way (a
    /// counter: winding 2 inside it), under both rules.
    func testOverlapsWithoutCrossings() {
        var shared = Path()
        shared.addRect(4.3, 5.4, 30.2, 9.5)
        shared.addRect(20.6, 5.4, 30.1, 9.5)
        shared.addRect(12.1, 5.4, 2.4, 9.5)
        check("rectangles sharing edges nonzero", shared, clip: IntRect(x: 0, y: 0, width: 56, height: 20))
        check("rectangles sharing edges evenodd", shared, rule: .evenOdd, clip: IntRect(x: 0, y: 0, width: 56, height: 20))
        var sliver = Path()
        sliver.addRect(6.2, 6.6, 40.3, 20.1)
        sliver.addRect(3.1, 6.3, 50.4, 0.6)
        check("sliver over an edge", sliver, clip: IntRect(x: 0, y: 0, width: 56, height: 32))
        var nested = Path()
        nested.addEllipse(3.3, 4.6, 40.2, 36.7)
        nested.addEllipse(13.7, 12.2, 18.4, 20.3)
        nested.addEllipse(17.1, 16.5, 6.2, 5.9)
        check("nested ellipses nonzero", nested, clip: IntRect(x: 0, y: 0, width: 48, height: 44))
        check("nested ellipses evenodd", nested, rule: .evenOdd, clip: IntRect(x: 0, y: 0, width: 48, height: 44))
        // A layer's 1-px border: two rounded rectangles turning the same
        // way, filled even-odd, so pixels on the ring hold winding 0, 1
        // and 2 at once (summed areas made such rings up to 100 levels too
        // dark or too light).
        var ring = Path()
        ring.addRoundedRect(2.3, 2.6, 40.2, 30.1, radii: CornerRadii(11.4))
        ring.addRoundedRect(3.3, 3.6, 38.2, 28.1, radii: CornerRadii(10.4))
        check("1-px border ring evenodd", ring, rule: .evenOdd, clip: IntRect(x: 0, y: 0, width: 46, height: 36))
    }
}
