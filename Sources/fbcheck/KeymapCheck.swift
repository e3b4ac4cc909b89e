import FBRuntime
import KeyboardInput

/// `--keymap-check`: compiles the board file's keymap (`keyboard-layout`,
/// `-variant`, `-options`) with libxkbcommon as the app shell does at the
/// first key event, and types a few keys through it — on the emulated
/// board, whether its initramfs carries the xkb data the layout needs
/// (scripts/qemu-board copies the files the `us` layout reads). Exit 1 when
/// no keymap compiles or the board's layout fell back to another; for
/// `us`, also when KEY_A, Shift+KEY_A, KEY_1 and Shift+KEY_1 do not type
/// "a", "A", "1" and "!". A missing compose table is reported, not failed
/// (the `us` layout has no dead keys).
enum KeymapCheck {
    /// Evdev codes (linux/input-event-codes.h).
    static let keyA: UInt32 = 30, key1: UInt32 = 2, leftShift: UInt32 = 42

    static func run(board: BoardConfig) -> Int32 {
        let asked = board.keyboardLayout
        guard let keyboard = KeyboardTranslator(layout: asked, variant: board.keyboardVariant, options: board.keyboardOptions,
                                                composeLocale: board.keyboardLocale) else {
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
        let typed = [press(keyA), press(keyA, shifted: true), press(key1), press(key1, shifted: true)]
        var line = "fbcheck: keymap: layout '\(keyboard.layout)'"
        if !keyboard.variant.isEmpty { line += " variant '\(keyboard.variant)'" }
        line += ": KEY_A, Shift+KEY_A, KEY_1, Shift+KEY_1 typed"
        for t in typed { line += " '" + t + "'" }
        line += "; compose table: " + (keyboard.composeLocale ?? "none")
        print(line)
        if keyboard.layout != asked || keyboard.variant != board.keyboardVariant {
            print("fbcheck: error: keymap: the board's layout '\(asked)' fell back to '\(keyboard.layout)'")
            return 1
        }
        if asked == "us" && board.keyboardVariant.isEmpty && typed != ["a", "A", "1", "!"] {
            print("fbcheck: error: keymap: the us layout should type 'a' 'A' '1' '!'")
            return 1
        }
        if typed[0].isEmpty {
            print("fbcheck: error: keymap: KEY_A typed nothing")
            return 1
        }
        return 0
    }
}
