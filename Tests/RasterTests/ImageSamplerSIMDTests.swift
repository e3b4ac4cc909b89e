import XCTest
import Raster
import TestSupport

/// The SIMD row samplers (`ImageSampler.affineRow` with `.simd`) against
/// their scalar references (`.reference`), bit for bit:
/// seeded random images, regions, transforms, filters, edges and spans,
/// far-out and non-finite positions among them, on images whose last texel
/// touches a guard page so that no lane may read past the image.
final class ImageSamplerSIMDTests: XCTestCase {
    /// A random image of random premultiplied texels (opaque, translucent
    /// and transparent) whose last texel ends at a guard page, with a random
    /// region of it (the whole image, or a sub-rectangle as a nine-part
    /// paint or a contentsRect gives).
    struct Source {
        let buffer: GuardedBuffer<UInt32>
        let source: SampleSource
        let width: Int, height: Int

        init(_ rng: inout SplitMix64) {
            let sizes = [(1, 1), (1, 7), (9, 1), (2, 2), (3, 5), (17, 9), (37, 23), (64, 40)]
            let (w, h) = sizes[rng.below(sizes.count)]
            let stride = w + (rng.below(2) == 0 ? 0 : 1 + rng.below(7))
            let count = stride * (h - 1) + w
            buffer = GuardedBuffer<UInt32>(count: count)
            for i in 0..<count {
                switch rng.below(8) {
                case 0: buffer.pointer[i] = 0
                case 1: buffer.pointer[i] = rng.premultipliedColor().argb | 0xFF00_0000
                default: buffer.pointer[i] = rng.premultipliedColor().argb
                }
            }
            let whole = SampleSource(base: buffer.pointer, rowStride: stride, x0: 0, y0: 0, x1: Int32(w), y1: Int32(h))
            if rng.below(3) == 0 {
                let x0 = rng.below(w), y0 = rng.below(h)
                let x1 = x0 + 1 + rng.below(w - x0), y1 = y0 + 1 + rng.below(h - y0)
                source = whole.limited(x0: Int32(x0), y0: Int32(y0), x1: Int32(x1), y1: Int32(y1))
            } else {
                source = whole
            }
            width = w; height = h
        }
    }

    /// A span of both families, with a canary after it: neither may write
    /// past `count`.
    /// (A span that ran over comes back as `[]`, so the trial fails.)
    func rows(_ count: Int, _ body: (UnsafeMutablePointer<UInt32>, KernelFamily) -> Void) -> ([UInt32], [UInt32]) {
        var result: [[UInt32]] = []
        for family in [KernelFamily.simd, .reference] {
            var span = [UInt32](repeating: 0x5A5A_5A5A, count: count + 9)
            span.withUnsafeMutableBufferPointer { body($0.baseAddress!, family) }
            let intact = span[count...].allSatisfy { $0 == 0x5A5A_5A5A }
            result.append(intact ? Array(span[..<count]) : [])
        }
        return (result[0], result[1])
    }

    func firstDifference(_ a: [UInt32], _ b: [UInt32]) -> String? {
        if a.count != b.count { return "a family wrote past the span (SIMD \(a.isEmpty ? "did" : "did not"))" }
        guard let i = a.indices.first(where: { a[$0] != b[$0] }) else { return nil }
        return "pixel \(i) of \(a.count): SIMD 0x\(String(a[i], radix: 16)) reference 0x\(String(b[i], radix: 16))"
    }

    /// A random step along a row: none, whole texels (the contiguous and
    /// 0.5× loops), exact fractions, arbitrary, tiny and huge, either sign.
    func randomStep(_ rng: inout SplitMix64) -> Double {
        let sign = rng.below(2) == 0 ? 1.0 : -1.0
        switch rng.below(8) {
        case 0: return 0
        case 1: return sign
        case 2: return 2 * sign
        case 3: return sign * [0.5, 0.25, 1.5, 1.0 / 3, 0.75][rng.below(5)]
        case 4: return sign * rng.unit() * 1e-6
        case 5: return sign * (100 + rng.unit() * 3e4)
        default: return sign * rng.unit() * 3
        }
    }

    /// A random start: inside or near the image, far off it, at the edge of
    /// the safe box (±8192 … 24576), beyond it, or not finite.
    func randomStart(_ rng: inout SplitMix64, _ size: Int) -> Double {
        switch rng.below(10) {
        case 0: return -Double(rng.below(40)) + rng.unit()
        case 1: return [-8192.0, 24576, -8191.2, 24575.7, -9000, 30000, 1e9, -1e12][rng.below(8)]
        case 2: return [Double.nan, .infinity, -.infinity][rng.below(3)]
        case 3: return Double(rng.below(size + 2)) + [0, 0.5, 1.0 / 512, 255.0 / 256][rng.below(4)]
        default: return rng.unit() * Double(size + 8) - 4
        }
    }

    func testAffineRowsEqualReference() {
        var rng = SplitMix64(seed: 0xAF1)
        for trial in 0..<3000 {
            let s = Source(&rng)
            let filter: ImageSampler.Filter = trial % 3 == 0 ? .nearest : .bilinear
            let edge: ImageEdge = trial % 2 == 0 ? .transparent : .clamp
            let start = (x: randomStart(&rng, s.width), y: randomStart(&rng, s.height))
            let step = (x: randomStep(&rng), y: trial % 4 == 0 ? 0 : randomStep(&rng))
            let count = [1, 2, 7, 8, 9, 15, 16, 17, 31, 33][rng.below(10)] + (rng.below(3) == 0 ? rng.below(300) : 0)
            let (a, b) = rows(count) { dst, family in
                ImageSampler.affineRow(s.source, filter: filter, edge: edge, start: start, step: step, count: count, into: dst, family: family)
            }
            if let d = firstDifference(a, b) {
                XCTFail("trial \(trial) \(filter) \(edge) \(s.width)×\(s.height) region \(s.source.x0),\(s.source.y0) – \(s.source.x1),\(s.source.y1) start \(start) step \(step): \(d)")
                return
            }
        }
    }

    /// Rows along and across the image at whole and half-texel offsets from
    /// its edges, the positions where the interval splitting of the SIMD
    /// row (no tap / some taps / all taps inside) changes its mind.
    func testAffineRowsAtEdgesEqualReference() {
        var rng = SplitMix64(seed: 0xED6E)
        for trial in 0..<1500 {
            let s = Source(&rng)
            let filter: ImageSampler.Filter = trial % 4 == 0 ? .nearest : .bilinear
            let edge: ImageEdge = trial % 2 == 0 ? .transparent : .clamp
            let near = [-1.5, -1.0, -0.5, -1.0 / 512, 0, 1.0 / 512, 0.5, 1.0, 1.5]
            let x0 = Double(s.source.x0), x1 = Double(s.source.x1), y0 = Double(s.source.y0), y1 = Double(s.source.y1)
            let along = rng.below(2) == 0
            let edgeOffset = near[rng.below(near.count)] + (rng.below(2) == 0 ? 0 : (rng.below(2) == 0 ? y0 : y1))
            let start = along ? (x: x0 - 3 + near[rng.below(near.count)], y: edgeOffset)
                              : (x: edgeOffset, y: y0 - 3 + near[rng.below(near.count)])
            let unit = [1.0, 0.5, 2.0, 0.25, 1.0 / 3][rng.below(5)]
            let step = along ? (x: unit, y: 0.0) : (x: 0.0, y: unit)
            let count = 1 + rng.below(Int((x1 - x0 + y1 - y0) / unit) + 20)
            let (a, b) = rows(count) { dst, family in
                ImageSampler.affineRow(s.source, filter: filter, edge: edge, start: start, step: step, count: count, into: dst, family: family)
            }
            if let d = firstDifference(a, b) {
                XCTFail("trial \(trial) \(filter) \(edge) region \(x0),\(y0) – \(x1),\(y1) start \(start) step \(step): \(d)")
                return
            }
        }
    }
}
