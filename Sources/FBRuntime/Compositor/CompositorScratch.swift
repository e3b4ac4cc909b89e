import Raster

/// Storage the compositor reuses from frame to frame, so that rendering a
/// steady scene does not touch the heap (issue 4: zero allocations per
/// frame). Each buffer keeps its capacity; it grows only when a frame
/// needs more than any frame before.
struct CompositorScratch {
    /// Each animation's (key, value) pairs while presentation values are
    /// evaluated.
    var animationValues: [(key: AnimatableKey, value: AnimatableValue)] = []
    /// Sublayer indices sorted by `zPosition`, a stack shared by the nested
    /// `forEachSublayerInDrawingOrder` calls.
    var drawingOrder: [Int] = []
    /// The shape of the layer being drawn (rounded bounds, border ring).
    var path = Path()
    /// The last layer drawn that asked for its 4×4 into its superlayer's
    /// space (`Layer.drawsOwnContentInParentSpace`), and that 4×4.
    var parentSpace = ParentSpace()
    /// The horizontal taps of contents drawn under a scale and a
    /// translation (`ImagePaint`), computed once per draw.
    let imageSampling = ImageSamplingScratch()
}

/// A layer and its full 4×4 into its superlayer's space: its own transform
/// followed by the superlayer's `sublayerTransform` (or a rendering
/// context's chain).
struct ParentSpace {
    unowned(unsafe) var layer: Layer?
    var toSuperlayer = Transform3D.identity
}

extension Compositor {
    /// Notes `r`'s 4×4 into the space of `parent` for its own content
    /// (`OwnContentDrawing.parentSpace`). Out of line: `draw` recurses.
    @inline(never)
    func noteParentSpace(_ r: ResolvedLayer, _ parent: ParentPlacement) {
        var m = r.p.geometry.toSuperlayer
        if !parent.sublayerSpace.isIdentity { m = m.concatenating(parent.sublayerSpace) }
        scratch.parentSpace = ParentSpace(layer: r.layer, toSuperlayer: m)
    }
}

extension Compositor {
    /// The bounds of `r` rounded by its corner radii, in bounds space: the
    /// same path as `ResolvedLayer.backgroundShape`, built in the scratch
    /// path. Valid until the next call; do not keep it across drawing.
    func roundedBounds(_ r: ResolvedLayer) -> Path {
        scratch.path.removeAll(keepingCapacity: true)
        let b = r.bounds
        scratch.path.addRoundedRect(b.minX, b.minY, b.width, b.height, radii: r.radii)
        return scratch.path
    }

    /// The border ring of `r` for an even-odd fill: the same path as
    /// `ResolvedLayer.borderShape(width:)`, built in the scratch path.
    /// Valid until the next call.
    func borderRing(_ r: ResolvedLayer, width: Double) -> Path {
        scratch.path.removeAll(keepingCapacity: true)
        let b = r.bounds
        let c = r.radii
        scratch.path.addRoundedRect(b.minX, b.minY, b.width, b.height, radii: c)
        let w2 = b.width - 2 * width, h2 = b.height - 2 * width
        guard w2 > 0, h2 > 0 else { return scratch.path }
        func inner(_ v: Double) -> Double { Swift.max(0, v - width) }
        scratch.path.addRoundedRect(b.minX + width, b.minY + width, w2, h2,
                                    radii: CornerRadii(topLeft: inner(c.topLeft), topRight: inner(c.topRight),
                                                       bottomRight: inner(c.bottomRight), bottomLeft: inner(c.bottomLeft)))
        return scratch.path
    }
}
