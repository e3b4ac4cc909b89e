import Controls
import FBRuntime

// The settings scene's own parts besides the Controls and the widgets
// scene's panel and label: a row of a grouped card that opens another
// screen, and the screen that other row opens.

/// A row of a settings card that opens a screen: its name on the left, the
/// current value (`secondaryText`) and a chevron on the right, laid out by
/// a `StackLayout` row with the theme's `padding` at both ends. The whole row takes the finger: it highlights
/// (`surfaceHighlighted`) while touched and a lift on it calls `onTap`.
/// Sized by its superlayer's stack (its `preferredSize` is the stack's);
/// bounds space, points.
final class SettingsLinkRow: Control {
    let nameLabel: WidgetsLabel
    let valueLabel: WidgetsLabel
    let chevron: WidgetsLabel
    /// A tap: the finger lifted within `touchSlop` of the row.
    var onTap: ((SettingsLinkRow) -> Void)?

    init(_ name: String, value: String, theme: Theme) {
        nameLabel = WidgetsLabel(name, style: .body, theme: theme)
        valueLabel = WidgetsLabel(value, style: .caption, alignment: .right, theme: theme)
        chevron = WidgetsLabel("\u{203A}", style: .caption, alignment: .right, theme: theme)
        super.init(name: "link " + name)
        self.theme = theme
        nameLabel.layoutItem = LayoutItem(grow: 1, shrink: 1, basis: 0)
        let m = theme.metrics
        layoutManager = StackLayout(gap: m.spacing, padding: EdgeInsets(top: 0, left: m.padding, bottom: 0, right: m.padding),
                                    crossAlignment: .center)
        for l in [nameLabel, valueLabel, chevron] { try? addSublayer(l) }
        updateAppearance()
    }

    var value: String {
        get { valueLabel.string }
        set { valueLabel.string = newValue }
    }

    override func endTracking(at point: Point) {
        let tapped = isNear(point)
        super.endTracking(at: point)
        if tapped { onTap?(self) }
    }

    override func updateAppearance() {
        let fill: Color? = isHighlighted ? theme.colors.surfaceHighlighted : nil
        if backgroundColor != fill { backgroundColor = fill }
    }
}

/// The screen a settings row pushes: a caption over a card holding a
/// `PickerWheel` of `items`, centred; the wheel's choice is the setting.
/// Its layer is laid out by a `StackLayout` column in the bounds the
/// navigation stack gives it (the area under the bar, points).
final class SettingsChoiceScreen: NavigationScreen {
    let wheel: PickerWheel
    let card: WidgetsPanel
    let caption: WidgetsLabel

    /// `width`: the screen's, points; the card takes about half of it.
    init(title: String, caption text: String, items: [String], selectedIndex: Int, width: Double, theme: Theme) {
        let m = theme.metrics
        wheel = PickerWheel(items: items, selectedIndex: selectedIndex, theme: theme)
        wheel.rowHeight = (m.controlHeight * 0.8).rounded()
        wheel.visibleRows = 5
        // A roller, not a full-width list: about half the width, the
        // card centred by the page's side padding.
        let cardWidth = Swift.min(width - 2 * m.padding, Swift.max(width * 0.5, 4 * m.controlHeight)).rounded()
        let side = Swift.max(m.padding, ((width - cardWidth) / 2).rounded())
        let page = WidgetsPanel("choice screen", role: .background, theme: theme)
        page.layoutManager = StackLayout(direction: .column, gap: m.spacing,
                                         padding: EdgeInsets(top: m.padding, left: side, bottom: m.padding, right: side),
                                         crossAlignment: .stretch)
        caption = WidgetsLabel(text, style: .caption, alignment: .center, theme: theme)
        card = WidgetsPanel("choice card", role: .card, theme: theme)
        card.layoutManager = StackLayout(direction: .column, padding: EdgeInsets(top: m.spacing, left: m.spacing,
                                                                                bottom: m.spacing, right: m.spacing),
                                         crossAlignment: .stretch)
        try? card.addSublayer(wheel)
        try? page.addSublayer(caption)
        try? page.addSublayer(card)
        super.init(title: title, layer: page)
    }
}
