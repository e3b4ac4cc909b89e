/// The bounded queue of render-tree updates between the app thread (which
/// pushes one per commit) and the render thread (which takes them all at
/// the start of a frame): at most `capacity` (two) updates wait, as
/// Flutter's pipeline depth. A commit finding the queue full is coalesced
/// into the newest pending update (`RenderTreeUpdate.coalesced(with:)`), so
/// the app thread never waits for the render thread to draw.
///
/// Threading: `push` on the app thread, `take` on the render thread. The
/// lock is held only to move references in and out (coalescing happens
/// outside it), so neither thread holds it for long.
public final class RenderTreeQueue {
    /// Most updates waiting at once.
    public static let capacity = 2

    private let lock = Lock()
    private var pending: [RenderTreeUpdate] = []
    private var coalescedCount = 0
    private var deepest = 0

    public init() { pending.reserveCapacity(RenderTreeQueue.capacity) }

    /// Updates waiting now (≤ `capacity`).
    public var count: Int { lock.withLock { pending.count } }
    /// Commits folded into a pending update so far.
    public var coalescedCommits: Int { lock.withLock { coalescedCount } }
    /// The most updates that ever waited at once.
    public var deepestQueue: Int { lock.withLock { deepest } }

    /// Queues `update` (app thread). Returns true when it was coalesced
    /// into a pending update rather than queued on its own.
    @discardableResult
    public func push(_ update: RenderTreeUpdate) -> Bool {
        let newest: RenderTreeUpdate? = lock.withLock {
            if pending.count < RenderTreeQueue.capacity {
                pending.append(update)
                deepest = Swift.max(deepest, pending.count)
                return nil
            }
            return pending.removeLast()
        }
        guard let newest else { return false }
        // The render thread may take the other pending update meanwhile;
        // the merged one still goes last, so the order is kept.
        let merged = newest.coalesced(with: update)
        lock.withLock {
            pending.append(merged)
            coalescedCount += 1
            deepest = Swift.max(deepest, pending.count)
        }
        return true
    }

    /// Moves the pending updates, oldest first, to the end of `updates`
    /// (render thread). With `updates`' capacity kept between frames this
    /// allocates nothing.
    public func take(into updates: inout [RenderTreeUpdate]) {
        lock.withLock {
            updates.append(contentsOf: pending)
            pending.removeAll(keepingCapacity: true)
        }
    }
}
