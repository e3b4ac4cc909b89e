/// What the on-screen `Keyboard` types into: `TextField` and `TextArea`.
/// The keyboard calls these; subclasses edit their `TextBuffer`.
open class TextInputControl: Control {
    /// The keyboard to show while this control is edited; held strongly
    /// (the keyboard holds the control only while it edits it: no lasting
    /// cycle).
    public var keyboard: Keyboard?

    open override var canBecomeFocused: Bool { true }

    /// A character key (or a key's text) inserts it, Backspace deletes backward, Enter is the
    /// return key (a field submits, an area starts a new line).
    open override func handleKey(_ key: ControlKey) -> Bool {
        guard isEnabled else { return false }
        switch key {
        case .character(let c): insertText(String(Character(c)))
        case .text(let s): insertText(s)
        case .backspace: deleteBackward()
        case .enter: insertReturn()
        default: return false
        }
        return true
    }

    /// Replaces the selection or inserts at the caret.
    open func insertText(_ string: String) {}
    open func deleteBackward() {}
    /// The return key: a field submits, an area starts a new line.
    open func insertReturn() {}
    /// Hides the caret and lets the keyboard go.
    open func endEditing() {}
}
