import Raster

extension Layer {
    /// The frontmost, deepest layer of this tree that contains `point` as
    /// the tree is on screen at `time` (its presentation values: animations
    /// applied), or `nil`. `point` is in the display space the receiver is
    /// drawn into (the root's superlayer space, points) — where touches land.
    ///
    /// Like CALayer's `hitTest(_:)`: hidden layers and their subtrees are
    /// skipped; sublayers are tried front to back (by `zPosition`, then tree
    /// order); a layer contains a point inside its bounds. A sublayer
    /// outside its superlayer's bounds can still be hit unless the
    /// superlayer `masksToBounds` (appliance layouts often use zero-sized
    /// containers). Points behind the eye under perspective miss.
    ///
    /// - Complexity: O(layers visited); allocates a little per layer with
    ///   out-of-order `zPosition`s.
    public func hitTest(_ point: Point, at time: MediaTime) -> Layer? {
        guard point.isFinite else { return nil }
        return hitTest(point, parentToDisplay: .identity, parentSublayerSpace: .identity, time: time, depth: 0)
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

    private func hitTest(_ point: Point, parentToDisplay: ProjectiveTransform, parentSublayerSpace: Transform3D,
                         time: MediaTime, depth: Int) -> Layer? {
        guard !isHidden, depth < Compositor.maximumDepth else { return nil }
        let layerTime = localTime(fromParent: time)
        let geometry = PresentationValues(self, at: layerTime).geometry
        guard geometry.bounds.isFinite else { return nil }
        var toSuperlayer = geometry.toSuperlayer
        if !parentSublayerSpace.isIdentity { toSuperlayer = toSuperlayer.concatenating(parentSublayerSpace) }
        let toDisplay = toSuperlayer.flattened.concatenating(parentToDisplay)
        guard toDisplay.isFinite, let inverse = toDisplay.inverted(),
              let local = inverse.apply(x: point.x, y: point.y) else { return nil }
        let b = geometry.bounds
        let inside = local.x >= b.minX && local.x < b.maxX && local.y >= b.minY && local.y < b.maxY
        if inside || !masksToBounds {
            let sublayerSpace = geometry.sublayerSpace
            for sublayer in sublayersFrontToBack() {
                if let hit = sublayer.hitTest(point, parentToDisplay: toDisplay, parentSublayerSpace: sublayerSpace,
                                              time: layerTime, depth: depth + 1) {
                    return hit
                }
            }
        }
        return inside ? self : nil
    }

    /// Sublayers front to back: highest `zPosition` first (NaN counts as
    /// 0), later in the tree first among equals.
    private func sublayersFrontToBack() -> [Layer] {
        func z(_ l: Layer) -> Double { l.zPosition.isNaN ? 0 : l.zPosition }
        let indices = sublayers.indices.sorted { a, b in
            let za = z(sublayers[a]), zb = z(sublayers[b])
            return za > zb || (za == zb && a > b)
        }
        return indices.map { sublayers[$0] }
    }
}
