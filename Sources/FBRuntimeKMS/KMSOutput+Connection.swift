import CDRM
import FBRuntime

/// What a probe of a connector found.
public enum ConnectorState: Equatable, Sendable {
    /// A display is there; `offersMode`: it still lists the mode the
    /// output was made with (same size and refresh).
    case connected(offersMode: Bool)
    case disconnected
    /// The connector could not be read, or the driver does not know.
    case unknown
}

extension KMSOutput {
    /// The connector's state. `probe` false: what the kernel last detected
    /// (drmModeGetConnectorCurrent, cheap; a hotplug event has just
    /// refreshed it); true: ask the driver to detect again
    /// (drmModeGetConnector: on real hardware a DDC read, milliseconds).
    public func connectorState(probe: Bool = false) -> ConnectorState {
        let got = probe ? drmModeGetConnector(device.fd, connectorID) : drmModeGetConnectorCurrent(device.fd, connectorID)
        guard let connector = got else { return .unknown }
        defer { drmModeFreeConnector(connector) }
        let c = connector.pointee
        if c.connection == DRM_MODE_DISCONNECTED { return .disconnected }
        guard c.connection == DRM_MODE_CONNECTED else { return .unknown }
        var offers = false
        var i = 0
        while i < Int(c.count_modes) {
            let m = c.modes[i]
            if m.hdisplay == mode.hdisplay && m.vdisplay == mode.vdisplay && m.vrefresh == mode.vrefresh { offers = true }
            i += 1
        }
        return .connected(offersMode: offers)
    }

    /// Whether the connector is disconnected as the kernel last detected
    /// it: one ioctl, no probe, no allocation (cheap enough to ask a few
    /// times a second on the render thread). False when it cannot be read.
    public func isDisconnectedNow() -> Bool {
        fbr_drm_connector_connection(device.fd, connectorID) == Int32(DRM_MODE_DISCONNECTED.rawValue)
    }

    /// The sysfs file that shows and forces this connector's state
    /// (`/sys/class/drm/card0-Virtual-1/status`): writing `off` makes the
    /// kernel report it disconnected and send a hotplug event, `detect`
    /// gives it back to the driver's detection (root only; for tests).
    public var sysfsStatusPath: String {
        var card = device.path
        if let slash = card.lastIndex(of: "/") { card = String(card[card.index(after: slash)...]) }
        return "/sys/class/drm/\(card)-\(connectorName)/status"
    }
}
