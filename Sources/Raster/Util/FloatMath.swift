/// Rounding and square root on `Double` without libm.
///
/// Raster links no C library, but the standard library's `rounded(_:)` and
/// `squareRoot()` are calls to libm's `floor`/`round`/`sqrt` in unoptimised
/// builds (they failed to link in the host debug build of `rastercheck`).
/// These are plain Swift: integer conversion for rounding, Newton's method
/// for the root; every result is exact (rounding) or within 1 ulp (root), and
/// the same bits on every architecture.
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

    /// `√x`, within 1 ulp. Negative and NaN give NaN, `+∞` gives `+∞`;
    /// tiny and subnormal values are scaled by 2^108 first.
    @inlinable
    public static func squareRoot(_ x: Double) -> Double {
        guard x > 0 else { return x == 0 ? 0 : .nan }
        guard x.isFinite else { return x }
        guard x >= 9.33e-302 else {
            let twoTo54 = 18_014_398_509_481_984.0
            return squareRoot(x * twoTo54 * twoTo54) / twoTo54
        }
        // x = m · 2^e with m in [1, 2); make e even so √x = √m' · 2^(e/2).
        let bits = x.bitPattern
        var e = Int((bits &>> 52) & 0x7FF) - 1023
        var m = Double(bitPattern: (bits & 0x000F_FFFF_FFFF_FFFF) | 0x3FF0_0000_0000_0000)
        if e & 1 != 0 { m *= 2; e -= 1 }
        // Newton from a linear first guess on [1, 4): relative error 0.07,
        // then 2.5e-3, 3e-6, 5e-12, below 1e-16 after five steps.
        var r = 0.41 + 0.3 * m
        r = 0.5 * (r + m / r); r = 0.5 * (r + m / r); r = 0.5 * (r + m / r)
        r = 0.5 * (r + m / r); r = 0.5 * (r + m / r)
        return r * Double(bitPattern: UInt64(1023 + e / 2) &<< 52)
    }
}
