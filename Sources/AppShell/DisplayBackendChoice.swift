import CPosix
import FBRuntime
import FBRuntimeKMS
import Seat

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
    /// With `seat`, cards are probed through its seat manager.
    public static func choose(_ requested: BoardConfig.Backend, fbDevice: String = "/dev/fb0",
                              seat: SeatSession? = nil) -> DisplayBackendChoice {
        switch requested {
        case .kms: return .kms
        case .fbdev: return .fbdev(path: fbDevice)
        case .auto:
            if DRMDevice.hasConnectedCard(seat: seat) { return .kms }
            if System.exists(fbDevice) { return .fbdev(path: fbDevice) }
            return .headless
        }
    }
}
