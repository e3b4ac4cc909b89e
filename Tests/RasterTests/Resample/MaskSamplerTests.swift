import XCTest
@testable import Raster
import TestSupport

/// `MaskSampler` (bilinear rows of A8 masks, the shadows' sampler) and the
/// canvas fill that composites a colour through it:
/// - the SIMD rows against the scalar reference, bit for bit, on masks whose
///   last byte touches a guard page (no lane may read past the mask), and
///   the returned range holding every non-zero byte;
/// - against an independent sampler: `ImageSampler`'s ARGB rows on the image
///   whose texels are the mask's coverage in all four channels give, in
///   every channel, the mask sampler's byte;
/// - the canvas fill against the shadow as it used to be drawn (the colour ×
///   coverage image resampled by `ImagePaint`, then source-over) within
///   the rounding of either.
final class MaskSamplerTests: XCTestCase {
    struct Mask {
        let buffer: GuardedBuffer<UInt8>
        let view: PixelView<A8>
        let width: Int, height: Int

        init(_ rng: inout SplitMix64) {
            let sizes = [(1, 1), (1, 7), (9, 1), (2, 2), (3, 5), (17, 9), (37, 23), (64, 40), (130, 3)]
            let (w, h) = sizes[rng.below(sizes.count)]
            let stride = w + (rng.below(2) == 0 ? 0 : 1 + rng.below(7))
            let count = stride * (h - 1) + w
            buffer = GuardedBuffer<UInt8>(count: count)
            for i in 0..<count {
                switch rng.below(6) {
                case 0: buffer.pointer[i] = 0
                case 1: buffer.pointer[i] = 255
                default: buffer.pointer[i] = UInt8(rng.below(256))
                }
            }
            view = PixelView<A8>(base: buffer.pointer, width: w, height: h, rowStride: stride)
            width = w; height = h
        }
    }

    /// One row of each family, with a canary after it; `nil` when a family
    /// wrote past `count`.
    func rows(_ count: Int, _ body: (UnsafeMutablePointer<UInt8>, KernelFamily) -> (lo: Int, hi: Int))
        -> [(bytes: [UInt8], lo: Int, hi: Int)]? {
        var result: [(bytes: [UInt8], lo: Int, hi: Int)] = []
        for family in [KernelFamily.simd, .reference] {
            var span = [UInt8](repeating: 0x5A, count: count + 17)
            let range = span.withUnsafeMutableBufferPointer { body($0.baseAddress!, family) }
            guard span[count...].allSatisfy({ $0 == 0x5A }) else { return nil }
            result.append((Array(span[..<count]), range.lo, range.hi))
        }
        return result
    }

    func testAffineRowsEqualReferenceAndBoundTheirCoverage() {
        var rng = SplitMix64(seed: 0x3A5C)
        var translations = 0
        for trial in 0..<4000 {
            let m = Mask(&rng)
            let start = (x: rng.rowStart(m.width), y: rng.rowStart(m.height))
            let step = trial % 3 == 0 ? (x: 1.0, y: 0.0) : (x: rng.rowStep(), y: trial % 4 == 0 ? 0 : rng.rowStep())
            if step == (1, 0) { translations += 1 }
            let count = [1, 2, 7, 15, 16, 17, 31, 33][rng.below(8)] + (rng.below(3) == 0 ? rng.below(300) : 0)
            guard let r = rows(count, { dst, family in
                MaskSampler.affineRow(m.view, start: start, step: step, count: count, into: dst, family: family)
            }) else { return XCTFail("trial \(trial): a family wrote past the span") }
            let (simd, reference) = (r[0], r[1])
            if let i = simd.bytes.indices.first(where: { simd.bytes[$0] != reference.bytes[$0] }) {
                return XCTFail("trial \(trial) \(m.width)×\(m.height) start \(start) step \(step): pixel \(i) of \(count): SIMD \(simd.bytes[i]) reference \(reference.bytes[i])")
            }
            for (name, row) in [("SIMD", simd), ("reference", reference)] {
                XCTAssert(0 <= row.lo && row.lo <= row.hi && row.hi <= count || row.lo == row.hi, "trial \(trial) \(name) range \(row.lo)..<\(row.hi)")
                if let i = row.bytes.indices.first(where: { row.bytes[$0] != 0 && !(row.lo..<row.hi).contains($0) }) {
                    return XCTFail("trial \(trial) \(name): byte \(i) = \(row.bytes[i]) outside the returned \(row.lo)..<\(row.hi)")
                }
            }
        }
        XCTAssertGreaterThan(translations, 1000)
    }

    /// The alpha (and every other) channel of `ImageSampler`'s bilinear row
    /// over the grey image a·(1, 1, 1, 1) equals the mask sampler's byte.
    func testEqualsTheImageSamplerOnAGreyImage() {
        var rng = SplitMix64(seed: 0x6E7)
        for trial in 0..<1500 {
            let m = Mask(&rng)
            var grey = [UInt32](repeating: 0, count: m.width * m.height)
            for y in 0..<m.height {
                for x in 0..<m.width { grey[y * m.width + x] = UInt32(m.view.row(y)[x]) &* 0x0101_0101 }
            }
            let start = (x: rng.unit() * Double(m.width + 6) - 3, y: rng.unit() * Double(m.height + 6) - 3)
            let step = trial % 2 == 0 ? (x: 1.0, y: 0.0) : (x: rng.rowStep(), y: rng.rowStep())
            let count = 1 + rng.below(120)
            var bytes = [UInt8](repeating: 0, count: count), pixels = [UInt32](repeating: 0, count: count)
            bytes.withUnsafeMutableBufferPointer {
                _ = MaskSampler.affineRow(m.view, start: start, step: step, count: count, into: $0.baseAddress!, family: .simd)
            }
            grey.withUnsafeBufferPointer { g in
                let source = SampleSource(base: g.baseAddress!, rowStride: m.width, x0: 0, y0: 0, x1: Int32(m.width), y1: Int32(m.height))
                pixels.withUnsafeMutableBufferPointer {
                    ImageSampler.affineRow(source, filter: .bilinear, edge: .transparent, start: start, step: step, count: count,
                                           into: $0.baseAddress!, family: .reference)
                }
            }
            for i in 0..<count where pixels[i] != UInt32(bytes[i]) &* 0x0101_0101 {
                return XCTFail("trial \(trial) start \(start) step \(step): pixel \(i) image 0x\(String(pixels[i], radix: 16)) mask \(bytes[i])")
            }
        }
    }

    /// The colour through the resampled mask equals the colour × coverage
    /// image resampled and composited (the shadows' former path) within a
    /// rounding (the colour is rounded into the texels there, and alpha into
    /// the colour: ≤ 2 levels), under translations, scales and turns; a
    /// projective map that is affine gives the affine fill's pixels within a
    /// level. The families agree bit for bit.
    func testCanvasFillMatchesTheTintedImage() throws {
        var rng = SplitMix64(seed: 0x5AD0)
        var worstImage = 0, worstProjective = 0
        let size = 48
        let mask = try XCTUnwrap(Surface<A8>(width: size, height: size))
        for y in 0..<size {
            for x in 0..<size {
                let dx = Double(x) - 24, dy = Double(y) - 24
                mask.view.row(y)[x] = UInt8(max(0, min(255, 255 * (1 - ((dx * dx + dy * dy).squareRoot() - 10) / 12))))
            }
        }
        for trial in 0..<60 {
            let color = PremultipliedColor(red: rng.unit(), green: rng.unit(), blue: rng.unit(), alpha: 0.2 + 0.8 * rng.unit())
            let tinted = try XCTUnwrap(Surface<ARGB8888>(width: size, height: size))
            for y in 0..<size {
                for x in 0..<size { tinted.view.row(y)[x] = color.scaled(by: mask.view.row(y)[x]).argb }
            }
            let whole = trial % 4 == 0
            let angle = trial % 3 == 0 ? rng.unit() * 6.3 : 0
            let scale = trial % 5 == 1 ? 0.5 + rng.unit() : 1
            let tx = 10 + (whole ? Double(rng.below(20)) : rng.unit() * 20), ty = 12 + (whole ? Double(rng.below(20)) : rng.unit() * 20)
            let t = whole ? AffineTransform(translationX: tx, y: ty)
                : AffineTransform(rotationAngle: angle).concatenating(AffineTransform(scaleX: scale, y: scale))
                    .concatenating(AffineTransform(translationX: tx + 20, y: ty + 20))
            let alpha = UInt8(128 + rng.below(128))
            let rect = IntRect(x: 0, y: 0, width: 96, height: 96)
            func background() throws -> Surface<ARGB8888> {
                let s = try XCTUnwrap(Surface<ARGB8888>(width: 96, height: 96))
                for y in 0..<96 { for x in 0..<96 { s.view.row(y)[x] = 0xFF00_0000 | UInt32((x * 2) << 16 | (y * 2) << 8 | 0x40) } }
                return s
            }
            let (ours, reference, theirs, projective) = (try background(), try background(), try background(), try background())
            Canvas(ours.view).fill(rect, mask: mask.view, transform: t, color: color, alpha: alpha)
            Canvas(reference.view, family: .reference).fill(rect, mask: mask.view, transform: t, color: color, alpha: alpha)
            Canvas(projective.view).fill(rect, mask: mask.view, projective: ProjectiveTransform(t), color: color, alpha: alpha)
            Canvas(theirs.view).fill(rect, paint: ImagePaint(image: tinted.view, transform: t, filter: .bilinear, edge: .transparent),
                                     operator: .srcOver, alpha: alpha)
            for y in 0..<96 {
                for x in 0..<96 {
                    let a = ours.view.row(y)[x], b = theirs.view.row(y)[x], p = projective.view.row(y)[x]
                    if a != reference.view.row(y)[x] { return XCTFail("trial \(trial) (\(x), \(y)): the families differ") }
                    for shift in stride(from: 0, to: 32, by: 8) {
                        func channel(_ v: UInt32) -> Int { Int((v >> UInt32(shift)) & 0xFF) }
                        worstImage = max(worstImage, abs(channel(a) - channel(b)))
                        worstProjective = max(worstProjective, abs(channel(a) - channel(p)))
                    }
                }
            }
        }
        print("colour through the mask against the tinted image: worst \(worstImage) levels; projective against affine: \(worstProjective)")
        XCTAssertLessThanOrEqual(worstImage, 2)
        XCTAssertLessThanOrEqual(worstProjective, 1)
    }
    /// On whole pixels at 1:1 a sample is the texel itself (what lets the
    /// canvas fill composite the mask's rows without sampling).
    func testWholePixelTranslationGivesTheTexels() {
        var rng = SplitMix64(seed: 0x1D)
        for _ in 0..<200 {
            let m = Mask(&rng)
            let dx = rng.below(5) - 2, y = rng.below(m.height)
            var bytes = [UInt8](repeating: 0, count: m.width + 4)
            for family in [KernelFamily.simd, .reference] {
                bytes.withUnsafeMutableBufferPointer {
                    _ = MaskSampler.affineRow(m.view, start: (Double(dx) + 0.5, Double(y) + 0.5), step: (1, 0), count: m.width + 4,
                                              into: $0.baseAddress!, family: family)
                }
                for i in 0..<bytes.count {
                    let x = dx + i
                    let texel = x >= 0 && x < m.width ? m.view.row(y)[x] : 0
                    if bytes[i] != texel { return XCTFail("\(family) \(m.width)×\(m.height) row \(y) from \(dx): pixel \(i) \(bytes[i]) texel \(texel)") }
                }
            }
        }
    }
}
