import Raster

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
    /// CA's `kCAMediaTimingFunctionDefault`, the curve of implicit
    /// animations: a gentle ease-in and a long ease-out.
    public static let `default` = TimingFunction(0.25, 0.1, 0.25, 1)

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

/// Interpolates one property (CABasicAnimation).
///
/// The endpoints follow CABasicAnimation's rules for the optional
/// `fromValue`, `toValue` and `byValue`, with `base` the layer's current
/// (model) value of the property, which the caller passes in:
///
/// | set            | animates                         |
/// |----------------|----------------------------------|
/// | from, to       | from → to                        |
/// | from, by       | from → from + by                 |
/// | by, to         | to − by → to                     |
/// | from           | from → base                      |
/// | to             | base → to                        |
/// | by             | base → base + by                 |
/// | none           | base → base (no visible change)  |
///
/// `isAdditive` adds the interpolated value to `base` (so from/to are
/// offsets); `isCumulative` adds `(end − start)` once per completed repeat
/// cycle, so each repetition continues where the last one ended. Timing
/// follows CAMediaTiming (see `MediaTiming`).
public struct BasicAnimation: MediaTimed, Sendable {
    public var key: AnimatableKey
    public var fromValue: AnimatableValue?
    public var toValue: AnimatableValue?
    public var byValue: AnimatableValue?
    public var isAdditive = false
    public var isCumulative = false
    /// Turns the interpolated scalar or point into a transform (so the
    /// animation's key should be `.transform`).
    public var valueFunction: ValueFunction?
    public var timing = MediaTiming()
    public var timingFunction: TimingFunction = .linear
    public var isRemovedOnCompletion = true
    /// Told on the app thread when the animation starts and stops; held
    /// strongly (CAAnimation's `delegate`).
    public var delegate: (any AnimationDelegate)? {
        get { delegateReference?.object }
        set { delegateReference = newValue.map(AnimationDelegateReference.init) }
    }
    var delegateReference: AnimationDelegateReference?

    /// CA's default duration for an animation whose `duration` is not set.
    public static let defaultDuration = 0.25

    public init(key: AnimatableKey, from: AnimatableValue? = nil, to: AnimatableValue? = nil, by: AnimatableValue? = nil,
                duration: Double = 0.25) {
        self.key = key; fromValue = from; toValue = to; byValue = by
        timing.duration = duration
    }


    public func hasFinished(at time: MediaTime) -> Bool {
        timing.hasFinished(atParentTime: time, default: BasicAnimation.defaultDuration)
    }

    /// The start and end values given the layer's current value `base`
    /// (see the table above); `nil` when an endpoint needs `base` and it is
    /// not given, or values of different kinds must be added.
    public func endpoints(base: AnimatableValue?) -> (from: AnimatableValue, to: AnimatableValue)? {
        func add(_ a: AnimatableValue, _ b: AnimatableValue, _ sign: Double = 1) -> AnimatableValue? {
            AnimatableValue.weightedSum(a, 1, b, sign)
        }
        switch (fromValue, toValue, byValue) {
        case let (from?, to?, _): return (from, to)
        case let (from?, nil, by?): return add(from, by).map { (from, $0) }
        case let (nil, to?, by?): return add(to, by, -1).map { ($0, to) }
        case let (from?, nil, nil): return base.map { (from, $0) }
        case let (nil, to?, nil): return base.map { ($0, to) }
        case let (nil, nil, by?): return base.flatMap { b in add(b, by).map { (b, $0) } }
        case (nil, nil, nil): return base.map { ($0, $0) }
        }
    }

    /// The animated value at `time`, or `nil` where the animation has no
    /// effect (outside its active duration without fill, or missing the
    /// `base` its endpoints need).
    public func value(at time: MediaTime, base: AnimatableValue? = nil) -> AnimatableValue? {
        value(at: time, base: base, default: BasicAnimation.defaultDuration) { state in
            timingFunction.value(at: state.progress)
        }
    }

    /// The value at `time` with the interpolation fraction (0 at the start
    /// value, 1 at the end value; beyond either extrapolates) given by
    /// `fraction` for the timing state — the timing function here, the
    /// spring's motion for `SpringAnimation`. `defaultDuration` stands in
    /// for a `duration` that is not positive.
    func value(at time: MediaTime, base: AnimatableValue?, default defaultDuration: Double,
               fraction: (MediaTiming.State) -> Double) -> AnimatableValue? {
        // An additive animation's endpoints are offsets: a missing one is
        // the zero of the value's kind, not the layer's value.
        var endpointBase = base
        if isAdditive {
            endpointBase = nil
            if let any = fromValue ?? toValue ?? byValue { endpointBase = AnimatableValue.weightedSum(any, 0) }
        }
        guard let state = timing.state(atParentTime: time, default: defaultDuration),
              let (from, to) = endpoints(base: endpointBase) else { return nil }
        var v = AnimatableValue.interpolate(from, to, fraction(state))
        if isCumulative && state.iteration > 0, from.isSameKind(as: to), v.isSameKind(as: to),
           let advanced = AnimatableValue.weightedSum(v, 1, to, Double(state.iteration), from, -Double(state.iteration)) {
            v = advanced
        }
        if let f = valueFunction, let t = f.transform(for: v) { v = .transform(t) }
        if isAdditive, let base {
            if case let .transform(t) = v, case let .transform(b) = base {
                v = .transform(t.concatenating(b))      // the animation acts in the layer's space, then the model
            } else if let sum = AnimatableValue.weightedSum(base, 1, v, 1) {
                v = sum
            }
        }
        return v
    }
}
