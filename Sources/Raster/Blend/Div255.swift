/// Division by 255 with round-to-nearest, the one rounding rule every Raster
/// kernel uses, scalar and SIMD alike.
///
/// For `x` in `0...65025` (the product of two 8-bit values) this returns
/// `(x + 127) / 255` rounded to nearest, i.e. exactly `round(x / 255)`, with
/// halves never occurring (255 is odd). The formula is the classic
/// `(t + (t >> 8)) >> 8` with `t = x + 128` (Blinn, "Three wrongs make a
/// right"; Blend2D `udiv255`).
///
/// Worked examples: `div255(255 * 255) == 255`, `div255(128 * 255) == 128`,
/// `div255(127) == 0`, `div255(128) == 1`, `div255(382) == 1`, `div255(383) == 2`.
@inlinable @inline(__always)
public func div255(_ x: UInt32) -> UInt32 {
    let t = x &+ 128
    return (t &+ (t &>> 8)) &>> 8
}

/// `div255` on sixteen 16-bit lanes at once. Every lane must hold a value in
/// `0...65025`; intermediate sums stay below 65536 so nothing overflows.
@inlinable @inline(__always)
public func div255(_ x: SIMD16<UInt16>) -> SIMD16<UInt16> {
    let t = x &+ 128
    return (t &+ (t &>> 8)) &>> 8
}

/// `div255` applied to the two 16-bit halves packed in each 32-bit lane
/// (the `0x00FF00FF` two-channels-per-word layout). Each half must hold
/// `0...65025`.
@inlinable @inline(__always)
public func div255Pairs(_ x: UInt32) -> UInt32 {
    let t = x &+ 0x0080_0080
    return ((t &+ ((t &>> 8) & 0x00FF_00FF)) &>> 8) & 0x00FF_00FF
}

/// `div255Pairs` on sixteen 32-bit lanes.
@inlinable @inline(__always)
public func div255Pairs(_ x: SIMD16<UInt32>) -> SIMD16<UInt32> {
    let t = x &+ 0x0080_0080
    return ((t &+ ((t &>> 8) & 0x00FF_00FF)) &>> 8) & 0x00FF_00FF
}
