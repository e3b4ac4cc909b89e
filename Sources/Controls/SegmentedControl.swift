import FBRuntime

/// A row of equally wide segments, one of them selected: a rounded `track`
/// with a raised `surface` indicator under the selected segment's title.
///
/// Touch: the segment under the finger darkens while pressed
/// (`pressedIndex`); lifting on a segment (within `touchSlop` of the
/// control) selects it, the indicator sliding there over
/// `theme.metrics.animationDuration`, and calls `onValueChanged` if the
/// selection changed. Sliding along the row moves the press with the
/// finger. Setting `selectedIndex` from code calls no handler.
///
/// Colours: track `track`, indicator `surface`, selected title `text`,
/// others `secondaryText`, the pressed segment `surfaceHighlighted`.
/// Disabled: the whole control at 45 % opacity.
public final class SegmentedControl: Control {
    /// The segments' titles, left to right. Setting them rebuilds the
    /// title layers (not a per-frame operation) and keeps the selection if
    /// it is still in range.
    public var titles: [String] {
        didSet { rebuildTitles() }
    }

    /// The selected segment, nil for none. Out-of-range values become nil.
    /// Setting it moves the indicator in the current transaction (an
    /// implicit animation in a displayed tree); calls no handler.
    public var selectedIndex: Int? {
        didSet {
            if let i = selectedIndex, !titles.indices.contains(i) { selectedIndex = nil }   // no second didSet
            if selectedIndex != oldValue { placeIndicator(); updateAppearance() }
        }
    }

    /// The segment a finger is on now.
    public private(set) var pressedIndex: Int?

    /// Called with the control when a touch changed `selectedIndex`.
    public var onValueChanged: ((SegmentedControl) -> Void)?

    public let indicatorLayer = Layer(name: "indicator")
    public let pressedLayer = Layer(name: "pressed")
    /// One title layer per segment, in order.
    public private(set) var titleLayers: [TextLayer] = []

    /// The indicator's inset from the track's edges, points.
    public static let indicatorInset = 3.0

    public init(titles: [String], selectedIndex: Int? = 0, theme: Theme = .light) {
        self.titles = titles
        super.init(name: "segmented control")
        self.theme = theme
        pressedLayer.isHidden = true
        try? addSublayer(pressedLayer)
        try? addSublayer(indicatorLayer)
        rebuildTitles()
        self.selectedIndex = selectedIndex
        bounds = Rect(origin: .zero, size: preferredSize)
        placeParts()
        updateAppearance()
    }

    /// Sets `selectedIndex`, sliding the indicator when `animated` (in a
    /// displayed tree), at once otherwise. Calls no handler.
    public func setSelectedIndex(_ index: Int?, animated: Bool) {
        changeInTransaction(animated: animated) {
            selectedIndex = index
        }
    }

    /// The segment under `point` (bounds space, points), clamped to the
    /// first and last along x; nil without segments.
    public func segment(at point: Point) -> Int? {
        guard !titles.isEmpty, bounds.width > 0, point.x.isFinite else { return nil }
        // Clamped as a Double: Int(_:) traps beyond its range.
        let i = min(max(((point.x - bounds.minX) / segmentWidth).rounded(.down), 0), Double(titles.count - 1))
        return Int(i)
    }

    /// As many equal segments as titles, each as wide as the widest title
    /// plus `padding` on both sides, by `controlHeight`, points.
    public override var preferredSize: Size {
        var widest = 0.0
        for t in titleLayers { widest = max(widest, t.preferredSize.width) }
        let segment = (widest + 2 * theme.metrics.padding).rounded(.up)
        return Size(width: segment * Double(max(titles.count, 1)), height: theme.metrics.controlHeight)
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
        guard let i = segment(at: point) else { return false }
        press(i)
        return super.beginTracking(at: point)
    }

    public override func continueTracking(at point: Point) {
        super.continueTracking(at: point)
        press(isNear(point) ? segment(at: point) : nil)
    }

    public override func endTracking(at point: Point) {
        let chosen = isNear(point) ? segment(at: point) : nil
        press(nil)
        super.endTracking(at: point)
        guard let chosen, chosen != selectedIndex else { return }
        setSelectedIndex(chosen, animated: true)
        onValueChanged?(self)
    }

    public override func cancelTracking() {
        press(nil)
        super.cancelTracking()
    }

    // MARK: Look

    public override var canBecomeFocused: Bool { true }

    /// Left and Right select the neighbouring segment (the indicator
    /// slides) and call `onValueChanged`; with none selected, the first.
    public override func handleKey(_ key: ControlKey) -> Bool {
        guard key == .left || key == .right, isEnabled, !titles.isEmpty else { return false }
        let next = selectedIndex.map { key == .right ? min($0 + 1, titles.count - 1) : max($0 - 1, 0) } ?? 0
        if next != selectedIndex {
            setSelectedIndex(next, animated: true)
            onValueChanged?(self)
        }
        return true
    }

    public override func updateAppearance() {
        let c = theme.colors
        if backgroundColor != c.track { backgroundColor = c.track }
        if indicatorLayer.backgroundColor != c.surface { indicatorLayer.backgroundColor = c.surface }
        if pressedLayer.backgroundColor != c.surfaceHighlighted { pressedLayer.backgroundColor = c.surfaceHighlighted }
        var i = 0
        for t in titleLayers {
            let color = i == selectedIndex ? c.text : c.secondaryText
            if t.foregroundColor != color { t.foregroundColor = color }
            i += 1
        }
        let alpha = isEnabled ? 1.0 : 0.45
        if opacity != alpha { opacity = alpha }
    }

    private var segmentWidth: Double { bounds.width / Double(max(titles.count, 1)) }

    private func segmentFrame(_ i: Int) -> Rect {
        let inset = Self.indicatorInset, b = bounds
        return Rect(x: b.minX + Double(i) * segmentWidth + inset, y: b.minY + inset,
                    width: max(0, segmentWidth - 2 * inset), height: max(0, b.height - 2 * inset))
    }

    private func press(_ index: Int?) {
        guard index != pressedIndex else { return }
        pressedIndex = index
        Transaction.withoutActions {
            // The selected segment shows no press: its indicator is on top.
            if let index { pressedLayer.frame = segmentFrame(index) }
            pressedLayer.isHidden = index == nil
        }
    }

    private func rebuildTitles() {
        for t in titleLayers { t.removeFromSuperlayer() }
        titleLayers.removeAll()
        for title in titles {
            let t = TextLayer(name: "segment")
            t.string = title
            t.alignmentMode = .center
            t.truncationMode = .end
            titleLayers.append(t)
            try? addSublayer(t)
        }
        applyFonts()
        if let i = selectedIndex, !titles.indices.contains(i) { selectedIndex = nil }
        invalidatePreferredSize()
        setNeedsLayout()
        updateAppearance()
    }

    private func applyFonts() {
        let font = theme.fonts.regular ?? TextLayer.defaultFont
        for t in titleLayers {
            if t.font !== font { t.font = font }
            if t.fontSize != theme.fonts.bodySize { t.fontSize = theme.fonts.bodySize }
        }
    }

    private func placeIndicator() {
        if let i = selectedIndex {
            let f = segmentFrame(i)
            if indicatorLayer.frame != f { indicatorLayer.frame = f }
        }
        if indicatorLayer.isHidden != (selectedIndex == nil) { indicatorLayer.isHidden = selectedIndex == nil }
    }

    private func placeParts() {
        let b = bounds
        let radius = min(theme.metrics.cornerRadius, b.height / 2)
        if cornerRadius != radius { cornerRadius = radius }
        let inner = max(0, radius - Self.indicatorInset)
        if indicatorLayer.cornerRadius != inner { indicatorLayer.cornerRadius = inner; pressedLayer.cornerRadius = inner }
        placeIndicator()
        var i = 0
        for t in titleLayers {
            let height = t.preferredSize.height
            let f = Rect(x: b.minX + Double(i) * segmentWidth + Self.indicatorInset, y: b.minY + ((b.height - height) / 2).rounded(),
                         width: max(0, segmentWidth - 2 * Self.indicatorInset), height: height)
            if t.frame != f { t.frame = f }
            i += 1
        }
        if let p = pressedIndex { Transaction.withoutActions { pressedLayer.frame = segmentFrame(p) } }
    }
}
