import CXKBCommon

/// What one key event means through a keymap: the key's keysym and the
/// text it typed.
public struct KeyTranslation: Equatable, Sendable {
    /// The key's keysym (`xkb_keysym_t`, X11's `XK_*` numbers: 0x7a `z`,
    /// 0xfe51 `dead_acute`, 0xff0d `Return`), at the keyboard's state
    /// before the event (a Shift held: `Z`); after a finished compose
    /// sequence, the composed keysym (0xe9 `eacute`). 0 (`NoSymbol`) for a
    /// key the keymap does not have.
    public var keysym: UInt32
    /// The text the press typed, UTF-8: "z", "Z", "ö", "@", "é" at the
    /// end of a compose sequence; also the control characters a keymap
    /// gives Return ("\r"), Tab, BackSpace and Escape. Empty for a release,
    /// a modifier, a step inside a compose sequence (a dead key) and a
    /// sequence that was cancelled.
    public var text: String
    /// A compose sequence is under way after this press (a dead key, the
    /// Compose key, or a key continuing a sequence that has not finished).
    public var isComposing: Bool

    public init(keysym: UInt32, text: String, isComposing: Bool = false) {
        self.keysym = keysym
        self.text = text
        self.isComposing = isComposing
    }

    /// Nothing: no keysym, no text.
    public static let none = KeyTranslation(keysym: 0, text: "")
}

/// Keysym names, as the xkb data and X11 spell them.
public enum Keysym {
    /// The keysym named `name` ("a", "dead_acute", "Return", "eacute"),
    /// case-sensitive; 0 when there is none.
    public static func named(_ name: String) -> UInt32 {
        name.withCString { xkb_keysym_from_name($0, XKB_KEYSYM_NO_FLAGS) }
    }

    /// The name of `keysym` ("dead_acute"; "0x12345678" for a number
    /// without one).
    public static func name(of keysym: UInt32) -> String {
        KeyboardTranslator.string { xkb_keysym_get_name(keysym, $0, $1) }
    }
}
