// The SIMD row loops of `ImageSampler`, bit-identical to the reference rows
// of ImageSampling.swift (asserted by ImageSamplerSIMDTests and the paint
// tests against `.reference`).
//
// The per-pixel loops work on lanes: 16.16 positions as `SIMD8<Int32>` (or
// `SIMD4<Double>` pairs before the division of a projective map), taps
// gathered into a small stack block and loaded back as vectors, the
// bilinear blend in 16-bit channel lanes (`bilerp8`). The rows choose their
// loops once per call and nothing in a loop branches per pixel; only runs
// too short for a chunk (`shortRun`) take the per-pixel reference sampler.
// On aarch64 that is NEON (`scripts/bench raster` counts it per function),
// on x86-64 SSE2.

/// Eight 16.16 sample positions, or texel coordinates, one per lane.
typealias Positions8 = SIMD8<Int32>

extension ImageSampler {
    // MARK: Affine rows

    /// The SIMD affine row; see `affineRowReference` for what it computes.
    /// Sources whose texel offsets do not fit an `Int32` lane go to the
    /// reference.
    @inline(__always)
    static func affineRow<E: EdgeRule>(_ edge: E.Type, bilinear isBilinear: Bool, _ src: SampleSource,
                                       _ start: (x: Double, y: Double), _ step: (x: Double, y: Double),
                                       _ count: Int, _ dst: UnsafeMutablePointer<UInt32>) {
        guard count > 0 else { return }
        if src.isEmpty { dst.update(repeating: 0, count: count); return }
        guard simdAddressable(src) else {
            affineRowReference(E.self, bilinear: isBilinear, src, start, step, count, dst)
            return
        }
        let plan = affinePlan(bilinear: isBilinear, start, step, count)
        affineOutside8(E.self, bilinear: isBilinear, src, plan, step, 0, plan.lo, dst)
        if plan.lo < plan.hi {
            let u0 = Fixed16(plan.sx + Double(plan.lo) * step.x).raw, v0 = Fixed16(plan.sy + Double(plan.lo) * step.y).raw
            let du = Fixed16(step.x).raw, dv = Fixed16(step.y).raw
            let n = plan.hi &- plan.lo, d = dst + plan.lo
            if isBilinear {
                bilinearRowSIMD(E.self, src, u0, v0, du, dv, n, d)
            } else {
                withUnsafeTemporaryAllocation(byteCount: scratchBytes, alignment: 16) { scratch in
                    nearestRowSIMD(E.self, src, u0, v0, du, dv, n, d, scratch.baseAddress!)
                }
            }
        }
        affineOutside8(E.self, bilinear: isBilinear, src, plan, step, Swift.max(plan.hi, plan.lo), count, dst)
    }

    /// `affineOutside` 8 pixels at a time: the points outside the safe box,
    /// clamped into it, with a clamped edge (a transparent edge's are a
    /// fill). Lane for lane the reference's expressions in the same order
    /// on two `SIMD4<Double>` halves (`Double(i) + lane` is exact), then
    /// `clampToBox` and `fixed16`, which is `Fixed16(_).raw` in the box,
    /// and `bilinear8` or `nearest8`. The last chunk computes all 8 lanes
    /// (positions clamped, taps inside the region) and stores those in the
    /// run. Rare, as the reference says, but the last per-pixel loop of the
    /// affine and scaled rows that was scalar.
    @inline(__always)
    static func affineOutside8<E: EdgeRule>(_: E.Type, bilinear isBilinear: Bool, _ src: SampleSource, _ plan: AffineRowPlan,
                                            _ step: (x: Double, y: Double), _ from: Int, _ to: Int,
                                            _ dst: UnsafeMutablePointer<UInt32>) {
        guard from < to else { return }
        if E.isTransparent { (dst + from).update(repeating: 0, count: to &- from); return }
        withUnsafeTemporaryAllocation(byteCount: scratchBytes, alignment: 16) { buffer in
            let scratch = buffer.baseAddress!
            var i = from
            while i < to {
                let di = SIMD4<Double>(repeating: Double(i))
                let d0 = di + SIMD4(0, 1, 2, 3), d1 = di + SIMD4(4, 5, 6, 7)
                let u = Positions8(lowHalf: fixed16(clampToBox(plan.sx + d0 * step.x)), highHalf: fixed16(clampToBox(plan.sx + d1 * step.x)))
                let v = Positions8(lowHalf: fixed16(clampToBox(plan.sy + d0 * step.y)), highHalf: fixed16(clampToBox(plan.sy + d1 * step.y)))
                let out = isBilinear ? bilinear8(transparent: false, src, u, v, scratch) : nearest8(transparent: false, src, u, v, scratch)
                if i &+ 8 <= to { store8(out, dst + i) } else { storePartial8(out, dst + i, to &- i) }
                i &+= 8
            }
        }
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
    ///     [lo, a)    some taps outside: `sampleRun8`, 8 at a time, taps
    ///                clamped or masked lane by lane (short runs pixel
    ///                by pixel)
    ///     [a, b)     all four taps inside: `bilinearInside`, 16 at a time,
    ///                the rest of [a, b) with [b, hi) through `sampleRun8`
    ///     [hi, n)    0 again
    ///
    /// Rows that miss the image (3/4 of a 0.5× draw) used to go through the
    /// reference sampler pixel by pixel (~10 ns each); now they are a fill.
    @inline(never)
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
        sampleRun8(E.self, bilinear: true, src, u0, v0, du, dv, lo, a, dst)
        var rest = a
        if a < b {
            let u = u0 &+ Int32(truncatingIfNeeded: a) &* du, v = v0 &+ Int32(truncatingIfNeeded: a) &* dv
            rest = a &+ bilinearInside(src, u, v, du, dv, b &- a, dst + a)
            // The last up-to-15 inside pixels: one more chunk of 16 ending on
            // the last one, over pixels already written (the same bits
            // again), instead of the reference sampler pixel by pixel (about
            // 7 ns each, a fifth of a 100-pixel rotated row).
            if rest < b && b &- a >= 16 {
                let c = b &- 16
                let uc = u0 &+ Int32(truncatingIfNeeded: c) &* du, vc = v0 &+ Int32(truncatingIfNeeded: c) &* dv
                rest = c &+ bilinearInside(src, uc, vc, du, dv, 16, dst + c)
            }
        }
        sampleRun8(E.self, bilinear: true, src, u0, v0, du, dv, rest, hi, dst)
        (dst + hi).update(repeating: 0, count: n &- hi)
    }

    /// The SIMD nearest row, split like `bilinearRowSIMD`: where the texel
    /// `(⌊u⌋, ⌊v⌋)` is inside the region (an interval of `k`, found exactly
    /// from the 16.16 positions), 8 offsets at a time computed in lanes and
    /// the texels loaded straight into `dst`; elsewhere 0 with a
    /// transparent edge, `sampleRun8` with a clamped one. x86-64, 1024²
    /// draw rotated 30°: 1.35 ms, against 1.9 ms for the per-pixel loop
    /// and 2.3 ms for clamping and masking every lane (`nearest8`
    /// throughout): a nearest sample is little more than its load, so the
    /// lanes must not add work to it.
    @inline(never)
    static func nearestRowSIMD<E: EdgeRule>(_: E.Type, _ src: SampleSource, _ u0: Int32, _ v0: Int32,
                                            _ du: Int32, _ dv: Int32, _ n: Int, _ dst: UnsafeMutablePointer<UInt32>,
                                            _ scratch: UnsafeMutableRawPointer) {
        var a = 0, b = n
        linearInterval(Int64(u0), Int64(du), Int64(src.x0) << 16, Int64(src.x1) << 16 - 1, &a, &b)
        linearInterval(Int64(v0), Int64(dv), Int64(src.y0) << 16, Int64(src.y1) << 16 - 1, &a, &b)
        if a >= b { a = n; b = n }
        if E.isTransparent {
            dst.update(repeating: 0, count: a)
            (dst + b).update(repeating: 0, count: n &- b)
        } else {
            sampleRun8(E.self, bilinear: false, src, u0, v0, du, dv, 0, a, dst)
            sampleRun8(E.self, bilinear: false, src, u0, v0, du, dv, b, n, dst)
        }
        guard a < b else { return }
        let ramp = Positions8(0, 1, 2, 3, 4, 5, 6, 7)
        let ka = Int32(truncatingIfNeeded: a)
        var u = Positions8(repeating: u0 &+ ka &* du) &+ ramp &* du
        var v = Positions8(repeating: v0 &+ ka &* dv) &+ ramp &* dv
        let du8 = Positions8(repeating: du &* 8), dv8 = Positions8(repeating: dv &* 8)
        let stride = Positions8(repeating: Int32(truncatingIfNeeded: src.rowStride))
        var k = a
        while k < b {
            scratch.storeBytes(of: (v &>> 16) &* stride &+ (u &>> 16), as: Positions8.self)
            let end = Swift.min(k &+ 8, b)
            var l = 0
            while k < end {
                dst[k] = src.base[Int(scratch.load(fromByteOffset: l &* 4, as: Int32.self))]
                k &+= 1; l &+= 1
            }
            u &+= du8; v &+= dv8
        }
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

    /// `lerp` on 8 pixels, in 16-bit channel lanes: `a·(256 − f) + b·f + 128
    /// = 256·a + f·(b − a) + 128` lies in 0 … 65408, so the right side in
    /// wrapping 16-bit lanes gives it exactly, one multiply per channel
    /// pair (`f` is 0…255 in every lane).
    @inline(__always)
    static func lerp8(_ a: Pixels8, _ b: Pixels8, _ f: Channels16) -> Pixels8 {
        let p = lanes16(a), q = lanes16(b), m = Channels16(repeating: 0x00FF)
        let pl = p & m, ph = p &>> 8
        let rb = ((pl &<< 8) &+ 128 &+ f &* ((q & m) &- pl)) &>> 8
        let ag = ((ph &<< 8) &+ 128 &+ f &* ((q &>> 8) &- ph)) & 0xFF00
        return words32(rb | ag)
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

    // MARK: Samples at any position, 8 lanes

    /// Bytes of the stack block `bilinear8` and `nearest8` gather through:
    /// four vectors of 8 texel offsets (bytes 0 ..< 128), then the four
    /// vectors of taps gathered from them (128 ..< 256). Allocated once per
    /// projective or nearest row, and per long edge run of a bilinear row
    /// (most bilinear rows have none).
    static var scratchBytes: Int { 256 }

    /// Runs of fewer pixels than this are sampled one by one (see
    /// `sampleRun8` for the measurements that set it).
    static var shortRun: Int { 32 }

    /// Pixels `from ..< to` of an affine row, 8 at a time, at the 16.16
    /// positions `u0 + k·du`, `v0 + k·dv` (wrapping `Int32`, as the
    /// reference steps), through `bilinear8` or `nearest8`: any positions,
    /// the edge rule applied lane by lane. The last chunk computes all 8
    /// lanes (their taps are clamped into the region, so always readable)
    /// and stores the ones in the run.
    ///
    /// Runs shorter than `shortRun` go through the reference sampler pixel
    /// by pixel instead. Most rows of a rotated or scaled image end in such
    /// a run (one or two edge pixels, and the up to 15 that
    /// `bilinearInside` leaves), and on x86-64 the per-pixel sampler did
    /// them slightly faster than 8-lane chunks (1024² draws, rotated 30°:
    /// 3.10 against 3.00 ms; 1.5×: 2.90 against 2.81 with chunks from 16
    /// pixels on; parity from 32). Long runs, whole rows along the edge of
    /// a magnified image or the clamped parts of a nine-part image, are
    /// 1.55× faster in chunks (a 64² image drawn with a clamped edge over
    /// 1024²: 7.7 against 5.0 ms).
    @inline(__always)
    static func sampleRun8<E: EdgeRule>(_: E.Type, bilinear isBilinear: Bool, _ src: SampleSource,
                                        _ u0: Int32, _ v0: Int32, _ du: Int32, _ dv: Int32, _ from: Int, _ to: Int,
                                        _ dst: UnsafeMutablePointer<UInt32>) {
        guard from < to else { return }
        if to &- from < shortRun {
            var k = from
            var u = u0 &+ Int32(truncatingIfNeeded: k) &* du, v = v0 &+ Int32(truncatingIfNeeded: k) &* dv
            while k < to {
                dst[k] = isBilinear ? bilinear(E.self, src, u, v) : nearest(E.self, src, u, v)
                u &+= du; v &+= dv; k &+= 1
            }
            return
        }
        let ramp = Positions8(0, 1, 2, 3, 4, 5, 6, 7)
        let k0 = Int32(truncatingIfNeeded: from)
        var u = Positions8(repeating: u0 &+ k0 &* du) &+ ramp &* du
        var v = Positions8(repeating: v0 &+ k0 &* dv) &+ ramp &* dv
        let du8 = Positions8(repeating: du &* 8), dv8 = Positions8(repeating: dv &* 8)
        withUnsafeTemporaryAllocation(byteCount: scratchBytes, alignment: 16) { buffer in
            let scratch = buffer.baseAddress!
            var k = from
            while k < to {
                let out = isBilinear ? bilinear8(transparent: E.isTransparent, src, u, v, scratch)
                                     : nearest8(transparent: E.isTransparent, src, u, v, scratch)
                if k &+ 8 <= to { store8(out, dst + k) } else { storePartial8(out, dst + k, to &- k) }
                u &+= du8; v &+= dv8; k &+= 8
            }
        }
    }

    /// `bilinear(E.self, src, u[i], v[i])` for the 8 lanes, at any
    /// positions, `transparent` being `E.isTransparent`: the tap
    /// coordinates are clamped into the region for the load, and with a
    /// transparent edge the taps outside it are then masked to 0, which is
    /// what `TransparentEdge.fetch` returns for them. `scratch` is the
    /// row's gather block (`scratchBytes`).
    ///
    /// The edge is a `Bool`, not a type parameter: the aarch64 build keeps
    /// this function out of line whatever its attributes (one call per 8
    /// pixels), and generic, its two specialisations made LLVM merge the
    /// callers into one that called them through a function pointer.
    @inline(__always)
    static func bilinear8(transparent: Bool, _ src: SampleSource, _ u: Positions8, _ v: Positions8,
                          _ scratch: UnsafeMutableRawPointer) -> Pixels8 {
        let x = u &>> 16, y = v &>> 16
        let left = clampX(x, src), right = clampX(x &+ 1, src)
        let stride = Positions8(repeating: Int32(truncatingIfNeeded: src.rowStride))
        let top = clampY(y, src) &* stride, bottom = clampY(y &+ 1, src) &* stride
        scratch.storeBytes(of: top &+ left, as: Positions8.self)
        scratch.storeBytes(of: top &+ right, toByteOffset: 32, as: Positions8.self)
        scratch.storeBytes(of: bottom &+ left, toByteOffset: 64, as: Positions8.self)
        scratch.storeBytes(of: bottom &+ right, toByteOffset: 96, as: Positions8.self)
        gather(src.base, scratch, 32)
        var tl = scratch.load(fromByteOffset: 128, as: Pixels8.self), tr = scratch.load(fromByteOffset: 160, as: Pixels8.self)
        var bl = scratch.load(fromByteOffset: 192, as: Pixels8.self), br = scratch.load(fromByteOffset: 224, as: Pixels8.self)
        if transparent {
            let inLeft = insideMask(x, src.x0, src.x1), inRight = insideMask(x &+ 1, src.x0, src.x1)
            let inTop = insideMask(y, src.y0, src.y1), inBottom = insideMask(y &+ 1, src.y0, src.y1)
            tl &= inLeft & inTop; tr &= inRight & inTop
            bl &= inLeft & inBottom; br &= inRight & inBottom
        }
        let wx = unsafeBitCast(u &>> 8, to: Pixels8.self) & 0xFF, wy = unsafeBitCast(v &>> 8, to: Pixels8.self) & 0xFF
        return bilerp8(tl, tr, bl, br, wx: wx, wy: wy)
    }

    /// `nearest(E.self, src, u[i], v[i])` for the 8 lanes, at any
    /// positions, as `bilinear8` handles the edge.
    @inline(__always)
    static func nearest8(transparent: Bool, _ src: SampleSource, _ u: Positions8, _ v: Positions8,
                         _ scratch: UnsafeMutableRawPointer) -> Pixels8 {
        let x = u &>> 16, y = v &>> 16
        let stride = Positions8(repeating: Int32(truncatingIfNeeded: src.rowStride))
        scratch.storeBytes(of: clampY(y, src) &* stride &+ clampX(x, src), as: Positions8.self)
        gather(src.base, scratch, 8)
        let texel = scratch.load(fromByteOffset: 128, as: Pixels8.self)
        if transparent { return texel & insideMask(x, src.x0, src.x1) & insideMask(y, src.y0, src.y1) }
        return texel
    }

    @inline(__always)
    static func clampX(_ x: Positions8, _ src: SampleSource) -> Positions8 { clampLanes(x, src.x0, src.x1 &- 1) }

    @inline(__always)
    static func clampY(_ y: Positions8, _ src: SampleSource) -> Positions8 { clampLanes(y, src.y0, src.y1 &- 1) }

    /// `min(max(c, low), high)` per lane (`smax`/`smin` on NEON). Spelled
    /// with compares: the stdlib's `clamped(lowerBound:upperBound:)` stayed
    /// a call in the aarch64 build, which spilled every live vector
    /// around it.
    @inline(__always)
    static func clampLanes(_ c: Positions8, _ low: Int32, _ high: Int32) -> Positions8 {
        let l = Positions8(repeating: low), h = Positions8(repeating: high)
        let r = c.replacing(with: l, where: c .< l)
        return r.replacing(with: h, where: r .> h)
    }

    /// All ones in the lanes with `low ≤ c < high`, 0 in the others: one
    /// unsigned compare of `c − low` against `high − low` (`low < high`,
    /// both within ±2¹⁵ as coordinates are, so nothing wraps).
    @inline(__always)
    static func insideMask(_ c: Positions8, _ low: Int32, _ high: Int32) -> Pixels8 {
        let offset = unsafeBitCast(c &- Positions8(repeating: low), to: Pixels8.self)
        // A `SIMDMask` is its storage: all-ones or zero lanes of `Int32`.
        return unsafeBitCast(offset .< Pixels8(repeating: UInt32(truncatingIfNeeded: high &- low)), to: Pixels8.self)
    }

    /// The texels at the first `count` `Int32` offsets of `scratch`, into
    /// `scratch` from byte 128 on, in the same order. The loads are scalar
    /// (NEON and SSE2 have no gather); they go through memory and come
    /// back as whole vectors, as in `bilinearInside`, where building the
    /// vectors lane by lane measured 2× slower on x86-64.
    @inline(__always)
    static func gather(_ base: UnsafePointer<UInt32>, _ scratch: UnsafeMutableRawPointer, _ count: Int) {
        var i = 0
        while i < count {
            let texel = base[Int(scratch.load(fromByteOffset: 4 &* i, as: Int32.self))]
            scratch.storeBytes(of: texel, toByteOffset: 128 &+ 4 &* i, as: UInt32.self)
            i &+= 1
        }
    }

    /// The first `count` (< 8) lanes of `v` to `p`.
    @inline(__always)
    static func storePartial8(_ v: Pixels8, _ p: UnsafeMutablePointer<UInt32>, _ count: Int) {
        var i = 0
        while i < count { p[i] = v[i]; i &+= 1 }
    }

    // MARK: Projective rows

    /// The SIMD projective row; see `projectiveRowReference` for what it
    /// computes. 8 pixels at a time: positions by `projectivePositions8`,
    /// then `bilinear8` or `nearest8` at them, and the lanes behind the eye
    /// (`W ≤ 0`, or NaN) masked to 0. Those lanes' positions are garbage,
    /// but clamped like any other, so harmless. `scratch`: the gather
    /// block. x86-64, 1024² perspective draw: 15 ms, against 38 ms one
    /// pixel at a time (pixman: 23 ms); most of what is left is waiting
    /// for the four taps' loads.
    @inline(never)
    static func projectiveRow<E: EdgeRule>(_: E.Type, bilinear isBilinear: Bool, _ src: SampleSource, _ m: ProjectiveTransform,
                                           _ x: Int, _ y: Int, _ scale: Double, _ count: Int,
                                           _ dst: UnsafeMutablePointer<UInt32>, _ scratch: UnsafeMutableRawPointer) {
        if src.isEmpty { dst.update(repeating: 0, count: count); return }
        guard simdAddressable(src) else {
            projectiveRowReference(E.self, isBilinear, src, m, x, y, scale, count, dst)
            return
        }
        let origin = projectiveOrigin(m, x, y)
        let shift = isBilinear ? bilinearShift : 0.0
        var i = 0
        while i < count {
            let p = projectivePositions8(origin, m, scale, shift, i)
            let sample = isBilinear ? bilinear8(transparent: E.isTransparent, src, p.u, p.v, scratch)
                                    : nearest8(transparent: E.isTransparent, src, p.u, p.v, scratch)
            let out = sample & p.inFront
            if i &+ 8 <= count { store8(out, dst + i) } else { storePartial8(out, dst + i, count &- i) }
            i &+= 8
        }
    }

    /// The 16.16 positions of pixels `i ..< i + 8` of a projective row, and
    /// all ones in `inFront` where `W > 0`. Lane for lane the reference's
    /// expressions in the same order (`Double(i) + lane` is exact), on two
    /// `SIMD4<Double>` halves, so the two divisions per pixel are
    /// `fdiv .2d`/`divpd` on two lanes. Swift does not contract `a + b·c`
    /// into a fused multiply-add, so the bits are the reference's.
    @inline(__always)
    static func projectivePositions8(_ origin: (X: Double, Y: Double, W: Double), _ m: ProjectiveTransform, _ scale: Double,
                                     _ shift: Double, _ i: Int) -> (u: Positions8, v: Positions8, inFront: Pixels8) {
        let di = SIMD4<Double>(repeating: Double(i))
        let d0 = di + SIMD4(0, 1, 2, 3), d1 = di + SIMD4(4, 5, 6, 7)
        let w0 = origin.W + d0 * m.m20, w1 = origin.W + d1 * m.m20
        let u0 = clampToBox((origin.X + d0 * m.m00) / w0 * scale - shift), u1 = clampToBox((origin.X + d1 * m.m00) / w1 * scale - shift)
        let v0 = clampToBox((origin.Y + d0 * m.m10) / w0 * scale - shift), v1 = clampToBox((origin.Y + d1 * m.m10) / w1 * scale - shift)
        let f0 = SIMD4<UInt32>(truncatingIfNeeded: unsafeBitCast(w0 .> 0, to: SIMD4<Int64>.self))
        let f1 = SIMD4<UInt32>(truncatingIfNeeded: unsafeBitCast(w1 .> 0, to: SIMD4<Int64>.self))
        return (Positions8(lowHalf: fixed16(u0), highHalf: fixed16(u1)), Positions8(lowHalf: fixed16(v0), highHalf: fixed16(v1)),
                Pixels8(lowHalf: f0, highHalf: f1))
    }

    /// `clampToBox` on 4 lanes (NaN stays NaN, as there).
    @inline(__always)
    static func clampToBox(_ v: SIMD4<Double>) -> SIMD4<Double> {
        v.replacing(with: safeLow, where: v .< safeLow).replacing(with: safeHigh, where: v .> safeHigh)
    }

    /// `Fixed16(x).raw` on 4 lanes with |x| ≤ 2¹⁵ or NaN (`clampToBox`
    /// output): `x·2¹⁶` rounded to nearest, halves away from zero, NaN to 0,
    /// as `saturatingInt32` does (its saturation is out of reach here).
    ///
    /// With `y = x·2¹⁶` (exact, |y| < 2³¹) and `M = 1.5·2⁵²`, `y + M` lies
    /// in [2⁵², 2⁵³) where doubles are the whole numbers, so `(y + M) − M`
    /// is `y` rounded to nearest with ties to even (the FPU's mode) and
    /// `y − r` is exact. A tie rounded toward zero is moved one away; then
    /// `r + M` holds `r` in the low 32 bits of its significand, in two's
    /// complement. Worked examples: y = 2.5 → r = 2, y − r = 0.5, y > 0 →
    /// 3; y = 3.5 → 4; y = −2.5 → −2 → −3; y = −0.5 → −0 → −1;
    /// y = 1.25 → 1; y = −1.75 → −2. No float-to-integer conversion, so
    /// no per-lane range checks, and it is plain vector arithmetic on both
    /// architectures (SSE2 has no vector round instruction).
    @inline(__always)
    static func fixed16(_ x: SIMD4<Double>) -> SIMD4<Int32> {
        var y = x * 65536
        y.replace(with: 0, where: y .!= y)
        let magic = SIMD4<Double>(repeating: 6_755_399_441_055_744)
        var r = (y + magic) - magic
        let d = y - r
        r.replace(with: r + 1, where: (d .== 0.5) .& (y .> 0))
        r.replace(with: r - 1, where: (d .== -0.5) .& (y .< 0))
        return SIMD4<Int32>(truncatingIfNeeded: unsafeBitCast(r + magic, to: SIMD4<UInt64>.self))
    }
}
