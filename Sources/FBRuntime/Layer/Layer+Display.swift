import Raster

/// A layer's backing store: a bitmap of its bounds at `contentsScale`
/// pixels per point that `draw(in:)` paints, shown between the contents
/// image and the sublayers. Kept until the layer is redrawn.
final class LayerDisplay {
    var surface: Surface<ARGB8888>?
    /// The bounds the surface was drawn for.
    var drawnBounds = Rect.zero
    var drawnScale = 0.0
    /// Bounds space; `nil`: nothing to redraw (unless `dirtyAll`).
    var dirty: Rect?
    /// Everything must be redrawn.
    var dirtyAll = false
    var isDirty: Bool { dirtyAll || dirty != nil }
    /// The last drawing used animated (presentation) values, so the model
    /// values must be drawn once the animation is gone.
    var lastDrawWasAnimated = false
    /// `draw(in:)` calls, for tests and statistics.
    var drawCount = 0
    let rasterizer = PathRasterizer()
    init() {}
}

/// Where `draw(in:)` paints: the layer's backing store, in the layer's
/// bounds space (points; `transform` maps them to backing-store pixels),
/// clipped to `dirtyRect`.
public final class DrawingContext {
    /// The layer's bounds, points.
    public let bounds: Rect
    /// The part being redrawn, in bounds space; drawing outside it is
    /// clipped away.
    public let dirtyRect: Rect
    /// Backing-store pixels per point.
    public let contentsScale: Double
    /// Bounds space → backing-store pixels.
    public let transform: AffineTransform
    let canvas: Canvas
    let rasterizer: PathRasterizer
    unowned(unsafe) let layer: Layer
    /// The layer's local time when redrawing for an animation of a
    /// `needsDisplay(forKey:)` property; `nil`: model values.
    let time: MediaTime?
    /// Set by the default `draw(in:)`: nothing was drawn (no backing store).
    var drewNothing = false

    init(bounds: Rect, dirtyRect: Rect, contentsScale: Double, transform: AffineTransform, canvas: Canvas,
         rasterizer: PathRasterizer, layer: Layer, time: MediaTime?) {
        self.bounds = bounds; self.dirtyRect = dirtyRect; self.contentsScale = contentsScale
        self.transform = transform; self.canvas = canvas; self.rasterizer = rasterizer
        self.layer = layer; self.time = time
    }

    /// The value of the custom property `key` to draw with: the
    /// presentation value while it is animated (the interpolated value of
    /// this frame), else the model value.
    public func value(forKey key: String) -> AnimatableValue? {
        if let time { return layer.presentationValue(forCustomKey: key, atLocalTime: time) }
        return layer.value(forCustomKey: key)
    }

    /// `value(forKey:)` as a number, `nil` for other kinds.
    public func scalar(forKey key: String) -> Double? {
        if case let .scalar(v)? = value(forKey: key) { return v }
        return nil
    }

    /// Fills `path` (bounds space), anti-aliased.
    public func fill(_ path: Path, color: Color, rule: FillRule = .nonZero) {
        guard color.alpha > 0, let kernel = KernelTable.solidMask(.srcOver, color: color.premultiplied.argb, alpha: 255, family: canvas.family)
        else { return }
        let target = canvas.target, argb = color.premultiplied.argb
        rasterizer.fill(path, transform: transform, rule: rule, clip: canvas.clip) { y, x, coverage, count in
            kernel(target.row(y) + x, coverage, count, argb, 255)
        }
    }

    /// Fills a rectangle (bounds space).
    public func fill(_ rect: Rect, color: Color) {
        var p = Path()
        p.addRect(rect.minX, rect.minY, rect.width, rect.height)
        fill(p, color: color)
    }

    /// Strokes `path` with `style` (widths in points).
    public func stroke(_ path: Path, style: StrokeStyle, color: Color) {
        fill(path.stroked(style, transform: transform), color: color)
    }

    /// Draws `image` stretched over `rect` (bounds space), bilinear.
    public func draw(_ image: PixelView<ARGB8888>, in rect: Rect) {
        guard image.width > 0, image.height > 0, rect.width > 0, rect.height > 0, rect.isFinite else { return }
        let place = AffineTransform(a: rect.width / Double(image.width), b: 0, c: 0, d: rect.height / Double(image.height),
                                    tx: rect.minX, ty: rect.minY).concatenating(transform)
        let paint = ImagePaint(image: image, transform: place, filter: .bilinear, edge: .transparent)
        let box = BoundingBox(minX: rect.minX, minY: rect.minY, maxX: rect.maxX, maxY: rect.maxY)
        let corners = [transform.apply(PathPoint(x: box.minX, y: box.minY)), transform.apply(PathPoint(x: box.maxX, y: box.maxY))]
        let area = BoundingBox(minX: Swift.min(corners[0].x, corners[1].x), minY: Swift.min(corners[0].y, corners[1].y),
                               maxX: Swift.max(corners[0].x, corners[1].x), maxY: Swift.max(corners[0].y, corners[1].y))
        canvas.fill(area.enclosingIntRect.intersection(canvas.clip), paint: paint, operator: .srcOver)
    }
}

extension Layer {
    /// Largest side of a backing store in pixels: a larger layer is drawn
    /// at a lower density (and a warning names it).
    public static let maximumBackingStoreSide = 4096

    /// Marks the whole layer for redrawing before it is next shown.
    public func setNeedsDisplay() {
        let state = display ?? LayerDisplay()
        display = state
        state.dirtyAll = true
    }

    /// Marks `rect` (bounds space) for redrawing; `draw(in:)` gets it (the
    /// union of what was marked) as its dirty rectangle.
    public func setNeedsDisplay(in rect: Rect) {
        guard rect.isFinite else { setNeedsDisplay(); return }
        let state = display ?? LayerDisplay()
        display = state
        let r = Rect(x: rect.minX, y: rect.minY, width: rect.maxX - rect.minX, height: rect.maxY - rect.minY)
        if let d = state.dirty {
            let x0 = Swift.min(d.minX, r.minX), y0 = Swift.min(d.minY, r.minY)
            state.dirty = Rect(x: x0, y: y0, width: Swift.max(d.maxX, r.maxX) - x0, height: Swift.max(d.maxY, r.maxY) - y0)
        } else {
            state.dirty = r
        }
    }

    /// True when part of the layer is marked for redrawing.
    public var needsDisplay: Bool { display?.isDirty ?? false }

    /// Redraws what is marked, now (the compositor does this before
    /// drawing the layer).
    public func displayIfNeeded() {
        guard let state = display, state.isDirty else { return }
        redraw(state, time: nil)
    }

    /// `draw(in:)` calls so far (tests).
    public var drawCount: Int { display?.drawCount ?? 0 }

    /// True when an animation of a property that needs display is attached.
    func hasAnimationNeedingDisplay() -> Bool {
        func touches(_ a: Animation) -> Bool {
            switch a {
            case let .basic(b): if case let .custom(name) = b.key { return needsDisplay(forKey: name) }
            case let .keyframe(k): if case let .custom(name) = k.key { return needsDisplay(forKey: name) }
            case let .group(g): return g.animations.contains(where: touches)
            }
            return false
        }
        return animations.contains { touches($0.animation) }
    }

    /// The compositor's step: redraw if marked or animated, then show the
    /// backing store over the bounds.
    func drawBackingStore(_ d: OwnContentDrawing) {
        guard let state = display else { return }
        if hasAnimationNeedingDisplay() {
            state.dirtyAll = true
            redraw(state, time: d.localTime)
            state.lastDrawWasAnimated = true
        } else if state.lastDrawWasAnimated {
            state.dirtyAll = true
            redraw(state, time: nil)
            state.lastDrawWasAnimated = false
        } else if needsDisplayOnBoundsChange, state.surface != nil,
                  state.drawnBounds.size != d.bounds.size {
            state.dirtyAll = true
            redraw(state, time: nil)
        } else if state.isDirty {
            redraw(state, time: nil)
        }
        guard let surface = state.surface else { return }
        d.draw(surface.view, in: d.bounds)   // stretched when the bounds changed since
    }

    /// Redraws the dirty part of the backing store (all of it when its size
    /// or scale changed).
    func redraw(_ state: LayerDisplay, time: MediaTime?) {
        defer { state.dirty = nil; state.dirtyAll = false }
        let b = geometry.bounds
        guard b.isFinite, b.width > 0, b.height > 0 else { state.surface = nil; return }
        var scale = contentsScale
        if !(scale > 0 && scale.isFinite) {
            Diagnostics.warn(self, "contentsScale", "contentsScale \(scale) is not positive and finite; drawing at 1")
            scale = 1
        }
        let side = Double(Layer.maximumBackingStoreSide)
        if b.width * scale > side || b.height * scale > side {
            Diagnostics.warn(self, "backingStoreSize",
                             "backing store of \(b.width) × \(b.height) points at scale \(scale) exceeds \(Layer.maximumBackingStoreSide) pixels a side; drawn at a lower density")
            scale = Swift.min(side / b.width, side / b.height)
        }
        let w = Swift.max(1, Int((b.width * scale).rounded(.up))), h = Swift.max(1, Int((b.height * scale).rounded(.up)))
        var full = false
        if state.surface?.width != w || state.surface?.height != h || state.drawnScale != scale || state.drawnBounds != b {
            state.surface = Surface<ARGB8888>(width: w, height: h)
            full = true
        }
        guard let surface = state.surface else { return }
        state.drawnBounds = b
        state.drawnScale = scale
        let toPixels = AffineTransform(a: scale, b: 0, c: 0, d: scale, tx: -b.minX * scale, ty: -b.minY * scale)
        var dirty = b
        if !full && !state.dirtyAll, let r = state.dirty {
            let x0 = Swift.max(r.minX, b.minX), y0 = Swift.max(r.minY, b.minY)
            dirty = Rect(x: x0, y: y0, width: Swift.min(r.maxX, b.maxX) - x0, height: Swift.min(r.maxY, b.maxY) - y0)
        }
        guard dirty.width > 0, dirty.height > 0 else { return }
        let x0 = Int((dirty.minX * scale - b.minX * scale).rounded(.down)), y0 = Int((dirty.minY * scale - b.minY * scale).rounded(.down))
        let x1 = Int((dirty.maxX * scale - b.minX * scale).rounded(.up)), y1 = Int((dirty.maxY * scale - b.minY * scale).rounded(.up))
        let clip = IntRect(x: x0, y: y0, width: x1 - x0, height: y1 - y0).intersection(surface.view.bounds)
        guard !clip.isEmpty else { return }
        var canvas = Canvas(surface.view)
        canvas.clip(to: clip)
        var y = clip.y
        while y < clip.y + clip.height { (surface.view.row(y) + clip.x).update(repeating: 0, count: clip.width); y += 1 }
        let context = DrawingContext(bounds: b, dirtyRect: dirty, contentsScale: scale, transform: toPixels, canvas: canvas,
                                     rasterizer: state.rasterizer, layer: self, time: time)
        state.drawCount += 1
        draw(in: context)
        if context.drewNothing { state.surface = nil }
    }
}
