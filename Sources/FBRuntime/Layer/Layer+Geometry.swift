import Raster

// Frames, the matrices between layers, and conversion of points and
// rectangles between layers' spaces, as CALayer defines them. The model
// values are used (not animated presentation values).
//
// Conversion through 3-D transforms: every ordinary layer flattens its
// sublayers onto its own plane z = 0 (CATransformLayer, which does not, does
// not exist here). So the way from a layer's bounds space to its
// superlayer's space is one projective map of the plane, the 4×4
// `transformToSuperlayer` with z in and z out dropped
// (`Transform3D.flattened`), and a path through the tree is a chain of such
// 3×3 maps. Going down the tree applies the inverse 3×3, which is the same
// as casting a ray along z through the superlayer point and intersecting it
// with the sublayer's plane. Each step is applied on its own so a point
// behind the eye (w ≤ 0) at any level is caught.

extension Layer {
    /// The smallest rectangle enclosing the bounds in the superlayer's
    /// space, after `transform` (projected when it has perspective; see
    /// `LayerGeometry.frame`). Like CA's it does not include the
    /// superlayer's `sublayerTransform`.
    ///
    /// Setting it sets `position` and `bounds.size` only, as if `transform`
    /// were the identity: position = origin + anchorPoint·size. With a
    /// non-identity transform the frame read back differs from the one set
    /// (Core Animation calls the frame undefined then; this is what we do).
    public var frame: Rect {
        get { geometry.frame }
        set {
            bounds.size = Size(width: newValue.width, height: newValue.height)
            position = Point(x: newValue.minX + anchorPoint.x * newValue.width,
                             y: newValue.minY + anchorPoint.y * newValue.height)
        }
    }

    /// The full map from this layer's bounds space to its superlayer's
    /// bounds space: the layer's own geometry (flip, anchor, transform,
    /// position) followed by the superlayer's `sublayerTransform` about the
    /// superlayer's anchor point (see `LayerGeometry`). Without a
    /// superlayer, the map into the display space (the root's own geometry).
    public var transformToSuperlayer: Transform3D {
        let own = geometry.toSuperlayer
        guard let parent = superlayer else { return own }
        let parentSpace = parent.geometry.sublayerSpace
        return parentSpace.isIdentity ? own : own.concatenating(parentSpace)
    }

    /// The top of this layer's tree.
    public var rootLayer: Layer {
        var layer = self
        while let parent = layer.superlayer { layer = parent }
        return layer
    }

    // MARK: Converting

    /// `point`, given in `layer`'s bounds space, in this layer's bounds
    /// space.
    ///
    /// `layer == nil` means the display space: the space the root layer's
    /// `position` and `frame` are given in, which the compositor renders
    /// into (for a root with identity transform and `bounds.origin` zero,
    /// this is the root's own space shifted by its frame origin). Layers of
    /// different trees are related through the display space, as if each
    /// root were shown on the same display.
    ///
    /// Returns (NaN, NaN) when the point has no image: it lands behind the
    /// eye of a perspective transform on the way, a map on the way is
    /// singular (a layer scaled to zero or turned edge-on cannot be
    /// converted into), or a value is not finite. Never traps.
    public func convert(_ point: Point, from layer: Layer?) -> Point {
        Layer.convert(point, from: layer, to: self)
    }

    /// `point`, given in this layer's bounds space, in `layer`'s (display
    /// space when `nil`). See `convert(_:from:)`.
    public func convert(_ point: Point, to layer: Layer?) -> Point {
        Layer.convert(point, from: self, to: layer)
    }

    /// The smallest rectangle in this layer's bounds space enclosing `rect`
    /// of `layer`'s bounds space (display space when `nil`), its corners
    /// carried through every map on the way and the parts behind the eye
    /// clipped off. `Rect.null` when nothing of it is in front of the eye;
    /// NaN in every field when a map on the way is singular or a value is
    /// not finite.
    public func convert(_ rect: Rect, from layer: Layer?) -> Rect {
        Layer.convert(rect, from: layer, to: self)
    }

    /// `rect` of this layer's bounds space in `layer`'s. See
    /// `convert(_:from:)` for rectangles.
    public func convert(_ rect: Rect, to layer: Layer?) -> Rect {
        Layer.convert(rect, from: self, to: layer)
    }

    // MARK: The path between two layers

    /// The steps from `source`'s space to `destination`'s: the maps to apply
    /// going up (each a layer's flattened `transformToSuperlayer`), then the
    /// ones whose inverses apply going down, outermost first.
    private static func path(from source: Layer?, to destination: Layer?)
        -> (up: [ProjectiveTransform], down: [ProjectiveTransform]) {
        var sourceChain: [Layer] = []
        var l = source
        while let layer = l { sourceChain.append(layer); l = layer.superlayer }
        var destinationChain: [Layer] = []
        l = destination
        while let layer = l { destinationChain.append(layer); l = layer.superlayer }
        // The common ancestor: the deepest layer on both chains. Without one
        // both paths run up to the display space (the empty tail).
        var i = sourceChain.count, j = destinationChain.count
        while i > 0 && j > 0 && sourceChain[i - 1] === destinationChain[j - 1] { i -= 1; j -= 1 }
        let up = sourceChain[0..<i].map { $0.transformToSuperlayer.flattened }
        let down = destinationChain[0..<j].reversed().map { $0.transformToSuperlayer.flattened }
        return (up, down)
    }

    static func convert(_ point: Point, from source: Layer?, to destination: Layer?) -> Point {
        let failed = Point(x: .nan, y: .nan)
        guard point.isFinite else { return failed }
        let (up, down) = path(from: source, to: destination)
        var p = point
        for m in up {
            guard let q = m.apply(x: p.x, y: p.y) else { return failed }
            p = Point(x: q.x, y: q.y)
        }
        for m in down {
            guard let inverse = invert(m), let q = inverse.apply(x: p.x, y: p.y) else { return failed }
            p = Point(x: q.x, y: q.y)
        }
        return p.isFinite ? p : failed
    }

    static func convert(_ rect: Rect, from source: Layer?, to destination: Layer?) -> Rect {
        let (up, down) = path(from: source, to: destination)
        var polygon = ProjectedPolygon(rect)
        for m in up { polygon = polygon.mapped(by: m) }
        for m in down {
            guard let inverse = invert(m) else { return Rect(x: .nan, y: .nan, width: .nan, height: .nan) }
            polygon = polygon.mapped(by: inverse)
        }
        return polygon.boundingBox
    }

    /// The inverse of a flattened map with `Transform3D.inverted()`'s
    /// relative singularity test (rows nearly parallel, not merely short),
    /// embedding it in a 4×4 with z passed through. Note that a layer
    /// turned edge-on by `rotation(radians: .pi / 2, …)` is not singular in
    /// floating point — cos(π/2) is 6e-17, a tiny scale — so converting into
    /// it gives very large but finite coordinates.
    private static func invert(_ m: ProjectiveTransform) -> ProjectiveTransform? {
        let embedded = Transform3D(m11: m.m00, m12: m.m10, m13: 0, m14: m.m20,
                                   m21: m.m01, m22: m.m11, m23: 0, m24: m.m21,
                                   m31: 0, m32: 0, m33: 1, m34: 0,
                                   m41: m.m02, m42: m.m12, m43: 0, m44: m.m22)
        return embedded.inverted()?.flattened
    }
}
