/// Turns the touches of one layer (and its sublayers) into a gesture: the
/// base of `TapGestureRecognizer`, `PanGestureRecognizer` and the others.
/// Pure logic over `TouchEvent`s and their timestamps — no clock, no
/// thread: a `TouchRouter` feeds it touches and the passing of time.
///
/// States, as UIKit has them:
///
///     discrete:   possible → ended (= recognized) | failed
///     continuous: possible → began → changed* → ended | cancelled
///                 possible → failed
///
/// After ended, failed or cancelled the recognizer ignores touches until
/// the router resets it to `possible`, when a new touch lands and none of
/// its touches is still down.
///
/// **Require failure of** (`requireFailure(of:)`): a recognizer that would
/// recognize while one it depends on is still `possible` waits (its
/// transition is held); when that one fails the held transition happens,
/// when it recognizes this one fails. The usual use: a single tap that
/// requires a double tap to fail.
///
/// Recognizers of one layer recognize simultaneously unless related by
/// `requireFailure(of:)` (a pan and a pinch may both run: drag while
/// zooming).
///
/// Threading: the app thread, like the router.
open class GestureRecognizer {
    public enum State: Equatable, Sendable, CustomStringConvertible {
        case possible, began, changed, ended, cancelled, failed
        /// The case's name (Embedded Swift has no reflection to print it).
        public var description: String {
            switch self {
            case .possible: "possible"
            case .began: "began"
            case .changed: "changed"
            case .ended: "ended"
            case .cancelled: "cancelled"
            case .failed: "failed"
            }
        }
        /// A discrete gesture's success: the same state as `ended`.
        public static var recognized: State { .ended }
        var isTerminal: Bool { self == .ended || self == .cancelled || self == .failed }
        var isRecognizing: Bool { self == .began || self == .changed || self == .ended }
    }

    public private(set) final var state: State = .possible
    /// Called on began, changed, ended (recognized) and cancelled — not on
    /// failed, like a UIKit action.
    public final var action: ((GestureRecognizer) -> Void)?
    /// The touches this recognizer follows now, in the order they began.
    public private(set) final var touches: [Touch] = []
    /// Where the gesture is, UI points: the centroid of its touches as of
    /// the last touch-down or move (a lift leaves it: a two-finger tap is
    /// between the fingers).
    public private(set) final var location = Point(x: 0, y: 0)
    /// The layer it is attached to (set by `TouchRouter.add`).
    public internal(set) final var layer: Layer?

    final var failureRequirements: [GestureRecognizer] = []
    /// A transition held until the recognizers in `failureRequirements`
    /// have failed.
    private(set) final var heldState: State?

    public init(action: ((GestureRecognizer) -> Void)? = nil) { self.action = action }

    /// This recognizer recognizes only once `other` has failed.
    public final func requireFailure(of other: GestureRecognizer) {
        guard other !== self, !failureRequirements.contains(where: { $0 === other }) else { return }
        failureRequirements.append(other)
    }

    // MARK: For subclasses

    /// A new touch of this recognizer; it is already in `touches`.
    open func touchBegan(_ touch: Touch) {}
    /// A touch moved; `touches` holds its new location.
    open func touchMoved(_ touch: Touch) {}
    /// A touch lifted; it has left `touches` already.
    open func touchEnded(_ touch: Touch) {}
    /// A touch was cancelled (its device went away, the router reset): the
    /// default fails a recognizer that has not begun and cancels one that
    /// has.
    open func touchCancelled(_ touch: Touch) {
        setState(state == .possible ? .failed : .cancelled)
    }
    /// Time has passed without touches (for long press and tap timeouts);
    /// `time` is media time.
    open func timeAdvanced(to time: MediaTime) {}
    /// When `timeAdvanced(to:)` must next be called, if ever: media time.
    open var deadline: MediaTime? { nil }
    /// Back to `possible`: clear the recognizer's own state (call super).
    open func reset() {}

    /// Moves to `newState` if the state machine allows it (see the type's
    /// comment); held while a failure requirement is still possible.
    public final func setState(_ newState: State) {
        if let held = heldState {
            // Waiting on a requirement: keep the latest wish (a held
            // `began` followed by `ended` becomes a held `ended`).
            switch newState {
            case .failed, .cancelled: heldState = nil; apply(.failed)
            case .ended: heldState = .ended
            default: heldState = held
            }
            return
        }
        guard Self.allowed(from: state, to: newState) else { return }
        if state == .possible, newState == .began || newState == .ended, !failureRequirements.isEmpty {
            if failureRequirements.contains(where: { $0.state.isRecognizing }) { apply(.failed); return }
            if failureRequirements.contains(where: { !$0.state.isTerminal }) { heldState = newState; return }
        }
        apply(newState)
    }

    // MARK: Router side

    /// Re-examines a held transition after other recognizers changed:
    /// true when something happened.
    final func resolveHeldState() -> Bool {
        guard let held = heldState else { return false }
        if failureRequirements.contains(where: { $0.state.isRecognizing }) {
            heldState = nil; apply(.failed); return true
        }
        if failureRequirements.allSatisfy({ $0.state == .failed || $0.state == .cancelled }) {
            heldState = nil; apply(held); return true
        }
        return false
    }

    final var isWaiting: Bool { heldState != nil }

    final func begin(_ touch: Touch) {
        guard !state.isTerminal, heldState == nil else { return }
        touches.append(touch)
        updateLocation()
        touchBegan(touch)
    }

    final func move(_ touch: Touch) {
        guard let i = touches.firstIndex(where: { $0.id == touch.id }) else { return }
        touches[i] = touch
        updateLocation()
        guard !state.isTerminal else { return }
        touchMoved(touch)
    }

    final func end(_ touch: Touch, cancelled: Bool) {
        guard let i = touches.firstIndex(where: { $0.id == touch.id }) else { return }
        touches.remove(at: i)
        guard !state.isTerminal else { return }
        if cancelled { touchCancelled(touch) } else { touchEnded(touch) }
    }

    final func follows(_ id: Int32) -> Bool { touches.contains { $0.id == id } }

    final func resetIfFinished() {
        guard state.isTerminal, touches.isEmpty, heldState == nil else { return }
        state = .possible
        reset()
    }

    private final func apply(_ newState: State) {
        state = newState
        if newState != .failed, let action { action(self) }
    }

    private final func updateLocation() {
        var x = 0.0, y = 0.0
        for t in touches { x += t.location.x; y += t.location.y }
        let n = Double(max(touches.count, 1))
        location = Point(x: x / n, y: y / n)
    }

    static func allowed(from: State, to: State) -> Bool {
        switch (from, to) {
        case (.possible, .began), (.possible, .ended), (.possible, .failed): return true
        case (.began, .changed), (.began, .ended), (.began, .cancelled): return true
        case (.changed, .changed), (.changed, .ended), (.changed, .cancelled): return true
        default: return false
        }
    }
}
