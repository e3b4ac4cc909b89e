import FBRuntime
import ImageIO
import ImageLoading
import Raster

/// Photos for the demo scenes (the image browser): decoded on a worker
/// thread, downsampled at decode time to the size they are shown at, and
/// put into their layer on the app thread's next run-loop turn.
///
/// ```swift
/// let photos = try PhotoLoader()                      // once, on the app thread
/// photos.show("/usr/share/fbruntime/photos/beach.jpg", in: tile, scale: 1)
/// ```
public final class PhotoLoader {
    public let queue: ImageLoadQueue

    /// A loader delivering on `runLoop` (the app's), decoding on
    /// `workerCount` threads.
    public init(runLoop: AppRunLoop = AppRunLoop.current, workerCount: Int = 1) throws(SystemError) {
        queue = try ImageLoadQueue(runLoop: runLoop, workerCount: workerCount)
    }

    /// Decodes `path` fitted to `layer`'s bounds (points × `scale` pixels
    /// per point, aspect kept, never enlarged) and shows it with
    /// `.resizeAspect` gravity. On failure the layer is left as it is and
    /// `onError` (app thread) gets the message. The request holds `layer`
    /// until it completes. Returns the request (to
    /// cancel when the tile scrolls away), or `nil` when the queue is full.
    @discardableResult
    public func show(_ path: String, in layer: Layer, scale: Double = 1,
                     onError: ((String) -> Void)? = nil) -> ImageLoadRequest? {
        let b = layer.bounds
        let w = b.width * scale, h = b.height * scale
        let fit = ImageDecodeOptions(fittingIn: w.isFinite && w >= 1 ? Int(w.rounded(.up)) : 1,
                                     h.isFinite && h >= 1 ? Int(h.rounded(.up)) : 1)
        return queue.load(path: path, options: fit) { result in
            switch result {
            case .success(let image):
                layer.contentsGravity = .resizeAspect
                layer.contentsScale = scale
                layer.contents = LayerContents(image.surface, isOpaque: image.isOpaque)
            case .failure(let error):
                onError?(error.description)
            }
        }
    }
}
