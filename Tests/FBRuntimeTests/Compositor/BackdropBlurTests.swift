@testable import FBRuntime
import Foundation
import Raster
import XCTest

/// The backdrop blur against a Gaussian convolution computed here in
/// floating point (σ = radius / 2). Stated tolerance: 4 levels inside the
/// glass (Raster's three-box approximation is within 3 of a sampled
/// Gaussian, plus rounding).
final class BackdropBlurTests: XCTestCase {
    let size = 100

    /// Vertical stripes, 4 px black and 4 px white, on a black root.
    func backdrop() -> Layer {
        let root = Layer(name: "root")
        root.bounds = Rect(x: 0, y: 0, width: Double(size), height: Double(size))
        root.anchorPoint = .zero
        root.backgroundColor = .black
        for i in stride(from: 0, to: size, by: 8) {
            let s = Layer(name: "stripe")
            s.bounds = Rect(x: 0, y: 0, width: 4, height: Double(size))
            s.anchorPoint = .zero
            s.position = Point(x: Double(i), y: 0)
            s.backgroundColor = .white
            try! root.addSublayer(s)
        }
        return root
    }

    /// The surfaces `render` drew into, kept for the test's length (a
    /// view does not own its pixels).
    private var surfaces: [Surface<ARGB8888>] = []

    func render(_ root: Layer, compositor: Compositor = Compositor()) -> PixelView<ARGB8888> {
        let target = Surface<ARGB8888>(width: size, height: size)!
        surfaces.append(target)
        compositor.render(root, at: 0, into: target.view, clearColor: .black)
        return target.view
    }

    func testBlursWhatIsBehindInsideTheRoundedBounds() throws {
        let root = backdrop()
        let plain = render(root)
        let glass = Layer(name: "glass")
        glass.bounds = Rect(x: 0, y: 0, width: 60, height: 60)
        glass.anchorPoint = .zero
        glass.position = Point(x: 20, y: 20)
        glass.cornerRadius = 12
        glass.backgroundBlurRadius = 8
        try root.addSublayer(glass)
        let compositor = Compositor()
        let image = render(root, compositor: compositor)
        XCTAssertEqual(compositor.statistics.offscreenPasses, 1)
        // The Gaussian of the stripes along x (they do not vary along y).
        let sigma = 4.0
        var weights: [Double] = []
        for d in -16...16 { weights.append(exp(-Double(d * d) / (2 * sigma * sigma))) }
        let total = weights.reduce(0, +)
        var worst = 0
        for y in 32..<68 {
            for x in 32..<68 {
                var v = 0.0
                for (i, d) in (-16...16).enumerated() {
                    let sx = x + d
                    let level = sx < 0 || sx >= size ? 0.0 : Double(plain.row(y)[sx] & 0xFF)
                    v += weights[i] * level
                }
                let expected = Int((v / total).rounded())
                worst = max(worst, abs(Int(image.row(y)[x] & 0xFF) - expected))
            }
        }
        XCTAssertLessThanOrEqual(worst, 4)
        // Outside the rounded corner, and outside the glass: untouched.
        XCTAssertEqual(image.row(20)[20], plain.row(20)[20])
        XCTAssertEqual(image.row(10)[50], plain.row(10)[50])
        // Radius 0, NaN, negative: no backdrop pass.
        for r in [0, -3, .nan] as [Double] {
            glass.backgroundBlurRadius = r
            XCTAssertEqual(pixelChecksum(render(root)), pixelChecksum(plain), "radius \(r)")
        }
    }

    func testAnimatableAndCutByTheMask() throws {
        let root = backdrop()
        let glass = Layer(name: "glass")
        glass.bounds = Rect(x: 0, y: 0, width: 60, height: 60)
        glass.anchorPoint = .zero
        glass.position = Point(x: 20, y: 20)
        let mask = Layer(name: "mask")
        mask.bounds = Rect(x: 0, y: 0, width: 30, height: 60)
        mask.anchorPoint = .zero
        mask.backgroundColor = .white
        glass.mask = mask
        glass.add(BasicAnimation(key: .custom("backgroundBlurRadius"), from: .scalar(0), to: .scalar(10), duration: 1), forKey: "b", at: 0)
        try root.addSublayer(glass)
        let plain = render(backdrop())
        let start = Surface<ARGB8888>(width: size, height: size)!
        Compositor().render(root, at: 0, into: start.view, clearColor: .black)
        XCTAssertEqual(pixelChecksum(start.view), pixelChecksum(plain), "radius 0 at the start")
        let mid = Surface<ARGB8888>(width: size, height: size)!
        Compositor().render(root, at: 0.5, into: mid.view, clearColor: .black)
        XCTAssertNotEqual(mid.view.row(50)[35], plain.row(50)[35], "blurred under the mask")
        XCTAssertEqual(mid.view.row(50)[65], plain.row(50)[65], "not blurred outside the mask")
    }
}
