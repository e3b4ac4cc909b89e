@testable import FBRuntime
import Raster
import TestSupport
import XCTest

/// Debug overlays (issue 4): a golden per overlay on one small scene, and
/// at chosen pixels the tint checked against source-over computed here
/// from the frame drawn without overlays.
final class DebugOverlayTests: XCTestCase {
    let width = 160, height = 100

    func layer(_ x: Double, _ y: Double, _ w: Double, _ h: Double, color: Color? = nil) -> Layer {
        let l = Layer()
        l.bounds = Rect(x: 0, y: 0, width: w, height: h)
        l.anchorPoint = .zero
        l.position = Point(x: x, y: y)
        l.backgroundColor = color
        return l
    }

    /// A 20×16 opaque image: a horizontal ramp with a dark frame.
    func picture() -> LayerContents {
        let s = Surface<ARGB8888>(width: 20, height: 16)!
        for y in 0..<16 {
            for x in 0..<20 {
                let edge = x == 0 || y == 0 || x == 19 || y == 15
                s.view[x, y] = edge ? 0xFF20_2020 : 0xFF00_0000 | UInt32(60 + x * 9) << 16 | 0x9000 | UInt32(200 - y * 8)
            }
        }
        return LayerContents(s, isOpaque: true)
    }

    /// Top row: an opaque whole-pixel layer, a translucent one, a rounded
    /// one. Bottom row: an image on the grid, one at a fractional
    /// position, one scaled, a rounded clip around an image (a clip pass),
    /// and a 50% group holding a 60% group (a pass inside a pass).
    func scene() -> Layer {
        let root = layer(0, 0, Double(width), Double(height), color: Color(rgb: 0x202830))
        let opaque = layer(8, 8, 40, 28, color: Color(rgb: 0x4080C0))
        let translucent = layer(56, 8, 40, 28, color: Color(rgb: 0xE0A040, alpha: 0.6))
        let rounded = layer(104, 8, 40, 28, color: Color(rgb: 0x40C080))
        rounded.cornerRadius = 9
        let aligned = layer(8, 48, 20, 16)
        aligned.contents = picture()
        let fractional = layer(34.5, 48.25, 20, 16)
        fractional.contents = picture()
        let scaled = layer(60, 46, 30, 24)
        scaled.contents = picture()
        let clip = layer(8, 72, 40, 22)
        clip.cornerRadius = 8
        clip.masksToBounds = true
        clip.contents = picture()
        let outer = layer(100, 44, 52, 50, color: Color(rgb: 0xC04060))
        outer.opacity = 0.5
        outer.cornerRadius = 6
        let inner = layer(16, 14, 30, 30, color: Color(rgb: 0x60C0E0))
        inner.opacity = 0.6
        inner.addOverlayTestSublayer(layer(4, 4, 14, 14, color: Color(rgb: 0xFFFFFF)))
        inner.addOverlayTestSublayer(layer(12, 12, 14, 14, color: Color(rgb: 0x202020)))
        outer.addOverlayTestSublayer(inner)
        for l in [opaque, translucent, rounded, aligned, fractional, scaled, clip, outer] { root.addOverlayTestSublayer(l) }
        return root
    }

    func render(_ overlays: DebugOverlays) throws -> Surface<ARGB8888> {
        let surface = try XCTUnwrap(Surface<ARGB8888>(width: width, height: height))
        let compositor = Compositor()
        compositor.debugOverlays = overlays
        compositor.render(scene(), at: 0, into: surface.view)
        return surface
    }

    /// `tint` (premultiplied) source-over an opaque `below`, per channel
    /// `t + below·(255 − tα)/255` rounded.
    func over(_ tint: UInt32, _ below: UInt32) -> UInt32 {
        let ta = tint >> 24
        var out: UInt32 = 0
        for shift in stride(from: 0 as UInt32, through: 24, by: 8) {
            let t = (tint >> shift) & 0xFF, b = (below >> shift) & 0xFF
            let c = t + (b * (255 - ta) + 127) / 255
            out |= Swift.min(c, 255) << shift
        }
        return out
    }

    func assertClose(_ a: UInt32, _ b: UInt32, _ message: String, tolerance: UInt32 = 1,
                     file: StaticString = #filePath, line: UInt = #line) {
        var worst: UInt32 = 0
        for shift in stride(from: 0 as UInt32, through: 24, by: 8) {
            let x = (a >> shift) & 0xFF, y = (b >> shift) & 0xFF
            worst = Swift.max(worst, x > y ? x - y : y - x)
        }
        XCTAssertLessThanOrEqual(worst, tolerance, "\(message): 0x\(String(a, radix: 16)) vs 0x\(String(b, radix: 16))", file: file, line: line)
    }

    /// The tints, premultiplied as the overlays use them (50% alpha).
    func tint(_ r: Double, _ g: Double, _ b: Double) -> UInt32 {
        Color(red: r, green: g, blue: b, alpha: 0.5).premultiplied.argb
    }

    func testBlendedLayers() throws {
        let plain = try render([]), tinted = try render(.blended)
        let result = compareWithGolden(tinted.view, name: "overlay-blended", tolerance: 2)
        XCTAssertTrue(result.passed, result.message)
        let green = tint(0, 1, 0), red = tint(1, 0, 0)
        // The opaque layer replaced the (green-tinted) root: green over it.
        assertClose(tinted.view[28, 20], over(green, plain.view[28, 20]), "opaque layer")
        // The translucent layer blended over the green-tinted root, then red
        // over that.
        let layer = Color(rgb: 0xE0A040, alpha: 0.6).premultiplied.argb
        assertClose(tinted.view[76, 20], over(red, over(layer, over(green, plain.view[4, 4]))), "translucent layer",
                    tolerance: 2)
        // The rounded layer is opaque inside but anti-aliased at its
        // corners: a blended draw, red over its colour.
        assertClose(tinted.view[124, 20], over(red, plain.view[124, 20]), "rounded layer")
        // An opaque image at 1:1 on whole pixels is copied: green.
        assertClose(tinted.view[18, 56], over(green, plain.view[18, 56]), "opaque image on the grid")
    }

    func testOffscreenPasses() throws {
        let plain = try render([]), tinted = try render(.offscreen)
        let result = compareWithGolden(tinted.view, name: "overlay-offscreen", tolerance: 2)
        XCTAssertTrue(result.passed, result.message)
        // No pass there: untouched.
        for (x, y) in [(28, 20), (76, 20), (124, 20), (18, 56), (75, 58)] {
            XCTAssertEqual(tinted.view[x, y], plain.view[x, y], "(\(x), \(y)) is not in an offscreen pass")
        }
        // The clip pass composites its image through the rounded coverage:
        // yellow (depth 1) over the opaque image.
        assertClose(tinted.view[28, 83], over(tint(1, 0.85, 0), plain.view[28, 83]), "clip pass")
        // Inside the nested group the tint is darker than in the outer one
        // alone (less red and green added over the same picture).
        func gain(_ x: Int, _ y: Int) -> Int {
            let a = tinted.view[x, y], b = plain.view[x, y]
            return Int((a >> 16) & 0xFF) - Int((b >> 16) & 0xFF) + Int((a >> 8) & 0xFF) - Int((b >> 8) & 0xFF)
        }
        XCTAssertGreaterThan(gain(104, 90), 0, "the outer group is tinted")
        // Each nesting level's yellow is darker (same alpha, less colour).
        let depth1 = OverlayTint.offscreen(depth: 1).argb, depth2 = OverlayTint.offscreen(depth: 2).argb
        XCTAssertEqual(depth1 >> 24, depth2 >> 24)
        XCTAssertLessThan((depth2 >> 16) & 0xFF, (depth1 >> 16) & 0xFF)
        XCTAssertLessThan((depth2 >> 8) & 0xFF, (depth1 >> 8) & 0xFF)
    }

    /// A nine-part image under a rotation is stretched in an intermediate
    /// surface first: a pass, tinted where it is drawn.
    func testNinePartUnderATransformIsAPass() throws {
        func frame(_ overlays: DebugOverlays) throws -> Surface<ARGB8888> {
            let root = layer(0, 0, 60, 60, color: Color(rgb: 0x202830))
            let panel = layer(30, 30, 36, 30)
            panel.anchorPoint = Point(x: 0.5, y: 0.5)
            panel.contents = picture()
            panel.contentsCenter = Rect(x: 0.25, y: 0.25, width: 0.5, height: 0.5)
            panel.transform = Transform3D(rotationAngle: 0.3, x: 0, y: 0, z: 1)
            root.addOverlayTestSublayer(panel)
            let surface = try XCTUnwrap(Surface<ARGB8888>(width: 60, height: 60))
            let compositor = Compositor()
            compositor.debugOverlays = overlays
            compositor.render(root, at: 0, into: surface.view)
            XCTAssertEqual(compositor.statistics.offscreenPasses, 1)
            return surface
        }
        let plain = try frame([]), tinted = try frame(.offscreen)
        assertClose(tinted.view[30, 30], over(tint(1, 0.85, 0), plain.view[30, 30]), "nine-part intermediate", tolerance: 2)
        XCTAssertEqual(tinted.view[2, 2], plain.view[2, 2])
    }

    func testMisalignedImages() throws {
        let plain = try render([]), tinted = try render(.misaligned)
        let result = compareWithGolden(tinted.view, name: "overlay-misaligned", tolerance: 2)
        XCTAssertTrue(result.passed, result.message)
        XCTAssertEqual(tinted.view[18, 56], plain.view[18, 56], "an image on the grid at 1:1 is not tinted")
        assertClose(tinted.view[44, 56], over(tint(1, 0, 1), plain.view[44, 56]), "an image at a fractional position: magenta")
        assertClose(tinted.view[75, 58], over(tint(1, 1, 0), plain.view[75, 58]), "a scaled image: yellow")
        XCTAssertEqual(tinted.view[28, 20], plain.view[28, 20], "layers without contents are not tinted")
    }

    func testOverlaysOffDrawTheSameFrame() throws {
        // Switching an overlay on and off again leaves no trace.
        let surface = try XCTUnwrap(Surface<ARGB8888>(width: width, height: height))
        let compositor = Compositor()
        let root = scene()
        compositor.debugOverlays = [.blended, .offscreen, .misaligned]
        compositor.render(root, at: 0, into: surface.view)
        compositor.debugOverlays = []
        compositor.render(root, at: 0, into: surface.view)
        let plain = try render([])
        XCTAssertEqual(pixelChecksum(surface.view), pixelChecksum(plain.view))
    }

    /// The redrawn overlay tints exactly this frame's damage, and the next
    /// frame puts those pixels back when nothing changed there again.
    func testRedrawnRegionsFlashOnce() throws {
        let surface = try XCTUnwrap(Surface<ARGB8888>(width: 120, height: 80))
        let compositor = Compositor()
        let root = Layer(name: "root")
        root.bounds = Rect(x: 0, y: 0, width: 120, height: 80)
        root.anchorPoint = .zero
        root.backgroundColor = Color(red: 0.2, green: 0.2, blue: 0.2)
        let mover = Layer(name: "mover")
        mover.bounds = Rect(x: 0, y: 0, width: 10, height: 10)
        mover.anchorPoint = .zero
        mover.position = Point(x: 10, y: 10)
        mover.backgroundColor = .white
        try root.addSublayer(mover)
        compositor.debugOverlays = [.redrawn]
        compositor.render(root, at: 0, into: surface.view)         // full frame, all tinted
        compositor.render(root, at: 0, into: surface.view)         // untinted again
        let plain = try XCTUnwrap(Surface<ARGB8888>(width: 120, height: 80))
        Compositor().render(root, at: 0, into: plain.view)
        XCTAssertEqual(pixelChecksum(surface.view), pixelChecksum(plain.view), "the flash lasts one frame")
        mover.position = Point(x: 60, y: 40)
        compositor.render(root, at: 0, into: surface.view)
        let damage = compositor.damage.boundingBox
        XCTAssertFalse(damage.isEmpty)
        Compositor().render(root, at: 0, into: plain.view)
        for (x, y) in [(damage.x + 1, damage.y + 1), (5, 75)] {
            let inside = x >= damage.x && x < damage.x + damage.width && y >= damage.y && y < damage.y + damage.height
            if inside { XCTAssertNotEqual(surface.view.row(y)[x], plain.view.row(y)[x], "tinted at (\(x), \(y))") }
            else { XCTAssertEqual(surface.view.row(y)[x], plain.view.row(y)[x], "untouched at (\(x), \(y))") }
        }
    }

    func testParse() {
        let (overlays, unknown) = DebugOverlays.parse("blended,offscreen misaligned:bogus,")
        XCTAssertEqual(overlays, [.blended, .offscreen, .misaligned])
        XCTAssertEqual(unknown, ["bogus"])
        XCTAssertEqual(DebugOverlays.parse("all").overlays, [.blended, .offscreen, .misaligned, .redrawn])
        XCTAssertEqual(DebugOverlays.parse("").overlays, [])
        XCTAssertEqual(DebugOverlays.parse("Blended").unknown, ["Blended"], "names are case-sensitive")
    }
}

extension Layer {
    fileprivate func addOverlayTestSublayer(_ layer: Layer) { try! addSublayer(layer) }
}
