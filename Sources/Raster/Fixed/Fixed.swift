/// The number of fraction bits of a `Fixed` type, as a type, so values with
/// different scales cannot be mixed by accident (tiny-skia `fixed_point.rs`,
/// Slint `Fixed<T, SHIFT>`).
public protocol FixedShift {
    /// Fraction bits: a raw value `r` stands for `r / 2^shift`.
    static var shift: Int { get }
}

/// 24.8: one unit is 1/256 of a device pixel. The rasterizer's edge
/// coordinates (sub-pixel positions).
public enum Shift8: FixedShift { public static var shift: Int { 8 } }
/// 16.16: general purpose.
public enum Shift16: FixedShift { public static var shift: Int { 16 } }
/// 15.17: the rasterizer's signed-area unit. A cell's accumulated area is
/// `dy · (2·256 − fx₀ − fx₁)` with `dy`, `fx` in 1/256 pixel, so one fully
/// covered pixel is `256 · 512 = 2^17`.
public enum Shift17: FixedShift { public static var shift: Int { 17 } }

/// A signed fixed-point number: a 32-bit raw integer with `Shift.shift`
/// fraction bits.
///
/// Arithmetic wraps in release builds and traps on overflow in debug builds
/// (`assert`), the cost the hot loops can afford.
///
/// Worked examples with `Fixed<Shift8>` (24.8):
/// - `Fixed<Shift8>(1.5).raw == 384`
/// - `Fixed<Shift8>(1.0 / 512).raw == 1` (a half unit rounds away from zero)
/// - `Fixed<Shift8>(-1.0 / 512).raw == -1`
/// - `Fixed<Shift8>(0.001).raw == 0` (0.256 units rounds to 0)
/// - `Fixed<Shift8>(1e12).raw == Int32.max` (saturates)
/// - `Fixed<Shift8>(Double.nan).raw == 0`
/// - `Fixed<Shift8>(raw: 640).floor == 2`, `.ceil == 3`, `.fraction.raw == 128`
/// - `Fixed<Shift8>(raw: -1).floor == -1`, `.ceil == 0`
public struct Fixed<Shift: FixedShift>: Equatable, Comparable, Hashable, Sendable {
    public var raw: Int32

    @inlinable @inline(__always) public init(raw: Int32) { self.raw = raw }

    /// `1.0` in this format.
    @inlinable public static var one: Fixed { Fixed(raw: Int32(1) &<< Int32(Shift.shift)) }
    @inlinable public static var zero: Fixed { Fixed(raw: 0) }

    /// The integer `n` (saturating at the representable range).
    @inlinable public init(_ n: Int) {
        let limit = Int(Int32.max) >> Shift.shift
        let c = n < -limit - 1 ? -limit - 1 : (n > limit ? limit : n)
        raw = Int32(truncatingIfNeeded: c << Shift.shift)
    }

    /// The nearest representable value to `d`. Rounds to nearest with halves
    /// away from zero; values beyond the range saturate to `Int32.min`/`.max`
    /// raw; NaN becomes 0.
    @inlinable public init(_ d: Double) {
        raw = saturatingInt32(d * Double(1 << Shift.shift))
    }

    /// The exact value as a `Double` (every raw value is representable).
    @inlinable public var double: Double { Double(raw) / Double(1 << Shift.shift) }

    /// The largest integer not above the value (rounds toward −∞).
    @inlinable @inline(__always) public var floor: Int32 { raw &>> Int32(Shift.shift) }
    /// The smallest integer not below the value (rounds toward +∞).
    @inlinable @inline(__always) public var ceil: Int32 {
        Int32((Int64(raw) + (Int64(1) << Int64(Shift.shift)) - 1) >> Int64(Shift.shift))
    }
    /// The nearest integer, halves toward +∞ (`2.5 → 3`, `-2.5 → -2`).
    @inlinable @inline(__always) public var rounded: Int32 {
        Int32((Int64(raw) + (Int64(1) << Int64(Shift.shift - 1))) >> Int64(Shift.shift))
    }
    /// The part above `floor`, always in `0 ..< 1`.
    @inlinable @inline(__always) public var fraction: Fixed {
        Fixed(raw: raw & ((Int32(1) &<< Int32(Shift.shift)) &- 1))
    }

    @inlinable @inline(__always) public static func + (a: Fixed, b: Fixed) -> Fixed {
        assert(!a.raw.addingReportingOverflow(b.raw).overflow, "Fixed: + overflows")
        return Fixed(raw: a.raw &+ b.raw)
    }
    @inlinable @inline(__always) public static func - (a: Fixed, b: Fixed) -> Fixed {
        assert(!a.raw.subtractingReportingOverflow(b.raw).overflow, "Fixed: - overflows")
        return Fixed(raw: a.raw &- b.raw)
    }
    @inlinable @inline(__always) public static prefix func - (a: Fixed) -> Fixed {
        assert(a.raw != .min, "Fixed: negation overflows")
        return Fixed(raw: 0 &- a.raw)
    }
    @inlinable @inline(__always) public static func += (a: inout Fixed, b: Fixed) { a = a + b }
    @inlinable @inline(__always) public static func -= (a: inout Fixed, b: Fixed) { a = a - b }

    /// The product, rounded to nearest (halves toward +∞) through a 64-bit
    /// intermediate. `1.5 × 2.25 = 3.375` exactly in 24.8:
    /// `(384 · 576 + 128) >> 8 == 864`.
    @inlinable @inline(__always) public static func * (a: Fixed, b: Fixed) -> Fixed {
        let p = (Int64(a.raw) * Int64(b.raw) + (Int64(1) << Int64(Shift.shift - 1))) >> Int64(Shift.shift)
        assert(p >= Int64(Int32.min) && p <= Int64(Int32.max), "Fixed: * overflows")
        return Fixed(raw: Int32(truncatingIfNeeded: p))
    }

    /// The value times an integer (exact, debug-checked for overflow).
    @inlinable @inline(__always) public func multiplied(by n: Int32) -> Fixed {
        assert(!raw.multipliedReportingOverflow(by: n).overflow, "Fixed: scaling overflows")
        return Fixed(raw: raw &* n)
    }

    @inlinable @inline(__always) public static func < (a: Fixed, b: Fixed) -> Bool { a.raw < b.raw }

    /// This value in another format: shifts the raw value, rounding to
    /// nearest (halves toward +∞) when bits are dropped, saturating when it
    /// grows. 24.8 `1.5` (raw 384) in 16.16 is raw 98304; 16.16 raw 98431
    /// (384.496 units of 24.8) is raw 384; raw 98432 (exactly 384.5) is 385.
    @inlinable public func converted<Other: FixedShift>(to _: Other.Type = Other.self) -> Fixed<Other> {
        let d = Other.shift - Shift.shift
        let v: Int64
        if d >= 0 { v = Int64(raw) << Int64(d) } else { v = (Int64(raw) + (Int64(1) << Int64(-d - 1))) >> Int64(-d) }
        return Fixed<Other>(raw: Int32(clamping: v))
    }
}

/// A sub-pixel coordinate of the rasterizer: 24.8 fixed point, in device
/// pixels relative to the clip's origin.
public typealias SubpixelCoordinate = Fixed<Shift8>
/// A coverage area accumulated by the rasterizer (15.17: `2^17` is one fully
/// covered pixel with winding one).
public typealias CoverageArea = Fixed<Shift17>
