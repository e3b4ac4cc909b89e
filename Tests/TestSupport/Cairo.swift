// cairo as a peer: the same Raster path handed to cairo, for coverage
// cross-checks in tests and speed comparisons in benchmarks (host only).
import CCairo
import Raster

public enum Cairo {
    /// Appends `path`, mapped through `t`, to cairo's current path.
    /// Quadratics become the equivalent cubics (cairo has no quads).
    public static func append(_ path: Path, transform t: AffineTransform, to cr: OpaquePointer) {
        path.forEachSegment { seg in
            switch seg {
            case .move(let p): let q = t.apply(p); cairo_move_to(cr, q.x, q.y)
            case .line(_, let p): let q = t.apply(p); cairo_line_to(cr, q.x, q.y)
            case .quad(let p0, let c, let p2):
                let a = t.apply(p0), b = t.apply(c), e = t.apply(p2)
                cairo_curve_to(cr, a.x + 2.0 / 3 * (b.x - a.x), a.y + 2.0 / 3 * (b.y - a.y),
                               e.x + 2.0 / 3 * (b.x - e.x), e.y + 2.0 / 3 * (b.y - e.y), e.x, e.y)
            case .cubic(_, let c1, let c2, let p):
                let a = t.apply(c1), b = t.apply(c2), e = t.apply(p)
                cairo_curve_to(cr, a.x, a.y, b.x, b.y, e.x, e.y)
            case .close: cairo_close_path(cr)
            }
        }
    }
}
