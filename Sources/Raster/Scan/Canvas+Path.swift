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
    /// Fills `path` (mapped through `transform`, into the canvas's device
    /// pixels) with `paint` (a gradient, an image pattern: its own mapping
    /// is in device pixels too), anti-aliased, inside the canvas's clip,
    /// composited with `op` at global `alpha` (0–255): the paint is shaded
    /// only where the path covers pixels, and each covered run goes
    /// through one `KernelTable.imageMask` kernel chosen for the draw.
    /// Pixels the path does not cover are left alone, whatever `op`
    /// (coverage bounds every operator, as cairo's bounded operators do).
    ///
    /// The same pixels as shading the paint over the path's box and
    /// compositing it through the path's coverage mask
    /// (`draw(_:x:y:mask:operator:alpha:opaque:)`), without the box-sized
    /// image and mask. Pass a long-lived `rasterizer` to reuse its buffers.
    /// - Complexity: O(covered area) shading; the span scratch is a stack
    ///   temporary.
    public func fill<P: Paint>(_ path: Path, paint: P, rule: FillRule = .nonZero,
                               transform: AffineTransform = .identity, operator op: BlendOperator = .srcOver,
                               alpha: UInt8 = 255, using rasterizer: PathRasterizer? = nil) {
        var area = clip
        if !paint.isOpaque && op.transparentSourceIsNoOp, let bounds = paint.paintedBounds { area = area.intersection(bounds) }
        guard !area.isEmpty,
              let kernel = KernelTable.imageMask(op, alpha: UInt32(alpha), sourceIsOpaque: paint.isOpaque, family: family)
        else { return }
        let r = rasterizer ?? PathRasterizer()
        let target = self.target, family = self.family, a = UInt32(alpha)
        withUnsafeTemporaryAllocation(of: UInt32.self, capacity: Canvas.paintChunk) { buffer in
            let scratch = buffer.baseAddress!
            r.fill(path, transform: transform, rule: rule, clip: area) { y, x, coverage, count in
                // In pieces of at most `paintChunk` pixels (the scratch).
                var i = 0
                while i < count {
                    let n = Swift.min(Canvas.paintChunk, count - i)
                    paint.shade(x: x + i, y: y, count: n, into: scratch, family: family)
                    kernel(target.row(y) + x + i, UnsafePointer(scratch), coverage + i, n, a)
                    i += n
                }
            }
            // Not a call last: see `ImageSampler.scaledBilinearRow` (a
            // Swift 6.3 x86-64 miscompile of such closures).
            _ = scratch
        }
    }
}

extension Canvas {
    /// Strokes `path` with `style` (in the path's coordinate space, so
    /// `transform` scales the pen too) in a premultiplied `color`,
    /// composited with `op` at global `alpha` (0–255): fills
    /// `path.stroked(style, transform:)` with the non-zero rule, so the
    /// stroke is one coverage (its overlaps are not composited twice: a
    /// translucent stroke crossing itself is as dark at the crossing as
    /// elsewhere, as in Core Graphics and cairo).
    ///
    /// Builds the outline on every call (arrays are allocated); cache
    /// `path.stroked(...)` for a path drawn repeatedly.
    public func stroke(_ path: Path, color: PremultipliedColor, style: StrokeStyle,
                       transform: AffineTransform = .identity, operator op: BlendOperator = .srcOver,
                       alpha: UInt8 = 255, using rasterizer: PathRasterizer? = nil) {
        guard color.alpha != 0 || !op.transparentSourceIsNoOp else { return }
        let r = rasterizer ?? PathRasterizer()
        fill(path.stroked(style, transform: transform, tolerance: r.tolerance), color: color, rule: .nonZero,
             transform: transform, operator: op, alpha: alpha, using: r)
    }

    /// Strokes `path` with `style` as `stroke(_:color:style:…)` does, in
    /// `paint` (a gradient along the stroke, an image pattern; its mapping
    /// in device pixels).
    public func stroke<P: Paint>(_ path: Path, paint: P, style: StrokeStyle,
                                 transform: AffineTransform = .identity, operator op: BlendOperator = .srcOver,
                                 alpha: UInt8 = 255, using rasterizer: PathRasterizer? = nil) {
        let r = rasterizer ?? PathRasterizer()
        fill(path.stroked(style, transform: transform, tolerance: r.tolerance), paint: paint, rule: .nonZero,
             transform: transform, operator: op, alpha: alpha, using: r)
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
