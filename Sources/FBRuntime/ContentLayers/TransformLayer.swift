/// A layer that makes a 3-D rendering context, as `CATransformLayer`: it
/// has no image of its own (its background, contents, border, shadow,
/// mask and `masksToBounds` are ignored) and does not flatten its
/// sublayers into its plane — it passes its transform on to them, so six
/// faces under one transform layer turn together as a cube.
///
/// Inside the context every ordinary sublayer is a plane (its own subtree
/// flattened into it, as usual); nested transform layers extend the
/// context. The planes are drawn back to front from the viewer, and
/// planes that cut through each other are split along each other so the
/// painter's order is right everywhere (see `Compositor`, 3-D rendering
/// contexts). `opacity` multiplies into every plane (there is no group).
open class TransformLayer: Layer {
    public override init(name: String = "transform") { super.init(name: name) }

    /// A `TransformLayer` with this layer's model properties (presentation copies,
    /// render-tree twins).
    open override func makePresentationCopy() -> Layer {
        let copy = TransformLayer(name: name)
        copy.copyLayerState(from: self)
        return copy
    }

    override var isTransformLayer: Bool { true }

}
