/// The first two fingers of a gesture: the distance and the angle between
/// them, from when the second landed. Shared by pinch and rotation (a
/// value they hold, not a base class: Embedded Swift handles internal
/// overridable methods of a public class poorly across modules).
struct TwoTouchPair {
    private(set) var ids: (Int32, Int32)?
    private var startA = Point(x: 0, y: 0), startB = Point(x: 0, y: 0)
    private(set) var a = Point(x: 0, y: 0), b = Point(x: 0, y: 0)

    var startDistance: Double { max(TouchGeometry.distance(startA, startB), 1) }
    var currentDistance: Double { TouchGeometry.distance(a, b) }
    /// Radians, clockwise, in (−π, π]: the pair's turn since the start.
    var turn: Double { TouchGeometry.wrapped(TouchGeometry.angle(a, b) - TouchGeometry.angle(startA, startB)) }

    /// True when this touch made the pair.
    mutating func began(_ touches: [Touch]) -> Bool {
        guard ids == nil, touches.count == 2 else { return false }
        ids = (touches[0].id, touches[1].id)
        startA = touches[0].location; startB = touches[1].location
        a = startA; b = startB
        return true
    }

    /// True when `touch` is one of the pair (now moved).
    mutating func moved(_ touch: Touch) -> Bool {
        guard let p = ids else { return false }
        if touch.id == p.0 { a = touch.location } else if touch.id == p.1 { b = touch.location } else { return false }
        return true
    }

    func contains(_ id: Int32) -> Bool { ids.map { $0.0 == id || $0.1 == id } ?? false }
    mutating func reset() { ids = nil }

    /// A lift: one of the pair ends a begun gesture and fails one that has
    /// not begun; a lone finger that never made a pair fails it.
    static func ended(_ touch: Touch, _ pair: TwoTouchPair, _ recognizer: GestureRecognizer) {
        if pair.ids == nil {
            if recognizer.touches.isEmpty { recognizer.setState(.failed) }
        } else if pair.contains(touch.id) {
            recognizer.setState(recognizer.state == .possible ? .failed : .ended)
        }
    }
}

/// Two fingers moving apart or together. Continuous: began when their
/// distance has changed by `minimumChange` points, changed with each move,
/// ended when one lifts. `scale` is the current distance over the distance
/// when the second finger landed (1 = unchanged); `velocity` is scale per
/// second over the last 0.1 s.
public final class PinchGestureRecognizer: GestureRecognizer {
    /// Points.
    public var minimumChange = 8.0
    public private(set) var scale = 1.0
    public private(set) var velocity = 0.0
    private var pair = TwoTouchPair()
    private var rate = RecentRate()

    public override func touchBegan(_ touch: Touch) {
        guard pair.began(touches) else { return }
        rate.reset()
        rate.add(time: touch.timestamp, x: 1, y: 0)
    }

    public override func touchMoved(_ touch: Touch) {
        guard pair.moved(touch) else { return }
        let time = touch.timestamp
        let currentDistance = pair.currentDistance, startDistance = pair.startDistance
        scale = currentDistance / startDistance
        rate.add(time: time, x: scale, y: 0)
        velocity = rate.rate().x
        if state == .possible {
            if abs(currentDistance - startDistance) >= minimumChange { setState(.began) }
        } else {
            setState(.changed)
        }
    }

    public override func touchEnded(_ touch: Touch) { TwoTouchPair.ended(touch, pair, self) }

    public override func reset() { pair.reset(); scale = 1; velocity = 0; rate.reset() }
}

/// Two fingers turning about each other. Continuous: began when the line
/// between them has turned by `minimumAngle`, changed with each move, ended
/// when one lifts. `rotation` is radians, clockwise on screen (y down),
/// accumulated move by move so it can go past ±π; `velocity` radians per
/// second over the last 0.1 s.
public final class RotationGestureRecognizer: GestureRecognizer {
    /// Radians.
    public var minimumAngle = 0.09
    public private(set) var rotation = 0.0
    public private(set) var velocity = 0.0
    private var pair = TwoTouchPair()
    private var lastTurn = 0.0
    private var rate = RecentRate()

    public override func touchBegan(_ touch: Touch) {
        guard pair.began(touches) else { return }
        lastTurn = 0
        rate.reset()
        rate.add(time: touch.timestamp, x: 0, y: 0)
    }

    public override func touchMoved(_ touch: Touch) {
        guard pair.moved(touch) else { return }
        let time = touch.timestamp
        let t = pair.turn
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

    public override func touchEnded(_ touch: Touch) { TwoTouchPair.ended(touch, pair, self) }

    public override func reset() { pair.reset(); rotation = 0; velocity = 0; lastTurn = 0; rate.reset() }
}
