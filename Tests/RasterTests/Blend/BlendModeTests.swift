import XCTest
import Raster
import TestSupport

// MARK: Shared fixtures

/// A random A8 coverage row with runs of 0 and 255 (longer than a chunk, so
/// the skip and store shortcuts run) between runs of partial coverage.
func randomMask(_ n: Int, _ rng: inout SplitMix64) -> [UInt8] {
    var m = [UInt8](repeating: 0, count: n)
    var i = 0
    while i < n {
        let run = 1 + rng.below(40), kind = rng.below(4)
        for j in i..<min(n, i + run) {
            m[j] = kind == 0 ? 0 : kind == 1 ? 255 : UInt8(truncatingIfNeeded: rng.next())
        }
        i += run
    }
    return m
}

/// Fills a span with random premultiplied pixels: a quarter transparent, a
/// quarter opaque, the rest anything (or all opaque).
func fillRandomPixels(_ p: UnsafeMutablePointer<UInt32>, _ n: Int, _ rng: inout SplitMix64, opaque: Bool = false) {
    for i in 0..<n {
        if opaque { p[i] = rng.premultipliedColor().argb | 0xFF00_0000; continue }
        switch rng.below(4) {
        case 0: p[i] = 0
        case 1: p[i] = rng.premultipliedColor().argb | 0xFF00_0000
        default: p[i] = rng.premultipliedColor().argb
        }
    }
}

/// The W3C formulas in double precision on channels in 0…1, the oracle for
/// every operator. `c` is the coverage: `lerp(D, op(S, D), c)`, except for
/// `plus`, `op(S·c, D)` (they differ only where `plus` saturates).
func floatComposite(_ op: BlendOperator, _ s: UInt32, _ d: UInt32, coverage c: Double = 1) -> [Double] {
    let scaleSource = op == .plus
    func ch(_ p: UInt32, _ shift: UInt32) -> Double { Double((p >> shift) & 0xFF) / 255 }
    let k = scaleSource ? c : 1
    let sa = ch(s, 24) * k, da = ch(d, 24)
    var out = [Double]()
    for shift: UInt32 in [24, 16, 8, 0] {
        let sc = ch(s, shift) * k, dc = ch(d, shift), isAlpha = shift == 24
        var r: Double
        switch op {
        case .clear: r = 0
        case .src: r = sc
        case .dst: r = dc
        case .srcOver: r = sc + dc * (1 - sa)
        case .dstOver: r = dc + sc * (1 - da)
        case .srcIn: r = sc * da
        case .dstIn: r = dc * sa
        case .srcOut: r = sc * (1 - da)
        case .dstOut: r = dc * (1 - sa)
        case .srcAtop: r = sc * da + dc * (1 - sa)
        case .dstAtop: r = dc * sa + sc * (1 - da)
        case .xor: r = sc * (1 - da) + dc * (1 - sa)
        case .plus: r = min(1, sc + dc)
        default:
            if isAlpha { r = sa + da - sa * da; break }
            let cs = sa > 0 ? sc / sa : 0, cb = da > 0 ? dc / da : 0
            let b: Double
            if op.isNonSeparable {
                func colour(_ p: UInt32, _ a: Double) -> [Double] {
                    a > 0 ? [ch(p, 16) * k / a, ch(p, 8) * k / a, ch(p, 0) * k / a] : [0, 0, 0]
                }
                b = nonSeparableBlend(op, colour(s, sa), colour(d, da))[(16 - Int(shift)) / 8]
            } else {
                b = blendFunction(op, cs, cb)
            }
            r = sc * (1 - da) + dc * (1 - sa) + sa * da * b
        }
        out.append(scaleSource ? r : dc * (1 - c) + r * c)
    }
    return out
}

/// W3C Compositing and Blending Level 1, §5.3 (separable blend modes).
func blendFunction(_ op: BlendOperator, _ cs: Double, _ cb: Double) -> Double {
    func hardLight(_ cs: Double, _ cb: Double) -> Double {
        cs <= 0.5 ? cb * 2 * cs : { let s = 2 * cs - 1; return cb + s - cb * s }()
    }
    switch op {
    case .multiply: return cs * cb
    case .screen: return cs + cb - cs * cb
    case .overlay: return hardLight(cb, cs)
    case .darken: return min(cs, cb)
    case .lighten: return max(cs, cb)
    case .colorDodge: return cb == 0 ? 0 : cs >= 1 ? 1 : min(1, cb / (1 - cs))
    case .colorBurn: return cb >= 1 ? 1 : cs == 0 ? 0 : 1 - min(1, (1 - cb) / cs)
    case .hardLight: return hardLight(cs, cb)
    case .softLight:
        if cs <= 0.5 { return cb - (1 - 2 * cs) * cb * (1 - cb) }
        let dd = cb <= 0.25 ? ((16 * cb - 12) * cb + 4) * cb : cb.squareRoot()
        return cb + (2 * cs - 1) * (dd - cb)
    case .difference: return abs(cs - cb)
    case .exclusion: return cs + cb - 2 * cs * cb
    default: fatalError("not a blend mode")
    }
}

/// W3C Compositing and Blending Level 1, §5.8 (non-separable blend modes),
/// written out from the specification's pseudo-code on [R, G, B] arrays.
func nonSeparableBlend(_ op: BlendOperator, _ cs: [Double], _ cb: [Double]) -> [Double] {
    func lum(_ c: [Double]) -> Double { 0.3 * c[0] + 0.59 * c[1] + 0.11 * c[2] }
    func clipColor(_ c: [Double]) -> [Double] {
        let l = lum(c), n = c.min()!, x = c.max()!
        var c = c
        if n < 0 { c = c.map { l + ($0 - l) * l / (l - n) } }
        if x > 1 { c = c.map { l + ($0 - l) * (1 - l) / (x - l) } }
        return c
    }
    func setLum(_ c: [Double], _ l: Double) -> [Double] { let d = l - lum(c); return clipColor(c.map { $0 + d }) }
    func sat(_ c: [Double]) -> Double { c.max()! - c.min()! }
    func setSat(_ c: [Double], _ s: Double) -> [Double] {
        let order = [0, 1, 2].sorted { c[$0] < c[$1] }
        let (lo, mid, hi) = (order[0], order[1], order[2])
        var out = [0.0, 0.0, 0.0]
        if c[hi] > c[lo] {
            out[mid] = (c[mid] - c[lo]) * s / (c[hi] - c[lo])
            out[hi] = s
        }
        return out
    }
    switch op {
    case .hue: return setLum(setSat(cs, sat(cb)), lum(cb))
    case .saturation: return setLum(setSat(cb, sat(cs)), lum(cb))
    case .color: return setLum(cs, lum(cb))
    case .luminosity: return setLum(cb, lum(cs))
    default: fatalError("not a non-separable blend mode")
    }
}

func hexPixel(_ p: UInt32) -> String { "0x" + String(p, radix: 16) }

// MARK: SIMD against the scalar reference

/// Every kernel `KernelTable` can return, in the SIMD family against the
/// reference family: every operator, solid and image sources, opaque or
/// not, no mask / mask, global alpha 255 / partial / tiny; every span
/// length 0…70 and some long ones, unaligned starts, spans ending at a guard
/// page. Results must be bit-identical.
final class CompositeKernelTests: XCTestCase {
    private let lengths = Array(0...70) + [127, 128, 129, 1000]
    private let offsets = [0, 3]
    private let alphas: [UInt32] = [255, 128, 1]

    /// Runs `simd` and `reference` on identical guarded copies of a random
    /// destination and compares; the closures get (dst, src, mask).
    private func compare(_ label: String, n: Int, offset: Int, seed: UInt64, opaqueSource: Bool,
                         simd: (UnsafeMutablePointer<UInt32>, UnsafePointer<UInt32>, UnsafePointer<UInt8>) -> Void,
                         reference: (UnsafeMutablePointer<UInt32>, UnsafePointer<UInt32>, UnsafePointer<UInt8>) -> Void) {
        var rng = SplitMix64(seed: seed)
        let total = n + offset
        let a = GuardedBuffer<UInt32>(count: total), b = GuardedBuffer<UInt32>(count: total)
        let s = GuardedBuffer<UInt32>(count: total), m = GuardedBuffer<UInt8>(count: total)
        fillRandomPixels(a.pointer, total, &rng)
        b.pointer.update(from: a.pointer, count: total)
        fillRandomPixels(s.pointer, total, &rng, opaque: opaqueSource)
        let mask = randomMask(total, &rng)
        for i in 0..<total { m.pointer[i] = mask[i] }
        simd(a.pointer + offset, UnsafePointer(s.pointer + offset), UnsafePointer(m.pointer + offset))
        reference(b.pointer + offset, UnsafePointer(s.pointer + offset), UnsafePointer(m.pointer + offset))
        for i in 0..<total where a.pointer[i] != b.pointer[i] {
            XCTFail("\(label) n=\(n) offset=\(offset) seed=\(seed): pixel \(i - offset) SIMD \(hexPixel(a.pointer[i])) reference \(hexPixel(b.pointer[i]))")
            return
        }
    }

    func testSolidKernelsForEveryOperator() {
        for op in BlendOperator.allCases {
            for alpha in alphas {
                for opaque in [false, true] {
                    for n in lengths {
                        for offset in offsets {
                            let seed = UInt64(n &* 31 &+ offset) ^ UInt64(op.rawValue) << 20 ^ UInt64(alpha) << 32
                            var crng = SplitMix64(seed: ~seed)
                            let color = opaque ? crng.premultipliedColor().argb | 0xFF00_0000 : crng.premultipliedColor().argb
                            let k1 = KernelTable.solid(op, color: color, alpha: alpha, family: .simd)
                            let k2 = KernelTable.solid(op, color: color, alpha: alpha, family: .reference)
                            XCTAssertEqual(k1 == nil, k2 == nil)
                            if let k1, let k2 {
                                compare("solid \(op) alpha=\(alpha) color=\(hexPixel(color))", n: n, offset: offset, seed: seed, opaqueSource: false,
                                        simd: { d, _, _ in k1(d, n, color, alpha) }, reference: { d, _, _ in k2(d, n, color, alpha) })
                            }
                            let m1 = KernelTable.solidMask(op, color: color, alpha: alpha, family: .simd)
                            let m2 = KernelTable.solidMask(op, color: color, alpha: alpha, family: .reference)
                            XCTAssertEqual(m1 == nil, m2 == nil)
                            if let m1, let m2 {
                                compare("solidMask \(op) alpha=\(alpha) color=\(hexPixel(color))", n: n, offset: offset, seed: seed, opaqueSource: false,
                                        simd: { d, _, m in m1(d, m, n, color, alpha) }, reference: { d, _, m in m2(d, m, n, color, alpha) })
                            }
                        }
                    }
                }
            }
        }
    }

    func testImageKernelsForEveryOperator() {
        for op in BlendOperator.allCases {
            for alpha in alphas {
                for opaque in [false, true] {
                    for n in lengths {
                        for offset in offsets {
                            let seed = UInt64(n &* 17 &+ offset) ^ UInt64(op.rawValue) << 24 ^ UInt64(alpha) << 40
                            if let k1 = KernelTable.image(op, alpha: alpha, sourceIsOpaque: opaque, family: .simd),
                               let k2 = KernelTable.image(op, alpha: alpha, sourceIsOpaque: opaque, family: .reference) {
                                compare("image \(op) alpha=\(alpha) opaque=\(opaque)", n: n, offset: offset, seed: seed, opaqueSource: opaque,
                                        simd: { d, s, _ in k1(d, s, n, alpha) }, reference: { d, s, _ in k2(d, s, n, alpha) })
                            } else { XCTAssertEqual(op, .dst) }
                            if let m1 = KernelTable.imageMask(op, alpha: alpha, sourceIsOpaque: opaque, family: .simd),
                               let m2 = KernelTable.imageMask(op, alpha: alpha, sourceIsOpaque: opaque, family: .reference) {
                                compare("imageMask \(op) alpha=\(alpha) opaque=\(opaque)", n: n, offset: offset, seed: seed, opaqueSource: opaque,
                                        simd: { d, s, m in m1(d, s, m, n, alpha) }, reference: { d, s, m in m2(d, s, m, n, alpha) })
                            } else { XCTAssertEqual(op, .dst) }
                        }
                    }
                }
            }
        }
    }

    /// The named per-row entry points the path rasterizer calls.
    func testNamedMaskKernels() {
        for n in lengths {
            for offset in offsets {
                for alpha: UInt32 in [255, 200, 0] {
                    let seed = UInt64(n * 7 + offset) ^ UInt64(alpha) << 16
                    var crng = SplitMix64(seed: seed ^ 0x5EED)
                    for color in [crng.premultipliedColor().argb, crng.premultipliedColor().argb | 0xFF00_0000, 0] {
                        compare("srcOverSolidMask", n: n, offset: offset, seed: seed, opaqueSource: false,
                                simd: { d, _, m in
                                    if alpha == 255 { SIMDKernels.srcOverSolidMask(d, mask: m, n, color: color) } else { SIMDKernels.srcOverSolidMask(d, mask: m, n, color: color, alpha: alpha) }
                                },
                                reference: { d, _, m in
                                    if alpha == 255 { ScalarKernels.srcOverSolidMask(d, mask: m, n, color: color) } else { ScalarKernels.srcOverSolidMask(d, mask: m, n, color: color, alpha: alpha) }
                                })
                    }
                    compare("srcOverMask", n: n, offset: offset, seed: seed, opaqueSource: false,
                            simd: { d, s, m in
                                if alpha == 255 { SIMDKernels.srcOverMask(d, s, mask: m, n) } else { SIMDKernels.srcOverMask(d, s, mask: m, n, alpha: alpha) }
                            },
                            reference: { d, s, m in
                                if alpha == 255 { ScalarKernels.srcOverMask(d, s, mask: m, n) } else { ScalarKernels.srcOverMask(d, s, mask: m, n, alpha: alpha) }
                            })
                }
            }
        }
    }

    /// A mask at 255 everywhere equals no mask; a mask at 0 changes nothing.
    func testMaskShortcutsAreExact() {
        var rng = SplitMix64(seed: 99)
        let n = 77
        for op in BlendOperator.allCases where op != .dst {
            let color = rng.premultipliedColor().argb
            let base = (0..<n).map { _ in rng.premultipliedColor().argb }
            var plain = base, full = base, none = base
            let ones = [UInt8](repeating: 255, count: n), zeros = [UInt8](repeating: 0, count: n)
            if let k = KernelTable.solid(op, color: color, alpha: 255, family: .simd) { k(&plain, n, color, 255) }
            if let k = KernelTable.solidMask(op, color: color, alpha: 255, family: .simd) {
                k(&full, ones, n, color, 255)
                k(&none, zeros, n, color, 255)
            }
            XCTAssertEqual(plain, full, "\(op)")
            XCTAssertEqual(none, base, "\(op)")
        }
    }
}

// MARK: Against the floating-point formulas

/// Every operator of the reference family against `floatComposite` on
/// random premultiplied pixels. Asserted error bounds, in 8-bit levels:
///
/// - Porter–Duff, `plus` and the polynomial blend modes (multiply, screen,
///   overlay, darken, lighten, hardLight, difference, exclusion): ≤ 0.5, i.e.
///   every channel is the correctly rounded exact result (one `div255`).
/// - colorDodge, colorBurn, softLight: ≤ 0.51 (the term is divided or
///   square-rooted to within 1/256 of a level before the final rounding);
///   hue, saturation, color, luminosity: ≤ 0.51 (`B` in `Double`, the
///   term rounded once).
///
/// With coverage (mask × global alpha) the source or result is rounded to 8
/// bits once more before the operator, so the bounds are looser (asserted in
/// `testCoverageMatchesLerpFormula`).
final class BlendFormulaTests: XCTestCase {
    static func bound(_ op: BlendOperator) -> Double {
        switch op {
        case .colorDodge, .colorBurn, .softLight, .hue, .saturation, .color, .luminosity: return 0.51
        default: return 0.5 + 1e-9
        }
    }

    private func check(_ op: BlendOperator, _ s: UInt32, _ d: UInt32, _ out: UInt32, coverage: Double, bound: Double,
                       worst: inout Double) -> Bool {
        let expected = floatComposite(op, s, d, coverage: coverage)
        for (k, shift) in [24, 16, 8, 0].enumerated() {
            let got = Double((out >> UInt32(shift)) & 0xFF)
            let err = abs(got - expected[k] * 255)
            worst = max(worst, err)
            if err > bound {
                XCTFail("\(op) s=\(hexPixel(s)) d=\(hexPixel(d)) coverage=\(coverage): channel \(k) got \(got) expected \(expected[k] * 255) (error \(err) > \(bound))")
                return false
            }
        }
        let a = out >> 24
        if (out >> 16) & 0xFF > a || (out >> 8) & 0xFF > a || out & 0xFF > a {
            XCTFail("\(op) s=\(hexPixel(s)) d=\(hexPixel(d)): output \(hexPixel(out)) breaks colour ≤ alpha")
            return false
        }
        return true
    }

    func testEveryOperatorMatchesFloatFormula() {
        let n = 40_000
        for op in BlendOperator.allCases {
            var rng = SplitMix64(seed: 0xB1E4D ^ UInt64(op.rawValue))
            var src = [UInt32](repeating: 0, count: n), dst = src
            src.withUnsafeMutableBufferPointer { fillRandomPixels($0.baseAddress!, n, &rng) }
            dst.withUnsafeMutableBufferPointer { fillRandomPixels($0.baseAddress!, n, &rng) }
            // Edge values: every alpha against transparent, opaque, equal.
            for i in 0..<256 {
                src[i] = UInt32(i) << 24 | UInt32(i / 2) << 16 | UInt32(i)
                dst[i] = rng.below(2) == 0 ? 0xFF80_40FF : UInt32(255 - i) << 24 | UInt32((255 - i) / 3) << 8
            }
            var out = dst
            if let k = KernelTable.image(op, alpha: 255, sourceIsOpaque: false, family: .reference) { k(&out, src, n, 255) }
            var worst = 0.0
            for i in 0..<n where !check(op, src[i], dst[i], out[i], coverage: 1, bound: Self.bound(op), worst: &worst) { break }
        }
    }

    /// Coverage `c = div255(m·alpha)`: result against `lerp(D, op(S, D), c)`
    /// in floating point (`op(S·c, D)` for `plus`). Bounds, derived and then
    /// confirmed (measured worst in brackets):
    /// - `.lerps` operators: the operator's rounding scaled by `c` plus the
    ///   lerp's rounding: ≤ 1.0, ≤ 1.01 for colorDodge/colorBurn/softLight
    ///   [0.84].
    /// - `.scalesSource` operators: `S·c` rounds once, its alpha's rounding
    ///   moves the `Dca·(1 − Sa)` term by up to ½, the result rounds: ≤ 1.5
    ///   [srcOver 1.26]; `plus` saturates exactly: ≤ 0.5.
    /// Coverage 255 and 0 are exact (`testMaskShortcutsAreExact`).
    func testCoverageMatchesLerpFormula() {
        let n = 20_000
        for op in BlendOperator.allCases {
            let bound: Double
            switch (op, op.coverageModel) {
            case (.plus, _): bound = 0.5 + 1e-9
            case (_, .scalesSource): bound = 1.5
            case (.colorDodge, _), (.colorBurn, _), (.softLight, _), (.hue, _), (.saturation, _), (.color, _), (.luminosity, _): bound = 1.01
            default: bound = 1 + 1e-9
            }
            var rng = SplitMix64(seed: 0xC0FE ^ UInt64(op.rawValue))
            var src = [UInt32](repeating: 0, count: n), dst = src
            src.withUnsafeMutableBufferPointer { fillRandomPixels($0.baseAddress!, n, &rng) }
            dst.withUnsafeMutableBufferPointer { fillRandomPixels($0.baseAddress!, n, &rng) }
            let mask = (0..<n).map { _ in UInt8(truncatingIfNeeded: rng.next()) }
            let alpha: UInt32 = 183
            var out = dst
            if let k = KernelTable.imageMask(op, alpha: alpha, sourceIsOpaque: false, family: .reference) { k(&out, src, mask, n, alpha) }
            var worst = 0.0
            for i in 0..<n {
                let c = Double(div255(UInt32(mask[i]) * alpha)) / 255
                if !check(op, src[i], dst[i], out[i], coverage: c, bound: bound, worst: &worst) { break }
            }
        }
    }

    func testSquareRootFloor() {
        for v: UInt32 in [0, 1, 2, 3, 4, 15, 16, 17, 65535, 65536, 1 << 30, UInt32.max] {
            let r = squareRootFloor(v)
            XCTAssertLessThanOrEqual(UInt64(r) * UInt64(r), UInt64(v))
            XCTAssertGreaterThan(UInt64(r + 1) * UInt64(r + 1), UInt64(v))
        }
        var rng = SplitMix64(seed: 5)
        for _ in 0..<10_000 {
            let v = UInt32(truncatingIfNeeded: rng.next())
            XCTAssertEqual(UInt64(squareRootFloor(v)), UInt64(Double(v).squareRoot().rounded(.down)), "\(v)")
        }
    }

    /// Canvas applies an operator only inside the rectangle and keeps the
    /// destination where the kernel table says the draw is a no-op.
    func testCanvasBoundsTheOperator() {
        guard let s = Surface<ARGB8888>(width: 20, height: 10) else { return XCTFail() }
        s.clear(to: 0xFF10_2030)
        let canvas = Canvas(s.view)
        canvas.fill(IntRect(x: 5, y: 2, width: 4, height: 3), color: .clear, operator: .src)
        XCTAssertEqual(s.view[5, 2], 0)
        XCTAssertEqual(s.view[8, 4], 0)
        XCTAssertEqual(s.view[4, 2], 0xFF10_2030)
        XCTAssertEqual(s.view[9, 2], 0xFF10_2030)
        canvas.fill(IntRect(x: 0, y: 0, width: 20, height: 10), color: .clear, operator: .multiply)
        XCTAssertEqual(s.view[0, 0], 0xFF10_2030)
    }
}
