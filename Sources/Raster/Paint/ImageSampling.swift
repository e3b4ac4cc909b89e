// Sampling of premultiplied ARGB8888 images: the per-pixel reference
// samplers (nearest, bilinear), the reference row loops under an affine and
// a projective map, and the two-level blend that makes trilinear filtering.
// The SIMD row loops, bit-identical to these, are in ImageSampling+SIMD.swift.
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

/// The sampling arithmetic: scalar reference here, SIMD in
/// `ImageSampling+SIMD.swift`.
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

    /// `a[i] = lerp(a[i], b[i], f)` for `i` in `0 ..< count`: the blend of
    /// two mip levels' rows. `.simd` 8 pixels at a time (`lerp8`), the
    /// rest and `.reference` one at a time; the same bits.
    /// - Complexity: O(count), no allocation.
    public static func lerpRow(_ a: UnsafeMutablePointer<UInt32>, _ b: UnsafePointer<UInt32>, _ f: UInt32, count: Int,
                               family: KernelFamily) {
        var i = 0
        if family == .simd {
            let f16 = Channels16(repeating: UInt16(truncatingIfNeeded: f))
            while i &+ 8 <= count {
                store8(lerp8(load8(a + i), load8(b + i), f16), a + i)
                i &+= 8
            }
        }
        while i < count { a[i] = lerp(a[i], b[i], f); i &+= 1 }
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
    ///
    /// `family` picks the row loops once per call: `.simd` the 8- and
    /// 16-lane loops of `ImageSampling+SIMD.swift`, `.reference` one pixel
    /// at a time through `bilinear` and `nearest`. Both write the same bits.
    /// - Complexity: O(count), no allocation.
    public static func affineRow(_ src: SampleSource, filter: Filter, edge: ImageEdge,
                                 start: (x: Double, y: Double), step: (x: Double, y: Double),
                                 count: Int, into dst: UnsafeMutablePointer<UInt32>, family: KernelFamily) {
        let isBilinear = filter == .bilinear
        switch (edge, family) {
        case (.transparent, .simd): affineRow(TransparentEdge.self, bilinear: isBilinear, src, start, step, count, dst)
        case (.clamp, .simd): affineRow(ClampEdge.self, bilinear: isBilinear, src, start, step, count, dst)
        case (.transparent, .reference): affineRowReference(TransparentEdge.self, bilinear: isBilinear, src, start, step, count, dst)
        case (.clamp, .reference): affineRowReference(ClampEdge.self, bilinear: isBilinear, src, start, step, count, dst)
        }
    }

    /// How an affine row splits: its start less the filter's shift, in
    /// image pixels, and the pixels `lo ..< hi` whose point lies in the safe
    /// box (the others are `affineOutside`).
    struct AffineRowPlan {
        var sx: Double, sy: Double
        var lo: Int, hi: Int
    }

    @inline(__always)
    static func affinePlan(bilinear isBilinear: Bool, _ start: (x: Double, y: Double), _ step: (x: Double, y: Double),
                           _ count: Int) -> AffineRowPlan {
        let shift = isBilinear ? bilinearShift : 0.0
        let sx = start.x - shift, sy = start.y - shift
        // Every row of an image drawn on screen: the points one step before
        // the first and after the last (and 2 texels more, far beyond any
        // rounding of these doubles) are inside the shrunk box, so the
        // clipping would keep the whole row. Skipping it saves its four
        // divisions per row (`ImageSamplerSIMDTests` checks that the plans
        // agree).
        let last = Double(count &- 1)
        let ex = sx + last * step.x, ey = sy + last * step.y
        let mx = Swift.abs(step.x) + 2, my = Swift.abs(step.y) + 2
        let low = safeLow + 1, high = safeHigh - 1
        if Swift.min(sx, ex) - mx >= low, Swift.max(sx, ex) + mx <= high,
           Swift.min(sy, ey) - my >= low, Swift.max(sy, ey) + my <= high {
            return AffineRowPlan(sx: sx, sy: sy, lo: 0, hi: count)
        }
        return clippedPlan(sx, sy, step, count)
    }

    /// The plan of a row from `(sx, sy)` (already shifted): Liang–Barsky,
    /// shrunk by one pixel at each end so rounding cannot leave the box.
    @inline(never)
    static func clippedPlan(_ sx: Double, _ sy: Double, _ step: (x: Double, y: Double), _ count: Int) -> AffineRowPlan {
        var lo = 0, hi = count
        clipToBox(sx, step.x, count, &lo, &hi)
        clipToBox(sy, step.y, count, &lo, &hi)
        return AffineRowPlan(sx: sx, sy: sy, lo: lo, hi: hi)
    }

    /// Pixels `from ..< to` of a row whose point lies outside the safe box:
    /// transparent, or clamped into the box. Rare (points more than 8192
    /// texels from the image). The reference rows' loop; the SIMD rows run
    /// `affineOutside8`, the same bits 8 pixels at a time.
    @inline(__always)
    static func affineOutside<E: EdgeRule>(_: E.Type, bilinear isBilinear: Bool, _ src: SampleSource, _ plan: AffineRowPlan,
                                           _ step: (x: Double, y: Double), _ from: Int, _ to: Int,
                                           _ dst: UnsafeMutablePointer<UInt32>) {
        guard from < to else { return }
        if E.isTransparent { (dst + from).update(repeating: 0, count: to &- from); return }
        var i = from
        while i < to {
            let di = Double(i)
            let u = Fixed16(clampToBox(plan.sx + di * step.x)).raw, v = Fixed16(clampToBox(plan.sy + di * step.y)).raw
            dst[i] = isBilinear ? bilinear(E.self, src, u, v) : nearest(E.self, src, u, v)
            i &+= 1
        }
    }

    /// The reference affine row: one pixel at a time, the 16.16 position
    /// stepped by `du`, `dv` in wrapping `Int32`. The oracle of the SIMD
    /// row; kept out of line so the aarch64 code report shows it apart.
    @inline(never)
    static func affineRowReference<E: EdgeRule>(_ edge: E.Type, bilinear isBilinear: Bool, _ src: SampleSource,
                                                _ start: (x: Double, y: Double), _ step: (x: Double, y: Double),
                                                _ count: Int, _ dst: UnsafeMutablePointer<UInt32>) {
        guard count > 0 else { return }
        if src.isEmpty { dst.update(repeating: 0, count: count); return }
        let plan = affinePlan(bilinear: isBilinear, start, step, count)
        affineOutside(E.self, bilinear: isBilinear, src, plan, step, 0, plan.lo, dst)
        if plan.lo < plan.hi {
            var u = Fixed16(plan.sx + Double(plan.lo) * step.x).raw, v = Fixed16(plan.sy + Double(plan.lo) * step.y).raw
            let du = Fixed16(step.x).raw, dv = Fixed16(step.y).raw
            var k = plan.lo
            if isBilinear {
                while k < plan.hi { dst[k] = bilinear(E.self, src, u, v); u &+= du; v &+= dv; k &+= 1 }
            } else {
                while k < plan.hi { dst[k] = nearest(E.self, src, u, v); u &+= du; v &+= dv; k &+= 1 }
            }
        }
        affineOutside(E.self, bilinear: isBilinear, src, plan, step, Swift.max(plan.hi, plan.lo), count, dst)
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

    // MARK: Projective rows

    /// Samples `count` pixels under a projective map: destination pixel
    /// centre `(x + i + 0.5, y + 0.5)` maps through `inverse` to homogeneous
    /// `(X, Y, W)`, the image point is `(X/W, Y/W)` times `scale` (for mip
    /// levels), divided per pixel (perspective-correct). `W ≤ 0` is behind
    /// the eye: transparent. `family` picks the row loop once per call, as
    /// for `affineRow`; both write the same bits.
    /// - Complexity: O(count), no allocation.
    public static func projectiveRow(_ src: SampleSource, filter: Filter, edge: ImageEdge, inverse m: ProjectiveTransform,
                                     x: Int, y: Int, scale: Double, count: Int, into dst: UnsafeMutablePointer<UInt32>,
                                     family: KernelFamily) {
        switch (edge, family) {
        case (.transparent, .reference): projectiveRowReference(TransparentEdge.self, filter == .bilinear, src, m, x, y, scale, count, dst)
        case (.clamp, .reference): projectiveRowReference(ClampEdge.self, filter == .bilinear, src, m, x, y, scale, count, dst)
        case (_, .simd):
            withUnsafeTemporaryAllocation(byteCount: scratchBytes, alignment: 16) { buffer in
                let scratch = buffer.baseAddress!
                switch edge {
                case .transparent: projectiveRow(TransparentEdge.self, bilinear: filter == .bilinear, src, m, x, y, scale, count, dst, scratch)
                case .clamp: projectiveRow(ClampEdge.self, bilinear: filter == .bilinear, src, m, x, y, scale, count, dst, scratch)
                }
            }
        }
    }

    /// `(X, Y, W)` of the centre of pixel (`x`, `y`) under `m`; pixel
    /// `x + i` of the row adds `i·(m00, m10, m20)`.
    @inline(__always)
    static func projectiveOrigin(_ m: ProjectiveTransform, _ x: Int, _ y: Int) -> (X: Double, Y: Double, W: Double) {
        let px = Double(x) + 0.5, py = Double(y) + 0.5
        return (m.m00 * px + m.m01 * py + m.m02, m.m10 * px + m.m11 * py + m.m12, m.m20 * px + m.m21 * py + m.m22)
    }

    /// The reference projective row, one pixel at a time: the oracle of
    /// the SIMD row, whose lanes repeat this arithmetic operation for
    /// operation. Out of line so the aarch64 code report shows it apart.
    @inline(never)
    static func projectiveRowReference<E: EdgeRule>(_: E.Type, _ isBilinear: Bool, _ src: SampleSource, _ m: ProjectiveTransform,
                                                    _ x: Int, _ y: Int, _ scale: Double, _ count: Int,
                                                    _ dst: UnsafeMutablePointer<UInt32>) {
        if src.isEmpty { dst.update(repeating: 0, count: count); return }
        let (X0, Y0, W0) = projectiveOrigin(m, x, y)
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
