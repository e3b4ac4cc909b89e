/// Draws with any `BlendOperator`, optional A8 coverage and a global alpha.
///
/// Operators act only inside the drawn shape (the rectangle, or the mask's
/// rectangle): an operator such as `src` or `clear` does not touch pixels
/// outside it (Blend2D's and Core Graphics' bounded behaviour). `alpha` is a
/// coverage multiplied into every pixel (see `BlendOperator`).
extension Canvas {
    /// Fills `rect` with `color` (premultiplied) using `op`.
    public func fill(_ rect: IntRect, color: PremultipliedColor, operator op: BlendOperator, alpha: UInt8 = 255) {
        let r = rect.intersection(clip)
        guard !r.isEmpty,
              let kernel = KernelTable.solid(op, color: color.argb, alpha: UInt32(alpha), family: family) else { return }
        var y = r.y
        while y < r.maxY {
            kernel(target.row(y) + r.x, r.width, color.argb, UInt32(alpha))
            y &+= 1
        }
    }

    /// Composites `image` with its top-left corner at (`x`, `y`) using `op`.
    /// `opaque` declares that every pixel of `image` has alpha 255.
    public func draw(_ image: PixelView<ARGB8888>, x: Int, y: Int, operator op: BlendOperator, alpha: UInt8 = 255, opaque: Bool = false) {
        let r = IntRect(x: x, y: y, width: image.width, height: image.height).intersection(clip)
        guard !r.isEmpty,
              let kernel = KernelTable.image(op, alpha: UInt32(alpha), sourceIsOpaque: opaque, family: family) else { return }
        var row = r.y
        while row < r.maxY {
            kernel(target.row(row) + r.x, UnsafePointer(image.row(row - y) + (r.x - x)), r.width, UInt32(alpha))
            row &+= 1
        }
    }

    /// Composites `color` through the coverage `mask` placed with its
    /// top-left corner at (`x`, `y`) using `op` (source-over by default).
    public func fill(mask: PixelView<A8>, x: Int, y: Int, color: PremultipliedColor,
                     operator op: BlendOperator = .srcOver, alpha: UInt8 = 255) {
        let r = IntRect(x: x, y: y, width: mask.width, height: mask.height).intersection(clip)
        guard !r.isEmpty,
              let kernel = KernelTable.solidMask(op, color: color.argb, alpha: UInt32(alpha), family: family) else { return }
        var row = r.y
        while row < r.maxY {
            kernel(target.row(row) + r.x, UnsafePointer(mask.row(row - y) + (r.x - x)), r.width, color.argb, UInt32(alpha))
            row &+= 1
        }
    }

    /// Composites `image` through `mask` (same size as `image`, aligned with
    /// it) placed at (`x`, `y`) using `op`.
    public func draw(_ image: PixelView<ARGB8888>, x: Int, y: Int, mask: PixelView<A8>,
                     operator op: BlendOperator = .srcOver, alpha: UInt8 = 255, opaque: Bool = false) {
        precondition(mask.width == image.width && mask.height == image.height, "Canvas.draw: mask and image sizes differ")
        let r = IntRect(x: x, y: y, width: image.width, height: image.height).intersection(clip)
        guard !r.isEmpty,
              let kernel = KernelTable.imageMask(op, alpha: UInt32(alpha), sourceIsOpaque: opaque, family: family) else { return }
        var row = r.y
        while row < r.maxY {
            kernel(target.row(row) + r.x, UnsafePointer(image.row(row - y) + (r.x - x)),
                   UnsafePointer(mask.row(row - y) + (r.x - x)), r.width, UInt32(alpha))
            row &+= 1
        }
    }
}

/// Colour through a resampled coverage mask (a blurred shadow drawn where
/// it does not fall on whole pixels).
extension Canvas {
    /// Composites `color` through `mask` placed by `transform` (mask pixels
    /// → target pixels), sampled bilinearly with 0 outside the mask
    /// (`MaskSampler`), over the pixels of `rect` inside the clip, using
    /// `op` and global `alpha`. A whole-pixel translation composites the
    /// mask's rows as they are (`fill(mask:x:y:color:operator:alpha:)`).
    /// Pixels whose sampled coverage is 0 are left as they are, as every
    /// operator leaves them under coverage 0.
    /// - Complexity: O(pixels of `rect` the mask reaches); no allocation.
    public func fill(_ rect: IntRect, mask: PixelView<A8>, transform t: AffineTransform, color: PremultipliedColor,
                     operator op: BlendOperator = .srcOver, alpha: UInt8 = 255) {
        let r = rect.intersection(clip)
        guard !r.isEmpty, let inverse = t.inverted(),
              let kernel = KernelTable.solidMask(op, color: color.argb, alpha: UInt32(alpha), family: family) else { return }
        if t.isWholePixelTranslation, Swift.abs(t.tx) < 1e9, Swift.abs(t.ty) < 1e9 {
            var narrowed = self
            narrowed.clip(to: r)
            narrowed.fill(mask: mask, x: Int(t.tx), y: Int(t.ty), color: color, operator: op, alpha: alpha)
            return
        }
        let family = self.family
        fillRows(r, kernel: kernel, color: color.argb, alpha: UInt32(alpha)) { x, y, n, coverage in
            MaskSampler.affineRow(mask, start: inverse.apply(x: Double(x) + 0.5, y: Double(y) + 0.5), step: (inverse.a, inverse.b),
                                  count: n, into: coverage, family: family)
        }
    }

    /// `fill(_:mask:transform:color:operator:alpha:)` under a projective
    /// map (mask pixels → target pixels); one division per pixel.
    public func fill(_ rect: IntRect, mask: PixelView<A8>, projective t: ProjectiveTransform, color: PremultipliedColor,
                     operator op: BlendOperator = .srcOver, alpha: UInt8 = 255) {
        let r = rect.intersection(clip)
        guard !r.isEmpty, let inverse = t.inverted(),
              let kernel = KernelTable.solidMask(op, color: color.argb, alpha: UInt32(alpha), family: family) else { return }
        fillRows(r, kernel: kernel, color: color.argb, alpha: UInt32(alpha)) { x, y, n, coverage in
            MaskSampler.projectiveRow(mask, inverse: inverse, x: x, y: y, count: n, into: coverage)
            return (0, n)
        }
    }

    /// Composites the rows of `r` (inside the clip) in pieces of
    /// `paintChunk` pixels: `sample(x, y, n, coverage)` writes the coverage
    /// of pixels `x ..< x + n` of row `y` and returns the part `lo ..< hi`
    /// of the piece outside which it is 0; `kernel` composites that part.
    private func fillRows(_ r: IntRect, kernel: SolidMaskKernel, color: UInt32, alpha: UInt32,
                          sample: (_ x: Int, _ y: Int, _ count: Int, _ coverage: UnsafeMutablePointer<UInt8>) -> (lo: Int, hi: Int)) {
        let chunk = Canvas.paintChunk
        withUnsafeTemporaryAllocation(of: UInt8.self, capacity: chunk) { buffer in
            let coverage = buffer.baseAddress!
            var y = r.y
            while y < r.maxY {
                let row = target.row(y)
                var x = r.x
                while x < r.maxX {
                    let n = Swift.min(chunk, r.maxX &- x)
                    let (lo, hi) = sample(x, y, n, coverage)
                    if lo < hi { kernel(row + x + lo, UnsafePointer(coverage + lo), hi &- lo, color, alpha) }
                    x &+= n
                }
                y &+= 1
            }
        }
    }
}
