import XCTest
@testable import FBRuntime

/// Hit testing against the presentation tree: a finger lands on what is on
/// screen at that instant, even mid-animation.
final class HitTestTests: XCTestCase {
    private func scene() -> (root: Layer, card: Layer, badge: Layer, back: Layer) {
        let root = Layer(name: "root")
        root.bounds = Rect(x: 0, y: 0, width: 400, height: 300)
        root.anchorPoint = .zero
        let back = Layer(name: "back")
        back.frame = Rect(x: 0, y: 0, width: 400, height: 300)
        let card = Layer(name: "card")
        card.bounds = Rect(x: 0, y: 0, width: 100, height: 60)
        card.position = Point(x: 100, y: 100)
        let badge = Layer(name: "badge")
        badge.bounds = Rect(x: 0, y: 0, width: 20, height: 20)
        badge.anchorPoint = .zero
        badge.position = Point(x: 90, y: -10)                 // sticks out of the card's corner
        try! card.addSublayer(badge)
        try! root.addSublayer(back)
        try! root.addSublayer(card)
        return (root, card, badge, back)
    }

    func testDeepestFrontmostLayerWins() {
        let s = scene()
        XCTAssertTrue(s.root.hitTest(Point(x: 100, y: 100), at: 0) === s.card)
        XCTAssertTrue(s.root.hitTest(Point(x: 145, y: 65), at: 0) === s.badge)    // outside the card, on the badge
        XCTAssertTrue(s.root.hitTest(Point(x: 300, y: 250), at: 0) === s.back)
        XCTAssertNil(s.root.hitTest(Point(x: 500, y: 10), at: 0))
        s.card.masksToBounds = true
        XCTAssertTrue(s.root.hitTest(Point(x: 145, y: 65), at: 0) === s.back)     // clipped away
        s.back.zPosition = 1                                                       // now in front of the card
        XCTAssertTrue(s.root.hitTest(Point(x: 100, y: 100), at: 0) === s.back)
        s.back.isHidden = true
        XCTAssertTrue(s.root.hitTest(Point(x: 100, y: 100), at: 0) === s.card)
    }

    func testHitsFollowTheAnimationNotTheModel() {
        let s = scene()
        s.card.add(BasicAnimation(key: .position, from: .point(Point(x: 100, y: 100)), to: .point(Point(x: 300, y: 100)), duration: 1),
                   forKey: "slide", at: 0)
        XCTAssertTrue(s.root.hitTest(Point(x: 200, y: 100), at: 0.5) === s.card)  // where it is drawn now
        XCTAssertTrue(s.root.hitTest(Point(x: 100, y: 100), at: 0.5) === s.back)  // the model position is empty
        XCTAssertEqual(s.card.presentationValue(for: .position, at: 0.5), .point(Point(x: 200, y: 100)))
    }

    func testRotatedAndPerspectiveLayers() {
        let s = scene()
        s.card.transform = Transform3D(rotationAngle: .pi / 2, x: 0, y: 0, z: 1)  // 60 wide × 100 tall on screen
        XCTAssertTrue(s.root.hitTest(Point(x: 100, y: 140), at: 0) === s.card)
        XCTAssertTrue(s.root.hitTest(Point(x: 140, y: 100), at: 0) === s.back)
        s.card.transform = .identity
        var perspective = Transform3D.identity
        perspective.m34 = -1.0 / 500
        s.root.sublayerTransform = perspective
        s.card.zPosition = 250                                                      // closer: drawn larger
        // The perspective acts about the root's anchor, (0, 0): a depth of
        // 250 at d = 500 doubles the card about it, so the card (flat: x
        // 50…150, y 70…130) covers x 100…300, y 140…260 on screen.
        XCTAssertTrue(s.root.hitTest(Point(x: 250, y: 200), at: 0) === s.card, "beyond the flat card, on the enlarged one")
        XCTAssertTrue(s.root.hitTest(Point(x: 60, y: 80), at: 0) === s.back, "on the flat card, off the enlarged one")
        XCTAssertNil(s.root.hitTest(Point(x: .nan, y: 0), at: 0))
    }
}
