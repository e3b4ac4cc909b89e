import CDRM
import CPosix

/// Which display a program runs on, in the fallback order every board
/// follows: KMS when a DRM card has a connected connector, else fbdev when
/// the framebuffer device exists, else headless (frames in memory).
public enum DisplayBackendChoice: Equatable, Sendable {
    case kms
    case fbdev(path: String)
    case headless

    /// The backend for `requested` (a board's `backend` or a program's
    /// flag): `.kms` and `.fbdev` are taken as asked (their own open
    /// reports what is missing); `.auto` probes in the fallback order.
    public static func choose(_ requested: BoardConfig.Backend, fbDevice: String = "/dev/fb0") -> DisplayBackendChoice {
        switch requested {
        case .kms: return .kms
        case .fbdev: return .fbdev(path: fbDevice)
        case .auto:
            if hasConnectedKMSCard() { return .kms }
            if System.exists(fbDevice) { return .fbdev(path: fbDevice) }
            return .headless
        }
    }

    /// The /dev/dri/card* nodes this process cannot open, with the errno
    /// (`EACCES`: the user lacks the `video` group or a seat), so a
    /// program can say why `auto` passed KMS by.
    public static func unopenableCards() -> [(path: String, errno: Int32)] {
        var result: [(path: String, errno: Int32)] = []
        for path in DRMDevice.cardPaths() {
            let fd = path.withCString { fbr_open($0, O_RDWR) }
            if fd < 0 { result.append((path, fbr_errno())) } else { _ = close(fd) }
        }
        return result
    }

    /// True when some /dev/dri/card* has a connected connector with a
    /// mode. Opens each card only to read its resources (no DRM master
    /// needed), and closes it.
    public static func hasConnectedKMSCard() -> Bool {
        for path in DRMDevice.cardPaths() {
            let fd = path.withCString { fbr_open($0, O_RDWR) }
            guard fd >= 0 else { continue }
            defer { _ = close(fd) }
            guard let resources = drmModeGetResources(fd) else { continue }
            defer { drmModeFreeResources(resources) }
            for i in 0..<Int(resources.pointee.count_connectors) {
                guard let c = drmModeGetConnector(fd, resources.pointee.connectors[i]) else { continue }
                defer { drmModeFreeConnector(c) }
                if c.pointee.connection == DRM_MODE_CONNECTED && c.pointee.count_modes > 0 { return true }
            }
        }
        return false
    }
}
