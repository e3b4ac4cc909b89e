// Sampling of premultiplied ARGB8888 images: the per-pixel reference
// samplers (nearest, bilinear), the row loops under an affine map (scalar
// reference and 16-lane SIMD, bit-identical) and under a projective map, and
// the two-level blend that makes trilinear filtering.
//
// Coordinates. Image pixel space has texel (i, j) covering [i, i+1)×[j, j+1);
// its centre is (i + 0.5, j + 0.5). Nearest takes the texel containing the
// point. Bilinear works on `s = point − 0.5`, so whole `s` hit texel centres:
// the taps are ⌊s⌋ and ⌊s⌋ + 1 in each axis, weighted by the fraction of `s`.
// Positions are 16.16 fixed point (`Fixed16`); weights use the top 8 bits of
// the fraction.

/// The part of one image (or mip level) that sampling may read: texels
/// `x0 ..< x1` × `y0 ..< y1`, addressed from `base` with `rowStride`. Texels
/// outside it are "outside": transparent or clamped by the edge rule.
public struct SampleSource {
    public let base: UnsafePointer<UInt32>
    public let rowStride: Int
    public let x0: Int32, y0: Int32, x1: Int32, y1: Int32

    public init(base: UnsafePointer<UInt32>, rowStride: Int, x0: Int32, y0: Int32, x1: Int32, y1: Int32) {
        self.base = base; self.rowStride = rowStride
        self.x0 = x0; self.y0 = y0; self.x1 = x1; self.y1 = y1
    }

    /// The whole of `view`. Its sides must be at most `RasterLimits.maxDimension`.
    public init(_ view: PixelView<ARGB8888>) {
        self.init(base: UnsafePointer(view.base), rowStride: view.rowStride, x0: 0, y0: 0,
                  x1: Int32(view.width), y1: Int32(view.height))
    }

    /// The same memory limited to texels `x0 ..< x1` × `y0 ..< y1`.
    public func limited(x0: Int32, y0: Int32, x1: Int32, y1: Int32) -> SampleSource {
        SampleSource(base: base, rowStride: rowStride, x0: x0, y0: y0, x1: x1, y1: y1)
    }

    @inlinable public var isEmpty: Bool { x1 <= x0 || y1 <= y0 }
}

/// What sampling sees outside the source region.
public enum ImageEdge: Sendable {
    /// Transparent black (Core Animation's layer contents). Bilinear
    /// filtering then fades the image out over one texel at its border,
    /// which antialiases the edges of a transformed image.
    case transparent
    /// The nearest texel of the region (OpenGL CLAMP_TO_EDGE), as used for
    /// the parts of a nine-part image.
    case clamp
}

/// An edge mode as a type: the texel fetch of the reference samplers.
@usableFromInline
protocol EdgeRule {
    /// True for `TransparentEdge`: far-away points sample nothing.
    static var isTransparent: Bool { get }
    static func fetch(_ s: SampleSource, _ x: Int32, _ y: Int32) -> UInt32
}

@usableFromInline
enum TransparentEdge: EdgeRule {
    @inlinable static var isTransparent: Bool { true }
    @inlinable @inline(__always)
    static func fetch(_ s: SampleSource, _ x: Int32, _ y: Int32) -> UInt32 {
        if x < s.x0 || x >= s.x1 || y < s.y0 || y >= s.y1 { return 0 }
        return s.base[Int(y) &* s.rowStride &+ Int(x)]
    }
}

@usableFromInline
enum ClampEdge: EdgeRule {
    @inlinable static var isTransparent: Bool { false }
    @inlinable @inline(__always)
    static func fetch(_ s: SampleSource, _ x: Int32, _ y: Int32) -> UInt32 {
        let cx = Swift.min(Swift.max(x, s.x0), s.x1 &- 1), cy = Swift.min(Swift.max(y, s.y0), s.y1 &- 1)
        return s.base[Int(cy) &* s.rowStride &+ Int(cx)]
    }
}

/// The sampling arithmetic, scalar reference and SIMD.
public enum ImageSampler {
    // MARK: Per-pixel reference

    /// Bilinear blend of four premultiplied texels with 8-bit fractions
    /// `wx`, `wy` (0…255, in 1/256 texel):
    ///
    ///     w11 = round(wx·wy / 256),  w10 = wx − w11,  w01 = wy − w11,
    ///     w00 = 256 − wx − wy + w11                    (all ≥ 0, sum 256)
    ///     C   = (tl·w00 + tr·w10 + bl·w01 + br·w11 + 128) >> 8   per channel
    ///
    /// The weights are the exact bilinear weights ×256 rounded so that they
    /// sum to exactly 256; then Σ C·w ≤ 255·256 + 128 < 2¹⁶, so two channels
    /// share one 32-bit word (`0x00FF00FF`) with no carry between them, and
    /// the result is a weighted mean: no channel can exceed alpha.
    /// Error against exact bilinear at the same 1/256 position: the rounding
    /// of w11 moves the four weights by ≤ 1/512 each with signs (+ − − +),
    /// so ≤ 510/512 of a level, plus ½ for the final rounding: ≤ 1.5 levels.
    /// Against the unquantised position, < 1 more (asserted by the tests).
    @inlinable @inline(__always)
    public static func combine(_ tl: UInt32, _ tr: UInt32, _ bl: UInt32, _ br: UInt32, wx: UInt32, wy: UInt32) -> UInt32 {
        let w11 = (wx &* wy &+ 128) &>> 8
        let w10 = wx &- w11, w01 = wy &- w11, w00 = 256 &- wx &- wy &+ w11
        let m: UInt32 = 0x00FF_00FF
        let rb = (tl & m) &* w00 &+ (tr & m) &* w10 &+ (bl & m) &* w01 &+ (br & m) &* w11 &+ 0x0080_0080
        let ag = ((tl &>> 8) & m) &* w00 &+ ((tr &>> 8) & m) &* w10 &+ ((bl &>> 8) & m) &* w01
            &+ ((br &>> 8) & m) &* w11 &+ 0x0080_0080
        return ((rb &>> 8) & m) | (ag & 0xFF00_FF00)
    }

    /// The bilinear sample at `s = point − 0.5`, 16.16 (`u`, `v`).
    @inlinable @inline(__always)
    static func bilinear<E: EdgeRule>(_: E.Type, _ src: SampleSource, _ u: Int32, _ v: Int32) -> UInt32 {
        let x = u &>> 16, y = v &>> 16
        let wx = UInt32(truncatingIfNeeded: u &>> 8) & 0xFF, wy = UInt32(truncatingIfNeeded: v &>> 8) & 0xFF
        return combine(E.fetch(src, x, y), E.fetch(src, x &+ 1, y), E.fetch(src, x, y &+ 1), E.fetch(src, x &+ 1, y &+ 1), wx: wx, wy: wy)
    }

    /// The nearest texel to `point` (16.16 `u`, `v`, not shifted by 0.5).
    @inlinable @inline(__always)
    static func nearest<E: EdgeRule>(_: E.Type, _ src: SampleSource, _ u: Int32, _ v: Int32) -> UInt32 {
        E.fetch(src, u &>> 16, v &>> 16)
    }

    /// Public entry to the reference bilinear sampler, for tests: `point` in
    /// image pixel space (16.16 of `point − 0.5` is what is sampled).
    public static func referenceBilinear(_ src: SampleSource, sx: Fixed16, sy: Fixed16, edge: ImageEdge) -> UInt32 {
        switch edge {
        case .transparent: return bilinear(TransparentEdge.self, src, sx.raw, sy.raw)
        case .clamp: return bilinear(ClampEdge.self, src, sx.raw, sy.raw)
        }
    }

    /// `a·(256 − f) + b·f`, rounded, per channel (`f` in 0…256): the blend
    /// of two mip levels.
    @inlinable @inline(__always)
    public static func lerp(_ a: UInt32, _ b: UInt32, _ f: UInt32) -> UInt32 {
        let m: UInt32 = 0x00FF_00FF, g = 256 &- f
        let rb = (a & m) &* g &+ (b & m) &* f &+ 0x0080_0080
        let ag = ((a &>> 8) & m) &* g &+ ((b &>> 8) & m) &* f &+ 0x0080_0080
        return ((rb &>> 8) & m) | (ag & 0xFF00_FF00)
    }

    // MARK: Affine rows

    /// Image coordinates handled in 16.16 lie in this box; farther points
    /// are outside every image (sides ≤ 16384), so they are transparent, or
    /// with clamping are moved into the box, which does not change what they
    /// sample.
    @usableFromInline static let safeLow = -8192.0, safeHigh = 24576.0

    /// Bilinear samples at `point − bilinearShift`: the 0.5 to texel-centre
    /// coordinates, less half a weight step (1/512), so that the weights,
    /// which truncate the position to 1/256 texel, in effect round it. This
    /// halves the position error at no cost per pixel.
    public static let bilinearShift = 0.5 - 1.0 / 512

    public enum Filter: Sendable { case nearest, bilinear }

    /// Samples `count` destination pixels whose image-space points are
    /// `start + i·step` (points, not shifted by 0.5), into `dst`.
    /// - Complexity: O(count), no allocation.
    public static func affineRow(_ src: SampleSource, filter: Filter, edge: ImageEdge,
                                 start: (x: Double, y: Double), step: (x: Double, y: Double),
                                 count: Int, into dst: UnsafeMutablePointer<UInt32>, family: KernelFamily) {
        switch (filter, edge) {
        case (.nearest, .transparent): affineRow(TransparentEdge.self, bilinear: false, src, start, step, count, dst, family)
        case (.nearest, .clamp): affineRow(ClampEdge.self, bilinear: false, src, start, step, count, dst, family)
        case (.bilinear, .transparent): affineRow(TransparentEdge.self, bilinear: true, src, start, step, count, dst, family)
        case (.bilinear, .clamp): affineRow(ClampEdge.self, bilinear: true, src, start, step, count, dst, family)
        }
    }

    @inline(__always)
    static func affineRow<E: EdgeRule>(_ edge: E.Type, bilinear isBilinear: Bool, _ src: SampleSource,
                                       _ start: (x: Double, y: Double), _ step: (x: Double, y: Double),
                                       _ count: Int, _ dst: UnsafeMutablePointer<UInt32>, _ family: KernelFamily) {
        guard count > 0 else { return }
        if src.isEmpty { dst.update(repeating: 0, count: count); return }
        let shift = isBilinear ? bilinearShift : 0.0
        let sx = start.x - shift, sy = start.y - shift
        // The pixels whose point lies in the safe box (Liang–Barsky, shrunk
        // by one pixel at each end so rounding cannot leave the box).
        var lo = 0, hi = count
        clipToBox(sx, step.x, count, &lo, &hi)
        clipToBox(sy, step.y, count, &lo, &hi)
        // Outside the box: transparent, or clamped into the box.
        func outside(_ i: Int) -> UInt32 {
            if E.isTransparent { return 0 }
            let di = Double(i)
            let u = Fixed16(clampToBox(sx + di * step.x)).raw, v = Fixed16(clampToBox(sy + di * step.y)).raw
            return isBilinear ? bilinear(E.self, src, u, v) : nearest(E.self, src, u, v)
        }
        var i = 0
        while i < lo { dst[i] = outside(i); i &+= 1 }
        if lo < hi {
            let u0 = Fixed16(sx + Double(lo) * step.x).raw, v0 = Fixed16(sy + Double(lo) * step.y).raw
            let du = Fixed16(step.x).raw, dv = Fixed16(step.y).raw
            let n = hi &- lo, d = dst + lo
            if isBilinear {
                if family == .simd && simdAddressable(src) {
                    bilinearRowSIMD(E.self, src, u0, v0, du, dv, n, d)
                } else {
                    bilinearRowReference(E.self, src, u0, v0, du, dv, n, d)
                }
            } else {
                var u = u0, v = v0, k = 0
                while k < n { d[k] = nearest(E.self, src, u, v); u &+= du; v &+= dv; k &+= 1 }
            }
        }
        i = Swift.max(hi, lo)
        while i < count { dst[i] = outside(i); i &+= 1 }
    }

    @inline(__always)
    static func clampToBox(_ v: Double) -> Double {
        v < safeLow ? safeLow : (v > safeHigh ? safeHigh : v)
    }

    /// Narrows [lo, hi) to the indices i with `start + i·step` inside the
    /// safe box, less one pixel of margin at each end.
    @inline(__always)
    static func clipToBox(_ start: Double, _ step: Double, _ count: Int, _ lo: inout Int, _ hi: inout Int) {
        let low = safeLow + 1, high = safeHigh - 1
        if step == 0 {
            if !(start >= low && start <= high) { hi = lo }
            return
        }
        var a = (low - start) / step, b = (high - start) / step
        if a > b { swap(&a, &b) }
        let first = FloatMath.ceil(a) + 1, last = FloatMath.floor(b) - 1       // inclusive, with margin
        if !(first <= last) { hi = lo; return }
        if first > Double(lo) { lo = first >= Double(count) ? count : Int(first) }
        if last + 1 < Double(hi) { hi = last + 1 <= 0 ? 0 : Int(last + 1) }
        if hi < lo { hi = lo }
    }

    /// True when every texel offset `y·rowStride + x` of the source fits in
    /// an `Int32` lane.
    @inline(__always)
    static func simdAddressable(_ src: SampleSource) -> Bool {
        Int(src.y1) &+ 1 <= Int(Int32.max) / Swift.max(src.rowStride &+ 1, 1)
    }

    /// The reference bilinear row: one pixel at a time through `bilinear`.
    @inline(__always)
    static func bilinearRowReference<E: EdgeRule>(_: E.Type, _ src: SampleSource, _ u0: Int32, _ v0: Int32,
                                                  _ du: Int32, _ dv: Int32, _ n: Int, _ dst: UnsafeMutablePointer<UInt32>) {
        var u = u0, v = v0, k = 0
        while k < n {
            dst[k] = bilinear(E.self, src, u, v)
            u &+= du; v &+= dv; k &+= 1
        }
    }

    /// The SIMD bilinear row. The row splits into intervals of `k`, found
    /// exactly in integers from the same 16.16 positions `u0 + k·du` that
    /// the reference steps through, so the output is identical to
    /// `bilinearRowReference`:
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

    // MARK: Projective rows

    /// Samples `count` pixels under a projective map: destination pixel
    /// centre `(x + i + 0.5, y + 0.5)` maps through `inverse` to homogeneous
    /// `(X, Y, W)`, the image point is `(X/W, Y/W)` times `scale` (for mip
    /// levels), divided per pixel (perspective-correct). `W ≤ 0` is behind
    /// the eye: transparent. One loop serves both kernel families.
    public static func projectiveRow(_ src: SampleSource, filter: Filter, edge: ImageEdge, inverse m: ProjectiveTransform,
                                     x: Int, y: Int, scale: Double, count: Int, into dst: UnsafeMutablePointer<UInt32>) {
        switch (filter, edge) {
        case (.nearest, .transparent): projectiveRow(TransparentEdge.self, false, src, m, x, y, scale, count, dst)
        case (.nearest, .clamp): projectiveRow(ClampEdge.self, false, src, m, x, y, scale, count, dst)
        case (.bilinear, .transparent): projectiveRow(TransparentEdge.self, true, src, m, x, y, scale, count, dst)
        case (.bilinear, .clamp): projectiveRow(ClampEdge.self, true, src, m, x, y, scale, count, dst)
        }
    }

    @inline(__always)
    static func projectiveRow<E: EdgeRule>(_: E.Type, _ isBilinear: Bool, _ src: SampleSource, _ m: ProjectiveTransform,
                                           _ x: Int, _ y: Int, _ scale: Double, _ count: Int, _ dst: UnsafeMutablePointer<UInt32>) {
        if src.isEmpty { dst.update(repeating: 0, count: count); return }
        let px = Double(x) + 0.5, py = Double(y) + 0.5
        let X0 = m.m00 * px + m.m01 * py + m.m02
        let Y0 = m.m10 * px + m.m11 * py + m.m12
        let W0 = m.m20 * px + m.m21 * py + m.m22
        let shift = isBilinear ? bilinearShift : 0.0
        var i = 0
        while i < count {
            let di = Double(i)
            let w = W0 + di * m.m20
            if w > 0 {
                let uu = clampToBox((X0 + di * m.m00) / w * scale - shift)
                let vv = clampToBox((Y0 + di * m.m10) / w * scale - shift)
                let u = Fixed16(uu).raw, v = Fixed16(vv).raw
                dst[i] = isBilinear ? bilinear(E.self, src, u, v) : nearest(E.self, src, u, v)
            } else {
                dst[i] = 0
            }
            i &+= 1
        }
    }
}
