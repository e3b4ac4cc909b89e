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
