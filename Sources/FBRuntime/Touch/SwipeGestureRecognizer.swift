/// A quick one-finger stroke: at least `minimumDistance` along one axis,
/// at most half that much across it, within `maximumDuration` of the
/// touch-down. Discrete: recognized (`ended`) as soon as the distance is
/// covered in one of the allowed `directions`; failed otherwise.
public final class SwipeGestureRecognizer: GestureRecognizer {
    public struct Directions: OptionSet, Equatable, Sendable {
        public let rawValue: UInt8
        public init(rawValue: UInt8) { self.rawValue = rawValue }
        public static let right = Directions(rawValue: 1)
        public static let left = Directions(rawValue: 2)
        /// Towards the top of the UI (−y).
        public static let up = Directions(rawValue: 4)
        public static let down = Directions(rawValue: 8)
        public static let all: Directions = [.right, .left, .up, .down]
    }
    public var directions: Directions
    /// Points.
    public var minimumDistance = 50.0
    /// Seconds.
    public var maximumDuration: MediaTime = 0.5
    /// The direction recognized (one of `directions`), empty before.
    public private(set) var direction: Directions = []
    private var failDeadline: MediaTime?

    public init(directions: Directions = .all, action: ((GestureRecognizer) -> Void)? = nil) {
        self.directions = directions
        super.init(action: action)
    }

    public override func touchBegan(_ touch: Touch) {
        if touches.count > 1 { setState(.failed); return }
        failDeadline = touch.startTimestamp + maximumDuration
    }

    public override func touchMoved(_ touch: Touch) {
        guard state == .possible else { return }
        if touch.timestamp - touch.startTimestamp > maximumDuration { setState(.failed); return }
        let dx = touch.location.x - touch.startLocation.x, dy = touch.location.y - touch.startLocation.y
        let ax = abs(dx), ay = abs(dy)
        let candidate: Directions
        if ax >= minimumDistance && ay <= ax / 2 { candidate = dx > 0 ? .right : .left }
        else if ay >= minimumDistance && ax <= ay / 2 { candidate = dy > 0 ? .down : .up }
        else { return }
        if directions.contains(candidate) {
            direction = candidate
            failDeadline = nil
            setState(.ended)
        } else {
            setState(.failed)
        }
    }

    public override func touchEnded(_ touch: Touch) {
        if state == .possible { setState(.failed) }
    }

    public override func timeAdvanced(to time: MediaTime) {
        guard state == .possible, !isWaiting, let d = failDeadline, time > d else { return }
        failDeadline = nil
        setState(.failed)
    }

    public override var deadline: MediaTime? { state == .possible && !isWaiting ? failDeadline : nil }

    public override func reset() { direction = []; failDeadline = nil }
}
