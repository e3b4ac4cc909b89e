extension Layer {
    /// A copy of the layer as it is on screen at `time` (global media time,
    /// seconds): every animation applied, at each layer's local time (CA's
    /// `presentation()`). The whole tree is copied, so the copy's
    /// `superlayer`, `sublayers` and `mask` are presentation layers too;
    /// `model()` on any of them gives back the layer it shows.
    ///
    /// Presentation layers are snapshots: they have no animations, run no
    /// actions and do not change when the model does. Asked of a
    /// presentation layer, this returns it unchanged. Subclass properties
    /// are copied by overriding `makePresentationCopy()`, and their
    /// animated ones show the presented value (`setStoredValue(_:forKey:)`):
    /// the typed properties of a presentation layer are what is on screen.
    ///
    /// Lifetime (no `weak` in Embedded Swift, and a superlayer does not
    /// retain itself from below): the model root keeps its latest
    /// presentation tree alive, so the result and its ancestors stay valid
    /// until the next `presentation` call on the same tree; after that an
    /// older copy still works but its `superlayer` may be nil. `model()` is
    /// valid while the model layer exists.
    /// - Complexity: O(layers in the tree × their animations); allocates
    ///   the copy (app-side; never call it on the render path).
    public func presentation(at time: MediaTime) -> Layer {
        if actionState.model != nil { return self }
        var root: Layer = self
        while let parent = root.superlayer { root = parent }
        var found: Layer?
        let copy = root.presentationCopy(atParentTime: time, target: self, found: &found, depth: 0)
        root.actionState.presentationTree = copy
        return found ?? copy
    }

    /// `presentation(at:)` at `AppRunLoop.current`'s clock time.
    public func presentation() -> Layer { presentation(at: AppRunLoop.current.clock.now) }

    /// The model layer a presentation layer shows; a model layer is its own
    /// model.
    public func model() -> Layer { actionState.model ?? self }

    /// True for layers made by `presentation(at:)`.
    public var isPresentationLayer: Bool { actionState.model != nil }

    private func presentationCopy(atParentTime t: MediaTime, target: Layer, found: inout Layer?, depth: Int) -> Layer {
        let local = localTime(fromParent: t)
        let copy = makePresentationCopy()
        copy.actionState.model = self
        copy.setPresentationValues(PresentationValues(self, at: local))
        copy.actionState.customValues = customPresentationValues(atLocalTime: local)
        // Typed subclass properties show what is on screen too.
        for (key, value) in copy.actionState.customValues { copy.setStoredValue(value, forKey: key) }
        if self === target { found = copy }
        guard depth < Compositor.maximumDepth else { return copy }   // documented clamp, as in drawing
        if let mask { copy.mask = mask.presentationCopy(atParentTime: local, target: target, found: &found, depth: depth + 1) }
        for sublayer in sublayers {
            try? copy.addSublayer(sublayer.presentationCopy(atParentTime: local, target: target, found: &found, depth: depth + 1))
        }
        return copy
    }

    /// Every custom property that is set or animated, at its presentation
    /// value.
    private func customPresentationValues(atLocalTime t: MediaTime) -> [(key: String, value: AnimatableValue)] {
        var names = actionState.customValues.map { $0.key }
        for (_, animation) in animations {
            animation.forEachCustomKey { name in if !names.contains(name) { names.append(name) } }
        }
        var result: [(key: String, value: AnimatableValue)] = []
        for name in names {
            if let v = customPresentationValue(forKey: name, atLocalTime: t) { result.append((name, v)) }
        }
        return result
    }

    private func setPresentationValues(_ p: PresentationValues) {
        properties.animatable = p
        noteModelChange()
    }

    /// Copies every model property of `other` (its `properties` and custom
    /// property values) except the tree (superlayer, sublayers, mask), the
    /// animations, the delegate and the actions. Runs no action.
    public func copyModelProperties(from other: Layer) {
        properties = other.properties
        actionState.customValues = other.actionState.customValues
    }
}
