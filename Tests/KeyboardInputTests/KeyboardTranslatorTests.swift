import FBRuntime
import KeyboardInput
import XCTest

/// The keyboard translator over the real libxkbcommon and the xkb data
/// (Debian's xkb-data) and compose tables (libx11-data) the host has: what
/// keys type on US, German, French layouts, dead keys, the Compose key,
/// and a layout that does not exist.
final class KeyboardTranslatorTests: XCTestCase {
    // linux/input-event-codes.h
    static let keyQ: UInt32 = 16, keyW: UInt32 = 17, keyE: UInt32 = 18, keyY: UInt32 = 21, keyA: UInt32 = 30
    static let keyZ: UInt32 = 44, keyM: UInt32 = 50, key1: UInt32 = 2, key2: UInt32 = 3
    static let keySemicolon: UInt32 = 39, keyApostrophe: UInt32 = 40, keyEqual: UInt32 = 13
    static let keyLeftShift: UInt32 = 42, keyRightAlt: UInt32 = 100, keyCapsLock: UInt32 = 58, keySpace: UInt32 = 57
    static let keyEnter: UInt32 = 28, keyTab: UInt32 = 15, keyBackspace: UInt32 = 14

    var warnings: [String] = []

    override func setUp() {
        warnings = []
        Diagnostics.sink = { [unowned self] line in self.warnings.append(line) }
    }

    override func tearDown() { Diagnostics.sink = nil }

    func translator(_ layout: String, variant: String = "", options: String = "", locale: String = "en_US.UTF-8",
                    file: StaticString = #filePath, line: UInt = #line) throws -> KeyboardTranslator {
        try XCTUnwrap(KeyboardTranslator(layout: layout, variant: variant, options: options, composeLocale: locale),
                      "no keymap (xkb-data installed?)", file: file, line: line)
    }

    /// Presses and releases each code in turn; the text of the presses.
    func type(_ codes: [UInt32], on keyboard: KeyboardTranslator) -> String {
        var text = ""
        for code in codes {
            text += keyboard.translate(code: code, pressed: true).text
            _ = keyboard.translate(code: code, pressed: false)
        }
        return text
    }

    /// `codes` with `modifier` held around them.
    func type(_ codes: [UInt32], holding modifier: UInt32, on keyboard: KeyboardTranslator) -> String {
        _ = keyboard.translate(code: modifier, pressed: true)
        defer { _ = keyboard.translate(code: modifier, pressed: false) }
        return type(codes, on: keyboard)
    }

    func testUSLettersDigitsAndShift() throws {
        let us = try translator("us")
        XCTAssertEqual(us.layout, "us")
        XCTAssertNil(us.fallbackReason)
        XCTAssertEqual(type([Self.keyQ, Self.keyW, Self.keyE, Self.keyY, Self.keyZ, Self.key1, Self.keySpace], on: us), "qweyz1 ")
        XCTAssertEqual(type([Self.keyQ, Self.keyY, Self.key1, Self.key2], holding: Self.keyLeftShift, on: us), "QY!@")
        XCTAssertFalse(us.isShiftActive)
        _ = us.translate(code: Self.keyLeftShift, pressed: true)
        XCTAssertTrue(us.isShiftActive)
        _ = us.translate(code: Self.keyLeftShift, pressed: false)
        XCTAssertFalse(us.isShiftActive)
        XCTAssertEqual(us.translate(code: Self.keyA, pressed: true).keysym, Keysym.named("a"))
        XCTAssertEqual(warnings, [])
    }

    func testCapsLockLocksAndUnlocks() throws {
        let us = try translator("us")
        XCTAssertEqual(type([Self.keyCapsLock, Self.keyA, Self.keyM], on: us), "AM")
        XCTAssertTrue(us.isCapsLockActive)
        XCTAssertEqual(type([Self.keyCapsLock, Self.keyA], on: us), "a")
        XCTAssertFalse(us.isCapsLockActive)
    }

    func testGermanLayoutZUmlautsAndAltGr() throws {
        let de = try translator("de")
        XCTAssertEqual(de.layout, "de")
        // The key labelled Z on a German keyboard is where a US keyboard has Y (QWERTZ).
        XCTAssertEqual(type([Self.keyY], on: de), "z")
        XCTAssertEqual(type([Self.keyZ], on: de), "y")
        XCTAssertEqual(type([Self.keySemicolon, Self.keyApostrophe], on: de), "öä")
        XCTAssertEqual(type([Self.keySemicolon], holding: Self.keyLeftShift, on: de), "Ö")
        _ = de.translate(code: Self.keyRightAlt, pressed: true)
        XCTAssertTrue(de.isLevel3Active)
        XCTAssertEqual(de.translate(code: Self.keyQ, pressed: true).text, "@")
        _ = de.translate(code: Self.keyQ, pressed: false)
        XCTAssertEqual(de.translate(code: Self.keyE, pressed: true).text, "€")
        _ = de.translate(code: Self.keyE, pressed: false)
        _ = de.translate(code: Self.keyRightAlt, pressed: false)
        XCTAssertFalse(de.isLevel3Active)
        XCTAssertEqual(type([Self.keyQ], on: de), "q")
    }

    func testFrenchAzerty() throws {
        let fr = try translator("fr")
        // AZERTY: A and Q swap, the digit row types symbols unshifted.
        XCTAssertEqual(type([Self.keyQ, Self.keyA, Self.keyM], on: fr), "aq,")
        XCTAssertEqual(type([Self.key2], on: fr), "é")
        XCTAssertEqual(type([Self.key2], holding: Self.keyLeftShift, on: fr), "2")
    }

    func testGermanDeadAcuteThenEIsEAcute() throws {
        let de = try translator("de")
        // KEY_EQUAL on a German keyboard is the dead acute (´) key.
        let dead = de.translate(code: Self.keyEqual, pressed: true)
        XCTAssertEqual(dead.keysym, Keysym.named("dead_acute"))
        XCTAssertEqual(dead.text, "")
        XCTAssertTrue(dead.isComposing)
        _ = de.translate(code: Self.keyEqual, pressed: false)
        let e = de.translate(code: Self.keyE, pressed: true)
        XCTAssertEqual(e.text, "é")
        XCTAssertEqual(e.keysym, Keysym.named("eacute"))
        XCTAssertFalse(e.isComposing)
        _ = de.translate(code: Self.keyE, pressed: false)
        // Shift inside the sequence continues it: ´ Shift+E is É.
        XCTAssertEqual(type([Self.keyEqual], on: de) + type([Self.keyE], holding: Self.keyLeftShift, on: de), "É")
        XCTAssertEqual(type([Self.keyE], on: de), "e")
    }

    func testUSInternationalApostropheThenEIsEAcute() throws {
        let intl = try translator("us", variant: "intl")
        XCTAssertEqual(intl.variant, "intl")
        XCTAssertEqual(type([Self.keyApostrophe, Self.keyE], on: intl), "é")
        // The dead key then space types the apostrophe itself.
        XCTAssertEqual(type([Self.keyApostrophe, Self.keySpace], on: intl), "'")
    }

    func testCancelledSequenceTypesNothing() throws {
        let de = try translator("de")
        // ´ then q: no such character; the sequence is cancelled and types nothing.
        XCTAssertEqual(type([Self.keyEqual, Self.keyQ], on: de), "")
        // and the next key is ordinary again.
        XCTAssertEqual(type([Self.keyQ], on: de), "q")
    }

    func testComposeKeyOnRightAlt() throws {
        let us = try translator("us", options: "compose:ralt")
        XCTAssertEqual(us.options, "compose:ralt")
        let compose = us.translate(code: Self.keyRightAlt, pressed: true)
        XCTAssertEqual(compose.keysym, Keysym.named("Multi_key"))
        XCTAssertTrue(compose.isComposing)
        _ = us.translate(code: Self.keyRightAlt, pressed: false)
        // Compose ' e → é; Compose o " → ö (Shift inside the sequence).
        XCTAssertEqual(type([Self.keyApostrophe, Self.keyE], on: us), "é")
        XCTAssertEqual(type([Self.keyRightAlt, Self.keyA], on: us)
                       + type([Self.keyApostrophe], holding: Self.keyLeftShift, on: us), "ä")
    }

    /// The plain C locale's table is libX11's Latin-1 one, its results
    /// octal escapes that are not UTF-8: the text comes from the result's
    /// keysym instead.
    func testCLocaleTableTypesLatin1ResultsThroughTheirKeysyms() throws {
        let de = try translator("de", locale: "C")
        XCTAssertEqual(de.composeLocale, "C")
        XCTAssertEqual(type([Self.keyEqual, Self.keyE], on: de), "é")
        XCTAssertEqual(warnings, [])
    }

    func testNoComposeTableTypesDeadKeysAsNothing() throws {
        let de = try translator("de", locale: "")
        XCTAssertNil(de.composeLocale)
        XCTAssertEqual(type([Self.keyEqual, Self.keyE], on: de), "e")
    }

    func testUnknownLayoutFallsBackToUSAndSaysSo() throws {
        let keyboard = try translator("xx-nonexistent")
        XCTAssertEqual(keyboard.layout, "us")
        XCTAssertEqual(type([Self.keyY, Self.keyZ], on: keyboard), "yz")
        XCTAssertEqual(warnings.count, 1, "\(warnings)")
        let warning = try XCTUnwrap(warnings.first)
        XCTAssertTrue(warning.hasPrefix("FBRuntime warning: keyboard: layout 'xx-nonexistent' does not exist"), warning)
        XCTAssertTrue(warning.contains("using layout 'us'"), warning)
        XCTAssertEqual(keyboard.fallbackReason.map { "FBRuntime warning: keyboard: " + $0 }, warning)
    }

    func testUnknownVariantFallsBackToUSKeepingOptions() throws {
        let keyboard = try translator("de", variant: "no-such-variant", options: "compose:ralt")
        XCTAssertEqual(keyboard.layout, "us")
        XCTAssertEqual(keyboard.variant, "")
        XCTAssertEqual(keyboard.options, "compose:ralt")
        XCTAssertTrue(warnings.first?.contains("layout 'de' (variant 'no-such-variant', options 'compose:ralt') does not exist") == true,
                      "\(warnings)")
    }

    func testUnknownComposeLocaleFallsBackAndSaysSo() throws {
        let de = try translator("de", locale: "xx_XX.UTF-8")
        XCTAssertEqual(de.composeLocale, KeyboardTranslator.fallbackComposeLocale)
        XCTAssertEqual(type([Self.keyEqual, Self.keyE], on: de), "é")
        XCTAssertEqual(warnings.count, 1, "\(warnings)")
        XCTAssertTrue(warnings.first?.contains("no compose table for locale 'xx_XX.UTF-8'") == true, "\(warnings)")
    }

    func testRepeatReleaseWithoutPressAndOutOfRangeCodes() throws {
        let us = try translator("us")
        // Auto-repeat: a second press types again.
        XCTAssertEqual(us.translate(code: Self.keyA, pressed: true).text, "a")
        XCTAssertEqual(us.translate(code: Self.keyA, pressed: true).text, "a")
        _ = us.translate(code: Self.keyA, pressed: false)
        // A repeated Shift press does not latch it twice: one release ends it.
        _ = us.translate(code: Self.keyLeftShift, pressed: true)
        XCTAssertEqual(us.translate(code: Self.keyLeftShift, pressed: true).text, "")
        _ = us.translate(code: Self.keyLeftShift, pressed: false)
        XCTAssertFalse(us.isShiftActive)
        // A release of a key never pressed (held at start) changes nothing.
        XCTAssertEqual(us.translate(code: Self.keyRightAlt, pressed: false), .none)
        XCTAssertEqual(type([Self.keyA], on: us), "a")
        XCTAssertEqual(us.translate(code: 768, pressed: true), .none)
        XCTAssertEqual(us.translate(code: .max, pressed: true), .none)
    }

    func testControlCharactersAndReset() throws {
        let us = try translator("us")
        XCTAssertEqual(type([Self.keyEnter], on: us), "\r")
        XCTAssertEqual(type([Self.keyTab], on: us), "\t")
        XCTAssertEqual(Keysym.name(of: us.translate(code: Self.keyBackspace, pressed: true).keysym), "BackSpace")
        _ = us.translate(code: Self.keyCapsLock, pressed: true)
        us.reset()
        XCTAssertFalse(us.isCapsLockActive)
        XCTAssertEqual(type([Self.keyA], on: us), "a")
    }
}
