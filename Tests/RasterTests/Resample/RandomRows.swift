import Raster

/// Random rows for the samplers' SIMD-against-reference tests
/// (`ImageSamplerSIMDTests`, `MaskSamplerTests`).
extension SplitMix64 {
    /// A random step along a row: none, whole texels (the contiguous and
    /// 0.5× loops), exact fractions, arbitrary, tiny and huge, either sign.
    mutating func rowStep() -> Double {
        let sign = below(2) == 0 ? 1.0 : -1.0
        switch below(8) {
        case 0: return 0
        case 1: return sign
        case 2: return 2 * sign
        case 3: return sign * [0.5, 0.25, 1.5, 1.0 / 3, 0.75][below(5)]
        case 4: return sign * unit() * 1e-6
        case 5: return sign * (100 + unit() * 3e4)
        default: return sign * unit() * 3
        }
    }

    /// A random start: inside or near an image `size` texels long, far off
    /// it, at the edge of the safe box (±8192 … 24576), beyond it, or not
    /// finite.
    mutating func rowStart(_ size: Int) -> Double {
        switch below(10) {
        case 0: return -Double(below(40)) + unit()
        case 1: return [-8192.0, 24576, -8191.2, 24575.7, -9000, 30000, 1e9, -1e12][below(8)]
        case 2: return [Double.nan, .infinity, -.infinity][below(3)]
        case 3: return Double(below(size + 2)) + [0, 0.5, 1.0 / 512, 255.0 / 256][below(4)]
        default: return unit() * Double(size + 8) - 4
        }
    }
}
