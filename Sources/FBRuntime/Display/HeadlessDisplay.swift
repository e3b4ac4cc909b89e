import Raster

/// A display with no screen: frames go to memory, and time advances one
/// refresh interval per frame on a `ManualClock`, so output is exactly
/// repeatable. Used by tests, by the demo where no display device exists,
/// and for screenshots.
public final class HeadlessDisplay {
    public let width: Int
    public let height: Int
    /// Refresh rate the clock advances by, in hertz.
    public let refreshRate: Double
    public let clock: ManualClock
    /// The last frame rendered.
    public let framebuffer: Surface<ARGB8888>
    public private(set) var frameCount = 0

    /// `nil` when the size is not positive or beyond `RasterLimits`.
    public init?(width: Int, height: Int, refreshRate: Double = 60, startTime: MediaTime = 0) {
        guard let surface = Surface<ARGB8888>(width: width, height: height) else { return nil }
        self.width = width
        self.height = height
        self.refreshRate = refreshRate > 0 && refreshRate.isFinite ? refreshRate : 60
        self.clock = ManualClock(now: startTime)
        self.framebuffer = surface
    }

    /// Renders `root` at the clock's current time, then advances the clock
    /// by one refresh interval.
    public func renderFrame(_ root: Layer, with compositor: Compositor) {
        compositor.render(root, at: clock.now, into: framebuffer.view)
        frameCount += 1
        clock.advance(by: 1 / refreshRate)
    }
}
