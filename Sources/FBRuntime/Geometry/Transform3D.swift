import Raster

/// A 3-D homogeneous transform, laid out like Core Animation's
/// `CATransform3D`.
///
/// Points are **row vectors** multiplied on the left:
///
///     [x' y' z' w'] = [x y z 1] · M
///     x' = x·m11 + y·m21 + z·m31 + m41      (and so on by column)
///
/// so the translation lives in `m41 m42 m43` and perspective in the fourth
/// column; `m34 = −1/d` puts the eye at distance `d` on +z, looking towards
/// −z (+z comes towards the viewer, as in CA). The upper-left 2×2 and
/// `m41 m42` are `AffineTransform`'s `a b / c d / tx ty`, so a 2-D transform
/// converts both ways without reordering.
///
/// `a.concatenating(b)` is `a · b`, `CATransform3DConcat(a, b)`: the result
/// applies `a` first, then `b`.
///
/// Only IEEE basic operations are used (plus `FloatMath` for roots and
/// angles), so results are the same bits on x86-64 and arm64.
public struct Transform3D: Equatable, Sendable {
    public var m11: Double, m12: Double, m13: Double, m14: Double
    public var m21: Double, m22: Double, m23: Double, m24: Double
    public var m31: Double, m32: Double, m33: Double, m34: Double
    public var m41: Double, m42: Double, m43: Double, m44: Double

    @inlinable
    public init(m11: Double, m12: Double, m13: Double, m14: Double,
                m21: Double, m22: Double, m23: Double, m24: Double,
                m31: Double, m32: Double, m33: Double, m34: Double,
                m41: Double, m42: Double, m43: Double, m44: Double) {
        self.m11 = m11; self.m12 = m12; self.m13 = m13; self.m14 = m14
        self.m21 = m21; self.m22 = m22; self.m23 = m23; self.m24 = m24
        self.m31 = m31; self.m32 = m32; self.m33 = m33; self.m34 = m34
        self.m41 = m41; self.m42 = m42; self.m43 = m43; self.m44 = m44
    }

    public static let identity = Transform3D(m11: 1, m12: 0, m13: 0, m14: 0,
                                             m21: 0, m22: 1, m23: 0, m24: 0,
                                             m31: 0, m32: 0, m33: 1, m34: 0,
                                             m41: 0, m42: 0, m43: 0, m44: 1)

    // MARK: Construction

    /// `CATransform3DMakeTranslation`.
    @inlinable public init(translationX x: Double, y: Double, z: Double = 0) {
        self = .identity
        m41 = x; m42 = y; m43 = z
    }

    /// `CATransform3DMakeScale`.
    @inlinable public init(scaleX x: Double, y: Double, z: Double = 1) {
        self = .identity
        m11 = x; m22 = y; m33 = z
    }

    /// `CATransform3DMakeRotation`: `angle` radians about the axis
    /// (`x`, `y`, `z`), right-handed. About +z with y pointing down a positive
    /// angle turns +x towards +y (clockwise on screen), matching
    /// `AffineTransform(rotationAngle:)`. The axis need not be unit length; a
    /// zero-length or non-finite axis gives the identity (CA leaves that
    /// undefined).
    public init(rotationAngle angle: Double, x: Double, y: Double, z: Double) {
        self = .identity
        let length = FloatMath.squareRoot(x * x + y * y + z * z)
        guard length > 0, length.isFinite else { return }
        let ux = x / length, uy = y / length, uz = z / length
        let (s, c) = FloatMath.sinCos(angle)
        let t = 1 - c
        m11 = c + ux * ux * t;      m12 = ux * uy * t + uz * s; m13 = ux * uz * t - uy * s
        m21 = ux * uy * t - uz * s; m22 = c + uy * uy * t;      m23 = uy * uz * t + ux * s
        m31 = ux * uz * t + uy * s; m32 = uy * uz * t - ux * s; m33 = c + uz * uz * t
    }

    @inlinable public static func translation(x: Double, y: Double, z: Double = 0) -> Transform3D {
        Transform3D(translationX: x, y: y, z: z)
    }
    @inlinable public static func scale(x: Double, y: Double, z: Double = 1) -> Transform3D {
        Transform3D(scaleX: x, y: y, z: z)
    }
    public static func rotation(radians angle: Double, x: Double, y: Double, z: Double) -> Transform3D {
        Transform3D(rotationAngle: angle, x: x, y: y, z: z)
    }

    /// The perspective projection seen from distance `d` in front of the
    /// plane z = 0: identity with `m34 = −1/d` (the usual
    /// `sublayerTransform` for a "3-D" container). `d` ≤ 0 or not finite
    /// gives the identity (no perspective).
    public static func perspective(distance d: Double) -> Transform3D {
        var t = Transform3D.identity
        if d > 0 && d.isFinite { t.m34 = -1 / d }
        return t
    }

    /// The same map as the 2-D transform `t` (`CATransform3DMakeAffineTransform`).
    @inlinable public init(_ t: AffineTransform) {
        self = .identity
        m11 = t.a; m12 = t.b; m21 = t.c; m22 = t.d; m41 = t.tx; m42 = t.ty
    }

    // MARK: Properties

    /// Exactly the identity (`CATransform3DIsIdentity`).
    @inlinable public var isIdentity: Bool { self == .identity }

    /// True when the transform is exactly a 2-D affine map of the plane z = 0
    /// and leaves z alone: every coefficient outside `m11 m12 m21 m22 m41
    /// m42` is that of the identity (`CATransform3DIsAffine`).
    @inlinable public var isAffine: Bool {
        m13 == 0 && m14 == 0 && m23 == 0 && m24 == 0
            && m31 == 0 && m32 == 0 && m33 == 1 && m34 == 0
            && m43 == 0 && m44 == 1
    }

    /// True when every coefficient is finite.
    public var isFinite: Bool {
        m11.isFinite && m12.isFinite && m13.isFinite && m14.isFinite
            && m21.isFinite && m22.isFinite && m23.isFinite && m24.isFinite
            && m31.isFinite && m32.isFinite && m33.isFinite && m34.isFinite
            && m41.isFinite && m42.isFinite && m43.isFinite && m44.isFinite
    }

    /// The 2-D part `a = m11, b = m12, c = m21, d = m22, tx = m41, ty = m42`
    /// (`CATransform3DGetAffineTransform`). Exact when `isAffine`; otherwise
    /// z and perspective are dropped.
    @inlinable public var affineTransform: AffineTransform {
        AffineTransform(a: m11, b: m12, c: m21, d: m22, tx: m41, ty: m42)
    }

    /// The map of the plane z = 0 into the plane z = 0 that Core Animation
    /// uses when it flattens a layer into its superlayer: the point (x, y, 0)
    /// goes through the 4×4 and its z is dropped. That is the 3×3 of rows
    /// and columns 1, 2 and 4 (transposed into `ProjectiveTransform`'s
    /// column-vector layout):
    ///
    ///     [X Y W] = [x y 1] · [m11 m12 m14; m21 m22 m24; m41 m42 m44]
    ///
    /// Affine transforms give an affine `ProjectiveTransform`.
    public var flattened: ProjectiveTransform {
        ProjectiveTransform(m00: m11, m01: m21, m02: m41,
                            m10: m12, m11: m22, m12: m42,
                            m20: m14, m21: m24, m22: m44)
    }

    // MARK: Algebra

    /// `self · t` (`CATransform3DConcat(self, t)`): the result applies
    /// `self` first, then `t`.
    public func concatenating(_ t: Transform3D) -> Transform3D {
        Transform3D(
            m11: m11 * t.m11 + m12 * t.m21 + m13 * t.m31 + m14 * t.m41,
            m12: m11 * t.m12 + m12 * t.m22 + m13 * t.m32 + m14 * t.m42,
            m13: m11 * t.m13 + m12 * t.m23 + m13 * t.m33 + m14 * t.m43,
            m14: m11 * t.m14 + m12 * t.m24 + m13 * t.m34 + m14 * t.m44,
            m21: m21 * t.m11 + m22 * t.m21 + m23 * t.m31 + m24 * t.m41,
            m22: m21 * t.m12 + m22 * t.m22 + m23 * t.m32 + m24 * t.m42,
            m23: m21 * t.m13 + m22 * t.m23 + m23 * t.m33 + m24 * t.m43,
            m24: m21 * t.m14 + m22 * t.m24 + m23 * t.m34 + m24 * t.m44,
            m31: m31 * t.m11 + m32 * t.m21 + m33 * t.m31 + m34 * t.m41,
            m32: m31 * t.m12 + m32 * t.m22 + m33 * t.m32 + m34 * t.m42,
            m33: m31 * t.m13 + m32 * t.m23 + m33 * t.m33 + m34 * t.m43,
            m34: m31 * t.m14 + m32 * t.m24 + m33 * t.m34 + m34 * t.m44,
            m41: m41 * t.m11 + m42 * t.m21 + m43 * t.m31 + m44 * t.m41,
            m42: m41 * t.m12 + m42 * t.m22 + m43 * t.m32 + m44 * t.m42,
            m43: m41 * t.m13 + m42 * t.m23 + m43 * t.m33 + m44 * t.m43,
            m44: m41 * t.m14 + m42 * t.m24 + m43 * t.m34 + m44 * t.m44)
    }

    /// `self` preceded by a translation (`CATransform3DTranslate`: the new
    /// operation applies first).
    public func translatedBy(x: Double, y: Double, z: Double = 0) -> Transform3D {
        Transform3D(translationX: x, y: y, z: z).concatenating(self)
    }
    /// `self` preceded by a scale (`CATransform3DScale`).
    public func scaledBy(x: Double, y: Double, z: Double = 1) -> Transform3D {
        Transform3D(scaleX: x, y: y, z: z).concatenating(self)
    }
    /// `self` preceded by a rotation (`CATransform3DRotate`).
    public func rotated(by angle: Double, x: Double, y: Double, z: Double) -> Transform3D {
        Transform3D(rotationAngle: angle, x: x, y: y, z: z).concatenating(self)
    }

    /// The determinant (Laplace expansion by 2×2 minors).
    public var determinant: Double {
        let m = Minors(self)
        return m.determinant
    }

    /// The inverse map, or `nil` when there is none to trust: a coefficient
    /// is not finite, the matrix is singular — its determinant is zero or
    /// below 1e-14 of the Hadamard bound (the product of the row lengths),
    /// which is scale-independent and means a condition number beyond about
    /// 1e14 — or the inverse overflows. (`CATransform3DInvert` returns the
    /// input unchanged in that case; an optional says it out loud.)
    public func inverted() -> Transform3D? {
        guard isFinite else { return nil }
        let m = Minors(self)
        let det = m.determinant
        func rowLength(_ a: Double, _ b: Double, _ c: Double, _ d: Double) -> Double {
            FloatMath.squareRoot(a * a + b * b + c * c + d * d)
        }
        let bound = rowLength(m11, m12, m13, m14) * rowLength(m21, m22, m23, m24)
            * rowLength(m31, m32, m33, m34) * rowLength(m41, m42, m43, m44)
        guard det.isFinite, det != 0, Swift.abs(det) > 1e-14 * bound else { return nil }
        let r = 1 / det
        let (s0, s1, s2, s3, s4, s5) = (m.s0, m.s1, m.s2, m.s3, m.s4, m.s5)
        let (c0, c1, c2, c3, c4, c5) = (m.c0, m.c1, m.c2, m.c3, m.c4, m.c5)
        let inverse = Transform3D(
            m11: (m22 * c5 - m23 * c4 + m24 * c3) * r,
            m12: (-m12 * c5 + m13 * c4 - m14 * c3) * r,
            m13: (m42 * s5 - m43 * s4 + m44 * s3) * r,
            m14: (-m32 * s5 + m33 * s4 - m34 * s3) * r,
            m21: (-m21 * c5 + m23 * c2 - m24 * c1) * r,
            m22: (m11 * c5 - m13 * c2 + m14 * c1) * r,
            m23: (-m41 * s5 + m43 * s2 - m44 * s1) * r,
            m24: (m31 * s5 - m33 * s2 + m34 * s1) * r,
            m31: (m21 * c4 - m22 * c2 + m24 * c0) * r,
            m32: (-m11 * c4 + m12 * c2 - m14 * c0) * r,
            m33: (m41 * s4 - m42 * s2 + m44 * s0) * r,
            m34: (-m31 * s4 + m32 * s2 - m34 * s0) * r,
            m41: (-m21 * c3 + m22 * c1 - m23 * c0) * r,
            m42: (m11 * c3 - m12 * c1 + m13 * c0) * r,
            m43: (-m41 * s3 + m42 * s1 - m43 * s0) * r,
            m44: (m31 * s3 - m32 * s1 + m33 * s0) * r)
        return inverse.isFinite ? inverse : nil
    }

    // MARK: Applying

    /// The homogeneous image of (`x`, `y`, `z`, 1).
    @inlinable
    public func apply(x: Double, y: Double, z: Double = 0) -> (x: Double, y: Double, z: Double, w: Double) {
        (x * m11 + y * m21 + z * m31 + m41,
         x * m12 + y * m22 + z * m32 + m42,
         x * m13 + y * m23 + z * m33 + m43,
         x * m14 + y * m24 + z * m34 + m44)
    }

    /// The image of `p` (on the plane z = 0) flattened onto the plane z = 0,
    /// or `nil` when it lands behind the eye (`w ≤ 0`).
    public func projecting(_ p: Point) -> Point? {
        let h = apply(x: p.x, y: p.y)
        guard h.w > 0 else { return nil }
        return Point(x: h.x / h.w, y: h.y / h.w)
    }
}

/// The twelve 2×2 minors of the top two and bottom two rows, shared by the
/// determinant and the adjugate.
private struct Minors {
    var s0, s1, s2, s3, s4, s5: Double
    var c0, c1, c2, c3, c4, c5: Double
    init(_ t: Transform3D) {
        s0 = t.m11 * t.m22 - t.m21 * t.m12
        s1 = t.m11 * t.m23 - t.m21 * t.m13
        s2 = t.m11 * t.m24 - t.m21 * t.m14
        s3 = t.m12 * t.m23 - t.m22 * t.m13
        s4 = t.m12 * t.m24 - t.m22 * t.m14
        s5 = t.m13 * t.m24 - t.m23 * t.m14
        c5 = t.m33 * t.m44 - t.m43 * t.m34
        c4 = t.m32 * t.m44 - t.m42 * t.m34
        c3 = t.m32 * t.m43 - t.m42 * t.m33
        c2 = t.m31 * t.m44 - t.m41 * t.m34
        c1 = t.m31 * t.m43 - t.m41 * t.m33
        c0 = t.m31 * t.m42 - t.m41 * t.m32
    }
    var determinant: Double { s0 * c5 - s1 * c4 + s2 * c3 + s3 * c2 - s4 * c1 + s5 * c0 }
}
