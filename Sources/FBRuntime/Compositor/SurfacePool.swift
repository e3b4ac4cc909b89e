import Raster

/// Offscreen surfaces kept between frames so a steady scene does not
/// allocate: `acquire` hands out the smallest free surface at least as large
/// as asked (a view of its top-left part, cleared), `release` returns it.
/// Surfaces are allocated in steps of 64 pixels to help reuse. Surfaces not
/// used during a frame are freed at its end (`endFrame`).
final class SurfacePool<Format: PixelFormat> {
    private var free: [Surface<Format>] = []
    private var usedThisFrame: [Surface<Format>] = []
    private var inUse: [Surface<Format>] = []
    /// Surfaces allocated since the counter was last read.
    var allocations = 0

    /// A cleared `width × height` view, or `nil` when the size is empty or
    /// beyond `RasterLimits`.
    func acquire(width: Int, height: Int) -> PixelView<Format>? {
        guard width > 0, height > 0 else { return nil }
        var best = -1
        for i in free.indices where free[i].width >= width && free[i].height >= height {
            if best < 0 || free[i].width * free[i].height < free[best].width * free[best].height { best = i }
        }
        let surface: Surface<Format>
        if best >= 0 {
            surface = free.remove(at: best)
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
        guard let i = inUse.lastIndex(where: { $0.pixels == view.base }) else { return }
        let s = inUse.remove(at: i)
        free.append(s)
        if !usedThisFrame.contains(where: { $0 === s }) { usedThisFrame.append(s) }
    }

    /// Frees the surfaces no draw used since the last call.
    func endFrame() {
        free.removeAll { s in !usedThisFrame.contains { $0 === s } }
        usedThisFrame.removeAll(keepingCapacity: true)
    }
}
