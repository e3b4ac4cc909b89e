import CCairo
@testable import FBRuntime
import Foundation
import Raster
import TestSupport
import XCTest

/// Shape and gradient layers, checked against cairo (an independent
/// rasterizer and stroker) and against analytic gradients; their animated
/// properties against static renders of the interpolated values.
///
/// Stated tolerances: shapes against cairo ≤ 2 levels mean over the pixels
/// either touches, ≤ 48 levels per channel on all but 0.5 % of them and
/// ≤ 96 anywhere (the scan converters differ by up to 1/15 px on shallow
/// edges, the strokers at round joins by the flattening tolerance, and
/// where a translucent stroke crosses itself cairo's sub-row winding and
/// our per-pixel winding resolve the overlap differently); gradients ≤ 3
/// levels against cairo and ≤ 4 against the formulas (the 256-entry colour
/// table and 8-bit rounding).
final class ContentLayerTests: XCTestCase {
    let size = 120

    func render(_ root: Layer, at time: MediaTime = 0, scale: Double = 1) -> Surface<ARGB8888> {
        let target = Surface<ARGB8888>(width: size, height: size)!
        Compositor(scale: scale).render(root, at: time, into: target.view, clearColor: .clear)
        return target
    }

    /// A root covering the target with `child` in it.
    func scene(_ child: Layer) -> Layer {
        let root = Layer(name: "root")
        root.bounds = Rect(x: 0, y: 0, width: Double(size), height: Double(size))
        root.anchorPoint = .zero
        try! root.addSublayer(child)
        return root
    }

    func star(_ cx: Double, _ cy: Double, _ r: Double) -> Path {
        var p = Path()
        for i in 0..<5 {
            let a = -Double.pi / 2 + 2 * Double.pi * Double(i * 2) / 5
            let q = PathPoint(cx + r * cos(a), cy + r * sin(a))
            if i == 0 { p.move(to: q) } else { p.line(to: q) }
        }
        p.close()
        return p
    }

    /// Per-channel differences between two premultiplied images.
    func difference(_ a: PixelView<ARGB8888>, _ b: UnsafePointer<UInt8>, stride rowBytes: Int) -> (max: Int, mean: Double, touched: Int, at: (Int, Int), over48: Int) {
        var maxErr = 0, sum = 0, touched = 0, at = (0, 0), over48 = 0
        for y in 0..<a.height {
            let row = UnsafeRawPointer(b + y * rowBytes).assumingMemoryBound(to: UInt32.self)
            for x in 0..<a.width {
                let p = a.row(y)[x], q = row[x]
                guard p != 0 || q != 0 else { continue }
                touched += 1
                var worst = 0
                for shift in stride(from: 0, to: 32, by: 8) {
                    worst = max(worst, abs(Int((p >> UInt32(shift)) & 0xFF) - Int((q >> UInt32(shift)) & 0xFF)))
                }
                if worst > maxErr { maxErr = worst; at = (x, y) }
                sum += worst
                if worst > 48 { over48 += 1 }
            }
        }
        return (maxErr, touched == 0 ? 0 : Double(sum) / Double(touched), touched, at, over48)
    }

    /// Renders with cairo into a premultiplied ARGB image of the target size.
    func cairo(_ draw: (OpaquePointer) -> Void) -> (surface: OpaquePointer, data: UnsafeMutablePointer<UInt8>, stride: Int) {
        let surface = cairo_image_surface_create(CAIRO_FORMAT_ARGB32, Int32(size), Int32(size))!
        let cr = cairo_create(surface)!
        draw(cr)
        cairo_destroy(cr)
        cairo_surface_flush(surface)
        return (surface, cairo_image_surface_get_data(surface)!, Int(cairo_image_surface_get_stride(surface)))
    }

    // MARK: ShapeLayer

    /// A star filled red and stroked blue (round joins, dashed), in a layer
    /// turned by 30° and scaled by 1.5 — against cairo drawing the same
    /// path through the same matrix.
    func testShapeFillAndDashedStrokeMatchCairo() {
        let shape = ShapeLayer()
        shape.bounds = Rect(x: 0, y: 0, width: 60, height: 60)
        shape.position = Point(x: 60, y: 58)
        shape.transform = Transform3D(rotationAngle: .pi / 6, x: 0, y: 0, z: 1).concatenating(Transform3D(scaleX: 1.5, y: 1.5, z: 1))
        shape.path = star(30, 30, 26)
        shape.fillColor = Color(red: 0.9, green: 0.1, blue: 0.1)
        shape.fillRule = .evenOdd
        shape.strokeColor = Color(red: 0.1, green: 0.2, blue: 0.9, alpha: 0.8)
        shape.lineWidth = 4
        shape.lineJoin = .round
        shape.lineCap = .round
        shape.lineDashPattern = [14, 7]
        shape.lineDashPhase = 3
        let ours = render(scene(shape))
        // The layer's map: position + R·S about the anchor (30, 30).
        let m = AffineTransform(translationX: -30, y: -30)
            .concatenating(AffineTransform(scaleX: 1.5, y: 1.5))
            .concatenating(AffineTransform(rotationAngle: .pi / 6))
            .concatenating(AffineTransform(translationX: 60, y: 58))
        let theirs = cairo { cr in
            var matrix = cairo_matrix_t(xx: m.a, yx: m.b, xy: m.c, yy: m.d, x0: m.tx, y0: m.ty)
            cairo_set_matrix(cr, &matrix)
            cairo_set_tolerance(cr, 0.1)
            Cairo.append(star(30, 30, 26), transform: .identity, to: cr)
            cairo_set_fill_rule(cr, CAIRO_FILL_RULE_EVEN_ODD)
            cairo_set_source_rgba(cr, 0.9, 0.1, 0.1, 1)
            cairo_fill_preserve(cr)
            cairo_set_source_rgba(cr, 0.1, 0.2, 0.9, 0.8)
            cairo_set_line_width(cr, 4)
            cairo_set_line_join(cr, CAIRO_LINE_JOIN_ROUND)
            cairo_set_line_cap(cr, CAIRO_LINE_CAP_ROUND)
            var dash: [Double] = [14, 7]
            cairo_set_dash(cr, &dash, 2, 3)
            cairo_stroke(cr)
        }
        defer { cairo_surface_destroy(theirs.surface) }
        let d = difference(ours.view, theirs.data, stride: theirs.stride)
        XCTAssertGreaterThan(d.touched, 2000, "the shape drew")
        XCTAssertLessThanOrEqual(d.max, 96, "max \(d.max) at \(d.at) mean \(d.mean)")
        XCTAssertLessThanOrEqual(d.over48, d.touched / 200, "pixels off by more than 48 levels: \(d.over48)")
        XCTAssertLessThanOrEqual(d.mean, 2, "max \(d.max) at \(d.at) mean \(d.mean)")
    }

    /// Scaled up 8×, the path is filled at the display's resolution: an
    /// edge stays one pixel wide (a bitmap scaled up would be 8 wide).
    func testShapeIsSharpWhenScaledUp() {
        let shape = ShapeLayer()
        shape.bounds = Rect(x: 0, y: 0, width: 10, height: 10)
        shape.position = Point(x: 60, y: 60)
        shape.transform = Transform3D(scaleX: 8, y: 8, z: 1)
        var p = Path()
        p.addRect(2.03, 2.03, 6, 6)
        shape.path = p
        shape.fillColor = .white
        let image = render(scene(shape)).view
        let row = image.row(60)
        let partial = (0..<size).filter { let a = row[$0] >> 24; return a != 0 && a != 255 }
        XCTAssertEqual(partial.count, 2, "one partly covered pixel at each vertical edge: \(partial)")
    }

    /// strokeEnd, lineDashPhase and the path animate: mid-animation frames
    /// equal static frames of the interpolated values.
    func testAnimatedShapePropertiesMatchStaticFrames() {
        func make(_ configure: (ShapeLayer) -> Void) -> ShapeLayer {
            let s = ShapeLayer()
            s.bounds = Rect(x: 0, y: 0, width: 100, height: 100)
            s.anchorPoint = .zero
            s.position = Point(x: 10, y: 10)
            s.path = star(50, 50, 40)
            s.fillColor = nil
            s.strokeColor = .white
            s.lineWidth = 3
            s.lineDashPattern = [10, 5]
            configure(s)
            return s
        }
        // strokeEnd 0 → 1 over 1 s, linear: at 0.3 s it is 0.3.
        let animated = make { _ in }
        animated.add(BasicAnimation(key: .custom("strokeEnd"), from: .scalar(0), to: .scalar(1), duration: 1), forKey: "end", at: 0)
        let expected = make { $0.strokeEnd = 0.3 }
        XCTAssertEqual(pixelChecksum(render(scene(animated), at: 0.3).view), pixelChecksum(render(scene(expected)).view))
        // Marching ants: the dash phase 0 → 15.
        let ants = make { _ in }
        ants.add(BasicAnimation(key: .custom("lineDashPhase"), from: .scalar(0), to: .scalar(15), duration: 1), forKey: "ants", at: 0)
        let phase6 = make { $0.lineDashPhase = 6 }
        let a = render(scene(ants), at: 0.4), b = render(scene(phase6))
        XCTAssertEqual(pixelChecksum(a.view), pixelChecksum(b.view))
        XCTAssertNotEqual(pixelChecksum(a.view), pixelChecksum(render(scene(ants), at: 0.1).view), "the ants march")
        // A star morphing into a larger, turned one: point by point.
        let from = star(50, 50, 20), to = star(45, 55, 40)
        let morph = make { $0.lineDashPattern = nil }
        morph.add(BasicAnimation(key: .custom("path"), from: .path(from), to: .path(to), duration: 2), forKey: "morph", at: 0)
        var halfway = Path()
        for (i, (p, q)) in zip(from.points, to.points).enumerated() {
            let r = PathPoint((p.x + q.x) / 2, (p.y + q.y) / 2)
            if i == 0 { halfway.move(to: r) } else { halfway.line(to: r) }
        }
        halfway.close()
        let expectedMorph = make { $0.lineDashPattern = nil; $0.path = halfway }
        XCTAssertEqual(pixelChecksum(render(scene(morph), at: 1).view), pixelChecksum(render(scene(expectedMorph)).view))
        // The wrong kind of value for a key is ignored, not drawn.
        let wrong = make { _ in }
        wrong.add(BasicAnimation(key: .custom("lineWidth"), from: .color(.black), to: .color(.white), duration: 1), forKey: "w", at: 0)
        XCTAssertEqual(pixelChecksum(render(scene(wrong), at: 0.5).view), pixelChecksum(render(scene(make { _ in })).view))
        // The presentation value of a custom key is readable (mid-animation).
        XCTAssertEqual(animated.presentationValue(for: .custom("strokeEnd"), at: 0.25), .scalar(0.25))
    }

    /// A layer that only moves reuses its stroke outline.
    func testStrokeOutlineIsReusedWhileOnlyPositionChanges() {
        let shape = ShapeLayer()
        shape.bounds = Rect(x: 0, y: 0, width: 50, height: 50)
        shape.path = star(25, 25, 20)
        shape.strokeColor = .white
        let root = scene(shape)
        for x in 0..<5 {
            shape.position = Point(x: 40 + Double(x) * 3, y: 50)
            _ = render(root)
        }
        XCTAssertEqual(shape.strokeCache.misses, 1)
        shape.lineWidth = 2
        _ = render(root)
        XCTAssertEqual(shape.strokeCache.misses, 2)
    }

    func testShapeBadInputDrawsNothingOrClamps() {
        let shape = ShapeLayer()
        shape.bounds = Rect(x: 0, y: 0, width: 50, height: 50)
        shape.position = Point(x: 60, y: 60)
        var p = Path()
        p.move(to: PathPoint(.nan, 3)); p.line(to: PathPoint(1e300, -1e300)); p.line(to: PathPoint(.infinity, 4)); p.close()
        shape.path = p
        shape.strokeColor = .white
        shape.lineWidth = .nan
        shape.lineDashPattern = [-1, .nan]
        shape.strokeStart = .nan
        _ = render(scene(shape))
        shape.lineWidth = 1e12
        shape.path = star(25, 25, 20)
        _ = render(scene(shape))
        shape.path = Path()
        XCTAssertEqual(pixelChecksum(render(scene(shape)).view), pixelChecksum(render(scene(Layer())).view))
    }

    // MARK: GradientLayer

    func gradientLayer(_ type: GradientLayer.Kind, _ colors: [Color]) -> GradientLayer {
        let g = GradientLayer()
        g.type = type
        g.colors = colors
        g.bounds = Rect(x: 0, y: 0, width: 100, height: 80)
        g.anchorPoint = .zero
        g.position = Point(x: 10, y: 20)
        return g
    }

    /// An axial gradient against cairo's linear gradient over the same
    /// rectangle.
    func testAxialGradientMatchesCairo() {
        // Opaque stops (translucent ones: the next test).
        let g = gradientLayer(.axial, [Color(red: 1, green: 0.2, blue: 0), Color(red: 0, green: 0.3, blue: 1), .white])
        g.locations = [0, 0.3, 1]
        g.startPoint = Point(x: 0.1, y: 0.2)
        g.endPoint = Point(x: 0.9, y: 1)
        let ours = render(scene(g))
        let theirs = cairo { cr in
            let pattern = cairo_pattern_create_linear(10 + 0.1 * 100, 20 + 0.2 * 80, 10 + 0.9 * 100, 20 + 1 * 80)!
            cairo_pattern_add_color_stop_rgba(pattern, 0, 1, 0.2, 0, 1)
            cairo_pattern_add_color_stop_rgba(pattern, 0.3, 0, 0.3, 1, 1)
            cairo_pattern_add_color_stop_rgba(pattern, 1, 1, 1, 1, 1)
            cairo_set_source(cr, pattern)
            cairo_rectangle(cr, 10, 20, 100, 80)
            cairo_fill(cr)
            cairo_pattern_destroy(pattern)
        }
        defer { cairo_surface_destroy(theirs.surface) }
        let d = difference(ours.view, theirs.data, stride: theirs.stride)
        XCTAssertEqual(d.touched, 100 * 80)
        XCTAssertLessThanOrEqual(d.max, 3, "max \(d.max) at \(d.at) mean \(d.mean)")
    }

    /// Issue 22: translucent stops mix straight colour and alpha, as cairo
    /// (and Core Graphics, and SVG) do. White to black at 20 % opacity, over
    /// black: half-way, mid-grey at 60 % is 77 (cairo agrees within 2 on
    /// every pixel); mixing premultiplied colours, as before, gave 128
    /// there, and is still there as `.premultiplied`. A transparent stop
    /// keeps its hue: red to transparent blue fades through purple, not
    /// through a darker red.
    func testTranslucentGradientStopsMixUnpremultipliedAsCairo() {
        func check(_ stops: [(Double, Double, Double, Double)], midpoint: UInt8?) {
            let g = gradientLayer(.axial, stops.map { Color(red: $0.0, green: $0.1, blue: $0.2, alpha: $0.3) })
            g.startPoint = Point(x: 0, y: 0.5)
            g.endPoint = Point(x: 1, y: 0.5)
            let root = scene(g)
            root.backgroundColor = .black
            let ours = render(root)
            let theirs = cairo { cr in
                cairo_set_source_rgb(cr, 0, 0, 0)
                cairo_paint(cr)
                let pattern = cairo_pattern_create_linear(10, 0, 110, 0)!
                for (i, c) in stops.enumerated() {
                    cairo_pattern_add_color_stop_rgba(pattern, Double(i) / Double(stops.count - 1), c.0, c.1, c.2, c.3)
                }
                cairo_set_source(cr, pattern)
                cairo_rectangle(cr, 10, 20, 100, 80)
                cairo_fill(cr)
                cairo_pattern_destroy(pattern)
            }
            defer { cairo_surface_destroy(theirs.surface) }
            let d = difference(ours.view, theirs.data, stride: theirs.stride)
            XCTAssertLessThanOrEqual(d.max, 2, "max \(d.max) at \(d.at) mean \(d.mean)")
            if let midpoint {
                // The pixel centred half-way (x = 59.5 + 0.5 of 10 … 110).
                XCTAssertEqual(Double(ours.view.color(x: 59, y: 50).red), Double(midpoint), accuracy: 2)
                g.interpolation = .premultiplied
                let premultiplied = render(root)
                XCTAssertEqual(Double(premultiplied.view.color(x: 59, y: 50).red), 128, accuracy: 2)
            }
        }
        check([(1, 1, 1, 1), (0, 0, 0, 0.2)], midpoint: 77)
        check([(1, 0, 0, 1), (0, 0, 1, 0)], midpoint: nil)
        check([(0.2, 0.8, 0.4, 0.5), (1, 0.5, 0, 0.1), (0, 0, 1, 0.9)], midpoint: nil)
    }

    /// Radial (an ellipse) and conic gradients against the formulas,
    /// evaluated here per pixel centre.
    func testRadialAndConicGradientsMatchFormulas() {
        let c0 = Color(red: 1, green: 1, blue: 0), c1 = Color(red: 0, green: 0, blue: 1)
        func expected(_ t: Double) -> UInt32 {
            let t = min(max(t, 0), 1)
            return Color(red: c0.red + (c1.red - c0.red) * t, green: c0.green + (c1.green - c0.green) * t,
                         blue: c0.blue + (c1.blue - c0.blue) * t).premultiplied.argb
        }
        for type in [GradientLayer.Kind.radial, .conic] {
            let g = gradientLayer(type, [c0, c1])
            g.startPoint = Point(x: 0.5, y: 0.5)
            g.endPoint = Point(x: 1, y: 0.75)        // half axes 50 × 20
            let image = render(scene(g)).view
            var worst = 0
            for y in 22..<98 {
                for x in 12..<108 {
                    let px = Double(x) + 0.5 - 60, py = Double(y) + 0.5 - 60   // from the centre
                    let t: Double
                    if type == .radial {
                        t = ((px / 50) * (px / 50) + (py / 20) * (py / 20)).squareRoot()
                    } else {
                        let start = atan2(20.0, 50.0)
                        var a = (atan2(py, px) - start) / (2 * .pi)
                        a -= floor(a)
                        if a < 0.02 || a > 0.98 || abs(px) + abs(py) < 3 { continue }   // the seam and the centre
                        t = a
                    }
                    let e = expected(t), p = image.row(y)[x]
                    for s in stride(from: 0, to: 32, by: 8) {
                        worst = max(worst, abs(Int((e >> UInt32(s)) & 0xFF) - Int((p >> UInt32(s)) & 0xFF)))
                    }
                }
            }
            XCTAssertLessThanOrEqual(worst, 4, "\(type)")
        }
    }

    /// Colours animate colour by colour; the shaded image is cached while
    /// nothing changes and rebuilt when something does.
    func testGradientAnimationAndCache() {
        let a = [Color(red: 1, green: 0, blue: 0), Color(red: 0, green: 0, blue: 1)]
        let b = [Color(red: 0, green: 1, blue: 0), Color(red: 1, green: 1, blue: 1)]
        let g = gradientLayer(.axial, a)
        g.add(BasicAnimation(key: .custom("colors"), from: .colors(a), to: .colors(b), duration: 1), forKey: "c", at: 0)
        let mid = gradientLayer(.axial, zip(a, b).map { Color(red: ($0.red + $1.red) / 2, green: ($0.green + $1.green) / 2,
                                                               blue: ($0.blue + $1.blue) / 2) })
        XCTAssertEqual(pixelChecksum(render(scene(g), at: 0.5).view), pixelChecksum(render(scene(mid)).view))
        let still = gradientLayer(.axial, a)
        let root = scene(still)
        for x in 0..<4 { still.position.x = Double(x); _ = render(root) }
        XCTAssertEqual(still.imageCache.misses, 1, "moving the layer reuses the image")
        still.endPoint = Point(x: 1, y: 1)
        _ = render(root)
        XCTAssertEqual(still.imageCache.misses, 2)
    }

    func testGradientBadInput() {
        let g = gradientLayer(.axial, [])
        XCTAssertEqual(pixelChecksum(render(scene(g)).view), pixelChecksum(render(scene(Layer())).view), "no colours: nothing")
        g.colors = [.white, .black]
        g.locations = [0.5]                                   // wrong count: ignored (even spacing)
        let even = gradientLayer(.axial, [.white, .black])
        XCTAssertEqual(pixelChecksum(render(scene(g)).view), pixelChecksum(render(scene(even)).view))
        g.startPoint = Point(x: .nan, y: 0)
        _ = render(scene(g))
        g.type = .radial
        g.startPoint = Point(x: 0.5, y: 0.5); g.endPoint = Point(x: 0.5, y: 0.9)   // a zero half axis: nothing
        _ = render(scene(g))
        g.bounds = Rect(x: 0, y: 0, width: 100_000, height: 50)                    // image capped at 2048 a side
        _ = render(scene(g))
        XCTAssertLessThanOrEqual(g.imageCache.lastSize.width, GradientLayer.maximumImageSide)
    }
}

/// Content layers' properties animate implicitly in a displayed tree.
final class ContentLayerImplicitAnimationTests: XCTestCase {
    func testStrokeEndAndColorsAnimateImplicitly() throws {
        let saved = AppRunLoop.current
        defer { AppRunLoop.current = saved }
        let clock = ManualClock(now: 0)
        let loop = AppRunLoop(clock: clock)
        AppRunLoop.current = loop
        let root = Layer(name: "root")
        let shape = ShapeLayer(), gradient = GradientLayer()
        gradient.colors = [.black, .white]
        try root.addSublayer(shape)
        try root.addSublayer(gradient)
        root.isDisplayRoot = true
        loop.runTurn {
            Transaction.animationDuration = 1
            Transaction.animationTimingFunction = .linear
            shape.strokeEnd = 0.2
            gradient.colors = [.white, .black]
        }
        XCTAssertEqual(shape.strokeEnd, 0.2)
        clock.advance(by: 0.5)
        XCTAssertEqual(shape.presentationValue(for: .custom("strokeEnd"), at: clock.now), .scalar(0.6))
        let gray = Color(red: 0.5, green: 0.5, blue: 0.5)
        XCTAssertEqual(gradient.presentationValue(for: .custom("colors"), at: clock.now), .colors([gray, gray]))
        loop.runTurn { Transaction.disableActions = true; shape.lineWidth = 5 }
        XCTAssertFalse(shape.animations.contains { $0.key == "lineWidth" })
    }
}
