/// Component arithmetic on animatable values, for keyframe splines, paced
/// timing, by-values and additive animations. Scalars (1), points (2),
/// rects (4: x, y, width, height) and colours (4: r, g, b, a) are vectors of
/// `Double`s; transforms and paths are not (they have no components, and
/// sums of them are `nil`, so callers fall back to plain interpolation).
extension AnimatableValue {
    /// The components, in a fixed order per kind.
    public var components: [Double] {
        switch self {
        case let .scalar(v): return [v]
        case let .point(p): return [p.x, p.y]
        case let .rect(r): return [r.origin.x, r.origin.y, r.size.width, r.size.height]
        case let .color(c): return [c.red, c.green, c.blue, c.alpha]
        case .transform, .path: return []
        }
    }

    /// A value of the same kind as `self` built from `components` (which
    /// must have the kind's count).
    func with(components c: [Double]) -> AnimatableValue {
        switch self {
        case .scalar: return .scalar(c[0])
        case .point: return .point(Point(x: c[0], y: c[1]))
        case .rect: return .rect(Rect(x: c[0], y: c[1], width: c[2], height: c[3]))
        case .color: return .color(Color(red: c[0], green: c[1], blue: c[2], alpha: c[3]))
        case .transform, .path: return self
        }
    }

    /// True when both values are of the same kind.
    func isSameKind(as other: AnimatableValue) -> Bool {
        switch (self, other) {
        case (.scalar, .scalar), (.point, .point), (.rect, .rect), (.color, .color),
             (.transform, .transform), (.path, .path): return true
        default: return false
        }
    }

    /// `Σ weightsᵢ · valuesᵢ`, or `nil` when the values are not all of one
    /// kind (or the counts differ).
    static func weightedSum(_ values: [AnimatableValue], _ weights: [Double]) -> AnimatableValue? {
        guard let first = values.first, values.count == weights.count, !first.components.isEmpty,
              values.allSatisfy({ $0.isSameKind(as: first) }) else { return nil }
        var sum = [Double](repeating: 0, count: first.components.count)
        for (v, w) in zip(values, weights) {
            for (i, c) in v.components.enumerated() { sum[i] += w * c }
        }
        return first.with(components: sum)
    }

    /// Euclidean distance between the components (paced timing's metric);
    /// `nil` for values of different kinds.
    static func distance(_ a: AnimatableValue, _ b: AnimatableValue) -> Double? {
        guard a.isSameKind(as: b), !a.components.isEmpty else { return nil }
        var s = 0.0
        for (x, y) in zip(a.components, b.components) { s += (x - y) * (x - y) }
        return s.squareRoot()
    }
}
