import FBRuntime

/// Key navigation over one screen (its `root`): which control has the
/// focus, where keys move it, and the `FocusRing` that shows it.
///
/// - **Order**: the focusable controls under `root` in tree order (depth
///   first, sublayers in order): those whose `canBecomeFocused` is true,
///   enabled, and shown (neither they nor an ancestor up to `root` hidden
///   or at opacity 0; a control out of the tree is not under `root`).
///   Controls inside a focusable control (a text field's parts) are not
///   visited.
/// - **Keys** (`handle(_:)`): the focused control's `handleKey` first
///   (Enter taps a button or toggles a switch; Left/Right adjust a slider,
///   stepper or segmented control; Up/Down turn a picker wheel; a text
///   field takes characters); what it leaves, the engine uses: Tab and
///   Shift-Tab go to the next and previous control (cycling), arrows to
///   the nearest control in the arrow's direction by on-screen frames.
///   Without a focus, any of these focuses the first control.
/// - **Rotary encoder**: `rotate(by:)` moves through the tree order a step
///   per detent; its push is `handle(.enter)`.
///
/// Focus changes move the ring with an implicit animation (the theme's
/// `animationDuration`) in a displayed tree. The engine holds the focused
/// control strongly; `focus(nil)` lets it go. Nothing here allocates per
/// frame: the order is walked on key presses only.
///
/// Threading: the app thread, like the layer tree.
public final class FocusEngine {
    /// The screen the engine navigates; the ring is its last sublayer.
    public let root: Layer
    /// The ring around the focused control (hidden without a focus).
    public let ring: FocusRing
    public private(set) var focusedControl: Control?
    /// Called after the focus changed (not for `focus` with the same control).
    public var onFocusChange: ((FocusEngine) -> Void)?

    /// The ring's colour comes from `theme.colors.accent`, its move's
    /// duration from `theme.metrics.animationDuration`. The ring's own
    /// theme: `Theme.apply(to:)` on the root reaches it there too.
    public var theme: Theme {
        get { ring.theme }
        set { ring.theme = newValue }
    }

    public init(root: Layer, theme: Theme = .light) {
        self.root = root
        ring = FocusRing(theme: theme)
    }

    // MARK: Order

    /// The focusable controls under `root`, in tree order.
    /// - Complexity: O(layers under `root`); allocates the array.
    public func focusableControls() -> [Control] {
        var result: [Control] = []
        collect(root, into: &result)
        return result
    }

    private func collect(_ layer: Layer, into result: inout [Control]) {
        for sublayer in layer.sublayers where sublayer !== ring && isShown(sublayer) {
            if let control = sublayer as? Control, control.canBecomeFocused {
                if control.isEnabled { result.append(control) }
            } else {
                collect(sublayer, into: &result)
            }
        }
    }

    private func isShown(_ layer: Layer) -> Bool { !layer.isHidden && layer.opacity > 0 }

    /// `control` can have the focus now: focusable, enabled, and shown
    /// under `root`.
    public func canFocus(_ control: Control) -> Bool {
        guard control.canBecomeFocused, control.isEnabled else { return false }
        var l: Layer? = control
        while let layer = l, layer !== root {
            guard isShown(layer) else { return false }
            l = layer.superlayer
        }
        return l === root
    }

    // MARK: Moving the focus

    /// Gives `control` the focus (nil: none) and moves the ring there,
    /// animated in a displayed tree when `animated`. A control that cannot
    /// have the focus (`canFocus`) is refused: returns false.
    @discardableResult
    public func focus(_ control: Control?, animated: Bool = true) -> Bool {
        if let control, !canFocus(control) { return false }
        let old = focusedControl
        focusedControl = control
        placeRing(animated: animated && old != nil)
        if old !== control { onFocusChange?(self) }
        return true
    }

    /// The next control in tree order after the focused one (the first
    /// without a focus), cycling; false when there is none.
    @discardableResult
    public func focusNext() -> Bool { step(by: 1) }

    /// The previous control in tree order (the last without a focus),
    /// cycling.
    @discardableResult
    public func focusPrevious() -> Bool { step(by: -1) }

    /// A rotary encoder turned `detents` steps: positive moves to the next
    /// controls, negative to the previous ones.
    public func rotate(by detents: Int) {
        for _ in 0..<abs(detents) { _ = step(by: detents > 0 ? 1 : -1) }
    }

    private func step(by delta: Int) -> Bool {
        let controls = focusableControls()
        guard !controls.isEmpty else { return false }
        let next: Int
        if let current = focusedControl, let i = controls.firstIndex(where: { $0 === current }) {
            next = (i + delta + controls.count) % controls.count
        } else {
            next = delta > 0 ? 0 : controls.count - 1
        }
        return focus(controls[next])
    }

    /// Moves the focus to the nearest control in `direction` (`.up`,
    /// `.down`, `.left`, `.right`) by frames in `root`'s space: among the
    /// controls whose centre lies past the focused one's edge that way,
    /// the one with the smallest centre-to-centre distance along the arrow
    /// plus twice the distance across it. False when there is none (the focus stays).
    @discardableResult
    public func moveFocus(_ direction: ControlKey) -> Bool {
        guard let current = focusedControl, canFocus(current) else { return step(by: 1) }
        let f = frameInRoot(current)
        let from = Point(x: (f.minX + f.maxX) / 2, y: (f.minY + f.maxY) / 2)
        var best: Control?, bestScore = Double.infinity
        for control in focusableControls() where control !== current {
            let c = center(of: control)
            // Only controls whose centre is past the focused one's edge: a
            // neighbour on the same row is not "above" by half a point.
            let along: Double, across: Double, beyond: Bool
            switch direction {
            case .right: along = c.x - from.x; across = abs(c.y - from.y); beyond = c.x > f.maxX
            case .left: along = from.x - c.x; across = abs(c.y - from.y); beyond = c.x < f.minX
            case .down: along = c.y - from.y; across = abs(c.x - from.x); beyond = c.y > f.maxY
            case .up: along = from.y - c.y; across = abs(c.x - from.x); beyond = c.y < f.minY
            default: return false
            }
            guard beyond else { continue }
            let score = along + 2 * across
            if score < bestScore { bestScore = score; best = control }
        }
        guard let best else { return false }
        return focus(best)
    }

    private func center(of control: Control) -> Point {
        let f = frameInRoot(control)
        return Point(x: (f.minX + f.maxX) / 2, y: (f.minY + f.maxY) / 2)
    }

    /// `control`'s bounds in `root`'s space, points (model values).
    public func frameInRoot(_ control: Control) -> Rect {
        control.convert(control.bounds, to: root)
    }

    // MARK: Keys

    /// One key press: the focused control's `handleKey` first, then the
    /// engine's navigation. Returns true when something used the key.
    @discardableResult
    public func handle(_ key: ControlKey) -> Bool {
        if let control = focusedControl, !canFocus(control) { focus(nil, animated: false) }
        if let control = focusedControl, control.handleKey(key) { return true }
        switch key {
        case .tab: return step(by: 1)
        case .backTab: return step(by: -1)
        case .up, .down, .left, .right: return moveFocus(key)
        case .escape:
            guard focusedControl != nil else { return false }
            focus(nil)
            return true
        default: return false
        }
    }

    // MARK: The ring

    /// Moves the ring onto where the focused control is on screen at
    /// `time` (its presentation frame), without animation: call it on the
    /// app's turns while the focused control or an ancestor animates (a
    /// screen sliding in). When nothing moves it changes nothing and
    /// allocates nothing.
    public func updateRing(at time: MediaTime) {
        guard let control = focusedControl, isAnimating(control) else { return }
        Transaction.withoutActions {
            ring.place(around: presentationFrame(of: control, at: time), cornerRadius: control.cornerRadius)
        }
    }

    /// `control`'s frame in `root`'s space as on screen at `time`.
    /// - Complexity: the model conversion when nothing from the control up
    ///   to `root` animates; otherwise a presentation copy of the tree
    ///   (allocates).
    public func presentationFrame(of control: Control, at time: MediaTime) -> Rect {
        guard isAnimating(control) else { return frameInRoot(control) }
        let p = control.presentation(at: time)
        var l: Layer? = p
        while let layer = l, layer.model() !== root { l = layer.superlayer }
        return p.convert(p.bounds, to: l)
    }

    private func isAnimating(_ control: Control) -> Bool {
        var l: Layer? = control
        while let layer = l, layer !== root {
            if !layer.animations.isEmpty { return true }
            l = layer.superlayer
        }
        return false
    }

    private func placeRing(animated: Bool) {
        guard let control = focusedControl else {
            if !ring.isHidden { Transaction.withoutActions { ring.isHidden = true } }
            return
        }
        if ring.superlayer !== root || root.sublayers.last !== ring {
            Transaction.withoutActions {
                ring.removeFromSuperlayer()
                try? root.addSublayer(ring)
            }
        }
        let frame = presentationFrame(of: control, at: AppRunLoop.current.clock.now)
        Transaction.begin()
        if animated {
            Transaction.animationDuration = theme.metrics.animationDuration
        } else {
            Transaction.disableActions = true
        }
        ring.place(around: frame, cornerRadius: control.cornerRadius)
        Transaction.commit()
        if ring.isHidden { Transaction.withoutActions { ring.isHidden = false } }
    }
}
