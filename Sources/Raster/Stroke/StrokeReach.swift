/// How far a stroke's outline can reach from its path.
extension StrokeStyle {
    /// The farthest the outline of this stroke of `path` can lie from the
    /// path's points, as a multiple of half the width (so the outline lies
    /// inside the path's control-point box widened by `reach × width / 2`).
    ///
    /// 1 for butt or round caps and round or bevel joins; √2 with square
    /// caps; with miter joins, the longest miter the path's corners can
    /// make: `1 / cos(turn / 2)` for a corner turning by `turn`. Between two
    /// lines the turn is exact, and a miter past `miterLimit` is beveled.
    /// Where a curve meets another segment, the stroker joins the curve's
    /// last (or first) flattened chord, whose direction can stray from the
    /// curve's end tangent by as much as the tangent sweeps along the curve
    /// (bounded by the turning of its hodograph's control polygon), so the
    /// miter there counts up to the limit once the bound reaches it. Inside
    /// a curve the stroker puts no joins. A polyline's damage is so its
    /// real miters, not `miterLimit` half widths.
    ///
    /// - Complexity: O(n) in the path's points; no allocation.
    public func reach(for path: Path) -> Double {
        let capReach = cap == .square ? 2.0.squareRoot() : 1
        guard join == .miter else { return capReach }
        let limit = miterLimit.isNaN ? 1 : Swift.max(1, miterLimit)
        var worst = 1.0
        let verbs = path.verbs, points = path.points
        var p = 0
        var current = PathPoint.zero, subpathStart = PathPoint.zero
        // The open subpath's first segment, and the last one: tangents and
        // sweeps (turns), for the joins between segments.
        var first: Segment?, last: Segment?
        var v = 0
        while v < verbs.count {
            let verb = verbs[v]
            v += 1
            var segment: Segment?
            var to = current
            switch verb {
            case .move:
                current = points[p]; subpathStart = current; p += 1
                first = nil; last = nil
                continue
            case .line:
                to = points[p]; p += 1
                segment = Segment.line(current, to)
            case .quad:
                let c = points[p]; to = points[p + 1]; p += 2
                segment = Segment.curve(current, c, c, to, quadratic: true)
            case .cubic:
                let c1 = points[p], c2 = points[p + 1]; to = points[p + 2]; p += 3
                segment = Segment.curve(current, c1, c2, to, quadratic: false)
            case .close:
                if let closing = Segment.line(current, subpathStart) {
                    worst = Swift.max(worst, StrokeStyle.joinReach(last, closing, limit: limit))
                    last = closing
                }
                worst = Swift.max(worst, StrokeStyle.joinReach(last, first, limit: limit))
                current = subpathStart
                first = nil; last = nil
                continue
            }
            current = to
            guard let segment else { continue }      // a zero-length segment
            if first == nil { first = segment } else { worst = Swift.max(worst, StrokeStyle.joinReach(last, segment, limit: limit)) }
            last = segment
        }
        return Swift.max(worst, capReach)
    }

    /// A segment's end tangents and how far its tangent can turn along it
    /// (turns; 0 for a line).
    struct Segment {
        var start: PathPoint, end: PathPoint
        var sweep: Double

        static func line(_ a: PathPoint, _ b: PathPoint) -> Segment? {
            let d = PathPoint(b.x - a.x, b.y - a.y)
            guard d.x != 0 || d.y != 0 else { return nil }
            return Segment(start: d, end: d, sweep: 0)
        }

        /// A quadratic (`c1 == c2`, `quadratic`) or cubic Bézier segment.
        static func curve(_ p0: PathPoint, _ c1: PathPoint, _ c2: PathPoint, _ p3: PathPoint, quadratic: Bool) -> Segment? {
            // The hodograph's control points (up to a factor).
            let v0 = PathPoint(c1.x - p0.x, c1.y - p0.y)
            let v1 = quadratic ? PathPoint(p3.x - c1.x, p3.y - c1.y) : PathPoint(c2.x - c1.x, c2.y - c1.y)
            let v2 = PathPoint(p3.x - c2.x, p3.y - c2.y)
            func nonzero(_ v: PathPoint) -> Bool { v.x != 0 || v.y != 0 }
            // The end tangents: the first control vector that is not zero.
            let start = nonzero(v0) ? v0 : (nonzero(v1) ? v1 : v2)
            let end = nonzero(v2) ? v2 : (nonzero(v1) ? v1 : v0)
            guard nonzero(start) else { return nil }
            let sweep = quadratic ? StrokeStyle.turn(v0, v1)
                : StrokeStyle.turn(nonzero(v0) ? v0 : v1, v1) + StrokeStyle.turn(v1, nonzero(v2) ? v2 : v1)
            return Segment(start: start, end: end, sweep: Swift.min(sweep, 0.5))
        }
    }

    /// The angle between two directions, in turns (0…0.5); 0 when either
    /// is zero.
    static func turn(_ a: PathPoint, _ b: PathPoint) -> Double {
        let cross = a.x * b.y - a.y * b.x, dot = a.x * b.x + a.y * b.y
        let t = FloatMath.atan2Turns(cross, dot)
        return t.isFinite ? Swift.abs(t) : 0.5
    }

    /// The miter length, in half widths, of a corner turning by `turn`
    /// turns (infinite at half a turn).
    static func miter(turn: Double) -> Double {
        let c = FloatMath.sinCos(FloatMath.pi * Swift.min(turn, 0.5)).cos    // cos(turn / 2)
        return c > 0 ? 1 / c : .infinity
    }

    /// The reach of the join from `a`'s end into `b`'s start.
    static func joinReach(_ a: Segment?, _ b: Segment?, limit: Double) -> Double {
        guard let a, let b else { return 1 }
        let turn = StrokeStyle.turn(a.end, b.start)
        guard turn.isFinite else { return limit }
        if a.sweep == 0 && b.sweep == 0 {
            let m = miter(turn: turn)
            return m <= limit ? m : 1                   // exact: beveled past the limit
        }
        // Chords of the curves turn by up to their sweeps besides.
        return Swift.min(miter(turn: turn + a.sweep + b.sweep), limit)
    }
}
