@testable import Controls
import FBRuntime
import Raster
import XCTest

/// Button: its look in each state (goldens), taps through the real router
/// (inside, dragged off and back, disabled, long, mid-animation), the tap
/// feedback animation and its size in a stack.
final class ButtonTests: XCTestCase {
    private var scene: ControlScene!

    override func tearDown() { scene?.finish(); scene = nil }

    /// A 160×44 button at (20, 20) in a 200×84 scene.
    private func makeButton(_ title: String = "Start", style: Button.Style = .filled, dark: Bool = false) -> Button {
        scene?.finish()
        let theme = Theme.testing(dark: dark)
        scene = ControlScene(width: 200, height: 84, background: theme.colors.background)
        let button = Button(title: title, style: style, theme: theme)
        scene.add(button, frame: Rect(x: 20, y: 20, width: 160, height: 44))
        return button
    }

    // MARK: Goldens

    func testGoldenNormal() {
        _ = makeButton()
        scene.assertGolden("controls-button-normal")
    }

    func testGoldenHighlightedWhileAFingerIsOn() {
        let button = makeButton()
        scene.send(1, .began, 100, 42)
        XCTAssertEqual(button.state, .highlighted)
        scene.assertGolden("controls-button-highlighted")
    }

    func testGoldenDisabled() {
        let button = makeButton()
        button.isEnabled = false
        XCTAssertEqual(button.state, .disabled)
        scene.assertGolden("controls-button-disabled")
    }

    func testGoldenPlainAndDark() {
        _ = makeButton("Cancel", style: .plain)
        scene.assertGolden("controls-button-plain")
        scene.finish()
        _ = makeButton("Brew", dark: true)
        scene.assertGolden("controls-button-dark")
    }

    // MARK: Interaction

    func testTapCallsOnTapOnceWithTheButton() {
        let button = makeButton()
        var taps: [Button] = []
        button.onTap = { taps.append($0) }
        let hit = scene.send(1, .began, 60, 40)
        XCTAssertTrue(hit === button.titleLayer, "the router delivers to the title, in the button")
        XCTAssertTrue(button.isHighlighted)
        XCTAssertTrue(button.isTracking)
        XCTAssertTrue(taps.isEmpty, "no tap before the lift")
        scene.advance(by: 0.1)
        scene.send(1, .ended, 60, 40)
        XCTAssertEqual(taps.count, 1)
        XCTAssertTrue(taps.first === button)
        XCTAssertFalse(button.isHighlighted)
        XCTAssertFalse(button.isTracking)
        // A second tap: once more.
        scene.tap(150, 30)
        XCTAssertEqual(taps.count, 2)
    }

    func testDraggedOffLosesTheHighlightAndTheTapAndBackRegainsThem() {
        let button = makeButton()
        var taps = 0
        button.onTap = { _ in taps += 1 }
        let slop = button.theme.metrics.touchSlop
        // Off by less than the slop (button spans y 20…64): still on.
        let near = scene.drag(from: Point(x: 100, y: 42), to: Point(x: 100, y: 64 + slop - 2), lift: false)
        XCTAssertTrue(button.isHighlighted)
        scene.send(near, .moved, 100, 64 + slop + 10)
        XCTAssertFalse(button.isHighlighted, "beyond the slop")
        scene.send(near, .ended, 100, 64 + slop + 10)
        XCTAssertEqual(taps, 0, "lifted off the button: no tap")
        // Off and back: a tap.
        let back = scene.drag(from: Point(x: 100, y: 42), to: Point(x: 100, y: 200), lift: false)
        XCTAssertFalse(button.isHighlighted)
        scene.send(back, .moved, 120, 40)
        XCTAssertTrue(button.isHighlighted)
        scene.send(back, .ended, 120, 40)
        XCTAssertEqual(taps, 1)
    }

    func testDisabledIgnoresTapsAndDisablingUnderTheFingerCancels() {
        let button = makeButton()
        var taps = 0
        button.onTap = { _ in taps += 1 }
        button.isEnabled = false
        scene.tap(100, 42)
        XCTAssertEqual(taps, 0)
        XCTAssertFalse(button.isHighlighted)
        button.isEnabled = true
        scene.send(7, .began, 100, 42)
        XCTAssertTrue(button.isHighlighted)
        button.isEnabled = false
        XCTAssertFalse(button.isTracking)
        XCTAssertEqual(button.state, .disabled)
        scene.send(7, .ended, 100, 42)
        XCTAssertEqual(taps, 0)
    }

    func testLongPressStaysHighlightedThenTaps() {
        let button = makeButton()
        var taps = 0
        button.onTap = { _ in taps += 1 }
        scene.send(3, .began, 100, 42)
        for _ in 0..<6 { scene.advance(by: 0.25) }      // 1.5 s held
        XCTAssertTrue(button.isHighlighted)
        XCTAssertEqual(taps, 0)
        scene.send(3, .ended, 100, 42)
        XCTAssertEqual(taps, 1)
    }

    func testTapFeedbackFadesTheHighlightOut() {
        let button = makeButton()
        let colors = button.theme.colors
        scene.send(1, .began, 100, 42)
        assertColor(presentedColor(button, .backgroundColor, at: scene.now), colors.accentHighlighted)   // at once
        scene.advance(by: 0.05)
        scene.send(1, .ended, 100, 42)
        XCTAssertEqual(button.backgroundColor, colors.accent, "the model is back at once")
        guard case let .basic(fade)? = button.animation(forKey: "backgroundColor") else { return XCTFail("no fade") }
        XCTAssertEqual(fade.duration, button.theme.metrics.feedbackDuration)
        XCTAssertEqual(fade.fromValue, .color(colors.accentHighlighted))
        // Half way through (ease-out): strictly between the two colours.
        scene.advance(by: button.theme.metrics.feedbackDuration / 2)
        let mid = presentedColor(button, .backgroundColor, at: scene.now)!
        XCTAssertGreaterThan(mid.blue, colors.accentHighlighted.blue)
        XCTAssertLessThan(mid.blue, colors.accent.blue)
        scene.advance(by: button.theme.metrics.feedbackDuration)
        assertColor(presentedColor(button, .backgroundColor, at: scene.now), colors.accent)
    }

    func testATapMidAnimationHitsWhereTheButtonIsOnScreen() {
        let button = makeButton()
        var taps = 0
        button.onTap = { _ in taps += 1 }
        // Slides 100 points right over 1 s, linear: model x 20…180 → 120…280
        // at the end; half way its frame is 70…230.
        scene.root.bounds = Rect(x: 0, y: 0, width: 400, height: 84)
        scene.loop.runTurn {
            Transaction.animationDuration = 1
            Transaction.animationTimingFunction = .linear
            button.position = Point(x: button.position.x + 100, y: button.position.y)
        }
        scene.advance(by: 0.5)
        // x = 60: under the model's old and new frame? Old 20…180 yes, new
        // 120…280 no; on screen (70…230) no: nothing is hit.
        XCTAssertNil(scene.send(1, .began, 60, 42)?.superlayer, "only the root is hit")
        scene.send(1, .ended, 60, 42)
        XCTAssertEqual(taps, 0)
        // x = 225: only on screen now (the model's old frame ends at 180).
        XCTAssertTrue(scene.send(2, .began, 225, 42) === button)   // right of the title
        XCTAssertTrue(button.isHighlighted)
        scene.clock.advance(by: 0.05)
        scene.send(2, .ended, 225, 42)
        XCTAssertEqual(taps, 1)
    }

    // MARK: Size

    func testPreferredSizeIsTheTitlePlusPaddingAndAStackUsesIt() {
        let button = makeButton("OK")
        let theme = button.theme
        let text = button.titleLayer.preferredSize
        XCTAssertGreaterThan(text.width, 10)
        XCTAssertEqual(button.preferredSize.width, (text.width + 2 * theme.metrics.padding).rounded(.up))
        XCTAssertEqual(button.preferredSize.height, theme.metrics.controlHeight)
        let longer = Button(title: "Descale the machine", theme: theme)
        XCTAssertGreaterThan(longer.preferredSize.width, button.preferredSize.width)

        let row = Layer(name: "row")
        row.layoutManager = StackLayout(gap: 10, padding: EdgeInsets(all: 4), crossAlignment: .start)
        row.frame = Rect(x: 0, y: 0, width: 400, height: 60)
        let a = Button(title: "OK", theme: theme), b = Button(title: "Descale the machine", theme: theme)
        try! row.addSublayer(a)
        try! row.addSublayer(b)
        row.layoutIfNeeded()
        XCTAssertEqual(a.frame, Rect(x: 4, y: 4, width: a.preferredSize.width, height: 44))
        XCTAssertEqual(b.frame, Rect(x: 4 + a.preferredSize.width + 10, y: 4, width: b.preferredSize.width, height: 44))
        // A new title re-measures: the stack lays the row out again.
        a.title = "Okay then"
        XCTAssertTrue(row.needsLayout)
        row.layoutIfNeeded()
        XCTAssertEqual(a.frame.width, a.preferredSize.width)
        XCTAssertGreaterThan(a.frame.width, 50)
    }
}
