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

    /// Fills `path` (bounds space) with `color`; from a coverage mask of an
    /// earlier frame's when it drew the same (`shapeMaskBlits`), unless
    /// `mayBeCached` is false (a path the caller knows to be new).
    func fill(_ path: Path, color: Color, rule: FillRule, mayBeCached: Bool = true) {
        guard color.alpha > 0, !path.isEmpty else { return }
        let b = path.bounds
        let sample = Rect(x: b.minX, y: b.minY, width: b.maxX - b.minX, height: b.maxY - b.minY)
        let part = compositor.nextOwnContentPart()
        compositor.fillShape(path, map: map, sampleRect: sample.isFinite ? sample : bounds,
                             color: faded(color, opacity), rule: rule, operator: self.operator, canvas: canvas,
                             owner: mayBeCached ? (layer, part) : nil)
    }

    /// Fills `sector`, in target pixels (a stroke the layer worked out in
    /// closed form under `map`), with `color`.
    func fill(_ sector: AnnularSector, color: Color) {
        guard color.alpha > 0, !sector.isEmpty else { return }
        compositor.fillSector(sector, color: faded(color, opacity), operator: self.operator, canvas: canvas)
    }

    /// Fills `path`, given in a space of its own that `transform` maps into
    /// the bounds space (a glyph outline in font units placed on a line),
    /// with `color`: the path is scan-converted through `transform` and the
    /// layer's map together, at full device resolution. An axis-aligned
    /// placement is snapped to `CoverageMaskCache.glyphFractionSteps`, as
    /// a glyph's mask is (`glyphPlacement`).
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
                             color: faded(color, opacity), rule: rule, operator: self.operator, canvas: canvas,
                             isGlyph: true)
    }

    /// Whether glyphs may be blitted from coverage masks in this draw: the
    /// compositor allows it (`glyphMaskBlits`, no debug overlay) and the map
    /// is affine (`glyphPlacement` then says which glyphs qualify).
    var blitsGlyphs: Bool { compositor.glyphMaskBlits && compositor.debugOverlays.isEmpty && map.isAffine }

    /// Where a glyph placed in the bounds space by `transform` (font units →
    /// bounds) lands in target pixels: its whole device map, and the whole
    /// and fractional parts of its device origin, snapped to a quarter
    /// pixel (`CoverageMaskCache.glyphFractionSteps`). `nil` when the map
    /// turns, skews or is not finite (the glyph is filled from its outline
    /// then, unsnapped).
    func glyphPlacement(_ transform: AffineTransform) -> MaskPlacement? {
        MaskPlacement(ProjectiveTransform(transform).concatenating(map).affinePart, steps: CoverageMaskCache.glyphFractionSteps)
    }

    /// The coverage of `glyph` of `font` (its outline `outline`) at
    /// `placement`, from `CoverageMaskCache` (made there on a miss, the way
    /// the outline path would scan-convert it: the same pixels); `nil` when
    /// the glyph is too large for a mask (fill its outline).
    func glyphMask(_ outline: Path, font: Font, glyph: UInt32, at placement: MaskPlacement) -> CoverageMask? {
        guard let box = Compositor.coverageMaskBox(outline, placement.local) else { return nil }
        // On the glyph's own grid (`Compositor.fillShape`'s `isGlyph`): the
        // mask is the same wherever the glyph lands.
        return compositor.glyphMasks.mask(for: placement.key(source: font.id, item: UInt64(glyph))) {
            compositor.makeCoverageMask(outline, placement.local, originX: 0, originY: 0, box: box)
        }
    }

    /// True when `mask` placed at `placement` reaches the clip.
    func isVisible(_ mask: CoverageMask, at placement: MaskPlacement) -> Bool {
        !IntRect(x: placement.x + mask.left, y: placement.y + mask.top, width: mask.width, height: mask.height)
            .intersection(canvas.clip).isEmpty
    }

    /// Whether a text layer may draw its glyphs as one composed mask
    /// (`Compositor.composedTextBlits`; `TextLayoutCache.composed`).
    var composesText: Bool { compositor.composedTextBlits }

    /// Composites `color`, faded by the layer's opacity, through `mask`
    /// whose top left pixel lands on (`x`, `y`), target pixels (cut to the
    /// clip).
    func blit(_ mask: CoverageMask, x: Int, y: Int, color: Color) {
        guard color.alpha > 0 else { return }
        compositor.fillMask(mask, x: x, y: y, color: faded(color, opacity), operator: self.operator, canvas: canvas)
    }

    /// Composites `color`, faded by the layer's opacity, through `mask` at
    /// `placement` (cut to the clip).
    func blit(_ mask: CoverageMask, at placement: MaskPlacement, color: Color) {
        guard color.alpha > 0 else { return }
        compositor.fillMask(mask, x: placement.x + mask.left, y: placement.y + mask.top, color: faded(color, opacity),
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

/// Where a shape (a glyph, a path) lands in target pixels for a masked blit:
/// its device map, split into the whole-pixel part of its origin (where the
/// mask is blitted) and the rest (what the mask is made for).
///
/// **Snapped.** The sub-pixel part is rounded to 2⁻²⁰ pixel
/// (`CoverageMaskCache.fractionQuantum`), and `map` is the snapped map: a
/// shape is scan-converted through it whether its coverage goes into a
/// cached mask or straight to the target (`Compositor.fillShape`). So one
/// cache key is one map, and a pixel does not depend on which way it was
/// drawn, nor on the frames before. (Without it, a mask made at one place
/// and blitted at another with the same key, 10⁻¹³ pixel away, differed
/// from the direct fill by a level where a device point sat on a 1/256
/// rounding tie: a right-aligned label settling after a layout animation
/// ended one level off in some runs and not in others.) The snap moves a
/// shape by at most 2⁻²¹ pixel.
struct MaskPlacement {
    /// The shape's space → target pixels: an axis-aligned scale and a
    /// translation whose sub-pixel part is snapped.
    let map: AffineTransform
    /// The whole-pixel part of the device origin.
    let x: Int, y: Int
    /// The rest, in [0, 1], a multiple of 1/`steps` (1 when the snap
    /// rounds up).
    let fractionX: Double, fractionY: Double

    /// `steps`: sub-pixel places per pixel, across and down
    /// (`CoverageMaskCache.fractionQuantum` for shapes, 2²⁰;
    /// `glyphFractionSteps` for glyphs). `nil` when `map` turns, skews, is
    /// not finite or moves the origin farther than 10⁷ pixels (the shape is
    /// scan-converted then, unsnapped).
    init?(_ map: AffineTransform, steps: Double = CoverageMaskCache.fractionQuantum) {
        let ix = map.tx.rounded(.down), iy = map.ty.rounded(.down)
        guard map.b == 0, map.c == 0, map.a.isFinite, map.d.isFinite, Swift.abs(ix) < 1e7, Swift.abs(iy) < 1e7 else { return nil }
        x = Int(ix); y = Int(iy)
        let q = steps
        fractionX = ((map.tx - ix) * q).rounded() / q
        fractionY = ((map.ty - iy) * q).rounded() / q
        self.map = AffineTransform(a: map.a, b: 0, c: 0, d: map.d, tx: ix + fractionX, ty: iy + fractionY)
    }

    /// The map with only the fractional translation (the mask's own).
    var local: AffineTransform { AffineTransform(a: map.a, b: 0, c: 0, d: map.d, tx: fractionX, ty: fractionY) }

    /// The cache key of `source`'s `item` at this scale and sub-pixel place.
    func key(source: Int, item: UInt64) -> CoverageMaskCache.Key {
        CoverageMaskCache.Key(source: source, item: item, scaleX: map.a.bitPattern, scaleY: map.d.bitPattern,
                              fractionX: CoverageMaskCache.fractionKey(fractionX),
                              fractionY: CoverageMaskCache.fractionKey(fractionY))
    }
}

extension Compositor {
    /// Kept out of line so the recursion through sublayers does not carry
    /// this frame (deep trees in debug builds).
    @inline(never)
    func drawOwnContent(_ r: ResolvedLayer, opacity: Double, operator op: BlendOperator, canvas: Canvas) {
        ownContentFills = 0
        let lock = Compositor.ownContentLock(r.layer)
        lock.lock()
        r.layer.drawOwnContent(OwnContentDrawing(compositor: self, resolved: r, opacity: opacity, operator: op, canvas: canvas))
        lock.unlock()
    }

    /// The layer's own content's extent (`Layer.ownContentExtent`), asked
    /// under its lock: measuring fills the layer's caches too.
    func ownContentExtent(of layer: Layer, at t: MediaTime) -> Rect? {
        let lock = Compositor.ownContentLock(layer)
        lock.lock()
        defer { lock.unlock() }
        return layer.ownContentExtent(at: t)
    }

    /// One of 16 recursive locks, by the layer's address: held while a
    /// layer draws or measures its own content, which fills caches the
    /// layer keeps (text layouts and masks, stroke outlines, gradient
    /// images) — painters on other threads may draw the same layer in
    /// their bands (`paintThreads`). Uncontended on one thread. Recursive:
    /// a layer's drawing may measure itself.
    static func ownContentLock(_ layer: Layer) -> Lock {
        let address = UInt(bitPattern: Unmanaged.passUnretained(layer).toOpaque())
        return ownContentLocks[Int((address >> 6) & 15)]
    }

    private static let ownContentLocks: [Lock] = {
        var locks: [Lock] = []
        while locks.count < 16 { locks.append(Lock(recursive: true)) }
        return locks
    }()

    /// The part number of the next fill of a layer's own content (its
    /// first fill, its second…), for `ShapeCandidates`.
    func nextOwnContentPart() -> Int {
        ownContentFills += 1
        return ShapePart.ownContent + ownContentFills
    }
}

/// The drawing parts of a layer that fill shapes (`ShapeCandidates`).
enum ShapePart {
    static let background = 1
    static let border = 2
    /// Own content fills are `ownContent + 1`, `+ 2`, … in drawing order.
    static let ownContent = 8
}
