import XCTest
@testable import FBRuntime
import Raster

/// Animations applied to a layer's presentation values: keys, subkeys,
/// value functions, additive stacking, groups and keyframes on a layer.
final class PresentationTests: XCTestCase {
    private func layer() -> Layer {
        let l = Layer(name: "l")
        l.bounds = Rect(x: 0, y: 0, width: 100, height: 50)
        l.position = Point(x: 200, y: 100)
        return l
    }

    func testSubkeysSetOneComponent() {
        let l = layer()
        l.add(BasicAnimation(key: .positionX, from: .scalar(0), to: .scalar(100), duration: 1), forKey: "x", at: 0)
        l.add(BasicAnimation(key: .boundsSizeWidth, to: .scalar(300), duration: 1), forKey: "w", at: 0)
        let p = PresentationValues(l, at: 0.5)
        XCTAssertEqual(p.position, Point(x: 50, y: 100))          // y untouched
        XCTAssertEqual(p.bounds.size, Size(width: 200, height: 50)) // base 100 → 300
    }

    func testRotationSubkeyAndValueFunctionTurnPastTwoPi() {
        let l = layer()
        // transform.rotation.z from 0 to 3π/2: at 1/3 of the way the layer is turned by π/2.
        l.add(BasicAnimation(key: .transformRotationZ, from: .scalar(0), to: .scalar(1.5 * .pi), duration: 3), forKey: "spin", at: 0)
        var t = PresentationValues(l, at: 1).geometry.transform
        XCTAssertEqual(t.m11, 0, accuracy: 1e-9); XCTAssertEqual(t.m12, 1, accuracy: 1e-9)
        // A value function drives the whole transform from a scalar: 0 → 4π
        // passes through 3π (a half turn), which matrix interpolation cannot.
        var spin = BasicAnimation(key: .transform, from: .scalar(0), to: .scalar(4 * .pi), duration: 4)
        spin.valueFunction = .rotateZ
        l.add(spin, forKey: "spin", at: 0)
        t = PresentationValues(l, at: 3).geometry.transform
        XCTAssertEqual(t.m11, -1, accuracy: 1e-9); XCTAssertEqual(t.m12, 0, accuracy: 1e-9)
    }

    /// Regression (fuzz target animation, seed regression-huge-rotation): a
    /// rotation animated to 1e20 rad trapped in the quaternion's sine
    /// (Int64 conversion of the quadrant). Now the angle gives a non-finite
    /// transform, and the layer is skipped like any non-finite geometry:
    /// the frame equals one without the layer.
    func testHugeRotationAngleNeverTraps() {
        let root = Layer(name: "root")
        root.bounds = Rect(x: 0, y: 0, width: 32, height: 32)
        root.anchorPoint = .zero
        root.backgroundColor = Color(rgb: 0x102030)
        let l = Layer(name: "spun")
        l.bounds = Rect(x: 0, y: 0, width: 10, height: 10)
        l.position = Point(x: 16, y: 16)
        l.backgroundColor = Color(rgb: 0xFFCC00)
        try! root.addSublayer(l)
        let withoutLayer = Surface<ARGB8888>(width: 32, height: 32)!
        l.isHidden = true
        Compositor().render(root, at: 0.5, into: withoutLayer.view)
        l.isHidden = false
        for angle in [1e20, -3e19, 1e300] {
            l.add(BasicAnimation(key: .transformRotationZ, from: .scalar(0), to: .scalar(angle), duration: 1), forKey: "spin", at: 0)
            guard case let .transform(t)? = l.presentationValue(for: .transform, at: 0.5) else { return XCTFail("no transform") }
            XCTAssertFalse(t.m11.isFinite && t.m12.isFinite, "a rotation of \(angle / 2) rad has no meaningful matrix")
            let frame = Surface<ARGB8888>(width: 32, height: 32)!
            Compositor().render(root, at: 0.5, into: frame.view)
            for y in 0..<32 { for x in 0..<32 { XCTAssertEqual(frame.view[x, y], withoutLayer.view[x, y], "(\(x), \(y)) at \(angle)") } }
        }
    }

    func testAdditiveAnimationsStack() {
        let l = layer()
        var a = BasicAnimation(key: .position, from: .point(.zero), to: .point(Point(x: 10, y: 0)), duration: 1)
        a.isAdditive = true
        var b = a
        b.toValue = .point(Point(x: 0, y: 20))
        l.add(a, forKey: "a", at: 0)
        l.add(b, forKey: "b", at: 0)
        XCTAssertEqual(PresentationValues(l, at: 0.5).position, Point(x: 205, y: 110))
    }

    func testTransformAnimationInterpolatesByDecomposition() {
        let l = layer()
        let from = Transform3D(rotationAngle: 0, x: 0, y: 0, z: 1)
        let to = Transform3D(rotationAngle: .pi * 0.9, x: 0, y: 0, z: 1)
        l.add(BasicAnimation(key: .transform, from: .transform(from), to: .transform(to), duration: 1), forKey: "t", at: 0)
        let t = PresentationValues(l, at: 0.5).geometry.transform
        // Halfway is a 0.45π rotation of unit scale, not a shrunken average.
        XCTAssertEqual(t.m11 * t.m11 + t.m12 * t.m12, 1, accuracy: 1e-9)
        XCTAssertEqual(t.m11, FloatMath.sinCos(0.45 * .pi).cos, accuracy: 1e-9)
    }

    func testKeyframesAndGroupsOnALayer() {
        let l = layer()
        var k = KeyframeAnimation(key: .opacity, values: [.scalar(1), .scalar(0), .scalar(1)], duration: 2)
        k.calculationMode = .linear
        let fade = BasicAnimation(key: .cornerRadius, from: .scalar(0), to: .scalar(20), duration: 2)
        l.add(AnimationGroup([.keyframe(k), .basic(fade)], duration: 2), forKey: "g", at: 10)
        let p = PresentationValues(l, at: 10.5)
        XCTAssertEqual(p.opacity, 0.5, accuracy: 1e-12)
        XCTAssertEqual(p.cornerRadius, 5, accuracy: 1e-12)
        XCTAssertEqual(PresentationValues(l, at: 20).opacity, 1)   // the group has ended: the model value
        XCTAssertTrue(l.hasRunningAnimations(at: 11))
        l.removeFinishedAnimations(at: 12)
        XCTAssertTrue(l.animations.isEmpty)
    }

    func testWrongKindsAndUnknownKeysAreIgnored() {
        let l = layer()
        l.add(BasicAnimation(key: .position, from: .scalar(1), to: .scalar(2), duration: 1), forKey: "bad", at: 0)
        l.add(BasicAnimation(key: AnimatableKey(path: "myCustomThing"), from: .scalar(1), to: .scalar(2), duration: 1), forKey: "c", at: 0)
        let p = PresentationValues(l, at: 0.5)
        XCTAssertEqual(p.position, l.position)
        XCTAssertEqual(AnimatableKey(path: "transform.rotation"), .transformRotationZ)
        XCTAssertEqual(AnimatableKey(path: "bounds.size.width").path, "bounds.size.width")
        XCTAssertEqual(AnimatableKey.positionX.parent, .position)
    }
}

/// Layer timing: a layer's speed, beginTime and timeOffset apply to its
/// whole subtree's animations (CALayer adopts CAMediaTiming).
final class LayerTimingTests: XCTestCase {
    func testSpeedZeroPausesASubtreeAndTimeOffsetScrubs() {
        let root = Layer(name: "root"), group = Layer(name: "group"), leaf = Layer(name: "leaf")
        try! root.addSublayer(group)
        try! group.addSublayer(leaf)
        leaf.add(BasicAnimation(key: .opacity, from: .scalar(0), to: .scalar(1), duration: 10), forKey: "fade", at: 0)
        XCTAssertEqual(leaf.presentationValue(for: .opacity, at: 5), .scalar(0.5))
        // Pause the group at global time 5: its local time freezes there.
        group.timeOffset = group.convertTime(5, from: nil)
        group.speed = 0
        XCTAssertEqual(leaf.presentationValue(for: .opacity, at: 9), .scalar(0.5))
        XCTAssertFalse(root.hasRunningAnimations(at: 9))
        // Scrub: move the paused time.
        group.timeOffset = 2
        XCTAssertEqual(leaf.presentationValue(for: .opacity, at: 9), .scalar(0.2))
        // Resume at global 20, continuing from local 2, at double speed.
        group.speed = 2
        group.beginTime = 20
        XCTAssertEqual(leaf.presentationValue(for: .opacity, at: 21), .scalar(0.4))   // local 2 + 1·2
        XCTAssertTrue(root.hasRunningAnimations(at: 21))
    }

    func testAnimationsAddedToATimedLayerStartNow() {
        let root = Layer(name: "root"), leaf = Layer(name: "leaf")
        try! root.addSublayer(leaf)
        root.speed = 2
        root.beginTime = 100
        leaf.add(BasicAnimation(key: .opacity, from: .scalar(0), to: .scalar(1), duration: 1), forKey: "f", at: 150)
        XCTAssertEqual(leaf.presentationValue(for: .opacity, at: 150), .scalar(0))
        XCTAssertEqual(leaf.presentationValue(for: .opacity, at: 150.25), .scalar(0.5))   // twice as fast
        XCTAssertEqual(leaf.convertTime(150, from: nil), 100)
        XCTAssertEqual(root.convertTime(leaf.convertTime(150, from: nil), from: leaf), 100)
    }
}
