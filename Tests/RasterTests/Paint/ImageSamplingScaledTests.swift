import Foundation
import Glibc
import XCTest
@testable import Raster
import TestSupport

/// The scaled (axis-aligned) bilinear rows of ImageSampling+Scaled.swift
/// against the reference sampler, bit for bit: random scales from 0.1× to
/// 4× (and flips), offsets, image sizes down to 1×N and N×1, regions, both
/// edge modes, with and without the per-draw tap tables (a scratch reused
/// across draws, as the compositor does), spans of every length at random
/// starts, on images fenced by PROT_NONE pages right before their first
/// texel and right after their last one, and through `Canvas.fill` at
/// random global alphas.
final class ImageSamplingScaledTests: XCTestCase {
    /// `count` texels between two PROT_NONE pages, flush against the one
    /// before (`atStart`) or the one after.
    final class FencedTexels {
        let pointer: UnsafeMutablePointer<UInt32>
        private let mapping: UnsafeMutableRawPointer
        private let length: Int

        init(count: Int, atStart: Bool) {
            let page = Int(sysconf(Int32(_SC_PAGESIZE)))
            let bytes = count * 4
            let dataPages = (bytes + page - 1) / page
            length = (dataPages + 2) * page
            let m = mmap(nil, length, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0)
            precondition(m != MAP_FAILED)
            mapping = m!
            precondition(mprotect(mapping, page, PROT_NONE) == 0)
            precondition(mprotect(mapping + (dataPages + 1) * page, page, PROT_NONE) == 0)
            let start = atStart ? mapping + page : mapping + (dataPages + 1) * page - bytes
            pointer = start.bindMemory(to: UInt32.self, capacity: count)
        }

        deinit { munmap(mapping, length) }
    }

    /// A random image (opaque, translucent and transparent texels) in a
    /// fenced buffer, rows padded or not, with a random region of it.
    struct Image {
        let texels: FencedTexels
        let view: PixelView<ARGB8888>
        let source: SampleSource
        let contentsRect: PaintRect

        init(_ rng: inout SplitMix64) {
            let sizes = [(1, 1), (1, 9), (12, 1), (2, 2), (2, 7), (3, 5), (17, 9), (40, 23), (64, 40), (97, 3), (256, 6)]
            let (w, h) = sizes[rng.below(sizes.count)]
            let stride = w + (rng.below(2) == 0 ? 0 : 1 + rng.below(5))
            let count = stride * (h - 1) + w
            texels = FencedTexels(count: count, atStart: rng.below(2) == 0)
            for i in 0..<count {
                switch rng.below(8) {
                case 0: texels.pointer[i] = 0
                case 1, 2, 3: texels.pointer[i] = rng.premultipliedColor().argb | 0xFF00_0000
                default: texels.pointer[i] = rng.premultipliedColor().argb
                }
            }
            view = PixelView<ARGB8888>(base: texels.pointer, width: w, height: h, rowStride: stride)
            let whole = SampleSource(view)
            if rng.below(3) == 0 {
                let x0 = rng.below(w), y0 = rng.below(h)
                let x1 = x0 + 1 + rng.below(w - x0), y1 = y0 + 1 + rng.below(h - y0)
                source = whole.limited(x0: Int32(x0), y0: Int32(y0), x1: Int32(x1), y1: Int32(y1))
                contentsRect = PaintRect(x: Double(x0) / Double(w), y: Double(y0) / Double(h),
                                         width: Double(x1 - x0) / Double(w), height: Double(y1 - y0) / Double(h))
            } else {
                source = whole
                contentsRect = .unit
            }
        }
    }

    /// A scale from 0.1× to 4× (either sign sometimes), now and then one
    /// of the exact steps the contiguous loops take.
    func randomScale(_ rng: inout SplitMix64) -> Double {
        let sign = rng.below(6) == 0 ? -1.0 : 1.0
        switch rng.below(6) {
        case 0: return sign * [0.5, 1, 2, 0.25, 1.5, 2.56, 1 / 3][rng.below(7)]
        default: return sign * 0.1 * Foundation.pow(40, rng.unit())
        }
    }

    /// Spans of the scaled rows and of the reference, with a canary past
    /// the end; `nil` when one wrote past `count`.
    func spans(_ count: Int, _ body: (UnsafeMutablePointer<UInt32>, KernelFamily) -> Void) -> (simd: [UInt32], reference: [UInt32])? {
        var out: [[UInt32]] = []
        for family in [KernelFamily.simd, .reference] {
            var span = [UInt32](repeating: 0x5A5A_5A5A, count: count + 9)
            span.withUnsafeMutableBufferPointer { body($0.baseAddress!, family) }
            guard span[count...].allSatisfy({ $0 == 0x5A5A_5A5A }) else { return nil }
            out.append(Array(span[..<count]))
        }
        return (out[0], out[1])
    }

    func difference(_ a: [UInt32], _ b: [UInt32]) -> String? {
        guard let i = a.indices.first(where: { a[$0] != b[$0] }) else { return nil }
        return "pixel \(i) of \(a.count): scaled 0x\(String(a[i], radix: 16)) reference 0x\(String(b[i], radix: 16))"
    }

    /// `ImageSampler.scaledRow` row by row, as a draw calls it: one map,
    /// rows from above the image to below it, spans at random starts (some
    /// rows alike, as the middle rows of a clipped draw, some cut in
    /// pieces), with one scratch kept across draws or none.
    func testScaledRowsEqualReference() {
        var rng = SplitMix64(seed: 0x5CA1ED)
        let scratch = ImageSamplingScratch()
        var rowsTried = 0
        for trial in 0..<1500 {
            let image = Image(&rng)
            let s = image.source
            let sx = randomScale(&rng), sy = randomScale(&rng)
            let edge: ImageEdge = trial % 2 == 0 ? .transparent : .clamp
            let useScratch = trial % 5 != 0
            // Destination → image: the image placed at a random offset.
            let ox = rng.unit() * 40 - 20, oy = rng.unit() * 30 - 10
            let inv = AffineTransform(a: 1 / sx, b: 0, c: 0, d: 1 / sy, tx: -ox / sx, ty: -oy / sy)
            let width = Int(Double(s.x1) * Swift.abs(sx)) + 40
            let left = Int(ox) - 10 - (sx < 0 ? width : 0)
            let x0 = left + rng.below(8)
            for _ in 0..<12 {
                let y = Int(oy) - 4 - (sy < 0 ? Int(Double(s.y1) * -sy) : 0) + rng.below(Int(Double(s.y1) * Swift.abs(sy)) + 10)
                let x = rng.below(4) == 0 ? x0 + rng.below(20) : x0
                let count = 1 + rng.below(width + 20)
                let start = inv.apply(x: Double(x) + 0.5, y: Double(y) + 0.5)
                let step = (x: inv.a, y: inv.b)
                guard let (a, b) = spans(count, { dst, family in
                    ImageSampler.scaledRow(s, edge: edge, start: start, step: step, x: x, count: count, into: dst, family: family,
                                           scratch: useScratch ? scratch : nil, end: x0 + width)
                }) else {
                    XCTFail("trial \(trial): a span was written past its end")
                    return
                }
                rowsTried += 1
                if let d = difference(a, b) {
                    XCTFail("trial \(trial) \(image.view.width)×\(image.view.height) region \(s.x0),\(s.y0)–\(s.x1),\(s.y1) \(edge) scale \(sx)×\(sy) row \(y) from \(x) (scratch \(useScratch)): \(d)")
                    return
                }
            }
        }
        XCTAssertEqual(rowsTried, 1500 * 12)
    }

    /// Whole draws as `Canvas.fill` makes them: `ImagePaint` under random
    /// scales and offsets (flips too), bilinear and trilinear, both edges,
    /// contentsRects, at random global alphas, with one scratch shared by
    /// every draw (as the compositor keeps it) or none; the SIMD canvas
    /// against the reference canvas, pixel for pixel, and both against a
    /// paint drawn row by row in random pieces.
    func testScaledDrawsEqualReference() {
        var rng = SplitMix64(seed: 0xD4A7)
        let scratch = ImageSamplingScratch()
        for trial in 0..<400 {
            let image = Image(&rng)
            let sx = randomScale(&rng), sy = randomScale(&rng)
            let w = Double(image.view.width), h = Double(image.view.height)
            let t = AffineTransform.scale(x: sx, y: sy)
                .concatenating(.translation(x: rng.unit() * 30 + (sx < 0 ? w * -sx : 0), y: rng.unit() * 20 + (sy < 0 ? h * -sy : 0)))
            let filter: ImageFilter = trial % 3 == 2 ? .trilinear : .bilinear
            let edge: ImageEdge = trial % 4 == 1 ? .clamp : .transparent
            let alpha = UInt8(trial % 5 == 0 ? 255 : 1 + rng.below(255))
            let paint = ImagePaint(image: image.view, transform: t, filter: filter, edge: edge, contentsRect: image.contentsRect,
                                   scratch: trial % 6 == 0 ? nil : scratch)
            let width = Int(w * Swift.abs(sx)) + 50, height = Int(h * Swift.abs(sy)) + 40
            let area = IntRect(x: 0, y: 0, width: Swift.min(width, 700), height: Swift.min(height, 200))
            let (a, ca) = PaintFixtures.backdrop(width: area.width, height: area.height, family: .simd)
            let (b, cb) = PaintFixtures.backdrop(width: area.width, height: area.height, family: .reference)
            ca.fill(area, paint: paint, alpha: alpha)
            cb.fill(area, paint: paint, alpha: alpha)
            for y in 0..<area.height {
                for x in 0..<area.width where a.view[x, y] != b.view[x, y] {
                    XCTFail("trial \(trial) \(filter) \(edge) \(image.view.width)×\(image.view.height) scale \(sx)×\(sy) alpha \(alpha): pixel (\(x), \(y)) SIMD 0x\(String(a.view[x, y], radix: 16)) reference 0x\(String(b.view[x, y], radix: 16))")
                    return
                }
            }
            // The same rows shaded in random pieces (new starts, so tables
            // are looked up, missed and rebuilt).
            for _ in 0..<4 {
                let y = rng.below(area.height), x = rng.below(area.width), n = 1 + rng.below(area.width - x)
                let s = PaintFixtures.span(paint, x: x, y: y, count: n, family: .simd)
                let r = PaintFixtures.span(paint, x: x, y: y, count: n, family: .reference)
                if let d = difference(s, r) {
                    XCTFail("trial \(trial) \(filter) \(edge) scale \(sx)×\(sy) row \(y) from \(x): \(d)")
                    return
                }
            }
            withExtendedLifetime((a, b)) {}
        }
    }

    /// The table of a row is reused only where it is exact: under a scale
    /// of 1/3 a row's start rounds apart from stepping there from another
    /// start, and every start gives the reference's bits; a start seen
    /// before finds its table again without building one.
    func testTablesAreReusedOnlyWhereExact() {
        let pixels = FencedTexels(count: 64 * 4, atStart: false)
        for i in 0..<256 { pixels.pointer[i] = UInt32(truncatingIfNeeded: i &* 0x0103_0507) | 0xFF00_0000 }
        let view = PixelView<ARGB8888>(base: pixels.pointer, width: 64, height: 4, rowStride: 64)
        let scratch = ImageSamplingScratch()
        let inv = AffineTransform(a: 1.0 / 3, b: 0, c: 0, d: 0.5, tx: 0.123, ty: 0.2)
        var built: [Bool] = []
        for x in [0, 1, 2, 0, 1, 5, 0] {
            let start = inv.apply(x: Double(x) + 0.5, y: 1.5)
            let before = scratch.slots.map { [$0.origin, $0.count, Int($0.u0)] }
            guard let (a, b) = spans(100, { dst, family in
                ImageSampler.scaledRow(SampleSource(view), edge: .clamp, start: start, step: (inv.a, 0), x: x, count: 100, into: dst,
                                       family: family, scratch: scratch, end: 200)
            }) else { return XCTFail("wrote past the span") }
            if let d = difference(a, b) { return XCTFail("start \(x): \(d)") }
            built.append(scratch.slots.map { [$0.origin, $0.count, Int($0.u0)] } != before)
        }
        XCTAssertEqual(built[0], true)
        XCTAssertEqual([built[3], built[4], built[6]], [false, false, false])
    }

    /// The mip levels' blend: SIMD rows equal `lerp` pixel for pixel, at
    /// every weight, lengths around the 8-pixel chunk.
    func testLerpRowEqualsReference() {
        var rng = SplitMix64(seed: 0x1E4)
        for f in 0...256 {
            let n = [1, 7, 8, 9, 16, 23, 64][f % 7]
            let a = (0..<n).map { _ in rng.premultipliedColor().argb }, b = (0..<n).map { _ in rng.premultipliedColor().argb }
            var simd = a, reference = a
            simd.withUnsafeMutableBufferPointer { ImageSampler.lerpRow($0.baseAddress!, b, UInt32(f), count: n, family: .simd) }
            reference.withUnsafeMutableBufferPointer { ImageSampler.lerpRow($0.baseAddress!, b, UInt32(f), count: n, family: .reference) }
            XCTAssertEqual(simd, reference, "weight \(f)")
            XCTAssertEqual(reference, zip(a, b).map { ImageSampler.lerp($0, $1, UInt32(f)) })
        }
    }
}
