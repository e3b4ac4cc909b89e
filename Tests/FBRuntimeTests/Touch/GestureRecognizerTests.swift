import XCTest
@testable import FBRuntime

/// Gesture recognisers over synthetic touch sequences with timestamps. The
/// expected values come from the sequences themselves (distances, times)
/// worked out by hand, not from the recognisers.
final class GestureRecognizerTests: XCTestCase {
    private var root: Layer!
    private var router: TouchRouter!
    private var actions: [String] = []

    override func setUp() {
        root = Layer(name: "root")
        root.anchorPoint = .zero
        root.bounds = Rect(x: 0, y: 0, width: 1000, height: 1000)
        router = TouchRouter(root: root)
        actions = []
    }

    private func add<R: GestureRecognizer>(_ r: R, _ name: String) -> R {
        r.action = { [unowned self] g in self.actions.append("\(name) \(g.state)") }
        router.add(r, to: root)
        return r
    }

    private func down(_ id: Int32, _ x: Double, _ y: Double, _ t: MediaTime) {
        router.handle(TouchEvent(id: id, phase: .began, location: Point(x: x, y: y), timestamp: t))
    }
    private func move(_ id: Int32, _ x: Double, _ y: Double, _ t: MediaTime) {
        router.handle(TouchEvent(id: id, phase: .moved, location: Point(x: x, y: y), timestamp: t))
    }
    private func up(_ id: Int32, _ t: MediaTime) {
        router.handle(TouchEvent(id: id, phase: .ended, location: Point(x: .nan, y: .nan), timestamp: t))
    }
    private func tap(_ x: Double, _ y: Double, at t: MediaTime) { down(0, x, y, t); up(0, t + 0.05) }

    // MARK: Tap

    func testSingleTapWaitsForTheDoubleTapToFail() {
        let double = add(TapGestureRecognizer(taps: 2), "double")
        let single = add(TapGestureRecognizer(taps: 1), "single")
        single.requireFailure(of: double)
        tap(100, 100, at: 1)
        XCTAssertEqual(single.state, .possible, "held while the double tap may still come")
        XCTAssertEqual(router.nextDeadline ?? 0, 1.05 + double.maximumTapInterval, accuracy: 1e-9)
        router.advance(to: 1.3)
        XCTAssertEqual(actions, [])
        router.advance(to: 1.5)                                  // past 1.05 + 0.35
        XCTAssertEqual(double.state, .failed)
        XCTAssertEqual(single.state, .recognized)
        XCTAssertEqual(single.tapCount, 1)
        XCTAssertEqual(single.location, Point(x: 100, y: 100))
        XCTAssertEqual(actions, ["single ended"])
    }

    func testDoubleTapWinsAndTheSingleFails() {
        let double = add(TapGestureRecognizer(taps: 2), "double")
        let single = add(TapGestureRecognizer(taps: 1), "single")
        single.requireFailure(of: double)
        tap(100, 100, at: 1)
        tap(104, 98, at: 1.2)                                    // 0.15 s after the lift, 4.5 points away
        XCTAssertEqual(double.state, .ended)
        XCTAssertEqual(double.tapCount, 2)
        XCTAssertEqual(single.state, .failed)
        XCTAssertEqual(actions, ["double ended"])
        // The next sequence starts afresh.
        tap(500, 500, at: 3)
        router.advance(to: 4)
        XCTAssertEqual(actions, ["double ended", "single ended"])
    }

    func testTapFailsWhenTheFingerMovesOrStays() {
        let t = add(TapGestureRecognizer(), "tap")
        down(0, 100, 100, 1); move(0, 100, 112, 1.02); up(0, 1.05)  // 12 points > 10
        XCTAssertEqual(t.state, .failed)
        down(0, 100, 100, 2); router.advance(to: 2.8); up(0, 2.85)   // held 0.85 s > 0.75
        XCTAssertEqual(t.state, .failed)
        down(0, 100, 100, 3); move(0, 106, 100, 3.02); up(0, 3.05)   // within bounds
        XCTAssertEqual(t.state, .recognized)
        XCTAssertEqual(actions, ["tap ended"])
    }

    func testTwoFingerTap() {
        let t = add(TapGestureRecognizer(taps: 1, touches: 2), "two")
        down(0, 100, 100, 1); down(1, 200, 100, 1.01); up(0, 1.05); up(1, 1.06)
        XCTAssertEqual(t.state, .recognized)
        XCTAssertEqual(t.location, Point(x: 150, y: 100), "between the fingers")
        tap(100, 100, at: 2)
        XCTAssertEqual(t.state, .failed, "one finger is not two")
    }

    // MARK: Long press

    func testLongPress() {
        let press = add(LongPressGestureRecognizer(), "press")
        down(0, 100, 100, 1)
        XCTAssertEqual(router.nextDeadline ?? 0, 1.5, accuracy: 1e-9)
        router.advance(to: 1.49)
        XCTAssertEqual(press.state, .possible)
        router.advance(to: 1.5)
        XCTAssertEqual(press.state, .began)
        move(0, 300, 100, 1.6)                                   // free to move once begun
        up(0, 1.7)
        XCTAssertEqual(actions, ["press began", "press changed", "press ended"])
        down(0, 100, 100, 2); move(0, 115, 100, 2.1)             // moved before 0.5 s
        XCTAssertEqual(press.state, .failed)
        up(0, 2.2)
        down(0, 100, 100, 3); up(0, 3.2)                         // lifted early
        XCTAssertEqual(press.state, .failed)
    }

    // MARK: Pan

    func testPanTranslationAndVelocity() {
        let pan = add(PanGestureRecognizer(), "pan")
        down(0, 100, 100, 1)
        move(0, 105, 100, 1.01)
        XCTAssertEqual(pan.state, .possible, "5 points: under the 10-point threshold")
        // Then 8 points right and 6 down every 10 ms: 800 and 600 points/s.
        for i in 1...20 { move(0, 105 + 8 * Double(i), 100 + 6 * Double(i), 1.01 + 0.01 * Double(i)) }
        XCTAssertEqual(pan.translation.x, 165, accuracy: 1e-9)
        XCTAssertEqual(pan.translation.y, 120, accuracy: 1e-9)
        XCTAssertEqual(pan.velocity.x, 800, accuracy: 1e-6)
        XCTAssertEqual(pan.velocity.y, 600, accuracy: 1e-6)
        up(0, 1.22)
        XCTAssertEqual(actions.first, "pan began")
        XCTAssertEqual(actions.last, "pan ended")
        XCTAssertEqual(actions.filter { $0 == "pan changed" }.count, 19)
        down(0, 100, 100, 2); up(0, 2.1)
        XCTAssertEqual(pan.state, .failed, "a tap is not a pan")
    }

    func testPanVelocityForgetsTheSlowStart() {
        let pan = add(PanGestureRecognizer(), "pan")
        down(0, 0, 0, 1)
        move(0, 20, 0, 2)                                        // slowly: 20 points in a second
        for i in 1...10 { move(0, 20 + 5 * Double(i), 0, 2 + 0.005 * Double(i)) }  // then 1000 points/s
        XCTAssertEqual(pan.velocity.x, 1000, accuracy: 1e-6)
    }

    // MARK: Swipe

    func testSwipeDirections() {
        let swipe = add(SwipeGestureRecognizer(directions: [.left, .up]), "swipe")
        down(0, 500, 500, 1)
        for i in 1...6 { move(0, 500, 500 - 10 * Double(i), 1 + 0.02 * Double(i)) }
        XCTAssertEqual(swipe.state, .recognized)
        XCTAssertEqual(swipe.direction, .up)
        up(0, 1.2)
        down(0, 500, 500, 2); move(0, 560, 505, 2.05); up(0, 2.1)   // right: not allowed
        XCTAssertEqual(swipe.state, .failed)
        down(0, 500, 500, 3); move(0, 470, 500, 3.3); move(0, 440, 500, 3.6)  // too slow
        XCTAssertEqual(swipe.state, .failed)
        up(0, 3.7)
        down(0, 500, 500, 4); move(0, 460, 480, 4.1)             // 40 left, 20 up: not yet far enough
        XCTAssertEqual(swipe.state, .possible)
        move(0, 440, 470, 4.15)                                  // 60 left, 30 up: within half
        XCTAssertEqual(swipe.direction, .left)
        XCTAssertEqual(actions, ["swipe ended", "swipe ended"])
    }

    // MARK: Pinch and rotation

    func testPinchScaleAndVelocity() {
        let pinch = add(PinchGestureRecognizer(), "pinch")
        let pan = add(PanGestureRecognizer(), "pan")
        down(0, 450, 500, 1); down(1, 550, 500, 1)               // 100 apart
        // Each finger 5 points out every 10 ms: the distance grows 10
        // points (scale 0.1) per 10 ms: 10 scale per second.
        for i in 1...10 { move(0, 450 - 5 * Double(i), 500, 1 + 0.01 * Double(i)); move(1, 550 + 5 * Double(i), 500, 1 + 0.01 * Double(i)) }
        XCTAssertEqual(pinch.scale, 2, accuracy: 1e-12)
        XCTAssertEqual(pinch.velocity, 10, accuracy: 1e-6)
        XCTAssertEqual(pinch.location, Point(x: 500, y: 500))
        up(1, 1.2)
        XCTAssertEqual(pinch.state, .ended)
        XCTAssertEqual(actions.filter { $0.hasPrefix("pinch") }.first, "pinch began")
        XCTAssertEqual(pan.state, .changed, "pan and pinch recognise together (the first finger moved 50 points)")
        up(0, 1.3)
    }

    func testRotationAccumulatesPastHalfATurn() {
        let rotate = add(RotationGestureRecognizer(), "rotate")
        let pinch = add(PinchGestureRecognizer(), "pinch")
        // Finger 0 fixed at the centre, finger 1 on a circle of radius 100
        // going clockwise (y down) in 10° steps for 270°.
        let c = Point(x: 500, y: 500)
        down(0, c.x, c.y, 1); down(1, c.x + 100, c.y, 1)
        for step in 1...27 {
            let a = Double(step) * 10 * .pi / 180
            move(1, c.x + 100 * cos(a), c.y + 100 * sin(a), 1 + 0.01 * Double(step))
        }
        XCTAssertEqual(rotate.rotation, 1.5 * .pi, accuracy: 1e-4)
        XCTAssertEqual(rotate.velocity, (10 * .pi / 180) / 0.01, accuracy: 1e-2)
        XCTAssertEqual(rotate.state, .changed)
        XCTAssertEqual(pinch.state, .possible, "the distance never changed")
        up(1, 1.3)
        XCTAssertEqual(rotate.state, .ended)
        XCTAssertEqual(pinch.state, .failed)
    }

    // MARK: Cancel and reset

    func testCancelledTouchCancelsAContinuousGesture() {
        let pan = add(PanGestureRecognizer(), "pan")
        down(0, 0, 0, 1); move(0, 50, 0, 1.1)
        router.cancelAll(at: 1.2)
        XCTAssertEqual(pan.state, .cancelled)
        XCTAssertEqual(actions, ["pan began", "pan cancelled"])
        down(0, 0, 0, 2)
        XCTAssertEqual(pan.state, .possible, "reset for the next sequence")
    }

    func testStateMachineRefusesIllegalTransitions() {
        XCTAssertTrue(GestureRecognizer.State.recognized == .ended)
        for (from, to, allowed) in [(GestureRecognizer.State.possible, GestureRecognizer.State.changed, false),
                                    (.possible, .cancelled, false), (.ended, .began, false), (.failed, .ended, false),
                                    (.began, .changed, true), (.changed, .ended, true), (.possible, .ended, true)] {
            XCTAssertEqual(GestureRecognizer.allowed(from: from, to: to), allowed, "\(from) → \(to)")
        }
    }
}
