/// A source of premultiplied ARGB8888 pixels that varies over the
/// destination: a gradient or an image pattern. A paint shades one row span
/// at a time into a scratch buffer; a blend kernel then composites the span
/// (see `Canvas.fill(_:paint:alpha:)`).
///
/// Paints are evaluated at pixel centres: pixel (x, y) of the destination is
/// the point (x + 0.5, y + 0.5) in destination pixel space.
///
/// A paint chooses its inner loop from its own configuration once per span
/// (pixman-style); no paint branches on its configuration per pixel.
/// Conforming types are used through generics (`Canvas.fill` is generic
/// over the paint), never as an existential, so each draw is specialised.
public protocol Paint {
    /// Writes the colours of destination pixels `x ..< x + count` of row `y`
    /// to `span[0 ..< count]`. `family` picks the SIMD loops or the scalar
    /// reference loops; both give bit-identical output.
    /// - Complexity: O(count), no allocation.
    func shade(x: Int, y: Int, count: Int, into span: UnsafeMutablePointer<UInt32>, family: KernelFamily)

    /// True when every pixel this paint produces has alpha 255 (so a draw at
    /// full alpha can copy instead of blend).
    var isOpaque: Bool { get }

    /// Destination pixels outside this rectangle are transparent (shade
    /// writes 0 there), so a draw may skip them: compositing 0 over the
    /// target changes nothing, exactly. `nil` when the paint may cover the
    /// whole plane (always for opaque paints). It may be larger than what
    /// is painted, never smaller. pixman clips a composite to the source's
    /// extent the same way; for an image drawn at 0.5× onto a larger area,
    /// it is what keeps the transparent ¾ from being composited.
    var paintedBounds: IntRect? { get }

    /// True when `shade` gives the same span for every `y` (a horizontal
    /// linear gradient, a solid colour), so a draw may shade a piece once
    /// and composite it onto every row.
    var isRowInvariant: Bool { get }
}

extension Paint {
    /// Unbounded unless the paint knows better.
    @inlinable
    public var paintedBounds: IntRect? { nil }

    @inlinable
    public var isRowInvariant: Bool { false }

    /// `shade` with the production (SIMD) loops.
    @inlinable
    public func shade(x: Int, y: Int, count: Int, into span: UnsafeMutablePointer<UInt32>) {
        shade(x: x, y: y, count: count, into: span, family: .simd)
    }
}

/// A rectangle with `Double` coordinates, for the geometry paints take: unit
/// rectangles (`contentsRect`, `contentsCenter`, as in `CALayer`) and
/// destination rectangles in pixels.
public struct PaintRect: Equatable, Sendable {
    public var x: Double, y: Double, width: Double, height: Double

    @inlinable public init(x: Double, y: Double, width: Double, height: Double) {
        self.x = x; self.y = y; self.width = width; self.height = height
    }

    /// (0, 0, 1, 1): the whole image in unit coordinates.
    public static let unit = PaintRect(x: 0, y: 0, width: 1, height: 1)

    @inlinable public var maxX: Double { x + width }
    @inlinable public var maxY: Double { y + height }
    @inlinable public var isFinite: Bool { x.isFinite && y.isFinite && width.isFinite && height.isFinite }
}
