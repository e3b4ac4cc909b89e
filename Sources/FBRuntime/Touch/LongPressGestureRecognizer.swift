/// A press held for `minimumPressDuration` without moving more than
/// `allowableMovement`. Continuous: began when the time is up, changed as
/// the finger then moves (any distance), ended when it lifts; failed when
/// it moves or lifts too early.
public final class LongPressGestureRecognizer: GestureRecognizer {
    /// Seconds.
    public var minimumPressDuration: MediaTime = 0.5
    /// Points.
    public var allowableMovement = 10.0
    public var numberOfTouchesRequired = 1
    private var beginDeadline: MediaTime?

    public override func touchBegan(_ touch: Touch) {
        if touches.count > numberOfTouchesRequired {
            setState(state == .possible ? .failed : .cancelled)
        } else if touches.count == numberOfTouchesRequired {
            beginDeadline = touch.startTimestamp + minimumPressDuration
        }
    }

    public override func touchMoved(_ touch: Touch) {
        if state == .possible {
            if TouchGeometry.distance(touch.startLocation, touch.location) > allowableMovement { setState(.failed) }
        } else {
            setState(.changed)
        }
    }

    public override func touchEnded(_ touch: Touch) {
        setState(state == .possible ? .failed : .ended)
    }

    public override func timeAdvanced(to time: MediaTime) {
        guard state == .possible, let d = beginDeadline, time >= d, touches.count == numberOfTouchesRequired else { return }
        beginDeadline = nil
        setState(.began)
    }

    public override var deadline: MediaTime? { state == .possible && !isWaiting ? beginDeadline : nil }

    public override func reset() { beginDeadline = nil }
}
