/// Path filling on `Canvas`: the rasterizer produces coverage rows, and one
/// mask kernel, chosen once per draw by `KernelTable.solidMask`, composites
/// each row (SIMD or scalar reference per `Canvas.family`).
extension Canvas {
    /// Fills `path` (mapped through `transform`, into the canvas's device
    /// pixels) with a premultiplied `color`, anti-aliased, inside the
    /// canvas's clip, composited with `op` at global `alpha` (0–255).
    ///
    /// Pass a long-lived `rasterizer` to reuse its buffers; without one, each
    /// call makes (and frees) a temporary rasterizer.
    public func fill(_ path: Path, color: PremultipliedColor, rule: FillRule = .nonZero,
                     transform: AffineTransform = .identity, operator op: BlendOperator = .srcOver,
                     alpha: UInt8 = 255, using rasterizer: PathRasterizer? = nil) {
        guard let kernel = KernelTable.solidMask(op, color: color.argb, alpha: UInt32(alpha), family: family) else { return }
        let r = rasterizer ?? PathRasterizer()
        let target = self.target
        let argb = color.argb, a = UInt32(alpha)
        r.fill(path, transform: transform, rule: rule, clip: clip) { y, x, coverage, count in
            kernel(target.row(y) + x, coverage, count, argb, a)
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

extension Canvas {
    /// Fills `sector` (device pixels) with a premultiplied `color`,
    /// anti-aliased in closed form (`SectorRasterizer`; its fast or
    /// reference rows per `Canvas.family`), inside the canvas's clip,
    /// composited with `op` at global `alpha` (0–255). A sector wider than
    /// `SectorRasterizer.maximumRadius` draws nothing.
    ///
    /// Pass a long-lived `rasterizer` to reuse its row; without one, each
    /// call makes (and frees) a temporary one.
    public func fill(_ sector: AnnularSector, color: PremultipliedColor, operator op: BlendOperator = .srcOver,
                     alpha: UInt8 = 255, using rasterizer: SectorRasterizer? = nil) {
        guard let kernel = KernelTable.solidMask(op, color: color.argb, alpha: UInt32(alpha), family: family) else { return }
        let r = rasterizer ?? SectorRasterizer()
        let target = self.target
        let argb = color.argb, a = UInt32(alpha)
        r.fill(sector, clip: clip, family: family) { y, x, coverage, count in
            kernel(target.row(y) + x, coverage, count, argb, a)
        }
    }
}
