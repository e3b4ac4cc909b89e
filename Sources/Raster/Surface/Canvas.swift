/// Draws into a premultiplied ARGB8888 pixel view, clipped to `clip`.
///
/// Each draw call clips its rectangle once, chooses its span kernel once
/// (`KernelTable`), then runs it row by row.
public struct Canvas {
    public let target: PixelView<ARGB8888>
    /// Drawing is limited to this rectangle (always inside the target).
    public private(set) var clip: IntRect
    public var family: KernelFamily

    public init(_ target: PixelView<ARGB8888>, family: KernelFamily = .simd) {
        self.target = target
        self.clip = target.bounds
        self.family = family
    }

    /// Narrows the clip to its intersection with `rect` (never widens it).
    public mutating func clip(to rect: IntRect) {
        clip = clip.intersection(rect)
    }

    /// Source-over fills `rect` with `color` (premultiplied).
    public func fill(_ rect: IntRect, color: PremultipliedColor) {
        let r = rect.intersection(clip)
        guard !r.isEmpty, let kernel = KernelTable.solid(color: color.argb, family: family) else { return }
        var y = r.y
        while y < r.maxY {
            kernel(target.row(y) + r.x, r.width, color.argb)
            y &+= 1
        }
    }

    /// Composites `image` with its top-left corner at (`x`, `y`) using
    /// source-over and a global `alpha` (0–255). `opaque` declares that every
    /// pixel of `image` has alpha 255, which allows a plain copy.
    public func draw(_ image: PixelView<ARGB8888>, x: Int, y: Int, alpha: UInt8 = 255, opaque: Bool = false) {
        let placed = IntRect(x: x, y: y, width: image.width, height: image.height)
        let r = placed.intersection(clip)
        guard !r.isEmpty,
              let kernel = KernelTable.image(alpha: UInt32(alpha), sourceIsOpaque: opaque, family: family) else { return }
        var row = r.y
        while row < r.maxY {
            kernel(target.row(row) + r.x, UnsafePointer(image.row(row - y) + (r.x - x)), r.width, UInt32(alpha))
            row &+= 1
        }
    }
}

/// Converts the `rect` part of a premultiplied ARGB view into a scan-out
/// format view of the same size (both views address the same pixels).
public enum ScanoutConversion {
    public static func copy(_ source: PixelView<ARGB8888>, into dest: PixelView<XRGB8888>, rect: IntRect, family: KernelFamily = .simd) {
        forEachRow(source, dest, rect) { d, s, n, _, _ in
            switch family {
            case .simd: SIMDKernels.toXRGB8888(d, s, n)
            case .reference: ScalarKernels.toXRGB8888(d, s, n)
            }
        }
    }

    public static func copy(_ source: PixelView<ARGB8888>, into dest: PixelView<RGB565>, rect: IntRect, family: KernelFamily = .simd) {
        forEachRow(source, dest, rect) { d, s, n, _, _ in
            switch family {
            case .simd: SIMDKernels.toRGB565(d, s, n)
            case .reference: ScalarKernels.toRGB565(d, s, n)
            }
        }
    }

    /// Calls `convert(destination, source, count, x, y)` for each row of
    /// `rect` clipped to both views (`x`, `y`: the row's first pixel).
    @inlinable
    static func forEachRow<D: PixelFormat>(
        _ source: PixelView<ARGB8888>, _ dest: PixelView<D>, _ rect: IntRect,
        _ convert: (UnsafeMutablePointer<D.Storage>, UnsafePointer<UInt32>, Int, Int, Int) -> Void
    ) {
        let r = rect.intersection(source.bounds).intersection(dest.bounds)
        var y = r.y
        while y < r.maxY {
            convert(dest.row(y) + r.x, UnsafePointer(source.row(y) + r.x), r.width, r.x, y)
            y &+= 1
        }
    }
}

/// FNV-1a (64-bit) over the visible pixels of a view, row by row, low byte
/// first: the same value on every architecture for the same image.
public func pixelChecksum<F: PixelFormat>(_ view: PixelView<F>) -> UInt64 {
    var h: UInt64 = 0xcbf2_9ce4_8422_2325
    var y = 0
    while y < view.height {
        let row = view.row(y)
        var x = 0
        while x < view.width {
            var v = UInt64(truncatingIfNeeded: row[x])
            var b = 0
            while b < F.bytesPerPixel {
                h = (h ^ (v & 0xFF)) &* 0x0000_0100_0000_01b3
                v &>>= 8
                b &+= 1
            }
            x &+= 1
        }
        y &+= 1
    }
    return h
}
