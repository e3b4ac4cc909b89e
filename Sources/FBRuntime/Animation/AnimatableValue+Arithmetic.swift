/// Component arithmetic on animatable values, for keyframe splines, paced
/// timing, by-values and additive animations. Scalars (1), points (2),
/// rects (4: x, y, width, height), colours (4: r, g, b, a) and lists of
/// colours (4 per colour) and numbers are vectors of `Double`s (lists only
/// combine with lists of the same count); transforms and paths are not (they have no components, and
/// sums of them are `nil`, so callers fall back to plain interpolation).
extension AnimatableValue {
    /// The components, in a fixed order per kind.
    public var components: [Double] {
        switch self {
        case let .scalar(v): return [v]
        case let .point(p): return [p.x, p.y]
        case let .rect(r): return [r.origin.x, r.origin.y, r.size.width, r.size.height]
        case let .color(c): return [c.red, c.green, c.blue, c.alpha]
        case let .colors(list):
            var r: [Double] = []
            r.reserveCapacity(list.count * 4)
            for c in list { r.append(c.red); r.append(c.green); r.append(c.blue); r.append(c.alpha) }
            return r
        case let .scalars(list): return list
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
        case .colors:
            var list: [Color] = []
            var i = 0
            while i + 3 < c.count { list.append(Color(red: c[i], green: c[i + 1], blue: c[i + 2], alpha: c[i + 3])); i += 4 }
            return .colors(list)
        case .scalars: return .scalars(c)
        case .transform, .path: return self
        }
    }

    /// True when both values are of the same kind, lists of any length
    /// counting as one kind (what a property accepts).
    func isSameKindIgnoringCount(as other: AnimatableValue) -> Bool {
        switch (self, other) {
        case (.colors, .colors), (.scalars, .scalars): return true
        default: return isSameKind(as: other)
        }
    }

    /// True when both values are of the same kind (lists: and length).
    func isSameKind(as other: AnimatableValue) -> Bool {
        switch (self, other) {
        case (.scalar, .scalar), (.point, .point), (.rect, .rect), (.color, .color),
             (.transform, .transform), (.path, .path): return true
        case let (.colors(a), .colors(b)): return a.count == b.count
        case let (.scalars(a), .scalars(b)): return a.count == b.count
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
