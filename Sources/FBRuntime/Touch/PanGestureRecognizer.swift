/// A drag: began once the first finger has moved `minimumDistance` from
/// where it landed, changed with each move, ended when it lifts. Follows
/// the first finger of the gesture (later fingers do not move it).
/// `translation` is from where the finger landed, `velocity` over the
/// last 0.1 s; both UI points and points per second.
public final class PanGestureRecognizer: GestureRecognizer {
    /// Points.
    public var minimumDistance = 10.0
    public private(set) var translation = Point(x: 0, y: 0)
    public private(set) var velocity = Point(x: 0, y: 0)
    private var primary: Int32?
    private var rate = RecentRate()

    public override func touchBegan(_ touch: Touch) {
        guard primary == nil else { return }
        primary = touch.id
        rate.reset()
        rate.add(time: touch.startTimestamp, x: touch.location.x, y: touch.location.y)
    }

    public override func touchMoved(_ touch: Touch) {
        guard touch.id == primary else { return }
        translation = Point(x: touch.location.x - touch.startLocation.x, y: touch.location.y - touch.startLocation.y)
        rate.add(time: touch.timestamp, x: touch.location.x, y: touch.location.y)
        let r = rate.rate()
        velocity = Point(x: r.x, y: r.y)
        if state == .possible {
            if TouchGeometry.distance(touch.startLocation, touch.location) >= minimumDistance { setState(.began) }
        } else {
            setState(.changed)
        }
    }

    public override func touchEnded(_ touch: Touch) {
        guard touch.id == primary else { return }
        setState(state == .possible ? .failed : .ended)
    }

    public override func touchCancelled(_ touch: Touch) {
        guard touch.id == primary else { return }
        super.touchCancelled(touch)
    }

    public override func reset() {
        primary = nil; rate.reset(); translation = Point(x: 0, y: 0); velocity = Point(x: 0, y: 0)
    }
}
