import XCTest
@testable import Raster
import TestSupport

/// The SIMD row samplers (`ImageSampler.affineRow` and `projectiveRow` with
/// `.simd`) against their scalar references (`.reference`), bit for bit:
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

    func testAffineRowsEqualReference() {
        var rng = SplitMix64(seed: 0xAF1)
        for trial in 0..<3000 {
            let s = Source(&rng)
            let filter: ImageSampler.Filter = trial % 3 == 0 ? .nearest : .bilinear
            let edge: ImageEdge = trial % 2 == 0 ? .transparent : .clamp
            let start = (x: rng.rowStart(s.width), y: rng.rowStart(s.height))
            let step = (x: rng.rowStep(), y: trial % 4 == 0 ? 0 : rng.rowStep())
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

    /// Rows with a clamped edge that cross the safe box's sides (±8192 …
    /// 24576 texels) or lie wholly beyond them, long enough for whole
    /// chunks of `affineOutside8`: the general and the scaled rows (which
    /// share it) give the reference's pixels.
    func testRowsOutsideTheSafeBoxEqualReference() {
        var rng = SplitMix64(seed: 0x0B0C)
        var outside = 0
        for trial in 0..<1500 {
            let s = Source(&rng)
            let filter: ImageSampler.Filter = trial % 3 == 0 ? .nearest : .bilinear
            let count = 1 + rng.below(rng.below(2) == 0 ? 40 : 400)
            let side = [ImageSampler.safeLow, ImageSampler.safeHigh][rng.below(2)]
            let x0 = side + (rng.unit() - 0.5) * Double(count) * 60
            let stepX = (rng.unit() - 0.5) * [1.0, 60, 1e4][rng.below(3)]
            let start = (x: x0, y: rng.below(3) == 0 ? side + rng.unit() * 20 - 10 : rng.unit() * Double(s.height + 4) - 2)
            let step = (x: stepX, y: trial % 2 == 0 ? 0 : rng.unit() * 4 - 2)
            let (a, b) = rows(count) { dst, family in
                ImageSampler.affineRow(s.source, filter: filter, edge: .clamp, start: start, step: step, count: count, into: dst, family: family)
            }
            if let d = firstDifference(a, b) {
                XCTFail("trial \(trial) \(filter) affine row start \(start) step \(step): \(d)")
                return
            }
            if step.y == 0 && filter == .bilinear {
                let (c, e) = rows(count) { dst, family in
                    ImageSampler.scaledRow(s.source, edge: .clamp, start: start, step: step, x: 0, count: count, into: dst, family: family,
                                           scratch: nil, end: count)
                }
                if let d = firstDifference(c, e) {
                    XCTFail("trial \(trial) scaled row start \(start) step \(step): \(d)")
                    return
                }
            }
            // Runs of at least one whole chunk outside the box.
            let plan = ImageSampler.affinePlan(bilinear: filter == .bilinear, start, step, count)
            if plan.lo >= 8 || count - plan.hi >= 8 { outside += 1 }
        }
        XCTAssertGreaterThan(outside, 500)
    }

    /// A row's plan (`affinePlan`, which skips the clipping for rows well
    /// inside the safe box) is the clipped plan (`clippedPlan`) for rows
    /// starting and ending on both sides of the box's edges, within a step
    /// and a few texels of them, with tiny, huge and zero steps.
    func testAffinePlanEqualsClippedPlan() {
        var rng = SplitMix64(seed: 0x91A4)
        let edges = [ImageSampler.safeLow + 1, ImageSampler.safeHigh - 1]
        var early = 0
        for trial in 0..<200_000 {
            func coordinate(_ step: Double, _ count: Int) -> Double {
                let e = edges[rng.below(2)]
                switch rng.below(4) {
                case 0: return e + (rng.unit() * 8 - 4)
                case 1: return e - Double(count - 1) * step + (rng.unit() * 8 - 4)
                case 2: return e + (rng.unit() * 2 - 1) * (Swift.abs(step) + 2) + (rng.below(2) == 0 ? 0 : step)
                default: return rng.unit() * 40000 - 12000
                }
            }
            let steps = [0.0, 1e-9, 1.0 / 3, 1, 2.56, 37, 3e4, 1e16]
            let step = (x: steps[rng.below(steps.count)] * (rng.below(2) == 0 ? 1 : -1), y: rng.below(3) == 0 ? rng.unit() * 3 - 1.5 : 0)
            let count = 1 + rng.below(rng.below(4) == 0 ? 5000 : 300)
            let bilinear = trial % 2 == 0
            let start = (x: coordinate(step.x, count), y: rng.below(2) == 0 ? coordinate(step.y, count) : rng.unit() * 100)
            let shift = bilinear ? ImageSampler.bilinearShift : 0
            let a = ImageSampler.affinePlan(bilinear: bilinear, start, step, count)
            let b = ImageSampler.clippedPlan(start.x - shift, start.y - shift, step, count)
            if a.lo != b.lo || a.hi != b.hi || a.sx != b.sx || a.sy != b.sy {
                XCTFail("trial \(trial): start \(start) step \(step) count \(count): plan \(a.lo)..<\(a.hi), clipped \(b.lo)..<\(b.hi)")
                return
            }
            if a.lo == 0 && a.hi == count { early += 1 }
        }
        XCTAssertGreaterThan(early, 20_000)
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

    /// Random perspective maps (unit square to a random quadrilateral,
    /// scaled to the image), some with rows crossing the horizon (W ≤ 0)
    /// and some with rows far out, at mip scales, both filters and edges.
    func testProjectiveRowsEqualReference() {
        var rng = SplitMix64(seed: 0x9E7)
        var tried = 0
        for trial in 0..<3000 {
            let s = Source(&rng)
            func corner() -> (x: Double, y: Double) { (rng.unit() * 160 - 30, rng.unit() * 160 - 30) }
            guard let quad = ProjectiveTransform.unitSquare(to: corner(), corner(), corner(), corner()),
                  let inverse = ProjectiveTransform(.scale(x: 1 / Double(s.width), y: 1 / Double(s.height)))
                    .concatenating(quad).inverted() else { continue }
            tried += 1
            let filter: ImageSampler.Filter = trial % 3 == 0 ? .nearest : .bilinear
            let edge: ImageEdge = trial % 2 == 0 ? .transparent : .clamp
            let x = rng.below(4) == 0 ? rng.below(20000) - 10000 : rng.below(180) - 40
            let y = rng.below(180) - 40
            let scale = [1.0, 1.0, 0.5, 0.25][rng.below(4)]
            let count = [1, 3, 8, 9, 16, 23][rng.below(6)] + (rng.below(2) == 0 ? rng.below(200) : 0)
            let (a, b) = rows(count) { dst, family in
                ImageSampler.projectiveRow(s.source, filter: filter, edge: edge, inverse: inverse, x: x, y: y, scale: scale,
                                           count: count, into: dst, family: family)
            }
            if let d = firstDifference(a, b) {
                XCTFail("trial \(trial) \(filter) \(edge) \(s.width)×\(s.height) inverse \(inverse) row \(y) from \(x) scale \(scale): \(d)")
                return
            }
        }
        XCTAssertGreaterThan(tried, 2500)
    }

    /// `fixed16` is `Fixed16(x).raw` lane for lane: random values across
    /// the safe box, exact halves of a 16.16 step on both sides of 0 (ties
    /// go away from zero), zeros of both signs, NaN (0), NaN with a payload
    /// (which arithmetic carries into the low bits a bare bit cast reads).
    func testFixed16LanesEqualFixed16() {
        var rng = SplitMix64(seed: 0xF16)
        func check(_ x: SIMD4<Double>) -> Bool {
            let lanes = ImageSampler.fixed16(x)
            for i in 0..<4 where lanes[i] != Fixed16(x[i]).raw {
                XCTFail("fixed16(\(x[i])) = \(lanes[i]), Fixed16 gives \(Fixed16(x[i]).raw)")
                return false
            }
            return true
        }
        let payloadNaN = Double(bitPattern: 0x7FF8_0000_1234_5678), negativePayloadNaN = Double(bitPattern: 0xFFF8_0000_0000_0FF0)
        guard check(SIMD4(0, -0.0, .nan, -.nan)), check(SIMD4(payloadNaN, negativePayloadNaN, 1, -1)), check(SIMD4(-8192, 24576, 0.5 / 65536, -0.5 / 65536)),
              check(SIMD4(1.5 / 65536, -1.5 / 65536, 2.5 / 65536, -2.5 / 65536)) else { return }
        for _ in 0..<20_000 {
            var x = SIMD4<Double>()
            for i in 0..<4 {
                switch rng.below(3) {
                case 0: x[i] = rng.unit() * 32768 - 8192
                case 1: x[i] = (Double(rng.below(1 << 24)) - Double(1 << 23) + 0.5) / 65536       // a tie
                default: x[i] = (Double(rng.below(1 << 26)) - Double(1 << 25)) / 262_144          // quarters
                }
            }
            if !check(x) { return }
        }
    }

    /// Maps that put every position 2⁻¹⁷ texel below a multiple of 1/256
    /// (`W` = 1, the bilinear shift added back into the offset), so that at
    /// negative positions `x·2¹⁶` is halfway between two 16.16 values
    /// whose weight or texel differ: the SIMD row must break the tie away
    /// from zero as `Fixed16` does. (At positive positions a tie moves only
    /// bits 0–7 of the 16.16 value, which no sampler reads.)
    func testProjectiveRoundingTiesEqualReference() {
        var rng = SplitMix64(seed: 0x71E5)
        var ties = 0
        for trial in 0..<1500 {
            let s = Source(&rng)
            let filter: ImageSampler.Filter = trial % 2 == 0 ? .nearest : .bilinear
            let edge: ImageEdge = trial % 3 == 0 ? .clamp : .transparent
            let shift = filter == .bilinear ? ImageSampler.bilinearShift : 0
            func slope() -> Double { Double(rng.below(257) - 128) / 128 }
            func offset() -> Double { Double(rng.below(4096) - 3072) / 256 - 1.0 / 131_072 + shift }
            let m = ProjectiveTransform(m00: slope(), m01: slope(), m02: offset(),
                                        m10: slope(), m11: slope(), m12: offset(),
                                        m20: 0, m21: 0, m22: 1)
            let x = rng.below(60) - 30, y = rng.below(60) - 30, count = 1 + rng.below(70)
            let (a, b) = rows(count) { dst, family in
                ImageSampler.projectiveRow(s.source, filter: filter, edge: edge, inverse: m, x: x, y: y, scale: 1,
                                           count: count, into: dst, family: family)
            }
            if let d = firstDifference(a, b) {
                XCTFail("trial \(trial) \(filter) \(edge) map \(m) row \(y) from \(x): \(d)")
                return
            }
            // How many positions were ties (the test is only as good as this).
            let px = Double(x) + 0.5, py = Double(y) + 0.5
            let u = m.m00 * px + m.m01 * py + m.m02 - shift
            if u < 0, (u * 65536 + 0.5).truncatingRemainder(dividingBy: 256) == 0 { ties += 1 }
        }
        XCTAssertGreaterThan(ties, 300)
    }

    /// Maps with non-finite or enormous entries and maps looking from
    /// behind: every lane must still give what the reference gives (0
    /// behind the eye, texel (0, 0)'s neighbourhood for NaN positions).
    func testProjectiveRowsWithBadMapsEqualReference() {
        var rng = SplitMix64(seed: 0xBAD)
        let specials = [Double.nan, .infinity, -.infinity, 1e300, -1e300, 1e-300, 0, -0.0]
        for trial in 0..<800 {
            let s = Source(&rng)
            func entry() -> Double { rng.below(3) == 0 ? specials[rng.below(specials.count)] : rng.unit() * 4 - 2 }
            let m = ProjectiveTransform(m00: entry(), m01: entry(), m02: entry(), m10: entry(), m11: entry(), m12: entry(),
                                        m20: entry() * 0.01, m21: entry() * 0.01, m22: entry())
            let filter: ImageSampler.Filter = trial % 2 == 0 ? .nearest : .bilinear
            let edge: ImageEdge = trial % 3 == 0 ? .transparent : .clamp
            let x = rng.below(400) - 200, y = rng.below(400) - 200, count = 1 + rng.below(40)
            let (a, b) = rows(count) { dst, family in
                ImageSampler.projectiveRow(s.source, filter: filter, edge: edge, inverse: m, x: x, y: y, scale: 1,
                                           count: count, into: dst, family: family)
            }
            if let d = firstDifference(a, b) {
                XCTFail("trial \(trial) \(filter) \(edge) map \(m) row \(y) from \(x): \(d)")
                return
            }
        }
    }
}
