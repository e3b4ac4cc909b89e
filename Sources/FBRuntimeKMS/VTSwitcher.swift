import CPosix
import FBRuntime
import Synchronization

/// Set by the VT signal handlers (an atomic store is all they do).
private let vtReleaseRequested = Atomic<Int>(0)
private let vtAcquireRequested = Atomic<Int>(0)

/// Cooperative VT switching without logind, as Weston's and wlroots'
/// direct launchers do: the program's virtual terminal is put in
/// `VT_PROCESS` mode, so the kernel asks before switching away (SIGUSR1)
/// and tells when it switches back (SIGUSR2); the program drops DRM master
/// and acknowledges the release with `VT_RELDISP 1`, and on acquire
/// acknowledges with `VT_RELDISP VT_ACKACQ` and takes master again.
///
/// The handlers only set flags; the render thread polls them
/// (`takeRequest()`, through `KMSPresenter.ensureAccess()`), so the
/// release is acknowledged between frames, never with a flip pending.
/// `close()` (or deinit) puts the VT back in `VT_AUTO` mode.
public final class VTSwitcher {
    public enum Request: Equatable, Sendable {
        case none
        /// Switch away: drop master, stop flipping, acknowledge.
        case release
        /// Switched back: acknowledge, take master, modeset, whole frame.
        case acquire
    }

    /// The VT's device node ("/dev/tty1").
    public let path: String
    /// The VT number (1-based).
    public let number: Int
    private let fd: Int32
    private var isClosed = false

    /// Takes the active VT (or `/dev/ttyN` for `number`) into VT_PROCESS
    /// mode with SIGUSR1 (release) and SIGUSR2 (acquire).
    /// - Throws: `.unsupported` where there is no VT (no /dev/tty0, a
    ///   serial console only) or the ioctls fail.
    public init(number requested: Int? = nil) throws(KMSError) {
        var number = requested ?? 0
        if requested == nil {
            let tty0 = "/dev/tty0".withCString { fbr_open($0, O_RDWR | O_NOCTTY) }
            guard tty0 >= 0 else { throw KMSError(.unsupported, "open /dev/tty0 (no virtual terminals?)", errno: fbr_errno()) }
            number = Int(fbr_vt_active_number(tty0))
            let e = fbr_errno()
            _ = CPosix.close(tty0)
            guard number > 0 else { throw KMSError(.unsupported, "VT_GETSTATE on /dev/tty0", errno: e) }
        }
        let path = "/dev/tty\(number)"
        let fd = path.withCString { fbr_open($0, O_RDWR | O_NOCTTY) }
        guard fd >= 0 else { throw KMSError(.unsupported, "open \(path)", errno: fbr_errno()) }
        vtReleaseRequested.store(0, ordering: .relaxed)
        vtAcquireRequested.store(0, ordering: .relaxed)
        _ = signal(fbr_sigusr1()) { _ in vtReleaseRequested.store(1, ordering: .relaxed) }
        _ = signal(fbr_sigusr2()) { _ in vtAcquireRequested.store(1, ordering: .relaxed) }
        guard fbr_vt_set_process_mode(fd, 1, fbr_sigusr1(), fbr_sigusr2()) == 0 else {
            let e = fbr_errno()
            _ = CPosix.close(fd)
            throw KMSError(.unsupported, "VT_SETMODE VT_PROCESS on \(path)", errno: e)
        }
        self.path = path
        self.number = number
        self.fd = fd
    }

    deinit { close() }

    /// The oldest pending request, cleared (a release before an acquire
    /// when both came since the last look).
    public func takeRequest() -> Request {
        if vtReleaseRequested.exchange(0, ordering: .acquiringAndReleasing) != 0 { return .release }
        if vtAcquireRequested.exchange(0, ordering: .acquiringAndReleasing) != 0 { return .acquire }
        return .none
    }

    /// Allows the pending switch away (call after dropping master).
    public func acknowledgeRelease() { _ = fbr_vt_release_display(fd, 1) }

    /// Acknowledges that the VT is ours again.
    public func acknowledgeAcquire() { _ = fbr_vt_release_display(fd, fbr_vt_ackacq()) }

    /// Back to VT_AUTO (the kernel switches without asking). Idempotent.
    public func close() {
        guard !isClosed else { return }
        isClosed = true
        _ = fbr_vt_set_process_mode(fd, 0, 0, 0)
        _ = CPosix.close(fd)
    }
}
