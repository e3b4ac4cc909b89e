/// Something that changes whether the presenter may use the display; the
/// input of `DisplayAccess.after(_:now:backoff:)`.
public enum DisplayAccessEvent: Equatable, Sendable {
    /// A commit failed with EACCES/EPERM: another process is DRM master.
    case commitRefusedWithoutMaster
    /// drmSetMaster succeeded / failed while master was lost.
    case masterAcquired
    case masterRefused
    /// Our VT was switched away (master dropped, the switch acknowledged) /
    /// switched back to.
    case vtReleased
    case vtAcquired
    /// A probe of the connector (after a hotplug event or a failed commit)
    /// found it disconnected / connected.
    case connectorDisconnected
    case connectorConnected
    /// A commit failed with another error (EINVAL, ENOSPC, EIO, …): `errno`.
    case commitFailed(errno: Int32)
    /// A commit (flip or modeset) succeeded.
    case commitSucceeded
}

extension DisplayAccess {
    /// The state after `event` at `now` (monotonic nanoseconds): the whole
    /// state machine of the type's diagram, as one pure function so hosts
    /// can test it without a display. An event that does not apply to a
    /// state leaves it as it is.
    ///
    /// Rules:
    /// - a VT release wins over everything (we agreed to let go); while the
    ///   VT is away only its acquire matters (the presenter probes the
    ///   connector after it);
    /// - a disconnection wins over master and recovery states: nothing can
    ///   be shown, so no drmSetMaster or modeset is attempted until the
    ///   connector is back, which leads to `recovering(0, now)` (master may
    ///   have been lost meanwhile: the modeset then fails with EACCES and
    ///   the machine goes on to `masterLost`);
    /// - a failed commit of a frame that was on its way to an active
    ///   display is retried at once as a modeset (`recovering(0, now)`);
    ///   a failed recovery modeset waits `backoff.delay(afterFailedAttempts:)`.
    public func after(_ event: DisplayAccessEvent, now: Int64, backoff: MasterRetryBackoff) -> DisplayAccess {
        switch (self, event) {
        case (.vtReleased, .vtAcquired):
            return .masterLost(attempts: 0, nextAttemptNanoseconds: now)
        case (.vtReleased, _):
            return self
        case (_, .vtReleased):
            return .vtReleased
        case (_, .connectorDisconnected):
            return .disconnected
        case (.disconnected, .connectorConnected):
            return .recovering(attempts: 0, nextAttemptNanoseconds: now)
        case (.disconnected, _):
            return self
        case (_, .commitRefusedWithoutMaster):
            return .masterLost(attempts: 0, nextAttemptNanoseconds: now + backoff.delay(afterFailedAttempts: 0))
        case (.masterLost(let attempts, _), .masterRefused):
            return .masterLost(attempts: attempts + 1,
                               nextAttemptNanoseconds: now + backoff.delay(afterFailedAttempts: attempts + 1))
        case (.masterLost, .masterAcquired):
            return .active
        case (.active, .commitFailed):
            return .recovering(attempts: 0, nextAttemptNanoseconds: now)
        case (.recovering(let attempts, _), .commitFailed):
            return .recovering(attempts: attempts + 1,
                               nextAttemptNanoseconds: now + backoff.delay(afterFailedAttempts: attempts + 1))
        case (.recovering, .commitSucceeded):
            return .active
        default:
            return self
        }
    }

    /// True when a frame may be rendered and committed at `now`.
    public func allowsCommit(at now: Int64) -> Bool {
        switch self {
        case .active: return true
        case .recovering(_, let next): return now >= next
        case .masterLost, .vtReleased, .disconnected: return false
        }
    }

    /// A short name for logs.
    public var name: String {
        switch self {
        case .active: return "active"
        case .masterLost: return "masterLost"
        case .vtReleased: return "vtReleased"
        case .disconnected: return "disconnected"
        case .recovering: return "recovering"
        }
    }
}
