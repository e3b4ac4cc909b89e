import FBRuntime

/// A vertical list of rows in sections, each section with an optional
/// header, over a `ScrollView` (iOS's table view, LVGL's list). The rows
/// come from closures — the data source — and **only the rows on screen,
/// plus `reuseMargin` points above and below, exist as layers**: a cell
/// that scrolls out goes to a reuse pool (hidden, still a sublayer) and is
/// configured again for the next row that scrolls in. A 10,000-row list
/// has about as many layers as fit on screen, and scrolling it costs what
/// those rows cost: a binary search for the first row on screen, then the
/// rows that came in.
///
/// Geometry: rows fill the list's width; their tops are kept in one array
/// (the running sum of the heights, built by `reloadData()`), in the
/// list's content space, points. `contentSize` is the sum of all heights.
///
/// Data source: every closure gets the list as its first argument, so it
/// need not capture it (no `weak` in Embedded Swift: a closure the list
/// holds that captured the list would be a cycle). Call `reloadData()`
/// after the data changes.
///
/// Also: swipe a row to the left to reveal its `swipeActions` (tap one to
/// run it; a tap elsewhere closes the row), a tap on a row calls
/// `onSelectRow`, and pulling the top down past `refreshThreshold` shows
/// a spinner and calls `onRefresh` until `endRefreshing()`.
/// Recognisers: `attach(to:)`.
///
/// Invariants: `visibleCells` are the cells of the items intersecting the
/// visible offset's window ± `reuseMargin`, in item order, each showing
/// its `indexPath`; cells are made only when the pool is empty, so after
/// the first screenful scrolling allocates no layers.
public final class ListView: ScrollView {
    // MARK: Data source

    /// Number of sections (default 1).
    public var numberOfSections: (ListView) -> Int = { _ in 1 }
    /// Number of rows in a section.
    public var numberOfRows: (ListView, Int) -> Int = { _, _ in 0 }
    /// Height of a row, points (nil: every row is `rowHeight` high).
    public var heightOfRow: ((ListView, ListIndexPath) -> Double)?
    /// Height of a section's header, points (nil: `headerHeight`; 0: no
    /// header).
    public var heightOfHeader: ((ListView, Int) -> Double)?
    /// Shows a row in a cell (called whenever a cell is given a row).
    public var configureCell: (ListView, ListCell, ListIndexPath) -> Void = { _, _, _ in }
    /// Shows a section header in a cell (`indexPath.row` is -1).
    public var configureHeader: (ListView, ListCell, Int) -> Void = { _, _, _ in }
    /// Makes a new cell when the pool is empty (a header cell when the Bool
    /// is true); set up its sublayers here, fill them in `configureCell`.
    public var makeCell: (ListView, Bool) -> ListCell = { _, header in ListCell(header: header) }
    /// The buttons a left swipe on a row reveals (nil or empty: the row does
    /// not swipe).
    public var swipeActions: ((ListView, ListIndexPath) -> [SwipeAction])?
    /// A tap on a row.
    public var onSelectRow: ((ListView, ListIndexPath) -> Void)?

    /// Default row height, points.
    public var rowHeight = 44.0
    /// Default header height, points (0: sections have no header).
    public var headerHeight = 0.0
    /// Points of rows kept above and below the visible window, so a flick's
    /// next rows exist a frame early.
    public var reuseMargin = 44.0

    // MARK: State

    /// The cells showing items now, in item order (rows and headers).
    public private(set) var visibleCells: [ListCell] = []
    var rowPool: [ListCell] = []
    var headerPool: [ListCell] = []
    /// Top of each item (headers and rows in order) and, last, the total
    /// height: `itemTops.count == items + 1`.
    var itemTops: [Double] = [0]
    /// Section of each item, and its row (-1 for a header).
    var itemSections: [Int32] = []
    var itemRows: [Int32] = []
    /// First item of each section (its header or first row).
    var sectionStarts: [Int] = []

    /// Width of one swipe action's button, points (80 by default: a
    /// finger's width on a small panel; scale it with the panel's text).
    public var swipeActionWidth = 80.0
    /// The swipe action buttons' title colour, font (nil:
    /// `TextLayer.defaultFont`) and size (points).
    public var swipeActionTitleColor = Color(red: 1, green: 1, blue: 1)
    public var swipeActionFont: Font?
    public var swipeActionFontSize = 15.0

    /// The row swiped open, its cell, and how far it is open (points).
    var openCell: ListCell?
    var openActions: [SwipeAction] = []
    var swipeReveal = 0.0

    // Pull to refresh.
    /// Called when a pull past `refreshThreshold` is released; call
    /// `endRefreshing()` when done. Nil: no pull to refresh.
    public var onRefresh: ((ListView) -> Void)?
    /// Points the top must be pulled down past its rest to refresh.
    public var refreshThreshold = 70.0
    /// Points of room the spinner keeps at the top while refreshing.
    public var refreshHeight = 56.0
    /// The spinner: dots on a circle, above the content (content space,
    /// y < 0), turning while refreshing.
    public let refreshSpinner = Layer(name: "refresh spinner")
    public var spinnerColor = Color(red: 0.45, green: 0.45, blue: 0.5) {
        didSet { for dot in refreshSpinner.sublayers { dot.backgroundColor = spinnerColor } }
    }
    /// A refresh is under way (between the release and `endRefreshing()`).
    public internal(set) var isRefreshing = false
    /// The pull is past the threshold now (releasing it will refresh).
    public internal(set) var isPulledPastThreshold = false

    public static let spinnerAnimationKey = "spin"

    public override init(name: String = "list") {
        super.init(name: name)
        scrollAxes = .vertical
        alwaysBouncesVertically = true
        visibleCells.reserveCapacity(64)
        rowPool.reserveCapacity(64)
        headerPool.reserveCapacity(16)
        makeSpinner()
    }

    // MARK: Reloading

    /// Reads the data source again: section and row counts and heights
    /// (O(rows), the only O(rows) step; 16 bytes a row), then shows the
    /// rows at the current offset, moved back within the range when the
    /// content got shorter. Cells keep existing; every visible one is
    /// configured again. Bad answers are clamped: negative counts are 0,
    /// a height that is negative or not finite is 0.
    public func reloadData() {
        closeSwipedRow(animated: false)
        let sections = Swift.max(0, numberOfSections(self))
        itemTops.removeAll(keepingCapacity: true)
        itemSections.removeAll(keepingCapacity: true)
        itemRows.removeAll(keepingCapacity: true)
        sectionStarts.removeAll(keepingCapacity: true)
        var y = 0.0
        for s in 0..<sections {
            sectionStarts.append(itemSections.count)
            let header = heightOfHeader?(self, s) ?? headerHeight
            if header > 0 && header.isFinite {
                itemTops.append(y); itemSections.append(Int32(s)); itemRows.append(-1)
                y += header
            }
            let rows = Swift.max(0, numberOfRows(self, s))
            for r in 0..<rows {
                var h = heightOfRow?(self, ListIndexPath(section: s, row: r)) ?? rowHeight
                if !(h.isFinite && h >= 0) { h = 0 }
                itemTops.append(y); itemSections.append(Int32(s)); itemRows.append(Int32(r))
                y += h
            }
        }
        itemTops.append(y)
        for cell in visibleCells { recycle(cell) }   // hidden at once: ListCell.defaultAction
        visibleCells.removeAll(keepingCapacity: true)
        contentSize = Size(width: bounds.width, height: y)
        // Fewer rows than before may leave the offset past the new end: at
        // rest, it moves back within the range.
        if !isTracking && !isDecelerating && !isRefreshing {
            let clamped = clampedOffset(contentOffset)
            if clamped != contentOffset { setModelOffset(clamped); visibleContentOffset = clamped }
        }
        updateVisibleCells(for: visibleContentOffset(at: AppRunLoop.current.now))
    }

    /// Number of items (headers and rows).
    public var itemCount: Int { itemSections.count }

    /// The rectangle of a row in the list's content space, points (nil for
    /// a row that does not exist).
    public func rectForRow(at indexPath: ListIndexPath) -> Rect? {
        guard let item = item(for: indexPath) else { return nil }
        return itemRect(item)
    }

    /// The row at `point` of the list's content space, nil between rows or
    /// on a header.
    public func indexPathForRow(at point: Point) -> ListIndexPath? {
        guard point.isFinite, point.x >= 0, point.x < bounds.width else { return nil }
        let item = firstItem(endingAfter: point.y)
        guard item < itemCount, itemTops[item] <= point.y, itemRows[item] >= 0 else { return nil }
        return ListIndexPath(section: Int(itemSections[item]), row: Int(itemRows[item]))
    }

    /// The cell showing `indexPath`, if it is on screen.
    public func cellForRow(at indexPath: ListIndexPath) -> ListCell? {
        visibleCells.first { !$0.isHeader && $0.indexPath == indexPath }
    }

    /// Scrolls so the row is at the top (clamped to the offset range).
    public func scrollToRow(at indexPath: ListIndexPath, animated: Bool) {
        guard let rect = rectForRow(at: indexPath) else { return }
        scroll(to: Point(x: contentOffset.x, y: rect.minY), animated: animated)
    }

    func item(for indexPath: ListIndexPath) -> Int? {
        guard indexPath.section >= 0, indexPath.section < sectionStarts.count, indexPath.row >= 0 else { return nil }
        var item = sectionStarts[indexPath.section]
        if item < itemCount, itemRows[item] < 0 { item += 1 }
        item += indexPath.row
        guard item < itemCount, Int(itemSections[item]) == indexPath.section else { return nil }
        return item
    }

    func itemRect(_ item: Int) -> Rect {
        Rect(x: 0, y: itemTops[item], width: bounds.width, height: itemTops[item + 1] - itemTops[item])
    }

    /// The first item whose bottom is below `y` (binary search, O(log n)):
    /// `itemCount` when none is.
    func firstItem(endingAfter y: Double) -> Int {
        var lo = 0, hi = itemCount
        while lo < hi {
            let mid = (lo + hi) / 2
            if itemTops[mid + 1] > y { hi = mid } else { lo = mid + 1 }
        }
        return lo
    }

    // MARK: Scrolling

    public override func visibleOffsetDidChange(_ offset: Point) {
        updateVisibleCells(for: offset)
        updatePull(at: offset)
        if isTracking, openCell != nil { closeSwipedRow(animated: true) }
        super.visibleOffsetDidChange(offset)
    }

    /// A release past the pull-to-refresh threshold starts a refresh
    /// (before the release motion is chosen, so it rests with the
    /// spinner's room at the top).
    public override func willEndDrag(at time: MediaTime) {
        super.willEndDrag(at: time)
        if isPulledPastThreshold && !isRefreshing { beginRefreshing(at: time) }
        isPulledPastThreshold = false
    }

    /// A change of the list's size re-flows the rows (their width) and
    /// shows the rows for the new height.
    public override func layoutSublayers() {
        super.layoutSublayers()
        if contentSize.width != bounds.width { contentSize = Size(width: bounds.width, height: contentSize.height) }
        for cell in visibleCells { place(cell) }
        updateVisibleCells(for: visibleContentOffset(at: AppRunLoop.current.now))
    }

    /// Makes `visibleCells` the items intersecting `offset.y − reuseMargin
    /// … offset.y + height + reuseMargin`: cells leaving it go to the pools,
    /// items entering it take a pooled cell (a new one only when the pool
    /// is empty) and are configured. No allocation once the pools hold a
    /// screenful.
    func updateVisibleCells(for offset: Point) {
        guard itemCount > 0 else { return }
        let top = offset.y - reuseMargin, bottom = offset.y + bounds.height + reuseMargin
        let first = firstItem(endingAfter: top)
        var last = firstItem(endingAfter: bottom)
        if last >= itemCount || itemTops[last] >= bottom { last -= 1 }
        // Cells move and hide without implicit animations (their class's
        // default action), so no transaction is opened here: one per frame
        // would allocate.
        guard first <= last, first < itemCount else {
            for cell in visibleCells { recycle(cell) }
            visibleCells.removeAll(keepingCapacity: true)
            return
        }
        while let cell = visibleCells.first, cell.item < first || cell.item > last {
            recycle(cell); visibleCells.removeFirst()
        }
        while let cell = visibleCells.last, cell.item > last || cell.item < first {
            recycle(cell); visibleCells.removeLast()
        }
        if visibleCells.isEmpty {
            for item in first...last { visibleCells.append(dequeue(item)) }
            return
        }
        var head = visibleCells[0].item
        while head > first {
            head -= 1
            visibleCells.insert(dequeue(head), at: 0)
        }
        var tail = visibleCells[visibleCells.count - 1].item
        while tail < last {
            tail += 1
            visibleCells.append(dequeue(tail))
        }
    }

    /// A cell showing `item`: from the pool of its kind or new.
    private func dequeue(_ item: Int) -> ListCell {
        let header = itemRows[item] < 0
        let cell: ListCell
        if let pooled = header ? headerPool.popLast() : rowPool.popLast() {
            cell = pooled
        } else {
            cell = makeCell(self, header)
            try? addContentSublayer(cell)
        }
        cell.item = item
        let section = Int(itemSections[item]), row = Int(itemRows[item])
        cell.indexPath = ListIndexPath(section: section, row: row)
        place(cell)
        if cell.isHidden { cell.isHidden = false }
        if header { configureHeader(self, cell, section) } else { configureCell(self, cell, cell.indexPath) }
        return cell
    }

    /// The cell's frame for its item, and its content's (not slid). Cells
    /// and their content have `anchorPoint` (0, 0), so the frame is
    /// `position` and `bounds.size`, set directly: the `frame` getter goes
    /// through the transform and allocates.
    private func place(_ cell: ListCell) {
        guard cell.item >= 0, cell.item < itemCount else { return }
        let frame = itemRect(cell.item)
        let size = Rect(x: 0, y: 0, width: frame.width, height: frame.height)
        if cell.anchorPoint != .zero { cell.anchorPoint = .zero }
        if cell.position != frame.origin { cell.position = frame.origin }
        if cell.bounds != size { cell.bounds = size }
        let content = cell.contentLayer
        if content.anchorPoint != .zero { content.anchorPoint = .zero }
        if content.position != .zero { content.position = .zero }
        if content.bounds != size { content.bounds = size }
    }

    private func recycle(_ cell: ListCell) {
        if cell === openCell { withoutImplicitAnimations { closeSwipedRow(animated: false) } }
        if !cell.actionButtons.isEmpty { withoutImplicitAnimations { cell.removeActionButtons() } }
        cell.item = -1
        if !cell.isHidden { cell.isHidden = true }
        if cell.isHeader { headerPool.append(cell) } else { rowPool.append(cell) }
    }

    /// Every cell the list made (visible and pooled): its layer count for
    /// rows and headers.
    public var cellCount: Int { visibleCells.count + rowPool.count + headerPool.count }

    // MARK: Recognisers

    /// The scroll pan, plus a swipe recogniser for row actions and a tap
    /// recogniser for selection and the action buttons.
    @discardableResult
    public override func attach(to router: TouchRouter) -> ScrollPanRecognizer {
        let pan = super.attach(to: router)
        router.add(ListSwipeRecognizer(), to: self)
        let tap = TapGestureRecognizer { recognizer in
            guard recognizer.state == .recognized, let list = recognizer.layer as? ListView else { return }
            list.handleTap(at: recognizer.location)
        }
        router.add(tap, to: self)
        return pan
    }
}
