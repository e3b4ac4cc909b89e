import FBRuntime

/// The panel's colours and metrics in one place (points; the screen's size
/// comes from the board, so pages lay out from `Screen.width`/`height`).
enum Theme {
    static let background = Color(rgb: 0x1E1A17)
    static let surface = Color(rgb: 0x2C2622)
    static let surfacePressed = Color(rgb: 0x3A322C)
    static let accent = Color(rgb: 0xC8874A)
    static let accentDone = Color(rgb: 0x5E9E5A)
    static let text = Color.white
    static let secondaryText = Color(rgb: 0xB8ADA3)
    static let off = Color(rgb: 0x5A514A)

    static let margin = 16.0
    static let headerHeight = 56.0
    static let rowHeight = 48.0
    static let titleSize = 24.0
    static let bodySize = 18.0
    static let detailSize = 13.0
    /// How long a page slides in or out, seconds.
    static let pageTransition = 0.35
}
