import Foundation
@testable import Raster
import XCTest

/// Work skipped for speed must not change a pixel: lines dropped before
/// they are quantized when they lie beyond a small clip, and a stroke's
/// flattening reused from its scratch for the same path and map.
final class ClipAndScratchReuseTests: XCTestCase {
    /// Coverage of `path` through `clip`, as a width × height array of the
    /// whole target (0 outside the spans).
    func coverage(_ path: Path, _ transform: AffineTransform, clip: IntRect, width: Int, height: Int) -> [UInt8] {
        var out = [UInt8](repeating: 0, count: width * height)
        PathRasterizer().fill(path, transform: transform, rule: .nonZero, clip: clip) { y, x, cov, n in
            for i in 0..<n { out[y * width + x + i] = cov[i] }
        }
        return out
    }

    /// A large outline (a stroked spiral reaching far outside the target)
    /// filled through small clips everywhere gives, pixel for pixel, what
    /// the fill through the whole target gives there.
    func testSmallClipsSeeTheSameCoverageAsTheWholeTarget() {
        var spiral = Path()
        spiral.move(to: PathPoint(100, 100))
        for i in 1..<120 {
            let a = Double(i) * 0.3, r = 2 + Double(i) * 1.4
            spiral.line(to: PathPoint(100 + r * cos(a), 100 + r * sin(a)))
        }
        spiral.quad(to: PathPoint(-40, 260), control: PathPoint(300, 300))
        let outline = spiral.stroked(StrokeStyle(width: 7, cap: .round, join: .round))
        let transforms = [AffineTransform.identity, AffineTransform(a: 0.9, b: 0.3, c: -0.25, d: 1.1, tx: 13.3, ty: -7.6)]
        let w = 200, h = 200
        for t in transforms {
            let whole = coverage(outline, t, clip: IntRect(x: 0, y: 0, width: w, height: h), width: w, height: h)
            for (cx, cy, cw, ch) in [(0, 0, 9, 9), (37, 51, 16, 5), (120, 10, 3, 40), (180, 180, 20, 20), (90, 95, 12, 12), (5, 150, 60, 2)] {
                let clip = IntRect(x: cx, y: cy, width: cw, height: ch)
                let part = coverage(outline, t, clip: clip, width: w, height: h)
                for y in cy..<cy + ch {
                    for x in cx..<cx + cw where part[y * w + x] != whole[y * w + x] {
                        XCTFail("clip \(clip): pixel (\(x), \(y)) has \(part[y * w + x]), the whole fill \(whole[y * w + x])")
                        return
                    }
                }
            }
        }
    }

    /// One scratch stroking a path, the path edited in place, another map,
    /// another tolerance and trims in turn: each outline is the one a fresh
    /// scratch makes.
    func testReusedFlatteningMatchesAFreshStroke() {
        let scratch = StrokeScratch()
        var path = Path()
        path.move(to: PathPoint(10, 10))
        path.cubic(to: PathPoint(90, 30), control1: PathPoint(30, -20), control2: PathPoint(70, 80))
        path.line(to: PathPoint(60, 90))
        var style = StrokeStyle(width: 6, cap: .round, join: .miter)
        var map = AffineTransform(a: 2, b: 0, c: 0, d: 2, tx: 0, ty: 0)
        var tolerance = FlattenLimits.defaultTolerance
        var out = Path()
        func check(_ what: String) {
            path.stroke(style, transform: map, tolerance: tolerance, into: &out, scratch: scratch)
            var fresh = Path()
            path.stroke(style, transform: map, tolerance: tolerance, into: &fresh, scratch: StrokeScratch())
            XCTAssertEqual(out, fresh, what)
        }
        check("first stroke")
        for e in stride(from: 0.1, through: 1.0, by: 0.15) { style.end = e; check("trimmed to \(e)") }
        path.line(to: PathPoint(5, 60))                       // the same storage, one more segment
        check("path edited in place")
        map = AffineTransform(a: 3, b: 0.5, c: 0, d: 3, tx: 0, ty: 0)
        check("another map")
        tolerance = 0.05
        check("another tolerance")
        style.dash = [5, 3]
        check("dashed")
    }
}
