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

    /// The mode to show on the connector now that it is back (or its
    /// modes changed): `modeRequest` resolved against the modes it offers
    /// (as at start), or nil when that is the mode already shown or the
    /// connector cannot be read. Probes (drmModeGetConnector: the driver
    /// lists its modes again; on real hardware a DDC read of the EDID,
    /// milliseconds), since a hotplug event refreshes only the connection
    /// state and the kernel keeps the mode list of its last probe.
    /// Allocates: hotplug only.
    public func modeOnReconnection() -> drmModeModeInfo? {
        guard let connector = drmModeGetConnector(device.fd, connectorID) else { return nil }
        defer { drmModeFreeConnector(connector) }
        let c = connector.pointee
        guard c.connection == DRM_MODE_CONNECTED else { return nil }
        return KMSOutput.modeOnReconnection(modeRequest, current: mode,
                                            offered: UnsafeBufferPointer(start: c.modes, count: Int(c.count_modes)))
    }

    /// The policy of `modeOnReconnection()`, without a device: the mode
    /// `request` picks from `offered` — a pinned size while the display
    /// offers it, else (or with `.preferred`) the display's preferred mode
    /// — or nil when that is `current` (same timings) or nothing is
    /// offered. A display that still offers the old mode but prefers
    /// another is followed: a program started with it would show that one.
    public static func modeOnReconnection(_ request: ModeRequest, current: drmModeModeInfo,
                                          offered: UnsafeBufferPointer<drmModeModeInfo>) -> drmModeModeInfo? {
        guard let next = pick(request, from: offered) ?? pick(.preferred, from: offered) else { return nil }
        return sameTimings(next, current) ? nil : next
    }

    /// True when `a` and `b` drive the display the same way (size, pixel
    /// clock, totals, sync and flags; the name and type aside).
    public static func sameTimings(_ a: drmModeModeInfo, _ b: drmModeModeInfo) -> Bool {
        a.clock == b.clock && a.hdisplay == b.hdisplay && a.hsync_start == b.hsync_start && a.hsync_end == b.hsync_end
            && a.htotal == b.htotal && a.hskew == b.hskew && a.vdisplay == b.vdisplay && a.vsync_start == b.vsync_start
            && a.vsync_end == b.vsync_end && a.vtotal == b.vtotal && a.vscan == b.vscan && a.flags == b.flags
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
