/// A signed 16.16 fixed-point number in an `Int32`: `value = raw / 65536`.
/// Image sampling positions use it (pixel units, range ±32767.99998).
///
/// Worked examples: `Fixed16(rounding: 1.5).raw == 0x0001_8000`,
/// `Fixed16(rounding: -0.25).raw == -16384` (so `floor == -1` and
/// `fraction8 == 192`: −0.25 = −1 + 192/256), and `Fixed16(rounding: 1e9)`
/// saturates to `Int32.max`.
public struct Fixed16: Equatable, Sendable {
    public var raw: Int32

    @inlinable public init(raw: Int32) { self.raw = raw }

    /// Rounds `value · 65536` to nearest (halves away from zero), saturating
    /// at the `Int32` range; NaN gives 0.
    @inlinable public init(rounding value: Double) {
        raw = saturatingInt32(value * 65536)
    }

    /// The integer part, rounded towards −∞ (arithmetic shift).
    @inlinable public var floor: Int32 { raw &>> 16 }

    /// The top 8 bits of the fractional part: 0…255, in 1/256 pixel.
    @inlinable public var fraction8: UInt32 { UInt32(truncatingIfNeeded: raw &>> 8) & 0xFF }

    @inlinable public var doubleValue: Double { Double(raw) * (1.0 / 65536) }
}

/// A signed 8.24 fixed-point number in an `Int32`: `value = raw / 2²⁴`.
/// Gradients keep their parameter `t` in it: 24 fraction bits make the
/// per-pixel step exact to 2⁻²⁵, so 16384 steps drift by under 2⁻¹¹ (an
/// eighth of a gradient-table entry), and the wrap-around of `&+` at ±128
/// keeps `t` modulo 2 exact, which is all repeat and reflect need.
///
/// Worked examples: `Fixed24(rounding: 0.5).raw == 0x0080_0000`,
/// `Fixed24(rounding: -1).raw == -16_777_216`.
public struct Fixed24: Equatable, Sendable {
    public var raw: Int32

    @inlinable public init(raw: Int32) { self.raw = raw }

    /// Rounds `value · 2²⁴` to nearest, saturating; NaN gives 0.
    @inlinable public init(rounding value: Double) {
        raw = saturatingInt32(value * 16_777_216)
    }

    public static let one = Fixed24(raw: 1 << 24)
}

/// `value` rounded to nearest (halves away from zero) and clamped to the
/// `Int32` range; NaN gives 0. Examples: 2.5 → 3, −2.5 → −3, 3e9 → 2147483647.
@inlinable
public func saturatingInt32(_ value: Double) -> Int32 {
    if !(value == value) { return 0 }
    if value >= 2_147_483_647 { return .max }
    if value <= -2_147_483_648 { return .min }
    return Int32(PaintMath.round(value))
}
