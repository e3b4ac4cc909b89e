import Raster

extension Layer {
    /// The frontmost, deepest layer of this tree that contains `point` as
    /// the tree is on screen at `time` (its presentation values: animations
    /// applied), or `nil`. `point` is in the display space the receiver is
    /// drawn into (the root's superlayer space, points) — where touches land.
    ///
    /// Hit testing reads the hit list the compositor's survey records
    /// (`HitList`: one entry per layer the draw places, with the same
    /// placement, ordering, culling, rendering-context planes and replica
    /// placements as the draw), front to back, so it finds what is drawn:
    /// - hidden layers, layers with non-finite geometry, back faces of
    ///   layers with `isDoubleSided == false` and their subtrees are
    ///   skipped; sublayers are tried front to back (by `zPosition`, then
    ///   tree order); a layer is hit where its `contains(_:)` says so (the
    ///   point in its bounds space; while the bounds animate, inside the
    ///   presented bounds; custom properties read there are the presented
    ///   values at `time`). Opacity does not matter, as in CA;
    /// - `masksToBounds` clips the layer and its sublayers to the bounds
    ///   rounded by `cornerRadius` (a point in a rounded-off corner
    ///   misses); a `mask` layer clips them where its alpha is 0 (sampled
    ///   at the point). A sublayer outside its superlayer's bounds can
    ///   still be hit unless the superlayer masks (appliance layouts often
    ///   use zero-sized containers);
    /// - under a `TransformLayer`, the plane of its 3-D rendering context
    ///   nearest the viewer at the point wins;
    /// - a `ReplicatorLayer`'s instances are tried, last (front-most) first;
    ///   a hit on an instance returns the model sublayer it copies;
    /// - points behind the eye under perspective, and non-finite points,
    ///   miss.
    ///
    /// The list is recorded by a compositor of its own that draws nothing
    /// (no units, caches or tile requests; nothing is culled for being off
    /// screen). A renderer that hit tests every frame can have its own
    /// compositor record the list as it renders instead
    /// (`Compositor.recordsHitList`, `Compositor.hitTest(_:)`).
    ///
    /// - Complexity: O(layers placed, replicas counted once per instance);
    ///   allocates (a compositor's state, the list): not for the render
    ///   path.
    public func hitTest(_ point: Point, at time: MediaTime) -> Layer? {
        guard point.isFinite else { return nil }
        return Compositor(scale: 1).hitTest(self, at: time, point: point)
    }

    /// The presentation value of `key` at `time`: the model value with the
    /// layer's animations applied — what is on screen then (CA's
    /// `presentation()`, one property at a time); `time` is global media
    /// time, converted through the layers' timing. `nil` for keys the layer
    /// has no value for (an unset background colour; custom keys the
    /// layer's class does not declare).
    public func presentationValue(for key: AnimatableKey, at time: MediaTime) -> AnimatableValue? {
        let local = convertTime(time, from: nil)
        if case let .custom(name) = key { return customPresentationValue(forKey: name, atLocalTime: local) }
        return PresentationValues(self, at: local).value(for: key)
    }
}
