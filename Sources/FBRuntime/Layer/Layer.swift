import Raster

/// Why a change to the layer tree was refused.
public enum LayerTreeError: Error, Equatable, CustomStringConvertible {
    /// Adding the layer would make it its own ancestor.
    case wouldCreateCycle(layer: String, into: String)
    /// An index outside `0...sublayers.count`.
    case indexOutOfRange(Int, count: Int)
    /// The reference sublayer is not a sublayer of the receiver.
    case notASublayer(String)

    public var description: String {
        switch self {
        case let .wouldCreateCycle(layer, into):
            return "cannot add layer '\(layer)' to '\(into)': '\(into)' is inside the subtree of '\(layer)' (the layer tree must stay a tree)"
        case let .indexOutOfRange(index, count):
            return "sublayer index \(index) is outside 0...\(count)"
        case let .notASublayer(name):
            return "'\(name)' is not a sublayer of this layer"
        }
    }
}

/// A node of the model layer tree: geometry and an image, as CALayer.
///
/// Geometry follows Core Animation: `bounds` is the layer's own coordinate
/// space in points (its origin says which part of that space is visible —
/// scrolling); `position` is where the `anchorPoint` (unit coordinates of
/// the bounds, default (0.5, 0.5)) sits in the superlayer's space.
///
/// Threading: the model tree belongs to the app thread. The render thread
/// never reads it: `RenderLoop` draws twins of the model layers, updated
/// from immutable snapshots made at each commit (`RenderTreeUpdate`). A
/// `Compositor` used directly renders whatever tree it is given, on the
/// caller's thread.
open class Layer {
    /// A name for messages and debugging.
    public var name: String { get { properties.name } set { properties.name = newValue } }

    /// Whether `point` (in the layer's bounds space, points) is inside the
    /// layer for hit testing (`hitTest(_:at:)`): by default inside
    /// `bounds`, half-open (minX ≤ x < maxX, minY ≤ y < maxY). Override
    /// for a different shape (CALayer's `contains(_:)`); hit testing calls
    /// it on the model layer with the presentation geometry's point, and
    /// applies `masksToBounds` and `mask` clipping on top.
    open func contains(_ point: Point) -> Bool {
        let b = bounds
        return point.x >= b.minX && point.x < b.maxX && point.y >= b.minY && point.y < b.maxY
    }

    /// The layer's geometry properties as one value (the accessors below
    /// read and write it; the compositor and hit testing use it whole).
    public var geometry: LayerGeometry {
        get { properties.animatable.geometry }
        set {
            let oldSize = properties.animatable.geometry.bounds.size
            willChangeGeometry(to: newValue); properties.animatable.geometry = newValue; didChangeValues()
            if !Layer.sameSize(oldSize, newValue.bounds.size) { boundsSizeDidChange(from: oldSize) }   // Layer+Layout.swift
        }
    }

    /// The layer's own coordinate space: `origin` is the point of that space
    /// shown at the top-left corner (scrolling), `size` its extent, points.
    public var bounds: Rect { get { geometry.bounds } set { geometry.bounds = newValue } }
    /// Where the anchor point sits, in the superlayer's space, points.
    public var position: Point { get { geometry.position } set { geometry.position = newValue } }
    /// The layer's position on the z axis, points (+z towards the viewer).
    /// Moves the layer in depth; it only shows through a perspective
    /// `sublayerTransform` above (and will order siblings when the
    /// compositor sorts by depth).
    public var zPosition: Double { get { geometry.zPosition } set { geometry.zPosition = newValue } }
    /// The point of the bounds, in unit coordinates (0…1 across, default
    /// (0.5, 0.5)), that sits at `position` and about which `transform`
    /// and `sublayerTransform` apply.
    public var anchorPoint: Point { get { geometry.anchorPoint } set { geometry.anchorPoint = newValue } }
    /// The z of the anchor point in the layer's own space, points: the point
    /// (anchor, anchorPointZ) lands at (position, zPosition).
    public var anchorPointZ: Double { get { geometry.anchorPointZ } set { geometry.anchorPointZ = newValue } }
    /// Applied to the layer about its anchor point (see `LayerGeometry`).
    public var transform: Transform3D { get { geometry.transform } set { geometry.transform = newValue } }
    /// Applied to the sublayers, about this layer's anchor point; the usual
    /// place for a perspective (`Transform3D.perspective(distance:)`).
    public var sublayerTransform: Transform3D { get { geometry.sublayerTransform } set { geometry.sublayerTransform = newValue } }
    /// When true, this layer's space has y pointing up: sublayer positions
    /// are measured from the bottom of the bounds upwards (the macOS
    /// convention) and sublayers inherit the flip; the layer's own contents
    /// are not drawn flipped. See `LayerGeometry`.
    public var isGeometryFlipped: Bool { get { geometry.isGeometryFlipped } set { geometry.isGeometryFlipped = newValue } }
    /// Pixels per point of the layer's contents image (CA's
    /// `contentsScale`, default 1). Geometry is in points and ignores it;
    /// it tells the contents and drawing code how finely to rasterise.
    public var contentsScale: Double { get { properties.contentsScale } set { properties.contentsScale = newValue } }

    /// Multiplied into the layer image, 0…1 (clamped when drawn; NaN → 0).
    public var opacity: Double {
        get { properties.animatable.opacity }
        set { willChangeValue(forKey: .opacity); properties.animatable.opacity = newValue; didChangeValues() }
    }
    /// Not drawn (nor hit), with its sublayers. In a displayed tree a
    /// change fades by default (see `Layer+Transition.swift`).
    public var isHidden: Bool {
        get { properties.isHidden }
        set {
            let changes = newValue != isHidden
            willChangeSubtree(forKey: .hidden, changes: changes); properties.isHidden = newValue; didChangeSubtree()
            if changes { invalidatePreferredSize() }   // a stack skips hidden items
        }
    }
    /// Filled inside the bounds, rounded by `cornerRadius`.
    public var backgroundColor: Color? {
        get { properties.animatable.backgroundColor }
        set { willChangeValue(forKey: .backgroundColor); properties.animatable.backgroundColor = newValue; didChangeValues() }
    }

    // MARK: The layer image (see `Compositor` for how these combine)

    /// Radius of the rounded corners of the background, the border and —
    /// with `masksToBounds` — the clip, points. Clamped so neighbouring
    /// corners fit (CSS's rule); ≤ 0 or NaN means square corners.
    public var cornerRadius: Double {
        get { properties.animatable.cornerRadius }
        set { willChangeValue(forKey: .cornerRadius); properties.animatable.cornerRadius = newValue; didChangeValues() }
    }
    /// The corners `cornerRadius` rounds; `nil` means all four.
    public var maskedCorners: CornerMask? { get { properties.maskedCorners } set { properties.maskedCorners = newValue } }
    /// Clips contents and sublayers (and the shadow) to the bounds, rounded
    /// by `cornerRadius`.
    public var masksToBounds: Bool { get { properties.masksToBounds } set { properties.masksToBounds = newValue } }
    /// Width of the border, points, drawn inside the bounds above the
    /// contents and the sublayers, following `cornerRadius`. ≤ 0 or NaN: none.
    public var borderWidth: Double {
        get { properties.animatable.borderWidth }
        set { willChangeValue(forKey: .borderWidth); properties.animatable.borderWidth = newValue; didChangeValues() }
    }
    /// CA's default is opaque black.
    public var borderColor: Color {
        get { properties.animatable.borderColor }
        set { willChangeValue(forKey: .borderColor); properties.animatable.borderColor = newValue; didChangeValues() }
    }
    /// The image drawn above the background, placed by `contentsGravity`.
    /// In a displayed tree a change fades by default (see
    /// `Layer+Transition.swift`).
    public var contents: LayerContents? {
        get { properties.contents }
        set {
            let old = contents
            willChangeSubtree(forKey: .contents, changes: newValue !== old); properties.contents = newValue; didChangeSubtree()
            if newValue?.width != old?.width || newValue?.height != old?.height { invalidatePreferredSize() }
        }
    }
    public var contentsGravity: ContentsGravity { get { properties.contentsGravity } set { properties.contentsGravity = newValue } }
    /// The part of the contents image shown, unit coordinates of the image
    /// (default the whole image).
    public var contentsRect: Rect {
        get { properties.animatable.contentsRect }
        set { willChangeValue(forKey: .contentsRect); properties.animatable.contentsRect = newValue; didChangeValues() }
    }
    /// The stretchable centre of the shown part, unit coordinates of it:
    /// with `.resize` the image is drawn nine-part (corners keep their size
    /// in points). The default (0, 0, 1, 1) stretches everything.
    public var contentsCenter: Rect {
        get { properties.animatable.contentsCenter }
        set { willChangeValue(forKey: .contentsCenter); properties.animatable.contentsCenter = newValue; didChangeValues() }
    }
    /// Filter used when the contents are drawn smaller than their pixels.
    public var minificationFilter: ContentsFilter { get { properties.minificationFilter } set { properties.minificationFilter = newValue } }
    /// Mip levels added to the level the `.trilinear` minification filter
    /// picks (Core Animation's `minificationFilterBias`; default 0):
    /// positive draws from smaller, blurrier levels, negative from larger,
    /// sharper ones (aliasing like bilinear at −log₂ of the minification).
    /// Limited to ±16; a non-finite bias counts as 0. Other filters ignore it.
    public var minificationFilterBias: Double {
        get { properties.minificationFilterBias }
        set { properties.minificationFilterBias = newValue }
    }
    /// Filter used when the contents are drawn larger than their pixels.
    public var magnificationFilter: ContentsFilter { get { properties.magnificationFilter } set { properties.magnificationFilter = newValue } }
    /// CA's default is opaque black.
    public var shadowColor: Color {
        get { properties.animatable.shadowColor }
        set { willChangeValue(forKey: .shadowColor); properties.animatable.shadowColor = newValue; didChangeValues() }
    }
    /// 0 (CA's default) draws no shadow.
    public var shadowOpacity: Double {
        get { properties.animatable.shadowOpacity }
        set { willChangeValue(forKey: .shadowOpacity); properties.animatable.shadowOpacity = newValue; didChangeValues() }
    }
    /// In the layer's space, points. CA's default (0, −3) is kept literally:
    /// in FBRuntime's y-down spaces it moves the shadow *up*, as on iOS
    /// (on macOS, y-up, the same value moves it down).
    public var shadowOffset: Size {
        get { properties.animatable.shadowOffset }
        set { willChangeValue(forKey: .shadowOffset); properties.animatable.shadowOffset = newValue; didChangeValues() }
    }
    /// Blur radius, points (σ = radius / 2, the CSS rule; see `BlurPlan`).
    public var shadowRadius: Double {
        get { properties.animatable.shadowRadius }
        set { willChangeValue(forKey: .shadowRadius); properties.animatable.shadowRadius = newValue; didChangeValues() }
    }
    /// The shape casting the shadow, in the layer's bounds space. `nil`: the
    /// alpha of the layer image casts it, which costs an offscreen pass
    /// every frame; a path is rasterised and blurred once and cached.
    public var shadowPath: Path? {
        get { properties.animatable.shadowPath }
        set { willChangeValue(forKey: .shadowPath); properties.animatable.shadowPath = newValue; didChangeValues() }
    }
    /// A layer whose alpha (with its sublayers) masks this layer's image and
    /// shadow. It is laid out in this layer's bounds space and has no
    /// superlayer; this layer's `sublayerTransform` does not apply to it.
    ///
    /// A layer is in one place at a time: setting a layer that has a
    /// superlayer removes it from there first, and one that is another
    /// layer's mask stops being that one's (its `mask` becomes `nil`), as
    /// `addSublayer` moves a layer (Core Animation leaves both undefined).
    public var mask: Layer? {
        get { maskStorage }
        set {
            if let m = newValue, m.maskOwner !== self {
                if let other = m.maskOwner, other.mask === m { other.mask = nil }
                m.removeFromSuperlayer()
            }
            setMaskInPlace(newValue)
        }
    }
    final private(set) var maskStorage: Layer?
    /// Sets `mask` without moving the layer out of where it is: for render
    /// twins (`RenderTreeUpdate.apply`), whose updates reproduce the app
    /// side's arrangement as a whole, and must not run the app side's
    /// tree bookkeeping on the render thread.
    final func setMaskInPlace(_ m: Layer?) {
        let old = maskStorage
        maskStorage = m
        if let old, old !== m, old.maskOwner === self { old.maskOwner = nil }
        m?.maskOwner = self
        noteModelChange()
    }
    /// The layer whose `mask` this layer is (not retained; cleared when
    /// that layer lets go of it).
    final unowned(unsafe) var maskOwner: Layer?
    /// With `opacity < 1`, render the layer image (sublayers included) once
    /// and fade the result, so overlapping sublayers do not show through
    /// each other. `false` multiplies the opacity into every part instead.
    public var allowsGroupOpacity: Bool { get { properties.allowsGroupOpacity } set { properties.allowsGroupOpacity = newValue } }
    /// `false` hides the layer when its back faces the viewer.
    public var isDoubleSided: Bool { get { properties.isDoubleSided } set { properties.isDoubleSided = newValue } }
    /// Whether the edges of the layer named by `edgeAntialiasingMask` are
    /// anti-aliased where the layer is not aligned to the pixel grid
    /// (rotated, scaled to fractional edges, in perspective). `false` (the
    /// default, as in Core Animation) draws every edge hard: a pixel is in
    /// the layer when its centre is. The default comes from
    /// `Layer.defaultAllowsEdgeAntialiasing` (the `UIViewEdgeAntialiasing`
    /// analog). Applies to the straight edges of the background, border,
    /// contents filling the bounds, and the `masksToBounds` clip; rounded
    /// corners are always anti-aliased.
    public var allowsEdgeAntialiasing: Bool { get { properties.allowsEdgeAntialiasing } set { properties.allowsEdgeAntialiasing = newValue } }
    /// Which edges `allowsEdgeAntialiasing` smooths (CAEdgeAntialiasingMask),
    /// default all four. Clear the edges that abut other layers so no seam
    /// shows between them.
    public var edgeAntialiasingMask: EdgeAntialiasingMask { get { properties.edgeAntialiasingMask } set { properties.edgeAntialiasingMask = newValue } }
    /// The initial `allowsEdgeAntialiasing` of new layers (false, as CA
    /// reads it from `UIViewEdgeAntialiasing` when an app does not set it).
    /// Set it once at start-up, before building layers.
    public nonisolated(unsafe) static var defaultAllowsEdgeAntialiasing = false
    /// A promise that the layer fills its bounds with opaque pixels: what
    /// lies under it is not drawn (occlusion culling) and its whole-pixel
    /// background is copied, not blended. A wrong `true` shows stale
    /// pixels where the layer is not opaque, as in CA.
    public var isOpaque: Bool { get { properties.isOpaque } set { properties.isOpaque = newValue } }
    /// Render the layer image (background, contents, sublayers, border)
    /// once into a bitmap in the layer's own space and reuse it while
    /// nothing in the subtree changes; moving or transforming the layer
    /// only re-composites the bitmap (resampled unless the map is a
    /// whole-pixel translation). Shadow, mask and opacity apply to the
    /// bitmap, so the opacity acts as group opacity. See `Compositor`.
    public var shouldRasterize: Bool { get { properties.shouldRasterize } set { properties.shouldRasterize = newValue } }
    /// Pixels per point of the layer's own space in the bitmap of a
    /// rasterized layer, as in Core Animation: default 1, whatever the
    /// panel, so on a panel of `Screen.scale` 2 (or a magnified layer) set
    /// it to that scale for a bitmap as sharp as the direct drawing (a
    /// bitmap at 1 is magnified, and costs a quarter of the memory);
    /// `contentsScale` does not enter it. ≤ 0 or NaN counts as 1.
    public var rasterizationScale: Double { get { properties.rasterizationScale } set { properties.rasterizationScale = newValue } }
    /// How the layer image combines with what is below it (the analog of
    /// CA's `compositingFilter`), default source-over.
    public var compositingOperator: BlendOperator { get { properties.compositingOperator } set { properties.compositingOperator = newValue } }

    /// Renderer state kept between frames (the shadow cache). Belongs to
    /// the compositor; moves to the render tree with the commit snapshots.
    var renderCache: LayerRenderCache?
    /// This frame's presentation values of an animated layer (render-side
    /// state; see `PresentationMemo`).
    final var presentedMemo: PresentationMemo?
    /// What the compositor's survey recorded for this layer's subtree in
    /// the last frame it surveyed it (render-side state; see `SurveyMemo`).
    final var surveyMemo = SurveyMemo()
    /// Bumped by every model change of this layer or of a layer in its
    /// subtree (sublayers and masks, recursively): see `noteModelChange()`.
    /// The survey replays a subtree whose version it has seen.
    final var subtreeVersion: UInt64 = 0
    /// Which sublayers changed, for the survey of a layer with many of them
    /// (render-side bookkeeping: see `SublayerChanges`).
    final var sublayerChanges = SublayerChanges()

    // MARK: Content drawn by layer subclasses

    /// The model value of an animatable property that a layer subclass
    /// keeps in a stored Swift property (`ShapeLayer.path`,
    /// `GradientLayer.colors`, …), by its key path name; `nil` for names
    /// the class does not keep. Subclasses override it (falling back to
    /// `super`); `value(forKey:)` reads it when `setValue(_:forKey:)` has
    /// not set the key, and animations of `.custom(name)` start from it.
    open func storedValue(forKey name: String) -> AnimatableValue? {
        if name == "backgroundBlurRadius" { return .scalar(backgroundBlurRadius) }
        if !properties.filters.isEmpty, let i = LayerFilter.indexOfParameter(named: name, in: properties.filters),
           let v = properties.filters[i].parameter {
            return .scalar(v)
        }
        return nil
    }

    /// Sets the stored Swift property behind the key path name `name` (the
    /// inverse of `storedValue(forKey:)`) when `value` is of its kind;
    /// anything else is ignored. Presentation copies use it, so the typed
    /// properties of a presentation layer show the presented values
    /// (`(layer.presentation() as! ShapeLayer).strokeEnd` mid-animation is
    /// the stroke end on screen), as in Core Animation. Subclasses with
    /// animatable stored properties override it (falling back to `super`).
    open func setStoredValue(_ value: AnimatableValue, forKey name: String) {
        guard case let .scalar(v) = value else { return }
        if name == "backgroundBlurRadius" { backgroundBlurRadius = v; return }
        if !properties.filters.isEmpty, let i = LayerFilter.indexOfParameter(named: name, in: properties.filters) {
            properties.filters[i] = properties.filters[i].withParameter(v)
        }
    }

    /// A Gaussian blur of what is behind the layer, within its bounds
    /// (rounded by `cornerRadius`, cut by `mask`), drawn below the layer's
    /// own image — the frosted-glass backdrop (CA's `backgroundFilters`
    /// with a blur). Points (σ = radius / 2, like `shadowRadius`); 0 (the
    /// default) draws no backdrop. Animatable as `.custom("backgroundBlurRadius")`.
    public var backgroundBlurRadius: Double { get { properties.backgroundBlurRadius } set { properties.backgroundBlurRadius = newValue } }

    /// Filters applied in order to the layer image — the layer and its
    /// sublayers rendered as one group, offscreen (CA's `filters`) — before
    /// it casts its shadow (from its alpha), is cut by `mask`, faded by
    /// `opacity` and combined by `compositingOperator`; empty (the default)
    /// draws the layer as usual. The filter region is the pixel box of the
    /// layer and its subtree, grown by what the blurs spread: a colour
    /// matrix that gives transparent pixels alpha fills that box. A
    /// `shadowPath` shadow is not filtered (but, drawn in the same pass
    /// when the layer has a mask, it is). Ignored on a `TransformLayer`, which
    /// has no layer image of its own (as in CA); its planes' own filters
    /// apply. Parameters
    /// animate by key (`AnimatableKey.filterBlurRadius`, `.filterSaturation`,
    /// `.filterBrightness`, `.filterContrast`: the first filter of that
    /// kind); colour matrices and the list itself do not animate. See
    /// `LayerFilter` for units and clamps.
    public var filters: [LayerFilter] { get { properties.filters } set { properties.filters = newValue } }

    /// True for layer classes that draw content of their own between the
    /// contents image and the sublayers, every frame, through the layer's
    /// map (shape, gradient, text, emitter layers).
    var drawsOwnContent: Bool { false }

    /// Draws that content; called by the compositor only when
    /// `drawsOwnContent`, on the render thread's compositor.
    func drawOwnContent(_ drawing: OwnContentDrawing) {}

    /// True when that content needs the layer's 4×4 into its superlayer's
    /// space (`OwnContentDrawing.parentSpace`): an emitter preserving depth.
    var drawsOwnContentInParentSpace: Bool { false }

    /// True when what the layer draws of its own changes with time without
    /// an animation or a model change (particles flying, tiles arriving):
    /// the survey never replays a subtree holding such a layer.
    var contentChangesWithTime: Bool { false }

    /// Folds into `signature` everything that decides what the layer's own
    /// content (`drawOwnContent`), rendering context or replication draws
    /// at local time `t` besides the common properties, so the damage
    /// tracker sees it change.
    func combineContentSignature(into signature: inout LayerSignature, at t: MediaTime) {}

    /// Folds into `signature` the part of the own content that can change
    /// in part (`ShapeLayer`'s stroke start and end); separate from
    /// `combineContentSignature` so the survey can tell a change of it
    /// alone and damage only what it changes (`partialTrim`).
    func combineTrimSignature(into signature: inout LayerSignature, at t: MediaTime) {}

    /// The presented stroke start and end when a change of them alone can
    /// be damaged in part (`trimChangeBounds`); `nil` otherwise.
    func partialTrim(at t: MediaTime) -> (start: Double, end: Double)? { nil }

    /// Bounds space: what changes when the trim goes from `old` to `new` at
    /// local time `t`, everything else the same; `device` is the linear
    /// part of the map to the target (for the flattening). `nil`: unknown.
    func trimChangeBounds(from old: (start: Double, end: Double), to new: (start: Double, end: Double),
                          at t: MediaTime, device: AffineTransform) -> Rect? { nil }

    // MARK: Drawing into a backing store

    /// Redraws `context.dirtyRect` of the layer's backing store (CA's
    /// `draw(in:)`): override in a subclass, or set `drawHandler`. The
    /// context is in the layer's bounds space (points), clipped to the
    /// dirty rectangle, which is cleared to transparent first; custom
    /// properties read through `value(forKey:)` have their presentation
    /// values while drawing. Called by `displayIfNeeded(at:)` (before each
    /// frame) only after `setNeedsDisplay()`, or every frame while a
    /// property for which `needsDisplay(forKey:)` is true is animated. The
    /// backing store becomes `contents`. The default calls `drawHandler`;
    /// without one the layer has no backing store.
    open func draw(in context: DrawingContext) {
        if let drawHandler { drawHandler(self, context) } else { context.drewNothing = true }
    }

    /// Draws the layer, for layers that draw without a subclass.
    public var drawHandler: ((Layer, DrawingContext) -> Void)?

    /// Redraw the whole backing store when the bounds size changes
    /// (otherwise the old drawing is stretched as `contents`). Default
    /// false, as CA.
    public var needsDisplayOnBoundsChange = false

    /// Where that content may reach beyond the bounds, in bounds space at
    /// the layer's local time `t` (`nil`: within the bounds).
    func ownContentExtent(at t: MediaTime) -> Rect? { nil }
    /// How far, in target pixels, the drawing may stray from
    /// `ownContentExtent` mapped to the target: text snaps its glyphs to a
    /// quarter pixel (`CoverageMaskCache.glyphFractionSteps`), up to half a
    /// step either way.
    var ownContentSnapMargin: Double { 0 }

    /// True for `TransformLayer`: a 3-D rendering context, no image of
    /// its own.
    var isTransformLayer: Bool { false }

    /// True for `TiledLayer`: the display pass invalidates tiles
    /// (`invalidateTiles(in:)`) instead of drawing a backing store.
    var drawsInTiles: Bool { false }

    /// Marks the tiles meeting `rect` (bounds space; `nil`: all) for
    /// redrawing. Called by the display pass when `drawsInTiles`.
    func invalidateTiles(in rect: Rect?) {}

    /// True while content of the layer's own is still on its way to the
    /// screen or moving at local time `t` (tiles being drawn or fading in,
    /// particles flying): the render loop keeps rendering frames, as for a
    /// running animation. Asked of layers that draw in tiles or draw their
    /// own content.
    func hasPendingContent(at t: MediaTime) -> Bool { false }

    /// Non-nil for replicator layers (their sublayers are drawn once per
    /// instance).
    var replicator: ReplicatorLayer? { nil }

    /// The sublayers, back to front.
    public private(set) var sublayers: [Layer] = [] {
        didSet {
            sublayerChanges.version &+= 1
            forgetChangedSublayers()
            noteModelChange()
        }
    }
    /// The layer this one is a sublayer of. Not retained: the superlayer
    /// owns its sublayers, and clears this pointer when it lets go of them.
    public private(set) unowned(unsafe) var superlayer: Layer?

    /// Animations attached to this layer, in the order they were added.
    public final internal(set) var animations: [(key: String, animation: Animation)] = [] {
        didSet { animationsVersion &+= 1; animationsDidChange(from: oldValue); noteModelChange() }
    }
    /// Bumped by every change of `animations` (caches of presentation
    /// values key on it).
    final var animationsVersion: UInt64 = 0

    /// Actions, delegate and the app run loop's bookkeeping of this
    /// layer's animations (`Layer+Actions.swift`).
    final var actionState = LayerActionState()
    /// What layout keeps for this layer (`Layout/Layer+Layout.swift`).
    final var layoutState = LayerLayoutState()

    public init(name: String = "layer") { properties = LayerProperties(name: name) }

    /// Every model property of the layer as one value (see
    /// `LayerProperties`): the public accessors read and write it; a
    /// commit hands it to the render tree whole and a presentation copy
    /// starts from it. Setting it directly runs no action.
    final var properties: LayerProperties { didSet { noteModelChange() } }

    // MARK: Overridable hooks (their machinery is in the extensions)

    /// The action for `key` when no delegate and no `actions` entry gives
    /// one (CA's `defaultAction(forKey:)`). Layer's answer is
    /// `.implicitAnimation` for every key with an animatable value and
    /// `nil` for custom keys; subclasses override it per key, `.none`
    /// turning the implicit animation off.
    open class func defaultAction(forKey key: AnimatableKey) -> LayerAction? {
        if key == .contents || key == .hidden || key == .sublayers { return .implicitAnimation }   // a fade (Layer+Transition.swift)
        if case let .custom(name) = key, let declared = declaredProperty(named: name) {
            return declared.animatesImplicitly ? .implicitAnimation : nil
        }
        return key.valueKind == nil ? nil : .implicitAnimation
    }

    /// Places the sublayers (CA's `layoutSublayers()`); called by a layout
    /// pass when the layer needs layout (see `setNeedsLayout()`), on the
    /// app thread, inside the transaction being committed. Override it to
    /// lay out in a subclass: set each sublayer's `frame` (or `bounds` and
    /// `position`) in this layer's bounds space, points. The default asks
    /// the `layoutManager`, if any.
    open func layoutSublayers() { layoutState.manager?.layoutSublayers(of: self) }

    /// The size the layer would like to be, in its bounds space, points
    /// (CA's `preferredFrameSize()`, without the transform): the layout
    /// manager's `preferredSize(of:)` when it gives one, else the contents
    /// image's size in points, else the bounds size. `TextLayer` measures
    /// its text. Finite and not negative. Stacks read it as an item's
    /// base size.
    open var preferredSize: Size { measuredPreferredSize }

    /// The value a custom animatable property has until it is set (CA's
    /// `defaultValue(forKey:)`); `nil` for keys the class does not declare.
    open class func defaultValue(forKey key: String) -> AnimatableValue? { declaredProperty(named: key)?.defaultValue }

    /// True for custom properties whose change (or animation) redraws the
    /// layer's contents through `draw(in:)` (CA's `needsDisplay(forKey:)`).
    open class func needsDisplay(forKey key: String) -> Bool { declaredProperty(named: key)?.effect == .redraw }

    /// The animatable properties this class declares (`LayerProperty`),
    /// its superclass's included: the defaults, drawing, implicit
    /// animations and validation of their keys come from here. Return a
    /// stored `static let` array (it is read every frame while one
    /// animates; a literal would be a new array each time):
    ///
    ///     static let declared = [level.declaration, needle.declaration]
    ///     override class var declaredProperties: [LayerPropertyDeclaration] { declared }
    open class var declaredProperties: [LayerPropertyDeclaration] { [] }

    /// The names of the animatable properties this class adds to Layer's
    /// (`ShapeLayer`: `strokeEnd`, `path`…): animations of `.custom(name)`
    /// keys must name one of them, one with a `defaultValue(forKey:)`, one
    /// that `needsDisplay(forKey:)`, or one set with `setValue(_:forKey:)`
    /// — anything else is a typo `add(_:forKey:)` refuses. Subclasses add
    /// theirs to `super`'s.
    open class var customAnimatableKeys: [String] { [] }

    /// Whether this layer has the animatable property `key` (Layer's own,
    /// or a custom one: see `customAnimatableKeys`).
    public func hasAnimatableProperty(_ key: AnimatableKey) -> Bool {
        guard case let .custom(name) = key else { return true }
        return Self.customAnimatableKeys.contains(name) || Self.defaultValue(forKey: name) != nil
            || Self.needsDisplay(forKey: name) || actionState.customValues.contains { $0.key == name }
    }

    /// A copy of this layer's model properties for `presentation(at:)`
    /// and for the render tree's twins (CA's `init(layer:)`): a layer of
    /// the same class, no sublayers, no animations. A subclass with its own
    /// properties overrides it to make an instance of its class and
    /// `copyLayerState(from:)` to copy them.
    open func makePresentationCopy() -> Layer {
        let copy = Layer(name: name)
        copy.copyLayerState(from: self)
        return copy
    }

    /// Copies every model property of `other` — a layer of the same class,
    /// as `makePresentationCopy()` makes — into this one, except the tree,
    /// the animations, the delegate and the actions. Subclasses with stored
    /// properties override it, call `super` and copy theirs. The render
    /// tree uses it to update a twin in place (so its identity, and the
    /// compositor's caches keyed by it, last across commits).
    open func copyLayerState(from other: Layer) { copyModelProperties(from: other) }

    /// What the commit hand-off keeps on a model layer: its render-side
    /// twin (see `RenderTreeUpdate`). App-thread state.
    final var handOff = LayerHandOffState()

    /// First half of replacing a render-side twin's sublayers (render
    /// thread, `RenderTreeUpdate.apply`): its sublayers let go of it as
    /// their `superlayer`, except those another twin has taken already.
    final func detachRenderSublayers() {
        for old in sublayers where old.superlayer === self { old.superlayer = nil }
    }

    /// Second half: `list` becomes the sublayers and this twin their
    /// `superlayer`. `apply` detaches every changed list before it
    /// attaches any, so no twin ever has a loop of superlayers above it
    /// (a parent and child swapping places in one commit would otherwise
    /// make one between two entries).
    final func attachRenderSublayers(_ list: [Layer]) {
        sublayers = list
        for new in list { new.superlayer = self }
    }

    deinit {
        if let mask, mask.maskOwner === self { mask.maskOwner = nil }
        // A render-tree twin's former sublayer may have another superlayer
        // by now (its old parent was not in a later update).
        for sublayer in sublayers where sublayer.superlayer === self { sublayer.superlayer = nil }
        // The twin of a model layer is released on the render thread.
        if let twin = handOff.twin { RenderTreeUpdate.retire(twin) }
    }

    // MARK: Tree edits

    /// Appends `layer` as the frontmost sublayer, removing it from its old
    /// superlayer (possibly in another tree), or from the `mask` of the
    /// layer it masks, first.
    /// - Throws: `LayerTreeError.wouldCreateCycle` if `layer` is this layer
    ///   or one of its ancestors (the layers above, through superlayers and
    ///   the layers whose `mask` a layer on the way is); the tree is
    ///   unchanged then.
    public func addSublayer(_ layer: Layer) throws(LayerTreeError) {
        try insertSublayer(layer, at: sublayers.count - (layer.superlayer === self ? 1 : 0))
    }

    /// Inserts `layer` at `index` among the sublayers (0 is the back).
    public func insertSublayer(_ layer: Layer, at index: Int) throws(LayerTreeError) {
        var ancestor: Layer? = self
        while let a = ancestor {
            if a === layer { throw .wouldCreateCycle(layer: layer.name, into: name) }
            ancestor = a.superlayer ?? a.maskOwner     // a mask's layer is above it too
        }
        let count = sublayers.count - (layer.superlayer === self ? 1 : 0)
        guard index >= 0 && index <= count else { throw .indexOutOfRange(index, count: count) }
        willChangeSubtree(forKey: .sublayers, changes: true)
        // Out of where it was: a superlayer, or another layer's mask slot.
        if let owner = layer.maskOwner, owner.mask === layer { owner.mask = nil }
        layer.removeFromSuperlayer()
        sublayers.insert(layer, at: index)
        layer.superlayer = self
        didChangeSubtree()
        didInsertSublayerForLayout(layer)
    }

    public func insertSublayer(_ layer: Layer, above sibling: Layer) throws(LayerTreeError) {
        guard let i = sublayers.firstIndex(where: { $0 === sibling }) else { throw .notASublayer(sibling.name) }
        let adjust = layer.superlayer === self && (sublayers.firstIndex(where: { $0 === layer }) ?? Int.max) < i ? 1 : 0
        try insertSublayer(layer, at: i + 1 - adjust)
    }

    public func insertSublayer(_ layer: Layer, below sibling: Layer) throws(LayerTreeError) {
        guard let i = sublayers.firstIndex(where: { $0 === sibling }) else { throw .notASublayer(sibling.name) }
        let adjust = layer.superlayer === self && (sublayers.firstIndex(where: { $0 === layer }) ?? Int.max) < i ? 1 : 0
        try insertSublayer(layer, at: i - adjust)
    }

    /// Puts `newLayer` where `oldLayer` is.
    public func replaceSublayer(_ oldLayer: Layer, with newLayer: Layer) throws(LayerTreeError) {
        guard sublayers.contains(where: { $0 === oldLayer }) else { throw .notASublayer(oldLayer.name) }
        if oldLayer === newLayer { return }
        try insertSublayer(newLayer, above: oldLayer)
        oldLayer.removeFromSuperlayer()
    }

    /// Detaches this layer from its superlayer; a no-op when it has none.
    public func removeFromSuperlayer() {
        guard let parent = superlayer else { return }
        parent.willChangeSubtree(forKey: .sublayers, changes: true)
        if let i = parent.sublayers.firstIndex(where: { $0 === self }) { parent.sublayers.remove(at: i) }
        superlayer = nil
        parent.didChangeSubtree()
        parent.setNeedsLayout()
    }

    // MARK: Timing (CALayer adopts CAMediaTiming)

    /// When the layer's timeline starts, in its superlayer's time.
    public var beginTime: MediaTime { get { properties.beginTime } set { properties.beginTime = newValue } }
    /// How fast the layer's time runs against its superlayer's (0 pauses
    /// every animation in the subtree; NaN counts as 1).
    public var speed: Double { get { properties.speed } set { properties.speed = newValue } }
    /// Added to the layer's local time (with `speed` 0: where the subtree's
    /// animations stand — scrubbing).
    public var timeOffset: Double { get { properties.timeOffset } set { properties.timeOffset = newValue } }

    /// One pass of the layer's timeline, seconds; 0 (the default): the
    /// timeline is endless and the layer neither repeats nor ends, which is
    /// what almost every layer wants. With a positive `duration` the
    /// layer's local time runs through `0 ..< duration` and then follows
    /// `repeatCount`, `repeatDuration`, `autoreverses` and `fillMode` as an
    /// animation's does (`MediaTiming`), so every animation in the subtree
    /// repeats, reverses or stops with it.
    public var duration: Double { get { properties.duration } set { properties.duration = newValue } }
    /// Passes to play (with a positive `duration`); `.infinity` for ever,
    /// 0 means one.
    public var repeatCount: Double { get { properties.repeatCount } set { properties.repeatCount = newValue } }
    /// Seconds to repeat for, overriding `repeatCount` when positive.
    public var repeatDuration: Double { get { properties.repeatDuration } set { properties.repeatDuration = newValue } }
    /// Each pass plays forwards, then backwards.
    public var autoreverses: Bool { get { properties.autoreverses } set { properties.autoreverses = newValue } }
    /// What the layer's timeline does before `beginTime` and after its
    /// active duration (with a positive `duration`): `.removed` (default):
    /// its time is −∞ before and +∞ after, so the subtree's animations
    /// show what they show before they start or once they are over (the
    /// model, or their own fill); `.forwards`/`.backwards`/`.both` hold the
    /// timeline's end or start instead.
    public var fillMode: FillMode { get { properties.fillMode } set { properties.fillMode = newValue } }

    /// The layer's timing as one value (CALayer adopts CAMediaTiming).
    public var timing: MediaTiming {
        var m = MediaTiming()
        m.beginTime = beginTime; m.speed = speed; m.timeOffset = timeOffset; m.duration = duration
        m.repeatCount = repeatCount; m.repeatDuration = repeatDuration; m.autoreverses = autoreverses; m.fillMode = fillMode
        return m
    }

    /// Whether the layer's timeline repeats or ends (a positive, finite
    /// `duration`); such a timeline cannot be mapped back to its parent's.
    /// (`@usableFromInline`: the board build, Embedded Swift, inlines
    /// `localTime(fromParent:)` into other modules, which then reach it.)
    @usableFromInline var hasFiniteTimeline: Bool { duration > 0 && duration.isFinite }

    /// This layer's local time for its superlayer's time `t`:
    /// `(t − beginTime) · speed + timeOffset` (CAMediaTiming's active local
    /// time), `timeOffset` alone while paused (`speed` 0). With a positive
    /// `duration` the time then runs as an animation's does (see
    /// `duration`); outside its active duration without a fill it is
    /// −∞ before and +∞ after (see `fillMode`).
    /// Non-finite settings are ignored.
    public func localTime(fromParent t: MediaTime) -> MediaTime {
        if hasFiniteTimeline {
            var m = timing
            if !m.beginTime.isFinite { m.beginTime = 0 }
            if !m.timeOffset.isFinite { m.timeOffset = 0 }
            guard let state = m.state(atParentTime: t, default: m.duration) else {
                return t < m.beginTime ? -.infinity : .infinity
            }
            return state.localTime
        }
        let s = speed.isNaN ? 1 : speed
        let b = beginTime.isFinite ? beginTime : 0, o = timeOffset.isFinite ? timeOffset : 0
        if s == 1 && b == 0 && o == 0 { return t }
        if s == 0 { return o }
        return (t - b) * s + o
    }

    /// Converts a time from `layer`'s local time (`nil`: the global media
    /// time the root's superlayer runs on) to this layer's (CA's
    /// `convertTime(_:from:)`). Both layers must be in one tree for a
    /// meaningful result; a paused layer on the way maps every time to its
    /// `timeOffset`, and going back up through it is not invertible (the
    /// time is returned unchanged there).
    public func convertTime(_ t: MediaTime, from layer: Layer?) -> MediaTime {
        var global = t
        var l = layer
        while let current = l {                    // up from `layer` to global time
            let s = current.speed.isNaN ? 1 : current.speed
            if s != 0 { global = (global - current.timeOffset) / s + current.beginTime }
            l = current.superlayer
        }
        var chain: [Layer] = []
        l = self
        while let current = l { chain.append(current); l = current.superlayer }
        var local = global
        for current in chain.reversed() { local = current.localTime(fromParent: local) }
        return local
    }

    // MARK: Animations

    /// Attaches `animation` under `key`, replacing any animation with that
    /// key. A `beginTime` of 0 means "now": it is set to `time`.
    /// `time` is global media time (what the display clock says); the
    /// animation's `beginTime` is kept in this layer's local time.
    public func add(_ animation: Animation, forKey key: String, at time: MediaTime) {
        var a = withTransitionImage(animation, forKey: key, at: time)   // Layer+Transition.swift
        if a.timing.beginTime == 0 { a.timing.beginTime = convertTime(time, from: nil) }
        removeAnimation(forKey: key)
        animations.append((key, a))
        didAddAnimation(forKey: key)
    }

    public func add(_ animation: BasicAnimation, forKey key: String, at time: MediaTime) {
        add(.basic(animation), forKey: key, at: time)
    }

    public func add(_ animation: KeyframeAnimation, forKey key: String, at time: MediaTime) {
        add(.keyframe(animation), forKey: key, at: time)
    }

    public func add(_ group: AnimationGroup, forKey key: String, at time: MediaTime) {
        add(.group(group), forKey: key, at: time)
    }

    public func add(_ animation: SpringAnimation, forKey key: String, at time: MediaTime) {
        add(.spring(animation), forKey: key, at: time)
    }

    /// The animation attached under `key`.
    public func animation(forKey key: String) -> Animation? {
        animations.first { $0.key == key }?.animation
    }

    public func removeAnimation(forKey key: String) {
        animations.removeAll { $0.key == key }
    }

    public func removeAllAnimations() { animations.removeAll() }

    /// Drops animations that have finished by `time` and do not fill
    /// forwards (CA's `isRemovedOnCompletion`).
    public func removeFinishedAnimations(at time: MediaTime) {
        let local = localTime(fromParent: time)
        animations.removeAll { $0.animation.isRemovedOnCompletion && $0.animation.hasFinished(at: local) }
    }

    /// True when this layer or a descendant has an animation running at
    /// `time`, this layer's superlayer's time (global time for a root), or
    /// is a `TiledLayer` with tiles being drawn, arrived or fading in, or an
    /// `EmitterLayer` emitting. A paused subtree (`speed` 0) runs nothing.
    public func hasRunningAnimations(at time: MediaTime) -> Bool {
        guard speed != 0 else { return false }      // paused: nothing in the subtree moves
        let local = localTime(fromParent: time)
        if animations.contains(where: { !$0.animation.hasFinished(at: local) }) { return true }
        if (drawsInTiles || drawsOwnContent) && hasPendingContent(at: local) { return true }
        return sublayers.contains { $0.hasRunningAnimations(at: local) }
    }
}
