@testable import Controls
import FBRuntime
import KeyboardInput
import XCTest

/// Text fields typed into from a hardware keyboard through a real
/// xkbcommon keymap (KeyboardInput), the way an app on the app shell wires
/// it: every evdev event through the `KeyboardTranslator` (the shell's
/// `Screen.keyboard`, which puts the text on `KeyEvent.text`), then
/// `EvdevKeyMapper.key(code:pressed:text:)`, then the `FocusEngine`.
final class HardwareKeyboardTests: XCTestCase {
    private var scene: ControlScene!
    private var engine: FocusEngine!
    private var first: TextField!, second: TextField!
    private var keyboard: KeyboardTranslator!
    private var mapper = EvdevKeyMapper()
    private let theme = Theme.testing()

    // linux/input-event-codes.h
    static let keyY: UInt32 = 21, keyZ: UInt32 = 44, keyE: UInt32 = 18, keyQ: UInt32 = 16, keyH: UInt32 = 35, keyI: UInt32 = 23
    static let keySemicolon: UInt32 = 39, keyEqual: UInt32 = 13, keyLeftShift: UInt32 = 42, keyRightAlt: UInt32 = 100
    static let keyTab: UInt32 = 15, keyEnter: UInt32 = 28, keyBackspace: UInt32 = 14, keyDown: UInt32 = 108, keyUp: UInt32 = 103
    static let keyLeftCtrl: UInt32 = 29, keyA: UInt32 = 30

    override func tearDown() { scene?.finish(); scene = nil; engine = nil; keyboard = nil }

    /// Two fields, one above the other, on a board with `layout`; the first focused.
    private func makeScreen(layout: String, variant: String = "", options: String = "") throws {
        keyboard = try XCTUnwrap(KeyboardTranslator(layout: layout, variant: variant, options: options), "no keymap (xkb-data installed?)")
        scene = ControlScene(width: 320, height: 140, background: theme.colors.background)
        first = TextField(text: "", theme: theme); first.name = "first"
        second = TextField(text: "", theme: theme); second.name = "second"
        scene.add(first, frame: Rect(x: 10, y: 10, width: 200, height: 44))
        scene.add(second, frame: Rect(x: 10, y: 80, width: 200, height: 44))
        engine = FocusEngine(root: scene.root, theme: theme)
        engine.focus(first, animated: false)
    }

    /// One evdev event as the app shell delivers it, in a run-loop turn.
    private func send(_ code: UInt32, _ pressed: Bool) {
        let typed = keyboard.translate(code: code, pressed: pressed)
        guard let key = mapper.key(code: code, pressed: pressed, text: typed.text) else { return }
        scene.loop.runTurn { _ = engine.handle(key) }
    }

    private func tap(_ codes: UInt32...) {
        for code in codes { send(code, true); send(code, false) }
    }

    private func holding(_ modifier: UInt32, _ codes: UInt32...) {
        send(modifier, true)
        for code in codes { send(code, true); send(code, false) }
        send(modifier, false)
    }

    func testGermanKeyboardTypesZUmlautAndAtIntoTheFocusedField() throws {
        try makeScreen(layout: "de")
        tap(Self.keyY, Self.keySemicolon)           // the keys labelled Z and Ö
        holding(Self.keyLeftShift, Self.keyZ)       // Shift + the key labelled Y
        holding(Self.keyRightAlt, Self.keyQ)        // AltGr + Q
        XCTAssertEqual(first.text, "zöY@")
        tap(Self.keyEqual, Self.keyE)               // dead acute, e
        XCTAssertEqual(first.text, "zöY@é")
        tap(Self.keyEqual, Self.keyQ)               // a cancelled sequence types nothing
        XCTAssertEqual(first.text, "zöY@é")
        tap(Self.keyBackspace)
        XCTAssertEqual(first.text, "zöY@")
        XCTAssertEqual(second.text, "")
    }

    func testNavigationKeysStillMoveFocusOnEveryLayout() throws {
        try makeScreen(layout: "fr")
        tap(Self.keyQ)                              // AZERTY: the Q position types a
        XCTAssertEqual(first.text, "a")
        tap(Self.keyTab)
        XCTAssertTrue(engine.focusedControl === second)
        tap(Self.keyA)                              // and the A position q
        XCTAssertEqual(second.text, "q")
        holding(Self.keyLeftShift, Self.keyTab)     // Shift-Tab back
        XCTAssertTrue(engine.focusedControl === first)
        tap(Self.keyDown)
        XCTAssertTrue(engine.focusedControl === second)
        tap(Self.keyUp)
        XCTAssertTrue(engine.focusedControl === first)
        var submitted = 0
        first.onSubmit = { _ in submitted += 1 }
        tap(Self.keyEnter)                          // "\r" is a key, not text
        XCTAssertEqual(submitted, 1)
        holding(Self.keyLeftCtrl, Self.keyQ)        // Ctrl-A's "\u{1}" types nothing
        XCTAssertEqual(first.text, "a")
    }

    func testComposeKeyTypesIntoTheField() throws {
        try makeScreen(layout: "us", options: "compose:ralt")
        tap(Self.keyH, Self.keyI, Self.keyRightAlt, 40 /* KEY_APOSTROPHE */, Self.keyE)
        XCTAssertEqual(first.text, "hié")
    }

    func testMapperWithText() {
        var m = EvdevKeyMapper()
        XCTAssertEqual(m.key(code: Self.keyY, pressed: true, text: "z"), .character("z"))
        XCTAssertNil(m.key(code: Self.keyY, pressed: false, text: ""))
        XCTAssertNil(m.key(code: Self.keyEqual, pressed: true, text: ""), "a dead key types nothing")
        XCTAssertEqual(m.key(code: Self.keyTab, pressed: true, text: "\t"), .tab)
        XCTAssertEqual(m.key(code: Self.keyEnter, pressed: true, text: "\r"), .enter)
        XCTAssertNil(m.key(code: Self.keyLeftShift, pressed: true, text: ""))
        XCTAssertEqual(m.key(code: Self.keyTab, pressed: true, text: "\t"), .backTab)
        XCTAssertNil(m.key(code: Self.keyLeftShift, pressed: false, text: ""))
        XCTAssertEqual(m.key(code: Self.keyY, pressed: true, text: nil), .character("y"), "no keymap: US letters")
        XCTAssertEqual(EvdevKeyMapper.textKey("e\u{301}"), .text("e\u{301}"))
        XCTAssertNil(EvdevKeyMapper.textKey("\u{7f}"))
        XCTAssertNil(EvdevKeyMapper.textKey(""))
    }
}
