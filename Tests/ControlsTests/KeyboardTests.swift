@testable import Controls
import FBRuntime
import Raster
import TestSupport
import XCTest

/// Keyboard: typing into a field by taps on its keys through the real
/// router (English and Russian, shift, backspace, space, return), showing
/// and hiding with a slide, the reveal offset, and both layouts' goldens.
final class KeyboardTests: XCTestCase {
    private var scene: ControlScene!

    override func tearDown() { scene?.finish(); scene = nil }

    /// A 480×272 screen: a field at the top, a keyboard along the bottom,
    /// hidden until the field is tapped.
    private func makeScreen(fieldY: Double = 12) -> (TextField, Keyboard) {
        scene?.finish()
        let theme = Theme.testing()
        scene = ControlScene(width: 480, height: 272, background: theme.colors.background)
        let field = TextField(placeholder: "Search", theme: theme)
        scene.add(field, frame: Rect(x: 20, y: fieldY, width: 440, height: 44))
        let keyboard = Keyboard(theme: theme)
        Transaction.withoutActions { try! scene.root.addSublayer(keyboard) }
        keyboard.placeHidden()
        keyboard.attachKeys(to: scene.router)
        field.keyboard = keyboard
        return (field, keyboard)
    }

    /// Taps the middle of `cap` where it is on screen now.
    private func tap(_ cap: KeyCap?, file: StaticString = #filePath, line: UInt = #line) {
        guard let cap else { return XCTFail("no such key", file: file, line: line) }
        let b = cap.presentation(at: scene.now).bounds
        let p = cap.presentation(at: scene.now).convert(Point(x: b.minX + b.width / 2, y: b.minY + b.height / 2), to: nil)
        let id = scene.newTouch()
        let hit = scene.send(id, .began, p.x, p.y)
        XCTAssertTrue(hit === cap || hit?.superlayer === cap, "the router delivers to the key", file: file, line: line)
        scene.advance(by: 0.05)
        scene.send(id, .ended, p.x, p.y)
        scene.advance(by: 0.05)
    }

    private func type(_ keyboard: Keyboard, _ labels: String) {
        for s in labels.unicodeScalars {
            var label = String()
            label.unicodeScalars.append(s)
            tap(label == " " ? keyboard.keyCap(for: .space) : keyboard.keyCap(label: label))
        }
    }

    private func openKeyboard(_ field: TextField) {
        scene.tap(240, field.frame.minY + 22)
        scene.advance(by: 0.5)   // the slide is 0.25 s
    }

    func testTappingTheFieldShowsTheKeyboardAndKeysType() {
        let (field, keyboard) = makeScreen()
        XCTAssertFalse(keyboard.isVisible)
        XCTAssertEqual(keyboard.frame.minY, 272, "hidden below the bottom edge")
        openKeyboard(field)
        XCTAssertTrue(keyboard.isVisible)
        XCTAssertTrue(keyboard.target === field)
        XCTAssertEqual(keyboard.frame, Rect(x: 0, y: 272 - 190, width: 480, height: 190))
        var changes = 0, submits = 0
        field.onChange = { _ in changes += 1 }
        field.onSubmit = { _ in submits += 1 }
        type(keyboard, "hi there")
        XCTAssertEqual(field.text, "hi there")
        XCTAssertEqual(changes, 8)
        tap(keyboard.keyCap(for: .backspace))
        XCTAssertEqual(field.text, "hi ther")
        // Shift is one-shot.
        tap(keyboard.keyCap(for: .shift))
        XCTAssertTrue(keyboard.isShifted)
        XCTAssertEqual(keyboard.keyCap(label: "q")?.titleLayer.string, "Q")
        type(keyboard, "ee")
        XCTAssertEqual(field.text, "hi therEe")
        XCTAssertFalse(keyboard.isShifted)
        XCTAssertEqual(keyboard.keyCap(label: "q")?.titleLayer.string, "q")
        tap(keyboard.keyCap(for: .enter))
        XCTAssertEqual(submits, 1)
        // Ending editing hides the keyboard and lets the field go.
        field.endEditing()
        XCTAssertFalse(keyboard.isVisible)
        XCTAssertNil(keyboard.target)
        scene.advance(by: 0.5)
        XCTAssertEqual(keyboard.frame.minY, 272)
    }

    func testTheRussianLayoutInsertsCyrillic() {
        let (field, keyboard) = makeScreen()
        openKeyboard(field)
        XCTAssertEqual(keyboard.keyCap(for: .nextLayout)?.titleLayer.string, "RU")
        tap(keyboard.keyCap(for: .nextLayout))
        XCTAssertEqual(keyboard.layoutIndex, 1)
        XCTAssertTrue(keyboard.pages[0].isHidden)
        XCTAssertFalse(keyboard.pages[1].isHidden)
        XCTAssertNil(keyboard.keyCap(label: "q"), "the English keys are not shown")
        tap(keyboard.keyCap(for: .shift))
        type(keyboard, "привет мир")
        XCTAssertEqual(field.text, "Привет мир")
        XCTAssertEqual(field.text.unicodeScalars.map { $0.value }.first, 0x041F)
        XCTAssertEqual(keyboard.visibleKeys[0].count, 12, "й … ъ")
        // And back.
        tap(keyboard.keyCap(for: .nextLayout))
        XCTAssertEqual(keyboard.layoutIndex, 0)
        type(keyboard, "ok")
        XCTAssertEqual(field.text, "Привет мирok")
    }

    func testTheKeyboardSlidesInAndKeysWorkMidSlide() {
        let (field, keyboard) = makeScreen()
        scene.tap(240, field.frame.minY + 22)
        scene.advance(by: 0)
        let t0 = scene.now
        let mid = presentedPoint(keyboard, .position, at: t0 + 0.1)!
        XCTAssertGreaterThan(mid.y, 82)
        XCTAssertLessThan(mid.y, 272)
        XCTAssertEqual(presentedPoint(keyboard, .position, at: t0 + 0.3)!.y, 82, accuracy: 1e-9)
        // A key tapped where it is on screen half way.
        scene.advance(by: 0.1)
        tap(keyboard.keyCap(label: "a"))
        XCTAssertEqual(field.text, "a")
    }

    func testRevealOffsetKeepsALowFieldAboveTheKeyboard() {
        let (field, keyboard) = makeScreen(fieldY: 200)
        XCTAssertEqual(keyboard.revealOffset(for: field), 0, "hidden: nothing to move")
        var reported: [Double] = []
        keyboard.onShowOrHide = { kb in reported.append(kb.target.map { kb.revealOffset(for: $0) } ?? 0) }
        openKeyboard(field)
        // The field's bottom (244) plus 8 above the keyboard's top (82).
        XCTAssertEqual(keyboard.revealOffset(for: field), 244 + 8 - 82)
        XCTAssertEqual(reported, [170])
        XCTAssertEqual(keyboard.shownFrame, Rect(x: 0, y: 82, width: 480, height: 190))
        // Another field taking the shown keyboard is reported too.
        let upper = TextField(theme: Theme.testing())
        scene.add(upper, frame: Rect(x: 20, y: 10, width: 440, height: 44))
        upper.keyboard = keyboard
        scene.tap(240, 32)
        XCTAssertTrue(keyboard.target === upper)
        XCTAssertFalse(field.isEditing)
        XCTAssertTrue(keyboard.isVisible)
        XCTAssertEqual(reported, [170, 0], "the upper field is above the keyboard already")
        field.endEditing()
        XCTAssertTrue(keyboard.isVisible, "only the target's end hides it")
    }

    func testDisablingTheFieldEndsEditingAndKeysWithoutATargetDoNothing() {
        let (field, keyboard) = makeScreen()
        var ended = 0
        field.onEndEditing = { _ in ended += 1 }
        openKeyboard(field)
        type(keyboard, "ab")
        field.isEnabled = false
        XCTAssertFalse(field.isEditing)
        XCTAssertEqual(ended, 1)
        XCTAssertNil(keyboard.target)
        XCTAssertFalse(keyboard.isVisible)
        // Keys pressed with no target: nothing typed, nothing breaks.
        keyboard.press(.character("c", shifted: "C"))
        keyboard.press(.backspace)
        keyboard.press(.enter)
        XCTAssertEqual(field.text, "ab")
        // A disabled field refuses the tap that would begin editing.
        scene.advance(by: 0.5)
        scene.tap(240, field.frame.minY + 22)
        XCTAssertFalse(field.isEditing)
    }

    func testGoldenEnglish() {
        let (field, _) = makeScreen()
        openKeyboard(field)
        scene.assertGolden("controls-keyboard-english")
    }

    func testGoldenRussianShifted() {
        let (field, keyboard) = makeScreen()
        openKeyboard(field)
        keyboard.showLayout(1)
        keyboard.isShifted = true
        field.insertText("Стирка")
        scene.advance(by: 0.15)   // the caret on in the golden (its blink restarted by the edit)
        scene.assertGolden("controls-keyboard-russian")
    }
}
