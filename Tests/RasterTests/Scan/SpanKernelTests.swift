import XCTest
import Raster
import TestSupport

/// Every SIMD span kernel against its scalar reference: seeded random spans,
/// every length 0…70 (so every tail length), unaligned starts, and the span
/// ending at a guard page so any over-read or over-write faults.
final class SpanKernelTests: XCTestCase {
    private let lengths = Array(0...70) + [127, 128, 129, 1000]

    /// Runs `body` on two identical guarded destination spans of `n` pixels
    /// starting `offset` pixels into the buffer, and a guarded source span.
    /// `runs`: the source is runs of 1–24 pixels, each all transparent, all
    /// opaque or mixed (a shaded image with its transparent edges);
    /// otherwise each pixel is drawn on its own.
    private func withSpans(_ n: Int, offset: Int, seed: UInt64, runs: Bool = false,
                           _ body: (UnsafeMutablePointer<UInt32>, UnsafeMutablePointer<UInt32>, UnsafePointer<UInt32>) -> Void) {
        var rng = SplitMix64(seed: seed)
        let a = GuardedBuffer<UInt32>(count: n + offset), b = GuardedBuffer<UInt32>(count: n + offset)
        let s = GuardedBuffer<UInt32>(count: n + offset)
        var kind = 0, left = 0
        for i in 0..<(n + offset) {
            let d = rng.premultipliedColor().argb
            a.pointer[i] = d; b.pointer[i] = d
            if left == 0 { kind = rng.below(4); left = runs ? 1 + rng.below(24) : 1 }
            left -= 1
            // Mix in fully opaque and fully transparent source pixels.
            switch kind {
            case 0: s.pointer[i] = 0
            case 1: s.pointer[i] = rng.premultipliedColor().argb | 0xFF00_0000
            default: s.pointer[i] = rng.premultipliedColor().argb
            }
        }
        body(a.pointer + offset, b.pointer + offset, UnsafePointer(s.pointer + offset))
        for i in 0..<(n + offset) where a.pointer[i] != b.pointer[i] {
            XCTFail("n=\(n) offset=\(offset) seed=\(seed): pixel \(i) SIMD 0x\(String(a.pointer[i], radix: 16)) reference 0x\(String(b.pointer[i], radix: 16))")
            return
        }
    }

    func testSolidKernels() {
        for n in lengths {
            for offset in [0, 1, 3] {
                let seed = UInt64(n * 7 + offset)
                var rng = SplitMix64(seed: seed ^ 0xABCD)
                let color = rng.premultipliedColor().argb
                withSpans(n, offset: offset, seed: seed) { x, y, _ in
                    SIMDKernels.fill(x, n, color: color); ScalarKernels.fill(y, n, color: color)
                }
                withSpans(n, offset: offset, seed: seed) { x, y, _ in
                    SIMDKernels.srcOverSolid(x, n, color: color); ScalarKernels.srcOverSolid(y, n, color: color)
                }
            }
        }
    }

    /// The fill writes overlapping 64-byte chunks aligned to cache lines:
    /// every start within a line, lengths around the chunk size, nothing
    /// written outside the span.
    func testFillAtEveryOffsetInACacheLine() {
        // 255 and more: the x86-64 string-instruction path (`stringFillMinimum`).
        for n in [15, 16, 17, 31, 32, 33, 47, 48, 63, 64, 65, 100, 255, 256, 257, 571, 1920] {
            for offset in 0..<16 {
                let color = UInt32(0x8000_0000) | UInt32(n * 16 + offset)
                withSpans(n, offset: offset, seed: UInt64(n * 31 + offset)) { x, y, _ in
                    SIMDKernels.fill(x, n, color: color); ScalarKernels.fill(y, n, color: color)
                }
            }
        }
    }

    /// The copy writes 64-byte chunks on the destination's cache lines as
    /// the fill does: every start within a line (source and destination
    /// misaligned differently), lengths around the chunk size.
    func testCopyAtEveryOffsetInACacheLine() {
        for n in [15, 16, 17, 31, 32, 33, 63, 64, 65, 100, 571, 1920] {
            for offset in 0..<16 {
                withSpans(n, offset: offset, seed: UInt64(n * 29 + offset)) { x, y, s in
                    SIMDKernels.copy(x, s + (offset & 3), n &- (offset & 3))
                    ScalarKernels.copy(y, s + (offset & 3), n &- (offset & 3))
                }
            }
        }
    }

    /// A span copied onto an overlapping span of the same buffer, in both
    /// directions, ends as `memmove` leaves it: the source's pixels as they
    /// were before the copy.
    func testCopyBetweenOverlappingSpansMoves() {
        for n in [16, 40, 300] {
            for shift in [-17, -1, 1, 5, 16, 19] {
                let buffer = GuardedBuffer<UInt32>(count: n + 40)
                for i in 0..<(n + 40) { buffer.pointer[i] = UInt32(i) &* 2_654_435_761 }
                let before = (0..<(n + 40)).map { buffer.pointer[$0] }
                let from = 20, to = 20 + shift
                SIMDKernels.copy(buffer.pointer + to, UnsafePointer(buffer.pointer + from), n)
                var expected = before
                for i in 0..<n { expected[to + i] = before[from + i] }
                let after = (0..<(n + 40)).map { buffer.pointer[$0] }
                XCTAssertEqual(after, expected, "n=\(n) shift=\(shift)")
            }
        }
    }

    func testImageKernels() {
        for n in lengths {
            for offset in [0, 1, 5] {
                let seed = UInt64(n * 13 + offset)
                withSpans(n, offset: offset, seed: seed) { x, y, s in
                    SIMDKernels.srcOver(x, s, n); ScalarKernels.srcOver(y, s, n)
                }
                withSpans(n, offset: offset, seed: seed) { x, y, s in
                    SIMDKernels.copy(x, s, n); ScalarKernels.copy(y, s, n)
                }
                for alpha: UInt32 in [0, 1, 128, 254, 255] {
                    withSpans(n, offset: offset, seed: seed) { x, y, s in
                        SIMDKernels.srcOverAlpha(x, s, n, alpha: alpha); ScalarKernels.srcOverAlpha(y, s, n, alpha: alpha)
                    }
                }
            }
        }
    }

    /// The run-skipping source-over against the reference's plain one, on
    /// sources of opaque, transparent and mixed runs.
    func testSourceOverRunsEqualsReference() {
        for n in lengths {
            for offset in [0, 3] {
                withSpans(n, offset: offset, seed: UInt64(n * 17 + offset), runs: true) { x, y, s in
                    SIMDKernels.srcOverRuns(x, s, n); ScalarKernels.srcOver(y, s, n)
                }
            }
        }
    }

    func testScanoutConversions() {
        for n in lengths {
            var rng = SplitMix64(seed: UInt64(n))
            let src = GuardedBuffer<UInt32>(count: n)
            for i in 0..<n { src.pointer[i] = rng.premultipliedColor().argb }
            let a = GuardedBuffer<UInt16>(count: n), b = GuardedBuffer<UInt16>(count: n)
            SIMDKernels.toRGB565(a.pointer, src.pointer, n); ScalarKernels.toRGB565(b.pointer, src.pointer, n)
            for i in 0..<n { XCTAssertEqual(a.pointer[i], b.pointer[i], "rgb565 n=\(n) i=\(i)") }
            let c = GuardedBuffer<UInt32>(count: n), d = GuardedBuffer<UInt32>(count: n)
            SIMDKernels.toXRGB8888(c.pointer, src.pointer, n); ScalarKernels.toXRGB8888(d.pointer, src.pointer, n)
            for i in 0..<n { XCTAssertEqual(c.pointer[i], d.pointer[i], "xrgb n=\(n) i=\(i)") }
        }
    }
}

/// The scalar reference against floating-point arithmetic: the reference is
/// itself checked against an independent oracle.
final class ReferenceOracleTests: XCTestCase {
    func testDiv255IsRoundToNearest() {
        for x in UInt32(0)...65025 {
            XCTAssertEqual(div255(x), UInt32((Double(x) / 255).rounded()), "x=\(x)")
        }
    }

    func testSourceOverMatchesFloatFormula() {
        var rng = SplitMix64(seed: 42)
        for _ in 0..<20000 {
            let s = rng.premultipliedColor().argb, d = rng.premultipliedColor().argb
            let out = ScalarKernels.overPixel(s, d, inverseAlpha: 255 - (s >> 24))
            let sa = Double(s >> 24) / 255
            for shift: UInt32 in [0, 8, 16, 24] {
                let sc = Double((s >> shift) & 0xFF), dc = Double((d >> shift) & 0xFF)
                let expected = sc + dc * (1 - sa)          // Dca' = Sca + Dca·(1 − Sa)
                let got = Double((out >> shift) & 0xFF)
                XCTAssertLessThanOrEqual(abs(got - expected), 0.5 + 1e-9, "s=\(s) d=\(d) shift=\(shift)")
            }
            // The premultiplied invariant holds: no colour channel above alpha.
            let a = out >> 24
            XCTAssertLessThanOrEqual((out >> 16) & 0xFF, a); XCTAssertLessThanOrEqual((out >> 8) & 0xFF, a); XCTAssertLessThanOrEqual(out & 0xFF, a)
        }
    }

    /// The high-half multiplies of `SIMDKernels.rgb565`, every 8-bit value:
    /// the level, and the scaled forms whose top bits are the level.
    func testRGB565ShortcutFormulasEqualDiv255() {
        for c in UInt32(0)...255 {
            XCTAssertEqual(((c + 4) * 7971) >> 16, div255(c * 31), "c=\(c)")
            XCTAssertEqual(((c + 4) * 63768) >> 19, div255(c * 31), "r=\(c)")
            XCTAssertLessThanOrEqual(((c + 4) * 63768) >> 16, 255, "r=\(c)")
            XCTAssertEqual(((c + 2) * 16192) >> 16, div255(c * 63), "g=\(c)")
            XCTAssertEqual(((c + 2) * 64768) >> 18, div255(c * 63), "g=\(c)")
            XCTAssertLessThanOrEqual(((c + 2) * 64768) >> 16, 255, "g=\(c)")
        }
    }

    /// The SIMD conversion against the scalar one with each channel taking
    /// every value in every position, over every alpha's worth of other
    /// channels (opaque or not: the alpha is dropped).
    func testRGB565EveryChannelValue() {
        let n = 256
        let src = GuardedBuffer<UInt32>(count: n)
        let a = GuardedBuffer<UInt16>(count: n), b = GuardedBuffer<UInt16>(count: n)
        var rng = SplitMix64(seed: 565)
        for shift: UInt32 in [0, 8, 16] {
            for _ in 0..<8 {
                let others = rng.premultipliedColor().argb | 0xFF00_0000
                for i in 0..<n { src.pointer[i] = (others & ~(0xFF << shift)) | UInt32(i) << shift }
                SIMDKernels.toRGB565(a.pointer, src.pointer, n); ScalarKernels.toRGB565(b.pointer, src.pointer, n)
                for i in 0..<n { XCTAssertEqual(a.pointer[i], b.pointer[i], "shift \(shift) value \(i) pixel 0x\(String(src.pointer[i], radix: 16))") }
            }
        }
    }

    func testRGB565RoundTripsItsLevels() {
        for r5 in UInt16(0)..<32 {
            for g6 in UInt16(0)..<64 {
                let p = (r5 << 11) | (g6 << 5) | (31 - r5)
                XCTAssertEqual(RGB565.fromPremultipliedARGB(RGB565.toPremultipliedARGB(p)), p)
            }
        }
        for v in UInt32(0)...255 {
            let got = RGB565.fromPremultipliedARGB(0xFF00_0000 | v << 16) >> 11
            XCTAssertEqual(Double(got), (Double(v) * 31 / 255).rounded(), "r=\(v)")
        }
    }
}
