// Bilinear rows of an image under a scale and a translation only (no
// rotation or shear), pixman's separable set-up: every pixel of a row reads
// the same two source rows with one vertical weight, and the horizontal taps
// (the source column and the weight of each destination column) are the
// same in every row, so they are computed once per draw into a table and
// each row is a tight SIMD loop over it. Bit-identical to the reference
// rows of ImageSampling.swift (`ImageSamplingScaledTests`, `rastercheck`).
//
// Why not pixman's two passes (a vertical blend of the two source rows,
// then a horizontal one): `combine` rounds the weight of the bottom-right
// tap, `w11 = round(wx·wy / 256)`, and that is not a product of a vertical
// and a horizontal weight, so blending one direction first changes the
// bits (by up to a level). Nor would it save work where the time goes: a
// minified row needs two taps per pixel from each source row anyway. What
// the separable set-up does save is everything the general row loop does
// per row and per pixel around the blend: positions, interval splitting
// (eight 64-bit divisions per row), taps, and the edge runs pixel by pixel.

/// Memory for the horizontal taps of axis-aligned bilinear draws
/// (`ImagePaint` under a scale and a translation), kept by its owner from
/// draw to draw so that a steady frame computes each draw's taps once and
/// allocates nothing. The compositor keeps one.
///
/// It holds a few tables of taps, each a pure function of what it was
/// built from (the source columns, the 16.16 step, the edge mode and the
/// 16.16 position of its first column), so a table is reused only where it
/// gives exactly what computing the taps afresh would give, whoever asks.
///
/// **Threads.** Not thread-safe: one scratch per drawing thread.
///
/// - Complexity: memory O(widest draw); `init` allocates the slots' first
///   (small) buffers, growing only when a draw is wider than any before.
public final class ImageSamplingScratch {
    /// Tables kept: one per 256-pixel piece of a draw as wide as a 1080p
    /// screen (`Canvas.fill` shades rows in such pieces, each with its own
    /// rounded start), or the two levels of a trilinear draw with room to
    /// spare.
    static let slotCount = 8
    var slots: [ScaledTaps]
    var clock: UInt64 = 0

    public init() {
        slots = []
        slots.reserveCapacity(ImageSamplingScratch.slotCount)
        for _ in 0..<ImageSamplingScratch.slotCount { slots.append(ScaledTaps()) }
    }

    deinit { for s in slots { s.release() } }

    /// The index of a table giving the taps of destination columns
    /// `x ..< x + count` at 16.16 positions `u + k·du`, building one (in the
    /// least recently used slot) when none does. `end`: build up to this
    /// column when building (the draw's right edge), so later rows of the
    /// draw starting further right find it too.
    @inline(__always)
    func table(x: Int, count: Int, u: Int32, du: Int32, _ src: SampleSource, clamps: Bool, end: Int) -> Int {
        clock &+= 1
        var oldest = 0
        var i = 0
        while i < slots.count {
            if slots[i].gives(x: x, count: count, u: u, du: du, src, clamps: clamps) {
                slots[i].lastUse = clock
                return i
            }
            if slots[i].lastUse < slots[oldest].lastUse { oldest = i }
            i &+= 1
        }
        let width = Swift.max(count, Swift.min(end &- x, ScaledTaps.longestBuild))
        slots[oldest].build(x: x, count: width, u: u, du: du, src, clamps: clamps)
        slots[oldest].lastUse = clock
        return oldest
    }
}

/// The taps of consecutive destination columns of an axis-aligned bilinear
/// draw: column `origin + k` samples at 16.16 `u0 + k·du` (wrapping, as the
/// reference steps), which reads the texel pair starting `offsets[k]` bytes
/// into each of its two source rows (texels `⌊u⌋` and `⌊u⌋ + 1`; bytes, so
/// the NEON gather adds them to the row without a shift) with the
/// horizontal weight `weights[k]` (0…256, in both 16-bit halves).
///
/// With a clamped edge every column reads a pair inside the region: a
/// column left of it reads the first pair with weight 0, a column right of
/// it the last pair with weight 256, which `bilinearPairs8` turns into the
/// clamped texel exactly (see there). With a transparent edge the columns
/// with both taps inside are `inner`, those with some tap inside `some`;
/// the others shade to 0 and the edge columns between go to the general
/// loops. Their offsets are still clamped into the region, so a chunk of 8
/// may read them; it does not store them.
struct ScaledTaps {
    /// Columns built at most past the one asked for (a wider draw builds
    /// again where it leaves the table).
    static let longestBuild = 4096

    var offsets = ScratchBuffer<Int32>()
    var weights = ScratchBuffer<UInt32>()
    /// What the table was built from; `count == 0`: nothing yet.
    var origin = 0, count = 0
    var u0: Int32 = 0, du: Int32 = 0
    var x0: Int32 = 0, x1: Int32 = 0
    var clamps = false
    /// Entries (from `origin`) with some / both taps inside the region.
    var someLo = 0, someHi = 0, innerLo = 0, innerHi = 0
    var lastUse: UInt64 = 0

    /// True when entries for columns `x ..< x + n` exist and are the taps of
    /// positions `u + k·du`: the same step, region and edge, and `u` the
    /// position the table has at `x` (the rounding of a row's start can
    /// differ from stepping there from `origin` by a few 2⁻¹⁶).
    @inline(__always)
    func gives(x: Int, count n: Int, u: Int32, du: Int32, _ src: SampleSource, clamps: Bool) -> Bool {
        count > 0 && du == self.du && src.x0 == x0 && src.x1 == x1 && clamps == self.clamps
            && x >= origin && x &+ n <= origin &+ count
            && u == u0 &+ Int32(truncatingIfNeeded: x &- origin) &* du
    }

    mutating func build(x: Int, count n: Int, u: Int32, du: Int32, _ src: SampleSource, clamps: Bool) {
        let capacity = ImageSampler.tapCapacity(n)
        offsets.reserve(capacity, fill: src.x0 &<< 2)
        weights.reserve(capacity, fill: 0)
        origin = x; count = n; u0 = u; self.du = du; x0 = src.x0; x1 = src.x1; self.clamps = clamps
        ImageSampler.buildTaps(u: u, du: du, count: n, src, clamps: clamps, offsets.base, weights.base)
        (someLo, someHi, innerLo, innerHi) = ImageSampler.tapIntervals(u, du, n, src)
    }

    func release() { offsets.release(); weights.release() }
}

extension ImageSampler {
    // MARK: Rows

    /// Samples `count` destination pixels whose image-space points are
    /// `start + i·step` (points, not shifted by 0.5), into `dst`, for a
    /// map without rotation or shear (`step.y == 0`). The same bits as
    /// `affineRow` with `.bilinear`, which `.reference` runs; `.simd` runs
    /// the table-driven rows below. `x` is the destination column of
    /// `dst[0]`, where the taps are kept in `scratch` (if any); `end`, the
    /// column the draw reaches (a hint for how far to build taps).
    /// - Complexity: O(count); no allocation once `scratch` has grown to
    ///   the draw's width.
    public static func scaledRow(_ src: SampleSource, edge: ImageEdge, start: (x: Double, y: Double), step: (x: Double, y: Double),
                                 x: Int, count: Int, into dst: UnsafeMutablePointer<UInt32>, family: KernelFamily,
                                 scratch: ImageSamplingScratch?, end: Int) {
        switch (edge, family) {
        case (_, .reference):
            affineRow(src, filter: .bilinear, edge: edge, start: start, step: step, count: count, into: dst, family: .reference)
        case (.transparent, .simd):
            scaledRow(TransparentEdge.self, src, start, step, x, count, dst, scratch, end)
        case (.clamp, .simd):
            scaledRow(ClampEdge.self, src, start, step, x, count, dst, scratch, end)
        }
    }

    @inline(__always)
    static func scaledRow<E: EdgeRule>(_: E.Type, _ src: SampleSource, _ start: (x: Double, y: Double), _ step: (x: Double, y: Double),
                                       _ x: Int, _ count: Int, _ dst: UnsafeMutablePointer<UInt32>,
                                       _ scratch: ImageSamplingScratch?, _ end: Int) {
        guard count > 0 else { return }
        // A region one texel wide has no pair of texels to load, and a
        // source too large for `Int32` offsets none the lanes can address:
        // the general row.
        guard step.y == 0, src.x1 &- src.x0 >= 2, !src.isEmpty, simdAddressable(src) else {
            affineRow(E.self, bilinear: true, src, start, step, count, dst)
            return
        }
        let plan = affinePlan(bilinear: true, start, step, count)
        affineOutside8(E.self, bilinear: true, src, plan, step, 0, plan.lo, dst)
        if plan.lo < plan.hi {
            // `Fixed16(_:).raw`, spelled out: its generic initialiser stayed
            // a call (2 % of scripts/bench scene's frame over all rows).
            let u0 = saturatingInt32((plan.sx + Double(plan.lo) * step.x) * 65536), v = saturatingInt32(plan.sy * 65536)
            let du = saturatingInt32(step.x * 65536)
            scaledBilinearRow(E.self, src, u0, v, du, x &+ plan.lo, plan.hi &- plan.lo, dst + plan.lo, scratch, end)
        }
        affineOutside8(E.self, bilinear: true, src, plan, step, Swift.max(plan.hi, plan.lo), count, dst)
    }

    /// Pixels `0 ..< n` (destination columns `x …`) at 16.16 `u0 + k·du`,
    /// `v`: the source rows of `v` and their weight once, then the table's
    /// columns. A row with a tap row outside a transparent edge (the first
    /// and last of a draw) goes to `bilinearRowSIMD`, which masks taps lane
    /// by lane; so do the few edge columns with one tap outside, through
    /// `sampleRun8`.
    @inline(never)
    static func scaledBilinearRow<E: EdgeRule>(_: E.Type, _ src: SampleSource, _ u0: Int32, _ v: Int32, _ du: Int32,
                                               _ x: Int, _ n: Int, _ dst: UnsafeMutablePointer<UInt32>,
                                               _ scratch: ImageSamplingScratch?, _ end: Int) {
        let y = v &>> 16
        let wy = UInt32(truncatingIfNeeded: v &>> 8) & 0xFF
        let top: UnsafePointer<UInt32>, bottom: UnsafePointer<UInt32>
        if E.isTransparent {
            guard y >= src.y0 && y < src.y1 &- 1 else {
                bilinearRowSIMD(E.self, src, u0, v, du, 0, n, dst)
                return
            }
            top = src.base + Int(y) &* src.rowStride
            bottom = top + src.rowStride
        } else {
            let lastRow = src.y1 &- 1
            top = src.base + Int(Swift.min(Swift.max(y, src.y0), lastRow)) &* src.rowStride
            bottom = src.base + Int(Swift.min(Swift.max(y &+ 1, src.y0), lastRow)) &* src.rowStride
        }
        let clamps = !E.isTransparent
        if du == 0x1_0000 || du == 0x2_0000 {
            scaledContiguousRow(E.self, src, top, bottom, wy, u0, v, du, n, dst)
            return
        }
        if let scratch {
            let t = scratch.table(x: x, count: n, u: u0, du: du, src, clamps: clamps, end: end)
            let j = x &- scratch.slots[t].origin
            let taps = scratch.slots[t]
            scaledColumns(E.self, src, top, bottom, wy, u0, v, du, n, dst, taps.offsets.base + j, taps.weights.base + j,
                          (lo: taps.someLo &- j, hi: taps.someHi &- j, a: taps.innerLo &- j, b: taps.innerHi &- j))
            return
        }
        // No scratch: taps for pieces of the row on the stack (1 KiB, the
        // most `withUnsafeTemporaryAllocation` keeps off the heap).
        let (lo, hi, a, b) = clamps ? (0, n, 0, n) : tapIntervals(u0, du, n, src)
        if !clamps {
            dst.update(repeating: 0, count: lo)
            sampleRun8(E.self, bilinear: true, src, u0, v, du, 0, lo, a, dst)
        }
        let piece = 64, capacity = tapCapacity(piece)
        // The closure must not end in a call: Swift 6.3 on x86-64 then
        // made it a tail call (`jmp memset`) that skipped restoring r12,
        // the register through which the typed-throws caller of the
        // closure checks for an error, and the "error" path fell through
        // into the next function (a crash in release builds only).
        withUnsafeTemporaryAllocation(byteCount: 8 &* capacity, alignment: 16) { buffer in
            let raw = buffer.baseAddress!
            let offsets = raw.bindMemory(to: Int32.self, capacity: capacity)
            let weights = (raw + 4 &* capacity).bindMemory(to: UInt32.self, capacity: capacity)
            var k = a
            while k < b {
                let m = Swift.min(piece, b &- k)
                buildTaps(u: u0 &+ Int32(truncatingIfNeeded: k) &* du, du: du, count: m, src, clamps: clamps, offsets, weights)
                bilinearPairs(top, bottom, offsets, weights, wy, m, dst + k)
                k &+= m
            }
        }
        if !clamps {
            sampleRun8(E.self, bilinear: true, src, u0, v, du, 0, b, hi, dst)
            (dst + hi).update(repeating: 0, count: n &- hi)
        }
    }

    /// A row stepping by exactly 1 or 2 texels (a translation, an offscreen
    /// pass or a shadow composited at 1:1, a 0.5× draw): every column has
    /// the same weight and its taps follow each other in memory, so the
    /// inside of the row loads them contiguously, 8 pixels at a time (the
    /// pairs of a 2-texel step split into even and odd texels, `shufps`
    /// on SSE2, `uzp1`/`uzp2` on NEON), the last chunk ending on the last
    /// inside pixel (overlapping the one before: the same bits again) so
    /// that nothing is read past the region. Rows with fewer than 8 inside
    /// pixels, and the columns outside, go to `sampleRun8`.
    @inline(__always)
    static func scaledContiguousRow<E: EdgeRule>(_: E.Type, _ src: SampleSource, _ top: UnsafePointer<UInt32>,
                                                 _ bottom: UnsafePointer<UInt32>, _ wy: UInt32, _ u0: Int32, _ v: Int32,
                                                 _ du: Int32, _ n: Int, _ dst: UnsafeMutablePointer<UInt32>) {
        // The divisions of the interval split, by a constant: shifts.
        var (lo, hi, a, b) = du == 0x1_0000 ? tapIntervals(u0, 0x1_0000, n, src) : tapIntervals(u0, 0x2_0000, n, src)
        if E.isTransparent {
            dst.update(repeating: 0, count: lo)
        } else {
            lo = 0; hi = n
        }
        if b &- a < 8 { a = hi; b = hi }
        sampleRun8(E.self, bilinear: true, src, u0, v, du, 0, lo, a, dst)
        if a < b {
            let ua = u0 &+ Int32(truncatingIfNeeded: a) &* du
            let fx = Pixels8(repeating: (UInt32(truncatingIfNeeded: ua &>> 8) & 0xFF) &* 0x1_0001)
            let wy16 = Channels16(repeating: UInt16(truncatingIfNeeded: wy))
            let c = Int(ua &>> 16)
            var k = a
            if du == 0x1_0000 {
                while true {
                    let i = c &+ (k &- a)
                    store8(bilinearPairs8(load8(top + i), load8(top + (i &+ 1)), load8(bottom + i), load8(bottom + (i &+ 1)),
                                          fx: fx, wy: wy16), dst + k)
                    if k &+ 8 >= b { break }
                    k = Swift.min(k &+ 8, b &- 8)
                }
            } else {
                while true {
                    let i = c &+ 2 &* (k &- a)
                    let t = load16(top + i), q = load16(bottom + i)
                    store8(bilinearPairs8(t.evenHalf, t.oddHalf, q.evenHalf, q.oddHalf, fx: fx, wy: wy16), dst + k)
                    if k &+ 8 >= b { break }
                    k = Swift.min(k &+ 8, b &- 8)
                }
            }
        }
        sampleRun8(E.self, bilinear: true, src, u0, v, du, 0, Swift.max(b, a), hi, dst)
        if E.isTransparent { (dst + hi).update(repeating: 0, count: n &- hi) }
    }

    /// Pixels `0 ..< n` of a row from taps `offsets[0 ..< n]`,
    /// `weights[0 ..< n]` (readable up to `tapCapacity(n)`): with a clamped
    /// edge all of them through the table; with a transparent one 0 outside
    /// `lo ..< hi`, the table in `a ..< b`, `sampleRun8` between.
    @inline(__always)
    static func scaledColumns<E: EdgeRule>(_: E.Type, _ src: SampleSource, _ top: UnsafePointer<UInt32>, _ bottom: UnsafePointer<UInt32>,
                                           _ wy: UInt32, _ u0: Int32, _ v: Int32, _ du: Int32, _ n: Int,
                                           _ dst: UnsafeMutablePointer<UInt32>, _ offsets: UnsafePointer<Int32>,
                                           _ weights: UnsafePointer<UInt32>, _ range: (lo: Int, hi: Int, a: Int, b: Int)) {
        if !E.isTransparent {
            bilinearPairs(top, bottom, offsets, weights, wy, n, dst)
            return
        }
        let lo = Swift.min(Swift.max(range.lo, 0), n), hi = Swift.min(Swift.max(range.hi, lo), n)
        var a = Swift.min(Swift.max(range.a, lo), hi), b = Swift.min(Swift.max(range.b, a), hi)
        if a >= b { a = hi; b = hi }
        dst.update(repeating: 0, count: lo)
        sampleRun8(E.self, bilinear: true, src, u0, v, du, 0, lo, a, dst)
        bilinearPairs(top, bottom, offsets + a, weights + a, wy, b &- a, dst + a)
        sampleRun8(E.self, bilinear: true, src, u0, v, du, 0, b, hi, dst)
        (dst + hi).update(repeating: 0, count: n &- hi)
    }

    // MARK: Taps

    /// Entries a table of `n` taps must have: the chunk of 8 starting at
    /// any entry below `n` may read 7 past it.
    @inline(__always)
    static func tapCapacity(_ n: Int) -> Int { (n &+ 15) & ~7 }

    /// The taps of positions `u + k·du`, `k` in `0 ..< tapCapacity(n)`
    /// (see `ScaledTaps`): the pair's left texel `⌊u⌋` clamped to
    /// `x0 … x1−2`, as a byte offset, the weight the top 8 bits of the
    /// fraction; with
    /// `clamps`, weight 0 left of the region and 256 right of it.
    ///
    /// When every pair of `k < n` is inside the region (the inner columns
    /// of a transparent-edge row, which the table-less rows build for
    /// every row) nothing needs clamping: the taps are computed plainly
    /// and entries `n ..< tapCapacity(n)`, which a chunk of 8 may read but
    /// never stores, get the region's first pair with weight 0. The
    /// clamping (compares and selects, about four SSE2 instructions a
    /// lane) was a quarter of the time of a 1024² upscale without a
    /// scratch on the project's x86 machine.
    /// - Complexity: O(n), 8 lanes at a time.
    @inline(__always)
    static func buildTaps(u: Int32, du: Int32, count n: Int, _ src: SampleSource, clamps: Bool,
                          _ offsets: UnsafeMutablePointer<Int32>, _ weights: UnsafeMutablePointer<UInt32>) {
        let ramp = Positions8(0, 1, 2, 3, 4, 5, 6, 7)
        var uu = Positions8(repeating: u) &+ ramp &* du
        let du8 = Positions8(repeating: du &* 8)
        let total = tapCapacity(n)
        let first = Int64(u) >> 16, last = (Int64(u) + Int64(n &- 1) * Int64(du)) >> 16
        if n > 0, Swift.min(first, last) >= Int64(src.x0), Swift.max(first, last) <= Int64(src.x1) - 2 {
            var k = 0
            while k < n {
                let w = unsafeBitCast(uu &>> 8, to: Pixels8.self) & 0xFF
                UnsafeMutableRawPointer(offsets + k).storeBytes(of: (uu &>> 16) &<< 2, as: Positions8.self)
                UnsafeMutableRawPointer(weights + k).storeBytes(of: w | (w &<< 16), as: Pixels8.self)
                uu &+= du8
                k &+= 8
            }
            // `total − n` is 8 … 15: two chunks of 8, overlapping.
            let pad = Positions8(repeating: src.x0 &<< 2)
            UnsafeMutableRawPointer(offsets + n).storeBytes(of: pad, as: Positions8.self)
            UnsafeMutableRawPointer(offsets + (total &- 8)).storeBytes(of: pad, as: Positions8.self)
            UnsafeMutableRawPointer(weights + n).storeBytes(of: Pixels8(), as: Pixels8.self)
            UnsafeMutableRawPointer(weights + (total &- 8)).storeBytes(of: Pixels8(), as: Pixels8.self)
            return
        }
        let low = Positions8(repeating: src.x0), high = Positions8(repeating: src.x1 &- 2)
        var k = 0
        while k < total {
            let c = uu &>> 16
            var w = unsafeBitCast(uu &>> 8, to: Pixels8.self) & 0xFF
            if clamps {
                w.replace(with: 0, where: c .< low)
                w.replace(with: 256, where: c .> high)
            }
            UnsafeMutableRawPointer(offsets + k).storeBytes(of: clampLanes(c, src.x0, src.x1 &- 2) &<< 2, as: Positions8.self)
            UnsafeMutableRawPointer(weights + k).storeBytes(of: w | (w &<< 16), as: Pixels8.self)
            uu &+= du8
            k &+= 8
        }
    }

    /// The columns `k` in `0 ..< n` of positions `u + k·du` whose taps are
    /// some inside the region (`lo ..< hi`) and all inside (`a ..< b`), as
    /// `bilinearRowSIMD` splits a row, in exact integers.
    @inline(__always)
    static func tapIntervals(_ u: Int32, _ du: Int32, _ n: Int, _ src: SampleSource) -> (lo: Int, hi: Int, a: Int, b: Int) {
        var lo = 0, hi = n
        linearInterval(Int64(u), Int64(du), (Int64(src.x0) - 1) << 16, (Int64(src.x1) - 1) << 16 | 0xFFFF, &lo, &hi)
        var a = lo, b = hi
        linearInterval(Int64(u), Int64(du), Int64(src.x0) << 16, (Int64(src.x1) - 2) << 16 | 0xFFFF, &a, &b)
        if a >= b { a = hi; b = hi }
        return (lo, hi, a, b)
    }

    // MARK: The loop

    /// `n` pixels from two source rows (`top`, `bottom`) with vertical
    /// weight `wy` (0…255) and the taps `offsets`, `weights` (readable to
    /// `tapCapacity(n)`), 8 at a time, the last chunk stored in part. Per
    /// chunk: eight 64-bit loads of texel pairs from each row through a
    /// stack block (LLVM builds the vectors from the loads, `movsd` +
    /// `movlhps` on SSE2, `ldr d` + `ld1 {v.d}[1]` on NEON), split into left
    /// and right taps, and `bilinearPairs8`.
    @inline(__always)
    static func bilinearPairs(_ top: UnsafePointer<UInt32>, _ bottom: UnsafePointer<UInt32>, _ offsets: UnsafePointer<Int32>,
                              _ weights: UnsafePointer<UInt32>, _ wy: UInt32, _ n: Int, _ dst: UnsafeMutablePointer<UInt32>) {
        guard n > 0 else { return }
        let wy16 = Channels16(repeating: UInt16(truncatingIfNeeded: wy))
        withUnsafeTemporaryAllocation(of: UInt64.self, capacity: 16) { block in
            let pairs = block.baseAddress!
            var k = 0
            while k < n {
                var l = 0
                while l < 8 {
                    let o = Int(offsets[k &+ l])
                    pairs[l] = UnsafeRawPointer(top).loadUnaligned(fromByteOffset: o, as: UInt64.self)
                    pairs[l &+ 8] = UnsafeRawPointer(bottom).loadUnaligned(fromByteOffset: o, as: UInt64.self)
                    l &+= 1
                }
                let raw = UnsafeRawPointer(pairs)
                let t = raw.loadUnaligned(as: Pixels16.self), b = raw.loadUnaligned(fromByteOffset: 64, as: Pixels16.self)
                let fx = UnsafeRawPointer(weights + k).loadUnaligned(as: Pixels8.self)
                let out = bilinearPairs8(t.evenHalf, t.oddHalf, b.evenHalf, b.oddHalf, fx: fx, wy: wy16)
                if k &+ 8 <= n { store8(out, dst + k) } else { storePartial8(out, dst + k, n &- k) }
                k &+= 8
            }
        }
    }

    /// `combine` on 8 pixels with the horizontal weights given per pixel in
    /// both 16-bit halves (`fx`, 0…256) and one vertical weight (`wy`,
    /// 0…255 in every lane). With `w11 = (wx·wy + 128) >> 8` (as in
    /// `combine`) and `w10 = wx − w11`, `combine`'s sum per channel is
    ///
    ///     tl·w00 + tr·w10 + bl·w01 + br·w11 + 128
    ///       = 256·tl + w10·(tr − tl) + wy·(bl − tl) + w11·(br − bl) + 128,
    ///
    /// (expand `w00 = 256 − wx − wy + w11`, `w01 = wy − w11`); it lies in
    /// 0 … 65408, so 16-bit lanes give it exactly, wrapping through the
    /// negative differences. Three multiplies per channel pair, as in
    /// `bilerp8`, but the weights come ready from the table and the channel
    /// pairs split with one 16-bit `&` or `>>` each. `wx = 256` (a clamped
    /// column right of the region) gives `w11 = wy`, `w10 = 256 − wy`:
    /// `tr·(256 − wy) + br·wy + 128`, the right column alone, which is what
    /// `combine` gives with both taps clamped onto it; `wx = 0`, the left
    /// column alone.
    @inline(__always)
    static func bilinearPairs8(_ tl: Pixels8, _ tr: Pixels8, _ bl: Pixels8, _ br: Pixels8, fx: Pixels8, wy: Channels16) -> Pixels8 {
        let f = lanes16(fx)
        let w11 = (f &* wy &+ 128) &>> 8
        let w10 = f &- w11
        let t = lanes16(tl), r = lanes16(tr), b = lanes16(bl), q = lanes16(br)
        @inline(__always)
        func sum(_ t: Channels16, _ r: Channels16, _ b: Channels16, _ q: Channels16) -> Channels16 {
            (t &<< 8) &+ 128 &+ wy &* (b &- t) &+ w10 &* (r &- t) &+ w11 &* (q &- b)
        }
        let m = Channels16(repeating: 0x00FF)
        let rb = sum(t & m, r & m, b & m, q & m) &>> 8
        let ag = sum(t &>> 8, r &>> 8, b &>> 8, q &>> 8) & 0xFF00
        return words32(rb | ag)
    }
}
