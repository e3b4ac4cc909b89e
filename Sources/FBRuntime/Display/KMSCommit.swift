import CDRM
import CPosix

/// How a frame reaches the CRTC: a small interface in the manner of
/// wlroots' `backend/drm/iface.h`, so an atomic implementation (one
/// request, test-only commits, the first error recorded and reported at
/// commit) can sit beside the legacy one without the presenter changing.
///
/// TODO(atomic): an `AtomicKMSCommitter` (DRM_CLIENT_CAP_ATOMIC, plane
/// properties FB_ID/CRTC_ID/SRC_*/CRTC_*, DRM_MODE_ATOMIC_TEST_ONLY to
/// validate a format before the first frame). `DRMDevice.supportsAtomic`
/// already probes for it.
public protocol KMSCommitter: AnyObject {
    /// Programs the mode and shows `framebufferID` at once (no event).
    func modeset(_ output: KMSOutput, framebufferID: UInt32) throws(KMSError)
    /// Queues a flip to `framebufferID` at the next vblank with a
    /// completion event carrying `userData`. Fails with `.busy` while a
    /// flip is pending.
    func pageFlip(_ output: KMSOutput, framebufferID: UInt32, userData: UnsafeMutableRawPointer?) throws(KMSError)
}

/// drmModeSetCrtc and drmModePageFlip: every KMS driver has them.
public final class LegacyKMSCommitter: KMSCommitter {
    public init() {}

    public func modeset(_ output: KMSOutput, framebufferID: UInt32) throws(KMSError) {
        var connector = output.connectorID
        var mode = output.mode
        let r = drmModeSetCrtc(output.device.fd, output.crtcID, framebufferID, 0, 0, &connector, 1, &mode)
        if drmErrno(r) != 0 {
            throw KMSError.call("drmModeSetCrtc \(output.crtcID) (\(output.connectorName), \(output.modeDescription))", errno: drmErrno(r))
        }
    }

    public func pageFlip(_ output: KMSOutput, framebufferID: UInt32, userData: UnsafeMutableRawPointer?) throws(KMSError) {
        let r = drmModePageFlip(output.device.fd, output.crtcID, framebufferID, UInt32(DRM_MODE_PAGE_FLIP_EVENT), userData)
        if drmErrno(r) != 0 { throw KMSError.call("drmModePageFlip to framebuffer \(framebufferID)", errno: drmErrno(r)) }
    }
}
