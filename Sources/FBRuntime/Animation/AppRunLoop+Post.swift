/// Blocks handed to the app thread from other threads, run at the start of
/// its next run-loop turn (Core Foundation's `CFRunLoopPerformBlock`): how a
/// worker (an image decoder, a file loader) delivers a result that the app
/// then puts into layers.
///
/// Threading: `post` and `hasPending` from any thread; `runAll` on the app
/// thread (`AppRunLoop.runTurn` calls it).
final class PostedBlocks: @unchecked Sendable {
    private let lock = Lock()
    private var blocks: [() -> Void] = []
    /// Called on the posting thread after each post, outside the lock.
    var onPost: (() -> Void)?

    func post(_ block: @escaping () -> Void) {
        lock.withLock { blocks.append(block) }
        onPost?()
    }

    var hasPending: Bool { lock.withLock { !blocks.isEmpty } }

    /// Runs the blocks posted so far, in order; blocks they post wait for
    /// the next turn. No allocation when none are waiting.
    func runAll() {
        lock.lock()
        if blocks.isEmpty { lock.unlock(); return }
        let batch = blocks
        blocks = []
        lock.unlock()
        for block in batch { block() }
    }
}

extension AppRunLoop {
    /// Runs `block` on the app thread at the start of its next turn
    /// (`runTurn`, before the turn's own work), in the order posted. Any
    /// thread may call it. Changes the block makes to layers are committed
    /// by that turn.
    public func post(_ block: @escaping () -> Void) { posted.post(block) }

    /// True while posted blocks wait for a turn (any thread).
    public var hasPostedBlocks: Bool { posted.hasPending }

    /// Called on the posting thread after every `post`, so an event loop
    /// sleeping until its next animation can wake up and turn (for example
    /// by writing to an eventfd it polls). Set it before other threads post.
    public var onPost: (() -> Void)? {
        get { posted.onPost }
        set { posted.onPost = newValue }
    }
}
