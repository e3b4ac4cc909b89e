// Exact coverage where pieces of one path overlap or cross.
//
// The cells of `PathRasterizer` sum signed areas weighted by winding
// number, which is exact only while, inside each pixel, the winding number
// takes one sign and magnitude at most 1. A row where it does not is
// resolved here (the approach of trapezoid-decomposing scan converters,
// done only where needed): the row's edge pieces are cut at every edge end
// and at every crossing into slabs in which no two pieces cross, the fill
// rule is applied to the winding number between each pair of neighbouring
// pieces, and the row's cells are rebuilt from the pieces where the rule's
// inside begins (+1) or ends (−1). The cells then hold the area of the
// inside itself, each covered point once, and the usual sweep maps it.
//
// Rows whose pieces plainly cannot overlap (`rowIsPlain`: each group of
// pixel columns crossed once, top to bottom, by pieces turning the same
// way) keep the cells the edges gave. The others are rebuilt, whether they
// needed it or not: both the test and the rebuild read only the row's own
// pieces, all of them (a path that may overlap itself keeps its edges left
// and right of the clip, see `buildEdges`), so a pixel's coverage does not
// depend on the clip, as everywhere else in the rasterizer. A rebuilt row
// that needed no rebuilding differs from its cells by rounding only: its
// pieces are whole edge pieces with the cell walk's own x where they can
// be, cut only where the rule's inside changes along them.

/// What a draw's polylines showed of their shape: one convex polygon
/// (every turn the same way, the direction going once around) cannot
/// overlap itself, so its rows need no overlap test. Judged on the
/// device-space points before quantisation; a near-collinear turn that
/// rounds the wrong way only costs the test.
struct ShapeClass {
    private var subpaths = 0
    private var convexSoFar = true
    private var start = PathPoint(0, 0), last = PathPoint(0, 0)
    private var first = PathPoint(0, 0), previous = PathPoint(0, 0)
    private var hasDirection = false
    private var turn = 0
    private var firstYSign = 0, lastYSign = 0, ySignChanges = 0
    /// The least and greatest x of the points seen (device pixels).
    private(set) var minX = Double.infinity, maxX = -Double.infinity

    /// True when every polyline so far was one convex polygon (closed).
    var isConvex: Bool { convexSoFar && subpaths <= 1 }

    mutating func begin(at p: PathPoint) {
        if p.x < minX { minX = p.x }
        if p.x > maxX { maxX = p.x }
        subpaths &+= 1
        if subpaths > 1 { convexSoFar = false }
        start = p; last = p
        hasDirection = false; turn = 0; firstYSign = 0; lastYSign = 0; ySignChanges = 0
    }

    mutating func line(to p: PathPoint) {
        if p.x < minX { minX = p.x }
        if p.x > maxX { maxX = p.x }
        guard convexSoFar else { return }
        step(PathPoint(p.x - last.x, p.y - last.y))
        last = p
    }

    /// Closes the polyline (fills close every one) and judges it.
    mutating func close() {
        guard convexSoFar else { return }
        step(PathPoint(start.x - last.x, start.y - last.y))
        last = start
        if hasDirection {
            bend(to: first)
            if firstYSign != 0 && lastYSign != 0 && firstYSign != lastYSign { ySignChanges &+= 1 }
        }
        if ySignChanges > 2 { convexSoFar = false }
    }

    private mutating func step(_ d: PathPoint) {
        if d.x == 0 && d.y == 0 { return }
        if hasDirection { bend(to: d) } else { first = d; hasDirection = true }
        let ySign = d.y > 0 ? 1 : (d.y < 0 ? -1 : 0)
        if ySign != 0 {
            if lastYSign != 0 && ySign != lastYSign { ySignChanges &+= 1 }
            if firstYSign == 0 { firstYSign = ySign }
            lastYSign = ySign
        }
        previous = d
    }

    private mutating func bend(to d: PathPoint) {
        let cross = previous.x * d.y - previous.y * d.x
        guard cross != 0 else { return }
        let sign = cross > 0 ? 1 : -1
        if turn == 0 { turn = sign } else if turn != sign { convexSoFar = false }
    }
}

/// One edge's piece inside the row being resolved: the edge (an index into
/// the sorted edges) and the sub-pixel rows it spans there (24.8, relative
/// to the clip origin, like the edges).
struct OverlapSegment {
    var edge: Int32
    var top: Int32, bottom: Int32
    /// The edge's top end (24.8) and slope (16.16 sub-pixels of x per
    /// sub-pixel row, `OverlapScratch.slopes`): x anywhere on it costs a
    /// multiplication, not a division; within 1/256 pixel of the cell
    /// walk's x, which is all ordering the pieces needs.
    var x0: Int32, y0: Int32
    var slope: Int64

    /// x (24.8) at sub-pixel row `y` (`top ... bottom`).
    @inline(__always)
    func x(at y: Int32) -> Int32 { x0 &+ Int32(truncatingIfNeeded: (Int64(y &- y0) &* slope) &>> 16) }
}

/// A boundary of the resolved row: from `(xa, ya)` to `(xb, yb)` (x 24.8
/// relative to the clip, y 0…256 inside the row, `ya < yb`), +1 where the
/// inside begins (going right), −1 where it ends.
struct OverlapPiece {
    var xa: Int32, ya: Int32, xb: Int32, yb: Int32, winding: Int32
}

/// The overlap resolution's buffers, kept by the rasterizer from draw to
/// draw.
struct OverlapScratch {
    /// The band's pieces, row after row (`rowStarts`).
    var segments = ScratchBuffer<OverlapSegment>()
    var rowStarts = ScratchBuffer<Int32>()
    var events = ScratchBuffer<Int32>()
    /// Indices into the row's pieces of those present in the current slab,
    /// and their x at its top and bottom (parallel to `order`).
    var order = ScratchBuffer<Int32>()
    var xTop = ScratchBuffer<Int32>()
    var xBottom = ScratchBuffer<Int32>()
    /// Per piece of the row: the boundary it is part of since `runStart`
    /// (+1, −1, or 0 for none), emitted when that changes or it ends.
    var runSign = ScratchBuffer<Int32>()
    var runStart = ScratchBuffer<Int32>()
    var pieces = ScratchBuffer<OverlapPiece>()
    /// Each sorted edge's slope, 16.16 sub-pixels of x per sub-pixel row.
    var slopes = ScratchBuffer<Int64>()

    func release() {
        segments.release(); rowStarts.release(); events.release(); order.release(); xTop.release(); xBottom.release()
        runSign.release(); runStart.release(); pieces.release(); slopes.release()
    }
}

extension PathRasterizer {
    /// Rows with more edge pieces than this keep the summed areas (their
    /// resolution is quadratic in the pieces): a documented limit that no
    /// drawn shape of an appliance UI reaches.
    public static let maximumResolvedPiecesPerRow = 256

    /// Computes `overlaps.slopes` for the `count` sorted edges, once per draw
    /// of a path that may overlap itself.
    func computeSlopes(_ sorted: UnsafeMutablePointer<Edge>, count: Int) {
        overlaps.slopes.reserve(count, fill: 0)
        let slopes = overlaps.slopes.base
        var i = 0
        while i < count {
            let e = sorted[i]
            slopes[i] = ((Int64(e.x1.raw) - Int64(e.x0.raw)) &<< 16) / Int64(e.y1.raw &- e.y0.raw)
            i &+= 1
        }
    }

    /// Rebuilds the cells of each of the band's `rows` (from sub-pixel row
    /// `bandTop`), into which the active edges have just been added, whose
    /// pieces may overlap (see the top of this file).
    func resolveOverlaps(rule: FillRule, bandTop: Int32, rows: Int, activeEdges act: UnsafeMutablePointer<Int32>, activeCount: Int,
                         sorted: UnsafeMutablePointer<Edge>, cells: UnsafeMutablePointer<Int32>, stride: Int,
                         touched: UnsafeMutablePointer<UInt64>, wordsPerRow: Int,
                         rowMin: UnsafeMutablePointer<Int32>, rowMax: UnsafeMutablePointer<Int32>) {
        let slopes = overlaps.slopes.base
        // The band's pieces, bucketed by row (a counting sort): each active
        // edge visited once, not once per row.
        overlaps.rowStarts.reserve(rows &+ 1, fill: 0)
        let starts = overlaps.rowStarts.base
        starts.update(repeating: 0, count: rows &+ 1)
        let bandBottom = bandTop &+ Int32(truncatingIfNeeded: rows) &<< 8
        /// The band's rows (first, last) that edge `e` crosses.
        @inline(__always) func rowsOf(_ e: Edge) -> (Int, Int) {
            (Int((Swift.max(e.y0.raw, bandTop) &- bandTop) >> 8), Int((Swift.min(e.y1.raw, bandBottom) &- 1 &- bandTop) >> 8))
        }
        var total = 0
        var k = 0
        while k < activeCount {
            let e = sorted[Int(act[k])]
            let (r0, r1) = rowsOf(e)
            var r = r0
            while r <= r1 { starts[r &+ 1] &+= 1; r &+= 1 }
            total &+= r1 &- r0 &+ 1
            k &+= 1
        }
        var r = 0
        while r < rows { starts[r &+ 1] &+= starts[r]; r &+= 1 }
        overlaps.segments.reserve(total, fill: OverlapSegment(edge: 0, top: 0, bottom: 0, x0: 0, y0: 0, slope: 0))
        let bucket = overlaps.segments.base
        k = 0
        while k < activeCount {
            let index = act[k]
            let e = sorted[Int(index)]
            let (r0, r1) = rowsOf(e)
            var r = r0
            while r <= r1 {
                let rowTop = bandTop &+ Int32(truncatingIfNeeded: r) &<< 8
                bucket[Int(starts[r])] = OverlapSegment(edge: index, top: Swift.max(e.y0.raw, rowTop), bottom: Swift.min(e.y1.raw, rowTop &+ 256),
                                                        x0: e.x0.raw, y0: e.y0.raw, slope: slopes[Int(index)])
                starts[r] &+= 1
                r &+= 1
            }
            k &+= 1
        }
        // starts[r] is now the end of row r's pieces, the start of r + 1's.
        r = 0
        while r < rows {
            defer { r &+= 1 }
            let rowTop = bandTop &+ Int32(truncatingIfNeeded: r) &<< 8
            let begin = r == 0 ? 0 : Int(starts[r &- 1])
            let segs = bucket + begin
            let n = Int(starts[r]) &- begin
            guard n >= 2, n <= PathRasterizer.maximumResolvedPiecesPerRow,
                  !rowIsPlain(segs, rowTop: rowTop, count: n, sorted: sorted) else { continue }
            normalizeRow(segs, rule: rule, rowTop: rowTop, count: n, sorted: sorted)
            // Rebuild the row's cells from the boundaries of the inside.
            let row = cells + r &* stride, bits = touched + r &* wordsPerRow
            if rowMin[r] <= rowMax[r] {
                let lo = Int(rowMin[r]), hi = Int(rowMax[r])
                (row + lo).update(repeating: 0, count: hi &- lo &+ 1)
                (bits + (lo &>> 6)).update(repeating: 0, count: (hi &>> 6) &- (lo &>> 6) &+ 1)
            }
            rowMin[r] = .max; rowMax[r] = .min
            let pieces = overlaps.pieces.base
            var p = 0
            while p < overlaps.pieces.count {
                let q = pieces[p]
                PathRasterizer.accumulateRow(row, bits, q.xa, q.ya, q.xb, q.yb, q.winding, limitX, &rowMin[r], &rowMax[r])
                p &+= 1
            }
        }
    }

    /// The quick test most rows of most paths pass: the row's pieces fall
    /// into groups of pixel columns that no other group shares, each group
    /// a staircase of pieces turning the same way that covers the row's
    /// height once (an outline crossing the row, in one or more pieces).
    /// Then, at every height, each group's columns hold one piece, the
    /// winding number steps once across them and stays constant between
    /// groups, so no pixel holds winding numbers 2 apart and the cells are
    /// exact. (A horizontal edge inside the row, or an outline turning back
    /// in it, leaves some group not covering the row's height: rebuilt.)
    func rowIsPlain(_ segs: UnsafeMutablePointer<OverlapSegment>, rowTop: Int32, count n: Int, sorted: UnsafeMutablePointer<Edge>) -> Bool {
        overlaps.order.reserve(n, fill: 0); overlaps.xTop.reserve(n, fill: 0); overlaps.xBottom.reserve(n, fill: 0)
        let order = overlaps.order.base, first = overlaps.xTop.base, last = overlaps.xBottom.base
        var i = 0
        while i < n {
            let g = segs[i]
            let xa = g.x(at: g.top), xb = g.x(at: g.bottom)
            order[i] = Int32(truncatingIfNeeded: i)
            first[i] = Swift.min(xa, xb) >> 8
            last[i] = Swift.max(xa, xb) >> 8
            i &+= 1
        }
        PathRasterizer.sortByKeys(order, first, last, n)
        let rowBottom = rowTop &+ 256
        i = 0
        while i < n {
            var end = last[i]
            var j = i &+ 1
            while j < n && first[j] <= end { end = Swift.max(end, last[j]); j &+= 1 }
            // Group order[i ..< j]: one turning, covering top to bottom once.
            let winding = sorted[Int(segs[Int(order[i])].edge)].winding
            var covered: Int32 = 0
            var k = i
            while k < j {
                let g = segs[Int(order[k])]
                if sorted[Int(g.edge)].winding != winding { return false }
                covered &+= g.bottom &- g.top
                k &+= 1
            }
            if covered != 256 { return false }
            if j &- i > 1 {
                // Pieces of 256 rows in all, each starting where another
                // ends (or at the top): they tile the row.
                k = i
                while k < j {
                    let top = segs[Int(order[k])].top
                    if top != rowTop {
                        var l = i
                        while l < j && segs[Int(order[l])].bottom != top { l &+= 1 }
                        if l == j { return false }
                    }
                    k &+= 1
                }
            } else if segs[Int(order[i])].top != rowTop || segs[Int(order[i])].bottom != rowBottom {
                return false
            }
            i = j
        }
        return true
    }

    /// The x (24.8) of `edge` at sub-pixel row `y`, as the cell walk
    /// computes it.
    @inline(__always)
    static func x(of e: Edge, at y: Int32) -> Int32 {
        if e.x0.raw == e.x1.raw || y == e.y0.raw { return e.x0.raw }
        if y == e.y1.raw { return e.x1.raw }
        return e.x0.raw &+ Int32(truncatingIfNeeded: Int64(y &- e.y0.raw) * (Int64(e.x1.raw) - Int64(e.x0.raw)) / Int64(e.y1.raw &- e.y0.raw))
    }

    /// Walks the row's `count` pieces (`segs`) slab by slab and collects in
    /// `overlaps.pieces` the boundaries of the rule's inside: each piece,
    /// wherever the winding numbers on its two sides are one inside and
    /// one outside, as +1 where the inside begins and −1 where it ends.
    ///
    /// Slabs run between consecutive piece ends. In a slab the pieces
    /// present are ordered by x at its top; the first crossing in it is
    /// between two neighbours of that order (as in Bentley–Ottmann), so the
    /// slab is cut there, the part above (no crossing) is walked, and the
    /// rest is ordered again. A piece's boundary is emitted whole from where
    /// it began to where it changes (a crossing, another piece starting or
    /// ending beside it) or the piece ends, with the cell walk's x at both
    /// ends. Cost: O(pieces) per slab and per crossing, plus the sorts of
    /// nearly sorted orders.
    func normalizeRow(_ segs: UnsafeMutablePointer<OverlapSegment>, rule: FillRule, rowTop: Int32, count n: Int,
                      sorted: UnsafeMutablePointer<Edge>) {
        PathRasterizer.sortByTop(segs, n)
        // Slab boundaries: every piece's ends.
        overlaps.events.reserve(2 &* n, fill: 0)
        let events = overlaps.events.base
        var i = 0
        while i < n {
            events[2 &* i] = segs[i].top; events[2 &* i &+ 1] = segs[i].bottom
            i &+= 1
        }
        let eventCount = PathRasterizer.sortUnique(events, 2 &* n)

        overlaps.order.reserve(n, fill: 0); overlaps.xTop.reserve(n, fill: 0); overlaps.xBottom.reserve(n, fill: 0)
        overlaps.runSign.reserve(n, fill: 0); overlaps.runStart.reserve(n, fill: 0)
        let order = overlaps.order.base, xt = overlaps.xTop.base, xb = overlaps.xBottom.base
        let runSign = overlaps.runSign.base, runStart = overlaps.runStart.base
        runSign.update(repeating: 0, count: n)
        overlaps.pieces.count = 0
        /// Ends piece `g`'s current boundary at `y` (emitting it, if any).
        func close(_ g: Int, at y: Int32) {
            let sign = runSign[g]
            guard sign != 0, y > runStart[g] else { return }
            let e = sorted[Int(segs[g].edge)]
            overlaps.pieces.append(OverlapPiece(xa: PathRasterizer.x(of: e, at: runStart[g]), ya: runStart[g] &- rowTop,
                                                xb: PathRasterizer.x(of: e, at: y), yb: y &- rowTop, winding: sign))
        }
        var m = 0                     // pieces present in the slab, `order[0 ..< m]`
        var next = 0                  // next piece (by top) to enter
        var s = 0
        while s &+ 1 < eventCount {
            let ta = events[s], tb = events[s &+ 1]
            s &+= 1
            // Pieces that ended leave; those starting here enter.
            var kept = 0
            var j = 0
            while j < m {
                let g = Int(order[j])
                if segs[g].bottom > ta { order[kept] = order[j]; kept &+= 1 } else { close(g, at: segs[g].bottom) }
                j &+= 1
            }
            m = kept
            while next < n && segs[next].top <= ta {
                if segs[next].bottom > ta { order[m] = Int32(truncatingIfNeeded: next); m &+= 1 }
                next &+= 1
            }
            var a = ta
            while a < tb && m > 0 {
                j = 0
                while j < m {
                    let g = segs[Int(order[j])]
                    xt[j] = g.x(at: a)
                    xb[j] = g.x(at: tb)
                    j &+= 1
                }
                PathRasterizer.sortByKeys(order, xt, xb, m)
                // The first crossing, between neighbours.
                var cut = tb
                j = 0
                while j &+ 1 < m {
                    if xb[j] > xb[j &+ 1] {
                        // x_j − x_(j+1) goes from ≤ 0 at a to > 0 at tb.
                        let d0 = Int64(xt[j &+ 1]) - Int64(xt[j]), d1 = Int64(xb[j]) - Int64(xb[j &+ 1])
                        var t = Int32(truncatingIfNeeded: Int64(a) + Int64(tb &- a) * d0 / (d0 + d1))
                        if t <= a { t = a &+ 1 }
                        if t < cut { cut = t }
                    }
                    j &+= 1
                }
                // [a, cut]: the fill rule on each gap's winding number.
                var winding: Int32 = 0
                j = 0
                while j < m {
                    let g = Int(order[j])
                    let wasInside = rule.contains(winding)
                    winding &+= sorted[Int(segs[g].edge)].winding
                    let isInside = rule.contains(winding)
                    let sign: Int32 = wasInside == isInside ? 0 : (isInside ? 1 : -1)
                    if sign != runSign[g] {
                        close(g, at: a)
                        runSign[g] = sign; runStart[g] = a
                    }
                    j &+= 1
                }
                a = cut
            }
        }
        var j = 0
        while j < m { let g = Int(order[j]); close(g, at: segs[g].bottom); j &+= 1 }
    }

    /// Sorts the row's pieces by their top (insertion sort: edges enter the
    /// active list in the order of their tops, so it is nearly sorted).
    static func sortByTop(_ segs: UnsafeMutablePointer<OverlapSegment>, _ n: Int) {
        var i = 1
        while i < n {
            let v = segs[i]
            var j = i
            while j > 0 && segs[j &- 1].top > v.top { segs[j] = segs[j &- 1]; j &-= 1 }
            segs[j] = v
            i &+= 1
        }
    }

    /// Sorts `values[0 ..< n]` and drops repeats; returns the new count.
    /// Insertion sort: the rows resolved have few pieces.
    static func sortUnique(_ values: UnsafeMutablePointer<Int32>, _ n: Int) -> Int {
        var i = 1
        while i < n {
            let v = values[i]
            var j = i
            while j > 0 && values[j &- 1] > v { values[j] = values[j &- 1]; j &-= 1 }
            values[j] = v
            i &+= 1
        }
        var out = n > 0 ? 1 : 0
        i = 1
        while i < n {
            if values[i] != values[out &- 1] { values[out] = values[i]; out &+= 1 }
            i &+= 1
        }
        return out
    }

    /// Sorts the parallel arrays by `top`, then `bottom`.
    static func sortByKeys(_ order: UnsafeMutablePointer<Int32>, _ top: UnsafeMutablePointer<Int32>,
                           _ bottom: UnsafeMutablePointer<Int32>, _ n: Int) {
        var i = 1
        while i < n {
            let o = order[i], t = top[i], b = bottom[i]
            var j = i
            while j > 0 && (top[j &- 1] > t || (top[j &- 1] == t && bottom[j &- 1] > b)) {
                order[j] = order[j &- 1]; top[j] = top[j &- 1]; bottom[j] = bottom[j &- 1]
                j &-= 1
            }
            order[j] = o; top[j] = t; bottom[j] = b
            i &+= 1
        }
    }
}

extension FillRule {
    /// True when a point of winding number `winding` is inside.
    @inline(__always)
    func contains(_ winding: Int32) -> Bool { self == .nonZero ? winding != 0 : winding & 1 != 0 }
}
