import Raster

/// Any animation a layer can run: the CAAnimation family as one value type.
/// Groups nest: a group's members run on the group's local time
/// (CAAnimationGroup), so a member's `beginTime` is measured from the
/// group's start and the group's `speed`, `timeOffset` and duration apply to
/// everything inside it.
public indirect enum Animation: MediaTimed, Sendable {
    case basic(BasicAnimation)
    case keyframe(KeyframeAnimation)
    case group(AnimationGroup)
    case spring(SpringAnimation)
    /// Images of the layer's subtree before and after a change (see
    /// `Transition`); sets no property values.
    case transition(Transition)

    public var timing: MediaTiming {
        get {
            switch self {
            case let .basic(a): return a.timing
            case let .keyframe(a): return a.timing
            case let .group(g): return g.timing
            case let .spring(a): return a.timing
            case let .transition(t): return t.timing
            }
        }
        set {
            switch self {
            case var .basic(a): a.timing = newValue; self = .basic(a)
            case var .keyframe(a): a.timing = newValue; self = .keyframe(a)
            case var .group(g): g.timing = newValue; self = .group(g)
            case var .spring(a): a.timing = newValue; self = .spring(a)
            case var .transition(t): t.timing = newValue; self = .transition(t)
            }
        }
    }

    /// Whether the layer drops the animation once it has finished (CA's
    /// `isRemovedOnCompletion`).
    public var isRemovedOnCompletion: Bool {
        switch self {
        case let .basic(a): return a.isRemovedOnCompletion
        case let .keyframe(a): return a.isRemovedOnCompletion
        case let .group(g): return g.isRemovedOnCompletion
        case let .spring(a): return a.isRemovedOnCompletion
        case let .transition(t): return t.isRemovedOnCompletion
        }
    }

    /// The length of one pass when `duration` is not positive: 0.25 s
    /// (CA's), or a spring's `settlingDuration`.
    public var defaultDuration: Double {
        if case let .spring(a) = self { return a.settlingDuration }
        return BasicAnimation.defaultDuration
    }

    public func hasFinished(at time: MediaTime) -> Bool {
        timing.hasFinished(atParentTime: time, default: defaultDuration)
    }

    /// Appends the (key, value) pairs this animation sets at `time` (in its
    /// parent's time), later entries overriding earlier ones for a key.
    /// `base` gives a key's current value, for by-values and additive
    /// animations (see `BasicAnimation`).
    public func values(at time: MediaTime, base: (AnimatableKey) -> AnimatableValue? = { _ in nil },
                       into result: inout [(key: AnimatableKey, value: AnimatableValue)]) {
        switch self {
        case let .basic(a):
            if let v = a.value(at: time, base: base(a.key)) { result.append((a.key, v)) }
        case let .keyframe(a):
            if a.pathSampler != nil {
                guard let s = a.pathSample(at: time) else { break }
                result.append((a.key, .point(s.point)))
                if let mode = a.rotationMode {
                    result.append((.transformRotationZ, .scalar(mode == .auto ? s.angle : s.angle + FloatMath.twoPi / 2)))
                }
            } else if let v = a.value(at: time) {
                result.append((a.key, v))
            }
        case let .group(g):
            g.values(at: time, base: base, into: &result)
        case let .spring(a):
            if let v = a.value(at: time, base: base(a.key)) { result.append((a.key, v)) }
        case .transition:
            break       // drawn by the compositor (Compositor+Transition.swift)
        }
    }
}

/// Several animations run together on one timeline (CAAnimationGroup).
/// The group's `duration` clips its members: a member still running when
/// the group ends stops (or holds, if the group fills forwards, at the
/// group's end time). A `duration` ≤ 0 means CA's default 0.25 s.
public struct AnimationGroup: MediaTimed, Sendable {
    public var animations: [Animation]
    public var timing = MediaTiming()
    public var isRemovedOnCompletion = true
    /// Told on the app thread when the animation starts and stops; held
    /// strongly (CAAnimation's `delegate`).
    public var delegate: (any AnimationDelegate)? {
        get { delegateReference?.object }
        set { delegateReference = newValue.map(AnimationDelegateReference.init) }
    }
    var delegateReference: AnimationDelegateReference?

    public init(_ animations: [Animation], duration: Double = 0.25) {
        self.animations = animations
        timing.duration = duration
    }

    func values(at time: MediaTime, base: (AnimatableKey) -> AnimatableValue?,
                into result: inout [(key: AnimatableKey, value: AnimatableValue)]) {
        guard let state = timing.state(atParentTime: time, default: BasicAnimation.defaultDuration) else { return }
        for animation in animations { animation.values(at: state.localTime, base: base, into: &result) }
    }
}
