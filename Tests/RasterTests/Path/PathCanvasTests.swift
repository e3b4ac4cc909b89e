import XCTest
import Raster
import TestSupport

/// The A8 and span outputs, mask intersection, and `Canvas.fill(path:)`
/// against golden images.
final class PathCanvasTests: XCTestCase {
    func testFillIntoA8OverwritesTheClipOnly() {
        let mask = Surface<A8>(width: 40, height: 30)!
        mask.clear(to: 7)
        let r = PathRasterizer()
        r.fill(Path(rect: 5, 5, 10, 10), clip: IntRect(x: 0, y: 0, width: 20, height: 20), into: mask.view)
        XCTAssertEqual(mask.view[10, 10], 255)
        XCTAssertEqual(mask.view[2, 2], 0)       // inside the clip, outside the path: cleared
        XCTAssertEqual(mask.view[30, 25], 7)     // outside the clip: untouched
        XCTAssertEqual(mask.view[19, 19], 0)
        XCTAssertEqual(mask.view[20, 20], 7)
    }

    func testMaskMultipliesCoverage() {
        let mask = Surface<A8>(width: 32, height: 32)!
        for y in 0..<32 { for x in 0..<32 { mask.view[x, y] = UInt8(x * 8) } }
        let r = PathRasterizer()
        var got: [Int: [UInt8]] = [:]
        // The clip reaches past the mask (x < 0 and x ≥ 32): mask 0 there.
        r.fill(Path(rect: -10, 0, 60, 4), clip: IntRect(x: -4, y: 0, width: 40, height: 8), mask: mask.view) { y, x, cov, n in
            XCTAssertEqual(x, -4)
            got[y] = Array(UnsafeBufferPointer(start: cov, count: n))
        }
        XCTAssertEqual(got.count, 4)
        let row = got[1]!
        for i in 0..<row.count {
            let x = i - 4
            XCTAssertEqual(row[i], x < 0 || x >= 32 ? 0 : UInt8(div255(255 * UInt32(x * 8))), "x=\(x)")
        }
    }

    func testRasterizerReuseGivesIdenticalResults() {
        // The cell buffer must be clean between draws of different sizes and rules.
        let r = PathRasterizer()
        let star = PathFillTests.star(center: PathPoint(40, 40), radius: 35)
        func render(_ clip: IntRect, _ rule: FillRule) -> [UInt8] {
            var out = [UInt8](repeating: 0, count: 100 * 100)
            r.fill(star, rule: rule, clip: clip) { y, x, cov, n in for i in 0..<n { out[y * 100 + x + i] = cov[i] } }
            return out
        }
        let a = render(IntRect(x: 0, y: 0, width: 100, height: 100), .evenOdd)
        _ = render(IntRect(x: 10, y: 3, width: 37, height: 90), .nonZero)
        _ = render(IntRect(x: 0, y: 0, width: 7, height: 100), .nonZero)
        XCTAssertEqual(render(IntRect(x: 0, y: 0, width: 100, height: 100), .evenOdd), a)
        XCTAssertEqual(PathRasterizer().tolerance, r.tolerance)
    }

    /// A scene of every path feature on a light background.
    static func scene(_ canvas: inout Canvas, rasterizer: PathRasterizer) {
        canvas.fill(IntRect(x: 0, y: 0, width: canvas.target.width, height: canvas.target.height), color: PremultipliedColor(red8: 245, green: 242, blue: 235))
        let star = PathFillTests.star(center: PathPoint(50, 50), radius: 42)
        canvas.fill(star, color: PremultipliedColor(red8: 200, green: 40, blue: 40), rule: .nonZero, using: rasterizer)
        canvas.fill(star, color: PremultipliedColor(red8: 40, green: 60, blue: 200), rule: .evenOdd,
                    transform: AffineTransform(translationX: 100, y: 0), using: rasterizer)
        canvas.fill(Path(roundedRect: 210, 12, 80, 76, radii: CornerRadii(topLeft: 30, topRight: 4, bottomRight: 18, bottomLeft: 0)),
                    color: PremultipliedColor(red8: 30, green: 150, blue: 80, alpha: 200), using: rasterizer)
        var wave = Path()
        wave.move(to: PathPoint(0, 0))
        wave.cubic(to: PathPoint(1, 0.2), control1: PathPoint(0.3, -0.4), control2: PathPoint(0.6, 0.9))
        wave.cubic(to: PathPoint(0.1, 1), control1: PathPoint(1.4, 0.9), control2: PathPoint(-0.5, 0.3))
        wave.close()
        canvas.fill(wave, color: PremultipliedColor(red8: 120, green: 30, blue: 160, alpha: 180),
                    transform: AffineTransform(a: 70, b: 15, c: -20, d: 60, tx: 30, ty: 100), using: rasterizer)
        // Small circles at sub-pixel offsets, then a big one clipped by the canvas edge.
        for i in 0..<10 {
            let r = 0.3 + Double(i) * 0.6
            canvas.fill(Path(circleCenter: PathPoint(120 + Double(i) * 14.3, 112 + Double(i) * 0.1), radius: r), color: .black, using: rasterizer)
        }
        canvas.fill(Path(circleCenter: PathPoint(330, 200), radius: 90), color: PremultipliedColor(red8: 240, green: 160, blue: 20, alpha: 160), using: rasterizer)
        var arcs = Path()
        arcs.move(to: PathPoint(150, 150))
        arcs.arc(center: PathPoint(150, 150), radius: 28, startAngle: -Double.pi / 2, endAngle: Double.pi / 3, clockwise: true)
        arcs.close()
        canvas.fill(arcs, color: PremultipliedColor(red8: 0, green: 120, blue: 140), using: rasterizer)
        // Thin slivers fanning out.
        var fan = Path()
        for k in 0..<12 {
            let a = Double(k) * 0.13
            fan.move(to: PathPoint(20, 190)); fan.line(to: PathPoint(20 + 80 * cos(a), 190 - 80 * sin(a))); fan.line(to: PathPoint(20 + 80 * cos(a + 0.012), 190 - 80 * sin(a + 0.012))); fan.close()
        }
        canvas.fill(fan, color: PremultipliedColor(red8: 20, green: 20, blue: 20), using: rasterizer)
    }

    func testCanvasSceneGolden() {
        let surface = Surface<ARGB8888>(width: 300, height: 200)!
        var canvas = Canvas(surface.view, family: .reference)
        PathCanvasTests.scene(&canvas, rasterizer: PathRasterizer())
        let result = compareWithGolden(surface.view, name: "paths-scene")
        XCTAssertTrue(result.passed, result.message)
        // The clip applies: the same scene clipped leaves the outside alone.
        let clipped = Surface<ARGB8888>(width: 300, height: 200)!
        var c2 = Canvas(clipped.view, family: .reference)
        c2.clip(to: IntRect(x: 40, y: 30, width: 200, height: 120))
        PathCanvasTests.scene(&c2, rasterizer: PathRasterizer())
        for y in 0..<200 {
            for x in 0..<300 {
                let inside = x >= 40 && x < 240 && y >= 30 && y < 150
                XCTAssertEqual(clipped.view[x, y], inside ? surface.view[x, y] : 0, "(\(x), \(y))")
                if !(inside ? clipped.view[x, y] == surface.view[x, y] : clipped.view[x, y] == 0) { return }
            }
        }
    }
}
