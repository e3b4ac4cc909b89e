/// Vector kernels over 16 pixels at a time, bit-identical to
/// `ScalarKernels`.
///
/// Layout: a chunk is `SIMD16<UInt32>`; arithmetic on channels happens in
/// 16-bit lanes of 8-pixel halves (see `SIMD/Widened.swift` for why, and for
/// the code-generation cliffs that shaped it). Tails shorter than a chunk
/// run through the same arithmetic via partial loads, so there is one
/// formula per kernel.
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
        while i &+ 8 <= count {
            let narrow = rgb565(UnsafeRawPointer(src + i).loadUnaligned(as: Pixels8.self))
            UnsafeMutableRawPointer(dst + i).storeBytes(of: narrow, as: SIMD8<UInt16>.self)
            i &+= 8
        }
        while i < count { dst[i] = RGB565.fromPremultipliedARGB(src[i]); i &+= 1 }
    }

    /// Eight pixels to RGB565 in 16-bit lanes. `(c·249 + 1014) >> 11` equals
    /// `div255(c·31)` and `(g·253 + 505) >> 10` equals `div255(g·63)` for
    /// every 8-bit `c`, `g` (checked exhaustively by the tests), with one
    /// multiply and no 16-bit overflow (at most 64509 and 65020).
    @inlinable @inline(__always)
    static func rgb565(_ p: Pixels8) -> SIMD8<UInt16> {
        let rb = words32((lanes16(p & 0x00FF_00FF) &* 249 &+ 1014) &>> 11)        // b5 | r5 << 16
        let g = words32((lanes16((p &>> 8) & 0x0000_00FF) &* 253 &+ 505) &>> 10)
        // r5 << 16 shifted right by 5 lands at bit 11; b5 < 32 shifts out.
        let packed = (rb &>> 5) | (rb & 0x1F) | (g &<< 5)
        return lanes16(packed).evenHalf
    }

    // MARK: Lane helpers

    /// `s + d·ia/255` per channel, `ia` in 0–255 per 32-bit lane.
    @inlinable @inline(__always)
    static func over(_ s: Pixels16, _ d: Pixels16, _ ia: Pixels16) -> Pixels16 {
        s &+ scaleChannels(d, ia)
    }

    /// Each channel times `g/255`, `g` in 0–255 per 32-bit lane.
    @inlinable @inline(__always)
    static func scale(_ p: Pixels16, _ g: Pixels16) -> Pixels16 {
        scaleChannels(p, g)
    }
}
