/// A 4×5 colour matrix on unpremultiplied colour, as SVG's
/// `feColorMatrix type="matrix"`: with channels in 0…1,
///
///     R' = red·(R, G, B, A) + offset.x
///     G' = green·(R, G, B, A) + offset.y
///     B' = blue·(R, G, B, A) + offset.z
///     A' = alpha·(R, G, B, A) + offset.w
///
/// each result clamped to 0…1. The SVG filters `saturate` and
/// `feComponentTransfer type="linear"` per colour channel (CSS
/// `brightness()` and `contrast()`) are matrices too: see the constructors.
/// Colour values are the stored sRGB-encoded ones (SVG's
/// `color-interpolation-filters="sRGB"`); no linearisation.
///
/// Values are kept as given; `ColorMatrixPlan` clamps them when it makes
/// the fixed-point form (see there).
public struct ColorMatrix: Equatable, Sendable {
    /// The coefficients of R, G, B and A (x, y, z, w) in the output red.
    public var red: SIMD4<Double>
    public var green: SIMD4<Double>
    public var blue: SIMD4<Double>
    public var alpha: SIMD4<Double>
    /// The fifth column: added to R', G', B', A' (x, y, z, w), in 0…1 units.
    public var offset: SIMD4<Double>

    public init(red: SIMD4<Double>, green: SIMD4<Double>, blue: SIMD4<Double>, alpha: SIMD4<Double>,
                offset: SIMD4<Double> = .zero) {
        self.red = red; self.green = green; self.blue = blue; self.alpha = alpha; self.offset = offset
    }

    /// The 20 values of SVG's `values` attribute, row by row (R row first,
    /// five values a row: the four coefficients, then the offset). Any
    /// other count gives the identity (SVG treats such a list as an error
    /// and passes the image through).
    public init(_ values: [Double]) {
        guard values.count == 20 else { self = .identity; return }
        red = SIMD4(values[0], values[1], values[2], values[3])
        green = SIMD4(values[5], values[6], values[7], values[8])
        blue = SIMD4(values[10], values[11], values[12], values[13])
        alpha = SIMD4(values[15], values[16], values[17], values[18])
        offset = SIMD4(values[4], values[9], values[14], values[19])
    }

    public static let identity = ColorMatrix(red: SIMD4(1, 0, 0, 0), green: SIMD4(0, 1, 0, 0), blue: SIMD4(0, 0, 1, 0),
                                             alpha: SIMD4(0, 0, 0, 1))

    /// SVG `feColorMatrix type="saturate"` (and CSS `saturate()`): 0 grey
    /// (Rec. 709 luma weights 0.213, 0.715, 0.072), 1 unchanged, above 1
    /// over-saturated. NaN gives 1; the amount is clamped to
    /// `0…maximumAmount`.
    public static func saturation(_ s: Double) -> ColorMatrix {
        let s = clampAmount(s)
        return ColorMatrix(red: SIMD4(0.213 + 0.787 * s, 0.715 - 0.715 * s, 0.072 - 0.072 * s, 0),
                           green: SIMD4(0.213 - 0.213 * s, 0.715 + 0.285 * s, 0.072 - 0.072 * s, 0),
                           blue: SIMD4(0.213 - 0.213 * s, 0.715 - 0.715 * s, 0.072 + 0.928 * s, 0),
                           alpha: SIMD4(0, 0, 0, 1))
    }

    /// CSS `brightness()`: `feFuncR/G/B type="linear" slope="b"`
    /// (intercept 0): each colour channel times `b`, alpha unchanged. NaN
    /// gives 1; clamped to `0…maximumAmount`.
    public static func brightness(_ b: Double) -> ColorMatrix {
        let b = clampAmount(b)
        return ColorMatrix(red: SIMD4(b, 0, 0, 0), green: SIMD4(0, b, 0, 0), blue: SIMD4(0, 0, b, 0), alpha: SIMD4(0, 0, 0, 1))
    }

    /// CSS `contrast()`: `feFuncR/G/B type="linear" slope="c"
    /// intercept="0.5 − 0.5·c"`: 0 is mid grey, 1 unchanged. NaN gives 1;
    /// clamped to `0…maximumAmount`.
    public static func contrast(_ c: Double) -> ColorMatrix {
        let c = clampAmount(c)
        let i = 0.5 - 0.5 * c
        return ColorMatrix(red: SIMD4(c, 0, 0, 0), green: SIMD4(0, c, 0, 0), blue: SIMD4(0, 0, c, 0), alpha: SIMD4(0, 0, 0, 1),
                           offset: SIMD4(i, i, i, 0))
    }

    /// Largest saturation, brightness or contrast amount honoured (16: far
    /// beyond where every channel has saturated, and within the kernel's
    /// coefficient range).
    public static let maximumAmount = 16.0

    /// NaN → 1 (no change), else clamped to `0…maximumAmount`.
    @inlinable public static func clampAmount(_ v: Double) -> Double {
        if v.isNaN { return 1 }
        return v < 0 ? 0 : (v > maximumAmount ? maximumAmount : v)
    }
}
