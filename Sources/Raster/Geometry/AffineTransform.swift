/// A 2-D affine transform, laid out like `CGAffineTransform`:
///
///     x' = a·x + c·y + tx
///     y' = b·x + d·y + ty
///
/// i.e. the matrix `[a b 0; c d 0; tx ty 1]` applied to row vectors. Paths,
/// paints and the compositor share it. Only IEEE basic operations (+ − × ÷)
/// are used, never fused, so the same inputs give the same bits on x86-64
/// and arm64.
public struct AffineTransform: Equatable, Sendable {
    public var a: Double, b: Double, c: Double, d: Double, tx: Double, ty: Double

    @inlinable public init(a: Double, b: Double, c: Double, d: Double, tx: Double, ty: Double) {
        self.a = a; self.b = b; self.c = c; self.d = d; self.tx = tx; self.ty = ty
    }

    public static let identity = AffineTransform(a: 1, b: 0, c: 0, d: 1, tx: 0, ty: 0)

    @inlinable public init(translationX x: Double, y: Double) { self.init(a: 1, b: 0, c: 0, d: 1, tx: x, ty: y) }
    @inlinable public init(scaleX sx: Double, y sy: Double) { self.init(a: sx, b: 0, c: 0, d: sy, tx: 0, ty: 0) }
    /// A rotation by `angle` radians; with y pointing down a positive angle
    /// turns clockwise on screen (+x towards +y), as Core Graphics on iOS.
    public init(rotationAngle angle: Double) {
        let (s, co) = FloatMath.sinCos(angle)
        self.init(a: co, b: s, c: -s, d: co, tx: 0, ty: 0)
    }

    @inlinable public static func translation(x: Double, y: Double) -> AffineTransform { AffineTransform(translationX: x, y: y) }
    @inlinable public static func scale(x: Double, y: Double) -> AffineTransform { AffineTransform(scaleX: x, y: y) }
    public static func rotation(radians: Double) -> AffineTransform { AffineTransform(rotationAngle: radians) }

    @inlinable public var isIdentity: Bool { self == .identity }

    /// True when the transform moves by whole pixels without scaling,
    /// turning or shearing (a blit instead of a resample).
    @inlinable public var isWholePixelTranslation: Bool {
        a == 1 && b == 0 && c == 0 && d == 1 && tx == tx.rounded() && ty == ty.rounded()
    }

    /// True when every coefficient is finite.
    @inlinable public var isFinite: Bool {
        a.isFinite && b.isFinite && c.isFinite && d.isFinite && tx.isFinite && ty.isFinite
    }

    /// `self` followed by `t` (`CGAffineTransformConcat(self, t)`): applying
    /// the result equals applying `self` and then `t`.
    @inlinable public func concatenating(_ t: AffineTransform) -> AffineTransform {
        AffineTransform(a: a * t.a + b * t.c, b: a * t.b + b * t.d,
                        c: c * t.a + d * t.c, d: c * t.b + d * t.d,
                        tx: tx * t.a + ty * t.c + t.tx, ty: tx * t.b + ty * t.d + t.ty)
    }

    /// `self` preceded by a translation / scale / rotation (CG's
    /// `translatedBy` family: the new operation applies first).
    @inlinable public func translatedBy(x: Double, y: Double) -> AffineTransform { AffineTransform(translationX: x, y: y).concatenating(self) }
    @inlinable public func scaledBy(x: Double, y: Double) -> AffineTransform { AffineTransform(scaleX: x, y: y).concatenating(self) }
    public func rotated(by angle: Double) -> AffineTransform { AffineTransform(rotationAngle: angle).concatenating(self) }

    /// `a·d − b·c`; zero (or not finite) for a transform without an inverse.
    @inlinable public var determinant: Double { a * d - b * c }

    /// The inverse map, or `nil` when the transform is singular (determinant
    /// zero or not finite), has a non-finite coefficient, or the inverse
    /// overflows.
    public func inverted() -> AffineTransform? {
        guard isFinite else { return nil }
        let det = determinant
        guard det != 0, det.isFinite else { return nil }
        let r = 1 / det
        let inv = AffineTransform(a: d * r, b: -b * r, c: -c * r, d: a * r,
                                  tx: (c * ty - d * tx) * r, ty: (b * tx - a * ty) * r)
        return inv.isFinite ? inv : nil
    }

    /// The image of the point (`x`, `y`).
    @inlinable public func apply(x: Double, y: Double) -> (x: Double, y: Double) {
        (a * x + c * y + tx, b * x + d * y + ty)
    }

    @inlinable public func apply(_ p: PathPoint) -> PathPoint {
        PathPoint(x: a * p.x + c * p.y + tx, y: b * p.x + d * p.y + ty)
    }
    /// The largest factor by which the transform stretches any length (the
    /// larger singular value). Used to turn a device-space tolerance into a
    /// user-space one.
    public var maxScale: Double {
        // Singular values of [a c; b d]: sqrt((E ± sqrt(E² − 4·det²)) / 2) with E = a²+b²+c²+d².
        let e = a * a + b * b + c * c + d * d
        let det = determinant
        let disc = e * e - 4 * det * det
        return FloatMath.squareRoot((e + (disc > 0 ? FloatMath.squareRoot(disc) : 0)) * 0.5)
    }
}
