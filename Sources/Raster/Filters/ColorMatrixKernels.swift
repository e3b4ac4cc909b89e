/// A `ColorMatrix` in the fixed point the kernels use.
///
/// Coefficients are Q16 (65536 = 1) after clamping to
/// `−coefficientLimit…coefficientLimit` (NaN counts as 0); offsets are
/// the same clamp times 255, Q16. With channels of at most 255 a row's sum
/// stays below 5 · 16 · 255 · 2¹⁶ ≈ 1.34 · 10⁹ < 2³¹, so nothing overflows
/// an `Int32`. Rounding a coefficient to Q16 moves a result by at most
/// 4 · 255 / 2¹⁷ ≈ 0.008 of a level.
public struct ColorMatrixPlan: Equatable, Sendable {
    /// Row-major: element `4·i + j` is input channel j (R, G, B, A) in
    /// output channel i (R, G, B, A). Q16.
    public let coefficients: SIMD16<Int32>
    /// Offset of output channel i (R, G, B, A) in levels, Q16, with the
    /// rounding half (2¹⁵) added.
    public let offsets: SIMD4<Int32>
    /// The matrix is the identity: applying it would change nothing (but
    /// invalid pixels, colour above alpha, which it clamps).
    public let isIdentity: Bool

    /// Largest magnitude of a coefficient or offset honoured.
    public static let coefficientLimit = 16.0

    public init(_ m: ColorMatrix) {
        /// Clamped, Q16, rounded half away from zero (by truncation, no libm).
        func q16(_ v: Double, times k: Double = 1) -> Int32 {
            var x = v.isNaN ? 0 : v
            x = x < -ColorMatrixPlan.coefficientLimit ? -ColorMatrixPlan.coefficientLimit
                : (x > ColorMatrixPlan.coefficientLimit ? ColorMatrixPlan.coefficientLimit : x)
            let scaled = x * k * 65536
            return Int32(scaled < 0 ? scaled - 0.5 : scaled + 0.5)
        }
        var c = SIMD16<Int32>()
        var j = 0
        while j < 4 {
            c[j] = q16(m.red[j]); c[4 &+ j] = q16(m.green[j]); c[8 &+ j] = q16(m.blue[j]); c[12 &+ j] = q16(m.alpha[j])
            j &+= 1
        }
        coefficients = c
        offsets = SIMD4(q16(m.offset.x, times: 255), q16(m.offset.y, times: 255), q16(m.offset.z, times: 255),
                        q16(m.offset.w, times: 255)) &+ 0x8000
        isIdentity = c == SIMD16(65536, 0, 0, 0, 0, 65536, 0, 0, 0, 0, 65536, 0, 0, 0, 0, 65536)
            && offsets == SIMD4(repeating: 0x8000)
    }
}

/// Applies a `ColorMatrixPlan` to premultiplied ARGB8888 pixels in place:
/// unpremultiply, multiply, clamp, premultiply. Per pixel, in integers:
///
///     a = A;  C = min(C, a)                        (a colour above alpha is clamped)
///     u_C = ⌊(510 · C + a) / 2a⌋ = round(255 · C / a), halves up; 0 when a = 0
///     v_i = clamp₀²⁵⁵((Σ_j m_ij · u_j + o_i + 2¹⁵) >> 16)     (u_A = a; >> is floor)
///     A' = v_A;  C' = div255(v_C · v_A)
///
/// A transparent pixel unpremultiplies to transparent black, so an alpha
/// offset makes it visible (as in SVG). Example: `0x80402010` (a = 128)
/// unpremultiplies to (128, 64, 32), halves up (`64·255/128 = 127.5` → 128).
///
/// Both families give the same bits: `.reference` runs the formula above a
/// pixel at a time, dividing; `.simd` runs eight pixels a step in
/// `SIMD8<Int32>` lanes and unpremultiplies without dividing, as
/// `(C · f(a) + 2¹⁵) >> 16` with f from a 256-entry table of reciprocals
/// chosen when it is built so that this equals the division for every
/// C ≤ a (`unpremultiplyFactors`; a plain ⌊255·2¹⁶/a⌋ rounds some halves
/// down, e.g. a = 150, C = 5), the tail padded. Eight, not sixteen: the
/// 32-byte vector types lower to straight NEON in the `-Osize` board build,
/// the 64-byte ones may not (see `PixelPairs8`), and the four planar
/// channels with twenty broadcast coefficients already fill the register
/// file. Measured on the x86-64 host, 1920×1080: 10.4 ms, the reference
/// 18.3 (SSE2 has no 32-bit lane multiply; NEON's `mul.4s` does it in
/// one; the aarch64 code has not been inspected yet).
public enum ColorMatrixKernels {
    /// Applies `plan` to every pixel of `view` (nothing outside it is read
    /// or written). An identity plan returns at once.
    ///
    /// - Complexity: O(width · height); allocates nothing (the factor
    ///   table is made once per process).
    public static func apply(_ plan: ColorMatrixPlan, to view: PixelView<ARGB8888>, family: KernelFamily = .simd) {
        guard !plan.isIdentity, view.width > 0, view.height > 0 else { return }
        switch family {
        case .reference:
            var y = 0
            while y < view.height { referenceRow(view.row(y), view.width, plan); y &+= 1 }
        case .simd:
            let lanes = BroadcastPlan(plan)
            unpremultiplyFactors.withUnsafeBufferPointer { table in
                guard let factors = table.baseAddress else { return }
                var y = 0
                while y < view.height { simdRow(view.row(y), view.width, lanes, factors); y &+= 1 }
            }
        }
    }

    /// `u_C` of the type comment: the channel `c` premultiplied by `a`
    /// back to 0…255 (`c ≤ a`), by division.
    @inline(__always) static func unpremultiplied(_ c: UInt32, _ a: UInt32) -> UInt32 {
        a == 0 ? 0 : (510 &* c &+ a) / (2 &* a)
    }

    /// For each alpha a, the Q16 reciprocal f with
    /// `(c · f + 2¹⁵) >> 16 == unpremultiplied(c, a)` for every c in 0…a:
    /// the first such f from ⌊255·2¹⁶/a⌋ − 2 up, checked exhaustively when
    /// the table is built (one exists within +5 for every a; if none did,
    /// the build traps, caught by the tests). f(0) = 0. `c · f + 2¹⁵`
    /// stays below 2³² (a·f ≤ 255·2¹⁶ + 5a).
    static let unpremultiplyFactors: [UInt32] = {
        var t = [UInt32](repeating: 0, count: 256)
        var a: UInt32 = 1
        while a < 256 {
            var f = ((255 &<< 16) / a) &- 2
            while true {
                var c: UInt32 = 0
                while c <= a && (c &* f &+ 0x8000) &>> 16 == unpremultiplied(c, a) { c &+= 1 }
                if c > a { break }
                f &+= 1
                precondition(f <= ((255 &<< 16) / a) &+ 5, "ColorMatrixKernels: no exact reciprocal")
            }
            t[Int(a)] = f
            a &+= 1
        }
        return t
    }()

    // MARK: Reference

    static func referenceRow(_ p: UnsafeMutablePointer<UInt32>, _ count: Int, _ plan: ColorMatrixPlan) {
        var x = 0
        while x < count { p[x] = referencePixel(p[x], plan); x &+= 1 }
    }

    /// One pixel through the formula of the type comment.
    static func referencePixel(_ pixel: UInt32, _ plan: ColorMatrixPlan) -> UInt32 {
        let a = pixel &>> 24
        func channel(_ shift: UInt32) -> Int32 {
            Int32(truncatingIfNeeded: unpremultiplied(Swift.min((pixel &>> shift) & 0xFF, a), a))
        }
        let u = SIMD4<Int32>(channel(16), channel(8), channel(0), Int32(truncatingIfNeeded: a))
        let m = plan.coefficients, o = plan.offsets
        func output(_ i: Int) -> UInt32 {
            let s = m[4 &* i] &* u[0] &+ m[4 &* i &+ 1] &* u[1] &+ m[4 &* i &+ 2] &* u[2] &+ m[4 &* i &+ 3] &* u[3] &+ o[i]
            let v = s &>> 16
            return UInt32(truncatingIfNeeded: v < 0 ? 0 : (v > 255 ? 255 : v))
        }
        let va = output(3)
        return va &<< 24 | div255(output(0) &* va) &<< 16 | div255(output(1) &* va) &<< 8 | div255(output(2) &* va)
    }

    // MARK: SIMD

    typealias Lanes = SIMD8<Int32>
    typealias ULanes = SIMD8<UInt32>

    /// The plan's coefficients and offsets, each broadcast to eight lanes
    /// once per `apply`.
    struct BroadcastPlan {
        let rr, rg, rb, ra, gr, gg, gb, ga, br, bg, bb, ba, ar, ag, ab, aa: Lanes
        let or, og, ob, oa: Lanes
        init(_ plan: ColorMatrixPlan) {
            let m = plan.coefficients, o = plan.offsets
            rr = Lanes(repeating: m[0]); rg = Lanes(repeating: m[1]); rb = Lanes(repeating: m[2]); ra = Lanes(repeating: m[3])
            gr = Lanes(repeating: m[4]); gg = Lanes(repeating: m[5]); gb = Lanes(repeating: m[6]); ga = Lanes(repeating: m[7])
            br = Lanes(repeating: m[8]); bg = Lanes(repeating: m[9]); bb = Lanes(repeating: m[10]); ba = Lanes(repeating: m[11])
            ar = Lanes(repeating: m[12]); ag = Lanes(repeating: m[13]); ab = Lanes(repeating: m[14]); aa = Lanes(repeating: m[15])
            or = Lanes(repeating: o[0]); og = Lanes(repeating: o[1]); ob = Lanes(repeating: o[2]); oa = Lanes(repeating: o[3])
        }
    }

    static func simdRow(_ p: UnsafeMutablePointer<UInt32>, _ count: Int, _ plan: BroadcastPlan, _ factors: UnsafePointer<UInt32>) {
        var x = 0
        while x &+ 8 <= count {
            let v = UnsafeRawPointer(p + x).loadUnaligned(as: ULanes.self)
            UnsafeMutableRawPointer(p + x).storeBytes(of: chunk(v, plan, factors), as: ULanes.self)
            x &+= 8
        }
        guard x < count else { return }
        // The tail through the same arithmetic, padded with zeros.
        var v = ULanes()
        var i = 0
        while x &+ i < count { v[i] = p[x &+ i]; i &+= 1 }
        let out = chunk(v, plan, factors)
        i = 0
        while x &+ i < count { p[x &+ i] = out[i]; i &+= 1 }
    }

    /// Eight pixels through the formula of the type comment.
    @inline(__always)
    static func chunk(_ v: ULanes, _ m: BroadcastPlan, _ factors: UnsafePointer<UInt32>) -> ULanes {
        let byte = ULanes(repeating: 0xFF)
        let a = v &>> 24
        let ua = unsafeBitCast(a, to: Lanes.self)
        @inline(__always) func belowAlpha(_ c: ULanes) -> ULanes { c.replacing(with: a, where: c .> a) }
        let r = belowAlpha((v &>> 16) & byte), g = belowAlpha((v &>> 8) & byte), b = belowAlpha(v & byte)
        // The reciprocal of each lane's alpha: a gather, one load a lane.
        let f = ULanes(factors[Int(a[0])], factors[Int(a[1])], factors[Int(a[2])], factors[Int(a[3])],
                       factors[Int(a[4])], factors[Int(a[5])], factors[Int(a[6])], factors[Int(a[7])])
        let half = ULanes(repeating: 0x8000)
        let ur = unsafeBitCast((r &* f &+ half) &>> 16, to: Lanes.self)
        let ug = unsafeBitCast((g &* f &+ half) &>> 16, to: Lanes.self)
        let ub = unsafeBitCast((b &* f &+ half) &>> 16, to: Lanes.self)
        let top = Lanes(repeating: 255)
        // The clamps by sign masks, not `replacing(with:where:)`: on these
        // signed lanes that built its `SIMDMask` lane by lane through the
        // stack, and the kernel ran 6× slower than the scalar reference
        // (x86-64, 1920×1080: 110 ms against 18; now 10.4). (Spelled with
        // `pointwiseMin` for `belowAlpha`, or with `~`, this function crashed
        // IRGen in Swift 6.3.1.)
        @inline(__always) func output(_ cr: Lanes, _ cg: Lanes, _ cb: Lanes, _ ca: Lanes, _ o: Lanes) -> ULanes {
            var s = (cr &* ur &+ cg &* ug &+ cb &* ub &+ ca &* ua &+ o) &>> 16
            s = s &- (s & (s &>> 31))             // max(s, 0)
            let over = top &- s
            s = s &+ (over & (over &>> 31))       // min(s, 255)
            return unsafeBitCast(s, to: ULanes.self)
        }
        let va = output(m.ar, m.ag, m.ab, m.aa, m.oa)
        let vr = output(m.rr, m.rg, m.rb, m.ra, m.or)
        let vg = output(m.gr, m.gg, m.gb, m.ga, m.og)
        let vb = output(m.br, m.bg, m.bb, m.ba, m.ob)
        @inline(__always) func premultiplied(_ c: ULanes) -> ULanes {
            // div255 (Div255.swift) on 32-bit lanes: products ≤ 65025.
            let t = c &* va &+ 128
            return (t &+ (t &>> 8)) &>> 8
        }
        return va &<< 24 | premultiplied(vr) &<< 16 | premultiplied(vg) &<< 8 | premultiplied(vb)
    }
}
