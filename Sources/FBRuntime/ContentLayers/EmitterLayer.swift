import Raster

/// What an `EmitterLayer` emits: a kind of particle with its birth rate,
/// lifetime, motion, spin, scale and colour, each with a ± range drawn per
/// particle, and the cells its particles emit in turn (sparks of a
/// firework). As `CAEmitterCell`; angles in radians, distances in points of
/// the emitter layer's space, times in seconds of its local time.
public final class EmitterCell {
    public var name: String
    /// Particles per second (times the layer's `birthRate`).
    public var birthRate = 0.0
    public var lifetime = 0.0, lifetimeRange = 0.0
    /// Points per second.
    public var velocity = 0.0, velocityRange = 0.0
    /// The direction in the layer's plane, from +x towards +y (on a
    /// y-down screen −π/2 is up).
    public var emissionLongitude = 0.0
    /// The tilt out of the plane, towards +z (the viewer) for positive
    /// angles. Flattened, it shortens the in-plane speed by
    /// cos(latitude); with `EmitterLayer.preservesDepth` the particle
    /// leaves along (cos lat·cos lon, cos lat·sin lon, sin lat).
    public var emissionLatitude = 0.0
    /// The full angle of the cone particles leave in, centred on the
    /// direction (2π: every way). Flattened, it spreads the longitude
    /// only; with `EmitterLayer.preservesDepth` the directions are uniform
    /// over the cone's cap of half-angle `emissionRange / 2` (π at most:
    /// the whole sphere).
    public var emissionRange = 0.0
    /// Points per second².
    public var xAcceleration = 0.0, yAcceleration = 0.0, zAcceleration = 0.0
    /// Radians per second.
    public var spin = 0.0, spinRange = 0.0
    public var scale = 1.0, scaleRange = 0.0, scaleSpeed = 0.0
    /// Straight colour multiplying the contents (white: unchanged).
    public var color = Color.white
    public var redRange = 0.0, greenRange = 0.0, blueRange = 0.0, alphaRange = 0.0
    /// Change per second.
    public var redSpeed = 0.0, greenSpeed = 0.0, blueSpeed = 0.0, alphaSpeed = 0.0
    /// The particle's image, centred on it; `nil` draws nothing (as CA).
    public var contents: LayerContents?
    /// Texels per point of `contents`.
    public var contentsScale = 1.0
    /// Cells each particle of this cell emits from where it is.
    public var emitterCells: [EmitterCell] = []

    public init(name: String = "cell") { self.name = name }
}

/// A particle system, as `CAEmitterLayer`, evaluated in closed form: the
/// particle born k-th of a cell is born at k / rate seconds of the layer's
/// local time, with its random values drawn from a generator seeded by
/// (`seed`, the cell, k), and at age a it is at p₀ + v·a + ½·g·a². So the
/// same seed gives the same particles, `speed` 0 freezes them and
/// `timeOffset` scrubs them (the 2008 talk), with no state kept between
/// frames.
///
/// **Shapes and modes, flattened** (`preservesDepth` false, the default:
/// everything in the layer's plane; a cuboid acts as its rectangle, a
/// sphere as its circle; `emitterZPosition`, `emitterDepth` and
/// `zAcceleration` are not used): `.points` emits from the shape's corners
/// (a line's ends; a circle's centre), `.outline` from its outline,
/// `.surface` and `.volume` from inside. `emitterSize` is the rectangle's
/// size, the line's length (width) and the circle's diameter (width),
/// centred on `emitterPosition`.
///
/// **In 3-D** (`preservesDepth` true, as `CAEmitterLayer.preservesDepth`):
/// particles have a z (points, +z towards the viewer, in the layer's
/// space) and are drawn into the superlayer's 3-D space — through the
/// layer's own 4×4 and the superlayer's `sublayerTransform` (a perspective
/// `m34` shows their depth), or through the 3-D rendering context of a
/// `TransformLayer` parent. The shapes sit at z = `emitterZPosition`; the
/// point, line, rectangle and circle emit as flattened, in that plane; a
/// cuboid is `emitterSize` by `emitterDepth` (z) around (`emitterPosition`,
/// `emitterZPosition`): `.points` its 8 corners, `.outline` its 12 edges,
/// `.surface` its 6 faces (by area), `.volume` its inside; a sphere of
/// diameter `emitterSize.width`: `.points` its centre, `.outline` and
/// `.surface` its surface, `.volume` its inside (all uniform). Directions
/// leave in a cone around (`emissionLongitude`, `emissionLatitude`) and
/// `zAcceleration` pulls along z. Each particle is drawn as CA draws it:
/// a small picture in a plane parallel to the emitter layer's plane at the
/// particle's depth (turned by its spin about the layer's z), projected
/// exactly (so a perspective makes near particles larger); particles are
/// not turned to face the viewer. Inside a `TransformLayer` the emitter
/// is one plane of the context, ordered with the other planes as a whole
/// (its particles are not interleaved with them).
///
/// **Drawing**: each particle draws its cell's contents centred on it,
/// scaled, turned by spin × age and multiplied by its colour, through the
/// layer's map. `renderMode`: `.unordered` and `.oldestFirst` draw the
/// oldest first (the newest on top), `.oldestLast` the newest first,
/// `.backToFront` as `.oldestFirst` when flattened (all depths are equal)
/// and, in 3-D, sorted by depth after the projection (the particle
/// centre's z / w in the superlayer's space, farthest first; equal depths
/// oldest first), `.additive` adds the particles (`plus`; order does not
/// matter). Sorting is an in-place heap sort of the frame's particle
/// storage: no allocation.
///
/// **Limits**: at most `maximumParticles` particles are alive; a system
/// that would have more is thinned (birth rates scaled down) with a
/// warning naming the layer. Sub-cells nest at most 3 deep. Non-finite or
/// negative rates and lifetimes emit nothing.
open class EmitterLayer: Layer {
    public enum Shape: Sendable { case point, line, rectangle, circle, cuboid, sphere }
    public enum Mode: Sendable { case points, outline, surface, volume }
    public enum RenderMode: Sendable { case unordered, oldestFirst, oldestLast, backToFront, additive }

    public var emitterCells: [EmitterCell] = [] { didSet { noteModelChange() } }
    /// Multiplies every cell's birth rate, lifetime, velocity, scale and spin.
    public var birthRate = 1.0 { didSet { noteModelChange() } }
    public var lifetime = 1.0 { didSet { noteModelChange() } }
    public var velocity = 1.0 { didSet { noteModelChange() } }
    public var scale = 1.0 { didSet { noteModelChange() } }
    public var spin = 1.0 { didSet { noteModelChange() } }
    public var emitterPosition = Point.zero { didSet { noteModelChange() } }
    public var emitterSize = Size.zero { didSet { noteModelChange() } }
    public var emitterShape: Shape = .point { didSet { noteModelChange() } }
    public var emitterMode: Mode = .volume { didSet { noteModelChange() } }
    public var renderMode: RenderMode = .unordered { didSet { noteModelChange() } }
    public var seed: UInt32 = 0 { didSet { noteModelChange() } }
    /// Particles live in the superlayer's 3-D space instead of being
    /// flattened into the layer's plane (see "In 3-D" above). Default
    /// false, as CA.
    public var preservesDepth = false { didSet { noteModelChange() } }
    /// The z of the emitter's shape, points in the layer's space (used
    /// when `preservesDepth`).
    public var emitterZPosition = 0.0 { didSet { noteModelChange() } }
    /// The cuboid's extent along z, points (used when `preservesDepth`).
    public var emitterDepth = 0.0 { didSet { noteModelChange() } }

    public static let maximumParticles = 10_000

    /// Particles drawn in the last frame (tests, statistics).
    public internal(set) var lastParticleCount = 0
    /// Render-thread scratch, kept between frames.
    var particles: [Particle] = []

    public override init(name: String = "emitter") { super.init(name: name) }

    /// A `EmitterLayer` with this layer's model properties (presentation copies,
    /// render-tree twins).
    open override func makePresentationCopy() -> Layer {
        let copy = EmitterLayer(name: name)
        copy.copyLayerState(from: self)
        return copy
    }

    open override func copyLayerState(from other: Layer) {
        super.copyLayerState(from: other)
        // `other` is of this class (see `copyLayerState(from:)`).
        let o = unsafeDowncast(other, to: EmitterLayer.self)
        emitterCells = o.emitterCells
        birthRate = o.birthRate
        lifetime = o.lifetime
        velocity = o.velocity
        scale = o.scale
        spin = o.spin
        emitterPosition = o.emitterPosition
        emitterSize = o.emitterSize
        emitterShape = o.emitterShape
        emitterMode = o.emitterMode
        renderMode = o.renderMode
        seed = o.seed
        preservesDepth = o.preservesDepth
        emitterZPosition = o.emitterZPosition
        emitterDepth = o.emitterDepth
    }

    override var drawsOwnContent: Bool { !emitterCells.isEmpty }

    override var drawsOwnContentInParentSpace: Bool { preservesDepth }
    /// Particles move with time.
    override var contentChangesWithTime: Bool { true }

    /// An emitter with a cell that emits moves every frame, as in Core
    /// Animation, though no animation runs: the render loop keeps drawing
    /// (paused with the layer's `speed` 0, like an animation).
    override func hasPendingContent(at t: MediaTime) -> Bool {
        guard birthRate > 0, lifetime > 0 else { return false }
        let cells = emitterCells
        var i = 0
        while i < cells.count {   // index loop: no iterator in debug builds
            if cells[i].birthRate > 0 && cells[i].lifetime + Swift.abs(cells[i].lifetimeRange) > 0 { return true }
            i += 1
        }
        return false
    }

    /// Particles fly anywhere: the extent is unbounded (cut to the clip).
    override func ownContentExtent(at t: MediaTime) -> Rect? {
        Rect(x: -1e7, y: -1e7, width: 2e7, height: 2e7)
    }

    /// Particles move with time: an emitter changes every frame it runs.
    override func combineContentSignature(into s: inout LayerSignature, at t: MediaTime) {
        s.combine(t); s.combine(emitterCells.count); s.combine(birthRate); s.combine(Int(seed))
        s.combine(emitterPosition.x); s.combine(emitterPosition.y)
        s.combine(preservesDepth ? 1 : 0); s.combine(emitterZPosition); s.combine(emitterDepth)
    }

    /// One living particle at the frame's time.
    struct Particle {
        unowned(unsafe) let cell: EmitterCell
        var x: Double, y: Double
        /// 0 when flattened.
        var z: Double
        var angle: Double
        var scale: Double
        var color: Color
        /// The depth it is sorted by (`.backToFront` in 3-D) and its place
        /// in emission order (ties).
        var depth = 0.0
        var order = 0
    }

    override func drawOwnContent(_ d: OwnContentDrawing) {
        particles.removeAll(keepingCapacity: true)
        let t = d.localTime
        let cells = emitterCells
        var budget = 0.0
        for cell in cells { budget += expectedAlive(cell, depth: 0) }
        let thinning = budget > Double(EmitterLayer.maximumParticles) ? Double(EmitterLayer.maximumParticles) / budget : 1
        if thinning < 1 {
            Diagnostics.warn(self, "particles", "about \(Int(budget)) particles alive exceed \(EmitterLayer.maximumParticles); birth rates thinned")
        }
        for (c, cell) in cells.enumerated() {
            emit(cell, key: UInt64(c + 1), from: nil, until: t, thinning: thinning, depth: 0)
        }
        lastParticleCount = particles.count
        if renderMode == .oldestLast { particles.reverse() }
        let op: BlendOperator = renderMode == .additive ? .plus : d.operator
        if preservesDepth {
            drawInDepth(d, operator: op)
            return
        }
        for particle in particles { EmitterLayer.drawParticle(particle, through: d.map, d, operator: op) }
    }

    /// Particles of `cell` and its sub-cells alive on average.
    private func expectedAlive(_ cell: EmitterCell, depth: Int) -> Double {
        let rate = cell.birthRate * birthRate, life = (cell.lifetime + Swift.abs(cell.lifetimeRange)) * lifetime
        guard rate > 0, rate.isFinite, life > 0, life.isFinite else { return 0 }
        var n = rate * life
        if depth < 2 {
            let subs = cell.emitterCells
            var i = 0
            while i < subs.count { n += rate * life * expectedAlive(subs[i], depth: depth + 1); i += 1 }
        }
        return n
    }

    /// A parent particle's birth and motion, for sub-cells.
    struct Origin {
        var birth: Double; var life: Double
        var x: Double, y: Double, z: Double, vx: Double, vy: Double, vz: Double, ax: Double, ay: Double, az: Double
    }

    /// Adds the particles of `cell` alive at `t` (emitted from the layer's
    /// shape, or from `parent`'s path).
    private func emit(_ cell: EmitterCell, key: UInt64, from parent: Origin?, until t: Double, thinning: Double, depth: Int) {
        let rate = cell.birthRate * birthRate * thinning
        let lifeScale = lifetime
        guard rate > 0, rate.isFinite, lifeScale > 0, lifeScale.isFinite else { return }
        let maxLife = (cell.lifetime + Swift.abs(cell.lifetimeRange)) * lifeScale
        guard maxLife > 0, maxLife.isFinite else { return }
        var start = 0.0, end = t
        if let parent { start = parent.birth; end = Swift.min(t, parent.birth + parent.life) }
        guard end >= start else { return }
        // Sub-cells' particles outlive the particle that emitted them (a
        // firework's sparks fly on after its shell is gone, as in CA): a
        // particle is visited while anything it emitted may still live.
        let reach = maxLife + descendantsReach(cell, depth: depth)
        var first = Int(Swift.max(0, ((t - reach - start) * rate).rounded(.up)))
        let last = Int(((end - start) * rate).rounded(.down))
        if last - first > EmitterLayer.maximumParticles { first = last - EmitterLayer.maximumParticles }
        guard first <= last else { return }
        var k = first - 1
        while k < last {
            k += 1
            let born = start + Double(k) / rate
            var rng = SplitMix64(seed: mix(UInt64(seed), key, UInt64(k)))
            let life = (cell.lifetime + rng.signedUnit() * cell.lifetimeRange) * lifeScale
            let age = t - born
            guard age >= 0, life > 0 else { continue }
            let alive = age < life
            // Where it starts.
            var x0: Double, y0: Double, z0 = 0.0
            if let parent {
                let pa = born - parent.birth
                x0 = parent.x + parent.vx * pa + 0.5 * parent.ax * pa * pa
                y0 = parent.y + parent.vy * pa + 0.5 * parent.ay * pa * pa
                z0 = parent.z + parent.vz * pa + 0.5 * parent.az * pa * pa
            } else if preservesDepth {
                (x0, y0, z0) = emissionPoint3D(&rng)
            } else {
                (x0, y0) = emissionPoint(&rng)
            }
            // How it moves.
            let speed = (cell.velocity + rng.signedUnit() * cell.velocityRange) * velocity
            var vx: Double, vy: Double, vz = 0.0, az = 0.0
            if preservesDepth {
                let u = EmitterLayer.direction(cell, &rng)
                vx = speed * u.x; vy = speed * u.y; vz = speed * u.z
                az = cell.zAcceleration
            } else {
                let direction = cell.emissionLongitude + rng.signedUnit() * cell.emissionRange / 2
                let planar = speed * FloatMath.sinCos(cell.emissionLatitude).cos
                let (s, c) = FloatMath.sinCos(direction)
                vx = planar * c; vy = planar * s
            }
            let ax = cell.xAcceleration, ay = cell.yAcceleration
            let x = x0 + vx * age + 0.5 * ax * age * age, y = y0 + vy * age + 0.5 * ay * age * age
            let z = z0 + vz * age + 0.5 * az * age * age
            let spinRate = (cell.spin + rng.signedUnit() * cell.spinRange) * spin
            let size = (cell.scale + rng.signedUnit() * cell.scaleRange) * scale + cell.scaleSpeed * age
            let base = cell.color
            let color = Color(red: clampUnit(base.red + rng.signedUnit() * cell.redRange + cell.redSpeed * age),
                              green: clampUnit(base.green + rng.signedUnit() * cell.greenRange + cell.greenSpeed * age),
                              blue: clampUnit(base.blue + rng.signedUnit() * cell.blueRange + cell.blueSpeed * age),
                              alpha: clampUnit(base.alpha + rng.signedUnit() * cell.alphaRange + cell.alphaSpeed * age))
            guard x.isFinite, y.isFinite, z.isFinite else { continue }
            if alive, cell.contents != nil, size > 0, color.alpha > 0 {
                particles.append(Particle(cell: cell, x: x, y: y, z: z, angle: spinRate * age, scale: size, color: color,
                                          order: particles.count))
            }
            if depth < 2, !cell.emitterCells.isEmpty {
                let origin = Origin(birth: born, life: life, x: x0, y: y0, z: z0, vx: vx, vy: vy, vz: vz,
                                    ax: ax, ay: ay, az: az)
                let subs = cell.emitterCells
                var i = 0
                while i < subs.count {
                    emit(subs[i], key: mix(key, UInt64(k), UInt64(i + 1)), from: origin, until: t, thinning: thinning,
                         depth: depth + 1)
                    i += 1
                }
            }
        }
    }

    /// The longest a particle of `cell`'s sub-cells (and theirs, within
    /// the nesting limit) can live after its parent dies, seconds.
    private func descendantsReach(_ cell: EmitterCell, depth: Int) -> Double {
        guard depth < 2 else { return 0 }
        var longest = 0.0
        let subs = cell.emitterCells
        var i = 0
        while i < subs.count {   // an index loop: debug builds allocate iterators
            let sub = subs[i]
            i += 1
            let life = (sub.lifetime + Swift.abs(sub.lifetimeRange)) * lifetime
            guard life > 0, life.isFinite else { continue }
            longest = Swift.max(longest, life + descendantsReach(sub, depth: depth + 1))
        }
        return longest
    }

    /// A point of the emitter's shape for the mode.
    func emissionPoint(_ rng: inout SplitMix64) -> (Double, Double) {
        let cx = emitterPosition.x, cy = emitterPosition.y
        let w = emitterSize.width.isFinite ? emitterSize.width : 0, h = emitterSize.height.isFinite ? emitterSize.height : 0
        switch emitterShape {
        case .point:
            return (cx, cy)
        case .line:
            if emitterMode == .points { return (cx + (rng.unit() < 0.5 ? -w / 2 : w / 2), cy) }
            return (cx + (rng.unit() - 0.5) * w, cy)
        case .rectangle, .cuboid:
            switch emitterMode {
            case .points:
                let corner = rng.below(4)
                return (cx + (corner & 1 == 0 ? -w / 2 : w / 2), cy + (corner & 2 == 0 ? -h / 2 : h / 2))
            case .outline:
                var u = rng.unit() * 2 * (w + h)
                if u < w { return (cx - w / 2 + u, cy - h / 2) }; u -= w
                if u < h { return (cx + w / 2, cy - h / 2 + u) }; u -= h
                if u < w { return (cx + w / 2 - u, cy + h / 2) }; u -= w
                return (cx - w / 2, cy + h / 2 - u)
            case .surface, .volume:
                return (cx + (rng.unit() - 0.5) * w, cy + (rng.unit() - 0.5) * h)
            }
        case .circle, .sphere:
            let r = w / 2
            switch emitterMode {
            case .points: return (cx, cy)
            case .outline:
                let (s, c) = FloatMath.sinCos(rng.unit() * FloatMath.twoPi)
                return (cx + r * c, cy + r * s)
            case .surface, .volume:
                let (s, c) = FloatMath.sinCos(rng.unit() * FloatMath.twoPi)
                let d = r * rng.unit().squareRoot()
                return (cx + d * c, cy + d * s)
            }
        }
    }

    /// Particle `p`'s picture (its cell's contents, centred on it, scaled,
    /// turned and tinted) drawn through `map` (the layer's or, in depth,
    /// the plane through the particle: layer points → target pixels).
    static func drawParticle(_ p: Particle, through map: ProjectiveTransform, _ d: OwnContentDrawing, operator op: BlendOperator) {
        guard let contents = p.cell.contents else { return }
        let image = contents.image.view
        let cs = p.cell.contentsScale > 0 && p.cell.contentsScale.isFinite ? p.cell.contentsScale : 1
        let k = p.scale / cs
        let (s, c) = FloatMath.sinCos(p.angle)
        // Texels → layer: centre the image, scale, turn, move to the particle.
        let hw = Double(image.width) / 2, hh = Double(image.height) / 2
        let place = AffineTransform(a: k * c, b: k * s, c: -k * s, d: k * c,
                                    tx: p.x - k * (c * hw - s * hh), ty: p.y - k * (s * hw + c * hh))
        let texelToTarget = ProjectiveTransform(place).concatenating(map)
        let r = Double(image.width + image.height) * k          // a generous radius around the centre
        let box = projectedBox(Rect(x: p.x - r, y: p.y - r, width: 2 * r, height: 2 * r), map).enclosingIntRect
            .intersection(d.canvas.clip)
        guard !box.isEmpty else { return }
        let f = p.color.tintFactors
        let alpha = unitToByte(d.opacity)
        if texelToTarget.isAffine {
            let paint = ImagePaint(image: image, transform: texelToTarget.affinePart, filter: .bilinear, edge: .transparent)
            d.compositor.fillPaint(box, paint: TintedPaint(paint, red: f.red, green: f.green, blue: f.blue, alpha: f.alpha),
                                   operator: op, alpha: alpha, canvas: d.canvas)
        } else {
            let paint = ImagePaint(image: image, projective: texelToTarget, filter: .bilinear, edge: .transparent)
            d.compositor.fillPaint(box, paint: TintedPaint(paint, red: f.red, green: f.green, blue: f.blue, alpha: f.alpha),
                                   operator: op, alpha: alpha, canvas: d.canvas)
        }
    }
}

/// A well-mixed 64-bit key from three values (SplitMix64's finaliser).
func mix(_ a: UInt64, _ b: UInt64, _ c: UInt64) -> UInt64 {
    var z = a &* 0x9E37_79B9_7F4A_7C15 ^ (b &+ 0x632B_E59B_D9B4_E019) &* 0xBF58_476D_1CE4_E5B9 ^ c &* 0x94D0_49BB_1331_11EB
    z = (z ^ (z >> 30)) &* 0xBF58_476D_1CE4_E5B9
    z = (z ^ (z >> 27)) &* 0x94D0_49BB_1331_11EB
    return z ^ (z >> 31)
}

extension SplitMix64 {
    /// Uniform in [−1, 1).
    @inline(__always) mutating func signedUnit() -> Double { unit() * 2 - 1 }
}
