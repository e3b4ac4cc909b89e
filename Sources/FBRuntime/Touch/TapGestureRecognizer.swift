/// Taps: `numberOfTapsRequired` quick presses of `numberOfTouchesRequired`
/// fingers, each lifting without moving far, each following the last
/// within `maximumTapInterval`. Discrete: possible → ended (recognized) or
/// failed. `tapCount` says how many taps it has seen.
///
/// A single tap that must not fire on a double tap:
/// `single.requireFailure(of: double)`.
public final class TapGestureRecognizer: GestureRecognizer {
    public var numberOfTapsRequired = 1
    public var numberOfTouchesRequired = 1
    /// How far a finger may move during a tap, points.
    public var allowableMovement = 10.0
    /// How far a later tap may land from the first, points.
    public var allowableTapDistance = 40.0
    /// Seconds from a tap's lift to the next tap's touch-down.
    public var maximumTapInterval: MediaTime = 0.35
    /// A press held longer is not a tap (it may be a long press), seconds.
    public var maximumPressDuration: MediaTime = 0.75
    /// Taps completed so far in this sequence.
    public private(set) var tapCount = 0

    private var firstLocation: Point?
    private var touchesThisTap = 0
    private var nextTapDeadline: MediaTime?
    private var pressDeadline: MediaTime?

    public init(taps: Int = 1, touches: Int = 1, action: ((GestureRecognizer) -> Void)? = nil) {
        numberOfTapsRequired = max(taps, 1)
        numberOfTouchesRequired = max(touches, 1)
        super.init(action: action)
    }

    public override func touchBegan(_ touch: Touch) {
        nextTapDeadline = nil
        touchesThisTap = max(touchesThisTap, touches.count)
        if touches.count > numberOfTouchesRequired { setState(.failed); return }
        // A later tap must land near the first (its fingers' centroid).
        if tapCount > 0, let first = firstLocation, TouchGeometry.distance(first, location) > allowableTapDistance {
            setState(.failed); return
        }
        if touches.count == 1 { pressDeadline = touch.startTimestamp + maximumPressDuration }
    }

    public override func touchMoved(_ touch: Touch) {
        if TouchGeometry.distance(touch.startLocation, touch.location) > allowableMovement { setState(.failed) }
    }

    public override func touchEnded(_ touch: Touch) {
        guard touches.isEmpty else { return }
        pressDeadline = nil
        guard touchesThisTap == numberOfTouchesRequired else { setState(.failed); return }
        touchesThisTap = 0
        tapCount += 1
        if tapCount == 1 { firstLocation = location }
        if tapCount >= numberOfTapsRequired {
            setState(.ended)
        } else {
            nextTapDeadline = touch.timestamp + maximumTapInterval
        }
    }

    public override func timeAdvanced(to time: MediaTime) {
        guard state == .possible, !isWaiting else { return }
        if let d = nextTapDeadline, time > d { nextTapDeadline = nil; setState(.failed) }
        if let d = pressDeadline, time > d { pressDeadline = nil; setState(.failed) }
    }

    public override var deadline: MediaTime? {
        guard state == .possible, !isWaiting else { return nil }
        switch (nextTapDeadline, pressDeadline) {
        case let (a?, b?): return min(a, b)
        case let (a?, nil): return a
        case let (nil, b?): return b
        default: return nil
        }
    }

    public override func reset() {
        tapCount = 0; firstLocation = nil; touchesThisTap = 0; nextTapDeadline = nil; pressDeadline = nil
    }
}
