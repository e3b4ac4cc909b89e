import FBRuntime
import Raster
import XCTest

/// Trilinear contents keep their mip chain between frames; after
/// `contentsDidChange()` a frame shows the new pixels, the same as fresh
/// contents with those pixels.
final class LayerContentsCacheTests: XCTestCase {
    func render(_ contents: LayerContents) -> UInt64 {
        let root = Layer()
        root.bounds = Rect(x: 0, y: 0, width: 40, height: 40)
        root.anchorPoint = .zero
        let photo = Layer()
        photo.bounds = Rect(x: 0, y: 0, width: 25, height: 25)
        photo.position = Point(x: 20, y: 20)
        photo.contents = contents
        photo.minificationFilter = .trilinear
        try! root.addSublayer(photo)
        let target = Surface<ARGB8888>(width: 40, height: 40)!
        Compositor().render(root, at: 0, into: target.view)
        return pixelChecksum(target.view)
    }

    func fill(_ s: Surface<ARGB8888>, _ pattern: (Int, Int) -> UInt32) {
        for y in 0..<s.height { for x in 0..<s.width { s.view[x, y] = pattern(x, y) } }
    }

    func testImageDidChangeRebuildsTheMipChain() {
        let image = Surface<ARGB8888>(width: 100, height: 100)!
        fill(image) { x, _ in x < 50 ? 0xFFFF_0000 : 0xFF00_00FF }
        let contents = LayerContents(image, isOpaque: true)
        let before = render(contents)
        fill(image) { _, y in y < 50 ? 0xFF00_FF00 : 0xFFFF_FFFF }
        contents.contentsDidChange()
        let after = render(contents)

        let fresh = Surface<ARGB8888>(width: 100, height: 100)!
        fill(fresh) { _, y in y < 50 ? 0xFF00_FF00 : 0xFFFF_FFFF }
        XCTAssertEqual(after, render(LayerContents(fresh, isOpaque: true)))
        XCTAssertNotEqual(before, after)
    }
}
