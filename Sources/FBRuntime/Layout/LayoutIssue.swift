/// A constraint the layout could not follow, and what it did instead
/// (`ConstraintLayoutManager`). Each names the layers involved; the
/// `description` is the message logged through `Diagnostics`.
public enum LayoutIssue: Equatable, Sendable, CustomStringConvertible {
    /// The constraints form a cycle: `cycle` lists the layers, each
    /// depending on the next, the last on the first. The constraint of
    /// `brokenAt` (the last layer), on `constraint` of the first, was
    /// ignored: it is the one that closed the cycle, going through the
    /// sublayers in order and each layer's constraints in order.
    case cycle(container: String, cycle: [String], brokenAt: String, constraint: String)
    /// No sibling has the name a constraint of `layer` refers to; the
    /// constraint was ignored.
    case unknownSource(container: String, layer: String, source: String, constraint: String)
    /// More than two attributes on one axis, or one attribute twice: the
    /// first two attributes (in the order of the constraints) are used and
    /// the constraint named here is ignored; or two edges that give a
    /// negative size: size 0 at the first edge. `reason` says which.
    case conflict(container: String, layer: String, constraint: String, reason: String)
    /// A constraint's scale or offset is NaN or infinite: ignored.
    case notFinite(container: String, layer: String, constraint: String)

    public var description: String {
        switch self {
        case let .cycle(container, cycle, brokenAt, constraint):
            let chain = (cycle + [cycle[0]]).map { "'\($0)'" }.joined(separator: " → ")
            return "constraint cycle among the sublayers of '\(container)': \(chain); broken by ignoring '\(brokenAt)'.\(constraint)"
        case let .unknownSource(container, layer, source, constraint):
            return "constraint '\(layer)'.\(constraint) refers to '\(source)', which is not a sublayer of '\(container)' (nor \"superlayer\"); ignored"
        case let .conflict(container, layer, constraint, reason):
            return "constraints of '\(layer)' in '\(container)' conflict at '\(layer)'.\(constraint): \(reason)"
        case let .notFinite(container, layer, constraint):
            return "constraint '\(layer)'.\(constraint) in '\(container)' has a NaN or infinite scale or offset; ignored"
        }
    }

    /// The layer the issue is about (the one whose constraint was ignored).
    public var layerName: String {
        switch self {
        case let .cycle(_, _, brokenAt, _): return brokenAt
        case let .unknownSource(_, layer, _, _), let .conflict(_, layer, _, _), let .notFinite(_, layer, _): return layer
        }
    }

    /// A short kind for `Diagnostics` (reported once per layer and kind).
    var kind: String {
        switch self {
        case .cycle: return "layout.cycle"
        case .unknownSource: return "layout.unknownSource"
        case .conflict: return "layout.conflict"
        case .notFinite: return "layout.notFinite"
        }
    }
}
