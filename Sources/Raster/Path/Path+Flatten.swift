/// Receives a flattened path: polylines in device space.
public protocol PathPolylineSink {
    /// Starts a polyline at `p`.
    mutating func begin(at p: PathPoint)
    /// Continues the polyline with a line to `p`.
    mutating func line(to p: PathPoint)
    /// Continues the polyline with a line to a point inside a flattened
    /// curve, which is not a corner of the path (strokes put no joins
    /// there). Defaults to `line(to:)`.
    mutating func curveLine(to p: PathPoint)
    /// Announces a curve from the current point, before its points: the
    /// directions (device space, not normalised) in which it leaves the
    /// current point and arrives at its end, from the control points (a
    /// control point on the end it belongs to is skipped for the next one,
    /// as cairo and Skia do; zero for a curve of no length). The curve's end
    /// is the next `line(to:)`. Strokes join and cap along these rather than
    /// along the first and last flattened segments. Defaults to nothing.
    mutating func curveTangents(start: PathPoint, end: PathPoint)
    /// Ends the polyline; `closed` when the subpath had a `close`.
    mutating func end(closed: Bool)
}

extension PathPolylineSink {
    public mutating func curveLine(to p: PathPoint) { line(to: p) }
    public mutating func curveTangents(start: PathPoint, end: PathPoint) {}
}

/// The limits `Path.flatten` works within.
public enum FlattenLimits {
    /// Device coordinates are clamped to `±coordinateLimit` pixels before
    /// flattening (2^21: far outside any surface, yet, relative to any clip
    /// origin within `PathRasterizer.maxClipOrigin`, representable in 24.8
    /// fixed point in 32 bits). A shape reaching past the limit is drawn as
    /// if cut there, which only matters off screen.
    public static let coordinateLimit = 2_097_152.0
    /// Most line segments one curve is split into.
    public static let maxSegmentsPerCurve = 1000
    /// Default tolerance: the largest distance, in device pixels, between a
    /// curve and its line segments.
    public static let defaultTolerance = 0.1
    /// Tolerances are clamped to this range (NaN gives the default).
    public static let toleranceRange = 0.01...16.0
}

extension Path {
    /// Flattens the path into polylines in device space: every point is mapped
    /// through `transform` first, so `tolerance` (the largest distance, in
    /// device pixels, between a curve and its segments) holds however much
    /// the transform magnifies.
    ///
    /// Bad input has a defined result:
    /// - A subpath with any non-finite point after the transform is dropped
    ///   whole.
    /// - Coordinates are clamped to `±FlattenLimits.coordinateLimit`.
    /// - A curve is split into at most `FlattenLimits.maxSegmentsPerCurve`
    ///   segments (uniform in t, count from Wang's formula).
    /// - A curve whose control points all lie outside `cull` (when given) is
    ///   replaced by the line between its ends: for filling, a curve wholly
    ///   outside the clip matters only through the rows it spans, which the
    ///   line spans too.
    /// - A lone `move` gives no polyline.
    ///
    /// - Complexity: O(points + segments emitted).
    public func flatten<Sink: PathPolylineSink>(transform: AffineTransform = .identity, tolerance: Double = FlattenLimits.defaultTolerance,
                                                cull: BoundingBox? = nil, into sink: inout Sink) {
        let tol = tolerance.isNaN ? FlattenLimits.defaultTolerance
            : min(max(tolerance, FlattenLimits.toleranceRange.lowerBound), FlattenLimits.toleranceRange.upperBound)
        let limit = FlattenLimits.coordinateLimit
        @inline(__always) func device(_ p: PathPoint) -> PathPoint {
            let q = transform.apply(p)
            return PathPoint(x: min(max(q.x, -limit), limit), y: min(max(q.y, -limit), limit))
        }
        let verbCount = verbs.count
        var vi = 0, pi = 0
        while vi < verbCount {
            // One subpath: verbs[vi] is a move (Path's building rules
            // guarantee it); find its end and check its points.
            guard verbs[vi] == .move else { pi += verbs[vi].pointCount; vi += 1; continue }
            var ve = vi + 1, pe = pi + 1
            var finite = transform.apply(points[pi]).isFinite
            while ve < verbCount && verbs[ve] != .move {
                let n = verbs[ve].pointCount
                var k = 0
                while k < n { if !transform.apply(points[pe + k]).isFinite { finite = false }; k += 1 }
                pe += n; ve += 1
            }
            if finite && ve > vi + 1 {
                var current = device(points[pi])
                let start = current
                var open = true
                sink.begin(at: current)
                var v = vi + 1, p = pi + 1
                while v < ve {
                    switch verbs[v] {
                    case .move: break
                    case .line:
                        if !open { sink.begin(at: start); open = true }
                        current = device(points[p]); sink.line(to: current)
                    case .quad:
                        if !open { sink.begin(at: start); open = true }
                        let c = device(points[p]), e = device(points[p + 1])
                        Path.flattenQuad(current, c, e, tolerance: tol, cull: cull, into: &sink)
                        current = e
                    case .cubic:
                        if !open { sink.begin(at: start); open = true }
                        let c1 = device(points[p]), c2 = device(points[p + 1]), e = device(points[p + 2])
                        Path.flattenCubic(current, c1, c2, e, tolerance: tol, cull: cull, into: &sink)
                        current = e
                    case .close:
                        if open { sink.end(closed: true); open = false }
                        current = start
                    }
                    p += verbs[v].pointCount
                    v += 1
                }
                if open { sink.end(closed: false) }
            }
            vi = ve; pi = pe
        }
    }

    /// The control points `a`…`d` all lie on the far side of one edge of
    /// `cull` (pass a point twice for a quadratic).
    @inline(__always)
    static func outside(_ cull: BoundingBox?, _ a: PathPoint, _ b: PathPoint, _ c: PathPoint, _ d: PathPoint) -> Bool {
        guard let r = cull else { return false }
        return (a.x < r.minX && b.x < r.minX && c.x < r.minX && d.x < r.minX)
            || (a.x > r.maxX && b.x > r.maxX && c.x > r.maxX && d.x > r.maxX)
            || (a.y < r.minY && b.y < r.minY && c.y < r.minY && d.y < r.minY)
            || (a.y > r.maxY && b.y > r.maxY && c.y > r.maxY && d.y > r.maxY)
    }

    /// Segment count for a curve whose largest second difference of control
    /// points is `dd` (Wang's formula: `n = ⌈√(d(d−1)/8 · dd / tol)⌉` for a
    /// curve of degree d).
    @inline(__always)
    static func segmentCount(_ factor: Double, _ dd: Double, _ tol: Double) -> Int {
        let n = FloatMath.ceil(FloatMath.squareRoot(factor * dd / tol))
        if !(n >= 1) { return 1 }
        return n > Double(FlattenLimits.maxSegmentsPerCurve) ? FlattenLimits.maxSegmentsPerCurve : Int(n)
    }

    /// The first of `a`, `b`, `c` that is not (nearly) zero, else zero: a
    /// curve's end tangent skipping control points that coincide with the
    /// end.
    @inline(__always)
    static func firstNonZero(_ a: PathPoint, _ b: PathPoint, _ c: PathPoint) -> PathPoint {
        @inline(__always) func nonZero(_ v: PathPoint) -> Bool { v.x * v.x + v.y * v.y > 1e-18 }
        return nonZero(a) ? a : nonZero(b) ? b : nonZero(c) ? c : PathPoint(0, 0)
    }

    static func flattenQuad<Sink: PathPolylineSink>(_ p0: PathPoint, _ p1: PathPoint, _ p2: PathPoint, tolerance: Double,
                                                    cull: BoundingBox?, into sink: inout Sink) {
        if outside(cull, p0, p1, p2, p2) { sink.line(to: p2); return }
        sink.curveTangents(start: firstNonZero(p1 - p0, p2 - p0, p2 - p0), end: firstNonZero(p2 - p1, p2 - p0, p2 - p0))
        let dd = (p0 - p1 * 2 + p2).length
        let n = segmentCount(0.25, dd, tolerance)
        let inv = 1.0 / Double(n)
        var i = 1
        while i < n {
            let t = Double(i) * inv, u = 1 - t
            sink.curveLine(to: PathPoint(x: u * u * p0.x + 2 * u * t * p1.x + t * t * p2.x,
                                    y: u * u * p0.y + 2 * u * t * p1.y + t * t * p2.y))
            i += 1
        }
        sink.line(to: p2)
    }

    static func flattenCubic<Sink: PathPolylineSink>(_ p0: PathPoint, _ p1: PathPoint, _ p2: PathPoint, _ p3: PathPoint, tolerance: Double,
                                                     cull: BoundingBox?, into sink: inout Sink) {
        if outside(cull, p0, p1, p2, p3) { sink.line(to: p3); return }
        sink.curveTangents(start: firstNonZero(p1 - p0, p2 - p0, p3 - p0), end: firstNonZero(p3 - p2, p3 - p1, p3 - p0))
        let dd = max((p0 - p1 * 2 + p2).length, (p1 - p2 * 2 + p3).length)
        let n = segmentCount(0.75, dd, tolerance)
        let inv = 1.0 / Double(n)
        var i = 1
        while i < n {
            let t = Double(i) * inv, u = 1 - t
            let a = u * u * u, b = 3 * u * u * t, c = 3 * u * t * t, d = t * t * t
            sink.curveLine(to: PathPoint(x: a * p0.x + b * p1.x + c * p2.x + d * p3.x,
                                    y: a * p0.y + b * p1.y + c * p2.y + d * p3.y))
            i += 1
        }
        sink.line(to: p3)
    }

    /// The flattened path as arrays of device-space points, one per subpath,
    /// with whether each was closed. For tests, strokes and debugging; the
    /// rasterizer flattens straight into its edge list instead.
    public func flattened(transform: AffineTransform = .identity, tolerance: Double = FlattenLimits.defaultTolerance) -> [(points: [PathPoint], closed: Bool)] {
        var sink = PolylineCollector()
        flatten(transform: transform, tolerance: tolerance, into: &sink)
        return sink.polylines
    }
}

/// Collects polylines into arrays.
struct PolylineCollector: PathPolylineSink {
    var polylines: [(points: [PathPoint], closed: Bool)] = []
    var current: [PathPoint] = []
    mutating func begin(at p: PathPoint) { current = [p] }
    mutating func line(to p: PathPoint) { current.append(p) }
    mutating func end(closed: Bool) { polylines.append((current, closed)); current = [] }
}
