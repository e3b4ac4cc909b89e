/// `exp` and `log` for the scroll motion's closed forms. Controls links no
/// C shim (its dependencies are FBRuntime and Raster), so they are written
/// here: range reduction by powers of two and short series, accurate to a
/// few ulps over the range the motion uses (|x| < 700), which is far more
/// than a position in points needs. NaN in, NaN out.
enum ScrollMath {
    static let ln2 = 0.693_147_180_559_945_309_4

    /// e^x. x = k·ln 2 + r with |r| ≤ ln 2 / 2, e^r by its Taylor series
    /// (14 terms: the remainder is below 1e-17 there), times 2^k.
    static func exp(_ x: Double) -> Double {
        guard x.isFinite else { return x.isNaN ? x : (x > 0 ? .infinity : 0) }
        if x > 709 { return .infinity }
        if x < -745 { return 0 }
        let k = (x / ln2).rounded()
        let r = x - k * ln2
        var term = 1.0, sum = 1.0
        for n in 1...14 {
            term *= r / Double(n)
            sum += term
        }
        // 2^k in two steps so a k of −1074…−1022 (subnormal results) works.
        let half = (k / 2).rounded(.towardZero)
        return sum * power2(Int(half)) * power2(Int(k - half))
    }

    /// ln x for x > 0 (NaN for x < 0, −∞ at 0). x = m·2^e with m in
    /// [1/√2, √2), ln m = 2·atanh((m − 1)/(m + 1)) by its series
    /// (|s| < 0.172: 12 terms leave less than 1e-18).
    static func log(_ x: Double) -> Double {
        guard x > 0 else { return x == 0 ? -.infinity : .nan }
        guard x.isFinite else { return x }
        var e = Double(x.exponent)
        var m = x.significand   // in [1, 2)
        if m > 1.414_213_562_373_095 { m /= 2; e += 1 }
        let s = (m - 1) / (m + 1), s2 = s * s
        var term = s, sum = 0.0
        var n = 1.0
        for _ in 0..<12 {
            sum += term / n
            term *= s2
            n += 2
        }
        return 2 * sum + e * ln2
    }

    private static func power2(_ k: Int) -> Double {
        Double(sign: .plus, exponent: k, significand: 1)
    }
}
