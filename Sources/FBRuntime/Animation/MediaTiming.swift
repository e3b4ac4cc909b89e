/// What an animation shows outside its active duration (CA's `fillMode`).
public enum FillMode: Equatable, Sendable {
    /// No effect before the start or after the end (CA's default).
    case removed
    /// After the end, hold the final value.
    case forwards
    /// Before the start (a `beginTime` in the future), hold the first value.
    case backwards
    /// Both.
    case both

    var fillsForwards: Bool { self == .forwards || self == .both }
    var fillsBackwards: Bool { self == .backwards || self == .both }
}

/// The timing of an animation, or of an object that hosts animations, as
/// CAMediaTiming models it: a map from the parent's time to local time in
/// two stages.
///
/// 1. **Active local time** `ta = (t − beginTime) · speed`: where the object
///    starts on the parent's timeline and how fast it runs (speed 0
///    pauses; then only `timeOffset` says where it stands).
/// 2. **Basic local time**: the active duration — `repeatDuration` if set,
///    else `repeatCount` cycles (1 if 0), a cycle being `duration`, doubled
///    with `autoreverses` — is walked from `timeOffset` on, wrapping around
///    at its end (so an animation with a `timeOffset` plays from there to
///    the end and then from the start, as in Core Animation), and folded
///    into one pass: forwards, or backwards in the second half of an
///    autoreversing cycle.
///
/// All times are seconds. Values that make no sense are clamped, not
/// trapped on: a `duration` ≤ 0 or NaN takes the owner's default (0.25 s for
/// animations, CA's), NaN speed counts as 1, NaN offsets as 0; a negative
/// `speed` plays each pass backwards (progress `1 − p`) at `|speed|`.
public struct MediaTiming: Equatable, Sendable {
    /// When the object starts, in the parent's time. 0 for an animation
    /// means "when it is added" (the layer sets it then).
    public var beginTime: Double = 0
    /// One pass, seconds.
    public var duration: Double = 0
    public var speed: Double = 1
    /// Added to the active local time: where in its active duration the
    /// object starts (and, at speed 0, where it stands).
    public var timeOffset: Double = 0
    /// Cycles to play; fractional values stop part-way; `.infinity` repeats
    /// for ever; 0 means one.
    public var repeatCount: Double = 0
    /// Seconds to repeat for, overriding `repeatCount` when positive.
    public var repeatDuration: Double = 0
    public var autoreverses = false
    public var fillMode: FillMode = .removed

    public init() {}

    /// The length of one pass: `duration`, or `defaultDuration` when it is
    /// not positive.
    @inlinable public func simpleDuration(default defaultDuration: Double) -> Double {
        duration > 0 ? duration : defaultDuration
    }

    /// The active duration in local seconds (see the type's description);
    /// may be infinite.
    public func activeDuration(default defaultDuration: Double) -> Double {
        let cycle = simpleDuration(default: defaultDuration) * (autoreverses ? 2 : 1)
        if repeatDuration > 0 { return repeatDuration }
        if repeatCount > 0 { return repeatCount * cycle }
        return cycle
    }

    /// The active duration as the parent sees it (`activeDuration / |speed|`),
    /// infinite for a paused object.
    public func parentActiveDuration(default defaultDuration: Double) -> Double {
        let s = effectiveSpeed.magnitude
        return s > 0 ? activeDuration(default: defaultDuration) / s : .infinity
    }

    var effectiveSpeed: Double { speed.isNaN ? 1 : speed }

    /// Where the object is at the parent's time `t`, or `nil` when it has
    /// no effect (not started and not filling backwards, or finished and
    /// not filling forwards).
    public struct State: Equatable, Sendable {
        /// Progress through the current pass, 0…1, before any timing
        /// function.
        public var progress: Double
        /// The same as basic local time, seconds (`progress · duration`).
        public var localTime: Double
        /// Which cycle of the repetition this is, from 0 (for cumulative
        /// animations).
        public var iteration: Int
    }

    public func state(atParentTime t: Double, default defaultDuration: Double) -> State? {
        let d = simpleDuration(default: defaultDuration)
        let cycle = d * (autoreverses ? 2 : 1)
        let active = activeDuration(default: defaultDuration)
        let s = effectiveSpeed
        let elapsed = t - beginTime
        guard !elapsed.isNaN else { return nil }
        if elapsed < 0 {
            guard fillMode.fillsBackwards else { return nil }
            return finish(position(0, d: d, cycle: cycle, active: active), d: d, reversed: s < 0)
        }
        let ta = s == 0 ? 0 : elapsed * s.magnitude
        if ta >= active {
            guard fillMode.fillsForwards else { return nil }
            return finish(endPosition(d: d, cycle: cycle, active: active), d: d, reversed: s < 0)
        }
        return finish(position(ta, d: d, cycle: cycle, active: active), d: d, reversed: s < 0)
    }

    /// True once the parent's time `t` is at or past the end of the active
    /// duration (never for infinite or paused objects).
    public func hasFinished(atParentTime t: Double, default defaultDuration: Double) -> Bool {
        t - beginTime >= parentActiveDuration(default: defaultDuration)
    }

    /// Local time within one pass, and the cycle index, for active local
    /// time `ta` in `0 ..< active`.
    private func position(_ ta: Double, d: Double, cycle: Double, active: Double) -> (Double, Int) {
        var lt = ta + (timeOffset.isFinite ? timeOffset : 0)
        if active.isFinite && active > 0 {
            lt = lt - (lt / active).rounded(.down) * active           // wrap into 0 ..< active
        }
        guard cycle.isFinite, cycle > 0 else { return (0, 0) }
        let cycles = (lt / cycle).rounded(.down)
        var c = lt - cycles * cycle                                  // 0 ..< cycle
        if c < 0 { c = 0 }
        return (autoreverses && c > d ? cycle - c : c, iterationIndex(cycles))
    }

    /// Local time at the very end of the active duration: the end of the
    /// last pass (the start again after a whole autoreversing cycle), or
    /// where a fractional repeat count stopped.
    private func endPosition(d: Double, cycle: Double, active: Double) -> (Double, Int) {
        guard active.isFinite, cycle > 0 else { return (autoreverses ? 0 : d, 0) }
        // With a time offset the last pass stops where the offset puts the
        // end of the active duration (wrapped within it, as `position`
        // wraps): held there, not at the end of a pass (a jump at the end;
        // the Web Animations model agrees: an iteration start shifts the
        // end too). On a pass boundary, the end of that pass (below).
        let offset = timeOffset.isFinite ? timeOffset : 0
        if offset != 0, active > 0 {
            var lt = active + offset
            lt = lt - (lt / active).rounded(.down) * active
            let cycles = (lt / cycle).rounded(.down)
            let c = lt - cycles * cycle
            if c > 0 && c < cycle { return (autoreverses && c > d ? cycle - c : c, iterationIndex(cycles)) }
        }
        let cycles = active / cycle
        let whole = cycles.rounded(.down)
        let fraction = cycles - whole
        if fraction == 0 { return (autoreverses ? 0 : d, iterationIndex(whole - 1)) }
        let c = fraction * cycle
        return (autoreverses && c > d ? cycle - c : c, iterationIndex(whole))
    }

    private func iterationIndex(_ v: Double) -> Int {
        v > 0 ? (v < 1e15 ? Int(v) : 1_000_000_000_000_000) : 0
    }

    private func finish(_ position: (Double, Int), d: Double, reversed: Bool) -> State {
        var p = d > 0 ? position.0 / d : 0
        if !(p >= 0) { p = 0 } else if p > 1 { p = 1 }
        if reversed { p = 1 - p }
        return State(progress: p, localTime: p * d, iteration: position.1)
    }
}

/// A type whose timing is a `MediaTiming` value: the animations, the
/// transition and the group. It gets CAMediaTiming's spelling of the
/// fields (`animation.duration = 2`, `animation.repeatCount = .infinity`)
/// from this protocol's extension, one definition for all of them.
/// (`Layer` spells them out itself: its timing fields live with its other
/// properties.)
public protocol MediaTimed {
    var timing: MediaTiming { get set }
}

extension MediaTimed {
    /// When it starts, in its parent's time; 0 for an animation: when added.
    public var beginTime: MediaTime { get { timing.beginTime } set { timing.beginTime = newValue } }
    /// One pass, seconds (≤ 0: the default, 0.25 s for animations).
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
}
