import Raster

// Transitions (see `Transition`): while one runs on a layer, the layer is
// drawn as its before image and its live layer image, both in the layer's
// bounds space at the before image's density, combined per type into one
// bitmap the size of the bounds, which is then drawn through the layer's
// map like a rasterized layer. The layer's shadow, mask and backdrop blur
// are not drawn meanwhile (TODO: apply them to the combined bitmap).

extension Compositor {
    /// The transition running on `layer` at its local time `t` (the last
    /// one added, when there are several) and its eased progress.
    func runningTransition(_ layer: Layer, localTime t: MediaTime) -> (Transition, Double)? {
        let animations = layer.animations
        var i = animations.count - 1
        while i >= 0 {      // index loop: no iterator allocation in debug builds
            if case let .transition(tr) = animations[i].animation, let p = tr.progress(at: t) { return (tr, p) }
            i -= 1
        }
        return nil
    }

    /// `layer` resolved for drawing a transition — also when hidden (hiding
    /// fades it out) — with its transition; `nil` when none runs.
    func resolveTransition(_ layer: Layer, in parent: ParentPlacement) -> (ResolvedLayer, Transition, Double)? {
        guard !layer.animations.isEmpty else { return nil }
        let t = layer.localTime(fromParent: parent.time)
        guard let (transition, progress) = runningTransition(layer, localTime: t),
              let r = resolve(layer, in: parent, includingHidden: true) else { return nil }
        return (r, transition, progress)
    }

    /// `draw`'s step for a layer with a running transition: draws it and
    /// returns true, or returns false when none runs. Kept out of `draw`
    /// so its locals do not grow every frame of that recursion (deeply
    /// nested trees would exhaust the stack in debug builds).
    @inline(never)
    func drawIfInTransition(_ layer: Layer, parent: ParentPlacement, opacity: Double, canvas: Canvas, depth: Int) -> Bool {
        guard let (r, transition, progress) = resolveTransition(layer, in: parent) else { return false }
        let layerOpacity = opacity * clampUnit(r.p.opacity)
        if layerOpacity > 0 { drawTransition(r, transition, progress: progress, opacity: layerOpacity, canvas: canvas, depth: depth) }
        return true
    }

    /// `survey`'s step for the same (see `surveyTransition`).
    @inline(never)
    func surveyIfInTransition(_ layer: Layer, parent: ParentPlacement, opacity: Double, clip: IntRect, depth: Int) -> Bool {
        guard let (r, transition, progress) = resolveTransition(layer, in: parent) else { return false }
        if clampUnit(r.p.opacity) * opacity > 0 {
            surveyTransition(r, transition, progress: progress, opacity: opacity, clip: clip, depth: depth)
        }
        return true
    }

    /// The map from bounds space to a transition bitmap of `density` texels
    /// per point, and the bitmap's size; `nil` for empty or non-finite
    /// bounds.
    static func transitionBitmapMap(bounds b: Rect, density: Double) -> (map: ProjectiveTransform, width: Int, height: Int)? {
        let w = (b.width * density).rounded(.up), h = (b.height * density).rounded(.up)
        guard w >= 1, h >= 1, w <= Double(Transition.maximumImageSide), h <= Double(Transition.maximumImageSide),
              b.minX.isFinite, b.minY.isFinite else { return nil }
        let map = ProjectiveTransform(AffineTransform(a: density, b: 0, c: 0, d: density,
                                                      tx: -b.minX * density, ty: -b.minY * density))
        return (map, Int(w), Int(h))
    }

    /// Renders the before image of `layer` as it appears at global media
    /// time `time`, with a private compositor (app thread; see
    /// `Transition`). Density: `contentsScale` (≤ 0 or NaN → 1), lowered so
    /// no side exceeds `Transition.maximumImageSide`.
    static func renderTransitionImage(of layer: Layer, at time: MediaTime) -> TransitionImage {
        Transition.imagesRendered += 1
        var density = layer.contentsScale > 0 && layer.contentsScale.isFinite ? layer.contentsScale : 1
        let b = layer.bounds
        let largest = Swift.max(b.width, b.height) * density
        let side = Double(Transition.maximumImageSide)
        if largest > side && largest.isFinite { density *= side / largest }
        let compositor = Compositor(scale: 1)
        let parentTime = layer.superlayer?.convertTime(time, from: nil) ?? time
        let placement = ParentPlacement(toTarget: .identity, sublayerSpace: .identity, flipped: false, time: parentTime)
        guard let r = compositor.resolve(layer, in: placement),
              let (map, w, h) = transitionBitmapMap(bounds: r.bounds, density: density),
              let surface = Surface<ARGB8888>(width: w, height: h) else {
            return TransitionImage(surface: nil, density: density)
        }
        let view = surface.view
        var y = 0
        while y < h { view.row(y).update(repeating: 0, count: w); y += 1 }
        compositor.drawImage(r.withMap(map), opacity: 1, operator: .srcOver, canvas: Canvas(view, family: compositor.kernels),
                             depth: 0)
        return TransitionImage(surface: surface, density: density)
    }

    /// Draws `r` in the middle of `transition` at eased `progress` (see the
    /// file's comment), faded by `opacity`.
    func drawTransition(_ r: ResolvedLayer, _ transition: Transition, progress: Double, opacity: Double,
                        canvas: Canvas, depth: Int) {
        let before = transition.beforeImage
        let density = before?.density ?? 1
        guard let (map, w, h) = Compositor.transitionBitmapMap(bounds: r.bounds, density: density) else { return }
        guard let after = colorPool.acquire(width: w, height: h) else { return }
        defer { colorPool.release(after) }
        guard let combined = colorPool.acquire(width: w, height: h) else { return }
        defer { colorPool.release(combined) }
        statistics.offscreenPasses += 2
        overlayState.offscreenDepth += 1
        defer { overlayState.offscreenDepth -= 1 }
        if !r.layer.isHidden {
            drawImage(r.withMap(map), opacity: 1, operator: .srcOver, canvas: Canvas(after, family: kernels), depth: depth)
        }
        let out = Canvas(combined, family: kernels)
        let old = before?.surface?.view
        let p = clampUnit(progress)
        let (dx, dy) = transition.subtype.direction
        // Whole-pixel offsets of the images, in bitmap pixels.
        func offset(_ fraction: Double) -> (Int, Int) {
            (Int((fraction * Double(dx * w)).rounded()), Int((fraction * Double(dy * h)).rounded()))
        }
        switch transition.type {
        case .fade:
            // Dca' = before·(1 − p) + after·p: complementary byte weights
            // summed with `plus`, so equal images stay exactly themselves.
            let a = unitToByte(p)
            if let old { out.draw(old, x: 0, y: 0, operator: .plus, alpha: 255 - a) }
            out.draw(after, x: 0, y: 0, operator: .plus, alpha: a)
        case .moveIn:
            if let old { out.draw(old, x: 0, y: 0, operator: .src) }
            let (x, y) = offset(p - 1)
            out.draw(after, x: x, y: y, operator: .srcOver)
        case .push:
            if let old { let (x, y) = offset(p); out.draw(old, x: x, y: y, operator: .srcOver) }
            let (x, y) = offset(p - 1)
            out.draw(after, x: x, y: y, operator: .srcOver)
        case .reveal:
            out.draw(after, x: 0, y: 0, operator: .src)
            if let old { let (x, y) = offset(p); out.draw(old, x: x, y: y, operator: .srcOver) }
        }
        statistics.pixelsWritten += 3 * w * h
        drawBitmap(combined, inverseOf: map, r, opacity: opacity, canvas: canvas)
    }

    /// Composites `image` (texels placed in `r`'s bounds space by the
    /// inverse of the scale-and-translate `map`) through `r`'s map with
    /// `opacity`: a plain blend for a whole-pixel translation, resampled
    /// (bilinear, transparent outside) otherwise.
    func drawBitmap(_ image: PixelView<ARGB8888>, inverseOf m: ProjectiveTransform, _ r: ResolvedLayer,
                    opacity: Double, canvas: Canvas) {
        let alpha = unitToByte(opacity)
        guard alpha > 0 else { return }
        let place = AffineTransform(a: 1 / m.m00, b: 0, c: 0, d: 1 / m.m11, tx: -m.m02 / m.m00, ty: -m.m12 / m.m11)
        let t = ProjectiveTransform(place).concatenating(r.toTarget)
        let op = r.layer.compositingOperator
        if t.isAffine && t.m01 == 0 && t.m10 == 0 && Swift.abs(t.m00 - 1) < 1e-9 && Swift.abs(t.m11 - 1) < 1e-9,
           Swift.abs(t.m02 - t.m02.rounded()) < 1e-6, Swift.abs(t.m12 - t.m12.rounded()) < 1e-6,
           Swift.abs(t.m02) < 1_073_741_824, Swift.abs(t.m12) < 1_073_741_824 {
            composite(image, x: Int(t.m02.rounded()), y: Int(t.m12.rounded()), mask: nil, operator: op, alpha: alpha, canvas: canvas)
            return
        }
        let area = Rect(x: place.tx, y: place.ty, width: Double(image.width) * place.a, height: Double(image.height) * place.d)
        let box = projectedBox(area, r.toTarget).enclosingIntRect.intersection(canvas.clip)
        guard !box.isEmpty else { return }
        if t.isAffine {
            let paint = ImagePaint(image: image, transform: t.affinePart, filter: .bilinear, edge: .transparent)
            fillPaint(box, paint: paint, operator: op, alpha: alpha, canvas: canvas)
        } else {
            let paint = ImagePaint(image: image, projective: t, filter: .bilinear, edge: .transparent)
            fillPaint(box, paint: paint, operator: op, alpha: alpha, canvas: canvas)
        }
    }

    /// The survey's record of a layer in a transition: one unit whose
    /// signature holds the progress, the before image and the subtree.
    func surveyTransition(_ r: ResolvedLayer, _ transition: Transition, progress: Double, opacity: Double, clip: IntRect,
                          depth: Int) {
        var signature = LayerSignature()
        signature.combine(r, inheritedOpacity: opacity)
        signature.combine(clip)
        signature.combine(7 as UInt64)
        signature.combine(progress)
        signature.combine(r.layer.isHidden)
        signature.combine(transition.beforeImage?.serial ?? 0)
        switch transition.type {
        case .fade: signature.combine(1 as UInt64)
        case .moveIn: signature.combine(2 as UInt64)
        case .push: signature.combine(3 as UInt64)
        case .reveal: signature.combine(4 as UInt64)
        }
        let (dx, dy) = transition.subtype.direction
        signature.combine(dx); signature.combine(dy)
        foldSubtree(r, into: &signature, depth: depth)
        let extent = projectedBox(r.bounds, r.toTarget).enclosingIntRect.insetBy(-1).intersection(clip)
        let i = tracker.append(r.layer, signature: signature.value, extent: extent, opaqueRect: .zero)
        tracker.endSubtree(of: i)
    }
}
