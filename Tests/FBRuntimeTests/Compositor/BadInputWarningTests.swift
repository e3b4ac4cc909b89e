@testable import FBRuntime
import Raster
import XCTest

/// Bad input (issue 4): NaN and infinite geometry, singular transforms,
/// contentsScale ≤ 0, a 100000-pixel-wide layer with every effect, 10000
/// nested layers. Each renders without trapping, allocates no giant
/// surface, gives the documented result, and warns once naming the layer.
final class BadInputWarningTests: XCTestCase {
    private var warnings: [String] = []

    override func setUp() {
        warnings = []
        Diagnostics.reset()
        Diagnostics.sink = { [unowned self] in self.warnings.append($0) }
    }

    override func tearDown() { Diagnostics.sink = nil; Diagnostics.reset() }

    private func layer(_ name: String, _ x: Double, _ y: Double, _ w: Double, _ h: Double, _ rgb: UInt32? = nil) -> Layer {
        solidLayer(name, x, y, w, h, rgb)
    }

    private func warnings(naming name: String) -> [String] { warnings.filter { $0.contains("\"\(name)\"") } }

    /// Renders `frames` frames (the second and later with the layer moved a
    /// little, so they redraw) and returns the target.
    /// The surfaces `render` drew into, kept for the test's length (a
    /// view does not own its pixels).
    private var surfaces: [Surface<ARGB8888>] = []

    private func render(_ root: Layer, _ compositor: Compositor, _ w: Int, _ h: Int, frames: Int = 3) -> PixelView<ARGB8888> {
        let surface = Surface<ARGB8888>(width: w, height: h)!
        surfaces.append(surface)
        for _ in 0..<frames {
            compositor.render(root, at: 0, into: surface.view)
            compositor.invalidate()
        }
        return surface.view
    }

    func testNonFiniteGeometryIsSkippedWithOneWarning() {
        let root = layer("root", 0, 0, 32, 32, 0x000000)
        let nanPosition = layer("nanPosition", .nan, 4, 10, 10, 0xFF0000)
        let infiniteBounds = layer("infiniteBounds", 4, 4, .infinity, 10, 0xFF0000)
        let nanTransform = layer("nanTransform", 4, 4, 10, 10, 0xFF0000)
        nanTransform.transform.m11 = .nan
        for l in [nanPosition, infiniteBounds, nanTransform] { try! root.addSublayer(l) }
        try! nanPosition.addSublayer(layer("childOfNaN", 0, 0, 5, 5, 0x00FF00))
        let view = render(root, Compositor(), 32, 32)
        for y in 0..<32 { for x in 0..<32 { XCTAssertEqual(view[x, y], 0xFF00_0000, "nothing of the bad layers is drawn") } }
        for name in ["nanPosition", "infiniteBounds", "nanTransform"] {
            XCTAssertEqual(warnings(naming: name).count, 1, "one warning for \(name) over three frames: \(warnings)")
        }
        XCTAssertTrue(warnings(naming: "childOfNaN").isEmpty, "the subtree is skipped with its root, not warned about")
        // Hit testing skips them too.
        XCTAssertTrue(root.hitTest(Point(x: 8, y: 8), at: 0) === root)
    }

    func testSingularTransformDrawsNothingAndDoesNotTrap() {
        let root = layer("root", 0, 0, 32, 32, 0x000000)
        let flat = layer("flat", 4, 4, 20, 20, 0xFF0000)
        flat.transform = .scale(x: 0, y: 1)
        flat.cornerRadius = 4
        flat.masksToBounds = true
        flat.shadowOpacity = 1
        flat.mask = layer("flatMask", 0, 0, 20, 20, 0xFFFFFF)
        try! flat.addSublayer(layer("flatChild", 0, 0, 10, 10, 0x00FF00))
        try! root.addSublayer(flat)
        let view = render(root, Compositor(), 32, 32)
        for y in 0..<32 { for x in 0..<32 { XCTAssertEqual(view[x, y], 0xFF00_0000, "a zero-width layer covers nothing") } }
        XCTAssertTrue(root.hitTest(Point(x: 4, y: 10), at: 0) === root, "nor can it be hit")
    }

    func testContentsScaleNotPositiveCountsAsOneWithOneWarning() {
        for bad in [0.0, -2, .nan] {
            warnings = []
            Diagnostics.reset()
            let root = layer("root", 0, 0, 16, 16, 0x000000)
            let image = Surface<ARGB8888>(width: 4, height: 4)!
            for y in 0..<4 { for x in 0..<4 { image.view[x, y] = 0xFFFF_FFFF } }
            let l = layer("badScale", 0, 0, 16, 16)
            l.contents = LayerContents(image, isOpaque: true)
            l.contentsGravity = .topLeft
            l.contentsScale = bad
            try! root.addSublayer(l)
            let view = render(root, Compositor(), 16, 16)
            // At 1 texel per point the 4×4 image covers 4×4 points.
            XCTAssertEqual(view[3, 3], 0xFFFF_FFFF, "scale \(bad)")
            XCTAssertEqual(view[4, 4], 0xFF00_0000, "scale \(bad)")
            XCTAssertEqual(warnings(naming: "badScale").count, 1, "scale \(bad): \(warnings)")
        }
    }

    func testHugeLayerWithEveryEffectIsClampedAndWarnedOnce() {
        let root = layer("root", 0, 0, 64, 48, 0x202830)
        let huge = layer("huge", -50_000, 8, 100_000, 30, 0x3366CC)
        let image = Surface<ARGB8888>(width: 8, height: 8)!
        for y in 0..<8 { for x in 0..<8 { image.view[x, y] = 0xFFFF_8000 } }
        huge.contents = LayerContents(image, isOpaque: true)
        huge.cornerRadius = 8
        huge.masksToBounds = false
        huge.shadowOpacity = 1
        huge.shadowRadius = 5
        huge.shouldRasterize = true
        huge.mask = layer("hugeMask", 0, 0, 100_000, 30, 0xFFFFFF)
        try! huge.addSublayer(layer("dot", 50_010, 5, 8, 8, 0xFFFFFF))
        try! root.addSublayer(huge)
        let compositor = Compositor()
        let view = render(root, compositor, 64, 48)
        // `shouldRasterize`: the bitmap's density is lowered until its longest
        // side fits `maximumRasterizedSide` (documented), so the dot is
        // drawn, but blurred.
        XCTAssertNotEqual(view[14, 16], view[40, 16], "the sublayer in view (x 10…18, y 13…21) shows")
        XCTAssertNotEqual(view[40, 30], 0xFF20_2830, "the layer is drawn where it is on screen")
        // The largest surface is bounded by the target grown by the shadow
        // margin (radius 5: under 32 px each way), rounded up to 64 px steps
        // — nowhere near 100000 px × 30 px × 4 bytes.
        let bound = (64 + 2 * 32 + 64) * (48 + 2 * 32 + 64) * 4
        XCTAssertLessThanOrEqual(compositor.colorPool.largestSurfaceBytes, bound)
        XCTAssertLessThanOrEqual(compositor.coveragePool.largestSurfaceBytes, bound)
        XCTAssertLessThanOrEqual(compositor.rasterizeCacheBytes, 32 << 20, "the rasterize cache stays within its budget")
        XCTAssertEqual(warnings(naming: "huge").count, 1, "\(warnings)")
    }

    func testTenThousandNestedLayersStopAtTheDepthLimitWithOneWarning() {
        let root = layer("root", 0, 0, 16, 16, 0x000000)
        var parent = root
        var atLimit: Layer?
        for depth in 1...10_000 {
            let l = layer("nested\(depth)", 0, 0, 16, 16, depth % 2 == 0 ? 0x00FF00 : 0xFF0000)
            try! parent.addSublayer(l)
            if depth == Compositor.maximumDepth { atLimit = l }
            parent = l
        }
        let view = render(root, Compositor(), 16, 16, frames: 2)
        // The deepest drawn layer is at depth maximumDepth − 1 (511, odd: red).
        XCTAssertEqual(view[8, 8], (Compositor.maximumDepth - 1) % 2 == 0 ? 0xFF00_FF00 : 0xFFFF_0000)
        XCTAssertEqual(warnings.count, 1, "\(warnings)")
        XCTAssertEqual(warnings(naming: atLimit!.name).count, 1)
        let hit = root.hitTest(Point(x: 8, y: 8), at: 0)
        XCTAssertEqual(hit?.name, "nested\(Compositor.maximumDepth - 1)", "hit testing stops at the same depth")
    }
}
