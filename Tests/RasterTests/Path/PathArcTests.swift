import XCTest
import Foundation
import ImageIO
import Raster

/// `Path.ellipticalArc` (SVG's `A`) against librsvg, which implements the
/// SVG arc rules on its own, and `Path.arc(tangent1End:…)` against the
/// geometry it must have (both tangent points on their lines, every point
/// of the arc at the radius from a centre equidistant from both lines).
///
/// Stated tolerance against librsvg (which draws through cairo): as
/// `PathCairoTests` on curves, |ours − librsvg| ≤ 40 levels per pixel and
/// ≤ 4 levels mean over the pixels either touches. A wrong centre, flag or
/// radius scaling moves whole edges and shows as hundreds of pixels at 255.
final class PathArcTests: XCTestCase {
    struct ArcCase {
        var name: String
        var start: PathPoint, end: PathPoint
        var rx: Double, ry: Double, degrees: Double
        var large: Bool, sweep: Bool
    }

    static let size = 160

    /// The four arcs SVG's specification draws between two points (the flag
    /// combinations), a turned ellipse, radii too small (scaled up), and
    /// negative radii.
    static let cases: [ArcCase] = [
        ArcCase(name: "small, against", start: PathPoint(50, 80), end: PathPoint(110, 60), rx: 50, ry: 35, degrees: 0, large: false, sweep: false),
        ArcCase(name: "small, with", start: PathPoint(50, 80), end: PathPoint(110, 60), rx: 50, ry: 35, degrees: 0, large: false, sweep: true),
        ArcCase(name: "large, against", start: PathPoint(50, 80), end: PathPoint(110, 60), rx: 50, ry: 35, degrees: 0, large: true, sweep: false),
        ArcCase(name: "large, with", start: PathPoint(50, 80), end: PathPoint(110, 60), rx: 50, ry: 35, degrees: 0, large: true, sweep: true),
        ArcCase(name: "turned 30°", start: PathPoint(30, 100), end: PathPoint(130, 70), rx: 60, ry: 25, degrees: 30, large: true, sweep: true),
        ArcCase(name: "turned −70°, small", start: PathPoint(40, 40), end: PathPoint(120, 120), rx: 70, ry: 40, degrees: -70, large: false, sweep: true),
        ArcCase(name: "radii too small", start: PathPoint(20, 80), end: PathPoint(140, 80), rx: 10, ry: 5, degrees: 15, large: false, sweep: true),
        ArcCase(name: "negative radii", start: PathPoint(40, 60), end: PathPoint(120, 100), rx: -45, ry: -60, degrees: 0, large: true, sweep: false),
    ]

    func testEllipticalArcsMatchLibrsvg() throws {
        try XCTSkipIf(Self.rsvgConvert == nil, "rsvg-convert is not installed (scripts/test installs librsvg2-bin)")
        let clip = IntRect(x: 0, y: 0, width: Self.size, height: Self.size)
        for c in Self.cases {
            var path = Path()
            path.move(to: c.start)
            path.ellipticalArc(to: c.end, radiusX: c.rx, radiusY: c.ry, xAxisRotation: c.degrees * .pi / 180,
                               largeArc: c.large, sweep: c.sweep)
            path.close()
            let ours = PathCairoTests.ourCoverage(path, rule: .nonZero, clip: clip)
            let d = "M \(c.start.x) \(c.start.y) A \(c.rx) \(c.ry) \(c.degrees) \(c.large ? 1 : 0) \(c.sweep ? 1 : 0) \(c.end.x) \(c.end.y) Z"
            let theirs = try Self.librsvgCoverage(pathData: d)
            var maxError = 0, sum = 0, touched = 0, inked = 0
            for i in 0..<ours.count where ours[i] != 0 || theirs[i] != 0 {
                let e = abs(Int(ours[i]) - Int(theirs[i]))
                maxError = max(maxError, e); sum += e; touched += 1
                if theirs[i] == 255 { inked += 1 }
            }
            XCTAssertGreaterThan(inked, 200, "\(c.name): librsvg drew almost nothing; the comparison would say nothing")
            XCTAssertLessThanOrEqual(maxError, 40, "\(c.name): worst pixel")
            XCTAssertLessThanOrEqual(Double(sum) / Double(max(touched, 1)), 4, "\(c.name): mean over touched pixels")
        }
    }

    func testDegenerateEllipticalArcsFollowTheSVGRules() {
        // The same end as the start: nothing.
        var same = Path()
        same.move(to: PathPoint(10, 10))
        same.ellipticalArc(to: PathPoint(10, 10), radiusX: 5, radiusY: 5, xAxisRotation: 0, largeArc: true, sweep: true)
        XCTAssertEqual(Self.keys(same), ["M 10.0 10.0"])
        // A zero radius: a straight line.
        var flat = Path()
        flat.move(to: PathPoint(10, 10))
        flat.ellipticalArc(to: PathPoint(30, 20), radiusX: 0, radiusY: 5, xAxisRotation: 0, largeArc: false, sweep: true)
        XCTAssertEqual(Self.keys(flat), ["M 10.0 10.0", "L 30.0 20.0"])
        // Non-finite input: nothing.
        var bad = Path()
        bad.move(to: PathPoint(10, 10))
        bad.ellipticalArc(to: PathPoint(30, 20), radiusX: .nan, radiusY: 5, xAxisRotation: 0, largeArc: false, sweep: true)
        bad.ellipticalArc(to: PathPoint(.infinity, 20), radiusX: 5, radiusY: 5, xAxisRotation: 0, largeArc: false, sweep: true)
        XCTAssertEqual(Self.keys(bad).count, 1)
        // Radii too small: a half ellipse, whose middle is as far from the
        // chord as the scaled radius; with the sweep flag (increasing angle,
        // clockwise on a y-down screen) from left to right it bulges up,
        // as browsers draw "M 0 0 A 1 1 0 0 1 100 0".
        var half = Path()
        half.move(to: PathPoint(0, 0))
        half.ellipticalArc(to: PathPoint(100, 0), radiusX: 1, radiusY: 1, xAxisRotation: 0, largeArc: false, sweep: true)
        let bounds = half.bounds
        XCTAssertEqual(bounds.minY, -50, accuracy: 0.05)
        XCTAssertEqual(bounds.maxY, 0, accuracy: 1e-9)
        XCTAssertEqual(half.currentPoint, PathPoint(100, 0))
    }

    func testArcPointsLieOnTheirEllipse() {
        // A turned ellipse through two points: flattened, every point is on
        // one ellipse of the given radii (the centre found by F.6.5) within
        // the approximation's 0.03 % (plus flattening, which only cuts
        // chords inside the curve).
        let rx = 80.0, ry = 30.0, phi = 0.4
        var path = Path()
        path.move(to: PathPoint(20, 50))
        path.ellipticalArc(to: PathPoint(150, 90), radiusX: rx, radiusY: ry, xAxisRotation: phi, largeArc: true, sweep: false)
        // The centre: solve from the curve's own points (least squares is
        // overkill; the control points' ends are on the ellipse): any end
        // point p satisfies |R(−φ)(p − c)| in the ellipse metric = 1, so
        // search c on a fine grid near the chord's middle.
        var ends: [PathPoint] = []
        path.forEachSegment { if case .cubic(_, _, _, let p) = $0 { ends.append(p) } }
        XCTAssertGreaterThanOrEqual(ends.count, 3)
        func residual(_ c: PathPoint) -> Double {
            var worst = 0.0
            for p in ends + [PathPoint(20, 50)] {
                let dx = p.x - c.x, dy = p.y - c.y
                let x = cos(phi) * dx + sin(phi) * dy, y = -sin(phi) * dx + cos(phi) * dy
                worst = max(worst, abs((x * x) / (rx * rx) + (y * y) / (ry * ry) - 1))
            }
            return worst
        }
        var best = (residual: Double.infinity, c: PathPoint(0, 0))
        for gx in stride(from: -100.0, through: 300, by: 0.25) {
            for gy in stride(from: -100.0, through: 250, by: 0.25) {
                let r = residual(PathPoint(gx, gy))
                if r < best.residual { best = (r, PathPoint(gx, gy)) }
            }
        }
        XCTAssertLessThan(best.residual, 0.02, "the arc's ends are not on one ellipse of radii \(rx), \(ry)")
    }

    func testTangentArcTouchesBothLines() {
        let corners: [(PathPoint, PathPoint, PathPoint, Double)] = [
            (PathPoint(10, 10), PathPoint(100, 10), PathPoint(100, 100), 20),    // a right angle
            (PathPoint(10, 90), PathPoint(60, 10), PathPoint(110, 90), 15),      // an acute one
            (PathPoint(0, 50), PathPoint(80, 50), PathPoint(160, 70), 40),       // nearly straight
            (PathPoint(100, 10), PathPoint(10, 10), PathPoint(10, 100), 25),     // turning the other way
        ]
        for (p0, t1, t2, r) in corners {
            var path = Path()
            path.move(to: p0)
            path.arc(tangent1End: t1, tangent2End: t2, radius: r)
            let segments = Self.segments(of: path)
            guard case .line(_, let p1) = segments[1] else { return XCTFail("no line to the first tangent point") }
            let end = path.currentPoint!
            // Both tangent points on their lines, as far from the corner.
            XCTAssertEqual(Self.distance(p1, toLine: p0, t1), 0, accuracy: 1e-9)
            XCTAssertEqual(Self.distance(end, toLine: t1, t2), 0, accuracy: 1e-9)
            XCTAssertEqual(Self.length(p1 - t1), Self.length(end - t1), accuracy: 1e-9)
            // The centre: on the normal of the first line at p1, r away, on
            // the side of t2; the same distance from the second line.
            let d = (t1 - p0) * (1 / Self.length(t1 - p0))
            var n = PathPoint(-d.y, d.x)
            if (t2.x - t1.x) * n.x + (t2.y - t1.y) * n.y < 0 { n = n * -1 }
            let c = p1 + n * r
            XCTAssertEqual(Self.distance(c, toLine: t1, t2), r, accuracy: 1e-9)
            // Every point of the flattened arc at radius r (within the cubic
            // approximation, 0.03 % of r, and flattening at 0.1 px).
            var arc = Path()
            arc.move(to: p1)
            for s in segments.dropFirst(2) {
                guard case .cubic(_, let c1, let c2, let p) = s else { return XCTFail("the arc is not made of cubics") }
                arc.cubic(to: p, control1: c1, control2: c2)
            }
            for line in arc.flattened(tolerance: 0.01) {
                for p in line.points { XCTAssertEqual(Self.length(p - c), r, accuracy: 0.01 + r * 3e-4) }
            }
        }
    }

    func testDegenerateTangentArcsAreLines() {
        for (t1, t2, r) in [(PathPoint(50, 0), PathPoint(100, 0), 10.0),   // collinear
                            (PathPoint(0, 0), PathPoint(100, 50), 10),       // t1 at the current point
                            (PathPoint(50, 0), PathPoint(50, 0), 10),        // t2 at t1
                            (PathPoint(50, 0), PathPoint(50, 50), 0)] {       // radius 0
            var path = Path()
            path.move(to: PathPoint(0, 0))
            path.arc(tangent1End: t1, tangent2End: t2, radius: r)
            XCTAssertEqual(Self.keys(path), ["M 0.0 0.0", "L \(t1.x) \(t1.y)"], "\(t1) \(t2) \(r)")
        }
        var bad = Path()
        bad.move(to: PathPoint(0, 0))
        bad.arc(tangent1End: PathPoint(50, 0), tangent2End: PathPoint(50, 50), radius: -1)
        bad.arc(tangent1End: PathPoint(.nan, 0), tangent2End: PathPoint(50, 50), radius: 5)
        XCTAssertEqual(Self.keys(bad).count, 1)
        // No current point: the subpath starts at the corner.
        var fresh = Path()
        fresh.arc(tangent1End: PathPoint(50, 0), tangent2End: PathPoint(50, 50), radius: 10)
        XCTAssertEqual(Self.keys(fresh).first, "M 50.0 0.0")
    }

    // MARK: Helpers

    static func segments(of path: Path) -> [Path.Segment] {
        var out: [Path.Segment] = []
        path.forEachSegment { out.append($0) }
        return out
    }

    /// Each segment as SVG-like text (its end points), to compare paths.
    static func keys(_ path: Path) -> [String] {
        segments(of: path).map {
            switch $0 {
            case .move(let p): return "M \(p.x) \(p.y)"
            case .line(_, let p): return "L \(p.x) \(p.y)"
            case .quad(_, _, let p): return "Q \(p.x) \(p.y)"
            case .cubic(_, _, _, let p): return "C \(p.x) \(p.y)"
            case .close: return "Z"
            }
        }
    }

    static func distance(_ p: PathPoint, toLine a: PathPoint, _ b: PathPoint) -> Double {
        let d = b - a
        return abs((p.x - a.x) * d.y - (p.y - a.y) * d.x) / length(d)
    }

    static func length(_ v: PathPoint) -> Double { (v.x * v.x + v.y * v.y).squareRoot() }

    static let rsvgConvert: String? = ["/usr/bin/rsvg-convert", "/usr/local/bin/rsvg-convert"]
        .first { FileManager.default.isExecutableFile(atPath: $0) }

    /// librsvg's coverage of `pathData` filled black on a transparent
    /// `size`² canvas: the alpha of its PNG.
    static func librsvgCoverage(pathData: String) throws -> [UInt8] {
        let dir = FileManager.default.temporaryDirectory.appendingPathComponent("fbr-arc-\(getpid())-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: dir, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: dir) }
        let svg = dir.appendingPathComponent("arc.svg"), png = dir.appendingPathComponent("arc.png")
        try """
            <svg xmlns="http://www.w3.org/2000/svg" width="\(size)" height="\(size)" viewBox="0 0 \(size) \(size)">
            <path d="\(pathData)" fill="black" fill-rule="nonzero"/></svg>
            """.write(to: svg, atomically: true, encoding: .utf8)
        let process = Process()
        process.executableURL = URL(fileURLWithPath: rsvgConvert!)
        process.arguments = ["-f", "png", "-o", png.path, svg.path]
        try process.run()
        process.waitUntilExit()
        guard process.terminationStatus == 0 else { throw XCTSkip("rsvg-convert failed on \(pathData)") }
        let image = try PNG.read(from: png.path)
        XCTAssertEqual(image.width, size)
        var out = [UInt8](repeating: 0, count: size * size)
        for y in 0..<size { for x in 0..<size { out[y * size + x] = UInt8(image.view[x, y] >> 24) } }
        return out
    }
}
