/// The few transcendental functions paints need, written with IEEE basic
/// operations only (no libm: Raster makes no OS or C calls), so they give the
/// same bits on every architecture. Swift does not contract `a * b + c` into
/// a fused multiply-add unless asked to, and these functions never ask.
public enum PaintMath {
    public static let pi = 3.141_592_653_589_793

    // Rounding and square root without libm. `Double.rounded` calls libm's
    // floor/round on x86-64 without SSE4.1, and `squareRoot()` keeps a libm
    // fallback; Raster links no C library, so it does its own, from IEEE
    // basic operations and float-to-integer conversion (one instruction on
    // both architectures).

    /// ⌊x⌋. NaN and infinities are returned as they are.
    @inlinable
    public static func floor(_ x: Double) -> Double {
        // At or above 2⁵² every Double is an integer.
        if !(x > -4.5e15 && x < 4.5e15) { return x }
        let t = Double(Int64(x))                      // truncates towards 0
        return t > x ? t - 1 : t
    }

    /// ⌈x⌉.
    @inlinable public static func ceil(_ x: Double) -> Double { -floor(-x) }

    /// x rounded to nearest, halves away from zero (as `rounded()`).
    /// Computed as ⌊x + ½⌋ on |x|, so 0.49999999999999994 rounds to 1: a
    /// documented and architecture-independent quirk.
    @inlinable
    public static func round(_ x: Double) -> Double {
        x < 0 ? -floor(-x + 0.5) : floor(x + 0.5)
    }

    /// √x by Newton's method from a bit-level first guess (3.5 % off, four
    /// steps reach < 1 ulp·2). Within 1 ulp of the correctly rounded root,
    /// and the same bits on every architecture. √0 = 0, negative or NaN → NaN.
    @inlinable
    public static func sqrt(_ x: Double) -> Double {
        if !(x > 0) { return x == 0 ? 0 : .nan }
        if !x.isFinite { return x }
        // Subnormals: scale into the normal range first.
        if x < 2.2250738585072014e-308 { return sqrt(x * 18014398509481984.0 * 18014398509481984.0) / 18014398509481984.0 }
        var y = Double(bitPattern: (x.bitPattern &>> 1) &+ 0x1FF7_A3BE_A91D_9B1B)
        y = 0.5 * (y + x / y)
        y = 0.5 * (y + x / y)
        y = 0.5 * (y + x / y)
        y = 0.5 * (y + x / y)
        return y
    }
    public static let twoPi = 6.283_185_307_179_586

    /// sin and cos of `x` radians, absolute error below 2e-16 for |x| < 1e5.
    /// Non-finite `x` gives NaN for both.
    public static func sinCos(_ x: Double) -> (sin: Double, cos: Double) {
        guard x.isFinite else { return (.nan, .nan) }
        // Reduce to r in [−π/4, π/4] and a quadrant.
        let halfPi = pi / 2
        let q = round(x / halfPi)
        // Cody–Waite: π/2 as a 33-bit head (q·head is exact for |q| < 2²⁰)
        // plus a tail, so the reduction loses nothing for moderate x.
        let r = (x - q * 1.570_796_326_734_125_6) - q * 6.077_100_506_506_192e-11
        let r2 = r * r
        // Taylor series; the terms left out are below 5e-17 on [−π/4, π/4].
        var s = 1.0 / 355_687_428_096_000.0               // 1/17!
        s = -1.0 / 1_307_674_368_000.0 + r2 * s           // −1/15!
        s = 1.0 / 6_227_020_800.0 + r2 * s                // 1/13!
        s = -1.0 / 39_916_800.0 + r2 * s                 // 1/11!
        s = 1.0 / 362_880.0 + r2 * s
        s = -1.0 / 5_040.0 + r2 * s
        s = 1.0 / 120.0 + r2 * s
        s = -1.0 / 6.0 + r2 * s
        s = r + r * r2 * s
        var c = -1.0 / 6_402_373_705_728_000.0            // −1/18!
        c = 1.0 / 20_922_789_888_000.0 + r2 * c           // 1/16!
        c = -1.0 / 87_178_291_200.0 + r2 * c              // −1/14!
        c = 1.0 / 479_001_600.0 + r2 * c
        c = -1.0 / 3_628_800.0 + r2 * c
        c = 1.0 / 40_320.0 + r2 * c
        c = -1.0 / 720.0 + r2 * c
        c = 1.0 / 24.0 + r2 * c
        c = -0.5 + r2 * c
        c = 1.0 + r2 * c
        // |x| < 1e15 keeps q in Int64 range; beyond that the answer is noise anyway.
        let quadrant = Int(truncatingIfNeeded: Int64(q > -4e15 && q < 4e15 ? q : 0)) & 3
        switch quadrant {
        case 0: return (s, c)
        case 1: return (c, -s)
        case 2: return (-s, -c)
        default: return (-c, s)
        }
    }

    /// The angle of (`x`, `y`) in turns, in `[-0.5, 0.5]`, measured from +x
    /// towards +y (clockwise on a y-down screen). atan2(0, 0) is 0.
    /// Absolute error below 2e-6 turns (1e-5 rad), far under the 1/256 turn
    /// a gradient table resolves.
    @inlinable
    public static func atan2Turns(_ y: Double, _ x: Double) -> Double {
        let ax = x < 0 ? -x : x, ay = y < 0 ? -y : y
        let big = ax > ay ? ax : ay
        if !(big > 0) { return 0 }
        let small = ax > ay ? ay : ax
        let z = small / big
        let z2 = z * z
        // atan on [0, 1], Hastings' minimax polynomial, in turns (coefficients
        // divided by 2π), error 1e-5 rad.
        var p = -0.011_721_20 / twoPi
        p = 0.052_653_32 / twoPi + z2 * p
        p = -0.116_432_87 / twoPi + z2 * p
        p = 0.193_543_46 / twoPi + z2 * p
        p = -0.332_623_47 / twoPi + z2 * p
        p = 0.999_977_26 / twoPi + z2 * p
        var a = z * p
        if ay > ax { a = 0.25 - a }
        if x < 0 { a = 0.5 - a }
        if y < 0 { a = -a }
        return a
    }

    /// An approximation of log₂(`x`) for `x > 0`: exact at powers of two,
    /// linear in between (error below 0.09). Used only to pick mip levels,
    /// where that is plenty. Returns −1100 for `x <= 0` or NaN.
    @inlinable
    public static func approximateLog2(_ x: Double) -> Double {
        guard x > 0 else { return -1100 }
        if !x.isFinite { return 1100 }
        return Double(x.exponent) + (x.significand - 1)
    }
}
