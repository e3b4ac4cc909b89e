import Raster

/// A value an animation interpolates.
public enum AnimatableValue: Equatable, Sendable {
    case scalar(Double)
    case point(Point)
    case rect(Rect)
    case color(Color)
    /// Interpolated by decomposition (`Transform3D.interpolate`), never
    /// element by element.
    case transform(Transform3D)
    /// Interpolated point by point when both paths have the same verbs;
    /// otherwise a clean jump at the midpoint (documented: CA does
    /// "something weird").
    case path(Path)
    /// A list of colours (`GradientLayer.colors`), interpolated element by
    /// element when both lists have the same count; otherwise a clean jump
    /// at the midpoint.
    case colors([Color])
    /// A list of numbers (`GradientLayer.locations`,
    /// `ShapeLayer.lineDashPattern`), interpolated like `colors`.
    case scalars([Double])

    /// The value between `from` and `to` at `t` (0…1; values outside
    /// extrapolate, as timing functions with overshoot need). Mismatched
    /// kinds jump to `to` at the midpoint.
    public static func interpolate(_ from: AnimatableValue, _ to: AnimatableValue, _ t: Double) -> AnimatableValue {
        @inline(__always) func lerp(_ a: Double, _ b: Double) -> Double { a + (b - a) * t }
        switch (from, to) {
        case let (.scalar(a), .scalar(b)): return .scalar(lerp(a, b))
        case let (.point(a), .point(b)): return .point(Point(x: lerp(a.x, b.x), y: lerp(a.y, b.y)))
        case let (.rect(a), .rect(b)):
            return .rect(Rect(x: lerp(a.origin.x, b.origin.x), y: lerp(a.origin.y, b.origin.y),
                              width: lerp(a.size.width, b.size.width), height: lerp(a.size.height, b.size.height)))
        case let (.color(a), .color(b)):
            return .color(Color(red: lerp(a.red, b.red), green: lerp(a.green, b.green),
                                blue: lerp(a.blue, b.blue), alpha: lerp(a.alpha, b.alpha)))
        case let (.transform(a), .transform(b)):
            return .transform(Transform3D.interpolate(from: a, to: b, t: t))
        case let (.path(a), .path(b)):
            // One allocation: the points (the verbs are shared with `a`).
            guard let p = a.interpolated(to: b, t) else { return t < 0.5 ? from : to }
            return .path(p)
        case let (.colors(a), .colors(b)) where a.count == b.count:
            var c: [Color] = []
            interpolate(a, b, t, into: &c)
            return .colors(c)
        case let (.scalars(a), .scalars(b)) where a.count == b.count:
            var c: [Double] = []
            interpolate(a, b, t, into: &c)
            return .scalars(c)
        default: return t < 0.5 ? from : to
        }
    }
}

/// Turns an animated scalar (or point) into a transform, so `transform`
/// can be driven by one number — rotating from 0 to 4π turns twice, which
/// interpolating matrices cannot express (CAValueFunction).
public enum ValueFunction: Equatable, Sendable {
    case rotateX, rotateY, rotateZ
    case scale, scaleX, scaleY, scaleZ
    case translate, translateX, translateY, translateZ

    /// The transform for `value` (radians, factors or points); `nil` for a
    /// value of the wrong kind. `scale` and `translate` take a scalar
    /// (uniform / along x) or a point (x, y).
    public func transform(for value: AnimatableValue) -> Transform3D? {
        switch (self, value) {
        case let (.rotateX, .scalar(a)): return Transform3D(rotationAngle: a, x: 1, y: 0, z: 0)
        case let (.rotateY, .scalar(a)): return Transform3D(rotationAngle: a, x: 0, y: 1, z: 0)
        case let (.rotateZ, .scalar(a)): return Transform3D(rotationAngle: a, x: 0, y: 0, z: 1)
        case let (.scale, .scalar(s)): return Transform3D(scaleX: s, y: s, z: s)
        case let (.scale, .point(p)): return Transform3D(scaleX: p.x, y: p.y)
        case let (.scaleX, .scalar(s)): return Transform3D(scaleX: s, y: 1)
        case let (.scaleY, .scalar(s)): return Transform3D(scaleX: 1, y: s)
        case let (.scaleZ, .scalar(s)): return Transform3D(scaleX: 1, y: 1, z: s)
        case let (.translate, .scalar(d)): return Transform3D(translationX: d, y: 0)
        case let (.translate, .point(p)): return Transform3D(translationX: p.x, y: p.y)
        case let (.translateX, .scalar(d)): return Transform3D(translationX: d, y: 0)
        case let (.translateY, .scalar(d)): return Transform3D(translationX: 0, y: d)
        case let (.translateZ, .scalar(d)): return Transform3D(translationX: 0, y: 0, z: d)
        default: return nil
        }
    }
}

extension AnimatableValue {
    /// Colour lists of one count interpolated element by element into
    /// `out`'s storage (emptied first): `interpolate`'s arithmetic, for a
    /// caller that keeps the storage from frame to frame.
    static func interpolate(_ a: [Color], _ b: [Color], _ t: Double, into out: inout [Color]) {
        @inline(__always) func lerp(_ a: Double, _ b: Double) -> Double { a + (b - a) * t }
        out.removeAll(keepingCapacity: true)
        out.reserveCapacity(a.count)
        var i = 0
        while i < a.count {
            out.append(Color(red: lerp(a[i].red, b[i].red), green: lerp(a[i].green, b[i].green),
                             blue: lerp(a[i].blue, b[i].blue), alpha: lerp(a[i].alpha, b[i].alpha)))
            i += 1
        }
    }

    /// Number lists of one count, likewise.
    static func interpolate(_ a: [Double], _ b: [Double], _ t: Double, into out: inout [Double]) {
        out.removeAll(keepingCapacity: true)
        out.reserveCapacity(a.count)
        var i = 0
        while i < a.count { out.append(a[i] + (b[i] - a[i]) * t); i += 1 }
    }
}
