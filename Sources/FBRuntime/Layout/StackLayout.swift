/// Lays the sublayers out in a row or a column, one after the other, as
/// LVGL's flex layout and Slint's `HorizontalLayout`/`VerticalLayout` do
/// (the CSS flexbox model, simplified).
///
/// **Axes.** The main axis is x for `.row` and y for `.column`; the cross
/// axis is the other. Items go in sublayer order from the minimum edge of
/// the main axis (left, or top on screen in FBRuntime's y-down spaces),
/// inside the layer's `bounds` less `padding`, in the layer's bounds
/// space, points. Hidden sublayers and items with `isIgnored` are left out.
///
/// **Sizes.** Each item starts from a base size: `layoutItem.basis` on the
/// main axis if set, else its `preferredSize` (text measures itself, an
/// image its size, a plain layer its bounds). A line's free space (its
/// length less the bases and the gaps) goes to the items by `grow`; an
/// overflow is taken from them by `shrink` × base (never below 0). A
/// plain layer the stack grew or stretched keeps its base from before
/// (the stack remembers what it set; a size set by the app since is the
/// new base), so growing is not cumulative.
///
/// **Lines.** Without `wraps`, one line as thick as the inner bounds on
/// the cross axis. With `wraps`, an item that does not fit on the current
/// line (base sizes and `gap`s) starts a new one (each line holds at
/// least one item); a line is as thick as its thickest item, and lines
/// follow each other `lineGap` apart from the cross axis's minimum edge.
///
/// **Alignment.** `mainAlignment` places a line's items when space is
/// left after growing (the `space…` modes add it between items, as CSS,
/// and fall back to `.start` when nothing is left); `crossAlignment` (or
/// an item's `alignSelf`) places each item across its line, `.stretch`
/// making it as thick as the line.
///
/// **Bad input.** NaN or negative gaps, paddings, grow and shrink count as
/// 0; everything written is clamped by `LayoutLimits`.
///
/// Changing a property here does not re-lay out the layers using the
/// stack: call `setNeedsLayout()` on them.
public final class StackLayout: LayoutManager {
    public enum Direction: Equatable, Sendable { case row, column }

    /// Placement of a line's items along the main axis (LVGL's
    /// `lv_flex_align_t`, CSS's justify-content).
    public enum MainAlignment: Equatable, Sendable {
        case start, center, end
        /// Free space between the items, none at the ends.
        case spaceBetween
        /// Each item gets the same space on both sides (half at the ends).
        case spaceAround
        /// Equal space between items and at the ends.
        case spaceEvenly
    }

    /// Placement of an item across its line (CSS's align-items).
    public enum CrossAlignment: Equatable, Sendable { case start, center, end, stretch }

    public var direction: Direction
    /// Space between neighbouring items on a line, points.
    public var gap: Double
    /// Space between lines (with `wraps`), points.
    public var lineGap: Double
    /// Inside the bounds, points.
    public var padding: EdgeInsets
    public var wraps: Bool
    public var mainAlignment: MainAlignment
    public var crossAlignment: CrossAlignment

    public init(direction: Direction = .row, gap: Double = 0, lineGap: Double = 0, padding: EdgeInsets = .zero,
                wraps: Bool = false, mainAlignment: MainAlignment = .start, crossAlignment: CrossAlignment = .start) {
        self.direction = direction; self.gap = gap; self.lineGap = lineGap; self.padding = padding
        self.wraps = wraps; self.mainAlignment = mainAlignment; self.crossAlignment = crossAlignment
    }

    public func layoutSublayers(of layer: Layer) {
        let items = participants(of: layer)
        guard !items.isEmpty else { return }
        let inner = padding.inset(LayoutLimits.clamp(layer.bounds))
        let row = direction == .row
        var plan = StackPlan(mainLength: row ? inner.width : inner.height, crossLength: row ? inner.height : inner.width,
                             gap: LayoutLimits.clampLength(gap), lineGap: LayoutLimits.clampLength(lineGap),
                             wraps: wraps, mainAlignment: mainAlignment)
        var bases: [Size] = []
        bases.reserveCapacity(items.count)
        for item in items {
            let base = baseSize(of: item)
            bases.append(base)
            let settings = item.layoutState.item
            plan.items.append(StackPlan.Item(main: row ? base.width : base.height, cross: row ? base.height : base.width,
                                             grow: StackPlan.weight(settings.grow), shrink: StackPlan.weight(settings.shrink),
                                             alignment: settings.alignSelf ?? crossAlignment))
        }
        plan.solve()
        for (k, item) in items.enumerated() {
            let p = plan.placed[k]
            let frame = LayoutLimits.clamp(row
                ? Rect(x: inner.minX + p.main, y: inner.minY + p.cross, width: p.mainSize, height: p.crossSize)
                : Rect(x: inner.minX + p.cross, y: inner.minY + p.main, width: p.crossSize, height: p.mainSize))
            if item.frame != frame { item.frame = frame }
            item.layoutState.stackMemo = StackMemo(placed: item.bounds.size, base: bases[k])
        }
    }

    /// The size that holds every item at its base size on one line, with
    /// the gaps and the padding, points.
    public func preferredSize(of layer: Layer) -> Size? {
        let row = direction == .row
        var main = 0.0, cross = 0.0, count = 0
        for item in participants(of: layer) {
            let base = baseSize(of: item)
            main += row ? base.width : base.height
            cross = Swift.max(cross, row ? base.height : base.width)
            count += 1
        }
        if count > 1 { main += Double(count - 1) * LayoutLimits.clampLength(gap) }
        let p = EdgeInsets(top: LayoutLimits.clampLength(padding.top), left: LayoutLimits.clampLength(padding.left),
                           bottom: LayoutLimits.clampLength(padding.bottom), right: LayoutLimits.clampLength(padding.right))
        let size = row ? Size(width: main + p.left + p.right, height: cross + p.top + p.bottom)
                       : Size(width: cross + p.left + p.right, height: main + p.top + p.bottom)
        return LayoutLimits.clamp(size)
    }

    private func participants(of layer: Layer) -> [Layer] {
        layer.sublayers.filter { !$0.isHidden && !$0.layoutState.item.isIgnored }
    }

    /// The item's base size (see the type's description): its preferred
    /// size, except where that is just the size this stack set (a plain
    /// layer grown or stretched), which keeps the base it was set from;
    /// `basis` on the main axis.
    private func baseSize(of item: Layer) -> Size {
        let preferred = item.preferredSize
        var base = preferred
        if let memo = item.layoutState.stackMemo {
            let now = item.bounds.size
            if now.width == memo.placed.width && preferred.width == memo.placed.width { base.width = memo.base.width }
            if now.height == memo.placed.height && preferred.height == memo.placed.height { base.height = memo.base.height }
        }
        if let basis = item.layoutState.item.basis {
            if direction == .row { base.width = LayoutLimits.clampLength(basis) } else { base.height = LayoutLimits.clampLength(basis) }
        }
        return base
    }
}
