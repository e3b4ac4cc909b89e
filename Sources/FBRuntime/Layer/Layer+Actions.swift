/// What a layer does when one of its animatable properties changes (CA's
/// `CAAction`), as returned by `Layer.action(forKey:)`.
public enum LayerAction {
    /// Core Animation's implicit animation: a `BasicAnimation` from the
    /// presentation value (where the layer is on screen now) to the new
    /// model value, with the transaction's `animationDuration` and
    /// `animationTimingFunction`, added under the property's key path.
    case implicitAnimation
    /// Adds this animation under the property's key path, animating that
    /// property (its `key` is set to it; a group is added as it is). A
    /// basic or spring animation with none of from/to/by set animates from
    /// the presentation value to the new model value (CA's rule for a nil
    /// from and to).
    case animation(Animation)
    /// Calls the handler (CA's `run(forKey:object:arguments:)`).
    case handler(any LayerActionHandler)
    /// Stop looking and do nothing (CA's `NSNull`): the change is
    /// immediate.
    case none
}

/// A custom action object (CAAction). Class-bound for Embedded Swift.
public protocol LayerActionHandler: AnyObject {
    /// Runs after the model value of `key` changed; `presentationValue` is
    /// where the layer was on screen just before (nil for keys with no
    /// value, such as an unset background colour).
    func run(forKey key: AnimatableKey, on layer: Layer, presentationValue: AnimatableValue?)
}

/// The layer's delegate (CALayerDelegate's action part).
public protocol LayerDelegate: AnyObject {
    /// The action for a change of `key`: `nil` lets the lookup go on (the
    /// layer's `actions`, then the class default); `.none` stops it.
    func action(for layer: Layer, forKey key: AnimatableKey) -> LayerAction?
}

extension LayerDelegate {
    public func action(for layer: Layer, forKey key: AnimatableKey) -> LayerAction? { nil }
}

/// A layer's `actions` table: actions by key (CALayer's `actions`
/// dictionary). A few entries, searched linearly.
public struct LayerActionTable {
    private var entries: [(key: AnimatableKey, action: LayerAction)] = []
    public init() {}

    public subscript(key: AnimatableKey) -> LayerAction? {
        get { entries.first { $0.key == key }?.action }
        set {
            entries.removeAll { $0.key == key }
            if let newValue { entries.append((key, newValue)) }
        }
    }

    public var isEmpty: Bool { entries.isEmpty }
}

/// One animation on a layer whose start, end and transaction the app run
/// loop reports.
struct TrackedAnimation {
    var id: UInt64
    var key: String
    var ticket: AnimationTicket?
    var delegate: AnimationDelegateReference?
    /// Its `beginTime` becomes the commit time of its transaction.
    var beginsAtCommit = false
    var started = false
    var stopped = false
}

/// The action and animation-tracking state of a layer (stored in `Layer`
/// as one field, so the class body stays about geometry and pixels).
struct LayerActionState {
    unowned(unsafe) var delegate: (any LayerDelegate)?
    var actions = LayerActionTable()
    var tracked: [TrackedAnimation] = []
    /// Presentation values captured in `willSet`, used by `didSet`.
    var pendingFrom: [(key: AnimatableKey, value: AnimatableValue?)] = []
    var isDisplayRoot = false
    var isTracked = false
    /// Set on presentation copies: the model layer they show. Not retained
    /// (the model root retains its latest presentation tree, see
    /// `presentation(at:)`, so a strong reference would be a cycle).
    unowned(unsafe) var model: Layer?
    /// Set on render-tree twins (`RenderTreeUpdate.twin(of:)`): like a
    /// presentation copy, a twin never runs actions or layout, whatever
    /// its setters are called with (the render thread must not touch the
    /// app run loop, nor walk a tree `apply` is rebuilding).
    var isRenderTwin = false
    /// A layer of the app's model tree: neither a presentation copy nor a
    /// render twin. Only these run actions and layout.
    var isModelSide: Bool { model == nil && !isRenderTwin }
    /// On a model root: the last presentation tree made of it, which keeps
    /// that tree's layers (and their superlayers) alive.
    var presentationTree: Layer?
    /// Custom animatable properties set on this layer (the rest have their
    /// class's default value), see `Layer+CustomProperties.swift`.
    var customValues: [(key: String, value: AnimatableValue)] = []
    var needsDisplay = false
    /// While `draw(in:)` runs: the presentation values it sees.
    var isDrawing = false
    var drawValues: [(key: String, value: AnimatableValue)] = []
    /// Set while hit testing asks `contains(_:)`: the layer's local time,
    /// at which `value(forKey:)` gives presentation values.
    var hitTestTime: MediaTime?
    var displayStore: LayerDisplayStore?
    /// A non-interpolable property about to change (`willSet`) and the
    /// before image rendered for its transition (`Layer+Transition.swift`).
    var pendingSubtreeKey: AnimatableKey?
    var pendingSubtreeImage: TransitionImage?
    /// Set while the backing store becomes `contents` (no action runs).
    var isStoringBackingStore = false
    init() {}
}

// MARK: - Public API

extension Layer {
    /// The layer's delegate, asked first for actions. Not retained
    /// (`unowned(unsafe)`: Embedded Swift has no `weak`): it must outlive
    /// the layer or be set to nil first.
    public var delegate: (any LayerDelegate)? {
        get { actionState.delegate }
        set { actionState.delegate = newValue }
    }

    /// Actions by key, asked after the delegate (CALayer's `actions`).
    public var actions: LayerActionTable {
        get { actionState.actions }
        set { actionState.actions = newValue }
    }

    /// Marks the root of a tree a display shows. Property changes run
    /// actions (implicit animations) only for layers whose root has this
    /// flag: a tree still being built off screen, or a layer not in one,
    /// changes at once — the rule that keeps initial setup from animating
    /// (CA: layers not in a rendered tree have nothing to animate from).
    /// Whoever hands the tree to a display sets it; tests set it directly.
    public var isDisplayRoot: Bool {
        get { actionState.isDisplayRoot }
        set { actionState.isDisplayRoot = newValue; if newValue { didBecomeDisplayRootForLayout() } }
    }

    /// True when this layer's root is a display root (see `isDisplayRoot`).
    /// - Complexity: O(depth); a walk longer than `Compositor.maximumDepth`
    ///   (deeper than anything drawn) answers `false`.
    public var isInDisplayedTree: Bool {
        var l: Layer = self
        var steps = 0
        while let parent = l.superlayer {
            steps += 1
            if steps > Compositor.maximumDepth { return false }
            l = parent
        }
        return l.actionState.isDisplayRoot
    }

    /// The action lookup CA does for a change of `key`: the delegate, then
    /// `actions`, then the class's `defaultAction(forKey:)`; `nil` when none
    /// gives one. The first answer wins, `.none` included.
    public func lookUpAction(forKey key: AnimatableKey) -> LayerAction? {
        if let d = actionState.delegate, let a = d.action(for: self, forKey: key) { return a }
        if !actionState.actions.isEmpty, let a = actionState.actions[key] { return a }
        return Self.defaultAction(forKey: key)
    }

    /// Adds `animation` in the current transaction (CA's
    /// `add(_:forKey:)`): a `beginTime` of 0 means "when the transaction
    /// commits" (kept at the clock's now until then), and the transaction's
    /// completion block waits for it. Opens the implicit transaction if none
    /// is open. Replaces an animation with the same key (whose delegate
    /// hears `didStop(finished: false)`).
    /// - Throws: `AnimationError` when a value does not fit its key; the
    ///   layer is unchanged then.
    public func add(_ animation: Animation, forKey key: String) throws(AnimationError) {
        try animation.validate()
        try checkKeys(of: animation)
        let loop = AppRunLoop.current
        loop.transactions.ensureImplicitTransaction()
        let beginsAtCommit = animation.timing.beginTime == 0
        add(animation, forKey: key, at: loop.clock.now)
        if beginsAtCommit, let i = actionState.tracked.lastIndex(where: { $0.key == key }) {
            actionState.tracked[i].beginsAtCommit = true
            loop.beginAtCommit(self, id: actionState.tracked[i].id)
        }
    }

    /// Refuses an animation of a custom key this layer does not have.
    private func checkKeys(of animation: Animation) throws(AnimationError) {
        let key: AnimatableKey
        switch animation {
        case let .basic(a): key = a.key
        case let .keyframe(a): key = a.key
        case let .spring(a): key = a.key
        case let .group(g):
            for member in g.animations { try checkKeys(of: member) }
            return
        case .transition: return
        }
        if !hasAnimatableProperty(key) { throw .unknownKey(key: key.path, layer: name) }
    }

    public func add(_ animation: BasicAnimation, forKey key: String) throws(AnimationError) {
        try add(.basic(animation), forKey: key)
    }

    public func add(_ animation: KeyframeAnimation, forKey key: String) throws(AnimationError) {
        try add(.keyframe(animation), forKey: key)
    }

    public func add(_ group: AnimationGroup, forKey key: String) throws(AnimationError) {
        try add(.group(group), forKey: key)
    }

    public func add(_ animation: SpringAnimation, forKey key: String) throws(AnimationError) {
        try add(.spring(animation), forKey: key)
    }

    /// The presentation value of `key` now (`AppRunLoop.current`'s clock).
    public func presentationValue(for key: AnimatableKey) -> AnimatableValue? {
        presentationValue(for: key, at: AppRunLoop.current.clock.now)
    }
}

// MARK: - Property changes (called from the observers in Layer.swift)

extension Layer {
    /// The run loop whose transaction a change of this layer joins, when
    /// the change should run actions; `nil` otherwise (see `isDisplayRoot`).
    func loopForActions() -> AppRunLoop? {
        guard actionState.isModelSide, isInDisplayedTree else { return nil }
        let loop = AppRunLoop.current
        loop.transactions.ensureImplicitTransaction()
        return loop.transactions.disableActions ? nil : loop
    }

    /// Before `key` changes: remember where the layer is on screen.
    func willChangeValue(forKey key: AnimatableKey) {
        guard let loop = loopForActions() else { return }
        if case let .custom(name) = key {
            let v = customPresentationValue(forKey: name, atLocalTime: convertTime(loop.clock.now, from: nil))
            actionState.pendingFrom.append((key, v))
            return
        }
        let p = PresentationValues(self, at: convertTime(loop.clock.now, from: nil))
        actionState.pendingFrom.append((key, p.value(for: key)))
    }

    /// Before the geometry changes to `new`: remember the presentation
    /// values of the properties that change.
    func willChangeGeometry(to new: LayerGeometry) {
        let old = geometry
        let changes = (bounds: old.bounds != new.bounds, position: old.position != new.position,
                       zPosition: old.zPosition != new.zPosition, anchorPoint: old.anchorPoint != new.anchorPoint,
                       anchorPointZ: old.anchorPointZ != new.anchorPointZ, transform: old.transform != new.transform,
                       sublayerTransform: old.sublayerTransform != new.sublayerTransform)
        guard changes.bounds || changes.position || changes.zPosition || changes.anchorPoint || changes.anchorPointZ
                || changes.transform || changes.sublayerTransform,
              let loop = loopForActions() else { return }
        // Straight into `pendingFrom`, which keeps its storage from change
        // to change: no list of keys made per change (a list's rows
        // recycled while it scrolls move every frame).
        let p = PresentationValues(self, at: convertTime(loop.clock.now, from: nil))
        func note(_ key: AnimatableKey) { actionState.pendingFrom.append((key, p.value(for: key))) }
        if changes.bounds { note(.bounds) }
        if changes.position { note(.position) }
        if changes.zPosition { note(.zPosition) }
        if changes.anchorPoint { note(.anchorPoint) }
        if changes.anchorPointZ { note(.anchorPointZ) }
        if changes.transform { note(.transform) }
        if changes.sublayerTransform { note(.sublayerTransform) }
    }

    /// After a change: run the action of every property captured before it.
    func didChangeValues() {
        noteModelChange()
        guard !actionState.pendingFrom.isEmpty else { return }
        // Taken out by a swap (an action may change properties again, which
        // notes into an empty list); the storage goes back afterwards, so
        // changes in steady state allocate nothing.
        var changes: [(key: AnimatableKey, value: AnimatableValue?)] = []
        swap(&changes, &actionState.pendingFrom)
        for (key, from) in changes {
            guard let action = lookUpAction(forKey: key) else { continue }
            run(action, forKey: key, from: from)
        }
        if actionState.pendingFrom.isEmpty {
            changes.removeAll(keepingCapacity: true)
            swap(&changes, &actionState.pendingFrom)
        }
    }

    private func run(_ action: LayerAction, forKey key: AnimatableKey, from: AnimatableValue?) {
        switch action {
        case .none:
            return
        case let .handler(h):
            h.run(forKey: key, on: self, presentationValue: from)
        case .implicitAnimation:
            let stack = AppRunLoop.current.transactions
            let duration = stack.animationDuration
            // Nothing to animate from, no time to animate in, or no
            // visible change: the new value shows at once.
            let model: AnimatableValue?
            if case let .custom(name) = key { model = modelValue(forKey: name) } else { model = PresentationValues(modelOf: self).value(for: key) }
            guard duration > 0, let from, from != model else { return }
            var a = BasicAnimation(key: key, from: from, duration: duration)
            a.timingFunction = stack.timingFunction ?? .default
            try? add(.basic(a), forKey: key.path)
        case let .animation(animation):
            // The action for `key` animates `key` (CA fills in a nil keyPath
            // the same way); a group is added as it is.
            var a = animation
            switch a {
            case var .basic(b):
                b.key = key
                if b.fromValue == nil && b.toValue == nil && b.byValue == nil { b.fromValue = from }
                a = .basic(b)
            case var .spring(b):
                b.key = key
                if b.fromValue == nil && b.toValue == nil && b.byValue == nil { b.fromValue = from }
                a = .spring(b)
            case var .keyframe(k):
                k.key = key
                a = .keyframe(k)
            case .group:
                break
            case .transition:
                // Non-interpolable keys take theirs in `didChangeSubtree`;
                // for other keys the image is the one rendered now.
                try? add(a, forKey: Transition.key)
                return
            }
            try? add(a, forKey: key.path)
        }
    }
}

// MARK: - Tracking animations for the app run loop

extension Layer {
    var isTrackedByRunLoop: Bool {
        get { actionState.isTracked }
        set { actionState.isTracked = newValue }
    }

    var hasTrackedAnimations: Bool { actionState.tracked.contains { !$0.stopped } }

    /// Called by `add(_:forKey:at:)` after it appended the animation.
    func didAddAnimation(forKey key: String) {
        let loop = AppRunLoop.current
        let delegate = animation(forKey: key)?.delegate
        let ticket = loop.transactions.depth > 0 ? loop.transactions.register() : nil
        // Nothing to report and nobody to remove it for: do not track (a
        // program adding animations with explicit times and never running
        // turns would otherwise grow the run loop's list for ever).
        guard ticket != nil || delegate != nil || isInDisplayedTree else { return }
        actionState.tracked.append(TrackedAnimation(id: loop.makeAnimationID(), key: key, ticket: ticket,
                                                    delegate: delegate.map(AnimationDelegateReference.init)))
        loop.track(self)
    }

    /// Called whenever `animations` changed: an animation that is gone
    /// (removed or replaced) and was not reported stopped is now — as
    /// finished if it had run to its end.
    func animationsDidChange(from old: [(key: String, animation: Animation)]) {
        // A removed animation of a property the layer draws: draw once more,
        // with the model value.
        for (key, animation) in old where !actionState.needsDisplay && !animations.contains(where: { $0.key == key }) {
            if animation.touchesKeyNeedingDisplay(Self.self) { actionState.needsDisplay = true }
        }
        guard !actionState.tracked.isEmpty else { return }
        var i = 0
        while i < actionState.tracked.count {
            let record = actionState.tracked[i]
            if animations.contains(where: { $0.key == record.key }) { i += 1; continue }
            actionState.tracked.remove(at: i)
            guard !record.stopped else { continue }
            let loop = AppRunLoop.current
            if let removed = old.first(where: { $0.key == record.key })?.animation {
                let finished = removed.hasFinished(at: convertTime(loop.clock.now, from: nil))
                if let d = record.delegate?.object {
                    if finished && !record.started { loop.enqueue(.didStart(d, removed, record.key, self)) }
                    loop.enqueue(.didStop(d, removed, record.key, self, finished))
                }
            }
            loop.animationEnded(record.ticket)
        }
    }

    /// The transaction of animation `id` committed at global time `time`.
    func beginAtCommit(id: UInt64, time: MediaTime) {
        guard let r = actionState.tracked.firstIndex(where: { $0.id == id }) else { return }
        actionState.tracked[r].beginsAtCommit = false
        let key = actionState.tracked[r].key
        if let i = animations.firstIndex(where: { $0.key == key }) {
            animations[i].animation.timing.beginTime = convertTime(time, from: nil)
        }
    }

    /// Reports starts and ends up to global time `time`; removes ended
    /// animations that are removed on completion.
    func processTrackedAnimations(at time: MediaTime, loop: AppRunLoop) {
        let local = convertTime(time, from: nil)
        var toRemove: [String] = []
        for i in actionState.tracked.indices {
            let record = actionState.tracked[i]
            guard !record.stopped, !record.beginsAtCommit,
                  let animation = animation(forKey: record.key) else { continue }
            let d = record.delegate?.object
            if !record.started && local >= animation.timing.beginTime {
                actionState.tracked[i].started = true
                if let d { loop.enqueue(.didStart(d, animation, record.key, self)) }
            }
            if animation.hasFinished(at: local) {
                if !actionState.tracked[i].started, let d { loop.enqueue(.didStart(d, animation, record.key, self)) }
                actionState.tracked[i].started = true
                actionState.tracked[i].stopped = true
                actionState.tracked[i].delegate = nil
                if let d { loop.enqueue(.didStop(d, animation, record.key, self, true)) }
                loop.animationEnded(record.ticket)
                if animation.isRemovedOnCompletion { toRemove.append(record.key) }
            }
        }
        for key in toRemove { removeAnimation(forKey: key) }
        actionState.tracked.removeAll { r in r.stopped && !animations.contains { $0.key == r.key } }
    }

    /// Global media time of the earliest event of a tracked animation: its
    /// start when a delegate waits to be told of it, else its end.
    func nextTrackedEndTime() -> MediaTime? {
        var best: MediaTime?
        for record in actionState.tracked where !record.stopped {
            guard let a = animation(forKey: record.key) else { continue }
            let end = a.timing.beginTime + a.timing.parentActiveDuration(default: a.defaultDuration)
            let event = !record.started && record.delegate != nil ? Swift.min(a.timing.beginTime, end) : end
            guard let g = globalTime(fromLocal: event), g < (best ?? .infinity) else { continue }
            best = g
        }
        return best
    }

    /// The global media time at which this layer's local clock reads `t`;
    /// `nil` when a paused layer on the way never gets there, or a layer
    /// whose timeline repeats or ends (`duration` > 0: not invertible).
    func globalTime(fromLocal t: MediaTime) -> MediaTime? {
        var g = t
        var l: Layer? = self
        while let current = l {
            let s = current.speed.isNaN ? 1 : current.speed
            guard s != 0, !current.hasFiniteTimeline else { return nil }
            let b = current.beginTime.isFinite ? current.beginTime : 0
            let o = current.timeOffset.isFinite ? current.timeOffset : 0
            g = (g - o) / s + b
            l = current.superlayer
        }
        return g.isFinite ? g : nil
    }
}
