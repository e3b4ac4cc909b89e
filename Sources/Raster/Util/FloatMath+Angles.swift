// Angles without libm: sine/cosine and atan2, so Raster stays free of C
// calls and gives the same bits on every architecture.
extension FloatMath {
    public static let pi = 3.141_592_653_589_793_116
    public static let twoPi = 6.283_185_307_179_586

    /// Sine and cosine.
    ///
    /// Method: reduce `x` by multiples of π/2 (Cody–Waite, π/2 split in three
    /// parts, accurate for |x| < 2^20 or so), then Taylor polynomials on
    /// `[-π/4, π/4]`, where the first omitted terms are below 1e-19. Results are
    /// within a few ulp of the correctly rounded value for |x| ≤ 1e6; NaN,
    /// infinities and |x| ≥ 2⁵² (where a double has no fraction left, so no
    /// angle to speak of) give NaN. Returns `(sin x, cos x)`, x in radians.
    public static func sinCos(_ x: Double) -> (sin: Double, cos: Double) {
        // The bound also keeps the quadrant below Int64's range (the
        // fuzzer found a trap there for |x| > 1.4e19).
        guard x.isFinite, x < 0x1p52, x > -0x1p52 else { return (.nan, .nan) }
        let twoOverPi = 0.636_619_772_367_581_34
        let k = FloatMath.round(x * twoOverPi)
        // π/2 = p1 + p2 + p3 (fdlibm's split).
        let p1 = 1.570_796_326_734_125_614_17, p2 = 6.077_100_506_303_965_976_6e-11, p3 = 2.022_266_248_795_950_631_2e-21
        let r = ((x - k * p1) - k * p2) - k * p3
        let r2 = r * r
        // sin r = r − r³/3! + … , cos r = 1 − r²/2! + …
        var s = 1.0 / 355_687_428_096_000.0     // 1/17!
        s = s * r2 - 1.0 / 1_307_674_368_000.0   // 1/15!
        s = s * r2 + 1.0 / 6_227_020_800.0       // 1/13!
        s = s * r2 - 1.0 / 39_916_800.0          // 1/11!
        s = s * r2 + 1.0 / 362_880.0
        s = s * r2 - 1.0 / 5040.0
        s = s * r2 + 1.0 / 120.0
        s = s * r2 - 1.0 / 6.0
        let sinR = r + r * r2 * s
        var c = 1.0 / 6_402_373_705_728_000.0   // 1/18!
        c = c * r2 - 1.0 / 20_922_789_888_000.0  // 1/16!
        c = c * r2 + 1.0 / 87_178_291_200.0      // 1/14!
        c = c * r2 - 1.0 / 479_001_600.0
        c = c * r2 + 1.0 / 3_628_800.0
        c = c * r2 - 1.0 / 40320.0
        c = c * r2 + 1.0 / 720.0
        c = c * r2 - 1.0 / 24.0
        c = c * r2 + 0.5
        let cosR = 1.0 - r2 * c
        let quadrant = Int(truncatingIfNeeded: Int64(k)) & 3
        switch quadrant {
        case 0: return (sinR, cosR)
        case 1: return (cosR, -sinR)
        case 2: return (-sinR, -cosR)
        default: return (-cosR, sinR)
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
