/// A projective (perspective) map of the plane as a 3×3 matrix acting on
/// homogeneous column vectors:
///
///     [X, Y, W]ᵀ = M · [x, y, 1]ᵀ,   x' = X / W,   y' = Y / W
///
/// `m[row][column]` is `mRC`. Points with `W <= 0` are behind the eye and
/// have no image.
public struct ProjectiveTransform: Equatable, Sendable {
    public var m00: Double, m01: Double, m02: Double
    public var m10: Double, m11: Double, m12: Double
    public var m20: Double, m21: Double, m22: Double

    public init(m00: Double, m01: Double, m02: Double,
                m10: Double, m11: Double, m12: Double,
                m20: Double, m21: Double, m22: Double) {
        self.m00 = m00; self.m01 = m01; self.m02 = m02
        self.m10 = m10; self.m11 = m11; self.m12 = m12
        self.m20 = m20; self.m21 = m21; self.m22 = m22
    }

    public init(_ t: AffineTransform) {
        self.init(m00: t.a, m01: t.c, m02: t.tx, m10: t.b, m11: t.d, m12: t.ty, m20: 0, m21: 0, m22: 1)
    }

    public static let identity = ProjectiveTransform(.identity)

    /// The map that sends the unit square's corners (0,0), (1,0), (1,1),
    /// (0,1) to the quadrilateral `q0`, `q1`, `q2`, `q3` (Heckbert 1989,
    /// "Fundamentals of texture mapping", square-to-quad). `nil` when the
    /// quadrilateral is degenerate or a coordinate is not finite.
    public static func unitSquare(to q0: (x: Double, y: Double), _ q1: (x: Double, y: Double),
                                  _ q2: (x: Double, y: Double), _ q3: (x: Double, y: Double)) -> ProjectiveTransform? {
        let sx = q0.x - q1.x + q2.x - q3.x, sy = q0.y - q1.y + q2.y - q3.y
        let dx1 = q1.x - q2.x, dx2 = q3.x - q2.x, dy1 = q1.y - q2.y, dy2 = q3.y - q2.y
        let den = dx1 * dy2 - dx2 * dy1
        guard den != 0, den.isFinite else { return nil }
        let g = (sx * dy2 - dx2 * sy) / den, h = (dx1 * sy - sx * dy1) / den
        let t = ProjectiveTransform(m00: q1.x - q0.x + g * q1.x, m01: q3.x - q0.x + h * q3.x, m02: q0.x,
                                    m10: q1.y - q0.y + g * q1.y, m11: q3.y - q0.y + h * q3.y, m12: q0.y,
                                    m20: g, m21: h, m22: 1)
        return t.isFinite ? t : nil
    }

    /// `self` then `other` (the point goes through `self` first).
    public func concatenating(_ o: ProjectiveTransform) -> ProjectiveTransform {
        ProjectiveTransform(
            m00: o.m00 * m00 + o.m01 * m10 + o.m02 * m20, m01: o.m00 * m01 + o.m01 * m11 + o.m02 * m21, m02: o.m00 * m02 + o.m01 * m12 + o.m02 * m22,
            m10: o.m10 * m00 + o.m11 * m10 + o.m12 * m20, m11: o.m10 * m01 + o.m11 * m11 + o.m12 * m21, m12: o.m10 * m02 + o.m11 * m12 + o.m12 * m22,
            m20: o.m20 * m00 + o.m21 * m10 + o.m22 * m20, m21: o.m20 * m01 + o.m21 * m11 + o.m22 * m21, m22: o.m20 * m02 + o.m21 * m12 + o.m22 * m22)
    }

    public var isFinite: Bool {
        m00.isFinite && m01.isFinite && m02.isFinite && m10.isFinite && m11.isFinite && m12.isFinite
            && m20.isFinite && m21.isFinite && m22.isFinite
    }

    /// True when the bottom row is (0, 0, 1), i.e. the map is affine.
    public var isAffine: Bool { m20 == 0 && m21 == 0 && m22 == 1 }

    /// The inverse (adjugate over determinant), or `nil` when singular or
    /// not finite. For a point with positive `W` under `self`, its image has
    /// positive `W` under the inverse, so "in front of the eye" is kept.
    public func inverted() -> ProjectiveTransform? {
        guard isFinite else { return nil }
        let c00 = m11 * m22 - m12 * m21, c01 = m02 * m21 - m01 * m22, c02 = m01 * m12 - m02 * m11
        let c10 = m12 * m20 - m10 * m22, c11 = m00 * m22 - m02 * m20, c12 = m02 * m10 - m00 * m12
        let c20 = m10 * m21 - m11 * m20, c21 = m01 * m20 - m00 * m21, c22 = m00 * m11 - m01 * m10
        let det = m00 * c00 + m01 * c10 + m02 * c20
        guard det != 0, det.isFinite else { return nil }
        let r = 1 / det
        let inv = ProjectiveTransform(m00: c00 * r, m01: c01 * r, m02: c02 * r,
                                      m10: c10 * r, m11: c11 * r, m12: c12 * r,
                                      m20: c20 * r, m21: c21 * r, m22: c22 * r)
        return inv.isFinite ? inv : nil
    }

    /// The image of (`x`, `y`), or `nil` when `W <= 0` (behind the eye).
    public func apply(x: Double, y: Double) -> (x: Double, y: Double)? {
        let w = m20 * x + m21 * y + m22
        guard w > 0 else { return nil }
        return ((m00 * x + m01 * y + m02) / w, (m10 * x + m11 * y + m12) / w)
    }
}
