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
    /// kind (or the counts differ). The reference form, with arrays: the
    /// evaluators call the fixed-arity `weightedSum(_:_:_:_:…)` below, which
    /// gives the same values bit for bit (`AnimatableArithmeticTests`)
    /// without allocating for the fixed-size kinds.
    static func weightedSum(_ values: [AnimatableValue], _ weights: [Double]) -> AnimatableValue? {
        guard let first = values.first, values.count == weights.count, !first.components.isEmpty,
              values.allSatisfy({ $0.isSameKind(as: first) }) else { return nil }
        var sum = [Double](repeating: 0, count: first.components.count)
        for (v, w) in zip(values, weights) {
            for (i, c) in v.components.enumerated() { sum[i] += w * c }
        }
        return first.with(components: sum)
    }
}

// MARK: Without arrays

/// The components of a scalar, point, rect or colour (unused ones 0): what
/// the render thread's arithmetic works on, with no array to allocate.
struct FixedComponents: Equatable {
    var c0 = 0.0, c1 = 0.0, c2 = 0.0, c3 = 0.0
    /// How many are used (1, 2 or 4).
    var count = 0

    /// `self += w · v`, component by component in order (the reference's
    /// arithmetic: the same products and sums).
    mutating func add(_ v: FixedComponents, times w: Double) {
        c0 += w * v.c0
        if count > 1 { c1 += w * v.c1 }
        if count > 2 { c2 += w * v.c2; c3 += w * v.c3 }
    }
}

/// A weighted sum of values of one fixed-size kind, term by term: the
/// fixed-arity `weightedSum`s without arrays. `value` is `nil` once a term
/// of another kind was added (as the array form says).
private struct FixedSum {
    let kind: AnimatableValue
    var sum: FixedComponents
    var sameKind = true

    /// `nil` when `a` is not of a fixed-size kind (lists take the array form).
    init?(_ a: AnimatableValue, _ wa: Double) {
        guard let fa = a.fixedComponents else { return nil }
        kind = a
        sum = FixedComponents(count: fa.count)
        sum.add(fa, times: wa)
    }

    mutating func add(_ v: AnimatableValue, _ w: Double) {
        guard sameKind, v.isSameKind(as: kind), let f = v.fixedComponents else { sameKind = false; return }
        sum.add(f, times: w)
    }

    var value: AnimatableValue? { sameKind ? kind.with(fixed: sum) : nil }
}

extension AnimatableValue {
    /// The components of a fixed-size kind, in `components`' order; `nil`
    /// for lists, transforms and paths.
    var fixedComponents: FixedComponents? {
        switch self {
        case let .scalar(v): return FixedComponents(c0: v, count: 1)
        case let .point(p): return FixedComponents(c0: p.x, c1: p.y, count: 2)
        case let .rect(r): return FixedComponents(c0: r.origin.x, c1: r.origin.y, c2: r.size.width, c3: r.size.height, count: 4)
        case let .color(c): return FixedComponents(c0: c.red, c1: c.green, c2: c.blue, c3: c.alpha, count: 4)
        case .colors, .scalars, .transform, .path: return nil
        }
    }

    /// A value of `self`'s fixed-size kind built from `c`.
    func with(fixed c: FixedComponents) -> AnimatableValue {
        switch self {
        case .scalar: return .scalar(c.c0)
        case .point: return .point(Point(x: c.c0, y: c.c1))
        case .rect: return .rect(Rect(x: c.c0, y: c.c1, width: c.c2, height: c.c3))
        case .color: return .color(Color(red: c.c0, green: c.c1, blue: c.c2, alpha: c.c3))
        case .colors, .scalars, .transform, .path: return self
        }
    }

    /// `wa · a`: the zero of `a`'s kind for `wa` = 0.
    static func weightedSum(_ a: AnimatableValue, _ wa: Double) -> AnimatableValue? {
        guard let sum = FixedSum(a, wa) else { return weightedSum([a], [wa]) }
        return sum.value
    }

    /// `wa · a + wb · b`.
    static func weightedSum(_ a: AnimatableValue, _ wa: Double, _ b: AnimatableValue, _ wb: Double) -> AnimatableValue? {
        guard var sum = FixedSum(a, wa) else { return weightedSum([a, b], [wa, wb]) }
        sum.add(b, wb)
        return sum.value
    }

    /// `wa · a + wb · b + wc · c`.
    static func weightedSum(_ a: AnimatableValue, _ wa: Double, _ b: AnimatableValue, _ wb: Double,
                            _ c: AnimatableValue, _ wc: Double) -> AnimatableValue? {
        guard var sum = FixedSum(a, wa) else { return weightedSum([a, b, c], [wa, wb, wc]) }
        sum.add(b, wb); sum.add(c, wc)
        return sum.value
    }

    /// `wa · a + wb · b + wc · c + wd · d` (a cubic segment's four values).
    static func weightedSum(_ a: AnimatableValue, _ wa: Double, _ b: AnimatableValue, _ wb: Double,
                            _ c: AnimatableValue, _ wc: Double, _ d: AnimatableValue, _ wd: Double) -> AnimatableValue? {
        guard var sum = FixedSum(a, wa) else { return weightedSum([a, b, c, d], [wa, wb, wc, wd]) }
        sum.add(b, wb); sum.add(c, wc); sum.add(d, wd)
        return sum.value
    }

    /// Euclidean distance between the components (paced timing's metric),
    /// `nil` for values of different kinds: summed without arrays, for
    /// every kind (`AnimatableArithmeticTests` compare it with the array
    /// form it replaced).
    static func distanceBetween(_ a: AnimatableValue, _ b: AnimatableValue) -> Double? {
        guard a.isSameKind(as: b) else { return nil }
        // A helper that returns the square rather than a local function
        // adding to `s`: a closure capturing a variable allocates in debug.
        @inline(__always) func sq(_ x: Double, _ y: Double) -> Double { (x - y) * (x - y) }
        var s = 0.0
        switch (a, b) {
        case let (.colors(x), .colors(y)):
            guard !x.isEmpty else { return nil }
            var i = 0
            while i < x.count {
                s += sq(x[i].red, y[i].red); s += sq(x[i].green, y[i].green); s += sq(x[i].blue, y[i].blue); s += sq(x[i].alpha, y[i].alpha)
                i += 1
            }
        case let (.scalars(x), .scalars(y)):
            guard !x.isEmpty else { return nil }
            var i = 0
            while i < x.count { s += sq(x[i], y[i]); i += 1 }
        default:
            guard let fa = a.fixedComponents, let fb = b.fixedComponents else { return nil }
            s += sq(fa.c0, fb.c0)
            if fa.count > 1 { s += sq(fa.c1, fb.c1) }
            if fa.count > 2 { s += sq(fa.c2, fb.c2); s += sq(fa.c3, fb.c3) }
        }
        return s.squareRoot()
    }
}
