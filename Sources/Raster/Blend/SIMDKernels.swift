/// Vector kernels over 16 pixels at a time, bit-identical to
/// `ScalarKernels`.
///
/// Layout: a chunk is `SIMD16<UInt32>`, and two 8-bit channels at a time are
/// spread into the 16-bit halves of each lane with the mask `0x00FF00FF`
/// (red/blue, then alpha/green). A product with an 8-bit factor fits in each
/// half, and `div255Pairs` rounds both halves exactly as `div255` does one.
/// This uses only 32-bit lane add, multiply, shift and mask, which lower to
/// NEON `mul.4s`/`usra` on arm64 and SSE on x86-64 without shuffles.
public enum SIMDKernels {
    @inlinable
    public static func fill(_ dst: UnsafeMutablePointer<UInt32>, _ count: Int, color: UInt32) {
        let v = Pixels16(repeating: color)
        var i = 0
        while i &+ 16 <= count { store16(v, dst + i); i &+= 16 }
        while i < count { dst[i] = color; i &+= 1 }
    }

    /// `Dca' = Sca + Dca·(1 − Sa)` with one colour, eight pixels per step in
    /// 16-bit lanes (`PixelPairs8`), the scalar `overPixel` for the last
    /// 0–7 pixels.
    @inlinable
    public static func srcOverSolid(_ dst: UnsafeMutablePointer<UInt32>, _ count: Int, color: UInt32) {
        let s = unsafeBitCast(SIMD8<UInt32>(repeating: color), to: PixelPairs8.self)
        let inverse = 255 &- (color &>> 24)
        let ia = PixelPairs8(repeating: UInt16(truncatingIfNeeded: inverse))
        var i = 0
        while i &+ 8 <= count {
            storePairs8(over8(s, loadPairs8(dst + i), ia), dst + i)
            i &+= 8
        }
        while i < count { dst[i] = ScalarKernels.overPixel(color, dst[i], inverseAlpha: inverse); i &+= 1 }
    }

    /// `Dca' = Sca + Dca·(1 − Sa)` from a source span, as `srcOverSolid`.
    @inlinable
    public static func srcOver(_ dst: UnsafeMutablePointer<UInt32>, _ src: UnsafePointer<UInt32>, _ count: Int) {
        var i = 0
        while i &+ 8 <= count {
            let s = loadPairs8(src + i)
            storePairs8(over8(s, loadPairs8(dst + i), inverseAlphaPairs8(s)), dst + i)
            i &+= 8
        }
        while i < count {
            let s = src[i]
            dst[i] = ScalarKernels.overPixel(s, dst[i], inverseAlpha: 255 &- (s &>> 24))
            i &+= 1
        }
    }

    /// Source-over with global alpha `g`: `Sca'' = Sca·g`, then
    /// `Dca' = Sca'' + Dca·(1 − Sa'')`, as `srcOverSolid`.
    @inlinable
    public static func srcOverAlpha(_ dst: UnsafeMutablePointer<UInt32>, _ src: UnsafePointer<UInt32>, _ count: Int, alpha: UInt32) {
        let g = PixelPairs8(repeating: UInt16(truncatingIfNeeded: alpha))
        var i = 0
        while i &+ 8 <= count {
            let s = scale8(loadPairs8(src + i), g)
            storePairs8(over8(s, loadPairs8(dst + i), inverseAlphaPairs8(s)), dst + i)
            i &+= 8
        }
        while i < count {
            let s = ScalarKernels.scalePixel(src[i], alpha)
            dst[i] = ScalarKernels.overPixel(s, dst[i], inverseAlpha: 255 &- (s &>> 24))
            i &+= 1
        }
    }

    @inlinable
    public static func copy(_ dst: UnsafeMutablePointer<UInt32>, _ src: UnsafePointer<UInt32>, _ count: Int) {
        UnsafeMutableRawPointer(dst).copyMemory(from: src, byteCount: count &* 4)
    }

    @inlinable
    public static func toXRGB8888(_ dst: UnsafeMutablePointer<UInt32>, _ src: UnsafePointer<UInt32>, _ count: Int) {
        let x = Pixels16(repeating: 0xFF00_0000)
        var i = 0
        while i &+ 16 <= count { store16(load16(src + i) | x, dst + i); i &+= 16 }
        while i < count { dst[i] = src[i] | 0xFF00_0000; i &+= 1 }
    }

    @inlinable
    public static func toRGB565(_ dst: UnsafeMutablePointer<UInt16>, _ src: UnsafePointer<UInt32>, _ count: Int) {
        var i = 0
        while i &+ 16 <= count {
            let p = load16(src + i)
            // r·31 and b·31 in the two halves of one lane, g·63 in another.
            let rb = div255Pairs(((p &>> 16) & 0xFF) &* 31 | ((p & 0xFF) &* 31) &<< 16)
            let g = div255Pairs(((p &>> 8) & 0xFF) &* 63)
            let packed = ((rb & 0x1F) &<< 11) | (g &<< 5) | (rb &>> 16)
            let narrow = SIMD16<UInt16>(truncatingIfNeeded: packed)
            UnsafeMutableRawPointer(dst + i).storeBytes(of: narrow, as: SIMD16<UInt16>.self)
            i &+= 16
        }
        while i < count { dst[i] = RGB565.fromPremultipliedARGB(src[i]); i &+= 1 }
    }

    // MARK: Lane helpers

    /// `s + d·ia/255` per channel, `ia` in 0–255 per lane.
    @inlinable @inline(__always)
    static func over(_ s: Pixels16, _ d: Pixels16, _ ia: Pixels16) -> Pixels16 {
        let rb = div255Pairs((d & 0x00FF_00FF) &* ia)
        let ag = div255Pairs(((d &>> 8) & 0x00FF_00FF) &* ia)
        return s &+ (rb | (ag &<< 8))
    }

    /// `s + d·ia/255` per channel in the `PixelPairs8` layout.
    @inlinable @inline(__always)
    static func over8(_ s: PixelPairs8, _ d: PixelPairs8, _ ia: PixelPairs8) -> PixelPairs8 {
        let rb = div255((d & 0x00FF) &* ia), ag = div255((d &>> 8) &* ia)
        return s &+ (rb | (ag &<< 8))
    }

    /// Each channel times `g/255` in the `PixelPairs8` layout.
    @inlinable @inline(__always)
    static func scale8(_ p: PixelPairs8, _ g: PixelPairs8) -> PixelPairs8 {
        div255((p & 0x00FF) &* g) | (div255((p &>> 8) &* g) &<< 8)
    }

    /// Each channel times `g/255`, `g` in 0–255 per lane.
    @inlinable @inline(__always)
    static func scale(_ p: Pixels16, _ g: Pixels16) -> Pixels16 {
        let rb = div255Pairs((p & 0x00FF_00FF) &* g)
        let ag = div255Pairs(((p &>> 8) & 0x00FF_00FF) &* g)
        return rb | (ag &<< 8)
    }
}
