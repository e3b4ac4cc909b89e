import Raster

/// Turns a layer tree into pixels, with Core Animation's layer image.
///
/// **Order.** Each layer, in its superlayer's drawing order (sublayers sorted
/// by `zPosition`, stable, so equal depths keep tree order), draws:
/// 1. its shadow (below everything else of the layer; see Shadows);
/// 2. the background colour, inside the bounds rounded by `cornerRadius`;
/// 3. the contents image, placed by `contentsGravity`, `contentsRect` and
///    `contentsCenter` (not rounded unless `masksToBounds`), then what a
///    layer subclass draws itself (`ShapeLayer`, `GradientLayer`: see
///    `OwnContentDrawing`);
/// 4. the sublayers, recursively;
/// 5. the border, inside the bounds, following `cornerRadius`.
/// With `masksToBounds`, 3 and 4 are clipped to the rounded bounds. The
/// result (the *layer image*) is faded by `opacity`, cut by the `mask`
/// layer's alpha and combined with what is below by `compositingOperator`.
///
/// **Transforms.** Every part is drawn through the layer's full map to the
/// target (`LayerGeometry`, flattened): shapes are filled by the path
/// rasterizer (an affine map goes to it directly; under perspective the
/// path is flattened in layer space and projected, clipped at the eye), so
/// transformed edges are anti-aliased; images are resampled through the
/// affine or projective map. A layer whose map keeps its edges on whole
/// pixels (translations and scales of whole-pixel geometry) is filled as
/// pixel rectangles. With `isDoubleSided == false` a layer whose projected
/// plane is wound backwards (its back faces the viewer: the flattened map
/// to the target has a negative determinant) is skipped with its sublayers; mirrors by `isGeometryFlipped` do not count, a mirroring
/// scale does (CA decides from the 3-D normal, which tells a mirror from a
/// half turn; the flattened map cannot).
///
/// **Offscreen passes**, only where CA needs one (surfaces come from a pool
/// kept between frames, sized to the layer's pixel bounding box ∩ the clip):
/// - group opacity: `opacity < 1`, `allowsGroupOpacity`, and more than one
///   part to draw (background, contents, border, sublayers) — the image is
///   rendered once and faded once, so sublayers do not show through each
///   other. With `allowsGroupOpacity == false` the opacity is multiplied
///   into every part instead, down the tree;
/// - `masksToBounds` with rounded corners or a rotated/perspective map:
///   contents and sublayers are rendered offscreen and composited through
///   the coverage of the rounded bounds. An axis-aligned whole-pixel clip
///   without corners is a plain clip rectangle, and a layer whose only
///   inside is its contents image (no sublayers, no own drawing, no
///   nine-part stretch) is shaded straight through the coverage, without
///   a pass (`canClipContentsDirectly`);
/// - a `mask` layer: rendered offscreen in the layer's pixel space; its
///   alpha multiplies the layer image and the shadow;
/// - a `compositingOperator` other than source-over with more than one
///   part or with sublayers (a single part of the layer's own is drawn
///   with the operator directly, bounded by its shape). The offscreen image
///   is composited as a rectangle — the pixel bounding box of the layer and
///   its subtree, cut by the clip — so operators that change the
///   destination under a transparent source (`src`, `clear`, `srcIn`, …)
///   act over that whole rectangle.
///
/// **Shadows** are drawn with `shadowColor × shadowOpacity`, faded by the
/// layer's opacity, below the layer image, offset by `shadowOffset` and
/// blurred by `shadowRadius` (σ = radius / 2), both in the layer's space so
/// the shadow turns and scales with the layer as in CA. With a
/// `shadowPath`, the path is rasterised in layer space at `scale` pixels per
/// point, blurred, and cached on the layer (as coverage) until the path,
/// radius or scale change; each frame the shadow colour is composited
/// through it, resampled through the layer's map. Without one, the alpha of the rendered layer
/// image casts the shadow: an offscreen pass every frame, blurred in target
/// pixels (offset and radius carried by the map's local scale at the
/// centre of the bounds, the offset rounded to whole pixels). As in CA,
/// `masksToBounds` clips the shadow: the part of it left inside the bounds
/// (seen only through a transparent layer image) is not drawn (TODO). The
/// shadow is not part of the opacity group (it shows through a translucent
/// layer).
/// Where the layer's own opaque background will overwrite it (see
/// `opaqueBackgroundInterior`), a `shadowPath` shadow is not resampled.
///
/// **Bad input** never traps: layers with non-finite geometry or maps are
/// skipped with their sublayers; singular maps draw nothing; huge layers
/// are clipped to the target (offscreen surfaces are limited to the clip
/// plus the shadow margin, never the layer's size); `contentsScale` ≤ 0 or
/// NaN counts as 1; nesting deeper than `maximumDepth` is not drawn; a
/// `scale` ≤ 0 or NaN renders only the clear colour. Each of these (and a
/// layer more than `hugeLayerSide` pixels across, or an offscreen pass
/// beyond `RasterLimits`) reports one warning naming the layer through
/// `Diagnostics.warn`.
///
/// **3-D rendering contexts** (`TransformLayer`): see
/// `drawRenderingContext`.
///
/// - `filters`: the layer image is rendered offscreen (grown by what the
///   blurs spread, around the clip too, so a damage rectangle's pixels
///   are those of a full frame), the chain applied in order, then shadow,
///   mask, opacity and operator as above (`Compositor+Filters.swift`).
///
/// **Backdrop blur** (`backgroundBlurRadius`): before the layer's shadow
/// and image, what the target holds behind the layer's bounds is blurred
/// and put back inside the rounded bounds (cut by the mask), faded by the
/// layer's opacity — see `drawBackdropBlur`.
///
/// **Damage and occlusion** (see `render`): only what changed since the
/// last frame is cleared and redrawn (`DamageTracker`, signatures from
/// `LayerSignature`), and what an opaque layer hides is not drawn
/// (`OcclusionMap`). A transform layer's rendering context and a
/// replicator are one unit with their whole subtree, whose extent is the
/// clip (a change inside redraws the screen); while a layer with a
/// backdrop blur is on screen, any damage redraws the whole frame (the
/// blur reads what lies behind it). The survey that finds the damage
/// walks only what may have changed: a subtree with no model change since
/// the last frame (`Layer.subtreeVersion`), in the same placement, with
/// nothing animated, takes over the last frame's units, and a subtree
/// scrolled off the clip is culled by its box, moved (`SurveyMemo`,
/// `replaysUnchangedSubtrees`).
///
/// **`shouldRasterize`**: the layer image (background, contents, sublayers,
/// border) is rendered into a bitmap in the layer's own space at
/// `rasterizationScale` pixels per point (Core Animation's rule: set it to
/// the screen's scale for a sharp bitmap) and
/// reused while the subtree's signature (the damage tracker's, taken in
/// that space) is unchanged; the layer's shadow, mask, opacity (acting as
/// group opacity) and operator apply when the bitmap is composited through
/// its map. Bitmaps live in a `RasterizeCache` within
/// `rasterizeCacheBudget` bytes, least recently used evicted first.
///
/// **Debug overlays** (`debugOverlays`) tint blended draws, offscreen
/// passes and misaligned contents; see `DebugOverlays`.
///
/// **Allocation.** In steady state (the same scene, or one whose surfaces
/// and lists do not outgrow an earlier frame's) a frame allocates nothing
/// on the heap: surfaces come from pools, paths, sort orders and animation
/// values from `CompositorScratch`, mip chains are cached on the contents
/// and shadow images on the layer. Perspective-projected shapes still
/// build their polygon per draw, and 3-D rendering contexts their plane
/// lists (TODO).
///
/// Layer coordinates are points; `scale` pixels per point. Not thread-safe;
/// render from one thread (see `Layer`).
public final class Compositor {
    public var scale: Double
    public var kernels: KernelFamily
    /// Skip what opaque layers hide (default). Off, every layer is drawn
    /// and the whole damage cleared: a debugging aid and the tests' oracle.
    public var cullsOccludedLayers = true
    /// Composite images shown 1:1 on whole pixels row by row from their
    /// pixels (default). Off, they go through the resampling image paint:
    /// the reference the fast path is tested against.
    public var wholePixelBlits = true
    /// Draw text whose glyphs keep their size and sub-pixel position from
    /// frame to frame from `glyphMasks` (default). Off, every glyph is
    /// scan-converted from its outline: the reference of the cache's tests.
    public var glyphMaskBlits = true
    /// Draw a text layer in one colour whose placement holds as one mask
    /// composed of its glyph masks (default; `TextLayoutCache.composed`).
    /// Off, each glyph is blitted from its own mask: the reference of the
    /// composed masks' tests, which must give the same pixels bit for bit.
    public var composedTextBlits = true
    /// Where glyph coverage is cached (shared by default; see
    /// `CoverageMaskCache`).
    public var glyphMasks = CoverageMaskCache.glyphs
    /// Fill small shapes that were drawn the same way in an earlier frame
    /// (rounded backgrounds, borders, stroked outlines) from `shapeMasks`
    /// (default). Off, every fill is scan-converted: the reference of the
    /// masks' tests.
    public var shapeMaskBlits = true
    /// Fill the fully covered inside of each row of a cached shape mask
    /// (a rounded background's middle) with the plain fill kernel when the
    /// colour is opaque (default). Off, the whole mask goes through the
    /// coverage kernel: the reference (`MaskInteriorFillTests`).
    public var maskInteriorFills = true
    /// Where shape coverage is cached (shared by default).
    public var shapeMasks = CoverageMaskCache.shapes
    /// Take over the last frame's survey of a subtree whose model, placement
    /// and inputs did not change and that nothing animates (default), and
    /// cull a subtree scrolled off the clip by the box it had (see
    /// `SurveyMemo`). Off, every frame surveys every layer it reaches: the
    /// reference the replay is tested against (`SurveyReplayTests`).
    public var replaysUnchangedSubtrees = true
    /// Record, in each `render`'s survey, the hit list `hitTest(_:)`
    /// reads (off by default: a compositor that does not hit test pays
    /// nothing). The list has an entry per layer the draw places (see
    /// `HitList`); recording it reuses its storage, so a steady scene
    /// still renders without heap allocation. Turning it on or off makes
    /// the next survey walk every layer (no replay of the last frame's).
    public var recordsHitList = false {
        didSet { if !recordsHitList { hits.removeAll() } }
    }
    /// The hit list of the last survey (`recordsHitList`, `Layer.hitTest`).
    let hits = HitList()
    /// Names this compositor in the layers' `SurveyMemo`s.
    let surveyToken = Compositor.nextEpoch()
    /// Set while surveying a subtree when something in it depends on time
    /// or on state outside the model (see `SurveyMemo.varies`).
    var surveyVaries = false
    /// This frame may replay subtrees surveyed in the last one: same
    /// settings, no contents image changed since (`LayerContents.latestSerial`).
    var surveyReplayAllowed = false
    var lastSurveySettings: UInt64 = 0
    var lastContentsSerial: UInt64 = 0
    /// The last frame's `unitResolved`, kept during the survey for the
    /// units it replays.
    var previousUnitResolved = ResolvedUnits()
    /// What each layer part drew in recent frames (`shapeMask`).
    var shapeCandidates = ShapeCandidates()
    /// Fills made so far by the layer whose own content is being drawn.
    var ownContentFills = 0
    /// Run the display pass (`displayIfNeeded(at:)`, app `draw(in:)` code)
    /// at the start of `render` (default). `RenderLoop` turns it off: it
    /// renders a render tree, whose display pass ran on the app thread at
    /// commit; then the survey redraws only the twins whose drawn
    /// properties animate, every frame (`Layer.displayOnRenderThreadIfAnimated`).
    public var runsDisplayPass = true
    /// Threads that paint a frame's damage (default 1; at most 8): with
    /// more than one, a large damage is cut into horizontal bands of about
    /// equal area, painted at once, the first by the thread calling
    /// `render`, the others by painter threads this compositor starts at
    /// the first such frame and keeps. The pixels are the same as on one
    /// thread. Frames drawing tiles, particles, rasterized or filtered
    /// layers, replicators, 3-D contexts or transitions, a backdrop blur,
    /// debug overlays, or a damage under 64 K pixels are painted on one thread
    /// (see `ParallelPaint.swift`). `RenderLoop` sets it from the board.
    public var paintThreads = 1
    /// A painter of another compositor (`init(painterFor:)`): it paints
    /// bands of its owner's frames and never surveys.
    let isPainter: Bool
    /// Presentation values are memoised for the frame (`PresentationMemo`);
    /// off while bands are painted on several threads, when memos are only
    /// read.
    var writesPresentationMemos = true
    /// The painter threads (`paintThreads` − 1 once a frame needed them).
    var paintWorkers: [PaintWorker] = []
    /// Each band's share of the damage's area (summing to 1) and its last
    /// paint time: see `balanceBands`.
    var bandShares: [Double] = []
    var bandNanoseconds = [Int64](repeating: 0, count: Compositor.maximumPaintThreads)
    public internal(set) var statistics = FrameStatistics()

    let rasterizer = PathRasterizer()
    /// Ring sectors (stroked circular arcs) in closed form.
    let sectorRasterizer = SectorRasterizer()
    /// Paths under perspective, projected without allocating.
    let pathProjector = PathProjector()
    /// Rendering contexts' planes and pieces, sorted without allocating.
    let contextScratch = ContextScratch()
    /// Set by the survey when a layer with a backdrop blur is drawn: any
    /// damage then redraws the whole frame.
    var backdropOnScreen = false
    let blur = GaussianBlur()
    let colorPool = SurfacePool<ARGB8888>()
    let coveragePool = SurfacePool<A8>()
    /// The units of this frame and the last, and the damage. A painter
    /// (`ParallelPaint.swift`) reads its compositor's.
    let tracker: DamageTracker
    let rasterizeCache = RasterizeCache(budgetBytes: 32 << 20)
    /// Frames rendered (the rasterize cache's clock).
    var frameNumber: UInt64 = 0

    /// Most bytes the `shouldRasterize` bitmaps may hold together (default
    /// 32 MiB); beyond it the least recently used are evicted, and a layer
    /// whose bitmap alone is larger is drawn without caching.
    public var rasterizeCacheBudget: Int {
        get { rasterizeCache.budgetBytes }
        set { rasterizeCache.budgetBytes = Swift.max(0, newValue); _ = rasterizeCache.makeRoomForBudget() }
    }
    /// Bytes the rasterize cache holds now.
    public var rasterizeCacheBytes: Int { rasterizeCache.bytes }
    /// The blurred `shadowPath` images of all layers (`ShadowCache`);
    /// shared with the painters, used under `sharedCacheLock`.
    let shadowImages: ShadowCache
    /// Guards what this compositor and its painters share and fill while
    /// they paint (the shadow images; see `cachedShadow`).
    let sharedCacheLock: Lock
    /// Most bytes the cached `shadowPath` images of all layers may hold
    /// together (default 32 MiB; ≥ 0); beyond it the least recently used
    /// are dropped (rebuilt when drawn again), and a shadow whose image
    /// alone is larger is rebuilt every frame it is drawn, never kept.
    public var shadowCacheBudget: Int {
        get { shadowImages.budgetBytes }
        set { shadowImages.budgetBytes = newValue }
    }
    /// Bytes of shadow images held now.
    public var shadowCacheBytes: Int { shadowImages.bytes }
    /// Most bytes of free offscreen surfaces each pool (colour and
    /// coverage) keeps between frames for reuse (default 48 MiB each;
    /// ≥ 0); surfaces in use during a frame are not counted. Beyond it
    /// the least recently released are freed at once.
    public var offscreenPoolBudget: Int {
        get { colorPool.budgetBytes }
        set { colorPool.budgetBytes = newValue; coveragePool.budgetBytes = newValue }
    }
    /// Bytes of free offscreen surfaces held now (both pools).
    public var offscreenPoolFreeBytes: Int { colorPool.freeBytes + coveragePool.freeBytes }
    /// The target of the frame being rendered: draws into it (not into an
    /// offscreen surface) are the ones units and occlusion apply to.
    var frameTarget: UnsafeMutablePointer<UInt32>?
    /// The time being rendered.
    var time: MediaTime = 0
    /// This `render` call's number while it runs (`PresentationMemo`), 0
    /// otherwise.
    var evaluationEpoch: UInt64 = 0
    /// What the survey resolved for each unit of this frame, by unit index
    /// (`nil` for units recorded another way: transitions, rendering
    /// contexts, replicators). The draw of every damage rectangle starts
    /// from it instead of resolving the unit again.
    var unitResolved = ResolvedUnits()
    /// Storage kept between frames so a steady scene renders without heap
    /// allocation (see `CompositorScratch`).
    var scratch = CompositorScratch()
    /// Tints painted over what is drawn, for debugging (none by default;
    /// see `DebugOverlays`). Takes effect at the next `render`.
    public var debugOverlays: DebugOverlays = []
    var overlayState = DebugOverlayState()

    public init(scale: Double = 1, kernels: KernelFamily = .simd) {
        self.scale = scale
        self.kernels = kernels
        tracker = DamageTracker()
        shadowImages = ShadowCache(budgetBytes: 32 << 20)
        sharedCacheLock = Lock()
        isPainter = false
    }

    deinit {
        var k = 0
        while k < paintWorkers.count { paintWorkers[k].stop(); k += 1 }
    }

    /// A painter for `owner` (see `ParallelPaint.swift`): it reads the
    /// owner's units, resolved values and damage, and shares its shadow
    /// images; its scratch storage, surface pools and statistics are its
    /// own.
    init(painterFor owner: Compositor) {
        scale = owner.scale
        kernels = owner.kernels
        tracker = owner.tracker
        shadowImages = owner.shadowImages
        sharedCacheLock = owner.sharedCacheLock
        isPainter = true
        writesPresentationMemos = false
    }

    /// Renders `root` as it appears at `time` (animations applied) into
    /// `target`, redrawing only what changed since the last frame.
    ///
    /// **Damage.** The caller keeps `target` between frames (a back buffer
    /// in cached memory). The compositor remembers what it drew for each
    /// unit (a layer drawn straight into the target; see `DrawnUnit`) and
    /// compares: a unit whose signature (presentation values, contents,
    /// map to the target, inherited opacity and clip) or extent changed,
    /// that appeared, disappeared or moved below one it used to be above
    /// damages its old and new extents in target pixels. A change inside a
    /// layer drawn offscreen (group opacity, a mask, a shadow cast by its
    /// image, an operator over several parts, a rounded or transformed
    /// clip) damages that layer's whole extent. The damaged rectangles
    /// (`damage`) are cleared to `clearColor` and redrawn, every draw
    /// clipped to them; the rest of `target` is left as it is. The first
    /// frame, a different target (buffer or size), a change of
    /// `clearColor`, `scale` or `kernels`, and `invalidate()` make a full
    /// frame. Pixels changed behind the compositor's back (a contents
    /// image edited in place) need `LayerContents.contentsDidChange()` or
    /// `invalidate(_:)`.
    ///
    /// **Occlusion.** What lies entirely under the opaque rectangle of a
    /// unit drawn later (see `opaqueRect`) is neither cleared nor drawn.
    public func render(_ root: Layer, at time: MediaTime, into target: PixelView<ARGB8888>,
                       clearColor: PremultipliedColor = .black) {
        statistics = FrameStatistics()
        overlayState = DebugOverlayState(frameBase: target.base)
        if runsDisplayPass { root.displayIfNeeded(at: time) }   // layers that draw their own contents (custom animated properties)
        frameNumber &+= 1
        evaluationEpoch = Compositor.nextEpoch()
        defer { evaluationEpoch = 0 }
        swap(&unitResolved, &previousUnitResolved)
        unitResolved.removeAll()
        var settings = LayerSignature()
        settings.combine(UInt64(clearColor.argb))
        settings.combine(scale)
        settings.combine(kernels == .simd)
        settings.combine(cullsOccludedLayers)
        settings.combine(UInt64(debugOverlays.rawValue))   // overlays on or off: a full frame
        tracker.beginFrame(target: target, settings: settings.value)
        let contentsSerial = LayerContents.latestSerial
        surveyReplayAllowed = replaysUnchangedSubtrees && settings.value == lastSurveySettings
            && contentsSerial == lastContentsSerial
        lastSurveySettings = settings.value
        lastContentsSerial = contentsSerial
        if recordsHitList && !hits.beginFrame(recording: true) { surveyReplayAllowed = false }
        let bounds = target.bounds
        let drawable = scale > 0 && scale.isFinite
        self.time = time
        frameTarget = target.base
        let rootMap = ProjectiveTransform(AffineTransform(scaleX: scale, y: scale))
        let placement = ParentPlacement(toTarget: rootMap, sublayerSpace: .identity, flipped: false, time: time)
        if drawable { survey(root, parent: placement, opacity: 1, clip: bounds, depth: 0) }
        tracker.endSurvey()
        if recordsHitList { hits.endSurvey() }
        previousUnitResolved.removeAll()
        tracker.computeDamage(bounds: bounds)
        if backdropOnScreen && !tracker.damage.isEmpty { tracker.damageEverything(bounds: bounds) }
        statistics.layersOccluded = tracker.markOccluded()
        statistics.pixelsDamaged = tracker.damage.area
        // In bands on several threads when it pays and is safe (see
        // `paintThreads`), else here.
        let bands = drawable ? paintBandCount() : 1
        backdropOnScreen = false
        if bands < 2 || !paintInBands(bands, root: root, placement: placement, target: target, clearColor: clearColor,
                                      bounds: bounds) {
            paintDamage(root, placement: placement, target: target, clearColor: clearColor,
                        rows: bounds.y ..< bounds.maxY, drawable: drawable)
            if !tracker.damage.isEmpty { statistics.paintBands = 1 }
        }
        if debugOverlays.contains(.redrawn) { flashRedrawn(target) }
        frameTarget = nil
        rasterizeCache.removeStale(currentFrame: frameNumber, olderThan: Compositor.rasterizeEntryLifetime)
        if !tracker.damage.isEmpty {
            // A frame that drew nothing says nothing about which pooled
            // surfaces the scene needs: keep them.
            colorPool.endFrame()
            coveragePool.endFrame()
        }
        statistics.surfacesAllocated = colorPool.allocations + coveragePool.allocations
            + endPaintersFrame(bands: statistics.paintBands)
        colorPool.allocations = 0
        coveragePool.allocations = 0
    }

    /// The rectangles the last `render` redrew, target pixels (disjoint;
    /// empty when nothing changed). Hand them to the presenter.
    public var damage: DamageList { tracker.damage }

    /// Makes the next `render` a full frame (after the target's pixels were
    /// changed by someone else, for instance).
    public func invalidate() { tracker.invalidate() }

    /// Makes the next `render` redraw `rect` (target pixels) as well.
    public func invalidate(_ rect: IntRect) { tracker.invalidate(rect) }

    /// Nesting deeper than this is not drawn (a documented clamp that keeps
    /// a pathological tree from exhausting the stack: a layer at depth
    /// `maximumDepth` or more is skipped with its subtree).
    public static let maximumDepth = 512

    /// True when `layer` at `depth` is shallower than `maximumDepth`; else
    /// warns once, naming it (the survey and the draw both stop there).
    func isWithinDepthLimit(_ layer: Layer, _ depth: Int) -> Bool {
        guard depth >= Compositor.maximumDepth else { return true }
        surveyVaries = true
        Diagnostics.warn(layer, "depth", "nested deeper than Compositor.maximumDepth (\(Compositor.maximumDepth)); not drawn, with its sublayers")
        return false
    }

    /// Most pixels a shadow blur radius may reach; larger radii are clamped
    /// so a shadow's offscreen margin stays bounded.
    public static let maximumShadowRadius = 256.0

    // MARK: One layer

    /// Draws `layer` (and its subtree) placed in `parent` onto `canvas`,
    /// with `opacity` inherited from superlayers that do not group.
    func draw(_ layer: Layer, parent: ParentPlacement, opacity: Double, canvas: Canvas, depth: Int) {
        var unit: Int?
        if canvas.target.base == frameTarget, let i = tracker.unitIndex(of: layer) {
            // Outside this damage rectangle, or hidden under an opaque unit.
            if tracker.units[i].occluded || tracker.units[i].subtreeExtent.intersection(canvas.clip).isEmpty { return }
            unit = i
        }
        guard isWithinDepthLimit(layer, depth) else { return }
        if !layer.animations.isEmpty && drawIfInTransition(layer, parent: parent, opacity: opacity, canvas: canvas, depth: depth) {
            return      // Compositor+Transition.swift
        }
        guard let r = resolveForDraw(layer, unit: unit, in: parent) else { return }
        let layerOpacity = opacity * clampUnit(r.p.opacity)
        guard layerOpacity > 0 else { return }
        if layer.isTransformLayer {
            drawRenderingContext(r, parent: parent, opacity: layerOpacity, canvas: canvas, depth: depth)
            return
        }
        if isCulledBackFace(r, parent: parent) { statistics.layersCulled += 1; return }
        if layer.drawsOwnContentInParentSpace { noteParentSpace(r, parent) }
        statistics.layersDrawn += 1
        if layer.backgroundBlurRadius != 0 || !layer.animations.isEmpty { drawBackdropBlur(r, opacity: layerOpacity, canvas: canvas, depth: depth) }
        let shadow = shadowPlan(r)
        if needsGroup(r, shadow: shadow) {
            drawGroup(r, shadow: shadow, opacity: layerOpacity, canvas: canvas, depth: depth)
        } else {
            if let shadow {
                drawPathShadow(r, shadow, alpha: layerOpacity, canvas: canvas,
                               hidden: opaqueBackgroundInterior(r, opacity: layerOpacity))
            }
            drawLayerImage(r, opacity: layerOpacity, operator: layer.compositingOperator, canvas: canvas, depth: depth,
                      occludedFrom: unit.map { $0 + 1 })
        }
    }

    /// A unit drawn into the target as the survey resolved it, in the same
    /// placement (one resolve per layer and frame, read in place from
    /// `ResolvedUnits`); any other layer resolved now. (A function of its
    /// own: the recursion of `draw` is up to `maximumDepth` levels deep,
    /// and keeps one resolved layer per level on the stack.)
    func resolveForDraw(_ layer: Layer, unit: Int?, in parent: ParentPlacement) -> ResolvedLayer? {
        if let unit, let slot = unitResolved.pointer(at: unit), slot.pointee.layer === layer { return slot.pointee }
        return resolve(layer, in: parent)
    }

    /// With `isDoubleSided == false`: the layer's back faces the viewer.
    func isCulledBackFace(_ r: ResolvedLayer, parent: ParentPlacement) -> Bool {
        guard !r.layer.isDoubleSided else { return false }
        // The Jacobian of x ↦ (Ax + b)/w is det(M)/w³ and w > 0 wherever
        // the layer is visible, so the sign of det(M) is the winding of
        // the projected bounds everywhere — also for a container with
        // empty bounds.
        let m = r.contentToTarget
        var det = m.m00 * (m.m11 * m.m22 - m.m12 * m.m21) - m.m01 * (m.m10 * m.m22 - m.m12 * m.m20)
            + m.m02 * (m.m10 * m.m21 - m.m11 * m.m20)
        if parent.flipped { det = -det }
        return det < 0
    }

    /// Whether the layer image is rendered offscreen and combined once.
    func needsGroup(_ r: ResolvedLayer, shadow: ShadowPlan?) -> Bool {
        let layer = r.layer
        let parts = r.partCount
        let groupsOpacity = clampUnit(r.p.opacity) < 1 && layer.allowsGroupOpacity && parts > 1
        // An operator applies to the layer image as a whole: only a lone
        // part of the layer's own can take it directly (sublayers draw with
        // their own operators).
        let operatorNeedsGroup = layer.compositingOperator != .srcOver && (parts > 1 || !layer.sublayers.isEmpty)
        return groupsOpacity || layer.mask != nil || (shadow?.fromImage ?? false) || operatorNeedsGroup || !layer.filters.isEmpty
    }

    /// Background, contents, sublayers (clipped with `masksToBounds`),
    /// border; each faded by `opacity` and combined with `op`. For a unit
    /// drawn into the target, `occludedFrom` is the position of the first
    /// unit drawn after its background: a whole-pixel background is not
    /// filled where their opaque rectangles cover it.
    func drawImage(_ r: ResolvedLayer, opacity: Double, operator op: BlendOperator, canvas: Canvas, depth: Int,
                   occludedFrom: Int? = nil) {
        let layer = r.layer
        if let color = r.p.backgroundColor, color.alpha > 0 {
            if let rect = wholePixelRect(r) {
                // `isOpaque` promises opaque pixels: copy, do not blend.
                let fillOp = layer.isOpaque && opacity >= 1 && op == .srcOver ? BlendOperator.src : op
                if let from = occludedFrom, canvas.target.base == frameTarget {
                    tracker.occlusion.forEachVisiblePart(of: rect.intersection(canvas.clip), drawnFrom: from) { piece in
                        fillRect(piece, color: faded(color, opacity), operator: fillOp, canvas: canvas)
                    }
                } else {
                    fillRect(rect, color: faded(color, opacity), operator: fillOp, canvas: canvas)
                }
            } else {
                fillBackgroundShape(r, color: faded(color, opacity), operator: op, canvas: canvas)
            }
        }
        let hasInside = layer.contents != nil || layer.drawsOwnContent || !layer.sublayers.isEmpty
        if layer.masksToBounds && hasInside {
            if let rect = wholePixelRect(r) {
                var clipped = canvas
                clipped.clip(to: rect)
                drawContentsAndSublayers(r, opacity: opacity, operator: op, canvas: clipped, depth: depth)
            } else if canClipContentsDirectly(r, operator: op), let contents = layer.contents {
                drawContents(contents, r, alpha: opacity, operator: op, canvas: canvas, clipPath: roundedBounds(r))
            } else {
                drawClipPass(r, opacity: opacity, operator: op, canvas: canvas, depth: depth)
            }
        } else if hasInside {
            drawContentsAndSublayers(r, opacity: opacity, operator: op, canvas: canvas, depth: depth)
        }
        let width = r.p.borderWidth
        if width > 0, r.p.borderColor.alpha > 0 {
            fillBorder(r, width: width, color: faded(r.p.borderColor, opacity), operator: op, canvas: canvas)
        }
    }

    func drawContentsAndSublayers(_ r: ResolvedLayer, opacity: Double, operator op: BlendOperator, canvas: Canvas, depth: Int) {
        if let contents = r.layer.contents {
            drawContents(contents, r, alpha: opacity, operator: op, canvas: canvas)
        }
        if r.layer.drawsOwnContent { drawOwnContent(r, opacity: opacity, operator: op, canvas: canvas) }
        if let replicator = r.layer.replicator, !r.layer.sublayers.isEmpty {
            drawReplicas(r, replicator.replication(at: r.localTime), opacity: opacity, canvas: canvas, depth: depth)
            return
        }
        if canvas.target.base == frameTarget, depth + 1 < Compositor.maximumDepth, let i = tracker.unitIndex(of: r.layer),
           tracker.units[i].playsSublayers {
            drawSublayerUnits(of: i, r, opacity: opacity, canvas: canvas, depth: depth)
            return
        }
        let placement = r.sublayerPlacement
        forEachSublayerInDrawingOrder(r.layer) { sublayer in
            draw(sublayer, parent: placement, opacity: opacity, canvas: canvas, depth: depth + 1)
        }
    }

    /// The sublayers of unit `i` (`r`, drawn straight into the target):
    /// the units of its subtree that the survey recorded next, in drawing
    /// order, each followed by its own subtree's. They are played from
    /// there, whole subtrees outside this damage rectangle or hidden
    /// skipped by their extent, without walking the sublayer list.
    func drawSublayerUnits(of i: Int, _ r: ResolvedLayer, opacity: Double, canvas: Canvas, depth: Int) {
        let placement = r.sublayerPlacement
        let end = tracker.units[i].subtreeEnd
        let clip = canvas.clip
        var j = i + 1
        while j < end {
            let next = tracker.units[j].subtreeEnd
            if !tracker.units[j].occluded && !tracker.units[j].subtreeExtent.intersection(clip).isEmpty {
                draw(tracker.unitLayers[j], parent: placement, opacity: opacity, canvas: canvas, depth: depth + 1)
            }
            j = next
        }
    }

    /// Calls `body` with the sublayers sorted by `zPosition` (NaN counts as
    /// 0), back to front; equal depths keep their order in the tree. An
    /// order that differs from the tree's is sorted in `scratch.drawingOrder`
    /// (a stack shared by the nested calls), so it allocates only when the
    /// storage grows.
    func forEachSublayerInDrawingOrder(_ layer: Layer, _ body: (Layer) -> Void) {
        let sublayers = layer.sublayers
        func z(_ l: Layer) -> Double { l.zPosition.isNaN ? 0 : l.zPosition }
        var sorted = true
        var i = 1
        while i < sublayers.count { if z(sublayers[i]) < z(sublayers[i - 1]) { sorted = false; break }; i += 1 }
        if sorted {
            for sublayer in sublayers { body(sublayer) }
            return
        }
        // Stable insertion sort of indices on top of the stack: sublayer
        // lists are short, and it needs no buffer of its own.
        let base = scratch.drawingOrder.count
        var k = 0
        while k < sublayers.count {
            defer { k += 1 }
            let zk = z(sublayers[k])
            scratch.drawingOrder.append(k)
            var j = scratch.drawingOrder.count - 1
            while j > base && z(sublayers[scratch.drawingOrder[j - 1]]) > zk {
                scratch.drawingOrder[j] = scratch.drawingOrder[j - 1]
                j -= 1
            }
            scratch.drawingOrder[j] = k
        }
        // Nested calls push above `base + count` and pop before returning.
        k = base
        while k < base + sublayers.count { body(sublayers[scratch.drawingOrder[k]]); k += 1 }
        scratch.drawingOrder.removeSubrange(base...)
    }

    // MARK: Resolving a layer

    /// Where a superlayer puts its sublayers.
    struct ParentPlacement {
        /// The superlayer's bounds space → target pixels.
        var toTarget: ProjectiveTransform
        /// The superlayer's `sublayerTransform` about its anchor point, which
        /// joins the sublayer's 4×4 before flattening (a perspective acts on
        /// the sublayer's z).
        var sublayerSpace: Transform3D
        /// Odd number of `isGeometryFlipped` mirrors in `toTarget`.
        var flipped: Bool
        /// The superlayer's local time (see `Layer.localTime(fromParent:)`).
        var time: MediaTime
    }

    /// The values and maps the drawing of one layer needs.
    struct ResolvedLayer {
        let layer: Layer
        let p: PresentationValues
        /// Standardised bounds.
        let bounds: Rect
        /// Bounds space → target pixels.
        var toTarget: ProjectiveTransform
        /// The same with the layer's own `isGeometryFlipped` mirror undone:
        /// the layer's own contents are drawn through it (upright).
        var contentToTarget: ProjectiveTransform
        let sublayerSpace: Transform3D
        let sublayersFlipped: Bool
        /// The layer's local time: its animations are evaluated at it, and
        /// its sublayers' times derive from it.
        let localTime: MediaTime

        /// Where this layer puts its sublayers.
        var sublayerPlacement: ParentPlacement {
            ParentPlacement(toTarget: toTarget, sublayerSpace: sublayerSpace, flipped: sublayersFlipped, time: localTime)
        }

        /// Where this layer's `mask` is laid out: the layer's bounds space,
        /// without its `sublayerTransform`.
        var maskPlacement: ParentPlacement {
            ParentPlacement(toTarget: toTarget, sublayerSpace: .identity, flipped: sublayersFlipped, time: localTime)
        }

        /// Background, contents, border and each sublayer: the parts that may
        /// overlap inside the layer image.
        var partCount: Int {
            var n = layer.sublayers.count
            if let c = p.backgroundColor, c.alpha > 0 { n += 1 }
            if layer.contents != nil { n += 1 }
            if layer.drawsOwnContent { n += 1 }
            if p.borderWidth > 0 && p.borderColor.alpha > 0 { n += 1 }
            return n
        }

        /// The same layer drawn into a surface whose pixel (0, 0) is target
        /// pixel (`x`, `y`).
        func shifted(x: Int, y: Int) -> ResolvedLayer {
            var r = self
            let t = ProjectiveTransform.translation(Double(-x), Double(-y))
            r.toTarget = toTarget.concatenating(t)
            r.contentToTarget = contentToTarget.concatenating(t)
            return r
        }

        var radii: CornerRadii {
            let radius = p.cornerRadius > 0 && p.cornerRadius.isFinite ? p.cornerRadius : 0
            let m = layer.maskedCorners ?? .all
            return CornerRadii(topLeft: m.contains(.minXMinY) ? radius : 0, topRight: m.contains(.maxXMinY) ? radius : 0,
                               bottomRight: m.contains(.maxXMaxY) ? radius : 0, bottomLeft: m.contains(.minXMaxY) ? radius : 0)
        }
        var hasCorners: Bool {
            let c = radii
            return c.topLeft > 0 || c.topRight > 0 || c.bottomRight > 0 || c.bottomLeft > 0
        }

        /// The bounds rounded by the corner radii, in bounds space.
        var backgroundShape: Path {
            Path(roundedRect: bounds.minX, bounds.minY, bounds.width, bounds.height, radii: radii)
        }

        /// The outer rounded bounds and the same inset by `width` (radii
        /// shrunk by it), for an even-odd fill. A border as wide as half the
        /// smaller side fills the whole shape.
        func borderShape(width: Double) -> Path {
            var path = backgroundShape
            let w2 = bounds.width - 2 * width, h2 = bounds.height - 2 * width
            guard w2 > 0, h2 > 0 else { return path }
            let c = radii
            func inner(_ v: Double) -> Double { Swift.max(0, v - width) }
            path.addRoundedRect(bounds.minX + width, bounds.minY + width, w2, h2,
                                radii: CornerRadii(topLeft: inner(c.topLeft), topRight: inner(c.topRight),
                                                   bottomRight: inner(c.bottomRight), bottomLeft: inner(c.bottomLeft)))
            return path
        }
    }

    /// `nil` when the layer is hidden (unless `includingHidden`) or its
    /// geometry or map is not finite.
    func resolve(_ layer: Layer, in parent: ParentPlacement, includingHidden: Bool = false) -> ResolvedLayer? {
        guard includingHidden || !layer.isHidden else { return nil }
        let localTime = layer.localTime(fromParent: parent.time)
        let p = presentationValues(of: layer, at: localTime)
        let geometry = p.geometry
        guard geometry.bounds.isFinite else {
            surveyVaries = true     // surveyed afresh: the warning is the survey's to give
            Diagnostics.warn(layer, "nonFinite", "bounds are not finite; not drawn, with its sublayers")
            return nil
        }
        var toSuperlayer = geometry.toSuperlayer
        if !parent.sublayerSpace.isIdentity { toSuperlayer = toSuperlayer.concatenating(parent.sublayerSpace) }
        let toTarget = toSuperlayer.flattened.concatenating(parent.toTarget)
        guard toTarget.isFinite else {
            surveyVaries = true
            Diagnostics.warn(layer, "nonFinite", "position, transform or an ancestor's map is not finite; not drawn, with its sublayers")
            return nil
        }
        var contentToTarget = toTarget
        let b = geometry.bounds
        if geometry.isGeometryFlipped {
            // The mirror y ↦ minY + maxY − y is its own inverse.
            let flip = ProjectiveTransform(AffineTransform(a: 1, b: 0, c: 0, d: -1, tx: 0, ty: b.minY + b.maxY))
            contentToTarget = flip.concatenating(toTarget)
        }
        return ResolvedLayer(layer: layer, p: p,
                             bounds: Rect(x: b.minX, y: b.minY, width: b.width, height: b.height),
                             toTarget: toTarget, contentToTarget: contentToTarget,
                             sublayerSpace: geometry.sublayerSpace,
                             sublayersFlipped: parent.flipped != geometry.isGeometryFlipped,
                             localTime: localTime)
    }

    /// The target pixels the layer's bounds cover exactly, when its map is
    /// axis-aligned, it has no rounded corners, and every edge lands on a
    /// pixel boundary (within 10⁻⁶); `nil` otherwise.
    func wholePixelRect(_ r: ResolvedLayer) -> IntRect? {
        let m = r.toTarget
        guard m.isAxisAligned, !r.hasCorners else { return nil }
        let b = r.bounds
        let xs = (m.m00 * b.minX + m.m02, m.m00 * b.maxX + m.m02)
        let ys = (m.m11 * b.minY + m.m12, m.m11 * b.maxY + m.m12)
        let limit = 1_073_741_824.0
        func whole(_ v: Double) -> Int? {
            let q = v.rounded()
            guard Swift.abs(v - q) <= 1e-6, Swift.abs(q) <= limit else { return nil }
            return Int(q)
        }
        guard let x0 = whole(Swift.min(xs.0, xs.1)), let x1 = whole(Swift.max(xs.0, xs.1)),
              let y0 = whole(Swift.min(ys.0, ys.1)), let y1 = whole(Swift.max(ys.0, ys.1)) else { return nil }
        return IntRect(x: x0, y: y0, width: x1 - x0, height: y1 - y0)
    }
}

/// 0…1, NaN → 0.
@inline(__always) func clampUnit(_ v: Double) -> Double {
    v > 0 ? (v < 1 ? v : 1) : 0
}

/// `color` with its alpha (clamped) multiplied by `opacity`, premultiplied.
func faded(_ color: Color, _ opacity: Double) -> PremultipliedColor {
    var c = color
    c.alpha = clampUnit(c.alpha) * opacity
    return c.premultiplied
}

extension Compositor {
    /// The `.redrawn` overlay: tints what changed this frame yellow and
    /// asks for it to be repainted (untinted) next frame.
    func flashRedrawn(_ target: PixelView<ARGB8888>) {
        let tint = PremultipliedColor(argb: 0x6060_6000)      // yellow at 38 %
        let canvas = Canvas(target, family: kernels)
        var i = 0
        while i < tracker.changed.rects.count {
            let rect = tracker.changed.rects[i]
            i += 1
            canvas.fill(rect, color: tint)
            tracker.repaintOverlay(rect)
        }
    }
}
