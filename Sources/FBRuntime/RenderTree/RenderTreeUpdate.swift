import Raster

/// What the commit hand-off keeps on a model layer (app-thread state).
struct LayerHandOffState {
    /// The layer's render-side twin: made once, at the first commit that
    /// reaches the layer, then updated in place by every update. The app
    /// thread only holds the reference (its identity names the twin in
    /// updates); it never reads or writes the twin's fields.
    var twin: Layer?
    /// The last copy of the layer's backing store handed to the render
    /// thread, and the `serial` of the backing store it copies.
    var handedContents: LayerContents?
    var handedSerial: UInt64 = 0
    /// In `ChangedLayers.list`: changed since its last capture.
    var isChanged = false
    /// The number of the capture that took it last.
    var capturedIn: UInt64 = 0
    init() {}
}

/// One commit's state of a model layer tree, made on the app thread and
/// applied to the render tree on the render thread (Core Animation's
/// commit to the render server).
///
/// **The render tree.** Each model layer that reaches a commit has one
/// *twin*: a layer of the same class (`makePresentationCopy()`), created at
/// the first commit that reaches it and updated in place afterwards with
/// `copyLayerState(from:)`, its animations, its sublayer list and its mask.
/// Twins keep their identity across commits, so everything the compositor
/// keys by layer identity — damage tracking, shadow, stroke, gradient and
/// text caches, rasterize bitmaps — keeps working. The render thread reads
/// and renders only twins; the app thread only model layers.
///
/// **Capture** (`init(capturing:at:)`, app thread) takes only what changed
/// since the last commit: the layers in `ChangedLayers` (any model
/// property, custom value, animation, sublayer list, mask or backing store
/// set since) that are in the tree. First the display pass of those that
/// need it (`draw(in:)` app code runs here, not on the render thread), then
/// for each a detached copy of its model properties (`LayerProperties`
/// and the subclass's), its animations as they are, custom property
/// values, contents reference and the twins of its sublayers and mask. A
/// sublayer or mask without a twin yet is new to the render tree: it is
/// captured with its whole subtree. The first capture of a tree takes
/// every layer.
///
/// - Complexity: O(changed layers × their depth + new layers) time and one
///   copy allocated per captured layer, on the app thread; applying it
///   costs the same on the render thread, at most once per frame (several
///   queued updates are applied in order). A 10,000-row tree with one row
///   changed captures that row.
///
/// **Contents.** A `contents` image is shared, not copied: change an image
/// the render tree may show only by setting a new one (editing its pixels
/// in place races with the renderer). The exception is a backing store
/// drawn by `draw(in:)`: the layer redraws into it at later commits, so the
/// update carries a copy of it, made once per redraw.
///
/// **Lifetimes.** A model layer keeps its twin; when the model layer is
/// freed (on the app thread, which owns the model tree) the twin is handed
/// to the next update and freed with it on the render thread.
///
/// **Limits.** Custom properties whose animation redraws the layer
/// (`needsDisplay(forKey:)`) are redrawn at each commit, not each frame:
/// between commits the render thread shows the last drawing. Fonts,
/// `EmitterCell`s and paths' storage are shared objects: do not change them
/// once handed over (set new ones). Layers deeper than
/// `Compositor.maximumDepth` are not captured (the compositor would not
/// draw them).
public final class RenderTreeUpdate {
    struct Entry {
        let twin: Layer
        let state: Layer
        let animations: [(key: String, animation: Animation)]
        let sublayers: [Layer]
        let mask: Layer?
    }

    private(set) var entries: [Entry] = []
    /// Twins whose model layers died before this commit: held until the
    /// render thread drops the update, so they are freed there (a twin's
    /// deinit touches its render-side sublayers).
    private var retired: [Layer] = []

    /// Twins of model layers freed since the last capture, guarded by
    /// `retiringLock`: the model tree belongs to the app thread, but the
    /// last reference to a model layer may go on another one (a thread that
    /// removed a layer under `Transaction.lock()` and let go of it after
    /// `unlock()`), so its deinit runs there, concurrently with a capture.
    nonisolated(unsafe) private static var retiring: [Layer] = []
    private static let retiringLock = Lock()

    /// Called by a model layer's deinit (any thread): the twin goes to the
    /// render thread with the next update.
    static func retire(_ twin: Layer) { retiringLock.withLock { retiring.append(twin) } }
    /// The twin of the captured root: the root of the render tree (render
    /// thread state once applied).
    public let root: Layer
    /// The commit time, global media time (seconds).
    public let commitTime: MediaTime
    /// How many commits this update carries (more than one once the queue
    /// coalesced it with later ones).
    public private(set) var commitCount = 1
    /// True when every layer of the tree is in it (the first capture of a
    /// tree, or one asked for `everything`): a later complete update then
    /// replaces an earlier one outright when they are coalesced; a partial
    /// one is merged entry by entry.
    let isComplete: Bool

    /// Layers captured.
    public var layerCount: Int { entries.count }

    /// Captures what changed in `root`'s tree since the last commit (app
    /// thread), after running the display pass of the layers that need it,
    /// at `time` (global media time, seconds). The first capture of a tree
    /// (its root has no twin yet) takes all of it.
    public convenience init(capturing root: Layer, at time: MediaTime) {
        self.init(capturing: root, at: time, everything: false)
    }

    /// With `everything`, every layer of the tree is captured (and the
    /// whole tree's display pass runs), changed or not: a render loop's
    /// first update, and the tests' reference for the partial ones.
    init(capturing root: Layer, at time: MediaTime, everything: Bool) {
        commitTime = time
        let whole = everything || root.handOff.twin == nil
        self.root = RenderTreeUpdate.twin(of: root)
        isComplete = whole
        RenderTreeUpdate.captureCount &+= 1
        captureNumber = RenderTreeUpdate.captureCount
        if whole {
            root.displayIfNeeded(at: time)
            capture(root, depth: 0)
            var rest = ChangedLayers.takeAll()
            let number = captureNumber
            rest.removeAll { $0.handOff.capturedIn == number }
            keepChanged(&rest)
        } else {
            captureChanges(under: root, at: time)
        }
        retired = RenderTreeUpdate.retiringLock.withLock {
            let r = RenderTreeUpdate.retiring
            RenderTreeUpdate.retiring = []
            return r
        }
    }

    /// Captures the changed layers under `root` (see `ChangedLayers`): each
    /// one's own state and sublayer list; sublayers and masks that have no
    /// twin yet with their whole subtree.
    private func captureChanges(under root: Layer, at time: MediaTime) {
        var changed = ChangedLayers.takeAll()
        var others: [Layer] = []
        var mine: [(layer: Layer, depth: Int, localTime: MediaTime)] = []
        for layer in changed {
            if let depth = layer.depth(below: root) {
                mine.append((layer, depth, layer.convertTime(time, from: nil)))
            } else {
                others.append(layer)
            }
        }
        changed.removeAll()
        // The display pass first: it changes what is captured (contents).
        for (layer, _, local) in mine { layer.displaySelfIfNeeded(atLocalTime: local) }
        for (layer, depth, local) in mine where layer.handOff.capturedIn != captureNumber {
            if depth < Compositor.maximumDepth { captureOne(layer, depth: depth, localTime: local) } else { layer.handOff.isChanged = false }
        }
        keepChanged(&others)
    }

    /// The layers of `list` go back to `ChangedLayers`, except those only
    /// the list still holds (released by the app while out of the tree):
    /// they are let go here.
    private func keepChanged(_ kept: inout [Layer]) {
        var i = 0
        while i < kept.count {
            if isKnownUniquelyReferenced(&kept[i]) {
                kept[i].handOff.isChanged = false
                kept.remove(at: i)
            } else {
                i += 1
            }
        }
        ChangedLayers.putBack(kept)
    }

    /// Numbers the captures, so a layer met twice in one is captured once.
    nonisolated(unsafe) private static var captureCount: UInt64 = 0
    private var captureNumber: UInt64 = 0

    private init(root: Layer, commitTime: MediaTime, entries: [Entry], commitCount: Int, isComplete: Bool,
                 retired: [Layer]) {
        self.root = root; self.commitTime = commitTime; self.entries = entries
        self.commitCount = commitCount; self.isComplete = isComplete; self.retired = retired
    }

    static func twin(of layer: Layer) -> Layer {
        if let t = layer.handOff.twin { return t }
        let t = layer.makePresentationCopy()
        t.actionState.isRenderTwin = true
        layer.handOff.twin = t
        return t
    }

    /// Captures `layer` and its whole subtree.
    private func capture(_ layer: Layer, depth: Int) {
        guard depth < Compositor.maximumDepth else { return }
        captureState(of: layer)
        if let mask = layer.mask { capture(mask, depth: depth + 1) }
        for s in layer.sublayers { capture(s, depth: depth + 1) }
    }

    /// Captures `layer` (a changed one) alone; a sublayer or mask met
    /// without a twin is new to the render tree and captured whole, after
    /// its own display pass.
    /// `localTime` is the layer's local time at the commit (its new
    /// sublayers' parent time).
    private func captureOne(_ layer: Layer, depth: Int, localTime: MediaTime) {
        if let mask = layer.mask, mask.handOff.twin == nil {
            mask.displayIfNeeded(at: localTime, depth: depth + 1)
            capture(mask, depth: depth + 1)
        }
        for s in layer.sublayers where s.handOff.twin == nil {
            s.displayIfNeeded(at: localTime, depth: depth + 1)
            capture(s, depth: depth + 1)
        }
        captureState(of: layer)
    }

    /// One entry: the layer's model state, animations, sublayer twins and
    /// mask twin. A layer whose display pass must run at every commit
    /// (`redisplaysEveryCommit`) stays changed for the next one.
    private func captureState(of layer: Layer) {
        guard layer.handOff.capturedIn != captureNumber else { return }
        layer.handOff.capturedIn = captureNumber
        let twin = RenderTreeUpdate.twin(of: layer)
        let state = layer.makePresentationCopy()
        state.contents = RenderTreeUpdate.handedContents(of: layer)
        var subs: [Layer] = []
        subs.reserveCapacity(layer.sublayers.count)
        for s in layer.sublayers { subs.append(RenderTreeUpdate.twin(of: s)) }
        let maskTwin = layer.mask.map { RenderTreeUpdate.twin(of: $0) }
        entries.append(Entry(twin: twin, state: state, animations: layer.animations, sublayers: subs, mask: maskTwin))
        layer.handOff.isChanged = false
        if layer.redisplaysEveryCommit { layer.noteModelChange() }
    }

    /// The contents to hand over: the layer's own, except a backing store
    /// `draw(in:)` paints into, which is copied once per redraw.
    private static func handedContents(of layer: Layer) -> LayerContents? {
        guard let contents = layer.contents else { return nil }
        guard let store = layer.actionState.displayStore, contents === store.contents else { return contents }
        if let handed = layer.handOff.handedContents, layer.handOff.handedSerial == contents.serial { return handed }
        guard let copy = Surface<ARGB8888>(width: contents.width, height: contents.height) else { return nil }
        let source = contents.image.view, target = copy.view
        var y = 0
        while y < source.height { target.row(y).update(from: source.row(y), count: source.width); y += 1 }
        let handed = LayerContents(copy, isOpaque: contents.isOpaque)
        layer.handOff.handedContents = handed
        layer.handOff.handedSerial = contents.serial
        return handed
    }

    /// This update with `newer` applied after it: one update that leaves
    /// the render tree as applying both in turn would.
    func coalesced(with newer: RenderTreeUpdate) -> RenderTreeUpdate {
        let count = commitCount + newer.commitCount
        if newer.isComplete {
            return RenderTreeUpdate(root: newer.root, commitTime: newer.commitTime, entries: newer.entries,
                                    commitCount: count, isComplete: true, retired: retired + newer.retired)
        }
        // A partial update: keep our entries for the twins it does not
        // name (sorted identities, binary search), then its own.
        var named = newer.entries.map { ObjectIdentifier($0.twin) }
        named.sort()
        var merged: [Entry] = []
        merged.reserveCapacity(entries.count + newer.entries.count)
        for e in entries {
            let id = ObjectIdentifier(e.twin)
            var lo = 0, hi = named.count
            while lo < hi { let mid = (lo + hi) / 2; if named[mid] < id { lo = mid + 1 } else { hi = mid } }
            if lo == named.count || named[lo] != id { merged.append(e) }
        }
        merged.append(contentsOf: newer.entries)
        return RenderTreeUpdate(root: newer.root, commitTime: newer.commitTime, entries: merged,
                                commitCount: count, isComplete: isComplete, retired: retired + newer.retired)
    }

    /// Brings the twins to this update's state (render thread; `RenderLoop`
    /// does it at the start of a frame, and so can a loop of one's own).
    /// Allocation-free when the tree's shape is unchanged, besides what
    /// the copied properties' own setters do.
    ///
    /// Three passes: every changed sublayer list lets go of its layers,
    /// then the new lists take theirs (so no twin is ever under itself,
    /// not even between two entries: a parent and child that swapped
    /// places), then the states and animations are copied into a tree of
    /// the final shape.
    public func apply() {
        for e in entries where !RenderTreeUpdate.same(e.twin.sublayers, e.sublayers) {
            e.twin.detachRenderSublayers()
        }
        for e in entries {
            if !RenderTreeUpdate.same(e.twin.sublayers, e.sublayers) { e.twin.attachRenderSublayers(e.sublayers) }
            if e.twin.mask !== e.mask { e.twin.setMaskInPlace(e.mask) }
        }
        for e in entries {
            e.twin.copyLayerState(from: e.state)
            e.twin.animations = e.animations
        }
    }

    private static func same(_ a: [Layer], _ b: [Layer]) -> Bool {
        guard a.count == b.count else { return false }
        var i = 0
        while i < a.count { if a[i] !== b[i] { return false }; i += 1 }
        return true
    }
}
