/// A small deterministic random generator (SplitMix64, Steele et al. 2014):
/// the same seed gives the same sequence on every architecture. Used where
/// output must be reproducible: emitter particles, test scenes, benchmarks.
public struct SplitMix64: RandomNumberGenerator, Sendable {
    public var state: UInt64

    public init(seed: UInt64) { state = seed }

    public mutating func next() -> UInt64 {
        state &+= 0x9E37_79B9_7F4A_7C15
        var z = state
        z = (z ^ (z &>> 30)) &* 0xBF58_476D_1CE4_E5B9
        z = (z ^ (z &>> 27)) &* 0x94D0_49BB_1331_11EB
        return z ^ (z &>> 31)
    }

    /// A value in `0 ..< n`; `n` must be positive. (Modulo bias is below
    /// 2⁻³² for the small ranges this is used with.)
    public mutating func below(_ n: Int) -> Int {
        Int(truncatingIfNeeded: next() % UInt64(n))
    }

    /// A value in `0 ..< 1` with 53 random bits.
    public mutating func unit() -> Double {
        Double(next() &>> 11) * (1.0 / 9_007_199_254_740_992.0)
    }

    /// A random premultiplied colour (every channel at most its alpha).
    public mutating func premultipliedColor() -> PremultipliedColor {
        let v = next()
        return PremultipliedColor(red8: UInt8(truncatingIfNeeded: v), green: UInt8(truncatingIfNeeded: v &>> 8),
                                  blue: UInt8(truncatingIfNeeded: v &>> 16), alpha: UInt8(truncatingIfNeeded: v &>> 24))
    }
}
