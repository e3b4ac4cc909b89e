/// Turns a path and a `StrokeStyle` into the outline of the stroke: a path
/// of straight lines to be filled with the non-zero rule.
///
/// Method (in the path's own coordinate space, so a non-uniform transform
/// applied when filling distorts the pen as CoreGraphics does):
/// 1. Flatten in device space and map the points back through the inverse
///    transform, remembering which vertices are corners of the path and
///    which lie inside curves, and, where a curve ends or begins at a
///    vertex, its analytic tangent there (the flattened segment's
///    direction is off by half the segment's turn, which a miter
///    magnifies: 1.6 px at a 16 px pen in `StrokeTangentTests`). (Round
///    joins and caps use `tolerance / transform.maxScale` in path units.)
/// 2. Trim to `start…end` of the total length, then cut dashes.
/// 3. For each piece, walk its left side forwards and then its right side
///    backwards (the left side of the reversed piece) with caps between;
///    a closed piece gives two loops of opposite direction instead. On the
///    outer side of a turn the join is drawn (inside curves always round,
///    which at their small angles adds at most a point or two); on the inner
///    side the two offset lines are cut where they cross when that point
///    lies on both, and otherwise routed through the vertex (Skia's pivot),
///    which keeps the union correct under non-zero. Joins and caps at a
///    curve's end are made between its tangents, after the offset line
///    turns from the last segment to the tangent as inside a curve.
/// Round joins, round caps and dots are polygons whose sagitta is within
/// the tolerance (found by halving the angle).
/// 4. The work limit: past `StrokeStyle.maxOutlinePoints` points of
///    outline, arcs are single chords and no further piece is begun.
struct Stroker {
    struct Piece {
        var points: [PathPoint]
        /// `true` where the vertex is a corner of the path (joins apply).
        var corners: [Bool]
        /// Per vertex, the direction the path arrives in and the one it
        /// leaves in where a curve ends or begins there: its analytic
        /// tangent (unit, in path space once mapped back), which joins and
        /// caps use instead of the flattened segment's direction (that is
        /// off by half a segment's turn, which a miter magnifies). Zero:
        /// use the segment.
        var inTangents: [PathPoint]
        var outTangents: [PathPoint]
        var closed: Bool
        /// For a piece of one point (a zero-length dash or subpath): the
        /// direction its caps face.
        var direction: PathPoint

        static var empty: Piece {
            Piece(points: [], corners: [], inTangents: [], outTangents: [], closed: false, direction: PathPoint(1, 0))
        }

        /// Appends a vertex with no tangents of its own.
        mutating func append(_ p: PathPoint, corner: Bool) {
            points.append(p); corners.append(corner); inTangents.append(.zero); outTangents.append(.zero)
        }

        /// Drops the last `k` vertices.
        mutating func removeLast(_ k: Int) {
            points.removeLast(k); corners.removeLast(k); inTangents.removeLast(k); outTangents.removeLast(k)
        }

        /// Empties the piece, keeping its storage.
        mutating func reset() {
            points.removeAll(keepingCapacity: true)
            corners.removeAll(keepingCapacity: true)
            inTangents.removeAll(keepingCapacity: true)
            outTangents.removeAll(keepingCapacity: true)
            closed = false
            direction = PathPoint(1, 0)
        }

        /// Becomes a copy of `other`, in its own storage.
        mutating func copy(_ other: Piece) {
            reset()
            points.append(contentsOf: other.points)
            corners.append(contentsOf: other.corners)
            inTangents.append(contentsOf: other.inTangents)
            outTangents.append(contentsOf: other.outTangents)
            closed = other.closed
            direction = other.direction
        }
    }

    /// Pieces whose storage is kept from stroke to stroke: the first
    /// `count` of `items` are in use.
    struct PieceList {
        var items: [Piece] = []
        var count = 0

        /// Starts an empty piece (reusing an old one's storage); its index.
        mutating func add() -> Int {
            if count == items.count { items.append(Piece.empty) } else { items[count].reset() }
            count += 1
            return count - 1
        }
    }

    /// Collects flattened polylines with their corner flags and the
    /// tangents at curve ends (device space, not normalised).
    struct Collector: PathPolylineSink {
        var list = PieceList()
        var open = false
        /// The tangent at the end of the curve under way, for the next
        /// corner vertex.
        var pendingIn = PathPoint.zero
        mutating func begin(at p: PathPoint) {
            if open { list.count -= 1 }          // a polyline begun and never ended is dropped
            let k = list.add()
            list.items[k].append(p, corner: true)
            open = true
            pendingIn = .zero
        }
        mutating func line(to p: PathPoint) {
            let k = list.count - 1
            list.items[k].append(p, corner: true)
            list.items[k].inTangents[list.items[k].inTangents.count - 1] = pendingIn
            pendingIn = .zero
        }
        mutating func curveLine(to p: PathPoint) {
            list.items[list.count - 1].append(p, corner: false)
        }
        mutating func curveTangents(start: PathPoint, end: PathPoint) {
            let k = list.count - 1
            list.items[k].outTangents[list.items[k].outTangents.count - 1] = start
            pendingIn = end
        }
        mutating func end(closed: Bool) { list.items[list.count - 1].closed = closed; open = false }
    }

    let style: StrokeStyle
    let halfWidth: Double
    let tolerance: Double
    let scratch: StrokeScratch
    var output = Path()
    /// Points of the outline under way not yet in `output` nor in the
    /// array an `arc` appends to (a closed piece's outer loop while its
    /// inner one is built).
    var pending = 0

    /// The outline has reached `StrokeStyle.maxOutlinePoints`.
    @inline(__always) func overBudget(_ building: Int) -> Bool {
        output.points.count + pending + building >= StrokeStyle.maxOutlinePoints
    }

    init(style: StrokeStyle, tolerance: Double, scratch: StrokeScratch = StrokeScratch()) {
        self.style = style
        self.halfWidth = style.width / 2
        self.tolerance = tolerance
        self.scratch = scratch
    }

    // MARK: Pieces

    /// A device-space tangent mapped through `inverse`'s linear part and
    /// made unit; zero (no tangent) when it is zero or does not survive.
    @inline(__always) static func direction(_ inverse: AffineTransform, _ v: PathPoint) -> PathPoint {
        if v == .zero { return .zero }
        let m = PathPoint(inverse.a * v.x + inverse.c * v.y, inverse.b * v.x + inverse.d * v.y)
        let l = m.length
        return l > 0 && l.isFinite ? m * (1 / l) : .zero
    }

    /// Drops repeated points (and, when closed, a last point equal to the
    /// first), in place.
    static func clean(_ piece: inout Piece) {
        let n = piece.points.count
        var w = 0, i = 0
        while i < n {
            let p = piece.points[i]
            if w > 0 && (p - piece.points[w - 1]).length <= 1e-9 {
                // One vertex: arriving as the first copy did, leaving as
                // the last does (where either says).
                piece.corners[w - 1] = piece.corners[w - 1] || piece.corners[i]
                if piece.inTangents[w - 1] == .zero { piece.inTangents[w - 1] = piece.inTangents[i] }
                if piece.outTangents[i] != .zero { piece.outTangents[w - 1] = piece.outTangents[i] }
            } else {
                piece.points[w] = p; piece.corners[w] = piece.corners[i]
                piece.inTangents[w] = piece.inTangents[i]; piece.outTangents[w] = piece.outTangents[i]
                w += 1
            }
            i += 1
        }
        if w < n { piece.removeLast(n - w) }
        if piece.closed && piece.points.count > 1
            && (piece.points[piece.points.count - 1] - piece.points[0]).length <= 1e-9 {
            let last = piece.points.count - 1
            if piece.inTangents[0] == .zero { piece.inTangents[0] = piece.inTangents[last] }
            piece.removeLast(1)
        }
        if piece.points.count < 3 { piece.closed = false }
    }

    static func cleaned(_ piece: Piece) -> Piece {
        var q = Piece.empty
        q.copy(piece)
        clean(&q)
        return q
    }

    /// Segment lengths, the closing one included for closed pieces, into
    /// `out` (emptied first): the length of the curve each segment stands
    /// for, which trims and dashes are measured in.
    ///
    /// A chord of a curve is shorter than the arc it replaces: on a circle,
    /// by the factor sin(α)/α, α the angle between the chord and the
    /// tangent at either end (half the arc's turn). Summed over a
    /// flattened curve that is about tolerance / 3r of its length (2 px
    /// over 12 laps of a circle of radius 40 at 0.1 px), so a pattern
    /// measured on the chords drifts ahead lap by lap. Each segment of a
    /// curve is lengthened by α/sin(α) from the tangents at its ends: the
    /// curve's own tangent where it starts or ends there, else the
    /// direction between the neighbouring points (the flattened points lie
    /// on the curve). A straight segment (no tangent at either end) keeps
    /// its length. `DashArcLengthTests` holds dashes to within 0.02 px of
    /// the curves' integrated arc lengths.
    static func lengths(_ piece: Piece, into out: inout [Double]) {
        out.removeAll(keepingCapacity: true)
        let n = piece.points.count
        let segs = piece.closed ? n : n - 1
        var i = 0
        while i < segs {
            let j = (i + 1) % n
            let chord = piece.points[j] - piece.points[i]
            let length = chord.length
            var factor = 1.0
            if length > 0 {
                let leaving = tangent(piece, at: i, leaving: true), arriving = tangent(piece, at: j, leaving: false)
                let f0 = arcFactor(leaving, chord, length), f1 = arcFactor(arriving, chord, length)
                if f0 > 0 && f1 > 0 { factor = (f0 + f1) / 2 } else if f0 > 0 { factor = f0 } else if f1 > 0 { factor = f1 }
            }
            out.append(length * factor)
            i += 1
        }
    }

    /// The curve's direction at vertex `i` (not normalised; zero where the
    /// vertex is a corner with no curve tangent on that side, or its
    /// neighbours are missing).
    @inline(__always)
    static func tangent(_ piece: Piece, at i: Int, leaving: Bool) -> PathPoint {
        let n = piece.points.count
        if piece.corners[i] { return leaving ? piece.outTangents[i] : piece.inTangents[i] }
        guard piece.closed || (i > 0 && i < n - 1) else { return .zero }
        return piece.points[(i + 1) % n] - piece.points[(i + n - 1) % n]
    }

    /// α/sin(α) for the angle α between `tangent` and `chord` (of length
    /// `length`), by the series of asin(x)/x in x² = sin²α; 0 when there
    /// is no tangent or the angle is no smooth curve's (over 45°, or
    /// against the chord).
    @inline(__always)
    static func arcFactor(_ tangent: PathPoint, _ chord: PathPoint, _ length: Double) -> Double {
        let t2 = tangent.x * tangent.x + tangent.y * tangent.y
        guard t2 > 0, t2.isFinite else { return 0 }
        let dot = tangent.x * chord.x + tangent.y * chord.y
        let cross = tangent.x * chord.y - tangent.y * chord.x
        let s2 = cross * cross / (t2 * length * length)
        guard dot > 0, s2 <= 0.5 else { return 0 }
        return 1 + s2 * (1.0 / 6 + s2 * (3.0 / 40 + s2 * (5.0 / 112 + s2 * (35.0 / 1152))))
    }

    /// The sum of `lengths`, added in order from 0.
    static func sum(_ values: [Double]) -> Double {
        var total = 0.0, i = 0
        while i < values.count { total += values[i]; i += 1 }
        return total
    }

    /// Extracts the part of a piece between arc lengths `a ≤ b` into `out`,
    /// moving forward only (`cursor` and `cursorStart` carry the position
    /// between calls with increasing `a`).
    static func extract(_ piece: Piece, _ lens: [Double], _ a: Double, _ b: Double, cursor: inout Int, cursorStart: inout Double,
                        into out: inout Piece) {
        let n = piece.points.count
        let segs = lens.count
        @inline(__always) func point(_ i: Int) -> PathPoint { piece.points[i % n] }
        while cursor < segs - 1 && cursorStart + lens[cursor] < a { cursorStart += lens[cursor]; cursor += 1 }
        let i0 = cursor
        let t0 = lens[i0] > 0 ? min(max((a - cursorStart) / lens[i0], 0), 1) : 0
        out.reset()
        out.append(PathPoint.lerp(point(i0), point(i0 + 1), t0), corner: true)
        if t0 == 0 { out.outTangents[0] = piece.outTangents[i0 % n] }      // begins at a curve's start
        let d = point(i0 + 1) - point(i0)
        if lens[i0] > 0 { out.direction = d * (1 / lens[i0]) }
        var i = i0, s = cursorStart
        while i < segs - 1 && s + lens[i] < b {
            s += lens[i]; i += 1
            out.append(point(i), corner: piece.corners[i % n])
            out.inTangents[out.inTangents.count - 1] = piece.inTangents[i % n]
            out.outTangents[out.outTangents.count - 1] = piece.outTangents[i % n]
        }
        let t1 = lens[i] > 0 ? min(max((b - s) / lens[i], 0), 1) : 1
        out.append(PathPoint.lerp(point(i), point(i + 1), t1), corner: true)
        if t1 == 1 { out.inTangents[out.inTangents.count - 1] = piece.inTangents[(i + 1) % n] }  // ends at a curve's end
        cursor = i; cursorStart = s
    }

    /// The pieces of `start…end` of the whole path's length, into `out`;
    /// false when that is all of `pieces` (nothing written: use them).
    func trimmed(_ pieces: PieceList, into out: inout PieceList) -> Bool {
        var s = style.start.isNaN ? 0 : min(max(style.start, 0), 1)
        var e = style.end.isNaN ? 1 : min(max(style.end, 0), 1)
        out.count = 0
        if s >= e { return true }
        if s == 0 && e == 1 { return false }
        var total = 0.0, k = 0
        while k < pieces.count {
            Stroker.lengths(pieces.items[k], into: &scratch.lengths)
            total += Stroker.sum(scratch.lengths)
            k += 1
        }
        s *= total; e *= total
        var offset = 0.0
        var lengthsOf = pieces.count - 1        // `scratch.lengths` holds the last piece's
        k = 0
        while k < pieces.count {
            defer { k += 1 }
            let piece = pieces.items[k]
            if lengthsOf != k { Stroker.lengths(piece, into: &scratch.lengths); lengthsOf = k }
            let len = Stroker.sum(scratch.lengths)
            defer { offset += len }
            if piece.points.count < 2 || offset + len < s || offset > e { continue }
            let slot = out.add()
            if offset >= s && offset + len <= e { out.items[slot].copy(piece); continue }
            var c = 0, cs = 0.0
            Stroker.extract(piece, scratch.lengths, max(s - offset, 0), min(e - offset, len), cursor: &c, cursorStart: &cs,
                            into: &out.items[slot])
        }
        return true
    }

    /// The dash pattern made even into `pattern`, or false when it is not
    /// valid (see `StrokeStyle`).
    func validDash(into pattern: inout [Double]) -> Bool {
        let d = style.dash
        pattern.removeAll(keepingCapacity: true)
        guard !d.isEmpty else { return false }
        var i = 0
        while i < d.count { guard d[i] >= 0 && d[i].isFinite else { return false }; i += 1 }
        pattern.append(contentsOf: d)
        if d.count % 2 != 0 { pattern.append(contentsOf: d) }
        let sum = Stroker.sum(pattern)
        return sum > 0 && sum.isFinite
    }

    /// The dash pattern made even, or `nil` when it is not valid.
    func validDash() -> [Double]? {
        var pattern: [Double] = []
        return validDash(into: &pattern) ? pattern : nil
    }

    /// The dashes of `pieces` into `out`; false when the stroke is not
    /// dashed (nothing written: use `pieces`).
    func dashed(_ pieces: PieceList, into out: inout PieceList) -> Bool {
        out.count = 0
        guard validDash(into: &scratch.pattern) else { return false }
        let pattern = scratch.pattern
        let period = Stroker.sum(pattern)
        var total = 0.0, k = 0
        while k < pieces.count {
            Stroker.lengths(pieces.items[k], into: &scratch.lengths)
            total += Stroker.sum(scratch.lengths)
            k += 1
        }
        let onCount = pattern.count / 2
        // Written so NaN fails it: a subpath with a non-finite length made
        // `total` NaN and slipped past a `>` test, and the loop below then
        // walked a long finite subpath in steps of a tiny period (a hang the
        // fuzzer found).
        guard total / period * Double(onCount) <= Double(StrokeStyle.maxDashCount) else { return false }
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
        k = 0
        while k < pieces.count {
            defer { k += 1 }
            let piece = pieces.items[k]
            Stroker.lengths(piece, into: &scratch.lengths)
            let lens = scratch.lengths
            let len = Stroker.sum(lens)
            if piece.points.count < 2 || !len.isFinite { out.items[out.add()].copy(piece); continue }
            // The pattern restarts at each subpath, `phase` into it.
            var index = 0, remaining = pattern[0], skipped = phase
            while skipped > 0 {
                if skipped >= remaining { skipped -= remaining; index = (index + 1) % pattern.count; remaining = pattern[index] }
                else { remaining -= skipped; skipped = 0 }
            }
            var pos = 0.0
            var c = 0, cs = 0.0
            let firstSlot = out.count, startsOn = index % 2 == 0
            var endsOn = false
            // The work limit: every dash drawn has at least 4 outline
            // points, so dashes past maxOutlinePoints / 4 would be left out
            // of the outline anyway; cutting them here spares the walk.
            while pos <= len && steps > 0 && out.count < StrokeStyle.maxOutlinePoints / 4 {
                steps -= 1
                let next = min(pos + remaining, len)
                if index % 2 == 0 {
                    let slot = out.add()
                    Stroker.extract(piece, lens, pos, next, cursor: &c, cursorStart: &cs, into: &out.items[slot])
                    endsOn = next >= len
                }
                if pos + remaining > len { break }
                pos += remaining
                index = (index + 1) % pattern.count
                remaining = pattern[index]
                if pos == len && index % 2 == 1 { break }
            }
            if piece.closed && startsOn && endsOn && out.count > firstSlot {
                Stroker.joinAcrossStart(of: piece, firstSlot: firstSlot, in: &out)
            }
        }
        return true
    }

    /// On a closed piece whose pattern is on across its start point, the
    /// last dash (ending there) and the first (starting there) are one
    /// dash: joined at that point as the path's own vertex is (a corner
    /// joins, a point inside a curve runs on), with no caps — cairo, Skia
    /// and Core Graphics draw it so. A single dash covering the whole
    /// piece is the closed piece itself. The last dash is put in front of
    /// the first, in the first's slot, and its own slot dropped (storage
    /// kept): each slot keeps its role from stroke to stroke, so their
    /// capacities settle and a dash animation stops allocating.
    static func joinAcrossStart(of piece: Piece, firstSlot: Int, in out: inout PieceList) {
        let last = out.count - 1
        if last == firstSlot {
            out.items[last].copy(piece)
            return
        }
        let tail = out.items[last]
        let k = tail.points.count - 1            // its last point is the first dash's first
        out.items[firstSlot].points.insert(contentsOf: tail.points[0..<k], at: 0)
        out.items[firstSlot].corners.insert(contentsOf: tail.corners[0..<k], at: 0)
        out.items[firstSlot].inTangents.insert(contentsOf: tail.inTangents[0..<k], at: 0)
        out.items[firstSlot].outTangents.insert(contentsOf: tail.outTangents[0..<k], at: 0)
        out.items[firstSlot].corners[k] = piece.corners.isEmpty ? true : piece.corners[0]
        out.items[firstSlot].inTangents[k] = piece.inTangents.isEmpty ? .zero : piece.inTangents[0]
        out.count -= 1
    }

    /// `dashed(_:into:)` on arrays (tests).
    func dashed(_ pieces: [Piece]) -> [Piece] {
        var list = PieceList(items: pieces, count: pieces.count)
        var out = PieceList()
        guard dashed(list, into: &out) else { return pieces }
        list = out
        return Array(list.items[0..<list.count])
    }

    // MARK: Outline

    @inline(__always) static func left(_ d: PathPoint) -> PathPoint { PathPoint(-d.y, d.x) }

    /// Appends points of the arc around `c` from unit vector `u` to unit
    /// vector `v` (less than half a turn apart), `u`'s point excluded.
    func arc(_ pts: inout [PathPoint], _ c: PathPoint, _ u: PathPoint, _ v: PathPoint, depth: Int = 0) {
        let s = u + v
        let len = s.length
        if depth >= 10 || len < 1e-12 || halfWidth * (1 - len / 2) <= tolerance || overBudget(pts.count) {
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
        guard !overBudget(0) else { return }                         // the work limit: no new piece
        pending = 0
        scratch.work.copy(raw)
        Stroker.clean(&scratch.work)
        let piece = scratch.work
        let p = piece.points, n = p.count
        let h = halfWidth
        guard n > 0 else { return }
        scratch.outer.removeAll(keepingCapacity: true)
        scratch.inner.removeAll(keepingCapacity: true)
        if n == 1 {
            // A dot: only round and square caps draw one.
            let d = piece.direction, m = Stroker.left(d), c = p[0]
            switch style.cap {
            case .butt: return
            case .square:
                scratch.outer.append(c + (m - d) * h); scratch.outer.append(c + (m + d) * h)
                scratch.outer.append(c + (d - m) * h); scratch.outer.append(c - (m + d) * h)
            case .round:
                scratch.outer.append(c + m * h)
                arc(&scratch.outer, c, m, d); arc(&scratch.outer, c, d, m * -1)
                arc(&scratch.outer, c, m * -1, d * -1); arc(&scratch.outer, c, d * -1, m)
                scratch.outer.removeLast()
            }
            addContour(scratch.outer)
            return
        }
        let segs = piece.closed ? n : n - 1
        scratch.dirs.removeAll(keepingCapacity: true)
        scratch.lens.removeAll(keepingCapacity: true)
        var i = 0
        while i < segs {
            let d = p[(i + 1) % n] - p[i]
            let l = d.length
            scratch.dirs.append(d * (1 / l)); scratch.lens.append(l)
            i += 1
        }
        let dirs = scratch.dirs, lens = scratch.lens
        let tin = piece.inTangents, tout = piece.outTangents
        // The directions vertex i is entered and left in: a curve's own
        // tangent where one ends or begins there, else the segment's.
        @inline(__always) func entering(_ i: Int) -> PathPoint {
            tin[i] != .zero ? tin[i] : dirs[(i + segs - 1) % segs]
        }
        @inline(__always) func leaving(_ i: Int) -> PathPoint {
            tout[i] != .zero ? tout[i] : dirs[i % segs]
        }
        // The join at vertex i from segment direction `a` to segment
        // direction `b` (forwards or reversed): where a curve's tangent
        // stands in for a segment's, the offset line first turns from the
        // segment to the tangent as inside a curve (round outside; inside,
        // cut where the offset lines cross, or through the vertex when the
        // pen is wider than the segment is long), and the join proper
        // (miter, bevel, round, or a cap) is between the tangents. The
        // turn is at most half a flattened segment's, a sliver of area
        // within the flattening tolerance.
        @inline(__always) func joinAt(_ pts: inout [PathPoint], _ i: Int, _ a: PathPoint, _ ta: PathPoint,
                                      _ b: PathPoint, _ tb: PathPoint, lenA: Double, lenB: Double) {
            if ta != a { join(&pts, p[i], a, ta, corner: false, lenA: lenA, lenB: lenA) }
            join(&pts, p[i], ta, tb, corner: piece.corners[i], lenA: lenA, lenB: lenB)
            if tb != b { join(&pts, p[i], tb, b, corner: false, lenA: lenB, lenB: lenB) }
        }
        if piece.closed {
            i = 0
            while i < n {
                let a = dirs[(i + segs - 1) % segs], b = dirs[i]
                joinAt(&scratch.outer, i, a, entering(i), b, leaving(i), lenA: lens[(i + segs - 1) % segs], lenB: lens[i])
                i += 1
            }
            // The reverse: vertex i is entered along −dirs[i] and left along −dirs[i−1].
            pending = scratch.outer.count
            i = n - 1
            while i >= 0 {
                let a = dirs[i] * -1, b = dirs[(i + segs - 1) % segs] * -1
                joinAt(&scratch.inner, i, a, leaving(i) * -1, b, entering(i) * -1, lenA: lens[i], lenB: lens[(i + segs - 1) % segs])
                i -= 1
            }
            pending = 0
            addContour(scratch.outer); addContour(scratch.inner)
            return
        }
        // The caps face along the curve's tangent where an end is a curve's.
        let first = leaving(0), last = entering(n - 1)
        scratch.outer.append(p[0] + Stroker.left(first) * h)
        if first != dirs[0] { join(&scratch.outer, p[0], first, dirs[0], corner: false, lenA: lens[0], lenB: lens[0]) }
        i = 1
        while i < n - 1 {
            joinAt(&scratch.outer, i, dirs[i - 1], entering(i), dirs[i], leaving(i), lenA: lens[i - 1], lenB: lens[i])
            i += 1
        }
        if last != dirs[segs - 1] { join(&scratch.outer, p[n - 1], dirs[segs - 1], last, corner: false, lenA: lens[segs - 1], lenB: lens[segs - 1]) }
        scratch.outer.append(p[n - 1] + Stroker.left(last) * h)
        cap(&scratch.outer, p[n - 1], last)
        scratch.outer.append(p[n - 1] - Stroker.left(last) * h)
        if last != dirs[segs - 1] { join(&scratch.outer, p[n - 1], last * -1, dirs[segs - 1] * -1, corner: false, lenA: lens[segs - 1], lenB: lens[segs - 1]) }
        i = n - 2
        while i >= 1 {
            joinAt(&scratch.outer, i, dirs[i] * -1, leaving(i) * -1, dirs[i - 1] * -1, entering(i) * -1, lenA: lens[i], lenB: lens[i - 1])
            i -= 1
        }
        if first != dirs[0] { join(&scratch.outer, p[0], dirs[0] * -1, first * -1, corner: false, lenA: lens[0], lenB: lens[0]) }
        scratch.outer.append(p[0] - Stroker.left(first) * h)
        cap(&scratch.outer, p[0], first * -1)
        addContour(scratch.outer)
    }

    mutating func addContour(_ pts: [PathPoint]) {
        guard pts.count > 2 else { return }
        output.move(to: pts[0])
        var i = 1
        while i < pts.count { output.line(to: pts[i]); i += 1 }
        output.close()
    }
}

extension Stroker.Piece {
    /// A piece with no tangents of its own (joins and caps follow its
    /// segments).
    init(points: [PathPoint], corners: [Bool], closed: Bool, direction: PathPoint) {
        let none = [PathPoint](repeating: .zero, count: points.count)
        self.init(points: points, corners: corners, inTangents: none, outTangents: none, closed: closed, direction: direction)
    }
}

/// Storage a stroke reuses from one call to the next (see
/// `Path.stroke(_:transform:tolerance:into:scratch:)`): the flattened
/// pieces, the trimmed and dashed ones and the outline's working arrays.
/// Each keeps its capacity, so stroking paths no larger than before does
/// not allocate. One stroke at a time (not thread-safe).
public final class StrokeScratch {
    var collected = Stroker.PieceList()
    /// What `collected` was flattened from.
    var collectedFrom = FlatteningKey()
    var trimmed = Stroker.PieceList()
    var dashed = Stroker.PieceList()
    var work = Stroker.Piece.empty
    var lengths: [Double] = []
    var pattern: [Double] = []
    var dirs: [PathPoint] = []
    var lens: [Double] = []
    var outer: [PathPoint] = []
    var inner: [PathPoint] = []

    public init() {}
}

/// A path, a map and a tolerance: what a flattening was made from. The
/// path is a copy of the points (not a share of the caller's storage, which
/// its owner may go on editing in place).
struct FlatteningKey {
    private var path = Path()
    private var transform = AffineTransform.identity
    private var tolerance = -1.0

    func matches(_ path: Path, _ transform: AffineTransform, _ tolerance: Double) -> Bool {
        tolerance == self.tolerance && transform == self.transform && path == self.path
    }

    mutating func set(_ path: Path, _ transform: AffineTransform, _ tolerance: Double) {
        self.path.setContents(of: path)
        self.transform = transform
        self.tolerance = tolerance
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
    /// The outline holds at most about `StrokeStyle.maxOutlinePoints`
    /// points (the work limit documented there).
    ///
    /// - Complexity: O(flattened points + dashes + join and cap points),
    ///   the last two bounded by `StrokeStyle.maxDashCount` and
    ///   `StrokeStyle.maxOutlinePoints`.
    public func stroked(_ style: StrokeStyle, transform: AffineTransform = .identity,
                        tolerance: Double = FlattenLimits.defaultTolerance) -> Path {
        var out = Path()
        stroke(style, transform: transform, tolerance: tolerance, into: &out, scratch: StrokeScratch())
        return out
    }

    /// `stroked(_:transform:tolerance:)` written into `out` (emptied first,
    /// its storage kept) with working storage from `scratch`: once `out`
    /// and `scratch` have grown to a path's needs, stroking it again (or a
    /// path like it, morphed, trimmed or dashed differently) allocates
    /// nothing, as long as `out`'s storage is not shared.
    public func stroke(_ style: StrokeStyle, transform: AffineTransform = .identity,
                       tolerance: Double = FlattenLimits.defaultTolerance, into out: inout Path, scratch: StrokeScratch) {
        out.removeAll(keepingCapacity: true)
        guard style.width > 0, style.width.isFinite else { return }
        let scale = transform.maxScale
        guard scale > 0, scale.isFinite, let inverse = transform.inverted() else { return }
        let deviceTolerance = tolerance.isNaN ? FlattenLimits.defaultTolerance
            : min(max(tolerance, FlattenLimits.toleranceRange.lowerBound), FlattenLimits.toleranceRange.upperBound)
        // Flatten in device space (so the tolerance is in pixels however far
        // the transform zooms), then map the points back: affine maps keep
        // points of a curve on the curve.
        // The same path through the same map as the last stroke with this
        // scratch (a trim or dash animating on an unchanged path): its
        // flattened, cleaned pieces are still in `collected`.
        if !scratch.collectedFrom.matches(self, transform, deviceTolerance) {
            var collector = Stroker.Collector()
            swap(&collector.list, &scratch.collected)          // the storage moves, unshared
            collector.list.count = 0
            flatten(transform: transform, tolerance: deviceTolerance, into: &collector)
            if collector.open { collector.list.count -= 1 }
            swap(&collector.list, &scratch.collected)
            var k = 0
            while k < scratch.collected.count {
                var i = 0
                while i < scratch.collected.items[k].points.count {
                    scratch.collected.items[k].points[i] = inverse.apply(scratch.collected.items[k].points[i])
                    scratch.collected.items[k].inTangents[i] = Stroker.direction(inverse, scratch.collected.items[k].inTangents[i])
                    scratch.collected.items[k].outTangents[i] = Stroker.direction(inverse, scratch.collected.items[k].outTangents[i])
                    i += 1
                }
                Stroker.clean(&scratch.collected.items[k])
                k += 1
            }
            scratch.collectedFrom.set(self, transform, deviceTolerance)
        }
        var k = 0
        var stroker = Stroker(style: style, tolerance: deviceTolerance / scale, scratch: scratch)
        swap(&stroker.output, &out)
        // Trim, then dash, each into its own list (or not at all).
        var trimmed = Stroker.PieceList(), dashed = Stroker.PieceList()
        swap(&trimmed, &scratch.trimmed); swap(&dashed, &scratch.dashed)
        let isTrimmed = stroker.trimmed(scratch.collected, into: &trimmed)
        let isDashed = stroker.dashed(isTrimmed ? trimmed : scratch.collected, into: &dashed)
        let pieces = isDashed ? dashed : isTrimmed ? trimmed : scratch.collected
        k = 0
        while k < pieces.count && !stroker.overBudget(0) { stroker.outline(pieces.items[k]); k += 1 }
        swap(&trimmed, &scratch.trimmed); swap(&dashed, &scratch.dashed)
        swap(&stroker.output, &out)
    }
}
