import FBRuntime
import KeyboardInput

/// `--keymap-check`: compiles the board file's keymap (`keyboard-layout`,
/// `-variant`, `-options`, and the compose table of `keyboard-locale`) with
/// libxkbcommon as the app shell does at the first key event, and types a
/// few keys through it — on the emulated board, whether its initramfs
/// carries the xkb data and compose tables the layout needs
/// (scripts/qemu-board copies them). `--keymap-layout`, `--keymap-variant`,
/// `--keymap-options` and `--keymap-locale` replace the board file's values,
/// so one boot checks a second layout.
///
/// Exit 1 when no keymap compiles, when the layout fell back to another,
/// when KEY_A types nothing, or when the keys typed are not the layout's:
/// - `us` (no variant): KEY_A, Shift+KEY_A, KEY_1, Shift+KEY_1 type "a",
///   "A", "1", "!";
/// - `de`: KEY_Y and KEY_Z type "z" and "y" (QWERTZ), and the dead acute
///   (KEY_EQUAL) then KEY_E types "é" (dead keys resolve through the
///   compose table);
/// - options with `compose:ralt`: Right Alt, KEY_O, KEY_E types "œ"
///   (the Compose key through the compose table).
/// A locale given with no compose table found for it fails too; with
/// none given (`keyboard-locale = none`) the table is only reported.
enum KeymapCheck {
    /// Evdev codes (linux/input-event-codes.h).
    static let keyA: UInt32 = 30, key1: UInt32 = 2, leftShift: UInt32 = 42
    static let keyY: UInt32 = 21, keyZ: UInt32 = 44, keyE: UInt32 = 18, keyO: UInt32 = 24
    static let keyEqual: UInt32 = 13, rightAlt: UInt32 = 100

    /// The keymap to check: the board file's, with the command line's
    /// `--keymap-*` values in its place where given.
    struct Request {
        var layout: String
        var variant: String
        var options: String
        var locale: String

        init(board: BoardConfig) {
            layout = board.keyboardLayout
            variant = board.keyboardVariant
            options = board.keyboardOptions
            locale = board.keyboardLocale
        }
    }

    static func run(_ asked: Request) -> Int32 {
        guard let keyboard = KeyboardTranslator(layout: asked.layout, variant: asked.variant, options: asked.options,
                                                composeLocale: asked.locale) else {
            print("fbcheck: error: keymap: no keymap compiles (no xkb data?)")
            return 1
        }
        func press(_ code: UInt32, shifted: Bool = false) -> String {
            if shifted { _ = keyboard.translate(code: leftShift, pressed: true) }
            let text = keyboard.translate(code: code, pressed: true).text
            _ = keyboard.translate(code: code, pressed: false)
            if shifted { _ = keyboard.translate(code: leftShift, pressed: false) }
            return text
        }
        func sequence(_ codes: [UInt32]) -> String {
            var text = ""
            for code in codes { text += press(code) }
            return text
        }
        let typed = [press(keyA), press(keyA, shifted: true), press(key1), press(key1, shifted: true)]
        var line = "fbcheck: keymap: layout '\(keyboard.layout)'"
        if !keyboard.variant.isEmpty { line += " variant '\(keyboard.variant)'" }
        if !keyboard.options.isEmpty { line += " options '\(keyboard.options)'" }
        line += ": KEY_A, Shift+KEY_A, KEY_1, Shift+KEY_1 typed"
        for t in typed { line += " '" + t + "'" }
        line += "; compose table: " + (keyboard.composeLocale ?? "none")
        print(line)
        var failed = false
        func expect(_ what: String, _ got: String, _ wanted: String) {
            print("fbcheck: keymap: \(what) typed '\(got)'" + (got == wanted ? "" : ", expected '\(wanted)'"))
            if got != wanted { failed = true }
        }
        if keyboard.layout != asked.layout || keyboard.variant != asked.variant {
            print("fbcheck: error: keymap: the layout '\(asked.layout)' fell back to '\(keyboard.layout)'")
            return 1
        }
        if !asked.locale.isEmpty && keyboard.composeLocale == nil {
            print("fbcheck: error: keymap: no compose table for locale '\(asked.locale)' (libX11's locale data missing?)")
            return 1
        }
        if typed[0].isEmpty {
            print("fbcheck: error: keymap: KEY_A typed nothing")
            return 1
        }
        if asked.layout == "us" && asked.variant.isEmpty {
            expect("KEY_A, Shift+KEY_A, KEY_1, Shift+KEY_1", typed.joined(separator: " "), "a A 1 !")
        }
        if asked.layout == "de" && asked.variant.isEmpty {
            expect("KEY_Y, KEY_Z", press(keyY) + press(keyZ), "zy")
            expect("dead acute (KEY_EQUAL), KEY_E", sequence([keyEqual, keyE]), "é")
        }
        // The options are ASCII: compared as bytes.
        let composeOnRightAlt = asked.options.utf8.split(separator: UInt8(ascii: ",")).contains { Array($0) == Array("compose:ralt".utf8) }
        if composeOnRightAlt {
            expect("Compose (Right Alt), KEY_O, KEY_E", sequence([rightAlt, keyO, keyE]), "œ")
        }
        if failed { print("fbcheck: error: keymap: the keys above did not type the layout's text") }
        return failed ? 1 : 0
    }
}
