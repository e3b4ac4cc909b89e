/// The pixel formats a display scans out of (a board file's
/// `pixel-format`; KMS dumb buffers, fbdev framebuffers).
public enum ScanoutFormat: Equatable, Sendable {
    case xrgb8888
    /// 16 bits per pixel; the presenters dither into it.
    case rgb565

    public var bytesPerPixel: Int { self == .xrgb8888 ? 4 : 2 }
    public var name: String { self == .xrgb8888 ? "XRGB8888" : "RGB565" }
}
