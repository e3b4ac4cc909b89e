import Controls
import FBRuntime

// The list scene's cells and its data: an appliance's event log of
// 10,000 entries, 100 a day, as deterministic functions of the entry's
// number (no storage per entry but a flag).

/// What a list cell shows for one log entry: its time, what happened
/// (in `accent` when flagged) and its number, side by side (a
/// `StackLayout` row with the theme's `padding` at both ends), over a
/// `separator` hairline along the foot. `surface` behind it,
/// `surfaceHighlighted` when selected. Filled in by `show(_:flagged:
/// selected:)`; sized by the cell (the cell's content lays it out with
/// `PageStackLayout`), bounds space, points. Not interactive: the list's
/// recognisers take the touches.
final class EventRowView: Control {
    let timeLabel: WidgetsLabel
    let titleLabel: WidgetsLabel
    let numberLabel: WidgetsLabel
    let separator: WidgetsPanel
    private(set) var isSelected = false

    init(theme: Theme, scale: Double) {
        timeLabel = WidgetsLabel("00:00", style: .caption, theme: theme)
        titleLabel = WidgetsLabel("", style: .body, theme: theme)
        numberLabel = WidgetsLabel("#00000", style: .caption, alignment: .right, theme: theme)
        separator = WidgetsPanel("separator", role: .separator, theme: theme)
        super.init(name: "event row")
        self.theme = theme
        let m = theme.metrics
        timeLabel.layoutItem = LayoutItem(basis: (48 * scale).rounded())
        titleLabel.layoutItem = LayoutItem(grow: 1, shrink: 1, basis: 0)
        numberLabel.layoutItem = LayoutItem(basis: (64 * scale).rounded())
        separator.layoutItem = LayoutItem(isIgnored: true)
        layoutManager = StackLayout(gap: m.spacing, padding: EdgeInsets(top: 0, left: m.padding, bottom: 0, right: m.padding),
                                    crossAlignment: .stretch)
        for l in [timeLabel, titleLabel, numberLabel, separator] as [Layer] { try? addSublayer(l) }
        updateAppearance()
    }

    override func beginTracking(at point: Point) -> Bool { false }

    /// Shows entry `number` of the log.
    func show(_ number: Int, flagged: Bool, selected: Bool) {
        timeLabel.string = EventLog.time(of: number)
        titleLabel.string = EventLog.title(of: number)
        numberLabel.string = EventLog.numberText(number)
        titleLabel.style = flagged ? .value : .body
        if selected != isSelected {
            isSelected = selected
            updateAppearance()
        }
    }

    override func layoutSublayers() {
        super.layoutSublayers()
        let b = bounds, inset = theme.metrics.padding
        let line = Rect(x: b.minX + inset, y: b.maxY - 1, width: Swift.max(0, b.width - inset), height: 1)
        if separator.frame != line { separator.frame = line }
    }

    override func updateAppearance() {
        let fill = isSelected ? theme.colors.surfaceHighlighted : theme.colors.surface
        if backgroundColor != fill { backgroundColor = fill }
    }
}

/// A section header of the log: the day, in `secondaryText` on the
/// screen's `background`, the theme's `padding` from the left edge.
final class EventHeaderView: Control {
    let label: WidgetsLabel

    init(theme: Theme) {
        label = WidgetsLabel("", style: .caption, theme: theme)
        super.init(name: "event header")
        self.theme = theme
        let m = theme.metrics
        label.layoutItem = LayoutItem(grow: 1, shrink: 1, basis: 0)
        layoutManager = StackLayout(padding: EdgeInsets(top: 0, left: m.padding, bottom: 0, right: m.padding), crossAlignment: .stretch)
        try? addSublayer(label)
        updateAppearance()
    }

    override func beginTracking(at point: Point) -> Bool { false }

    override func updateAppearance() {
        if backgroundColor != theme.colors.background { backgroundColor = theme.colors.background }
    }
}

/// The log's entries as functions of their number (0-based, oldest
/// first): 100 a day from Monday 1 June 2026, every 9 minutes from 06:00.
/// Text only, without Foundation (no date formatting, no `String(format:)`).
enum EventLog {
    static let count = 10_000
    static let perDay = 100
    static var days: Int { count / perDay }

    static let events = [
        "Cotton 40 °C finished", "Eco 40-60 started", "Quick 15 min finished", "Wool 20 °C finished",
        "Synthetics 30 °C started", "Rinse and spin finished", "Door opened", "Detergent low",
        "Filter cleaned", "Drum clean finished", "Delay start set", "Water supply checked", "Spin paused",
    ]
    static let weekdays = ["Monday", "Tuesday", "Wednesday", "Thursday", "Friday", "Saturday", "Sunday"]
    /// June to December 2026: names and lengths (the log spans 100 days).
    static let months: [(String, Int)] = [("June", 30), ("July", 31), ("August", 31), ("September", 30),
                                          ("October", 31), ("November", 30), ("December", 31)]

    /// "14:05": the entry's time of day.
    static func time(of number: Int) -> String {
        let minutes = 6 * 60 + (number % perDay) * 9
        return twoDigits(minutes / 60 % 24) + ":" + twoDigits(minutes % 60)
    }

    /// What happened: one of `events`, spread so neighbours differ.
    static func title(of number: Int) -> String {
        events[(number &* 7 &+ number / 3) % events.count]
    }

    /// "#04217": the entry's number, from 1, five digits.
    static func numberText(_ number: Int) -> String {
        var digits = String(number + 1)
        while digits.count < 5 { digits = "0" + digits }
        return "#" + digits
    }

    /// "Monday 1 June": day `day` of the log.
    static func dayTitle(_ day: Int) -> String {
        var d = Swift.max(0, day)
        let weekday = weekdays[d % 7]
        for (name, length) in months {
            if d < length { return weekday + " \(d + 1) " + name }
            d -= length
        }
        return weekday
    }

    /// "10,000": a count with thousands separators.
    static func countText(_ n: Int) -> String {
        if n < 1000 { return String(n) }
        let rest = n % 1000
        let tail = rest < 10 ? "00\(rest)" : rest < 100 ? "0\(rest)" : "\(rest)"
        return countText(n / 1000) + "," + tail
    }

    private static func twoDigits(_ n: Int) -> String { n < 10 ? "0\(n)" : "\(n)" }
}
