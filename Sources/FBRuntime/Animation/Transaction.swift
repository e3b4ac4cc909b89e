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
