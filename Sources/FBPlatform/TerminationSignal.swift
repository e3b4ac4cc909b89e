import CPosix
import Synchronization

/// Set by the SIGINT/SIGTERM handler; read by loops. An atomic store is
/// the only thing the handler does (async-signal-safe).
private let terminationFlag = Atomic<Int>(0)

/// SIGINT and SIGTERM as a flag that loops poll, so a program ends through
/// its normal path (restoring the CRTC the console had) instead of dying
/// with the screen left on its last frame.
///
/// Every wait in the render loop has a timeout, and poll/nanosleep return
/// early with EINTR, so the flag is seen within one timeout at worst.
public enum TerminationSignal {
    /// Installs the handler for SIGINT and SIGTERM (idempotent).
    public static func install() {
        _ = signal(SIGINT) { _ in terminationFlag.store(1, ordering: .relaxed) }
        _ = signal(SIGTERM) { _ in terminationFlag.store(1, ordering: .relaxed) }
    }

    /// True once SIGINT or SIGTERM arrived (or `request()` was called).
    public static var isRequested: Bool { terminationFlag.load(ordering: .relaxed) != 0 }

    /// Sets the flag as a signal would (tests; a quit key).
    public static func request() { terminationFlag.store(1, ordering: .relaxed) }

    /// Clears the flag (tests).
    public static func reset() { terminationFlag.store(0, ordering: .relaxed) }
}
