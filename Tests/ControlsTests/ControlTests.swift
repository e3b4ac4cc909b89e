@testable import Controls
import FBRuntime
import XCTest

/// The Control base through a subclass that records its tracking hooks:
/// points in bounds space (scaled and moved controls), refusal, a second
/// finger, cancel, detach, and state.
final class ControlTests: XCTestCase {
    /// Records every hook call with its point.
    final class Recorder: Control {
        var events: [String] = []
        var refuses = false
        override func beginTracking(at point: Point) -> Bool {
            events.append("begin \(point.x) \(point.y)")
            return refuses ? false : super.beginTracking(at: point)
        }
        override func continueTracking(at point: Point) {
            events.append("move \(point.x) \(point.y)")
            super.continueTracking(at: point)
        }
        override func endTracking(at point: Point) {
            events.append("end \(point.x) \(point.y)")
            super.endTracking(at: point)
        }
        override func cancelTracking() {
            events.append("cancel")
            super.cancelTracking()
        }
        var states: [State] = []
        override func stateDidChange(from old: State) { states.append(state) }
    }

    private var scene: ControlScene!

    override func tearDown() { scene?.finish(); scene = nil }

    /// A 100×50 recorder at (50, 20) in a 300×100 scene.
    private func makeRecorder() -> Recorder {
        scene?.finish()
        scene = ControlScene(width: 300, height: 100)
        let r = Recorder(name: "recorder")
        r.theme = .testing()
        scene.add(r, frame: Rect(x: 50, y: 20, width: 100, height: 50))
        return r
    }

    func testHooksGetBoundsSpacePointsAndStatesFollow() {
        let r = makeRecorder()
        scene.send(1, .began, 60, 30)
        scene.send(1, .moved, 70, 40)
        scene.send(1, .moved, 300, 40)             // 150 right of the bounds: beyond the slop
        scene.send(1, .ended, 300, 40)
        XCTAssertEqual(r.events, ["begin 10.0 10.0", "move 20.0 20.0", "move 250.0 20.0", "end 250.0 20.0"])
        XCTAssertEqual(r.states, [.highlighted, .normal])
        XCTAssertFalse(r.isTracking)
    }

    func testATransformedControlConvertsThroughItsTransform() {
        let r = makeRecorder()
        // Scaled 2× about its centre (position (100, 45), bounds centre
        // (50, 25)): screen (x, y) is bounds ((x − 100) / 2 + 50, (y − 45) / 2 + 25).
        Transaction.withoutActions { r.transform = Transform3D(scaleX: 2, y: 2, z: 1) }
        scene.send(1, .began, 20, 5)
        scene.send(1, .ended, 20, 5)
        XCTAssertEqual(r.events.first, "begin 10.0 5.0")
    }

    func testARefusedTouchIsNotFollowedAndASecondFingerIsIgnored() {
        let r = makeRecorder()
        r.refuses = true
        scene.tap(60, 30)
        XCTAssertEqual(r.events, ["begin 10.0 10.0"])
        XCTAssertFalse(r.isHighlighted)
        r.refuses = false
        r.events = []
        scene.send(1, .began, 60, 30)
        scene.send(2, .began, 120, 30)             // a second finger on the control
        scene.send(2, .moved, 125, 30)
        scene.send(2, .ended, 125, 30)
        scene.send(1, .ended, 60, 30)
        XCTAssertEqual(r.events, ["begin 10.0 10.0", "end 10.0 10.0"])
    }

    func testCancelAndDetach() {
        let r = makeRecorder()
        scene.send(1, .began, 60, 30)
        scene.loop.runTurn { scene.router.cancelAll(at: scene.now) }
        XCTAssertEqual(r.events, ["begin 10.0 10.0", "cancel"])
        XCTAssertFalse(r.isHighlighted)
        r.detach(from: scene.router)
        scene.tap(60, 30)
        XCTAssertEqual(r.events.count, 2, "detached: no more tracking")
        r.attach(to: scene.router)
        scene.tap(60, 30)
        XCTAssertEqual(r.events.count, 4)
    }

    func testHighlightNeedsEnabledAndIsNearUsesTheSlop() {
        let r = makeRecorder()
        r.isEnabled = false
        r.isHighlighted = true
        XCTAssertFalse(r.isHighlighted)
        XCTAssertEqual(r.state, .disabled)
        r.isEnabled = true
        r.isHighlighted = true
        XCTAssertEqual(r.state, .highlighted)
        let slop = r.theme.metrics.touchSlop
        XCTAssertTrue(r.isNear(Point(x: -slop, y: 50 + slop)))
        XCTAssertFalse(r.isNear(Point(x: -slop - 0.5, y: 25)))
        XCTAssertFalse(r.isNear(Point(x: 50, y: 50 + slop + 0.5)))
    }
}

/// Bad input: points that do not convert, absurd speeds and sizes.
final class ControlBadInputTests: XCTestCase {
    private var scene: ControlScene!

    override func tearDown() { scene?.finish(); scene = nil }

    func testAControlScaledToNothingUnderTheFingerCancelsInsteadOfTrapping() {
        scene = ControlScene(width: 300, height: 100)
        let segments = SegmentedControl(titles: ["A", "B"], theme: .testing())
        scene.add(segments, frame: Rect(x: 10, y: 10, width: 200, height: 44))
        var calls = 0
        segments.onValueChanged = { _ in calls += 1 }
        scene.send(1, .began, 160, 30)
        XCTAssertEqual(segments.pressedIndex, 1)
        Transaction.withoutActions { segments.transform = Transform3D(scaleX: 0, y: 0, z: 1) }
        XCTAssertFalse(segments.convertFromDisplay(Point(x: 160, y: 30), at: scene.now).isFinite)
        scene.send(1, .moved, 170, 30)             // skipped
        XCTAssertEqual(segments.pressedIndex, 1)
        scene.send(1, .ended, 170, 30)             // a cancel
        XCTAssertNil(segments.pressedIndex)
        XCTAssertEqual(segments.selectedIndex, 0)
        XCTAssertEqual(calls, 0)
        XCTAssertEqual(segments.segment(at: Point(x: 1e300, y: 0)), 1)
        XCTAssertEqual(segments.segment(at: Point(x: -1e300, y: 0)), 0)
        XCTAssertNil(segments.segment(at: Point(x: .nan, y: 0)))
    }

    func testAPickerFlungAbsurdlyFastStopsOnItsLastRow() {
        scene = ControlScene(width: 200, height: 200)
        let wheel = PickerWheel(items: ["a", "b", "c", "d"], theme: .testing())
        scene.add(wheel, frame: Rect(x: 20, y: 10, width: 160, height: 180))
        // 1e12 points in one millisecond.
        let id = scene.newTouch()
        scene.send(id, .began, 100, 150)
        scene.clock.advance(by: 0.001)
        scene.send(id, .moved, 100, -1e12)
        scene.send(id, .ended, 100, -1e12)
        XCTAssertEqual(wheel.selectedIndex, 3)
        wheel.rowHeight = 0
        XCTAssertEqual(wheel.rowHeight, 1)
        wheel.rowHeight = .nan
        XCTAssertEqual(wheel.rowHeight, 1)
        XCTAssertEqual(wheel.offset, 3)
    }
}
