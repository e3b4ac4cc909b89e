/// What a layer keeps for layout (stored in `Layer` as one field, so the
/// class body stays about geometry and pixels). App-thread state; render
/// twins and presentation copies never use it.
struct LayerLayoutState {
    /// `setNeedsLayout()` was called (or the bounds size changed) and the
    /// layer has not been laid out since.
    var needsLayout = false
    /// Some layer below this one needs layout: a pass descends here.
    var subtreeNeedsLayout = false
    /// Set while a layout pass is inside this layer (its `layoutSublayers`
    /// or its sublayers' passes): marks below stop here, and the pass
    /// looks at the sublayers again.
    var isVisiting = false
    /// The pass that last laid this layer out (each layer at most once a
    /// pass: see `LayoutPass`).
    var laidOutInPass: UInt64 = 0
    var manager: (any LayoutManager)?
    var constraints: [LayoutConstraint] = []
    var item = LayoutItem()
    var autoresizingMask: AutoresizingMask = []
    /// What a stack last set this layer's size to and the base size it
    /// grew or stretched it from (see `StackLayout`).
    var stackMemo: StackMemo?
    init() {}
}

/// A size a stack layout set and the base it computed it from.
struct StackMemo {
    var placed: Size
    var base: Size
}
