/// A premultiplied ARGB8888 colour, `0xAARRGGBB` (see `ARGB8888`).
public struct PremultipliedColor: Equatable, Sendable {
    public var argb: UInt32

    @inlinable public init(argb: UInt32) { self.argb = argb }

    /// Premultiplies straight (non-premultiplied) 8-bit channels:
    /// `c' = div255(c · a)`.
    @inlinable public init(red8 red: UInt8, green: UInt8, blue: UInt8, alpha: UInt8 = 255) {
        let a = UInt32(alpha)
        argb = (a &<< 24) | (div255(UInt32(red) &* a) &<< 16) | (div255(UInt32(green) &* a) &<< 8) | div255(UInt32(blue) &* a)
    }

    /// Premultiplies straight channels in 0…1 (clamped; NaN counts as 0),
    /// rounding each to the nearest 8-bit level.
    @inlinable public init(red: Double, green: Double, blue: Double, alpha: Double = 1) {
        self.init(red8: unitToByte(red), green: unitToByte(green), blue: unitToByte(blue), alpha: unitToByte(alpha))
    }

    public static let clear = PremultipliedColor(argb: 0)
    public static let black = PremultipliedColor(argb: 0xFF00_0000)
    public static let white = PremultipliedColor(argb: 0xFFFF_FFFF)

    /// The channels as stored: premultiplied, each at most `alpha`.
    @inlinable public var alpha: UInt8 { UInt8(truncatingIfNeeded: argb &>> 24) }
    @inlinable public var red: UInt8 { UInt8(truncatingIfNeeded: argb &>> 16) }
    @inlinable public var green: UInt8 { UInt8(truncatingIfNeeded: argb &>> 8) }
    @inlinable public var blue: UInt8 { UInt8(truncatingIfNeeded: argb) }
    @inlinable public var isOpaque: Bool { argb &>> 24 == 255 }

    /// The straight (unpremultiplied) channels, rounded to nearest:
    /// `c = round(c' · 255 / a)`; all 0 for a transparent pixel. What a
    /// picture editor shows for the pixel.
    public var unpremultiplied: (red: UInt8, green: UInt8, blue: UInt8, alpha: UInt8) {
        let a = UInt32(alpha)
        guard a > 0 else { return (0, 0, 0, 0) }
        func straight(_ c: UInt8) -> UInt8 { UInt8(min(255, (UInt32(c) &* 255 &+ a / 2) / a)) }
        return (straight(red), straight(green), straight(blue), alpha)
    }

    /// This colour with every channel scaled by `alpha / 255`.
    @inlinable public func scaled(by alpha: UInt8) -> PremultipliedColor {
        PremultipliedColor(argb: ScalarKernels.scalePixel(argb, UInt32(alpha)))
    }
}

/// Maps 0…1 to 0…255 rounding to nearest; values outside are clamped and NaN
/// maps to 0.
@inlinable public func unitToByte(_ v: Double) -> UInt8 {
    if !(v > 0) { return 0 }
    if v >= 1 { return 255 }
    return UInt8(v * 255 + 0.5)
}
