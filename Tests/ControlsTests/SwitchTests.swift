@testable import Controls
import FBRuntime
import Raster
import XCTest

/// Switch: goldens off, on, held mid-drag and disabled; toggling by tap and
/// by drag through the real router, the knob's slide, a tap mid-animation.
final class SwitchTests: XCTestCase {
    private var scene: ControlScene!

    override func tearDown() { scene?.finish(); scene = nil }

    /// A 52×32 switch at (24, 24) in a 100×80 scene: track x 24…76, y 24…56;
    /// the knob's centre is at x 40 (off) or 60 (on), y 40.
    private func makeSwitch(isOn: Bool = false, dark: Bool = false) -> Switch {
        scene?.finish()
        let theme = Theme.testing(dark: dark)
        scene = ControlScene(width: 100, height: 80, background: theme.colors.background)
        let s = Switch(isOn: isOn, theme: theme)
        scene.add(s, frame: Rect(x: 24, y: 24, width: 52, height: 32))
        return s
    }

    private func knobX(_ s: Switch) -> Double { presentedPoint(s.knobLayer, .position, at: scene.now)!.x }

    // MARK: Goldens

    func testGoldenOff() {
        let s = makeSwitch()
        XCTAssertEqual(s.knobLayer.position, Point(x: 16, y: 16))
        scene.assertGolden("controls-switch-off")
    }

    func testGoldenOn() {
        let s = makeSwitch(isOn: true)
        XCTAssertEqual(s.knobLayer.position, Point(x: 36, y: 16))
        scene.assertGolden("controls-switch-on")
    }

    func testGoldenDraggedHalfWay() {
        let s = makeSwitch()
        scene.drag(from: Point(x: 40, y: 40), to: Point(x: 50, y: 40), lift: false)
        XCTAssertEqual(s.knobLayer.position.x, 26, "follows the finger: 16 + 10")
        XCTAssertEqual(s.state, .highlighted)
        scene.assertGolden("controls-switch-dragging")
    }

    func testGoldenDisabledAndDark() {
        let s = makeSwitch(isOn: true)
        s.isEnabled = false
        scene.assertGolden("controls-switch-on-disabled")
        scene.finish()
        _ = makeSwitch(isOn: true, dark: true)
        scene.assertGolden("controls-switch-on-dark")
    }

    // MARK: Interaction

    func testTapTogglesAndReportsAndTheKnobSlides() {
        let s = makeSwitch()
        var values: [Bool] = []
        s.onValueChanged = { values.append($0.isOn) }
        scene.tap(50, 40)
        XCTAssertTrue(s.isOn)
        XCTAssertEqual(values, [true])
        XCTAssertEqual(s.knobLayer.position.x, 36, "the model is at the end at once")
        XCTAssertEqual(s.backgroundColor, s.theme.colors.accent)
        // The knob slides over animationDuration (default curve): it starts at
        // 16 and is strictly between half way through.
        XCTAssertEqual(knobX(s), 16, accuracy: 1e-9)
        scene.advance(by: s.theme.metrics.animationDuration / 2)
        XCTAssertGreaterThan(knobX(s), 16)
        XCTAssertLessThan(knobX(s), 36)
        scene.advance(by: s.theme.metrics.animationDuration)
        XCTAssertEqual(knobX(s), 36, accuracy: 1e-9)
        scene.tap(30, 40)
        XCTAssertFalse(s.isOn)
        XCTAssertEqual(values, [true, false])
    }

    func testDragPastTheMiddleTurnsOnShortOfItSnapsBack() {
        let s = makeSwitch()
        var calls = 0
        s.onValueChanged = { _ in calls += 1 }
        // 8 points right: the knob at 24, short of the middle (26): stays off
        // and slides back; no handler.
        scene.drag(from: Point(x: 40, y: 40), to: Point(x: 48, y: 40))
        XCTAssertFalse(s.isOn)
        XCTAssertEqual(calls, 0)
        XCTAssertEqual(s.knobLayer.position.x, 16)
        // 14 points right: past the middle: on.
        scene.drag(from: Point(x: 40, y: 40), to: Point(x: 54, y: 40))
        XCTAssertTrue(s.isOn)
        XCTAssertEqual(calls, 1)
        // The finger far beyond the end, and off the switch: the knob stops at
        // its end; a drag decides by the knob, not by where the finger lifts.
        scene.drag(from: Point(x: 60, y: 40), to: Point(x: -100, y: 200))
        XCTAssertFalse(s.isOn)
        XCTAssertEqual(calls, 2)
    }

    func testDraggingHoldsTheKnobWithinTheTrack() {
        let s = makeSwitch()
        scene.drag(from: Point(x: 40, y: 40), to: Point(x: 300, y: 40), lift: false)
        XCTAssertEqual(s.knobLayer.position.x, 36)
        XCTAssertTrue(s.animations.isEmpty && s.knobLayer.animations.isEmpty, "a drag moves the knob without animation")
    }

    func testATapLiftedFarAwayDoesNotToggleAndCancelKeepsTheValue() {
        let s = makeSwitch()
        let id = scene.newTouch()
        scene.send(id, .began, 50, 40)
        scene.send(id, .moved, 50, 100)   // straight down: no drag, beyond the slop
        scene.send(id, .ended, 50, 100)
        XCTAssertFalse(s.isOn)
        scene.send(id, .began, 50, 40)
        scene.loop.runTurn { scene.router.cancelAll(at: scene.now) }
        XCTAssertFalse(s.isOn)
        XCTAssertFalse(s.isHighlighted)
    }

    func testDisabledIgnoresTouchesAndSettingFromCodeCallsNoHandler() {
        let s = makeSwitch()
        var calls = 0
        s.onValueChanged = { _ in calls += 1 }
        s.isEnabled = false
        XCTAssertEqual(s.opacity, 0.45)
        scene.tap(50, 40)
        XCTAssertFalse(s.isOn)
        s.isEnabled = true
        s.setOn(true, animated: false)
        XCTAssertTrue(s.isOn)
        XCTAssertTrue(s.knobLayer.animations.isEmpty)
        XCTAssertEqual(calls, 0)
    }

    func testATapMidSlideHitsTheSwitchWhereItIsOnScreen() {
        let s = makeSwitch()
        scene.root.bounds = Rect(x: 0, y: 0, width: 300, height: 80)
        // Slides 150 points right over 1 s, linear: half way the track spans
        // x 99…151 while the model says 174…226.
        scene.loop.runTurn {
            Transaction.animationDuration = 1
            Transaction.animationTimingFunction = .linear
            s.position = Point(x: s.position.x + 150, y: s.position.y)
        }
        scene.advance(by: 0.5)
        scene.tap(140, 40)
        XCTAssertTrue(s.isOn, "tapped where it is on screen")
        scene.tap(200, 40)
        XCTAssertTrue(s.isOn, "the model position is empty on screen")
    }

    func testPreferredSizeInAStack() {
        let s = makeSwitch()
        XCTAssertEqual(s.preferredSize, s.theme.metrics.switchSize)
        let column = Layer(name: "column")
        column.layoutManager = StackLayout(direction: .column, gap: 6)
        column.frame = Rect(x: 0, y: 0, width: 200, height: 200)
        let a = Switch(theme: .testing()), b = Switch(isOn: true, theme: .testing())
        a.bounds = .zero
        try! column.addSublayer(a)
        try! column.addSublayer(b)
        column.layoutIfNeeded()
        XCTAssertEqual(a.frame, Rect(x: 0, y: 0, width: 52, height: 32))
        XCTAssertEqual(b.frame, Rect(x: 0, y: 38, width: 52, height: 32))
        XCTAssertEqual(a.knobLayer.position, Point(x: 16, y: 16), "laid out at its new size")
    }
}
