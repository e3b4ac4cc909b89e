@testable import FBRuntime
import Raster
import XCTest

/// ReplicatorLayer against equivalent trees built by hand: the same
/// sublayers placed by containers whose `sublayerTransform` is the
/// instance's transform (also applied about the centre), with colours
/// tinted by hand and animations delayed by hand.
final class ReplicatorLayerTests: XCTestCase {
    let size = 120

    /// The surfaces `render` drew into, kept for the test's length (a
    /// view does not own its pixels).
    private var surfaces: [Surface<ARGB8888>] = []

    func render(_ root: Layer, at time: MediaTime = 0) -> PixelView<ARGB8888> {
        let target = Surface<ARGB8888>(width: size, height: size)!
        surfaces.append(target)
        Compositor().render(root, at: time, into: target.view, clearColor: .black)
        return target.view
    }

    func box(_ name: String, _ x: Double, _ y: Double, _ w: Double, _ h: Double, _ color: Color) -> Layer {
        let l = Layer(name: name)
        l.bounds = Rect(x: 0, y: 0, width: w, height: h)
        l.anchorPoint = .zero
        l.position = Point(x: x, y: y)
        l.backgroundColor = color
        return l
    }

    func container(_ layer: Layer, bounds: Double = 100) -> Layer {
        layer.bounds = Rect(x: 0, y: 0, width: bounds, height: bounds)
        layer.position = Point(x: 60, y: 60)          // centred: anchor (0.5, 0.5)
        return layer
    }

    func largestDifference(_ a: PixelView<ARGB8888>, _ b: PixelView<ARGB8888>) -> Int {
        var worst = 0
        for y in 0..<a.height {
            for x in 0..<a.width {
                let p = a.row(y)[x], q = b.row(y)[x]
                for s in stride(from: 0, to: 32, by: 8) {
                    worst = max(worst, abs(Int((p >> UInt32(s)) & 0xFF) - Int((q >> UInt32(s)) & 0xFF)))
                }
            }
        }
        return worst
    }

    /// The 2009 reflection: two instances, the second flipped about the
    /// centre and darkened by an RGB offset of −0.75.
    func testReflectionMatchesAHandBuiltMirror() throws {
        let red = Color(red: 0.9, green: 0.3, blue: 0.2), blue = Color(red: 0.2, green: 0.4, blue: 1)
        func subject(_ k: Double) -> Layer {
            let s = box("subject", 20, 10, 60, 40, Color(red: red.red * k, green: red.green * k, blue: red.blue * k))
            try! s.addSublayer(box("stripe", 5, 5, 20, 10, Color(red: blue.red * k, green: blue.green * k, blue: blue.blue * k)))
            return s
        }
        let replicator = container(ReplicatorLayer()) as! ReplicatorLayer
        replicator.instanceCount = 2
        replicator.instanceTransform = Transform3D(scaleX: 1, y: -1)
        replicator.instanceRedOffset = -0.75
        replicator.instanceGreenOffset = -0.75
        replicator.instanceBlueOffset = -0.75
        try replicator.addSublayer(subject(1))
        let root = Layer()
        try root.addSublayer(replicator)

        let expected = Layer()
        let original = container(Layer()), mirror = container(Layer())
        mirror.sublayerTransform = Transform3D(scaleX: 1, y: -1)
        try original.addSublayer(subject(1))
        try mirror.addSublayer(subject(0.25))
        try expected.addSublayer(original)
        try expected.addSublayer(mirror)

        let ours = render(root), theirs = render(expected)
        XCTAssertLessThanOrEqual(largestDifference(ours, theirs), 2)
        // The mirror is there: the stripe's reflection at y = 50 + (50 − 20) − …
        XCTAssertNotEqual(ours.row(95)[40], 0xFF00_0000, "the reflection drew below the subject")
        let compositor = Compositor()
        let target = Surface<ARGB8888>(width: size, height: size)!
        compositor.render(root, at: 0, into: target.view)
        XCTAssertEqual(compositor.statistics.offscreenPasses, 1, "only the tinted instance goes offscreen")
    }

    /// Animations of the replicated sublayer replicate, each instance
    /// `instanceDelay` later than the one before.
    func testInstancesRunTheSublayersAnimationsDelayed() throws {
        func moving(_ begin: Double, y: Double) -> Layer {
            let l = box("dot", 0, y, 12, 12, Color(red: 0.2, green: 0.9, blue: 0.4))
            var a = BasicAnimation(key: .positionX, from: .scalar(0), to: .scalar(80), duration: 1)
            a.beginTime = begin
            l.add(a, forKey: "x", at: 0)
            return l
        }
        let replicator = container(ReplicatorLayer()) as! ReplicatorLayer
        replicator.instanceCount = 3
        replicator.instanceDelay = 0.2
        replicator.instanceTransform = Transform3D(translationX: 0, y: 30)
        try replicator.addSublayer(moving(0, y: 5))
        let root = Layer()
        try root.addSublayer(replicator)

        let expected = Layer()
        let c = container(Layer())
        for k in 0..<3 { try c.addSublayer(moving(0.2 * Double(k), y: 5 + 30 * Double(k))) }
        try expected.addSublayer(c)
        for t in [0.1, 0.35, 0.7, 1.3] {
            XCTAssertEqual(pixelChecksum(render(root, at: t)), pixelChecksum(render(expected, at: t)), "t = \(t)")
        }
    }

    func testBadCountsAndTransforms() throws {
        let replicator = container(ReplicatorLayer()) as! ReplicatorLayer
        replicator.backgroundColor = Color(red: 0.1, green: 0.1, blue: 0.1)
        try replicator.addSublayer(box("a", 10, 10, 20, 20, .white))
        let root = Layer()
        try root.addSublayer(replicator)
        let alone = Layer()
        let plain = container(Layer())
        plain.backgroundColor = Color(red: 0.1, green: 0.1, blue: 0.1)
        try alone.addSublayer(plain)
        for count in [0, -5] {
            replicator.instanceCount = count
            XCTAssertEqual(pixelChecksum(render(root)), pixelChecksum(render(alone)), "count \(count): no instances")
        }
        replicator.instanceCount = 1_000_000          // clamped to maximumInstanceCount
        replicator.instanceTransform = Transform3D(translationX: .nan, y: 1)
        replicator.instanceRedOffset = .infinity
        _ = render(root)
        XCTAssertEqual(replicator.replication(at: 0).count, ReplicatorLayer.maximumInstanceCount)
        XCTAssertEqual(replicator.replication(at: 0).transform, .identity)
    }
}
