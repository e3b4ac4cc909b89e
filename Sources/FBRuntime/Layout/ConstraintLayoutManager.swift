/// Places each sublayer that has `constraints` by them (CA's
/// `CAConstraintLayoutManager`). Sublayers without constraints are left
/// where they are (and can be referred to by name).
///
/// **Per axis.** A layer's constraints on one axis fix up to two of its
/// attributes there (x: minX, midX, maxX, width): two edges give the
/// position and the size; an edge and the size, both; a single edge keeps
/// the current size; the size alone keeps the layer's `position` (its
/// anchor point) and changes only the size, as setting `bounds.size` does;
/// none leaves the axis alone. The layer's `frame` is set (position and
/// size, transform ignored, as the frame setter does).
///
/// **Order.** A layer whose constraint names a sibling that has
/// constraints of its own is placed after that sibling (depth first, the
/// sublayers taken in order, each layer's constraints in order), so a
/// chain reads the siblings' new frames whatever their sublayer order.
///
/// **Bad input** (each reported once per layer through `Diagnostics`, and
/// returned by `solve(_:)` as `LayoutIssue`s; the layout never loops):
/// - a cycle (A on B on A, or a layer on its own name): the constraint
///   that closes it — met while its source is still being placed — is
///   ignored; the rest is placed as if it did not exist, so the result is
///   the same at every layout;
/// - a sibling name no sublayer has: that constraint is ignored;
/// - a third attribute on an axis, or an attribute twice: the first two
///   attributes of the axis (in the order of the constraints) win, the
///   others are ignored; two edges that give a negative size (maxX left of
///   minX) give size 0 at the first edge;
/// - a NaN or infinite scale or offset: the constraint is ignored. Values
///   are clamped by `LayoutLimits` (NaN inputs count as 0).
///
/// - Complexity: O(n · c · n) for n sublayers with c constraints each
///   (names are looked up linearly; layer counts here are small).
public final class ConstraintLayoutManager: LayoutManager {
    public init() {}

    public func layoutSublayers(of layer: Layer) {
        let solution = ConstraintLayoutManager.solve(layer)
        for placement in solution.placements where placement.layer.frame != placement.frame {
            placement.layer.frame = placement.frame
        }
        for (issue, about) in zip(solution.issues, solution.issueLayers) {
            Diagnostics.warn(about, issue.kind, issue.description)
        }
    }

    /// What `layoutSublayers(of:)` would do to `container`'s sublayers now,
    /// without doing it: the frames of the constrained sublayers, in the
    /// order they were placed, and the issues met.
    public static func solve(_ container: Layer) -> ConstraintSolution {
        var solver = ConstraintSolver(container)
        solver.solveAll()
        return solver.solution
    }
}

/// The result of `ConstraintLayoutManager.solve(_:)`.
public struct ConstraintSolution {
    public struct Placement {
        public let layer: Layer
        /// In the superlayer's bounds space, points; finite.
        public let frame: Rect
    }
    /// One per constrained sublayer, in the order they were placed.
    public internal(set) var placements: [Placement] = []
    public internal(set) var issues: [LayoutIssue] = []
    /// Per issue, the layer whose constraint was ignored.
    var issueLayers: [Layer] = []

    /// The frame placed for `layer`, if it was.
    public func frame(of layer: Layer) -> Rect? { placements.first { $0.layer === layer }?.frame }
}
