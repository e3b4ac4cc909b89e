import CRasterFill

/// Vector kernels over 16 pixels at a time, bit-identical to
/// `ScalarKernels`.
///
/// Layout: a chunk is `SIMD16<UInt32>`; arithmetic on channels happens in
/// 16-bit lanes of 8-pixel halves (see `SIMD/Widened.swift` for why, and for
/// the code-generation cliffs that shaped it). Tails shorter than a chunk
/// run through the same arithmetic via partial loads, so there is one
/// formula per kernel.
public enum SIMDKernels {
    /// The shortest span `fill` stores with the x86-64 string instruction:
    /// below it the instruction's start-up cost loses to vector stores
    /// (measured: 0.7× at 128 pixels, 0.9× at 192, 1.1× at 256).
    @inlinable public static var stringFillMinimum: Int { 256 }

    /// Spans of 16 pixels or more are written in 64-byte chunks on cache
    /// line boundaries: one unaligned chunk at the start, aligned ones
    /// after it, one unaligned chunk ending at the last pixel (the chunks
    /// overlap; a fill writes the same value twice there). Against
    /// unaligned chunks from the first pixel, a 571-pixel row (LVGL's
    /// single-rectangle scene at 1080p) filled 20–25 % faster on the
    /// project's x86 machine (the stores are what a fill costs; a chunk
    /// across two lines costs two).
    ///
    /// On x86-64, spans of `stringFillMinimum` pixels or more are stored by
    /// the string instruction instead (`fbr_string_fill32`: whole lines
    /// written without being read; 1.4× a full-screen fill at 1080p).
    @inlinable
    public static func fill(_ dst: UnsafeMutablePointer<UInt32>, _ count: Int, color: UInt32) {
        #if arch(x86_64)
        if count >= stringFillMinimum {
            fbr_string_fill32(dst, color, count)
            return
        }
        #endif
        let v = Pixels16(repeating: color)
        guard count >= 16 else {
            var i = 0
            while i < count { dst[i] = color; i &+= 1 }
            return
        }
        store16(v, dst)
        // Pixels to the next 64-byte boundary (rows of UInt32 are 4-byte aligned).
        var i = ((64 &- (Int(bitPattern: dst) & 63)) & 63) &>> 2
        while i &+ 16 <= count { store16(v, dst + i); i &+= 16 }
        if i < count { store16(v, dst + (count &- 16)) }
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

    /// `srcOver` for spans with opaque and transparent runs (the rows a
    /// paint shades: an image and its transparent surroundings): eight
    /// opaque source pixels are stored as they are and eight zero ones
    /// leave the destination alone, without reading it (pixman's OVER fast
    /// paths). The bits are the formula's: `Sa = 255` gives `Sca` exactly,
    /// a zero source gives `Dca`. Kept apart from `srcOver` because the
    /// check costs about 10 % where alphas are mixed throughout (measured
    /// on the project's x86 machine, the "ARGB image OVER ARGB" row);
    /// on an opaque 1024² bilinear draw it saves about 0.25 ms of 2.1.
    @inlinable
    public static func srcOverRuns(_ dst: UnsafeMutablePointer<UInt32>, _ src: UnsafePointer<UInt32>, _ count: Int) {
        var i = 0
        while i &+ 8 <= count {
            let s = loadPairs8(src + i)
            switch classifyAlpha8(s) {
            case .full: storePairs8(s, dst + i)
            case .none: break
            case .partial: storePairs8(over8(s, loadPairs8(dst + i), inverseAlphaPairs8(s)), dst + i)
            }
            i &+= 8
        }
        srcOver(dst + i, src + i, count &- i)
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

    /// Copies `count` pixels, in 64-byte chunks on the destination's cache
    /// lines as `fill` writes them. Spans that overlap (a surface copied
    /// onto itself) or are shorter than a chunk go through `memmove`.
    @inlinable
    public static func copy(_ dst: UnsafeMutablePointer<UInt32>, _ src: UnsafePointer<UInt32>, _ count: Int) {
        let gap = Int(bitPattern: UnsafeRawPointer(dst)) &- Int(bitPattern: UnsafeRawPointer(src))
        let bytes = count &* 4
        guard count >= 16, gap >= bytes || gap <= -bytes else {
            UnsafeMutableRawPointer(dst).copyMemory(from: src, byteCount: bytes)
            return
        }
        store16(load16(src), dst)
        var i = ((64 &- (Int(bitPattern: dst) & 63)) & 63) &>> 2
        while i &+ 16 <= count { store16(load16(src + i), dst + i); i &+= 16 }
        if i < count { store16(load16(src + (count &- 16)), dst + (count &- 16)) }
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

    /// Eight pixels to RGB565: each channel rounded by one high-half
    /// multiply, the results narrowed to bytes and merged in 16-bit lanes.
    ///
    /// For every 8-bit `c` (checked exhaustively by the tests):
    /// `((c + 4)·7971) >> 16 = div255(c·31)` (the 5-bit level) and
    /// `((c + 2)·16192) >> 16 = div255(c·63)` (the 6-bit level). The
    /// multipliers are scaled so a level lands in place in a byte with its
    /// fraction below it: red by 8·7971 = 63768 (`8·r5 + f`, f < 8, in the
    /// high byte of the output lane, so clearing `f` leaves `r5 << 11`),
    /// green by 4·16192 = 64768 (`4·g6 + f`, f < 4, cleared and shifted by
    /// 3 to `g6 << 5`); blue, unscaled, is `b5` in the low byte. Products
    /// stay below 2³²; every byte is at most 252, so the narrowing is a
    /// plain truncation.
    ///
    /// SSE2 (baseline x86-64): four `pmulhuw`, two `packuswb`, and
    /// `pand`/`paddd`/`psrlw`/`psllw`/`por`, 20 vector ALU instructions per
    /// 8 pixels against 31 for the previous form (`(c·249 + 1014) >> 11` in
    /// 32-bit words, then `pslld`/`psrad`/`packssdw` to narrow: 15 shifts,
    /// which only two of Zen's four vector pipes run). 1920×1080 on the
    /// project's x86 machine: 0.63 → 0.40 ms. pixman's SSE2 path takes
    /// 0.28 with 13: it truncates (`c >> 3`), which needs no multiply for
    /// red and blue, and rounding to nearest is what `RGB565` promises.
    @inlinable @inline(__always)
    static func rgb565(_ p: Pixels8) -> SIMD8<UInt16> {
        // Lanes (c + 4): blue low, red high → b5 and 8·r5 + f.
        let rb = mulHigh(lanes16((p & 0x00FF_00FF) &+ 0x0004_0004), lanes16(Pixels8(repeating: 7971 | 63768 << 16)))
        // Lanes (g + 2, a): green low → 4·g6 + f; the alpha lane is cleared.
        let ga = mulHigh(lanes16(((p &>> 8) & 0x00FF_00FF) &+ 0x0000_0002), Channels16(repeating: 64768))
        // The fractions cleared before narrowing (a mask LLVM needs there
        // anyway to narrow by `packuswb`): b5 | r5 << 11, and 4·g6.
        let br = unsafeBitCast(SIMD16<UInt8>(truncatingIfNeeded: lanes16(words32(rb) & 0x00F8_001F)), to: SIMD8<UInt16>.self)
        let g = unsafeBitCast(SIMD16<UInt8>(truncatingIfNeeded: lanes16(words32(ga) & 0x0000_00FC)), to: SIMD8<UInt16>.self)
        return br | (g &<< 3)
    }

    /// The low 16 bits of each 32-bit lane, as a truncation (LLVM lowers it
    /// to `xtn` on aarch64 and to shifts and `packssdw` on SSE2; the same
    /// bits taken as `evenHalf` of 16-bit lanes became a chain of shuffles
    /// on SSE2 that cost as much as the rest of the RGB565 conversion).
    @inlinable @inline(__always)
    static func narrowLow16(_ v: Pixels8) -> SIMD8<UInt16> {
        SIMD8<UInt16>(truncatingIfNeeded: v)
    }

    // MARK: Lane helpers

    /// `s + d·ia/255` per channel, `ia` in 0–255 per 32-bit lane.
    @inlinable @inline(__always)
    static func over(_ s: Pixels16, _ d: Pixels16, _ ia: Pixels16) -> Pixels16 {
        s &+ scaleChannels(d, ia)
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

    /// Each channel times `g/255`, `g` in 0–255 per 32-bit lane.
    @inlinable @inline(__always)
    static func scale(_ p: Pixels16, _ g: Pixels16) -> Pixels16 {
        scaleChannels(p, g)
    }
}
