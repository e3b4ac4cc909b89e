/// An object that lays out the sublayers of the layers it is set on (CA's
/// `CALayoutManager`), as `Layer.layoutManager`.
///
/// Called on the app thread, during a layout pass (`Layer.layoutIfNeeded()`,
/// which each outermost transaction commit runs before the tree is handed
/// to the render thread). Class-bound, so one manager can serve several
/// layers and Embedded Swift can hold it as an existential.
///
/// Writing one: read the layer's `bounds` (its own space, points) and set
/// each sublayer's `frame` (or `bounds` and `position`), which are in the
/// same space. Set only what changes: an unchanged value costs nothing,
/// a changed one is an ordinary property change of the transaction (it
/// animates implicitly in a displayed tree). Do not change the layer's own
/// size or its ancestors' here: such a change is laid out at the next
/// commit, not this one (see `docs/layout.md`).
public protocol LayoutManager: AnyObject {
    /// Places the sublayers of `layer` (CA's `layoutSublayers(of:)`).
    func layoutSublayers(of layer: Layer)
    /// The size `layer` would like, points, in its bounds space (CA's
    /// `preferredSize(of:)`); `nil` lets `Layer.preferredSize` fall back to
    /// the layer's own measure. Default `nil`.
    func preferredSize(of layer: Layer) -> Size?
    /// `layer.setNeedsLayout()` was called (CA's `invalidateLayout(of:)`):
    /// drop what the manager cached about it. Default: nothing.
    func invalidateLayout(of layer: Layer)
}

extension LayoutManager {
    public func preferredSize(of layer: Layer) -> Size? { nil }
    public func invalidateLayout(of layer: Layer) {}
}
