import FBRuntime

/// A row of equal tabs with titles, the selected one highlighted: its title
/// in `accent` under an `accent` indicator line along the bar's top edge;
/// the others in `secondaryText`, on `surface` with a `separator` line.
///
/// A finger that lands on a tab and lifts on the same tab (within
/// `touchSlop` above or below the bar) selects it: the
/// indicator slides there (an implicit animation of its `position` over
/// `animationDuration`) and a change calls `onValueChanged`. Setting
/// `selectedIndex` from code calls nothing. `TabView` puts one under its
/// pages. `preferredSize`: as many tabs as titles, each as wide as the widest
/// title plus `padding` on both sides, by `controlHeight`.
public final class TabBar: Control {
    /// The tabs' titles. Setting it rebuilds the title layers and keeps the
    /// selection if it is still in range (else the first tab, if any).
    public var titles: [String] {
        didSet { rebuildTitles() }
    }

    /// The selected tab, nil when there are no tabs.
    public var selectedIndex: Int? {
        didSet {
            if let i = selectedIndex, !titles.indices.contains(i) { selectedIndex = titles.isEmpty ? nil : 0 }
            if selectedIndex != oldValue { setNeedsLayout(); updateAppearance() }
        }
    }

    /// Called when a tap selected another tab, with the bar.
    public var onValueChanged: ((TabBar) -> Void)?

    /// One title layer per tab, in order.
    public private(set) var titleLayers: [TextLayer] = []
    /// The `accent` line over the selected tab.
    public let indicatorLayer = Layer(name: "tab indicator")
    private let separatorLayer = Layer(name: "tab separator")
    /// The tab the finger landed on while it is down.
    public private(set) var pressedIndex: Int?

    /// Height of the indicator line, points.
    public var indicatorHeight = 3.0

    public init(titles: [String], selectedIndex: Int? = 0, theme: Theme = .light) {
        self.titles = titles
        super.init(name: "tab bar")
        self.theme = theme
        separatorLayer.anchorPoint = .zero
        indicatorLayer.anchorPoint = .zero
        try? addSublayer(separatorLayer)
        try? addSublayer(indicatorLayer)
        rebuildTitles()
        self.selectedIndex = titles.isEmpty ? nil : selectedIndex
        updateAppearance()
    }

    /// The tab under `x` (bounds space, points), nil outside the bar's width.
    public func index(atX x: Double) -> Int? {
        let b = bounds
        guard !titles.isEmpty, b.width > 0, x >= b.minX, x < b.maxX else { return nil }
        return min(titles.count - 1, Int((x - b.minX) / (b.width / Double(titles.count))))
    }

    /// The frame of tab `index` in bounds space, points.
    public func tabFrame(_ index: Int) -> Rect {
        let b = bounds
        let w = b.width / Double(max(1, titles.count))
        return Rect(x: b.minX + w * Double(index), y: b.minY, width: w, height: b.height)
    }

    public override var preferredSize: Size {
        var widest = 0.0
        for layer in titleLayers { widest = max(widest, layer.preferredSize.width) }
        let each = (widest + 2 * theme.metrics.padding).rounded(.up)
        return Size(width: each * Double(max(1, titles.count)), height: theme.metrics.controlHeight)
    }

    public override func layoutSublayers() {
        super.layoutSublayers()
        let b = bounds
        let separator = Rect(x: b.minX, y: b.minY, width: b.width, height: 1)
        if separatorLayer.frame != separator { separatorLayer.frame = separator }
        for (i, layer) in titleLayers.enumerated() {
            let tab = tabFrame(i)
            let h = layer.preferredSize.height
            let f = Rect(x: tab.minX, y: tab.minY + ((tab.height - h) / 2).rounded(), width: tab.width, height: h)
            if layer.frame != f { layer.frame = f }
        }
        if let i = selectedIndex {
            let tab = tabFrame(i)
            let size = Rect(x: 0, y: 0, width: tab.width, height: indicatorHeight)
            if indicatorLayer.bounds != size { indicatorLayer.bounds = size }
            let p = Point(x: tab.minX, y: tab.minY)
            if indicatorLayer.position != p { indicatorLayer.position = p }
        }
    }

    // MARK: Tracking

    /// The tab the finger landed on, while it is down.
    private var landedIndex: Int?

    public override func beginTracking(at point: Point) -> Bool {
        guard let i = index(atX: point.x) else { return false }
        landedIndex = i
        pressedIndex = i
        return true
    }

    /// The tab stays pressed while the finger is on it (vertically within
    /// `touchSlop`); sliding to another tab releases it.
    public override func continueTracking(at point: Point) {
        pressedIndex = isOnLandedTab(point) ? landedIndex : nil
    }

    public override func endTracking(at point: Point) {
        defer { pressedIndex = nil; landedIndex = nil }
        guard let landed = landedIndex, isOnLandedTab(point), landed != selectedIndex else { return }
        Transaction.begin()
        Transaction.animationDuration = theme.metrics.animationDuration
        selectedIndex = landed
        layoutIfNeeded()
        Transaction.commit()
        onValueChanged?(self)
    }

    public override func cancelTracking() { pressedIndex = nil; landedIndex = nil }

    private func isOnLandedTab(_ point: Point) -> Bool {
        guard let landed = landedIndex else { return false }
        return isNear(point) && index(atX: point.x) == landed
    }

    // MARK: Look

    public override func themeDidChange() {
        applyFonts()
        super.themeDidChange()
    }

    public override func updateAppearance() {
        let c = theme.colors
        let enabled = state != .disabled
        if backgroundColor != c.surface { backgroundColor = c.surface }
        if separatorLayer.backgroundColor != c.separator { separatorLayer.backgroundColor = c.separator }
        let accent = enabled ? c.accent : c.disabledText
        if indicatorLayer.backgroundColor != accent { indicatorLayer.backgroundColor = accent }
        let shown = selectedIndex != nil
        if indicatorLayer.isHidden == shown { Transaction.withoutActions { indicatorLayer.isHidden = !shown } }
        for (i, layer) in titleLayers.enumerated() {
            let color = !enabled ? c.disabledText : i == selectedIndex ? c.accent : c.secondaryText
            if layer.foregroundColor != color { layer.foregroundColor = color }
        }
    }

    private func rebuildTitles() {
        for layer in titleLayers { layer.removeFromSuperlayer() }
        titleLayers = titles.map { title in
            let layer = TextLayer(name: "tab title")
            layer.string = title
            layer.alignmentMode = .center
            layer.truncationMode = .end
            return layer
        }
        for layer in titleLayers { try? insertSublayer(layer, below: indicatorLayer) }
        applyFonts()
        if let i = selectedIndex, !titles.indices.contains(i) { selectedIndex = titles.isEmpty ? nil : 0 }
        invalidatePreferredSize()
        setNeedsLayout()
        updateAppearance()
    }

    private func applyFonts() {
        let font = theme.fonts.bold ?? theme.fonts.regular ?? TextLayer.defaultFont
        for layer in titleLayers {
            if layer.font !== font { layer.font = font }
            if layer.fontSize != theme.fonts.bodySize { layer.fontSize = theme.fonts.bodySize }
        }
    }
}
