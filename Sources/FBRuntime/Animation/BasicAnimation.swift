/// A property of a layer that an animation can drive. (The full key space
/// with subkeys such as `position.x` and `transform.rotation.z` comes with
/// the animation issue; these are the keys the compositor reads today.)
public enum AnimatableKey: Equatable, Sendable {
    case position
    case bounds
    case opacity
    case backgroundColor
}

/// A value an animation interpolates.
public enum AnimatableValue: Equatable, Sendable {
    case scalar(Double)
    case point(Point)
    case rect(Rect)
    case color(Color)

    /// `from + (to − from)·t`, component-wise. Mismatched kinds jump to `to`
    /// at the midpoint.
    public static func interpolate(_ from: AnimatableValue, _ to: AnimatableValue, _ t: Double) -> AnimatableValue {
        @inline(__always) func lerp(_ a: Double, _ b: Double) -> Double { a + (b - a) * t }
        switch (from, to) {
        case let (.scalar(a), .scalar(b)): return .scalar(lerp(a, b))
        case let (.point(a), .point(b)): return .point(Point(x: lerp(a.x, b.x), y: lerp(a.y, b.y)))
        case let (.rect(a), .rect(b)):
            return .rect(Rect(x: lerp(a.origin.x, b.origin.x), y: lerp(a.origin.y, b.origin.y),
                              width: lerp(a.size.width, b.size.width), height: lerp(a.size.height, b.size.height)))
        case let (.color(a), .color(b)):
            return .color(Color(red: lerp(a.red, b.red), green: lerp(a.green, b.green),
                                blue: lerp(a.blue, b.blue), alpha: lerp(a.alpha, b.alpha)))
        default: return t < 0.5 ? from : to
        }
    }
}

/// Pacing of an animation (CAMediaTimingFunction): a cubic Bézier from (0,0)
/// to (1,1) with control points (x1, y1) and (x2, y2).
public struct TimingFunction: Equatable, Sendable {
    public var x1, y1, x2, y2: Double
    public init(_ x1: Double, _ y1: Double, _ x2: Double, _ y2: Double) {
        self.x1 = x1; self.y1 = y1; self.x2 = x2; self.y2 = y2
    }
    public static let linear = TimingFunction(0, 0, 1, 1)
    public static let easeIn = TimingFunction(0.42, 0, 1, 1)
    public static let easeOut = TimingFunction(0, 0, 0.58, 1)
    public static let easeInEaseOut = TimingFunction(0.42, 0, 0.58, 1)

    /// The eased progress for linear progress `x` in 0…1: solves
    /// `bx(s) = x` for `s` (Newton, then bisection as a fallback) and returns
    /// `by(s)`. Accurate to about 1e-7.
    public func value(at x: Double) -> Double {
        if x <= 0 { return 0 }
        if x >= 1 { return 1 }
        if self == .linear { return x }
        func bezier(_ p1: Double, _ p2: Double, _ s: Double) -> Double {
            let u = 1 - s
            return 3 * u * u * s * p1 + 3 * u * s * s * p2 + s * s * s
        }
        func slope(_ p1: Double, _ p2: Double, _ s: Double) -> Double {
            let u = 1 - s
            return 3 * u * u * p1 + 6 * u * s * (p2 - p1) + 3 * s * s * (1 - p2)
        }
        var s = x
        for _ in 0..<8 {
            let error = bezier(x1, x2, s) - x
            if Swift.abs(error) < 1e-9 { return bezier(y1, y2, s) }
            let d = slope(x1, x2, s)
            if Swift.abs(d) < 1e-9 { break }
            s -= error / d
        }
        var lo = 0.0, hi = 1.0
        s = x
        for _ in 0..<60 {
            let v = bezier(x1, x2, s)
            if Swift.abs(v - x) < 1e-9 { break }
            if v < x { lo = s } else { hi = s }
            s = (lo + hi) / 2
        }
        return bezier(y1, y2, s)
    }
}

/// Interpolates one property from `fromValue` to `toValue` (CABasicAnimation,
/// the from/to form; by-values, additive and cumulative animations, groups
/// and keyframes come with the animation issue).
///
/// Timing follows CAMediaTiming (see `MediaTiming`): one pass of
/// `duration` (0.25 s when not positive), repeated, autoreversed, offset,
/// sped up or paused, and filled as `timing.fillMode` says.
public struct BasicAnimation: Sendable {
    public var key: AnimatableKey
    public var fromValue: AnimatableValue
    public var toValue: AnimatableValue
    public var timing = MediaTiming()
    public var timingFunction: TimingFunction = .linear
    public var isRemovedOnCompletion = true

    /// CA's default duration for an animation whose `duration` is not set.
    public static let defaultDuration = 0.25

    public init(key: AnimatableKey, from: AnimatableValue, to: AnimatableValue, duration: Double = 0.25) {
        self.key = key; fromValue = from; toValue = to
        timing.duration = duration
    }

    // The CAMediaTiming properties, forwarded for CA-style spelling.
    public var beginTime: MediaTime { get { timing.beginTime } set { timing.beginTime = newValue } }
    public var duration: Double { get { timing.duration } set { timing.duration = newValue } }
    public var repeatCount: Double { get { timing.repeatCount } set { timing.repeatCount = newValue } }
    public var repeatDuration: Double { get { timing.repeatDuration } set { timing.repeatDuration = newValue } }
    public var autoreverses: Bool { get { timing.autoreverses } set { timing.autoreverses = newValue } }
    public var speed: Double { get { timing.speed } set { timing.speed = newValue } }
    public var timeOffset: Double { get { timing.timeOffset } set { timing.timeOffset = newValue } }
    public var fillMode: FillMode { get { timing.fillMode } set { timing.fillMode = newValue } }
    /// `fillMode` holds the final value (forwards or both).
    public var fillsForwards: Bool {
        get { timing.fillMode.fillsForwards }
        set { timing.fillMode = newValue ? (timing.fillMode.fillsBackwards ? .both : .forwards)
                                         : (timing.fillMode.fillsBackwards ? .backwards : .removed) }
    }

    public func hasFinished(at time: MediaTime) -> Bool {
        timing.hasFinished(atParentTime: time, default: BasicAnimation.defaultDuration)
    }

    /// The animated value at `time`, or `nil` where the animation has no
    /// effect.
    public func value(at time: MediaTime) -> AnimatableValue? {
        guard let state = timing.state(atParentTime: time, default: BasicAnimation.defaultDuration) else { return nil }
        return AnimatableValue.interpolate(fromValue, toValue, timingFunction.value(at: state.progress))
    }
}
