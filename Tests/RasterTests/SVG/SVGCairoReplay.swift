import CCairo
import Foundation
import Raster

/// Draws an `SVGDrawing` through cairo's C API, an independent rasterizer
/// and stroker: each operation under its own matrix, SVG's arcs converted
/// here to cairo's centre form (SVG 1.1 F.6.5, F.6.6) rather than through
/// Raster's `ellipticalArc`, quadratics as the equivalent cubics, gradients
/// as cairo patterns (whose stops mix straight colours) with the paint's
/// opacity folded into the stops' alpha, group opacity as
/// `cairo_push_group` … `cairo_paint_with_alpha`. Tolerance 0.1 px, as
/// Raster's flattening, unless asked for another.
enum SVGCairoReplay {
    static func render(_ drawing: SVGDrawing, tolerance: Double = FlattenLimits.defaultTolerance) -> Surface<ARGB8888> {
        let surface = cairo_image_surface_create(CAIRO_FORMAT_ARGB32, Int32(drawing.width), Int32(drawing.height))!
        defer { cairo_surface_destroy(surface) }
        let cr = cairo_create(surface)!
        cairo_set_tolerance(cr, tolerance)
        var opacities: [Double] = []
        for op in drawing.operations {
            switch op {
            case let .fill(data, paint, rule, transform):
                draw(data, paint: paint, transform: transform, on: cr) {
                    cairo_set_fill_rule(cr, rule == .nonZero ? CAIRO_FILL_RULE_WINDING : CAIRO_FILL_RULE_EVEN_ODD)
                    cairo_fill(cr)
                }
            case let .stroke(data, paint, style, transform):
                draw(data, paint: paint, transform: transform, on: cr) {
                    cairo_set_line_width(cr, style.width)
                    cairo_set_line_cap(cr, [LineCap.butt: CAIRO_LINE_CAP_BUTT, .round: CAIRO_LINE_CAP_ROUND, .square: CAIRO_LINE_CAP_SQUARE][style.cap]!)
                    cairo_set_line_join(cr, [LineJoin.miter: CAIRO_LINE_JOIN_MITER, .round: CAIRO_LINE_JOIN_ROUND, .bevel: CAIRO_LINE_JOIN_BEVEL][style.join]!)
                    cairo_set_miter_limit(cr, style.miterLimit)
                    cairo_set_dash(cr, style.dash, Int32(style.dash.count), style.dashOffset)
                    cairo_stroke(cr)
                }
            case .beginGroup(let opacity):
                cairo_push_group(cr)
                opacities.append(opacity)
            case .endGroup:
                cairo_pop_group_to_source(cr)
                cairo_paint_with_alpha(cr, opacities.removeLast())
            }
        }
        cairo_destroy(cr)
        cairo_surface_flush(surface)
        let out = Surface<ARGB8888>(width: drawing.width, height: drawing.height)!
        let data = cairo_image_surface_get_data(surface)!
        let stride = Int(cairo_image_surface_get_stride(surface))
        for y in 0..<drawing.height {
            for x in 0..<drawing.width {
                out.view[x, y] = UnsafeRawPointer(data + y * stride + 4 * x).loadUnaligned(as: UInt32.self)
            }
        }
        return out
    }

    /// `data` as cairo's path and `paint` as its source, under
    /// `transform`, for `paintPath` to fill or stroke.
    static func draw(_ data: SVGPathData, paint: SVGPaint, transform t: AffineTransform, on cr: OpaquePointer,
                     paintPath: () -> Void) {
        cairo_save(cr)
        var m = cairo_matrix_t()
        cairo_matrix_init(&m, t.a, t.b, t.c, t.d, t.tx, t.ty)
        cairo_set_matrix(cr, &m)
        append(data, to: cr)
        let pattern = source(paint)
        cairo_set_source(cr, pattern)
        paintPath()
        cairo_pattern_destroy(pattern)
        cairo_restore(cr)
    }

    static func append(_ data: SVGPathData, to cr: OpaquePointer) {
        cairo_new_path(cr)
        var current = PathPoint(0, 0), start = PathPoint(0, 0)
        for s in data.segments {
            switch s {
            case .move(let p):
                cairo_move_to(cr, p.x, p.y); current = p; start = p
            case .line(let p):
                cairo_line_to(cr, p.x, p.y); current = p
            case let .quad(c, p):
                cairo_curve_to(cr, current.x + 2.0 / 3 * (c.x - current.x), current.y + 2.0 / 3 * (c.y - current.y),
                               p.x + 2.0 / 3 * (c.x - p.x), p.y + 2.0 / 3 * (c.y - p.y), p.x, p.y)
                current = p
            case let .cubic(c1, c2, p):
                cairo_curve_to(cr, c1.x, c1.y, c2.x, c2.y, p.x, p.y); current = p
            case let .arc(rx, ry, rotation, large, sweep, p):
                arc(cr, from: current, rx: rx, ry: ry, degrees: rotation, largeArc: large, sweep: sweep, to: p)
                current = p
            case .close:
                cairo_close_path(cr); current = start
            }
        }
    }

    /// SVG's endpoint arc in centre form (SVG 1.1 F.6.5), radii too small
    /// scaled up (F.6.6), drawn as `cairo_arc` on the unit circle under
    /// translate · rotate · scale.
    static func arc(_ cr: OpaquePointer, from p0: PathPoint, rx: Double, ry: Double, degrees: Double, largeArc: Bool, sweep: Bool,
                    to p1: PathPoint) {
        if p0 == p1 { return }
        var rx = abs(rx), ry = abs(ry)
        if rx == 0 || ry == 0 { cairo_line_to(cr, p1.x, p1.y); return }
        let phi = degrees * .pi / 180, cosPhi = cos(phi), sinPhi = sin(phi)
        let hx = (p0.x - p1.x) / 2, hy = (p0.y - p1.y) / 2
        let x1 = cosPhi * hx + sinPhi * hy, y1 = -sinPhi * hx + cosPhi * hy
        let lambda = x1 * x1 / (rx * rx) + y1 * y1 / (ry * ry)
        if lambda > 1 { rx *= lambda.squareRoot(); ry *= lambda.squareRoot() }
        let den = rx * rx * y1 * y1 + ry * ry * x1 * x1
        var k = max(0, (rx * rx * ry * ry - den) / den).squareRoot()
        if largeArc == sweep { k = -k }
        let cxp = k * rx * y1 / ry, cyp = -k * ry * x1 / rx
        let cx = cosPhi * cxp - sinPhi * cyp + (p0.x + p1.x) / 2
        let cy = sinPhi * cxp + cosPhi * cyp + (p0.y + p1.y) / 2
        let theta1 = atan2((y1 - cyp) / ry, (x1 - cxp) / rx)
        var delta = atan2((-y1 - cyp) / ry, (-x1 - cxp) / rx) - theta1
        if sweep && delta < 0 { delta += 2 * .pi }
        if !sweep && delta > 0 { delta -= 2 * .pi }
        cairo_save(cr)
        cairo_translate(cr, cx, cy)
        cairo_rotate(cr, phi)
        cairo_scale(cr, rx, ry)
        if sweep { cairo_arc(cr, 0, 0, 1, theta1, theta1 + delta) } else { cairo_arc_negative(cr, 0, 0, 1, theta1, theta1 + delta) }
        cairo_restore(cr)
    }

    /// A new pattern for `paint` in the current user space (the caller
    /// destroys it).
    static func source(_ paint: SVGPaint) -> OpaquePointer {
        switch paint.kind {
        case .color(let c):
            return cairo_pattern_create_rgba(c.red, c.green, c.blue, paint.opacity)!
        case .gradient(let g):
            let pattern: OpaquePointer
            switch g.geometry {
            case let .linear(x1, y1, x2, y2): pattern = cairo_pattern_create_linear(x1, y1, x2, y2)!
            case let .radial(cx, cy, r, fx, fy): pattern = cairo_pattern_create_radial(fx, fy, 0, cx, cy, r)!
            }
            for s in g.stops {
                cairo_pattern_add_color_stop_rgba(pattern, s.offset, s.color.red, s.color.green, s.color.blue, s.opacity * paint.opacity)
            }
            cairo_pattern_set_extend(pattern, [GradientSpread.pad: CAIRO_EXTEND_PAD, .reflect: CAIRO_EXTEND_REFLECT,
                                               .repeat: CAIRO_EXTEND_REPEAT][g.spread]!)
            // The pattern's matrix maps user space to gradient space.
            var m = cairo_matrix_t()
            cairo_matrix_init(&m, g.transform.a, g.transform.b, g.transform.c, g.transform.d, g.transform.tx, g.transform.ty)
            cairo_matrix_invert(&m)
            cairo_pattern_set_matrix(pattern, &m)
            return pattern
        }
    }
}
