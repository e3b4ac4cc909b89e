import FBRuntime

/// A roller wheel (LVGL's roller, UIKit's picker): a vertical column of
/// rows that scrolls under a fixed selection band in the middle; the row
/// that comes to rest in the band is selected.
///
/// Touch:
/// - a drag scrolls the rows with the finger (resisting at a third of the
///   finger's speed past the first and last row);
/// - lifting **flings** it: from the finger's speed over its last 0.1 s
///   the wheel coasts with a constant deceleration (`deceleration`,
///   points/s²), its end moved to the nearest row so it stops on one, and
///   it starts at the finger's speed (a quadratic ease-out: the timing
///   curve (1/3, 2/3, 2/3, 1) is exactly x = 2t − t²);
/// - a tap on a row above or below the band scrolls that row into it;
/// - a finger landing on a coasting wheel stops it where it is on screen
///   (its presentation value) and drags from there; lifted without a drag,
///   the wheel settles on the nearest row.
///
/// `selectedIndex` becomes the row the wheel will stop at when the finger
/// lifts, and `onValueChanged` is called then if it changed. Rows are one
/// `TextLayer` each, made when `items` is set (a roller holds tens of
/// rows, not thousands).
///
/// Geometry, points: row `i`'s centre is `i × rowHeight` below the first
/// row's; `offset` is how far the wheel is scrolled, `selectedIndex ×
/// rowHeight` at rest. Colours: band `surface` with `separator` lines,
/// the selected row's text `text`, others `secondaryText`. Disabled: 45 %
/// opacity.
public final class PickerWheel: Control {
    /// The rows' titles, top to bottom. Setting them rebuilds the rows and
    /// clamps the selection.
    public var items: [String] {
        didSet { rebuildRows() }
    }

    /// The selected row (0 when there are no items). Setting it scrolls the
    /// wheel there in the current transaction (an implicit animation in a
    /// displayed tree); calls no handler.
    public var selectedIndex: Int {
        get { storedIndex }
        set {
            let i = clampedIndex(newValue)
            storedIndex = i
            scroll(to: Double(i) * rowHeight)
            updateAppearance()
        }
    }
    private var storedIndex = 0

    /// Height of a row, points, ≥ 1 (smaller or NaN values become 1).
    public var rowHeight: Double = 36 {
        didSet {
            if !(rowHeight >= 1) { rowHeight = 1 }
            if rowHeight == .infinity { rowHeight = LayoutLimits.maximumCoordinate }
            offset = Double(storedIndex) * rowHeight
            setNeedsLayout()
            invalidatePreferredSize()
        }
    }
    /// Rows shown (the band's and as many above and below), for
    /// `preferredSize`.
    public var visibleRows = 5 { didSet { invalidatePreferredSize() } }
    /// How fast a flung wheel slows down, points/s².
    public var deceleration = 1500.0
    /// The longest coast after a fling, seconds.
    public static let maximumCoastDuration = 2.5

    /// Called with the wheel when a touch changed `selectedIndex` (at the
    /// lift, with the row it will stop at).
    public var onValueChanged: ((PickerWheel) -> Void)?

    /// Holds the rows; moved up and down to scroll.
    public let contentLayer = Layer(name: "rows")
    public let bandLayer = Layer(name: "band")
    /// One per item, in `contentLayer`.
    public private(set) var rowLayers: [TextLayer] = []

    /// How far the wheel is scrolled in the model, points: 0 shows the
    /// first row in the band.
    public private(set) var offset = 0.0

    private var dragStartOffset = 0.0
    private var dragStartY = 0.0
    private var dragStartPoint = Point.zero
    private var isDragging = false
    /// The finger landed on a coasting wheel: lifting without a drag
    /// settles it on the nearest row rather than selecting the tapped one.
    private var caughtMoving = false
    /// The finger's recent (time, y) samples for its speed at the lift: a
    /// ring allocated once.
    private var sampleTimes = [Double](repeating: 0, count: 8)
    private var sampleYs = [Double](repeating: 0, count: 8)
    private var sampleCount = 0
    private var sampleNext = 0

    /// A drag rather than a tap once the finger moved this far, points.
    public static let tapSlop = 10.0

    public init(items: [String], selectedIndex: Int = 0, theme: Theme = .light) {
        self.items = items
        super.init(name: "picker wheel")
        self.theme = theme
        masksToBounds = true
        try? addSublayer(bandLayer)
        try? addSublayer(contentLayer)
        rebuildRows()
        bounds = Rect(origin: .zero, size: preferredSize)
        storedIndex = clampedIndex(selectedIndex)
        offset = Double(storedIndex) * rowHeight
        placeParts()
        updateAppearance()
    }

    /// Sets `selectedIndex`, scrolling over `theme.metrics.animationDuration`
    /// when `animated` (in a displayed tree), at once otherwise.
    public func setSelectedIndex(_ index: Int, animated: Bool) {
        changeInTransaction(animated: animated) {
            selectedIndex = index
        }
    }

    /// 160 points wide by `visibleRows × rowHeight`.
    public override var preferredSize: Size {
        Size(width: 160, height: Double(max(visibleRows, 1)) * rowHeight)
    }

    public override func layoutSublayers() {
        super.layoutSublayers()
        placeParts()
    }

    public override func themeDidChange() {
        applyFonts()
        super.themeDidChange()
    }

    // MARK: Tracking

    public override func beginTracking(at point: Point) -> Bool {
        // Catch a coasting wheel where it is on screen.
        caughtMoving = false
        if contentLayer.animation(forKey: "position") != nil {
            if case let .point(p)? = contentLayer.presentationValue(for: .position, at: trackingTime), contentTop - p.y != offset {
                caughtMoving = true
                contentLayer.removeAnimation(forKey: "position")
                Transaction.withoutActions { offset = contentTop - p.y; placeContent() }
            }
        }
        dragStartOffset = offset
        dragStartY = point.y
        dragStartPoint = point
        isDragging = false
        sampleCount = 0
        sampleNext = 0
        addSample(point.y)
        return super.beginTracking(at: point)
    }

    public override func continueTracking(at point: Point) {
        super.continueTracking(at: point)
        isHighlighted = true
        if !isDragging && abs(point.y - dragStartPoint.y) + abs(point.x - dragStartPoint.x) > Self.tapSlop { isDragging = true }
        addSample(point.y)
        guard isDragging else { return }
        var o = dragStartOffset - (point.y - dragStartY)
        let top = 0.0, bottom = maxOffset
        if o < top { o = top + (o - top) / 3 }
        if o > bottom { o = bottom + (o - bottom) / 3 }
        Transaction.withoutActions { offset = o; placeContent() }
    }

    public override func endTracking(at point: Point) {
        super.endTracking(at: point)
        let old = storedIndex
        let target: Int
        if !isDragging && !caughtMoving {
            // A tap: the row under the finger.
            target = nearestIndex(toOffset: point.y - bandCenterY + offset)
            storedIndex = target
            setSelectedIndexScrolling(target, duration: theme.metrics.animationDuration, timing: .easeOut)
        } else {
            fling(speed: -fingerSpeed())
        }
        isDragging = false
        updateAppearance()
        if storedIndex != old { onValueChanged?(self) }
    }

    public override func cancelTracking() {
        isDragging = false
        super.cancelTracking()
        setSelectedIndexScrolling(storedIndex, duration: theme.metrics.animationDuration, timing: .easeOut)
    }

    // MARK: Look

    public override var canBecomeFocused: Bool { true }

    /// Up and Down scroll to the row above or below (animated) and call
    /// `onValueChanged`; at the first or last row they are not used, so the
    /// focus moves on.
    public override func handleKey(_ key: ControlKey) -> Bool {
        guard key == .up || key == .down, isEnabled, !isTracking else { return false }
        let next = selectedIndex + (key == .down ? 1 : -1)
        guard next >= 0, next < items.count else { return false }
        setSelectedIndex(next, animated: true)
        onValueChanged?(self)
        return true
    }

    public override func updateAppearance() {
        let c = theme.colors
        if bandLayer.backgroundColor != c.surface { bandLayer.backgroundColor = c.surface }
        if bandLayer.borderColor != c.separator { bandLayer.borderColor = c.separator }
        if backgroundColor != c.background { backgroundColor = c.background }
        var i = 0
        for row in rowLayers {
            let color = i == storedIndex ? c.text : c.secondaryText
            if row.foregroundColor != color { row.foregroundColor = color }
            i += 1
        }
        let alpha = isEnabled ? 1.0 : 0.45
        if opacity != alpha { opacity = alpha }
    }

    // MARK: Motion

    /// The wheel coasts from `offset` at `speed` (points/s of offset) and
    /// stops on the row nearest to where constant deceleration would stop
    /// it; `selectedIndex` becomes that row.
    private func fling(speed v: Double) {
        let a = max(deceleration, 1)
        let projected = offset + v * abs(v) / (2 * a)
        let target = nearestIndex(toOffset: projected)
        storedIndex = target
        let distance = Double(target) * rowHeight - offset
        // Coasting at the finger's speed needs the target ahead in the
        // direction of travel; otherwise (a slow lift, a snap back from past
        // an end) ease to the row.
        if distance * v > 0 {
            let duration = min(2 * abs(distance) / abs(v), Self.maximumCoastDuration)
            setSelectedIndexScrolling(target, duration: max(duration, 0.05), timing: TimingFunction(1.0 / 3, 2.0 / 3, 2.0 / 3, 1))
        } else {
            setSelectedIndexScrolling(target, duration: theme.metrics.animationDuration, timing: .easeOut)
        }
    }

    private func setSelectedIndexScrolling(_ index: Int, duration: Double, timing: TimingFunction) {
        Transaction.begin()
        Transaction.animationDuration = duration
        Transaction.animationTimingFunction = timing
        scroll(to: Double(index) * rowHeight)
        Transaction.commit()
    }

    private func scroll(to newOffset: Double) {
        offset = newOffset
        placeContent()
    }

    /// The finger's speed along y over its last 0.1 s, points/s (0 when
    /// it rested longer than that before lifting).
    private func fingerSpeed() -> Double {
        guard sampleCount >= 2 else { return 0 }
        let newest = (sampleNext + 7) & 7
        let t1 = sampleTimes[newest]
        var oldest = newest
        for k in 1..<sampleCount {
            let i = (newest - k + 8) & 7
            if t1 - sampleTimes[i] > 0.1 { break }
            oldest = i
        }
        let dt = t1 - sampleTimes[oldest]
        guard dt > 0, trackingTime - t1 < 0.1 else { return 0 }
        return (sampleYs[newest] - sampleYs[oldest]) / dt
    }

    private func addSample(_ y: Double) {
        if sampleCount > 0 {
            let newest = (sampleNext + 7) & 7
            if sampleTimes[newest] == trackingTime { sampleYs[newest] = y; return }
        }
        sampleTimes[sampleNext] = trackingTime
        sampleYs[sampleNext] = y
        sampleNext = (sampleNext + 1) & 7
        sampleCount = min(sampleCount + 1, 8)
    }

    // MARK: Parts

    private var maxOffset: Double { Double(max(items.count - 1, 0)) * rowHeight }
    private var bandCenterY: Double { (bounds.minY + bounds.maxY) / 2 }
    /// The content layer's top edge (superlayer y) when `offset` is 0.
    private var contentTop: Double { bandCenterY - rowHeight / 2 }

    private func clampedIndex(_ i: Int) -> Int { min(max(i, 0), max(items.count - 1, 0)) }

    /// The row whose rest offset is nearest to `offset`, clamped to the
    /// rows (as a Double first: Int(_:) traps beyond its range; a NaN
    /// counts as the first row).
    private func nearestIndex(toOffset offset: Double) -> Int {
        let row = (offset / rowHeight).rounded()
        guard !row.isNaN else { return 0 }
        return Int(min(max(row, 0), Double(max(items.count - 1, 0))))
    }

    private func rebuildRows() {
        for row in rowLayers { row.removeFromSuperlayer() }
        rowLayers.removeAll()
        for item in items {
            let row = TextLayer(name: "row")
            row.string = item
            row.alignmentMode = .center
            row.truncationMode = .end
            rowLayers.append(row)
            try? contentLayer.addSublayer(row)
        }
        applyFonts()
        storedIndex = clampedIndex(storedIndex)
        offset = Double(storedIndex) * rowHeight
        setNeedsLayout()
        updateAppearance()
    }

    private func applyFonts() {
        let font = theme.fonts.regular ?? TextLayer.defaultFont
        for row in rowLayers {
            if row.font !== font { row.font = font }
            if row.fontSize != theme.fonts.bodySize { row.fontSize = theme.fonts.bodySize }
        }
    }

    /// The content layer for `offset`: anchored at its top-left, at
    /// `contentTop − offset`.
    private func placeContent() {
        let p = Point(x: bounds.minX, y: contentTop - offset)
        if contentLayer.position != p { contentLayer.position = p }
    }

    private func placeParts() {
        let b = bounds
        let band = Rect(x: b.minX, y: bandCenterY - rowHeight / 2, width: b.width, height: rowHeight)
        if bandLayer.frame != band { bandLayer.frame = band }
        if bandLayer.borderWidth != 1 { bandLayer.borderWidth = 1 }
        if contentLayer.anchorPoint != .zero { contentLayer.anchorPoint = .zero }
        let content = Rect(x: 0, y: 0, width: b.width, height: Double(items.count) * rowHeight)
        if contentLayer.bounds != content { contentLayer.bounds = content }
        var i = 0
        for row in rowLayers {
            let height = row.preferredSize.height
            let f = Rect(x: 8, y: Double(i) * rowHeight + ((rowHeight - height) / 2).rounded(),
                         width: max(0, b.width - 16), height: height)
            if row.frame != f { row.frame = f }
            i += 1
        }
        if !isTracking { placeContent() }
    }
}
