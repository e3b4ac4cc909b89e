/// Limits of what layout writes into geometry.
public enum LayoutLimits {
    /// The largest magnitude of a coordinate or size layout sets, points
    /// (the compositor's drawing limit): larger values, and infinities, are
    /// clamped to it; NaN counts as 0. Layout never writes a non-finite
    /// value into a layer.
    public static let maximumCoordinate = 1e9

    /// `value` clamped to ±`maximumCoordinate`, NaN as 0.
    @inlinable public static func clamp(_ value: Double) -> Double {
        guard !value.isNaN else { return 0 }
        return Swift.min(Swift.max(value, -maximumCoordinate), maximumCoordinate)
    }

    /// A length: clamped to 0…`maximumCoordinate`, NaN as 0.
    @inlinable public static func clampLength(_ value: Double) -> Double {
        guard !value.isNaN else { return 0 }
        return Swift.min(Swift.max(value, 0), maximumCoordinate)
    }

    /// A rectangle with every field clamped (sizes as lengths).
    /// A rectangle in its standardized form (no negative size) with every
    /// field clamped.
    @inlinable public static func clamp(_ r: Rect) -> Rect {
        Rect(x: clamp(r.minX), y: clamp(r.minY), width: clampLength(r.width), height: clampLength(r.height))
    }

    @inlinable public static func clamp(_ s: Size) -> Size {
        Size(width: clampLength(s.width), height: clampLength(s.height))
    }
}
