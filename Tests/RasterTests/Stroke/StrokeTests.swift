import XCTest
import Raster
import TestSupport

/// Strokes: areas of simple cases, an independent distance oracle for round
/// joins and caps, degenerate styles, and goldens for joins and dashes.
final class StrokeTests: XCTestCase {
    let clip = IntRect(x: 0, y: 0, width: 128, height: 64)

    func area(_ path: Path, _ style: StrokeStyle, clip: IntRect? = nil) -> Double {
        coveredArea(path.stroked(style), clip: clip ?? self.clip)
    }

    func line(_ x0: Double, _ y0: Double, _ x1: Double, _ y1: Double) -> Path {
        var p = Path(); p.move(to: PathPoint(x0, y0)); p.line(to: PathPoint(x1, y1)); return p
    }

    func testCapsAreas() {
        let l = line(14, 30, 114, 30)                     // 100 long, on whole rows
        XCTAssertEqual(area(l, StrokeStyle(width: 8, cap: .butt)), 800, accuracy: 0.5)
        XCTAssertEqual(area(l, StrokeStyle(width: 8, cap: .square)), 108 * 8, accuracy: 0.5)
        // Round parts are polygons inside the arcs: up to tolerance (0.1) ×
        // their perimeter less area.
        XCTAssertEqual(area(l, StrokeStyle(width: 8, cap: .round)), 800 + .pi * 16, accuracy: 0.5 + 0.1 * 8 * .pi)
        // Diagonal: the same areas.
        let d = line(20, 10, 80, 50)
        let len = (60.0 * 60 + 40 * 40).squareRoot()
        XCTAssertEqual(area(d, StrokeStyle(width: 6, cap: .butt)), len * 6, accuracy: 1.0)
        XCTAssertEqual(area(d, StrokeStyle(width: 6, cap: .square)), (len + 6) * 6, accuracy: 1.0)
    }

    func testClosedRectJoins() {
        let r = Path(rect: 20, 12, 80, 40)
        // Miter: a frame (w + t)(h + t) − (w − t)(h − t).
        let frame: Double = 86 * 46 - 74 * 34
        XCTAssertEqual(area(r, StrokeStyle(width: 6, join: .miter)), frame, accuracy: 0.5)
        // Bevel cuts a (t/2)²/2 triangle off each outer corner; round cuts (t/2)²(1 − π/4).
        let bevelCut: Double = 4 * 4.5, roundCut: Double = 4 * 9 * (1 - Double.pi / 4)
        XCTAssertEqual(area(r, StrokeStyle(width: 6, join: .bevel)), frame - bevelCut, accuracy: 0.5)
        XCTAssertEqual(area(r, StrokeStyle(width: 6, join: .round)), frame - roundCut, accuracy: 0.5 + 0.1 * 6 * .pi)
        // A miter limit below √2 (the square's ratio) turns them into bevels.
        XCTAssertEqual(area(r, StrokeStyle(width: 6, join: .miter, miterLimit: 1.4)), frame - bevelCut, accuracy: 0.5)
    }

    /// Round joins and caps: the stroke is exactly the points within w/2 of
    /// the polyline, an oracle that shares no code with the stroker.
    func testRoundStrokeAgainstDistanceOracle() {
        var p = Path()
        let pts = [PathPoint(10.3, 50.2), PathPoint(40.7, 8.9), PathPoint(60.1, 55.5), PathPoint(75, 20), PathPoint(118.2, 40.4), PathPoint(100, 52)]
        p.move(to: pts[0]); for q in pts.dropFirst() { p.line(to: q) }
        let w = 7.3
        let outline = p.stroked(StrokeStyle(width: w, cap: .round, join: .round), tolerance: 0.02)
        let r = PathRasterizer(); r.tolerance = 0.02
        var got = [UInt8](repeating: 0, count: clip.width * clip.height)
        r.fill(outline, clip: clip) { y, x, cov, n in for i in 0..<n { got[y * clip.width + x + i] = cov[i] } }
        func distance(_ q: PathPoint, _ a: PathPoint, _ b: PathPoint) -> Double {
            let ab = b - a, aq = q - a
            let t = max(0, min(1, (aq.x * ab.x + aq.y * ab.y) / (ab.x * ab.x + ab.y * ab.y)))
            return (q - (a + ab * t)).length
        }
        var maxErr = 0.0, sum = 0.0, touched = 0
        for y in 0..<clip.height {
            for x in 0..<clip.width {
                var inside = 0
                for sy in 0..<16 { for sx in 0..<16 {
                    let q = PathPoint(Double(x) + (Double(sx) + 0.5) / 16, Double(y) + (Double(sy) + 0.5) / 16)
                    var d = Double.infinity
                    for i in 0..<(pts.count - 1) { d = min(d, distance(q, pts[i], pts[i + 1])) }
                    if d <= w / 2 { inside += 1 }
                } }
                let want = Double(inside) / 256 * 255, have = Double(got[y * clip.width + x])
                if want != 0 || have != 0 { touched += 1; sum += abs(want - have) }
                maxErr = max(maxErr, abs(want - have))
            }
        }
        let mean = sum / Double(touched)
        print("round stroke vs distance oracle: max \(maxErr), mean \(mean) over \(touched) px")
        // Sampling (255/16) + flattening at 0.02 px (≈5) + rounding.
        XCTAssertLessThanOrEqual(maxErr, 255.0 / 16 + 5 + 2)
        XCTAssertLessThanOrEqual(mean, 2.5)
    }

    func testDashes() {
        let l = line(14, 30, 114, 30)
        // [10, 5]: on at 0–10, 15–25, …, 90–100: 7 dashes.
        XCTAssertEqual(area(l, StrokeStyle(width: 4, dash: [10, 5])), 70 * 4, accuracy: 0.5)
        // Phase 5: 5 left of the first dash, then 15–20…: 5 + 6·10 = 65... (20–30, …, 95–100 partly)
        // on: 0–5, 10–20, 25–35, 40–50, 55–65, 70–80, 85–95 → 5 + 6·10 = 65.
        XCTAssertEqual(area(l, StrokeStyle(width: 4, dash: [10, 5], dashPhase: 5)), 65 * 4, accuracy: 0.5)
        // An odd count repeats: [10] is [10, 10].
        XCTAssertEqual(area(l, StrokeStyle(width: 4, dash: [10])), 50 * 4, accuracy: 0.5)
        // Negative phase wraps.
        XCTAssertEqual(area(l, StrokeStyle(width: 4, dash: [10, 5], dashPhase: -10)), area(l, StrokeStyle(width: 4, dash: [10, 5], dashPhase: 5)), accuracy: 0.01)
        // Zero-length dashes: dots with round caps, nothing with butt caps.
        XCTAssertEqual(area(l, StrokeStyle(width: 4, cap: .round, dash: [0, 10])), 11 * .pi * 4, accuracy: 0.5 + 0.1 * 11 * 4 * .pi)
        XCTAssertEqual(area(l, StrokeStyle(width: 4, cap: .square, dash: [0, 10])), 11 * 16, accuracy: 0.5)
        XCTAssertEqual(area(l, StrokeStyle(width: 4, cap: .butt, dash: [0, 10])), 0)
        // Invalid patterns: all zeros, negative, NaN, empty: solid.
        for bad in [[0.0, 0.0], [0.0], [5, -1], [Double.nan, 3], [], [Double.infinity, 1]] {
            XCTAssertEqual(area(l, StrokeStyle(width: 4, dash: bad)), 400, accuracy: 0.5, "\(bad)")
        }
        // Too many dashes for the length: ignored rather than unbounded.
        XCTAssertEqual(area(l, StrokeStyle(width: 4, dash: [1e-6, 1e-6])), 400, accuracy: 0.5)
    }

    /// Issue 22: on a closed subpath whose pattern is on across its start,
    /// the last and the first dash are one dash joined at the start, as
    /// cairo, Skia and Core Graphics draw it. The rectangle 80 × 40 from
    /// (20, 12), perimeter 240, dash [40, 20] with phase 30: on at 0–10,
    /// 30–70, 90–130, 150–190 and 210–240, so 210–250 is one dash round
    /// the start corner. It must equal the four dashes drawn as open
    /// polylines, with a miter at (20, 12); before, two butt caps met
    /// there and the corner's outer 3 × 3 square was empty.
    func testDashOnAcrossTheStartOfAClosedPathIsJoined() {
        let rect = Path(rect: 20, 12, 80, 40)
        let style = StrokeStyle(width: 6, join: .miter, dash: [40, 20], dashPhase: 30)
        var explicit = Path()
        for polyline in [[(20.0, 42.0), (20, 12), (30, 12)], [(50, 12), (90, 12)],
                         [(100, 22), (100, 52), (90, 52)], [(70, 52), (30, 52)]] {
            explicit.move(to: PathPoint(polyline[0].0, polyline[0].1))
            for p in polyline.dropFirst() { explicit.line(to: PathPoint(p.0, p.1)) }
        }
        let solid = StrokeStyle(width: 6, join: .miter)
        XCTAssertEqual(area(rect, style), area(explicit, solid), accuracy: 0.01)
        let corner = IntRect(x: 17, y: 9, width: 3, height: 3)
        XCTAssertEqual(area(rect, style, clip: corner), 9, accuracy: 0.01)
        // Pixel for pixel the same coverage.
        XCTAssertEqual(differing(coverage(rect.stroked(style)), coverage(explicit.stroked(solid))), 0)
        // Off across the start (phase 0: 0–40 … 180–220, off 220–240):
        // nothing to join, the corner keeps its cap.
        XCTAssertEqual(area(rect, StrokeStyle(width: 6, join: .miter, dash: [40, 20]), clip: corner), 0, accuracy: 0.01)
        // One dash longer than the whole perimeter: the closed stroke itself.
        XCTAssertEqual(differing(coverage(rect.stroked(StrokeStyle(width: 6, join: .miter, dash: [300, 10]))),
                                 coverage(rect.stroked(solid))), 0)
        // A circle, on across its start (inside the curve): the same
        // coverage as the full circle where the joined dash runs, so no
        // seam at the start point (before: a wedge between two butt caps).
        let circle = Path(circleCenter: PathPoint(64, 32.5), radius: 20)
        let c = 2 * Double.pi * 20
        let dashedCircle = coverage(circle.stroked(StrokeStyle(width: 6, dash: [c * 0.9, c * 0.1], dashPhase: c * 0.05)))
        let fullCircle = coverage(circle.stroked(StrokeStyle(width: 6)))
        for y in 30..<36 { for x in 78..<90 { XCTAssertEqual(dashedCircle[y * 128 + x], fullCircle[y * 128 + x], "(\(x), \(y))") } }
    }

    /// How many pixels two coverages differ in.
    func differing(_ a: [UInt8], _ b: [UInt8]) -> Int { zip(a, b).filter { $0 != $1 }.count }

    /// The stroke's coverage in `clip`, one byte per pixel, row by row.
    func coverage(_ outline: Path) -> [UInt8] {
        var out = [UInt8](repeating: 0, count: clip.width * clip.height)
        PathRasterizer().fill(outline, rule: .nonZero, clip: clip) { y, x, cov, n in
            for i in 0..<n { out[y * self.clip.width + x + i] = cov[i] }
        }
        return out
    }

    func testPartialStrokes() {
        let l = line(14, 30, 114, 30)
        XCTAssertEqual(area(l, StrokeStyle(width: 4, start: 0.25, end: 0.75)), 200, accuracy: 0.5)
        XCTAssertEqual(area(l, StrokeStyle(width: 4, start: 0.5, end: 0.5)), 0)
        XCTAssertEqual(area(l, StrokeStyle(width: 4, start: 0.8, end: 0.2)), 0)
        XCTAssertEqual(area(l, StrokeStyle(width: 4, start: -3, end: .nan)), 400, accuracy: 0.5)
        // Across two subpaths of 100 and 50: 0.5…1 of 150 is the last 25 of the first and all of the second.
        var two = l
        two.move(to: PathPoint(14, 50)); two.line(to: PathPoint(64, 50))
        XCTAssertEqual(area(two, StrokeStyle(width: 4, start: 0.5, end: 1)), 75 * 4, accuracy: 0.5)
        // A closed rect (perimeter 240) half stroked with butt caps.
        XCTAssertEqual(area(Path(rect: 20, 12, 80, 40), StrokeStyle(width: 2, start: 0, end: 0.5)), 120 * 2 + 1 * 1, accuracy: 1.5)
    }

    func testDegenerateStrokes() {
        let l = line(14, 30, 114, 30)
        for w in [0.0, -2, .nan, .infinity] { XCTAssertTrue(l.stroked(StrokeStyle(width: w)).verbs.isEmpty, "width \(w)") }
        XCTAssertTrue(l.stroked(StrokeStyle(width: 2), transform: AffineTransform(scaleX: 0, y: 1)).verbs.isEmpty)
        XCTAssertTrue(Path().stroked(StrokeStyle(width: 2)).verbs.isEmpty)
        // A zero-length subpath: a dot with round/square caps, nothing with butt.
        var dot = Path(); dot.move(to: PathPoint(30, 30)); dot.line(to: PathPoint(30, 30))
        XCTAssertEqual(area(dot, StrokeStyle(width: 10, cap: .round)), .pi * 25, accuracy: 0.5 + 0.1 * 10 * .pi)
        XCTAssertEqual(area(dot, StrokeStyle(width: 10, cap: .square)), 100, accuracy: 0.5)
        XCTAssertEqual(area(dot, StrokeStyle(width: 10, cap: .butt)), 0)
        // A U-turn and repeated points do not break anything.
        var u = Path(); u.move(to: PathPoint(20, 30)); u.line(to: PathPoint(80, 30)); u.line(to: PathPoint(80, 30)); u.line(to: PathPoint(20, 30))
        for j in [LineJoin.miter, .round, .bevel] { XCTAssertGreaterThan(area(u, StrokeStyle(width: 6, join: j)), 359) }
        // Huge and non-finite coordinates follow the fill rules.
        var wild = Path(); wild.move(to: PathPoint(-1e9, 30)); wild.line(to: PathPoint(1e9, 30))
        XCTAssertEqual(area(wild, StrokeStyle(width: 4)), 128 * 4, accuracy: 0.5)
        var nan = l; nan.move(to: PathPoint(.nan, 3)); nan.line(to: PathPoint(5, 5))
        XCTAssertEqual(area(nan, StrokeStyle(width: 4)), 400, accuracy: 0.5)
    }

    func testStrokeGoldens() {
        let surface = Surface<ARGB8888>(width: 300, height: 220)!
        let canvas = Canvas(surface.view, family: .reference)
        canvas.fill(surface.view.bounds, color: .white)
        let r = PathRasterizer()
        // Joins: a zigzag per join style, with its centre line on top.
        var zig = Path()
        zig.move(to: PathPoint(15, 60)); zig.line(to: PathPoint(45, 15)); zig.line(to: PathPoint(60, 60)); zig.line(to: PathPoint(75, 40)); zig.line(to: PathPoint(90, 42))
        let thin = StrokeStyle(width: 1)
        for (i, j) in [LineJoin.miter, .round, .bevel].enumerated() {
            let t = AffineTransform(translationX: Double(i) * 95, y: 0)
            canvas.stroke(zig, color: PremultipliedColor(red8: 40, green: 90, blue: 200), style: StrokeStyle(width: 12, cap: .butt, join: j), transform: t, using: r)
            canvas.stroke(zig, color: PremultipliedColor(red8: 255, green: 255, blue: 255, alpha: 200), style: thin, transform: t, using: r)
        }
        // Caps.
        for (i, c) in [LineCap.butt, .round, .square].enumerated() {
            let y = 85.0 + Double(i) * 18
            canvas.stroke(line(30, y, 130, y), color: PremultipliedColor(red8: 200, green: 60, blue: 40), style: StrokeStyle(width: 10, cap: c), using: r)
            canvas.stroke(line(30, y, 130, y), color: .white, style: thin, using: r)
        }
        // Dashes with phase on a circle and a curve, and a partial stroke.
        let circle = Path(circleCenter: PathPoint(215, 110), radius: 40)
        canvas.stroke(circle, color: PremultipliedColor(red8: 30, green: 140, blue: 70), style: StrokeStyle(width: 6, cap: .round, dash: [14, 8, 2, 8], dashPhase: 3), using: r)
        canvas.stroke(circle, color: PremultipliedColor(red8: 120, green: 40, blue: 160, alpha: 220), style: StrokeStyle(width: 3, start: 0.1, end: 0.6),
                      transform: AffineTransform(translationX: 215, y: 110).scaledBy(x: 0.6, y: 0.6).translatedBy(x: -215, y: -110), using: r)
        var curve = Path()
        curve.move(to: PathPoint(20, 190)); curve.cubic(to: PathPoint(280, 180), control1: PathPoint(90, 120), control2: PathPoint(180, 250))
        canvas.stroke(curve, color: .black, style: StrokeStyle(width: 4, cap: .square, join: .round, dash: [0, 9]), using: r)
        canvas.stroke(curve, color: PremultipliedColor(red8: 230, green: 120, blue: 0), style: StrokeStyle(width: 2, dash: [20, 6], dashPhase: 10),
                      transform: AffineTransform(translationX: 0, y: 14), using: r)
        // A closed rounded rect, stroked under a non-uniform scale (the pen stretches).
        canvas.stroke(Path(roundedRect: 12, 72, 70, 12, radii: CornerRadii(5)), color: PremultipliedColor(red8: 0, green: 0, blue: 0, alpha: 160),
                      style: StrokeStyle(width: 2, join: .miter), transform: AffineTransform(scaleX: 1.3, y: 1.8), using: r)
        let result = compareWithGolden(surface.view, name: "strokes")
        XCTAssertTrue(result.passed, result.message)
    }
}
