import FBRuntime
import Raster
import XCTest

/// Hit testing against the drawing itself: every layer of a scene has its
/// own opaque colour, the compositor renders it, and at each sampled pixel
/// whose colour is exactly one layer's, `hitTest` at the pixel's centre must
/// return that layer (anti-aliased edges, mixed colours, are skipped). The
/// render is the oracle: the hit test and the compositor must agree on
/// placement, order, clipping, masks, 3-D planes and replicas.
final class HitTestMatchesDrawingTests: XCTestCase {
    private func layer(_ name: String, _ x: Double, _ y: Double, _ w: Double, _ h: Double, _ rgb: UInt32) -> Layer {
        let l = Layer(name: name)
        l.bounds = Rect(x: 0, y: 0, width: w, height: h)
        l.anchorPoint = .zero
        l.position = Point(x: x, y: y)
        l.backgroundColor = Color(rgb: rgb)
        return l
    }

    /// The surfaces `render` drew into, kept for the test's length (a
    /// view does not own its pixels).
    private var surfaces: [Surface<ARGB8888>] = []

    private func render(_ root: Layer, _ w: Int, _ h: Int) -> PixelView<ARGB8888> {
        let surface = Surface<ARGB8888>(width: w, height: h)!
        surfaces.append(surface)
        Compositor().render(root, at: 0, into: surface.view)
        return surface.view
    }

    /// Compares the hit at every `step`-th pixel centre with the drawn
    /// colour; returns the layers seen hit, by name.
    @discardableResult
    // Edges anti-aliased: a pixel on an edge mixes colours and is skipped.
    // With hard edges (the default) a centre within rounding (10⁻¹⁵) of an
    // edge may be decided one way by the drawing and the other by the hit
    // test, which are both right.
    override func setUp() {
        super.setUp()
        Layer.defaultAllowsEdgeAntialiasing = true
    }

    override func tearDown() {
        Layer.defaultAllowsEdgeAntialiasing = false
        super.tearDown()
    }

    private func assertHitsMatchPixels(_ root: Layer, _ w: Int, _ h: Int, layers: [Layer], step: Int = 1,
                                       file: StaticString = #filePath, line: UInt = #line) -> Set<String> {
        let view = render(root, w, h)
        var byColor: [UInt32: Layer] = [:]
        for l in layers { byColor[l.backgroundColor!.premultiplied.argb] = l }
        var seen = Set<String>()
        var checked = 0
        for y in stride(from: 0, to: h, by: step) {
            for x in stride(from: 0, to: w, by: step) {
                guard let expected = byColor[view[x, y]] else { continue }   // an edge: colours mixed
                let hit = root.hitTest(Point(x: Double(x) + 0.5, y: Double(y) + 0.5), at: 0)
                checked += 1
                if hit !== expected {
                    XCTFail("pixel (\(x), \(y)) shows \(expected.name) but the hit is \(hit?.name ?? "nil")", file: file, line: line)
                    return seen
                }
                seen.insert(expected.name)
            }
        }
        XCTAssertGreaterThan(checked, w * h / (step * step) / 2, "most pixels are one layer's colour", file: file, line: line)
        return seen
    }

    func testRoundedClipMaskAndZOrderMatchTheDrawing() throws {
        let root = layer("root", 0, 0, 160, 100, 0x101010)
        // Rounded clip: the child overhangs the rounded corner and is cut.
        let card = layer("card", 10, 10, 60, 60, 0xC03030)
        card.cornerRadius = 20
        card.masksToBounds = true
        let child = layer("child", -10, -10, 40, 40, 0x30C030)
        try card.addSublayer(child)
        // Mask: only the left half (the mask's opaque part) is drawn.
        let masked = layer("masked", 80, 10, 60, 60, 0x3030C0)
        masked.mask = layer("maskShape", 0, 0, 30, 60, 0xFFFFFF)
        // zPosition: `front` is earlier in the tree but drawn above.
        let front = layer("front", 40, 50, 30, 30, 0xE08020)
        front.zPosition = 5
        let behind = layer("behind", 50, 60, 40, 30, 0x808080)
        for l in [card, masked, front, behind] { try root.addSublayer(l) }
        let seen = assertHitsMatchPixels(root, 160, 100, layers: [root, card, child, masked, front, behind])
        XCTAssertEqual(seen, ["root", "card", "child", "masked", "front", "behind"])
        // The probes the issue names, by geometry alone: (11, 11) is 12.7
        // points from the corner's centre (20+10, 20+10) > radius 20.
        XCTAssertTrue(root.hitTest(Point(x: 11, y: 11), at: 0) === root, "the rounded-off corner misses the card and its child")
        XCTAssertTrue(root.hitTest(Point(x: 125, y: 40), at: 0) === root, "where the mask is transparent the layer misses")
        XCTAssertTrue(root.hitTest(Point(x: 95, y: 40), at: 0) === masked)
    }

    func testTransformLayerPlanesAndReplicasMatchTheDrawing() throws {
        let root = layer("root", 0, 0, 200, 120, 0x101010)
        // Two planes crossing along their vertical centre line, under a
        // perspective: on one side of it the turned plane is in front, on
        // the other the flat one.
        let context = TransformLayer()
        context.bounds = Rect(x: 0, y: 0, width: 100, height: 80)
        context.position = Point(x: 60, y: 50)
        context.sublayerTransform = .perspective(distance: 300)
        let flat = layer("flat", 0, 20, 100, 40, 0xC0C030)
        let turned = layer("turned", 0, 20, 100, 40, 0x30C0C0)
        turned.transform = .rotation(radians: .pi / 4, x: 0, y: 1, z: 0)
        for plane in [flat, turned] {
            plane.anchorPoint = Point(x: 0.5, y: 0.5)   // turned about its centre line
            plane.position = Point(x: 50, y: 40)
        }
        try context.addSublayer(flat)
        try context.addSublayer(turned)
        // A replicator: three copies of one bar, 20 points apart.
        let replicator = ReplicatorLayer(name: "replicator")
        replicator.bounds = Rect(x: 0, y: 0, width: 70, height: 60)
        replicator.anchorPoint = .zero
        replicator.backgroundColor = Color(rgb: 0x405060)   // a layer without a colour is hit too (as in CA)
        replicator.position = Point(x: 120, y: 30)
        replicator.instanceCount = 3
        replicator.instanceTransform = .translation(x: 20, y: 0)
        let bar = layer("bar", 0, 0, 10, 60, 0xC030C0)
        try replicator.addSublayer(bar)
        try root.addSublayer(context)
        try root.addSublayer(replicator)
        let seen = assertHitsMatchPixels(root, 200, 120, layers: [root, flat, turned, replicator, bar])
        XCTAssertEqual(seen, ["root", "flat", "turned", "replicator", "bar"], "both planes show somewhere, and the replicas")
        XCTAssertTrue(root.hitTest(Point(x: 145, y: 40), at: 0) === bar, "the second instance returns the model sublayer")
    }

    func testContainsIsOverridable() throws {
        final class Disc: Layer {
            override func contains(_ p: Point) -> Bool {
                let r = bounds.width / 2
                let dx = p.x - (bounds.minX + bounds.maxX) / 2, dy = p.y - (bounds.minY + bounds.maxY) / 2
                return dx * dx + dy * dy <= r * r
            }
        }
        let root = layer("root", 0, 0, 100, 100, 0x101010)
        let disc = Disc(name: "disc")
        disc.bounds = Rect(x: 0, y: 0, width: 40, height: 40)
        disc.position = Point(x: 50, y: 50)
        try root.addSublayer(disc)
        // The disc's centre is (50, 50), radius 20: (33, 33) is 24 away.
        XCTAssertTrue(root.hitTest(Point(x: 50, y: 65), at: 0) === disc)
        XCTAssertTrue(root.hitTest(Point(x: 33, y: 33), at: 0) === root, "inside the bounds, outside the overridden shape")
    }
}
