import Raster

/// Where a layer draws its own contents (`Layer.draw(in:)`): a canvas over
/// the layer's backing image and the map from the layer's bounds space
/// (points) to its pixels (`contentsScale`).
public struct LayerDrawingContext {
    /// Draw here; the image starts cleared to transparent.
    public var canvas: Canvas
    /// Bounds space (points) → pixels of the backing image.
    public var transform: AffineTransform
    /// The bounds being drawn (presentation value), points.
    public var bounds: Rect
    /// A rasterizer to pass to `Canvas.fill(_:color:…using:)`, kept by the
    /// layer so drawing each frame reuses its buffers.
    public var rasterizer: PathRasterizer
}

/// Backing store and scratch space for `display(at:)`, kept between frames
/// so that redrawing an animated layer allocates nothing in steady state.
final class LayerDisplayStore {
    var surface: Surface<ARGB8888>?
    var contents: LayerContents?
    let rasterizer = PathRasterizer()
    var scratch: [(key: AnimatableKey, value: AnimatableValue)] = []
    init() {}
}

// Custom animatable properties (CA's @NSManaged properties with
// `defaultValue(forKey:)` and `needsDisplay(forKey:)`): a subclass declares
// one by giving it a default value and typed accessors over
// `value(forKey:)` / `setValue(_:forKey:)`:
//
//     final class CurveLayer: Layer {
//         override class func defaultValue(forKey key: String) -> AnimatableValue? {
//             key == "lineWidth" ? .scalar(1) : super.defaultValue(forKey: key)
//         }
//         override class func needsDisplay(forKey key: String) -> Bool {
//             key == "lineWidth" || super.needsDisplay(forKey: key)
//         }
//         var lineWidth: Double {
//             get { value(forKey: "lineWidth")?.scalarValue ?? 1 }
//             set { setValue(.scalar(newValue), forKey: "lineWidth") }
//         }
//         override func draw(in context: LayerDrawingContext) { … uses lineWidth … }
//     }
//
// Animations name the property `.custom("lineWidth")` (or
// `AnimatableKey(path: "lineWidth")`); setting it runs actions like any
// property (there is no implicit animation by default, as in CA: give one in
// `actions`, the delegate or `defaultAction(forKey:)`). While an animation
// of a key that `needsDisplay(forKey:)` is on the layer, the layer redraws
// every frame with the interpolated value (`displayIfNeeded(at:)`, which the
// compositor calls before it draws a frame).
extension Layer {
    /// The model value of a custom property: the value set, else the
    /// class's `defaultValue(forKey:)`. While the layer draws
    /// (`draw(in:)`), the presentation value being drawn.
    public func value(forKey key: String) -> AnimatableValue? {
        if actionState.isDrawing, let v = actionState.drawValues.first(where: { $0.key == key })?.value { return v }
        return modelValue(forKey: key)
    }

    /// Sets a custom property (`nil` returns it to its default). Runs the
    /// action for `.custom(key)` like any animatable property, and marks
    /// the layer as needing display when `needsDisplay(forKey:)` says so.
    public func setValue(_ value: AnimatableValue?, forKey key: String) {
        willChangeValue(forKey: .custom(key))
        actionState.customValues.removeAll { $0.key == key }
        if let value { actionState.customValues.append((key, value)) }
        if Self.needsDisplay(forKey: key) { actionState.needsDisplay = true }
        didChangeValues()
    }

    func modelValue(forKey key: String) -> AnimatableValue? {
        actionState.customValues.first { $0.key == key }?.value ?? Self.defaultValue(forKey: key)
    }

    /// The presentation value of a custom property at the layer's local
    /// time `t`: the model value with the animations of that key applied
    /// in order (CA's sandwich model).
    func customPresentationValue(forKey name: String, atLocalTime t: MediaTime) -> AnimatableValue? {
        var v = modelValue(forKey: name)
        guard !animations.isEmpty else { return v }
        let key = AnimatableKey.custom(name)
        let store = displayStore
        for (_, animation) in animations where animation.touches(key) {
            store.scratch.removeAll(keepingCapacity: true)
            let base = v
            animation.values(at: t, base: { k in k == key ? base : nil }, into: &store.scratch)
            for entry in store.scratch where entry.key == key { v = entry.value }
        }
        return v
    }

    /// Asks for the contents to be redrawn (`draw(in:)`) before the next
    /// frame.
    public func setNeedsDisplay() { actionState.needsDisplay = true }

    /// True when the layer will redraw its contents before the next frame.
    public var needsDisplay: Bool { actionState.needsDisplay }

    /// Redraws this layer and, recursively, every sublayer (and mask) that
    /// needs it: those marked with `setNeedsDisplay()` and those with an
    /// animation of a key their class `needsDisplay(forKey:)` — every frame
    /// while it is on the layer. `time` is global media time (the frame's).
    /// Called by the compositor before drawing; cheap for layers that draw
    /// nothing (no allocation, one check each).
    public func displayIfNeeded(at time: MediaTime, depth: Int = 0) {
        guard depth < Compositor.maximumDepth else { return }
        let local = localTime(fromParent: time)
        if actionState.needsDisplay || hasAnimationNeedingDisplay() { display(atLocalTime: local) }
        if let mask { mask.displayIfNeeded(at: local, depth: depth + 1) }
        for sublayer in sublayers { sublayer.displayIfNeeded(at: local, depth: depth + 1) }
    }

    private func hasAnimationNeedingDisplay() -> Bool {
        for (_, animation) in animations where animation.touchesKeyNeedingDisplay(Self.self) { return true }
        return false
    }

    /// Redraws the contents now, at global media time `time`, with every
    /// custom property at its presentation value.
    public func display(at time: MediaTime) { display(atLocalTime: convertTime(time, from: nil)) }

    private func display(atLocalTime t: MediaTime) {
        actionState.needsDisplay = false
        let bounds = PresentationValues(self, at: t).bounds
        let scale = contentsScale.isFinite && contentsScale > 0 ? contentsScale : 1
        let w = bounds.width * scale, h = bounds.height * scale
        guard w.isFinite, h.isFinite, w >= 1, h >= 1,
              w <= Double(RasterLimits.maxDimension), h <= Double(RasterLimits.maxDimension) else { return }
        let width = Int(w.rounded(.up)), height = Int(h.rounded(.up))
        let store = displayStore
        if store.surface?.width != width || store.surface?.height != height {
            guard let s = Surface<ARGB8888>(width: width, height: height) else { return }   // too big: documented clamp
            store.surface = s
            store.contents = LayerContents(s)
        }
        guard let surface = store.surface else { return }
        surface.clear()
        if contents !== store.contents { contents = store.contents }
        // The presentation values of the custom keys being drawn, reusing
        // the array's storage from the last frame.
        var drawValues = actionState.drawValues
        actionState.drawValues = []
        drawValues.removeAll(keepingCapacity: true)
        for (key, _) in actionState.customValues { drawValues.append((key, customPresentationValue(forKey: key, atLocalTime: t) ?? .scalar(0))) }
        for (_, animation) in animations { animation.forEachCustomKey { name in
            if !drawValues.contains(where: { $0.key == name }), let v = customPresentationValue(forKey: name, atLocalTime: t) {
                drawValues.append((name, v))
            }
        } }
        actionState.drawValues = drawValues
        let transform = AffineTransform(a: scale, b: 0, c: 0, d: scale, tx: -bounds.minX * scale, ty: -bounds.minY * scale)
        actionState.isDrawing = true
        draw(in: LayerDrawingContext(canvas: Canvas(surface.view), transform: transform, bounds: bounds,
                                     rasterizer: store.rasterizer))
        actionState.isDrawing = false
    }

    var displayStore: LayerDisplayStore {
        if let s = actionState.displayStore { return s }
        let s = LayerDisplayStore()
        actionState.displayStore = s
        return s
    }
}

extension Animation {
    /// True when the animation (or a member of the group) drives `key`.
    func touches(_ key: AnimatableKey) -> Bool {
        switch self {
        case let .basic(a): return a.key == key
        case let .keyframe(a): return a.key == key
        case let .spring(a): return a.key == key
        case let .group(g): return g.animations.contains { $0.touches(key) }
        }
    }

    func touchesKeyNeedingDisplay(_ layerClass: Layer.Type) -> Bool {
        var found = false
        forEachCustomKey { name in if !found && layerClass.needsDisplay(forKey: name) { found = true } }
        return found
    }

    func forEachCustomKey(_ body: (String) -> Void) {
        switch self {
        case let .basic(a): if case let .custom(n) = a.key { body(n) }
        case let .keyframe(a): if case let .custom(n) = a.key { body(n) }
        case let .spring(a): if case let .custom(n) = a.key { body(n) }
        case let .group(g): for member in g.animations { member.forEachCustomKey(body) }
        }
    }
}

extension AnimatableValue {
    /// The number of a `.scalar`, else nil.
    public var scalarValue: Double? { if case let .scalar(v) = self { return v }; return nil }
    /// The point of a `.point`, else nil.
    public var pointValue: Point? { if case let .point(v) = self { return v }; return nil }
    /// The colour of a `.color`, else nil.
    public var colorValue: Color? { if case let .color(v) = self { return v }; return nil }
}
