import CXKBCommon
import FBRuntime

/// A hardware keyboard's evdev key codes as keysyms and text, through a
/// libxkbcommon keymap named by RMLVO names (the board file's
/// `keyboard-layout`, `keyboard-variant` and `keyboard-options`, with the
/// `evdev` rules and the `pc105` model), and dead keys and the Compose key
/// through a compose table (`keyboard-locale`).
///
/// Feed it every key event of the keyboards, presses and releases, in
/// order: it keeps the keyboard's state (Shift, AltGr, Caps Lock, the
/// layout group) and the compose sequence under way, so a German layout's
/// KEY_Y (21) types "z", Shift with it "Z", AltGr with KEY_Q "@", and
/// `dead_acute` then `e` types "é".
///
/// **Bad input.** A layout (or variant) the xkb data does not have falls
/// back to `us`, keeping the options, and says so through
/// `Diagnostics.warn` ("keyboard: layout 'xx' ... does not exist ...;
/// using 'us'"); `fallbackReason` keeps the line. A compose locale without a
/// table falls back to `en_US.UTF-8`, also said. Only when no keymap at all
/// compiles (no xkb data installed: Debian's `xkb-data`) is there no
/// translator (`init` returns nil, after a warning), and the caller keeps
/// US letters (`EvdevKeyMapper`). A release of a key that was never
/// pressed (held when the program started) is ignored; auto-repeat (a
/// second press without a release) types again on keys the keymap repeats
/// and changes no state; codes above `KEY_MAX` (767) mean nothing.
///
/// Threading: one thread at a time (the app thread). Not `Sendable`.
public final class KeyboardTranslator {
    /// The layout in use: the one asked for, or `us` after a fallback.
    public let layout: String
    /// The variant in use ("" for the layout's default).
    public let variant: String
    /// The XKB options in use, comma-separated ("compose:ralt").
    public let options: String
    /// The locale whose compose table is in use; nil: none (dead keys
    /// type nothing).
    public let composeLocale: String?
    /// Why the keymap or compose table asked for was not the one used (the
    /// warning that was printed); nil when everything was found.
    public let fallbackReason: String?

    private let context: OpaquePointer
    private let keymap: OpaquePointer
    private var state: OpaquePointer
    private let composeTable: OpaquePointer?
    private let composeState: OpaquePointer?
    /// The evdev codes held down (0…767), a bit each: a release is only
    /// passed to the state after its press, and a second press is a repeat.
    private var held = [UInt64](repeating: 0, count: 12)

    /// The layout used when the one asked for does not exist.
    public static let fallbackLayout = "us"
    /// The compose locale used when the one asked for has no table: its
    /// table (libX11's, Debian's `libx11-data`) is the full Unicode one
    /// that `C.UTF-8` and most UTF-8 locales use.
    public static let fallbackComposeLocale = "en_US.UTF-8"

    /// Compiles the keymap `layout` / `variant` / `options` (names as in
    /// `/usr/share/X11/xkb/rules/evdev.lst`: "de", "fr", "us" with "intl",
    /// "compose:ralt") and the compose table of `composeLocale` ("" for
    /// none). The environment's `XKB_DEFAULT_*` names are not used: the
    /// board file decides. Returns nil, after a warning, when no keymap
    /// compiles, not even `us`.
    public init?(layout: String = "us", variant: String = "", options: String = "",
                 composeLocale: String = KeyboardTranslator.fallbackComposeLocale) {
        guard let context = xkb_context_new(XKB_CONTEXT_NO_ENVIRONMENT_NAMES) else {
            Diagnostics.warn("keyboard", "cannot make an xkb context; keys type US letters only")
            return nil
        }
        // xkbcommon's own messages would repeat ours (a missing layout is
        // one error line per include it tried); keep only its worst.
        xkb_context_set_log_level(context, XKB_LOG_LEVEL_CRITICAL)
        self.context = context
        var reasons: [String] = []

        let asked = KeyboardTranslator.describe(layout: layout, variant: variant, options: options)
        let attempts = [(layout, variant, options), (KeyboardTranslator.fallbackLayout, "", options),
                        (KeyboardTranslator.fallbackLayout, "", "")]
        var compiled: (keymap: OpaquePointer, layout: String, variant: String, options: String)?
        for (l, v, o) in attempts where compiled == nil {
            if let keymap = KeyboardTranslator.compileKeymap(context, layout: l, variant: v, options: o) {
                compiled = (keymap, l, v, o)
            }
        }
        let searched = KeyboardTranslator.includePaths(context)
        guard let compiled, let state = xkb_state_new(compiled.keymap) else {
            Diagnostics.warn("keyboard", "no keymap compiles, not even '\(KeyboardTranslator.fallbackLayout)' (xkb data searched in "
                             + "\(searched); install xkb-data); keys type US letters only")
            xkb_context_unref(context)
            return nil
        }
        if compiled.layout != layout || compiled.variant != variant || compiled.options != options {
            let used = KeyboardTranslator.describe(layout: compiled.layout, variant: compiled.variant, options: compiled.options)
            reasons.append("\(asked) does not exist in the xkb data (searched \(searched)); using \(used)")
        }
        keymap = compiled.keymap
        self.state = state
        self.layout = compiled.layout
        self.variant = compiled.variant
        self.options = compiled.options

        var table: OpaquePointer?
        var tableLocale: String?
        if !composeLocale.isEmpty {
            for locale in [composeLocale, KeyboardTranslator.fallbackComposeLocale] where table == nil {
                table = locale.withCString { xkb_compose_table_new_from_locale(context, $0, XKB_COMPOSE_COMPILE_NO_FLAGS) }
                if table != nil { tableLocale = locale }
            }
            if tableLocale != composeLocale {
                reasons.append("no compose table for locale '\(composeLocale)' (libX11's, /usr/share/X11/locale; install libx11-data); "
                               + (tableLocale.map { "using '\($0)'" } ?? "dead keys and the Compose key type nothing"))
            }
        }
        composeTable = table
        composeState = table.flatMap { xkb_compose_state_new($0, XKB_COMPOSE_STATE_NO_FLAGS) }
        self.composeLocale = composeState == nil ? nil : tableLocale

        for reason in reasons { Diagnostics.warn("keyboard", reason) }
        fallbackReason = reasons.isEmpty ? nil : reasons.joined(separator: "; ")
    }

    deinit {
        if let composeState { xkb_compose_state_unref(composeState) }
        if let composeTable { xkb_compose_table_unref(composeTable) }
        xkb_state_unref(state)
        xkb_keymap_unref(keymap)
        xkb_context_unref(context)
    }

    // MARK: Keys

    /// One key event (evdev code, `linux/input-event-codes.h`): what it
    /// types, then the keyboard's state updated with it. The text and
    /// keysym are read at the state before the event (a Shift press shifts
    /// the keys after it, not itself), as xkbcommon asks.
    public func translate(code: UInt32, pressed: Bool) -> KeyTranslation {
        guard code <= 767 else { return .none }
        // xkb keycodes are evdev codes + 8 (the X11 offset the evdev rules keep).
        let keycode = code + 8
        let word = Int(code / 64), bit = UInt64(1) << UInt64(code % 64)
        let wasHeld = held[word] & bit != 0
        let keysym = xkb_state_key_get_one_sym(state, keycode)
        guard pressed else {
            guard wasHeld else { return .none }
            held[word] &= ~bit
            _ = xkb_state_update_key(state, keycode, XKB_KEY_UP)
            return KeyTranslation(keysym: keysym, text: "")
        }
        if wasHeld {
            // Auto-repeat: the state saw the press already (a modifier's
            // second press would latch it twice); keys that do not repeat
            // (modifiers) mean nothing.
            guard xkb_keymap_key_repeats(keymap, keycode) != 0 else { return KeyTranslation(keysym: keysym, text: "") }
            return typed(keysym, keycode: keycode)
        }
        let result = typed(keysym, keycode: keycode)
        held[word] |= bit
        _ = xkb_state_update_key(state, keycode, XKB_KEY_DOWN)
        return result
    }

    /// A press's text: through the compose state when there is one
    /// (a dead key or the Compose key starts a sequence, its last key
    /// types the result, a key that fits no sequence cancels it and types
    /// nothing), else the keymap's text for the key.
    private func typed(_ keysym: UInt32, keycode: UInt32) -> KeyTranslation {
        if let composeState {
            // A modifier is IGNORED by the compose state and leaves the
            // status as it was, so a Shift inside a sequence continues it.
            _ = xkb_compose_state_feed(composeState, keysym)
            switch xkb_compose_state_get_status(composeState) {
            case XKB_COMPOSE_COMPOSING:
                return KeyTranslation(keysym: keysym, text: "", isComposing: true)
            case XKB_COMPOSE_COMPOSED:
                let composed = xkb_compose_state_get_one_sym(composeState)
                var text = KeyboardTranslator.string { xkb_compose_state_get_utf8(composeState, $0, $1) }
                if text.isEmpty { text = KeyboardTranslator.string { xkb_keysym_to_utf8(composed, $0, $1) - 1 } }
                xkb_compose_state_reset(composeState)
                return KeyTranslation(keysym: composed == 0 ? keysym : composed, text: text)
            case XKB_COMPOSE_CANCELLED:
                xkb_compose_state_reset(composeState)
                return KeyTranslation(keysym: keysym, text: "")
            default:
                break
            }
        }
        return KeyTranslation(keysym: keysym, text: KeyboardTranslator.string { xkb_state_key_get_utf8(state, keycode, $0, $1) })
    }

    /// Forgets the keys held, the modifiers latched and locked (Caps Lock)
    /// and a compose sequence under way: for when the keyboard's events
    /// stopped coming for a while (the seat suspended on a VT switch).
    public func reset() {
        for k in held.indices { held[k] = 0 }
        if let fresh = xkb_state_new(keymap) {
            xkb_state_unref(state)
            state = fresh
        }
        if let composeState { xkb_compose_state_reset(composeState) }
    }

    // MARK: Modifiers

    /// Shift is in effect (held, or latched by a sticky-keys option).
    public var isShiftActive: Bool { isActive("Shift") }
    /// Caps Lock is on.
    public var isCapsLockActive: Bool { isActive("Lock") }
    public var isControlActive: Bool { isActive("Control") }
    /// Alt (Mod1).
    public var isAltActive: Bool { isActive("Mod1") }
    /// AltGr, the third shift level (ISO_Level3_Shift: Mod5 in the xkb
    /// data's keymaps).
    public var isLevel3Active: Bool { isActive("Mod5") }

    private func isActive(_ modifier: String) -> Bool {
        modifier.withCString { xkb_state_mod_name_is_active(state, $0, XKB_STATE_MODS_EFFECTIVE) } > 0
    }

    // MARK: Pieces

    private static func compileKeymap(_ context: OpaquePointer, layout: String, variant: String, options: String) -> OpaquePointer? {
        // Empty rules and model: the library's defaults (evdev, pc105).
        "".withCString { empty in
            layout.withCString { l in
                variant.withCString { v in
                    options.withCString { o in
                        var names = xkb_rule_names(rules: empty, model: empty, layout: l, variant: v, options: o)
                        return xkb_keymap_new_from_names(context, &names, XKB_KEYMAP_COMPILE_NO_FLAGS)
                    }
                }
            }
        }
    }

    /// "layout 'de' (variant 'nodeadkeys', options 'compose:ralt')".
    static func describe(layout: String, variant: String, options: String) -> String {
        var s = "layout '\(layout)'"
        var extra: [String] = []
        if !variant.isEmpty { extra.append("variant '\(variant)'") }
        if !options.isEmpty { extra.append("options '\(options)'") }
        if !extra.isEmpty { s += " (" + extra.joined(separator: ", ") + ")" }
        return s
    }

    private static func includePaths(_ context: OpaquePointer) -> String {
        var paths: [String] = []
        for k in 0..<xkb_context_num_include_paths(context) {
            if let p = xkb_context_include_path_get(context, k) { paths.append(String(cString: p)) }
        }
        return paths.isEmpty ? "no folder" : paths.joined(separator: ", ")
    }

    /// A string from a libxkbcommon call that writes UTF-8 and a NUL into
    /// a buffer of a given size and returns the length it needed (without
    /// the NUL; 0 or less: nothing). A longer result is asked again with a
    /// buffer big enough.
    static func string(_ fill: (UnsafeMutablePointer<CChar>, Int) -> Int32) -> String {
        var buffer = [CChar](repeating: 0, count: 64)
        var length = Int(buffer.withUnsafeMutableBufferPointer { fill($0.baseAddress!, $0.count) })
        if length >= buffer.count {
            buffer = [CChar](repeating: 0, count: length + 1)
            length = Int(buffer.withUnsafeMutableBufferPointer { fill($0.baseAddress!, $0.count) })
        }
        guard length > 0, length < buffer.count else { return "" }
        var bytes: [UInt8] = []
        bytes.reserveCapacity(length)
        for k in 0..<length { bytes.append(UInt8(bitPattern: buffer[k])) }
        return String(decoding: bytes, as: UTF8.self)
    }
}
