import FBRuntime

/// The visible focus: a border in the theme's `accent` around the focused
/// control, `outset` points outside its frame, its corners rounded to the
/// control's `cornerRadius` plus the outset. A `FocusEngine` owns one and
/// keeps it the last sublayer of its root, so it draws over the controls.
/// It is not hit (`contains` is false), so touches reach the control
/// under it — except while its bounds animate (a move between controls of
/// different sizes, `animationDuration`), when the hit test uses its
/// presentation bounds and a touch there lands on the ring.
public final class FocusRing: Layer {
    /// How far outside the control's frame the border lies, points.
    public var outset = 3.0
    /// The border's width, points.
    public var lineWidth = 2.0 { didSet { borderWidth = lineWidth } }

    /// The border's colour is `theme.colors.accent` (the `FocusEngine`
    /// sets it from its own `theme`).
    public var theme: Theme {
        didSet { borderColor = theme.colors.accent }
    }

    public init(theme: Theme = .light) {
        self.theme = theme
        super.init(name: "focusRing")
        anchorPoint = .zero
        borderWidth = lineWidth
        borderColor = theme.colors.accent
        isHidden = true
    }

    public override func contains(_ point: Point) -> Bool { false }

    /// The ring's frame (the root's space, points) around a control whose
    /// frame there is `controlFrame`: `outset` points larger on each side.
    public func ringFrame(around controlFrame: Rect) -> Rect {
        Rect(x: controlFrame.minX - outset, y: controlFrame.minY - outset,
             width: controlFrame.width + 2 * outset, height: controlFrame.height + 2 * outset)
    }

    /// Places the ring around `controlFrame` (the root's space) with the
    /// corner radius `radius + outset` (0 stays 0: a square control gets a
    /// square ring). Changes only what differs, in the current transaction.
    func place(around controlFrame: Rect, cornerRadius radius: Double) {
        let frame = ringFrame(around: controlFrame)
        let r = radius > 0 ? radius + outset : 0
        if self.frame != frame { self.frame = frame }
        if cornerRadius != r { cornerRadius = r }
    }
}
