import CCairo
import Raster
import TestSupport
import XCTest

/// Paths filled and stroked with a paint, and strokes with an operator and
/// a global alpha, through the Raster API (issue 22): the same pixels as
/// the long way round (the path's coverage mask, the paint shaded over the
/// whole box, a masked composite) bit for bit, for both kernel families,
/// several operators and alphas; and against cairo drawing the same
/// gradient-filled path and translucent self-crossing stroke.
final class PathPaintTests: XCTestCase {
    static let size = 96

    /// A background with every channel varying, so operators show.
    func backdrop() -> Surface<ARGB8888> {
        let s = Surface<ARGB8888>(width: PathPaintTests.size, height: PathPaintTests.size)!
        for y in 0..<s.height {
            for x in 0..<s.width {
                let a = UInt32(128 + (x + y) % 128)
                let r = UInt32(x * 255 / s.width) * a / 255, g = UInt32(y * 255 / s.height) * a / 255, b = a / 3
                s.view[x, y] = a << 24 | r << 16 | g << 8 | b
            }
        }
        return s
    }

    /// A five-pointed star (crossing edges) and a circle, in one path;
    /// with `star` false, a pentagon (no edges crossing inside a pixel,
    /// where cairo's and our coverage models part: see PathCairoTests).
    func shape(star: Bool = true) -> Path {
        var p = Path()
        for k in 0..<5 {
            let angle = Double(k) * (star ? 4 : 2) * Double.pi / 5 - Double.pi / 2
            let q = PathPoint(x: 40 + 34 * cos(angle), y: 42 + 34 * sin(angle))
            if k == 0 { p.move(to: q) } else { p.line(to: q) }
        }
        p.close()
        p.append(Path(ellipseIn: 52.3, 50.6, 38, 38))
        return p
    }

    /// The image paint's picture. A stored value: an `ImagePaint` holds a
    /// view of its pixels, not the surface, so the surface must outlive it.
    nonisolated(unsafe) static let picture: Surface<ARGB8888> = {
        let picture = Surface<ARGB8888>(width: 16, height: 16)!
        for y in 0..<16 { for x in 0..<16 { picture.view[x, y] = (x + y) % 2 == 0 ? 0xFFE0_4020 : 0x8000_2040 } }
        return picture
    }()

    func paints() -> [(String, any Paint)] {
        let stops = [GradientStop(red: 1, green: 0.2, blue: 0.1, alpha: 0.9, at: 0),
                     GradientStop(red: 0.1, green: 0.3, blue: 1, alpha: 0.4, at: 1)]
        let picture = PathPaintTests.picture
        let turned = AffineTransform(a: 3 * cos(0.4), b: 3 * sin(0.4), c: -3 * sin(0.4), d: 3 * cos(0.4), tx: 30, ty: 5)
        return [("linear", GradientPaint.linear(x0: 10, y0: 10, x1: 90, y1: 80, stops: stops)),
                ("radial", GradientPaint.radial(x0: 48, y0: 48, r0: 4, x1: 50, y1: 46, r1: 50, stops: stops, spread: .reflect)),
                ("image", ImagePaint(image: picture.view, transform: turned, filter: .bilinear, edge: .clamp))]
    }

    /// The long way: coverage into a mask, the paint shaded over the whole
    /// target, composited through the mask.
    func reference<P: Paint>(_ path: Path, paint: P, rule: FillRule, op: BlendOperator, alpha: UInt8, family: KernelFamily,
                             onto target: Surface<ARGB8888>) {
        let n = PathPaintTests.size
        let mask = Surface<A8>(width: n, height: n)!
        PathRasterizer().fill(path, rule: rule, into: mask.view)
        let shaded = Surface<ARGB8888>(width: n, height: n)!
        Canvas(shaded.view, family: family).fill(shaded.view.bounds, paint: paint, operator: .src)
        Canvas(target.view, family: family).draw(shaded.view, x: 0, y: 0, mask: mask.view, operator: op, alpha: alpha,
                                                  opaque: paint.isOpaque)
    }

    func firstDifference(_ a: Surface<ARGB8888>, _ b: Surface<ARGB8888>, tolerance: Int = 0) -> String? {
        for y in 0..<a.height {
            for x in 0..<a.width where absDiff(a.view[x, y], b.view[x, y]) > tolerance {
                return "(\(x), \(y)): 0x\(String(a.view[x, y], radix: 16)) vs 0x\(String(b.view[x, y], radix: 16))"
            }
        }
        return nil
    }

    func testAPathFilledWithAPaintEqualsTheMaskedCompositeOfThePaint() {
        func check<P: Paint>(_ name: String, _ paint: P) {
            for family in [KernelFamily.simd, .reference] {
                for op in [BlendOperator.srcOver, .src, .srcIn, .xor, .multiply, .clear] {
                    for alpha: UInt8 in [255, 140] {
                        for rule in [FillRule.nonZero, .evenOdd] {
                            let ours = backdrop(), theirs = backdrop()
                            Canvas(ours.view, family: family).fill(shape(), paint: paint, rule: rule, operator: op, alpha: alpha)
                            reference(shape(), paint: paint, rule: rule, op: op, alpha: alpha, family: family, onto: theirs)
                            // Affine image sampling steps in 16.16 from
                            // each run's first pixel (both families, so
                            // they agree), so where a run starts can move
                            // the last bit of a sample.
                            let tolerance = paint is ImagePaint ? 1 : 0
                            if let d = firstDifference(ours, theirs, tolerance: tolerance) {
                                XCTFail("\(name), \(family), \(op), alpha \(alpha), \(rule): differs at \(d)")
                            }
                        }
                    }
                }
            }
        }
        for (name, paint) in paints() {
            switch paint {
            case let g as GradientPaint: check(name, g)
            case let i as ImagePaint: check(name, i)
            default: XCTFail("unexpected paint")
            }
        }
    }

    func testPixelsThePathDoesNotCoverAreLeftAloneWhateverTheOperator() {
        let paint = GradientPaint.linear(x0: 0, y0: 0, x1: 96, y1: 0,
                                         stops: [GradientStop(red: 1, green: 1, blue: 1, alpha: 1, at: 0),
                                                 GradientStop(red: 0, green: 0, blue: 0, alpha: 1, at: 1)])
        for op in [BlendOperator.src, .clear, .srcIn, .dstIn, .dstOut] {
            let s = backdrop(), before = backdrop()
            Canvas(s.view).fill(Path(rect: 20, 20, 30, 30), paint: paint, operator: op)
            for y in 0..<96 {
                for x in 0..<96 where !(20..<50).contains(x) || !(20..<50).contains(y) {
                    XCTAssertEqual(s.view[x, y], before.view[x, y], "\(op) at (\(x), \(y))")
                    if s.view[x, y] != before.view[x, y] { return }
                }
            }
        }
    }

    /// A stroke crossing itself at 50 % alpha is one coverage: the crossing
    /// is as dark as an arm (drawn as two strokes, it is darker); the
    /// whole stroke equals its outline through the mask reference, and is
    /// within cairo's antialiasing of cairo's stroke at the same alpha.
    func testATranslucentStrokeCrossingItselfIsOneCoverage() {
        var x = Path()
        x.move(to: PathPoint(x: 10, y: 10)); x.line(to: PathPoint(x: 86, y: 86))
        x.move(to: PathPoint(x: 86, y: 10)); x.line(to: PathPoint(x: 10, y: 86))
        let style = StrokeStyle(width: 8, cap: .butt, join: .miter)
        let red = PremultipliedColor(red: 1, green: 0, blue: 0, alpha: 1)
        let s = Surface<ARGB8888>(width: 96, height: 96)!
        Canvas(s.view).fill(s.view.bounds, color: PremultipliedColor(argb: 0xFFFF_FFFF))
        Canvas(s.view).stroke(x, color: red, style: style, alpha: 128)
        let centre = s.view[48, 48], arm = s.view[24, 24]
        XCTAssertEqual(centre, arm, "the crossing is one coverage")
        XCTAssertEqual(centre, 0xFFFF_7F7F)
        // The outline through the mask, the same operator and alpha.
        let mask = Surface<A8>(width: 96, height: 96)!
        PathRasterizer().fill(x.stroked(style), rule: .nonZero, into: mask.view)
        let t = Surface<ARGB8888>(width: 96, height: 96)!
        Canvas(t.view).fill(t.view.bounds, color: PremultipliedColor(argb: 0xFFFF_FFFF))
        Canvas(t.view).fill(mask: mask.view, x: 0, y: 0, color: red, alpha: 128)
        XCTAssertNil(firstDifference(s, t))
        // cairo: the same stroke at alpha 0.5 over white.
        let c = cairoImage { cr in
            cairo_set_source_rgb(cr, 1, 1, 1); cairo_paint(cr)
            cairo_set_source_rgba(cr, 1, 0, 0, 128.0 / 255)
            cairo_set_line_width(cr, 8)
            cairo_set_line_cap(cr, CAIRO_LINE_CAP_BUTT)
            Cairo.append(x, transform: .identity, to: cr)
            cairo_stroke(cr)
        }
        let e = compareWithCairo(s, c)
        XCTAssertLessThanOrEqual(e.max, 24, "cairo: max")
        XCTAssertLessThanOrEqual(e.mean, 0.5, "cairo: mean over all pixels")
    }

    /// The gradient-filled path against cairo's: the same linear gradient
    /// with translucent stops (both mix unpremultiplied colours) over an
    /// opaque background, within antialiasing at the edges.
    func testAGradientFilledPathMatchesCairo() {
        let s = Surface<ARGB8888>(width: 96, height: 96)!
        Canvas(s.view).fill(s.view.bounds, color: PremultipliedColor(argb: 0xFF20_3040))
        let paint = GradientPaint.linear(x0: 10, y0: 10, x1: 90, y1: 80,
                                         stops: [GradientStop(red: 1, green: 0.2, blue: 0.1, alpha: 0.9, at: 0),
                                                 GradientStop(red: 0.1, green: 0.3, blue: 1, alpha: 0.4, at: 1)])
        Canvas(s.view).fill(shape(star: false), paint: paint, rule: .evenOdd)
        let c = cairoImage { cr in
            cairo_set_source_rgb(cr, 0x20 / 255.0, 0x30 / 255.0, 0x40 / 255.0); cairo_paint(cr)
            let g = cairo_pattern_create_linear(10, 10, 90, 80)!
            cairo_pattern_add_color_stop_rgba(g, 0, 1, 0.2, 0.1, 0.9)
            cairo_pattern_add_color_stop_rgba(g, 1, 0.1, 0.3, 1, 0.4)
            cairo_set_source(cr, g)
            cairo_set_fill_rule(cr, CAIRO_FILL_RULE_EVEN_ODD)
            Cairo.append(shape(star: false), transform: .identity, to: cr)
            cairo_fill(cr)
            cairo_pattern_destroy(g)
        }
        let e = compareWithCairo(s, c)
        // Edges: coverage within cairo's 1/15-row sampling and curve
        // flattening (PathCairoTests: 40 levels); inside: the gradient
        // within 2 levels.
        XCTAssertLessThanOrEqual(e.max, 40, "max")
        XCTAssertLessThanOrEqual(e.interiorMax, 2, "inside the shape")
        XCTAssertLessThanOrEqual(e.mean, 0.6, "mean")
    }

    // MARK: cairo

    func cairoImage(_ draw: (OpaquePointer) -> Void) -> [UInt32] {
        let n = Int32(PathPaintTests.size)
        let surface = cairo_image_surface_create(CAIRO_FORMAT_ARGB32, n, n)!
        defer { cairo_surface_destroy(surface) }
        let cr = cairo_create(surface)!
        draw(cr)
        cairo_destroy(cr)
        cairo_surface_flush(surface)
        let data = cairo_image_surface_get_data(surface)!
        let stride = Int(cairo_image_surface_get_stride(surface))
        var out = [UInt32](repeating: 0, count: Int(n * n))
        data.withMemoryRebound(to: UInt8.self, capacity: stride * Int(n)) { bytes in
            for y in 0..<Int(n) {
                for x in 0..<Int(n) {
                    out[y * Int(n) + x] = UnsafeRawPointer(bytes + y * stride + 4 * x).loadUnaligned(as: UInt32.self)
                }
            }
        }
        return out
    }

    /// Largest channel difference, the largest where no neighbour differs
    /// in coverage (pixels whose 3×3 neighbourhood in both images is equal
    /// to the centre's channel difference within 8: inside the shape), and
    /// the mean over all channels and pixels.
    func compareWithCairo(_ ours: Surface<ARGB8888>, _ cairo: [UInt32]) -> (max: Int, interiorMax: Int, mean: Double) {
        let n = PathPaintTests.size
        func diff(_ x: Int, _ y: Int) -> Int {
            let a = ours.view[x, y], b = cairo[y * n + x]
            var d = 0
            for shift in stride(from: 0, through: 24, by: 8) {
                d = max(d, abs(Int((a >> UInt32(shift)) & 0xFF) - Int((b >> UInt32(shift)) & 0xFF)))
            }
            return d
        }
        var worst = 0, interior = 0, sum = 0
        for y in 0..<n {
            for x in 0..<n {
                let d = diff(x, y)
                worst = max(worst, d)
                sum += d
                guard x > 0, y > 0, x < n - 1, y < n - 1 else { continue }
                // Inside: the same pixel value all around in ours.
                var flat = true
                for dy in -1...1 { for dx in -1...1 where absDiff(ours.view[x + dx, y + dy], ours.view[x, y]) > 8 { flat = false } }
                if flat { interior = max(interior, d) }
            }
        }
        return (worst, interior, Double(sum) / Double(n * n))
    }

    func absDiff(_ a: UInt32, _ b: UInt32) -> Int {
        var d = 0
        for shift in stride(from: 0, through: 24, by: 8) {
            d = max(d, abs(Int((a >> UInt32(shift)) & 0xFF) - Int((b >> UInt32(shift)) & 0xFF)))
        }
        return d
    }
}
