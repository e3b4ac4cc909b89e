import FBRuntime

// What the navigation containers share: how they animate (one explicit
// transaction with a completion block, so the motion is implicit
// animations of the layers' properties that the render thread runs), how a
// handler finds its container without capturing it, and the dimming layer.

enum NavigationAnimation {
    /// Runs `changes` in a transaction of `duration` seconds with `timing`
    /// and calls `completion` when the animations it made have finished (a
    /// transaction completion block, on the app thread). Without animation
    /// — `animated` false, or a tree that is not displayed, where nothing
    /// animates — the changes are made without actions and `completion`
    /// runs at once, so the state is settled when this returns.
    static func run(animated: Bool, in layer: Layer, duration: Double, timing: TimingFunction = .easeInEaseOut,
                    changes: () -> Void, completion: @escaping () -> Void) {
        guard animated && layer.isInDisplayedTree else {
            Transaction.withoutActions { changes() }
            completion()
            return
        }
        Transaction.begin()
        Transaction.animationDuration = duration
        Transaction.animationTimingFunction = timing
        Transaction.setCompletionBlock(completion)
        changes()
        Transaction.commit()
    }
}

extension Layer {
    /// The nearest layer above this one (itself excluded) that is a `T`:
    /// how a handler stored on a part finds its container without capturing
    /// it (Embedded Swift has no `weak`). O(depth).
    func navigationAncestor<T: Layer>(_ type: T.Type) -> T? {
        var l = superlayer
        var depth = 0
        while let layer = l, depth < Compositor.maximumDepth {
            if let found = layer as? T { return found }
            l = layer.superlayer
            depth += 1
        }
        return nil
    }
}

/// A black layer whose opacity dims what is under it. It is hidden at rest
/// when it dims nothing, so it is neither drawn nor hit.
final class DimmingLayer: Layer {
    init() {
        super.init(name: "dimming")
        anchorPoint = .zero
        backgroundColor = .black
        opacity = 0
        isHidden = true
    }
}

extension Theme {
    /// Gives every control of a subtree that is not in the displayed tree
    /// (a screen pushed under another, a tab not selected) this theme at
    /// once, so it is current when it comes back on screen.
    func applyOffscreen(to layer: Layer) {
        guard !layer.isInDisplayedTree else { return }
        apply(to: layer, duration: 0)
    }
}
