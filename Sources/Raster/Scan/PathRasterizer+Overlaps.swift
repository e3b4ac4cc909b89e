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
// A row's pieces fall into groups of pixel columns no other group shares.
// Groups whose pieces plainly cannot overlap (`groupIsPlain`: crossed once,
// top to bottom, by pieces turning the same way) keep the cells the edges
// gave; the others are rebuilt in place, whether they needed it or not
// (`resolveRow`). Both the test and the rebuild read only the row's own
// pieces, all of them (a path that may overlap itself keeps its edges left
// and right of the clip, see `buildEdges`), so a pixel's coverage does not
// depend on the clip, as everywhere else in the rasterizer. A rebuilt group
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

/// A group of a row's pieces that `resolveRow` rebuilds: its pieces
/// (`OverlapScratch.groupSegments[start ..< start + count]`), the pixel
/// columns they reach (relative to the clip), the winding number left of
/// them and what they add to it.
struct OverlapGroup {
    var start: Int32, count: Int32
    var firstColumn: Int32, lastColumn: Int32
    var windingLeft: Int32, step: Int32
}

/// The overlap resolution's buffers, kept by the rasterizer from draw to
/// draw.
struct OverlapScratch {
    /// The band's pieces, row after row (`rowStarts`).
    var segments = ScratchBuffer<OverlapSegment>()
    /// The current row's groups to rebuild, and their pieces.
    var groups = ScratchBuffer<OverlapGroup>()
    var groupSegments = ScratchBuffer<OverlapSegment>()
    /// What pieces starting and ending at each height of the row add to
    /// the winding number (257 entries, 0 between uses).
    var heightSteps = ScratchBuffer<Int32>()
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
        segments.release(); groups.release(); groupSegments.release(); heightSteps.release(); rowStarts.release(); events.release(); order.release(); xTop.release(); xBottom.release()
        runSign.release(); runStart.release(); pieces.release(); slopes.release()
    }
}

extension PathRasterizer {
    /// Rows with more edge pieces than this keep the summed areas (their
    /// resolution is quadratic in the pieces): a documented limit that no
    /// drawn shape of an appliance UI reaches.
    public static let maximumResolvedPiecesPerRow = 256

    /// Rows with at most this many edge pieces are rebuilt whole when any
    /// of their groups needs it (`resolveRow`).
    static let wholeRowPieces = 8

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
            let begin = r == 0 ? 0 : Int(starts[r &- 1])
            let n = Int(starts[r]) &- begin
            guard n >= 2, n <= PathRasterizer.maximumResolvedPiecesPerRow else { continue }
            resolveRow(bucket + begin, count: n, rule: rule, rowTop: bandTop &+ Int32(truncatingIfNeeded: r) &<< 8, sorted: sorted,
                       row: cells + r &* stride, bits: touched + r &* wordsPerRow, rowMin: &rowMin[r], rowMax: &rowMax[r])
        }
    }

    /// Resolves one row's `count` pieces (`segs`, whose cells the edges have
    /// just added to `row`).
    ///
    /// The pieces fall into groups of pixel columns that no other group
    /// shares. At every height the winding number left of a group is the sum
    /// of the windings of the pieces left of it present at that height. A
    /// group that is plain — a staircase of pieces turning the same way
    /// covering the row's height once (an outline crossing the row, in one
    /// or more pieces) — holds no pixel with winding numbers 2 apart, so its
    /// cells are exact, and it adds its winding at every height; most groups
    /// of most rows are plain. (A horizontal edge inside the row, or an
    /// outline turning back in it, leaves a group not covering the row's
    /// height.)
    ///
    /// Each other group's cells are replaced: its pieces' own contributions
    /// are taken back (the same walk with the winding negated, so exactly),
    /// a full-height line at the group's left column boundary brings the
    /// accumulated value from the winding number W there to the rule's
    /// inside (0 or 1), the boundaries of the inside follow
    /// (`normalizeRow`, starting at W), and a line at the right column
    /// boundary brings it back to the winding number past the group. So
    /// inside the group the cells hold the area of the inside itself, and
    /// the groups to its right see the winding numbers they would have.
    /// That needs W the same at every height: a group whose pieces add
    /// different windings at different heights (`constantStep`) is rebuilt
    /// together with everything right of it.
    func resolveRow(_ segs: UnsafeMutablePointer<OverlapSegment>, count n: Int, rule: FillRule, rowTop: Int32,
                    sorted: UnsafeMutablePointer<Edge>, row: UnsafeMutablePointer<Int32>, bits: UnsafeMutablePointer<UInt64>,
                    rowMin: inout Int32, rowMax: inout Int32) {
        overlaps.order.reserve(n, fill: 0); overlaps.xTop.reserve(n, fill: 0); overlaps.xBottom.reserve(n, fill: 0)
        let order = overlaps.order.base, first = overlaps.xTop.base, last = overlaps.xBottom.base
        var i = 0
        while i < n {
            let g = segs[i]
            let xa = g.x(at: g.top), xb = g.x(at: g.bottom)
            order[i] = Int32(truncatingIfNeeded: i)
            // The piece's columns, widened by the 1/256 pixel that `x(at:)`
            // may differ from the cell walk's x: a piece near a column
            // boundary joins its neighbour's group rather than miss it.
            first[i] = (Swift.min(xa, xb) &- 1) >> 8
            last[i] = (Swift.max(xa, xb) &+ 1) >> 8
            i &+= 1
        }
        PathRasterizer.sortByKeys(order, first, last, n)
        // The groups; those that are not plain are copied out (with the
        // winding number left of them), since `normalizeRow` reuses the
        // order's buffers.
        overlaps.groups.count = 0
        overlaps.groupSegments.count = 0
        var winding: Int32 = 0
        i = 0
        while i < n {
            var end = last[i]
            var j = i &+ 1
            while j < n && first[j] <= end { end = Swift.max(end, last[j]); j &+= 1 }
            if groupIsPlain(segs, order + i, count: j &- i, rowTop: rowTop, sorted: sorted) {
                winding &+= sorted[Int(segs[Int(order[i])].edge)].winding
                i = j
                continue
            }
            if n <= PathRasterizer.wholeRowPieces {
                // A short row (a glyph's, a small shape's): rebuilt whole,
                // which costs less than taking a group's cells back.
                overlaps.groups.count = 0
                overlaps.groupSegments.count = 0
                var k = 0
                while k < n { overlaps.groupSegments.append(segs[k]); k &+= 1 }
                overlaps.groups.append(OverlapGroup(start: 0, count: Int32(truncatingIfNeeded: n), firstColumn: first[0],
                                                    lastColumn: end, windingLeft: 0, step: 0))
                break
            }
            let start = Int32(truncatingIfNeeded: overlaps.groupSegments.count)
            var step: Int32
            if let constant = constantStep(segs, order + i, count: j &- i, rowTop: rowTop, sorted: sorted) {
                step = constant
            } else {
                // What the group adds to the winding number changes along
                // the row's height (a horizontal edge leaves it: a shape's
                // top or bottom), so the winding numbers right of it do
                // too: the group and all the row's pieces right of it are
                // rebuilt together, right of which the winding number is 0.
                while j < n { end = Swift.max(end, last[j]); j &+= 1 }
                step = 0 &- winding
            }
            var k = i
            while k < j { overlaps.groupSegments.append(segs[Int(order[k])]); k &+= 1 }
            overlaps.groups.append(OverlapGroup(start: start, count: Int32(truncatingIfNeeded: j &- i), firstColumn: first[i],
                                                lastColumn: end, windingLeft: winding, step: step))
            winding &+= step
            i = j
        }
        var q = 0
        while q < overlaps.groups.count {
            let group = overlaps.groups.base[q]
            q &+= 1
            let gs = overlaps.groupSegments.base + Int(group.start)
            let m = Int(group.count)
            if m == n {
                // The whole row (a shape's top or bottom, most often): its
                // cells are cleared rather than taken back piece by piece.
                if rowMin <= rowMax {
                    let lo = Int(rowMin), hi = Int(rowMax)
                    (row + lo).update(repeating: 0, count: hi &- lo &+ 1)
                    (bits + (lo &>> 6)).update(repeating: 0, count: (hi &>> 6) &- (lo &>> 6) &+ 1)
                }
                rowMin = .max; rowMax = .min
            } else {
                // Take back the cells the edges gave.
                var k = 0
                while k < m {
                    let g = gs[k]
                    let e = sorted[Int(g.edge)]
                    PathRasterizer.accumulateRow(row, bits, PathRasterizer.x(of: e, at: g.top), g.top &- rowTop, PathRasterizer.x(of: e, at: g.bottom),
                                                 g.bottom &- rowTop, 0 &- e.winding, limitX, &rowMin, &rowMax)
                    k &+= 1
                }
            }
            let left = group.windingLeft, right = left &+ group.step
            let insideLeft: Int32 = rule.contains(left) ? 1 : 0, insideRight: Int32 = rule.contains(right) ? 1 : 0
            if left != insideLeft {
                let x = group.firstColumn &<< 8
                PathRasterizer.accumulateRow(row, bits, x, 0, x, 256, insideLeft &- left, limitX, &rowMin, &rowMax)
            }
            normalizeRow(gs, rule: rule, rowTop: rowTop, count: m, windingLeft: left, sorted: sorted)
            let pieces = overlaps.pieces.base
            var p = 0
            while p < overlaps.pieces.count {
                let piece = pieces[p]
                PathRasterizer.accumulateRow(row, bits, piece.xa, piece.ya, piece.xb, piece.yb, piece.winding, limitX, &rowMin, &rowMax)
                p &+= 1
            }
            if right != insideRight {
                let x = (group.lastColumn &+ 1) &<< 8
                PathRasterizer.accumulateRow(row, bits, x, 0, x, 256, right &- insideRight, limitX, &rowMin, &rowMax)
            }
        }
    }

    /// What the group of `count` pieces (`segs[order[0 ..< count]]`) adds
    /// to the winding number across it, when that is the same at every
    /// height of the row (the pieces' windings sum to the same at every
    /// height: as many start as end at each height inside the row); nil
    /// when it is not.
    func constantStep(_ segs: UnsafeMutablePointer<OverlapSegment>, _ order: UnsafeMutablePointer<Int32>, count: Int, rowTop: Int32,
                      sorted: UnsafeMutablePointer<Edge>) -> Int32? {
        overlaps.heightSteps.reserve(257, fill: 0)
        let steps = overlaps.heightSteps.base
        var atTop: Int32 = 0
        var k = 0
        while k < count {
            let g = segs[Int(order[k])]
            let w = sorted[Int(g.edge)].winding
            steps[Int(g.top &- rowTop)] &+= w
            steps[Int(g.bottom &- rowTop)] &-= w
            if g.top == rowTop { atTop &+= w }
            k &+= 1
        }
        var constant = true
        k = 0
        while k < count {
            let g = segs[Int(order[k])]
            let top = Int(g.top &- rowTop), bottom = Int(g.bottom &- rowTop)
            if (top > 0 && steps[top] != 0) || (bottom < 256 && steps[bottom] != 0) { constant = false }
            k &+= 1
        }
        k = 0
        while k < count {
            let g = segs[Int(order[k])]
            steps[Int(g.top &- rowTop)] = 0; steps[Int(g.bottom &- rowTop)] = 0
            k &+= 1
        }
        return constant ? atTop : nil
    }

    /// True when the group of `count` pieces (`segs[order[0 ..< count]]`)
    /// is one outline crossing the row: pieces turning the same way that
    /// tile the row's height, each starting where another ends (or at the
    /// row's top).
    func groupIsPlain(_ segs: UnsafeMutablePointer<OverlapSegment>, _ order: UnsafeMutablePointer<Int32>, count: Int, rowTop: Int32,
                      sorted: UnsafeMutablePointer<Edge>) -> Bool {
        if count == 1 {
            let g = segs[Int(order[0])]
            return g.top == rowTop && g.bottom == rowTop &+ 256
        }
        let winding = sorted[Int(segs[Int(order[0])].edge)].winding
        var covered: Int32 = 0
        var k = 0
        while k < count {
            let g = segs[Int(order[k])]
            if sorted[Int(g.edge)].winding != winding { return false }
            covered &+= g.bottom &- g.top
            k &+= 1
        }
        if covered != 256 { return false }
        k = 0
        while k < count {
            let top = segs[Int(order[k])].top
            if top != rowTop {
                var l = 0
                while l < count && segs[Int(order[l])].bottom != top { l &+= 1 }
                if l == count { return false }
            }
            k &+= 1
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

    /// Walks a group's `count` pieces (`segs`; the winding number left of
    /// them is `windingLeft`) slab by slab and collects in
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
    func normalizeRow(_ segs: UnsafeMutablePointer<OverlapSegment>, rule: FillRule, rowTop: Int32, count n: Int, windingLeft: Int32,
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
                var winding = windingLeft
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
