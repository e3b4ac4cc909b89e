import Raster

// Offscreen passes: group opacity, rounded clips, mask layers, shadows.

/// Renderer state a layer keeps between frames: the blurred image of its
/// `shadowPath` (see `Compositor`, Shadows).
final class LayerRenderCache {
    var verbs: [PathVerb] = []
    var points: [PathPoint] = []
    var radius = 0.0
    var density = 0.0
    /// The blurred coverage of the path (the colour is applied when it is
    /// drawn); texel (0, 0) is at `origin` in the layer's bounds space
    /// (before the shadow offset), one texel is `1 / density` points.
    var image: Surface<A8>?
    var origin = Point.zero
    var imageDensity = 1.0
    // Bookkeeping of `Compositor.shadowCache` (see `ShadowCache`).
    var lastUse: UInt64 = 0
    var isHeld = false
    var heldBytes = 0
    /// The image is over the budget: drawn once, then dropped.
    var isTransient = false
}

/// A layer's shadow as the compositor draws it.
struct ShadowPlan {
    /// `shadowColor × shadowOpacity`, premultiplied.
    let color: PremultipliedColor
    /// Bounds space, points.
    let offset: Size
    /// Points.
    let radius: Double
    let path: Path?
    var fromImage: Bool { path == nil }
}

/// A shadow cast by the layer image, in target pixels.
struct ImageShadowGeometry {
    var dx: Int, dy: Int
    var radius: Double
    /// Pixels the blur spreads beyond the source (≥ 1.5·radius).
    var margin: Int
}

extension Compositor {
    /// `nil` when the layer casts no visible shadow (or `masksToBounds`
    /// clips it away; see `Compositor`).
    func shadowPlan(_ r: ResolvedLayer) -> ShadowPlan? {
        guard !r.layer.masksToBounds else { return nil }
        let opacity = clampUnit(r.p.shadowOpacity)
        guard opacity > 0 else { return nil }
        let color = faded(r.p.shadowColor, opacity)
        guard color.alpha > 0 else { return nil }
        var offset = r.p.shadowOffset
        if !offset.width.isFinite { offset.width = 0 }
        if !offset.height.isFinite { offset.height = 0 }
        let radius = r.p.shadowRadius > 0 && r.p.shadowRadius.isFinite ? r.p.shadowRadius : 0
        return ShadowPlan(color: color, offset: offset, radius: radius, path: r.p.shadowPath)
    }

    /// Offset and radius carried into target pixels by the map's local
    /// scale at the centre of the bounds.
    func imageShadowGeometry(_ r: ResolvedLayer, _ s: ShadowPlan) -> ImageShadowGeometry {
        let c = r.bounds.center
        var dx = 0, dy = 0
        if let a = r.toTarget.apply(x: c.x, y: c.y),
           let b = r.toTarget.apply(x: c.x + s.offset.width, y: c.y + s.offset.height) {
            let limit = 1_048_576.0
            dx = Int(Swift.max(-limit, Swift.min(limit, (b.x - a.x).rounded())))
            dy = Int(Swift.max(-limit, Swift.min(limit, (b.y - a.y).rounded())))
        }
        let k = r.toTarget.areaScale(at: c).squareRoot()
        var radius = s.radius * (k.isFinite ? k : 0)
        if radius > Compositor.maximumShadowRadius { radius = Compositor.maximumShadowRadius }
        return ImageShadowGeometry(dx: dx, dy: dy, radius: radius, margin: Int((1.5 * radius).rounded(.up)) + 2)
    }

    // MARK: Bounds of what a layer draws

    /// The target pixels drawing `r` with its subtree may touch (a
    /// conservative box): bounds, contents overhang, sublayers (unless
    /// clipped by `masksToBounds`), grown by what filters spread, the
    /// shadow, cut by the mask layer.
    /// With `sublayers` false: what the layer draws of its own. With
    /// `effects` false: the layer image alone (no own filters, shadow or
    /// mask).
    func subtreeBounds(_ r: ResolvedLayer, depth: Int, sublayers: Bool = true, effects: Bool = true) -> BoundingBox {
        var box = projectedBox(r.bounds, r.toTarget)
        let layer = r.layer
        if surveyVaries(layer) { surveyVaries = true }      // particles, tiles: a box that moves with time
        if !layer.masksToBounds {
            if let contents = layer.contents, r.p.contentsRect.isFinite {
                let cs = layer.contentsScale > 0 && layer.contentsScale.isFinite ? layer.contentsScale : 1
                let dest = Compositor.contentsDestination(
                    gravity: layer.contentsGravity, bounds: r.bounds,
                    naturalWidth: r.p.contentsRect.width * Double(contents.width) / cs,
                    naturalHeight: r.p.contentsRect.height * Double(contents.height) / cs)
                if dest.isFinite { box = box.union(projectedBox(dest, r.contentToTarget)) }
            }
            if layer.drawsOwnContent, let extent = ownContentExtent(of: layer, at: r.localTime), extent.isFinite {
                let own = projectedBox(extent, r.toTarget)
                let margin = layer.ownContentSnapMargin
                box = box.union(margin > 0 && !own.isEmpty ? own.insetBy(-margin) : own)
            }
            if sublayers && depth + 1 < Compositor.maximumDepth {
                let placement = r.sublayerPlacement
                let sublayers = layer.sublayers
                var k = 0
                while k < sublayers.count {       // not `for in`: see forEachSublayerInDrawingOrder
                    defer { k += 1 }
                    guard let s = resolve(sublayers[k], in: placement), clampUnit(s.p.opacity) > 0 else { continue }
                    box = box.union(subtreeBounds(s, depth: depth + 1))
                }
            }
        }
        if effects && !layer.filters.isEmpty && !box.isEmpty {
            // The shadow is cast from the filtered image. (A `shouldRasterize`
            // bitmap, which asks without effects, holds the image before
            // the layer's own filters.)
            let m = filterMargin(r)
            if m > 0 { box = box.insetBy(-Double(m)) }
        }
        if effects, let shadow = shadowPlan(r) {
            let source: BoundingBox
            if let path = shadow.path {
                let b = path.bounds
                source = b.isEmpty ? .empty
                    : projectedBox(Rect(x: b.minX, y: b.minY, width: b.width, height: b.height), r.toTarget)
            } else {
                source = box
            }
            let g = imageShadowGeometry(r, shadow)
            // Under perspective the local scale varies: leave slack.
            box = box.union(source.offsetBy(Double(g.dx), Double(g.dy)).insetBy(-2 * Double(g.margin)))
        }
        if effects, let mask = layer.mask, depth + 1 < Compositor.maximumDepth {
            let placement = r.maskPlacement
            if let m = resolve(mask, in: placement) {
                box = box.intersection(subtreeBounds(m, depth: depth + 1))
            } else {
                box = .empty
            }
        }
        return box
    }

    // MARK: Passes

    /// `masksToBounds` with rounded corners or a non-axis-aligned map:
    /// contents and sublayers offscreen, composited through the coverage of
    /// the rounded bounds.
    func drawClipPass(_ r: ResolvedLayer, opacity: Double, operator op: BlendOperator, canvas: Canvas, depth: Int) {
        let region = projectedBox(r.bounds, r.toTarget).enclosingIntRect.intersection(canvas.clip)
        guard !region.isEmpty else { return }
        guard let off = colorPool.acquire(width: region.width, height: region.height) else { return }
        defer { colorPool.release(off) }
        guard let coverage = coveragePool.acquire(width: region.width, height: region.height) else { return }
        defer { coveragePool.release(coverage) }
        statistics.offscreenPasses += 1
        let s = r.shifted(x: region.x, y: region.y)
        overlayState.offscreenDepth += 1
        drawContentsAndSublayers(s, opacity: opacity, operator: .srcOver, canvas: Canvas(off, family: kernels), depth: depth)
        rasterizeBoundsCoverage(s, into: coverage)
        composite(off, x: region.x, y: region.y, mask: coverage, operator: op, alpha: 255, canvas: canvas)
        offscreenTint(off, x: region.x, y: region.y, mask: coverage, alpha: 255, canvas: canvas)
        overlayState.offscreenDepth -= 1
    }

    /// The whole layer image offscreen, then shadow (from its alpha),
    /// mask, opacity and operator applied once (in two passes for a shadow
    /// cast from far off: `drawGroupSplit`).
    func drawGroup(_ r: ResolvedLayer, shadow: ShadowPlan?, opacity: Double, canvas: Canvas, depth: Int) {
        var needed = canvas.clip
        var shadowGeometry: ImageShadowGeometry?
        if let shadow, shadow.fromImage {
            // The image outside the clip casts shadow into it.
            let g = imageShadowGeometry(r, shadow)
            shadowGeometry = g
            needed = needed.union(canvas.clip.insetBy(-g.margin).offsetBy(-g.dx, -g.dy))
        }
        // Filters: what is needed, with the pixels its blurs read.
        let filterMargin = r.layer.filters.isEmpty ? 0 : filterMargin(r)
        if filterMargin > 0 { needed = needed.insetBy(-filterMargin) }
        let bounds = subtreeBounds(r, depth: depth).enclosingIntRect
        let region = bounds.intersection(needed)
        guard !region.isEmpty else { return }
        if let shadow, let g = shadowGeometry,
           drawGroupSplit(r, shadow: shadow, g, filterMargin: filterMargin, bounds: bounds, region: region, opacity: opacity,
                          canvas: canvas, depth: depth) {
            return
        }
        drawGroupPass(r, region: region, shadow: shadow, shadowGeometry, image: true, opacity: opacity, canvas: canvas, depth: depth)
    }

    /// One offscreen pass of `drawGroup` over `region` (target pixels):
    /// the shadow when `shadow` is given, then the image unless `image` is
    /// false.
    func drawGroupPass(_ r: ResolvedLayer, region: IntRect, shadow: ShadowPlan?, _ shadowGeometry: ImageShadowGeometry?, image: Bool,
                       opacity: Double, canvas: Canvas, depth: Int) {
        let layer = r.layer
        guard let off = colorPool.acquire(width: region.width, height: region.height) else {
            // Beyond `RasterLimits` (an extreme shadow offset): drawn without
            // the group, mask and image shadow rather than not at all.
            Diagnostics.warn(layer, "offscreen", "offscreen pass of \(region.width)×\(region.height) pixels exceeds RasterLimits; drawn without group opacity, filters, mask and shadow")
            if image { drawImage(r, opacity: opacity, operator: layer.compositingOperator, canvas: canvas, depth: depth) }
            return
        }
        defer { colorPool.release(off) }
        statistics.offscreenPasses += 1
        overlayState.offscreenDepth += 1
        defer { overlayState.offscreenDepth -= 1 }
        let s = r.shifted(x: region.x, y: region.y)
        let offCanvas = Canvas(off, family: kernels)
        if let shadow, !shadow.fromImage, layer.mask != nil {
            drawPathShadow(s, shadow, alpha: 1, canvas: offCanvas)   // the mask cuts it too
        }
        drawLayerImage(s, opacity: 1, operator: .srcOver, canvas: offCanvas, depth: depth)
        if !layer.filters.isEmpty { applyFilters(r, to: off) }
        var maskCoverage: PixelView<A8>?
        if let mask = layer.mask {
            guard let m = renderMask(mask, of: s, width: region.width, height: region.height, depth: depth) else { return }
            maskCoverage = m
        }
        defer { if let maskCoverage { coveragePool.release(maskCoverage) } }
        let alpha = unitToByte(opacity)
        if let shadow {
            if let g = shadowGeometry {
                drawImageShadow(off, at: region, mask: maskCoverage, g, color: shadow.color, alpha: alpha, canvas: canvas)
            } else if layer.mask == nil {
                drawPathShadow(r, shadow, alpha: opacity, canvas: canvas)
            }
        }
        guard image else { return }
        composite(off, x: region.x, y: region.y, mask: maskCoverage, operator: layer.compositingOperator,
                  alpha: alpha, canvas: canvas)
        offscreenTint(off, x: region.x, y: region.y, mask: maskCoverage, alpha: alpha, canvas: canvas)
    }

    /// The alpha of `mask` (laid out in the bounds space of `r`, which is
    /// already shifted to the offscreen surface) as coverage.
    func renderMask(_ mask: Layer, of r: ResolvedLayer, width: Int, height: Int, depth: Int) -> PixelView<A8>? {
        guard let image = colorPool.acquire(width: width, height: height) else { return nil }
        defer { colorPool.release(image) }
        guard let coverage = coveragePool.acquire(width: width, height: height) else { return nil }
        statistics.offscreenPasses += 1
        let placement = r.maskPlacement
        draw(mask, parent: placement, opacity: 1, canvas: Canvas(image, family: kernels), depth: depth + 1)
        var y = 0
        while y < height {
            let src = image.row(y), dst = coverage.row(y)
            var x = 0
            while x < width { dst[x] = UInt8(truncatingIfNeeded: src[x] &>> 24); x &+= 1 }
            y &+= 1
        }
        statistics.pixelsWritten += width * height
        return coverage
    }

    /// The shadow cast by the alpha of `image` (placed at `region`),
    /// blurred, cut by `mask` (at `region`; nothing outside it), drawn onto
    /// `canvas`. Only the part that can reach the clip is blurred: the
    /// clip moved back by the offset, grown by the blur margin.
    func drawImageShadow(_ image: PixelView<ARGB8888>, at region: IntRect, mask: PixelView<A8>?, _ g: ImageShadowGeometry,
                         color: PremultipliedColor, alpha: UInt8, canvas: Canvas) {
        let m = g.margin
        // The shadow surface, in the image's (unshifted) target coordinates.
        let area = region.insetBy(-m).intersection(canvas.clip.insetBy(-m).offsetBy(-g.dx, -g.dy))
        guard !area.isEmpty, let shadow = coveragePool.acquire(width: area.width, height: area.height) else { return }
        defer { coveragePool.release(shadow) }
        statistics.offscreenPasses += 1
        let copy = region.intersection(area)
        var y = copy.y
        while y < copy.maxY {
            let src = image.row(y - region.y) + (copy.x - region.x), dst = shadow.row(y - area.y) + (copy.x - area.x)
            var x = 0
            if let mask {
                let k = mask.row(y - region.y) + (copy.x - region.x)
                while x < copy.width { dst[x] = UInt8(truncatingIfNeeded: div255(UInt32(src[x] &>> 24) &* UInt32(k[x]))); x &+= 1 }
            } else {
                while x < copy.width { dst[x] = UInt8(truncatingIfNeeded: src[x] &>> 24); x &+= 1 }
            }
            y &+= 1
        }
        blur.blur(shadow, radius: g.radius, family: kernels)
        let x0 = area.x + g.dx, y0 = area.y + g.dy
        if let mask {
            // The mask clips the shadow: keep it only where the mask is.
            var j = 0
            while j < shadow.height {
                let my = y0 + j - region.y
                let row = shadow.row(j)
                if my < 0 || my >= region.height {
                    row.update(repeating: 0, count: shadow.width)
                } else {
                    let k = mask.row(my)
                    var i = 0
                    while i < shadow.width {
                        let mx = x0 + i - region.x
                        row[i] = mx < 0 || mx >= region.width ? 0 : UInt8(truncatingIfNeeded: div255(UInt32(row[i]) &* UInt32(k[mx])))
                        i &+= 1
                    }
                }
                j &+= 1
            }
        }
        let visible = IntRect(x: x0, y: y0, width: shadow.width, height: shadow.height).intersection(canvas.clip).area
        canvas.fill(mask: shadow, x: x0, y: y0, color: color, alpha: alpha)
        statistics.pixelsWritten += visible + shadow.width * shadow.height
        statistics.pixelsBlended += visible
    }

    /// Draws the cached blurred `shadowPath` of `r` through its map: the
    /// shadow colour through the cached coverage, resampled where it does
    /// not fall on whole pixels (`Canvas.fill(_:mask:transform:…)`). Pixels
    /// of `hidden` (target pixels the layer's own opaque background
    /// overwrites right after: see `opaqueBackgroundInterior`) are not
    /// shaded — the result is the same, without resampling under the card.
    func drawPathShadow(_ r: ResolvedLayer, _ s: ShadowPlan, alpha opacity: Double, canvas: Canvas, hidden: IntRect = .zero) {
        guard let path = s.path, let cache = cachedShadow(r.layer, path: path, plan: s) else { return }
        let mask = cache.image
        let alpha = unitToByte(opacity)
        guard alpha > 0 else { return }
        let texel = 1 / cache.density
        let place = AffineTransform(a: texel, b: 0, c: 0, d: texel,
                                    tx: cache.origin.x + s.offset.width, ty: cache.origin.y + s.offset.height)
        let texelToTarget = ProjectiveTransform(place).concatenating(r.toTarget)
        let area = Rect(x: place.tx, y: place.ty, width: Double(mask.width) * texel, height: Double(mask.height) * texel)
        let box = projectedBox(area, r.toTarget).enclosingIntRect.intersection(canvas.clip)
        guard !box.isEmpty else { return }
        let view = mask.view
        let affine: AffineTransform? = texelToTarget.isAffine ? texelToTarget.affinePart : nil
        func shade(_ rect: IntRect, _ color: PremultipliedColor) {
            if let t = affine {
                canvas.fill(rect, mask: view, transform: t, color: color, alpha: alpha)
            } else {
                canvas.fill(rect, mask: view, projective: texelToTarget, color: color, alpha: alpha)
            }
        }
        // The hole is skipped under an affine map (`opaqueBackgroundInterior`
        // is empty for the others).
        let hole = affine == nil ? IntRect.zero : hidden.intersection(box)
        if hole.isEmpty {
            shade(box, s.color)
        } else {
            // The ring around the hole: above, below, left, right.
            shade(IntRect(x: box.x, y: box.y, width: box.width, height: hole.y - box.y), s.color)
            shade(IntRect(x: box.x, y: hole.maxY, width: box.width, height: box.maxY - hole.maxY), s.color)
            shade(IntRect(x: box.x, y: hole.y, width: hole.x - box.x, height: hole.height), s.color)
            shade(IntRect(x: hole.maxX, y: hole.y, width: box.maxX - hole.maxX, height: hole.height), s.color)
        }
        if let tint = blendedTint(canvas, blended: true) { shade(box, tint) }
        let written = box.area - hole.area
        statistics.pixelsWritten += written
        statistics.pixelsBlended += written
    }

    /// Largest side of a cached shadow image; a larger path is rasterised
    /// at a lower density.
    static let maximumShadowImageSide = 4096

    /// The layer's shadow coverage as `shadowCache` keeps it, taken under
    /// `sharedCacheLock`: painters on other threads may draw the same
    /// layer's shadow, or evict another's, at the same time (see
    /// `paintThreads`). The image is held by the value returned, so an
    /// eviction meanwhile does not free it; one over the budget
    /// (`isTransient`) is dropped from the cache at once.
    func cachedShadow(_ layer: Layer, path: Path, plan s: ShadowPlan)
        -> (image: Surface<A8>, origin: Point, density: Double)? {
        sharedCacheLock.withLock {
            guard let cache = shadowCache(layer, path: path, plan: s), let image = cache.image else { return nil }
            if cache.isTransient { cache.image = nil }
            return (image, cache.origin, cache.imageDensity)
        }
    }

    /// The layer's cached shadow coverage, rebuilt when the path, radius or
    /// `scale` changed (not the colour, applied when it is drawn). `nil`
    /// for an empty or non-finite path. Call it through `cachedShadow`.
    func shadowCache(_ layer: Layer, path: Path, plan s: ShadowPlan) -> LayerRenderCache? {
        let cache = layer.renderCache ?? LayerRenderCache()
        layer.renderCache = cache
        if cache.image != nil, cache.radius == s.radius, cache.density == scale,
           cache.verbs == path.verbs, cache.points == path.points {
            shadowImages.touch(cache)
            return cache
        }
        shadowImages.remove(cache)
        cache.image = nil
        cache.verbs = path.verbs; cache.points = path.points
        cache.radius = s.radius; cache.density = scale
        let b = path.bounds
        guard !b.isEmpty, b.minX.isFinite, b.minY.isFinite, b.maxX.isFinite, b.maxY.isFinite else { return nil }
        var density = scale
        var radius = 0.0, margin = 0, w = 0, h = 0
        let side = Double(Compositor.maximumShadowImageSide)
        for _ in 0..<64 {
            radius = Swift.min(s.radius * density, Compositor.maximumShadowRadius)
            margin = Int((1.5 * radius).rounded(.up)) + 2
            let fw = (b.width * density).rounded(.up) + Double(2 * margin)
            let fh = (b.height * density).rounded(.up) + Double(2 * margin)
            if fw <= side && fh <= side { w = Int(fw); h = Int(fh); break }
            density /= 2
        }
        guard w > 0, h > 0, let image = Surface<A8>(width: w, height: h) else { return nil }
        statistics.shadowsRasterized += 1
        let origin = Point(x: b.minX - Double(margin) / density, y: b.minY - Double(margin) / density)
        let toTexels = AffineTransform(a: density, b: 0, c: 0, d: density, tx: -origin.x * density, ty: -origin.y * density)
        rasterizer.fill(path, transform: toTexels, rule: .nonZero, into: image.view)
        blur.blur(image.view, radius: radius, family: kernels)
        statistics.pixelsWritten += w * h
        cache.image = image
        shadowImages.admit(cache, image: image)
        cache.origin = origin
        cache.imageDensity = density
        return cache
    }
}

extension Compositor {
    /// The target pixels that the background of `r`, drawn straight onto
    /// the canvas at `opacity` with source-over, fills with coverage 255
    /// and an opaque colour: the bounds inset by r·(1 − 1/√2) for the
    /// largest corner radius r (such a rectangle's corners lie on the
    /// arcs), through an axis-aligned map, rounded inwards. Whatever is
    /// drawn there before the background is overwritten. Empty when not
    /// certain (translucent, another operator, a mask, `shouldRasterize`, a turned map, debug
    /// overlays tinting draws).
    func opaqueBackgroundInterior(_ r: ResolvedLayer, opacity: Double) -> IntRect {
        let layer = r.layer
        guard opacity >= 1, layer.compositingOperator == .srcOver, layer.mask == nil, !layer.shouldRasterize, debugOverlays.isEmpty,
              let color = r.p.backgroundColor, color.alpha >= 1, r.toTarget.isAxisAligned else { return .zero }
        let c = r.radii
        let radius = Swift.max(Swift.max(c.topLeft, c.topRight), Swift.max(c.bottomLeft, c.bottomRight))
        let inset = radius * (1 - 0.5.squareRoot()) + 1e-9
        let b = r.bounds
        guard b.width > 2 * inset, b.height > 2 * inset else { return .zero }
        let box = projectedBox(Rect(x: b.minX + inset, y: b.minY + inset, width: b.width - 2 * inset, height: b.height - 2 * inset),
                               r.toTarget)
        let limit = 1_073_741_824.0
        guard !box.isEmpty, Swift.abs(box.minX) < limit, Swift.abs(box.minY) < limit,
              Swift.abs(box.maxX) < limit, Swift.abs(box.maxY) < limit else { return .zero }
        let x0 = Int(box.minX.rounded(.up)), y0 = Int(box.minY.rounded(.up))
        let x1 = Int(box.maxX.rounded(.down)), y1 = Int(box.maxY.rounded(.down))
        guard x1 > x0, y1 > y0 else { return .zero }
        return IntRect(x: x0, y: y0, width: x1 - x0, height: y1 - y0)
    }
}
