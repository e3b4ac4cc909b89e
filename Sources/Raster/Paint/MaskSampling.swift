// Bilinear sampling of A8 coverage images (blurred shadow masks): a row of
// destination pixels under an affine or projective map, transparent (0)
// outside the image. The conventions are `ImageSampler`'s (ImageSampling.swift):
// `s = point − bilinearShift` in 16.16, the taps ⌊s⌋ and ⌊s⌋ + 1, weights the
// top 8 bits of the fraction, rounded as `combine` rounds them, so a mask
// sampled here and then tinted by a colour matches the tinted mask sampled
// as an image within a level of rounding.
//
// A mask is a quarter of the bytes of the same image in ARGB, and its
// colour is applied once by the compositing kernel (`srcOverSolidMask`),
// not per texel: a shadow costs a byte blend and a solid-colour mask blend
// per pixel instead of four channel blends and an image blend.

/// One bilinear sample per destination pixel of a row, from an A8 image.
/// `.reference` goes one pixel at a time; `.simd` blends 16 pixels per
/// step in 16-bit lanes (contiguous loads for a translation, gathered tap
/// pairs otherwise). Both write the same bytes (`MaskSamplerTests`).
public enum MaskSampler {
    /// Samples pixels `0 ..< count` of a destination row under an affine
    /// map: pixel `i` samples the mask at `start + i·step` (mask pixel
    /// space, the centre of destination pixel `i` mapped, so `start` is
    /// the inverse map of `(x + 0.5, y + 0.5)`). Writes `count` bytes.
    /// - Returns: the pixels `lo ..< hi` outside which every written byte
    ///   is 0 (so a blend may skip them); may be wider than the non-zero
    ///   bytes, never narrower.
    /// - Complexity: O(count), no allocation.
    @discardableResult
    public static func affineRow(_ src: PixelView<A8>, start: (x: Double, y: Double), step: (x: Double, y: Double),
                                 count: Int, into dst: UnsafeMutablePointer<UInt8>, family: KernelFamily) -> (lo: Int, hi: Int) {
        guard count > 0 else { return (0, 0) }
        guard src.width > 0, src.height > 0 else { dst.update(repeating: 0, count: count); return (0, 0) }
        let plan = ImageSampler.affinePlan(bilinear: true, start, step, count)
        // Points outside the safe box are far from any image: 0.
        dst.update(repeating: 0, count: plan.lo)
        let end = Swift.max(plan.hi, plan.lo)
        (dst + end).update(repeating: 0, count: count &- end)
        guard plan.lo < plan.hi else { return (0, 0) }
        let u0 = Fixed16(plan.sx + Double(plan.lo) * step.x).raw, v0 = Fixed16(plan.sy + Double(plan.lo) * step.y).raw
        let du = Fixed16(step.x).raw, dv = Fixed16(step.y).raw
        let n = plan.hi &- plan.lo, d = dst + plan.lo
        // Some tap inside: ⌊s⌋ in −1 … size − 1.
        var lo = 0, hi = n
        ImageSampler.linearInterval(Int64(u0), Int64(du), -1 << 16, (Int64(src.width) - 1) << 16 | 0xFFFF, &lo, &hi)
        ImageSampler.linearInterval(Int64(v0), Int64(dv), -1 << 16, (Int64(src.height) - 1) << 16 | 0xFFFF, &lo, &hi)
        d.update(repeating: 0, count: lo)
        (d + hi).update(repeating: 0, count: n &- hi)
        guard lo < hi else { return (0, 0) }
        switch family {
        case .reference:
            sampleRun(src, u0, v0, du, dv, lo, hi, d)
        case .simd:
            // All four taps inside: ⌊s⌋ in 0 … size − 2.
            var a = lo, b = hi
            ImageSampler.linearInterval(Int64(u0), Int64(du), 0, (Int64(src.width) - 2) << 16 | 0xFFFF, &a, &b)
            ImageSampler.linearInterval(Int64(v0), Int64(dv), 0, (Int64(src.height) - 2) << 16 | 0xFFFF, &a, &b)
            if a >= b { a = hi; b = hi }
            sampleRun(src, u0, v0, du, dv, lo, a, d)
            var rest = a
            if a < b {
                let u = u0 &+ Int32(truncatingIfNeeded: a) &* du, v = v0 &+ Int32(truncatingIfNeeded: a) &* dv
                rest = a &+ inside16(src, u, v, du, dv, b &- a, d + a)
            }
            sampleRun(src, u0, v0, du, dv, rest, hi, d)
        }
        return (plan.lo &+ lo, plan.lo &+ hi)
    }

    /// Samples pixels `x ..< x + count` of destination row `y` under a
    /// projective map (`inverse`: destination → mask pixels); points with
    /// w ≤ 0 are 0. One pixel at a time in both families (a shadow seen in
    /// perspective is rare; its cost is a division per pixel anyway).
    /// - Complexity: O(count), no allocation.
    public static func projectiveRow(_ src: PixelView<A8>, inverse m: ProjectiveTransform, x: Int, y: Int, count: Int,
                                     into dst: UnsafeMutablePointer<UInt8>) {
        guard src.width > 0, src.height > 0 else { dst.update(repeating: 0, count: count); return }
        let (X0, Y0, W0) = ImageSampler.projectiveOrigin(m, x, y)
        var i = 0
        while i < count {
            let di = Double(i)
            let w = W0 + di * m.m20
            if w > 0 {
                let u = Fixed16(ImageSampler.clampToBox((X0 + di * m.m00) / w - ImageSampler.bilinearShift)).raw
                let v = Fixed16(ImageSampler.clampToBox((Y0 + di * m.m10) / w - ImageSampler.bilinearShift)).raw
                dst[i] = bilinear(src, u, v)
            } else {
                dst[i] = 0
            }
            i &+= 1
        }
    }

    // MARK: Reference

    /// The texel at (`x`, `y`), 0 outside the image.
    @inline(__always)
    static func fetch(_ src: PixelView<A8>, _ x: Int32, _ y: Int32) -> UInt32 {
        if x < 0 || y < 0 || Int(x) >= src.width || Int(y) >= src.height { return 0 }
        return UInt32(src.base[Int(y) &* src.rowStride &+ Int(x)])
    }

    /// `ImageSampler.combine` on one 8-bit channel.
    @inline(__always)
    static func combine(_ tl: UInt32, _ tr: UInt32, _ bl: UInt32, _ br: UInt32, wx: UInt32, wy: UInt32) -> UInt8 {
        let w11 = (wx &* wy &+ 128) &>> 8
        let w10 = wx &- w11, w01 = wy &- w11, w00 = 256 &- wx &- wy &+ w11
        return UInt8(truncatingIfNeeded: (tl &* w00 &+ tr &* w10 &+ bl &* w01 &+ br &* w11 &+ 128) &>> 8)
    }

    /// The bilinear sample at 16.16 `s` = (`u`, `v`).
    @inline(__always)
    static func bilinear(_ src: PixelView<A8>, _ u: Int32, _ v: Int32) -> UInt8 {
        let x = u &>> 16, y = v &>> 16
        let wx = UInt32(truncatingIfNeeded: u &>> 8) & 0xFF, wy = UInt32(truncatingIfNeeded: v &>> 8) & 0xFF
        return combine(fetch(src, x, y), fetch(src, x &+ 1, y), fetch(src, x, y &+ 1), fetch(src, x &+ 1, y &+ 1), wx: wx, wy: wy)
    }

    /// Pixels `from ..< to` one at a time (the reference row, and the
    /// SIMD row's pixels whose taps reach outside the image).
    @inline(never)
    static func sampleRun(_ src: PixelView<A8>, _ u0: Int32, _ v0: Int32, _ du: Int32, _ dv: Int32,
                          _ from: Int, _ to: Int, _ dst: UnsafeMutablePointer<UInt8>) {
        var k = from
        var u = u0 &+ Int32(truncatingIfNeeded: k) &* du, v = v0 &+ Int32(truncatingIfNeeded: k) &* dv
        while k < to {
            dst[k] = bilinear(src, u, v)
            u &+= du; v &+= dv; k &+= 1
        }
    }

    // MARK: SIMD

    typealias Bytes16 = SIMD16<UInt8>
    typealias Lanes16 = SIMD16<UInt16>

    /// `combine` on 16 pixels in 16-bit lanes: every product is at most
    /// 255·256 and the sum at most 255·256 + 128 < 2¹⁶, with no negative
    /// term, so the lanes never wrap.
    @inline(__always)
    static func combine16(_ tl: Lanes16, _ tr: Lanes16, _ bl: Lanes16, _ br: Lanes16, wx: Lanes16, wy: Lanes16) -> Bytes16 {
        let w11 = (wx &* wy &+ 128) &>> 8
        let w10 = wx &- w11, w01 = wy &- w11, w00 = 256 &- wx &- wy &+ w11
        let sum = tl &* w00 &+ tr &* w10 &+ bl &* w01 &+ br &* w11 &+ 128
        return Bytes16(truncatingIfNeeded: sum &>> 8)
    }

    @inline(__always)
    static func load16(_ p: UnsafePointer<UInt8>) -> Lanes16 {
        Lanes16(truncatingIfNeeded: UnsafeRawPointer(p).loadUnaligned(as: Bytes16.self))
    }

    /// The samples of `n` pixels whose four taps are all inside the image,
    /// 16 at a time; returns how many it wrote: all of them when `n` ≥ 16
    /// (the last chunk ends on the last pixel, over pixels already written:
    /// the same bytes again), none when fewer (the caller does those).
    /// - A translation (`du` one texel, `dv` 0): one pair of source rows and
    ///   one pair of weights for the whole run, the taps contiguous loads.
    /// - Otherwise: each lane's horizontal tap pair read with one 16-bit
    ///   load into a stack block, then loaded back as vectors.
    @inline(never)
    static func inside16(_ src: PixelView<A8>, _ u: Int32, _ v: Int32, _ du: Int32, _ dv: Int32,
                         _ n: Int, _ dst: UnsafeMutablePointer<UInt8>) -> Int {
        guard n >= 16 else { return 0 }
        let stride = src.rowStride
        let base = UnsafePointer(src.base)
        var k = 0
        if dv == 0 && du == 0x1_0000 {
            let top = base + Int(v &>> 16) &* stride + Int(u &>> 16), bottom = top + stride
            let wx = Lanes16(repeating: UInt16(truncatingIfNeeded: u &>> 8) & 0xFF)
            let wy = Lanes16(repeating: UInt16(truncatingIfNeeded: v &>> 8) & 0xFF)
            while true {
                let out = combine16(load16(top + k), load16(top + (k &+ 1)), load16(bottom + k), load16(bottom + (k &+ 1)),
                                    wx: wx, wy: wy)
                UnsafeMutableRawPointer(dst + k).storeBytes(of: out, as: Bytes16.self)
                if k &+ 16 >= n { return n }
                k = Swift.min(k &+ 16, n &- 16)
            }
        }
        let lanes = SIMD16<Int32>(0, 1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 13, 14, 15)
        var uu = SIMD16<Int32>(repeating: u) &+ lanes &* du
        var vv = SIMD16<Int32>(repeating: v) &+ lanes &* dv
        let stride32 = Int32(truncatingIfNeeded: stride)
        withUnsafeTemporaryAllocation(of: UInt16.self, capacity: 64) { block in
            let pairs = block.baseAddress!
            let offs = UnsafeMutableRawPointer(pairs + 32).assumingMemoryBound(to: Int32.self)
            while true {
                UnsafeMutableRawPointer(offs).storeBytes(of: (vv &>> 16) &* stride32 &+ (uu &>> 16), as: SIMD16<Int32>.self)
                var l = 0
                while l < 16 {
                    let p = base + Int(offs[l])
                    pairs[l] = UnsafeRawPointer(p).loadUnaligned(as: UInt16.self)
                    pairs[l &+ 16] = UnsafeRawPointer(p + stride).loadUnaligned(as: UInt16.self)
                    l &+= 1
                }
                let raw = UnsafeRawPointer(pairs)
                let t = raw.loadUnaligned(as: Lanes16.self), b = raw.loadUnaligned(fromByteOffset: 32, as: Lanes16.self)
                let m = Lanes16(repeating: 0xFF)
                let wx = Lanes16(truncatingIfNeeded: uu &>> 8) & m
                let wy = Lanes16(truncatingIfNeeded: vv &>> 8) & m
                let out = combine16(t & m, t &>> 8, b & m, b &>> 8, wx: wx, wy: wy)
                UnsafeMutableRawPointer(dst + k).storeBytes(of: out, as: Bytes16.self)
                if k &+ 16 >= n { break }
                // The next chunk, or the last one ending on pixel n − 1.
                let next = Swift.min(k &+ 16, n &- 16)
                let step = Int32(truncatingIfNeeded: next &- k)
                uu &+= SIMD16<Int32>(repeating: du &* step); vv &+= SIMD16<Int32>(repeating: dv &* step)
                k = next
            }
        }
        return n
    }
}
