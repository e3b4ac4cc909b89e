/// Told when an animation starts and stops (CAAnimationDelegate). Both
/// calls come on the app thread, from `AppRunLoop.runTurn`/
/// `deliverCallbacks()`, never from the render thread; `didStart` always
/// comes before `didStop` for one animation, and `didStop` exactly once.
///
/// Class-bound: Embedded Swift has existentials of class-bound protocols
/// only. The animation holds its delegate strongly (as CAAnimation does)
/// until `didStop` has been delivered.
public protocol AnimationDelegate: AnyObject {
    /// The animation began: the first turn at or after its `beginTime`.
    func animationDidStart(_ animation: Animation, forKey key: String, on layer: Layer)
    /// The animation ended: `finished` is true when it ran to the end of
    /// its active duration, false when it was removed (or replaced by one
    /// with the same key) before that.
    func animationDidStop(_ animation: Animation, forKey key: String, on layer: Layer, finished: Bool)
}

extension AnimationDelegate {
    public func animationDidStart(_ animation: Animation, forKey key: String, on layer: Layer) {}
    public func animationDidStop(_ animation: Animation, forKey key: String, on layer: Layer, finished: Bool) {}
}

/// Carries a delegate inside the (Sendable) animation values. The render
/// thread copies animations but never touches the delegate: it is called
/// on the app thread only, which is why the box may claim `Sendable`.
public struct AnimationDelegateReference: @unchecked Sendable {
    public let object: any AnimationDelegate
    public init(_ object: any AnimationDelegate) { self.object = object }
}

extension Animation {
    /// The delegate of the animation (of the group, for a group).
    public var delegate: (any AnimationDelegate)? {
        switch self {
        case let .basic(a): return a.delegate
        case let .keyframe(a): return a.delegate
        case let .group(g): return g.delegate
        case let .spring(s): return s.delegate
        case let .transition(t): return t.delegate
        }
    }
}
