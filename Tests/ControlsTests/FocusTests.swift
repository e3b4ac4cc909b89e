@testable import Controls
import FBRuntime
import Raster
import XCTest

/// Focus and keys: the Tab order through a screen of controls, arrows to
/// the geometrically nearest control, Enter and the arrows on each control,
/// disabled and hidden controls skipped, a rotary encoder's steps, the ring
/// following the focus (and mid-animation), and goldens of the ring.
final class FocusTests: XCTestCase {
    private var scene: ControlScene!
    private var engine: FocusEngine!
    private let theme = Theme.testing()

    private var button: Button!, toggle: Switch!, slider: Slider!, stepper: Stepper!
    private var segments: SegmentedControl!, done: Button!

    override func tearDown() { scene?.finish(); scene = nil; engine = nil }

    /// A 320×200 screen, added in this (tree) order:
    ///
    ///     button  (10, 10, 100×44)    toggle  (130, 16, 51×31)
    ///     slider  (10, 70, 200×44)    stepper (220, 70, 88×44)
    ///     segments (10, 130, 180×36)  done    (200, 130, 100×44)
    private func makeScreen() {
        scene = ControlScene(width: 320, height: 200, background: theme.colors.background)
        button = Button(title: "Start", theme: theme); button.name = "button"
        toggle = Switch(isOn: false, theme: theme); toggle.name = "toggle"
        slider = Slider(value: 0.5, theme: theme); slider.name = "slider"
        stepper = Stepper(value: 5, minimumValue: 0, maximumValue: 6, theme: theme); stepper.name = "stepper"
        segments = SegmentedControl(titles: ["A", "B", "C"], selectedIndex: 0, theme: theme); segments.name = "segments"
        done = Button(title: "Done", theme: theme); done.name = "done"
        scene.add(button, frame: Rect(x: 10, y: 10, width: 100, height: 44))
        scene.add(toggle, frame: Rect(x: 130, y: 16, width: 51, height: 31))
        scene.add(slider, frame: Rect(x: 10, y: 70, width: 200, height: 44))
        scene.add(stepper, frame: Rect(x: 220, y: 70, width: 88, height: 44))
        scene.add(segments, frame: Rect(x: 10, y: 130, width: 180, height: 36))
        scene.add(done, frame: Rect(x: 200, y: 130, width: 100, height: 44))
        engine = FocusEngine(root: scene.root, theme: theme)
    }

    private var focusedName: String? { engine.focusedControl?.name }

    /// Presses `key` in a run-loop turn, as an app's input handler would.
    @discardableResult
    private func press(_ key: ControlKey) -> Bool {
        var used = false
        scene.loop.runTurn { used = engine.handle(key) }
        return used
    }

    // MARK: Order

    func testTabCyclesThroughTheScreenInTreeOrder() {
        makeScreen()
        XCTAssertNil(engine.focusedControl)
        var names: [String] = []
        for _ in 0..<7 {
            XCTAssertTrue(press(.tab))
            names.append(focusedName ?? "-")
        }
        XCTAssertEqual(names, ["button", "toggle", "slider", "stepper", "segments", "done", "button"])
        var back: [String] = []
        for _ in 0..<3 {
            press(.backTab)
            back.append(focusedName ?? "-")
        }
        XCTAssertEqual(back, ["done", "segments", "stepper"])
    }

    func testArrowsGoToTheNearestControlThatWay() {
        makeScreen()
        engine.focus(button, animated: false)
        XCTAssertTrue(press(.right))
        XCTAssertEqual(focusedName, "toggle")
        // Down from the switch (centre 155.5, 31.5): the slider (110, 92)
        // scores 60.5 + 2 × 45.5, the stepper (264, 92) 60.5 + 2 × 108.5.
        XCTAssertTrue(press(.down))
        XCTAssertEqual(focusedName, "slider")
        engine.focus(done, animated: false)
        XCTAssertTrue(press(.up))          // stepper: 60 + 2 × 14, slider: 60 + 2 × 140
        XCTAssertEqual(focusedName, "stepper")
        engine.focus(done, animated: false)
        XCTAssertTrue(press(.left))        // segments: 150 + 2 × 4, slider: 140 + 2 × 60
        XCTAssertEqual(focusedName, "segments")
        engine.focus(button, animated: false)
        XCTAssertFalse(press(.up), "nothing above: the focus stays")
        XCTAssertEqual(focusedName, "button")
        XCTAssertFalse(press(.left))
        XCTAssertEqual(focusedName, "button")
    }

    func testDisabledHiddenTransparentAndRemovedControlsAreSkipped() {
        makeScreen()
        toggle.isEnabled = false
        slider.isHidden = true
        stepper.opacity = 0
        segments.removeFromSuperlayer()
        XCTAssertEqual(engine.focusableControls().map { $0.name }, ["button", "done"])
        XCTAssertFalse(engine.focus(toggle))
        XCTAssertFalse(engine.focus(slider))
        XCTAssertFalse(engine.focus(segments))
        press(.tab); press(.tab); press(.tab)
        XCTAssertEqual(focusedName, "button")
        engine.focus(button, animated: false)
        XCTAssertTrue(press(.right), "past the disabled switch, to Done")
        XCTAssertEqual(focusedName, "done")
        // A hidden container hides its controls.
        let page = Layer(name: "page")
        let inner = Button(title: "Inner", theme: theme)
        inner.frame = Rect(x: 0, y: 0, width: 60, height: 30)
        try! page.addSublayer(inner)
        try! scene.root.addSublayer(page)
        XCTAssertEqual(engine.focusableControls().count, 3)
        page.isHidden = true
        XCTAssertEqual(engine.focusableControls().count, 2)
        // The focused control disabled: the next key moves on from the start.
        engine.focus(done, animated: false)
        done.isEnabled = false
        press(.tab)
        XCTAssertEqual(focusedName, "button")
    }

    func testRotaryEncoderStepsAndPush() {
        makeScreen()
        var taps = 0
        done.onTap = { _ in taps += 1 }
        scene.loop.runTurn { engine.rotate(by: 2) }
        XCTAssertEqual(focusedName, "toggle")
        scene.loop.runTurn { engine.rotate(by: -2) }
        XCTAssertEqual(focusedName, "done", "back past the first, cycling")
        press(.enter)                      // the encoder's push
        XCTAssertEqual(taps, 1)
        scene.loop.runTurn { engine.rotate(by: 3) }
        XCTAssertEqual(focusedName, "slider")
    }

    // MARK: Keys on controls

    func testEnterTapsAButtonAndTogglesASwitch() {
        makeScreen()
        var taps = 0, changes = 0
        button.onTap = { _ in taps += 1 }
        toggle.onValueChanged = { _ in changes += 1 }
        engine.focus(button, animated: false)
        XCTAssertTrue(press(.enter))
        XCTAssertEqual(taps, 1)
        XCTAssertFalse(button.isHighlighted)
        engine.focus(toggle, animated: false)
        XCTAssertTrue(press(.enter))
        XCTAssertTrue(toggle.isOn)
        XCTAssertEqual(changes, 1)
        press(.enter)
        XCTAssertFalse(toggle.isOn)
        XCTAssertEqual(changes, 2)
        button.isEnabled = false
        XCTAssertFalse(button.handleKey(.enter))
        XCTAssertEqual(taps, 1)
    }

    func testLeftAndRightAdjustSliderStepperAndSegments() {
        makeScreen()
        var sliderChanges = 0, stepperChanges = 0, segmentChanges = 0
        slider.onValueChanged = { _ in sliderChanges += 1 }
        stepper.onValueChanged = { _ in stepperChanges += 1 }
        segments.onValueChanged = { _ in segmentChanges += 1 }

        engine.focus(slider, animated: false)
        XCTAssertTrue(press(.right))
        XCTAssertEqual(slider.value, 0.6, accuracy: 1e-12)   // a tenth of 0…1
        slider.keyStep = 0.25
        press(.left); press(.left); press(.left)
        XCTAssertEqual(slider.value, 0)
        XCTAssertTrue(press(.left), "used at the limit: the focus stays")
        XCTAssertEqual(focusedName, "slider")
        XCTAssertEqual(sliderChanges, 4)
        press(.down)
        XCTAssertEqual(focusedName, "segments", "up and down leave the slider")

        engine.focus(stepper, animated: false)
        press(.right)
        XCTAssertEqual(stepper.value, 6)
        press(.right)
        XCTAssertEqual(stepper.value, 6, "at the maximum")
        press(.left); press(.left)
        XCTAssertEqual(stepper.value, 4)
        XCTAssertEqual(stepperChanges, 3)

        engine.focus(segments, animated: false)
        press(.right); press(.right); press(.right)
        XCTAssertEqual(segments.selectedIndex, 2)
        press(.left)
        XCTAssertEqual(segments.selectedIndex, 1)
        XCTAssertEqual(segmentChanges, 3)
    }

    func testUpAndDownTurnAPickerWheelThenMoveOn() {
        scene = ControlScene(width: 320, height: 260, background: theme.colors.background)
        let wheel = PickerWheel(items: ["1", "2", "3"], selectedIndex: 1, theme: theme)
        let below = Button(title: "OK", theme: theme)
        scene.add(wheel, frame: Rect(x: 10, y: 10, width: 160, height: 180))
        scene.add(below, frame: Rect(x: 10, y: 200, width: 100, height: 44))
        engine = FocusEngine(root: scene.root, theme: theme)
        var changes = 0
        wheel.onValueChanged = { _ in changes += 1 }
        engine.focus(wheel, animated: false)
        XCTAssertTrue(press(.down))
        XCTAssertEqual(wheel.selectedIndex, 2)
        XCTAssertTrue(press(.down), "past the last row: the focus moves down")
        XCTAssertTrue(engine.focusedControl === below)
        engine.focus(wheel, animated: false)
        press(.up); press(.up)
        XCTAssertEqual(wheel.selectedIndex, 0)
        XCTAssertEqual(changes, 3)
        scene.advance(by: 1)
        XCTAssertEqual(wheel.offset, 0)
    }

    func testCharacterKeysTypeIntoAFocusedTextField() {
        scene = ControlScene(width: 320, height: 80, background: theme.colors.background)
        let field = TextField(text: "", theme: theme)
        scene.add(field, frame: Rect(x: 10, y: 10, width: 200, height: 44))
        engine = FocusEngine(root: scene.root, theme: theme)
        var submitted = 0
        field.onSubmit = { _ in submitted += 1 }
        engine.focus(field, animated: false)
        var mapper = EvdevKeyMapper()
        for (code, pressed) in [(UInt32(42), true), (35, true), (35, false), (42, false), (23, true), (2, true), (14, true), (28, true)] {
            if let key = mapper.key(code: code, pressed: pressed) { press(key) }
        }
        XCTAssertEqual(field.text, "Hi")     // H, i, 1, backspace
        XCTAssertEqual(submitted, 1)
    }

    // MARK: Evdev codes

    func testEvdevCodesMapToKeysWithShiftState() {
        XCTAssertEqual(EvdevKeyMapper.controlKey(code: 103, shift: false), .up)
        XCTAssertEqual(EvdevKeyMapper.controlKey(code: 108, shift: false), .down)
        XCTAssertEqual(EvdevKeyMapper.controlKey(code: 105, shift: false), .left)
        XCTAssertEqual(EvdevKeyMapper.controlKey(code: 106, shift: false), .right)
        XCTAssertEqual(EvdevKeyMapper.controlKey(code: 15, shift: false), .tab)
        XCTAssertEqual(EvdevKeyMapper.controlKey(code: 15, shift: true), .backTab)
        XCTAssertEqual(EvdevKeyMapper.controlKey(code: 28, shift: false), .enter)
        XCTAssertEqual(EvdevKeyMapper.controlKey(code: 96, shift: false), .enter)
        XCTAssertEqual(EvdevKeyMapper.controlKey(code: 1, shift: false), .escape)
        XCTAssertEqual(EvdevKeyMapper.controlKey(code: 30, shift: false), .character("a"))
        XCTAssertEqual(EvdevKeyMapper.controlKey(code: 30, shift: true), .character("A"))
        XCTAssertEqual(EvdevKeyMapper.controlKey(code: 50, shift: false), .character("m"))
        XCTAssertEqual(EvdevKeyMapper.controlKey(code: 11, shift: true), .character("0"))
        XCTAssertNil(EvdevKeyMapper.controlKey(code: 0, shift: false))
        XCTAssertNil(EvdevKeyMapper.controlKey(code: 12, shift: false))
        XCTAssertNil(EvdevKeyMapper.controlKey(code: 0x110, shift: false))   // BTN_LEFT

        var mapper = EvdevKeyMapper()
        XCTAssertEqual(mapper.key(code: 15, pressed: true), .tab)
        XCTAssertNil(mapper.key(code: 15, pressed: false), "releases mean nothing")
        XCTAssertNil(mapper.key(code: 42, pressed: true))
        XCTAssertTrue(mapper.isShiftDown)
        XCTAssertEqual(mapper.key(code: 15, pressed: true), .backTab)
        XCTAssertNil(mapper.key(code: 54, pressed: true))
        XCTAssertNil(mapper.key(code: 42, pressed: false))
        XCTAssertEqual(mapper.key(code: 15, pressed: true), .backTab, "the right Shift is still down")
        XCTAssertNil(mapper.key(code: 54, pressed: false))
        XCTAssertFalse(mapper.isShiftDown)
        XCTAssertEqual(mapper.key(code: 15, pressed: true), .tab)
    }

    // MARK: The ring

    func testRingSurroundsTheFocusedControlAndAnimatesBetweenControls() {
        makeScreen()
        XCTAssertTrue(engine.ring.isHidden)
        press(.tab)
        let ring = engine.ring
        XCTAssertTrue(scene.root.sublayers.last === ring)
        XCTAssertFalse(ring.isHidden)
        XCTAssertEqual(ring.frame, Rect(x: 7, y: 7, width: 106, height: 50))
        XCTAssertEqual(ring.cornerRadius, button.cornerRadius + 3)
        XCTAssertEqual(ring.borderWidth, 2)
        XCTAssertEqual(ring.borderColor, theme.colors.accent)

        // To the switch: the model moves at once, the ring on screen over
        // the theme's animation duration.
        press(.tab)
        XCTAssertEqual(ring.frame, Rect(x: 127, y: 13, width: 57, height: 37))
        XCTAssertEqual(ring.cornerRadius, toggle.cornerRadius + 3)
        let duration = theme.metrics.animationDuration
        scene.clock.advance(by: duration / 2)
        let mid = presentedPoint(ring, .position, at: scene.now)!
        XCTAssertGreaterThan(mid.x, 7)
        XCTAssertLessThan(mid.x, 127)
        XCTAssertGreaterThan(mid.y, 7)
        XCTAssertLessThan(mid.y, 13)
        scene.advance(by: duration)
        XCTAssertEqual(presentedPoint(ring, .position, at: scene.now), Point(x: 127, y: 13))

        press(.escape)
        XCTAssertNil(engine.focusedControl)
        XCTAssertTrue(ring.isHidden)
    }

    func testRingFollowsTheFocusedControlWhileItMoves() {
        makeScreen()
        engine.focus(done, animated: false)
        // Done slides 40 points left over the theme's duration.
        scene.loop.runTurn {
            Transaction.begin()
            Transaction.animationDuration = 1
            Transaction.animationTimingFunction = .linear
            done.position = Point(x: done.position.x - 40, y: done.position.y)
            Transaction.commit()
        }
        scene.clock.advance(by: 0.5)
        engine.updateRing(at: scene.now)
        let onScreen = presentedPoint(done, .position, at: scene.now)!
        XCTAssertEqual(onScreen.x, 250 - 20, accuracy: 1e-9, "half way (anchor in the middle)")
        XCTAssertEqual(engine.ring.frame, Rect(x: 180 - 3, y: 127, width: 106, height: 50))
        XCTAssertEqual(engine.presentationFrame(of: done, at: scene.now), Rect(x: 180, y: 130, width: 100, height: 44))
        scene.advance(by: 1)
        engine.updateRing(at: scene.now)   // nothing animates: unchanged
        XCTAssertEqual(engine.ring.frame, Rect(x: 177, y: 127, width: 106, height: 50))
        // Focusing anew places the ring on the model frame (160, 130).
        engine.focus(button, animated: false)
        engine.focus(done, animated: false)
        XCTAssertEqual(engine.ring.frame, Rect(x: 157, y: 127, width: 106, height: 50))
    }

    // MARK: Goldens

    func testGoldenFocusedButtonAndSlider() {
        scene = ControlScene(width: 260, height: 130, background: theme.colors.background)
        let start = Button(title: "Start", theme: theme)
        let level = Slider(value: 0.4, theme: theme)
        scene.add(start, frame: Rect(x: 20, y: 16, width: 140, height: 44))
        scene.add(level, frame: Rect(x: 20, y: 72, width: 220, height: 44))
        engine = FocusEngine(root: scene.root, theme: theme)
        press(.tab)
        scene.assertGolden("controls-focus-button")
        press(.down)
        XCTAssertTrue(engine.focusedControl === level)
        scene.assertGolden("controls-focus-slider")
    }
}
