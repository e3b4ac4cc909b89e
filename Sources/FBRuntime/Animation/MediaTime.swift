/// Seconds on the monotonic clock, the time base of every animation (Core
/// Animation's `CACurrentMediaTime()`).
public typealias MediaTime = Double

/// The current media time: CLOCK_MONOTONIC in seconds (CA's
/// `CACurrentMediaTime()`). Never goes backwards; unrelated to the wall
/// clock (setting the date does not move it). Its zero is arbitrary (boot).
@inline(__always)
public func currentMediaTime() -> MediaTime {
    MediaTime(System.monotonicNanoseconds()) / 1e9
}

/// Where the runtime gets "now" from. The real clock reads CLOCK_MONOTONIC;
/// tests and headless rendering use `ManualClock` for exact, repeatable time.
///
/// Class-bound so an `AppRunLoop`, a display and a test can share one clock
/// (Embedded Swift allows existentials of class-bound protocols only).
/// `now` is media time in seconds and never decreases for the real clock.
public protocol Clock: AnyObject {
    var now: MediaTime { get }
}

/// The system's monotonic clock (`currentMediaTime()`).
public final class MonotonicClock: Clock {
    public init() {}
    public var now: MediaTime { currentMediaTime() }
}

/// A clock that moves only when told (swift-nio's `advanceTime(by:)` idea).
///
/// Bad input is ignored, not trapped on: advancing by NaN, ±infinity or a
/// negative amount leaves the clock where it is, and `set` to a non-finite
/// time does nothing (a test may still `set` an earlier time on purpose).
public final class ManualClock: Clock {
    public private(set) var now: MediaTime
    public init(now: MediaTime = 0) { self.now = now.isFinite ? now : 0 }
    public func advance(by seconds: Double) {
        if seconds.isFinite && seconds > 0 { now += seconds }
    }
    public func set(_ time: MediaTime) {
        if time.isFinite { now = time }
    }
}
