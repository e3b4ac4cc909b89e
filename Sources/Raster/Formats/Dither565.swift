/// Ordered (Bayer 4×4) dithering to RGB565, for gradients on 16-bit panels.
///
/// Plain conversion rounds: `c5 = ⌊(c·31 + 127) / 255⌋`. Dithering replaces
/// the constant 127 with a threshold that depends on the pixel's position,
/// `t(x, y) = 16·B[y mod 4][x mod 4] + 8` (8…248, mean 128), so a smooth
/// 8-bit ramp becomes a fine pattern of the two nearest 5- or 6-bit levels
/// whose average over each 4×4 cell matches the 8-bit value. Positions are
/// absolute pixel coordinates of the destination, so adjacent updates of a
/// damaged region tile seamlessly.
///
/// `⌊x / 255⌋` is computed as `((x+1) + ((x+1) >> 8)) >> 8`, exact for
/// `x < 65790` (here `x ≤ 63·255 + 248`).
public enum Dither565 {
    /// The 4×4 Bayer matrix, row-major.
    public static let bayer: [UInt8] = [0, 8, 2, 10, 12, 4, 14, 6, 3, 11, 1, 9, 15, 7, 13, 5]

    @inlinable @inline(__always)
    static func threshold(_ x: Int, _ y: Int) -> UInt32 {
        UInt32(bayer[((y & 3) << 2) | (x & 3)]) &* 16 &+ 8
    }

    @inlinable @inline(__always)
    static func floorDiv255(_ x: UInt32) -> UInt32 {
        let t = x &+ 1
        return (t &+ (t &>> 8)) &>> 8
    }

    /// One pixel at destination position (`x`, `y`).
    @inlinable
    public static func pixel(_ argb: UInt32, x: Int, y: Int) -> UInt16 {
        let t = threshold(x, y)
        let r = floorDiv255(((argb &>> 16) & 0xFF) &* 31 &+ t)
        let g = floorDiv255(((argb &>> 8) & 0xFF) &* 63 &+ t)
        let b = floorDiv255((argb & 0xFF) &* 31 &+ t)
        return UInt16(truncatingIfNeeded: (r &<< 11) | (g &<< 5) | b)
    }

    /// Reference: `count` pixels of row `y` starting at column `x`.
    @inlinable
    public static func rowReference(_ dst: UnsafeMutablePointer<UInt16>, _ src: UnsafePointer<UInt32>, _ count: Int, x: Int, y: Int) {
        var i = 0
        while i < count { dst[i] = pixel(src[i], x: x &+ i, y: y); i &+= 1 }
    }

    /// The same in 16-bit lanes, 8 pixels at a time (the threshold pattern
    /// has period 4, so one vector serves every chunk of a row).
    @inlinable
    public static func row(_ dst: UnsafeMutablePointer<UInt16>, _ src: UnsafePointer<UInt32>, _ count: Int, x: Int, y: Int) {
        var thresholds = Pixels8()
        for lane in 0..<8 { let t = threshold(x &+ lane, y); thresholds[lane] = t | (t &<< 16) }
        let t16 = lanes16(thresholds)
        var i = 0
        while i &+ 8 <= count {
            let p = UnsafeRawPointer(src + i).loadUnaligned(as: Pixels8.self)
            let rb = words32(floorDiv255(lanes16(p & 0x00FF_00FF) &* 31 &+ t16))          // b5 | r5 << 16
            let g = words32(floorDiv255(lanes16((p &>> 8) & 0x0000_00FF) &* 63 &+ t16)) & 0xFFFF
            let packed = (rb &>> 5) | (rb & 0x1F) | (g &<< 5)
            UnsafeMutableRawPointer(dst + i).storeBytes(of: SIMDKernels.narrowLow16(packed), as: SIMD8<UInt16>.self)
            i &+= 8
        }
        while i < count { dst[i] = pixel(src[i], x: x &+ i, y: y); i &+= 1 }
    }

    @inlinable @inline(__always)
    static func floorDiv255(_ x: Channels16) -> Channels16 {
        let t = x &+ 1
        return (t &+ (t &>> 8)) &>> 8
    }
}

extension ScanoutConversion {
    /// Converts `rect` to RGB565 with ordered dithering (see `Dither565`).
    public static func copyDithered(_ source: PixelView<ARGB8888>, into dest: PixelView<RGB565>, rect: IntRect,
                                    family: KernelFamily = .simd) {
        forEachRow(source, dest, rect) { d, s, n, x, y in
            switch family {
            case .simd: Dither565.row(d, s, n, x: x, y: y)
            case .reference: Dither565.rowReference(d, s, n, x: x, y: y)
            }
        }
    }
}
