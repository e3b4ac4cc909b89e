/// What the on-screen `Keyboard` types into: `TextField` and `TextArea`.
/// The keyboard calls these; subclasses edit their `TextBuffer`.
open class TextInputControl: Control {
    /// The keyboard to show while this control is edited; held strongly
    /// (the keyboard holds the control only while it edits it: no lasting
    /// cycle).
    public var keyboard: Keyboard?

    /// Replaces the selection or inserts at the caret.
    open func insertText(_ string: String) {}
    open func deleteBackward() {}
    /// The return key: a field submits, an area starts a new line.
    open func insertReturn() {}
    /// Hides the caret and lets the keyboard go.
    open func endEditing() {}
}
