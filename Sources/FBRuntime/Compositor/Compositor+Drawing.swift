import Raster

// The draws of the layer image's parts, counted in `statistics`.

extension Compositor {
    /// Fills whole pixels with `op`.
    func fillRect(_ rect: IntRect, color: PremultipliedColor, operator op: BlendOperator, canvas: Canvas) {
        let visible = rect.intersection(canvas.clip).area
        guard visible > 0 else { return }
        canvas.fill(rect, color: color, operator: op)
        statistics.pixelsWritten += visible
        let blended = !(op == .src || (color.isOpaque && op == .srcOver))
        if blended { statistics.pixelsBlended += visible }
        if let tint = blendedTint(canvas, blended: blended) { canvas.fill(rect, color: tint) }
    }

    /// Fills `path` (layer space) mapped by `map` (layer → target pixels),
    /// anti-aliased, with `op`. `sampleRect` (layer space) is where the map's
    /// magnification is sampled to choose the flattening tolerance under
    /// perspective. `hard`: spans are cut along these edges (pixel centres
    /// outside them are not drawn; see Compositor+Edges.swift).
    ///
    /// `owner`: the layer and its drawing part (see `ShapeCandidates`) when
    /// the fill may come from `shapeMasks`. `isGlyph`: an axis-aligned map
    /// is snapped to `CoverageMaskCache.glyphFractionSteps` (else to
    /// 2⁻²⁰ pixel) and the shape scan-converted at its sub-pixel place
    /// relative to its whole-pixel origin, then moved there, as glyph masks
    /// are made (`OwnContentDrawing.glyphMask`): a glyph's pixels are the
    /// same wherever it lands and whichever way it is drawn.
    func fillShape(_ path: Path, map: ProjectiveTransform, sampleRect: Rect, color: PremultipliedColor,
                   rule: FillRule, operator op: BlendOperator, canvas: Canvas, hard: CentreEdges = CentreEdges(),
                   owner: (layer: Layer, part: Int)? = nil, isGlyph: Bool = false) {
        guard let kernel = KernelTable.solidMask(op, color: color.argb, alpha: 255, family: kernels) else { return }
        if hard.isEmpty, let owner, let mask = shapeMask(path, map: map, rule: rule, clip: canvas.clip, owner: owner) {
            fillMask(mask.mask, x: mask.x + mask.mask.left, y: mask.y + mask.mask.top, color: color, operator: op,
                     canvas: canvas)
            return
        }
        let target = canvas.target
        let argb = color.argb
        var written = 0
        let affine = map.isAffine
        let devicePath = affine ? path : pathProjector.project(path, map, sampleRect: sampleRect)
        // An axis-aligned map is snapped as a mask of the shape would be
        // (`MaskPlacement`): the same pixels whichever way it is drawn. A
        // glyph is scan-converted on its own grid (origin dx, dy).
        var transform = affine ? map.affinePart : .identity
        var dx = 0, dy = 0
        if affine, let placement = MaskPlacement(map.affinePart, steps: isGlyph ? CoverageMaskCache.glyphFractionSteps
                                                                           : CoverageMaskCache.fractionQuantum) {
            if isGlyph { transform = placement.local; dx = placement.x; dy = placement.y } else { transform = placement.map }
        }
        let clip = IntRect(x: canvas.clip.x - dx, y: canvas.clip.y - dy, width: canvas.clip.width, height: canvas.clip.height)
        rasterizer.fill(devicePath, transform: transform, rule: rule, clip: clip) {
            y, x, coverage, count in
            let y = y + dy, x = x + dx
            let (lo, hi) = hard.isEmpty ? (x, x + count) : cutSpan(hard, y: y, x: x, count: count)
            guard lo < hi else { return }
            kernel(target.row(y) + lo, coverage + (lo - x), hi - lo, argb, 255)
            written += hi - lo
        }
        statistics.pixelsWritten += written
        statistics.pixelsBlended += written
        if let tint = blendedTint(canvas, blended: true),
           let tintKernel = KernelTable.solidMask(.srcOver, color: tint.argb, alpha: 255, family: kernels) {
            rasterizer.fill(devicePath, transform: transform, rule: rule, clip: clip) {
                y, x, coverage, count in
                let y = y + dy, x = x + dx
                let (lo, hi) = hard.isEmpty ? (x, x + count) : cutSpan(hard, y: y, x: x, count: count)
                guard lo < hi else { return }
                tintKernel(target.row(y) + lo, coverage + (lo - x), hi - lo, tint.argb, 255)
            }
        }
    }

    /// Fills `sector` (target pixels) with `op`, its coverage in closed
    /// form (`SectorRasterizer`): a stroked circular arc.
    func fillSector(_ sector: AnnularSector, color: PremultipliedColor, operator op: BlendOperator, canvas: Canvas) {
        guard let kernel = KernelTable.solidMask(op, color: color.argb, alpha: 255, family: kernels) else { return }
        let target = canvas.target
        let argb = color.argb
        var written = 0
        sectorRasterizer.fill(sector, clip: canvas.clip, family: kernels) { y, x, coverage, count in
            kernel(target.row(y) + x, coverage, count, argb, 255)
            written += count
        }
        statistics.pixelsWritten += written
        statistics.pixelsBlended += written
        if let tint = blendedTint(canvas, blended: true),
           let tintKernel = KernelTable.solidMask(.srcOver, color: tint.argb, alpha: 255, family: kernels) {
            sectorRasterizer.fill(sector, clip: canvas.clip, family: kernels) { y, x, coverage, count in
                tintKernel(target.row(y) + x, coverage, count, tint.argb, 255)
            }
        }
    }

    /// The coverage of `path` under `map` from `shapeMasks`, with the
    /// whole-pixel origin to blit it at; `nil` when the fill should be
    /// scan-converted directly: shape masks are off or debug overlays on,
    /// the map turns, skews or is not finite, the path is large (more than
    /// `maximumShapeMaskPoints` points or `maximumShapeMaskArea` pixels), or
    /// no mask of it is cached and `owner` did not draw this shape at this
    /// size and sub-pixel place in the frames before (`ShapeCandidates`).
    func shapeMask(_ path: Path, map: ProjectiveTransform, rule: FillRule, clip: IntRect,
                   owner: (layer: Layer, part: Int)) -> (mask: CoverageMask, x: Int, y: Int)? {
        guard shapeMaskBlits, debugOverlays.isEmpty, map.isAffine, path.points.count <= Compositor.maximumShapeMaskPoints else {
            return nil
        }
        guard let placement = MaskPlacement(map.affinePart),
              let box = Compositor.coverageMaskBox(path, placement.local), box.area <= Compositor.maximumShapeMaskArea
        else { return nil }
        // Off the clip: nothing to draw either way.
        guard !IntRect(x: box.x + placement.x, y: box.y + placement.y, width: box.width, height: box.height)
            .intersection(clip).isEmpty else { return nil }
        let key = placement.key(source: -1 - Int(rule == .nonZero ? 0 : 1), item: Compositor.pathHash(path))
        if let mask = shapeMasks.cachedMask(for: key) { return (mask, placement.x, placement.y) }
        guard shapeCandidates.confirm(layer: ObjectIdentifier(owner.layer), part: owner.part, key: key, frame: frameNumber)
        else { return nil }
        let mask = shapeMasks.mask(for: key) {
            makeCoverageMask(path, placement.map, rule: rule, originX: placement.x, originY: placement.y, box: box)
        }
        return (mask, placement.x, placement.y)
    }

    /// Paths with more points than this are scan-converted every frame.
    static let maximumShapeMaskPoints = 1024
    /// Shapes covering more pixels than this (a 512 × 512 box) are
    /// scan-converted every frame: a large mask costs memory and its blit
    /// saves little over the rasterizer's long interior spans.
    static let maximumShapeMaskArea = 512 * 512

    /// FNV-1a over the path's verbs and its points' bits.
    static func pathHash(_ path: Path) -> UInt64 {
        var h: UInt64 = 0xCBF2_9CE4_8422_2325
        let prime: UInt64 = 0x0000_0100_0000_01B3
        let verbs = path.verbs, points = path.points
        for verb in verbs { h = (h ^ UInt64(verb.rawValue)) &* prime }
        for p in points {
            h = (h ^ p.x.bitPattern) &* prime
            h = (h ^ p.y.bitPattern) &* prime
        }
        return h
    }

    /// The part `lo ..< hi` of the span `x ..< x + count` of row `y` that
    /// `hard` keeps (`lo >= hi` when none).
    @inline(__always)
    func cutSpan(_ hard: CentreEdges, y: Int, x: Int, count: Int) -> (Int, Int) {
        let c = hard.columns(row: y)
        return (Swift.max(x, c.lo), Swift.min(x + count, c.hi))
    }

    /// The pixels a coverage mask of `outline` under `local` (an
    /// axis-aligned scale and a sub-pixel translation) covers, relative to
    /// the shape's whole-pixel origin, with a pixel of margin, its width a
    /// multiple of 8 (whole chunks for the mask kernel); `nil` when the map
    /// is not finite or the shape is larger than `maximumCoverageMaskSide`
    /// (scan-converted then).
    static func coverageMaskBox(_ outline: Path, _ local: AffineTransform) -> IntRect? {
        let b = outline.bounds
        let x0 = local.a * b.minX + local.tx, x1 = local.a * b.maxX + local.tx
        let y0 = local.d * b.minY + local.ty, y1 = local.d * b.maxY + local.ty
        let minX = Swift.min(x0, x1), maxX = Swift.max(x0, x1), minY = Swift.min(y0, y1), maxY = Swift.max(y0, y1)
        let side = Double(maximumCoverageMaskSide)
        // Finite and near the origin (a shape far off in its own space, bad
        // input, is scan-converted and clipped as any other).
        guard Swift.abs(minX) < 1e7, Swift.abs(maxX) < 1e7, Swift.abs(minY) < 1e7, Swift.abs(maxY) < 1e7,
              maxX - minX < side, maxY - minY < side else { return nil }
        let left = Int(minX.rounded(.down)) - 1, top = Int(minY.rounded(.down)) - 1
        let width = (Int(maxX.rounded(.up)) + 1 - left + 7) & ~7
        return IntRect(x: left, y: top, width: width, height: Int(maxY.rounded(.up)) + 1 - top)
    }

    /// Shapes larger than this many pixels a side are scan-converted.
    static let maximumCoverageMaskSide = 1024

    /// Scan-converts `path` under `map` (its whole device map) with `rule`
    /// into a new mask covering `box` (see `coverageMaskBox`) placed at the
    /// whole-pixel origin (`originX`, `originY`). The rasterizer sees the
    /// shape where a direct fill would draw it (the same device points,
    /// rounded to the same 1/256 pixel), only clipped to the shape's box.
    func makeCoverageMask(_ path: Path, _ map: AffineTransform, rule: FillRule = .nonZero, originX: Int, originY: Int,
                          box: IntRect) -> CoverageMask {
        var coverage = [UInt8](repeating: 0, count: box.width * box.height)
        let placed = IntRect(x: box.x + originX, y: box.y + originY, width: box.width, height: box.height)
        coverage.withUnsafeMutableBufferPointer { buffer in
            let base = buffer.baseAddress!
            rasterizer.fill(path, transform: map, rule: rule, clip: placed) { y, x, cov, n in
                (base + (y - placed.y) * placed.width + (x - placed.x)).update(from: cov, count: n)
            }
        }
        return CoverageMask(coverage: coverage, left: box.x, top: box.y, width: box.width, height: box.height)
    }

    /// Composites `color` through `mask` placed with its top-left pixel at
    /// (`x`, `y`), cut to the clip (`Canvas.fill(mask:…)`: the kernel a path
    /// fill uses, fed the mask's rows).
    ///
    /// With `maskInteriorFills`, an opaque colour composited source-over
    /// fills each row's interior run (`CoverageMask.interiors`) with the
    /// plain fill kernel and blends only the rest through the mask: over
    /// full coverage both give the colour itself, bit for bit.
    func fillMask(_ mask: CoverageMask, x: Int, y: Int, color: PremultipliedColor, operator op: BlendOperator, canvas: Canvas) {
        let r = IntRect(x: x, y: y, width: mask.width, height: mask.height).intersection(canvas.clip)
        guard !r.isEmpty else { return }
        if maskInteriorFills, !mask.interiors.isEmpty, op == .srcOver, color.isOpaque,
           let blend = KernelTable.solidMask(.srcOver, color: color.argb, alpha: 255, family: canvas.family),
           let fill = KernelTable.solid(color: color.argb, family: canvas.family) {
            let target = canvas.target, argb = color.argb
            mask.coverage.withUnsafeBufferPointer { buffer in
                let coverage = buffer.baseAddress!
                var row = r.y
                while row < r.maxY {
                    let my = row - y
                    let run = mask.interiors[my]
                    // The interior in target columns, cut to the clip (empty for none).
                    let s = Swift.min(Swift.max(x + Int(run & 0xFFFF), r.x), r.maxX)
                    let e = Swift.max(Swift.min(x + Int(run >> 16), r.maxX), s)
                    let line = target.row(row)
                    let cov = coverage + my * mask.width      // mask column c is target column x + c
                    if s > r.x { blend(line + r.x, cov + (r.x - x), s - r.x, argb, 255) }
                    if e > s { fill(line + s, e - s, argb) }
                    if r.maxX > e { blend(line + e, cov + (e - x), r.maxX - e, argb, 255) }
                    row += 1
                }
            }
            statistics.pixelsWritten += r.area
            statistics.pixelsBlended += r.area
            return
        }
        mask.coverage.withUnsafeBufferPointer { buffer in
            // Read only: the canvas takes a view, and a mask view is mutable.
            let view = PixelView<A8>(base: UnsafeMutablePointer(mutating: buffer.baseAddress!), width: mask.width,
                                     height: mask.height, rowStride: mask.width, owner: nil)
            canvas.fill(mask: view, x: x, y: y, color: color, operator: op)
        }
        statistics.pixelsWritten += r.area
        statistics.pixelsBlended += r.area
    }

    /// Writes the coverage of `path` mapped by `map` into `mask` (all of it:
    /// 0 outside the path).
    func rasterizeCoverage(_ path: Path, map: ProjectiveTransform, sampleRect: Rect, into mask: PixelView<A8>) {
        if map.isAffine {
            rasterizer.fill(path, transform: map.affinePart, rule: .nonZero, into: mask)
        } else {
            rasterizer.fill(pathProjector.project(path, map, sampleRect: sampleRect), rule: .nonZero, into: mask)
        }
        statistics.pixelsWritten += mask.width * mask.height
    }

    /// Shades `paint` over `rect` and composites it with `op` and global
    /// `alpha` (`Canvas.fill(_:paint:operator:alpha:)`), counting the pixels.
    /// `misalignedTint`: an overlay tint for this draw alone (misaligned
    /// contents, a nine-part intermediate's offscreen tint).
    func fillPaint<P: Paint>(_ rect: IntRect, paint: P, operator op: BlendOperator, alpha: UInt8, canvas: Canvas,
                             misalignedTint: PremultipliedColor? = nil) {
        var r = rect.intersection(canvas.clip)
        if !paint.isOpaque && op.transparentSourceIsNoOp, let bounds = paint.paintedBounds { r = r.intersection(bounds) }
        guard !r.isEmpty else { return }
        canvas.fill(r, paint: paint, operator: op, alpha: alpha)
        statistics.pixelsWritten += r.area
        let blended = !(paint.isOpaque && alpha == 255 && (op == .srcOver || op == .src))
        if blended { statistics.pixelsBlended += r.area }
        if let t = blendedTint(canvas, blended: blended) { tint(r, paint: paint, with: t, alpha: alpha, canvas: canvas) }
        if let t = misalignedTint { tint(r, paint: paint, with: t, alpha: alpha, canvas: canvas) }
    }

    /// Composites `image` at (`x`, `y`) of `canvas`, through `mask` when
    /// given (same size as the image).
    func composite(_ image: PixelView<ARGB8888>, x: Int, y: Int, mask: PixelView<A8>?, operator op: BlendOperator,
                   alpha: UInt8, canvas: Canvas) {
        let visible = IntRect(x: x, y: y, width: image.width, height: image.height).intersection(canvas.clip).area
        if let mask {
            canvas.draw(image, x: x, y: y, mask: mask, operator: op, alpha: alpha)
        } else {
            canvas.draw(image, x: x, y: y, operator: op, alpha: alpha)
        }
        statistics.pixelsWritten += visible
        statistics.pixelsBlended += visible
        if let t = blendedTint(canvas, blended: true) {
            tintComposite(image, x: x, y: y, mask: mask, tint: t, alpha: alpha, canvas: canvas)
        }
    }

    // MARK: Contents

    /// Where the shown part of the contents goes, in bounds space (before
    /// the own-flip undo: `contentToTarget` maps it).
    static func contentsDestination(gravity: ContentsGravity, bounds b: Rect, naturalWidth pw: Double,
                                    naturalHeight ph: Double) -> Rect {
        switch gravity {
        case .resize, .tile:
            return b
        case .resizeAspect, .resizeAspectFill:
            guard pw > 0, ph > 0 else { return b }
            let sx = b.width / pw, sy = b.height / ph
            let s = gravity == .resizeAspect ? Swift.min(sx, sy) : Swift.max(sx, sy)
            let w = pw * s, h = ph * s
            return Rect(x: b.minX + (b.width - w) / 2, y: b.minY + (b.height - h) / 2, width: w, height: h)
        default:
            var x = b.minX + (b.width - pw) / 2, y = b.minY + (b.height - ph) / 2
            switch gravity {
            case .left, .topLeft, .bottomLeft: x = b.minX
            case .right, .topRight, .bottomRight: x = b.maxX - pw
            default: break
            }
            switch gravity {
            case .top, .topLeft, .topRight: y = b.minY
            case .bottom, .bottomLeft, .bottomRight: y = b.maxY - ph
            default: break
            }
            return Rect(x: x, y: y, width: pw, height: ph)
        }
    }

    /// With `clipPath` (bounds space, mapped by `r.toTarget`: the rounded
    /// bounds of a `masksToBounds` layer), the image is composited through
    /// the path's coverage directly, without an offscreen pass; the caller
    /// checks `canClipContentsDirectly` (no nine-part stretch).
    func drawContents(_ contents: LayerContents, _ r: ResolvedLayer, alpha opacity: Double, operator op: BlendOperator,
                      canvas: Canvas, clipPath: Path? = nil) {
        let image = contents.image.view
        let cr = r.p.contentsRect
        guard cr.isFinite, cr.width != 0, cr.height != 0 else { return }
        let unit = PaintRect(x: cr.minX, y: cr.minY, width: cr.width, height: cr.height)
        let cs = r.layer.contentsScale > 0 && r.layer.contentsScale.isFinite ? r.layer.contentsScale : 1
        if cs != r.layer.contentsScale {
            Diagnostics.warn(r.layer, "contentsScale", "contentsScale \(r.layer.contentsScale) is not positive and finite; 1 is used")
        }
        // The shown part's size in texels, and at its natural size in points.
        let rw = unit.width * Double(image.width), rh = unit.height * Double(image.height)
        let gravity = r.layer.contentsGravity
        let alpha = unitToByte(opacity)
        guard alpha > 0 else { return }
        if gravity == .tile {
            drawTiles(contents, r, part: unit, naturalWidth: rw / cs, naturalHeight: rh / cs, alpha: alpha, operator: op,
                      canvas: canvas, clipPath: clipPath)
            return
        }
        let dest = Compositor.contentsDestination(gravity: gravity, bounds: r.bounds,
                                                  naturalWidth: rw / cs, naturalHeight: rh / cs)
        guard dest.width > 0, dest.height > 0, dest.isFinite else { return }
        let box = projectedBox(dest, r.contentToTarget).enclosingIntRect.intersection(canvas.clip)
        guard !box.isEmpty else { return }
        let cc = r.p.contentsCenter
        if gravity == .resize, cc.isFinite, cc != Rect(x: 0, y: 0, width: 1, height: 1) {
            drawNinePart(image, contentsRect: unit, center: cc, dest: dest, contentsScale: cs, r,
                         alpha: alpha, operator: op, box: box, canvas: canvas)
            return
        }
        drawImagePart(contents, r, part: unit, dest: dest, box: box, alpha: alpha, operator: op, canvas: canvas,
                      clipPath: clipPath)
    }

    /// `.tile` contents: the shown part repeated at its natural size
    /// (`naturalWidth` × `naturalHeight` points) from the bounds' top-left
    /// corner; the tiles of the last column and row are cut to the bounds
    /// (a smaller part of the image on a smaller destination). Tiles off
    /// the clip cost one box test each.
    ///
    /// Under a map without rotation or skew each tile owns the pixels whose
    /// centres it holds and is sampled with its edges clamped, so tiles off
    /// the pixel grid meet without a seam (the layer's outer edges are cut
    /// the same way, not anti-aliased). Under a rotation or perspective each
    /// tile is drawn as separate contents, anti-aliased at its own edges, so
    /// faint seams can show between tiles there.
    func drawTiles(_ contents: LayerContents, _ r: ResolvedLayer, part unit: PaintRect, naturalWidth tw: Double,
                   naturalHeight th: Double, alpha: UInt8, operator op: BlendOperator, canvas: Canvas, clipPath: Path?) {
        let b = r.bounds
        guard tw > 0, th > 0, tw.isFinite, th.isFinite, b.isFinite, b.width > 0, b.height > 0 else { return }
        // A documented clamp: a tile grid larger than this is not drawn
        // (a 1-point tile over a huge layer would take forever).
        let columns = (b.width / tw).rounded(.up), rows = (b.height / th).rounded(.up)
        guard columns * rows <= Double(Compositor.maximumTiles) else {
            Diagnostics.warn(r.layer, "contentsGravity", "tiles of \(tw)×\(th) points over \(b.width)×\(b.height) are more than \(Compositor.maximumTiles); not drawn")
            return
        }
        // Only the tiles whose rectangle meets the clip: the clip mapped
        // back into bounds space when the map is affine and invertible.
        var firstColumn = 0, lastColumn = Int(columns) - 1, firstRow = 0, lastRow = Int(rows) - 1
        if r.contentToTarget.isAffine, let inverse = r.contentToTarget.affinePart.inverted() {
            let c = canvas.clip
            var box = BoundingBox.empty
            box.add(inverse.apply(PathPoint(Double(c.x), Double(c.y))))
            box.add(inverse.apply(PathPoint(Double(c.maxX), Double(c.y))))
            box.add(inverse.apply(PathPoint(Double(c.x), Double(c.maxY))))
            box.add(inverse.apply(PathPoint(Double(c.maxX), Double(c.maxY))))
            guard !box.isEmpty else { return }
            // Clamped to the grid before converting: a nearly singular map
            // sends the clip's corners far away (or to NaN, which keeps all).
            func tile(_ v: Double, _ count: Double) -> Int { Int(Swift.min(Swift.max(v.rounded(.down), -1), count)) }
            firstColumn = Swift.max(firstColumn, tile((box.minX - b.minX) / tw, columns) - 1)
            lastColumn = Swift.min(lastColumn, tile((box.maxX - b.minX) / tw, columns) + 1)
            firstRow = Swift.max(firstRow, tile((box.minY - b.minY) / th, rows) - 1)
            lastRow = Swift.min(lastRow, tile((box.maxY - b.minY) / th, rows) + 1)
        }
        guard firstColumn <= lastColumn, firstRow <= lastRow else { return }
        let m = r.contentToTarget
        let axisAligned = m.isAffine && m.affinePart.b == 0 && m.affinePart.c == 0
        var row = firstRow
        while row <= lastRow {
            let y = b.minY + Double(row) * th
            let h = Swift.min(th, b.maxY - y)
            var column = firstColumn
            while column <= lastColumn {
                let x = b.minX + Double(column) * tw
                let w = Swift.min(tw, b.maxX - x)
                column += 1
                guard w > 0, h > 0 else { continue }
                let dest = Rect(x: x, y: y, width: w, height: h)
                let box = (axisAligned ? pixelCentreBox(dest, m.affinePart) : projectedBox(dest, m).enclosingIntRect)
                    .intersection(canvas.clip)
                guard !box.isEmpty else { continue }
                // The cut tile shows the top-left part of the shown part.
                let part = PaintRect(x: unit.x, y: unit.y, width: unit.width * w / tw, height: unit.height * h / th)
                drawImagePart(contents, r, part: part, dest: dest, box: box, alpha: alpha, operator: op, canvas: canvas,
                              clipPath: clipPath, clampsEdges: axisAligned)
            }
            row += 1
        }
    }

    /// The pixels whose centres lie in `rect` mapped by `t` (no rotation or
    /// skew): a pixel belongs to a rectangle when its centre is past the
    /// rectangle's start and at or before its end (`CentreEdge`'s rule for
    /// hard layer edges), so rectangles that share an edge share no pixel
    /// and leave none out.
    func pixelCentreBox(_ rect: Rect, _ t: AffineTransform) -> IntRect {
        let x0 = t.a * rect.minX + t.tx, x1 = t.a * rect.maxX + t.tx
        let y0 = t.d * rect.minY + t.ty, y1 = t.d * rect.maxY + t.ty
        let limit = 1e9
        func pixel(_ v: Double) -> Int { Int(Swift.min(Swift.max((v - 0.5).rounded(.down) + 1, -limit), limit)) }
        let px0 = pixel(Swift.min(x0, x1)), px1 = pixel(Swift.max(x0, x1))
        let py0 = pixel(Swift.min(y0, y1)), py1 = pixel(Swift.max(y0, y1))
        guard px1 > px0, py1 > py0 else { return .zero }
        return IntRect(x: px0, y: py0, width: px1 - px0, height: py1 - py0)
    }

    /// Most tiles one `.tile` layer draws (see `drawTiles`).
    public static let maximumTiles = 1 << 16

    /// Draws the `part` of `contents` (unit coordinates of the image) onto
    /// `dest` (bounds space), within `box` (target pixels, already cut to
    /// the clip). An image shown 1:1 on whole pixels (no clip path, no
    /// debug overlay) is composited row by row straight from its pixels:
    /// the same pixels the resampling paint gives there (it samples texel
    /// centres only), without shading a span (`WholePixelBlitTests` compare
    /// the two).
    ///
    /// `clampsEdges`: the image is sampled with its edges clamped and cut
    /// hard at `box` (tiles), instead of fading out at its edges.
    func drawImagePart(_ contents: LayerContents, _ r: ResolvedLayer, part unit: PaintRect, dest: Rect, box: IntRect,
                       alpha: UInt8, operator op: BlendOperator, canvas: Canvas, clipPath: Path?, clampsEdges: Bool = false) {
        let image = contents.image.view
        let rx = unit.x * Double(image.width), ry = unit.y * Double(image.height)
        let rw = unit.width * Double(image.width), rh = unit.height * Double(image.height)
        // Texels → bounds space: the shown part onto `dest`.
        let sx = dest.width / rw, sy = dest.height / rh
        let place = AffineTransform(a: sx, b: 0, c: 0, d: sy, tx: dest.minX - rx * sx, ty: dest.minY - ry * sy)
        let texelToTarget = ProjectiveTransform(place).concatenating(r.contentToTarget)
        if clipPath == nil, wholePixelBlits, debugOverlays.isEmpty, texelToTarget.isAffine,
           blitWholePixels(image, texelToTarget.affinePart, texels: (rx, ry, rw, rh), box: box, isOpaque: contents.isOpaque,
                           alpha: alpha, operator: op, canvas: canvas) {
            return
        }
        let magnifies = texelToTarget.areaScale(at: Point(x: rx + rw / 2, y: ry + rh / 2)) >= 1
        let filter = (magnifies ? r.layer.magnificationFilter : r.layer.minificationFilter).imageFilter
        let mipMaps = filter == .trilinear ? contents.mipMapsForDrawing : nil
        let misaligned = misalignedTint(texelToTarget)
        // Contents filling the bounds of a layer off the pixel grid, with
        // hard edges: the image clamped at its border (its own filtering
        // does not fade it) and cut along the bounds' outline.
        if dest == r.bounds, misaligned == nil, !clampsEdges,
           drawHardEdgeContents(contents, r, texelToTarget: texelToTarget, filter: filter, contentsRect: unit,
                                mipMaps: mipMaps, box: box, alpha: alpha, operator: op, canvas: canvas) {
            return
        }
        if texelToTarget.isAffine {
            // An opaque image at 1:1 on whole pixels samples texel centres
            // only: clamping its edges changes no pixel and makes the paint
            // opaque, so it is copied, not blended (a decoded JPEG or an
            // alpha-less PNG shown at its size).
            let edge: ImageEdge = clampsEdges || (contents.isOpaque && texelToTarget.affinePart.isWholePixelTranslation)
                ? .clamp : .transparent
            let paint = ImagePaint(image: image, transform: texelToTarget.affinePart, filter: filter, edge: edge,
                                   contentsRect: unit, imageIsOpaque: contents.isOpaque, mipMaps: mipMaps,
                                   scratch: scratch.imageSampling, levelOfDetailBias: r.layer.minificationFilterBias)
            if let clipPath {
                fillPaint(box, paint: paint, through: clipPath, map: r.toTarget, sampleRect: r.bounds, operator: op,
                          alpha: alpha, canvas: canvas)
            } else {
                fillPaint(box, paint: paint, operator: op, alpha: alpha, canvas: canvas, misalignedTint: misaligned)
            }
        } else {
            let paint = ImagePaint(image: image, projective: texelToTarget, filter: filter, edge: .transparent,
                                   contentsRect: unit, mipMaps: mipMaps,
                                   levelOfDetailBias: r.layer.minificationFilterBias)
            if let clipPath {
                fillPaint(box, paint: paint, through: clipPath, map: r.toTarget, sampleRect: r.bounds, operator: op,
                          alpha: alpha, canvas: canvas)
            } else {
                fillPaint(box, paint: paint, operator: op, alpha: alpha, canvas: canvas, misalignedTint: misaligned)
            }
        }
    }

    /// The whole-pixel image blit: when `texelToTarget` moves texels by
    /// whole pixels without scaling and the shown part is whole texels,
    /// composites that part's rows (cut to `box`) with the image kernel
    /// chosen once, and returns true; otherwise draws nothing and returns
    /// false. Outside the shown part the resampling paint is transparent,
    /// which changes nothing only for operators where a transparent source
    /// is a no-op; for the others the blit is taken only when the part
    /// covers the whole box.
    func blitWholePixels(_ image: PixelView<ARGB8888>, _ t: AffineTransform, texels: (x: Double, y: Double, w: Double, h: Double),
                         box: IntRect, isOpaque: Bool, alpha: UInt8, operator op: BlendOperator, canvas: Canvas) -> Bool {
        guard t.isWholePixelTranslation, Swift.abs(t.tx) < 1e9, Swift.abs(t.ty) < 1e9,
              texels.x == texels.x.rounded(), texels.y == texels.y.rounded(),
              texels.w == texels.w.rounded(), texels.h == texels.h.rounded(),
              Swift.abs(texels.x) < 1e9, Swift.abs(texels.y) < 1e9, Swift.abs(texels.w) < 1e9, Swift.abs(texels.h) < 1e9
        else { return false }
        let shown = IntRect(x: Int(texels.x), y: Int(texels.y), width: Int(texels.w), height: Int(texels.h))
            .intersection(IntRect(x: 0, y: 0, width: image.width, height: image.height))
        let tx = Int(t.tx), ty = Int(t.ty)
        let placed = IntRect(x: shown.x + tx, y: shown.y + ty, width: shown.width, height: shown.height)
        let r = placed.intersection(box).intersection(canvas.clip)
        guard op.transparentSourceIsNoOp || r == box else { return false }
        guard !r.isEmpty else { return true }
        var clipped = canvas
        clipped.clip(to: box)
        let part = PixelView<ARGB8888>(base: image.row(shown.y) + shown.x, width: shown.width, height: shown.height,
                                       rowStride: image.rowStride, owner: image.owner)
        clipped.draw(part, x: placed.x, y: placed.y, operator: op, alpha: alpha, opaque: isOpaque)
        statistics.pixelsWritten += r.area
        if !(isOpaque && alpha == 255 && (op == .srcOver || op == .src)) { statistics.pixelsBlended += r.area }
        return true
    }

    /// Largest side of the intermediate nine-part image.
    static let maximumNinePartSide = 4096

    /// Nine-part contents: the parts are stretched into an intermediate
    /// image at the contents' own density (`contentsScale` texels per
    /// point, so the corners keep their size in points), which is then
    /// resampled through the layer's map like any contents. An intermediate
    /// larger than `maximumNinePartSide` is made at a lower density (the
    /// corners then shrink with it). When the map is a plain translation by
    /// whole pixels and `scale == contentsScale`, the parts are drawn
    /// straight into the target.
    func drawNinePart(_ image: PixelView<ARGB8888>, contentsRect: PaintRect, center: Rect, dest: Rect, contentsScale cs: Double,
                      _ r: ResolvedLayer, alpha: UInt8, operator op: BlendOperator, box: IntRect, canvas: Canvas) {
        let center = PaintRect(x: center.minX, y: center.minY, width: center.width, height: center.height)
        let m = r.contentToTarget
        if m.isAffine && m.m00 == cs && m.m11 == cs && m.m01 == 0 && m.m10 == 0 {
            let paint = NinePartPaint(image: image, contentsRect: contentsRect, contentsCenter: center,
                                      bounds: PaintRect(x: m.m00 * dest.minX + m.m02, y: m.m11 * dest.minY + m.m12,
                                                        width: dest.width * cs, height: dest.height * cs),
                                      filter: r.layer.magnificationFilter == .nearest ? .nearest : .bilinear)
            fillPaint(box, paint: paint, operator: op, alpha: alpha, canvas: canvas)
            return
        }
        var density = cs
        let side = Double(Compositor.maximumNinePartSide)
        if dest.width * density > side { density = side / dest.width }
        if dest.height * density > side { density = side / dest.height }
        let w = Int((dest.width * density).rounded(.up)), h = Int((dest.height * density).rounded(.up))
        guard let temp = colorPool.acquire(width: w, height: h) else { return }
        defer { colorPool.release(temp) }
        statistics.offscreenPasses += 1
        let paint = NinePartPaint(image: image, contentsRect: contentsRect, contentsCenter: center,
                                  bounds: PaintRect(x: 0, y: 0, width: dest.width * density, height: dest.height * density),
                                  filter: r.layer.magnificationFilter == .nearest ? .nearest : .bilinear)
        fillPaint(temp.bounds, paint: paint, operator: .src, alpha: 255, canvas: Canvas(temp, family: kernels))
        let place = AffineTransform(a: 1 / density, b: 0, c: 0, d: 1 / density, tx: dest.minX, ty: dest.minY)
        let texelToTarget = ProjectiveTransform(place).concatenating(m)
        let magnifies = texelToTarget.areaScale(at: Point(x: Double(w) / 2, y: Double(h) / 2)) >= 1
        let filter = (magnifies ? r.layer.magnificationFilter : r.layer.minificationFilter).imageFilter
        // The intermediate is a pass one level deeper than the draw.
        let passTint = debugOverlays.contains(.offscreen) ? OverlayTint.offscreen(depth: overlayState.offscreenDepth + 1) : nil
        if texelToTarget.isAffine {
            let paint = ImagePaint(image: temp, transform: texelToTarget.affinePart, filter: filter, edge: .transparent)
            fillPaint(box, paint: paint, operator: op, alpha: alpha, canvas: canvas, misalignedTint: passTint)
        } else {
            let paint = ImagePaint(image: temp, projective: texelToTarget, filter: filter, edge: .transparent)
            fillPaint(box, paint: paint, operator: op, alpha: alpha, canvas: canvas, misalignedTint: passTint)
        }
    }
}
