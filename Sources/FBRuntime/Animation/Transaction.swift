import CPosix

/// A handle for one animation added inside a transaction, so the
/// transaction learns when it ends.
public struct AnimationTicket: Hashable, Sendable {
    public let id: UInt64
}

/// CATransaction's bookkeeping: nested transactions with their settings,
/// and completion handlers that run once every animation added while the
/// transaction (or one nested in it) was open has finished or been removed.
///
/// Threading: app thread only, like the model tree. Completion handlers run
/// from `deliverCompletions()`, which the app thread's run loop calls —
/// never on the render thread.
///
/// Settings are looked up from the innermost open transaction outwards, so
/// an inner `begin()` inherits what it does not set; with none open (or none
/// set) they have CA's defaults: duration 0.25 s, actions enabled, the
/// default timing function (ease-in-ease-out for implicit animations).
///
/// Implicit transactions: `ensureImplicitTransaction()` opens one when a
/// property changes with none open; `flushImplicitTransaction()` commits
/// it at the end of the run-loop turn (CA's behaviour).
public final class TransactionStack {
    final class Group {
        var completion: (() -> Void)?
        var pending: Set<UInt64> = []
        var committed = false
        init() {}
    }

    struct Frame {
        var animationDuration: Double?
        var timingFunction: TimingFunction?
        var disableActions: Bool?
        var group = Group()
        var isImplicit = false
    }

    private var frames: [Frame] = []
    private var waiting: [Group] = []        // committed groups with animations still running
    private var due: [() -> Void] = []
    private var nextTicket: UInt64 = 1

    public init() {}

    /// Nesting depth (0: no transaction open).
    public var depth: Int { frames.count }

    /// Opens a transaction (CATransaction.begin).
    public func begin() { frames.append(Frame()) }

    /// Closes the innermost transaction (CATransaction.commit). Its
    /// completion handler becomes due once its animations have finished —
    /// at once if it has none. A commit with no open transaction is ignored
    /// (documented: CA logs it and does nothing).
    public func commit() {
        guard let frame = frames.popLast() else { return }
        let group = frame.group
        group.committed = true
        if group.pending.isEmpty {
            if let c = group.completion { due.append(c) }
        } else {
            waiting.append(group)
        }
    }

    /// Opens an implicit transaction if none is open.
    public func ensureImplicitTransaction() {
        if frames.isEmpty {
            var f = Frame()
            f.isImplicit = true
            frames.append(f)
        }
    }

    /// True when the only open transaction is the implicit one.
    var isImplicitOnly: Bool { frames.count == 1 && frames[0].isImplicit }

    /// Commits the implicit transaction, if the only open one is implicit.
    public func flushImplicitTransaction() {
        if frames.count == 1 && frames[0].isImplicit { commit() }
    }

    // MARK: Settings (innermost set value wins)

    public var animationDuration: Double {
        get { frames.reversed().lazy.compactMap { $0.animationDuration }.first ?? BasicAnimation.defaultDuration }
        set { if !frames.isEmpty { frames[frames.count - 1].animationDuration = newValue } }
    }

    public var timingFunction: TimingFunction? {
        get { frames.reversed().lazy.compactMap { $0.timingFunction }.first }
        set { if !frames.isEmpty { frames[frames.count - 1].timingFunction = newValue } }
    }

    public var disableActions: Bool {
        get { frames.reversed().lazy.compactMap { $0.disableActions }.first ?? false }
        set { if !frames.isEmpty { frames[frames.count - 1].disableActions = newValue } }
    }

    /// Sets the innermost transaction's completion handler (replacing an
    /// earlier one, as CA does). With no transaction open it runs at once on
    /// the next `deliverCompletions()`.
    public func setCompletionBlock(_ body: @escaping () -> Void) {
        if frames.isEmpty { due.append(body); return }
        frames[frames.count - 1].group.completion = body
    }

    // MARK: Animations

    /// Records an animation added now: every open transaction waits for it.
    public func register() -> AnimationTicket {
        let ticket = AnimationTicket(id: nextTicket)
        nextTicket &+= 1
        for frame in frames { frame.group.pending.insert(ticket.id) }
        return ticket
    }

    /// The animation behind `ticket` finished or was removed.
    public func finished(_ ticket: AnimationTicket) {
        for frame in frames { frame.group.pending.remove(ticket.id) }
        var still: [Group] = []
        for group in waiting {
            group.pending.remove(ticket.id)
            if group.pending.isEmpty {
                if let c = group.completion { due.append(c) }
            } else {
                still.append(group)
            }
        }
        waiting = still
    }

    /// True when completion handlers are waiting to run.
    public var hasDueCompletions: Bool { !due.isEmpty }

    /// Runs the completion handlers that are due, in the order they became
    /// due. Handlers may open transactions and add animations.
    public func deliverCompletions() {
        while !due.isEmpty {
            let batch = due
            due.removeAll()
            for body in batch { body() }
        }
    }
}

/// Core Animation's `CATransaction` for FBRuntime: batches of layer changes
/// on the app thread, with the settings their implicit animations use.
///
/// Every change to an animatable property of a layer in a displayed tree
/// (see `Layer.isDisplayRoot`) and every `Layer.add(_:forKey:)` happens
/// inside a transaction. If none is open, the first change opens an
/// *implicit* transaction, which `AppRunLoop.current` commits at the end of
/// the run-loop turn (`AppRunLoop.runTurn`). `begin()`/`commit()` make
/// explicit ones; they nest, and an inner transaction inherits every
/// setting it does not set itself. Only the outermost commit is a commit
/// point: marked layers are laid out, inside it (`docs/layout.md`),
/// animations added inside begin then (`Layer.add(_:forKey:)`), and
/// `AppRunLoop.onCommit` runs (the render-tree hand-off hooks in there).
///
/// The settings apply to the innermost open transaction; setting one with
/// none open opens the implicit transaction first (as CA does).
///
/// Threading: app thread. Another thread that must read-modify-write layer
/// properties brackets the change with `lock()`/`unlock()`; the app run
/// loop holds the same (recursive) lock for the whole of each turn, so the
/// change lands between turns and joins the next turn's transaction.
public enum Transaction {
    @inline(__always) static var loop: AppRunLoop { AppRunLoop.current }
    @inline(__always) static var stack: TransactionStack { AppRunLoop.current.transactions }

    /// Opens a transaction (nestable).
    public static func begin() { stack.begin() }

    /// Closes the innermost transaction. Closing the outermost one commits:
    /// layers marked for layout are laid out first, inside it (top down,
    /// see `Layer.setNeedsLayout()`), animations added in it begin now and
    /// `AppRunLoop.onCommit` runs. A commit with nothing open is ignored
    /// (CA logs and ignores it).
    public static func commit() { loop.commitTransaction() }

    /// Commits the implicit transaction now instead of at the end of the
    /// turn. With an explicit transaction open it does nothing: the changes
    /// are committed by the outermost explicit `commit()` (CA's rule).
    public static func flush() { loop.flush() }

    /// Duration of the implicit animations of this transaction, seconds
    /// (default 0.25, CA's). Clamp: NaN reads back as the default; zero or
    /// negative makes changes take effect without animation.
    public static var animationDuration: Double {
        get { stack.animationDuration }
        set {
            stack.ensureImplicitTransaction()
            stack.animationDuration = newValue.isNaN ? BasicAnimation.defaultDuration : Swift.max(0, newValue)
        }
    }

    /// Pacing of the implicit animations of this transaction; `nil` (the
    /// default) means `TimingFunction.default`, CA's choice for implicit
    /// animations.
    public static var animationTimingFunction: TimingFunction? {
        get { stack.timingFunction }
        set { stack.ensureImplicitTransaction(); stack.timingFunction = newValue }
    }

    /// True: property changes in this transaction run no actions (no
    /// implicit animations); the model changes at once.
    public static var disableActions: Bool {
        get { stack.disableActions }
        set { stack.ensureImplicitTransaction(); stack.disableActions = newValue }
    }

    /// Runs on the app thread, once, after every animation added in this
    /// transaction (and the ones nested in it) has finished or been removed
    /// — right after the commit if there are none. Replaces an earlier
    /// block of the same transaction. Opens the implicit transaction if
    /// none is open.
    public static func setCompletionBlock(_ body: @escaping () -> Void) {
        stack.ensureImplicitTransaction()
        stack.setCompletionBlock(body)
    }

    /// Runs `body` in its own transaction with actions disabled: changes
    /// without animation, e.g. while setting up a displayed tree.
    public static func withoutActions<T>(_ body: () -> T) -> T {
        begin()
        disableActions = true
        defer { commit() }
        return body()
    }

    /// Takes the transaction lock (recursive; the app run loop holds it for
    /// each turn). For read-modify-write of layer properties from another
    /// thread; balance every `lock()` with an `unlock()`.
    public static func lock() { loop.lock.lock() }
    public static func unlock() { loop.lock.unlock() }
}
