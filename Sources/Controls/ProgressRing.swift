import FBRuntime
import Raster

/// A circular progress indicator: a `track` ring, and over it an `accent`
/// arc from twelve o'clock clockwise for `progress` (0…1), drawn as a
/// `ShapeLayer` stroke trimmed by `strokeEnd` — so a change of progress
/// animates as the arc growing, not as a path morph.
///
/// Not interactive (`beginTracking` refuses touches). Disabled: the arc in
/// `disabledText`.
public final class ProgressRing: Control {
    /// 0…1 (clamped; NaN counts as 0). Setting it changes the arc's
    /// `strokeEnd` in the current transaction (an implicit animation in a
    /// displayed tree); `setProgress(_:animated:)` chooses.
    public var progress: Double {
        get { storedProgress }
        set {
            let p = newValue.isNaN ? 0 : min(max(newValue, 0), 1)
            guard p != storedProgress else { return }
            storedProgress = p
            if arcLayer.strokeEnd != p { arcLayer.strokeEnd = p }
        }
    }
    private var storedProgress = 0.0

    /// The full circle under the arc.
    public let trackLayer = ShapeLayer(name: "ring track")
    /// The arc: a whole circle from the top, clockwise, with `strokeEnd =
    /// progress`.
    public let arcLayer = ShapeLayer(name: "ring arc")

    public init(progress: Double = 0, theme: Theme = .light) {
        super.init(name: "progress ring")
        self.theme = theme
        for ring in [trackLayer, arcLayer] {
            ring.fillColor = nil
            try? addSublayer(ring)
        }
        arcLayer.lineCap = .round
        arcLayer.strokeEnd = 0
        bounds = Rect(x: 0, y: 0, width: 2 * theme.metrics.controlHeight, height: 2 * theme.metrics.controlHeight)
        self.progress = progress
        placeRings()
        updateAppearance()
    }

    /// Sets `progress`, the arc growing or shrinking over `duration`
    /// seconds when `animated` (in a displayed tree; default
    /// `theme.metrics.animationDuration`), at once otherwise.
    public func setProgress(_ value: Double, animated: Bool, duration: Double? = nil, timing: TimingFunction? = nil) {
        changeInTransaction(animated: animated, duration: duration, timing: timing) {
            progress = value
        }
    }

    /// A square twice `controlHeight` on a side, points.
    public override var preferredSize: Size {
        Size(width: 2 * theme.metrics.controlHeight, height: 2 * theme.metrics.controlHeight)
    }

    public override func beginTracking(at point: Point) -> Bool { false }

    public override func layoutSublayers() {
        super.layoutSublayers()
        placeRings()
    }

    public override func themeDidChange() {
        super.themeDidChange()
        placeRings()
    }

    public override func updateAppearance() {
        let c = theme.colors
        if trackLayer.strokeColor != c.track { trackLayer.strokeColor = c.track }
        let arc = isEnabled ? c.accent : c.disabledText
        if arcLayer.strokeColor != arc { arcLayer.strokeColor = arc }
    }

    /// The rings fill the bounds (the smaller side), inset by half the line
    /// width so the stroke stays inside. Paths are rebuilt only when the
    /// size or the line width changed.
    private func placeRings() {
        let b = bounds
        let width = theme.metrics.ringLineWidth
        let frame = Rect(x: b.minX, y: b.minY, width: b.width, height: b.height)
        guard trackLayer.frame != frame || trackLayer.lineWidth != width || trackLayer.path == nil else { return }
        let radius = max(0, min(b.width, b.height) / 2 - width / 2)
        let center = PathPoint(b.width / 2, b.height / 2)
        var path = Path()
        // From twelve o'clock, clockwise on screen (y down): −π/2 to 3π/2.
        path.arc(center: center, radius: radius, startAngle: -FloatMath.pi / 2, endAngle: 3 * FloatMath.pi / 2, clockwise: true)
        for ring in [trackLayer, arcLayer] {
            ring.frame = frame
            ring.lineWidth = width
            ring.path = path
        }
    }
}
