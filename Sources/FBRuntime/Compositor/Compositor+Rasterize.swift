import Raster

// `shouldRasterize`: the layer image (background, contents, sublayers,
// border — not its own shadow, mask or opacity, which apply when the bitmap
// is composited) is rendered once into a bitmap in the layer's own space
// and reused while its signature (the same `LayerSignature` fold that
// damage tracking uses, taken in raster space so moving the layer does not
// change it) stays the same.

extension Compositor {
    /// Largest side of a rasterized bitmap; a larger layer is rasterized at
    /// a lower density.
    public static let maximumRasterizedSide = 4096

    /// Frames an unused cache entry survives.
    static let rasterizeEntryLifetime: UInt64 = 120

    /// Plans `r`'s bitmap for this frame (once a frame): its density
    /// (`rasterizationScale` pixels per point of the layer's own space, as
    /// Core Animation's; ≤ 0 or NaN counts as 1; lowered so no side
    /// exceeds `maximumRasterizedSide`),
    /// the map from the layer's bounds space to the bitmap, its size, and
    /// the signature of what it would show. `nil` when there is nothing to
    /// show.
    func rasterPlan(_ r: ResolvedLayer, depth: Int) -> RasterizeCache.Entry? {
        let e = rasterizeCache.entry(for: r.layer)
        if e.frame == frameNumber { return e.width > 0 ? e : nil }
        e.frame = frameNumber
        e.counted = false
        e.width = 0
        let layer = r.layer
        func positive(_ v: Double) -> Double { v > 0 && v.isFinite ? v : 1 }
        var density = positive(layer.rasterizationScale)
        var box = subtreeBounds(r.withMap(ProjectiveTransform(AffineTransform(scaleX: density, y: density))), depth: depth,
                                effects: false)
        guard !box.isEmpty, box.minX.isFinite, box.minY.isFinite, box.maxX.isFinite, box.maxY.isFinite else { return nil }
        let side = Double(Compositor.maximumRasterizedSide) - 2
        let largest = Swift.max(box.maxX - box.minX, box.maxY - box.minY)
        if largest > side {
            density *= side / largest
            box = subtreeBounds(r.withMap(ProjectiveTransform(AffineTransform(scaleX: density, y: density))), depth: depth,
                                effects: false)
        }
        let pixels = box.enclosingIntRect
        guard !pixels.isEmpty, pixels.width <= Compositor.maximumRasterizedSide,
              pixels.height <= Compositor.maximumRasterizedSide else { return nil }
        e.rasterMap = ProjectiveTransform(AffineTransform(a: density, b: 0, c: 0, d: density,
                                                          tx: -Double(pixels.x), ty: -Double(pixels.y)))
        e.width = pixels.width
        e.height = pixels.height
        let rr = r.withMap(e.rasterMap)
        var signature = LayerSignature()
        signature.combine(rr, inheritedOpacity: 1, imageOnly: true)
        signature.combine(pixels)
        foldSubtree(rr, into: &signature, depth: depth, includeMask: false)
        e.currentSignature = signature.value
        return e
    }

    /// The bitmap of rasterized `r`, rendered now on a miss; `nil` when
    /// there is nothing to show or it does not fit the budget (the caller
    /// then draws the layer image directly). Counts one hit or miss a frame.
    func rasterizedImage(_ r: ResolvedLayer, depth: Int) -> RasterizeCache.Entry? {
        guard let e = rasterPlan(r, depth: depth) else { return nil }
        if !e.counted {
            e.counted = true
            if e.isValid { statistics.rasterizeCacheHits += 1 } else { statistics.rasterizeCacheMisses += 1 }
        }
        rasterizeCache.touch(e)
        if e.isValid { return e }
        var surface = e.image
        if surface?.width != e.width || surface?.height != e.height {
            if let old = surface { rasterizeCache.drop(e); _ = old }
            let bytes = ((e.width + 15) & ~15) * e.height * 4
            guard rasterizeCache.makeRoom(bytes, keeping: e),
                  let s = Surface<ARGB8888>(width: e.width, height: e.height) else { return nil }
            surface = s
        }
        guard let surface else { return nil }
        let view = surface.view
        var y = 0
        while y < view.height { view.row(y).update(repeating: 0, count: view.width); y += 1 }
        statistics.offscreenPasses += 1
        drawImage(r.withMap(e.rasterMap), opacity: 1, operator: .srcOver, canvas: Canvas(view, family: kernels), depth: depth)
        rasterizeCache.store(surface, signature: e.currentSignature, in: e)
        return e
    }

    /// Composites the bitmap of `e` through `r`'s map with `opacity` and
    /// `op`: a plain copy or blend when the map is a whole-pixel
    /// translation, resampled (bilinear) otherwise.
    func drawRasterized(_ r: ResolvedLayer, _ e: RasterizeCache.Entry, opacity: Double, operator op: BlendOperator,
                        canvas: Canvas) {
        guard let image = e.image else { return }
        let alpha = unitToByte(opacity)
        guard alpha > 0 else { return }
        // Bitmap pixels → bounds space (the inverse of the raster map) → target.
        let m = e.rasterMap
        let place = AffineTransform(a: 1 / m.m00, b: 0, c: 0, d: 1 / m.m11, tx: -m.m02 / m.m00, ty: -m.m12 / m.m11)
        let texelToTarget = ProjectiveTransform(place).concatenating(r.toTarget)
        let t = texelToTarget
        if t.isAffine && t.m01 == 0 && t.m10 == 0 && Swift.abs(t.m00 - 1) < 1e-9 && Swift.abs(t.m11 - 1) < 1e-9,
           Swift.abs(t.m02 - t.m02.rounded()) < 1e-6, Swift.abs(t.m12 - t.m12.rounded()) < 1e-6,
           Swift.abs(t.m02) < 1_073_741_824, Swift.abs(t.m12) < 1_073_741_824 {
            composite(image.view, x: Int(t.m02.rounded()), y: Int(t.m12.rounded()), mask: nil, operator: op,
                      alpha: alpha, canvas: canvas)
            return
        }
        let area = Rect(x: place.tx, y: place.ty, width: Double(image.width) * place.a, height: Double(image.height) * place.d)
        let box = projectedBox(area, r.toTarget).enclosingIntRect.intersection(canvas.clip)
        guard !box.isEmpty else { return }
        if t.isAffine {
            let paint = ImagePaint(image: image.view, transform: t.affinePart, filter: .bilinear, edge: .transparent)
            fillPaint(box, paint: paint, operator: op, alpha: alpha, canvas: canvas)
        } else {
            let paint = ImagePaint(image: image.view, projective: t, filter: .bilinear, edge: .transparent)
            fillPaint(box, paint: paint, operator: op, alpha: alpha, canvas: canvas)
        }
    }

    /// Draws the layer image of `r` — from its bitmap when it rasterizes.
    func drawLayerImage(_ r: ResolvedLayer, opacity: Double, operator op: BlendOperator, canvas: Canvas, depth: Int,
                        occludedFrom: Int? = nil) {
        if r.layer.shouldRasterize, let e = rasterizedImage(r, depth: depth) {
            drawRasterized(r, e, opacity: opacity, operator: op, canvas: canvas)
        } else {
            drawImage(r, opacity: opacity, operator: op, canvas: canvas, depth: depth, occludedFrom: occludedFrom)
        }
    }
}

extension Compositor.ResolvedLayer {
    /// The same layer drawn through `map` (bounds space → pixels) instead.
    func withMap(_ map: ProjectiveTransform) -> Compositor.ResolvedLayer {
        var r = self
        r.toTarget = map
        r.contentToTarget = map
        if p.geometry.isGeometryFlipped {
            let flip = ProjectiveTransform(AffineTransform(a: 1, b: 0, c: 0, d: -1, tx: 0, ty: bounds.minY + bounds.maxY))
            r.contentToTarget = flip.concatenating(map)
        }
        return r
    }
}
