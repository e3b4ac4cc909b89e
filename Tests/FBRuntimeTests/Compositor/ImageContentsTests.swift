import FBRuntime
import Foundation
import ImageIO
import Raster
import TestSupport
import XCTest

/// Decoded image files as layer contents: a JPEG drawn as contents (golden),
/// its pixels copied unchanged, and an opaque image composited as a copy
/// (no blended pixels) while a translucent PNG blends.
final class ImageContentsTests: XCTestCase {
    static let images = repositoryRoot.appendingPathComponent("Tests/Images")
    func image(_ name: String) -> String { Self.images.appendingPathComponent(name).path }

    func layer(_ x: Double, _ y: Double, _ w: Double, _ h: Double, color: UInt32? = nil) -> Layer {
        let l = Layer()
        l.bounds = Rect(x: 0, y: 0, width: w, height: h)
        l.anchorPoint = .zero
        l.position = Point(x: x, y: y)
        if let color { l.backgroundColor = Color(rgb: color) }
        return l
    }

    func testJPEGAsLayerContents() throws {
        let photo = try ImageFile.load(path: image("photo-64x48.jpg"))
        let big = try ImageFile.load(path: image("large-480x360.jpg"), fittingIn: 48, 48)
        XCTAssertEqual(big.width, 48)
        XCTAssertEqual(big.height, 36)
        let root = layer(0, 0, 128, 64, color: 0x202830)
        let a = layer(4, 8, 64, 48)
        a.contents = LayerContents(photo.surface, isOpaque: photo.isOpaque)
        let b = layer(74, 8, 48, 48, color: 0x405060)
        b.contentsGravity = .resizeAspect
        b.contents = LayerContents(big.surface, isOpaque: big.isOpaque)
        try root.addSublayer(a)
        try root.addSublayer(b)
        let display = try XCTUnwrap(HeadlessDisplay(width: 128, height: 64))
        let compositor = Compositor()
        display.renderFrame(root, with: compositor)
        let result = compareWithGolden(display.framebuffer.view, name: "jpeg-contents", tolerance: 2)
        XCTAssertTrue(result.passed, result.message)
        // On the pixel grid at 1:1 the decoded pixels are on screen unchanged.
        for y in 0..<48 {
            for x in 0..<64 where display.framebuffer.view.row(8 + y)[4 + x] != photo.surface.view.row(y)[x] {
                return XCTFail("pixel \(x),\(y) differs from the decode")
            }
        }
        // Everything drawn is opaque: copies, nothing blended.
        XCTAssertEqual(compositor.statistics.pixelsBlended, 0)
        XCTAssertGreaterThan(compositor.statistics.pixelsWritten, 0)
    }

    func testOpaqueImagesAreCopiedAndTranslucentOnesBlended() throws {
        let dir = FileManager.default.temporaryDirectory
        let s = try XCTUnwrap(Surface<ARGB8888>(width: 16, height: 16))
        s.clear(to: 0x8040_2010)
        let translucentPath = dir.appendingPathComponent("fbr-contents-\(getpid()).png").path
        try PNG.write(s.view, to: translucentPath)
        s.clear(to: 0xFF40_2010)
        let opaquePath = dir.appendingPathComponent("fbr-contents-opaque-\(getpid()).png").path
        try PNG.write(s.view, to: opaquePath)

        func blendedPixels(_ path: String) throws -> (Int, Bool) {
            let decoded = try ImageFile.load(path: path)
            let root = layer(0, 0, 64, 48, color: 0x000000)
            let l = layer(8, 8, Double(decoded.width), Double(decoded.height))
            l.contents = LayerContents(decoded.surface, isOpaque: decoded.isOpaque)
            try root.addSublayer(l)
            let display = try XCTUnwrap(HeadlessDisplay(width: 64, height: 48))
            let compositor = Compositor()
            display.renderFrame(root, with: compositor)
            return (compositor.statistics.pixelsBlended, decoded.isOpaque)
        }
        let jpeg = try blendedPixels(image("gray-40x30.jpg"))
        XCTAssertTrue(jpeg.1)
        XCTAssertEqual(jpeg.0, 0, "an opaque JPEG is copied")
        let opaquePNG = try blendedPixels(opaquePath)
        XCTAssertTrue(opaquePNG.1)
        XCTAssertEqual(opaquePNG.0, 0, "an opaque PNG is copied")
        let translucent = try blendedPixels(translucentPath)
        XCTAssertFalse(translucent.1)
        XCTAssertEqual(translucent.0, 16 * 16, "a translucent PNG blends")
    }
}
