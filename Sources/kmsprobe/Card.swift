import CDRM
import CPosix

/// A failed DRM call: what was attempted and the errno it ended with.
struct ProbeError: Error, CustomStringConvertible {
    let what: String
    let errno: Int32
    init(_ what: String, errno: Int32 = 0) { self.what = what; self.errno = errno }
    var description: String {
        guard errno != 0 else { return what }
        var text = "\(what): errno \(errno)"
        if let message = strerror(errno) { text += " (" + String(cString: message) + ")" }
        return text
    }
}

/// libdrm reports failure either as -1 with errno set (drmIoctl and the calls
/// that return it directly) or as -errno (the calls built on its DRM_IOCTL
/// macro). Both become an errno here; 0 means success.
func drmErrno(_ result: Int32) -> Int32 {
    if result >= 0 { return 0 }
    return result == -1 ? fbr_errno() : -result
}

func cString<T>(_ tuple: T) -> String {
    withUnsafeBytes(of: tuple) { raw in
        let bytes = raw.bindMemory(to: UInt8.self)
        let end = bytes.firstIndex(of: 0) ?? bytes.count
        return String(decoding: bytes[0..<end], as: UTF8.self)
    }
}

/// The display path kmsprobe drives: one connected connector, the mode it
/// prefers and a CRTC that can reach it.
struct Output {
    let connectorID: UInt32
    let connectorName: String
    let mode: drmModeModeInfo
    let crtcID: UInt32

    var width: Int { Int(mode.hdisplay) }
    var height: Int { Int(mode.vdisplay) }
    var modeDescription: String {
        "\(cString(mode.name)) \(mode.hdisplay)x\(mode.vdisplay)@\(mode.vrefresh)Hz, clock \(mode.clock) kHz"
    }
}

/// An open DRM device node (a primary node such as /dev/dri/card0). The file
/// descriptor stays open for the card's lifetime: closing it drops DRM master
/// and the kernel hands the screen back to the console.
final class Card {
    let fd: Int32
    let path: String

    init(path: String) throws(ProbeError) {
        let fd = path.withCString { fbr_open($0, O_RDWR) }
        guard fd >= 0 else { throw ProbeError("open \(path)", errno: fbr_errno()) }
        self.fd = fd
        self.path = path
    }

    deinit { _ = close(fd) }

    var driverName: String {
        guard let version = drmGetVersion(fd) else { return "?" }
        defer { drmFreeVersion(version) }
        return version.pointee.name.map { String(cString: $0) } ?? "?"
    }

    /// The first connected connector with at least one mode, its preferred
    /// mode (the first mode if none is marked preferred) and a CRTC: the one
    /// its current encoder drives, else the first its encoders can use.
    func findOutput() throws(ProbeError) -> Output {
        guard let resources = drmModeGetResources(fd) else {
            throw ProbeError("drmModeGetResources (is this a KMS device?)", errno: fbr_errno())
        }
        defer { drmModeFreeResources(resources) }
        let res = resources.pointee
        for i in 0..<Int(res.count_connectors) {
            guard let connector = drmModeGetConnector(fd, res.connectors[i]) else { continue }
            defer { drmModeFreeConnector(connector) }
            let c = connector.pointee
            let typeName = drmModeGetConnectorTypeName(c.connector_type).map { String(cString: $0) } ?? "Unknown"
            let name = "\(typeName)-\(c.connector_type_id)"
            guard c.connection == DRM_MODE_CONNECTED, c.count_modes > 0 else {
                print("kmsprobe: connector \(name) (id \(c.connector_id)): not connected or no modes, skipped")
                continue
            }
            var mode = c.modes[0]
            for m in 0..<Int(c.count_modes) where c.modes[m].type & UInt32(DRM_MODE_TYPE_PREFERRED) != 0 {
                mode = c.modes[m]
                break
            }
            guard let crtc = crtcFor(c, resources: res) else {
                print("kmsprobe: connector \(name): no usable CRTC, skipped")
                continue
            }
            return Output(connectorID: c.connector_id, connectorName: name, mode: mode, crtcID: crtc)
        }
        throw ProbeError("no connected connector with a mode")
    }

    private func crtcFor(_ connector: drmModeConnector, resources: drmModeRes) -> UInt32? {
        if connector.encoder_id != 0, let encoder = drmModeGetEncoder(fd, connector.encoder_id) {
            defer { drmModeFreeEncoder(encoder) }
            if encoder.pointee.crtc_id != 0 { return encoder.pointee.crtc_id }
        }
        for e in 0..<Int(connector.count_encoders) {
            guard let encoder = drmModeGetEncoder(fd, connector.encoders[e]) else { continue }
            defer { drmModeFreeEncoder(encoder) }
            for k in 0..<Int(resources.count_crtcs) where encoder.pointee.possible_crtcs & (1 << UInt32(k)) != 0 {
                return resources.crtcs[k]
            }
        }
        return nil
    }
}
