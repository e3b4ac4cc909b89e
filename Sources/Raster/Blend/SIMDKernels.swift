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

    @inlinable
    public static func srcOverSolid(_ dst: UnsafeMutablePointer<UInt32>, _ count: Int, color: UInt32) {
        let s = Pixels16(repeating: color)
        let ia = Pixels16(repeating: 255 &- (color &>> 24))
        var i = 0
        while i &+ 16 <= count {
            store16(over(s, load16(dst + i), ia), dst + i)
            i &+= 16
        }
        if i < count {
            let n = count &- i
            storePartial16(over(s, loadPartial16(dst + i, n), ia), dst + i, n)
        }
    }

    @inlinable
    public static func srcOver(_ dst: UnsafeMutablePointer<UInt32>, _ src: UnsafePointer<UInt32>, _ count: Int) {
        var i = 0
        while i &+ 16 <= count {
            let s = load16(src + i)
            store16(over(s, load16(dst + i), 255 &- (s &>> 24)), dst + i)
            i &+= 16
        }
        if i < count {
            let n = count &- i
            let s = loadPartial16(src + i, n)
            storePartial16(over(s, loadPartial16(dst + i, n), 255 &- (s &>> 24)), dst + i, n)
        }
    }

    @inlinable
    public static func srcOverAlpha(_ dst: UnsafeMutablePointer<UInt32>, _ src: UnsafePointer<UInt32>, _ count: Int, alpha: UInt32) {
        let g = Pixels16(repeating: alpha)
        var i = 0
        while i &+ 16 <= count {
            let s = scale(load16(src + i), g)
            store16(over(s, load16(dst + i), 255 &- (s &>> 24)), dst + i)
            i &+= 16
        }
        if i < count {
            let n = count &- i
            let s = scale(loadPartial16(src + i, n), g)
            storePartial16(over(s, loadPartial16(dst + i, n), 255 &- (s &>> 24)), dst + i, n)
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

    /// Each channel times `g/255`, `g` in 0–255 per lane.
    @inlinable @inline(__always)
    static func scale(_ p: Pixels16, _ g: Pixels16) -> Pixels16 {
        let rb = div255Pairs((p & 0x00FF_00FF) &* g)
        let ag = div255Pairs(((p &>> 8) & 0x00FF_00FF) &* g)
        return rb | (ag &<< 8)
    }
}
