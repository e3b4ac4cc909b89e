import XCTest
import Raster
import TestSupport

/// The colour-matrix filter kernels: SIMD against the reference on random
/// images (bit-identical, guarded buffers, odd widths, padded rows), the
/// reference against the formula in `Double`, and the constructors and
/// clamps of `ColorMatrix`.
final class ColorMatrixKernelTests: XCTestCase {
    private let sizes = [(1, 1), (7, 3), (8, 2), (9, 5), (16, 4), (31, 7), (70, 9)]

    /// Matrices with every kind of entry: identity, the SVG constructors,
    /// random ones (negative, above 1, offsets), and bad values.
    private func matrices() -> [ColorMatrix] {
        var rng = SplitMix64(seed: 0xF117E5)
        func r(_ scale: Double) -> Double { (Double(rng.next() % 20_001) / 10_000 - 1) * scale }
        var list: [ColorMatrix] = [.identity, .saturation(0), .saturation(0.3), .saturation(2.5), .brightness(0.4),
                                   .brightness(1.7), .contrast(0.2), .contrast(3), .saturation(.nan), .brightness(.infinity)]
        for _ in 0..<12 {
            list.append(ColorMatrix((0..<20).map { _ in r(1.5) }))
        }
        list.append(ColorMatrix([Double](repeating: .nan, count: 20)))
        list.append(ColorMatrix([Double](repeating: 1e300, count: 20)))
        list.append(ColorMatrix([Double](repeating: -1e300, count: 20)))
        return list
    }

    /// Random premultiplied pixels, with runs of transparent, opaque and
    /// invalid (colour above alpha) ones.
    private func fill(_ p: UnsafeMutablePointer<UInt32>, _ count: Int, seed: UInt64) {
        var rng = SplitMix64(seed: seed)
        for i in 0..<count {
            switch rng.next() % 8 {
            case 0: p[i] = 0
            case 1: p[i] = 0xFF00_0000 | UInt32(truncatingIfNeeded: rng.next() & 0xFF_FFFF)
            case 2: p[i] = UInt32(truncatingIfNeeded: rng.next())          // may be invalid
            default: p[i] = rng.premultipliedColor().argb
            }
        }
    }

    func testSIMDMatchesReferenceOnRandomImages() {
        for (mi, matrix) in matrices().enumerated() {
            let plan = ColorMatrixPlan(matrix)
            for (w, h) in sizes {
                for stride in [w, w + 3] {
                    let count = stride * (h - 1) + w
                    let a = GuardedBuffer<UInt32>(count: count), b = GuardedBuffer<UInt32>(count: count)
                    let seed = UInt64(mi * 7919 + w * 131 + h * 17 + stride)
                    fill(a.pointer, count, seed: seed)
                    fill(b.pointer, count, seed: seed)
                    ColorMatrixKernels.apply(plan, to: PixelView(base: a.pointer, width: w, height: h, rowStride: stride), family: .simd)
                    ColorMatrixKernels.apply(plan, to: PixelView(base: b.pointer, width: w, height: h, rowStride: stride), family: .reference)
                    for i in 0..<count where a.pointer[i] != b.pointer[i] {
                        return XCTFail("matrix \(mi) \(w)×\(h) stride \(stride): pixel \(i) SIMD \(String(a.pointer[i], radix: 16)) reference \(String(b.pointer[i], radix: 16))")
                    }
                    // Row padding is never touched.
                    let c = GuardedBuffer<UInt32>(count: count)
                    fill(c.pointer, count, seed: seed)
                    for y in 0..<(h - 1) {
                        for x in w..<stride where a.pointer[y * stride + x] != c.pointer[y * stride + x] {
                            return XCTFail("matrix \(mi) \(w)×\(h): padding at (\(x), \(y)) written")
                        }
                    }
                }
            }
        }
    }

    /// The fixed-point reference against the formula in `Double` on valid
    /// premultiplied pixels: unpremultiply to 8 bits (round(255·C/A), as
    /// librsvg does), matrix, clamp to 0…1, premultiply, round: within 1
    /// level a channel (the Q16 coefficients and the rounding of the
    /// unpremultiplied result before it is premultiplied again). Against an
    /// exact unpremultiply the error is that 8-bit rounding (half a level
    /// of unpremultiplied colour) times the row's coefficients, up to 8
    /// levels on these matrices with entries up to 16.
    func testReferenceAgreesWithDoubleFormula() {
        var worst = 0
        func unpremultiplied(_ c: UInt32, _ a: UInt32) -> Double {
            (Double(min(c & 0xFF, a)) * 255 / Double(a)).rounded(.toNearestOrAwayFromZero) / 255
        }
        for matrix in matrices() where !matrix.red.x.isNaN && abs(matrix.red.x) < 100 {
            let plan = ColorMatrixPlan(matrix)
            let s = Surface<ARGB8888>(width: 64, height: 64)!
            var rng = SplitMix64(seed: 99)
            for y in 0..<64 { for x in 0..<64 { s.view[x, y] = rng.premultipliedColor().argb } }
            let before = (0..<64).flatMap { y in (0..<64).map { x in s.view[x, y] } }
            ColorMatrixKernels.apply(plan, to: s.view, family: .reference)
            let rows = [matrix.red, matrix.green, matrix.blue, matrix.alpha]
            for (i, p) in before.enumerated() {
                let a = Double(p >> 24) / 255
                let u: SIMD4<Double> = a == 0 ? .zero
                    : SIMD4(unpremultiplied(p >> 16, p >> 24), unpremultiplied(p >> 8, p >> 24), unpremultiplied(p, p >> 24), a)
                var v = SIMD4<Double>()
                for k in 0..<4 {
                    let c = rows[k].clamped(lowerBound: SIMD4(repeating: -16), upperBound: SIMD4(repeating: 16))
                    let o = min(max(matrix.offset[k], -16), 16)
                    v[k] = min(max((c * u).sum() + o, 0), 1)
                }
                let expected = [v[0] * v[3], v[1] * v[3], v[2] * v[3], v[3]].map { Int(($0 * 255).rounded()) }
                let q = s.view[i % 64, i / 64]
                let got = [Int((q >> 16) & 0xFF), Int((q >> 8) & 0xFF), Int(q & 0xFF), Int(q >> 24)]
                for k in 0..<4 { worst = max(worst, abs(got[k] - expected[k])) }
            }
        }
        print("ColorMatrixKernels reference vs Double: worst \(worst) levels")
        XCTAssertLessThanOrEqual(worst, 1)
    }

    /// Every entry of the SIMD family's reciprocal table reproduces the
    /// division for every channel value it can meet.
    func testUnpremultiplyIsRoundToNearest() {
        let s = Surface<ARGB8888>(width: 256, height: 256)!
        for a in 0..<256 { for c in 0..<256 { s.view[c, a] = UInt32(a) << 24 | UInt32(min(c, a)) << 16 } }
        // Alpha 255 out, colour unchanged: the channel shows the unpremultiplied value.
        let plan = ColorMatrixPlan(ColorMatrix(red: SIMD4(1, 0, 0, 0), green: .zero, blue: .zero, alpha: .zero,
                                               offset: SIMD4(0, 0, 0, 1)))
        ColorMatrixKernels.apply(plan, to: s.view, family: .simd)
        for a in 1..<256 {
            for c in 0...a {
                let expected = (510 * c + a) / (2 * a)
                let got = Int((s.view[c, a] >> 16) & 0xFF)
                if got != expected { return XCTFail("a \(a) c \(c): \(got), expected \(expected)") }
            }
        }
    }

    func testConstructorsAndClamps() {
        XCTAssertTrue(ColorMatrixPlan(.identity).isIdentity)
        XCTAssertTrue(ColorMatrixPlan(.saturation(1)).isIdentity)
        XCTAssertTrue(ColorMatrixPlan(.brightness(1)).isIdentity)
        XCTAssertTrue(ColorMatrixPlan(.contrast(1)).isIdentity)
        XCTAssertTrue(ColorMatrixPlan(.saturation(.nan)).isIdentity, "NaN amounts mean no change")
        XCTAssertEqual(ColorMatrix([1, 2, 3]), .identity, "a values list of the wrong length is the identity")
        XCTAssertEqual(ColorMatrix.brightness(1e9), .brightness(ColorMatrix.maximumAmount))
        XCTAssertEqual(ColorMatrix.contrast(-3), .contrast(0))
        // 20 values in SVG's order.
        let m = ColorMatrix((0..<20).map(Double.init))
        XCTAssertEqual(m.red, SIMD4(0, 1, 2, 3)); XCTAssertEqual(m.alpha, SIMD4(15, 16, 17, 18))
        XCTAssertEqual(m.offset, SIMD4(4, 9, 14, 19))
        // Huge and NaN coefficients are clamped, and nothing traps.
        let plan = ColorMatrixPlan(ColorMatrix([Double](repeating: .infinity, count: 20)))
        XCTAssertEqual(plan.coefficients[0], 16 << 16)
        let s = Surface<ARGB8888>(width: 3, height: 1)!
        s.view[0, 0] = 0x8040_2010; s.view[1, 0] = 0; s.view[2, 0] = 0xFFFF_FFFF
        ColorMatrixKernels.apply(plan, to: s.view)
        XCTAssertEqual(s.view[0, 0], 0xFFFF_FFFF)
        XCTAssertEqual(s.view[1, 0], 0xFFFF_FFFF, "an alpha offset makes transparent pixels visible, as in SVG")
        // Contrast 0 is mid grey (0.5 → 128) at the pixel's alpha.
        s.view[0, 0] = 0xFF10_E080
        ColorMatrixKernels.apply(ColorMatrixPlan(.contrast(0)), to: s.view)
        XCTAssertEqual(s.view[0, 0], 0xFF80_8080)
    }
}
