import CPosix
import Raster
import Synchronization

/// A layer whose image the app writes pixel by pixel and presents — a
/// camera frame, a video, a custom renderer (the analog of CA's OpenGL and
/// Metal layers). The presented buffer is the layer's `contents`, so it is
/// placed by `contentsGravity`, filtered, clipped and transformed like any
/// contents.
///
/// **Buffers.** The app writes the *back* buffer (`withBackBuffer`);
/// `present()` makes it the contents, at no copy, and picks the next back
/// buffer: one that nothing but this layer holds any more — not the model
/// contents, not a commit on its way to the render thread, not the render
/// tree's contents, not a frame being drawn (each of those holds a
/// reference to the buffer it shows; the render side lets go of a buffer
/// only once the frame that drew it is done). So the app never writes an
/// image that is on screen or about to be, however fast it presents and
/// however many commits are queued. Three buffers to start with; when all
/// the others are still held, a new one is made, up to
/// `maximumBufferCount`; beyond that `present()` waits (a millisecond at a
/// time, up to `maximumWaitMilliseconds`) for one to be let go, then makes
/// one anyway rather than stall the app for good (a render thread that is
/// not drawing: the display off, say).
///
/// Pixels are premultiplied ARGB8888. With `isOpaque`, the app promises
/// alpha 255 everywhere and the image is copied instead of blended (wrong
/// promises show garbage behind translucent pixels, as in CA).
open class PixelBufferLayer: Layer {
    /// The buffers' size in pixels.
    public let pixelWidth: Int, pixelHeight: Int
    private let buffersAreOpaque: Bool
    private var buffers: [LayerContents] = []
    private var back = 0
    /// Presents so far.
    public private(set) var presentCount = 0
    /// The buffers made so far (3 at first; see the type).
    public var bufferCount: Int { buffers.count }

    /// How many buffers `present()` makes before it waits for one.
    public static let maximumBufferCount = 8
    /// How long `present()` waits for a buffer at `maximumBufferCount`
    /// before it makes one more anyway.
    public static let maximumWaitMilliseconds = 100

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
        buffersAreOpaque = isOpaque
        buffers = made
        super.init(name: name)
        contentsGravity = .resize
    }

    /// Lets `body` write the back buffer (its previous content is a frame
    /// presented some presents ago, or transparent for a buffer not
    /// presented yet). Nothing else holds it while the app writes.
    public final func withBackBuffer<T>(_ body: (PixelView<ARGB8888>) -> T) -> T {
        body(buffers[back].image.view)
    }

    /// Shows the back buffer from the next commit on and moves to a free
    /// back buffer (see the type).
    public func present() {
        let presented = buffers[back]
        presented.contentsDidChange()
        setContentsWithoutActions(presented)     // a new frame, not a change to fade
        presentCount += 1
        back = freeBuffer(after: back)
    }

    /// The first buffer after `current` (in rotation order) that only this
    /// layer holds; else a new one (see the type).
    private func freeBuffer(after current: Int) -> Int {
        var waited = 0
        while true {
            var k = 1
            while k < buffers.count {
                let i = (current + k) % buffers.count
                if isKnownUniquelyReferenced(&buffers[i]) {
                    // The render side's reads of the buffer happen before the
                    // app's writes: its release of the last reference, then
                    // this fence.
                    atomicMemoryFence(ordering: .acquiring)
                    return i
                }
                k += 1
            }
            if buffers.count < PixelBufferLayer.maximumBufferCount || waited >= PixelBufferLayer.maximumWaitMilliseconds,
               let s = Surface<ARGB8888>(width: pixelWidth, height: pixelHeight) {
                buffers.append(LayerContents(s, isOpaque: buffersAreOpaque))
                return buffers.count - 1
            }
            usleep(1000)
            waited += 1
        }
    }
}
