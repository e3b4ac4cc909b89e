/// Turns a path and a `StrokeStyle` into the outline of the stroke: a path
/// of straight lines to be filled with the non-zero rule.
///
/// Method (in the path's own coordinate space, so a non-uniform transform
/// applied when filling distorts the pen as CoreGraphics does):
/// 1. Flatten in device space and map the points back through the inverse
///    transform, remembering which vertices are corners of the path and
///    which lie inside curves. (Round joins and caps use
///    `tolerance / transform.maxScale` in path units.)
/// 2. Trim to `start…end` of the total length, then cut dashes.
/// 3. For each piece, walk its left side forwards and then its right side
///    backwards (the left side of the reversed piece) with caps between;
///    a closed piece gives two loops of opposite direction instead. On the
///    outer side of a turn the join is drawn (inside curves always round,
///    which at their small angles adds at most a point or two); on the inner
///    side the two offset lines are cut where they cross when that point
///    lies on both, and otherwise routed through the vertex (Skia's pivot),
///    which keeps the union correct under non-zero.
/// Round joins, round caps and dots are polygons whose sagitta is within
/// the tolerance (found by halving the angle).
struct Stroker {
    struct Piece {
        var points: [PathPoint]
        /// `true` where the vertex is a corner of the path (joins apply).
        var corners: [Bool]
        var closed: Bool
        /// For a piece of one point (a zero-length dash or subpath): the
        /// direction its caps face.
        var direction: PathPoint
    }

    /// Collects flattened polylines with their corner flags.
    struct Collector: PathPolylineSink {
        var pieces: [Piece] = []
        var current = Piece(points: [], corners: [], closed: false, direction: PathPoint(1, 0))
        mutating func begin(at p: PathPoint) { current = Piece(points: [p], corners: [true], closed: false, direction: PathPoint(1, 0)) }
        mutating func line(to p: PathPoint) { current.points.append(p); current.corners.append(true) }
        mutating func curveLine(to p: PathPoint) { current.points.append(p); current.corners.append(false) }
        mutating func end(closed: Bool) { current.closed = closed; pieces.append(current) }
    }

    let style: StrokeStyle
    let halfWidth: Double
    let tolerance: Double
    var output = Path()

    init(style: StrokeStyle, tolerance: Double) {
        self.style = style
        self.halfWidth = style.width / 2
        self.tolerance = tolerance
    }

    // MARK: Pieces

    /// Drops repeated points (and, when closed, a last point equal to the first).
    static func cleaned(_ piece: Piece) -> Piece {
        var out = Piece(points: [], corners: [], closed: piece.closed, direction: piece.direction)
        for (i, p) in piece.points.enumerated() {
            if let last = out.points.last, (p - last).length <= 1e-9 {
                out.corners[out.corners.count - 1] = out.corners[out.corners.count - 1] || piece.corners[i]
                continue
            }
            out.points.append(p); out.corners.append(piece.corners[i])
        }
        if out.closed && out.points.count > 1 && (out.points[out.points.count - 1] - out.points[0]).length <= 1e-9 {
            out.points.removeLast(); out.corners.removeLast()
        }
        if out.points.count < 3 { out.closed = false }
        if out.closed && out.points.count == 1 { out.closed = false }
        return out
    }

    /// Segment lengths, the closing one included for closed pieces.
    static func lengths(_ piece: Piece) -> [Double] {
        let n = piece.points.count
        let segs = piece.closed ? n : n - 1
        var out: [Double] = []
        out.reserveCapacity(max(segs, 0))
        var i = 0
        while i < segs { out.append((piece.points[(i + 1) % n] - piece.points[i]).length); i += 1 }
        return out
    }

    /// Extracts the part of a piece between arc lengths `a ≤ b`, moving
    /// forward only (`cursor` and `cursorStart` carry the position between
    /// calls with increasing `a`).
    static func extract(_ piece: Piece, _ lens: [Double], _ a: Double, _ b: Double, cursor: inout Int, cursorStart: inout Double) -> Piece {
        let n = piece.points.count
        let segs = lens.count
        @inline(__always) func point(_ i: Int) -> PathPoint { piece.points[i % n] }
        while cursor < segs - 1 && cursorStart + lens[cursor] < a { cursorStart += lens[cursor]; cursor += 1 }
        let i0 = cursor
        let t0 = lens[i0] > 0 ? min(max((a - cursorStart) / lens[i0], 0), 1) : 0
        var out = Piece(points: [PathPoint.lerp(point(i0), point(i0 + 1), t0)], corners: [true], closed: false, direction: PathPoint(1, 0))
        let d = point(i0 + 1) - point(i0)
        if lens[i0] > 0 { out.direction = d * (1 / lens[i0]) }
        var i = i0, s = cursorStart
        while i < segs - 1 && s + lens[i] < b {
            s += lens[i]; i += 1
            out.points.append(point(i)); out.corners.append(piece.corners[i % n])
        }
        let t1 = lens[i] > 0 ? min(max((b - s) / lens[i], 0), 1) : 1
        out.points.append(PathPoint.lerp(point(i), point(i + 1), t1)); out.corners.append(true)
        cursor = i; cursorStart = s
        return out
    }

    /// The pieces of `start…end` of the whole path's length.
    func trimmed(_ pieces: [Piece]) -> [Piece] {
        var s = style.start.isNaN ? 0 : min(max(style.start, 0), 1)
        var e = style.end.isNaN ? 1 : min(max(style.end, 0), 1)
        if s >= e { return [] }
        if s == 0 && e == 1 { return pieces }
        let allLengths = pieces.map { Stroker.lengths($0) }
        let total = allLengths.reduce(0) { $0 + $1.reduce(0, +) }
        s *= total; e *= total
        var out: [Piece] = []
        var offset = 0.0
        for (k, piece) in pieces.enumerated() {
            let len = allLengths[k].reduce(0, +)
            defer { offset += len }
            if piece.points.count < 2 || offset + len < s || offset > e { continue }
            if offset >= s && offset + len <= e { out.append(piece); continue }
            var c = 0, cs = 0.0
            out.append(Stroker.extract(piece, allLengths[k], max(s - offset, 0), min(e - offset, len), cursor: &c, cursorStart: &cs))
        }
        return out
    }

    /// The dash pattern made even, or `nil` when it is not valid (see
    /// `StrokeStyle`).
    func validDash() -> [Double]? {
        let d = style.dash
        guard !d.isEmpty, d.allSatisfy({ $0 >= 0 && $0.isFinite }) else { return nil }
        let pattern = d.count % 2 == 0 ? d : d + d
        let sum = pattern.reduce(0, +)
        return sum > 0 && sum.isFinite ? pattern : nil
    }

    func dashed(_ pieces: [Piece]) -> [Piece] {
        guard let pattern = validDash() else { return pieces }
        let period = pattern.reduce(0, +)
        let allLengths = pieces.map { Stroker.lengths($0) }
        let total = allLengths.reduce(0) { $0 + $1.reduce(0, +) }
        let onCount = pattern.count / 2
        // Written so NaN fails it: a subpath with a non-finite length made
        // `total` NaN and slipped past a `>` test, and the loop below then
        // walked a long finite subpath in steps of a tiny period (a hang the
        // fuzzer found).
        guard total / period * Double(onCount) <= Double(StrokeStyle.maxDashCount) else { return pieces }
        // The walk below takes one step per pattern entry; this bounds it
        // even where rounding makes steps smaller than their entries.
        var steps = (StrokeStyle.maxDashCount + 1) * pattern.count * 2
        var phase = style.dashPhase.isFinite ? style.dashPhase : 0
        phase -= FloatMath.floor(phase / period) * period              // into [0, period)
        // Far out (|phase / period| beyond 2^52, where no fraction of a
        // period is left) the reduction rounds to anything: 1e39 for a
        // phase of 1e55 and a period of 0.75, which the walk below then
        // spent forever stepping through (a hang the stroke fuzzer found).
        // Such a phase starts the pattern at its beginning.
        if !(phase >= 0 && phase < period) { phase = 0 }
        var out: [Piece] = []
        for (k, piece) in pieces.enumerated() {
            let lens = allLengths[k]
            let len = lens.reduce(0, +)
            if piece.points.count < 2 || !len.isFinite { out.append(piece); continue }
            // The pattern restarts at each subpath, `phase` into it.
            var index = 0, remaining = pattern[0], skipped = phase
            while skipped > 0 {
                if skipped >= remaining { skipped -= remaining; index = (index + 1) % pattern.count; remaining = pattern[index] }
                else { remaining -= skipped; skipped = 0 }
            }
            var pos = 0.0
            var c = 0, cs = 0.0
            while pos <= len && steps > 0 {
                steps -= 1
                let next = min(pos + remaining, len)
                if index % 2 == 0 {
                    out.append(Stroker.extract(piece, lens, pos, next, cursor: &c, cursorStart: &cs))
                }
                if pos + remaining > len { break }
                pos += remaining
                index = (index + 1) % pattern.count
                remaining = pattern[index]
                if pos == len && index % 2 == 1 { break }
            }
        }
        return out
    }

    // MARK: Outline

    @inline(__always) static func left(_ d: PathPoint) -> PathPoint { PathPoint(-d.y, d.x) }

    /// Appends points of the arc around `c` from unit vector `u` to unit
    /// vector `v` (less than half a turn apart), `u`'s point excluded.
    func arc(_ pts: inout [PathPoint], _ c: PathPoint, _ u: PathPoint, _ v: PathPoint, depth: Int = 0) {
        let s = u + v
        let len = s.length
        if depth >= 10 || len < 1e-12 || halfWidth * (1 - len / 2) <= tolerance {
            pts.append(c + v * halfWidth); return
        }
        let m = s * (1 / len)
        arc(&pts, c, u, m, depth: depth + 1)
        arc(&pts, c, m, v, depth: depth + 1)
    }

    /// A cap at end point `e` of a piece heading in direction `d`: from
    /// `e + left(d)·h` to `e − left(d)·h` (both excluded).
    func cap(_ pts: inout [PathPoint], _ e: PathPoint, _ d: PathPoint) {
        let n = Stroker.left(d), h = halfWidth
        switch style.cap {
        case .butt: break
        case .square:
            pts.append(e + (n + d) * h); pts.append(e + (d - n) * h)
        case .round:
            arc(&pts, e, n, d); arc(&pts, e, d, n * -1)
            pts.removeLast()                                          // e − n·h follows
        }
    }

    /// The join at `v` on the left side, from incoming direction `a` to
    /// outgoing `b` (unit), with the adjacent segment lengths.
    func join(_ pts: inout [PathPoint], _ v: PathPoint, _ a: PathPoint, _ b: PathPoint, corner: Bool, lenA: Double, lenB: Double) {
        let h = halfWidth
        let ma = Stroker.left(a), mb = Stroker.left(b)
        let cross = a.x * b.y - a.y * b.x
        let dot = a.x * b.x + a.y * b.y
        if abs(cross) < 1e-12 && dot > 0 {                            // straight on
            pts.append(v + ma * h); return
        }
        let k = ma + mb
        let k2 = k.x * k.x + k.y * k.y
        if cross > 0 {
            // Inner side: the offset lines cross at v + k·2h/|k|², on both
            // segments when h·tan(θ/2) fits in each.
            let tanHalf = k2 > 1e-24 ? (ma - mb).length / k2.squareRootValue : .infinity
            if h * tanHalf <= min(lenA, lenB) {
                pts.append(v + k * (2 * h / k2))
            } else {
                pts.append(v + ma * h); pts.append(v); pts.append(v + mb * h)
            }
            return
        }
        // Outer side.
        pts.append(v + ma * h)
        let style: LineJoin = corner ? self.style.join : .round
        switch style {
        case .bevel:
            pts.append(v + mb * h)
        case .miter:
            let limit = self.style.miterLimit >= 1 ? self.style.miterLimit : 1
            // Miter length over width: 1 / sin(θ/2) = 2 / |k| for unit normals.
            if k2 > 1e-24 && 4 / k2 <= limit * limit {
                pts.append(v + k * (2 * h / k2))
            }
            pts.append(v + mb * h)
        case .round:
            if k2 < 1e-12 {                                              // a U-turn: through the forward direction
                arc(&pts, v, ma, a); arc(&pts, v, a, mb)
            } else {
                let mid = k * (1 / k2.squareRootValue)
                arc(&pts, v, ma, mid); arc(&pts, v, mid, mb)
            }
        }
    }

    /// Appends the outline of one piece to `output`.
    mutating func outline(_ raw: Piece) {
        let piece = Stroker.cleaned(raw)
        let p = piece.points, n = p.count
        let h = halfWidth
        guard n > 0 else { return }
        if n == 1 {
            // A dot: only round and square caps draw one.
            let d = piece.direction, m = Stroker.left(d), c = p[0]
            var pts: [PathPoint] = []
            switch style.cap {
            case .butt: return
            case .square: pts = [c + (m - d) * h, c + (m + d) * h, c + (d - m) * h, c - (m + d) * h]
            case .round:
                pts = [c + m * h]
                arc(&pts, c, m, d); arc(&pts, c, d, m * -1); arc(&pts, c, m * -1, d * -1); arc(&pts, c, d * -1, m)
                pts.removeLast()
            }
            addContour(pts)
            return
        }
        let segs = piece.closed ? n : n - 1
        var dirs: [PathPoint] = [], lens: [Double] = []
        dirs.reserveCapacity(segs); lens.reserveCapacity(segs)
        for i in 0..<segs {
            let d = p[(i + 1) % n] - p[i]
            let l = d.length
            dirs.append(d * (1 / l)); lens.append(l)
        }
        if piece.closed {
            var outer: [PathPoint] = [], inner: [PathPoint] = []
            for i in 0..<n {
                let a = dirs[(i + segs - 1) % segs], b = dirs[i]
                join(&outer, p[i], a, b, corner: piece.corners[i], lenA: lens[(i + segs - 1) % segs], lenB: lens[i])
            }
            // The reverse: vertex i is entered along −dirs[i] and left along −dirs[i−1].
            var i = n - 1
            while i >= 0 {
                let a = dirs[i] * -1, b = dirs[(i + segs - 1) % segs] * -1
                join(&inner, p[i], a, b, corner: piece.corners[i], lenA: lens[i], lenB: lens[(i + segs - 1) % segs])
                i -= 1
            }
            addContour(outer); addContour(inner)
            return
        }
        var pts: [PathPoint] = [p[0] + Stroker.left(dirs[0]) * h]
        for i in 1..<(n - 1) {
            join(&pts, p[i], dirs[i - 1], dirs[i], corner: piece.corners[i], lenA: lens[i - 1], lenB: lens[i])
        }
        pts.append(p[n - 1] + Stroker.left(dirs[segs - 1]) * h)
        cap(&pts, p[n - 1], dirs[segs - 1])
        pts.append(p[n - 1] - Stroker.left(dirs[segs - 1]) * h)
        var i = n - 2
        while i >= 1 {
            join(&pts, p[i], dirs[i] * -1, dirs[i - 1] * -1, corner: piece.corners[i], lenA: lens[i], lenB: lens[i - 1])
            i -= 1
        }
        pts.append(p[0] - Stroker.left(dirs[0]) * h)
        cap(&pts, p[0], dirs[0] * -1)
        addContour(pts)
    }

    mutating func addContour(_ pts: [PathPoint]) {
        guard pts.count > 2 else { return }
        output.move(to: pts[0])
        for q in pts.dropFirst() { output.line(to: q) }
        output.close()
    }
}

extension Double {
    @inline(__always) var squareRootValue: Double { FloatMath.squareRoot(self) }
}

extension Path {
    /// The outline of this path stroked with `style`, in this path's
    /// coordinate space: fill it with the non-zero rule (and the same
    /// `transform`) to draw the stroke. `tolerance` is in device pixels
    /// under `transform`, which only scales it here.
    ///
    /// Degenerate styles have the results documented on `StrokeStyle`; a
    /// transform without an inverse (it flattens everything, so the stroke
    /// would cover no area) or one that is not finite gives an empty path.
    ///
    /// - Complexity: O(flattened points + dashes + join and cap points).
    public func stroked(_ style: StrokeStyle, transform: AffineTransform = .identity,
                        tolerance: Double = FlattenLimits.defaultTolerance) -> Path {
        guard style.width > 0, style.width.isFinite else { return Path() }
        let scale = transform.maxScale
        guard scale > 0, scale.isFinite, let inverse = transform.inverted() else { return Path() }
        let deviceTolerance = tolerance.isNaN ? FlattenLimits.defaultTolerance
            : min(max(tolerance, FlattenLimits.toleranceRange.lowerBound), FlattenLimits.toleranceRange.upperBound)
        // Flatten in device space (so the tolerance is in pixels however far
        // the transform zooms), then map the points back: affine maps keep
        // points of a curve on the curve.
        var collector = Stroker.Collector()
        flatten(transform: transform, tolerance: deviceTolerance, into: &collector)
        var stroker = Stroker(style: style, tolerance: deviceTolerance / scale)
        var pieces = collector.pieces.map { piece -> Stroker.Piece in
            var q = piece
            for i in q.points.indices { q.points[i] = inverse.apply(q.points[i]) }
            return Stroker.cleaned(q)
        }
        pieces = stroker.trimmed(pieces)
        pieces = stroker.dashed(pieces)
        for piece in pieces { stroker.outline(piece) }
        return stroker.output
    }
}
