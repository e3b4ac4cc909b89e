// The SIMD row loops of `ImageSampler`, bit-identical to the reference rows
// of ImageSampling.swift (asserted by ImageSamplerSIMDTests and the paint
// tests against `.reference`).

extension ImageSampler {
    // MARK: Affine rows

    /// The SIMD affine row; see `affineRowReference` for what it computes.
    @inline(__always)
    static func affineRow<E: EdgeRule>(_ edge: E.Type, bilinear isBilinear: Bool, _ src: SampleSource,
                                       _ start: (x: Double, y: Double), _ step: (x: Double, y: Double),
                                       _ count: Int, _ dst: UnsafeMutablePointer<UInt32>) {
        guard count > 0 else { return }
        if src.isEmpty { dst.update(repeating: 0, count: count); return }
        let plan = affinePlan(bilinear: isBilinear, start, step, count)
        affineOutside(E.self, bilinear: isBilinear, src, plan, step, 0, plan.lo, dst)
        if plan.lo < plan.hi {
            var u = Fixed16(plan.sx + Double(plan.lo) * step.x).raw, v = Fixed16(plan.sy + Double(plan.lo) * step.y).raw
            let du = Fixed16(step.x).raw, dv = Fixed16(step.y).raw
            let n = plan.hi &- plan.lo, d = dst + plan.lo
            if isBilinear && simdAddressable(src) {
                bilinearRowSIMD(E.self, src, u, v, du, dv, n, d)
            } else if isBilinear {
                var k = 0
                while k < n { d[k] = bilinear(E.self, src, u, v); u &+= du; v &+= dv; k &+= 1 }
            } else {
                var k = 0
                while k < n { d[k] = nearest(E.self, src, u, v); u &+= du; v &+= dv; k &+= 1 }
            }
        }
        affineOutside(E.self, bilinear: isBilinear, src, plan, step, Swift.max(plan.hi, plan.lo), count, dst)
    }

    /// True when every texel offset `y·rowStride + x` of the source fits in
    /// an `Int32` lane.
    @inline(__always)
    static func simdAddressable(_ src: SampleSource) -> Bool {
        Int(src.y1) &+ 1 <= Int(Int32.max) / Swift.max(src.rowStride &+ 1, 1)
    }

    /// The SIMD bilinear row. The row splits into intervals of `k`, found
    /// exactly in integers from the same 16.16 positions `u0 + k·du` that
    /// the reference steps through, so the output is identical to the
    /// reference row:
    ///
    ///     [0, lo)    no tap in the region (transparent edge): 0, which is
    ///                what `combine` gives four transparent taps
    ///     [lo, a)    some taps outside: the reference sampler
    ///     [a, b)     all four taps inside: `bilinearInside`, 16 at a time
    ///     [b, hi)    the reference sampler;  [hi, n) 0 again
    ///
    /// Rows that miss the image (3/4 of a 0.5× draw) used to go through the
    /// reference sampler pixel by pixel (~10 ns each); now they are a fill.
    @inline(__always)
    static func bilinearRowSIMD<E: EdgeRule>(_: E.Type, _ src: SampleSource, _ u0: Int32, _ v0: Int32,
                                             _ du: Int32, _ dv: Int32, _ n: Int, _ dst: UnsafeMutablePointer<UInt32>) {
        var lo = 0, hi = n
        if E.isTransparent {
            // Some tap inside: ⌊s⌋ in x0−1 … x1−1.
            linearInterval(Int64(u0), Int64(du), (Int64(src.x0) - 1) << 16, (Int64(src.x1) - 1) << 16 | 0xFFFF, &lo, &hi)
            linearInterval(Int64(v0), Int64(dv), (Int64(src.y0) - 1) << 16, (Int64(src.y1) - 1) << 16 | 0xFFFF, &lo, &hi)
        }
        var a = lo, b = hi
        // All four taps inside: ⌊s⌋ in x0 … x1−2 (a sub-interval of [lo, hi)).
        linearInterval(Int64(u0), Int64(du), Int64(src.x0) << 16, (Int64(src.x1) - 2) << 16 | 0xFFFF, &a, &b)
        linearInterval(Int64(v0), Int64(dv), Int64(src.y0) << 16, (Int64(src.y1) - 2) << 16 | 0xFFFF, &a, &b)
        if a >= b { a = hi; b = hi }
        dst.update(repeating: 0, count: lo)
        bilinearPiece(E.self, src, u0, v0, du, dv, lo, a, dst)
        if a < b {
            let u = u0 &+ Int32(truncatingIfNeeded: a) &* du, v = v0 &+ Int32(truncatingIfNeeded: a) &* dv
            let done = bilinearInside(src, u, v, du, dv, b &- a, dst + a)
            bilinearPiece(E.self, src, u0, v0, du, dv, a &+ done, b, dst)
        }
        bilinearPiece(E.self, src, u0, v0, du, dv, b, hi, dst)
        (dst + hi).update(repeating: 0, count: n &- hi)
    }

    /// Pixels `from ..< to` of a row through the reference sampler (position
    /// `u0 + k·du` in wrapping `Int32`, as the reference steps).
    @inline(__always)
    static func bilinearPiece<E: EdgeRule>(_: E.Type, _ src: SampleSource, _ u0: Int32, _ v0: Int32, _ du: Int32, _ dv: Int32,
                                           _ from: Int, _ to: Int, _ dst: UnsafeMutablePointer<UInt32>) {
        var k = from
        var u = u0 &+ Int32(truncatingIfNeeded: k) &* du, v = v0 &+ Int32(truncatingIfNeeded: k) &* dv
        while k < to { dst[k] = bilinear(E.self, src, u, v); u &+= du; v &+= dv; k &+= 1 }
    }

    /// The bilinear samples of `n` pixels whose four taps are all inside
    /// the region, 16 at a time; returns how many it wrote (a multiple of
    /// 16; the caller does the rest). One loop is chosen per call:
    ///
    /// - `dv == 0` (no rotation or shear: every pixel of the row reads the
    ///   same two source rows with one vertical weight), and whole steps
    ///   `du` = 1 or 2 texels (translation, 0.5× scale): the taps are
    ///   contiguous loads, split into even and odd texels for 0.5×
    ///   (`shufps` on SSE2, `ld2` on NEON), with one horizontal weight.
    /// - `dv == 0`, any `du`: taps gathered from the two rows.
    /// - otherwise the general gather.
    ///
    /// The gathers read each pair of horizontally adjacent taps with one
    /// 64-bit load (two per pixel instead of four 32-bit ones) into a stack
    /// block, which is then loaded as whole vectors and split into left and
    /// right taps with `evenHalf`/`oddHalf`. Building the vectors lane by
    /// lane instead measured 2× slower than the scalar loop on x86-64.
    ///
    /// Measured (x86-64 host, SSE2 baseline, 1024² draws): 0.5× shades at
    /// ~1 ns per painted pixel; 1.5× (two-row gather) at ~2.3 ns, about
    /// half of it `bilerp8`, so the 1.5× row still trails pixman (1.5 ns
    /// with its OVER). pixman blends vertically once per source column and
    /// then horizontally; `combine`'s rounded `w11` weight is not separable,
    /// so that needs a change of the reference's rounding (and goldens).
    /// aarch64 (Embedded, -O): the arithmetic is `mul`/`mla .8h`, the
    /// splits `ld2`/`uzp1`/`uzp2`; gathers are `ldr d` + `ld1 {v.d}[1]`
    /// lane inserts. LLVM still loads a few lanes of the 0.5× row singly.
    @inline(__always)
    static func bilinearInside(_ src: SampleSource, _ u: Int32, _ v: Int32, _ du: Int32, _ dv: Int32,
                               _ n: Int, _ dst: UnsafeMutablePointer<UInt32>) -> Int {
        let stride = src.rowStride
        var k = 0
        if dv == 0 {
            let top = src.base + Int(v &>> 16) &* stride, bottom = top + stride
            let wy = Pixels8(repeating: UInt32(truncatingIfNeeded: v &>> 8) & 0xFF)
            if du == 0x1_0000 || du == 0x2_0000 {
                let wx = Pixels8(repeating: UInt32(truncatingIfNeeded: u &>> 8) & 0xFF)
                let x = Int(u &>> 16)
                if du == 0x1_0000 {
                    while k &+ 16 <= n {
                        var h = 0
                        while h < 16 {
                            let i = x &+ k &+ h
                            let out = bilerp8(load8(top + i), load8(top + (i &+ 1)), load8(bottom + i), load8(bottom + (i &+ 1)), wx: wx, wy: wy)
                            store8(out, dst + (k &+ h))
                            h &+= 8
                        }
                        k &+= 16
                    }
                } else {
                    while k &+ 16 <= n {
                        var h = 0
                        while h < 16 {
                            let i = x &+ 2 &* (k &+ h)
                            let t = load16(top + i), b = load16(bottom + i)
                            store8(bilerp8(t.evenHalf, t.oddHalf, b.evenHalf, b.oddHalf, wx: wx, wy: wy), dst + (k &+ h))
                            h &+= 8
                        }
                        k &+= 16
                    }
                }
                return k
            }
            let lanes = SIMD16<Int32>(0, 1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 13, 14, 15)
            var uu = SIMD16<Int32>(repeating: u) &+ lanes &* du
            let du16 = du &* 16
            withUnsafeTemporaryAllocation(of: UInt64.self, capacity: 40) { block in
                let pairs = block.baseAddress!
                let offs = UnsafeMutableRawPointer(pairs + 32).assumingMemoryBound(to: Int32.self)
                while k &+ 16 <= n {
                    UnsafeMutableRawPointer(offs).storeBytes(of: uu &>> 16, as: SIMD16<Int32>.self)
                    var l = 0
                    while l < 16 {
                        let o = Int(offs[l])
                        pairs[l] = UnsafeRawPointer(top + o).loadUnaligned(as: UInt64.self)
                        pairs[l &+ 16] = UnsafeRawPointer(bottom + o).loadUnaligned(as: UInt64.self)
                        l &+= 1
                    }
                    let wx = Pixels16(truncatingIfNeeded: uu &>> 8) & 0xFF
                    bilerpPairs(pairs, wx, wy, wy, dst + k)
                    uu &+= du16
                    k &+= 16
                }
            }
            return k
        }
        let lanes = SIMD16<Int32>(0, 1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 13, 14, 15)
        var uu = SIMD16<Int32>(repeating: u) &+ lanes &* du
        var vv = SIMD16<Int32>(repeating: v) &+ lanes &* dv
        let du16 = du &* 16, dv16 = dv &* 16
        let stride32 = Int32(truncatingIfNeeded: stride)
        let base = src.base
        withUnsafeTemporaryAllocation(of: UInt64.self, capacity: 40) { block in
            let pairs = block.baseAddress!
            let offs = UnsafeMutableRawPointer(pairs + 32).assumingMemoryBound(to: Int32.self)
            while k &+ 16 <= n {
                UnsafeMutableRawPointer(offs).storeBytes(of: (vv &>> 16) &* stride32 &+ (uu &>> 16), as: SIMD16<Int32>.self)
                var l = 0
                while l < 16 {
                    let p = base + Int(offs[l])
                    pairs[l] = UnsafeRawPointer(p).loadUnaligned(as: UInt64.self)
                    pairs[l &+ 16] = UnsafeRawPointer(p + stride).loadUnaligned(as: UInt64.self)
                    l &+= 1
                }
                let wx = Pixels16(truncatingIfNeeded: uu &>> 8) & 0xFF
                let wy = Pixels16(truncatingIfNeeded: vv &>> 8) & 0xFF
                bilerpPairs(pairs, wx, wy.lowHalf, wy.highHalf, dst + k)
                uu &+= du16; vv &+= dv16
                k &+= 16
            }
        }
        return k
    }

    /// 16 pixels from a gather block: `pairs[0 ..< 16]` the top (left,
    /// right) tap pairs, `pairs[16 ..< 32]` the bottom ones.
    @inline(__always)
    static func bilerpPairs(_ pairs: UnsafeMutablePointer<UInt64>, _ wx: Pixels16, _ wyLow: Pixels8, _ wyHigh: Pixels8,
                            _ dst: UnsafeMutablePointer<UInt32>) {
        let raw = UnsafeRawPointer(pairs)
        let t0 = raw.loadUnaligned(as: Pixels16.self), t1 = raw.loadUnaligned(fromByteOffset: 64, as: Pixels16.self)
        let b0 = raw.loadUnaligned(fromByteOffset: 128, as: Pixels16.self), b1 = raw.loadUnaligned(fromByteOffset: 192, as: Pixels16.self)
        store8(bilerp8(t0.evenHalf, t0.oddHalf, b0.evenHalf, b0.oddHalf, wx: wx.lowHalf, wy: wyLow), dst)
        store8(bilerp8(t1.evenHalf, t1.oddHalf, b1.evenHalf, b1.oddHalf, wx: wx.highHalf, wy: wyHigh), dst + 8)
    }

    /// `combine` on 8 pixels, in 16-bit lanes (one channel per lane, see
    /// `SIMD/Widened.swift`). `combine`'s sum per channel, expanded,
    ///
    ///     tl·w00 + tr·w10 + bl·w01 + br·w11 + 128
    ///       = 256·tl + wx·(tr − tl) + wy·(bl − tl) + w11·(tl − tr − bl + br) + 128,
    ///
    /// lies in 0 … 65408, so evaluating the right side modulo 2¹⁶ (wrapping
    /// 16-bit lanes, negative differences included) gives it exactly: three
    /// 16-bit multiplies per channel pair instead of four 32-bit ones, which
    /// baseline SSE2 does not have (the old 32-bit `combine16` emulated them
    /// with `pmuludq` and shuffles). `wx`, `wy` hold 0…255 per lane.
    @inlinable @inline(__always)
    static func bilerp8(_ tl: Pixels8, _ tr: Pixels8, _ bl: Pixels8, _ br: Pixels8, wx: Pixels8, wy: Pixels8) -> Pixels8 {
        // wx·wy + 128 < 2¹⁶: the 11 weight fits a 16-bit multiply.
        let w11 = words32((lanes16(wx) &* lanes16(wy) &+ 128) &>> 8)
        let fx = lanes16(wx | (wx &<< 16)), fy = lanes16(wy | (wy &<< 16)), f11 = lanes16(w11 | (w11 &<< 16))
        let m = Pixels8(repeating: 0x00FF_00FF)
        @inline(__always)
        func sum(_ t: Pixels8, _ r: Pixels8, _ b: Pixels8, _ q: Pixels8) -> Channels16 {
            let t16 = lanes16(t), r16 = lanes16(r), b16 = lanes16(b), q16 = lanes16(q)
            return (t16 &<< 8) &+ fx &* (r16 &- t16) &+ fy &* (b16 &- t16) &+ f11 &* (t16 &- r16 &- b16 &+ q16) &+ 128
        }
        let rb = sum(tl & m, tr & m, bl & m, br & m) &>> 8
        let ag = sum((tl &>> 8) & m, (tr &>> 8) & m, (bl &>> 8) & m, (br &>> 8) & m)
        return words32(rb) | (words32(ag) & 0xFF00_FF00)
    }

    @inline(__always)
    static func load8(_ p: UnsafePointer<UInt32>) -> Pixels8 { UnsafeRawPointer(p).loadUnaligned(as: Pixels8.self) }

    @inline(__always)
    static func store8(_ v: Pixels8, _ p: UnsafeMutablePointer<UInt32>) { UnsafeMutableRawPointer(p).storeBytes(of: v, as: Pixels8.self) }

    /// Narrows [a, b) to the k with `lowRaw ≤ start + k·step ≤ highRaw`, in
    /// exact integer arithmetic.
    @inline(__always)
    static func linearInterval(_ start: Int64, _ step: Int64, _ lowRaw: Int64, _ highRaw: Int64, _ a: inout Int, _ b: inout Int) {
        if lowRaw > highRaw { b = a; return }
        var first: Int64, last: Int64
        if step == 0 {
            if start < lowRaw || start > highRaw { b = a }
            return
        } else if step > 0 {
            first = ceilDiv(lowRaw - start, step); last = floorDiv(highRaw - start, step)
        } else {
            first = ceilDiv(highRaw - start, step); last = floorDiv(lowRaw - start, step)
        }
        if first > Int64(a) { a = first > Int64(b) ? b : Int(first) }
        if last + 1 < Int64(b) { b = last + 1 < Int64(a) ? a : Int(last + 1) }
        if b < a { b = a }
    }

    @inline(__always) static func floorDiv(_ x: Int64, _ y: Int64) -> Int64 {
        let q = x / y
        return (x % y != 0 && ((x < 0) != (y < 0))) ? q - 1 : q
    }

    @inline(__always) static func ceilDiv(_ x: Int64, _ y: Int64) -> Int64 { -floorDiv(-x, y) }
}
