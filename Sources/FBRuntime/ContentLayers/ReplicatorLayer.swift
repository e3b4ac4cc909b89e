import Raster

/// A layer that draws its sublayers `instanceCount` times, as
/// `CAReplicatorLayer`: instance k is instance k − 1 transformed by
/// `instanceTransform` (about the centre of this layer's bounds), delayed
/// by `instanceDelay` seconds, and tinted by `instanceColor` plus k times
/// the colour offsets. Replication happens when compositing, so animations
/// of the sublayers replicate too (each instance at its own delayed time).
///
/// **Colour.** Instance k's colour is `instanceColor` + k · (red, green,
/// blue, alpha offsets), each channel clamped to 0…1; it multiplies the
/// instance's pixels (red by red, …, alpha by alpha). An instance whose
/// colour is white is drawn straight into the target; any other colour
/// costs an offscreen pass (counted in `FrameStatistics.offscreenPasses`),
/// sized to the instance's bounding box in the target.
///
/// **Bad input.** `instanceCount` ≤ 0 draws no sublayers; more than
/// `maximumInstanceCount` are clamped to it; a non-finite
/// `instanceTransform`, delay or offset counts as the identity / 0.
///
/// Animatable (key path names, as `.custom(name)` keys):
/// `instanceTransform`, `instanceColor`, `instanceRedOffset`,
/// `instanceGreenOffset`, `instanceBlueOffset`, `instanceAlphaOffset`,
/// `instanceDelay`.
open class ReplicatorLayer: Layer {
    // `final`: with an observer, the open class's getter clashed with the
    // dead-method stub Embedded Swift emits for it in another module
    // (duplicate symbol at the aarch64 link).
    /// Copies drawn, the original included. Default 1.
    public final var instanceCount = 1 { didSet { noteModelChange() } }
    /// Seconds each instance lags the previous one.
    public var instanceDelay: Double = 0 { willSet { willChangeValue(forKey: .instanceDelay) } didSet { didChangeValues() } }
    /// Applied to instance k − 1 to make instance k, about the centre of the
    /// bounds, in this layer's space (before `sublayerTransform`).
    public var instanceTransform = Transform3D.identity { willSet { willChangeValue(forKey: .instanceTransform) } didSet { didChangeValues() } }
    /// The tint of instance 0. Default white (no tint).
    public var instanceColor = Color.white { willSet { willChangeValue(forKey: .instanceColor) } didSet { didChangeValues() } }
    public var instanceRedOffset: Double = 0 { willSet { willChangeValue(forKey: .instanceRedOffset) } didSet { didChangeValues() } }
    public var instanceGreenOffset: Double = 0 { willSet { willChangeValue(forKey: .instanceGreenOffset) } didSet { didChangeValues() } }
    public var instanceBlueOffset: Double = 0 { willSet { willChangeValue(forKey: .instanceBlueOffset) } didSet { didChangeValues() } }
    public var instanceAlphaOffset: Double = 0 { willSet { willChangeValue(forKey: .instanceAlphaOffset) } didSet { didChangeValues() } }

    /// Most instances drawn (a documented clamp).
    public static let maximumInstanceCount = 1024

    public override init(name: String = "replicator") { super.init(name: name) }

    /// A `ReplicatorLayer` with this layer's model properties (presentation copies,
    /// render-tree twins).
    open override func makePresentationCopy() -> Layer {
        let copy = ReplicatorLayer(name: name)
        copy.copyLayerState(from: self)
        return copy
    }

    open override func copyLayerState(from other: Layer) {
        super.copyLayerState(from: other)
        // `other` is of this class (see `copyLayerState(from:)`).
        let o = unsafeDowncast(other, to: ReplicatorLayer.self)
        instanceCount = o.instanceCount
        instanceDelay = o.instanceDelay
        instanceTransform = o.instanceTransform
        instanceColor = o.instanceColor
        instanceRedOffset = o.instanceRedOffset
        instanceGreenOffset = o.instanceGreenOffset
        instanceBlueOffset = o.instanceBlueOffset
        instanceAlphaOffset = o.instanceAlphaOffset
    }

    /// Its animatable properties animate implicitly when set in a
    /// displayed tree, as in Core Animation.
    open override class func defaultAction(forKey key: AnimatableKey) -> LayerAction? {
        if case let .custom(name) = key, ReplicatorLayer.animatableKeys.contains(name) { return .implicitAnimation }
        return super.defaultAction(forKey: key)
    }

    /// The replicator's animatable properties (typed keys: `AnimatableKey.instanceDelay`…).
    static let animatableKeys = ["instanceDelay", "instanceTransform", "instanceColor", "instanceRedOffset", "instanceGreenOffset", "instanceBlueOffset", "instanceAlphaOffset"]
    open override class var customAnimatableKeys: [String] { super.customAnimatableKeys + animatableKeys }

    open override func storedValue(forKey name: String) -> AnimatableValue? {
        switch name {
        case "instanceTransform": return .transform(instanceTransform)
        case "instanceColor": return .color(instanceColor)
        case "instanceRedOffset": return .scalar(instanceRedOffset)
        case "instanceGreenOffset": return .scalar(instanceGreenOffset)
        case "instanceBlueOffset": return .scalar(instanceBlueOffset)
        case "instanceAlphaOffset": return .scalar(instanceAlphaOffset)
        case "instanceDelay": return .scalar(instanceDelay)
        default: return super.storedValue(forKey: name)
        }
    }

    open override func setStoredValue(_ value: AnimatableValue, forKey name: String) {
        switch (name, value) {
        case let ("instanceTransform", .transform(v)): instanceTransform = v
        case let ("instanceColor", .color(v)): instanceColor = v
        case let ("instanceRedOffset", .scalar(v)): instanceRedOffset = v
        case let ("instanceGreenOffset", .scalar(v)): instanceGreenOffset = v
        case let ("instanceBlueOffset", .scalar(v)): instanceBlueOffset = v
        case let ("instanceAlphaOffset", .scalar(v)): instanceAlphaOffset = v
        case let ("instanceDelay", .scalar(v)): instanceDelay = v
        default: super.setStoredValue(value, forKey: name)
        }
    }

    override var replicator: ReplicatorLayer? { self }

    static let signatureKeys = ["instanceDelay", "instanceTransform", "instanceColor", "instanceRedOffset",
                                "instanceGreenOffset", "instanceBlueOffset", "instanceAlphaOffset"]

    override func combineContentSignature(into s: inout LayerSignature, at t: MediaTime) {
        s.combine(customKeys: ReplicatorLayer.signatureKeys, of: self, at: t)
        s.combine(instanceCount)
        if instanceDelay != 0 { s.combine(t) }   // delayed instances run animations at other times
    }

    /// The presented replication parameters at the layer's local time `t`.
    func replication(at t: MediaTime) -> Replication {
        func scalar(_ name: String) -> Double {
            if case let .scalar(v)? = customPresentationValue(forKey: name, atLocalTime: t), v.isFinite { return v }
            return 0
        }
        var transform = instanceTransform
        if case let .transform(m)? = customPresentationValue(forKey: "instanceTransform", atLocalTime: t) { transform = m }
        if !transform.isFinite { transform = .identity }
        var color = instanceColor
        if case let .color(c)? = customPresentationValue(forKey: "instanceColor", atLocalTime: t) { color = c }
        return Replication(count: Swift.min(Swift.max(instanceCount, 0), ReplicatorLayer.maximumInstanceCount),
                           delay: scalar("instanceDelay"), transform: transform, color: color,
                           offsets: (scalar("instanceRedOffset"), scalar("instanceGreenOffset"),
                                     scalar("instanceBlueOffset"), scalar("instanceAlphaOffset")))
    }
}

/// A replicator's parameters as presented in one frame.
struct Replication {
    var count: Int
    var delay: Double
    var transform: Transform3D
    var color: Color
    var offsets: (red: Double, green: Double, blue: Double, alpha: Double)

    /// Instance `k`'s tint, channels clamped to 0…1 (NaN → 0).
    func color(ofInstance k: Int) -> Color {
        let d = Double(k)
        return Color(red: clampUnit(color.red + d * offsets.red), green: clampUnit(color.green + d * offsets.green),
                     blue: clampUnit(color.blue + d * offsets.blue), alpha: clampUnit(color.alpha + d * offsets.alpha))
    }
}

extension Compositor {
    /// Draws the sublayers of the replicator `r` once per instance (see
    /// `ReplicatorLayer`).
    /// Calls `body` with the placement of the sublayers of the replicator
    /// `r` for each visible instance (tint alpha > 0), first (drawn
    /// first, at the back) to last, and the instance's tint. Drawing and
    /// hit testing both place instances through it.
    func forEachReplica(_ r: ResolvedLayer, _ rep: Replication, _ body: (ParentPlacement, Color) -> Void) {
        let b = r.bounds
        let cx = b.minX + b.width / 2, cy = b.minY + b.height / 2
        let toCentre = Transform3D(translationX: -cx, y: -cy), back = Transform3D(translationX: cx, y: cy)
        var power = Transform3D.identity             // instanceTransform^k
        var k = 0
        while k < rep.count {
            defer { k += 1 }
            if k > 0 { power = power.concatenating(rep.transform) }
            let tint = rep.color(ofInstance: k)
            guard tint.alpha > 0 else { continue }
            let space = k == 0 ? r.sublayerSpace
                : toCentre.concatenating(power).concatenating(back).concatenating(r.sublayerSpace)
            let time = r.localTime - Double(k) * rep.delay
            body(ParentPlacement(toTarget: r.toTarget, sublayerSpace: space, flipped: r.sublayersFlipped, time: time), tint)
        }
    }

    @inline(never)
    func drawReplicas(_ r: ResolvedLayer, _ rep: Replication, opacity: Double, canvas: Canvas, depth: Int) {
        forEachReplica(r, rep) { placement, tint in
            if tint.red == 1 && tint.green == 1 && tint.blue == 1 && tint.alpha == 1 {
                forEachSublayerInDrawingOrder(r.layer) { sublayer in
                    draw(sublayer, parent: placement, opacity: opacity, canvas: canvas, depth: depth + 1)
                }
                return
            }
            let space = placement.sublayerSpace, time = placement.time
            // Tinted: offscreen over the instance's extent, multiplied, composited.
            var box = BoundingBox.empty
            let sublayers = r.layer.sublayers
            var k = 0          // an index loop: the iterator of `for … in` allocates in debug builds
            while k < sublayers.count {
                if let s = resolve(sublayers[k], in: placement) { box = box.union(subtreeBounds(s, depth: depth + 1)) }
                k += 1
            }
            let region = box.enclosingIntRect.intersection(canvas.clip)
            guard !region.isEmpty, let off = colorPool.acquire(width: region.width, height: region.height) else { return }
            defer { colorPool.release(off) }
            statistics.offscreenPasses += 1
            let shift = ProjectiveTransform.translation(Double(-region.x), Double(-region.y))
            let shifted = ParentPlacement(toTarget: r.toTarget.concatenating(shift), sublayerSpace: space,
                                          flipped: r.sublayersFlipped, time: time)
            let offCanvas = Canvas(off, family: kernels)
            forEachSublayerInDrawingOrder(r.layer) { sublayer in
                draw(sublayer, parent: shifted, opacity: opacity, canvas: offCanvas, depth: depth + 1)
            }
            multiply(off, by: tint)
            statistics.pixelsWritten += region.area
            composite(off, x: region.x, y: region.y, mask: nil, operator: .srcOver, alpha: 255, canvas: canvas)
        }
    }

    /// Multiplies premultiplied pixels by a straight colour: red by
    /// red × alpha, …, alpha by alpha (what tinting the straight colour and
    /// fading it does to the premultiplied one; `TintedPaint`'s rule).
    func multiply(_ view: PixelView<ARGB8888>, by tint: Color) {
        let f = tint.tintFactors
        let fr = UInt32(f.red), fg = UInt32(f.green), fb = UInt32(f.blue), fa = UInt32(f.alpha)
        var y = 0
        while y < view.height {
            let row = view.row(y)
            var x = 0
            while x < view.width {
                row[x] = tinted(row[x], red: fr, green: fg, blue: fb, alpha: fa)
                x &+= 1
            }
            y &+= 1
        }
    }
}
