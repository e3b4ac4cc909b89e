import CPosix
import FBRuntime
import Raster
import Synchronization

/// SplitMix64: a small seeded generator, one per thread, so each thread's
/// sequence of choices is fixed by the seed (their interleaving is not).
struct SeededRandom {
    private var state: UInt64
    init(seed: UInt64) { state = seed }
    mutating func next() -> UInt64 {
        state &+= 0x9E37_79B9_7F4A_7C15
        var z = state
        z = (z ^ (z >> 30)) &* 0xBF58_476D_1CE4_E5B9
        z = (z ^ (z >> 27)) &* 0x94D0_49BB_1331_11EB
        return z ^ (z >> 31)
    }
    /// 0..<n (n > 0).
    mutating func below(_ n: Int) -> Int { Int(next() % UInt64(n)) }
    /// a...b, uniform.
    mutating func double(_ a: Double, _ b: Double) -> Double {
        a + (b - a) * Double(next() >> 11) / Double(1 << 53)
    }
    mutating func chance(_ p: Double) -> Bool { double(0, 1) < p }
}

/// What one thread did (written by that thread only, read after it joined).
final class WorkerCounts {
    var mutations = 0
    var transactions = 0
    var presentationReads = 0
    var hitTests = 0
    var hits = 0
    /// Presentation trees that did not match the model, hits outside it.
    var mismatches = 0
}

/// Everything the storm's threads share. The model tree and the fields
/// marked "lock" are touched only with the transaction lock held
/// (`Transaction.lock()`, which the app run loop holds for each turn), the
/// threading contract of the model tree (`Transaction`, `AppRunLoop`).
final class Storm {
    let root: Layer
    let width: Double
    let height: Double
    let font: Font?
    /// Immutable images, made before the storm and shared by every thread.
    let images: [LayerContents]
    let maximumLayers: Int

    /// Outermost commits made (each went to `RenderLoop.commit`). Lock.
    var commits = 0
    /// Runs of each completion block, by the id it was given. Lock.
    var completionRuns: [Int] = []
    /// Completion blocks that ran more than once. Lock.
    var completionRepeats = 0
    /// Layers animations were added to, so the end can remove animations
    /// from the ones that left the tree (their transactions wait for them).
    /// Lock.
    var animated: [WeakLayer] = []
    /// Layers made so far (names). Lock.
    var madeLayers = 0
    /// Every layer made (weakly): the end finds those still alive, in the
    /// tree or not. Lock.
    var everMade: [WeakLayer] = []
    /// Layers just removed from the tree. A mutator thread takes them with
    /// the lock held and lets go of them after `unlock()`, as app code
    /// holding a removed layer in a local does: the last reference to a
    /// model layer may go on any thread. Lock.
    var detached: [Layer] = []

    init(root: Layer, width: Double, height: Double, font: Font?, images: [LayerContents], maximumLayers: Int) {
        self.root = root; self.width = width; self.height = height
        self.font = font; self.images = images; self.maximumLayers = maximumLayers
    }

    struct WeakLayer { weak var layer: Layer? }

    // MARK: Helpers (lock held)

    /// Every layer of the model tree below the root (masks not included),
    /// in tree order, and the root first.
    func treeLayers() -> [Layer] {
        var out: [Layer] = []
        func walk(_ l: Layer) { out.append(l); for s in l.sublayers { walk(s) } }
        walk(root)
        return out
    }

    func randomColor(_ rng: inout SeededRandom) -> Color {
        Color(red: rng.double(0, 1), green: rng.double(0, 1), blue: rng.double(0, 1), alpha: rng.chance(0.7) ? 1 : rng.double(0.2, 1))
    }

    func randomPath(_ rng: inout SeededRandom, width w: Double, height h: Double) -> Path {
        var p = Path()
        switch rng.below(3) {
        case 0: p.addEllipse(rng.double(0, w / 2), rng.double(0, h / 2), rng.double(2, w), rng.double(2, h))
        case 1: p.addRect(rng.double(0, w / 2), rng.double(0, h / 2), rng.double(2, w), rng.double(2, h))
        default:
            let n = 3 + rng.below(6)
            p.move(to: PathPoint(rng.double(0, w), rng.double(0, h)))
            for _ in 1..<n {
                if rng.chance(0.5) {
                    p.line(to: PathPoint(rng.double(0, w), rng.double(0, h)))
                } else {
                    p.quad(to: PathPoint(rng.double(0, w), rng.double(0, h)), control: PathPoint(rng.double(-w, 2 * w), rng.double(-h, 2 * h)))
                }
            }
            p.close()
        }
        return p
    }

    /// A fresh image (made by the calling thread, then shared read-only).
    static func makeImage(width: Int, height: Int, seed: UInt64, opaque: Bool) -> LayerContents {
        let surface = Surface<ARGB8888>(width: width, height: height)!
        var rng = SeededRandom(seed: seed)
        let a = UInt32(opaque ? 255 : 128 + rng.below(128))
        let base = UInt32(truncatingIfNeeded: rng.next())
        for y in 0..<height {
            for x in 0..<width {
                // Premultiplied ARGB: each channel ≤ alpha.
                let r = (UInt32(x * 255 / max(1, width - 1)) ^ (base & 0xFF)) * a / 255
                let g = (UInt32(y * 255 / max(1, height - 1)) ^ ((base >> 8) & 0xFF)) * a / 255
                let b = (UInt32((x + y) & 1) * 255) * a / 255
                surface.view[x, y] = a << 24 | r << 16 | g << 8 | b
            }
        }
        return LayerContents(surface, isOpaque: opaque)
    }

    /// A new layer of a random kind with random properties (not in a tree).
    func makeLayer(_ rng: inout SeededRandom) -> Layer {
        madeLayers += 1
        let w = rng.double(6, 90), h = rng.double(6, 70)
        let l: Layer
        switch rng.below(font == nil ? 2 : 3) {
        case 0:
            let s = ShapeLayer(name: "shape\(madeLayers)")
            s.path = randomPath(&rng, width: w, height: h)
            s.fillColor = rng.chance(0.8) ? randomColor(&rng) : nil
            s.strokeColor = rng.chance(0.5) ? randomColor(&rng) : nil
            s.lineWidth = rng.double(0.5, 4)
            l = s
        case 1:
            l = Layer(name: "layer\(madeLayers)")
            if rng.chance(0.4) { l.contents = images[rng.below(images.count)] }
        default:
            let t = TextLayer(name: "text\(madeLayers)")
            t.font = font
            t.string = ["storm", "FBRuntime", "ok", "12:34", "tap"][rng.below(5)]
            t.fontSize = rng.double(8, 24)
            t.foregroundColor = randomColor(&rng)
            l = t
        }
        everMade.append(WeakLayer(layer: l))
        if everMade.count > 8 * maximumLayers { everMade.removeAll { $0.layer == nil } }
        l.bounds = Rect(x: 0, y: 0, width: w, height: h)
        l.position = Point(x: rng.double(0, width), y: rng.double(0, height))
        if rng.chance(0.7) { l.backgroundColor = randomColor(&rng) }
        return l
    }

    static let animatedKeys: [AnimatableKey] = [.positionX, .positionY, .position, .opacity, .backgroundColor,
                                                .cornerRadius, .transformRotationZ, .transformScale, .borderWidth,
                                                .shadowOpacity, .boundsSize]

    func value(for key: AnimatableKey, _ rng: inout SeededRandom) -> AnimatableValue {
        switch key {
        case .positionX: return .scalar(rng.double(0, width))
        case .positionY: return .scalar(rng.double(0, height))
        case .position: return .point(Point(x: rng.double(0, width), y: rng.double(0, height)))
        case .opacity, .shadowOpacity: return .scalar(rng.double(0, 1))
        case .backgroundColor: return .color(randomColor(&rng))
        case .cornerRadius, .borderWidth: return .scalar(rng.double(0, 12))
        case .transformRotationZ: return .scalar(rng.double(-3.2, 3.2))
        case .transformScale: return .scalar(rng.double(0.3, 1.8))
        case .boundsSize: return .rect(Rect(x: 0, y: 0, width: rng.double(4, 80), height: rng.double(4, 60)))
        default: return .scalar(0)
        }
    }

    /// A random animation: basic, keyframe, group, spring or transition;
    /// finite (at most a few seconds), so every transaction waiting for it
    /// completes.
    func makeAnimation(_ rng: inout SeededRandom) -> (Animation, String) {
        let key = Storm.animatedKeys[rng.below(Storm.animatedKeys.count)]
        let duration = rng.double(0.05, 0.6)
        switch rng.below(5) {
        case 0:
            var a = BasicAnimation(key: key, from: value(for: key, &rng), to: value(for: key, &rng), duration: duration)
            if rng.chance(0.3) { a.repeatCount = Double(1 + rng.below(3)) }
            a.autoreverses = rng.chance(0.3)
            a.timingFunction = [.linear, .easeIn, .easeOut, .easeInEaseOut, .default][rng.below(5)]
            return (.basic(a), key.path)
        case 1:
            var values: [AnimatableValue] = []
            for _ in 0..<(2 + rng.below(4)) { values.append(value(for: key, &rng)) }
            var k = KeyframeAnimation(key: key, values: values, duration: duration)
            if rng.chance(0.3) { k.calculationMode = .discrete }
            if key == .position && rng.chance(0.5) {
                k.path = randomPath(&rng, width: width, height: height)
                k.rotationMode = rng.chance(0.5) ? .auto : nil
            }
            return (.keyframe(k), "kf-" + key.path)
        case 2:
            var members: [Animation] = []
            for _ in 0..<(1 + rng.below(3)) {
                let k = Storm.animatedKeys[rng.below(Storm.animatedKeys.count)]
                members.append(.basic(BasicAnimation(key: k, from: value(for: k, &rng), to: value(for: k, &rng), duration: rng.double(0.05, 0.6))))
            }
            return (.group(AnimationGroup(members, duration: duration)), "group")
        case 3:
            var s = SpringAnimation(key: key, from: value(for: key, &rng), to: value(for: key, &rng))
            s.stiffness = rng.double(150, 400)
            s.damping = rng.double(15, 30)
            return (.spring(s), "spring-" + key.path)
        default:
            let types: [TransitionType] = [.fade, .moveIn, .push, .reveal]
            let subtypes: [TransitionSubtype] = [.fromLeft, .fromRight, .fromTop, .fromBottom]
            let t = Transition(type: types[rng.below(4)], subtype: subtypes[rng.below(4)], duration: duration)
            return (.transition(t), Transition.key)
        }
    }

    /// One random change of the model tree (lock held). Returns the number
    /// of mutations made. `depth` bounds nested transactions.
    @discardableResult
    func mutate(_ rng: inout SeededRandom, depth: Int = 0) -> Int {
        let layers = treeLayers()
        let layer = layers[rng.below(layers.count)]
        let nonRoot: Layer? = layers.count > 1 ? layers[1 + rng.below(layers.count - 1)] : nil
        let roll = rng.below(100)
        switch roll {
        case 0..<8: layer === root ? () : (layer.position = Point(x: rng.double(0, width), y: rng.double(0, height)))
        case 8..<12: layer === root ? () : (layer.bounds = Rect(x: 0, y: 0, width: rng.double(4, 90), height: rng.double(4, 70)))
        case 12..<16: layer.opacity = rng.double(0.2, 1)
        case 16..<20: layer.backgroundColor = rng.chance(0.85) ? randomColor(&rng) : nil
        case 20..<23: layer.cornerRadius = rng.double(0, 15); layer.masksToBounds = rng.chance(0.5)
        case 23..<25: layer.borderWidth = rng.double(0, 4); layer.borderColor = randomColor(&rng)
        case 25..<28:
            guard layer !== root else { break }
            layer.transform = rng.chance(0.5) ? .rotation(radians: rng.double(-3, 3), x: 0, y: 0, z: 1)
                                              : .scale(x: rng.double(0.5, 1.5), y: rng.double(0.5, 1.5))
        case 28..<29: if layer !== root { layer.isHidden.toggle() }
        case 29..<31: layer.zPosition = rng.double(-5, 5)
        case 31..<34:
            layer.shadowOpacity = rng.chance(0.7) ? rng.double(0, 0.8) : 0
            layer.shadowRadius = rng.double(0, 6)
            layer.shadowOffset = Size(width: rng.double(-4, 4), height: rng.double(-4, 4))
            layer.shadowPath = rng.chance(0.5) ? randomPath(&rng, width: layer.bounds.width, height: layer.bounds.height) : nil
        case 34..<40:
            if rng.chance(0.1) {
                // A new image, drawn by this thread, handed over by the commit.
                layer.contents = Storm.makeImage(width: 4 + rng.below(40), height: 4 + rng.below(30), seed: rng.next(), opaque: rng.chance(0.5))
            } else {
                layer.contents = rng.chance(0.85) ? images[rng.below(images.count)] : nil
            }
            if rng.chance(0.3) { layer.contentsRect = Rect(x: rng.double(0, 0.5), y: rng.double(0, 0.5), width: rng.double(0.2, 0.5), height: rng.double(0.2, 0.5)) }
        case 40..<46:
            if let s = layer as? ShapeLayer {
                switch rng.below(4) {
                case 0: s.path = randomPath(&rng, width: s.bounds.width, height: s.bounds.height)
                case 1: s.fillColor = randomColor(&rng)
                case 2: s.strokeColor = randomColor(&rng); s.lineWidth = rng.double(0.5, 5)
                default: s.strokeEnd = rng.double(0, 1)
                }
            } else if let t = layer as? TextLayer {
                switch rng.below(3) {
                case 0: t.string = "n=\(rng.below(10_000))"
                case 1: t.fontSize = rng.double(8, 28)
                default: t.foregroundColor = randomColor(&rng)
                }
            } else {
                layer.opacity = rng.double(0.3, 1)
            }
        case 46..<54:
            // Add or insert a new layer (or remove one when the tree is full).
            if layers.count >= maximumLayers, let victim = nonRoot {
                victim.removeFromSuperlayer()
                detached.append(victim)
            } else {
                let parent = layers[rng.below(layers.count)]
                let fresh = makeLayer(&rng)
                if rng.chance(0.5) {
                    try? parent.addSublayer(fresh)
                } else {
                    try? parent.insertSublayer(fresh, at: rng.below(parent.sublayers.count + 1))
                }
            }
        case 54..<59:
            if let victim = nonRoot { victim.removeFromSuperlayer(); detached.append(victim) }
        case 59..<64:
            // Move a layer to another parent (or another place): a cycle is refused.
            guard let moving = nonRoot else { break }
            let parent = layers[rng.below(layers.count)]
            if rng.chance(0.5) {
                try? parent.addSublayer(moving)
            } else {
                try? parent.insertSublayer(moving, at: rng.below(parent.sublayers.count + 1))
            }
        case 64..<65:
            // Replace the whole tree in one transaction.
            Transaction.begin()
            if rng.chance(0.5) { Transaction.disableActions = true }
            for s in root.sublayers { s.removeFromSuperlayer(); detached.append(s) }
            var built: [Layer] = [root]
            for _ in 0..<(4 + rng.below(10)) {
                let l = makeLayer(&rng)
                try? built[rng.below(built.count)].addSublayer(l)
                built.append(l)
            }
            Transaction.commit()
        case 65..<68:
            if rng.chance(0.5) { layer.mask = nil } else {
                let m = ShapeLayer(name: "mask")
                everMade.append(WeakLayer(layer: m))
                m.bounds = layer.bounds
                m.anchorPoint = .zero
                m.path = randomPath(&rng, width: layer.bounds.width, height: layer.bounds.height)
                layer.mask = m
            }
        case 68..<80:
            let (animation, key) = makeAnimation(&rng)
            if (try? layer.add(animation, forKey: key)) != nil {
                animated.append(WeakLayer(layer: layer))
                if animated.count > 4 * maximumLayers { animated.removeAll { $0.layer == nil } }
            }
        case 80..<86:
            if rng.chance(0.2) { layer.removeAllAnimations() } else if let a = layer.animations.last {
                layer.removeAnimation(forKey: a.key)
            }
        case 86..<96:
            // A nested transaction with a completion block, and changes in it.
            guard depth < 3 else { break }
            Transaction.begin()
            switch rng.below(3) {
            case 0: Transaction.animationDuration = rng.double(0.05, 0.5)
            case 1: Transaction.disableActions = true
            default: Transaction.animationTimingFunction = .easeOut
            }
            let id = completionRuns.count
            completionRuns.append(0)
            Transaction.setCompletionBlock { [unowned self] in
                completionRuns[id] += 1
                if completionRuns[id] > 1 { completionRepeats += 1 }
            }
            var n = 0
            for _ in 0..<(1 + rng.below(4)) { n += mutate(&rng, depth: depth + 1) }
            Transaction.commit()
            return n + 1
        case 96..<98:
            Transaction.withoutActions { _ = mutate(&rng, depth: depth + 1) }
        default:
            // Bad input the runtime clamps (documented): NaN, huge values.
            guard layer !== root else { break }
            switch rng.below(4) {
            case 0: layer.opacity = .nan
            case 1: layer.cornerRadius = .infinity
            case 2: layer.position = Point(x: 1e12, y: -1e12)
            default: layer.bounds = Rect(x: 0, y: 0, width: 1e9, height: .nan)
            }
        }
        return 1
    }
}

/// Sleeps for `nanoseconds` (real time).
func pause(_ nanoseconds: Int64) { if nanoseconds > 0 { fbr_sleep_ns(nanoseconds) } }
