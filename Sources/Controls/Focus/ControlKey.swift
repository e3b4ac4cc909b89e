/// A key as controls and the `FocusEngine` see it: what it means, not
/// which device sent it. Controls does not depend on Input; an app maps
/// its device's keys to these (`EvdevKeyMapper` for Linux KEY_* codes).
public enum ControlKey: Equatable, Sendable {
    case up, down, left, right
    /// Tab: the next control in tree order.
    case tab
    /// Shift-Tab: the previous control in tree order.
    case backTab
    /// Enter, keypad Enter, a rotary encoder's push: activates the focused
    /// control (a button's tap, a switch's toggle, a text field's submit).
    case enter
    case escape
    /// Backspace: a text field deletes backward.
    case backspace
    /// A printable character, for a focused text field.
    case character(Unicode.Scalar)
    /// Printable text of more than one scalar that one key typed (a
    /// compose sequence whose result is several), for a focused text field.
    case text(String)
}

/// Linux evdev key codes (`linux/input-event-codes.h`, as in Input's
/// `InputEvent.key(code:pressed:timeMicroseconds:)`) to `ControlKey`s: a
/// pure mapping on `UInt32` codes, so Controls needs no Input.
///
/// It keeps the Shift state (KEY_LEFTSHIFT 42, KEY_RIGHTSHIFT 54) between
/// events: feed it every key event, pressed and released, and act on the
/// keys it returns (presses only; auto-repeat is a press). Navigation and
/// editing keys (arrows, Tab, Enter, Escape, Backspace) go by code, so
/// focus moves alike on every layout. Characters come from the text a
/// keymap gave the key (`key(code:pressed:text:)`, with the app shell's
/// `KeyEvent.text`: the board's xkb layout, dead keys and Compose, done by
/// KeyboardInput); without one, a US layout's letters, digits and space.
public struct EvdevKeyMapper: Equatable, Sendable {
    public static let keyEsc: UInt32 = 1
    public static let keyBackspace: UInt32 = 14
    public static let keyTab: UInt32 = 15
    public static let keyEnter: UInt32 = 28
    public static let keyLeftShift: UInt32 = 42
    public static let keyRightShift: UInt32 = 54
    public static let keySpace: UInt32 = 57
    public static let keyKeypadEnter: UInt32 = 96
    public static let keyUp: UInt32 = 103
    public static let keyLeft: UInt32 = 105
    public static let keyRight: UInt32 = 106
    public static let keyDown: UInt32 = 108

    private var leftShift = false, rightShift = false

    /// Either Shift key is held.
    public var isShiftDown: Bool { leftShift || rightShift }

    public init() {}

    /// One key event: updates the Shift state and returns the key a press
    /// means (nil for releases, Shift itself and unmapped codes).
    public mutating func key(code: UInt32, pressed: Bool) -> ControlKey? {
        switch code {
        case Self.keyLeftShift: leftShift = pressed; return nil
        case Self.keyRightShift: rightShift = pressed; return nil
        default:
            guard pressed else { return nil }
            return Self.controlKey(code: code, shift: isShiftDown)
        }
    }

    /// One key event with the text a keymap gave its press: Shift and the
    /// navigation and editing keys by code, as `key(code:pressed:)`; any
    /// other press by its text (`textKey(_:)`), so a dead key or a modifier
    /// (text "") means nothing. `text` nil: no keymap translated it, and the
    /// code's US character is used as `key(code:pressed:)` does.
    public mutating func key(code: UInt32, pressed: Bool, text: String?) -> ControlKey? {
        guard let text else { return key(code: code, pressed: pressed) }
        switch code {
        case Self.keyLeftShift: leftShift = pressed; return nil
        case Self.keyRightShift: rightShift = pressed; return nil
        default:
            guard pressed else { return nil }
            return Self.navigationKey(code: code, shift: isShiftDown) ?? Self.textKey(text)
        }
    }

    /// What typed text means to a text field: one printable scalar is
    /// `.character`, several are `.text`; nil for none, or when any is a
    /// control character (the "\r" or "\u{1}" a keymap gives Return or
    /// Ctrl-A, which are keys, not text).
    public static func textKey(_ text: String) -> ControlKey? {
        var first: Unicode.Scalar?, count = 0
        for scalar in text.unicodeScalars {
            let v = scalar.value
            if v < 0x20 || (v >= 0x7F && v < 0xA0) { return nil }
            if first == nil { first = scalar }
            count += 1
        }
        guard let first else { return nil }
        return count == 1 ? .character(first) : .text(text)
    }

    /// The key `code` means with Shift held or not; nil when unmapped.
    public static func controlKey(code: UInt32, shift: Bool) -> ControlKey? {
        if let key = navigationKey(code: code, shift: shift) { return key }
        if code == keySpace { return .character(" ") }
        guard let ascii = character(code: code) else { return nil }
        let upper = shift && ascii >= 0x61 && ascii <= 0x7A ? ascii - 0x20 : ascii
        return .character(Unicode.Scalar(upper))
    }

    /// The keys that go by code on every layout: arrows, Tab and Shift-Tab,
    /// Enter, Escape, Backspace.
    static func navigationKey(code: UInt32, shift: Bool) -> ControlKey? {
        switch code {
        case keyUp: return .up
        case keyDown: return .down
        case keyLeft: return .left
        case keyRight: return .right
        case keyTab: return shift ? .backTab : .tab
        case keyEnter, keyKeypadEnter: return .enter
        case keyEsc: return .escape
        case keyBackspace: return .backspace
        default: return nil
        }
    }

    // KEY_1…KEY_0 are 2…11; the letter rows start at KEY_Q 16, KEY_A 30,
    // KEY_Z 44. ASCII bytes, so nothing here allocates.
    private static func character(code: UInt32) -> UInt8? {
        let digits: StaticString = "1234567890", top: StaticString = "qwertyuiop"
        let middle: StaticString = "asdfghjkl", bottom: StaticString = "zxcvbnm"
        func pick(_ row: StaticString, from first: UInt32) -> UInt8? {
            guard code >= first, code < first + UInt32(row.utf8CodeUnitCount) else { return nil }
            return row.utf8Start[Int(code - first)]
        }
        return pick(digits, from: 2) ?? pick(top, from: 16) ?? pick(middle, from: 30) ?? pick(bottom, from: 44)
    }
}
