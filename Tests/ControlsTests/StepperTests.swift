@testable import Controls
import FBRuntime
import Raster
import XCTest

/// Stepper: goldens in the middle, at a limit, pressed, disabled and dark;
/// taps on each half, hold-to-repeat through the router's deadlines,
/// sliding off, limits, and its size in a stack.
final class StepperTests: XCTestCase {
    private var scene: ControlScene!

    override func tearDown() { scene?.finish(); scene = nil }

    /// An 88×44 stepper at (16, 16) in a 120×76 scene: "−" is scene x
    /// 16…60, "+" 60…104; y 38 is the middle.
    private func makeStepper(value: Double = 5, minimum: Double = 0, maximum: Double = 10, dark: Bool = false) -> Stepper {
        scene?.finish()
        let theme = Theme.testing(dark: dark)
        scene = ControlScene(width: 120, height: 76, background: theme.colors.background)
        let s = Stepper(value: value, minimumValue: minimum, maximumValue: maximum, theme: theme)
        scene.add(s, frame: Rect(x: 16, y: 16, width: 88, height: 44))
        return s
    }

    // MARK: Goldens

    func testGoldens() {
        let s = makeStepper()
        scene.assertGolden("controls-stepper-normal")
        s.value = 0
        scene.assertGolden("controls-stepper-at-minimum")
        s.value = 5
        s.autorepeat = false          // held through the golden's settling second
        scene.send(1, .began, 90, 38)
        XCTAssertEqual(s.pressedPart, .increment)
        scene.assertGolden("controls-stepper-plus-pressed")
        XCTAssertEqual(s.value, 6)
        scene.send(1, .ended, 90, 38)
        s.isEnabled = false
        scene.assertGolden("controls-stepper-disabled")
        scene.finish()
        _ = makeStepper(dark: true)
        scene.assertGolden("controls-stepper-dark")
    }

    // MARK: Interaction

    func testTapsStepEachWay() {
        let s = makeStepper()
        var reported: [Double] = []
        s.onValueChanged = { reported.append($0.value) }
        scene.tap(90, 38)
        scene.tap(90, 38)
        scene.tap(30, 38)
        XCTAssertEqual(s.value, 6)
        XCTAssertEqual(reported, [6, 7, 6])
        s.stepValue = 2.5
        scene.tap(90, 38)
        XCTAssertEqual(s.value, 8.5)
        scene.tap(90, 38)
        XCTAssertEqual(s.value, 10, "clamped at the maximum")
        XCTAssertFalse(s.canStep(.increment))
        XCTAssertEqual(reported, [6, 7, 6, 8.5, 10])
        // The "+" half at the limit refuses the touch: no highlight, no call.
        scene.send(9, .began, 90, 38)
        XCTAssertFalse(s.isHighlighted)
        XCTAssertNil(s.pressedPart)
        scene.send(9, .ended, 90, 38)
        XCTAssertEqual(reported.count, 5)
    }

    func testHoldingRepeatsThroughTheRoutersDeadlines() {
        let s = makeStepper(value: 0, maximum: 100)
        var calls = 0
        s.onValueChanged = { _ in calls += 1 }
        let t0 = scene.now
        scene.send(1, .began, 90, 38)
        XCTAssertEqual(s.value, 1, "a step at touch-down")
        XCTAssertEqual(scene.router.nextDeadline, t0 + 0.5, "the first repeat is the router's next deadline")
        scene.advance(by: 0.45)
        XCTAssertEqual(s.value, 1)
        scene.advance(by: 0.1)                     // t0 + 0.55: the first repeat
        XCTAssertEqual(s.value, 2)
        scene.advance(by: 0.4)                     // t0 + 0.95: repeats at 0.6, 0.7, 0.8, 0.9
        XCTAssertEqual(s.value, 6)
        // Off the half (beyond the slop): the repeat stops; back on: it
        // starts again after the delay.
        scene.send(1, .moved, 90, 38 + 22 + s.theme.metrics.touchSlop + 5)
        XCTAssertNil(s.pressedPart)
        XCTAssertNil(scene.router.nextDeadline)
        scene.advance(by: 1)
        XCTAssertEqual(s.value, 6)
        scene.send(1, .moved, 92, 38)
        XCTAssertEqual(s.pressedPart, .increment)
        scene.advance(by: 0.55)
        XCTAssertEqual(s.value, 7)
        // Onto the other half: that is off too (a touch steps one way only).
        scene.send(1, .moved, 30, 38)
        XCTAssertNil(s.pressedPart)
        scene.send(1, .ended, 30, 38)
        XCTAssertEqual(calls, 7)
        XCTAssertFalse(s.isHighlighted)
    }

    func testAStalledAppThreadStepsAtMostTenTimesAndTheLimitStopsTheRepeat() {
        let s = makeStepper(value: 0, maximum: 100)
        scene.send(1, .began, 90, 38)
        scene.advance(by: 60)
        XCTAssertEqual(s.value, 11, "1 at touch-down + at most 10 catching up")
        scene.send(1, .ended, 90, 38)
        let t = makeStepper(value: 8, maximum: 10)
        scene.send(1, .began, 90, 38)
        scene.advance(by: 0.55)
        scene.advance(by: 0.1)
        XCTAssertEqual(t.value, 10)
        XCTAssertNil(t.pressedPart, "at the limit the half lets go")
        XCTAssertNil(scene.router.nextDeadline)
    }

    func testDisabledIgnoresTouchesAndValuesAreClamped() {
        let s = makeStepper()
        s.isEnabled = false
        scene.tap(90, 38)
        XCTAssertEqual(s.value, 5)
        s.value = -3
        XCTAssertEqual(s.value, 0)
        s.value = .nan
        XCTAssertEqual(s.value, 0)
        s.maximumValue = 4
        s.value = 9
        XCTAssertEqual(s.value, 4)
    }


    func testATapMidAnimationStepsTheHalfOnScreen() {
        let s = makeStepper()
        scene.root.bounds = Rect(x: 0, y: 0, width: 300, height: 76)
        // Slides 100 points right over 1 s, linear: half way "−" spans scene
        // x 66…110 and "+" 110…154, while the model says "−" 116…160.
        scene.loop.runTurn {
            Transaction.animationDuration = 1
            Transaction.animationTimingFunction = .linear
            s.position = Point(x: s.position.x + 100, y: s.position.y)
        }
        scene.advance(by: 0.5)
        scene.tap(140, 38)
        XCTAssertEqual(s.value, 6, "the \"+\" on screen, not the model's \"−\"")
    }

    func testPreferredSizeInAStack() {
        let theme = Theme.testing()
        let row = Layer(name: "row")
        row.layoutManager = StackLayout(gap: 12, padding: EdgeInsets(all: 8), crossAlignment: .center)
        row.frame = Rect(x: 0, y: 0, width: 300, height: 80)
        let s = Stepper(theme: theme), sw = Switch(theme: theme)
        try! row.addSublayer(s)
        try! row.addSublayer(sw)
        row.layoutIfNeeded()
        XCTAssertEqual(s.frame, Rect(x: 8, y: 18, width: 88, height: 44))
        XCTAssertEqual(sw.frame, Rect(x: 108, y: 24, width: 52, height: 32))
        XCTAssertEqual(s.incrementLabel.frame.minX, 44)
    }
}
