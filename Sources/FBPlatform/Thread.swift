import CPosix

// Threads, a mutex and a condition variable over pthreads, for hosted and
// Embedded Swift alike (Embedded has no Foundation `Thread` and no
// `Synchronization.Mutex`). The storage lives in C (the CPosix shim), so a
// pthread object never moves once initialised.

/// A pthread running one closure. Join it exactly once (`join()`); a
/// thread that is never joined keeps its resources until the process ends.
public final class Thread {
    private var handle = pthread_t()
    private var joined = false

    /// The closure and nothing else crosses to the new thread: it owns a
    /// +1 reference to this box until it has run.
    private final class Body {
        let run: () -> Void
        init(_ run: @escaping () -> Void) { self.run = run }
    }

    /// Starts `body` on a new thread at once.
    /// - Throws: `SystemError` when pthread_create fails (EAGAIN: too many
    ///   threads, or no memory).
    public init(_ body: @escaping () -> Void) throws(SystemError) {
        let context = Unmanaged.passRetained(Body(body)).toOpaque()
        let r = fbr_thread_start(&handle, { raw in
            guard let raw else { return nil }
            let body = Unmanaged<Body>.fromOpaque(raw).takeRetainedValue()
            body.run()
            return nil
        }, context)
        if r != 0 {
            Unmanaged<Body>.fromOpaque(context).release()
            throw SystemError("pthread_create", errno: r)
        }
    }

    /// Waits for the closure to return. Calling it again does nothing.
    /// Never call it from the thread itself (that would deadlock).
    public func join() {
        guard !joined else { return }
        joined = true
        _ = fbr_thread_join(handle)
    }
}

/// A mutex (pthread_mutex_t). Non-recursive by default: locking it twice
/// on one thread deadlocks. A recursive one (PTHREAD_MUTEX_RECURSIVE) may
/// be locked again by its owner, each `lock()` needing its `unlock()`; do
/// not wait on a `Condition` with one. Prefer `withLock`.
public final class Lock: @unchecked Sendable {
    fileprivate let mutex: UnsafeMutablePointer<pthread_mutex_t>

    public init(recursive: Bool = false) {
        guard let m = recursive ? fbr_mutex_create_recursive() : fbr_mutex_create() else { fatalError("Lock: out of memory") }
        mutex = m
    }

    deinit { fbr_mutex_destroy(mutex) }

    public func lock() { fbr_mutex_lock(mutex) }
    public func unlock() { fbr_mutex_unlock(mutex) }

    /// Runs `body` with the lock held.
    @inlinable
    public func withLock<T, E: Error>(_ body: () throws(E) -> T) throws(E) -> T {
        lock()
        defer { unlock() }
        return try body()
    }
}

/// A condition variable bound to one `Lock`, waiting on the monotonic
/// clock (so setting the wall clock never stretches a timeout).
///
/// As with any condition variable, wake-ups may be spurious: wait in a loop
/// that re-checks the predicate, holding the lock.
public final class Condition: @unchecked Sendable {
    public let lock: Lock
    private let cond: UnsafeMutablePointer<pthread_cond_t>

    public init(lock: Lock = Lock()) {
        self.lock = lock
        guard let c = fbr_cond_create() else { fatalError("Condition: out of memory") }
        cond = c
    }

    deinit { fbr_cond_destroy(cond) }

    /// Waits for a signal or until `deadline` (CLOCK_MONOTONIC,
    /// nanoseconds). The caller must hold `lock`; it is held again on
    /// return. Returns false when the deadline passed.
    @discardableResult
    public func wait(untilNanoseconds deadline: Int64) -> Bool {
        fbr_cond_wait_until(cond, lock.mutex, deadline) != ETIMEDOUT
    }

    /// Waits until `predicate()` is true or `deadline` passes; returns the
    /// predicate's last value. The caller must hold `lock`.
    public func wait(untilNanoseconds deadline: Int64, for predicate: () -> Bool) -> Bool {
        while !predicate() {
            if System.monotonicNanoseconds() >= deadline { return false }
            wait(untilNanoseconds: deadline)
        }
        return true
    }

    /// Wakes one waiter. Signal with the lock held, after changing the
    /// state the waiters test.
    public func signal() { fbr_cond_signal(cond) }
    public func broadcast() { fbr_cond_broadcast(cond) }
}
