/// 8.24: the gradient parameter `t`. 24 fraction bits make the per-pixel
/// step exact to 2⁻²⁵, so 16384 steps drift by under 2⁻¹¹ (an eighth of a
/// gradient-table entry), and the wrap-around of `&+` at ±128 keeps `t`
/// modulo 2 exact, which is all repeat and reflect need.
public enum Shift24: FixedShift { public static var shift: Int { 24 } }

/// Image sampling positions, in pixels (16.16, range ±32767.99998).
///
/// Worked examples: `Fixed16(1.5).raw == 0x0001_8000`, `Fixed16(-0.25).raw
/// == -16384` (so `floor == -1` and `fraction8 == 192`: −0.25 = −1 + 192/256),
/// and `Fixed16(1e9)` saturates to `Int32.max`.
public typealias Fixed16 = Fixed<Shift16>

/// The gradient parameter (see `Shift24`). `Fixed24(0.5).raw == 0x0080_0000`.
public typealias Fixed24 = Fixed<Shift24>

extension Fixed where Shift == Shift16 {
    /// The top 8 bits of the fractional part: 0…255, in 1/256 pixel.
    @inlinable public var fraction8: UInt32 { UInt32(truncatingIfNeeded: raw &>> 8) & 0xFF }
}

/// `value` rounded to nearest (halves away from zero) and clamped to the
/// `Int32` range; NaN gives 0. Examples: 2.5 → 3, −2.5 → −3, 3e9 → 2147483647.
@inlinable @inline(__always)
public func saturatingInt32(_ value: Double) -> Int32 {
    if !(value == value) { return 0 }
    if value >= 2_147_483_647 { return .max }
    if value <= -2_147_483_648 { return .min }
    return Int32(FloatMath.round(value))
}
