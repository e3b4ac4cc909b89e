/// Follows the first two fingers of a gesture: the distance and the angle
/// between them, from when the second landed. The base of pinch and rotate.
public class TwoTouchGestureRecognizer: GestureRecognizer {
    private(set) var pair: (Int32, Int32)?
    private var startA = Point(x: 0, y: 0), startB = Point(x: 0, y: 0)
    private(set) var a = Point(x: 0, y: 0), b = Point(x: 0, y: 0)

    var startDistance: Double { max(TouchGeometry.distance(startA, startB), 1) }
    var currentDistance: Double { TouchGeometry.distance(a, b) }
    /// Radians, clockwise, in (−π, π]: the pair's turn since the start.
    var turn: Double { TouchGeometry.wrapped(TouchGeometry.angle(a, b) - TouchGeometry.angle(startA, startB)) }

    public override func touchBegan(_ touch: Touch) {
        guard pair == nil, touches.count == 2 else { return }
        pair = (touches[0].id, touches[1].id)
        startA = touches[0].location; startB = touches[1].location
        a = startA; b = startB
        pairStarted(at: touch.timestamp)
    }

    public override func touchMoved(_ touch: Touch) {
        guard let p = pair else { return }
        if touch.id == p.0 { a = touch.location } else if touch.id == p.1 { b = touch.location } else { return }
        pairMoved(at: touch.timestamp)
    }

    public override func touchEnded(_ touch: Touch) {
        guard let p = pair else {
            if touches.isEmpty { setState(.failed) }   // a lone finger lifted: never a pair
            return
        }
        guard touch.id == p.0 || touch.id == p.1 else { return }
        setState(state == .possible ? .failed : .ended)
    }

    func pairStarted(at time: MediaTime) {}
    func pairMoved(at time: MediaTime) {}

    public override func reset() { pair = nil }
}

/// Two fingers moving apart or together. Continuous: began when their
/// distance has changed by `minimumChange` points, changed with each move,
/// ended when one lifts. `scale` is the current distance over the distance
/// when the second finger landed (1 = unchanged); `velocity` is scale per
/// second over the last 0.1 s.
public final class PinchGestureRecognizer: TwoTouchGestureRecognizer {
    /// Points.
    public var minimumChange = 8.0
    public private(set) var scale = 1.0
    public private(set) var velocity = 0.0
    private var rate = RecentRate()

    override func pairStarted(at time: MediaTime) {
        rate.reset()
        rate.add(time: time, x: 1, y: 0)
    }

    override func pairMoved(at time: MediaTime) {
        scale = currentDistance / startDistance
        rate.add(time: time, x: scale, y: 0)
        velocity = rate.rate().x
        if state == .possible {
            if abs(currentDistance - startDistance) >= minimumChange { setState(.began) }
        } else {
            setState(.changed)
        }
    }

    public override func reset() { super.reset(); scale = 1; velocity = 0; rate.reset() }
}

/// Two fingers turning about each other. Continuous: began when the line
/// between them has turned by `minimumAngle`, changed with each move, ended
/// when one lifts. `rotation` is radians, clockwise on screen (y down),
/// accumulated move by move so it can go past ±π; `velocity` radians per
/// second over the last 0.1 s.
public final class RotationGestureRecognizer: TwoTouchGestureRecognizer {
    /// Radians.
    public var minimumAngle = 0.09
    public private(set) var rotation = 0.0
    public private(set) var velocity = 0.0
    private var lastTurn = 0.0
    private var rate = RecentRate()

    override func pairStarted(at time: MediaTime) {
        lastTurn = 0
        rate.reset()
        rate.add(time: time, x: 0, y: 0)
    }

    override func pairMoved(at time: MediaTime) {
        let t = turn
        rotation += TouchGeometry.wrapped(t - lastTurn)
        lastTurn = t
        rate.add(time: time, x: rotation, y: 0)
        velocity = rate.rate().x
        if state == .possible {
            if abs(rotation) >= minimumAngle { setState(.began) }
        } else {
            setState(.changed)
        }
    }

    public override func reset() { super.reset(); rotation = 0; velocity = 0; lastTurn = 0; rate.reset() }
}
