import Controls
import FBRuntime
import Raster

/// A list of 10,000 rows made of the Controls module only: an appliance's
/// event log, 100 entries a day in 100 sections (a header per day), in a
/// `ListView` under a header bar (title, entry count and a "Top" button).
///
/// - **Cell reuse**: only the rows on screen (and the list's `reuseMargin`)
///   exist as layers, whatever the count; a fling costs what the visible
///   rows cost.
/// - **Fling**: the list's momentum, rubber band and bounce; "Top"
///   scrolls back to the first row (animated, from wherever the list is).
/// - **Swipe actions**: a row swiped left shows Flag (the entry's text in
///   `accent`) and Delete (the entry leaves the log).
/// - **Selection**: a tap on a row selects it (`surfaceHighlighted`) and
///   the header shows its number and time.
///
/// **Layout.** The root, the header and the rows are `StackLayout`s and
/// every length comes from one `Theme` scaled to the panel (as the widgets
/// scene's, `WidgetsScene.scale(width:height:)`), so one tree fits any
/// panel from 480×272 to 1920×1080 points.
///
/// **At rest** (as built) the first rows show, light, with nothing
/// selected or flagged. No animations of its own.
public final class ListScene: DemoScene {
    public var root: Layer { background }
    private let background: WidgetsPanel
    public let scale: Double
    public let theme: Theme
    public let list: ListView
    public let topButton: Button
    let countLabel: WidgetsLabel

    /// The entries left in each day (section), by number; Delete removes
    /// one.
    public private(set) var sections: [[Int32]]
    /// Flagged entries, by number.
    private var flagged: [Bool]
    /// The selected entry's number.
    public private(set) var selected: Int?

    /// Entries in the log now.
    public var entryCount: Int {
        var n = 0
        for s in sections { n += s.count }
        return n
    }

    public func isFlagged(_ number: Int) -> Bool { flagged.indices.contains(number) && flagged[number] }

    /// The entry's number at `indexPath`, if it exists.
    public func entry(at indexPath: ListIndexPath) -> Int? {
        guard sections.indices.contains(indexPath.section), sections[indexPath.section].indices.contains(indexPath.row) else { return nil }
        return Int(sections[indexPath.section][indexPath.row])
    }

    public init(width: Double, height: Double) {
        scale = WidgetsScene.scale(width: width, height: height)
        let t = WidgetsScene.demoThemes(scale: scale).light
        theme = t
        let m = t.metrics

        var days: [[Int32]] = []
        days.reserveCapacity(EventLog.days)
        for d in 0..<EventLog.days {
            var day: [Int32] = []
            day.reserveCapacity(EventLog.perDay)
            for k in 0..<EventLog.perDay { day.append(Int32(d * EventLog.perDay + k)) }
            days.append(day)
        }
        sections = days
        flagged = [Bool](repeating: false, count: EventLog.count)

        background = WidgetsPanel("root", role: .background, theme: t)
        background.bounds = Rect(x: 0, y: 0, width: width, height: height)
        background.position = Point(x: width / 2, y: height / 2)
        background.layoutManager = StackLayout(direction: .column, crossAlignment: .stretch)

        let header = WidgetsPanel("header", role: .header, theme: t)
        header.layoutManager = StackLayout(gap: m.spacing, padding: EdgeInsets(top: 0, left: m.padding, bottom: 0, right: m.spacing),
                                           crossAlignment: .center)
        header.layoutItem = LayoutItem(basis: m.controlHeight)
        let title = WidgetsLabel("Event log", style: .title, theme: t)
        title.layoutItem = LayoutItem(grow: 1, shrink: 1, basis: 0)
        countLabel = WidgetsLabel("", style: .caption, alignment: .right, theme: t)
        topButton = Button(title: "Top", style: .plain, theme: t)
        for l in [title, countLabel, topButton] as [Layer] { try? header.addSublayer(l) }
        let line = WidgetsPanel("separator", role: .separator, theme: t)
        line.layoutItem = LayoutItem(basis: 1)

        list = ListView(name: "event list")
        list.layoutItem = LayoutItem(grow: 1, basis: 0)
        list.rowHeight = m.controlHeight
        list.headerHeight = (m.controlHeight * 0.6).rounded()
        list.reuseMargin = m.controlHeight
        list.indicatorColor = t.colors.secondaryText
        list.swipeActionWidth = (80 * scale).rounded()
        list.swipeActionFont = t.fonts.regular
        list.swipeActionFontSize = t.fonts.bodySize
        for l in [header, line, list] as [Layer] { try? background.addSublayer(l) }

        list.numberOfSections = { [unowned(unsafe) self] _ in self.sections.count }
        list.numberOfRows = { [unowned(unsafe) self] _, s in self.sections[s].count }
        list.makeCell = { [unowned(unsafe) self] _, header in
            let cell = ListCell(header: header)
            cell.contentLayer.layoutManager = PageStackLayout()
            let view: Layer = header ? EventHeaderView(theme: self.theme) : EventRowView(theme: self.theme, scale: self.scale)
            try? cell.contentLayer.addSublayer(view)
            return cell
        }
        list.configureHeader = { _, cell, section in
            (cell.contentLayer.sublayers.first as? EventHeaderView)?.label.string = EventLog.dayTitle(section)
        }
        list.configureCell = { [unowned(unsafe) self] _, cell, indexPath in self.configure(cell, at: indexPath) }
        list.swipeActions = { [unowned(unsafe) self] _, indexPath in
            let flagTitle = self.entry(at: indexPath).map { self.isFlagged($0) } == true ? "Unflag" : "Flag"
            return [SwipeAction(title: flagTitle, color: self.theme.colors.accent) { [unowned(unsafe) self] _, ip in self.toggleFlag(at: ip) },
                    SwipeAction(title: "Delete", color: Color(rgb: 0xE5483B)) { [unowned(unsafe) self] _, ip in self.delete(at: ip) }]
        }
        list.onSelectRow = { [unowned(unsafe) self] _, indexPath in self.select(at: indexPath) }
        topButton.onTap = { [unowned(unsafe) self] _ in self.scrollToTop() }

        updateCount()
        // Laid out and filled now, so the first frame shows the rows in
        // place and nothing moves when it is first displayed.
        Transaction.withoutActions {
            background.layoutIfNeeded()
            list.reloadData()
            background.layoutIfNeeded()
        }
    }

    private func configure(_ cell: ListCell, at indexPath: ListIndexPath) {
        guard let view = cell.contentLayer.sublayers.first as? EventRowView, let number = entry(at: indexPath) else { return }
        view.show(number, flagged: isFlagged(number), selected: number == selected)
    }

    /// Shows every visible row again (after a selection or a flag).
    private func reconfigureVisibleRows() {
        for cell in list.visibleCells where !cell.isHeader { configure(cell, at: cell.indexPath) }
    }

    private func updateCount() {
        if let selected {
            countLabel.string = EventLog.numberText(selected) + " · " + EventLog.time(of: selected)
        } else {
            countLabel.string = EventLog.countText(entryCount) + " entries"
        }
    }

    /// The centre of the row at `indexPath` in the root's space (the
    /// display's, points) at the list's model offset; nil for no row.
    public func rowCentre(_ indexPath: ListIndexPath) -> Point? {
        guard let r = list.rectForRow(at: indexPath) else { return nil }
        return list.convert(Point(x: r.minX + r.width / 2, y: r.minY + r.height / 2), to: root)
    }

    // MARK: Interaction

    /// Selects the row (a tap's handler): it is highlighted and the header
    /// shows its number and time.
    public func select(at indexPath: ListIndexPath) {
        guard let number = entry(at: indexPath) else { return }
        selected = number
        reconfigureVisibleRows()
        updateCount()
    }

    /// Flags or unflags the row (its swipe action).
    public func toggleFlag(at indexPath: ListIndexPath) {
        guard let number = entry(at: indexPath) else { return }
        flagged[number].toggle()
        reconfigureVisibleRows()
    }

    /// Takes the row's entry out of the log (its swipe action).
    public func delete(at indexPath: ListIndexPath) {
        guard let number = entry(at: indexPath) else { return }
        sections[indexPath.section].remove(at: indexPath.row)
        if selected == number { selected = nil }
        list.reloadData()
        updateCount()
    }

    /// Back to the first row, animated from where the list is on screen
    /// ("Top").
    public func scrollToTop() {
        list.scroll(to: Point(x: 0, y: list.minimumContentOffset.y), animated: true)
    }

    public func installGestures(in router: TouchRouter) -> Bool {
        list.attach(to: router)
        topButton.attach(to: router)
        return true
    }

    public func startAnimations(at time: MediaTime) {}
}
