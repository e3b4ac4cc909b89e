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
    func fillShape(_ path: Path, map: ProjectiveTransform, sampleRect: Rect, color: PremultipliedColor,
                   rule: FillRule, operator op: BlendOperator, canvas: Canvas, hard: CentreEdges = CentreEdges()) {
        guard let kernel = KernelTable.solidMask(op, color: color.argb, alpha: 255, family: kernels) else { return }
        let target = canvas.target
        let argb = color.argb
        var written = 0
        let affine = map.isAffine
        let devicePath = affine ? path : pathProjector.project(path, map, sampleRect: sampleRect)
        rasterizer.fill(devicePath, transform: affine ? map.affinePart : .identity, rule: rule, clip: canvas.clip) {
            y, x, coverage, count in
            let (lo, hi) = hard.isEmpty ? (x, x + count) : cutSpan(hard, y: y, x: x, count: count)
            guard lo < hi else { return }
            kernel(target.row(y) + lo, coverage + (lo - x), hi - lo, argb, 255)
            written += hi - lo
        }
        statistics.pixelsWritten += written
        statistics.pixelsBlended += written
        if let tint = blendedTint(canvas, blended: true),
           let tintKernel = KernelTable.solidMask(.srcOver, color: tint.argb, alpha: 255, family: kernels) {
            rasterizer.fill(devicePath, transform: affine ? map.affinePart : .identity, rule: rule, clip: canvas.clip) {
                y, x, coverage, count in
                let (lo, hi) = hard.isEmpty ? (x, x + count) : cutSpan(hard, y: y, x: x, count: count)
                guard lo < hi else { return }
                tintKernel(target.row(y) + lo, coverage + (lo - x), hi - lo, tint.argb, 255)
            }
        }
    }

    /// The part `lo ..< hi` of the span `x ..< x + count` of row `y` that
    /// `hard` keeps (`lo >= hi` when none).
    @inline(__always)
    func cutSpan(_ hard: CentreEdges, y: Int, x: Int, count: Int) -> (Int, Int) {
        let c = hard.columns(row: y)
        return (Swift.max(x, c.lo), Swift.min(x + count, c.hi))
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
        case .resize:
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

    /// True when `t` moves by whole pixels without scaling or turning.
    static func isWholePixelTranslation(_ t: AffineTransform) -> Bool {
        t.a == 1 && t.b == 0 && t.c == 0 && t.d == 1 && t.tx == t.tx.rounded() && t.ty == t.ty.rounded()
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
        // The shown part in texels and at its natural size in points.
        let rx = unit.x * Double(image.width), ry = unit.y * Double(image.height)
        let rw = unit.width * Double(image.width), rh = unit.height * Double(image.height)
        let gravity = r.layer.contentsGravity
        let dest = Compositor.contentsDestination(gravity: gravity, bounds: r.bounds,
                                                  naturalWidth: rw / cs, naturalHeight: rh / cs)
        guard dest.width > 0, dest.height > 0, dest.isFinite else { return }
        let alpha = unitToByte(opacity)
        let box = projectedBox(dest, r.contentToTarget).enclosingIntRect.intersection(canvas.clip)
        guard !box.isEmpty, alpha > 0 else { return }
        let cc = r.p.contentsCenter
        if gravity == .resize, cc.isFinite, cc != Rect(x: 0, y: 0, width: 1, height: 1) {
            drawNinePart(image, contentsRect: unit, center: cc, dest: dest, contentsScale: cs, r,
                         alpha: alpha, operator: op, box: box, canvas: canvas)
            return
        }
        // Texels → bounds space: the shown part onto `dest`.
        let sx = dest.width / rw, sy = dest.height / rh
        let place = AffineTransform(a: sx, b: 0, c: 0, d: sy, tx: dest.minX - rx * sx, ty: dest.minY - ry * sy)
        let texelToTarget = ProjectiveTransform(place).concatenating(r.contentToTarget)
        let magnifies = texelToTarget.areaScale(at: Point(x: rx + rw / 2, y: ry + rh / 2)) >= 1
        let filter = (magnifies ? r.layer.magnificationFilter : r.layer.minificationFilter).imageFilter
        let mipMaps = filter == .trilinear ? contents.mipMapsForDrawing : nil
        let misaligned = misalignedTint(texelToTarget)
        // Contents filling the bounds of a layer off the pixel grid, with
        // hard edges: the image clamped at its border (its own filtering
        // does not fade it) and cut along the bounds' outline.
        if dest == r.bounds, misaligned == nil,
           drawHardEdgeContents(contents, r, texelToTarget: texelToTarget, filter: filter, contentsRect: unit,
                                mipMaps: mipMaps, box: box, alpha: alpha, operator: op, canvas: canvas) {
            return
        }
        if texelToTarget.isAffine {
            // An opaque image at 1:1 on whole pixels samples texel centres
            // only: clamping its edges changes no pixel and makes the paint
            // opaque, so it is copied, not blended (a decoded JPEG or an
            // alpha-less PNG shown at its size).
            let edge: ImageEdge = contents.isOpaque && Compositor.isWholePixelTranslation(texelToTarget.affinePart)
                ? .clamp : .transparent
            let paint = ImagePaint(image: image, transform: texelToTarget.affinePart, filter: filter, edge: edge,
                                   contentsRect: unit, imageIsOpaque: contents.isOpaque, mipMaps: mipMaps)
            if let clipPath {
                fillPaint(box, paint: paint, through: clipPath, map: r.toTarget, sampleRect: r.bounds, operator: op,
                          alpha: alpha, canvas: canvas)
            } else {
                fillPaint(box, paint: paint, operator: op, alpha: alpha, canvas: canvas, misalignedTint: misaligned)
            }
        } else {
            let paint = ImagePaint(image: image, projective: texelToTarget, filter: filter, edge: .transparent,
                                   contentsRect: unit, mipMaps: mipMaps)
            if let clipPath {
                fillPaint(box, paint: paint, through: clipPath, map: r.toTarget, sampleRect: r.bounds, operator: op,
                          alpha: alpha, canvas: canvas)
            } else {
                fillPaint(box, paint: paint, operator: op, alpha: alpha, canvas: canvas, misalignedTint: misaligned)
            }
        }
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
