/// The radii of the four corners of a rounded rectangle, in the path's units.
public struct CornerRadii: Equatable, Sendable {
    public var topLeft: Double, topRight: Double, bottomRight: Double, bottomLeft: Double

    public init(topLeft: Double, topRight: Double, bottomRight: Double, bottomLeft: Double) {
        self.topLeft = topLeft; self.topRight = topRight; self.bottomRight = bottomRight; self.bottomLeft = bottomLeft
    }
    public init(_ all: Double) { self.init(topLeft: all, topRight: all, bottomRight: all, bottomLeft: all) }
}

extension Path {
    /// `4/3·(√2 − 1)`: the control-point distance, as a fraction of the
    /// radius, of the cubic that best approximates a quarter circle (radial
    /// error below 0.03 %).
    public static let quarterCircleKappa = 0.552_284_749_830_793_4

    /// Normalises a rectangle given by origin and size: a negative size
    /// extends the other way (CoreGraphics' `standardized`); `nil` when any
    /// value is not finite.
    static func standardRect(_ x: Double, _ y: Double, _ w: Double, _ h: Double) -> (x0: Double, y0: Double, x1: Double, y1: Double)? {
        guard x.isFinite, y.isFinite, w.isFinite, h.isFinite else { return nil }
        return (min(x, x + w), min(y, y + h), max(x, x + w), max(y, y + h))
    }

    /// A closed rectangle, clockwise on screen (y down) starting at the
    /// top-left corner. Negative sizes are standardised; a zero size gives a
    /// subpath that covers nothing; a non-finite value gives an empty path.
    public init(rect x: Double, _ y: Double, _ width: Double, _ height: Double) {
        self.init()
        addRect(x, y, width, height)
    }

    public mutating func addRect(_ x: Double, _ y: Double, _ width: Double, _ height: Double) {
        guard let r = Path.standardRect(x, y, width, height) else { return }
        move(to: PathPoint(r.x0, r.y0))
        line(to: PathPoint(r.x1, r.y0)); line(to: PathPoint(r.x1, r.y1)); line(to: PathPoint(r.x0, r.y1))
        close()
    }

    /// A closed ellipse inscribed in the rectangle, as four cubics, clockwise
    /// on screen starting at the rightmost point. Sizes are standardised; a
    /// non-finite value gives an empty path.
    public init(ellipseIn x: Double, _ y: Double, _ width: Double, _ height: Double) {
        self.init()
        addEllipse(x, y, width, height)
    }

    public mutating func addEllipse(_ x: Double, _ y: Double, _ width: Double, _ height: Double) {
        guard let r = Path.standardRect(x, y, width, height) else { return }
        let cx = (r.x0 + r.x1) * 0.5, cy = (r.y0 + r.y1) * 0.5
        let rx = (r.x1 - r.x0) * 0.5, ry = (r.y1 - r.y0) * 0.5
        let kx = rx * Path.quarterCircleKappa, ky = ry * Path.quarterCircleKappa
        move(to: PathPoint(cx + rx, cy))
        cubic(to: PathPoint(cx, cy + ry), control1: PathPoint(cx + rx, cy + ky), control2: PathPoint(cx + kx, cy + ry))
        cubic(to: PathPoint(cx - rx, cy), control1: PathPoint(cx - kx, cy + ry), control2: PathPoint(cx - rx, cy + ky))
        cubic(to: PathPoint(cx, cy - ry), control1: PathPoint(cx - rx, cy - ky), control2: PathPoint(cx - kx, cy - ry))
        cubic(to: PathPoint(cx + rx, cy), control1: PathPoint(cx + kx, cy - ry), control2: PathPoint(cx + rx, cy - ky))
        close()
    }

    /// A closed rounded rectangle with circular corners, clockwise on screen.
    ///
    /// Radii are clamped so they fit, as CSS does: negative or NaN radii
    /// count as 0, then all four are scaled by one factor
    /// `f = min(1, w/(tl+tr), w/(bl+br), h/(tl+bl), h/(tr+br))` so that
    /// neighbouring corners never overlap. Sizes are standardised; a
    /// non-finite size or position gives an empty path.
    public init(roundedRect x: Double, _ y: Double, _ width: Double, _ height: Double, radii: CornerRadii) {
        self.init()
        addRoundedRect(x, y, width, height, radii: radii)
    }

    public mutating func addRoundedRect(_ x: Double, _ y: Double, _ width: Double, _ height: Double, radii: CornerRadii) {
        guard let r = Path.standardRect(x, y, width, height) else { return }
        let w = r.x1 - r.x0, h = r.y1 - r.y0
        func clean(_ v: Double) -> Double { v > 0 ? (v.isFinite ? v : .greatestFiniteMagnitude) : 0 }
        var tl = clean(radii.topLeft), tr = clean(radii.topRight), br = clean(radii.bottomRight), bl = clean(radii.bottomLeft)
        // Written out: a local function updating `f` would box it (a heap
        // allocation) in debug builds, and rounded rects are built per frame.
        var f = 1.0
        if tl + tr > w { f = min(f, w / (tl + tr)) }
        if bl + br > w { f = min(f, w / (bl + br)) }
        if tl + bl > h { f = min(f, h / (tl + bl)) }
        if tr + br > h { f = min(f, h / (tr + br)) }
        if f < 1 { tl *= f; tr *= f; br *= f; bl *= f }
        let k = 1 - Path.quarterCircleKappa
        move(to: PathPoint(r.x0 + tl, r.y0))
        line(to: PathPoint(r.x1 - tr, r.y0))
        if tr > 0 { cubic(to: PathPoint(r.x1, r.y0 + tr), control1: PathPoint(r.x1 - tr * k, r.y0), control2: PathPoint(r.x1, r.y0 + tr * k)) }
        line(to: PathPoint(r.x1, r.y1 - br))
        if br > 0 { cubic(to: PathPoint(r.x1 - br, r.y1), control1: PathPoint(r.x1, r.y1 - br * k), control2: PathPoint(r.x1 - br * k, r.y1)) }
        line(to: PathPoint(r.x0 + bl, r.y1))
        if bl > 0 { cubic(to: PathPoint(r.x0, r.y1 - bl), control1: PathPoint(r.x0 + bl * k, r.y1), control2: PathPoint(r.x0, r.y1 - bl * k)) }
        line(to: PathPoint(r.x0, r.y0 + tl))
        if tl > 0 { cubic(to: PathPoint(r.x0 + tl, r.y0), control1: PathPoint(r.x0, r.y0 + tl * k), control2: PathPoint(r.x0 + tl * k, r.y0)) }
        close()
    }

    /// Adds a circular arc around `center`. Angles are in radians measured
    /// from +x towards +y; with y pointing down, `clockwise: true` sweeps
    /// with increasing angle, which looks clockwise on screen (UIKit's
    /// convention).
    ///
    /// The sweep is `end − start` brought into `[0, 2π)` (clockwise) or
    /// `(−2π, 0]` (counter-clockwise), except that a difference of at least a
    /// full turn in the sweep direction draws a full circle. If a subpath is
    /// open, a line joins its current point to the arc's start; otherwise the
    /// arc starts a subpath. A radius that is negative or not finite, or an
    /// angle that is not finite, adds nothing; radius 0 adds its centre.
    ///
    /// Approximated by one cubic per quarter turn or less (radial error below
    /// 0.03 % of the radius).
    public mutating func arc(center: PathPoint, radius: Double, startAngle: Double, endAngle: Double, clockwise: Bool) {
        guard radius >= 0, radius.isFinite, startAngle.isFinite, endAngle.isFinite, center.isFinite else { return }
        let twoPi = 2 * FloatMath.pi
        let d = endAngle - startAngle
        var sweep: Double
        if clockwise {
            sweep = d >= twoPi ? twoPi : d - FloatMath.floor(d / twoPi) * twoPi
        } else {
            sweep = d <= -twoPi ? -twoPi : -((-d) - FloatMath.floor((-d) / twoPi) * twoPi)
        }
        if !(abs(sweep) <= twoPi) { sweep = 0 }
        let (s0, c0) = FloatMath.sinCos(startAngle)
        let start = PathPoint(center.x + radius * c0, center.y + radius * s0)
        if subpathStart == nil { move(to: start) } else { line(to: start) }
        if sweep == 0 || radius == 0 { return }
        let n = max(1, Int(FloatMath.ceil(abs(sweep) / (FloatMath.pi / 2) - 1e-9)))
        let step = sweep / Double(n)
        let (st4, ct4) = FloatMath.sinCos(step / 4)
        let k = 4.0 / 3.0 * (st4 / ct4) * radius          // 4/3·tan(θ/4)·r
        var a = startAngle, cosA = c0, sinA = s0
        var i = 0
        while i < n {
            let a1 = i == n - 1 ? startAngle + sweep : a + step
            let (sinB, cosB) = FloatMath.sinCos(a1)
            let p0 = PathPoint(center.x + radius * cosA, center.y + radius * sinA)
            let p3 = PathPoint(center.x + radius * cosB, center.y + radius * sinB)
            cubic(to: p3, control1: PathPoint(p0.x - k * sinA, p0.y + k * cosA),
                  control2: PathPoint(p3.x + k * sinB, p3.y - k * cosB))
            a = a1; cosA = cosB; sinA = sinB
            i += 1
        }
    }

    /// A closed circle (an ellipse in its bounding square).
    public init(circleCenter c: PathPoint, radius r: Double) {
        self.init(ellipseIn: c.x - r, c.y - r, 2 * r, 2 * r)
    }
}
