import FBRuntime

/// An on/off switch: a rounded track with a round knob that slides to the
/// right when on.
///
/// A tap toggles it; so does dragging the knob: it follows the finger
/// along the track, and where it is when the finger lifts (past the middle
/// or not) decides. Either way the knob slides to its end over
/// `theme.metrics.animationDuration` and `onValueChanged` is called if the
/// value changed. Setting `isOn` from code calls no handler.
///
/// Colours: the track is `accent` when on, `track` when off; the knob is
/// `knob`. Disabled: the whole switch at 45 % opacity.
public final class Switch: Control {
    /// On or off. Setting it moves the knob in the current transaction
    /// (an implicit animation in a displayed tree); `setOn(_:animated:)`
    /// chooses. Calls no handler.
    public var isOn: Bool {
        didSet { if isOn != oldValue { placeKnob(); updateAppearance() } }
    }

    /// Called with the switch when a touch changed `isOn`.
    public var onValueChanged: ((Switch) -> Void)?

    /// The knob (a sublayer): its `position` is in the switch's bounds
    /// space, points.
    public let knobLayer = Layer(name: "knob")

    /// The knob is dragged rather than tapped once the finger has moved
    /// this far along x, points.
    public static let dragThreshold = 4.0

    private var dragStartX = 0.0
    private var knobStartX = 0.0
    private var isDragging = false

    public init(isOn: Bool = false, theme: Theme = .light) {
        self.isOn = isOn
        super.init(name: "switch")
        self.theme = theme
        try? addSublayer(knobLayer)
        bounds = Rect(origin: .zero, size: theme.metrics.switchSize)
        placeKnob()
        updateAppearance()
    }

    /// Sets `isOn`, sliding the knob over `theme.metrics.animationDuration`
    /// when `animated` (in a displayed tree), at once otherwise. Calls no
    /// handler.
    public func setOn(_ on: Bool, animated: Bool) {
        changeInTransaction(animated: animated) {
            isOn = on
            placeKnob()   // also back from a drag when the value is unchanged
        }
    }

    /// `theme.metrics.switchSize`, points.
    public override var preferredSize: Size { theme.metrics.switchSize }

    public override func layoutSublayers() {
        super.layoutSublayers()
        if cornerRadius != bounds.height / 2 { cornerRadius = bounds.height / 2 }
        if !isDragging { placeKnob() }
    }

    // MARK: Tracking

    public override func beginTracking(at point: Point) -> Bool {
        dragStartX = point.x
        knobStartX = knobLayer.position.x
        isDragging = false
        return super.beginTracking(at: point)
    }

    public override func continueTracking(at point: Point) {
        super.continueTracking(at: point)
        let dx = point.x - dragStartX
        if !isDragging && abs(dx) >= Self.dragThreshold { isDragging = true }
        guard isDragging else { return }
        let x = min(max(knobStartX + dx, knobCenterX(on: false)), knobCenterX(on: true))
        Transaction.withoutActions { knobLayer.position = Point(x: x, y: knobLayer.position.y) }
    }

    public override func endTracking(at point: Point) {
        let newValue: Bool
        if isDragging {
            newValue = knobLayer.position.x > (bounds.minX + bounds.maxX) / 2
        } else {
            newValue = isNear(point) ? !isOn : isOn
        }
        isDragging = false
        super.endTracking(at: point)
        let changed = newValue != isOn
        setOn(newValue, animated: true)
        if changed { onValueChanged?(self) }
    }

    public override func cancelTracking() {
        isDragging = false
        super.cancelTracking()
        setOn(isOn, animated: true)
    }

    // MARK: Look

    public override var canBecomeFocused: Bool { true }

    /// Enter toggles the switch (animated) and calls `onValueChanged`.
    public override func handleKey(_ key: ControlKey) -> Bool {
        guard key == .enter, isEnabled else { return false }
        setOn(!isOn, animated: true)
        onValueChanged?(self)
        return true
    }

    public override func updateAppearance() {
        let c = theme.colors
        let track = isOn ? c.accent : c.track
        if backgroundColor != track { backgroundColor = track }
        if knobLayer.backgroundColor != c.knob { knobLayer.backgroundColor = c.knob }
        let alpha = isEnabled ? 1.0 : 0.45
        if opacity != alpha { opacity = alpha }
    }

    /// The knob's centre x at either end, bounds space, points.
    private func knobCenterX(on: Bool) -> Double {
        let b = bounds
        return on ? b.maxX - b.height / 2 : b.minX + b.height / 2
    }

    private func placeKnob() {
        let b = bounds
        let d = max(0, b.height - 4)
        let knobBounds = Rect(x: 0, y: 0, width: d, height: d)
        if knobLayer.bounds != knobBounds { knobLayer.bounds = knobBounds }
        if knobLayer.cornerRadius != d / 2 { knobLayer.cornerRadius = d / 2 }
        let p = Point(x: knobCenterX(on: isOn), y: (b.minY + b.maxY) / 2)
        if knobLayer.position != p { knobLayer.position = p }
    }
}
