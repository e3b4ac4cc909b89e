import FBRuntime

/// A stepper: a "−" half and a "+" half that lower and raise `value` by
/// `stepValue`, between `minimumValue` and `maximumValue`.
///
/// Touch: a finger landing on a half steps at once; held there it repeats
/// after `autorepeatDelay` every `autorepeatInterval` seconds (media time,
/// through the router's deadlines: `TouchRouter.nextDeadline` and
/// `advance(to:)`). Sliding off the half (beyond `touchSlop`) stops the
/// repeat; sliding back resumes it. Each step calls `onValueChanged`. A
/// half that cannot step (at its limit) draws its symbol in
/// `disabledText` and ignores touches.
///
/// Colours: `surface` body with a `separator` outline and divider; symbols
/// in `accent`; the pressed half `surfaceHighlighted`. Disabled: `disabled`
/// body, symbols `disabledText`.
public final class Stepper: Control {
    /// Which half of the stepper.
    public enum Part: Equatable, Sendable {
        case decrement, increment
    }

    /// Clamped to `minimumValue…maximumValue` (NaN becomes the minimum).
    /// Setting it calls no handler.
    public var value: Double {
        get { storedValue }
        set {
            let v = clamped(newValue)
            guard v != storedValue else { return }
            storedValue = v
            updateAppearance()
        }
    }
    private var storedValue: Double

    public var minimumValue: Double { didSet { value = clamped(value); updateAppearance() } }
    public var maximumValue: Double { didSet { value = clamped(value); updateAppearance() } }
    /// The step, > 0 (others count as 1).
    public var stepValue: Double = 1

    /// Holding a half repeats its step.
    public var autorepeat = true
    /// Seconds from the first step to the first repeat.
    public var autorepeatDelay: MediaTime = 0.5
    /// Seconds between repeats.
    public var autorepeatInterval: MediaTime = 0.1

    /// Called with the stepper after each step a touch made.
    public var onValueChanged: ((Stepper) -> Void)?

    public let decrementLabel = TextLayer(name: "minus")
    public let incrementLabel = TextLayer(name: "plus")
    /// The pressed half's background (hidden unless a half is pressed).
    public let pressedLayer = Layer(name: "pressed")
    public let dividerLayer = Layer(name: "divider")

    /// The half a finger is on now, if it can step.
    public private(set) var pressedPart: Part?
    private var trackedPart: Part?
    private var nextRepeat: MediaTime?

    public init(value: Double = 0, minimumValue: Double = 0, maximumValue: Double = 100, theme: Theme = .light) {
        storedValue = 0
        self.minimumValue = minimumValue
        self.maximumValue = maximumValue
        super.init(name: "stepper")
        self.theme = theme
        pressedLayer.isHidden = true
        for part in [pressedLayer, dividerLayer, decrementLabel, incrementLabel] { try? addSublayer(part) }
        decrementLabel.string = "\u{2212}"
        incrementLabel.string = "+"
        for label in [decrementLabel, incrementLabel] { label.alignmentMode = .center }
        storedValue = clamped(value)
        bounds = Rect(origin: .zero, size: preferredSize)
        applyFonts()
        placeParts()
        updateAppearance()
    }

    /// True when a step of `part` would change the value.
    public func canStep(_ part: Part) -> Bool {
        switch part {
        case .decrement: value > minimumValue
        case .increment: value < maximumValue
        }
    }

    /// Twice `controlHeight` wide by `controlHeight`, points.
    public override var preferredSize: Size {
        Size(width: 2 * theme.metrics.controlHeight, height: theme.metrics.controlHeight)
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
        let part = self.part(at: point)
        guard canStep(part) else { return false }
        trackedPart = part
        press(part)
        step(part)
        nextRepeat = autorepeat ? trackingTime + autorepeatDelay : nil
        return super.beginTracking(at: point)
    }

    public override func continueTracking(at point: Point) {
        super.continueTracking(at: point)
        guard let tracked = trackedPart else { return }
        let on = isNear(point) && part(at: point) == tracked
        if on && pressedPart == nil {
            press(tracked)
            if autorepeat { nextRepeat = trackingTime + autorepeatDelay }
        } else if !on && pressedPart != nil {
            press(nil)
            nextRepeat = nil
        }
    }

    public override func endTracking(at point: Point) {
        stopTracking()
        super.endTracking(at: point)
    }

    public override func cancelTracking() {
        stopTracking()
        super.cancelTracking()
    }

    public override var trackingDeadline: MediaTime? { nextRepeat }

    public override func trackingTimeAdvanced(to time: MediaTime) {
        // A late wake-up makes the steps it missed, at most ten: a stalled
        // app thread must not jump the value across its whole range.
        var steps = 0
        while let due = nextRepeat, time >= due, let part = pressedPart, steps < 10 {
            guard canStep(part) else { nextRepeat = nil; press(nil); break }
            step(part)
            nextRepeat = due + max(autorepeatInterval, 0.01)
            steps += 1
        }
        if let due = nextRepeat, time >= due { nextRepeat = time + max(autorepeatInterval, 0.01) }
    }

    // MARK: Look

    public override var canBecomeFocused: Bool { true }

    /// Left steps down, Right up (within the limits), calling
    /// `onValueChanged` when the value changed.
    public override func handleKey(_ key: ControlKey) -> Bool {
        guard key == .left || key == .right, isEnabled else { return false }
        let part: Part = key == .right ? .increment : .decrement
        if canStep(part) { step(part) }
        return true
    }

    public override func updateAppearance() {
        let c = theme.colors
        let body = isEnabled ? c.surface : c.disabled
        if backgroundColor != body { backgroundColor = body }
        if borderColor != c.separator { borderColor = c.separator }
        if dividerLayer.backgroundColor != c.separator { dividerLayer.backgroundColor = c.separator }
        if pressedLayer.backgroundColor != c.surfaceHighlighted { pressedLayer.backgroundColor = c.surfaceHighlighted }
        let minus = isEnabled && canStep(.decrement) ? c.accent : c.disabledText
        let plus = isEnabled && canStep(.increment) ? c.accent : c.disabledText
        if decrementLabel.foregroundColor != minus { decrementLabel.foregroundColor = minus }
        if incrementLabel.foregroundColor != plus { incrementLabel.foregroundColor = plus }
    }

    /// The half under `point` (bounds space, points): left of the middle
    /// is `.decrement`.
    public func part(at point: Point) -> Part {
        point.x < (bounds.minX + bounds.maxX) / 2 ? .decrement : .increment
    }

    private func step(_ part: Part) {
        let step = stepValue > 0 && stepValue.isFinite ? stepValue : 1
        let old = value
        value = part == .increment ? value + step : value - step
        if value != old { onValueChanged?(self) }
    }

    private func press(_ part: Part?) {
        pressedPart = part
        Transaction.withoutActions {
            if let part {
                let b = bounds, half = b.width / 2
                pressedLayer.frame = Rect(x: part == .decrement ? b.minX : b.minX + half, y: b.minY, width: half, height: b.height)
                pressedLayer.maskedCorners = part == .decrement ? [.minXMinY, .minXMaxY] : [.maxXMinY, .maxXMaxY]
            }
            pressedLayer.isHidden = part == nil
        }
    }

    private func stopTracking() {
        trackedPart = nil
        nextRepeat = nil
        press(nil)
    }

    private func clamped(_ v: Double) -> Double {
        guard !v.isNaN else { return minimumValue }
        return min(max(v, minimumValue), max(minimumValue, maximumValue))
    }

    private func applyFonts() {
        let font = theme.fonts.regular ?? TextLayer.defaultFont
        let size = theme.fonts.titleSize
        for label in [decrementLabel, incrementLabel] {
            if label.font !== font { label.font = font }
            if label.fontSize != size { label.fontSize = size }
        }
    }

    private func placeParts() {
        let b = bounds, half = b.width / 2
        let radius = min(theme.metrics.cornerRadius, b.height / 2)
        if cornerRadius != radius { cornerRadius = radius; pressedLayer.cornerRadius = radius }
        if borderWidth != 1 { borderWidth = 1 }
        let divider = Rect(x: b.minX + half - 0.5, y: b.minY + 8, width: 1, height: max(0, b.height - 16))
        if dividerLayer.frame != divider { dividerLayer.frame = divider }
        let height = decrementLabel.preferredSize.height
        let y = b.minY + ((b.height - height) / 2).rounded()
        let minus = Rect(x: b.minX, y: y, width: half, height: height)
        let plus = Rect(x: b.minX + half, y: y, width: half, height: height)
        if decrementLabel.frame != minus { decrementLabel.frame = minus }
        if incrementLabel.frame != plus { incrementLabel.frame = plus }
        if let part = pressedPart { press(part) }
    }
}
