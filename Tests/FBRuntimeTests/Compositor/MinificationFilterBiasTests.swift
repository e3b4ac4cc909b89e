@testable import FBRuntime
import Raster
import XCTest

/// `minificationFilterBias` (issue 22), as Core Animation's: mip levels
/// added to the level the trilinear filter picks. A checkerboard shown at a
/// quarter of its size: bias −2 samples the full image (the bilinear
/// filter's pixels exactly), 0 the level the footprint asks for, +2 a level
/// four times smaller still, where its squares blur to grey; the bias reaches the render tree
/// and a change of it redraws.
final class MinificationFilterBiasTests: XCTestCase {
    func checkerboard() -> LayerContents {
        let s = Surface<ARGB8888>(width: 256, height: 256)!
        for y in 0..<256 { for x in 0..<256 { s.view[x, y] = (x / 8 + y / 8) % 2 == 0 ? 0xFFFF_FFFF : 0xFF00_0000 } }
        return LayerContents(s, isOpaque: true)
    }

    /// A grey 96×96 root with a 64×64 checkerboard photo at its centre.
    func scene(filter: ContentsFilter, bias: Double, angle: Double = 0) -> (root: Layer, photo: Layer) {
        let root = Layer(name: "root")
        root.bounds = Rect(x: 0, y: 0, width: 96, height: 96)
        root.anchorPoint = .zero
        root.backgroundColor = Color(rgb: 0x808080)
        let photo = Layer(name: "photo")
        photo.bounds = Rect(x: 0, y: 0, width: 64, height: 64)
        photo.position = Point(x: 48, y: 48)
        photo.contents = checkerboard()
        photo.minificationFilter = filter
        photo.minificationFilterBias = bias
        photo.transform = Transform3D(rotationAngle: angle, x: 0, y: 0, z: 1)
        try! root.addSublayer(photo)
        return (root, photo)
    }

    func frame(filter: ContentsFilter, bias: Double, angle: Double = 0) -> Surface<ARGB8888> {
        let s = Surface<ARGB8888>(width: 96, height: 96)!
        Compositor().render(scene(filter: filter, bias: bias, angle: angle).root, at: 0, into: s.view)
        return s
    }

    /// Spread of the photo's pixels around their mean (0: a flat grey).
    func contrast(_ s: Surface<ARGB8888>) -> Double {
        var values: [Double] = []
        for y in 24..<72 { for x in 24..<72 { values.append(Double(s.view[x, y] & 0xFF)) } }
        let mean = values.reduce(0, +) / Double(values.count)
        return (values.map { ($0 - mean) * ($0 - mean) }.reduce(0, +) / Double(values.count)).squareRoot()
    }

    func testTheBiasMovesTheLevelTheTrilinearFilterSamples() {
        for angle in [0.0, 0.3] {
            let bilinear = frame(filter: .linear, bias: 0, angle: angle)
            let sharp = frame(filter: .trilinear, bias: -2, angle: angle)
            let plain = frame(filter: .trilinear, bias: 0, angle: angle)
            let blurred = frame(filter: .trilinear, bias: 2, angle: angle)
            if angle == 0 {
                // A quarter size: λ = 2, so −2 is level 0 alone: bilinear.
                XCTAssertEqual(pixelChecksum(sharp.view), pixelChecksum(bilinear.view), "bias −2 at a quarter size is the full image")
            }
            // 8-texel squares: 2 pixels at level 2 (the footprint's), half a
            // texel at level 4 (bias +2): grey.
            XCTAssertGreaterThan(contrast(sharp), contrast(blurred) + 40, "angle \(angle): sharper")
            XCTAssertGreaterThan(contrast(plain), contrast(blurred) + 40, "angle \(angle): blurrier")
            XCTAssertNotEqual(pixelChecksum(plain.view), pixelChecksum(blurred.view))
            // Other filters ignore it; a non-finite bias is 0.
            XCTAssertEqual(pixelChecksum(frame(filter: .linear, bias: 3, angle: angle).view), pixelChecksum(bilinear.view))
            XCTAssertEqual(pixelChecksum(frame(filter: .trilinear, bias: .nan, angle: angle).view), pixelChecksum(plain.view))
        }
    }

    func testAChangeOfTheBiasRedrawsTheLayer() {
        let (root, photo) = scene(filter: .trilinear, bias: 0)
        let compositor = Compositor()
        let s = Surface<ARGB8888>(width: 96, height: 96)!
        compositor.render(root, at: 0, into: s.view)
        photo.minificationFilterBias = 2
        compositor.render(root, at: 1, into: s.view)
        XCTAssertGreaterThan(compositor.statistics.pixelsDamaged, 64 * 64 - 1)
        // The same pixels as a fresh render with the bias.
        XCTAssertEqual(pixelChecksum(s.view), pixelChecksum(frame(filter: .trilinear, bias: 2).view))
    }
}
