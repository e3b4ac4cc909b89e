import CDRM
import CPosix
import FBRuntime

/// One display path: a connected connector, a mode and a CRTC that can
/// drive it, plus what the CRTC showed before we took it (the console), so
/// `restore()` can put it back.
public final class KMSOutput {
    public let device: DRMDevice
    public let connectorID: UInt32
    /// "HDMI-A-1", "Virtual-1", "DPI-1" (the kernel's type name and index).
    public let connectorName: String
    public let crtcID: UInt32
    /// The CRTC's index in the device's CRTC list (vblank calls need it).
    public let crtcIndex: Int
    /// The mode shown: the one `modeRequest` picked at start, or the one
    /// the presenter followed when the connector came back with another
    /// (`KMSPresenter`, `modeOnReconnection`).
    public internal(set) var mode: drmModeModeInfo
    /// What the board asked for (its `mode`), resolved again when the
    /// connector comes back.
    public let modeRequest: ModeRequest
    private var saved: UnsafeMutablePointer<drmModeCrtc>?

    public var width: Int { Int(mode.hdisplay) }
    public var height: Int { Int(mode.vdisplay) }

    /// The mode's exact refresh rate in millihertz, from its timings
    /// (`vrefresh` is rounded to whole hertz: 59.94 Hz reads as 60).
    public var refreshMillihertz: Int {
        let htotal = Int(mode.htotal), vtotal = Int(mode.vtotal)
        guard htotal > 0, vtotal > 0, mode.clock > 0 else { return max(1, Int(mode.vrefresh)) * 1000 }
        var total = htotal * vtotal
        if mode.flags & UInt32(DRM_MODE_FLAG_INTERLACE) != 0 { total /= 2 }
        if mode.flags & UInt32(DRM_MODE_FLAG_DBLSCAN) != 0 { total *= 2 }
        return Int(mode.clock) * 1_000_000 / total
    }

    /// One refresh period in nanoseconds.
    public var refreshIntervalNanoseconds: Int64 { 1_000_000_000_000 / Int64(max(1, refreshMillihertz)) }

    public var modeDescription: String {
        let mhz = refreshMillihertz
        var fraction = String(mhz % 1000 / 10)
        if fraction.count < 2 { fraction = "0" + fraction }
        return "\(mode.hdisplay)x\(mode.vdisplay)@\(mhz / 1000).\(fraction) Hz"
    }

    /// Finds the connector (`connectorName`, or the first connected one
    /// when nil), its mode and a CRTC, and saves the CRTC's current state.
    public init(device: DRMDevice, connectorName wanted: String? = nil, mode request: ModeRequest = .preferred) throws(KMSError) {
        self.device = device
        let fd = device.fd
        guard let resources = drmModeGetResources(fd) else {
            throw KMSError(.callFailed, "drmModeGetResources on \(device.path) (is it a KMS device?)", errno: fbr_errno())
        }
        defer { drmModeFreeResources(resources) }
        let res = resources.pointee
        var seen: [String] = []
        for i in 0..<Int(res.count_connectors) {
            guard let connector = drmModeGetConnector(fd, res.connectors[i]) else { continue }
            defer { drmModeFreeConnector(connector) }
            let c = connector.pointee
            let typeName = drmModeGetConnectorTypeName(c.connector_type).map { String(cString: $0) } ?? "Unknown"
            let name = "\(typeName)-\(c.connector_type_id)"
            seen.append(name)
            if let wanted, wanted != name { continue }
            guard c.connection == DRM_MODE_CONNECTED, c.count_modes > 0 else {
                if wanted != nil { throw KMSError(.notFound, "connector \(name) is not connected") }
                continue
            }
            let modes = UnsafeBufferPointer(start: c.modes, count: Int(c.count_modes))
            guard let mode = KMSOutput.pick(request, from: modes) else {
                throw KMSError(.notFound, "connector \(name) has no mode \(KMSOutput.describe(request))")
            }
            guard let crtc = KMSOutput.crtc(fd: fd, for: c, resources: res) else {
                if wanted != nil { throw KMSError(.notFound, "connector \(name): no usable CRTC") }
                continue
            }
            connectorID = c.connector_id
            connectorName = name
            crtcID = crtc.id
            crtcIndex = crtc.index
            self.mode = mode
            modeRequest = request
            saved = drmModeGetCrtc(fd, crtc.id)
            return
        }
        if let wanted { throw KMSError(.notFound, "no connector \(wanted) on \(device.path) (has: \(seen.joined(separator: ", ")))") }
        throw KMSError(.notFound, "no connected connector with a mode on \(device.path)")
    }

    deinit {
        if let saved { drmModeFreeCrtc(saved) }
    }

    static func describe(_ request: ModeRequest) -> String {
        switch request {
        case .preferred: return "preferred"
        case .size(let w, let h, let r):
            guard let r else { return "\(w)x\(h)" }
            return "\(w)x\(h)@\(r / 1000)" + (r % 1000 == 0 ? "" : ".\(r % 1000)") + " Hz"
        }
    }

    static func pick(_ request: ModeRequest, from modes: UnsafeBufferPointer<drmModeModeInfo>) -> drmModeModeInfo? {
        switch request {
        case .preferred:
            return modes.first { $0.type & UInt32(DRM_MODE_TYPE_PREFERRED) != 0 } ?? modes.first
        case .size(let w, let h, let refresh):
            let sized = modes.filter { Int($0.hdisplay) == w && Int($0.vdisplay) == h }
            guard let refresh else { return sized.first }
            return sized.first { abs(Int($0.vrefresh) * 1000 - refresh) <= 500 }
        }
    }

    /// The CRTC the connector's current encoder drives, else the first one
    /// its encoders can use.
    private static func crtc(fd: Int32, for connector: drmModeConnector, resources: drmModeRes) -> (id: UInt32, index: Int)? {
        func index(of id: UInt32) -> Int? {
            (0..<Int(resources.count_crtcs)).first { resources.crtcs[$0] == id }
        }
        if connector.encoder_id != 0, let encoder = drmModeGetEncoder(fd, connector.encoder_id) {
            defer { drmModeFreeEncoder(encoder) }
            let id = encoder.pointee.crtc_id
            if id != 0, let i = index(of: id) { return (id, i) }
        }
        for e in 0..<Int(connector.count_encoders) {
            guard let encoder = drmModeGetEncoder(fd, connector.encoders[e]) else { continue }
            defer { drmModeFreeEncoder(encoder) }
            for k in 0..<Int(resources.count_crtcs) where encoder.pointee.possible_crtcs & (1 << UInt32(k)) != 0 {
                return (resources.crtcs[k], k)
            }
        }
        return nil
    }

    /// True when the CRTC raises vblank interrupts, so a page flip
    /// completes at the next vblank. virtio-gpu and bochs have none: their
    /// flips complete as soon as they are queued, and the render loop must
    /// pace itself. Meaningful only while the CRTC is on.
    public func hasVBlankEvents() -> Bool {
        var sequence: UInt64 = 0, ns: UInt64 = 0
        return drmCrtcGetSequence(device.fd, crtcID, &sequence, &ns) == 0
    }

    /// Puts back what the CRTC showed when this output was made (the
    /// console's framebuffer and mode), or switches it off if it was off.
    /// Call it while our framebuffers still exist: removing the one on
    /// screen first would switch the CRTC off.
    public func restore() throws(KMSError) {
        guard let saved else { return }
        let c = saved.pointee
        var connector = connectorID
        if c.mode_valid != 0 && c.buffer_id != 0 {
            var savedMode = c.mode
            let r = drmModeSetCrtc(device.fd, c.crtc_id, c.buffer_id, c.x, c.y, &connector, 1, &savedMode)
            if drmErrno(r) != 0 { throw KMSError.call("restoring CRTC \(c.crtc_id) to framebuffer \(c.buffer_id)", errno: drmErrno(r)) }
        } else {
            let r = drmModeSetCrtc(device.fd, c.crtc_id, 0, 0, 0, nil, 0, nil)
            if drmErrno(r) != 0 { throw KMSError.call("switching CRTC \(c.crtc_id) off", errno: drmErrno(r)) }
        }
    }

    /// The framebuffer the CRTC showed when this output was made (0: off).
    public var savedFramebufferID: UInt32 { saved?.pointee.buffer_id ?? 0 }

    /// The framebuffer the CRTC shows now (0: off or unknown).
    public func currentFramebufferID() -> UInt32 {
        guard let now = drmModeGetCrtc(device.fd, crtcID) else { return 0 }
        defer { drmModeFreeCrtc(now) }
        return now.pointee.buffer_id
    }
}
