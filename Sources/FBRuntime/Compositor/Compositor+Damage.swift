import Raster

// The survey: before drawing, the compositor walks the tree as `draw` will,
// records each unit (see `DrawnUnit`) with its signature, extent and opaque
// rectangle, and lets the `DamageTracker` find what changed since the last
// frame. Only the damaged rectangles are then cleared and drawn. With
// `recordsHitList` it also records the hit list where it resolves each
// layer (Compositor+HitTest.swift).

extension Compositor {
    /// Records the units `draw(layer, …)` would draw straight into the
    /// target. Mirrors `draw`'s decisions exactly (same skips, same groups,
    /// same inherited opacity); `clip` is the pixel clip of the
    /// `masksToBounds` ancestors (the target's bounds at the root).
    ///
    /// A subtree that nothing changed since the last frame (its
    /// `subtreeVersion`, placement, opacity, clip and depth are those of
    /// the last frame's survey, and nothing in it depends on time) is not
    /// walked: its units are the last frame's, copied (`SurveyMemo`), and
    /// so are its hit list entries.
    func survey(_ layer: Layer, parent: ParentPlacement, opacity: Double, clip: IntRect, depth: Int) {
        statistics.layersSurveyed += 1
        if surveyReplayAllowed, replaySurvey(of: layer, parent: parent, opacity: opacity, clip: clip, depth: depth) {
            return
        }
        let outerVaries = surveyVaries
        surveyVaries = false
        let firstUnit = tracker.units.count
        let firstHit = hits.count
        let culledBefore = statistics.layersCulled
        surveyLayer(layer, parent: parent, opacity: opacity, clip: clip, depth: depth)
        if replaysUnchangedSubtrees {
            layer.surveyMemo.token = surveyToken
            layer.surveyMemo.frame = frameNumber
            layer.surveyMemo.version = layer.subtreeVersion
            layer.surveyMemo.varies = surveyVaries
            layer.surveyMemo.placement.record(parent, opacity: opacity, clip: clip, depth: depth)
            layer.surveyMemo.units = firstUnit ..< tracker.units.count
            layer.surveyMemo.hits = firstHit ..< hits.count
            layer.surveyMemo.layersCulled = statistics.layersCulled - culledBefore
        }
        surveyVaries = surveyVaries || outerVaries
    }

    /// Takes over the last frame's survey of `layer`'s subtree when it is
    /// valid for this placement (see `survey`); false otherwise.
    func replaySurvey(of layer: Layer, parent: ParentPlacement, opacity: Double, clip: IntRect, depth: Int) -> Bool {
        let memo = layer.surveyMemo
        guard memo.token == surveyToken, memo.frame &+ 1 == frameNumber, !memo.varies,
              memo.version == layer.subtreeVersion,
              memo.placement.matches(parent, opacity: opacity, clip: clip, depth: depth),
              !recordsHitList || hits.isRunOfSubtrees(memo.hits, first: layer),
              let first = tracker.replay(memo.units, of: layer) else { return false }
        let old = memo.units
        let firstHit = recordsHitList ? hits.replay(memo.hits) : hits.count
        let hitCount = recordsHitList ? memo.hits.count : 0
        carryReplayedUnits(old, to: first, memosFrom: old.lowerBound + 1, hitShift: firstHit - memo.hits.lowerBound)
        layer.surveyMemo.frame = frameNumber
        layer.surveyMemo.units = first ..< (first + old.count)
        layer.surveyMemo.hits = firstHit ..< (firstHit + hitCount)
        statistics.layersCulled += memo.layersCulled
        return true
    }

    /// After `tracker` replayed the last frame's units `old` at `first`
    /// (and `hits` their entries, `hitShift` further on): their resolved
    /// values for the draw, and the survey memos of the unit layers from
    /// `memosFrom` on moved with them (so a later change above them still
    /// finds them current).
    func carryReplayedUnits(_ old: Range<Int>, to first: Int, memosFrom: Int, hitShift: Int) {
        let shift = first - old.lowerBound
        var k = old.lowerBound
        while k < old.upperBound {
            if let resolved = previousUnitResolved.pointer(at: k) { noteSurveyed(resolved.pointee, unit: k + shift) }
            if k >= memosFrom {
                let unitLayer = tracker.previousUnitLayer(k)
                // In place: the memo is a few hundred bytes.
                if unitLayer.surveyMemo.token == surveyToken, unitLayer.surveyMemo.frame &+ 1 == frameNumber,
                   unitLayer.surveyMemo.units.lowerBound == k {
                    unitLayer.surveyMemo.frame = frameNumber
                    unitLayer.surveyMemo.units = (k + shift) ..< (unitLayer.surveyMemo.units.upperBound + shift)
                    let h = unitLayer.surveyMemo.hits
                    unitLayer.surveyMemo.hits = recordsHitList ? (h.lowerBound + hitShift) ..< (h.upperBound + hitShift) : 0 ..< 0
                }
            }
            k += 1
        }
        statistics.unitsReplayed += old.count
    }

    /// True when the survey of `layer` depends on more than its model
    /// state and placement: animations (presentation values, transitions),
    /// content that changes with time, tiles, the 3-D and replicated units
    /// (which fold their subtrees at the frame's time), rasterized
    /// bitmaps, a backdrop blur or a mask (kept simple: surveyed afresh).
    func surveyVaries(_ layer: Layer) -> Bool {
        !layer.animations.isEmpty || layer.contentChangesWithTime || layer.drawsInTiles || layer.isTransformLayer
            || layer.replicator != nil || layer.shouldRasterize || layer.backgroundBlurRadius != 0 || layer.mask != nil
    }

    /// The body of `survey` for one layer.
    func surveyLayer(_ layer: Layer, parent: ParentPlacement, opacity: Double, clip: IntRect, depth: Int) {
        if surveyVaries(layer) { surveyVaries = true }
        guard isWithinDepthLimit(layer, depth) else { return }
        if !layer.animations.isEmpty && surveyIfInTransition(layer, parent: parent, opacity: opacity, clip: clip, depth: depth) {
            // Compositor+Transition.swift. Hit as the layer is, not as its
            // transition's images.
            if recordsHitList { surveyHits(layer, parent: parent, depth: depth) }
            return
        }
        // A render twin whose drawn property animates redraws its backing
        // store with this frame's values before its contents are read.
        if !runsDisplayPass, layer.displayOnRenderThreadIfAnimated(parentTime: parent.time) {
            statistics.layersDisplayed += 1
        }
        guard let r = resolve(layer, in: parent) else { return }
        let layerOpacity = opacity * clampUnit(r.p.opacity)
        guard layerOpacity > 0 else {
            // Not drawn, but hit (opacity does not matter, as in CA).
            if recordsHitList { surveyHits(r, parent: parent, depth: depth) }
            return
        }
        if layer.backgroundBlurRadius != 0 || !layer.animations.isEmpty,
           let radius = layer.customPresentationValue(forKey: "backgroundBlurRadius", atLocalTime: r.localTime)?.scalarValue,
           radius > 0 {
            backdropOnScreen = true
        }
        if layer.isTransformLayer || layer.replicator != nil {
            // Planes in 3-D or replicated instances: one unit with the whole
            // subtree, over the whole clip.
            var signature = LayerSignature()
            signature.combine(r, inheritedOpacity: opacity)
            signature.combine(clip)
            signature.combine(3 as UInt64)
            foldSubtree(r, into: &signature, depth: depth)
            let i = tracker.append(layer, signature: signature.value, extent: clip, opaqueRect: .zero)
            tracker.endSubtree(of: i)
            if recordsHitList { surveyHits(r, parent: parent, depth: depth) }
            return
        }
        // A culled layer is no unit: the draw never meets it (counted here).
        guard !isCulledBackFace(r, parent: parent) else { statistics.layersCulled += 1; return }
        warnIfHuge(r)
        // A subtree wholly off the clip (scrolled away, moved off screen) is
        // no unit at all: the draw plays units, so it is not met; when it
        // comes into view it appears as a unit, which damages where it
        // lands, and a unit that leaves damages where it was. The cheap
        // test on the layer's own bounds first; the walk of the subtree
        // only then.
        if !layer.drawsInTiles, projectedBox(r.bounds, r.toTarget).enclosingIntRect.insetBy(-1).intersection(clip).isEmpty,
           cullBounds(r, depth: depth).enclosingIntRect.insetBy(-1).intersection(clip).isEmpty {
            return
        }
        if layer.drawsInTiles { surveyTiles(r, clip: clip) }   // Compositor+Tiles.swift
        let shadow = shadowPlan(r)
        let grouped = needsGroup(r, shadow: shadow)
        let hasInside = layer.contents != nil || layer.drawsOwnContent || !layer.sublayers.isEmpty
        let pixelClip = layer.masksToBounds && hasInside ? wholePixelRect(r) : nil
        let clipPass = layer.masksToBounds && hasInside && pixelClip == nil
        var signature = LayerSignature()
        let straight = !(grouped || clipPass || layer.shouldRasterize)
        signature.combine(r, inheritedOpacity: opacity, trims: !straight)
        signature.combine(clip)
        signature.combine(parent.flipped)
        if !straight {
            // Drawn offscreen as one image: any change inside changes it all.
            signature.combine(1 as UInt64)
            if layer.shouldRasterize, let e = rasterPlan(r, depth: depth) {
                // The bitmap's signature (raster space) and how it is placed.
                signature.combine(e.currentSignature)
                signature.combine(e.width); signature.combine(e.height)
                foldMask(of: r, into: &signature, depth: depth)
            } else {
                foldSubtree(r, into: &signature, depth: depth)
            }
            let extent = subtreeBounds(r, depth: depth).enclosingIntRect.insetBy(-1).intersection(clip)
            let i = tracker.append(layer, signature: signature.value, extent: extent, opaqueRect: .zero)
            noteSurveyed(r, unit: i)
            tracker.endSubtree(of: i)
            if recordsHitList { surveyHits(r, parent: parent, depth: depth) }    // the subtree drawn with it
            return
        }
        signature.combine(2 as UInt64)
        // A layer whose own drawing is a background or border on a
        // whole-pixel rectangle (no contents, no content of its own, no
        // shadow) touches exactly those pixels: no anti-aliasing slack, so
        // a changing rectangle does not clear and redraw a one-pixel ring
        // of what is below it in thin strips every frame.
        let own: IntRect
        if shadow == nil, layer.contents == nil, !layer.drawsOwnContent, let rect = wholePixelRect(r) {
            own = rect
        } else {
            own = subtreeBounds(r, depth: depth, sublayers: false).enclosingIntRect.insetBy(-1)
        }
        let extent = own.intersection(clip)
        let opaque = cullsOccludedLayers ? opaqueRect(r, opacity: layerOpacity).intersection(clip) : .zero
        // A trim the layer can damage in part comes last: the signature
        // without it tells the damage tracker when nothing else changed.
        let base = signature.value
        var trim: (start: Double, end: Double)?
        var partial: IntRect?
        if layer.drawsOwnContent {
            layer.combineTrimSignature(into: &signature, at: r.localTime)
            trim = layer.partialTrim(at: r.localTime)
            if let trim, r.toTarget.isAffine, let old = tracker.previousUnit(of: layer), old.baseSignature == base,
               let oldTrim = old.trim, oldTrim != trim,
               let rect = layer.trimChangeBounds(from: oldTrim, to: trim, at: r.localTime, device: r.toTarget.affinePart) {
                partial = projectedBox(rect, r.toTarget).enclosingIntRect.insetBy(-1).intersection(clip)
            }
        }
        let i = tracker.append(layer, signature: signature.value, extent: extent, opaqueRect: opaque,
                               baseSignature: base, trim: trim, partialDamage: partial)
        noteSurveyed(r, unit: i)
        tracker.setPlaysSublayers(i)
        let hit = recordsHitList ? hits.open(r, parent: parent, depth: depth, plane: false) : -1
        if !layer.sublayers.isEmpty && depth + 1 < Compositor.maximumDepth {
            var childClip = clip
            if let pixelClip { childClip = childClip.intersection(pixelClip) }
            let placement = r.sublayerPlacement
            if replaysUnchangedSubtrees && layer.sublayers.count >= Layer.changedSublayersMinimum {
                surveySublayerRuns(of: layer, parent: placement, opacity: layerOpacity, clip: childClip, depth: depth + 1)
            } else {
                forEachSublayerInDrawingOrder(layer) { sublayer in
                    survey(sublayer, parent: placement, opacity: layerOpacity, clip: childClip, depth: depth + 1)
                }
            }
        }
        tracker.endSubtree(of: i)
        if hit >= 0 { hits.close(hit) }
    }

    /// `subtreeBounds(r, depth:)` for the off-clip test: the box the
    /// subtree had the last time it was computed, moved with the layer's
    /// map, while nothing in the subtree changed or depends on time (a
    /// subtree scrolled off the clip is not walked every frame; see
    /// `SurveyMemo`).
    func cullBounds(_ r: ResolvedLayer, depth: Int) -> BoundingBox {
        let layer = r.layer
        guard replaysUnchangedSubtrees else { return subtreeBounds(r, depth: depth) }
        let memo = layer.surveyMemo
        if memo.cullToken == surveyToken, memo.cullVersion == layer.subtreeVersion, memo.cullDepth == depth,
           let shift = memo.cullShift(to: r.toTarget) {
            return memo.cullBox.offsetBy(shift.dx, shift.dy)
        }
        let outerVaries = surveyVaries
        surveyVaries = false
        let box = subtreeBounds(r, depth: depth)
        // What the walk met that depends on time (animations, through
        // `presentationValues`; particles; tiles) keeps the box from
        // being reused.
        layer.surveyMemo.cullToken = surveyVaries || surveyVaries(layer) ? 0 : surveyToken
        layer.surveyMemo.cullVersion = layer.subtreeVersion
        layer.surveyMemo.cullDepth = depth
        layer.surveyMemo.cullMap = r.toTarget
        layer.surveyMemo.cullBox = box
        surveyVaries = surveyVaries || outerVaries
        return box
    }

    /// Keeps what the survey resolved for unit `i` for the draw
    /// (`unitResolved`).
    func noteSurveyed(_ r: ResolvedLayer, unit i: Int) {
        unitResolved.set(r, at: i)
    }

    /// Folds the sublayers and mask of `r`, recursively, into `signature`:
    /// their values and maps, and which of them are drawn, in tree order.
    func foldSubtree(_ r: ResolvedLayer, into signature: inout LayerSignature, depth: Int, includeMask: Bool = true) {
        guard depth + 1 < Compositor.maximumDepth else { return }
        let layer = r.layer
        signature.combine(layer.sublayers.count)
        let placement = r.sublayerPlacement
        let sublayers = layer.sublayers
        var i = 0
        while i < sublayers.count {
            let sublayer = sublayers[i]
            i += 1
            guard let s = resolve(sublayer, in: placement) else { signature.combine(4 as UInt64); continue }
            signature.combine(s, inheritedOpacity: 1)
            foldSubtree(s, into: &signature, depth: depth + 1)
        }
        if includeMask { foldMask(of: r, into: &signature, depth: depth) }
    }

    /// Folds the mask layer of `r` (if any), with its subtree, into
    /// `signature`.
    func foldMask(of r: ResolvedLayer, into signature: inout LayerSignature, depth: Int) {
        guard let mask = r.layer.mask, depth + 1 < Compositor.maximumDepth else { return }
        if let m = resolve(mask, in: r.maskPlacement) {
            signature.combine(m, inheritedOpacity: 1)
            foldSubtree(m, into: &signature, depth: depth + 1)
        } else {
            signature.combine(5 as UInt64)
        }
    }

    /// The whole target pixels `r` (drawn directly, not offscreen) covers
    /// with opaque pixels that do not depend on the backdrop: with
    /// `isOpaque`, or an opaque background (inside its rounded corners,
    /// `opaqueBackgroundInterior`, when it has some); at full
    /// effective opacity, source-over, no mask, through an axis-aligned
    /// map (the pixels entirely inside its projected bounds). Empty
    /// otherwise.
    func opaqueRect(_ r: ResolvedLayer, opacity: Double) -> IntRect {
        let layer = r.layer
        guard opacity >= 1, layer.compositingOperator == .srcOver, layer.mask == nil, r.toTarget.isAxisAligned else {
            return .zero
        }
        let opaqueBackground = (r.p.backgroundColor.map { $0.alpha >= 1 } ?? false) && !r.hasCorners
        guard layer.isOpaque || opaqueBackground || contentsCoverBoundsOpaquely(r) else {
            // An opaque background with rounded corners (a card): the
            // rectangle inside the corners, which it covers fully, so what
            // lies under a card's middle is neither cleared nor drawn.
            return opaqueBackgroundInterior(r, opacity: opacity)
        }
        let box = projectedBox(r.bounds, r.toTarget)
        guard !box.isEmpty else { return .zero }
        let limit = 1_073_741_824.0
        func clamp(_ v: Double) -> Int { Int(Swift.max(-limit, Swift.min(limit, v))) }
        let x0 = clamp(box.minX.rounded(.up)), y0 = clamp(box.minY.rounded(.up))
        let x1 = clamp(box.maxX.rounded(.down)), y1 = clamp(box.maxY.rounded(.down))
        guard x1 > x0, y1 > y0 else { return .zero }
        return IntRect(x: x0, y: y0, width: x1 - x0, height: y1 - y0)
    }
}

extension Compositor {
    /// True when the layer's contents are opaque and fill its bounds: an
    /// opaque image tiled over them (`.tile`, whose tiles share the pixels
    /// under an axis-aligned map without gaps or fading edges), showing a
    /// part of the image inside it, not cut by rounded corners: a wallpaper
    /// hides what is below it. (A stretched image can fade at its edges
    /// when magnified, so it does not count.)
    func contentsCoverBoundsOpaquely(_ r: ResolvedLayer) -> Bool {
        let layer = r.layer
        guard let contents = layer.contents, contents.isOpaque, layer.contentsGravity == .tile,
              !(layer.masksToBounds && r.hasCorners) else { return false }
        let cr = r.p.contentsRect
        return cr.minX >= 0 && cr.minY >= 0 && cr.maxX <= 1 && cr.maxY <= 1 && cr.width > 0 && cr.height > 0
    }

    /// Side, target pixels, beyond which a layer counts as huge: it is
    /// drawn clipped to the target (offscreen passes sized to the clip),
    /// with one warning.
    static let hugeLayerSide = 16384.0

    func warnIfHuge(_ r: ResolvedLayer) {
        let box = projectedBox(r.bounds, r.toTarget)
        guard !box.isEmpty, box.maxX - box.minX > Compositor.hugeLayerSide || box.maxY - box.minY > Compositor.hugeLayerSide
        else { return }
        surveyVaries = true
        Diagnostics.warn(r.layer, "size", "larger than \(Int(Compositor.hugeLayerSide)) pixels on screen; drawn clipped to the target, offscreen passes and caches clamped")
    }
}
