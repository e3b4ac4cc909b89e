/// The app thread's side of the runtime: the clock it reads, its
/// transactions, and the turn that commits them and delivers callbacks.
///
/// A turn (`runTurn`) is what Core Animation does when the main run loop
/// goes round:
///
/// 0. blocks other threads posted (`post(_:)`: decoded images…) run;
/// 1. the app's work for this turn runs (`body`: input handlers, timers);
/// 2. the implicit transaction is committed (`flush`): layers marked for
///    layout are laid out inside it (`Layer.layoutIfNeeded()`, top down),
///    animations added in it get the commit time as their `beginTime`, and
///    `onCommit` runs — the point where a render-tree hand-off copies the
///    model tree;
/// 3. animations are checked against the clock (`processAnimations`): the
///    ones that began are reported started, the ones whose active duration
///    has ended are reported stopped and, with `isRemovedOnCompletion`,
///    removed from the model layer;
/// 4. callbacks run (`deliverCallbacks`): animation delegates first
///    (`didStart` before `didStop`), then transaction completion blocks;
///    changes they make are committed before the turn ends.
///
/// `nextEventTime` says when the next animation ends, so an event loop can
/// sleep until then (or until input) before the next turn.
///
/// Threading: everything here is app-thread state. `runTurn` holds `lock`
/// (see `Transaction.lock()`) for the whole turn.
public final class AppRunLoop {
    /// The run loop `Transaction` and the layers' actions use. Replace it
    /// (on the app thread, before any transaction is open) to drive time
    /// by hand: `AppRunLoop.current = AppRunLoop(clock: ManualClock())`.
    nonisolated(unsafe) public static var current = AppRunLoop(clock: MonotonicClock())

    /// What "now" is for implicit animations, commits and end times.
    public let clock: any Clock
    /// Called on the app thread at every outermost commit, with the commit
    /// time (media time, seconds). The render-tree hand-off hooks in here.
    public var onCommit: ((MediaTime) -> Void)?
    /// Held for the whole of each turn; `Transaction.lock()` takes it.
    public let lock = Lock(recursive: true)

    let transactions = TransactionStack()
    /// Display roots with layers marked for layout, laid out at the next
    /// outermost commit (`Layout/LayoutPass.swift`).
    let layoutQueue = LayoutQueue()
    /// Layers with animations whose start or end is still to be reported.
    /// Held strongly until then (CA's render tree keeps them too).
    private var trackedLayers: [Layer] = []
    /// Animations added in the open transaction that begin at its commit.
    private var pendingBegins: [(layer: Layer, id: UInt64)] = []
    private var callbacks: [Callback] = []
    private var nextAnimationID: UInt64 = 1
    /// Blocks other threads posted for the next turn (`post(_:)`).
    let posted = PostedBlocks()

    enum Callback {
        case didStart(any AnimationDelegate, Animation, String, Layer)
        case didStop(any AnimationDelegate, Animation, String, Layer, Bool)
    }

    public init(clock: any Clock) { self.clock = clock }

    /// The clock's time.
    public var now: MediaTime { clock.now }

    /// Nesting depth of open transactions (0: none).
    public var transactionDepth: Int { transactions.depth }

    // MARK: The turn

    /// One turn of the app's run loop (see the type's description).
    public func runTurn(_ body: () -> Void = {}) {
        lock.lock()
        defer { lock.unlock() }
        posted.runAll()
        body()
        flush()
        processAnimations()
        deliverCallbacks()
        flush()
    }

    /// Commits the implicit transaction if it is the only one open.
    public func flush() {
        guard transactions.depth == 1, transactions.isImplicitOnly else { return }
        let unsettled = layoutQueue.layOut()
        transactions.flushImplicitTransaction()
        if transactions.depth == 0 { didCommit(layoutUnsettled: unsettled) }
    }

    /// Closes the innermost transaction; the outermost one commits.
    func commitTransaction() {
        guard transactions.depth > 0 else { return }
        let unsettled = transactions.depth == 1 && layoutQueue.layOut()
        transactions.commit()
        if transactions.depth == 0 { didCommit(layoutUnsettled: unsettled) }
    }

    /// After the outermost commit. Layout ran just before it, inside the
    /// transaction (so its changes animate as the transaction says); a
    /// layer it left marked (`layoutUnsettled`) gets the next turn's commit.
    private func didCommit(layoutUnsettled: Bool) {
        let t = clock.now
        let begins = pendingBegins
        pendingBegins.removeAll()
        for (layer, id) in begins { layer.beginAtCommit(id: id, time: t) }
        onCommit?(t)
        if layoutUnsettled { transactions.ensureImplicitTransaction() }
    }

    /// Reports and removes animations that started or ended by `now`
    /// (default: the clock's time). See the type's description.
    public func processAnimations(at now: MediaTime? = nil) {
        let t = now ?? clock.now
        // Processing only reports and removes; it never adds animations
        // (callbacks run later), so `trackedLayers` does not grow here.
        var still: [Layer] = []
        for layer in trackedLayers {
            layer.processTrackedAnimations(at: t, loop: self)
            if layer.hasTrackedAnimations { still.append(layer) } else { layer.isTrackedByRunLoop = false }
        }
        trackedLayers = still
    }

    /// Runs queued delegate callbacks, then due completion blocks, until
    /// none are left (callbacks may queue more).
    public func deliverCallbacks() {
        var rounds = 0
        while (!callbacks.isEmpty || transactions.hasDueCompletions) && rounds < 64 {
            rounds += 1
            while !callbacks.isEmpty {
                let batch = callbacks
                callbacks.removeAll()
                for callback in batch {
                    switch callback {
                    case let .didStart(d, a, key, layer): d.animationDidStart(a, forKey: key, on: layer)
                    case let .didStop(d, a, key, layer, finished): d.animationDidStop(a, forKey: key, on: layer, finished: finished)
                    }
                }
            }
            transactions.deliverCompletions()
        }
    }

    /// The earliest media time at which a tracked animation ends, or starts
    /// with a delegate waiting for `animationDidStart` (so a turn then has
    /// something to report), or `nil` when none will (none tracked, or all
    /// infinite or paused).
    public var nextEventTime: MediaTime? {
        var best: MediaTime?
        for layer in trackedLayers {
            if let t = layer.nextTrackedEndTime(), t < (best ?? .infinity) { best = t }
        }
        return best
    }

    /// True when a turn now would have something to do: blocks were
    /// posted, a transaction is open (changes wait for their commit),
    /// delegate callbacks or completion handlers are due, or a tracked
    /// animation ends by the clock's time. An event loop with no input of
    /// its own turns only when this is true, and otherwise sleeps until
    /// `nextEventTime` (or until `onPost` wakes it): a still screen costs
    /// no turns, and a completion handler never waits for the next touch.
    /// App thread only (like the rest of the type, but `hasPostedBlocks`).
    public var hasPendingWork: Bool {
        if hasPostedBlocks || transactions.depth > 0 || !callbacks.isEmpty || transactions.hasDueCompletions { return true }
        if let end = nextEventTime, end <= clock.now { return true }
        return false
    }

    // MARK: Bookkeeping for layers

    func makeAnimationID() -> UInt64 {
        defer { nextAnimationID &+= 1 }
        return nextAnimationID
    }

    func track(_ layer: Layer) {
        guard !layer.isTrackedByRunLoop else { return }
        layer.isTrackedByRunLoop = true
        trackedLayers.append(layer)
    }

    func beginAtCommit(_ layer: Layer, id: UInt64) { pendingBegins.append((layer, id)) }

    func enqueue(_ callback: Callback) { callbacks.append(callback) }

    func animationEnded(_ ticket: AnimationTicket?) {
        if let ticket { transactions.finished(ticket) }
    }
}
