/// Anti-aliased scan conversion of paths into 8-bit coverage, with exact
/// area coverage per pixel.
///
/// Method (the signed-area cells of FreeType's `gray` rasterizer and
/// font-rs, kept dense per band as Blend2D does):
/// 1. The path is flattened in device space and its points quantised to
///    24.8 fixed point (`SubpixelCoordinate`, relative to the clip origin).
///    Lines wholly above, below or right of the clip are dropped; lines
///    wholly left of it become vertical lines on its left side (they still
///    cover the pixels to their right), except in a path that may overlap
///    itself and reaches past the clip's sides: it keeps its lines and
///    curves left and right of the clip as they are (see step 3). Lines
///    crossing a side are clipped row by row during the cell walk (step 2),
///    from the same crossings the unclipped line would have: a pixel's
///    coverage does not depend on the clip, so redrawing a damaged region
///    matches a full redraw exactly.
/// 2. Each line adds, in every pixel cell it crosses, its signed height `dy`
///    (+ going down, − going up) split into an area part for that cell and
///    a carry for the cells to the right: `cell[x] += dy·(512 − fx₀ − fx₁)`,
///    `cell[x+1] += dy·(fx₀ + fx₁)`, with `fx` the line's entry and exit
///    positions inside the cell in 1/256 pixel. Integer arithmetic only.
/// 3. A running sum along each row then gives the exact signed area of the
///    pixel weighted by winding number (`CoverageArea`, 2^17 for one whole
///    pixel at winding 1). The fill rule maps it to coverage: non-zero takes
///    `min(|a|, 1)`, even-odd folds `|a|` modulo 2 (FreeType's rule).
///    That is exact where the winding numbers inside each pixel are two
///    neighbours at most (k and k + 1). Where they are not (pieces of one
///    path overlapping: a stroke retracing itself, round caps or dashes
///    that meet; edges crossing inside a pixel: a star), summing areas
///    would count a pixel's overlapped part twice, or let +1 and −1 parts
///    cancel. The columns of a row that may hold such pixels
///    (`groupIsPlain` says which surely do not) are rebuilt exactly
///    instead (`resolveOverlaps`): they are cut at every edge end and
///    crossing into trapezoids, the fill rule is applied to each
///    trapezoid's own winding number, and only the
///    boundaries between inside and outside are accumulated, so each
///    covered point of a pixel counts once. A path that is one convex
///    polygon (rectangles, rounded rectangles, circles) cannot overlap
///    itself and skips the test. Coverage is then exact everywhere up to
///    the 1/256-pixel quantisation (and a crossing's position, rounded to
///    1/256 pixel).
///
/// Rows are processed in bands of `bandHeight`, so the cell buffer is
/// `(clip width + 2) × bandHeight` 32-bit integers however tall the path;
/// only the rows between the path's top and bottom are visited, and in each
/// row only the touched cells (a bit per cell marks them): between two of
/// them coverage is constant and is written by a fill. Gaps of zero
/// coverage of `minimumGap` pixels or more split a row into separate spans.
///
/// A rasterizer owns its scratch buffers and reuses them: after the first
/// few draws, filling allocates nothing. Not thread-safe: use one per
/// thread.
public final class PathRasterizer {
    /// Rows per band.
    public static let bandHeight = 16

    /// Largest distance, in device pixels, between a curve and the lines
    /// that replace it (see `FlattenLimits`).
    public var tolerance: Double = FlattenLimits.defaultTolerance

    @usableFromInline struct Edge {
        /// Top and bottom end, `y0 < y1`; 24.8 relative to the clip origin,
        /// x within `0 ... clipWidth·256` unless `keepsColumns` (then the
        /// line as it is, left and right of the clip too).
        var x0: SubpixelCoordinate, y0: SubpixelCoordinate, x1: SubpixelCoordinate, y1: SubpixelCoordinate
        /// +1 for a line that went down in the path, −1 for one that went up.
        var winding: Int32
    }

    var edges = ScratchBuffer<Edge>()
    var sortedEdges = ScratchBuffer<Edge>()
    var bandStarts = ScratchBuffer<Int32>()
    var active = ScratchBuffer<Int32>()
    /// `(width + 2) × bandHeight` cells; all zero between draws.
    var cells = ScratchBuffer<Int32>()
    var coverage = ScratchBuffer<UInt8>()
    /// One bit per cell, set when the cell is written: the sweep visits
    /// only these. All zero between draws.
    var touched = ScratchBuffer<UInt64>()
    var rowMin = ScratchBuffer<Int32>()
    var rowMax = ScratchBuffer<Int32>()

    // The edge builder's state for the current draw (24.8).
    var originX: Int64 = 0, originY: Int64 = 0, limitX: Int32 = 0, limitY: Int32 = 0
    var polylineStart: (x: Int32, y: Int32) = (0, 0), polylineLast: (x: Int32, y: Int32) = (0, 0)
    /// The last point of the polyline, device pixels; `polylineLast` is it
    /// quantized when `lastIsQuantized` (see `line(to:)`).
    var lastPoint = PathPoint(0, 0), lastIsQuantized = true
    /// Lines wholly beyond its top, bottom or right side are dropped.
    var rejectBox = BoundingBox(minX: -.infinity, minY: -.infinity, maxX: .infinity, maxY: .infinity)
    /// Lines left and right of the clip are kept as they are (see
    /// `buildEdges`).
    var keepsColumns = false
    var minEdgeY: Int32 = .max, maxEdgeY: Int32 = .min
    /// What the draw's polylines showed of their shape (see `ShapeClass`):
    /// a single convex polygon needs no overlap resolution.
    var shape = ShapeClass()
    /// Scratch of the overlap resolution (`PathRasterizer+Overlaps.swift`).
    var overlaps = OverlapScratch()

    public init() {}

    deinit {
        edges.release(); sortedEdges.release(); bandStarts.release(); active.release()
        cells.release(); touched.release(); coverage.release(); rowMin.release(); rowMax.release()
        overlaps.release()
    }

    /// Largest distance of a clip's origin from (0, 0), in pixels, so that
    /// edge coordinates relative to it fit 24.8 in 32 bits with the path's
    /// coordinates clamped to `FlattenLimits.coordinateLimit`.
    public static let maxClipOrigin = 4_194_304

    /// The clip actually used: `clip` with its size limited to
    /// `RasterLimits.maxDimension` (so the cell buffer stays bounded) and its
    /// origin to `±maxClipOrigin`.
    @inlinable public static func effectiveClip(_ clip: IntRect) -> IntRect {
        let x = min(max(clip.x, -maxClipOrigin), maxClipOrigin), y = min(max(clip.y, -maxClipOrigin), maxClipOrigin)
        return IntRect(x: x, y: y, width: min(clip.width, RasterLimits.maxDimension),
                       height: min(clip.height, RasterLimits.maxDimension))
    }

    /// Scan-converts `path` (mapped through `transform`) and hands the
    /// coverage to `spans`: `spans(y, x, coverage, count)` means pixels
    /// `x ..< x + count` of device row `y` have coverage
    /// `coverage[0 ..< count]` (0–255). Spans lie inside `clip`, are never
    /// empty and never overlap, and come in increasing `y`, then increasing
    /// `x`; a row can have several (split at gaps of `minimumGap` zero pixels
    /// or more) and a span may still contain shorter runs of zeros. Pixels in
    /// no span have coverage 0. The coverage pointer is valid only during the
    /// call.
    ///
    /// `mask`, when given, is an A8 view in the same device coordinates:
    /// coverage is multiplied by it (`div255(c·m)`), and pixels outside the
    /// mask's bounds count as mask 0.
    ///
    /// Bad input: see `Path.flatten` (non-finite subpaths are dropped,
    /// coordinates clamped to ±2^21). An empty clip, an empty path or one
    /// that covers no area produces no spans.
    ///
    /// - Complexity: O(flattened segments · rows they span + rows · touched
    ///   width), within the clip.
    public func fill(_ path: Path, transform: AffineTransform = .identity, rule: FillRule = .nonZero, clip: IntRect,
                     mask: PixelView<A8>? = nil,
                     spans: (_ y: Int, _ x: Int, _ coverage: UnsafePointer<UInt8>, _ count: Int) -> Void) {
        let clip = PathRasterizer.effectiveClip(clip)
        guard !clip.isEmpty else { return }
        // A path that may overlap itself, reaching past the clip's sides:
        // its rows are resolved from all their edges (see
        // `resolveOverlaps`), so that what a pixel gets does not depend on
        // the clip. Several subpaths are never one convex polygon, so such
        // a path keeps them from the start; one subpath is judged as it is
        // flattened, and flattened again keeping them when it is not convex.
        let keepsAll = PathRasterizer.hasSeveralSubpaths(path) && PathRasterizer.mayReachPastSides(path, transform: transform, clip: clip)
        buildEdges(path, transform: transform, clip: clip, keepsAllColumns: keepsAll)
        if !keepsAll && !shape.isConvex && (shape.minX < Double(clip.x - 1) || shape.maxX > Double(clip.maxX + 1)) {
            buildEdges(path, transform: transform, clip: clip, keepsAllColumns: true)
        }
        guard edges.count > 0 else { return }
        sweep(rule: rule, clip: clip, mask: mask, spans: spans)
    }

    /// True when `path` starts more than one subpath.
    static func hasSeveralSubpaths(_ path: Path) -> Bool {
        var moves = 0
        for v in path.verbs where v == .move {
            moves &+= 1
            if moves > 1 { return true }
        }
        return false
    }

    /// False when `path` under `transform` surely stays within one pixel
    /// of the clip's sides (its control points' box does); true otherwise.
    static func mayReachPastSides(_ path: Path, transform: AffineTransform, clip: IntRect) -> Bool {
        let b = path.bounds
        guard !b.isEmpty else { return false }
        let corners = (transform.apply(x: b.minX, y: b.minY), transform.apply(x: b.maxX, y: b.minY),
                       transform.apply(x: b.minX, y: b.maxY), transform.apply(x: b.maxX, y: b.maxY))
        let minX = Swift.min(Swift.min(corners.0.x, corners.1.x), Swift.min(corners.2.x, corners.3.x))
        let maxX = Swift.max(Swift.max(corners.0.x, corners.1.x), Swift.max(corners.2.x, corners.3.x))
        // NaN compares false: such a path is treated as reaching past.
        return !(minX >= Double(clip.x - 1) && maxX <= Double(clip.maxX + 1))
    }

    /// Writes the coverage of `path` into `mask` over `clip ∩ mask.bounds`
    /// (every pixel there is set: 0 outside the path). Pixels outside the
    /// clip are left as they were.
    public func fill(_ path: Path, transform: AffineTransform = .identity, rule: FillRule = .nonZero, clip: IntRect? = nil,
                     into mask: PixelView<A8>) {
        let region = (clip ?? mask.bounds).intersection(mask.bounds)
        guard !region.isEmpty else { return }
        var y = region.y
        while y < region.maxY { (mask.row(y) + region.x).update(repeating: 0, count: region.width); y &+= 1 }
        fill(path, transform: transform, rule: rule, clip: region) { y, x, cov, n in
            (mask.row(y) + x).update(from: cov, count: n)
        }
    }
}

// MARK: - Edge building (flattened lines → 24.8 edges relative to the clip)

extension PathRasterizer: PathPolylineSink {
    /// `keepsAllColumns`: keep the lines left and right of the clip as they
    /// are, and the curves there as curves (rows still only inside it).
    func buildEdges(_ path: Path, transform: AffineTransform, clip: IntRect, keepsAllColumns: Bool) {
        edges.count = 0
        shape = ShapeClass()
        keepsColumns = keepsAllColumns
        minEdgeY = .max; maxEdgeY = .min
        originX = Int64(clip.x) << 8; originY = Int64(clip.y) << 8
        limitX = Int32(clip.width) << 8; limitY = Int32(clip.height) << 8
        // Curves wholly outside this box become lines (see Path.flatten),
        // and lines wholly above, below or right of it are dropped early.
        let cull = BoundingBox(minX: keepsAllColumns ? -.infinity : Double(clip.x - 1), minY: Double(clip.y - 1),
                               maxX: keepsAllColumns ? .infinity : Double(clip.maxX + 1), maxY: Double(clip.maxY + 1))
        rejectBox = cull
        var me = self
        path.flatten(transform: transform, tolerance: tolerance, cull: cull, into: &me)
    }

    public func begin(at p: PathPoint) {
        shape.begin(at: p)
        polylineStart = quantize(p); polylineLast = polylineStart
        lastPoint = p; lastIsQuantized = true
    }

    /// A line wholly above, below or right of the clip (by more than a
    /// pixel, so surely dropped by `addEdge` too) is dropped before its end
    /// is quantized: a large outline filled through a small clip (a stroke
    /// redrawn in a damage rectangle) costs little more than its lines'
    /// comparisons.
    public func line(to p: PathPoint) {
        let l = lastPoint
        lastPoint = p
        shape.line(to: p)
        if (p.y < rejectBox.minY && l.y < rejectBox.minY) || (p.y > rejectBox.maxY && l.y > rejectBox.maxY)
            || (p.x > rejectBox.maxX && l.x > rejectBox.maxX) {
            lastIsQuantized = false
            return
        }
        let a = lastIsQuantized ? polylineLast : quantize(l)
        let q = quantize(p)
        addEdge(a, q)
        polylineLast = q
        lastIsQuantized = true
    }

    /// Fills close every polyline.
    public func end(closed: Bool) {
        shape.close()
        addEdge(lastIsQuantized ? polylineLast : quantize(lastPoint), polylineStart)
    }

    /// A device point (already clamped to ±`FlattenLimits.coordinateLimit`)
    /// in 24.8 relative to the clip origin. The absolute position is rounded
    /// first, so every clip sees the same sub-pixel grid.
    @inline(__always)
    func quantize(_ p: PathPoint) -> (x: Int32, y: Int32) {
        let x = Int64(SubpixelCoordinate(p.x).raw) - originX, y = Int64(SubpixelCoordinate(p.y).raw) - originY
        return (Int32(clamping: x), Int32(clamping: y))
    }

    /// Appends the line `a → b` unless it cannot affect the clip: lines above,
    /// below or right of it are dropped, lines wholly left of it become
    /// vertical lines on its left side (they only add cover). Lines crossing
    /// a side are kept whole; the cell walk clips them per row, so a pixel's
    /// coverage is the same whatever the clip.
    func addEdge(_ a: (x: Int32, y: Int32), _ b: (x: Int32, y: Int32)) {
        if a.y == b.y { return }                                  // horizontal: covers no height
        var x0 = a.x, y0 = a.y, x1 = b.x, y1 = b.y, winding: Int32 = 1
        if y0 > y1 { swap(&x0, &x1); swap(&y0, &y1); winding = -1 }
        if y1 <= 0 || y0 >= limitY { return }
        if !keepsColumns {
            if x0 >= limitX && x1 >= limitX { return }
            if x0 <= 0 && x1 <= 0 { x0 = 0; x1 = 0 }
        }
        edges.append(Edge(x0: SubpixelCoordinate(raw: x0), y0: SubpixelCoordinate(raw: y0),
                          x1: SubpixelCoordinate(raw: x1), y1: SubpixelCoordinate(raw: y1), winding: winding))
        if y0 < minEdgeY { minEdgeY = y0 }
        if y1 > maxEdgeY { maxEdgeY = y1 }
    }
}

// MARK: - Cells and sweep

extension PathRasterizer {
    func sweep(rule: FillRule, clip: IntRect, mask: PixelView<A8>?,
               spans: (_ y: Int, _ x: Int, _ coverage: UnsafePointer<UInt8>, _ count: Int) -> Void) {
        let bandHeight = PathRasterizer.bandHeight
        let width = clip.width
        let stride = width + 2
        // Edges keep their full height; only rows inside the clip are visited.
        let firstRow = Int(max(minEdgeY, 0) >> 8), lastRow = Int((min(maxEdgeY, limitY) - 1) >> 8)   // inclusive
        let bandCount = (lastRow - firstRow) / bandHeight + 1

        // Bucket the edges by the band holding their top (a counting sort).
        bandStarts.reserve(bandCount + 1, fill: 0)
        let starts = bandStarts.base
        starts.update(repeating: 0, count: bandCount + 1)
        let edgeCount = edges.count
        let e = edges.base
        var i = 0
        while i < edgeCount {
            let b = (Int(max(e[i].y0.raw, 0) >> 8) - firstRow) / bandHeight
            starts[b + 1] &+= 1
            i &+= 1
        }
        var b = 0
        while b < bandCount { starts[b + 1] &+= starts[b]; b &+= 1 }
        sortedEdges.reserve(edgeCount, fill: e[0])
        active.reserve(edgeCount, fill: 0)
        let sorted = sortedEdges.base
        i = 0
        while i < edgeCount {
            let b = (Int(max(e[i].y0.raw, 0) >> 8) - firstRow) / bandHeight
            sorted[Int(starts[b])] = e[i]
            starts[b] &+= 1
            i &+= 1
        }
        // starts[b] is now the end of band b's bucket, i.e. the start of b + 1.

        cells.reserve(stride * bandHeight, fill: 0)
        let wordsPerRow = (stride + 63) >> 6
        touched.reserve(wordsPerRow * bandHeight, fill: 0)
        coverage.reserve(width, fill: 0)
        rowMin.reserve(bandHeight, fill: 0)
        rowMax.reserve(bandHeight, fill: 0)
        let cellBase = cells.base, bitBase = touched.base, cov = coverage.base, rmin = rowMin.base, rmax = rowMax.base
        let act = active.base
        var activeCount = 0
        var next = 0                                              // next sorted edge to activate
        if !shape.isConvex { computeSlopes(sorted, count: edgeCount) }

        b = 0
        while b < bandCount {
            let bandRow = firstRow + b * bandHeight
            let rows = min(bandHeight, lastRow + 1 - bandRow)
            var r = 0
            while r < rows { rmin[r] = Int32.max; rmax[r] = Int32.min; r &+= 1 }
            let end = Int(starts[b])
            while next < end { act[activeCount] = Int32(next); activeCount &+= 1; next &+= 1 }

            let bandTop = Int32(bandRow) << 8, bandBottom = Int32(bandRow + rows) << 8
            var k = 0
            while k < activeCount {
                PathRasterizer.accumulate(sorted[Int(act[k])], top: bandTop, bottom: bandBottom, limit: limitX, cells: cellBase, stride: stride,
                                          touched: bitBase, wordsPerRow: wordsPerRow, rowMin: rmin, rowMax: rmax)
                k &+= 1
            }
            if !shape.isConvex && activeCount > 1 {
                resolveOverlaps(rule: rule, bandTop: bandTop, rows: rows, activeEdges: act, activeCount: activeCount, sorted: sorted,
                                cells: cellBase, stride: stride, touched: bitBase, wordsPerRow: wordsPerRow, rowMin: rmin, rowMax: rmax)
            }
            k = 0
            var kept = 0
            while k < activeCount {
                let index = act[k]
                if sorted[Int(index)].y1.raw > bandBottom { act[kept] = index; kept &+= 1 }
                k &+= 1
            }
            activeCount = kept

            r = 0
            while r < rows {
                if rmin[r] <= rmax[r] {
                    sweepRow(cellBase + r * stride, bitBase + r * wordsPerRow, firstWord: Int(rmin[r]) >> 6, lastWord: Int(rmax[r]) >> 6,
                             width: width, rule: rule, y: clip.y + bandRow + r, clipX: clip.x, coverage: cov, mask: mask, spans: spans)
                }
                r &+= 1
            }
            b &+= 1
        }
    }

    /// Gaps of zero coverage at least this long split a row into separate
    /// spans, so compositing skips them (glyph runs, rings).
    static let minimumGap = 32

    /// Turns one row of cells into coverage spans and clears the cells and
    /// their touched bits. Only touched cells change the running sum, so
    /// between them the coverage is constant and is written with a fill:
    /// the interior of a large shape costs a `memset`, not a sum per pixel.
    @inline(__always)
    func sweepRow(_ row: UnsafeMutablePointer<Int32>, _ bits: UnsafeMutablePointer<UInt64>, firstWord: Int, lastWord: Int,
                  width: Int, rule: FillRule, y: Int, clipX: Int, coverage cov: UnsafeMutablePointer<UInt8>, mask: PixelView<A8>?,
                  spans: (_ y: Int, _ x: Int, _ coverage: UnsafePointer<UInt8>, _ count: Int) -> Void) {
        @inline(__always) func map(_ a: Int32) -> UInt8 {
            rule == .nonZero ? PathRasterizer.nonZeroCoverage(a) : PathRasterizer.evenOddCoverage(a)
        }
        @inline(__always) func emit(_ from: Int, _ to: Int) {
            guard to > from else { return }
            if let m = mask { PathRasterizer.applyMask(m, cov + from, x: clipX + from, y: y, count: to - from) }
            spans(y, clipX + from, UnsafePointer(cov + from), to - from)
        }
        var acc: Int32 = 0
        var x = -1                       // next pixel to write; -1 before the first touched cell
        var spanStart = 0
        var word = firstWord
        while word <= lastWord {
            var w = bits[word]
            bits[word] = 0
            while w != 0 {
                let cell = (word << 6) | w.trailingZeroBitCount
                w &= w &- 1
                let value = row[cell]
                row[cell] = 0
                if cell >= width { continue }                    // carries past the clip: cleared, not shown
                if x < 0 {
                    x = cell; spanStart = cell
                } else if cell > x {
                    let c = map(acc)
                    if c == 0 && cell - x >= PathRasterizer.minimumGap {
                        emit(spanStart, x)
                        spanStart = cell
                    } else {
                        (cov + x).update(repeating: c, count: cell - x)
                    }
                }
                acc &+= value
                cov[cell] = map(acc)
                x = cell &+ 1
            }
            word &+= 1
        }
        guard x >= 0 else { return }
        // After the last touched cell the sum is constant to the clip's edge.
        let tail = map(acc)
        if tail != 0 && x < width {
            (cov + x).update(repeating: tail, count: width - x)
            x = width
        }
        emit(spanStart, x)
    }

    /// Multiplies coverage by the mask; outside the mask counts as 0.
    static func applyMask(_ mask: PixelView<A8>, _ cov: UnsafeMutablePointer<UInt8>, x: Int, y: Int, count: Int) {
        guard y >= 0, y < mask.height else { cov.update(repeating: 0, count: count); return }
        let row = mask.row(y)
        var i = 0
        while i < count {
            let mx = x + i
            cov[i] = mx >= 0 && mx < mask.width ? UInt8(truncatingIfNeeded: div255(UInt32(cov[i]) &* UInt32(row[mx]))) : 0
            i &+= 1
        }
    }

    /// `min(|a|, 1)` as 0–255, rounded to nearest: `round(255·min(|a|, 2^17) / 2^17)`.
    @inline(__always)
    static func nonZeroCoverage(_ area: Int32) -> UInt8 {
        var a = area < 0 ? 0 &- area : area
        if a > 131_072 { a = 131_072 }
        return UInt8(truncatingIfNeeded: (a &* 255 &+ 65_536) &>> 17)
    }

    /// `|a|` folded modulo 2 (1.25 → 0.75, 2 → 0), as 0–255 rounded to nearest.
    @inline(__always)
    static func evenOddCoverage(_ area: Int32) -> UInt8 {
        var a = (area < 0 ? 0 &- area : area) & 0x3_FFFF
        if a > 131_072 { a = 262_144 &- a }
        return UInt8(truncatingIfNeeded: (a &* 255 &+ 65_536) &>> 17)
    }

    /// Adds the part of `edge` between sub-pixel rows `top ..< bottom` (a
    /// band) to the cells, clipped to `0 ... limit` in x: what lies left of 0
    /// adds its cover to cell 0, what lies right of `limit` is dropped. The
    /// crossings are computed from the whole edge, so clipping does not move
    /// them.
    @inline(__always)
    static func accumulate(_ edge: Edge, top: Int32, bottom: Int32, limit: Int32, cells: UnsafeMutablePointer<Int32>, stride: Int,
                           touched: UnsafeMutablePointer<UInt64>, wordsPerRow: Int,
                           rowMin: UnsafeMutablePointer<Int32>, rowMax: UnsafeMutablePointer<Int32>) {
        let ey0 = edge.y0.raw, ey1 = edge.y1.raw
        let y0 = max(ey0, top), y1 = min(ey1, bottom)
        if y0 >= y1 { return }
        let ex0 = edge.x0.raw, ex1 = edge.x1.raw
        let w = edge.winding
        if ex0 == ex1 {
            // Vertical: one cell per row, the common case for rectangles and
            // for everything left of the clip.
            if ex0 >= limit { return }
            let x = max(ex0, 0)
            let cx = Int(x >> 8), fx2 = (x & 255) &<< 1
            var y = y0
            while y < y1 {
                let rowTop = y & ~255
                let yEnd = min(rowTop &+ 256, y1)
                let dy = (yEnd &- y) &* w
                let r = Int((rowTop &- top) >> 8)
                let row = cells + r &* stride
                row[cx] &+= dy &* (512 &- fx2)
                row[cx &+ 1] &+= dy &* fx2
                markTouched(touched + r &* wordsPerRow, Int32(cx))
                if Int32(cx) < rowMin[r] { rowMin[r] = Int32(cx) }
                if Int32(cx &+ 1) > rowMax[r] { rowMax[r] = Int32(cx &+ 1) }
                y = yEnd
            }
            return
        }
        let dx = Int64(ex1) - Int64(ex0), dyTotal = Int64(ey1 &- ey0)
        @inline(__always) func x(at y: Int32) -> Int32 {
            y == ey1 ? ex1 : ex0 &+ Int32(truncatingIfNeeded: Int64(y &- ey0) * dx / dyTotal)
        }
        var y = y0
        var xa = x(at: y)
        while y < y1 {
            let rowTop = y & ~255
            let yEnd = min(rowTop &+ 256, y1)
            let xb = x(at: yEnd)
            let r = Int((rowTop &- top) >> 8)
            accumulateRow(cells + r &* stride, touched + r &* wordsPerRow, xa, y &- rowTop, xb, yEnd &- rowTop, w, limit, &rowMin[r], &rowMax[r])
            y = yEnd; xa = xb
        }
    }

    /// Adds a line from `(xa, fya)` to `(xb, fyb)` inside one pixel row
    /// (`0 <= fya < fyb <= 256`, x in 24.8, possibly outside `0 ... limit`)
    /// to the row's cells.
    @inline(__always)
    static func accumulateRow(_ row: UnsafeMutablePointer<Int32>, _ bits: UnsafeMutablePointer<UInt64>,
                              _ xa: Int32, _ fya: Int32, _ xb: Int32, _ fyb: Int32, _ w: Int32,
                              _ limit: Int32, _ rowMin: inout Int32, _ rowMax: inout Int32) {
        // Cell c gets dy·(512 − fx₀ − fx₁), cell c + 1 gets dy·(fx₀ + fx₁).
        @inline(__always) func piece(_ c: Int32, _ fxSum: Int32, _ dy: Int32) {
            let d = (dy < 0 ? 0 &- dy : dy) &* w
            row[Int(c)] &+= d &* (512 &- fxSum)
            row[Int(c) &+ 1] &+= d &* fxSum
            markTouched(bits, c)
        }
        if xa == xb {
            if xa >= limit { return }
            let x = max(xa, 0), c = x >> 8
            piece(c, (x & 255) &<< 1, fyb &- fya)
            if c < rowMin { rowMin = c }
            if c &+ 1 > rowMax { rowMax = c &+ 1 }
            return
        }
        // Walk left to right; y is monotone along the line, so each piece's
        // height is the absolute difference of consecutive crossings, and
        // the pieces add up to fyb − fya exactly.
        let lx: Int32, ly: Int32, rx: Int32, ry: Int32
        if xa < xb { lx = xa; ly = fya; rx = xb; ry = fyb } else { lx = xb; ly = fyb; rx = xa; ry = fya }
        if lx >= limit { return }
        if rx <= 0 {
            piece(0, 0, ry &- ly)
            rowMin = 0
            if rowMax < 0 { rowMax = 0 }
            return
        }
        let dxr = Int64(rx) - Int64(lx), dyr = Int64(ry &- ly)
        @inline(__always) func y(at bx: Int32) -> Int32 {
            ly &+ Int32(truncatingIfNeeded: (Int64(bx) - Int64(lx)) * dyr / dxr)
        }
        var px = lx, py = ly
        if px < 0 {
            let by = y(at: 0)
            piece(0, 0, by &- py)
            px = 0; py = by
        }
        var qx = rx, qy = ry
        if qx > limit { qx = limit; qy = y(at: limit) }
        let firstCell = px >> 8
        var c = firstCell
        let cEnd = qx >> 8
        while c < cEnd {
            let bx = (c &+ 1) &<< 8
            let by = y(at: bx)
            piece(c, (px &- (c &<< 8)) &+ 256, by &- py)
            px = bx; py = by; c &+= 1
        }
        piece(cEnd, (px &- (cEnd &<< 8)) &+ (qx &- (cEnd &<< 8)), qy &- py)
        if firstCell < rowMin { rowMin = firstCell }
        if cEnd &+ 1 > rowMax { rowMax = cEnd &+ 1 }
    }

    /// Sets the touched bits of cells `c` and `c + 1`.
    @inline(__always)
    static func markTouched(_ bits: UnsafeMutablePointer<UInt64>, _ c: Int32) {
        let i = Int(c)
        bits[i &>> 6] |= UInt64(1) &<< UInt64(i & 63)
        let j = i &+ 1
        bits[j &>> 6] |= UInt64(1) &<< UInt64(j & 63)
    }
}
