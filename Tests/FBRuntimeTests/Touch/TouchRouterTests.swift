import XCTest
@testable import FBRuntime

/// Touch routing: a touch-down goes to the layer on screen under it at the
/// event's time (mid-animation: the presentation, not the model) and stays
/// with it. The oracle for where a layer is: its animation's from/to
/// values, interpolated by hand.
final class TouchRouterTests: XCTestCase {
    private struct Scene {
        let root = Layer(name: "root"), back = Layer(name: "back"), card = Layer(name: "card"), badge = Layer(name: "badge")
    }

    private func scene() -> Scene {
        let s = Scene()
        s.root.anchorPoint = .zero
        s.root.bounds = Rect(x: 0, y: 0, width: 400, height: 300)
        s.back.frame = Rect(x: 0, y: 0, width: 400, height: 300)
        s.card.bounds = Rect(x: 0, y: 0, width: 100, height: 60)
        s.card.position = Point(x: 100, y: 100)
        s.badge.frame = Rect(x: 80, y: 0, width: 20, height: 20)
        try! s.card.addSublayer(s.badge)
        try! s.root.addSublayer(s.back)
        try! s.root.addSublayer(s.card)
        // Slides right by 200 points over 2 s from t = 10: at t it is at
        // x = 100 + 100·(t − 10) (linear timing).
        s.card.add(BasicAnimation(key: .position, from: .point(Point(x: 100, y: 100)), to: .point(Point(x: 300, y: 100)),
                                  duration: 2),
                   forKey: "slide", at: 10)
        return s
    }

    private func event(_ id: Int32, _ phase: TouchEvent.Phase, _ x: Double, _ y: Double, _ t: MediaTime) -> TouchEvent {
        TouchEvent(id: id, phase: phase, location: Point(x: x, y: y), timestamp: t)
    }

    func testDownHitsThePresentationAtTheEventsTime() {
        let s = scene()
        let router = TouchRouter(root: s.root)
        // At t = 11 the card is centred at x = 200 (150…250); the model says 100.
        XCTAssertTrue(router.handle(event(0, .began, 230, 100, 11)) === s.card)
        XCTAssertTrue(router.handle(event(1, .began, 100, 100, 11)) === s.back, "the model position is empty now")
        // The same point at another time: at t = 10.5 the card spans 100…200.
        XCTAssertTrue(router.handle(event(2, .began, 190, 100, 10.5)) === s.card)
        XCTAssertTrue(router.handle(event(3, .began, 240, 100, 10.5)) === s.back)
    }

    func testATouchStaysWithTheLayerItBeganOn() {
        let s = scene()
        let router = TouchRouter(root: s.root)
        var seen: [(String, TouchEvent.Phase)] = []
        router.onTouch = { layer, e in seen.append((layer.name, e.phase)) }
        XCTAssertTrue(router.handle(event(7, .began, 200, 100, 11)) === s.card)
        // Off the card, onto the background, out of the window: still the card.
        XCTAssertTrue(router.handle(event(7, .moved, 20, 280, 11.1)) === s.card)
        XCTAssertTrue(router.handle(event(7, .moved, -50, 900, 11.2)) === s.card)
        XCTAssertTrue(router.capturingLayer(of: 7) === s.card)
        XCTAssertTrue(router.handle(event(7, .ended, .nan, .nan, 11.3)) === s.card)
        XCTAssertNil(router.capturingLayer(of: 7))
        XCTAssertNil(router.handle(event(7, .moved, 200, 100, 11.4)), "after its up, the touch is gone")
        XCTAssertEqual(seen.map { $0.0 }, ["card", "card", "card", "card"])
        XCTAssertEqual(seen.map { $0.1 }, [.began, .moved, .moved, .ended])
    }

    func testSublayerHitsAndCancel() {
        let s = scene()
        let router = TouchRouter(root: s.root)
        // The badge (card-local x 80…100, y 0…20) at t = 10: card spans
        // 50…150 × 70…130, so the badge is at 130…150 × 70…90.
        XCTAssertTrue(router.handle(event(0, .began, 140, 80, 10)) === s.badge)
        XCTAssertTrue(router.handle(event(0, .cancelled, .nan, .nan, 10.1)) === s.badge)
        XCTAssertTrue(router.activeTouches.isEmpty)
    }

    func testBadInputIsDropped() {
        let s = scene()
        let router = TouchRouter(root: s.root)
        var phases: [TouchEvent.Phase] = []
        router.onTouch = { _, e in phases.append(e.phase) }
        XCTAssertNil(router.handle(event(0, .began, .nan, 10, 10)))
        XCTAssertNil(router.handle(event(0, .began, 10, 10, .infinity)))
        XCTAssertNil(router.handle(event(0, .moved, 10, 10, 10)), "never began")
        XCTAssertNil(router.handle(event(5, .began, 1000, 1000, 10)), "hits nothing")
        XCTAssertNil(router.handle(event(5, .ended, 0, 0, 10)))
        // A second down for a touch that is down: the first is cancelled.
        XCTAssertTrue(router.handle(event(1, .began, 300, 250, 10)) === s.back)
        XCTAssertTrue(router.handle(event(1, .began, 100, 100, 10)) === s.card)
        XCTAssertEqual(phases, [.began, .cancelled, .began])
        XCTAssertEqual(router.activeTouches.count, 1)
        // More fingers than the router follows.
        for id in 2..<Int32(40) { router.handle(event(id, .began, 300, 250, 10)) }
        XCTAssertEqual(router.activeTouches.count, TouchRouter.maximumTouches)
        router.cancelAll(at: 11)
        XCTAssertTrue(router.activeTouches.isEmpty)
    }

    func testRecognizersOfAncestorsSeeTouchesOfSublayers() {
        let s = scene()
        let router = TouchRouter(root: s.root)
        let onCard = PanGestureRecognizer(), onBack = PanGestureRecognizer()
        router.add(onCard, to: s.card)
        router.add(onBack, to: s.back)
        router.handle(event(0, .began, 140, 80, 10))          // the badge, inside the card
        router.handle(event(0, .moved, 170, 80, 10.05))
        XCTAssertEqual(onCard.state, .began)
        XCTAssertEqual(onBack.state, .possible, "the background is not an ancestor of the badge")
        XCTAssertEqual(onCard.translation, Point(x: 30, y: 0))
    }
}
