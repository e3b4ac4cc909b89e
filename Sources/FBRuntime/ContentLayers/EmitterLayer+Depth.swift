import Raster

// The 3-D emitter (`preservesDepth`): where particles start and leave in
// 3-D, and how they are projected, sorted and drawn.

extension EmitterLayer {
    /// A point of the emitter's shape for the mode, in 3-D (see "In 3-D" in
    /// the class documentation).
    func emissionPoint3D(_ rng: inout SplitMix64) -> (Double, Double, Double) {
        let cz = emitterZPosition.isFinite ? emitterZPosition : 0
        switch emitterShape {
        case .point, .line, .rectangle, .circle:
            let (x, y) = emissionPoint(&rng)
            return (x, y, cz)
        case .cuboid:
            let cx = emitterPosition.x, cy = emitterPosition.y
            let w = Self.extent(emitterSize.width), h = Self.extent(emitterSize.height), dz = Self.extent(emitterDepth)
            switch emitterMode {
            case .points:
                let corner = rng.below(8)
                return (cx + (corner & 1 == 0 ? -w / 2 : w / 2), cy + (corner & 2 == 0 ? -h / 2 : h / 2),
                        cz + (corner & 4 == 0 ? -dz / 2 : dz / 2))
            case .outline:
                // Four edges along each axis; pick one by length.
                let u = rng.unit() * (w + h + dz)
                let corner = rng.below(4), t = rng.unit() - 0.5
                let s0 = corner & 1 == 0 ? -0.5 : 0.5, s1 = corner & 2 == 0 ? -0.5 : 0.5
                if u < w { return (cx + t * w, cy + s0 * h, cz + s1 * dz) }
                if u < w + h { return (cx + s0 * w, cy + t * h, cz + s1 * dz) }
                return (cx + s0 * w, cy + s1 * h, cz + t * dz)
            case .surface:
                // Two faces across each axis; pick a pair by area.
                let xy = w * h, yz = h * dz, xz = w * dz
                let u = rng.unit() * (xy + yz + xz)
                let side = rng.unit() < 0.5 ? -0.5 : 0.5, s = rng.unit() - 0.5, t = rng.unit() - 0.5
                if u < xy { return (cx + s * w, cy + t * h, cz + side * dz) }
                if u < xy + yz { return (cx + side * w, cy + s * h, cz + t * dz) }
                return (cx + s * w, cy + side * h, cz + t * dz)
            case .volume:
                return (cx + (rng.unit() - 0.5) * w, cy + (rng.unit() - 0.5) * h, cz + (rng.unit() - 0.5) * dz)
            }
        case .sphere:
            let cx = emitterPosition.x, cy = emitterPosition.y
            let r = Self.extent(emitterSize.width) / 2
            if emitterMode == .points { return (cx, cy, cz) }
            // Uniform on the unit sphere: z uniform in [−1, 1] (Archimedes).
            let uz = rng.unit() * 2 - 1
            let (s, c) = FloatMath.sinCos(rng.unit() * FloatMath.twoPi)
            let ring = Swift.max(0, 1 - uz * uz).squareRoot()
            var d = r
            if emitterMode == .volume {
                // The largest of three uniforms has the distribution t³: the
                // radius of a uniform point of the ball.
                d = r * Swift.max(rng.unit(), Swift.max(rng.unit(), rng.unit()))
            }
            return (cx + d * ring * c, cy + d * ring * s, cz + d * uz)
        }
    }

    /// A size for the shapes: non-finite or negative → 0.
    static func extent(_ v: Double) -> Double { v.isFinite && v > 0 ? v : 0 }

    /// A unit direction, uniform over the cap of half-angle
    /// `emissionRange / 2` around (`emissionLongitude`, `emissionLatitude`).
    static func direction(_ cell: EmitterCell, _ rng: inout SplitMix64) -> (x: Double, y: Double, z: Double) {
        let (sLon, cLon) = FloatMath.sinCos(cell.emissionLongitude.isFinite ? cell.emissionLongitude : 0)
        let (sLat, cLat) = FloatMath.sinCos(cell.emissionLatitude.isFinite ? cell.emissionLatitude : 0)
        let axis = (x: cLat * cLon, y: cLat * sLon, z: sLat)
        let range = cell.emissionRange.isFinite ? Swift.min(Swift.abs(cell.emissionRange) / 2, Double.pi) : 0
        // cos θ uniform in [cos half, 1] is uniform over the cap's area.
        let cosHalf = FloatMath.sinCos(range).cos
        let cosT = 1 - rng.unit() * (1 - cosHalf)
        let sinT = Swift.max(0, 1 - cosT * cosT).squareRoot()
        let (sPhi, cPhi) = FloatMath.sinCos(rng.unit() * FloatMath.twoPi)
        // Two unit vectors across the axis: e1 in the layer's plane
        // (perpendicular to the longitude), e2 = axis × e1.
        let e1 = (x: -sLon, y: cLon, z: 0.0)
        let e2 = (x: axis.y * e1.z - axis.z * e1.y, y: axis.z * e1.x - axis.x * e1.z, z: axis.x * e1.y - axis.y * e1.x)
        let a = sinT * cPhi, b = sinT * sPhi
        return (axis.x * cosT + e1.x * a + e2.x * b, axis.y * cosT + e1.y * a + e2.y * b, axis.z * cosT + e1.z * a + e2.z * b)
    }

    /// Draws `particles` (3-D, in emission order or reversed) into the
    /// superlayer's space: sorted by depth for `.backToFront`.
    @inline(never)
    func drawInDepth(_ d: OwnContentDrawing, operator op: BlendOperator) {
        guard let space = ParticleSpace(d) else { return }
        if renderMode == .backToFront {
            var i = 0
            while i < particles.count {
                particles[i].depth = space.depth(x: particles[i].x, y: particles[i].y, z: particles[i].z)
                i += 1
            }
            EmitterLayer.sortBackToFront(&particles)
        }
        var i = 0
        while i < particles.count { drawInDepth(particles[i], d, space: space, operator: op); i += 1 }
    }

    /// One particle: its picture in the plane through it parallel to the
    /// layer's plane, projected exactly.
    private func drawInDepth(_ p: Particle, _ d: OwnContentDrawing, space: ParticleSpace, operator op: BlendOperator) {
        guard p.cell.contents != nil else { return }
        let plane = space.plane(atZ: p.z)
        guard plane.isFinite, plane.apply(x: p.x, y: p.y) != nil else { return }     // behind the eye
        EmitterLayer.drawParticle(p, through: plane, d, operator: op)
    }

    /// Farthest first (ascending depth), ties in emission order: an
    /// in-place heap sort (O(n log n), no buffer — the standard library's
    /// sort allocates its merge buffer).
    static func sortBackToFront(_ a: inout [Particle]) {
        let n = a.count
        guard n > 1 else { return }
        var start = n / 2
        while start > 0 { start -= 1; siftDown(&a, start, n) }
        var end = n - 1
        while end > 0 {
            swap(&a, 0, end)
            siftDown(&a, 0, end)
            end -= 1
        }
    }

    /// By hand: the generic `swapAt` allocates temporaries in unoptimised
    /// builds.
    @inline(__always)
    private static func swap(_ a: inout [Particle], _ i: Int, _ j: Int) {
        let t = a[i]
        a[i] = a[j]
        a[j] = t
    }

    @inline(__always)
    private static func before(_ p: Particle, _ q: Particle) -> Bool {
        p.depth < q.depth || (p.depth == q.depth && p.order < q.order)
    }

    private static func siftDown(_ a: inout [Particle], _ root: Int, _ end: Int) {
        var i = root
        while true {
            var child = 2 * i + 1
            guard child < end else { return }
            if child + 1 < end && before(a[child], a[child + 1]) { child += 1 }
            guard before(a[i], a[child]) else { return }
            swap(&a, i, child)
            i = child
        }
    }
}

/// The maps from the emitter layer's 3-D space for one frame: the layer's
/// 4×4 into its superlayer's space (its own transform and the superlayer's
/// `sublayerTransform`, or a rendering context's chain), for depth, and
/// the plane z = const → target pixels.
///
/// The layer's map to the target (`OwnContentDrawing.map`, z = 0) is
/// P · F, with F the flattened 4×4 (rows and columns x, y, w) and P the
/// superlayer's plane → target; a point at depth z adds z times the 4×4's
/// z row (m31, m32, m34), mapped by P = map · F⁻¹. So the plane at depth z
/// is `map` with z · P·(m31, m32, m34)ᵀ added to its last column.
struct ParticleSpace {
    let map: ProjectiveTransform
    let zx: Double, zy: Double, zw: Double
    let toSuperlayer: Transform3D

    /// `nil` when the layer is edge-on (F singular) or a map is not finite.
    init?(_ d: OwnContentDrawing) {
        let l = d.parentSpace ?? d.resolved.p.geometry.toSuperlayer
        guard l.isFinite, let inverse = l.flattened.inverted() else { return nil }
        let p = inverse.concatenating(d.map)
        map = d.map
        zx = p.m00 * l.m31 + p.m01 * l.m32 + p.m02 * l.m34
        zy = p.m10 * l.m31 + p.m11 * l.m32 + p.m12 * l.m34
        zw = p.m20 * l.m31 + p.m21 * l.m32 + p.m22 * l.m34
        toSuperlayer = l
        guard zx.isFinite, zy.isFinite, zw.isFinite else { return nil }
    }

    /// The plane z = `z` of the layer's space → target pixels.
    func plane(atZ z: Double) -> ProjectiveTransform {
        var m = map
        m.m02 += z * zx; m.m12 += z * zy; m.m22 += z * zw
        return m
    }

    /// z / w of the point in the superlayer's space (larger is nearer);
    /// −∞ behind the eye.
    func depth(x: Double, y: Double, z: Double) -> Double {
        let h = toSuperlayer.apply(x: x, y: y, z: z)
        return h.w > 0 ? h.z / h.w : -Double.infinity
    }
}
