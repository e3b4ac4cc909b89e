import FBRuntime

/// A horizontal slider: a thumb on a track, the part of the track left of
/// the thumb filled, for a value between `minimumValue` and `maximumValue`.
///
/// Touch: a finger that lands on the thumb (within 4 points of it) drags it
/// from where it grabbed it; a finger that lands on the track elsewhere
/// makes the thumb jump there (animated over
/// `theme.metrics.animationDuration`) and then drags it. `onValueChanged`
/// is called with each change while dragging (`isContinuous`, the
/// default), or once when the finger lifts.
///
/// Geometry: the thumb's centre runs from `thumbSize / 2` to
/// `bounds.width − thumbSize / 2` (bounds space, points), vertically
/// centred; value and x are linear in between.
///
/// Colours: filled part `accent`, the rest `track`, thumb `knob` with a
/// `separator` outline (`surfaceHighlighted` while a finger is on it).
/// Disabled: the whole slider at 45 % opacity.
public final class Slider: Control {
    /// The value at the left end. Setting it clamps `value`.
    public var minimumValue: Double = 0 { didSet { value = clamped(value); placeParts() } }
    /// The value at the right end. Setting it clamps `value`.
    public var maximumValue: Double = 1 { didSet { value = clamped(value); placeParts() } }

    /// The value, clamped to `minimumValue…maximumValue` (NaN becomes
    /// `minimumValue`). Setting it moves the thumb in the current
    /// transaction (an implicit animation in a displayed tree); calls no
    /// handler.
    public var value: Double {
        get { storedValue }
        set {
            let v = clamped(newValue)
            guard v != storedValue else { return }
            storedValue = v
            placeParts()
        }
    }
    private var storedValue: Double

    /// Changes are reported while dragging (true) or once at the lift.
    public var isContinuous = true

    /// Called with the slider when a touch changed `value`.
    public var onValueChanged: ((Slider) -> Void)?

    public let trackLayer = Layer(name: "track")
    public let fillLayer = Layer(name: "fill")
    /// The thumb: its `position` is in the slider's bounds space, points.
    public let thumbLayer = Layer(name: "thumb")

    /// How far outside the thumb a finger still grabs it, points.
    public static let thumbGrabMargin = 4.0

    private var grabOffset = 0.0
    private var valueAtTrackingStart = 0.0

    public init(value: Double = 0, minimumValue: Double = 0, maximumValue: Double = 1, theme: Theme = .light) {
        storedValue = 0
        super.init(name: "slider")
        self.minimumValue = minimumValue
        self.maximumValue = maximumValue
        self.theme = theme
        for part in [trackLayer, fillLayer, thumbLayer] { try? addSublayer(part) }
        storedValue = clamped(value)
        bounds = Rect(x: 0, y: 0, width: 200, height: theme.metrics.controlHeight)
        placeParts()
        updateAppearance()
    }

    /// Sets `value`, moving the thumb over `theme.metrics.animationDuration`
    /// when `animated` (in a displayed tree), at once otherwise. Calls no
    /// handler.
    public func setValue(_ newValue: Double, animated: Bool) {
        changeInTransaction(animated: animated) {
            value = newValue
        }
    }

    /// 200 points wide (give it `LayoutItem(grow: 1)` in a stack to fill a
    /// row) by `controlHeight`.
    public override var preferredSize: Size { Size(width: 200, height: theme.metrics.controlHeight) }

    public override func layoutSublayers() {
        super.layoutSublayers()
        placeParts()
    }

    /// The thumb's centre x for `value`, bounds space, points.
    public func thumbCenterX(for value: Double) -> Double {
        let range = maximumValue - minimumValue
        let fraction = range > 0 ? (clamped(value) - minimumValue) / range : 0
        return bounds.minX + inset + fraction * span
    }

    /// The value whose thumb centre is at `x` (bounds space, points),
    /// clamped.
    public func value(atX x: Double) -> Double {
        guard span > 0 else { return minimumValue }
        let fraction = min(max((x - bounds.minX - inset) / span, 0), 1)
        return clamped(minimumValue + fraction * (maximumValue - minimumValue))
    }

    // MARK: Tracking

    public override func beginTracking(at point: Point) -> Bool {
        valueAtTrackingStart = value
        let thumbX = thumbCenterX(for: value)
        if abs(point.x - thumbX) <= theme.metrics.thumbSize / 2 + Self.thumbGrabMargin {
            grabOffset = point.x - thumbX
        } else {
            grabOffset = 0
            let old = value
            setValue(value(atX: point.x), animated: true)
            if isContinuous && value != old { onValueChanged?(self) }
        }
        return super.beginTracking(at: point)
    }

    public override func continueTracking(at point: Point) {
        super.continueTracking(at: point)
        isHighlighted = true   // a drag holds the thumb wherever the finger goes
        let old = value
        setValue(value(atX: point.x - grabOffset), animated: false)
        if isContinuous && value != old { onValueChanged?(self) }
    }

    public override func endTracking(at point: Point) {
        super.endTracking(at: point)
        if !isContinuous && value != valueAtTrackingStart { onValueChanged?(self) }
    }

    // MARK: Look

    /// How far Left and Right move `value`; nil (default) for a tenth of
    /// the range.
    public var keyStep: Double?

    public override var canBecomeFocused: Bool { true }

    /// Left and Right move the value by `keyStep` (animated) and call
    /// `onValueChanged` when it changed; they are used even at a limit, so
    /// the focus does not leave the slider sideways.
    public override func handleKey(_ key: ControlKey) -> Bool {
        guard key == .left || key == .right, isEnabled else { return false }
        let step = keyStep ?? (maximumValue - minimumValue) / 10
        let old = value
        setValue(value + (key == .right ? step : -step), animated: true)
        if value != old { onValueChanged?(self) }
        return true
    }

    public override func updateAppearance() {
        let c = theme.colors
        if trackLayer.backgroundColor != c.track { trackLayer.backgroundColor = c.track }
        if fillLayer.backgroundColor != c.accent { fillLayer.backgroundColor = c.accent }
        let thumb = isHighlighted ? c.surfaceHighlighted : c.knob
        if thumbLayer.backgroundColor != thumb { thumbLayer.backgroundColor = thumb }
        if thumbLayer.borderColor != c.separator { thumbLayer.borderColor = c.separator }
        let alpha = isEnabled ? 1.0 : 0.45
        if opacity != alpha { opacity = alpha }
    }

    private var inset: Double { theme.metrics.thumbSize / 2 }
    private var span: Double { max(0, bounds.width - theme.metrics.thumbSize) }

    private func clamped(_ v: Double) -> Double {
        guard !v.isNaN else { return minimumValue }
        let hi = max(minimumValue, maximumValue)
        return min(max(v, minimumValue), hi)
    }

    private func placeParts() {
        let b = bounds, m = theme.metrics
        let trackY = (b.minY + b.maxY) / 2 - m.trackHeight / 2
        let track = Rect(x: b.minX + inset, y: trackY, width: span, height: m.trackHeight)
        let thumbX = thumbCenterX(for: value)
        let fill = Rect(x: b.minX + inset, y: trackY, width: thumbX - b.minX - inset, height: m.trackHeight)
        if trackLayer.frame != track { trackLayer.frame = track }
        if fillLayer.frame != fill { fillLayer.frame = fill }
        let radius = m.trackHeight / 2
        if trackLayer.cornerRadius != radius { trackLayer.cornerRadius = radius; fillLayer.cornerRadius = radius }
        let thumbBounds = Rect(x: 0, y: 0, width: m.thumbSize, height: m.thumbSize)
        if thumbLayer.bounds != thumbBounds {
            thumbLayer.bounds = thumbBounds
            thumbLayer.cornerRadius = m.thumbSize / 2
            thumbLayer.borderWidth = 1
        }
        let p = Point(x: thumbX, y: (b.minY + b.maxY) / 2)
        if thumbLayer.position != p { thumbLayer.position = p }
    }
}
