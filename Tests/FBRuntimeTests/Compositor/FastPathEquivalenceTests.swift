import FBRuntime
import Raster
import XCTest

/// The compositor's shortcuts against the general paths they replace
/// (issue 4's speed work): each scene is rendered once through the
/// shortcut and once arranged so the general path runs, and the pixels
/// are compared.
final class FastPathEquivalenceTests: XCTestCase {
    private func layer(_ name: String, _ x: Double, _ y: Double, _ w: Double, _ h: Double, _ rgb: UInt32? = nil) -> Layer {
        let l = Layer(name: name)
        l.bounds = Rect(x: 0, y: 0, width: w, height: h)
        l.position = Point(x: x, y: y)
        if let rgb { l.backgroundColor = Color(rgb: rgb) }
        return l
    }

    private func image(_ n: Int) -> LayerContents {
        let s = Surface<ARGB8888>(width: n, height: n)!
        for y in 0..<n {
            for x in 0..<n {
                let v = UInt32((x * 255) / n), w = UInt32((y * 255) / n)
                s.view[x, y] = 0xFF00_0000 | v << 16 | w << 8 | UInt32(((x ^ y) & 8) != 0 ? 0xFF : 0x30)
            }
        }
        return LayerContents(s, isOpaque: true)
    }

    private func render(_ root: Layer, _ w: Int, _ h: Int) -> (PixelView<ARGB8888>, FrameStatistics) {
        let surface = Surface<ARGB8888>(width: w, height: h)!
        let c = Compositor()
        c.render(root, at: 0, into: surface.view)
        return (surface.view, c.statistics)
    }

    private func maxDifference(_ a: PixelView<ARGB8888>, _ b: PixelView<ARGB8888>) -> UInt32 {
        var most: UInt32 = 0
        for y in 0..<a.height {
            for x in 0..<a.width {
                for shift in stride(from: 0, to: 32, by: 8) {
                    let p = (a[x, y] >> UInt32(shift)) & 0xFF, q = (b[x, y] >> UInt32(shift)) & 0xFF
                    most = max(most, p > q ? p - q : q - p)
                }
            }
        }
        return most
    }

    /// A rounded, clipped photo drawn through the coverage directly equals
    /// the offscreen clip pass (forced by an empty sublayer, which draws
    /// nothing) within rounding: axis-aligned, turned, under perspective,
    /// at half opacity.
    func testRoundedContentsWithoutOffscreenPassMatchTheClipPass() throws {
        var perspective = Transform3D.identity
        perspective.m34 = -1.0 / 200
        let cases: [(Transform3D, Double)] = [
            (.identity, 1), (.rotation(radians: 0.3, x: 0, y: 0, z: 1), 1),
            (.rotation(radians: 0.5, x: 1, y: 0, z: 0).concatenating(perspective), 1), (.identity, 0.5),
        ]
        for (i, (transform, opacity)) in cases.enumerated() {
            func scene(forceClipPass: Bool) throws -> Layer {
                let root = layer("root", 0, 0, 96, 96, 0x203040)
                root.anchorPoint = .zero
                let photo = layer("photo", 48.3, 47.6, 70, 60)
                photo.contents = image(64)
                photo.cornerRadius = 14
                photo.masksToBounds = true
                photo.transform = transform
                photo.opacity = opacity
                if forceClipPass { try photo.addSublayer(Layer(name: "empty")) }
                try root.addSublayer(photo)
                return root
            }
            let (direct, directStats) = render(try scene(forceClipPass: false), 96, 96)
            let (pass, passStats) = render(try scene(forceClipPass: true), 96, 96)
            XCTAssertEqual(directStats.offscreenPasses, 0, "case \(i): no offscreen pass")
            XCTAssertGreaterThanOrEqual(passStats.offscreenPasses, 1, "case \(i): the oracle takes the clip pass (and a group at opacity < 1)")
            XCTAssertLessThanOrEqual(maxDifference(direct, pass), 2, "case \(i)")
        }
    }

    /// A shadow cast under an opaque rounded background is not shaded where
    /// the background overwrites it: the pixels equal the same shadow drawn
    /// whole by a layer without a background, under a separate layer with
    /// the background.
    func testShadowUnderAnOpaqueBackgroundMatchesTheWholeShadow() throws {
        for (x, y) in [(48.0, 40.0), (48.4, 40.7)] {
            func card(_ name: String, background: Bool, shadow: Bool) -> Layer {
                let l = layer(name, x, y, 60, 40, background ? 0xF4F1EA : nil)
                l.cornerRadius = 10
                if shadow {
                    l.shadowOpacity = 0.6
                    l.shadowRadius = 6
                    l.shadowOffset = Size(width: 2, height: 5)
                    l.shadowPath = Path(roundedRect: 0, 0, 60, 40, radii: CornerRadii(10))
                }
                return l
            }
            let one = layer("root", 0, 0, 96, 80, 0x203040)
            one.anchorPoint = .zero
            try one.addSublayer(card("card", background: true, shadow: true))
            let two = layer("root", 0, 0, 96, 80, 0x203040)
            two.anchorPoint = .zero
            try two.addSublayer(card("shadowOnly", background: false, shadow: true))
            try two.addSublayer(card("backgroundOnly", background: true, shadow: false))
            let (a, _) = render(one, 96, 80)
            let (b, _) = render(two, 96, 80)
            XCTAssertEqual(maxDifference(a, b), 0, "position (\(x), \(y))")
        }
    }
}
