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
        // Index loops, not `for in` or `…(where:)`: those allocate in
        // unoptimised builds, and the zero-allocation test runs in debug.
        var best = -1
        var i = 0
        while i < free.count {
            if free[i].width >= width && free[i].height >= height
                && (best < 0 || free[i].width * free[i].height < free[best].width * free[best].height) { best = i }
            i += 1
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
        var i = inUse.count - 1
        while i >= 0 && inUse[i].pixels != view.base { i -= 1 }
        guard i >= 0 else { return }
        let s = inUse.remove(at: i)
        free.append(s)
        if index(of: s, in: usedThisFrame) == nil { usedThisFrame.append(s) }
    }

    private func index(of s: Surface<Format>, in list: [Surface<Format>]) -> Int? {
        var i = 0
        while i < list.count { if list[i] === s { return i }; i += 1 }
        return nil
    }

    /// Frees the surfaces no draw used since the last call.
    func endFrame() {
        var i = free.count - 1
        while i >= 0 {
            if index(of: free[i], in: usedThisFrame) == nil { free.remove(at: i) }
            i -= 1
        }
        usedThisFrame.removeAll(keepingCapacity: true)
    }
}
