import CDRM
import FBRuntime

extension KMSOutput {
    /// A property of the connector as the kernel reports it now: its ID
    /// and current value; nil when the connector has none by that name.
    public func connectorProperty(_ name: String) -> (id: UInt32, value: UInt64)? {
        let list = AtomicKMSCommitter.properties(fd: device.fd, object: connectorID, type: fbr_drm_mode_object_connector())
        return list.first(where: { $0.name == name }).map { ($0.id, $0.value) }
    }

    /// Whether the display is powered, read back from the kernel (not from
    /// our own bookkeeping): the CRTC's ACTIVE property (listed only to a
    /// client that turned on the atomic capability; nil otherwise) and the
    /// connector's DPMS property (true for DRM_MODE_DPMS_ON; nil without
    /// one). Allocates: for checks and logs, not per frame.
    public func displayPowerReadBack() -> (crtcActive: Bool?, dpmsOn: Bool?) {
        let crtc = AtomicKMSCommitter.properties(fd: device.fd, object: crtcID, type: fbr_drm_mode_object_crtc())
        let active = crtc.first(where: { $0.name == "ACTIVE" }).map { $0.value != 0 }
        let dpms = connectorProperty("DPMS").map { $0.value == UInt64(DRM_MODE_DPMS_ON) }
        return (active, dpms)
    }
}
