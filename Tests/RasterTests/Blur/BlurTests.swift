import XCTest
import Raster
import TestSupport

/// The Gaussian blur: SIMD against the reference (bit-identical, guarded
/// buffers, odd sizes, padded rows), bad radii, and the three-box
/// approximation against a floating-point Gaussian.
final class BlurTests: XCTestCase {
    private let sizes = [(1, 1), (3, 17), (17, 3), (16, 16), (31, 29), (33, 8), (70, 41)]
    private let radii: [Double] = [0, 0.5, 1, 1.6, 2, 3.3, 6, 10, 25, 300, -4, .nan, .infinity]

    /// A guarded A8 or ARGB view of random content. Rows are `stride`
    /// elements apart, and the buffer ends at a guard page right after the
    /// last pixel of the last row.
    private func guardedView<F: PixelFormat>(_ format: F.Type, width: Int, height: Int, stride: Int, seed: UInt64)
        -> (GuardedBuffer<F.Storage>, PixelView<F>) {
        let count = stride * (height - 1) + width
        let buffer = GuardedBuffer<F.Storage>(count: count)
        var rng = SplitMix64(seed: seed)
        for i in 0..<count {
            // Blobs rather than noise: a quarter of rows transparent, a quarter opaque.
            let c = rng.premultipliedColor().argb
            buffer.pointer[i] = F.Storage(truncatingIfNeeded: F.self == A8.self ? c >> 24 : UInt32(c))
        }
        return (buffer, PixelView(base: buffer.pointer, width: width, height: height, rowStride: stride))
    }

    private func compareFamilies<F: PixelFormat>(_ format: F.Type, blur: (GaussianBlur, PixelView<F>, Double, KernelFamily) -> Void) {
        let engine = GaussianBlur()
        for (w, h) in sizes {
            for stride in [w, w + 5] {
                for radius in radii {
                    let seed = UInt64(w * 1000 + h) ^ UInt64(stride) << 20
                    let (ab, a) = guardedView(F.self, width: w, height: h, stride: stride, seed: seed)
                    let (bb, b) = guardedView(F.self, width: w, height: h, stride: stride, seed: seed)
                    blur(engine, a, radius, .simd)
                    blur(engine, b, radius, .reference)
                    for i in 0..<ab.count where ab.pointer[i] != bb.pointer[i] {
                        return XCTFail("\(F.self) \(w)×\(h) stride \(stride) radius \(radius): element \(i) SIMD \(ab.pointer[i]) reference \(bb.pointer[i])")
                    }
                    // Row padding (stride > width) is never touched.
                    let (cb, _) = guardedView(F.self, width: w, height: h, stride: stride, seed: seed)
                    for y in 0..<(h - 1) {
                        for x in w..<stride where ab.pointer[y * stride + x] != cb.pointer[y * stride + x] {
                            return XCTFail("\(F.self) \(w)×\(h) radius \(radius): padding at (\(x), \(y)) written")
                        }
                    }
                    if !(radius > 0) || BlurPlan(radius: radius).isIdentity {
                        for i in 0..<ab.count where ab.pointer[i] != cb.pointer[i] {
                            return XCTFail("radius \(radius) should leave the image unchanged")
                        }
                    }
                }
            }
        }
    }

    func testA8SIMDMatchesReference() {
        compareFamilies(A8.self) { engine, view, radius, family in engine.blur(view, radius: radius, family: family) }
    }

    func testARGBSIMDMatchesReferenceAndStaysPremultiplied() {
        compareFamilies(ARGB8888.self) { engine, view, radius, family in
            engine.blur(view, radius: radius, family: family)
            for y in 0..<view.height {
                for x in 0..<view.width {
                    let p = view[x, y], a = p >> 24
                    if (p >> 16) & 0xFF > a || (p >> 8) & 0xFF > a || p & 0xFF > a {
                        return XCTFail("radius \(radius): (\(x), \(y)) = \(hexPixel(p)) breaks colour ≤ alpha")
                    }
                }
            }
        }
    }

    func testPlanForBadAndLargeRadii() {
        for r in [0, -1, -.infinity, .nan, 0.3] as [Double] { XCTAssertTrue(BlurPlan(radius: r).isIdentity, "\(r)") }
        XCTAssertEqual(BlurPlan(radius: .infinity).radius, BlurPlan.maxRadius)
        // σ = 5: √101 → wl = 9, m = round(60/40) = 2: boxes 9, 9, 11
        // (variance (80 + 80 + 120)/12 = 23.3 against 25).
        XCTAssertEqual(BlurPlan(radius: 10).passes.map(\.size), [9, 9, 11])
        XCTAssertEqual(BlurPlan(radius: 1.6).passes.map(\.size), [1, 1, 3])
        XCTAssertTrue(BlurPlan(radius: 1).isIdentity)
        XCTAssertLessThanOrEqual(BlurPlan(radius: .infinity).passes.map(\.size).max()!, 4099)
        // A constant line of 255 stays 255 for every box size up to the limit.
        for size in [2, 3, 4, 9, 100, 3851, 4099] {
            let box = BoxWindow(before: size / 2, after: size - 1 - size / 2)
            XCTAssertEqual(box.average(UInt32(255 * size)), 255, "size \(size)")
        }
    }

    /// A radius far larger than the image: everything spreads thin, both
    /// families agree, and the scratch memory is reused on the next call.
    func testRadiusLargerThanImage() {
        guard let a = Surface<A8>(width: 10, height: 7), let b = Surface<A8>(width: 10, height: 7) else { return XCTFail() }
        a.clear(to: 255); b.clear(to: 255)
        let engine = GaussianBlur()
        engine.blur(a.view, radius: 200, family: .simd)
        engine.blur(b.view, radius: 200, family: .reference)
        for y in 0..<7 { for x in 0..<10 { XCTAssertEqual(a.view[x, y], b.view[x, y]) } }
        XCTAssertLessThan(a.view[5, 3], 10)
        let capacity = engine.scratchCapacity
        engine.blur(a.view, radius: 3, family: .simd)
        XCTAssertEqual(engine.scratchCapacity, capacity)
    }

    /// The three-box result against a true Gaussian (σ = radius/2, sampled,
    /// transparent outside) on a hard-edged square and a ring of dots, the
    /// worst cases for a box approximation. Asserted: every pixel within 3 %
    /// of full scale (7.65 levels; the accuracy SVG 1.1 promises for its box
    /// approximation), within 4.5 levels for radius ≥ 7, and a mean error
    /// below 0.65 level. Measured: worst 7.2 / 3.3 / 4.2 / 2.7 and mean
    /// ≈ 0.55–0.6 at radius 4 / 7 / 10 / 16. Sources: the boxes' shape (a
    /// piecewise quadratic), their variance being off σ² by up to one
    /// box-size step (worst at small σ), and rounding to 8 bits after each of
    /// the six passes (most of the mean error).
    func testApproximatesTrueGaussian() {
        for radius in [4.0, 7.0, 10.0, 16.0] {
            let w = 96, h = 80
            guard let img = Surface<A8>(width: w, height: h) else { return XCTFail() }
            var input = [Double](repeating: 0, count: w * h)
            for y in 0..<h {
                for x in 0..<w {
                    let square = x >= 30 && x < 60 && y >= 25 && y < 50
                    let dot = (x % 13 == 0 && y % 11 == 0)
                    let v: UInt8 = square ? 255 : dot ? 200 : 0
                    img.view[x, y] = v
                    input[y * w + x] = Double(v)
                }
            }
            GaussianBlur().blur(img.view, radius: radius)
            let sigma = radius / 2, k = Int((4 * sigma).rounded(.up))
            var kernel = (-k...k).map { exp(-Double($0 * $0) / (2 * sigma * sigma)) }
            let total = kernel.reduce(0, +)
            kernel = kernel.map { $0 / total }
            var tmp = [Double](repeating: 0, count: w * h), out = tmp
            for y in 0..<h { for x in 0..<w {
                var s = 0.0
                for j in -k...k where x + j >= 0 && x + j < w { s += kernel[j + k] * input[y * w + x + j] }
                tmp[y * w + x] = s
            } }
            for y in 0..<h { for x in 0..<w {
                var s = 0.0
                for j in -k...k where y + j >= 0 && y + j < h { s += kernel[j + k] * tmp[(y + j) * w + x] }
                out[y * w + x] = s
            } }
            var worst = 0.0, sum = 0.0
            for y in 0..<h { for x in 0..<w {
                let e = abs(Double(img.view[x, y]) - out[y * w + x])
                worst = max(worst, e); sum += e
            } }
            XCTAssertLessThanOrEqual(worst, radius >= 7 ? 4.5 : 0.03 * 255, "radius \(radius): worst error \(worst)")
            XCTAssertLessThan(sum / Double(w * h), 0.65, "radius \(radius): mean error \(sum / Double(w * h))")
        }
    }
}
