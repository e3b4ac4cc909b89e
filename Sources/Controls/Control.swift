import FBRuntime

/// The base of every control: a layer that draws itself from a `Theme`,
/// has a state (normal, highlighted, disabled) and follows the finger that
/// lands on it, through a gesture recognizer it attaches to a
/// `TouchRouter` (`attach(to:)`).
///
/// Touches are hit-tested by the router on the presentation tree at the
/// event's time, and the control converts them into its bounds space
/// through its presentation geometry too: a control that is sliding in is
/// hit and tracked where it is on screen, not where its model says.
///
/// Subclasses override the tracking hooks (`beginTracking(at:)`,
/// `continueTracking(at:)`, `endTracking(at:)`, `cancelTracking()`), draw
/// their state in `updateAppearance()` and place their parts in
/// `layoutSublayers()`. Handlers are closures of the subclass that receive
/// the control, so they need not capture it (Embedded Swift has no `weak`:
/// a closure stored on a control that captures the control is a cycle).
///
/// Threading: the app thread, like the layer tree and the router.
open class Control: Layer {
    /// What a control shows; derived from `isEnabled` and `isHighlighted`.
    public enum State: Equatable, Sendable {
        case normal, highlighted, disabled
    }

    /// The look of the control. Setting it redraws the control; in a
    /// displayed tree the colours animate with the current transaction
    /// (see `Theme.apply(to:duration:)` for a whole tree).
    public var theme: Theme = .light {
        didSet { themeDidChange() }
    }

    /// A disabled control ignores touches and draws its disabled look.
    /// Disabling a control that a finger is on cancels that touch's
    /// tracking (no tap or value change follows).
    public var isEnabled = true {
        didSet {
            guard isEnabled != oldValue else { return }
            let old = oldValue ? (isHighlighted ? State.highlighted : .normal) : .disabled
            if !isEnabled && isTracking {
                isTracking = false
                cancelTracking()
            }
            if !isEnabled { isHighlightedStorage = false }
            stateDidChange(from: old)
        }
    }

    /// A finger is on the control (within `Theme.Metrics.touchSlop` of
    /// it). Set by tracking; an app may set it too (a key press).
    public var isHighlighted: Bool {
        get { isHighlightedStorage }
        set {
            guard newValue != isHighlightedStorage, isEnabled || !newValue else { return }
            let old = state
            isHighlightedStorage = newValue
            stateDidChange(from: old)
        }
    }
    private var isHighlightedStorage = false

    public var state: State { !isEnabled ? .disabled : isHighlighted ? .highlighted : .normal }

    /// A finger landed on the control and has not lifted yet.
    public private(set) var isTracking = false

    /// Media time of the touch event being handled (seconds); valid in the
    /// tracking hooks.
    public private(set) var trackingTime: MediaTime = 0

    public override init(name: String = "control") {
        super.init(name: name)
    }

    // MARK: Touch

    /// Attaches the control's touch tracking to `router`: from now on a
    /// touch that begins on the control or one of its sublayers is tracked
    /// by it. Attach a control once. The router keeps the recognizer (and
    /// through it the control) until `detach(from:)` or
    /// `router.removeAll(in:)` for a subtree holding the control.
    public func attach(to router: TouchRouter) {
        router.add(ControlTracker(), to: self)
    }

    /// Removes what `attach(to:)` added, and any other recognizer attached
    /// to the control or its sublayers.
    public func detach(from router: TouchRouter) {
        router.removeAll(in: self)
    }

    /// `point` in the display space (where `TouchEvent.location` is: the
    /// router's root's superlayer space, points) converted into this
    /// control's bounds space, points, as the tree is on screen at `time`
    /// (presentation values). Without animations on the control or its
    /// ancestors this is the model conversion and allocates nothing.
    public func convertFromDisplay(_ point: Point, at time: MediaTime) -> Point {
        var l: Layer? = self
        var animating = false
        while let layer = l {
            if !layer.animations.isEmpty { animating = true; break }
            l = layer.superlayer
        }
        return animating ? presentation(at: time).convert(point, from: nil) : convert(point, from: nil)
    }

    /// True when `point` (bounds space, points) is on the control or within
    /// `theme.metrics.touchSlop` of its bounds: where a lifting finger
    /// still counts as a tap.
    public func isNear(_ point: Point) -> Bool {
        let slop = theme.metrics.touchSlop
        let b = bounds
        return point.x >= b.minX - slop && point.x <= b.maxX + slop && point.y >= b.minY - slop && point.y <= b.maxY + slop
    }

    // MARK: For subclasses

    /// A finger landed on the control at `point` (bounds space, points).
    /// Return false to ignore this touch. The default highlights the
    /// control and tracks.
    open func beginTracking(at point: Point) -> Bool {
        isHighlighted = true
        return true
    }

    /// The finger moved to `point`. The default highlights the control
    /// while the finger is near it (`isNear`).
    open func continueTracking(at point: Point) {
        isHighlighted = isNear(point)
    }

    /// The finger lifted at `point` (its last location). The default
    /// removes the highlight.
    open func endTracking(at point: Point) {
        isHighlighted = false
    }

    /// The touch was cancelled (the router cancelled it, or the control was
    /// disabled under the finger). The default removes the highlight.
    open func cancelTracking() {
        isHighlighted = false
    }

    /// The control can take the focus of a `FocusEngine` (key navigation).
    /// False by default: containers and indicators are skipped; the
    /// interactive controls say true.
    open var canBecomeFocused: Bool { false }

    /// A key arrived while the control has the focus. Return true when the
    /// control used it; false lets the `FocusEngine` move the focus (Tab,
    /// arrows). The default uses none. Handlers run as for a touch.
    open func handleKey(_ key: ControlKey) -> Bool { false }

    /// While tracking: when `trackingTimeAdvanced(to:)` must next be called
    /// (a stepper's repeat), media time; nil for never.
    open var trackingDeadline: MediaTime? { nil }

    /// While tracking: time passed without a touch event (media time).
    open func trackingTimeAdvanced(to time: MediaTime) {}

    /// The state changed from `old` to `state`. The default calls
    /// `updateAppearance()`.
    open func stateDidChange(from old: State) {
        updateAppearance()
    }

    /// The theme changed. The default re-measures (fonts and metrics may
    /// differ), lays out and calls `updateAppearance()`.
    open func themeDidChange() {
        invalidatePreferredSize()
        setNeedsLayout()
        updateAppearance()
    }

    /// Sets the layers' colours from `theme` and `state`. Called in the
    /// current transaction: in a displayed tree the changes animate
    /// implicitly unless the caller disabled actions.
    open func updateAppearance() {}

    /// Runs `change` in a transaction of its own: animated over `duration`
    /// (default the theme's `animationDuration`, seconds) with `timing` when
    /// `animated`, with implicit animations off otherwise — how each
    /// control's `set…(animated:)` applies a new value.
    public final func changeInTransaction(animated: Bool, duration: Double? = nil, timing: TimingFunction? = nil,
                                          _ change: () -> Void) {
        Transaction.begin()
        if animated {
            Transaction.animationDuration = duration ?? theme.metrics.animationDuration
            if let timing { Transaction.animationTimingFunction = timing }
        } else {
            Transaction.disableActions = true
        }
        change()
        Transaction.commit()
    }

    // MARK: Router side (ControlTracker)

    // A point that does not convert (the control scaled to nothing or
    // turned edge-on under the finger: NaN) never reaches the hooks: a
    // down is refused, a move skipped, a lift becomes a cancel.

    final func trackerBegan(_ touch: Touch) -> Bool {
        guard isEnabled else { return false }
        trackingTime = touch.timestamp
        let point = convertFromDisplay(touch.location, at: touch.timestamp)
        guard point.isFinite else { return false }
        isTracking = beginTracking(at: point)
        return isTracking
    }

    final func trackerMoved(_ touch: Touch) {
        guard isTracking else { return }
        trackingTime = touch.timestamp
        let point = convertFromDisplay(touch.location, at: touch.timestamp)
        guard point.isFinite else { return }
        continueTracking(at: point)
    }

    final func trackerEnded(_ touch: Touch, cancelled: Bool) {
        guard isTracking else { return }
        trackingTime = touch.timestamp
        isTracking = false
        let point = cancelled ? touch.location : convertFromDisplay(touch.location, at: touch.timestamp)
        if cancelled || !point.isFinite {
            cancelTracking()
        } else {
            endTracking(at: point)
        }
    }

    final func trackerTimeAdvanced(to time: MediaTime) {
        guard isTracking else { return }
        trackingTime = time
        trackingTimeAdvanced(to: time)
    }
}

/// The recognizer `Control.attach(to:)` adds: it hands the first finger
/// that lands on the control to the control's tracking hooks. Continuous:
/// began at touch-down (when the control takes the touch), changed with
/// each move, ended at the lift; failed when the control refuses the touch
/// (disabled, or its `beginTracking` said no). Later fingers are ignored.
///
/// It keeps no reference to the control but the router's `layer`, so a
/// control and its tracker make no cycle.
final class ControlTracker: GestureRecognizer {
    private var tracked: Int32?

    private var control: Control? { layer as? Control }

    override func touchBegan(_ touch: Touch) {
        guard tracked == nil, state == .possible, let control else { return }
        if control.trackerBegan(touch) {
            tracked = touch.id
            setState(.began)
        } else {
            setState(.failed)
        }
    }

    override func touchMoved(_ touch: Touch) {
        guard touch.id == tracked, let control else { return }
        control.trackerMoved(touch)
        setState(.changed)
    }

    override func touchEnded(_ touch: Touch) {
        guard touch.id == tracked, let control else { return }
        tracked = nil
        control.trackerEnded(touch, cancelled: false)
        setState(.ended)
    }

    override func touchCancelled(_ touch: Touch) {
        guard touch.id == tracked, let control else { return }
        tracked = nil
        control.trackerEnded(touch, cancelled: true)
        super.touchCancelled(touch)
    }

    override func timeAdvanced(to time: MediaTime) {
        guard tracked != nil, let control else { return }
        control.trackerTimeAdvanced(to: time)
    }

    override var deadline: MediaTime? {
        guard tracked != nil, let control, control.isTracking else { return nil }
        return control.trackingDeadline
    }

    override func reset() { tracked = nil }
}
