/// Whether the presenter may use the display: DRM master is ours, or it
/// was lost (another process took it: a commit failed with EACCES/EPERM),
/// or our virtual terminal was switched away (`VTSwitcher`), or the
/// connector was unplugged, or a commit failed and is being retried.
///
///     active ──commit fails EACCES/EPERM──▶ masterLost ──drmSetMaster ok──▶ active (modeset, full frame)
///     active/masterLost ──VT release──▶ vtReleased ──VT acquire──▶ masterLost(attempt now) ──▶ …
///     any but vtReleased ──connector disconnected──▶ disconnected ──connected──▶ recovering(0, now)
///     active ──commit fails (EINVAL, ENOSPC, EIO…)──▶ recovering(0, now)
///     recovering ──modeset fails──▶ recovering(n + 1, now + back-off) ; ──commit ok──▶ active
///
/// The transitions are `DisplayAccess.after(_:now:backoff:)`
/// (DisplayAccess+Transitions.swift). Outside `active` and a due
/// `recovering` nothing is rendered or committed; the render thread
/// keeps running and asks the presenter's `ensureAccess()` each turn.
///
/// In the core rather than in FBRuntimeKMS: `KMSPresenter` follows it, and
/// so does `SimulatedPresenter`, the render loop's test double, which
/// depends on the core alone; the machine itself is a pure function with
/// no DRM call in it.
public enum DisplayAccess: Equatable, Sendable {
    case active
    /// Not master. `attempts` failed drmSetMaster calls so far; the next
    /// one is due at `nextAttemptNanoseconds` (monotonic).
    case masterLost(attempts: Int, nextAttemptNanoseconds: Int64)
    /// Our VT is in the background: master dropped, the switch
    /// acknowledged; waiting for the acquire signal.
    case vtReleased
    /// The connector reports no display (unplugged, or forced off through
    /// its sysfs `status`): nothing is rendered until a hotplug event
    /// finds it connected again. The last frame's buffers are kept.
    case disconnected
    /// The display is ours but the next frame must be a modeset with the
    /// whole frame (after a reconnection, or a commit that failed with an
    /// error other than EBUSY or EACCES/EPERM). `attempts` such modesets
    /// failed so far; the next is due at `nextAttemptNanoseconds`
    /// (monotonic), `MasterRetryBackoff` apart. What the screen showed
    /// before the failure stays there: no buffer on screen is written.
    case recovering(attempts: Int, nextAttemptNanoseconds: Int64)
}

/// The bounded back-off between drmSetMaster attempts while master is
/// lost: `initial` doubled per failed attempt, never more than `maximum`,
/// so a display given back is noticed within `maximum` at worst and a
/// display that never comes back costs one system call per `maximum`.
public struct MasterRetryBackoff: Equatable, Sendable {
    /// Delay before the first attempt, nanoseconds.
    public var initialNanoseconds: Int64 = 20_000_000
    /// The longest delay, nanoseconds.
    public var maximumNanoseconds: Int64 = 500_000_000

    public init() {}

    public init(initialNanoseconds: Int64, maximumNanoseconds: Int64) {
        self.initialNanoseconds = max(0, initialNanoseconds)
        self.maximumNanoseconds = max(self.initialNanoseconds, maximumNanoseconds)
    }

    /// The delay after `failedAttempts` failures (0: before the first try):
    /// `min(maximum, initial · 2^failedAttempts)`, without overflow for any
    /// count (a negative count is taken as 0).
    public func delay(afterFailedAttempts failedAttempts: Int) -> Int64 {
        var d = initialNanoseconds
        var n = max(0, failedAttempts)
        while n > 0 && d < maximumNanoseconds {
            d = d > maximumNanoseconds / 2 ? maximumNanoseconds : d * 2
            n -= 1
        }
        return min(d, maximumNanoseconds)
    }
}
