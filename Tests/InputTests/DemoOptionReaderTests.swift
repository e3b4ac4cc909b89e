import XCTest
import DemoScenes
import Raster

/// The command-line reader fbcheck and fbsim share: the walk over the
/// arguments and the value parsers, against the arguments written out.
final class DemoOptionReaderTests: XCTestCase {
    func testTheWalkGivesOptionsValuesAndScenesInOrder() {
        let arguments = ["fbcheck", "--frames", "30", "--size", "640x480", "--hud", "--board", "qemu-virt", "coverflow"]
        var r = DemoOptionReader(arguments, usage: { message in fatalError("refused: \(message)") })
        var seen: [String] = []
        while let a = r.next() {
            switch a {
            case "--frames": seen.append("frames \(r.frames())")
            case "--size": let s = r.size(); seen.append("size \(s.width) \(s.height)")
            case "--board": seen.append("board \(r.value())")
            case "--hud", "--no-hud": seen.append("hud \(DemoOptionReader.hudChoice(a) ?? false)")
            default: seen.append("scene \(r.sceneOrUnknown(a))")
            }
        }
        XCTAssertEqual(seen, ["frames 30", "size 640 480", "hud true", "board qemu-virt", "scene coverflow"])
        XCTAssertNil(r.next(), "stays at the end")
    }

    func testSizesAreWholePixelsWithinTheRasterLimit() {
        let m = RasterLimits.maxDimension
        XCTAssertTrue(DemoOptionReader.parseSize("640x480").map { $0 == (640, 480) } ?? false)
        XCTAssertTrue(DemoOptionReader.parseSize("1x\(m)").map { $0 == (1, m) } ?? false)
        for bad in ["", "640", "x480", "640x", "640xx480", "0x480", "640x0", "-640x480", "640x480x2",
                    "\(m + 1)x480", "640.5x480", " 640x480", "99999999999999999999x1"] {
            XCTAssertNil(DemoOptionReader.parseSize(bad), "'\(bad)' refused")
        }
    }

    func testHUDChoice() {
        XCTAssertEqual(DemoOptionReader.hudChoice("--hud"), true)
        XCTAssertEqual(DemoOptionReader.hudChoice("--no-hud"), false)
        XCTAssertNil(DemoOptionReader.hudChoice("--hudx"))
    }
}
