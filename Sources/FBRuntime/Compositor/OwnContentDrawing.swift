import Raster

/// What a layer subclass gets to draw its own content with (see
/// `Layer.drawsOwnContent`): the layer as it is on screen this frame, and
/// fills in the layer's bounds space, anti-aliased through the layer's
/// full map to the target (affine or perspective), faded by the layer's
/// opacity and combined with its operator. Drawing is clipped by the
/// compositor (damage, `masksToBounds`). Counted in the frame statistics.
///
/// Valid only during the call to `drawOwnContent`; render thread only.
struct OwnContentDrawing {
    unowned(unsafe) let compositor: Compositor
    let resolved: Compositor.ResolvedLayer
    /// The opacity the content is faded by (0…1).
    let opacity: Double
    let `operator`: BlendOperator
    let canvas: Canvas

    var layer: Layer { resolved.layer }
    /// The layer's bounds, points.
    var bounds: Rect { resolved.bounds }
    /// The layer's local time: animations of its own keys are evaluated at it.
    var localTime: MediaTime { resolved.localTime }
    /// The layer's bounds space → target pixels.
    var map: ProjectiveTransform { resolved.toTarget }

    /// The layer's 4×4 into its superlayer's space (its transform, then the
    /// superlayer's `sublayerTransform` or a rendering context's chain),
    /// for layers whose `drawsOwnContentInParentSpace`; `nil` otherwise
    /// (and when drawn by a path that does not note it, such as a
    /// transition's snapshot).
    var parentSpace: Transform3D? {
        let s = compositor.scratch.parentSpace
        return s.layer === layer ? s.toSuperlayer : nil
    }

    /// The presentation value of the subclass property `name`.
    func value(_ name: String) -> AnimatableValue? {
        layer.customPresentationValue(forKey: name, atLocalTime: localTime)
    }

    /// Target pixels per point at the centre of the bounds (1 when the map
    /// is degenerate there).
    var localScale: Double {
        let b = bounds
        let s = map.areaScale(at: Point(x: b.minX + b.width / 2, y: b.minY + b.height / 2))
        return s > 0 && s.isFinite ? s.squareRoot() : 1
    }

    /// An affine stand-in for the map near the layer (the map itself when
    /// it is affine), for work done in device resolution such as stroke
    /// flattening.
    var approximateAffineMap: AffineTransform {
        if map.isAffine { return map.affinePart }
        let s = localScale
        return AffineTransform(scaleX: s, y: s)
    }

    /// Fills `path` (bounds space) with `color`.
    func fill(_ path: Path, color: Color, rule: FillRule) {
        guard color.alpha > 0, !path.isEmpty else { return }
        let b = path.bounds
        let sample = Rect(x: b.minX, y: b.minY, width: b.maxX - b.minX, height: b.maxY - b.minY)
        compositor.fillShape(path, map: map, sampleRect: sample.isFinite ? sample : bounds,
                             color: faded(color, opacity), rule: rule, operator: self.operator, canvas: canvas)
    }

    /// Fills `path`, given in a space of its own that `transform` maps into
    /// the bounds space (a glyph outline in font units placed on a line),
    /// with `color`: the path is scan-converted through `transform` and the
    /// layer's map together, at full device resolution.
    func fill(_ path: Path, transform: AffineTransform, color: Color, rule: FillRule) {
        guard color.alpha > 0, !path.isEmpty else { return }
        let b = path.bounds
        let sample = Rect(x: b.minX, y: b.minY, width: b.maxX - b.minX, height: b.maxY - b.minY)
        guard sample.isFinite else { return }
        let full = ProjectiveTransform(transform).concatenating(map)
        // Glyphs off the clip (damage, scrolled away) cost nothing (affine
        // maps; the corners by hand, as the polygon helpers allocate).
        if full.isAffine {
            let a = full.affinePart
            var box = BoundingBox.empty
            box.add(a.apply(PathPoint(b.minX, b.minY))); box.add(a.apply(PathPoint(b.maxX, b.minY)))
            box.add(a.apply(PathPoint(b.minX, b.maxY))); box.add(a.apply(PathPoint(b.maxX, b.maxY)))
            guard !box.isEmpty, !box.enclosingIntRect.intersection(canvas.clip).isEmpty else { return }
        }
        compositor.fillShape(path, map: full, sampleRect: sample,
                             color: faded(color, opacity), rule: rule, operator: self.operator, canvas: canvas)
    }

    /// Fills the outline of `glyph` of `font` (font units, placed in the
    /// bounds space by `transform`) with `color`, as `fill(_:transform:…)`
    /// does, but from `GlyphMaskCache` when `cached` and the glyph's device
    /// map is an axis-aligned scale and translation: a blit of its coverage
    /// at the same sub-pixel position (the same pixels; see
    /// `GlyphMaskCache`). The caller passes `cached` only when the glyph's
    /// size and sub-pixel position are stable across frames.
    func fillGlyph(_ outline: Path, font: Font, glyph: UInt32, transform: AffineTransform, color: Color, cached: Bool) {
        guard cached, compositor.glyphMaskBlits, compositor.debugOverlays.isEmpty, map.isAffine else {
            fill(outline, transform: transform, color: color, rule: .nonZero)
            return
        }
        guard color.alpha > 0, !outline.isEmpty else { return }
        let a = ProjectiveTransform(transform).concatenating(map).affinePart
        let ix = a.tx.rounded(.down), iy = a.ty.rounded(.down)
        let fx = a.tx - ix, fy = a.ty - iy
        let local = AffineTransform(a: a.a, b: 0, c: 0, d: a.d, tx: fx, ty: fy)
        guard a.b == 0, a.c == 0, Swift.abs(ix) < 1e7, Swift.abs(iy) < 1e7,
              let box = Compositor.glyphMaskBox(outline, local) else {
            fill(outline, transform: transform, color: color, rule: .nonZero)
            return
        }
        // Off the clip (damage, scrolled away): nothing to look up.
        guard !IntRect(x: box.x + Int(ix), y: box.y + Int(iy), width: box.width, height: box.height)
            .intersection(canvas.clip).isEmpty else { return }
        let key = GlyphMaskCache.Key(font: font.id, glyph: glyph, scaleX: a.a.bitPattern, scaleY: a.d.bitPattern,
                                     fractionX: fx.bitPattern, fractionY: fy.bitPattern)
        let mask = compositor.glyphMasks.mask(for: key) {
            compositor.makeGlyphMask(outline, a, originX: Int(ix), originY: Int(iy), box: box)
        }
        compositor.fillMask(mask, x: Int(ix) + mask.left, y: Int(iy) + mask.top, color: faded(color, opacity),
                            operator: self.operator, canvas: canvas)
    }

    /// Draws `image` so that it covers `rect` (bounds space), resampled
    /// bilinearly through the layer's map, edges anti-aliased.
    func draw(_ image: PixelView<ARGB8888>, in rect: Rect, isOpaque: Bool = false) {
        guard image.width > 0, image.height > 0, rect.width > 0, rect.height > 0, rect.isFinite else { return }
        let alpha = unitToByte(opacity)
        let box = projectedBox(rect, map).enclosingIntRect.intersection(canvas.clip)
        guard !box.isEmpty, alpha > 0 else { return }
        let sx = rect.width / Double(image.width), sy = rect.height / Double(image.height)
        let place = AffineTransform(a: sx, b: 0, c: 0, d: sy, tx: rect.minX, ty: rect.minY)
        let texelToTarget = ProjectiveTransform(place).concatenating(map)
        if texelToTarget.isAffine {
            let paint = ImagePaint(image: image, transform: texelToTarget.affinePart, filter: .bilinear, edge: .transparent,
                                   imageIsOpaque: isOpaque)
            compositor.fillPaint(box, paint: paint, operator: self.operator, alpha: alpha, canvas: canvas)
        } else {
            let paint = ImagePaint(image: image, projective: texelToTarget, filter: .bilinear, edge: .transparent)
            compositor.fillPaint(box, paint: paint, operator: self.operator, alpha: alpha, canvas: canvas)
        }
    }
}

extension Compositor {
    /// Kept out of line so the recursion through sublayers does not carry
    /// this frame (deep trees in debug builds).
    @inline(never)
    func drawOwnContent(_ r: ResolvedLayer, opacity: Double, operator op: BlendOperator, canvas: Canvas) {
        r.layer.drawOwnContent(OwnContentDrawing(compositor: self, resolved: r, opacity: opacity, operator: op, canvas: canvas))
    }
}
