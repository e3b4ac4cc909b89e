/// An in-process pasteboard: what `TextField.copy` and `cut` put and
/// `paste` takes. Nothing leaves the process (there is no system
/// clipboard on a board). `Pasteboard.general` is the app's; tests or a
/// screen that must not share make their own.
///
/// Threading: the app thread, like the controls.
public final class Pasteboard {
    /// The app's pasteboard.
    nonisolated(unsafe) public static let general = Pasteboard()

    /// The copied text; nil when nothing was copied.
    public var string: String?

    public init() {}
}
