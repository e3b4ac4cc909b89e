/// A point in some layer's coordinate space, in points (not pixels).
public struct Point: Equatable, Sendable {
    public var x: Double
    public var y: Double
    @inlinable public init(x: Double, y: Double) { self.x = x; self.y = y }
    public static let zero = Point(x: 0, y: 0)
    /// True when both coordinates are finite (not NaN, not infinite).
    @inlinable public var isFinite: Bool { x.isFinite && y.isFinite }
}

/// A width and height in points.
public struct Size: Equatable, Sendable {
    public var width: Double
    public var height: Double
    @inlinable public init(width: Double, height: Double) { self.width = width; self.height = height }
    public static let zero = Size(width: 0, height: 0)
}

/// An axis-aligned rectangle in points: origin plus size. Like CGRect, a
/// negative size describes the same area as its standardized form.
public struct Rect: Equatable, Sendable {
    public var origin: Point
    public var size: Size

    @inlinable public init(origin: Point, size: Size) { self.origin = origin; self.size = size }
    @inlinable public init(x: Double, y: Double, width: Double, height: Double) {
        origin = Point(x: x, y: y); size = Size(width: width, height: height)
    }
    public static let zero = Rect(x: 0, y: 0, width: 0, height: 0)
    /// "No rectangle at all" (`CGRectNull`): origin (+∞, +∞), size zero.
    /// What a projection returns when nothing of a rectangle is visible.
    public static let null = Rect(x: .infinity, y: .infinity, width: 0, height: 0)
    @inlinable public var isNull: Bool { origin.x == .infinity && origin.y == .infinity }

    @inlinable public var minX: Double { Swift.min(origin.x, origin.x + size.width) }
    @inlinable public var minY: Double { Swift.min(origin.y, origin.y + size.height) }
    @inlinable public var maxX: Double { Swift.max(origin.x, origin.x + size.width) }
    @inlinable public var maxY: Double { Swift.max(origin.y, origin.y + size.height) }
    @inlinable public var width: Double { Swift.abs(size.width) }
    @inlinable public var height: Double { Swift.abs(size.height) }
    @inlinable public var isEmpty: Bool { !(size.width != 0 && size.height != 0) }
    /// True when every coordinate is finite.
    @inlinable public var isFinite: Bool {
        origin.x.isFinite && origin.y.isFinite && size.width.isFinite && size.height.isFinite
    }

    @inlinable public func offsetBy(dx: Double, dy: Double) -> Rect {
        Rect(x: origin.x + dx, y: origin.y + dy, width: size.width, height: size.height)
    }
}
