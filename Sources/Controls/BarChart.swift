import FBRuntime

/// A simple bar chart: one `accent` bar per value, bottom-aligned on a
/// `separator` baseline, heights in proportion to `maximumValue`.
///
/// Geometry, points, in the chart's bounds space: the bars share the
/// width equally, `barGap` apart (and half of it at each side), and rise
/// from the bottom edge; a value of `maximumValue` or more fills the
/// height, 0 or less (or NaN) draws no bar. Setting `values` with as many
/// values as before changes the bars' heights in the current transaction
/// (an implicit animation in a displayed tree: the bars grow); another
/// count rebuilds the bars (not a per-frame operation).
///
/// Not interactive (refuses touches). Disabled: bars in `disabledText`.
public final class BarChart: Control {
    public var values: [Double] {
        didSet {
            if values.count != barLayers.count { rebuildBars() } else { placeBars() }
        }
    }

    /// The value of a full-height bar; nil: the largest value (at least 1
    /// when every value is 0 or less).
    public var maximumValue: Double? { didSet { placeBars() } }

    /// Space between bars, points.
    public var barGap: Double = 6 { didSet { placeBars() } }

    /// One per value, left to right.
    public private(set) var barLayers: [Layer] = []
    public let baselineLayer = Layer(name: "baseline")

    public init(values: [Double] = [], maximumValue: Double? = nil, theme: Theme = .light) {
        self.values = values
        self.maximumValue = maximumValue
        super.init(name: "bar chart")
        self.theme = theme
        try? addSublayer(baselineLayer)
        bounds = Rect(origin: .zero, size: preferredSize)
        rebuildBars()
        updateAppearance()
    }

    /// Sets `values`, the bars growing over `theme.metrics.animationDuration`
    /// (or `duration`) when `animated`, at once otherwise.
    public func setValues(_ newValues: [Double], animated: Bool, duration: Double? = nil) {
        changeInTransaction(animated: animated, duration: duration) {
            values = newValues
        }
    }

    /// 240 by 120 points.
    public override var preferredSize: Size { Size(width: 240, height: 120) }

    public override func beginTracking(at point: Point) -> Bool { false }

    public override func layoutSublayers() {
        super.layoutSublayers()
        placeBars()
    }

    public override func updateAppearance() {
        let c = theme.colors
        let bar = isEnabled ? c.accent : c.disabledText
        for layer in barLayers where layer.backgroundColor != bar { layer.backgroundColor = bar }
        if baselineLayer.backgroundColor != c.separator { baselineLayer.backgroundColor = c.separator }
    }

    /// The frame of bar `index` for `value`, bounds space, points.
    public func barFrame(at index: Int, value: Double) -> Rect {
        let b = bounds
        let n = Double(max(values.count, 1))
        let slot = b.width / n
        let width = max(0, slot - barGap)
        var top = maximumValue ?? 0
        if maximumValue == nil { for v in values where v > top { top = v } }
        if !(top > 0) || !top.isFinite { top = 1 }
        let fraction = value.isNaN ? 0 : min(max(value / top, 0), 1)
        let height = b.height * fraction
        return Rect(x: b.minX + Double(index) * slot + barGap / 2, y: b.maxY - height, width: width, height: height)
    }

    private func rebuildBars() {
        for bar in barLayers { bar.removeFromSuperlayer() }
        barLayers.removeAll()
        for _ in values {
            let bar = Layer(name: "bar")
            barLayers.append(bar)
            try? insertSublayer(bar, below: baselineLayer)
        }
        Transaction.withoutActions { placeBars() }
        updateAppearance()
    }

    private func placeBars() {
        let b = bounds
        var i = 0
        for bar in barLayers {
            let f = barFrame(at: i, value: values[i])
            if bar.frame != f { bar.frame = f }
            let radius = min(4, f.width / 2)
            if bar.cornerRadius != radius {
                bar.cornerRadius = radius
                bar.maskedCorners = [.minXMinY, .maxXMinY]
            }
            i += 1
        }
        let line = Rect(x: b.minX, y: b.maxY - 1, width: b.width, height: 1)
        if baselineLayer.frame != line { baselineLayer.frame = line }
    }
}
