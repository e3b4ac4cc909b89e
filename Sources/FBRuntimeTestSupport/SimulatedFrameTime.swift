import FBRuntime
import Synchronization

/// A monotonic time that moves only when something sleeps or advances it:
/// the deterministic double of `MonotonicFrameTime` (swift-nio's
/// `NIOEmbeddedEventLoop.advanceTime(by:)` idea). Atomic, so a test thread
/// may read it while a render thread sleeps on it.
public final class SimulatedFrameTime: FrameTimeSource {
    private let now = Atomic<Int>(0)

    public init(startNanoseconds: Int64 = 0) { now.store(Int(startNanoseconds), ordering: .relaxed) }

    public func nanoseconds() -> Int64 { Int64(now.load(ordering: .acquiring)) }

    /// Jumps to `deadline` if it is later (no real waiting).
    public func sleep(untilNanoseconds deadline: Int64) {
        var current = now.load(ordering: .relaxed)
        while Int(deadline) > current {
            let (exchanged, original) = now.compareExchange(expected: current, desired: Int(deadline),
                                                            ordering: .acquiringAndReleasing)
            if exchanged { return }
            current = original
        }
    }

    public func advance(byNanoseconds delta: Int64) {
        now.wrappingAdd(Int(delta), ordering: .acquiringAndReleasing)
    }
}
