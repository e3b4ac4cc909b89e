import Raster

/// A layer's backing store and what must be redrawn in it, kept between
/// frames so that redrawing an animated layer allocates nothing in steady
/// state. The store's image becomes the layer's `contents`.
final class LayerDisplayStore {
    var surface: Surface<ARGB8888>?
    var contents: LayerContents?
    let rasterizer = PathRasterizer()
    var scratch: [(key: AnimatableKey, value: AnimatableValue)] = []
    /// Bounds space; `nil`: no partial redraw pending (`needsDisplay` in the
    /// action state asks for all of it).
    var dirty: Rect?
    /// The bounds and density the surface was drawn for.
    var drawnBounds = Rect.zero
    var drawnScale = 0.0
    /// The last drawing used animated values, so the model values must be
    /// drawn once the animation is gone.
    var lastDrawWasAnimated = false
    /// `draw(in:)` calls, for tests.
    var drawCount = 0
    /// A render-tree twin whose `draw(in:)` drew nothing on the render
    /// thread (a `drawHandler` layer): `displayOnRenderThreadIfAnimated`
    /// leaves it alone.
    var drawsNothingOnRenderThread = false
    /// The context of the last draw, made again for the next.
    var context: DrawingContext?
    init() {}
}

/// Where `draw(in:)` paints: the layer's backing store, in the layer's
/// bounds space (points; `transform` maps them to backing-store pixels),
/// clipped to `dirtyRect`. Valid only during the call.
public final class DrawingContext {
    /// The layer's bounds (presentation value), points.
    public private(set) var bounds: Rect
    /// The part being redrawn, in bounds space; drawing outside it is
    /// clipped away. All of `bounds` after `setNeedsDisplay()`.
    public private(set) var dirtyRect: Rect
    /// Backing-store pixels per point.
    public private(set) var contentsScale: Double
    /// Bounds space → backing-store pixels.
    public private(set) var transform: AffineTransform
    /// The backing store, clipped to the dirty rectangle, for drawing with
    /// Raster directly (pass `rasterizer` to its path fills).
    public private(set) var canvas: Canvas
    /// A rasterizer kept by the layer, so drawing each frame reuses its
    /// buffers.
    public let rasterizer: PathRasterizer
    unowned(unsafe) let layer: Layer
    /// Set by the default `draw(in:)`: nothing was drawn (no backing store).
    var drewNothing = false

    /// Working storage kept from draw to draw: the outline of the last
    /// stroke, the path of the last rectangle filled.
    private var outline = Path()
    private var rectangle = Path()
    private let strokeScratch = StrokeScratch()

    init(bounds: Rect, dirtyRect: Rect, contentsScale: Double, transform: AffineTransform, canvas: Canvas,
         rasterizer: PathRasterizer, layer: Layer) {
        self.bounds = bounds; self.dirtyRect = dirtyRect; self.contentsScale = contentsScale
        self.transform = transform; self.canvas = canvas; self.rasterizer = rasterizer; self.layer = layer
    }

    /// The same context for the next draw of its layer.
    func reset(bounds: Rect, dirtyRect: Rect, contentsScale: Double, transform: AffineTransform, canvas: Canvas) {
        self.bounds = bounds; self.dirtyRect = dirtyRect; self.contentsScale = contentsScale
        self.transform = transform; self.canvas = canvas
        drewNothing = false
    }

    /// The custom property `key` as drawn (its presentation value while it
    /// animates): the same as `layer.value(forKey:)` during drawing.
    public func value(forKey key: String) -> AnimatableValue? { layer.value(forKey: key) }

    /// `value(forKey:)` as a number, `nil` for other kinds.
    public func scalar(forKey key: String) -> Double? { value(forKey: key)?.scalarValue }

    /// Fills `path` (bounds space), anti-aliased, source-over.
    public func fill(_ path: Path, color: Color, rule: FillRule = .nonZero) {
        guard color.alpha > 0 else { return }
        canvas.fill(path, color: color.premultiplied, rule: rule, transform: transform, using: rasterizer)
    }

    /// Fills a rectangle (bounds space).
    public func fill(_ rect: Rect, color: Color) {
        rectangle.removeAll(keepingCapacity: true)
        rectangle.addRect(rect.minX, rect.minY, rect.width, rect.height)
        fill(rectangle, color: color)
    }

    /// Strokes `path` with `style` (widths in points). The outline is made
    /// in storage the context keeps, so a layer redrawn every frame strokes
    /// without allocating once it has grown.
    public func stroke(_ path: Path, style: StrokeStyle, color: Color) {
        path.stroke(style, transform: transform, into: &outline, scratch: strokeScratch)
        fill(outline, color: color)
    }

    /// Draws `image` stretched over `rect` (bounds space), bilinear.
    public func draw(_ image: PixelView<ARGB8888>, in rect: Rect) {
        guard image.width > 0, image.height > 0, rect.width > 0, rect.height > 0, rect.isFinite else { return }
        let place = AffineTransform(a: rect.width / Double(image.width), b: 0, c: 0, d: rect.height / Double(image.height),
                                    tx: rect.minX, ty: rect.minY).concatenating(transform)
        let paint = ImagePaint(image: image, transform: place, filter: .bilinear, edge: .transparent)
        let area = projectedBox(rect, ProjectiveTransform(transform))
        canvas.fill(area.enclosingIntRect.intersection(canvas.clip), paint: paint, operator: .srcOver)
    }
}

extension Layer {
    /// Largest side of a backing store in pixels: a larger layer is drawn
    /// at a lower density (and a warning names it).
    public static let maximumBackingStoreSide = 4096

    /// Asks for the whole backing store to be redrawn (`draw(in:)`) before
    /// the next frame.
    public func setNeedsDisplay() { actionState.needsDisplay = true; noteModelChange() }

    /// Asks for `rect` (bounds space) to be redrawn before the next frame;
    /// `draw(in:)` gets the union of what was marked as its dirty
    /// rectangle and clip. A non-finite rectangle marks everything.
    public func setNeedsDisplay(in rect: Rect) {
        guard rect.isFinite else { setNeedsDisplay(); return }
        noteModelChange()
        let store = displayStore
        let r = Rect(x: rect.minX, y: rect.minY, width: rect.maxX - rect.minX, height: rect.maxY - rect.minY)
        if let d = store.dirty {
            let x0 = Swift.min(d.minX, r.minX), y0 = Swift.min(d.minY, r.minY)
            store.dirty = Rect(x: x0, y: y0, width: Swift.max(d.maxX, r.maxX) - x0, height: Swift.max(d.maxY, r.maxY) - y0)
        } else {
            store.dirty = r
        }
    }

    /// True when the layer will redraw (some of) its backing store before
    /// the next frame.
    public var needsDisplay: Bool { actionState.needsDisplay || actionState.displayStore?.dirty != nil }

    /// `draw(in:)` calls so far (tests).
    public var drawCount: Int { actionState.displayStore?.drawCount ?? 0 }

    /// Redraws this layer and, recursively, every sublayer (and mask) that
    /// needs it: those marked with `setNeedsDisplay()` (or `in:`), those
    /// whose bounds size changed with `needsDisplayOnBoundsChange`, and
    /// those with an animation of a key their class `needsDisplay(forKey:)`
    /// — every frame while it is on the layer, and once more with the model
    /// values when it is gone. `time` is global media time (the frame's).
    /// Called by the compositor before drawing; cheap for layers that draw
    /// nothing (no allocation, a few checks each).
    ///
    /// Threading: it runs app code (`draw(in:)`) and writes `contents`, so
    /// it runs on the app thread: `RenderLoop` runs it at each commit
    /// (`RenderTreeUpdate`); the render thread's compositor redraws only
    /// twins whose drawn properties animate, each frame
    /// (`displayOnRenderThreadIfAnimated`).
    public func displayIfNeeded(at time: MediaTime, depth: Int = 0) {
        guard depth < Compositor.maximumDepth else { return }
        let local = localTime(fromParent: time)
        displaySelfIfNeeded(atLocalTime: local)
        if let mask { mask.displayIfNeeded(at: local, depth: depth + 1) }
        let children = sublayers
        var i = 0
        while i < children.count { children[i].displayIfNeeded(at: local, depth: depth + 1); i += 1 }
    }

    /// `displayIfNeeded(at:)` for this layer alone, at its local time `t`.
    func displaySelfIfNeeded(atLocalTime t: MediaTime) {
        let animated = hasAnimationNeedingDisplay()
        let store = actionState.displayStore
        var needed = actionState.needsDisplay || animated || store?.dirty != nil || (store?.lastDrawWasAnimated ?? false)
        if !needed, needsDisplayOnBoundsChange, let store, store.surface != nil,
           store.drawnBounds.size != PresentationValues(self, at: t).bounds.size {
            actionState.needsDisplay = true
            needed = true
        }
        if needed { display(atLocalTime: t, animated: animated) }
    }

    /// The render thread's display pass for one render-tree twin: while a
    /// property the layer draws (`needsDisplay(forKey:)`) animates, and
    /// once more after, `draw(in:)` redraws the twin's own backing store
    /// every frame with that frame's presentation values, so the drawing
    /// moves on while the app thread is blocked (the app thread still
    /// redraws the model's at each commit). Called by the survey of a
    /// compositor that does not run the app-side pass (`RenderLoop`'s);
    /// `parentTime` is the superlayer's local time (the layer's own is
    /// worked out only for a layer that draws). Returns true when it drew.
    ///
    /// Threading: this runs `draw(in:)` on the render thread, on the twin
    /// (`makePresentationCopy()`, CA's `init(layer:)`), so an override must
    /// read only the layer's own state: its properties, custom values
    /// (`value(forKey:)`) and what `makePresentationCopy()` copies, never
    /// app objects. A layer drawn by a `drawHandler` closure (app code with
    /// its captures; not copied to twins) is not redrawn here: its twin
    /// finds nothing drawn once and keeps the contents of the commits.
    @discardableResult
    func displayOnRenderThreadIfAnimated(parentTime: MediaTime) -> Bool {
        guard redisplaysEveryCommit, !(actionState.displayStore?.drawsNothingOnRenderThread ?? false) else { return false }
        display(atLocalTime: localTime(fromParent: parentTime), animated: hasAnimationNeedingDisplay(), onRenderThread: true)
        return !(actionState.displayStore?.drawsNothingOnRenderThread ?? false)
    }

    /// True when the next commit must run this layer's display pass even
    /// if nothing is set in between: a property it draws is animating, or
    /// its last drawing was of an animation (redrawn once more with the
    /// model values).
    var redisplaysEveryCommit: Bool {
        hasAnimationNeedingDisplay() || (actionState.displayStore?.lastDrawWasAnimated ?? false)
    }

    func hasAnimationNeedingDisplay() -> Bool {
        let list = animations
        var i = 0
        while i < list.count { if list[i].animation.touchesKeyNeedingDisplay(Self.self) { return true }; i += 1 }
        return false
    }

    /// Redraws the whole backing store now, at global media time `time`,
    /// with every custom property at its presentation value.
    public func display(at time: MediaTime) {
        actionState.needsDisplay = true
        display(atLocalTime: convertTime(time, from: nil), animated: hasAnimationNeedingDisplay())
    }

    var displayStore: LayerDisplayStore {
        if let s = actionState.displayStore { return s }
        let s = LayerDisplayStore()
        actionState.displayStore = s
        return s
    }

    private func display(atLocalTime t: MediaTime, animated: Bool, onRenderThread: Bool = false) {
        let store = displayStore
        noteModelChange()                  // the backing store handed over changes
        var full = actionState.needsDisplay || animated || store.lastDrawWasAnimated
        let marked = store.dirty
        actionState.needsDisplay = false
        store.dirty = nil
        if drawsInTiles { invalidateTiles(in: full ? nil : marked); return }   // TiledLayer: no backing store
        let bounds = PresentationValues(self, at: t).bounds
        guard bounds.isFinite, bounds.width > 0, bounds.height > 0 else { return }
        var scale = contentsScale
        if !(scale > 0 && scale.isFinite) {
            Diagnostics.warn(self, "contentsScale", "contentsScale \(scale) is not positive and finite; drawing at 1")
            scale = 1
        }
        let side = Double(Layer.maximumBackingStoreSide)
        if bounds.width * scale > side || bounds.height * scale > side {
            Diagnostics.warn(self, "size",   // the compositor warns about a huge layer under the same kind: once
                             "a backing store of \(bounds.width) × \(bounds.height) points at scale \(scale) exceeds \(Layer.maximumBackingStoreSide) pixels a side; drawn at a lower density")
            scale = Swift.min(side / bounds.width, side / bounds.height)
        }
        let width = Swift.max(1, Int((bounds.width * scale).rounded(.up))), height = Swift.max(1, Int((bounds.height * scale).rounded(.up)))
        if store.surface?.width != width || store.surface?.height != height {
            guard let s = Surface<ARGB8888>(width: width, height: height) else { return }
            store.surface = s
            store.contents = LayerContents(s)
            full = true
        }
        if store.drawnBounds != bounds || store.drawnScale != scale { full = true }
        guard let surface = store.surface else { return }
        store.drawnBounds = bounds
        store.drawnScale = scale
        var dirty = bounds
        if !full, let r = marked {
            let x0 = Swift.max(r.minX, bounds.minX), y0 = Swift.max(r.minY, bounds.minY)
            dirty = Rect(x: x0, y: y0, width: Swift.min(r.maxX, bounds.maxX) - x0, height: Swift.min(r.maxY, bounds.maxY) - y0)
            guard dirty.width > 0, dirty.height > 0 else { return }
        }
        let toPixels = AffineTransform(a: scale, b: 0, c: 0, d: scale, tx: -bounds.minX * scale, ty: -bounds.minY * scale)
        let x0 = Int(((dirty.minX - bounds.minX) * scale).rounded(.down)), y0 = Int(((dirty.minY - bounds.minY) * scale).rounded(.down))
        let x1 = Int(((dirty.maxX - bounds.minX) * scale).rounded(.up)), y1 = Int(((dirty.maxY - bounds.minY) * scale).rounded(.up))
        let clip = IntRect(x: x0, y: y0, width: x1 - x0, height: y1 - y0).intersection(surface.view.bounds)
        guard !clip.isEmpty else { return }
        var canvas = Canvas(surface.view)
        canvas.clip(to: clip)
        var y = clip.y
        while y < clip.y + clip.height { (surface.view.row(y) + clip.x).update(repeating: 0, count: clip.width); y += 1 }
        // The presentation values of the custom keys being drawn, reusing
        // the array's storage from the last frame.
        var drawValues = actionState.drawValues
        actionState.drawValues = []
        drawValues.removeAll(keepingCapacity: true)
        // Index loops, no closures: this runs every frame while a drawn
        // property animates, and both allocate in debug builds.
        let set = actionState.customValues
        var i = 0
        while i < set.count {
            drawValues.append((set[i].key, customPresentationValue(forKey: set[i].key, atLocalTime: t) ?? .scalar(0)))
            i += 1
        }
        let list = animations
        i = 0
        while i < list.count { appendDrawValues(of: list[i].animation, at: t, into: &drawValues); i += 1 }
        actionState.drawValues = drawValues
        // One context per layer, made again for each draw with its working
        // storage (stroke outlines, rectangles) kept.
        let context: DrawingContext
        if let kept = store.context {
            kept.reset(bounds: bounds, dirtyRect: dirty, contentsScale: scale, transform: toPixels, canvas: canvas)
            context = kept
        } else {
            context = DrawingContext(bounds: bounds, dirtyRect: dirty, contentsScale: scale, transform: toPixels,
                                     canvas: canvas, rasterizer: store.rasterizer, layer: self)
            store.context = context
        }
        actionState.isDrawing = true
        store.drawCount += 1
        draw(in: context)
        actionState.isDrawing = false
        store.lastDrawWasAnimated = animated
        if context.drewNothing {
            if onRenderThread {
                // A twin of a layer drawn by its `drawHandler`: the commits'
                // contents stay, and it is not tried again.
                store.drawsNothingOnRenderThread = true
                store.lastDrawWasAnimated = false
                store.surface = nil
                store.contents = nil
                return
            }
            if contents === store.contents { setContentsWithoutActions(nil) }
            store.surface = nil
            store.contents = nil
            return
        }
        store.contents?.contentsDidChange()      // new pixels: the damage tracker must see them
        if contents !== store.contents { setContentsWithoutActions(store.contents) }
    }

    /// Appends the presentation value of each custom property `animation`
    /// (or a member of it) drives that `values` does not hold yet.
    private func appendDrawValues(of animation: Animation, at t: MediaTime,
                                  into values: inout [(key: String, value: AnimatableValue)]) {
        if let name = animation.customKeyName {
            var j = 0
            while j < values.count { if values[j].key == name { return }; j += 1 }
            if let v = customPresentationValue(forKey: name, atLocalTime: t) { values.append((name, v)) }
        } else if case let .group(g) = animation {
            var k = 0
            while k < g.animations.count { appendDrawValues(of: g.animations[k], at: t, into: &values); k += 1 }
        }
    }
}
