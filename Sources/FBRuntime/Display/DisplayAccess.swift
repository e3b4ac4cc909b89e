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
/// keeps running and asks `KMSPresenter.ensureAccess()` each turn.
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

/// What the KMS presenter counted, readable after the render loop stops
/// (or on the render thread).
public struct KMSPresenterStatistics: Equatable, Sendable {
    /// Modesets (the first frame, and each regain of the display).
    public var modesets = 0
    /// Page flips queued.
    public var flips = 0
    /// Flips whose commit carried FB_DAMAGE_CLIPS (atomic, where the plane
    /// has the property).
    public var damageClipCommits = 0
    /// Commits refused for want of DRM master (EACCES/EPERM).
    public var masterLosses = 0
    /// drmSetMaster attempts that failed while master was lost.
    public var failedMasterAttempts = 0
    /// Times the display was taken back (master regained, modeset done
    /// with the whole frame).
    public var regains = 0
    /// VT switches away and back (VTSwitcher).
    public var vtReleases = 0
    public var vtAcquires = 0
    /// Times the connector was found disconnected, and connected again
    /// (hotplug events, or a failed commit followed by a probe).
    public var disconnections = 0
    public var reconnections = 0
    /// Commits that failed with an error other than EBUSY and EACCES/EPERM
    /// (the presenter retries them as modesets with back-off).
    public var failedCommits = 0
    /// Recoveries: a modeset with the whole frame that succeeded after a
    /// reconnection or failed commits.
    public var recoveries = 0
    /// DRM hotplug events seen (each followed by a probe of the connector).
    public var hotplugEvents = 0
    /// Connector changes found by reading its state between frames
    /// (`KMSPresenter.connectorPollNanoseconds`) with no hotplug event.
    public var connectorPollChanges = 0

    public init() {}
}
