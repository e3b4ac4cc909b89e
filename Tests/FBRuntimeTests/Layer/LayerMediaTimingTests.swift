@testable import FBRuntime
import XCTest

/// CAMediaTiming as Core Animation spells it: every animation kind and the
/// transition take `duration`, `repeatCount`, `autoreverses`, `fillMode`…
/// (`MediaTimed`), and a layer has its own timeline, which repeats,
/// reverses and ends the animations under it when it has a duration.
final class LayerMediaTimingTests: XCTestCase {
    private func opacity(_ layer: Layer, at t: MediaTime) -> Double? {
        if case .scalar(let v)? = layer.presentationValue(for: .opacity, at: t) { return v }
        return nil
    }

    func testEveryAnimationKindTakesTheTimingShortcuts() {
        var k = KeyframeAnimation(key: .opacity, values: [.scalar(0), .scalar(1)], duration: 1)
        k.repeatCount = 2
        k.autoreverses = true
        k.fillMode = .forwards
        k.beginTime = 3
        XCTAssertEqual(k.timing.repeatCount, 2)
        XCTAssertTrue(k.timing.autoreverses)
        XCTAssertEqual(k.timing.fillMode, .forwards)
        XCTAssertEqual(k.timing.beginTime, 3)
        // The keyframes run on the shortcuts: half-way back in the first cycle.
        if case .scalar(let v)? = k.value(at: 3 + 1.5) { XCTAssertEqual(v, 0.5, accuracy: 1e-9) } else { XCTFail() }

        var g = AnimationGroup([.keyframe(k)], duration: 4)
        g.speed = 2
        g.timeOffset = 0.5
        g.fillsForwards = true
        XCTAssertEqual(g.timing.speed, 2)
        XCTAssertEqual(g.timing.timeOffset, 0.5)
        XCTAssertEqual(g.timing.fillMode, .forwards)

        var spring = SpringAnimation(key: .opacity)
        spring.repeatCount = 3
        XCTAssertEqual(spring.timing.repeatCount, 3)
        var transition = Transition(type: .fade)
        transition.autoreverses = true
        XCTAssertTrue(transition.timing.autoreverses)
        var any = Animation.basic(BasicAnimation(key: .opacity))
        any.duration = 7
        XCTAssertEqual(any.timing.duration, 7)
    }

    /// A 1 s opacity animation on a layer whose own timeline is 1 s long
    /// and repeats for ever: it plays again every second, where a layer
    /// without a duration shows the model after the first second.
    func testALayerTimelineRepeatsItsAnimations() throws {
        let layer = Layer()
        layer.opacity = 1
        layer.duration = 1
        layer.repeatCount = .infinity
        layer.add(.basic(BasicAnimation(key: .opacity, from: .scalar(0), to: .scalar(1), duration: 1)), forKey: "fade", at: 0)
        let plain = Layer()
        plain.opacity = 1
        plain.add(.basic(BasicAnimation(key: .opacity, from: .scalar(0), to: .scalar(1), duration: 1)), forKey: "fade", at: 0)
        XCTAssertEqual(try XCTUnwrap(opacity(layer, at: 0.5)), 0.5, accuracy: 1e-9)
        XCTAssertEqual(try XCTUnwrap(opacity(layer, at: 1.5)), 0.5, accuracy: 1e-9)
        XCTAssertEqual(try XCTUnwrap(opacity(layer, at: 7.25)), 0.25, accuracy: 1e-9)
        XCTAssertEqual(try XCTUnwrap(opacity(plain, at: 1.5)), 1, accuracy: 1e-9, "finished: the model")
    }

    /// An autoreversing layer timeline plays its animations backwards in
    /// the second half of each cycle; sublayers follow their superlayer.
    func testAnAutoreversingLayerTimelineReversesItsSubtree() throws {
        let parent = Layer(), child = Layer()
        try parent.addSublayer(child)
        parent.duration = 1
        parent.autoreverses = true
        parent.repeatCount = .infinity
        child.opacity = 1
        child.add(.basic(BasicAnimation(key: .opacity, from: .scalar(0), to: .scalar(1), duration: 1)), forKey: "fade", at: 0)
        XCTAssertEqual(try XCTUnwrap(opacity(child, at: 0.25)), 0.25, accuracy: 1e-9)
        XCTAssertEqual(try XCTUnwrap(opacity(child, at: 1.25)), 0.75, accuracy: 1e-9)
        XCTAssertEqual(try XCTUnwrap(opacity(child, at: 2.25)), 0.25, accuracy: 1e-9)
    }

    /// After a layer's active duration its time is +∞ (`fillMode` removed:
    /// an animation shows what it shows once over, here its own forward
    /// fill) or holds the timeline's end (`forwards`: the animation stands
    /// where the layer's time stopped).
    func testALayerTimelineEnds() throws {
        for fill in [FillMode.removed, .forwards] {
            let layer = Layer()
            layer.opacity = 1
            layer.duration = 1
            layer.fillMode = fill
            var fade = BasicAnimation(key: .opacity, from: .scalar(0), to: .scalar(0.5), duration: 2)
            fade.fillMode = .forwards
            layer.add(.basic(fade), forKey: "fade", at: 0)
            XCTAssertEqual(try XCTUnwrap(opacity(layer, at: 0.5)), 0.125, accuracy: 1e-9)
            // The layer's time stops at 1 s: the animation stands at half-way.
            XCTAssertEqual(try XCTUnwrap(opacity(layer, at: 5)), fill == .removed ? 0.5 : 0.25, accuracy: 1e-9, "\(fill)")
        }
    }

    /// Paused layers stand at their `timeOffset` whatever the time, also
    /// at non-finite times (no NaN reaches the animations).
    func testPausedLayerStandsAtItsOffset() {
        let layer = Layer()
        layer.speed = 0
        layer.timeOffset = 0.75
        XCTAssertEqual(layer.localTime(fromParent: 12), 0.75)
        XCTAssertEqual(layer.localTime(fromParent: -.infinity), 0.75)
    }
}
