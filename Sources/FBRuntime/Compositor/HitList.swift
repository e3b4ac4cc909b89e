import Raster

/// One layer as hit testing sees it, recorded by the survey where it
/// resolves the layer (`Compositor.recordHit`): its map to the target,
/// its bounds and clip, the time its presented values are at, and where
/// it sits in the list (its superlayer's entry, its subtree's range, the
/// rendering context it belongs to).
///
/// Every layer the draw places gets one: not only the units drawn
/// straight into the target but the layers inside an offscreen pass, the
/// planes of a rendering context, each replica of a replicator's
/// sublayers, and layers that draw nothing or are transparent (opacity
/// does not matter to hit testing, as in Core Animation). A hidden,
/// non-finite or back-face-culled layer has none, and neither has its
/// subtree.
struct HitEntry {
    enum Kind: UInt8 {
        /// A layer that can be hit.
        case layer
        /// A layer that can be hit and is a plane of the rendering context
        /// `context` (`toContext` is its map into the context's space).
        case plane
        /// A transform layer: the root of a rendering context, whose
        /// subtree is its planes. Never hit itself.
        case context
    }

    let layer: Layer
    var kind: Kind
    /// Hits in the subtree are clipped to the rounded `bounds`.
    var masksToBounds: Bool
    /// Hits in the subtree are clipped where `layer.mask` is transparent.
    var hasMask: Bool
    /// Odd number of `isGeometryFlipped` mirrors down to the sublayers
    /// (where the mask is laid out).
    var sublayersFlipped: Bool
    /// The presented bounds differ from the model's (an animation runs on
    /// them): the layer is hit inside the presented rectangle rather than
    /// where `contains(_:)` (which reads the model) says.
    var boundsAnimated: Bool
    /// Bounds space → target pixels.
    var toTarget: ProjectiveTransform
    /// Standardised, presented bounds.
    var bounds: Rect
    /// The corners `masksToBounds` rounds.
    var radii: CornerRadii
    /// A plane's map from its bounds space into its context's space
    /// (z: depth, larger is nearer); identity otherwise.
    var toContext: Transform3D
    /// The layer's local time (custom properties are presented at it).
    var time: MediaTime
    /// Nesting depth (the mask is drawn one level below).
    var depth: Int32
    /// Index of the superlayer's entry (the replicator's, for a replica;
    /// the context's, for a plane); −1 at the top.
    var parent: Int
    /// Index of the innermost rendering context the entry lies in; −1
    /// for none.
    var context: Int
    /// One past the last entry of its subtree.
    var subtreeEnd: Int
}

/// The hit list of one survey: an entry per layer the draw places
/// (`HitEntry`), in drawing order, each followed by its subtree's
/// entries — pre-order, so reading it backwards meets the front-most
/// subtree first and, within it, the deepest layer first: the order in
/// which Core Animation hit-tests.
///
/// Kept by the compositor from frame to frame (this frame's entries and
/// the last frame's, whose ranges the survey replays for the subtrees it
/// takes over: `SurveyMemo.hits`), so recording allocates only when the
/// storage grows. Render-side state of one `Compositor`; not
/// thread-safe.
final class HitList {
    private(set) var entries: [HitEntry] = []
    private var previous: [HitEntry] = []
    /// The entry being filled (its subtree is being recorded), and the
    /// rendering context being recorded; −1 for none.
    private var open = -1
    private var context = -1
    /// Whether the last frame recorded a list (its memos' ranges hold).
    private(set) var recordedLastFrame = false
    /// Per entry, while a query runs: 0 not yet known, 1 its clips and
    /// those of its superlayers let the point through, 2 they do not.
    var passes: [UInt8] = []

    var count: Int { entries.count }

    /// Starts a frame's list; the last frame's stays until `endSurvey` for
    /// the ranges the survey replays. Returns whether the last frame was
    /// recorded the same way (`recording`), so its ranges can be replayed.
    func beginFrame(recording: Bool) -> Bool {
        let same = recording == recordedLastFrame
        recordedLastFrame = recording
        swap(&entries, &previous)
        entries.removeAll(keepingCapacity: true)
        open = -1
        context = -1
        return same
    }

    /// The survey is over: lets go of the last frame's layers.
    func endSurvey() { previous.removeAll(keepingCapacity: true) }

    /// Appends an entry for `r` (placed in `parent`) as a sublayer of the
    /// open entry, and opens it: what is recorded until `close` is its
    /// subtree. Returns its index.
    func open(_ r: Compositor.ResolvedLayer, parent: Compositor.ParentPlacement, depth: Int, plane: Bool) -> Int {
        let layer = r.layer
        let b = layer.bounds
        var toContext = Transform3D.identity
        if plane {
            toContext = r.p.geometry.toSuperlayer
            if !parent.sublayerSpace.isIdentity { toContext = toContext.concatenating(parent.sublayerSpace) }
        }
        return push(HitEntry(
            layer: layer, kind: plane ? .plane : .layer, masksToBounds: layer.masksToBounds, hasMask: layer.mask != nil,
            sublayersFlipped: r.sublayersFlipped,
            boundsAnimated: b.minX != r.bounds.minX || b.minY != r.bounds.minY
                || Swift.abs(b.width) != r.bounds.width || Swift.abs(b.height) != r.bounds.height,
            toTarget: r.toTarget, bounds: r.bounds, radii: r.radii, toContext: toContext, time: r.localTime,
            depth: Int32(truncatingIfNeeded: depth), parent: open, context: context, subtreeEnd: 0))
    }

    /// Appends the root of a rendering context (the transform layer
    /// `layer`) and opens it: its planes follow, until `close`.
    func openContext(_ layer: Layer, depth: Int) -> Int {
        let i = push(HitEntry(
            layer: layer, kind: .context, masksToBounds: false, hasMask: false, sublayersFlipped: false,
            boundsAnimated: false, toTarget: .identity, bounds: .zero, radii: CornerRadii(0), toContext: .identity,
            time: 0, depth: Int32(truncatingIfNeeded: depth), parent: open, context: context, subtreeEnd: 0))
        context = i
        return i
    }

    private func push(_ e: HitEntry) -> Int {
        let i = entries.count
        entries.append(e)
        open = i
        return i
    }

    /// Ends the subtree of entry `i` (which `open` returned).
    func close(_ i: Int) {
        entries[i].subtreeEnd = entries.count
        open = entries[i].parent
        if entries[i].kind == .context { context = entries[i].context }
    }

    // MARK: Replaying the last frame's entries

    /// True when the last frame's entries `range` are whole subtrees side
    /// by side (empty counts), the first of them `layer`'s when given.
    func isRunOfSubtrees(_ range: Range<Int>, first layer: Layer? = nil) -> Bool {
        guard range.lowerBound >= 0, range.upperBound <= previous.count else { return false }
        if let layer, !range.isEmpty, previous[range.lowerBound].layer !== layer { return false }
        return isRunOfPreOrderSubtrees(range) { previous[$0].subtreeEnd }
    }

    /// Appends the last frame's entries `range` again (whole subtrees:
    /// `isRunOfSubtrees`) as sublayers of the open entry; returns the index
    /// of the first. Their maps and bounds are the last frame's, which the
    /// survey found unchanged (`SurveyMemo`).
    func replay(_ range: Range<Int>) -> Int {
        let first = entries.count
        let shift = first - range.lowerBound
        var k = range.lowerBound
        while k < range.upperBound {
            var e = previous[k]
            e.parent = e.parent >= range.lowerBound ? e.parent + shift : open
            e.context = e.context >= range.lowerBound ? e.context + shift : context
            e.subtreeEnd += shift
            entries.append(e)
            k += 1
        }
        return first
    }

    /// Empties the list (recording turned off): lets go of its layers.
    func removeAll() {
        entries.removeAll(keepingCapacity: true)
        previous.removeAll(keepingCapacity: true)
        recordedLastFrame = false
    }
}
