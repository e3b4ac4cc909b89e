/// Rounding and square root on `Double`.
///
/// The standard library's `rounded(_:)` is a call to libm's `floor`/`round`
/// in unoptimised builds; the rounding here is plain Swift (integer
/// conversion), exact, and the same bits on every architecture. The square
/// root is the hardware's (see `squareRoot`).
public enum FloatMath {
    /// Largest `x` below which a `Double` can have a fraction (2^52).
    @usableFromInline static let integralThreshold = 4_503_599_627_370_496.0

    /// The largest integer not above `x`; NaN and infinities unchanged.
    /// `floor(-2.5) == -3`, `floor(2.5) == 2`.
    @inlinable @inline(__always)
    public static func floor(_ x: Double) -> Double {
        guard x.magnitude < integralThreshold else { return x }
        let t = Double(Int64(x))                // rounds toward zero
        return t > x ? t - 1 : t
    }

    /// The smallest integer not below `x`; NaN and infinities unchanged.
    @inlinable @inline(__always)
    public static func ceil(_ x: Double) -> Double {
        guard x.magnitude < integralThreshold else { return x }
        let t = Double(Int64(x))
        return t < x ? t + 1 : t
    }

    /// The nearest integer, halves away from zero (`2.5 → 3`, `-2.5 → -3`,
    /// `0.49999999999999994 → 0`); NaN and infinities unchanged.
    @inlinable @inline(__always)
    public static func round(_ x: Double) -> Double {
        guard x.magnitude < integralThreshold else { return x }
        let t = Double(Int64(x))
        let f = x - t                            // exact
        if f >= 0.5 { return t + 1 }
        if f <= -0.5 { return t - 1 }
        return t
    }

    /// `√x`, correctly rounded (IEEE 754), so the same bits on every
    /// architecture: the CPU's square root instruction in optimised builds
    /// (`sqrtsd`, `fsqrt`), libm's `sqrt` (correctly rounded too) in
    /// unoptimised ones, which is why Raster links libm. Negative and NaN
    /// give NaN, `+∞` gives `+∞`, both zeros give +0.
    ///
    /// (It was Newton's method in plain Swift, within 1 ulp, five divisions
    /// a root: 15–20 % of a frame of strokes and arcs.)
    @inlinable @inline(__always)
    public static func squareRoot(_ x: Double) -> Double {
        x == 0 ? 0 : x.squareRoot()
    }
}
