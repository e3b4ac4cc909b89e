/// The model layers changed since a commit last captured them: what the
/// next `RenderTreeUpdate` carries (Core Animation's transaction keeps the
/// same list of layers it touched).
///
/// A layer joins the list the first time one of its model properties, its
/// custom values, animations, sublayers, mask or backing store change
/// after it has a render-tree twin (`noteModelChange()`); a layer without
/// a twin is captured whole when it gets one, so it needs no entry. A
/// capture takes the entries under its root, leaves the others (a layer
/// changed while out of the tree is captured when it comes back) and drops
/// those nothing else holds any more.
///
/// Threading: model layers belong to the app thread (or a thread holding
/// `Transaction.lock()`); the lock guards the list itself, because a layer
/// may be released, and its twin retired, on another thread.
enum ChangedLayers {
    nonisolated(unsafe) static var list: [Layer] = []
    static let lock = Lock()

    /// Moves the whole list out (app thread, at capture).
    static func takeAll() -> [Layer] {
        lock.withLock {
            let taken = list
            list = []
            return taken
        }
    }

    /// Puts back layers a capture did not take.
    static func putBack(_ layers: [Layer]) {
        guard !layers.isEmpty else { return }
        lock.withLock { list.append(contentsOf: layers) }
    }
}

extension Layer {
    /// Notes that the layer's model state changed, for the next commit
    /// (see `ChangedLayers`), and bumps `subtreeVersion` of the layer and
    /// of every layer above it (superlayers and mask owners), so the
    /// compositor's survey sees the subtrees that changed. O(depth); the
    /// commit's part is cheap after the first change: one flag.
    final func noteModelChange() {
        var above: Layer? = self
        var from: Layer?
        var steps = 0
        // Bounded: a loop made through masks (a layer's mask holding the
        // layer) must not hang the setter.
        while let l = above, steps <= Compositor.maximumDepth {
            l.subtreeVersion &+= 1
            // A layer with many sublayers lists those that changed, so the
            // survey finds them without looking at the others.
            if let c = from, !c.sublayerChanges.isListed, c.superlayer === l,
               l.sublayers.count >= Layer.changedSublayersMinimum {
                c.sublayerChanges.isListed = true
                l.sublayerChanges.changed.append(c)
            }
            from = l
            above = l.superlayer ?? l.maskOwner
            steps += 1
        }
        guard !handOff.isChanged, handOff.twin != nil else { return }
        handOff.isChanged = true
        ChangedLayers.lock.withLock { ChangedLayers.list.append(self) }
    }
}

/// A layer's bookkeeping of its changed sublayers, kept for the survey of
/// a layer with many of them (a list of rows, a grid of tiles), so that it
/// finds the few that changed without asking each of the others
/// (`Compositor.surveySublayerRuns`). Render-side state in effect: a model
/// layer keeps it too, but only a compositor rendering it reads it.
struct SublayerChanges {
    /// Bumped by every change of `sublayers` (added, removed, reordered).
    var version: UInt64 = 0
    /// Of a layer with at least `Layer.changedSublayersMinimum` sublayers:
    /// those whose subtree changed (`noteModelChange()`) since a survey
    /// last took the list, each once; emptied when `sublayers` changes.
    var changed: [Layer] = []
    /// This layer is in its superlayer's `changed`.
    var isListed = false
    /// This layer's index in its superlayer's `sublayers` when a survey
    /// last recorded it; checked before use.
    var indexHint = 0
    /// What the survey recorded about the sublayers as a whole.
    var runs: SiblingRunMemo?
}

extension Layer {
    /// Sublayer count from which a layer lists its changed sublayers
    /// (`SublayerChanges`) and the survey replays runs of unchanged ones at
    /// once (`Compositor.surveySublayerRuns`). Below it, replaying the
    /// sublayers one by one costs about as much as the bookkeeping. Tests
    /// lower it.
    nonisolated(unsafe) static var changedSublayersMinimum = 64

    /// Empties the list of changed sublayers (a change of `sublayers`
    /// makes the next survey walk them all; so does a survey taking it).
    final func forgetChangedSublayers() {
        var i = 0
        while i < sublayerChanges.changed.count { sublayerChanges.changed[i].sublayerChanges.isListed = false; i += 1 }
        sublayerChanges.changed.removeAll(keepingCapacity: true)
    }
}

extension Layer {
    /// How deep the layer is below `root` (0: it is `root`), going up
    /// through superlayers and mask owners; `nil` when it is not in
    /// `root`'s tree, or not within `Compositor.maximumDepth` of it (which
    /// also ends the walk in a loop made through masks: a layer's mask
    /// with the layer among its sublayers).
    final func depth(below root: Layer) -> Int? {
        var layer = self
        var depth = 0
        while layer !== root {
            guard depth < Compositor.maximumDepth else { return nil }
            if let s = layer.superlayer { layer = s } else if let o = layer.maskOwner { layer = o } else { return nil }
            depth += 1
        }
        return depth
    }
}
