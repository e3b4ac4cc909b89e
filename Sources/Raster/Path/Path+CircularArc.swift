/// A circular arc in a path's coordinate space: what
/// `Path.arc(center:radius:startAngle:endAngle:clockwise:)` adds to an empty
/// path, or `addEllipse` for a circle, read back from the path's points
/// (`Path.circularArc`). Its strokes can be drawn as ring sectors
/// (`AnnularSector`), without flattening the cubics that stand for it.
public struct CircularArc: Equatable, Sendable {
    public var center: PathPoint
    /// Path units, > 0.
    public var radius: Double
    /// The unit vector from the centre to the arc's first point.
    public var startDirection: PathPoint
    /// The signed angle from the first point to the last, radians:
    /// positive turns from +x towards +y (clockwise on a y-down screen).
    /// |sweep| ≤ 2π.
    public var sweep: Double
    /// The subpath ends with `close` (a whole circle: the closing segment
    /// has no length). A closed stroke has no ends, so no caps.
    public var isClosed: Bool

    public init(center: PathPoint, radius: Double, startDirection: PathPoint, sweep: Double, isClosed: Bool = false) {
        self.center = center; self.radius = radius; self.startDirection = startDirection
        self.sweep = sweep; self.isClosed = isClosed
    }

    /// The unit vector from the centre to the point `fraction` of the way
    /// along the arc (of its length, which is the same as of its angle).
    public func direction(at fraction: Double) -> PathPoint {
        if fraction == 0 { return startDirection }
        let (s, c) = FloatMath.sinCos(sweep * fraction)
        let u = startDirection
        return PathPoint(u.x * c - u.y * s, u.x * s + u.y * c)
    }

    /// The stroke of the arc `width` wide with butt caps, trimmed to
    /// `start…end` (fractions of its length, with `StrokeStyle`'s rules:
    /// clamped to 0…1, NaN start 0, NaN end 1), as a ring sector in the
    /// path's space. Empty (`sweep` 0) when `start >= end`; the whole ring
    /// when the trimmed arc goes all the way round. `nil` when the stroke
    /// is not a ring sector: `width` not positive and finite, or at least
    /// the diameter (the stroke covers the centre).
    ///
    /// The joins between the arc's cubics do not show in it: they turn by
    /// nothing.
    public func strokeSector(width: Double, start: Double = 0, end: Double = 1) -> AnnularSector? {
        guard width > 0, width.isFinite, width / 2 < radius else { return nil }
        let s = start.isNaN ? 0 : Swift.min(Swift.max(start, 0), 1)
        let e = end.isNaN ? 1 : Swift.min(Swift.max(end, 0), 1)
        let inner = radius - width / 2, outer = radius + width / 2
        guard s < e else {
            return AnnularSector(center: center, innerRadius: inner, outerRadius: outer, startDirection: startDirection,
                                 endDirection: startDirection, sweep: 0)
        }
        let a = direction(at: s), b = direction(at: e)
        let angle = sweep * (e - s)
        return angle >= 0
            ? AnnularSector(center: center, innerRadius: inner, outerRadius: outer, startDirection: a, endDirection: b, sweep: angle)
            : AnnularSector(center: center, innerRadius: inner, outerRadius: outer, startDirection: b, endDirection: a, sweep: -angle)
    }
}

extension Path {
    /// The path as one circular arc, or `nil`: one subpath of a move and
    /// cubics, each spanning at most a quarter turn of the same circle in
    /// the same direction, with the control points a circle's cubic has
    /// there (`4/3·tan(θ/4)·r` along the tangents, as `arc(center:…)`
    /// places them and `addEllipse` for a circle), all within 10⁻⁷ of the
    /// radius; at most a whole turn; ended by `close` only when it comes
    /// back to its first point after a whole turn.
    ///
    /// Such cubics stray from their circle by at most 2.7·10⁻⁴ of its
    /// radius (`Path.arc`), which is how far a stroke drawn from the
    /// `CircularArc` can differ from one flattened from the cubics.
    ///
    /// - Complexity: O(points); no allocation.
    public var circularArc: CircularArc? {
        let verbs = self.verbs, points = self.points
        var cubics = verbs.count - 1
        guard cubics >= 1, verbs[0] == .move else { return nil }
        let closed = verbs[verbs.count - 1] == .close
        if closed { cubics -= 1 }
        guard cubics >= 1, cubics <= 8, points.count == 1 + 3 * cubics else { return nil }
        var v = 1
        while v <= cubics { guard verbs[v] == .cubic else { return nil }; v += 1 }
        var k = 0
        while k < points.count { guard points[k].isFinite else { return nil }; k += 1 }
        // The centre: on the first chord's perpendicular bisector, where
        // the radius to the first point is normal to the first tangent.
        let p0 = points[0], c1 = points[1], p3 = points[3]
        let chord = p3 - p0, tangent = c1 - p0
        let half = (p0 + p3) * 0.5
        let across = PathPoint(-chord.y, chord.x)
        let along = tangent.x * across.x + tangent.y * across.y
        guard along != 0 else { return nil }
        let toStart = p0 - half
        let tau = (tangent.x * toStart.x + tangent.y * toStart.y) / along
        let center = half + across * tau
        let radius = (p0 - center).length
        guard radius > 0, radius.isFinite, center.isFinite else { return nil }
        let tolerance = radius * 1e-7
        var sweep = 0.0
        var i = 0
        while i < cubics {
            let q0 = points[3 * i], q1 = points[3 * i + 1], q2 = points[3 * i + 2], q3 = points[3 * i + 3]
            let a = q0 - center, b = q3 - center
            let ra = a.length, rb = b.length
            guard Swift.abs(ra - radius) <= tolerance, Swift.abs(rb - radius) <= tolerance else { return nil }
            let cross = a.x * b.y - a.y * b.x, dot = a.x * b.x + a.y * b.y
            // A quarter turn at most, the same way round as the first.
            guard cross != 0, dot >= -tolerance * radius, i == 0 || (cross > 0) == (sweep > 0) else { return nil }
            let halfTan = cross / (ra * rb + dot)                       // tan(θ/2), |θ| ≤ π/2
            let quarterTan = halfTan / (1 + FloatMath.squareRoot(1 + halfTan * halfTan))   // tan(θ/4)
            let reach = 4.0 / 3.0 * quarterTan * radius
            let control1 = q0 + PathPoint(-a.y, a.x) * (reach / radius)
            let control2 = q3 - PathPoint(-b.y, b.x) * (reach / radius)
            guard (q1 - control1).length <= tolerance, (q2 - control2).length <= tolerance else { return nil }
            sweep += 2 * CircularArc.arctangent(halfTan)
            i += 1
        }
        let turn = 2 * FloatMath.pi
        guard Swift.abs(sweep) <= turn + 1e-9 else { return nil }
        if closed {
            // Only a whole circle: a shorter arc would close with a chord.
            guard Swift.abs(sweep) >= turn - 1e-9, (points[points.count - 1] - p0).length <= tolerance else { return nil }
        }
        let start = p0 - center
        return CircularArc(center: center, radius: radius, startDirection: start * (1 / start.length), sweep: sweep,
                           isClosed: closed)
    }
}

extension CircularArc {
    /// atan(z) for |z| ≤ 1, within a few ulp, IEEE basic operations and
    /// square roots only (the same bits on every architecture): two
    /// half-angle steps (atan z = 2·atan(z / (1 + √(1 + z²)))) bring |z|
    /// under tan(π/16) ≈ 0.199, where the Taylor series to z²⁵ leaves out
    /// less than 10⁻²⁰.
    static func arctangent(_ z: Double) -> Double {
        var t = z / (1 + FloatMath.squareRoot(1 + z * z))
        t = t / (1 + FloatMath.squareRoot(1 + t * t))
        let t2 = t * t
        var s = 1.0 / 25
        var n = 23.0
        var sign = -1.0
        while n >= 1 { s = s * t2 + sign / n; n -= 2; sign = -sign }
        return 4 * t * s
    }
}
