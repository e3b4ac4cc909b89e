/// A point of a path, in the path's own coordinate space (user space before
/// `AffineTransform`, device pixels after), y pointing down.
///
/// Named `PathPoint` rather than `Point` because FBRuntime has its own
/// layer-geometry `Point`; clients importing both modules stay unambiguous.
public struct PathPoint: Equatable, Sendable {
    public var x: Double
    public var y: Double

    @inlinable public init(x: Double, y: Double) { self.x = x; self.y = y }
    @inlinable public init(_ x: Double, _ y: Double) { self.x = x; self.y = y }

    public static let zero = PathPoint(x: 0, y: 0)

    /// Both coordinates are neither NaN nor infinite.
    @inlinable public var isFinite: Bool { x.isFinite && y.isFinite }

    @inlinable public static func + (a: PathPoint, b: PathPoint) -> PathPoint { PathPoint(x: a.x + b.x, y: a.y + b.y) }
    @inlinable public static func - (a: PathPoint, b: PathPoint) -> PathPoint { PathPoint(x: a.x - b.x, y: a.y - b.y) }
    @inlinable public static func * (a: PathPoint, s: Double) -> PathPoint { PathPoint(x: a.x * s, y: a.y * s) }
    /// The point a fraction `t` of the way from `a` to `b`.
    @inlinable public static func lerp(_ a: PathPoint, _ b: PathPoint, _ t: Double) -> PathPoint {
        PathPoint(x: a.x + (b.x - a.x) * t, y: a.y + (b.y - a.y) * t)
    }
    @inlinable public var length: Double { FloatMath.squareRoot(x * x + y * y) }
}

/// An axis-aligned box `minX...maxX` × `minY...maxY` in a path's coordinate
/// space. `empty` (min > max) is the identity of `union`.
public struct BoundingBox: Equatable, Sendable {
    public var minX: Double
    public var minY: Double
    public var maxX: Double
    public var maxY: Double

    @inlinable public init(minX: Double, minY: Double, maxX: Double, maxY: Double) {
        self.minX = minX; self.minY = minY; self.maxX = maxX; self.maxY = maxY
    }

    public static let empty = BoundingBox(minX: .infinity, minY: .infinity, maxX: -.infinity, maxY: -.infinity)

    @inlinable public var isEmpty: Bool { !(minX <= maxX && minY <= maxY) }
    @inlinable public var width: Double { isEmpty ? 0 : maxX - minX }
    @inlinable public var height: Double { isEmpty ? 0 : maxY - minY }

    /// Grows the box to hold `p`.
    @inlinable public mutating func add(_ p: PathPoint) {
        if p.x < minX { minX = p.x }
        if p.x > maxX { maxX = p.x }
        if p.y < minY { minY = p.y }
        if p.y > maxY { maxY = p.y }
    }

    /// The box holds at least part of `other` or touches it.
    @inlinable public func intersects(_ other: BoundingBox) -> Bool {
        !(other.minX > maxX || other.maxX < minX || other.minY > maxY || other.maxY < minY)
    }

    /// The smallest `IntRect` of whole pixels holding the box (empty for an
    /// empty or non-finite box; coordinates saturate at ±2^30).
    public var enclosingIntRect: IntRect {
        guard !isEmpty, minX.isFinite, minY.isFinite, maxX.isFinite, maxY.isFinite else { return .zero }
        func clampInt(_ v: Double) -> Int { v < -1_073_741_824 ? -1_073_741_824 : (v > 1_073_741_824 ? 1_073_741_824 : Int(v)) }
        let x0 = clampInt(FloatMath.floor(minX)), y0 = clampInt(FloatMath.floor(minY))
        let x1 = clampInt(FloatMath.ceil(maxX)), y1 = clampInt(FloatMath.ceil(maxY))
        return IntRect(x: x0, y: y0, width: x1 - x0, height: y1 - y0)
    }
}
