/// How a `StackLayout` treats one sublayer, set on it as
/// `Layer.layoutItem` (LVGL's flex-grow and ignore-layout flag, CSS's
/// flex-grow/shrink/basis and align-self). The default: the item keeps its
/// base size and takes the stack's cross alignment.
public struct LayoutItem: Equatable, Sendable {
    /// Share of a line's free main-axis space this item takes, against the
    /// other items' `grow` (0: none; NaN or negative counts as 0).
    public var grow: Double
    /// Share of a line's overflow this item gives up, weighted by its base
    /// size as in CSS (0, the default, unlike CSS's 1: items keep their
    /// size and the line overflows, as LVGL's do). Never below size 0.
    public var shrink: Double
    /// The item's main-axis base size, points; `nil`: its `preferredSize`
    /// there. A basis of 0 with `grow` shares a line's space by weight
    /// alone (CSS's `flex: 1`).
    public var basis: Double?
    /// The cross-axis alignment of this item; `nil`: the stack's.
    public var alignSelf: StackLayout.CrossAlignment?
    /// The stack leaves this item where it is and gives it no space (LVGL's
    /// `LV_OBJ_FLAG_IGNORE_LAYOUT`). Hidden layers are left out too.
    public var isIgnored: Bool

    public init(grow: Double = 0, shrink: Double = 0, basis: Double? = nil,
                alignSelf: StackLayout.CrossAlignment? = nil, isIgnored: Bool = false) {
        self.grow = grow; self.shrink = shrink; self.basis = basis; self.alignSelf = alignSelf; self.isIgnored = isIgnored
    }
}
