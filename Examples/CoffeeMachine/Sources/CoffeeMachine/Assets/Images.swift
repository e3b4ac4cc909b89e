import FBRuntime
import ImageIO

/// The panel's images, decoded once at start from the bytes built into the
/// program. A corrupt image is an empty picture, not a crash (ImageIO
/// reports it; the layer draws its background only).
final class Images {
    let cup: LayerContents?

    init() {
        cup = cupPNG.withUnsafeBytes { bytes in
            guard let surface = try? PNG.read(bytes: bytes) else { return nil }
            return LayerContents(surface)
        }
    }
}
