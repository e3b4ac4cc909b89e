import Raster
import XCTest

/// Reading pixels back: channel accessors on `PremultipliedColor` and
/// `PixelView.color(x:y:)` for every format.
final class PixelChannelTests: XCTestCase {
    func testChannelsAndUnpremultiplied() {
        let c = PremultipliedColor(red8: 200, green: 100, blue: 0, alpha: 128)
        XCTAssertEqual(c.alpha, 128)
        XCTAssertEqual(c.red, 100)      // div255(200 · 128) = 100
        XCTAssertEqual(c.green, 50)
        XCTAssertEqual(c.blue, 0)
        let s = c.unpremultiplied
        XCTAssertEqual(s.alpha, 128)
        XCTAssertEqual(s.red, 199)      // round(100 · 255 / 128): 8-bit premultiplication loses a level
        XCTAssertEqual(s.green, 100)
        XCTAssertEqual(s.blue, 0)
        XCTAssertTrue(PremultipliedColor.clear.unpremultiplied == (0, 0, 0, 0))
        // Opaque colours come back exactly, every level.
        for v in 0...255 {
            let o = PremultipliedColor(red8: UInt8(v), green: UInt8(255 - v), blue: UInt8(v / 2)).unpremultiplied
            XCTAssertTrue(o == (UInt8(v), UInt8(255 - v), UInt8(v / 2), 255))
        }
    }

    func testColorOfAPixelInEveryFormat() throws {
        let argb = try XCTUnwrap(Surface<ARGB8888>(width: 2, height: 1))
        argb.view[1, 0] = PremultipliedColor(red8: 255, green: 0, blue: 0, alpha: 64).argb
        XCTAssertEqual(argb.view.color(x: 1, y: 0).red, 64)
        XCTAssertEqual(argb.view.color(x: 1, y: 0).unpremultiplied.red, 255)
        let rgb565 = try XCTUnwrap(Surface<RGB565>(width: 1, height: 1))
        rgb565.view[0, 0] = RGB565.fromPremultipliedARGB(0xFF00_FF00)
        let green = rgb565.view.color(x: 0, y: 0)
        XCTAssertEqual(green.green, 255)
        XCTAssertEqual(green.alpha, 255)
        let mask = try XCTUnwrap(Surface<A8>(width: 1, height: 1))
        mask.view[0, 0] = 77
        XCTAssertEqual(mask.view.color(x: 0, y: 0).alpha, 77)
        XCTAssertEqual(mask.view.color(x: 0, y: 0).red, 0)
    }
}
