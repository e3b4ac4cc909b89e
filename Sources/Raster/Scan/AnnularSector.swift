/// A sector of a ring: the points whose distance from `center` is between
/// `innerRadius` and `outerRadius` and whose direction from it lies between
/// `startDirection` and `endDirection`, turning from the first by `sweep`
/// radians towards +y (clockwise on a y-down screen). It is what a
/// circular arc stroked with butt caps covers
/// (`CircularArc.strokeSector`), and what `SectorRasterizer` scan-converts
/// in closed form.
///
/// The coordinate space is the caller's: path units for a layer's stroke,
/// device pixels once mapped (`mapped(by:)`) for drawing.
public struct AnnularSector: Equatable, Sendable {
    public var center: PathPoint
    /// 0 ≤ `innerRadius` < `outerRadius`.
    public var innerRadius: Double
    public var outerRadius: Double
    /// Unit vectors from the centre.
    public var startDirection: PathPoint
    public var endDirection: PathPoint
    /// 0…2π: 0 covers nothing; 2π (`isWholeRing`) the whole ring, the
    /// directions then do not matter. A sweep within 10⁻¹² of a whole turn
    /// is made the whole ring.
    public var sweep: Double

    public init(center: PathPoint, innerRadius: Double, outerRadius: Double, startDirection: PathPoint,
                endDirection: PathPoint, sweep: Double) {
        self.center = center; self.innerRadius = innerRadius; self.outerRadius = outerRadius
        self.startDirection = startDirection; self.endDirection = endDirection
        let turn = 2 * FloatMath.pi
        self.sweep = sweep >= turn * (1 - 1e-12) ? turn : (sweep > 0 ? sweep : 0)
    }

    public var isWholeRing: Bool { sweep >= 2 * FloatMath.pi }
    /// No area: no sweep, or radii that are not finite or not in order.
    public var isEmpty: Bool {
        !(sweep > 0 && innerRadius >= 0 && innerRadius < outerRadius && outerRadius.isFinite && center.isFinite
          && startDirection.isFinite && endDirection.isFinite)
    }

    /// Whether the direction `v` (any length) from the centre is within
    /// the sweep, ends included.
    @inline(__always)
    public func sweepContains(_ v: PathPoint) -> Bool {
        if isWholeRing { return true }
        let afterStart = startDirection.x * v.y - startDirection.y * v.x >= 0
        let beforeEnd = v.x * endDirection.y - v.y * endDirection.x >= 0
        // Up to half a turn the sweep is where both hold; past it, where
        // either does (the rest is less than half a turn).
        return sweep <= FloatMath.pi ? afterStart && beforeEnd : afterStart || beforeEnd
    }

    /// The smallest box holding the sector: its four corners, and the
    /// outer circle's extreme points in the directions ±x, ±y it sweeps
    /// through. `BoundingBox.empty` when `isEmpty`.
    public var bounds: BoundingBox {
        guard !isEmpty else { return .empty }
        var box = BoundingBox.empty
        let c = center, r = outerRadius
        if !isWholeRing {
            box.add(c + startDirection * innerRadius); box.add(c + startDirection * r)
            box.add(c + endDirection * innerRadius); box.add(c + endDirection * r)
        }
        if sweepContains(PathPoint(1, 0)) { box.add(PathPoint(c.x + r, c.y)) }
        if sweepContains(PathPoint(0, 1)) { box.add(PathPoint(c.x, c.y + r)) }
        if sweepContains(PathPoint(-1, 0)) { box.add(PathPoint(c.x - r, c.y)) }
        if sweepContains(PathPoint(0, -1)) { box.add(PathPoint(c.x, c.y - r)) }
        return box
    }

    /// The sector mapped through `transform`, or `nil` when the transform
    /// does not map circles to circles (`AffineTransform.similarity`). A
    /// reflection swaps the roles of the two directions.
    public func mapped(by transform: AffineTransform) -> AnnularSector? {
        guard let (scale, mirrors) = transform.similarity else { return nil }
        let t = transform
        @inline(__always) func direction(_ u: PathPoint) -> PathPoint {
            PathPoint((t.a * u.x + t.c * u.y) / scale, (t.b * u.x + t.d * u.y) / scale)
        }
        let a = direction(startDirection), b = direction(endDirection)
        return AnnularSector(center: t.apply(center), innerRadius: innerRadius * scale, outerRadius: outerRadius * scale,
                             startDirection: mirrors ? b : a, endDirection: mirrors ? a : b, sweep: sweep)
    }
}

extension AffineTransform {
    /// The uniform scale of a map that keeps circles circles — a
    /// translation, rotation, reflection and uniform scale, its linear part
    /// within 10⁻¹² of one — and whether it mirrors; `nil` for any other
    /// map, or one that is not finite or collapses the plane.
    public var similarity: (scale: Double, mirrors: Bool)? {
        let scale = FloatMath.squareRoot(a * a + b * b)
        guard scale > 0, scale.isFinite, tx.isFinite, ty.isFinite else { return nil }
        let slack = scale * 1e-12
        if Swift.abs(a - d) <= slack && Swift.abs(b + c) <= slack { return (scale, false) }
        if Swift.abs(a + d) <= slack && Swift.abs(b - c) <= slack { return (scale, true) }
        return nil
    }
}
