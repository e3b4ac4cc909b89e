import Raster
import TestSupport
import XCTest

/// `AreaDownsampler` against an independent oracle: the area-weighted mean
/// computed here in Double from the overlap of each source pixel with each
/// output pixel's rectangle (real-valued boundaries, no shared code).
final class AreaDownsamplerTests: XCTestCase {
    /// The exact box-filter mean of `source` over output pixel (i, j),
    /// per channel (A, R, G, B).
    static func oracle(_ source: PixelView<ARGB8888>, width: Int, height: Int, i: Int, j: Int) -> [Double] {
        let sx = Double(source.width) / Double(width), sy = Double(source.height) / Double(height)
        let x0 = Double(i) * sx, x1 = Double(i + 1) * sx, y0 = Double(j) * sy, y1 = Double(j + 1) * sy
        var sum = [0.0, 0, 0, 0]
        var area = 0.0
        for y in Int(y0.rounded(.down))..<min(source.height, Int(y1.rounded(.up))) {
            let oy = min(y1, Double(y + 1)) - max(y0, Double(y))
            guard oy > 0 else { continue }
            for x in Int(x0.rounded(.down))..<min(source.width, Int(x1.rounded(.up))) {
                let ox = min(x1, Double(x + 1)) - max(x0, Double(x))
                guard ox > 0 else { continue }
                let p = source.row(y)[x], w = ox * oy
                sum[0] += w * Double(p >> 24)
                sum[1] += w * Double((p >> 16) & 0xFF)
                sum[2] += w * Double((p >> 8) & 0xFF)
                sum[3] += w * Double(p & 0xFF)
                area += w
            }
        }
        return sum.map { $0 / area }
    }

    /// Largest distance between `result` and the oracle, over all pixels
    /// and channels; checks the premultiplied invariant on the way.
    static func maxError(_ result: PixelView<ARGB8888>, source: PixelView<ARGB8888>) -> Double {
        var worst = 0.0
        for j in 0..<result.height {
            for i in 0..<result.width {
                let p = result.row(j)[i]
                let got = [Double(p >> 24), Double((p >> 16) & 0xFF), Double((p >> 8) & 0xFF), Double(p & 0xFF)]
                let want = oracle(source, width: result.width, height: result.height, i: i, j: j)
                for c in 0..<4 { worst = max(worst, abs(got[c] - want[c])) }
                XCTAssertTrue((p >> 16) & 0xFF <= p >> 24 && (p >> 8) & 0xFF <= p >> 24 && p & 0xFF <= p >> 24,
                              "not premultiplied at \(i),\(j)")
            }
        }
        return worst
    }

    /// Random premultiplied pixels from a fixed seed.
    func noise(_ w: Int, _ h: Int, seed: UInt64, opaque: Bool) -> Surface<ARGB8888> {
        var rng = SplitMix64(seed: seed)
        let s = Surface<ARGB8888>(width: w, height: h)!
        for y in 0..<h {
            for x in 0..<w {
                let r = rng.next()
                let a = opaque ? 255 : UInt32(r & 0xFF)
                let c = { (shift: UInt64) in UInt32((r >> shift) & 0xFF) * a / 255 }
                s.view.row(y)[x] = a << 24 | c(8) << 16 | c(16) << 8 | c(24)
            }
        }
        return s
    }

    func testMatchesTheAreaMeanOnOddRatios() throws {
        // (source, target): non-integer ratios both ways, integer ones,
        // identity, a single output pixel, one row and one column.
        let cases = [(37, 23, 10, 7), (64, 48, 16, 12), (50, 50, 50, 50), (33, 17, 1, 1), (100, 1, 3, 1),
                     (1, 90, 1, 11), (129, 65, 128, 64), (7, 5, 6, 4)]
        for (n, (sw, sh, dw, dh)) in cases.enumerated() {
            for opaque in [true, false] {
                let source = noise(sw, sh, seed: UInt64(n * 2 + (opaque ? 1 : 0)), opaque: opaque)
                let out = try XCTUnwrap(AreaDownsampler.downsample(source.view, width: dw, height: dh))
                XCTAssertEqual(out.width, dw)
                XCTAssertEqual(out.height, dh)
                // Rounded to nearest: within half a level (plus float noise).
                let e = Self.maxError(out.view, source: source.view)
                XCTAssertLessThanOrEqual(e, 0.5 + 1e-6, "\(sw)x\(sh) → \(dw)x\(dh) opaque \(opaque)")
                if opaque {
                    for y in 0..<dh { for x in 0..<dw { XCTAssertEqual(out.view.row(y)[x] >> 24, 255) } }
                }
                if sw == dw && sh == dh { XCTAssertEqual(pixelChecksum(out.view), pixelChecksum(source.view)) }
            }
        }
    }

    func testRowsPushedOneByOneEqualTheWholeImage() throws {
        let source = noise(45, 31, seed: 9, opaque: false)
        let d = try XCTUnwrap(AreaDownsampler(sourceWidth: 45, sourceHeight: 31, width: 13, height: 8))
        for y in 0..<31 {
            XCTAssertFalse(d.isComplete)
            d.push(UnsafePointer(source.view.row(y)))
        }
        XCTAssertTrue(d.isComplete)
        d.push(UnsafePointer(source.view.row(0)))            // past the end: ignored
        let whole = try XCTUnwrap(AreaDownsampler.downsample(source.view, width: 13, height: 8))
        XCTAssertEqual(pixelChecksum(d.output.view), pixelChecksum(whole.view))
    }

    func testRefusesBadSizes() {
        XCTAssertNil(AreaDownsampler(sourceWidth: 10, sourceHeight: 10, width: 11, height: 5), "no upscaling")
        XCTAssertNil(AreaDownsampler(sourceWidth: 10, sourceHeight: 10, width: 0, height: 5))
        XCTAssertNil(AreaDownsampler(sourceWidth: -3, sourceHeight: 10, width: 1, height: 1))
        XCTAssertNil(AreaDownsampler(sourceWidth: 1 << 21, sourceHeight: 10, width: 1, height: 1))
    }

    func testFittedSize() {
        // Worked examples from the doc comment.
        XCTAssertTrue(AreaDownsampler.fittedSize(sourceWidth: 4000, sourceHeight: 3000, maxWidth: 1024, maxHeight: 1024) == (1024, 768))
        XCTAssertTrue(AreaDownsampler.fittedSize(sourceWidth: 1000, sourceHeight: 10, maxWidth: 64, maxHeight: 64) == (64, 1))
        XCTAssertTrue(AreaDownsampler.fittedSize(sourceWidth: 30, sourceHeight: 20, maxWidth: 64, maxHeight: 64) == (30, 20), "never enlarged")
        XCTAssertTrue(AreaDownsampler.fittedSize(sourceWidth: 30, sourceHeight: 20, maxWidth: 0, maxHeight: -5) == (1, 1))
        // Against the Double formula on many sizes.
        var rng = SplitMix64(seed: 77)
        for _ in 0..<2000 {
            let sw = Int(rng.next() % 5000) + 1, sh = Int(rng.next() % 5000) + 1
            let mw = Int(rng.next() % 800) + 1, mh = Int(rng.next() % 800) + 1
            let (w, h) = AreaDownsampler.fittedSize(sourceWidth: sw, sourceHeight: sh, maxWidth: mw, maxHeight: mh)
            XCTAssertTrue(w >= 1 && w <= min(sw, mw) && h >= 1 && h <= min(sh, mh))
            if sw > mw || sh > mh {
                let s = min(Double(mw) / Double(sw), Double(mh) / Double(sh))
                // Rounded to nearest, or 1 where that would be 0.
                let ew = max(1, Double(sw) * s), eh = max(1, Double(sh) * s)
                XCTAssertLessThanOrEqual(abs(Double(w) - ew), 0.5 + 1e-9, "\(sw)x\(sh) in \(mw)x\(mh)")
                XCTAssertLessThanOrEqual(abs(Double(h) - eh), 0.5 + 1e-9, "\(sw)x\(sh) in \(mw)x\(mh)")
                XCTAssertTrue(w == mw || h == mh, "the limiting side is at its maximum")
            }
        }
    }
}
