import FBRuntime

/// One screen of a `NavigationStack`: a root layer with the screen's
/// content, the title the stack's top bar shows while it is on top, and an
/// optional button at the bar's trailing end (an "Edit", a "+").
///
/// The stack sizes `layer` to the area under its bar (anchor point at the
/// top-left corner) and puts it in the tree only while it is on screen: a
/// screen under another, or popped, is out of the tree, so it costs nothing
/// to draw and its controls receive no touches. The app attaches the
/// controls of its screens (and `trailingButton`) to its router itself, as
/// for any control.
///
/// Subclass it to keep a screen's state and controls together. A screen
/// holds no reference to its stack (no cycle): it finds the stack through
/// its layer's superlayers when its title or trailing button changes.
open class NavigationScreen {
    /// The screen's content, laid out by the app in its bounds (the stack
    /// sets the bounds; give it a `layoutManager` or a subclass with
    /// `layoutSublayers()` to follow the panel).
    public let layer: Layer

    /// Shown in the stack's top bar while the screen is on top.
    public var title: String {
        didSet { stack?.screenDidChange(self) }
    }

    /// A button at the trailing end of the bar while the screen is on top
    /// (attach it to the router like any control). The stack gives it its
    /// theme.
    public var trailingButton: Button? {
        didSet {
            if let old = oldValue, old !== trailingButton { old.removeFromSuperlayer() }
            stack?.screenDidChange(self)
        }
    }

    public init(title: String, layer: Layer = Layer(name: "screen"), trailingButton: Button? = nil) {
        self.title = title
        self.layer = layer
        self.trailingButton = trailingButton
    }

    // `final`, as ScrollView's internal members: in Embedded Swift an
    // internal non-final member of an open class gets a dead-method stub in
    // every client module that subclasses it (the settings demo's language
    // screen), a duplicate symbol at the aarch64 link.

    /// The stack showing this screen, found through the tree (nil while the
    /// screen is out of it).
    final var stack: NavigationStack? { layer.navigationStack }
}
