/// An axis-aligned rectangle of whole pixels: `x ..< x + width` by
/// `y ..< y + height`, in the coordinate space of a pixel buffer.
/// An empty rectangle has `width <= 0` or `height <= 0`.
public struct IntRect: Equatable, Sendable {
    public var x: Int
    public var y: Int
    public var width: Int
    public var height: Int

    @inlinable public init(x: Int, y: Int, width: Int, height: Int) {
        self.x = x; self.y = y; self.width = width; self.height = height
    }

    /// The empty rectangle at the origin. (Computed, not a stored `static
    /// let`: read from other modules a stored one costs a lazy-initialisation
    /// check per use, 2 % of LVGL's labels scene in damage bookkeeping.)
    @inlinable public static var zero: IntRect { IntRect(x: 0, y: 0, width: 0, height: 0) }

    @inlinable public var isEmpty: Bool { width <= 0 || height <= 0 }
    @inlinable public var maxX: Int { x &+ width }
    @inlinable public var maxY: Int { y &+ height }
    @inlinable public var area: Int { isEmpty ? 0 : width &* height }

    /// The common part of two rectangles, or `.zero` when they do not overlap.
    @inlinable public func intersection(_ other: IntRect) -> IntRect {
        let x0 = Swift.max(x, other.x), y0 = Swift.max(y, other.y)
        let x1 = Swift.min(maxX, other.maxX), y1 = Swift.min(maxY, other.maxY)
        if x1 <= x0 || y1 <= y0 { return .zero }
        return IntRect(x: x0, y: y0, width: x1 - x0, height: y1 - y0)
    }

    /// True when the two share a pixel (`intersection` is not empty),
    /// without making the intersection.
    @inlinable public func intersects(_ other: IntRect) -> Bool {
        Swift.max(x, other.x) < Swift.min(maxX, other.maxX) && Swift.max(y, other.y) < Swift.min(maxY, other.maxY)
    }

    /// The smallest rectangle holding both; an empty operand is ignored.
    @inlinable public func union(_ other: IntRect) -> IntRect {
        if isEmpty { return other }
        if other.isEmpty { return self }
        let x0 = Swift.min(x, other.x), y0 = Swift.min(y, other.y)
        let x1 = Swift.max(maxX, other.maxX), y1 = Swift.max(maxY, other.maxY)
        return IntRect(x: x0, y: y0, width: x1 - x0, height: y1 - y0)
    }

    @inlinable public func contains(_ other: IntRect) -> Bool {
        other.isEmpty || (other.x >= x && other.y >= y && other.maxX <= maxX && other.maxY <= maxY)
    }
}
