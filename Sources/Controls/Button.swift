import FBRuntime

/// A push button: a title, centred, on a rounded background (or none).
///
/// States and colours (from `theme.colors`):
/// - normal: `.filled` on `accent` with `onAccent` text; `.plain` on no
///   background with `accent` text;
/// - highlighted (a finger on it): `accentHighlighted` (filled) or
///   `surfaceHighlighted` (plain), at once;
/// - disabled: `disabled` (filled) with `disabledText`.
///
/// Tap feedback: when the finger lifts the highlight fades out over
/// `theme.metrics.feedbackDuration` (an implicit animation of the
/// background and title colours in a displayed tree). A tap — the finger
/// lifting within `touchSlop` of the button — calls `onTap`.
public final class Button: Control {
    public enum Style: Equatable, Sendable {
        /// A rounded `accent` background.
        case filled
        /// No background; the title in `accent`.
        case plain
    }

    /// The text on the button. Changing it changes `preferredSize`.
    public var title: String {
        get { titleLayer.string }
        set { titleLayer.string = newValue; invalidatePreferredSize(); setNeedsLayout() }
    }

    public var style: Style = .filled { didSet { updateAppearance() } }

    /// Called when the button is tapped, with the button.
    public var onTap: ((Button) -> Void)?

    /// The title's layer (for its font, size or truncation).
    public let titleLayer = TextLayer(name: "title")

    public init(title: String = "", style: Style = .filled, theme: Theme = .light) {
        self.style = style
        super.init(name: "button")
        self.theme = theme
        titleLayer.alignmentMode = .center
        titleLayer.truncationMode = .end
        try? addSublayer(titleLayer)
        titleLayer.string = title
        applyFonts()
        updateAppearance()
    }

    /// The title's width plus `padding` on each side by `controlHeight`,
    /// points.
    public override var preferredSize: Size {
        let text = titleLayer.preferredSize
        return Size(width: (text.width + 2 * theme.metrics.padding).rounded(.up),
                    height: max(theme.metrics.controlHeight, text.height.rounded(.up)))
    }

    public override func layoutSublayers() {
        super.layoutSublayers()
        let b = bounds
        let height = titleLayer.preferredSize.height
        let frame = Rect(x: b.minX + theme.metrics.padding, y: b.minY + ((b.height - height) / 2).rounded(),
                         width: max(0, b.width - 2 * theme.metrics.padding), height: height)
        if titleLayer.frame != frame { titleLayer.frame = frame }
        if cornerRadius != theme.metrics.cornerRadius { cornerRadius = theme.metrics.cornerRadius }
    }

    public override func endTracking(at point: Point) {
        let tapped = isNear(point)
        super.endTracking(at: point)
        if tapped { onTap?(self) }
    }

    public override var canBecomeFocused: Bool { true }

    /// Enter taps the button, with the tap feedback's fade.
    public override func handleKey(_ key: ControlKey) -> Bool {
        guard key == .enter, isEnabled else { return false }
        isHighlighted = true
        isHighlighted = false
        onTap?(self)
        return true
    }

    public override func stateDidChange(from old: State) {
        if old == .highlighted && state == .normal {
            // The tap feedback: the highlight fades out.
            Transaction.begin()
            Transaction.animationDuration = theme.metrics.feedbackDuration
            Transaction.animationTimingFunction = .easeOut
            updateAppearance()
            Transaction.commit()
        } else {
            // Pressing shows at once, as does enabling or disabling.
            Transaction.withoutActions { updateAppearance() }
        }
    }

    public override func themeDidChange() {
        applyFonts()
        super.themeDidChange()
    }

    public override func updateAppearance() {
        let c = theme.colors
        let background: Color, text: Color
        switch (style, state) {
        case (.filled, .normal): background = c.accent; text = c.onAccent
        case (.filled, .highlighted): background = c.accentHighlighted; text = c.onAccent
        case (.filled, .disabled): background = c.disabled; text = c.disabledText
        case (.plain, .normal): background = .clear; text = c.accent
        case (.plain, .highlighted): background = c.surfaceHighlighted; text = c.accentHighlighted
        case (.plain, .disabled): background = .clear; text = c.disabledText
        }
        if backgroundColor != background { backgroundColor = background }
        if titleLayer.foregroundColor != text { titleLayer.foregroundColor = text }
    }

    private func applyFonts() {
        let font = theme.fonts.bold ?? theme.fonts.regular ?? TextLayer.defaultFont
        if titleLayer.font !== font { titleLayer.font = font }
        if titleLayer.fontSize != theme.fonts.bodySize { titleLayer.fontSize = theme.fonts.bodySize }
    }
}
