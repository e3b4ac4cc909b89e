import FBRuntime

/// What a key of the on-screen `Keyboard` does.
public enum KeyboardKey: Equatable, Sendable {
    /// Inserts its text (the unshifted or shifted label).
    case character(String, shifted: String)
    case shift, backspace, space, enter
    /// Switches to the keyboard's next layout.
    case nextLayout
}

/// One key of a `Keyboard`: a label on a rounded `surface` cap
/// (`surfaceHighlighted` under the finger; shift, backspace, the layout
/// switch and return on `track`, shift on `accent` while on). A tap — the
/// finger lifting within `touchSlop` — presses the key on the keyboard it
/// is in.
public final class KeyCap: Control {
    public let key: KeyboardKey
    public let titleLayer = TextLayer(name: "label")
    /// Drawn as on (the shift key while shift is on).
    public var isLatched = false { didSet { if isLatched != oldValue { updateAppearance() } } }

    init(_ key: KeyboardKey, title: String, theme: Theme) {
        self.key = key
        super.init(name: "key")
        self.theme = theme
        titleLayer.alignmentMode = .center
        try? addSublayer(titleLayer)
        titleLayer.string = title
        applyFonts()
        updateAppearance()
    }

    var title: String {
        get { titleLayer.string }
        set { if titleLayer.string != newValue { titleLayer.string = newValue } }
    }

    public override func layoutSublayers() {
        super.layoutSublayers()
        let b = bounds
        let h = titleLayer.preferredSize.height
        let frame = Rect(x: b.minX, y: b.minY + ((b.height - h) / 2).rounded(), width: b.width, height: h)
        if titleLayer.frame != frame { titleLayer.frame = frame }
        let radius = min(6, theme.metrics.cornerRadius)
        if cornerRadius != radius { cornerRadius = radius }
    }

    public override func endTracking(at point: Point) {
        let tapped = isNear(point)
        super.endTracking(at: point)
        guard tapped else { return }
        var l = superlayer
        while let layer = l {
            if let keyboard = layer as? Keyboard { keyboard.press(key); return }
            l = layer.superlayer
        }
    }

    public override func stateDidChange(from old: State) {
        Transaction.withoutActions { updateAppearance() }
    }

    public override func themeDidChange() {
        applyFonts()
        super.themeDidChange()
    }

    public override func updateAppearance() {
        let c = theme.colors
        let isCharacter: Bool
        switch key {
        case .character, .space: isCharacter = true
        default: isCharacter = false
        }
        let background = state == .highlighted ? c.surfaceHighlighted : isLatched ? c.accent : isCharacter ? c.surface : c.track
        let text = isLatched && state != .highlighted ? c.onAccent : c.text
        if backgroundColor != background { backgroundColor = background }
        if titleLayer.foregroundColor != text { titleLayer.foregroundColor = text }
    }

    private func applyFonts() {
        let font = theme.fonts.regular ?? TextLayer.defaultFont
        if titleLayer.font !== font { titleLayer.font = font }
        if titleLayer.fontSize != theme.fonts.bodySize { titleLayer.fontSize = theme.fonts.bodySize }
    }
}
