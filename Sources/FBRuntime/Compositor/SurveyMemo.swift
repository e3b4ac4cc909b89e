import Raster

/// What the survey (`Compositor.survey`) recorded for one layer's subtree
/// in one frame, so the next frame can take it over instead of walking
/// the subtree again (`Compositor.replaysUnchangedSubtrees`).
///
/// A survey of a subtree is a function of the subtree's model state, of
/// where its parent puts it (map, sublayer transform, mirror), of the
/// inherited opacity, clip and depth, and — through animations, particles
/// or tiles — of time. When the model state (`Layer.subtreeVersion`) and
/// the placement are those of the last frame and nothing in the subtree
/// depended on time (`varies` false), the survey's result is the last
/// frame's: the same units, with the same signatures, extents and opaque
/// rectangles, which the damage tracker then finds unchanged. The replay
/// copies them from the last frame's unit list (`units`, a contiguous
/// range there: a subtree's units follow its root's) without resolving a
/// layer or hashing a signature.
///
/// Separately, `cullBox` keeps the target box of the whole subtree from
/// the last time the off-clip test had to compute it, with the layer's map
/// then: while the subtree's version holds and the map only moved (same
/// linear part), the box moves with it, so a subtree scrolled off screen
/// is culled without walking it.
///
/// Kept in the layer (`Layer.surveyMemo`, a value: no allocation) and
/// owned by one compositor at a time (`token`): a second compositor
/// rendering the same tree takes memos over, and each one then finds the
/// other's and surveys afresh. Render-side state, like `PresentationMemo`.
struct SurveyMemo {
    /// The compositor that recorded it (`Compositor.surveyToken`).
    var token: UInt64 = 0
    /// The frame (`Compositor.frameNumber`) whose units `units` indexes.
    var frame: UInt64 = 0
    /// `Layer.subtreeVersion` when recorded.
    var version: UInt64 = 0
    /// Something in the survey of the subtree depended on time (or on
    /// state outside the model): never replayed.
    var varies = true
    /// The placement surveyed.
    var placement = SurveyPlacement()
    /// The subtree's units in that frame (empty when the layer was no
    /// unit: hidden, transparent, culled, off the clip).
    var units = 0 ..< 0
    /// The subtree's hit list entries in that frame (`HitList`; empty
    /// when the frame recorded none).
    var hits = 0 ..< 0
    /// Back faces the survey of the subtree culled (`statistics`).
    var layersCulled = 0

    // The off-clip test's box of the subtree (see above).
    var cullToken: UInt64 = 0
    var cullVersion: UInt64 = 0
    var cullDepth = -1
    var cullMap = ProjectiveTransform.identity
    var cullBox = BoundingBox.empty

    static func same(_ a: ProjectiveTransform, _ b: ProjectiveTransform) -> Bool {
        a.m00.bitPattern == b.m00.bitPattern && a.m01.bitPattern == b.m01.bitPattern && a.m02.bitPattern == b.m02.bitPattern
            && a.m10.bitPattern == b.m10.bitPattern && a.m11.bitPattern == b.m11.bitPattern
            && a.m12.bitPattern == b.m12.bitPattern && a.m20.bitPattern == b.m20.bitPattern
            && a.m21.bitPattern == b.m21.bitPattern && a.m22.bitPattern == b.m22.bitPattern
    }

    static func same(_ a: Transform3D, _ b: Transform3D) -> Bool {
        a.m11.bitPattern == b.m11.bitPattern && a.m12.bitPattern == b.m12.bitPattern
            && a.m13.bitPattern == b.m13.bitPattern && a.m14.bitPattern == b.m14.bitPattern
            && a.m21.bitPattern == b.m21.bitPattern && a.m22.bitPattern == b.m22.bitPattern
            && a.m23.bitPattern == b.m23.bitPattern && a.m24.bitPattern == b.m24.bitPattern
            && a.m31.bitPattern == b.m31.bitPattern && a.m32.bitPattern == b.m32.bitPattern
            && a.m33.bitPattern == b.m33.bitPattern && a.m34.bitPattern == b.m34.bitPattern
            && a.m41.bitPattern == b.m41.bitPattern && a.m42.bitPattern == b.m42.bitPattern
            && a.m43.bitPattern == b.m43.bitPattern && a.m44.bitPattern == b.m44.bitPattern
    }

    /// The translation (target pixels) that takes `cullMap` to `map` when
    /// both are affine with the same linear part, bit for bit; `nil`
    /// otherwise.
    func cullShift(to map: ProjectiveTransform) -> (dx: Double, dy: Double)? {
        let m = cullMap
        guard map.isAffine, m.isAffine, m.m00.bitPattern == map.m00.bitPattern, m.m01.bitPattern == map.m01.bitPattern,
              m.m10.bitPattern == map.m10.bitPattern, m.m11.bitPattern == map.m11.bitPattern else { return nil }
        let dx = map.m02 - m.m02, dy = map.m12 - m.m12
        guard dx.isFinite, dy.isFinite else { return nil }
        return (dx, dy)
    }
}

/// Where a subtree was surveyed: its parent's map to the target, sublayer
/// transform and mirror, the inherited opacity, the clip and the depth.
/// A survey recorded in one placement holds in the same one only
/// (`SurveyMemo`, and the sublayers' as a whole in `SiblingRunMemo`).
struct SurveyPlacement {
    var toTarget = ProjectiveTransform.identity
    var sublayerSpace = Transform3D.identity
    var flipped = false
    var opacity = 0.0
    var clip = IntRect.zero
    var depth = 0

    /// Records `parent`'s placement, `opacity`, `clip` and `depth`.
    mutating func record(_ parent: Compositor.ParentPlacement, opacity: Double, clip: IntRect, depth: Int) {
        toTarget = parent.toTarget
        sublayerSpace = parent.sublayerSpace
        flipped = parent.flipped
        self.opacity = opacity
        self.clip = clip
        self.depth = depth
    }

    /// True when this is the recorded placement, bit for bit (a −0 for a 0
    /// counts as a change, as in `LayerSignature`).
    func matches(_ parent: Compositor.ParentPlacement, opacity: Double, clip: IntRect, depth: Int) -> Bool {
        self.depth == depth && self.clip == clip && flipped == parent.flipped
            && self.opacity.bitPattern == opacity.bitPattern
            && SurveyMemo.same(toTarget, parent.toTarget) && SurveyMemo.same(sublayerSpace, parent.sublayerSpace)
    }
}
