import Raster

// Hit testing walks the tree with the compositor's own decisions, so what
// is hit is what is drawn: the same `resolve` (placement: `toSuperlayer`
// joined with the parent's `sublayerSpace`, flattened, times the parent's
// map; hidden and non-finite layers skipped), the same drawing order
// (`forEachSublayerInDrawingOrder`), the same back-face culling, the same
// rendering-context planes (`collectPlanes`) and replica placements
// (`forEachReplica`), and the mask layer drawn by `draw` itself.

extension Compositor {
    /// The deepest layer of the subtree of `layer` that is under `point`
    /// (in the pixels of `parent.toTarget`), front-most first; `nil` when
    /// none is.
    ///
    /// A layer is under the point when its `contains(_:)` says so for the
    /// point in its bounds space. With `masksToBounds` the rounded bounds
    /// (`cornerRadius`, `maskedCorners`) clip the layer and its sublayers;
    /// a `mask` layer clips them where its drawn alpha is 0 (sampled at
    /// the point, 1/16 point wide). Opacity does not matter (as in CA).
    func hitTest(_ layer: Layer, point: Point, parent: ParentPlacement, depth: Int) -> Layer? {
        guard depth < Compositor.maximumDepth, let r = resolve(layer, in: parent) else { return nil }
        if layer.isTransformLayer { return hitTestRenderingContext(r, point: point, parent: parent, depth: depth) }
        if isCulledBackFace(r, parent: parent) { return nil }
        guard let inverse = r.toTarget.inverted(), let local = inverse.apply(x: point.x, y: point.y),
              local.x.isFinite, local.y.isFinite else { return nil }
        let p = Point(x: local.x, y: local.y)
        if layer.masksToBounds && !Compositor.roundedRect(r.bounds, radii: r.radii, contains: p) { return nil }
        if let mask = layer.mask, maskAlpha(mask, of: r, at: point, depth: depth) == 0 { return nil }
        var hit: Layer?
        if depth + 1 < Compositor.maximumDepth {
            if let replicator = layer.replicator, !layer.sublayers.isEmpty {
                forEachReplica(r, replicator.replication(at: r.localTime)) { placement, _ in
                    forEachSublayerInDrawingOrder(layer) { sublayer in
                        if let h = hitTest(sublayer, point: point, parent: placement, depth: depth + 1) { hit = h }
                    }
                }
            } else {
                let placement = r.sublayerPlacement
                // Back to front: the last hit is the front-most.
                forEachSublayerInDrawingOrder(layer) { sublayer in
                    if let h = hitTest(sublayer, point: point, parent: placement, depth: depth + 1) { hit = h }
                }
            }
        }
        if let hit { return hit }
        // `contains` sees the model's bounds: while the bounds animate, the
        // presentation bounds decide instead (an override is not consulted).
        let b = layer.bounds
        let boundsAnimated = b.minX != r.bounds.minX || b.minY != r.bounds.minY
            || Swift.abs(b.width) != r.bounds.width || Swift.abs(b.height) != r.bounds.height
        // `contains` sees the presented values of custom properties (a hit
        // area that animates with a declared property follows what is drawn).
        layer.actionState.hitTestTime = r.localTime
        defer { layer.actionState.hitTestTime = nil }
        let inside = boundsAnimated ? Compositor.roundedRect(r.bounds, radii: CornerRadii(0), contains: p) : layer.contains(p)
        return inside ? layer : nil
    }

    /// A transform layer: every plane of its rendering context is tried;
    /// of those hit, the one nearest the viewer at the point wins (largest
    /// depth in the context space, as the BSP order draws it last); equal
    /// depths go to the plane later in drawing order.
    func hitTestRenderingContext(_ r: ResolvedLayer, point: Point, parent: ParentPlacement, depth: Int) -> Layer? {
        var planes: [ContextPlane] = []
        var toContext = r.p.geometry.toSuperlayer
        if !parent.sublayerSpace.isIdentity { toContext = toContext.concatenating(parent.sublayerSpace) }
        collectPlanes(of: r, toContext: toContext, parent: parent, opacity: 1, depth: depth, into: &planes)
        var best: Layer?
        var bestZ = -Double.infinity
        for plane in planes {
            guard let hit = hitTest(plane.layer, point: point, parent: plane.placement, depth: plane.depth),
                  let s = resolve(plane.layer, in: plane.placement),
                  let inverse = s.toTarget.inverted(), let local = inverse.apply(x: point.x, y: point.y) else { continue }
            var m = s.p.geometry.toSuperlayer
            if !plane.placement.sublayerSpace.isIdentity { m = m.concatenating(plane.placement.sublayerSpace) }
            let h = m.apply(x: local.x, y: local.y)
            let z = h.w != 0 ? h.z / h.w : 0
            guard z.isFinite else { continue }
            if z >= bestZ { bestZ = z; best = hit }
        }
        return best
    }

    /// The alpha (0–255) of `mask`, laid out in the bounds space of `r`, at
    /// the target point `point`: the mask drawn by `draw` into one pixel
    /// 1/16 of a point wide centred on the point.
    func maskAlpha(_ mask: Layer, of r: ResolvedLayer, at point: Point, depth: Int) -> UInt32 {
        guard let pixel = colorPool.acquire(width: 1, height: 1) else { return 0 }
        defer { colorPool.release(pixel) }
        pixel.row(0)[0] = 0
        let k = 16.0
        let zoom = ProjectiveTransform(AffineTransform(a: k, b: 0, c: 0, d: k, tx: 0.5 - k * point.x, ty: 0.5 - k * point.y))
        let placement = ParentPlacement(toTarget: r.toTarget.concatenating(zoom), sublayerSpace: .identity,
                                        flipped: r.sublayersFlipped, time: r.localTime)
        var canvas = Canvas(pixel, family: kernels)
        canvas.clip(to: IntRect(x: 0, y: 0, width: 1, height: 1))
        draw(mask, parent: placement, opacity: 1, canvas: canvas, depth: depth + 1)
        return pixel.row(0)[0] &>> 24
    }

    /// Whether `p` lies in `rect` rounded by `radii` (radii scaled down
    /// together when two on one side overlap, as `Path.addRoundedRect`
    /// does); half-open like `Layer.contains(_:)`.
    static func roundedRect(_ rect: Rect, radii: CornerRadii, contains p: Point) -> Bool {
        guard p.x >= rect.minX, p.x < rect.maxX, p.y >= rect.minY, p.y < rect.maxY else { return false }
        let w = rect.width, h = rect.height
        var tl = radii.topLeft, tr = radii.topRight, br = radii.bottomRight, bl = radii.bottomLeft
        var f = 1.0
        if tl + tr > w { f = Swift.min(f, w / (tl + tr)) }
        if bl + br > w { f = Swift.min(f, w / (bl + br)) }
        if tl + bl > h { f = Swift.min(f, h / (tl + bl)) }
        if tr + br > h { f = Swift.min(f, h / (tr + br)) }
        if f < 1 { tl *= f; tr *= f; br *= f; bl *= f }
        func outside(_ cx: Double, _ cy: Double, _ radius: Double) -> Bool {
            let dx = p.x - cx, dy = p.y - cy
            return dx * dx + dy * dy > radius * radius
        }
        if tl > 0, p.x < rect.minX + tl, p.y < rect.minY + tl, outside(rect.minX + tl, rect.minY + tl, tl) { return false }
        if tr > 0, p.x > rect.maxX - tr, p.y < rect.minY + tr, outside(rect.maxX - tr, rect.minY + tr, tr) { return false }
        if br > 0, p.x > rect.maxX - br, p.y > rect.maxY - br, outside(rect.maxX - br, rect.maxY - br, br) { return false }
        if bl > 0, p.x < rect.minX + bl, p.y > rect.maxY - bl, outside(rect.minX + bl, rect.maxY - bl, bl) { return false }
        return true
    }
}
