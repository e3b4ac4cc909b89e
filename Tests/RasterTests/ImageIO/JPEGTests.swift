import Foundation
import ImageIO
import Raster
import TestSupport
import XCTest

/// JPEG through libjpeg-turbo and `ImageFile`: decodes against Pillow's
/// (an independent decoder; its outputs were made with the images by
/// `Tests/Images/make-test-images.py` and are committed), format sniffing,
/// and downsampling at decode time against the area mean of a full decode.
final class JPEGTests: XCTestCase {
    static let images = repositoryRoot.appendingPathComponent("Tests/Images")
    func image(_ name: String) -> String { Self.images.appendingPathComponent(name).path }

    /// Largest per-channel difference between two images of one size.
    func maxDifference(_ a: PixelView<ARGB8888>, _ b: PixelView<ARGB8888>) -> UInt32 {
        var worst: UInt32 = 0
        for y in 0..<a.height {
            for x in 0..<a.width {
                let p = a.row(y)[x], q = b.row(y)[x]
                for s: UInt32 in [0, 8, 16, 24] {
                    let u = (p >> s) & 0xFF, v = (q >> s) & 0xFF
                    worst = max(worst, u > v ? u - v : v - u)
                }
            }
        }
        return worst
    }

    func testDecodesLikePillow() throws {
        // Baseline 4:2:0, progressive, greyscale, and Adobe CMYK (inverted).
        for name in ["photo-64x48", "progressive-64x48", "gray-40x30", "cmyk-40x30"] {
            let decoded = try ImageFile.load(path: image("\(name).jpg"))
            let reference = try PNG.read(from: image("\(name).ref.png"))
            XCTAssertEqual(decoded.format, .jpeg)
            XCTAssertTrue(decoded.isOpaque, "JPEG is opaque")
            XCTAssertEqual(decoded.width, reference.width, name)
            XCTAssertEqual(decoded.height, reference.height, name)
            XCTAssertEqual(decoded.sourceWidth, reference.width, name)
            let d = maxDifference(decoded.surface.view, reference.view)
            print("\(name): largest channel difference from Pillow \(d)")
            // Same IDCT and upsampling on both sides; CMYK goes through each
            // one's own conversion (rounding differs by a level or two).
            XCTAssertLessThanOrEqual(d, 3, "\(name): largest channel difference from Pillow \(d)")
            for y in 0..<decoded.height { for x in 0..<decoded.width { XCTAssertEqual(decoded.surface.view.row(y)[x] >> 24, 255) } }
        }
    }

    func testSniffsTheFormatNotTheName() throws {
        let dir = FileManager.default.temporaryDirectory.appendingPathComponent("fbr-jpeg-tests")
        try FileManager.default.createDirectory(at: dir, withIntermediateDirectories: true)
        // A JPEG named .png and a PNG named .jpg.
        let jpegBytes = try Data(contentsOf: URL(fileURLWithPath: image("photo-64x48.jpg")))
        let misnamedJPEG = dir.appendingPathComponent("really-a-jpeg.png")
        try jpegBytes.write(to: misnamedJPEG)
        XCTAssertEqual(try ImageFile.load(path: misnamedJPEG.path).format, .jpeg)
        let s = try XCTUnwrap(Surface<ARGB8888>(width: 9, height: 7))
        s.clear(to: 0x8040_2010)
        let misnamedPNG = dir.appendingPathComponent("really-a-png.jpg")
        try PNG.write(s.view, to: misnamedPNG.path)
        let png = try ImageFile.load(path: misnamedPNG.path)
        XCTAssertEqual(png.format, .png)
        XCTAssertFalse(png.isOpaque)
        XCTAssertEqual(png.surface.view.row(3)[4], 0x8040_2010)
        // Bytes in memory too.
        jpegBytes.withUnsafeBytes { XCTAssertEqual(ImageFormat.sniff($0), .jpeg) }
        XCTAssertThrowsError(try ImageFile.load(path: dir.appendingPathComponent("nothing-here.jpg").path)) {
            XCTAssertTrue("\($0)".contains("cannot open"), "\($0)")
        }
    }

    func testScaleDenominatorIsTheLargestThatStillCoversTheTarget() {
        XCTAssertEqual(JPEG.scaleDenominator(width: 480, height: 360, targetWidth: 100, targetHeight: 75), 4)
        XCTAssertEqual(JPEG.scaleDenominator(width: 480, height: 360, targetWidth: 60, targetHeight: 45), 8)
        XCTAssertEqual(JPEG.scaleDenominator(width: 480, height: 360, targetWidth: 61, targetHeight: 45), 4)
        XCTAssertEqual(JPEG.scaleDenominator(width: 480, height: 360, targetWidth: 480, targetHeight: 360), 1)
        // ceil: 5 / 8 → 1 pixel, still covers a 1-pixel target.
        XCTAssertEqual(JPEG.scaleDenominator(width: 5, height: 5, targetWidth: 1, targetHeight: 1), 8)
    }

    /// Downsampled JPEG decodes against the area mean (the oracle of
    /// `AreaDownsamplerTests`) of the full-size decode. libjpeg's scaled
    /// IDCT (1/2, 1/4, 1/8) is not a box filter: it reconstructs each 8×8
    /// block from its low frequencies, so it differs from the mean at hard
    /// edges (measured on this image: largest 45 levels at 1/2, 25 at 1/4;
    /// mean under 0.7) and agrees on smooth areas. Hence two checks: the mean
    /// error over the image is small, and the area-filter stage after the
    /// DCT is exact against the oracle applied to the DCT-scaled decode.
    /// Without DCT scaling (denominator 1) the whole result is exact.
    func testDownsampledDecodeMatchesTheAreaMeanOfTheFullDecode() throws {
        let full = try ImageFile.load(path: image("large-480x360.jpg"))
        XCTAssertEqual(full.width, 480)
        // (box, expected size, largest allowed difference from the mean of the full decode)
        for (box, expected, tolerance) in [((100, 100), (100, 75), 48.0), ((60, 60), (60, 45), 48.0),
                                           ((240, 240), (240, 180), 48.0), ((400, 1000), (400, 300), 0.5)] {
            let small = try ImageFile.load(path: image("large-480x360.jpg"), fittingIn: box.0, box.1)
            XCTAssertEqual(small.width, expected.0)
            XCTAssertEqual(small.height, expected.1)
            XCTAssertEqual(small.sourceWidth, 480)
            XCTAssertTrue(small.isOpaque)
            var worst = 0.0, total = 0.0
            for j in 0..<small.height {
                for i in 0..<small.width {
                    let want = AreaDownsamplerTests.oracle(full.surface.view, width: small.width, height: small.height, i: i, j: j)
                    let p = small.surface.view.row(j)[i]
                    let got = [Double(p >> 24), Double((p >> 16) & 0xFF), Double((p >> 8) & 0xFF), Double(p & 0xFF)]
                    for c in 0..<4 {
                        worst = max(worst, abs(got[c] - want[c]))
                        total += abs(got[c] - want[c])
                    }
                }
            }
            let mean = total / Double(small.width * small.height * 4)
            print("JPEG 480x360 → \(small.width)x\(small.height): largest difference from the area mean \(worst), mean \(mean)")
            XCTAssertLessThanOrEqual(worst, tolerance + 1e-6)
            XCTAssertLessThanOrEqual(mean, 1.0)
        }
        // 100×75 is the 1/4 DCT decode (120×90) through the area filter.
        let dct = try ImageFile.load(path: image("large-480x360.jpg"), fittingIn: 120, 90)
        XCTAssertEqual(dct.width, 120)
        let small = try ImageFile.load(path: image("large-480x360.jpg"), fittingIn: 100, 100)
        XCTAssertLessThanOrEqual(AreaDownsamplerTests.maxError(small.surface.view, source: dct.surface.view), 0.5 + 1e-6)
    }

    /// Downsampled PNG decodes stream rows through the same filter: exact
    /// against the oracle on the full decode, translucent pixels included.
    func testDownsampledPNGMatchesTheAreaMeanOfTheFullDecode() throws {
        var rng = SplitMix64(seed: 5)
        let s = try XCTUnwrap(Surface<ARGB8888>(width: 97, height: 61))
        for y in 0..<61 {
            for x in 0..<97 {
                let a = x < 50 ? 255 : UInt32(rng.next() & 0xFF)
                s.view.row(y)[x] = a << 24 | (UInt32(x * 2) * a / 255) << 16 | (UInt32(y * 4) * a / 255) << 8 | (UInt32((x + y) & 0xFF) * a / 255)
            }
        }
        let path = FileManager.default.temporaryDirectory.appendingPathComponent("fbr-area-\(getpid()).png").path
        try PNG.write(s.view, to: path)
        let full = try ImageFile.load(path: path)
        let small = try ImageFile.load(path: path, fittingIn: 30, 30)
        XCTAssertEqual(small.width, 30)
        XCTAssertEqual(small.height, 19)                 // 61 · 30/97 = 18.87
        XCTAssertFalse(small.isOpaque)
        let e = AreaDownsamplerTests.maxError(small.surface.view, source: full.surface.view)
        XCTAssertLessThanOrEqual(e, 0.5 + 1e-6)
    }
}
