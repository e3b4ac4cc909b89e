/// Per-frame figures the compositor reports; reset at the start of every
/// `Compositor.render`. Offscreen surfaces count in the pixel figures too.
public struct FrameStatistics: Equatable, Sendable {
    /// Layers whose image was drawn (mask layers included; hidden,
    /// transparent, culled and non-finite layers not), once per damage
    /// rectangle they reach; layers outside the damage are not drawn.
    public var layersDrawn = 0
    /// Layers skipped because their back faces the viewer
    /// (`isDoubleSided == false`): once per frame for a layer drawn into
    /// the target, once per pass for one inside an offscreen pass.
    public var layersCulled = 0
    /// Pixels a draw visited, in the target and in offscreen surfaces
    /// (the clear counts the damaged pixels no opaque layer covers).
    public var pixelsWritten = 0
    /// The part of `pixelsWritten` that read the destination: translucent
    /// or anti-aliased draws, masks, global alpha, operators other than a
    /// plain copy.
    public var pixelsBlended = 0
    /// Offscreen renderings: group opacity, a rounded or transformed
    /// `masksToBounds` clip, a mask layer, a shadow cast by the layer image,
    /// a nine-part image under a transform.
    public var offscreenPasses = 0
    /// Shadow paths rasterised and blurred this frame (cache misses).
    public var shadowsRasterized = 0
    /// Offscreen surfaces allocated this frame (0 in steady state).
    public var surfacesAllocated = 0
    /// Target pixels redrawn because something changed there (the area of
    /// `Compositor.damage`; the whole target on a full frame).
    public var pixelsDamaged = 0
    /// Layers not drawn because their whole subtree lies under an opaque
    /// layer drawn above it (counted where the damage reaches them).
    public var layersOccluded = 0
    /// `shouldRasterize` layers drawn from their cached bitmap (one per
    /// layer and frame).
    public var rasterizeCacheHits = 0
    /// `shouldRasterize` layers whose bitmap was (re)rendered, or could not
    /// be cached (over the budget).
    public var rasterizeCacheMisses = 0
    /// Times a layer's animations were evaluated into presentation values
    /// (layers without animations are not counted). Once per animated
    /// layer drawn or surveyed, however many damage rectangles, offscreen
    /// passes and signatures need it (`PresentationMemo`); more only for a
    /// layer shown at several times in one frame (replicator instances
    /// with an instance delay). Custom properties of content layers are
    /// evaluated per key where they are drawn, outside this count.
    public var animationEvaluations = 0
    /// Units the survey took over from the last frame without walking
    /// their layers: subtrees nothing changed, moved or animated
    /// (`Compositor.replaysUnchangedSubtrees`).
    public var unitsReplayed = 0
    /// Layers the survey met one by one, surveyed or replayed with their
    /// subtrees; not the layers inside a replayed subtree or a replayed
    /// run of sublayers (`Compositor.surveySublayerRuns`). What a frame's
    /// bookkeeping costs grows with it.
    public var layersSurveyed = 0
    /// Render-tree twins whose backing store `draw(in:)` redrew on the
    /// render thread this frame, because a property they draw animates
    /// (`Layer.displayOnRenderThreadIfAnimated`).
    public var layersDisplayed = 0
    /// Bands the damage was painted in, one thread each
    /// (`Compositor.paintThreads`); 1 when one thread painted it all, 0
    /// when nothing was damaged.
    public var paintBands = 0
    public init() {}

    /// Adds what a painter counted while painting its band (every figure
    /// but `paintBands`).
    mutating func add(_ o: FrameStatistics) {
        layersDrawn += o.layersDrawn
        layersCulled += o.layersCulled
        pixelsWritten += o.pixelsWritten
        pixelsBlended += o.pixelsBlended
        offscreenPasses += o.offscreenPasses
        shadowsRasterized += o.shadowsRasterized
        surfacesAllocated += o.surfacesAllocated
        pixelsDamaged += o.pixelsDamaged
        layersOccluded += o.layersOccluded
        rasterizeCacheHits += o.rasterizeCacheHits
        rasterizeCacheMisses += o.rasterizeCacheMisses
        animationEvaluations += o.animationEvaluations
        unitsReplayed += o.unitsReplayed
        layersSurveyed += o.layersSurveyed
        layersDisplayed += o.layersDisplayed
    }
}
