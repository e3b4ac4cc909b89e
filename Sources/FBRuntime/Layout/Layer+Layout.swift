// Layout on the model tree, as Core Animation's: a layer marked with
// `setNeedsLayout()` (or whose bounds size changed, or whose sublayers
// changed) has its `layoutSublayers()` called once, at the next outermost
// transaction commit, before the commit hands the tree to the render
// thread; superlayers before their sublayers. See `docs/layout.md`.

extension Layer {
    /// True when the layer has been marked for layout and not laid out
    /// since (CA's `needsLayout()`). Setting `bounds` or `frame` to another
    /// size, adding or removing a sublayer, and changing `layoutManager`
    /// mark the layer; its sublayers' `constraints` or `layoutItem` changes
    /// mark it too.
    public var needsLayout: Bool { layoutState.needsLayout }

    /// Marks the layer for layout: its `layoutSublayers()` runs at the next
    /// outermost transaction commit (or at `layoutIfNeeded()` before that),
    /// once however often this is called. In a displayed tree it opens the
    /// implicit transaction if none is open, so the layout happens by the
    /// end of the run-loop turn. Tells the layout manager
    /// (`invalidateLayout(of:)`). No effect on presentation layers.
    /// - Complexity: O(depth) (the ancestors are flagged so a pass finds
    ///   the layer; it stops at the first one already flagged).
    public func setNeedsLayout() {
        guard actionState.isModelSide else { return }
        if !layoutState.needsLayout {
            layoutState.needsLayout = true
            markAncestorsForLayout()
        }
        layoutState.manager?.invalidateLayout(of: self)
        if isInDisplayedTree { AppRunLoop.current.transactions.ensureImplicitTransaction() }
    }

    /// Lays out now what needs it at and below this layer (CA's
    /// `layoutIfNeeded()`): going up from this layer while the superlayer
    /// needs layout, then top down through that layer's subtree, each
    /// marked layer's `layoutSublayers()` once. Does nothing when nothing
    /// there is marked. Changes it makes are ordinary property changes
    /// (inside the current transaction, if one is open).
    public func layoutIfNeeded() {
        var top: Layer = self
        while let parent = top.superlayer, parent.layoutState.needsLayout { top = parent }
        guard top.layoutState.needsLayout || top.layoutState.subtreeNeedsLayout else { return }
        LayoutPass.run { LayoutPass.visit(top) }
    }

    /// The object that lays out the sublayers when the default
    /// `layoutSublayers()` runs (CA's `layoutManager`): a
    /// `ConstraintLayoutManager`, a `StackLayout`, or one of yours. Retained
    /// (one manager may serve many layers). Setting it marks the layer.
    public var layoutManager: (any LayoutManager)? {
        get { layoutState.manager }
        set { layoutState.manager = newValue; setNeedsLayout() }
    }

    /// The constraints placing this layer in its superlayer when the
    /// superlayer's layout manager is a `ConstraintLayoutManager` (CA's
    /// `constraints`). Setting them marks the superlayer for layout.
    public var constraints: [LayoutConstraint] {
        get { layoutState.constraints }
        set { layoutState.constraints = newValue; superlayer?.setNeedsLayout() }
    }

    /// Appends `constraint` to `constraints` (CA's `addConstraint(_:)`).
    public func addConstraint(_ constraint: LayoutConstraint) { constraints.append(constraint) }

    /// How a `StackLayout` superlayer treats this layer (grow, shrink,
    /// basis, alignment). Setting it marks the superlayer for layout.
    public var layoutItem: LayoutItem {
        get { layoutState.item }
        set { layoutState.item = newValue; superlayer?.setNeedsLayout() }
    }

    /// Tells the layer's superlayer that `preferredSize` may have changed:
    /// marks the superlayer for layout when it has a layout manager (a
    /// stack sizes items to their content). A text layer's text or font
    /// and a new contents image of another size call it.
    public func invalidatePreferredSize() {
        guard actionState.isModelSide, let parent = superlayer, parent.layoutState.manager != nil else { return }
        parent.setNeedsLayout()
    }

    /// `Layer.preferredSize`'s answer: the layout manager's, else the
    /// contents image's size in points (pixels / `contentsScale`; a scale
    /// that is not positive and finite counts as 1), else the bounds size.
    final var measuredPreferredSize: Size {
        if let manager = layoutState.manager, let s = manager.preferredSize(of: self) { return LayoutLimits.clamp(s) }
        if let image = contents {
            let scale = contentsScale > 0 && contentsScale.isFinite ? contentsScale : 1
            return LayoutLimits.clamp(Size(width: Double(image.width) / scale, height: Double(image.height) / scale))
        }
        return LayoutLimits.clamp(bounds.size)
    }

    // MARK: Hooks (called from Layer.swift)

    /// The bounds size changed from `old`: the layer needs layout, and its
    /// sublayers with an `autoresizingMask` follow at once (CA resizes them
    /// in `setBounds:`).
    final func boundsSizeDidChange(from old: Size) {
        guard actionState.isModelSide else { return }
        setNeedsLayout()
        resizeSublayers(withOldSize: old)
    }

    /// `layer` was just inserted among the sublayers: this layer needs
    /// layout, and the inserted subtree's marks now lead here.
    final func didInsertSublayerForLayout(_ layer: Layer) {
        guard actionState.isModelSide else { return }
        if layer.layoutState.needsLayout || layer.layoutState.subtreeNeedsLayout { layer.markAncestorsForLayout() }
        setNeedsLayout()
    }

    /// This layer became a display root: a tree built off screen with
    /// marks is laid out at the next commit.
    final func didBecomeDisplayRootForLayout() {
        if layoutState.needsLayout || layoutState.subtreeNeedsLayout { AppRunLoop.current.layoutQueue.add(self) }
    }

    /// Flags every ancestor as having a marked layer below, up to the
    /// first that already is or that a pass is inside (which then looks
    /// again). A display root reached this way waits in the run loop's
    /// layout queue for the next commit.
    final func markAncestorsForLayout() {
        var top: Layer = self
        while let parent = top.superlayer {
            if parent.layoutState.isVisiting { parent.layoutState.subtreeNeedsLayout = true; return }
            if parent.layoutState.subtreeNeedsLayout { return }
            parent.layoutState.subtreeNeedsLayout = true
            top = parent
        }
        if top.actionState.isDisplayRoot { AppRunLoop.current.layoutQueue.add(top) }
    }

    /// Sizes are the same (NaN equal to NaN, so a NaN size set twice is no
    /// change).
    static func sameSize(_ a: Size, _ b: Size) -> Bool {
        (a.width == b.width || (a.width.isNaN && b.width.isNaN)) && (a.height == b.height || (a.height.isNaN && b.height.isNaN))
    }
}
