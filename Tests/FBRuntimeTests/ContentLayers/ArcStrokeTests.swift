@testable import FBRuntime
import MallocCounter
import Raster
import TestSupport
import XCTest

/// Shape layers whose path is one circular arc stroked with butt caps (a
/// progress ring, LVGL's arc) are drawn as ring sectors in closed form
/// (`SectorRasterizer`, checked against the exact area in
/// `SectorRasterizerTests`); everything else is stroked and filled as
/// before. A trim that moves damages only the sector between its old and
/// new ends, and every frame equals a full render bit for bit.
final class ArcStrokeTests: XCTestCase {
    /// A 100×100 shape layer at `position` (anchor at its corner) stroking
    /// a circle of radius 45 around its middle, width 10, butt caps.
    func ring(at position: Point, color: Color = Color(red: 0.2, green: 0.7, blue: 1), end: Double = 1) -> ShapeLayer {
        let shape = ShapeLayer(name: "ring")
        shape.anchorPoint = .zero
        shape.bounds = Rect(x: 0, y: 0, width: 100, height: 100)
        shape.position = position
        var path = Path()
        path.arc(center: PathPoint(50, 50), radius: 45, startAngle: 0, endAngle: 2 * Double.pi, clockwise: true)
        shape.path = path
        shape.fillColor = nil
        shape.strokeColor = color
        shape.lineWidth = 10
        shape.lineCap = .butt
        shape.strokeEnd = end
        return shape
    }

    func root(_ width: Double, _ height: Double) -> Layer {
        let root = Layer(name: "root")
        root.bounds = Rect(x: 0, y: 0, width: width, height: height)
        root.anchorPoint = .zero
        return root
    }

    func worstDifference(_ a: PixelView<ARGB8888>, _ b: PixelView<ARGB8888>) -> Int {
        var worst = 0
        for y in 0..<a.height {
            for x in 0..<a.width {
                for shift in stride(from: 0, through: 24, by: 8) {
                    worst = max(worst, abs(Int((a[x, y] >> UInt32(shift)) & 0xFF) - Int((b[x, y] >> UInt32(shift)) & 0xFF)))
                }
            }
        }
        return worst
    }

    /// The frame is the sector itself: a ring on a fractional position,
    /// at compositor scales 1 and 1.5, trimmed, equals the sector filled
    /// into a cleared target, bit for bit, with the SIMD and the reference
    /// kernels; no outline is stroked.
    func testArcStrokeIsTheRingSector() throws {
        for (scale, kernels) in [(1.0, KernelFamily.simd), (1.5, .simd), (1.5, .reference)] {
            let root = root(130, 120)
            let shape = ring(at: Point(x: 10.3, y: 7.6), end: 0.62)
            try root.addSublayer(shape)
            let w = Int(130 * scale), h = Int(120 * scale)
            let frame = Surface<ARGB8888>(width: w, height: h)!
            Compositor(scale: scale, kernels: kernels).render(root, at: 0, into: frame.view)
            XCTAssertEqual(shape.strokeCache.misses, 0, "no outline stroked")

            let expected = Surface<ARGB8888>(width: w, height: h)!
            Canvas(expected.view, family: kernels).fill(expected.view.bounds, color: .black)
            let map = AffineTransform(a: scale, b: 0, c: 0, d: scale, tx: scale * 10.3, ty: scale * 7.6)
            let sector = try XCTUnwrap(shape.path?.circularArc?.strokeSector(width: 10, start: 0, end: 0.62)?.mapped(by: map))
            Canvas(expected.view, family: kernels).fill(sector, color: shape.strokeColor!.premultiplied)
            XCTAssertEqual(worstDifference(frame.view, expected.view), 0, "scale \(scale), \(kernels)")
        }
    }

    /// What closed form does not take is stroked and filled as before:
    /// round caps, dashes, a layer squashed in y, a hole under 4 px, a path
    /// that is not one arc.
    func testOtherStrokesAreStrokedAsOutlines() throws {
        var cases: [(String, ShapeLayer)] = []
        let round = ring(at: Point(x: 5, y: 5)); round.lineCap = .round; cases.append(("round caps", round))
        let dashed = ring(at: Point(x: 5, y: 5)); dashed.lineDashPattern = [8, 4]; cases.append(("dashes", dashed))
        let squashed = ring(at: Point(x: 5, y: 5)); squashed.transform = .scale(x: 1, y: 0.7); cases.append(("squashed", squashed))
        let thick = ring(at: Point(x: 5, y: 5)); thick.lineWidth = 84; cases.append(("a hole of 3 px", thick))
        let oval = ring(at: Point(x: 5, y: 5)); oval.path = Path(ellipseIn: 5, 10, 90, 80); cases.append(("an ellipse", oval))
        let circle = ring(at: Point(x: 5, y: 5)); circle.path = Path(circleCenter: PathPoint(50, 50), radius: 45)
        for (what, shape) in cases {
            let root = root(110, 110)
            try root.addSublayer(shape)
            Compositor().render(root, at: 0, into: Surface<ARGB8888>(width: 110, height: 110)!.view)
            XCTAssertGreaterThan(shape.strokeCache.misses, 0, "\(what): stroked as an outline")
        }
        // A closed circle (`Path(circleCenter:)`) is an arc too.
        let root = root(110, 110)
        try root.addSublayer(circle)
        Compositor().render(root, at: 0, into: Surface<ARGB8888>(width: 110, height: 110)!.view)
        XCTAssertEqual(circle.strokeCache.misses, 0, "a closed circle is a ring")
    }

    /// Trims moving on arcs that are translated by fractions, turned,
    /// mirrored and scaled, clockwise and not, from the start and the end,
    /// through whole rings and back: every frame equals a full render
    /// exactly (the coverage of a pixel depends only on the edges that
    /// reach it), and small steps damage little.
    func testTrimmedArcsDamageOnlyWhatChanges() throws {
        let root = root(330, 130)
        root.backgroundColor = Color(rgb: 0x101418)
        var shapes: [ShapeLayer] = []
        for k in 0..<4 {
            let shape = ring(at: Point(x: 5.25 + Double(k) * 80, y: 12.5), color: Color(red: 0.25 * Double(k), green: 0.8, blue: 1,
                                                                                      alpha: k == 2 ? 0.6 : 1))
            switch k {
            case 1: shape.transform = .rotation(radians: 0.6, x: 0, y: 0, z: 1)
            case 2: shape.transform = .scale(x: -0.8, y: 0.8)
            case 3:
                var back = Path()
                back.arc(center: PathPoint(50, 50), radius: 40, startAngle: 1, endAngle: -2, clockwise: false)
                shape.path = back
                shape.lineWidth = 13
            default: break
            }
            try root.addSublayer(shape)
            shapes.append(shape)
        }
        let compositor = Compositor()
        let target = Surface<ARGB8888>(width: 330, height: 130)!
        var damaged = 0, frames = 0
        let steps: [(Double, Double)] = [(0, 0.1), (0, 0.11), (0, 0.5), (0, 0.52), (0, 0.49), (0.1, 0.49), (0.2, 0.5), (0.2, 1), (0, 1),
                                         (0, 0.99), (0, 0), (0, 0.01), (0.995, 1)]
        for (step, (start, end)) in steps.enumerated() {
            for shape in shapes { shape.strokeStart = start; shape.strokeEnd = end }
            compositor.render(root, at: 0, into: target.view)
            let full = Surface<ARGB8888>(width: 330, height: 130)!
            Compositor().render(root, at: 0, into: full.view)
            XCTAssertEqual(worstDifference(target.view, full.view), 0, "step \(step): trim \(start)…\(end)")
            if [1, 4, 9, 11].contains(step) { damaged += compositor.damage.area; frames += 1 }
        }
        for shape in shapes { XCTAssertEqual(shape.strokeCache.misses, 0, "drawn as sectors") }
        // Steps of 1–2 % of the turn: a small part of the four 100×100 extents.
        XCTAssertLessThan(damaged / frames, 4 * 100 * 100 / 8, "mean damaged pixels per small step")
    }

    /// LVGL's arc scene in small: arcs sweeping every frame allocate
    /// nothing (no outline, no flattening).
    func testSweepingArcsAllocateNothing() throws {
        let root = root(400, 200)
        var shapes: [ShapeLayer] = []
        for k in 0..<6 {
            let shape = ring(at: Point(x: Double(k % 3) * 130 + 3, y: Double(k / 3) * 100), end: 0)
            try root.addSublayer(shape)
            shapes.append(shape)
        }
        let compositor = Compositor()
        let target = Surface<ARGB8888>(width: 400, height: 200)!
        var perFrame: [UInt64] = []
        for i in 0..<60 {
            var k = 0
            while k < shapes.count { shapes[k].strokeEnd = Double((i * (k + 3)) % 101) / 100; k += 1 }
            if i >= 20 { fbr_malloc_counter_begin() }
            compositor.render(root, at: 0, into: target.view)
            if i >= 20 { perFrame.append(fbr_malloc_counter_end()) }
        }
        XCTAssertNoAllocations(perFrame, "heap allocations per frame")
    }
}
