import Foundation
import ImageIO
import Raster
import XCTest

/// PNG through libpng: round trips (premultiplied in, premultiplied out),
/// opacity detection, and bad files giving clear errors.
final class PNGTests: XCTestCase {
    func path(_ name: String) -> String {
        let dir = FileManager.default.temporaryDirectory.appendingPathComponent("fbr-png-tests")
        try? FileManager.default.createDirectory(at: dir, withIntermediateDirectories: true)
        return dir.appendingPathComponent(name).path
    }

    func testRoundTripAndOpacity() throws {
        let opaque = try XCTUnwrap(Surface<ARGB8888>(width: 5, height: 3))
        for y in 0..<3 { for x in 0..<5 { opaque.view.row(y)[x] = 0xFF00_0000 | UInt32(x * 40) << 16 | UInt32(y * 80) } }
        try PNG.write(opaque.view, to: path("opaque.png"))
        let a = try PNG.readImage(from: path("opaque.png"))
        XCTAssertTrue(a.isOpaque)
        XCTAssertEqual(pixelChecksum(a.surface.view), pixelChecksum(opaque.view))

        let translucent = try XCTUnwrap(Surface<ARGB8888>(width: 4, height: 4))
        translucent.clear(to: 0xFF20_4060)
        translucent.view.row(2)[3] = 0x8010_2030          // premultiplied, alpha 128
        try PNG.write(translucent.view, to: path("translucent.png"))
        let b = try PNG.readImage(from: path("translucent.png"))
        XCTAssertFalse(b.isOpaque)
        XCTAssertEqual(b.surface.view.row(2)[3] >> 24, 0x80)
    }

    func testBadFilesAreErrors() throws {
        XCTAssertThrowsError(try PNG.read(from: path("missing.png")))
        let junk = path("junk.png")
        try Data([0x89, 0x50, 0x4E, 0x47, 1, 2, 3]).write(to: URL(fileURLWithPath: junk))
        XCTAssertThrowsError(try PNG.read(from: junk)) { XCTAssertTrue("\($0)".contains("junk.png")) }
        // A valid file cut in half.
        let whole = try XCTUnwrap(Surface<ARGB8888>(width: 64, height: 64))
        whole.clear(to: 0xFF33_6699)
        try PNG.write(whole.view, to: path("whole.png"))
        let bytes = try Data(contentsOf: URL(fileURLWithPath: path("whole.png")))
        try bytes.prefix(bytes.count / 2).write(to: URL(fileURLWithPath: path("cut.png")))
        XCTAssertThrowsError(try PNG.read(from: path("cut.png")))
    }
}
