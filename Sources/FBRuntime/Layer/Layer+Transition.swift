// Transitions on the app side: the before image of `Transition`s, and the
// default fade of the non-interpolable properties `contents` and
// `isHidden` (CA's default action for them).
//
// **Default fade.** Changing `contents` or `isHidden` of a layer in a
// displayed tree, with actions enabled, looks up the action for
// `.contents` / `.hidden` as for any property (delegate, `actions`, then
// `defaultAction(forKey:)`); Layer's default is `.implicitAnimation`, which
// for these keys means a `.fade` `Transition` with the transaction's
// `animationDuration` and `animationTimingFunction` (none when the duration
// is 0), added under `Transition.key`. The before image is rendered just
// before the change (in `willSet`); a further change in the same
// transaction reuses it, so the fade starts from what was on screen.
// `.none` (or `Transaction.disableActions`) changes at once. An
// `.animation(.transition(t))` action runs `t` instead; another animation
// is added under the key's path; a handler is called with no value.
//
// Adding, inserting, replacing and removing sublayers runs the
// superlayer's `sublayers` action the same way (CA's default: a fade of
// the superlayer): the before image is the superlayer rendered just before
// the first edit of the transaction — a render of its subtree on the app
// thread, so tree edits in a displayed tree with actions on cost one; set
// the action to `.none` (or disable actions) to avoid it.

extension AnimatableKey {
    /// `contents`: not interpolable; its default action is a fade.
    public static let contents = AnimatableKey.custom("contents")
    /// `hidden` (`isHidden`): not interpolable; its default action is a fade.
    public static let hidden = AnimatableKey.custom("hidden")
    /// `sublayers`: a tree edit below the layer; its default action is a
    /// fade of the layer.
    public static let sublayers = AnimatableKey.custom("sublayers")
}

extension Layer {
    /// `animation` with its before image when it is a transition without
    /// one: the image of a transition still waiting for the commit of the
    /// open transaction under the same key (or of the property change
    /// under way), else one rendered now at global time `time`.
    func withTransitionImage(_ animation: Animation, forKey key: String, at time: MediaTime) -> Animation {
        guard case var .transition(t) = animation, t.beforeImage == nil else { return animation }
        if let image = actionState.pendingSubtreeImage {
            t.beforeImage = image
        } else if case let .transition(pending)? = self.animation(forKey: key), let image = pending.beforeImage,
                  actionState.tracked.contains(where: { $0.key == key && $0.beginsAtCommit }) {
            t.beforeImage = image
        } else {
            t.beforeImage = Compositor.renderTransitionImage(of: self, at: time)
        }
        return .transition(t)
    }

    /// Sets `contents` to the layer's own backing store (`display`, which
    /// may run on the render thread): not a change the app made, so no
    /// action runs (CA does not fade a redraw either).
    func setContentsWithoutActions(_ new: LayerContents?) {
        actionState.isStoringBackingStore = true
        contents = new
        actionState.isStoringBackingStore = false
    }

    /// Before `contents` or `isHidden` changes (`changes`: to a different
    /// value): render the before image if the change will run a transition.
    func willChangeSubtree(forKey key: AnimatableKey, changes: Bool) {
        guard changes, !actionState.isStoringBackingStore, actionState.pendingSubtreeKey == nil, let loop = loopForActions(),
              let action = lookUpAction(forKey: key) else { return }
        actionState.pendingSubtreeKey = key
        switch action {
        case .implicitAnimation, .animation(.transition):
            if case let .transition(pending)? = animation(forKey: Transition.key), let image = pending.beforeImage,
               actionState.tracked.contains(where: { $0.key == Transition.key && $0.beginsAtCommit }) {
                actionState.pendingSubtreeImage = image      // already changed in this transaction
            } else {
                actionState.pendingSubtreeImage = Compositor.renderTransitionImage(of: self, at: loop.clock.now)
            }
        default:
            break
        }
    }

    /// After the change: run the action looked up for it.
    func didChangeSubtree() {
        guard let key = actionState.pendingSubtreeKey else { return }
        let image = actionState.pendingSubtreeImage
        defer { actionState.pendingSubtreeKey = nil; actionState.pendingSubtreeImage = nil }
        guard let action = lookUpAction(forKey: key) else { return }
        switch action {
        case .none:
            return
        case let .handler(h):
            h.run(forKey: key, on: self, presentationValue: nil)
        case .implicitAnimation:
            let stack = AppRunLoop.current.transactions
            guard stack.animationDuration > 0 else { return }
            var t = Transition(type: .fade, duration: stack.animationDuration)
            t.timingFunction = stack.timingFunction ?? .default
            t.beforeImage = image
            try? add(.transition(t), forKey: Transition.key)
        case var .animation(.transition(t)):
            if t.beforeImage == nil { t.beforeImage = image }
            try? add(.transition(t), forKey: Transition.key)
        case let .animation(a):
            try? add(a, forKey: key.path)
        }
    }
}
