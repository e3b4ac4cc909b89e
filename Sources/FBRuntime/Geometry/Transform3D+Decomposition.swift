import Raster

extension Transform3D {
    /// A transform taken apart into the factors that animate well: the
    /// "unmatrix" of Graphics Gems II (Spencer W. Thomas) as the CSS
    /// Transforms spec states it and browsers use it for transform
    /// animations. (Core Animation's own interpolation of `transform` is not
    /// documented; it behaves like this for rotations, scales and
    /// translations.)
    ///
    /// In row-vector order the recomposed transform applies, to a point,
    /// scale, then shear, then rotation, then translation, then perspective:
    ///
    ///     M = S · K · R · T · P
    ///
    /// with `K` the unit lower-triangular shear
    /// `[1 0 0; xy 1 0; xz yz 1]` and `P = [I p; 0 pw]` the perspective
    /// column. The transform is normalised so that `m44 = 1` first (a
    /// homogeneous matrix and its multiples are the same map).
    public struct Decomposition: Equatable, Sendable {
        public var scale: Vector3
        /// Shear factors: `x` is XY, `y` is XZ, `z` is YZ.
        public var shear: Vector3
        public var rotation: Quaternion
        public var translation: Vector3
        /// The fourth column of `P`: `(x, y, z)` on top, `w` below. The
        /// identity has `(0, 0, 0, 1)`.
        public var perspective: (x: Double, y: Double, z: Double, w: Double)

        public init(scale: Vector3 = Vector3(x: 1, y: 1, z: 1), shear: Vector3 = .zero,
                    rotation: Quaternion = .identity, translation: Vector3 = .zero,
                    perspective: (x: Double, y: Double, z: Double, w: Double) = (0, 0, 0, 1)) {
            self.scale = scale; self.shear = shear; self.rotation = rotation
            self.translation = translation; self.perspective = perspective
        }

        public static func == (a: Decomposition, b: Decomposition) -> Bool {
            a.scale == b.scale && a.shear == b.shear && a.rotation == b.rotation && a.translation == b.translation
                && a.perspective.x == b.perspective.x && a.perspective.y == b.perspective.y
                && a.perspective.z == b.perspective.z && a.perspective.w == b.perspective.w
        }

        /// The transform these factors describe (always `m44 = 1` up to
        /// rounding when `perspective` came from a decomposition).
        public var recomposed: Transform3D {
            let (r0, r1, r2) = rotation.rotationMatrix
            // Rows of S·K·R: row i is scale_i · (row i of K) · R.
            let l0 = r0 * scale.x
            let l1 = Vector3(x: shear.x * r0.x + r1.x, y: shear.x * r0.y + r1.y, z: shear.x * r0.z + r1.z) * scale.y
            let l2 = Vector3(x: shear.y * r0.x + shear.z * r1.x + r2.x,
                             y: shear.y * r0.y + shear.z * r1.y + r2.y,
                             z: shear.y * r0.z + shear.z * r1.z + r2.z) * scale.z
            // [L 0; t 1] · [I p; 0 pw] = [L  L·p; t  t·p + pw]
            let p = Vector3(x: perspective.x, y: perspective.y, z: perspective.z)
            let t = translation
            return Transform3D(
                m11: l0.x, m12: l0.y, m13: l0.z, m14: l0.dot(p),
                m21: l1.x, m22: l1.y, m23: l1.z, m24: l1.dot(p),
                m31: l2.x, m32: l2.y, m33: l2.z, m34: l2.dot(p),
                m41: t.x, m42: t.y, m43: t.z, m44: t.dot(p) + perspective.w)
        }
    }

    /// The factors of this transform, or `nil` when it has none: a
    /// coefficient is not finite, `m44` is 0, or the linear part
    /// (upper-left 3×3) is singular — a layer squashed flat has no rotation
    /// to interpolate.
    ///
    /// A reflection (negative determinant) is expressed as negative scales
    /// on all three axes, as in the original algorithm. Recomposing gives the
    /// normalised input back to about 1e-15 relative error.
    public var decomposed: Decomposition? {
        guard isFinite, m44 != 0 else { return nil }
        let n = 1 / m44
        let m = Transform3D(m11: m11 * n, m12: m12 * n, m13: m13 * n, m14: m14 * n,
                            m21: m21 * n, m22: m22 * n, m23: m23 * n, m24: m24 * n,
                            m31: m31 * n, m32: m32 * n, m33: m33 * n, m34: m34 * n,
                            m41: m41 * n, m42: m42 * n, m43: m43 * n, m44: 1)
        // The affine part B = [L 0; t 1]; it is invertible exactly when L is.
        var affine = m
        affine.m14 = 0; affine.m24 = 0; affine.m34 = 0; affine.m44 = 1
        guard let affineInverse = affine.inverted() else { return nil }

        var result = Decomposition()
        // Perspective: B · p = (m14, m24, m34, m44) as a column, so
        // p = B⁻¹ · that column.
        if m.m14 != 0 || m.m24 != 0 || m.m34 != 0 {
            let b = affineInverse
            result.perspective = (b.m11 * m.m14 + b.m12 * m.m24 + b.m13 * m.m34 + b.m14,
                                  b.m21 * m.m14 + b.m22 * m.m24 + b.m23 * m.m34 + b.m24,
                                  b.m31 * m.m14 + b.m32 * m.m24 + b.m33 * m.m34 + b.m34,
                                  b.m41 * m.m14 + b.m42 * m.m24 + b.m43 * m.m34 + b.m44)
        }
        result.translation = Vector3(x: m.m41, y: m.m42, z: m.m43)

        // Gram–Schmidt on the rows of L: scale and shear fall out.
        var row0 = Vector3(x: m.m11, y: m.m12, z: m.m13)
        var row1 = Vector3(x: m.m21, y: m.m22, z: m.m23)
        var row2 = Vector3(x: m.m31, y: m.m32, z: m.m33)
        var scale = Vector3.zero, shear = Vector3.zero
        scale.x = row0.length
        row0 = row0 * (1 / scale.x)
        shear.x = row0.dot(row1)
        row1 = row1 - row0 * shear.x
        scale.y = row1.length
        row1 = row1 * (1 / scale.y)
        shear.x /= scale.y
        shear.y = row0.dot(row2)
        row2 = row2 - row0 * shear.y
        shear.z = row1.dot(row2)
        row2 = row2 - row1 * shear.z
        scale.z = row2.length
        row2 = row2 * (1 / scale.z)
        shear.y /= scale.z
        shear.z /= scale.z
        // A reflection: flip every axis so the rows become a proper rotation.
        if row0.dot(row1.cross(row2)) < 0 {
            scale = scale * -1
            row0 = row0 * -1; row1 = row1 * -1; row2 = row2 * -1
        }
        result.scale = scale
        result.shear = shear
        result.rotation = Quaternion(rotationRows: row0, row1, row2)
        guard scale.x.isFinite, scale.y.isFinite, scale.z.isFinite, scale.x != 0, scale.y != 0, scale.z != 0
        else { return nil }
        return result
    }

    /// The transform a fraction `t` of the way from `from` to `to`, for
    /// `transform` animations: both are decomposed,
    /// scale, shear, translation and perspective are interpolated linearly
    /// and the rotation by quaternion slerp (shorter arc). A rotation
    /// therefore stays a rotation: no shrinking through the middle as
    /// element-wise interpolation gives.
    ///
    /// `t` = 0 and 1 return `from` and `to` exactly; values outside 0…1
    /// extrapolate (overshooting timing functions). When either transform
    /// cannot be decomposed (singular, `m44 = 0`, not finite) the result
    /// jumps from `from` to `to` at `t = 0.5`, like CSS's discrete fallback;
    /// a non-finite `t` returns `from`.
    public static func interpolate(from: Transform3D, to: Transform3D, t: Double) -> Transform3D {
        guard t.isFinite else { return from }
        if t == 0 || from == to { return from }
        if t == 1 { return to }
        guard let a = from.decomposed, let b = to.decomposed else { return t < 0.5 ? from : to }
        @inline(__always) func lerp(_ u: Double, _ v: Double) -> Double { u + (v - u) * t }
        var d = Decomposition()
        d.scale = Vector3.lerp(a.scale, b.scale, t)
        d.shear = Vector3.lerp(a.shear, b.shear, t)
        d.translation = Vector3.lerp(a.translation, b.translation, t)
        d.perspective = (lerp(a.perspective.x, b.perspective.x), lerp(a.perspective.y, b.perspective.y),
                         lerp(a.perspective.z, b.perspective.z), lerp(a.perspective.w, b.perspective.w))
        d.rotation = Quaternion.slerp(a.rotation, b.rotation, t)
        return d.recomposed
    }
}
