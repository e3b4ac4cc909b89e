/// A non-owning view of a two-dimensional pixel buffer: `height` rows of
/// `width` pixels, rows `rowStride` pixels apart. It may point into memory of
/// a `Surface`, a mapped DRM dumb buffer or a test's guarded allocation.
///
/// Invariants: `width >= 0`, `height >= 0`, `rowStride >= width`, and the
/// memory holds at least `rowStride * (height - 1) + width` pixels.
///
/// Lifetime: a view made by `Surface.view` keeps its surface alive
/// (`owner`), so a view may outlive the last use of the surface variable.
/// A view over foreign memory (a mapped buffer) has no owner; the memory's
/// owner must keep it mapped while the view is used.
public struct PixelView<Format: PixelFormat> {
    public let base: UnsafeMutablePointer<Format.Storage>
    public let width: Int
    public let height: Int
    /// Distance between the starts of two rows, in pixels (not bytes).
    public let rowStride: Int
    /// The object that owns the memory, retained by the view; `nil` for
    /// memory owned elsewhere.
    public let owner: AnyObject?

    @inlinable public init(base: UnsafeMutablePointer<Format.Storage>, width: Int, height: Int, rowStride: Int,
                           owner: AnyObject? = nil) {
        precondition(width >= 0 && height >= 0 && rowStride >= width, "PixelView: bad dimensions")
        self.base = base; self.width = width; self.height = height; self.rowStride = rowStride
        self.owner = owner
    }

    /// The whole buffer as a rectangle.
    @inlinable public var bounds: IntRect { IntRect(x: 0, y: 0, width: width, height: height) }

    /// The first pixel of row `y`. Precondition (unchecked): `0 <= y < height`.
    @inlinable public func row(_ y: Int) -> UnsafeMutablePointer<Format.Storage> {
        base + y &* rowStride
    }

    @inlinable public subscript(x: Int, y: Int) -> Format.Storage {
        get { precondition(x >= 0 && y >= 0 && x < width && y < height); return base[y &* rowStride &+ x] }
        nonmutating set { precondition(x >= 0 && y >= 0 && x < width && y < height); base[y &* rowStride &+ x] = newValue }
    }

    /// The pixel at (`x`, `y`) as a colour with channel accessors
    /// (`.red`, `.alpha`, `.unpremultiplied`), whatever the format (opaque
    /// formats read with alpha 255, A8 as black at its alpha).
    @inlinable public func color(x: Int, y: Int) -> PremultipliedColor {
        PremultipliedColor(argb: Format.toPremultipliedARGB(self[x, y]))
    }
}

/// Memory limits every allocation of pixels respects, so bad geometry gets a
/// clear refusal instead of a giant allocation.
public enum RasterLimits {
    /// Largest width or height of any surface, in pixels.
    public static let maxDimension = 16_384
    /// Largest number of pixels in one surface (64 Mpx, 256 MiB at 4 bytes).
    public static let maxPixels = 64 * 1024 * 1024
}

/// A pixel buffer that owns its memory, rows padded to a multiple of 16
/// pixels so SIMD kernels may read whole chunks of a row.
public final class Surface<Format: PixelFormat> {
    public let width: Int
    public let height: Int
    public let rowStride: Int
    public let pixels: UnsafeMutablePointer<Format.Storage>

    /// Allocates a cleared surface; `nil` when a dimension is not positive or
    /// exceeds `RasterLimits` (the documented clamp for bad sizes).
    public init?(width: Int, height: Int) {
        guard width > 0, height > 0,
              width <= RasterLimits.maxDimension, height <= RasterLimits.maxDimension,
              width * height <= RasterLimits.maxPixels else { return nil }
        self.width = width
        self.height = height
        self.rowStride = (width + 15) & ~15
        let count = rowStride * height
        pixels = .allocate(capacity: count)
        pixels.initialize(repeating: 0, count: count)
    }

    deinit { pixels.deallocate() }

    @inlinable public var view: PixelView<Format> {
        PixelView(base: pixels, width: width, height: height, rowStride: rowStride, owner: self)
    }

    /// Sets every pixel, padding included, to `value`.
    public func clear(to value: Format.Storage = 0) {
        pixels.update(repeating: value, count: rowStride * height)
    }
}
