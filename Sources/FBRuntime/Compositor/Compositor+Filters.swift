import Raster

// Layer filters (`Layer.filters`): the layer image is rendered offscreen as
// a group (`drawGroup`), the chain applied to it in order, then it is
// composited like any group (shadow from its alpha, mask, opacity,
// operator).

extension Compositor {
    /// Most target pixels the blurs of one layer's filter chain may spread
    /// its image together (each blur spreads at most
    /// 1.5 · `maximumShadowRadius` + 2): a documented clamp that keeps a
    /// long chain of blurs from growing the offscreen area without bound.
    static let maximumFilterMargin = 1024

    /// The radius of a blur filter in target pixels: `radius` points
    /// carried by the map's local scale at the centre of the bounds (as the
    /// backdrop blur), clamped to `0…maximumShadowRadius` (NaN → 0).
    func filterBlurRadius(_ radius: Double, _ r: ResolvedLayer) -> Double {
        guard radius > 0, radius.isFinite else { return 0 }
        let k = r.toTarget.areaScale(at: r.bounds.center).squareRoot()
        let px = radius * (k.isFinite ? k : 0)
        return px > 0 ? Swift.min(px, Compositor.maximumShadowRadius) : 0
    }

    /// Target pixels the filter chain of `r` spreads the layer image on
    /// every side: the sum of its blurs' margins (1.5 radii + 2 each, the
    /// reach of the three box passes with slack, as for image shadows), at
    /// most `maximumFilterMargin`. 0 without blurs.
    func filterMargin(_ r: ResolvedLayer) -> Int {
        let layer = r.layer
        let count = layer.filters.count
        var margin = 0
        var i = 0
        while i < count {
            if case let .gaussianBlur(radius) = layer.presentedFilter(at: i, localTime: r.localTime) {
                let px = filterBlurRadius(radius, r)
                if !BlurPlan(radius: px).isIdentity { margin += Int((1.5 * px).rounded(.up)) + 2 }
            }
            i += 1
        }
        return Swift.min(margin, Compositor.maximumFilterMargin)
    }

    /// Applies the filter chain of `r` (this frame's parameters) to
    /// `image`, the layer image rendered offscreen, in place. Pixels outside
    /// `image` count as transparent for the blurs: the caller renders the
    /// image with `filterMargin` pixels around what it needs.
    func applyFilters(_ r: ResolvedLayer, to image: PixelView<ARGB8888>) {
        let layer = r.layer
        let count = layer.filters.count
        var i = 0
        while i < count {
            let filter = layer.presentedFilter(at: i, localTime: r.localTime)
            i += 1
            if case let .gaussianBlur(radius) = filter {
                let px = filterBlurRadius(radius, r)
                guard !BlurPlan(radius: px).isIdentity else { continue }
                blur.blur(image, radius: px, family: kernels)
            } else if let matrix = filter.matrix {
                let plan = ColorMatrixPlan(matrix)
                guard !plan.isIdentity else { continue }
                ColorMatrixKernels.apply(plan, to: image, family: kernels)
            }
            statistics.pixelsWritten += image.width * image.height
        }
    }
}

extension LayerSignature {
    /// Folds the filter chain of `layer` as drawn at its local time `t`.
    mutating func combine(filtersOf layer: Layer, at t: MediaTime) {
        let count = layer.filters.count
        combine(count)
        var i = 0
        while i < count {
            let filter = layer.presentedFilter(at: i, localTime: t)
            i += 1
            switch filter {
            case let .colorMatrix(m):
                combine(20 as UInt64)
                var j = 0
                while j < 4 {
                    combine(m.red[j]); combine(m.green[j]); combine(m.blue[j]); combine(m.alpha[j]); combine(m.offset[j])
                    j += 1
                }
            case let .saturation(v): combine(21 as UInt64); combine(v)
            case let .brightness(v): combine(22 as UInt64); combine(v)
            case let .contrast(v): combine(23 as UInt64); combine(v)
            case let .gaussianBlur(radius): combine(24 as UInt64); combine(radius)
            }
        }
    }
}
