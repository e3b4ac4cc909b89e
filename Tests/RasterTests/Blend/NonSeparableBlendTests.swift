import CCairo
import Raster
import TestSupport
import XCTest

/// The non-separable blend modes (hue, saturation, colour, luminosity)
/// against cairo's (`CAIRO_OPERATOR_HSL_*`, pixman's combiners): an
/// implementation nobody here wrote. Random premultiplied pixels (a
/// quarter transparent, a quarter opaque) composited by both, every
/// channel compared. Stated tolerance: ≤ 1 level per channel (pixman
/// rounds its own way; the float formula, `BlendFormulaTests`, holds ours
/// to ≤ 0.51) and a mean under 0.2 levels (measured: worst 1, mean
/// 0.115–0.123). A swapped source and destination, or the wrong
/// helper (`SetSat` for `SetLum`), shows as tens of levels on most pixels.
final class NonSeparableBlendTests: XCTestCase {
    func testMatchesCairo() throws {
        let n = 4096
        let modes: [(BlendOperator, cairo_operator_t)] = [
            (.hue, CAIRO_OPERATOR_HSL_HUE), (.saturation, CAIRO_OPERATOR_HSL_SATURATION),
            (.color, CAIRO_OPERATOR_HSL_COLOR), (.luminosity, CAIRO_OPERATOR_HSL_LUMINOSITY),
        ]
        for (op, cairoOp) in modes {
            var rng = SplitMix64(seed: 0x45E ^ UInt64(op.rawValue))
            var src = [UInt32](repeating: 0, count: n), dst = src
            src.withUnsafeMutableBufferPointer { fillRandomPixels($0.baseAddress!, n, &rng) }
            dst.withUnsafeMutableBufferPointer { fillRandomPixels($0.baseAddress!, n, &rng) }
            var ours = dst
            let kernel = try XCTUnwrap(KernelTable.image(op, alpha: 255, sourceIsOpaque: false, family: .simd))
            kernel(&ours, src, n, 255)

            let stride = 4 * n
            var theirs = dst
            let srcSurface = src.withUnsafeMutableBytes {
                cairo_image_surface_create_for_data($0.baseAddress!.assumingMemoryBound(to: UInt8.self), CAIRO_FORMAT_ARGB32, Int32(n), 1, Int32(stride))!
            }
            theirs.withUnsafeMutableBytes { bytes in
                let dstSurface = cairo_image_surface_create_for_data(bytes.baseAddress!.assumingMemoryBound(to: UInt8.self), CAIRO_FORMAT_ARGB32,
                                                                     Int32(n), 1, Int32(stride))!
                let cr = cairo_create(dstSurface)!
                cairo_set_source_surface(cr, srcSurface, 0, 0)
                cairo_set_operator(cr, cairoOp)
                cairo_paint(cr)
                cairo_destroy(cr)
                cairo_surface_flush(dstSurface)
                cairo_surface_destroy(dstSurface)
            }
            cairo_surface_destroy(srcSurface)

            var worst = 0, sum = 0, changed = 0
            for i in 0..<n {
                if ours[i] != dst[i] { changed += 1 }
                for shift: UInt32 in [0, 8, 16, 24] {
                    let d = abs(Int((ours[i] >> shift) & 0xFF) - Int((theirs[i] >> shift) & 0xFF))
                    worst = max(worst, d); sum += d
                    if d > 1 {
                        return XCTFail("\(op) s=\(hexPixel(src[i])) d=\(hexPixel(dst[i])): ours \(hexPixel(ours[i])) cairo \(hexPixel(theirs[i]))")
                    }
                }
            }
            let mean = Double(sum) / Double(4 * n)
            print("\(op) against cairo: worst \(worst) levels, mean \(mean)")
            XCTAssertLessThan(mean, 0.2, "\(op)")
            XCTAssertGreaterThan(changed, n / 2, "\(op): the comparison is about something")
        }
    }
}
