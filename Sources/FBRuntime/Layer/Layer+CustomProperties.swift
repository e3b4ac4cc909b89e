import Raster

// Custom animatable properties (CA's @NSManaged properties with
// `defaultValue(forKey:)` and `needsDisplay(forKey:)`). The short way is one
// `LayerProperty` declaration (LayerProperty.swift), which also gives the
// property an implicit animation. The long way, which it is built on: a
// subclass gives the property a default value and typed accessors over
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
//         override func draw(in context: DrawingContext) { … uses lineWidth … }
//     }
//
// Animations name the property `.custom("lineWidth")` (or
// `AnimatableKey(path: "lineWidth")`; a subclass gives its users a typed
// key with `extension AnimatableKey { static let curveWidth =
// AnimatableKey.custom("lineWidth") }`, as the content layers do); setting it runs actions like any
// property (there is no implicit animation by default, as in CA: give one in
// `actions`, the delegate or `defaultAction(forKey:)`). While an animation
// of a key that `needsDisplay(forKey:)` is on the layer, the layer redraws
// every frame with the interpolated value (`displayIfNeeded(at:)`, which the
// compositor calls before it draws a frame).
extension Layer {
    /// The model value of a custom property: the value set, else the
    /// class's `defaultValue(forKey:)`. While the layer draws
    /// (`draw(in:)`), the presentation value being drawn; while the
    /// compositor asks its `contains(_:)` (hit testing), the presentation
    /// value at that time.
    public func value(forKey key: String) -> AnimatableValue? {
        if let t = actionState.hitTestTime { return customPresentationValue(forKey: key, atLocalTime: t) }
        if actionState.isDrawing {
            let values = actionState.drawValues
            var i = 0          // an index loop: `first(where:)` allocates its closure's context in debug builds
            while i < values.count { if values[i].key == key { return values[i].value }; i += 1 }
        }
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
        noteModelChange()
        didChangeValues()
    }

    /// The value set with `setValue(_:forKey:)`, else a subclass's stored
    /// property (`storedValue(forKey:)`), else the class default.
    func modelValue(forKey key: String) -> AnimatableValue? {
        actionState.customValues.first { $0.key == key }?.value ?? storedValue(forKey: key) ?? Self.defaultValue(forKey: key)
    }

    /// What the render loop meets every frame for a custom property: its
    /// only animation is a basic one from one value to another of the same
    /// kind, neither additive nor cumulative, without a by-value or a value
    /// function; or a keyframe one in linear or paced mode without a value
    /// function or a path, whose current segment joins two values of the
    /// same kind. Then the presentation value at `t` is `from` interpolated
    /// towards `to` by `fraction` (the same timing state, segment and
    /// fraction as `customPresentationValue`), and a caller can interpolate
    /// into storage it keeps (`ShapeLayer`'s morph, `GradientLayer`'s
    /// lists) instead of allocating a new value each frame. `.inactive`:
    /// the animation has no effect at `t` (the model value shows);
    /// `.notPlain`: the general evaluation must run.
    enum PlainInterpolation {
        case lerp(from: AnimatableValue, to: AnimatableValue, fraction: Double)
        case inactive
        case notPlain
    }

    func plainInterpolation(ofCustomKey name: String, at t: MediaTime) -> PlainInterpolation {
        let key = AnimatableKey.custom(name)
        let list = animations
        var plain: Animation?
        var i = 0
        while i < list.count {
            let animation = list[i].animation
            i += 1
            guard animation.touches(key) else { continue }
            guard plain == nil else { return .notPlain }
            plain = animation
        }
        switch plain {
        case let .basic(b)?:
            guard !b.isAdditive, !b.isCumulative, b.valueFunction == nil, b.byValue == nil,
                  let from = b.fromValue, let to = b.toValue, from.isSameKind(as: to) else { return .notPlain }
            guard let state = b.timing.state(atParentTime: t, default: BasicAnimation.defaultDuration) else { return .inactive }
            return .lerp(from: from, to: to, fraction: b.timingFunction.value(at: state.progress))
        case let .keyframe(k)?:
            guard k.calculationMode == .linear || k.calculationMode == .paced, k.valueFunction == nil,
                  k.pathSampler == nil, k.values.count >= 2 else { return .notPlain }
            guard let state = k.timing.state(atParentTime: t, default: BasicAnimation.defaultDuration) else { return .inactive }
            let (index, local) = k.segment(atProgress: KeyframeAnimation.clamped(progress: k.timingFunction.value(at: state.progress)))
            let from = k.values[index], to = k.values[index + 1]
            guard from.isSameKind(as: to) else { return .notPlain }
            return .lerp(from: from, to: to, fraction: local)
        default:
            return .notPlain
        }
    }

    /// The presentation value of a custom property at the layer's local
    /// time `t`: the model value with the animations of that key applied
    /// in order (CA's sandwich model). No allocation in steady state.
    func customPresentationValue(forKey name: String, atLocalTime t: MediaTime) -> AnimatableValue? {
        var v = modelValue(forKey: name)
        guard !animations.isEmpty else { return v }
        let key = AnimatableKey.custom(name)
        let store = displayStore
        // Index loops: `for … in` allocates an iterator in debug builds.
        let list = animations
        var i = 0
        while i < list.count {
            let animation = list[i].animation
            i += 1
            guard animation.touches(key) else { continue }
            store.scratch.removeAll(keepingCapacity: true)
            let base = v
            animation.values(at: t, base: { k in k == key ? base : nil }, into: &store.scratch)
            var j = 0
            while j < store.scratch.count {
                let entry = store.scratch[j]
                j += 1
                // A value of another kind than the model's is ignored (a
                // documented clamp: wrong kinds never reach the drawing).
                guard entry.key == key else { continue }
                if let current = v, !current.isSameKindIgnoringCount(as: entry.value) { continue }
                v = entry.value
            }
        }
        return v
    }
}

extension Animation {
    /// True when the animation (or a member of the group) drives `key`.
    func touches(_ key: AnimatableKey) -> Bool {
        switch self {
        case let .basic(a): return a.key == key
        case let .keyframe(a): return a.key == key
        case let .spring(a): return a.key == key
        case .transition: return false
        case let .group(g):
            var k = 0      // index loops here: the render thread asks every frame, and
            while k < g.animations.count {      // iterators and captured flags allocate in debug builds
                if g.animations[k].touches(key) { return true }
                k += 1
            }
            return false
        }
    }

    /// The custom property a basic, keyframe or spring animation drives;
    /// `nil` for other keys, transitions and groups (see their members).
    var customKeyName: String? {
        switch self {
        case let .basic(a): if case let .custom(n) = a.key { return n }
        case let .keyframe(a): if case let .custom(n) = a.key { return n }
        case let .spring(a): if case let .custom(n) = a.key { return n }
        case .transition, .group: break
        }
        return nil
    }

    func touchesKeyNeedingDisplay(_ layerClass: Layer.Type) -> Bool {
        if let n = customKeyName { return layerClass.needsDisplay(forKey: n) }
        if case let .group(g) = self {
            var k = 0
            while k < g.animations.count {
                if g.animations[k].touchesKeyNeedingDisplay(layerClass) { return true }
                k += 1
            }
        }
        return false
    }

    func forEachCustomKey(_ body: (String) -> Void) {
        if let n = customKeyName { body(n) }
        if case let .group(g) = self { for member in g.animations { member.forEachCustomKey(body) } }
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
