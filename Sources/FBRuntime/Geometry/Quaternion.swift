import Raster

/// Three components: a translation, a set of scale factors or shears.
public struct Vector3: Equatable, Sendable {
    public var x: Double, y: Double, z: Double
    @inlinable public init(x: Double, y: Double, z: Double) { self.x = x; self.y = y; self.z = z }
    public static let zero = Vector3(x: 0, y: 0, z: 0)

    @inlinable func dot(_ v: Vector3) -> Double { x * v.x + y * v.y + z * v.z }
    @inlinable func cross(_ v: Vector3) -> Vector3 {
        Vector3(x: y * v.z - z * v.y, y: z * v.x - x * v.z, z: x * v.y - y * v.x)
    }
    @inlinable var length: Double { FloatMath.squareRoot(dot(self)) }
    @inlinable static func * (v: Vector3, s: Double) -> Vector3 { Vector3(x: v.x * s, y: v.y * s, z: v.z * s) }
    @inlinable static func - (a: Vector3, b: Vector3) -> Vector3 { Vector3(x: a.x - b.x, y: a.y - b.y, z: a.z - b.z) }
    @inlinable static func lerp(_ a: Vector3, _ b: Vector3, _ t: Double) -> Vector3 {
        Vector3(x: a.x + (b.x - a.x) * t, y: a.y + (b.y - a.y) * t, z: a.z + (b.z - a.z) * t)
    }
}

/// A rotation as a unit quaternion `(x, y, z, w)` = `(axis·sin(θ/2), cos(θ/2))`
/// for a rotation by θ about `axis` in `Transform3D(rotationAngle:x:y:z:)`'s
/// sense. `q` and `−q` are the same rotation.
public struct Quaternion: Equatable, Sendable {
    public var x: Double, y: Double, z: Double, w: Double
    @inlinable public init(x: Double, y: Double, z: Double, w: Double) { self.x = x; self.y = y; self.z = z; self.w = w }
    public static let identity = Quaternion(x: 0, y: 0, z: 0, w: 1)

    /// The rotation by `angle` radians about (`x`, `y`, `z`); a zero or
    /// non-finite axis gives the identity.
    public init(angle: Double, x: Double, y: Double, z: Double) {
        let length = FloatMath.squareRoot(x * x + y * y + z * z)
        guard length > 0, length.isFinite else { self = .identity; return }
        let (s, c) = FloatMath.sinCos(angle * 0.5)
        let k = s / length
        self.init(x: x * k, y: y * k, z: z * k, w: c)
    }

    @inlinable func dot(_ q: Quaternion) -> Double { x * q.x + y * q.y + z * q.z + w * q.w }

    /// The rotation part of a `Transform3D` (row vectors): rows are the
    /// images of the x, y and z unit vectors.
    var rotationMatrix: (r0: Vector3, r1: Vector3, r2: Vector3) {
        // Column-vector matrix R of the textbook, transposed for row vectors.
        (Vector3(x: 1 - 2 * (y * y + z * z), y: 2 * (x * y + z * w), z: 2 * (x * z - y * w)),
         Vector3(x: 2 * (x * y - z * w), y: 1 - 2 * (x * x + z * z), z: 2 * (y * z + x * w)),
         Vector3(x: 2 * (x * z + y * w), y: 2 * (y * z - x * w), z: 1 - 2 * (x * x + y * y)))
    }

    /// The quaternion of a proper rotation given as the rows of a row-vector
    /// matrix (orthonormal, determinant +1). Shepperd's method: divide by the
    /// largest of the four candidate components, so no cancellation near
    /// 180° turns. `w ≥ 0` in the result.
    init(rotationRows r0: Vector3, _ r1: Vector3, _ r2: Vector3) {
        // With R the column-vector matrix, R[i][j] = row j, component i.
        let trace = r0.x + r1.y + r2.z
        var q: Quaternion
        if trace >= r0.x && trace >= r1.y && trace >= r2.z {
            let s = FloatMath.squareRoot(1 + trace) * 2          // 4w
            q = Quaternion(x: (r1.z - r2.y) / s, y: (r2.x - r0.z) / s, z: (r0.y - r1.x) / s, w: s / 4)
        } else if r0.x >= r1.y && r0.x >= r2.z {
            let s = FloatMath.squareRoot(1 + r0.x - r1.y - r2.z) * 2   // 4x
            q = Quaternion(x: s / 4, y: (r0.y + r1.x) / s, z: (r2.x + r0.z) / s, w: (r1.z - r2.y) / s)
        } else if r1.y >= r2.z {
            let s = FloatMath.squareRoot(1 + r1.y - r0.x - r2.z) * 2   // 4y
            q = Quaternion(x: (r0.y + r1.x) / s, y: s / 4, z: (r2.y + r1.z) / s, w: (r2.x - r0.z) / s)
        } else {
            let s = FloatMath.squareRoot(1 + r2.z - r0.x - r1.y) * 2   // 4z
            q = Quaternion(x: (r2.x + r0.z) / s, y: (r2.y + r1.z) / s, z: s / 4, w: (r0.y - r1.x) / s)
        }
        if q.w < 0 { q = Quaternion(x: -q.x, y: -q.y, z: -q.z, w: -q.w) }
        self = q.normalized
    }

    var normalized: Quaternion {
        let n = FloatMath.squareRoot(dot(self))
        guard n > 0, n.isFinite else { return .identity }
        return Quaternion(x: x / n, y: y / n, z: z / n, w: w / n)
    }

    /// Spherical linear interpolation along the shorter arc: constant angular
    /// speed, unit length throughout, `t` = 0 and 1 give `a` and `b` (up to
    /// sign). The angle comes from `2·atan2(|a − b|, |a + b|)`, which stays
    /// accurate near 0 and 180° where `acos(a·b)` loses half its digits.
    public static func slerp(_ a: Quaternion, _ b: Quaternion, _ t: Double) -> Quaternion {
        var b = b
        if a.dot(b) < 0 { b = Quaternion(x: -b.x, y: -b.y, z: -b.z, w: -b.w) }
        let dx = a.x - b.x, dy = a.y - b.y, dz = a.z - b.z, dw = a.w - b.w
        let sx = a.x + b.x, sy = a.y + b.y, sz = a.z + b.z, sw = a.w + b.w
        let half = Angles.atan2(FloatMath.squareRoot(dx * dx + dy * dy + dz * dz + dw * dw),
                                FloatMath.squareRoot(sx * sx + sy * sy + sz * sz + sw * sw))
        let theta = 2 * half                  // the angle between a and b on the 4-sphere
        let wa: Double, wb: Double
        let sinTheta = FloatMath.sinCos(theta).sin
        if sinTheta < 1e-9 {
            wa = 1 - t; wb = t                // nearly equal: lerp, then renormalise
        } else {
            wa = FloatMath.sinCos((1 - t) * theta).sin / sinTheta
            wb = FloatMath.sinCos(t * theta).sin / sinTheta
        }
        return Quaternion(x: a.x * wa + b.x * wb, y: a.y * wa + b.y * wb,
                          z: a.z * wa + b.z * wb, w: a.w * wa + b.w * wb).normalized
    }
}

/// Inverse trigonometry to full double precision without libm (FloatMath's
/// `atan2Turns` is good to 1e-5 rad, enough for gradients but not for
/// interpolating rotations).
enum Angles {
    /// atan(x) for 0 ≤ x ≤ 1: three half-angle reductions
    /// (atan x = 2·atan(x / (1 + √(1 + x²)))) bring x below tan(π/32) ≈ 0.0985,
    /// where the Taylor series to x¹⁷ is below 1e-17 relative error.
    static func atanUnit(_ x: Double) -> Double {
        var z = x
        z = z / (1 + FloatMath.squareRoot(1 + z * z))
        z = z / (1 + FloatMath.squareRoot(1 + z * z))
        z = z / (1 + FloatMath.squareRoot(1 + z * z))
        let z2 = z * z
        var p = 1.0 / 17
        p = 1.0 / 15 - z2 * p
        p = 1.0 / 13 - z2 * p
        p = 1.0 / 11 - z2 * p
        p = 1.0 / 9 - z2 * p
        p = 1.0 / 7 - z2 * p
        p = 1.0 / 5 - z2 * p
        p = 1.0 / 3 - z2 * p
        return 8 * (z - z * z2 * p)
    }

    /// The angle of (`x`, `y`) from +x towards +y in radians, in [−π, π];
    /// atan2(0, 0) is 0 and NaN in gives NaN. Error a few ulp.
    static func atan2(_ y: Double, _ x: Double) -> Double {
        guard !x.isNaN, !y.isNaN else { return .nan }
        let ax = Swift.abs(x), ay = Swift.abs(y)
        if ax == 0 && ay == 0 { return 0 }
        var a: Double
        if ax.isInfinite || ay.isInfinite {
            a = ax.isInfinite ? (ay.isInfinite ? FloatMath.pi / 4 : 0) : FloatMath.pi / 2
        } else if ay <= ax {
            a = atanUnit(ay / ax)
        } else {
            a = FloatMath.pi / 2 - atanUnit(ax / ay)
        }
        if x < 0 { a = FloatMath.pi - a }
        return y < 0 ? -a : a
    }
}
