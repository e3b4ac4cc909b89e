import Raster

// Hit testing reads the hit list (`HitList`) that the survey records as
// it resolves each layer — the same `resolve` (placement, presented
// values, hidden and non-finite layers skipped), drawing order
// (`forEachSublayerInDrawingOrder`), back-face culling, rendering-context
// planes (`collectPlanes`) and replica placements (`forEachReplica`) the
// draw uses — front to back. There is no walk of the tree of its own, so
// what is hit cannot drift from what is drawn.
//
// Where the survey records:
// - a layer drawn straight into the target (a unit whose sublayers are
//   units): its entry in `surveyLayer`, where the unit is recorded, its
//   sublayers' by their own `survey`;
// - everything the survey does not walk layer by layer — a subtree drawn
//   offscreen as one image (group opacity, masks, clips, filters,
//   rasterized), a rendering context, a replicator, a layer in a
//   transition, a transparent layer (not drawn, still hittable) — by
//   `surveyHits`, which follows the draw of that subtree;
// - a subtree the survey replays from the last frame (`SurveyMemo`,
//   `SiblingRunMemo`): the last frame's entries, copied with its units.
//
// `Layer.hitTest(_:at:)` records with a compositor of its own that draws
// nothing: `surveyHits` from the root (no units, no clip: nothing is culled
// for being off screen). A compositor that renders records the list when
// `recordsHitList` is on and answers `hitTest(_:)` from it.

extension Compositor {
    /// `surveyHits` of `layer` placed in `parent`: nothing when it is
    /// hidden, not finite or at `maximumDepth`.
    func surveyHits(_ layer: Layer, parent: ParentPlacement, depth: Int, plane: Bool = false) {
        guard depth < Compositor.maximumDepth, let r = resolve(layer, in: parent) else { return }
        surveyHits(r, parent: parent, depth: depth, plane: plane)
    }

    /// Records the entries of `r` and its subtree as the draw places them
    /// (see `HitList`), whatever their opacity: a transform layer's
    /// rendering context as its planes; a back face culled, with its
    /// subtree; a replicator's sublayers once per instance.
    func surveyHits(_ r: ResolvedLayer, parent: ParentPlacement, depth: Int, plane: Bool = false) {
        if r.layer.isTransformLayer {
            surveyContextHits(r, parent: parent, depth: depth)
            return
        }
        guard !isCulledBackFace(r, parent: parent) else { return }
        let entry = hits.open(r, parent: parent, depth: depth, plane: plane)
        defer { hits.close(entry) }
        guard depth + 1 < Compositor.maximumDepth, !r.layer.sublayers.isEmpty else { return }
        if let replicator = r.layer.replicator {
            surveyReplicaHits(r, replicator.replication(at: r.localTime), depth: depth)
            return
        }
        let placement = r.sublayerPlacement
        forEachSublayerInDrawingOrder(r.layer) { sublayer in
            surveyHits(sublayer, parent: placement, depth: depth + 1)
        }
    }

    /// The planes of the rendering context rooted at the transform layer
    /// `r`, each with its subtree, after an entry for the context.
    @inline(never)
    func surveyContextHits(_ r: ResolvedLayer, parent: ParentPlacement, depth: Int) {
        let entry = hits.openContext(r.layer, depth: depth)
        defer { hits.close(entry) }
        let c = contextScratch
        let mark = c.mark
        defer { c.reset(to: mark) }
        var toContext = r.p.geometry.toSuperlayer
        if !parent.sublayerSpace.isIdentity { toContext = toContext.concatenating(parent.sublayerSpace) }
        collectPlanes(of: r, toContext: toContext, parent: parent, opacity: 1, depth: depth, into: &c.planes)
        let end = c.planes.count      // a context inside a plane appends after it, and takes its own off
        var i = mark.planes
        while i < end {
            let plane = c.planes[i]
            surveyHits(plane.layer, parent: plane.placement, depth: plane.depth, plane: true)
            i += 1
        }
    }

    /// A replicator's sublayers once per instance (`forEachReplica`: an
    /// instance tinted fully transparent is not drawn, nor hit). The
    /// entries are the model sublayers themselves, placed as the instance.
    @inline(never)
    func surveyReplicaHits(_ r: ResolvedLayer, _ replication: Replication, depth: Int) {
        forEachReplica(r, replication) { placement, _ in
            forEachSublayerInDrawingOrder(r.layer) { sublayer in
                surveyHits(sublayer, parent: placement, depth: depth + 1)
            }
        }
    }

    /// `Layer.hitTest(_:at:)`: records the hit list of `root` (placed at
    /// the identity in a display space of points) at `time` and reads it.
    /// The compositor must be one that renders nothing (its survey state is
    /// not touched: no units, memos or caches).
    func hitTest(_ root: Layer, at time: MediaTime, point: Point) -> Layer? {
        _ = hits.beginFrame(recording: true)
        let placement = ParentPlacement(toTarget: .identity, sublayerSpace: .identity, flipped: false, time: time)
        surveyHits(root, parent: placement, depth: 0)
        hits.endSurvey()
        return hitTestList(atPixel: point)
    }

    // MARK: Reading the list

    /// The layer of the last recorded hit list under `point` (target
    /// pixels), front-most and deepest first; `nil` when none is.
    ///
    /// Reads the entries backwards (front to back). An entry is hit when
    /// the point passes its clips and its superlayers' (`entryPasses`)
    /// and its layer's `contains(_:)` says so for the point in its bounds
    /// space (inside the presented bounds while they animate; custom
    /// properties presented at the entry's time). A rendering context is
    /// decided as a whole: of its planes hit, the one nearest the viewer
    /// at the point.
    ///
    /// - Complexity: O(entries), and a 1-pixel draw of each mask met.
    func hitTestList(atPixel point: Point) -> Layer? {
        guard point.isFinite else { return nil }
        hits.passes.removeAll(keepingCapacity: true)
        hits.passes.append(contentsOf: repeatElement(0, count: hits.count))
        guard let i = firstHit(in: 0 ..< hits.count, context: -1, at: point) else { return nil }
        return hits.entries[i].layer
    }

    /// The first entry of `range` (whole subtrees of the rendering
    /// context `context`, or of no context: −1) that is hit, reading
    /// backwards.
    private func firstHit(in range: Range<Int>, context: Int, at point: Point) -> Int? {
        var j = range.upperBound - 1
        while j >= range.lowerBound {
            let inner = hits.entries[j].context
            if inner != context {
                // The last entry of a rendering context inside the range:
                // the context is decided whole, then skipped.
                var c = inner
                while hits.entries[c].context != context { c = hits.entries[c].context }
                if let hit = contextHit(c, at: point) { return hit }
                j = c - 1
                continue
            }
            if hits.entries[j].kind != .context, entryPasses(j, at: point), entryContains(j, at: point) { return j }
            j -= 1
        }
        return nil
    }

    /// The entry hit in the rendering context rooted at entry `c`: of its
    /// planes that are hit (each with its subtree flattened into it), the
    /// one nearest the viewer at the point (largest depth in the
    /// context's space, as the BSP order draws it last); equal depths go
    /// to the plane later in drawing order.
    private func contextHit(_ c: Int, at point: Point) -> Int? {
        guard entryPasses(c, at: point) else { return nil }
        var best: Int?
        var bestZ = -Double.infinity
        var k = c + 1
        let end = hits.entries[c].subtreeEnd
        while k < end {
            let next = hits.entries[k].subtreeEnd
            defer { k = next }
            guard let hit = firstHit(in: k ..< next, context: c, at: point), let local = localPoint(k, point) else { continue }
            let h = hits.entries[k].toContext.apply(x: local.x, y: local.y)
            let z = h.w != 0 ? h.z / h.w : 0
            guard z.isFinite else { continue }
            if z >= bestZ { bestZ = z; best = hit }
        }
        return best
    }

    /// The point in entry `i`'s bounds space; `nil` when its map cannot be
    /// inverted there (singular, or the point is behind the eye).
    private func localPoint(_ i: Int, _ point: Point) -> Point? {
        guard let inverse = hits.entries[i].toTarget.inverted(), let local = inverse.apply(x: point.x, y: point.y),
              local.x.isFinite, local.y.isFinite else { return nil }
        return Point(x: local.x, y: local.y)
    }

    /// Whether the point gets through the clips of entry `i` and of its
    /// superlayers: each maps it into its bounds space, `masksToBounds`
    /// keeps it inside the rounded bounds, a `mask` where its drawn alpha
    /// is not 0. A context's root clips nothing. Memoised per query.
    private func entryPasses(_ i: Int, at point: Point) -> Bool {
        guard i >= 0 else { return true }
        if hits.passes[i] != 0 { return hits.passes[i] == 1 }
        let e = hits.entries[i]
        var ok = entryPasses(e.parent, at: point)
        if ok && e.kind != .context {
            if let p = localPoint(i, point) {
                if e.masksToBounds && !Compositor.roundedRect(e.bounds, radii: e.radii, contains: p) { ok = false }
                if ok, e.hasMask, let mask = e.layer.mask,
                   maskAlpha(mask, toTarget: e.toTarget, flipped: e.sublayersFlipped, time: e.time, depth: Int(e.depth),
                             at: point) == 0 {
                    ok = false
                }
            } else {
                ok = false
            }
        }
        hits.passes[i] = ok ? 1 : 2
        return ok
    }

    /// Whether entry `i`'s layer contains the point (its clips aside).
    private func entryContains(_ i: Int, at point: Point) -> Bool {
        guard let p = localPoint(i, point) else { return false }
        let e = hits.entries[i]
        // `contains` sees the model's bounds: while the bounds animate, the
        // presentation bounds decide instead (an override is not consulted).
        if e.boundsAnimated { return Compositor.roundedRect(e.bounds, radii: CornerRadii(0), contains: p) }
        // `contains` sees the presented values of custom properties (a hit
        // area that animates with a declared property follows what is drawn).
        e.layer.actionState.hitTestTime = e.time
        defer { e.layer.actionState.hitTestTime = nil }
        return e.layer.contains(p)
    }

    /// The alpha (0–255) of `mask`, laid out in a layer's bounds space
    /// (mapped by `toTarget`), at the target point `point`: the mask drawn
    /// by `draw` into one pixel 1/16 of a point wide centred on the point.
    func maskAlpha(_ mask: Layer, toTarget: ProjectiveTransform, flipped: Bool, time: MediaTime, depth: Int,
                   at point: Point) -> UInt32 {
        guard let pixel = colorPool.acquire(width: 1, height: 1) else { return 0 }
        defer { colorPool.release(pixel) }
        pixel.row(0)[0] = 0
        let k = 16.0
        let zoom = ProjectiveTransform(AffineTransform(a: k, b: 0, c: 0, d: k, tx: 0.5 - k * point.x, ty: 0.5 - k * point.y))
        let placement = ParentPlacement(toTarget: toTarget.concatenating(zoom), sublayerSpace: .identity,
                                        flipped: flipped, time: time)
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

extension Compositor {
    /// The front-most, deepest layer of the tree the last `render` drew
    /// that is under `point`, as it was drawn then; `nil` when none is, or
    /// when `recordsHitList` was off. `point` is in the root's superlayer
    /// space, points (where touches land: `render` maps it by `scale`).
    ///
    /// The same rules as `Layer.hitTest(_:at:)`, read from the hit list
    /// the frame's survey recorded, so the answer is what that frame
    /// showed. The layers are the rendered tree's (under `RenderLoop`, the
    /// render tree's). One difference: the survey does not walk a subtree
    /// whose drawn box lies wholly off the target, so a layer whose hit
    /// area reaches onto the target while nothing of its subtree is drawn
    /// there (a transparent sublayer of such a subtree, or `contains(_:)`
    /// answering beyond the bounds) is not found here.
    ///
    /// Call it on the thread that renders, between frames.
    ///
    /// - Complexity: O(entries); allocates nothing once the compositor
    ///   has answered a query on a list as long.
    public func hitTest(_ point: Point) -> Layer? {
        guard recordsHitList, scale > 0, scale.isFinite else { return nil }
        return hitTestList(atPixel: Point(x: point.x * scale, y: point.y * scale))
    }
}
