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
/// Timing follows CAMediaTiming: active from `beginTime` for
/// `duration × repeatCount` (× 2 with `autoreverses`); before and after that
/// the animation has no effect unless `fillsForwards`.
public struct BasicAnimation: Sendable {
    public var key: AnimatableKey
    public var fromValue: AnimatableValue
    public var toValue: AnimatableValue
    /// Absolute media time the animation starts; 0 means "when added".
    public var beginTime: MediaTime = 0
    /// Seconds for one pass; ≤ 0 or NaN is treated as CA's default 0.25 s.
    public var duration: Double = 0.25
    /// Passes; 0 means one. `.infinity` repeats for ever.
    public var repeatCount: Double = 0
    public var autoreverses = false
    public var timingFunction: TimingFunction = .linear
    public var fillsForwards = false
    public var isRemovedOnCompletion = true

    public init(key: AnimatableKey, from: AnimatableValue, to: AnimatableValue, duration: Double = 0.25) {
        self.key = key; fromValue = from; toValue = to; self.duration = duration
    }

    var effectiveDuration: Double { duration > 0 ? duration : 0.25 }
    var activeDuration: Double {
        let passes = repeatCount > 0 ? repeatCount : 1
        return effectiveDuration * passes * (autoreverses ? 2 : 1)
    }

    public func hasFinished(at time: MediaTime) -> Bool {
        time >= beginTime + activeDuration
    }

    /// The animated value at `time`, or `nil` where the animation has no
    /// effect (before it begins, or after it ends without filling forwards).
    public func value(at time: MediaTime) -> AnimatableValue? {
        let local = time - beginTime
        guard local >= 0, local.isFinite || repeatCount.isInfinite else { return nil }
        var progress: Double
        if local >= activeDuration {
            guard fillsForwards else { return nil }
            // At the end: the last pass's end value.
            let passes = repeatCount > 0 ? repeatCount : 1
            let fraction = passes - passes.rounded(.down)
            progress = fraction == 0 ? 1 : fraction
            if autoreverses { progress = 0 }
        } else {
            let d = effectiveDuration
            var cycle = local / d
            if autoreverses {
                let pass = (cycle / 2).rounded(.down)
                cycle -= pass * 2
                progress = cycle <= 1 ? cycle : 2 - cycle
            } else {
                progress = cycle - cycle.rounded(.down)
            }
        }
        return AnimatableValue.interpolate(fromValue, toValue, timingFunction.value(at: progress))
    }
}
