import Raster

/// A colour with straight (non-premultiplied) components in 0…1, sRGB, as
/// the app states it (CGColor's role). Components outside 0…1 or NaN are
/// clamped when the colour is drawn (NaN → 0).
public struct Color: Equatable, Sendable {
    public var red: Double
    public var green: Double
    public var blue: Double
    public var alpha: Double

    @inlinable public init(red: Double, green: Double, blue: Double, alpha: Double = 1) {
        self.red = red; self.green = green; self.blue = blue; self.alpha = alpha
    }

    /// From `0xRRGGBB` and an alpha in 0…1.
    @inlinable public init(rgb: UInt32, alpha: Double = 1) {
        self.init(red: Double((rgb >> 16) & 0xFF) / 255, green: Double((rgb >> 8) & 0xFF) / 255,
                  blue: Double(rgb & 0xFF) / 255, alpha: alpha)
    }

    public static let clear = Color(red: 0, green: 0, blue: 0, alpha: 0)
    public static let black = Color(red: 0, green: 0, blue: 0)
    public static let white = Color(red: 1, green: 1, blue: 1)

    /// The 8-bit premultiplied form the rasterizer composites with.
    @inlinable public var premultiplied: PremultipliedColor {
        PremultipliedColor(red: red, green: green, blue: blue, alpha: alpha)
    }
}

extension Color {
    /// The factors (0…255) that tint a premultiplied image by this straight
    /// colour and fade it by its alpha: red × alpha, green × alpha,
    /// blue × alpha, alpha (see `TintedPaint` and `tinted`).
    var tintFactors: (red: UInt8, green: UInt8, blue: UInt8, alpha: UInt8) {
        (unitToByte(red * alpha), unitToByte(green * alpha), unitToByte(blue * alpha), unitToByte(alpha))
    }
}
