@testable import FBRuntime
import Raster
import TestSupport
import XCTest

/// `allowsEdgeAntialiasing` and `edgeAntialiasingMask`: hard edges take a
/// pixel exactly when its centre is inside (checked against the layer's
/// geometry, computed here independently of the compositor), anti-aliased
/// ones cover the area, and the pieces of a plane cut in a 3-D rendering
/// context share their seam without letting the backdrop through.
final class EdgeAntialiasingTests: XCTestCase {
    let size = 120
    let black: UInt32 = 0xFF00_0000

    /// A `w × h` layer centred at (`x`, `y`), turned by `angle` radians.
    func turned(_ w: Double, _ h: Double, x: Double, y: Double, angle: Double) -> Layer {
        let l = Layer(name: "turned")
        l.bounds = Rect(x: 0, y: 0, width: w, height: h)
        l.position = Point(x: x, y: y)
        l.transform = Transform3D(rotationAngle: angle, x: 0, y: 0, z: 1)
        return l
    }

    func scene(_ layer: Layer) throws -> Layer {
        let root = Layer(name: "root")
        root.bounds = Rect(x: 0, y: 0, width: Double(size), height: Double(size))
        root.anchorPoint = .zero
        root.backgroundColor = Color(rgb: 0x000000)
        try root.addSublayer(layer)
        return root
    }

    /// Renders with the SIMD kernels, checking the reference kernels agree.
    func render(_ root: Layer, compositor: Compositor = Compositor()) throws -> PixelView<ARGB8888> {
        let display = try XCTUnwrap(HeadlessDisplay(width: size, height: size))
        display.renderFrame(root, with: compositor)
        let reference = try XCTUnwrap(HeadlessDisplay(width: size, height: size))
        reference.renderFrame(root, with: Compositor(kernels: .reference))
        XCTAssertEqual(pixelChecksum(display.framebuffer.view), pixelChecksum(reference.framebuffer.view),
                       "SIMD and reference kernels differ")
        return display.framebuffer.view
    }

    /// Pixel (x, y)'s centre in the layer's own frame (centred, unturned).
    func local(_ x: Int, _ y: Int, cx: Double, cy: Double, angle: Double) -> (Double, Double) {
        let dx = Double(x) + 0.5 - cx, dy = Double(y) + 0.5 - cy
        return (dx * cos(angle) + dy * sin(angle), -dx * sin(angle) + dy * cos(angle))
    }

    let w = 60.0, h = 36.0, cx = 60.3, cy = 59.7, angle = 0.4

    /// The default: every edge hard. Each pixel is the layer's colour when
    /// its centre is inside the turned rectangle and the backdrop otherwise.
    func testDefaultEdgesAreHardAndFollowPixelCentres() throws {
        XCTAssertFalse(Layer().allowsEdgeAntialiasing, "Core Animation's default")
        let l = turned(w, h, x: cx, y: cy, angle: angle)
        l.backgroundColor = .white
        let image = try render(try scene(l))
        var inside = 0
        for y in 0..<size {
            for x in 0..<size {
                let (u, v) = local(x, y, cx: cx, cy: cy, angle: angle)
                let isInside = Swift.abs(u) < w / 2 && Swift.abs(v) < h / 2
                if isInside { inside += 1 }
                XCTAssertEqual(image.row(y)[x], isInside ? 0xFFFF_FFFF : black, "(\(x), \(y))")
            }
        }
        XCTAssertEqual(Double(inside), w * h, accuracy: 40, "about the rectangle's area")
    }

    /// With `allowsEdgeAntialiasing` the edges are smoothed: the coverage
    /// sums to the area; with the mask naming only left and right, the top
    /// and bottom stay hard.
    func testAntialiasedEdgesAndTheMask() throws {
        let l = turned(w, h, x: cx, y: cy, angle: angle)
        l.backgroundColor = .white
        l.allowsEdgeAntialiasing = true
        let root = try scene(l)
        var image = try render(root)
        var area = 0.0, partial = 0
        for y in 0..<size {
            for x in 0..<size {
                let level = Double(image.row(y)[x] & 0xFF)
                area += level / 255
                if level > 0 && level < 255 { partial += 1 }
                let (u, v) = local(x, y, cx: cx, cy: cy, angle: angle)
                if Swift.abs(u) < w / 2 - 1 && Swift.abs(v) < h / 2 - 1 { XCTAssertEqual(image.row(y)[x], 0xFFFF_FFFF) }
                if Swift.abs(u) > w / 2 + 1 || Swift.abs(v) > h / 2 + 1 { XCTAssertEqual(image.row(y)[x], black) }
            }
        }
        XCTAssertEqual(area, w * h, accuracy: 3, "anti-aliased coverage adds up to the area")
        XCTAssertGreaterThan(partial, 150, "edge pixels are partly covered")

        l.edgeAntialiasingMask = [.left, .right]
        image = try render(root)
        var hardChecked = 0, softNearSides = 0
        for y in 0..<size {
            for x in 0..<size {
                let (u, v) = local(x, y, cx: cx, cy: cy, angle: angle)
                let level = image.row(y)[x] & 0xFF
                if Swift.abs(Swift.abs(v) - h / 2) < 1.5 && Swift.abs(u) < w / 2 - 2 {
                    // Near the top or bottom edge, away from the sides: hard.
                    XCTAssertEqual(image.row(y)[x], Swift.abs(v) < h / 2 ? 0xFFFF_FFFF : black, "(\(x), \(y))")
                    hardChecked += 1
                }
                if Swift.abs(Swift.abs(u) - w / 2) < 1.5 && Swift.abs(v) < h / 2 - 2 && level > 0 && level < 255 {
                    softNearSides += 1
                }
            }
        }
        XCTAssertGreaterThan(hardChecked, 300)
        XCTAssertGreaterThan(softNearSides, 40, "left and right stay anti-aliased")
    }

    /// Contents filling the bounds, the border and the `masksToBounds` clip
    /// follow the same hard edges.
    func testContentsBorderAndClipHaveHardEdges() throws {
        let colour: UInt32 = 0xFF30_60E0
        let pixels = try XCTUnwrap(Surface<ARGB8888>(width: 8, height: 5))
        for y in 0..<5 { for x in 0..<8 { pixels.view.row(y)[x] = colour } }
        let contents = LayerContents(pixels, isOpaque: true)

        let withContents = turned(w, h, x: cx, y: cy, angle: angle)
        withContents.contents = contents
        let bordered = turned(w, h, x: cx, y: cy, angle: angle)
        bordered.backgroundColor = .white
        bordered.borderWidth = 4
        bordered.borderColor = Color(rgb: 0xFF0000)
        let clipping = turned(w, h, x: cx, y: cy, angle: angle)
        clipping.masksToBounds = true
        let big = Layer(name: "overhang")
        big.bounds = Rect(x: 0, y: 0, width: 200, height: 200)
        big.position = Point(x: 30, y: 18)
        big.backgroundColor = Color(rgb: 0x00FF00)
        try clipping.addSublayer(big)

        for (layer, inside) in [(withContents, colour), (bordered, 0xFFFF_0000 as UInt32), (clipping, 0xFF00_FF00 as UInt32)] {
            let image = try render(try scene(layer))
            var checked = 0
            for y in 0..<size {
                for x in 0..<size {
                    let (u, v) = local(x, y, cx: cx, cy: cy, angle: angle)
                    // Within 2 pixels of the outline (inside: border, contents
                    // and overhang all have the `inside` colour there).
                    let du = w / 2 - Swift.abs(u), dv = h / 2 - Swift.abs(v)
                    let distance = Swift.min(du, dv)
                    guard Swift.abs(distance) < 2 else { continue }
                    if du < -2 || dv < -2 { continue }
                    XCTAssertEqual(image.row(y)[x], distance > 0 ? inside : black, "\(layer.name ?? "") (\(x), \(y))")
                    checked += 1
                }
            }
            XCTAssertGreaterThan(checked, 600)
        }
    }

    /// A large plane cut by a small one through its middle (a slanted seam,
    /// not on the pixel grid): away from the small plane, every pixel of
    /// the large one is exactly its colour — the two pieces share the seam,
    /// and no backdrop shows through. With `allowsEdgeAntialiasing` on the
    /// large plane (smooth outer edges), the seam stays exact.
    func testSplitPlanesShareTheirSeam() throws {
        for smooth in [false, true] {
            let root = Layer(name: "root")
            root.bounds = Rect(x: 0, y: 0, width: Double(size), height: Double(size))
            root.anchorPoint = .zero
            root.backgroundColor = Color(rgb: 0x000000)
            let context = TransformLayer()
            context.position = Point(x: 60.35, y: 60.2)
            let axis = (x: 0.35, y: 1.0)
            let big = Layer(name: "big"), small = Layer(name: "small")
            big.bounds = Rect(x: 0, y: 0, width: 90, height: 100)
            big.backgroundColor = Color(rgb: 0x2040FF)
            big.transform = Transform3D(rotationAngle: .pi / 5, x: axis.x, y: axis.y, z: 0)
            big.allowsEdgeAntialiasing = smooth
            small.bounds = Rect(x: 0, y: 0, width: 24, height: 24)
            small.backgroundColor = Color(rgb: 0xFFFFFF)
            small.transform = Transform3D(rotationAngle: -.pi / 5, x: axis.x, y: axis.y, z: 0)
            try context.addSublayer(small)     // first: the splitting plane
            try context.addSublayer(big)
            try root.addSublayer(context)
            let compositor = Compositor()
            let image = try render(root, compositor: compositor)
            XCTAssertEqual(compositor.statistics.offscreenPasses, 2, "the large plane is cut in two pieces")
            // The large plane's outline on screen, from its own transform.
            let m = big.transform
            func screen(_ x: Double, _ y: Double) -> (Double, Double) {
                let p = m.apply(x: x - 45, y: y - 50)
                return (p.x + 60.35, p.y + 60.2)
            }
            let corners = [screen(0, 0), screen(90, 0), screen(90, 100), screen(0, 100)]
            func insideBy(_ px: Double, _ py: Double) -> Double {
                var d = Double.infinity
                for i in 0..<4 {
                    let a = corners[i], b = corners[(i + 1) % 4]
                    let ex = b.0 - a.0, ey = b.1 - a.1
                    let len = (ex * ex + ey * ey).squareRoot()
                    // Positive inside for this winding (checked below).
                    d = Swift.min(d, (ex * (py - a.1) - ey * (px - a.0)) / len)
                }
                return d
            }
            let centreSign = insideBy(60.35, 60.2) > 0 ? 1.0 : -1.0
            var checked = 0
            for y in 0..<size {
                // Rows well away from the small plane.
                guard Swift.abs(Double(y) + 0.5 - 60.2) > 22 else { continue }
                for x in 0..<size where centreSign * insideBy(Double(x) + 0.5, Double(y) + 0.5) > 1.5 {
                    XCTAssertEqual(image.row(y)[x], 0xFF20_40FF, "smooth \(smooth) (\(x), \(y))")
                    checked += 1
                }
            }
            XCTAssertGreaterThan(checked, 2000)
        }
    }
}
