import XCTest
import Raster

/// Ring sectors in closed form (`SectorRasterizer`): the fast fill equals
/// the per-pixel reference byte for byte; the reference is within a stated
/// tolerance of the exact area (an independent oracle: exact chord lengths
/// integrated over thin slices) and closer to it than the general path
/// (`Path.stroked` + `PathRasterizer`) drawing the same stroke; circular
/// arcs are recognised in paths and nothing else is.
final class SectorRasterizerTests: XCTestCase {
    func sector(_ c: PathPoint, _ inner: Double, _ outer: Double, start: Double, sweep: Double) -> AnnularSector {
        let (s0, c0) = FloatMath.sinCos(start), (s1, c1) = FloatMath.sinCos(start + sweep)
        return AnnularSector(center: c, innerRadius: inner, outerRadius: outer, startDirection: PathPoint(c0, s0),
                             endDirection: PathPoint(c1, s1), sweep: sweep)
    }

    /// Coverage of every pixel of `clip` by `fill` (0 outside its spans).
    func filled(_ s: AnnularSector, clip: IntRect, reference: Bool = false, using r: SectorRasterizer) -> [UInt8] {
        var out = [UInt8](repeating: 0, count: clip.area)
        let body: (Int, Int, UnsafePointer<UInt8>, Int) -> Void = { y, x, cov, n in
            XCTAssertTrue(y >= clip.y && y < clip.maxY && x >= clip.x && x + n <= clip.maxX && n > 0, "span inside the clip")
            for i in 0..<n { out[(y - clip.y) * clip.width + x - clip.x + i] = cov[i] }
        }
        r.fill(s, clip: clip, family: reference ? .reference : .simd, spans: body)
        return out
    }

    /// Random sectors and clips (thin and thick rings, tiny, half-turn,
    /// reflex and whole sweeps, directions on the axes, centres on pixel
    /// centres, radii up to `maximumRadius` seen through small windows on
    /// their edges and rays): `fill` gives the reference's bytes.
    func testFillEqualsReference() {
        var rng = SplitMix64(seed: 0x5EC7)
        let r = SectorRasterizer()
        for k in 0..<160 {
            let huge = k % 8 == 7
            let outer = huge ? SectorRasterizer.maximumRadius * (0.5 + rng.unit() / 2) : 4.5 + rng.unit() * (k % 3 == 0 ? 150 : 40)
            let inner = Swift.max(0, outer - 0.3 - rng.unit() * (k % 4 == 0 ? Swift.min(outer, 60) : 14))
            var c = PathPoint(outer + 3 + rng.unit() * 9, outer + 3 + rng.unit() * 9)
            if k % 6 == 1 { c = PathPoint(c.x.rounded() + 0.5, c.y.rounded() + 0.5) }
            let sweeps = [rng.unit() * 2 * Double.pi, rng.unit() * 0.05, Double.pi, Double.pi - 1e-3, Double.pi + 1e-3,
                          2 * Double.pi - rng.unit() * 0.02, 2 * Double.pi, Double.pi / 2]
            let start = k % 5 == 0 ? Double(k % 4) * Double.pi / 2 : rng.unit() * 2 * Double.pi
            let s = sector(c, inner, outer, start: start, sweep: sweeps[k % sweeps.count])
            let size = Int(2 * outer) + 16
            var clip = k % 2 == 0 ? IntRect(x: 0, y: 0, width: size, height: size)
                : IntRect(x: rng.below(size), y: rng.below(size), width: rng.below(size) + 1, height: rng.below(size) + 1)
            if huge {
                // A window where an edge or a ray passes.
                let (sn, cs) = FloatMath.sinCos(start + rng.unit() * s.sweep)
                let radius = [outer, inner, (outer + inner) / 2][k % 3]
                clip = IntRect(x: Int(c.x + radius * cs) - 20, y: Int(c.y + radius * sn) - 20, width: 40, height: 40)
                if k % 16 == 15 {
                    clip = IntRect(x: Int(c.x + outer * s.endDirection.x) - 20, y: Int(c.y + outer * s.endDirection.y) - 20, width: 40, height: 40)
                }
            }
            let fast = filled(s, clip: clip, using: r), reference = filled(s, clip: clip, reference: true, using: r)
            if fast != reference {
                let i = fast.indices.first { fast[$0] != reference[$0] }!
                XCTFail("sector \(k) (\(s)): pixel \(clip.x + i % clip.width), \(clip.y + i / clip.width): fill \(fast[i]), reference \(reference[i])")
            }
        }
    }

    /// The exact area of `s` in pixel (`x`, `y`): the length of the part of
    /// each vertical line through the pixel that lies in the sector (the
    /// ring's chords cut by the rays' half-planes, all in closed form),
    /// integrated by the midpoint rule over `slices` lines. Off by well
    /// under a level at 1024 slices: the integrand only kinks, or grows like
    /// a square root where a circle's tangent is vertical.
    func exactArea(_ s: AnnularSector, _ x: Int, _ y: Int, slices: Int = 1024) -> Double {
        let y0 = Double(y) - s.center.y, y1 = y0 + 1
        let u0 = s.startDirection, u1 = s.endDirection
        // The y where `coefficient · y ≥ rhs`, as an interval.
        func halfPlane(_ coefficient: Double, _ rhs: Double) -> (Double, Double) {
            if coefficient > 0 { return (rhs / coefficient, .infinity) }
            if coefficient < 0 { return (-.infinity, rhs / coefficient) }
            return rhs <= 0 ? (-.infinity, .infinity) : (1, 0)
        }
        func length(_ a: Double, _ b: Double) -> Double { Swift.max(0, b - a) }
        var total = 0.0
        for i in 0..<slices {
            let px = Double(x) + (Double(i) + 0.5) / Double(slices) - s.center.x
            let o2 = s.outerRadius * s.outerRadius - px * px
            guard o2 > 0 else { continue }
            let ro = o2.squareRoot(), ri = Swift.max(0, s.innerRadius * s.innerRadius - px * px).squareRoot()
            // cross(u0, p) ≥ 0 and cross(p, u1) ≥ 0, for p = (px, y).
            let a = halfPlane(u0.x, u0.y * px), b = halfPlane(-u1.x, -px * u1.y)
            for (lo, hi) in [(-ro, -ri), (ri, ro)] {
                let l = Swift.max(lo, y0), h = Swift.min(hi, y1)
                guard h > l else { continue }
                if s.isWholeRing { total += h - l; continue }
                let inA = length(Swift.max(l, a.0), Swift.min(h, a.1)), inB = length(Swift.max(l, b.0), Swift.min(h, b.1))
                let inBoth = length(Swift.max(l, a.0, b.0), Swift.min(h, a.1, b.1))
                total += s.sweep <= Double.pi ? inBoth : inA + inB - inBoth
            }
        }
        return total / Double(slices)
    }

    /// The pixels near an edge of `s` (the others are exactly 0 or 255 in
    /// both), every `step`-th.
    func edgePixels(_ s: AnnularSector, step: Int = 1) -> [(Int, Int)] {
        let box = s.pixelBox
        var out: [(Int, Int)] = []
        var k = 0
        for y in box.y..<box.maxY {
            for x in box.x..<box.maxX {
                let px = Double(x) + 0.5 - s.center.x, py = Double(y) + 0.5 - s.center.y
                let d = (px * px + py * py).squareRoot()
                let s0 = s.startDirection.x * py - s.startDirection.y * px, s1 = px * s.endDirection.y - py * s.endDirection.x
                let near = Swift.abs(d - s.outerRadius) < 1 || Swift.abs(d - s.innerRadius) < 1
                    || (!s.isWholeRing && (Swift.abs(s0) < 1 || Swift.abs(s1) < 1) && d < s.outerRadius + 1)
                if near { if k % step == 0 { out.append((x, y)) }; k += 1 }
            }
        }
        return out
    }

    /// The model against the exact area: within 1 level for radii of 20 px
    /// and more, 2 from 8 px, 4 from the smallest inner radius it is used
    /// for (`minimumInnerRadius`, 4 px). The general path drawing the same
    /// stroke (the arc's cubics, flattened within 0.1 px, stroked, scan
    /// converted) is further off on average at every size.
    func testCoverageIsCloseToTheExactArea() {
        var rng = SplitMix64(seed: 0xA7EA)
        let rasterizer = PathRasterizer()
        for (inner, outer, tolerance) in [(4.0, 6.0, 4), (8, 12, 2), (20, 26, 1), (40, 50, 1), (30, 30.6, 1), (100, 104, 1)] {
            var worst = 0, sum = 0, general = 0, count = 0
            for k in 0..<3 {
                let c = PathPoint(outer + 4 + rng.unit(), outer + 4 + rng.unit())
                let start = rng.unit() * 2 * Double.pi
                let sweep = [rng.unit() * 2 * Double.pi, rng.unit() * 0.1, Double.pi + rng.unit() * 3][k]
                let s = sector(c, inner, outer, start: start, sweep: sweep)
                // The same stroke as a path: the arc's cubics, butt ends.
                var arc = Path()
                arc.arc(center: c, radius: (inner + outer) / 2, startAngle: start, endAngle: start + sweep, clockwise: true)
                let size = Int(2 * outer) + 10
                let clip = IntRect(x: 0, y: 0, width: size, height: size)
                var path = [UInt8](repeating: 0, count: size * size)
                rasterizer.fill(arc.stroked(StrokeStyle(width: outer - inner, cap: .butt)), clip: clip) { y, x, cov, n in
                    for i in 0..<n { path[y * size + x + i] = cov[i] }
                }
                for (x, y) in edgePixels(s, step: outer > 60 ? 3 : 1) {
                    let exact = Int((exactArea(s, x, y) * 255).rounded())
                    let e = Swift.abs(Int(s.coverage(x: x, y: y)) - exact)
                    worst = Swift.max(worst, e); sum += e; count += 1
                    general += Swift.abs(Int(path[y * size + x]) - exact)
                }
            }
            XCTAssertLessThanOrEqual(worst, tolerance, "radii \(inner)…\(outer): worst level error")
            XCTAssertLessThan(sum, general, "radii \(inner)…\(outer): closer to the exact area than the general path")
            print("sector radii \(inner)…\(outer): worst \(worst) levels, mean \(Double(sum) / Double(count)) (general path mean \(Double(general) / Double(count))) over \(count) edge pixels")
        }
    }

    /// Half-plane areas the model must get exactly: a sector whose rays are
    /// the axes (a quarter) on a pixel grid through its centre, and the
    /// whole ring's symmetry.
    func testAxisAlignedQuarterIsExactAlongItsRays() {
        let s = sector(PathPoint(20, 20), 8, 16, start: 0, sweep: Double.pi / 2)     // +x to +y
        // Along the ray at +x the pixels just inside are whole; just above
        // (y < 20), empty: the ray lies on a pixel boundary.
        for x in 29..<35 {
            XCTAssertEqual(s.coverage(x: x, y: 20), 255, "pixel \(x), 20")
            XCTAssertEqual(s.coverage(x: x, y: 19), 0, "pixel \(x), 19")
        }
        let whole = sector(PathPoint(30.5, 30.5), 10, 20, start: 0.3, sweep: 2 * Double.pi)
        XCTAssertTrue(whole.isWholeRing)
        for (x, y) in [(45, 31), (30, 45), (15, 29)] {
            XCTAssertEqual(whole.coverage(x: x, y: y), whole.coverage(x: 60 - x, y: 60 - y), "point symmetry at \(x), \(y)")
        }
    }

    func testCircularArcsAreRecognised() throws {
        func arc(_ c: PathPoint, _ r: Double, _ a0: Double, _ a1: Double, _ clockwise: Bool) -> Path {
            var p = Path(); p.arc(center: c, radius: r, startAngle: a0, endAngle: a1, clockwise: clockwise); return p
        }
        let cases: [(Path, PathPoint, Double, Double)] = [
            (arc(PathPoint(50, 50), 45, 0, 2 * Double.pi, true), PathPoint(50, 50), 45, 2 * Double.pi),
            (arc(PathPoint(10, -3), 7.5, 0.75 * Double.pi, 2.25 * Double.pi, true), PathPoint(10, -3), 7.5, 1.5 * Double.pi),
            (arc(PathPoint(0, 0), 100, 1, 0.2, false), PathPoint(0, 0), 100, -0.8),
            (arc(PathPoint(3, 4), 2, 0.1, 0.3, true), PathPoint(3, 4), 2, 0.2),
            (Path(circleCenter: PathPoint(7, 8), radius: 30), PathPoint(7, 8), 30, 2 * Double.pi),
        ]
        for (k, (path, center, radius, sweep)) in cases.enumerated() {
            let a = try XCTUnwrap(path.circularArc, "case \(k)")
            XCTAssertEqual(a.center.x, center.x, accuracy: 1e-9 * radius); XCTAssertEqual(a.center.y, center.y, accuracy: 1e-9 * radius)
            XCTAssertEqual(a.radius, radius, accuracy: 1e-9 * radius)
            XCTAssertEqual(a.sweep, sweep, accuracy: 1e-12, "case \(k)")
            // The first point, and the last from the sweep.
            let first = a.center + a.startDirection * a.radius
            XCTAssertEqual((first - path.points[0]).length, 0, accuracy: 1e-9 * radius)
            let last = a.center + a.direction(at: 1) * a.radius
            XCTAssertEqual((last - path.points[path.points.count - 1]).length, 0, accuracy: 1e-9 * radius, "case \(k)")
        }
        XCTAssertTrue(try XCTUnwrap(Path(circleCenter: PathPoint(0, 0), radius: 5).circularArc).isClosed)
        // A similarity maps an arc to an arc.
        let turned = arc(PathPoint(50, 50), 45, 0.4, 2, true)
            .applying(AffineTransform(rotationAngle: 0.7).concatenating(AffineTransform(scaleX: 2, y: 2)))
        XCTAssertEqual(try XCTUnwrap(turned.circularArc).radius, 90, accuracy: 1e-9)
        // Not arcs: an ellipse, an arc after a line, a rectangle, a shifted
        // control point, a squashed arc, a closed part of a circle.
        var afterLine = Path(); afterLine.move(to: PathPoint(0, 0)); afterLine.arc(center: PathPoint(20, 0), radius: 5, startAngle: 0, endAngle: 1, clockwise: true)
        var nudged = arc(PathPoint(0, 0), 10, 0, 1, true)
        nudged = Path.rebuilt(nudged) { i, p in i == 1 ? PathPoint(p.x + 1e-4, p.y) : p }
        var chord = arc(PathPoint(0, 0), 10, 0, 2, true); chord.close()
        let notArcs = [Path(ellipseIn: 0, 0, 20, 10), afterLine, Path(rect: 0, 0, 10, 10), nudged,
                       arc(PathPoint(0, 0), 10, 0, 2, true).applying(AffineTransform(scaleX: 1, y: 1.01)), chord, Path()]
        for (k, p) in notArcs.enumerated() { XCTAssertNil(p.circularArc, "not an arc: case \(k)") }
    }

    /// A stroke sector from an arc follows the trim and the map: its
    /// directions are the arc's at the trim positions, a reflection swaps
    /// them, a non-uniform scale is refused.
    func testStrokeSectorsTrimAndMap() throws {
        var p = Path(); p.arc(center: PathPoint(50, 50), radius: 45, startAngle: 0, endAngle: 2 * Double.pi, clockwise: true)
        let arc = try XCTUnwrap(p.circularArc)
        let s = try XCTUnwrap(arc.strokeSector(width: 10, start: 0.25, end: 0.5))
        XCTAssertEqual(s.innerRadius, 40); XCTAssertEqual(s.outerRadius, 50)
        XCTAssertEqual(s.startDirection.x, 0, accuracy: 1e-12); XCTAssertEqual(s.startDirection.y, 1, accuracy: 1e-12)
        XCTAssertEqual(s.endDirection.x, -1, accuracy: 1e-12); XCTAssertEqual(s.sweep, Double.pi / 2, accuracy: 1e-12)
        XCTAssertTrue(try XCTUnwrap(arc.strokeSector(width: 10)).isWholeRing)
        XCTAssertTrue(try XCTUnwrap(arc.strokeSector(width: 10, start: 0.5, end: 0.5)).isEmpty)
        XCTAssertNil(arc.strokeSector(width: 90), "a stroke over the centre is not a ring")
        let b = s.bounds
        XCTAssertEqual(b.minX, 0, accuracy: 1e-9); XCTAssertEqual(b.maxX, 50, accuracy: 1e-9)
        XCTAssertEqual(b.minY, 50, accuracy: 1e-9); XCTAssertEqual(b.maxY, 100, accuracy: 1e-9)
        let mirrored = try XCTUnwrap(s.mapped(by: AffineTransform(scaleX: -2, y: 2)))
        XCTAssertEqual(mirrored.startDirection.x, 1, accuracy: 1e-12)         // the old end, mirrored
        XCTAssertEqual(mirrored.endDirection.y, 1, accuracy: 1e-12)
        XCTAssertEqual(mirrored.outerRadius, 100)
        XCTAssertNil(s.mapped(by: AffineTransform(scaleX: 1, y: 2)))
        // Counter-clockwise arcs give the same sectors, ends swapped.
        var back = Path(); back.arc(center: PathPoint(50, 50), radius: 45, startAngle: Double.pi, endAngle: Double.pi / 2, clockwise: false)
        let t = try XCTUnwrap(try XCTUnwrap(back.circularArc).strokeSector(width: 10))
        XCTAssertEqual(t.startDirection.y, 1, accuracy: 1e-12); XCTAssertEqual(t.endDirection.x, -1, accuracy: 1e-12)
    }
}

extension Path {
    /// `path` with its points passed through `change` (index, point).
    static func rebuilt(_ path: Path, _ change: (Int, PathPoint) -> PathPoint) -> Path {
        var out = Path()
        var i = 0
        path.forEachSegment { seg in
            func next(_ p: PathPoint) -> PathPoint { defer { i += 1 }; return change(i, p) }
            switch seg {
            case .move(let p): out.move(to: next(p))
            case .line(_, let p): out.line(to: next(p))
            case .quad(_, let c, let p): let c2 = next(c); out.quad(to: next(p), control: c2)
            case .cubic(_, let c1, let c2, let p): let a = next(c1), b = next(c2); out.cubic(to: next(p), control1: a, control2: b)
            case .close: out.close()
            }
        }
        return out
    }
}
