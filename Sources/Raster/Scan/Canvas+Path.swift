/// Path filling on `Canvas`, composited by the reference coverage kernel
/// below. The SIMD mask kernels (owned by the blend work) replace it via the
/// kernel table later; until then this is the one path-compositing loop.
extension Canvas {
    /// Source-over fills `path` (mapped through `transform`, into the
    /// canvas's device pixels) with a premultiplied `color`, anti-aliased,
    /// inside the canvas's clip.
    ///
    /// Pass a long-lived `rasterizer` to reuse its buffers; without one, each
    /// call makes (and frees) a temporary rasterizer.
    public func fill(_ path: Path, color: PremultipliedColor, rule: FillRule = .nonZero,
                     transform: AffineTransform = .identity, using rasterizer: PathRasterizer? = nil) {
        guard color.alpha != 0 else { return }
        let r = rasterizer ?? PathRasterizer()
        let target = self.target
        let argb = color.argb
        r.fill(path, transform: transform, rule: rule, clip: clip) { y, x, coverage, count in
            CoverageReferenceKernels.srcOverSolid(target.row(y) + x, coverage, count, color: argb)
        }
    }
}

extension Canvas {
    /// Source-over strokes `path` with `style` (in the path's coordinate
    /// space, so `transform` scales the pen too): fills
    /// `path.stroked(style, transform:)` with the non-zero rule.
    ///
    /// Builds the outline on every call (arrays are allocated); cache
    /// `path.stroked(...)` for a path drawn repeatedly.
    public func stroke(_ path: Path, color: PremultipliedColor, style: StrokeStyle,
                       transform: AffineTransform = .identity, using rasterizer: PathRasterizer? = nil) {
        guard color.alpha != 0 else { return }
        let r = rasterizer ?? PathRasterizer()
        fill(path.stroked(style, transform: transform, tolerance: r.tolerance), color: color, rule: .nonZero,
             transform: transform, using: r)
    }
}

/// Reference (scalar) compositing of coverage spans, written to be obviously
/// right; SIMD kernels must match it exactly.
public enum CoverageReferenceKernels {
    /// Source-over of a solid premultiplied colour through 8-bit coverage `m`:
    /// `Sca' = Sca·m` (each channel `div255(c·m)`), then
    /// `Dca' = Sca' + Dca·(1 − Sa')`. Coverage 0 leaves the pixel alone;
    /// coverage 255 uses the colour unscaled.
    @inlinable
    public static func srcOverSolid(_ dst: UnsafeMutablePointer<UInt32>, _ coverage: UnsafePointer<UInt8>, _ count: Int, color: UInt32) {
        var i = 0
        while i < count {
            let m = UInt32(coverage[i])
            if m != 0 {
                let s = m == 255 ? color : ScalarKernels.scalePixel(color, m)
                dst[i] = ScalarKernels.overPixel(s, dst[i], inverseAlpha: 255 &- (s &>> 24))
            }
            i &+= 1
        }
    }
}
