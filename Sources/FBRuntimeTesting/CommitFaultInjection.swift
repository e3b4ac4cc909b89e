import CPosix
import FBRuntime
import FBRuntimeKMS
import Synchronization

/// Makes the next `count` commits of a `FaultInjectingCommitter` (page
/// flips or modesets) fail with a chosen errno before they reach the
/// kernel, as a driver refusing them would (fbcheck's `--test-fault
/// flip-error`, for scripts/vm-test).
///
/// Threading: `arm` from any thread (a test's app thread) while the
/// render thread commits; the counts are atomic.
public final class CommitFaultInjection: Sendable {
    private let remaining = Atomic<Int>(0)
    private let errnoValue = Atomic<Int32>(0)
    private let injectedTotal = Atomic<Int>(0)

    public init() {}

    /// The next `count` commits fail with `errno` (e.g. EINVAL, ENOSPC,
    /// EBUSY); `count` 0 disarms.
    public func arm(failures count: Int, errno: Int32) {
        errnoValue.store(errno, ordering: .relaxed)
        remaining.store(max(0, count), ordering: .releasing)
    }

    /// Failures still to come; failures injected so far.
    public var pending: Int { remaining.load(ordering: .acquiring) }
    public var injected: Int { injectedTotal.load(ordering: .acquiring) }

    /// Throws the injected failure of commit `what` if one is due (render
    /// thread, before the real call).
    public func check(_ what: String) throws(KMSError) {
        guard remaining.load(ordering: .acquiring) > 0 else { return }
        remaining.wrappingSubtract(1, ordering: .acquiringAndReleasing)
        injectedTotal.wrappingAdd(1, ordering: .relaxed)
        throw KMSError.call("\(what) (failure injected for a test)", errno: errnoValue.load(ordering: .relaxed))
    }

    /// The errno of a name fbcheck's option takes ("EINVAL", …); nil for
    /// another name.
    public static func errno(named name: String) -> Int32? {
        switch name {
        case "EINVAL": return EINVAL
        case "EBUSY": return EBUSY
        case "ENOSPC": return ENOSPC
        case "ENOMEM": return ENOMEM
        case "EIO": return EIO
        case "ENODEV": return ENODEV
        case "EACCES": return EACCES
        default: return nil
        }
    }
}

/// A `KMSCommitter` that fails commits when its `faults` say so and
/// otherwise passes them to the committer it wraps: how a test makes a
/// real `KMSPresenter` on a real kernel meet a driver that refuses
/// commits, with no hook in the presenter itself.
public final class FaultInjectingCommitter: KMSCommitter {
    public let wrapped: KMSCommitter
    public let faults = CommitFaultInjection()

    public init(wrapping committer: KMSCommitter) { wrapped = committer }

    public var apiName: String { wrapped.apiName }
    public var supportsDamageClips: Bool { wrapped.supportsDamageClips }

    public func modeset(_ output: KMSOutput, framebufferID: UInt32) throws(KMSError) {
        try faults.check("modeset")
        try wrapped.modeset(output, framebufferID: framebufferID)
    }

    public func pageFlip(_ output: KMSOutput, framebufferID: UInt32, userData: UnsafeMutableRawPointer?) throws(KMSError) {
        try faults.check("page flip")
        try wrapped.pageFlip(output, framebufferID: framebufferID, userData: userData)
    }

    public func pageFlip(_ output: KMSOutput, framebufferID: UInt32, damage: DamageClips,
                         userData: UnsafeMutableRawPointer?) throws(KMSError) -> Bool {
        try faults.check("page flip")
        return try wrapped.pageFlip(output, framebufferID: framebufferID, damage: damage, userData: userData)
    }

    public func setDisplayActive(_ output: KMSOutput, _ active: Bool) throws(KMSError) {
        try wrapped.setDisplayActive(output, active)
    }
}
