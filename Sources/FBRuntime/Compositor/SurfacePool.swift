import Raster

/// Offscreen surfaces kept between frames so a steady scene does not
/// allocate: `acquire` hands out the smallest free surface at least as large
/// as asked (a view of its top-left part, cleared), `release` returns it.
/// Surfaces are allocated in steps of 64 pixels to help reuse. A surface no
/// draw used for `retainedFrames` frames is freed (`endFrame`), so a scene
/// whose passes change size as layers turn or scale settles at the largest
/// sizes it needs instead of freeing and reallocating them every few frames.
/// The free surfaces together hold at most `budgetBytes`: a release beyond
/// it frees the least recently released first (surfaces in use are not
/// counted — a frame gets what it draws with).
final class SurfacePool<Format: PixelFormat> {
    private struct Entry {
        let surface: Surface<Format>
        /// The frame that last released it.
        var lastUsed: Int
    }
    private var free: [Entry] = []
    private var inUse: [Surface<Format>] = []
    private var frame = 0
    /// Surfaces allocated since the counter was last read.
    var allocations = 0
    /// Most bytes the free surfaces may hold together (≥ 0; default 48
    /// MiB: a few full-screen passes at 1920×1080).
    var budgetBytes = 48 << 20 { didSet { budgetBytes = Swift.max(0, budgetBytes); trimToBudget() } }
    /// Bytes the free surfaces hold now.
    private(set) var freeBytes = 0
    /// Frames an unused surface is kept (about two seconds at 60 Hz).
    static var retainedFrames: Int { 120 }

    /// A cleared `width × height` view, or `nil` when the size is empty or
    /// beyond `RasterLimits`.
    func acquire(width: Int, height: Int) -> PixelView<Format>? {
        // Beyond the limit, rounding up (clamped to it) would hand out a
        // surface smaller than asked: an 832×16384 one for 796×1048986
        // (found by the animation fuzzer, a write past the end).
        guard width > 0, height > 0, width <= RasterLimits.maxDimension, height <= RasterLimits.maxDimension else { return nil }
        var best = -1
        var i = 0
        while i < free.count {
            let s = free[i].surface
            if s.width >= width && s.height >= height
                && (best < 0 || s.width * s.height < free[best].surface.width * free[best].surface.height) { best = i }
            i += 1
        }
        let surface: Surface<Format>
        if best >= 0 {
            surface = free.remove(at: best).surface
            freeBytes -= SurfacePool.bytes(of: surface)
        } else {
            func rounded(_ v: Int) -> Int { Swift.min((v + 63) & ~63, RasterLimits.maxDimension) }
            guard let s = Surface<Format>(width: rounded(width), height: rounded(height))
                    ?? Surface<Format>(width: width, height: height) else { return nil }
            allocations += 1
            surface = s
        }
        inUse.append(surface)
        let view = PixelView<Format>(base: surface.pixels, width: width, height: height,
                                     rowStride: surface.rowStride, owner: surface)
        var y = 0
        while y < height { view.row(y).update(repeating: 0, count: width); y += 1 }
        return view
    }

    /// Returns the surface behind `view` (from `acquire`) to the pool.
    func release(_ view: PixelView<Format>) {
        var i = inUse.count - 1
        while i >= 0 && inUse[i].pixels != view.base { i -= 1 }
        guard i >= 0 else { return }
        let surface = inUse.remove(at: i)
        free.append(Entry(surface: surface, lastUsed: frame))
        freeBytes += SurfacePool.bytes(of: surface)
        trimToBudget()
    }

    static func bytes(of surface: Surface<Format>) -> Int {
        surface.rowStride * surface.height * MemoryLayout<Format.Storage>.stride
    }

    /// Frees the least recently released surfaces until the free ones fit
    /// `budgetBytes` (`free` is in release order: oldest first).
    private func trimToBudget() {
        while freeBytes > budgetBytes && !free.isEmpty {
            freeBytes -= SurfacePool.bytes(of: free.remove(at: 0).surface)
        }
    }

    /// Bytes of the largest surface the pool holds (free or in use): what a
    /// bad-input test checks stays bounded.
    var largestSurfaceBytes: Int {
        var most = 0
        var i = 0
        while i < free.count { most = Swift.max(most, free[i].surface.rowStride * free[i].surface.height * MemoryLayout<Format.Storage>.stride); i += 1 }
        i = 0
        while i < inUse.count { most = Swift.max(most, inUse[i].rowStride * inUse[i].height * MemoryLayout<Format.Storage>.stride); i += 1 }
        return most
    }

    /// Ends a frame: frees the surfaces unused for `retainedFrames` frames.
    func endFrame() {
        var i = free.count - 1
        while i >= 0 {
            if frame - free[i].lastUsed >= SurfacePool.retainedFrames {
                freeBytes -= SurfacePool.bytes(of: free.remove(at: i).surface)
            }
            i -= 1
        }
        frame += 1
    }
}
