import XCTest
import Raster
import TestSupport

final class Dither565Tests: XCTestCase {
    func testSIMDRowEqualsReference() {
        var rng = SplitMix64(seed: 565)
        for count in Array(0...40) + [333] {
            for x0 in [0, 1, 2, 3, 5] {
                let y = rng.below(7)
                let src = GuardedBuffer<UInt32>(count: count)
                for i in 0..<count { src.pointer[i] = rng.premultipliedColor().argb }
                let a = GuardedBuffer<UInt16>(count: count), b = GuardedBuffer<UInt16>(count: count)
                Dither565.row(a.pointer, src.pointer, count, x: x0, y: y)
                Dither565.rowReference(b.pointer, src.pointer, count, x: x0, y: y)
                for i in 0..<count { XCTAssertEqual(a.pointer[i], b.pointer[i], "count=\(count) x0=\(x0) i=\(i)") }
            }
        }
    }

    /// Over each 4×4 cell the dithered levels average to the 8-bit value:
    /// |mean(level)·255/31 − c| ≤ 255/31/16 + ε for red/blue (and /63 for
    /// green), the resolution of a 16-threshold pattern; the extremes stay
    /// exact.
    func testCellAverageMatchesTheValue() {
        for c in UInt32(0)...255 {
            let argb = 0xFF00_0000 | (c << 16) | (c << 8) | c
            var r = 0.0, g = 0.0
            for y in 0..<4 { for x in 0..<4 {
                let p = Dither565.pixel(argb, x: x, y: y)
                r += Double(p >> 11); g += Double((p >> 5) & 0x3F)
            } }
            XCTAssertEqual(r / 16 * 255 / 31, Double(c), accuracy: 255.0 / 31 / 16 + 1e-9, "red c=\(c)")
            XCTAssertEqual(g / 16 * 255 / 63, Double(c), accuracy: 255.0 / 63 / 16 + 1e-9, "green c=\(c)")
        }
        XCTAssertEqual(Dither565.pixel(0xFFFF_FFFF, x: 3, y: 1), 0xFFFF)
        XCTAssertEqual(Dither565.pixel(0xFF00_0000, x: 2, y: 2), 0)
    }

    func testConversionUsesAbsolutePositions() throws {
        let src = try XCTUnwrap(Surface<ARGB8888>(width: 37, height: 9))
        var rng = SplitMix64(seed: 1)
        for y in 0..<9 { for x in 0..<37 { src.view[x, y] = rng.premultipliedColor().argb } }
        let whole = try XCTUnwrap(Surface<RGB565>(width: 37, height: 9)), parts = try XCTUnwrap(Surface<RGB565>(width: 37, height: 9))
        ScanoutConversion.copyDithered(src.view, into: whole.view, rect: src.view.bounds)
        // Two damaged regions converted separately tile with the whole.
        ScanoutConversion.copyDithered(src.view, into: parts.view, rect: IntRect(x: 0, y: 0, width: 13, height: 9))
        ScanoutConversion.copyDithered(src.view, into: parts.view, rect: IntRect(x: 13, y: 0, width: 24, height: 9), family: .reference)
        XCTAssertEqual(pixelChecksum(whole.view), pixelChecksum(parts.view))
    }
}
