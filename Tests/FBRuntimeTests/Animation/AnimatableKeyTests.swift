@testable import FBRuntime
import XCTest

/// Typed keys for the content layers' properties, and custom keys a layer
/// does not have refused instead of animating nothing.
final class AnimatableKeyTests: XCTestCase {
    func testTypedKeysNameTheSamePropertiesAsTheirStrings() {
        XCTAssertEqual(AnimatableKey.strokeEnd, .custom("strokeEnd"))
        XCTAssertEqual(AnimatableKey.shapePath, .custom("path"))
        XCTAssertEqual(AnimatableKey.fontSize.path, "fontSize")
        XCTAssertEqual(AnimatableKey(path: "instanceDelay"), .instanceDelay)
        // Every content layer's declared key has a typed spelling that the
        // class accepts.
        for (keys, layer) in [(ShapeLayer.customAnimatableKeys, ShapeLayer() as Layer), (TextLayer.customAnimatableKeys, TextLayer()),
                              (GradientLayer.customAnimatableKeys, GradientLayer()), (ReplicatorLayer.customAnimatableKeys, ReplicatorLayer())] {
            XCTAssertFalse(keys.isEmpty)
            for name in keys { XCTAssertTrue(layer.hasAnimatableProperty(.custom(name)), name) }
        }
    }

    func testAnimationOfAKeyTheLayerLacksIsRefused() {
        let saved = AppRunLoop.current
        AppRunLoop.current = AppRunLoop(clock: ManualClock(now: 0))
        defer { AppRunLoop.current = saved }
        let text = TextLayer(name: "title")
        XCTAssertNoThrow(try text.add(BasicAnimation(key: .fontSize, from: .scalar(10), to: .scalar(20)), forKey: "size"))
        XCTAssertThrowsError(try text.add(BasicAnimation(key: .custom("fontSzie"), from: .scalar(10), to: .scalar(20)), forKey: "typo")) { error in
            XCTAssertEqual(error as? AnimationError, .unknownKey(key: "fontSzie", layer: "title"))
            XCTAssertEqual((error as? AnimationError)?.description, "layer 'title' has no animatable property 'fontSzie'")
        }
        XCTAssertNil(text.animation(forKey: "typo"), "the layer is unchanged")
        // A shape's key on a text layer, inside a group: refused too.
        let group = AnimationGroup([.basic(BasicAnimation(key: .strokeEnd, from: .scalar(0), to: .scalar(1)))])
        XCTAssertThrowsError(try text.add(group, forKey: "group"))
        // Layer's own keys and custom properties a class or the app declares are fine.
        XCTAssertNoThrow(try text.add(BasicAnimation(key: .opacity, from: .scalar(0), to: .scalar(1)), forKey: "fade"))
        text.setValue(.scalar(3), forKey: "wobble")
        XCTAssertNoThrow(try text.add(BasicAnimation(key: .custom("wobble"), from: .scalar(0), to: .scalar(1)), forKey: "wobble"))
    }
}
