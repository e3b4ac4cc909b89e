import Raster

extension Compositor {
    /// The backdrop blur of `r` (see `Layer.backgroundBlurRadius`).
    ///
    /// The radius is carried into target pixels by the map's local scale at
    /// the centre of the bounds (clamped to `maximumShadowRadius`). The
    /// backdrop is read from the target around the layer's pixel box, with
    /// a margin of 1.5 radii so the blur near the edges sees what lies
    /// beyond them (the target's edge counts as transparent), blurred in an
    /// offscreen surface, and composited back (source-over, faded by the
    /// layer's opacity) through the coverage of the rounded bounds,
    /// multiplied by the mask's alpha. One offscreen pass, plus one for a
    /// mask.
    @inline(never)
    func drawBackdropBlur(_ r: ResolvedLayer, opacity: Double, canvas: Canvas, depth: Int) {
        var radius = r.layer.backgroundBlurRadius
        if case let .scalar(v)? = r.layer.customPresentationValue(forKey: "backgroundBlurRadius", atLocalTime: r.localTime) { radius = v }
        guard radius > 0, radius.isFinite else { return }
        let k = r.toTarget.areaScale(at: r.bounds.center).squareRoot()
        radius *= k.isFinite ? k : 0
        radius = Swift.min(radius, Compositor.maximumShadowRadius)
        guard radius > 0 else { return }
        let region = projectedBox(r.bounds, r.toTarget).enclosingIntRect.intersection(canvas.clip)
        guard !region.isEmpty else { return }
        let margin = Int((1.5 * radius).rounded(.up)) + 2
        let source = region.insetBy(-margin).intersection(canvas.target.bounds)
        guard let off = colorPool.acquire(width: source.width, height: source.height) else { return }
        defer { colorPool.release(off) }
        guard let coverage = coveragePool.acquire(width: region.width, height: region.height) else { return }
        defer { coveragePool.release(coverage) }
        statistics.offscreenPasses += 1
        var y = 0
        while y < source.height {
            off.row(y).update(from: canvas.target.row(source.y + y) + source.x, count: source.width)
            y += 1
        }
        blur.blur(off, radius: radius, family: kernels)
        let s = r.shifted(x: region.x, y: region.y)
        rasterizeCoverage(roundedBounds(s), map: s.toTarget, sampleRect: s.bounds, into: coverage)
        if let mask = r.layer.mask {
            guard let m = renderMask(mask, of: s, width: region.width, height: region.height, depth: depth) else { return }
            defer { coveragePool.release(m) }
            var row = 0
            while row < region.height {
                let c = coverage.row(row), a = m.row(row)
                var x = 0
                while x < region.width { c[x] = UInt8(truncatingIfNeeded: div255(UInt32(c[x]) &* UInt32(a[x]))); x &+= 1 }
                row += 1
            }
        }
        let inner = PixelView<ARGB8888>(base: off.row(region.y - source.y) + (region.x - source.x), width: region.width,
                                        height: region.height, rowStride: off.rowStride, owner: off.owner)
        composite(inner, x: region.x, y: region.y, mask: coverage, operator: .srcOver, alpha: unitToByte(opacity), canvas: canvas)
    }
}
