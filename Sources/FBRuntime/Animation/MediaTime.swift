/// Seconds on the monotonic clock, the time base of every animation (Core
/// Animation's `CACurrentMediaTime()`).
public typealias MediaTime = Double

/// Where the runtime gets "now" from. The real clock reads CLOCK_MONOTONIC;
/// tests and headless rendering use `ManualClock` for exact, repeatable time.
public protocol Clock: AnyObject {
    var now: MediaTime { get }
}

/// The system's monotonic clock.
public final class MonotonicClock: Clock {
    public init() {}
    public var now: MediaTime { Double(System.monotonicNanoseconds()) / 1e9 }
}

/// A clock that moves only when told (swift-nio's `advanceTime(by:)` idea).
public final class ManualClock: Clock {
    public private(set) var now: MediaTime
    public init(now: MediaTime = 0) { self.now = now }
    public func advance(by seconds: Double) { now += seconds }
    public func set(_ time: MediaTime) { now = time }
}
