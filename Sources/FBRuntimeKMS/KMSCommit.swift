import CDRM
import CPosix
import FBRuntime

/// How a frame reaches the CRTC: a small interface in the manner of
/// wlroots' `backend/drm/iface.h`, so an atomic implementation (one
/// request, test-only commits, the first error recorded and reported at
/// commit) can sit beside the legacy one without the presenter changing.
///
/// Two implementations: `LegacyKMSCommitter` (SetCrtc + PageFlip, every
/// driver) and `AtomicKMSCommitter` (one atomic request per frame, a
/// TEST_ONLY check before the first modeset, FB_DAMAGE_CLIPS). Both are
/// restored from by the legacy path (`KMSOutput.restore()`).
///
/// Errors: EBUSY is `.busy`, EACCES/EPERM `.masterLost` (another process
/// holds DRM master), see `KMSError.call`.
public protocol KMSCommitter: AnyObject {
    /// "atomic" or "legacy", for logs.
    var apiName: String { get }
    /// True when flips can carry FB_DAMAGE_CLIPS (atomic, and the primary
    /// plane has the property). The default is false.
    var supportsDamageClips: Bool { get }
    /// Programs the mode and shows `framebufferID` at once (no event).
    func modeset(_ output: KMSOutput, framebufferID: UInt32) throws(KMSError)
    /// Queues a flip to `framebufferID` at the next vblank with a
    /// completion event carrying `userData`. Fails with `.busy` while a
    /// flip is pending.
    func pageFlip(_ output: KMSOutput, framebufferID: UInt32, userData: UnsafeMutableRawPointer?) throws(KMSError)
    /// The same, telling the driver which pixels changed since the
    /// framebuffer was last shown (`damage`, framebuffer pixels) where it
    /// can take them (FB_DAMAGE_CLIPS). Returns true when the commit
    /// carried the clips. The default ignores `damage`.
    func pageFlip(_ output: KMSOutput, framebufferID: UInt32, damage: DamageClips,
                  userData: UnsafeMutableRawPointer?) throws(KMSError) -> Bool
    /// Turns the output's display off (`false`: the CRTC inactive, the
    /// panel dark, nothing scanned out; the mode and framebuffers stay) or
    /// prepares it to come on (`true`); the caller's next commit is a
    /// `modeset`, which shows the frame. Blocking; no event. Atomic: the
    /// CRTC's ACTIVE property; legacy: the connector's DPMS property.
    /// No requirement default: a committer that wraps another must pass
    /// it on.
    func setDisplayActive(_ output: KMSOutput, _ active: Bool) throws(KMSError)
}

extension KMSCommitter {
    public var supportsDamageClips: Bool { false }

    public func pageFlip(_ output: KMSOutput, framebufferID: UInt32, damage: DamageClips,
                         userData: UnsafeMutableRawPointer?) throws(KMSError) -> Bool {
        try pageFlip(output, framebufferID: framebufferID, userData: userData)
        return false
    }
}

extension KMSAPIChoice {
    /// The committer for `output`: `.atomic` fails where atomic is not
    /// available; `.auto` falls back to legacy (the reason is returned for
    /// the log).
    public func makeCommitter(for output: KMSOutput) throws(KMSError) -> (committer: KMSCommitter, fallbackReason: String?) {
        switch self {
        case .legacy: return (LegacyKMSCommitter(), nil)
        case .atomic: return (try AtomicKMSCommitter(output: output), nil)
        case .auto:
            do { return (try AtomicKMSCommitter(output: output), nil) } catch {
                return (LegacyKMSCommitter(), error.description)
            }
        }
    }
}

/// drmModeSetCrtc and drmModePageFlip: every KMS driver has them.
public final class LegacyKMSCommitter: KMSCommitter {
    public init() {}

    public var apiName: String { "legacy" }

    public func modeset(_ output: KMSOutput, framebufferID: UInt32) throws(KMSError) {
        var connector = output.connectorID
        var mode = output.mode
        let r = drmModeSetCrtc(output.device.fd, output.crtcID, framebufferID, 0, 0, &connector, 1, &mode)
        if drmErrno(r) != 0 {
            throw KMSError.call("drmModeSetCrtc \(output.crtcID) (\(output.connectorName), \(output.modeDescription))", errno: drmErrno(r))
        }
    }

    /// DPMS off / on through the connector's DPMS property (DRM_MODE_DPMS_OFF,
    /// DRM_MODE_DPMS_ON); the modeset that follows a power-on (SetCrtc)
    /// turns the CRTC on in any case.
    public func setDisplayActive(_ output: KMSOutput, _ active: Bool) throws(KMSError) {
        guard let dpms = output.connectorProperty("DPMS") else {
            throw KMSError(.unsupported, "connector \(output.connectorName) has no DPMS property")
        }
        let value = UInt64(active ? DRM_MODE_DPMS_ON : DRM_MODE_DPMS_OFF)
        let r = drmModeConnectorSetProperty(output.device.fd, output.connectorID, dpms.id, value)
        if drmErrno(r) != 0 {
            throw KMSError.call("DPMS \(active ? "on" : "off") for \(output.connectorName)", errno: drmErrno(r))
        }
    }

    public func pageFlip(_ output: KMSOutput, framebufferID: UInt32, userData: UnsafeMutableRawPointer?) throws(KMSError) {
        let r = drmModePageFlip(output.device.fd, output.crtcID, framebufferID, UInt32(DRM_MODE_PAGE_FLIP_EVENT), userData)
        if drmErrno(r) != 0 { throw KMSError.call("drmModePageFlip to framebuffer \(framebufferID)", errno: drmErrno(r)) }
    }
}
