import Raster

/// A layer whose image the app writes pixel by pixel and presents — a
/// camera frame, a video, a custom renderer (the analog of CA's OpenGL and
/// Metal layers). The presented buffer is the layer's `contents`, so it is
/// placed by `contentsGravity`, filtered, clipped and transformed like any
/// contents.
///
/// **Buffers.** Three buffers rotate: the app writes the *back* buffer
/// (`withBackBuffer`), `present()` makes it the contents, and the next back
/// buffer is the one presented two presents ago — so the app never writes
/// the image the render thread may be compositing this frame or was handed
/// in the last commit (the render thread takes a committed image at the
/// start of its next frame). A present costs no copy.
///
/// Pixels are premultiplied ARGB8888. With `isOpaque`, the app promises
/// alpha 255 everywhere and the image is copied instead of blended (wrong
/// promises show garbage behind translucent pixels, as in CA).
open class PixelBufferLayer: Layer {
    /// The buffers' size in pixels.
    public let pixelWidth: Int, pixelHeight: Int
    private var buffers: [LayerContents] = []
    private var back = 0
    /// Presents so far.
    public private(set) var presentCount = 0

    /// `nil` when the size is not positive or beyond `RasterLimits` (a
    /// documented refusal: no giant allocation).
    public init?(width: Int, height: Int, isOpaque: Bool = false, name: String = "pixelBuffer") {
        var made: [LayerContents] = []
        for _ in 0..<3 {
            guard let s = Surface<ARGB8888>(width: width, height: height) else { return nil }
            made.append(LayerContents(s, isOpaque: isOpaque))
        }
        pixelWidth = width
        pixelHeight = height
        buffers = made
        super.init(name: name)
        contentsGravity = .resize
    }

    /// Lets `body` write the back buffer (its previous content is the frame
    /// presented three presents ago, or transparent).
    public final func withBackBuffer<T>(_ body: (PixelView<ARGB8888>) -> T) -> T {
        body(buffers[back].image.view)
    }

    /// Shows the back buffer from the next commit on and moves to the next
    /// back buffer.
    public func present() {
        let presented = buffers[back]
        presented.contentsDidChange()
        setContentsWithoutActions(presented)     // a new frame, not a change to fade
        back = (back + 1) % buffers.count
        presentCount += 1
    }
}
