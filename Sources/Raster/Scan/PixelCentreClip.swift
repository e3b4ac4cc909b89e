// Aliased (hard) edges: straight lines that decide whole pixels by their
// centres, as a GPU rasterises a triangle without multisampling. They cut
// the spans of an anti-aliased fill, so one shape can have some edges
// anti-aliased and others hard (Core Animation's `edgeAntialiasingMask`).
//
// Partition. Two shapes on the two sides of one line (the two pieces of a
// layer cut by a plane) must together cover every pixel exactly once, or
// the backdrop shows through the seam (anti-aliasing both sides leaves
// (1 − c)² of it) or the seam is drawn twice. `CentreEdge` guarantees it:
// the line is stored canonically (its two points in lexicographic order),
// each row is divided at one column `k` computed only from the line and
// the row, and the two sides take `[k, ∞)` and `(−∞, k)`.

/// One side of a straight line, deciding pixels by their centres.
///
/// Coordinates are target pixels; pixel (x, y) has its centre at
/// (x + 0.5, y + 0.5). Invariant: `CentreEdge(through: p, q, …)` and
/// `CentreEdge(through: q, p, …)` describe the same line bit for bit, and
/// for a given row the pixels on the two sides are complementary.
public struct CentreEdge: Sendable, Equatable {
    // e(x, y) = dx·(y − py) − dy·(x − px) with (px, py), (dx, dy) from the
    // canonical order of the two points.
    @usableFromInline let px: Double, py: Double, dx: Double, dy: Double
    /// Whether the kept side is where e > 0 (ties at e = 0 go to the side
    /// the row division gives them).
    @usableFromInline let keepsPositive: Bool

    /// The side of the line through `p` and `q` (target pixels) that
    /// contains `inside`; `nil` when the points are not finite, coincide,
    /// or `inside` lies on the line.
    public init?(through p: PathPoint, _ q: PathPoint, inside: PathPoint) {
        guard p.x.isFinite, p.y.isFinite, q.x.isFinite, q.y.isFinite, inside.x.isFinite, inside.y.isFinite,
              p != q else { return nil }
        let (a, b) = (p.x, p.y) < (q.x, q.y) ? (p, q) : (q, p)
        px = a.x; py = a.y; dx = b.x - a.x; dy = b.y - a.y
        let e = dx * (inside.y - py) - dy * (inside.x - px)
        guard e != 0, e.isFinite else { return nil }
        keepsPositive = e > 0
    }

    /// The same line, the other side.
    public var opposite: CentreEdge {
        CentreEdge(px: px, py: py, dx: dx, dy: dy, keepsPositive: !keepsPositive)
    }

    @usableFromInline init(px: Double, py: Double, dx: Double, dy: Double, keepsPositive: Bool) {
        self.px = px; self.py = py; self.dx = dx; self.dy = dy; self.keepsPositive = keepsPositive
    }

    /// The columns of row `y` on the kept side, `lo ..< hi` (either may be
    /// `CentreEdges.unbounded` in size; empty when `lo >= hi`).
    @inlinable
    public func columns(row y: Int) -> (lo: Int, hi: Int) {
        let far = CentreEdges.unbounded
        let yc = Double(y) + 0.5
        // e(x) = −dy·xc + dx·(yc − py) + dy·px.
        if dy == 0 {
            let e = dx * (yc - py)
            return (e > 0) == keepsPositive ? (-far, far) : (0, 0)
        }
        // e = 0 at xc = t; k is the first column whose centre is past t.
        let t = px + dx * (yc - py) / dy
        guard t.isFinite else { return (0, 0) }
        let limit = Double(far)
        let k = t >= limit ? far : (t <= -limit ? -far : Int((t - 0.5).rounded(.down)) + 1)
        // e > 0 left of t when dy > 0 (e decreases with x), right of it otherwise.
        let positiveIsLeft = dy > 0
        return positiveIsLeft == keepsPositive ? (-far, k) : (k, far)
    }

    /// Whether pixel (x, y) is on the kept side (a reference for
    /// `columns(row:)`, which the fills use).
    public func contains(x: Int, y: Int) -> Bool {
        let r = columns(row: y)
        return x >= r.lo && x < r.hi
    }
}

/// Up to four `CentreEdge`s, all of which a pixel must keep (a convex
/// region with hard edges, or the seams of a cut plane). Fixed capacity,
/// no heap storage.
public struct CentreEdges: Sendable {
    /// Columns this far out count as unbounded.
    public static let unbounded = 1 << 40
    /// The most edges one value holds.
    public static let capacity = 4

    @usableFromInline var e0, e1, e2, e3: CentreEdge?
    public private(set) var count = 0

    public init() {}

    /// Adds `edge`; beyond `capacity` edges the call is ignored and returns
    /// false.
    @discardableResult
    public mutating func append(_ edge: CentreEdge) -> Bool {
        switch count {
        case 0: e0 = edge
        case 1: e1 = edge
        case 2: e2 = edge
        case 3: e3 = edge
        default: return false
        }
        count += 1
        return true
    }

    public var isEmpty: Bool { count == 0 }

    /// The columns of row `y` that every edge keeps, `lo ..< hi`.
    @inlinable
    public func columns(row y: Int) -> (lo: Int, hi: Int) {
        // No local function capturing lo/hi: its context is heap-allocated
        // in debug builds, and this runs for every span.
        var lo = -CentreEdges.unbounded, hi = CentreEdges.unbounded
        CentreEdges.meet(e0, row: y, &lo, &hi); CentreEdges.meet(e1, row: y, &lo, &hi)
        CentreEdges.meet(e2, row: y, &lo, &hi); CentreEdges.meet(e3, row: y, &lo, &hi)
        return (lo, hi)
    }

    @inlinable @inline(__always)
    static func meet(_ e: CentreEdge?, row y: Int, _ lo: inout Int, _ hi: inout Int) {
        guard let e else { return }
        let r = e.columns(row: y)
        if r.lo > lo { lo = r.lo }
        if r.hi < hi { hi = r.hi }
    }

    /// Whether every edge keeps pixel (x, y).
    public func contains(x: Int, y: Int) -> Bool {
        let r = columns(row: y)
        return x >= r.lo && x < r.hi
    }

    /// Zeroes the pixels of `mask` that an edge cuts away; `mask` pixel
    /// (0, 0) is target pixel (`originX`, `originY`).
    public func cut(_ mask: PixelView<A8>, originX: Int, originY: Int) {
        guard count > 0 else { return }
        var row = 0
        while row < mask.height {
            let r = columns(row: originY + row)
            let lo = Swift.min(Swift.max(r.lo - originX, 0), mask.width)
            let hi = Swift.max(Swift.min(r.hi - originX, mask.width), lo)
            let p = mask.row(row)
            var x = 0
            while x < lo { p[x] = 0; x += 1 }
            x = hi
            while x < mask.width { p[x] = 0; x += 1 }
            row += 1
        }
    }

    /// Sets the pixels of `mask` every edge keeps to 255 and the others to
    /// 0 (coverage of the region with hard edges only).
    public func fill(_ mask: PixelView<A8>, originX: Int, originY: Int) {
        var row = 0
        while row < mask.height { mask.row(row).update(repeating: 255, count: mask.width); row += 1 }
        cut(mask, originX: originX, originY: originY)
    }
}
