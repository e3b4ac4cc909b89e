/// The commands of a `Path`. Each consumes points from `Path.points`:
/// `move` 1, `line` 1, `quad` 2 (control, end), `cubic` 3 (control 1,
/// control 2, end), `close` none.
public enum PathVerb: UInt8, Sendable {
    case move, line, quad, cubic, close

    /// How many points the verb consumes.
    @inlinable public var pointCount: Int {
        switch self {
        case .move, .line: return 1
        case .quad: return 2
        case .cubic: return 3
        case .close: return 0
        }
    }
}

/// A vector path: subpaths of lines and quadratic and cubic Bézier curves, in
/// its own coordinate space (y down), stored as a verb list and a point list
/// (copy-on-write arrays, so copies are cheap until mutated).
///
/// Building rules (the same as Skia's and SVG's):
/// - `move` starts a subpath; two `move`s in a row keep only the second.
/// - A `line`/`quad`/`cubic`/`arc` with no open subpath first starts one at the
///   current point: the start of the subpath closed last, or the origin for
///   an empty path.
/// - `close` joins the current point to the subpath's start and ends it.
///
/// Filling closes every subpath implicitly. Coordinates may be anything,
/// including NaN and infinities; see `flatten` for what drawing does with
/// them.
public struct Path: Equatable, Sendable {
    public private(set) var verbs: [PathVerb] = []
    public private(set) var points: [PathPoint] = []
    /// Where the open subpath started, or `nil` when none is open.
    @usableFromInline var subpathStart: PathPoint?
    /// The start of the last subpath, where a drawing command with no open
    /// subpath begins.
    @usableFromInline var lastMove = PathPoint.zero

    public init() {}

    /// The path holds no drawing commands (moves alone draw nothing).
    public var isEmpty: Bool {
        // An index loop: `for … in` allocates an iterator in unoptimised
        // builds, and shapes ask this every frame.
        var i = 0
        while i < verbs.count { if verbs[i] != .move { return false }; i += 1 }
        return true
    }

    /// The last verb.
    @usableFromInline var lastVerb: PathVerb? { verbs.last }

    /// The point the next segment starts from.
    public var currentPoint: PathPoint? {
        guard let last = verbs.last else { return nil }
        return last == .close ? lastMove : points[points.count - 1]
    }

    public mutating func move(to p: PathPoint) {
        if lastVerb == .move {
            points[points.count - 1] = p
        } else {
            verbs.append(.move); points.append(p)
        }
        subpathStart = p
        lastMove = p
    }

    @usableFromInline mutating func ensureSubpath() {
        if subpathStart == nil { move(to: lastMove) }
    }

    public mutating func line(to p: PathPoint) {
        ensureSubpath()
        verbs.append(.line); points.append(p)
    }

    public mutating func quad(to p: PathPoint, control c: PathPoint) {
        ensureSubpath()
        verbs.append(.quad); points.append(c); points.append(p)
    }

    public mutating func cubic(to p: PathPoint, control1 c1: PathPoint, control2 c2: PathPoint) {
        ensureSubpath()
        verbs.append(.cubic); points.append(c1); points.append(c2); points.append(p)
    }

    /// Ends the open subpath with a segment back to its start. Does nothing
    /// when no subpath is open.
    public mutating func close() {
        guard subpathStart != nil else { return }
        if lastVerb == .move {            // a lone move: nothing to close
            verbs.removeLast(); points.removeLast()
        } else {
            verbs.append(.close)
        }
        subpathStart = nil
    }

    /// The path point by point between `self` (`t` = 0) and `other`
    /// (`t` = 1; beyond either extrapolates), when both have the same verbs
    /// and point count; `nil` otherwise. The result shares `self`'s verb
    /// storage: making it allocates one point array
    /// (`setInterpolation(from:to:_:)` reuses a path's own instead).
    ///
    /// - Complexity: O(points).
    public func interpolated(to other: Path, _ t: Double) -> Path? {
        var p = Path()
        return p.setInterpolation(from: self, to: other, t) ? p : nil
    }

    /// Makes this path the one between `a` (`t` = 0) and `b` (`t` = 1;
    /// beyond either extrapolates), point by point, when they have the same
    /// verbs and point count; returns false and leaves the path as it was
    /// otherwise. The verbs are shared with `a`; the points are written into
    /// this path's own storage, so a path morphed every frame in the same
    /// variable allocates nothing once its storage is large enough and not
    /// shared with a copy.
    ///
    /// - Complexity: O(points).
    public mutating func setInterpolation(from a: Path, to b: Path, _ t: Double) -> Bool {
        guard a.verbs == b.verbs, a.points.count == b.points.count else { return false }
        @inline(__always) func lerp(_ u: PathPoint, _ v: PathPoint) -> PathPoint {
            PathPoint(x: u.x + (v.x - u.x) * t, y: u.y + (v.y - u.y) * t)
        }
        verbs = a.verbs
        let n = a.points.count
        points.removeAll(keepingCapacity: true)
        points.reserveCapacity(n)
        a.points.withUnsafeBufferPointer { pa in
            b.points.withUnsafeBufferPointer { pb in
                var k = 0
                while k < n { points.append(lerp(pa[k], pb[k])); k += 1 }
            }
        }
        // The bookkeeping points are points of the path (the last move's),
        // so they move with it.
        lastMove = lerp(a.lastMove, b.lastMove)
        if let s = a.subpathStart, let o = b.subpathStart { subpathStart = lerp(s, o) } else { subpathStart = a.subpathStart }
        return true
    }

    /// Makes this path equal to `other`: its verbs shared, its points
    /// copied into this path's own storage, so that keeping a copy of a
    /// path that changes every frame (a cache's key) neither allocates once
    /// the storage is large enough nor holds on to `other`'s storage, which
    /// its owner can then reuse (`setInterpolation(from:to:_:)`).
    ///
    /// - Complexity: O(points).
    public mutating func setContents(of other: Path) {
        verbs = other.verbs
        points.removeAll(keepingCapacity: true)
        points.append(contentsOf: other.points)
        subpathStart = other.subpathStart
        lastMove = other.lastMove
    }

    /// Empties the path. With `keepingCapacity`, the verb and point storage
    /// is kept, so a path rebuilt every frame in the same variable does not
    /// allocate (once no copy of it is alive).
    public mutating func removeAll(keepingCapacity: Bool = false) {
        verbs.removeAll(keepingCapacity: keepingCapacity)
        points.removeAll(keepingCapacity: keepingCapacity)
        subpathStart = nil
        lastMove = .zero
    }

    /// Appends all of `other`'s subpaths.
    public mutating func append(_ other: Path) {
        other.forEachSegment { seg in
            switch seg {
            case .move(let p): move(to: p)
            case .line(_, let p): line(to: p)
            case .quad(_, let c, let p): quad(to: p, control: c)
            case .cubic(_, let c1, let c2, let p): cubic(to: p, control1: c1, control2: c2)
            case .close: close()
            }
        }
    }

    /// The path with every point mapped through `t`. (Affine maps take Bézier
    /// curves to the Bézier curves of the mapped control points, so this is
    /// exact.)
    public func applying(_ t: AffineTransform) -> Path {
        var result = self
        var i = 0
        while i < result.points.count { result.points[i] = t.apply(result.points[i]); i += 1 }
        if let s = result.subpathStart { result.subpathStart = t.apply(s) }
        result.lastMove = t.apply(result.lastMove)
        return result
    }

    /// The box of all points, control points included: it holds the whole
    /// path, but can be larger than the curves' tight bounds. Non-finite
    /// points are skipped. `BoundingBox.empty` for a path with no points.
    ///
    /// - Complexity: O(number of points).
    public var bounds: BoundingBox {
        var b = BoundingBox.empty
        for p in points where p.isFinite { b.add(p) }
        return b
    }

    /// One drawing command with its start point.
    public enum Segment {
        case move(PathPoint)
        case line(PathPoint, PathPoint)
        case quad(PathPoint, PathPoint, PathPoint)
        case cubic(PathPoint, PathPoint, PathPoint, PathPoint)
        /// Closes the subpath that started at the given point.
        case close(PathPoint)
    }

    /// Calls `body` for each command in order, with the start points filled in.
    @inlinable public func forEachSegment(_ body: (Segment) -> Void) {
        var pi = 0
        var current = PathPoint.zero, start = PathPoint.zero
        for v in verbs {
            switch v {
            case .move:
                current = points[pi]; start = current; body(.move(current))
            case .line:
                body(.line(current, points[pi])); current = points[pi]
            case .quad:
                body(.quad(current, points[pi], points[pi + 1])); current = points[pi + 1]
            case .cubic:
                body(.cubic(current, points[pi], points[pi + 1], points[pi + 2])); current = points[pi + 2]
            case .close:
                body(.close(start)); current = start
            }
            pi += v.pointCount
        }
    }
}
