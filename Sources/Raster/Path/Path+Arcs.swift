// Arcs given by their ends: SVG's elliptical arc (the path command `A`)
// and Core Graphics' arc between two tangents (HTML canvas' `arcTo`).

extension Path {
    /// Adds an elliptical arc from the current point to `end`, as SVG's path
    /// command `A` (SVG 1.1, appendix F.6): an ellipse of radii `rx`, `ry`
    /// (path units) whose x axis is turned by `xAxisRotation` (radians,
    /// from +x towards +y), of the two ellipses and two arcs through both
    /// ends the one chosen by `largeArc` (the arc sweeps more than 180°)
    /// and `sweep` (the arc goes with increasing angle: clockwise on a
    /// y-down screen).
    ///
    /// SVG's rules for out-of-range parameters, which make any input draw
    /// something sensible:
    /// - `end` equal to the current point: nothing is added;
    /// - `rx` or `ry` zero: a straight line to `end`;
    /// - negative radii are taken positive;
    /// - radii too small for the ends to lie on one such ellipse are scaled
    ///   up, keeping their ratio, until they just do (the arc is then a half
    ///   ellipse).
    ///
    /// Without a current point the arc starts a subpath at `end` (and so
    /// adds only that point). Non-finite input adds nothing.
    ///
    /// Approximated by one cubic per quarter of the ellipse or less
    /// (radial error below 0.03 % of the larger radius), ending exactly at
    /// `end`.
    public mutating func ellipticalArc(to end: PathPoint, radiusX rx: Double, radiusY ry: Double,
                                       xAxisRotation: Double, largeArc: Bool, sweep: Bool) {
        guard end.isFinite, rx.isFinite, ry.isFinite, xAxisRotation.isFinite else { return }
        guard let start = currentPoint else { move(to: end); return }
        if start.x == end.x && start.y == end.y { return }
        var rx = abs(rx), ry = abs(ry)
        if rx == 0 || ry == 0 { line(to: end); return }
        let (sinPhi, cosPhi) = FloatMath.sinCos(xAxisRotation)
        // F.6.5 step 1: the start relative to the chord's middle, in the
        // ellipse's axes.
        let hx = (start.x - end.x) / 2, hy = (start.y - end.y) / 2
        let x1 = cosPhi * hx + sinPhi * hy, y1 = -sinPhi * hx + cosPhi * hy
        // F.6.6: radii too small are scaled up.
        let lambda = (x1 * x1) / (rx * rx) + (y1 * y1) / (ry * ry)
        if lambda > 1 {
            let s = FloatMath.squareRoot(lambda)
            rx *= s; ry *= s
        }
        // Step 2: the centre in the ellipse's axes.
        let rx2 = rx * rx, ry2 = ry * ry
        let denominator = rx2 * y1 * y1 + ry2 * x1 * x1
        var coefficient = denominator > 0 ? FloatMath.squareRoot(Swift.max(0, (rx2 * ry2 - denominator) / denominator)) : 0
        if largeArc == sweep { coefficient = -coefficient }
        let cx1 = coefficient * rx * y1 / ry, cy1 = -coefficient * ry * x1 / rx
        // Step 3: the centre in path space.
        let center = PathPoint(cosPhi * cx1 - sinPhi * cy1 + (start.x + end.x) / 2,
                               sinPhi * cx1 + cosPhi * cy1 + (start.y + end.y) / 2)
        // Step 4: the ends as points of the unit circle, and the sweep.
        let u = PathPoint((x1 - cx1) / rx, (y1 - cy1) / ry)
        let v = PathPoint((-x1 - cx1) / rx, (-y1 - cy1) / ry)
        var delta = Path.angle(from: u, to: v)
        let twoPi = 2 * FloatMath.pi
        if !sweep && delta > 0 { delta -= twoPi } else if sweep && delta < 0 { delta += twoPi }
        let axes = AffineTransform(a: cosPhi * rx, b: sinPhi * rx, c: -sinPhi * ry, d: cosPhi * ry, tx: center.x, ty: center.y)
        appendUnitArc(from: u, sweep: delta, through: axes, end: end)
    }

    /// Adds an arc of radius `radius` tangent to the line from the current
    /// point to `tangent1End` and to the line from `tangent1End` to
    /// `tangent2End`, as Core Graphics' `addArc(tangent1End:tangent2End:radius:)`
    /// and HTML canvas' `arcTo`: a straight line from the current point to
    /// where the arc meets the first line, then the arc (less than a half
    /// turn) to where it meets the second; the current point ends there.
    ///
    /// A straight line to `tangent1End` instead when the arc is undefined:
    /// radius 0, or the current point, `tangent1End` and `tangent2End`
    /// collinear (two of them equal included). Without a current point
    /// the subpath starts at `tangent1End` first (as canvas does). A
    /// negative or non-finite radius, or a non-finite point, adds nothing.
    public mutating func arc(tangent1End t1: PathPoint, tangent2End t2: PathPoint, radius: Double) {
        guard t1.isFinite, t2.isFinite, radius.isFinite, radius >= 0 else { return }
        if currentPoint == nil { move(to: t1) }
        let p0 = currentPoint!
        let a = PathPoint(p0.x - t1.x, p0.y - t1.y), b = PathPoint(t2.x - t1.x, t2.y - t1.y)
        let la = FloatMath.squareRoot(a.x * a.x + a.y * a.y), lb = FloatMath.squareRoot(b.x * b.x + b.y * b.y)
        guard radius > 0, la > 0, lb > 0 else { line(to: t1); return }
        let d1 = PathPoint(a.x / la, a.y / la), d2 = PathPoint(b.x / lb, b.y / lb)
        let cross = d1.x * d2.y - d1.y * d2.x, dot = d1.x * d2.x + d1.y * d2.y
        // Collinear (within rounding): no circle touches both lines.
        guard abs(cross) > 1e-12 else { line(to: t1); return }
        // θ between the two directions; the tangent points lie r/tan(θ/2)
        // from the corner, the centre r/sin(θ/2) along the bisector.
        let distance = radius * (1 + dot) / abs(cross)
        let p1 = PathPoint(t1.x + d1.x * distance, t1.y + d1.y * distance)
        let p2 = PathPoint(t1.x + d2.x * distance, t1.y + d2.y * distance)
        let bx = d1.x + d2.x, by = d1.y + d2.y
        let lbis = FloatMath.squareRoot(bx * bx + by * by)
        let toCenter = radius / FloatMath.squareRoot((1 - dot) / 2)
        let center = PathPoint(t1.x + bx / lbis * toCenter, t1.y + by / lbis * toCenter)
        line(to: p1)
        let u = PathPoint((p1.x - center.x) / radius, (p1.y - center.y) / radius)
        let v = PathPoint((p2.x - center.x) / radius, (p2.y - center.y) / radius)
        let circle = AffineTransform(a: radius, b: 0, c: 0, d: radius, tx: center.x, ty: center.y)
        appendUnitArc(from: u, sweep: Path.angle(from: u, to: v), through: circle, end: p2)
    }

    /// The signed angle (radians, in `(−π, π]`) that turns unit vector `u`
    /// onto `v`.
    static func angle(from u: PathPoint, to v: PathPoint) -> Double {
        2 * FloatMath.pi * FloatMath.atan2Turns(u.x * v.y - u.y * v.x, u.x * v.x + u.y * v.y)
    }

    /// Cubics along the unit circle from unit vector `u` through `sweep`
    /// radians, mapped by `map` (the ellipse's axes and centre), one per
    /// quarter turn or less; the last one ends exactly at `end`.
    mutating func appendUnitArc(from u: PathPoint, sweep: Double, through map: AffineTransform, end: PathPoint) {
        let n = Swift.max(1, Int(FloatMath.ceil(abs(sweep) / (FloatMath.pi / 2) - 1e-9)))
        let step = sweep / Double(n)
        let (sinStep, cosStep) = FloatMath.sinCos(step)
        let (st4, ct4) = FloatMath.sinCos(step / 4)
        let k = 4.0 / 3.0 * (st4 / ct4)                   // 4/3·tan(θ/4)
        var c = u
        var i = 0
        while i < n {
            // The next point turned from this one (no angles to add up).
            let next = PathPoint(c.x * cosStep - c.y * sinStep, c.x * sinStep + c.y * cosStep)
            let c1 = PathPoint(c.x - k * c.y, c.y + k * c.x)
            let c2 = PathPoint(next.x + k * next.y, next.y - k * next.x)
            cubic(to: i == n - 1 ? end : map.apply(next), control1: map.apply(c1), control2: map.apply(c2))
            c = next
            i += 1
        }
    }
}
