import FBRuntime

/// A horizontal bar showing how far something has got: a rounded `track`
/// filled with `accent` from the left for `progress` (0…1).
///
/// Not interactive: `beginTracking` refuses touches, so it never highlights
/// (a touch on it still reaches its superlayers' recognizers). Disabled:
/// the fill in `disabledText`.
public final class ProgressBar: Control {
    /// 0…1 (clamped; NaN counts as 0). Setting it moves the fill's edge in
    /// the current transaction (an implicit animation in a displayed
    /// tree); `setProgress(_:animated:)` chooses.
    public var progress: Double {
        get { storedProgress }
        set {
            let p = newValue.isNaN ? 0 : min(max(newValue, 0), 1)
            guard p != storedProgress else { return }
            storedProgress = p
            placeFill()
        }
    }
    private var storedProgress = 0.0

    /// The filled part (a sublayer; its `frame` is in the bar's bounds
    /// space, points).
    public let fillLayer = Layer(name: "fill")

    public init(progress: Double = 0, theme: Theme = .light) {
        super.init(name: "progress bar")
        self.theme = theme
        try? addSublayer(fillLayer)
        bounds = Rect(x: 0, y: 0, width: 200, height: theme.metrics.trackHeight)
        self.progress = progress
        placeFill()
        updateAppearance()
    }

    /// Sets `progress`, the fill growing or shrinking over `duration`
    /// seconds when `animated` (in a displayed tree; default
    /// `theme.metrics.animationDuration`), at once otherwise. For a
    /// progress that follows a known time (a brew of 30 s), pass that time
    /// and `.linear`.
    public func setProgress(_ value: Double, animated: Bool, duration: Double? = nil, timing: TimingFunction? = nil) {
        changeInTransaction(animated: animated, duration: duration, timing: timing) {
            progress = value
        }
    }

    /// 200 points by `trackHeight`; give it `LayoutItem(grow: 1)` to fill a
    /// row.
    public override var preferredSize: Size { Size(width: 200, height: theme.metrics.trackHeight) }

    public override func beginTracking(at point: Point) -> Bool { false }

    public override func layoutSublayers() {
        super.layoutSublayers()
        placeFill()
    }

    public override func updateAppearance() {
        let c = theme.colors
        if backgroundColor != c.track { backgroundColor = c.track }
        let fill = isEnabled ? c.accent : c.disabledText
        if fillLayer.backgroundColor != fill { fillLayer.backgroundColor = fill }
    }

    private func placeFill() {
        let b = bounds
        let radius = b.height / 2
        if cornerRadius != radius { cornerRadius = radius; fillLayer.cornerRadius = radius }
        // The fill is never narrower than its height, so its rounded ends
        // stay round; 0 progress hides it.
        let width = progress > 0 ? max(b.height, b.width * progress) : 0
        let frame = Rect(x: b.minX, y: b.minY, width: width, height: b.height)
        if fillLayer.frame != frame { fillLayer.frame = frame }
    }
}
