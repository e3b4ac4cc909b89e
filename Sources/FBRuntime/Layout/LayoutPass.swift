/// The top-down walk that lays out marked layers (app thread).
///
/// `visit(_:)` lays out a layer when it is marked (`layoutSublayers()`),
/// then descends into the sublayers that are marked or have marked layers
/// below, and looks at the sublayers again if the layout marked more of
/// them (a superlayer's layout resizing a sublayer marks it: that
/// sublayer is laid out in the same pass, after its superlayer).
///
/// Each layer is laid out at most once a pass. A layer marked again after
/// its layout in the pass — by its own layout, or by a sublayer's layout
/// changing an ancestor's size — is left marked for the next pass (the
/// next commit): a layout that keeps marking upwards costs one pass per
/// commit, never a hang. The walk ends because every extra look at the
/// sublayers follows a mark, and marks come from layouts, of which there
/// are at most as many as layers.
enum LayoutPass {
    /// The current pass (bumped by each outermost `run`).
    nonisolated(unsafe) static var stamp: UInt64 = 0
    nonisolated(unsafe) static var depth = 0
    /// Layers found marked again after their layout in this pass.
    nonisolated(unsafe) static var leftovers: [Layer] = []

    /// Runs `body` as one pass (nested runs — a `layoutIfNeeded()` inside
    /// a `layoutSublayers()` — join the outer pass). At the end of the
    /// outermost run, the leftovers are marked again up to their roots.
    static func run(_ body: () -> Void) {
        if depth == 0 { stamp &+= 1 }
        depth += 1
        body()
        depth -= 1
        guard depth == 0, !leftovers.isEmpty else { return }
        let again = leftovers
        leftovers.removeAll(keepingCapacity: true)
        for layer in again where layer.layoutState.needsLayout { layer.markAncestorsForLayout() }
    }

    static func visit(_ layer: Layer) {
        layer.layoutState.isVisiting = true
        if layer.layoutState.needsLayout {
            if layer.layoutState.laidOutInPass == stamp {
                leftovers.append(layer)
            } else {
                layer.layoutState.needsLayout = false
                layer.layoutState.laidOutInPass = stamp
                layer.layoutSublayers()
            }
        }
        while layer.layoutState.subtreeNeedsLayout {
            layer.layoutState.subtreeNeedsLayout = false
            for sublayer in layer.sublayers
            where sublayer.layoutState.needsLayout || sublayer.layoutState.subtreeNeedsLayout {
                visit(sublayer)
            }
        }
        layer.layoutState.isVisiting = false
        // Marked again during its own visit (by its layout or a sublayer's).
        if layer.layoutState.needsLayout { leftovers.append(layer) }
    }
}

/// The display roots with marked layers, laid out by the app run loop at
/// each outermost commit, inside the transaction, before `onCommit` hands
/// the tree on (app thread). Holds the roots strongly until then.
final class LayoutQueue {
    private var roots: [Layer] = []
    private var taking: [Layer] = []
    /// Commits in a row after which a root still needed layout.
    private(set) var unsettledCommits = 0
    /// After this many unsettled commits in a row, a leftover no longer
    /// forces another commit by itself (it waits for the app's next one),
    /// and a warning names the layer.
    static let maximumUnsettledCommits = 8

    init() {}

    var isEmpty: Bool { roots.isEmpty }

    func add(_ root: Layer) {
        if !roots.contains(where: { $0 === root }) { roots.append(root) }
    }

    /// Lays out the queued roots' trees. Returns true when a layer was left
    /// marked for the next commit and another commit should follow.
    /// Allocates nothing when the queue is empty.
    func layOut() -> Bool {
        guard !roots.isEmpty else { unsettledCommits = 0; return false }
        swap(&roots, &taking)
        LayoutPass.run {
            for queued in taking {
                let root = queued.rootLayer
                if root.layoutState.needsLayout || root.layoutState.subtreeNeedsLayout { LayoutPass.visit(root) }
            }
        }
        taking.removeAll(keepingCapacity: true)
        guard !roots.isEmpty else { unsettledCommits = 0; return false }
        unsettledCommits += 1
        if unsettledCommits == LayoutQueue.maximumUnsettledCommits, let root = roots.first {
            Diagnostics.warn(root, "layout.unsettled",
                             "layout did not settle: a layer in this tree was marked for layout again after its layout in \(LayoutQueue.maximumUnsettledCommits) commits in a row (a layoutSublayers() that changes its own layer's or an ancestor's size?); it is laid out once per commit from now on")
        }
        return unsettledCommits < LayoutQueue.maximumUnsettledCommits
    }
}
