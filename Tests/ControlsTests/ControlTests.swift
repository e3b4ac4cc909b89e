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
