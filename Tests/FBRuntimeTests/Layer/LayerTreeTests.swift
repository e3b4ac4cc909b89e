import XCTest
@testable import FBRuntime
import Raster
import TestSupport

final class LayerTreeTests: XCTestCase {
    func testAddingALayerToItsOwnSubtreeIsRefused() throws {
        let a = Layer(name: "a"), b = Layer(name: "b"), c = Layer(name: "c")
        try a.addSublayer(b)
        try b.addSublayer(c)
        XCTAssertThrowsError(try c.addSublayer(a)) { error in
            XCTAssertEqual(error as? LayerTreeError, .wouldCreateCycle(layer: "a", into: "c"))
        }
        XCTAssertThrowsError(try a.addSublayer(a))
        // The tree is unchanged.
        XCTAssertTrue(a.sublayers.first === b && b.sublayers.first === c && c.sublayers.isEmpty)
        XCTAssertNil(a.superlayer)
    }

    func testMovingALayerLeavesItsOldTree() throws {
        let tree1 = Layer(name: "t1"), tree2 = Layer(name: "t2"), x = Layer(name: "x")
        try tree1.addSublayer(x)
        try tree2.addSublayer(x)
        XCTAssertTrue(tree1.sublayers.isEmpty)
        XCTAssertTrue(x.superlayer === tree2)
    }

    /// A layer is in one place at a time: a mask made a sublayer leaves
    /// its mask slot, a sublayer made a mask leaves its superlayer, and a
    /// mask given to another layer leaves the first. Before, it could be
    /// both, and an edit under it reached the render tree only through
    /// one of its places (DirtyCommitTests found it: a mask's sublayer's
    /// `strokeEnd` never reached the screen).
    func testALayerIsEitherASublayerOrAMask() throws {
        let root = Layer(name: "root"), a = Layer(name: "a"), b = Layer(name: "b"), m = ShapeLayer(name: "m")
        try root.addSublayer(a)
        try root.addSublayer(b)
        a.mask = m
        try b.addSublayer(m)                          // the mask becomes b's sublayer
        XCTAssertNil(a.mask)
        XCTAssertNil(m.maskOwner)
        XCTAssertTrue(m.superlayer === b)
        a.mask = m                                    // and back: out of b
        XCTAssertTrue(a.mask === m && m.maskOwner === a)
        XCTAssertNil(m.superlayer)
        XCTAssertTrue(b.sublayers.isEmpty)
        b.mask = m                                    // another layer's mask now
        XCTAssertNil(a.mask)
        XCTAssertTrue(b.mask === m && m.maskOwner === b)
        b.mask = m                                    // set again: unchanged
        XCTAssertTrue(b.mask === m && m.maskOwner === b)

        // Through commits: the render tree follows each move, and an edit
        // to the mask after the moves reaches its twin.
        RenderTreeUpdate(capturing: root, at: 0).apply()
        try a.addSublayer(m)
        RenderTreeUpdate(capturing: root, at: 0).apply()
        XCTAssertNil(b.handOff.twin!.mask)
        XCTAssertTrue(a.handOff.twin!.sublayers.first === m.handOff.twin)
        b.mask = m
        m.strokeEnd = 0.25
        RenderTreeUpdate(capturing: root, at: 0).apply()
        XCTAssertTrue(b.handOff.twin!.mask === m.handOff.twin)
        XCTAssertTrue(a.handOff.twin!.sublayers.isEmpty)
        XCTAssertEqual((m.handOff.twin as? ShapeLayer)?.strokeEnd, 0.25)
    }

    func testInsertAboveBelowReplaceKeepOrder() throws {
        let root = Layer(name: "root")
        let a = Layer(name: "a"), b = Layer(name: "b"), c = Layer(name: "c"), d = Layer(name: "d")
        try root.addSublayer(a)
        try root.addSublayer(c)
        try root.insertSublayer(b, above: a)
        try root.insertSublayer(d, below: a)
        XCTAssertEqual(root.sublayers.map(\.name), ["d", "a", "b", "c"])
        try root.insertSublayer(d, above: b)          // move within the same parent
        XCTAssertEqual(root.sublayers.map(\.name), ["a", "b", "d", "c"])
        let e = Layer(name: "e")
        try root.replaceSublayer(b, with: e)
        XCTAssertEqual(root.sublayers.map(\.name), ["a", "e", "d", "c"])
        XCTAssertNil(b.superlayer)
        XCTAssertThrowsError(try root.insertSublayer(Layer(), at: 9))
        XCTAssertThrowsError(try root.insertSublayer(Layer(), above: b))
    }

    func testFrameFollowsPositionAnchorAndBounds() {
        let layer = Layer()
        layer.bounds = Rect(x: 10, y: 10, width: 200, height: 100)
        layer.position = Point(x: 100, y: 100)
        XCTAssertEqual(layer.frame, Rect(x: 0, y: 50, width: 200, height: 100))
        layer.anchorPoint = Point(x: 0, y: 0)
        XCTAssertEqual(layer.frame, Rect(x: 100, y: 100, width: 200, height: 100))
        // Setting the frame sets position and bounds size only.
        layer.frame = Rect(x: 20, y: 30, width: 40, height: 50)
        XCTAssertEqual(layer.position, Point(x: 20, y: 30))
        XCTAssertEqual(layer.bounds, Rect(x: 10, y: 10, width: 40, height: 50))
    }
}

final class AnimationTimingTests: XCTestCase {
    func testBasicAnimationTiming() {
        var a = BasicAnimation(key: .opacity, from: .scalar(0), to: .scalar(1), duration: 2)
        a.beginTime = 10
        XCTAssertNil(a.value(at: 9.9))
        XCTAssertEqual(a.value(at: 10), .scalar(0))
        XCTAssertEqual(a.value(at: 11), .scalar(0.5))
        XCTAssertNil(a.value(at: 12))                   // removed effect after the end
        a.fillsForwards = true
        XCTAssertEqual(a.value(at: 50), .scalar(1))
        a.fillsForwards = false
        a.autoreverses = true
        a.repeatCount = 2
        XCTAssertEqual(a.value(at: 13), .scalar(0.5))   // on the way back
        XCTAssertEqual(a.value(at: 15), .scalar(0.5))   // second pass, forwards
        XCTAssertTrue(a.hasFinished(at: 18))
        XCTAssertFalse(a.hasFinished(at: 17.9))
    }

    func testTimingFunctions() {
        XCTAssertEqual(TimingFunction.linear.value(at: 0.3), 0.3)
        XCTAssertEqual(TimingFunction.easeInEaseOut.value(at: 0.5), 0.5, accuracy: 1e-6)
        // The curve is symmetric and slower than linear at the start.
        XCTAssertLessThan(TimingFunction.easeInEaseOut.value(at: 0.2), 0.2)
        XCTAssertEqual(TimingFunction.easeInEaseOut.value(at: 0.2) + TimingFunction.easeInEaseOut.value(at: 0.8), 1, accuracy: 1e-6)
        // Against a brute-force evaluation of the Bézier: sample s densely.
        let f = TimingFunction(0.25, 0.1, 0.25, 1)
        for x in stride(from: 0.05, to: 1, by: 0.05) {
            var best = (err: Double.infinity, y: 0.0)
            for i in 0...20000 {
                let s = Double(i) / 20000, u = 1 - s
                let bx = 3 * u * u * s * 0.25 + 3 * u * s * s * 0.25 + s * s * s
                let by = 3 * u * u * s * 0.1 + 3 * u * s * s * 1 + s * s * s
                if abs(bx - x) < best.err { best = (abs(bx - x), by) }
            }
            XCTAssertEqual(f.value(at: x), best.y, accuracy: 1e-3, "x=\(x)")
        }
    }
}

final class CompositorTests: XCTestCase {
    /// A small scene through the compositor, compared with a golden image.
    func testNestedLayersGolden() throws {
        let root = Layer(name: "root")
        root.bounds = Rect(x: 0, y: 0, width: 64, height: 48)
        root.position = Point(x: 32, y: 24)
        root.backgroundColor = Color(rgb: 0x202020)
        let parent = Layer(name: "parent")
        parent.bounds = Rect(x: 8, y: 4, width: 40, height: 30)   // scrolled by (8, 4)
        parent.anchorPoint = Point(x: 0, y: 0)
        parent.position = Point(x: 10, y: 8)
        parent.backgroundColor = Color(rgb: 0x3366CC)
        parent.opacity = 0.5
        parent.allowsGroupOpacity = false   // the opacity multiplied down (group opacity: CompositorImageTests)
        let child = Layer(name: "child")
        child.bounds = Rect(x: 0, y: 0, width: 20, height: 10)
        child.anchorPoint = Point(x: 0, y: 0)
        child.position = Point(x: 8, y: 4)                         // at the parent's top-left corner
        child.backgroundColor = Color(rgb: 0xFFCC00)
        try parent.addSublayer(child)
        try root.addSublayer(parent)
        let display = try XCTUnwrap(HeadlessDisplay(width: 64, height: 48))
        let compositor = Compositor()
        display.renderFrame(root, with: compositor)
        // The child's top-left pixel sits at the parent's top-left pixel.
        let v = display.framebuffer.view
        XCTAssertEqual(v[10, 8], v[29, 17])
        XCTAssertNotEqual(v[10, 8], v[30, 18])
        let result = compareWithGolden(v, name: "compositor-nested-layers")
        XCTAssertTrue(result.passed, result.message)
        // Reference and SIMD kernels agree on the whole frame.
        let reference = try XCTUnwrap(HeadlessDisplay(width: 64, height: 48))
        reference.renderFrame(root, with: Compositor(kernels: .reference))
        XCTAssertEqual(pixelChecksum(v), pixelChecksum(reference.framebuffer.view))
    }

    func testAnimationMovesALayerBetweenFrames() throws {
        let root = Layer(name: "root")
        root.bounds = Rect(x: 0, y: 0, width: 100, height: 20)
        root.anchorPoint = Point(x: 0, y: 0)
        let box = Layer(name: "box")
        box.bounds = Rect(x: 0, y: 0, width: 10, height: 10)
        box.anchorPoint = Point(x: 0, y: 0)
        box.backgroundColor = .white
        try root.addSublayer(box)
        box.add(BasicAnimation(key: .position, from: .point(Point(x: 0, y: 5)), to: .point(Point(x: 60, y: 5)), duration: 1),
                forKey: "move", at: 0)
        let display = try XCTUnwrap(HeadlessDisplay(width: 100, height: 20, refreshRate: 4))
        let compositor = Compositor()
        var leftEdges: [Int] = []
        for _ in 0..<4 {
            display.renderFrame(root, with: compositor)
            let v = display.framebuffer.view
            leftEdges.append((0..<100).first { v[$0, 8] == 0xFFFF_FFFF } ?? -1)
        }
        XCTAssertEqual(leftEdges, [0, 15, 30, 45])   // t = 0, 0.25, 0.5, 0.75 s
        XCTAssertTrue(root.hasRunningAnimations(at: 0.75))
        XCTAssertFalse(root.hasRunningAnimations(at: 1))
    }

    func testBadGeometryIsSkippedNotFatal() throws {
        let root = Layer(name: "root")
        root.bounds = Rect(x: 0, y: 0, width: 16, height: 16)
        root.anchorPoint = .zero
        for bad in [Double.nan, .infinity, -.infinity, 1e300, -1e9] {
            let l = Layer(name: "bad")
            l.bounds = Rect(x: 0, y: 0, width: bad, height: 5)
            l.position = Point(x: bad, y: 3)
            l.opacity = bad
            l.backgroundColor = Color(red: bad, green: 0, blue: 0, alpha: bad)
            try root.addSublayer(l)
        }
        let display = try XCTUnwrap(HeadlessDisplay(width: 16, height: 16))
        display.renderFrame(root, with: Compositor())   // must not trap
        XCTAssertNil(HeadlessDisplay(width: 0, height: 10))
        XCTAssertNil(HeadlessDisplay(width: 100_000, height: 100_000))
    }
}
