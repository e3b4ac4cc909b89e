import FBRuntime
import Raster

/// A simple line chart: `values` as a polyline stroked in `accent` over
/// `gridLineCount` horizontal `separator` grid lines, with the area under
/// the line tinted (`accent` at `fillOpacity`).
///
/// Geometry, points, in the chart's bounds space: value `i` of `n` is at
/// x = `i / (n − 1)` of the width (one value: the middle) and y from the
/// bottom edge (`minimumValue`) to the top edge (`maximumValue`), inset by
/// half the line width so the stroke stays inside; values outside the
/// range are clamped, NaN counts as `minimumValue`. Setting `values` with
/// as many values as before morphs the line in the current transaction
/// (the `path` animates point by point in a displayed tree); another count
/// jumps.
///
/// Not interactive (refuses touches). Disabled: the line in
/// `disabledText`.
public final class LineChart: Control {
    public var values: [Double] { didSet { placePaths() } }
    /// The value at the bottom edge.
    public var minimumValue: Double { didSet { placePaths() } }
    /// The value at the top edge.
    public var maximumValue: Double { didSet { placePaths() } }
    /// Horizontal grid lines from the bottom edge to the top, evenly
    /// spaced (0: none; 1: the bottom edge only).
    public var gridLineCount = 5 { didSet { placePaths() } }
    /// Opacity of the tint under the line (0 for none).
    public var fillOpacity = 0.2 { didSet { updateAppearance() } }

    public let gridLayer = ShapeLayer(name: "grid")
    public let areaLayer = ShapeLayer(name: "area")
    public let lineLayer = ShapeLayer(name: "line")

    public init(values: [Double] = [], minimumValue: Double = 0, maximumValue: Double = 1, theme: Theme = .light) {
        self.values = values
        self.minimumValue = minimumValue
        self.maximumValue = maximumValue
        super.init(name: "line chart")
        self.theme = theme
        for layer in [gridLayer, areaLayer, lineLayer] { try? addSublayer(layer) }
        gridLayer.fillColor = nil
        lineLayer.fillColor = nil
        lineLayer.lineWidth = 2
        lineLayer.lineJoin = .round
        lineLayer.lineCap = .round
        bounds = Rect(origin: .zero, size: preferredSize)
        placePaths()
        updateAppearance()
    }

    /// Sets `values`, the line morphing over `theme.metrics.animationDuration`
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
        placePaths()
    }

    public override func updateAppearance() {
        let c = theme.colors
        let line = isEnabled ? c.accent : c.disabledText
        if lineLayer.strokeColor != line { lineLayer.strokeColor = line }
        var tint = line
        tint.alpha *= min(max(fillOpacity, 0), 1)
        if areaLayer.fillColor != tint { areaLayer.fillColor = tint }
        if gridLayer.strokeColor != c.separator { gridLayer.strokeColor = c.separator }
    }

    /// Where value `index` is drawn, bounds space, points.
    public func point(at index: Int) -> PathPoint {
        let b = bounds, inset = lineLayer.lineWidth / 2
        let n = values.count
        let x = n > 1 ? b.minX + inset + (b.width - 2 * inset) * Double(index) / Double(n - 1) : (b.minX + b.maxX) / 2
        let range = maximumValue - minimumValue
        let v = values[index]
        let fraction = range > 0 && !v.isNaN ? min(max((v - minimumValue) / range, 0), 1) : 0
        return PathPoint(x, b.maxY - inset - (b.height - 2 * inset) * fraction)
    }

    private func placePaths() {
        let b = bounds
        for layer in [gridLayer, areaLayer, lineLayer] where layer.frame != b { layer.frame = b }
        var grid = Path()
        if gridLineCount > 0 {
            for k in 0..<gridLineCount {
                let y = gridLineCount > 1 ? b.maxY - 0.5 - (b.height - 1) * Double(k) / Double(gridLineCount - 1) : b.maxY - 0.5
                grid.move(to: PathPoint(b.minX, y))
                grid.line(to: PathPoint(b.maxX, y))
            }
        }
        if gridLayer.path != grid { gridLayer.path = grid }
        var line = Path(), area = Path()
        if !values.isEmpty {
            let first = point(at: 0)
            line.move(to: first)
            area.move(to: PathPoint(first.x, b.maxY))
            area.line(to: first)
            for i in 1..<max(values.count, 1) {
                let p = point(at: i)
                line.line(to: p)
                area.line(to: p)
            }
            area.line(to: PathPoint(point(at: values.count - 1).x, b.maxY))
            area.close()
        }
        if lineLayer.path != line { lineLayer.path = line }
        if areaLayer.path != area { areaLayer.path = area }
    }
}
