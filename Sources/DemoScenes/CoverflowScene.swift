import Controls
import FBRuntime
import Raster

/// Cover Flow: album covers in perspective, the centre one facing the
/// viewer and the others turned ±65° and stacked on either side, each with
/// a reflection below it.
///
/// Layers: `shelf` (its `sublayerTransform` is the perspective, `m34`) →
/// one `ReplicatorLayer` per cover (two instances: the cover and, flipped
/// about its bottom edge and darkened by an RGB offset, its reflection) →
/// `flipper` (a `TransformLayer`) → the front (generated artwork:
/// gradients, shapes, title) half a point in front of the back (the track
/// list, turned 180° about y), so depth order shows whichever side faces
/// the viewer. Both stay double-sided: a reflection is a mirror image,
/// whose projected winding is reversed, and the compositor would cull a
/// single-sided front there (it decides from the winding).
/// Covers are ordered by `zPosition` (the centre on top).
///
/// **Touch.** The shelf scrolls with the Controls scroll physics
/// (`ScrollAxisMotion`, as a `ScrollView` has it) along a scroll offset of
/// `pointsPerCover` points per cover, 0…`maximumOffset`: a pan moves it
/// with the finger, rubber-banded past the first and last covers
/// (`rubberBandedOffset`); released, it decelerates exponentially and lands
/// on the whole cover nearest the free deceleration's rest (a flick into
/// an end bounces there, bounded), and a finger catches it where it is on
/// screen. The covers are drawn from the position, not a scroll view
/// layer: each motion goes to the render thread as keyframes of every
/// cover's transform and depth, sampled from the motion's closed form
/// (the way `ScrollView` hands over its `bounds.origin`). A tap on a side
/// cover brings it to the centre (the spring from where the shelf is on
/// screen, at its speed there); a tap on the centre cover flips it
/// (`transform.rotation.y` by 180°, front to back or back).
public final class CoverflowScene: DemoScene {
    public let root = Layer(name: "root")
    private let width: Double, height: Double
    private let shelf = Layer(name: "shelf")
    private var covers: [ReplicatorLayer] = []
    private var flippers: [TransformLayer] = []
    /// Which covers show their back.
    public private(set) var flipped: [Bool] = []
    private let pan = PanGestureRecognizer()
    private let tap = TapGestureRecognizer()
    /// The cover side, points.
    public let side: Double
    /// Points of horizontal drag per cover: the scroll offset is the
    /// position times this.
    public let pointsPerCover: Double
    /// The side covers' turn, radians.
    public static let sideAngle = 65 * Double.pi / 180
    /// Covers further from the centre than this are hidden (each visible
    /// one costs an offscreen pass for its darkened reflection).
    static let visibleReach = 4.5
    /// Covers on the shelf.
    public static let coverCount = 12
    /// The scroll position: the index of the centre cover (fractional while
    /// dragging, past the ends while rubber-banded), at rest an integer;
    /// while a motion runs, the cover it lands on.
    public private(set) var position = 3.0
    /// The scroll offset's motion (points: position × `pointsPerCover`);
    /// resting while dragged or at rest.
    public private(set) var motion: ScrollAxisMotion
    /// The scroll offset where the drag began, points.
    private var dragStart = 0.0
    package let centreY: Double

    public init(width: Double, height: Double) {
        self.width = width
        self.height = height
        side = Swift.min(height * 0.42, width * 0.36)
        pointsPerCover = width * 0.15
        centreY = height * 0.40
        motion = .resting(at: position * pointsPerCover)
        root.bounds = Rect(x: 0, y: 0, width: width, height: height)
        root.position = Point(x: width / 2, y: height / 2)
        root.backgroundColor = Color(rgb: 0x000000)
        let font = try? Font(path: OrbitScene.fontPath)

        let sky = GradientLayer(name: "backdrop")
        SceneParts.place(sky, frame: root.bounds)
        sky.colors = [Color(rgb: 0x1A1F2B), Color(rgb: 0x000000), Color(rgb: 0x000000)]
        sky.locations = [0, 0.62, 1]
        try! root.addSublayer(sky)

        SceneParts.place(shelf, frame: root.bounds)
        shelf.sublayerTransform = Transform3D.perspective(distance: side * 2.6)
        let s = side
        for i in 0..<CoverflowScene.coverCount {
            let cover = ReplicatorLayer(name: "cover \(i)")
            cover.bounds = Rect(x: 0, y: 0, width: s, height: s)
            cover.position = Point(x: width / 2, y: centreY)
            cover.instanceCount = 2
            cover.instanceTransform = Transform3D(scaleX: 1, y: -1).concatenating(Transform3D(translationX: 0, y: s + s * 0.02))
            cover.instanceRedOffset = -0.72
            cover.instanceGreenOffset = -0.72
            cover.instanceBlueOffset = -0.72
            let flipper = TransformLayer(name: "flipper")
            flipper.bounds = cover.bounds
            flipper.position = Point(x: s / 2, y: s / 2)
            let front = CoverflowScene.front(i, side: s, font: font)
            let back = CoverflowScene.back(i, side: s, font: font)
            // Which side shows is left to depth order, not culling: the
            // back half a point behind the front, turned to face the other
            // way. (Single-sided faces would not do here: the reflection
            // is a mirror image, whose projected winding is reversed, so
            // the compositor would cull the front there and show the back.)
            front.transform = Transform3D(translationX: 0, y: 0, z: 0.5)
            back.transform = Transform3D(rotationAngle: Double.pi, x: 0, y: 1, z: 0)
                .concatenating(Transform3D(translationX: 0, y: 0, z: -0.5))
            try! flipper.addSublayer(front)
            try! flipper.addSublayer(back)
            try! cover.addSublayer(flipper)
            try! shelf.addSublayer(cover)
            covers.append(cover)
            flippers.append(flipper)
            flipped.append(false)
        }
        try! root.addSublayer(shelf)
        if let hint = SceneParts.label("flick to browse, tap the centre cover to flip it", font: font, size: height * 0.035,
                                       color: Color(rgb: 0x6F7888), frame: Rect(x: 0, y: height * 0.92, width: width, height: height * 0.06)) {
            try! root.addSublayer(hint)
        }
        layOut(at: position)
    }

    static let titles = ["Blue Hour", "Neon Tide", "Paper Moons", "Static", "Golden Age", "Kite Flying",
                         "Low Light", "Orbit", "Salt & Cedar", "Northbound", "Velvet", "Aurora"]
    static let palette: [(UInt32, UInt32, UInt32)] = [
        (0x1E3C72, 0x2A5298, 0xFFD166), (0xFF0080, 0x7928CA, 0x00F5D4), (0xF6E7C1, 0xC9B79C, 0x2B2D42),
        (0x232526, 0x414345, 0xE63946), (0xF7971E, 0xFFD200, 0x3D2C8D), (0x56CCF2, 0x2F80ED, 0xFFFFFF),
        (0x0F2027, 0x2C5364, 0xF4A261), (0x000428, 0x004E92, 0xF72585), (0xD4FC79, 0x96E6A1, 0x1B4332),
        (0x8E2DE2, 0x4A00E0, 0xFFBE0B), (0x6A0572, 0xAB83A1, 0xFFE5EC), (0x00C9FF, 0x92FE9D, 0x5A189A)]

    /// Cover `i`'s artwork: a gradient, a motif of shapes, the title.
    /// Rasterized once (`shouldRasterize`): it only ever moves.
    static func front(_ i: Int, side s: Double, font: Font?) -> Layer {
        let (c0, c1, accent) = palette[i % palette.count]
        let art = GradientLayer(name: "front")
        SceneParts.place(art, frame: Rect(x: 0, y: 0, width: s, height: s))
        art.colors = [Color(rgb: c0), Color(rgb: c1)]
        art.startPoint = Point(x: 0, y: 0)
        art.endPoint = Point(x: 1, y: 1)
        art.masksToBounds = true
        let motif = ShapeLayer(name: "motif")
        SceneParts.place(motif, frame: Rect(x: 0, y: 0, width: s, height: s))
        var p = Path()
        switch i % 4 {
        case 0:   // rings
            for k in 1...4 { p.append(Path(circleCenter: PathPoint(x: s * 0.62, y: s * 0.4), radius: s * 0.08 * Double(k))) }
            motif.fillColor = nil
            motif.strokeColor = Color(rgb: accent, alpha: 0.85)
            motif.lineWidth = s * 0.02
        case 1:   // stripes
            for k in 0..<5 {
                let x = s * (0.1 + 0.18 * Double(k))
                p.move(to: PathPoint(x: x, y: s)); p.line(to: PathPoint(x: x + s * 0.5, y: 0))
                p.line(to: PathPoint(x: x + s * 0.58, y: 0)); p.line(to: PathPoint(x: x + s * 0.08, y: s)); p.close()
            }
            motif.fillColor = Color(rgb: accent, alpha: 0.55)
        case 2:   // a sun
            p = Path(circleCenter: PathPoint(x: s * 0.5, y: s * 0.45), radius: s * 0.26)
            motif.fillColor = Color(rgb: accent, alpha: 0.9)
        default:  // a mountain
            p.move(to: PathPoint(x: 0, y: s * 0.8)); p.line(to: PathPoint(x: s * 0.38, y: s * 0.3))
            p.line(to: PathPoint(x: s * 0.58, y: s * 0.55)); p.line(to: PathPoint(x: s * 0.72, y: s * 0.42))
            p.line(to: PathPoint(x: s, y: s * 0.8)); p.close()
            motif.fillColor = Color(rgb: accent, alpha: 0.8)
        }
        motif.path = p
        try! art.addSublayer(motif)
        if let title = SceneParts.label(titles[i % titles.count], font: font, size: s * 0.1, color: .white,
                                        frame: Rect(x: s * 0.07, y: s * 0.8, width: s * 0.9, height: s * 0.14), alignment: .left) {
            try! art.addSublayer(title)
        }
        art.shouldRasterize = true
        return art
    }

    /// Cover `i`'s back: the track list on dark paper.
    static func back(_ i: Int, side s: Double, font: Font?) -> Layer {
        let back = SceneParts.layer("back", frame: Rect(x: 0, y: 0, width: s, height: s), color: Color(rgb: 0x15171C))
        back.borderWidth = Swift.max(1, s * 0.01)
        back.borderColor = Color(rgb: palette[i % palette.count].2)
        let tracks = [titles[i % titles.count], "Side A", "1  Morning", "2  Lanterns", "3  Undertow", "4  Homeward"]
        for (k, line) in tracks.enumerated() {
            if let l = SceneParts.label(line, font: font, size: s * (k == 0 ? 0.1 : 0.075), color: Color(rgb: k == 0 ? 0xFFFFFF : 0xAAB2C0),
                                        frame: Rect(x: s * 0.08, y: s * (0.08 + 0.14 * Double(k)), width: s * 0.86, height: s * 0.13),
                                        alignment: .left) {
                try! back.addSublayer(l)
            }
        }
        back.shouldRasterize = true
        return back
    }

    /// Where a cover `d` covers from the centre stands: its transform
    /// (turn, then move across and back) and its drawing order.
    func layout(offset d: Double) -> (transform: Transform3D, z: Double) {
        let a = Swift.min(Swift.abs(d), 1)
        let sign: Double = d < 0 ? -1 : 1
        let sideX = side * 0.62, stack = side * 0.17, depth = side * 0.45
        let x = Swift.abs(d) <= 1 ? d * sideX : sign * (sideX + (Swift.abs(d) - 1) * stack)
        let t = Transform3D(rotationAngle: sign * a * CoverflowScene.sideAngle, x: 0, y: 1, z: 0)
            .concatenating(Transform3D(translationX: x, y: 0, z: -a * depth))
        return (t, -Swift.abs(d))
    }

    /// Every cover placed for scroll position `p`, without animation.
    private func layOut(at p: Double) {
        Transaction.withoutActions {
            for (i, cover) in covers.enumerated() {
                let d = Double(i) - p
                let l = layout(offset: d)
                cover.transform = l.transform
                cover.zPosition = l.z
                cover.isHidden = Swift.abs(d) > CoverflowScene.visibleReach
            }
        }
    }

    /// The largest scroll offset: the last cover in the centre, points.
    public var maximumOffset: Double { Double(CoverflowScene.coverCount - 1) * pointsPerCover }

    /// The scroll position on screen at `time`: the motion under way
    /// evaluated there; exactly `position` once it has ended.
    public func visiblePosition(at time: MediaTime) -> Double {
        guard time < motion.endTime else { return position }
        return motion.value(at: time) / pointsPerCover
    }

    /// Runs `m` (a motion of the scroll offset) from `time`, resting on
    /// cover `target`: the model is laid out for the rest at once, and each
    /// cover on the way gets keyframes of its transform and depth at the
    /// times `sampleTimes(forCover:duration:position:)` picks for it
    /// (linear between: within `keyframeTolerance` of the motion on
    /// screen). Covers out of `visibleReach` of every position the motion
    /// passes are hidden, the rest shown.
    private func run(_ m: ScrollAxisMotion, to target: Double, at time: MediaTime) {
        motion = m
        position = target
        let position = { [pointsPerCover] (t: Double) in m.value(at: time + t) / pointsPerCover }
        // The range the motion passes (every 1/60 s, as the hidden covers
        // only need it to about a tenth of a cover).
        let steps = Swift.min(Swift.max(Int((m.duration * 60).rounded(.up)), 1), 600)
        var lowest = target, highest = target
        for k in 0...steps {
            let p = position(m.duration * Double(k) / Double(steps))
            lowest = Swift.min(lowest, p); highest = Swift.max(highest, p)
        }
        lastMotionKeyframes = 0
        Transaction.withoutActions {
            var moves: [AnimatableValue] = [], depths: [AnimatableValue] = []
            for (i, cover) in covers.enumerated() {
                cover.removeAnimation(forKey: "scroll")
                cover.removeAnimation(forKey: "order")
                let rest = layout(offset: Double(i) - target)
                cover.transform = rest.transform
                cover.zPosition = rest.z
                let nearest = Swift.min(Swift.max(Double(i), lowest), highest)
                cover.isHidden = Swift.abs(Double(i) - nearest) > CoverflowScene.visibleReach
                guard m.duration > 0, !cover.isHidden else { continue }
                let times = sampleTimes(forCover: i, duration: m.duration, position: position)
                moves.removeAll(keepingCapacity: true)
                depths.removeAll(keepingCapacity: true)
                for t in times {
                    let l = layout(offset: Double(i) - position(t))
                    moves.append(.transform(l.transform))
                    depths.append(.scalar(l.z))
                }
                let keyTimes = times.map { $0 / m.duration }
                var move = KeyframeAnimation(key: .transform, values: moves, duration: m.duration)
                move.calculationMode = .linear
                move.keyTimes = keyTimes
                var order = KeyframeAnimation(key: .zPosition, values: depths, duration: m.duration)
                order.calculationMode = .linear
                order.keyTimes = keyTimes
                cover.add(move, forKey: "scroll", at: time)
                cover.add(order, forKey: "order", at: time)
                lastMotionKeyframes += times.count
            }
        }
    }

    /// How far (points) a cover's corners may stray on screen from the
    /// motion between two of its keyframes, unless the keyframes are as
    /// close as `sampleTimes` goes (about a frame).
    public static let keyframeTolerance = 0.1

    /// Keyframes the last motion gave all covers together (transform and
    /// depth each have this many): its memory is about 300 bytes each.
    public private(set) var lastMotionKeyframes = 0

    /// The times (seconds from the motion's start, first 0, last
    /// `duration`) at which cover `i` gets a keyframe while the scroll
    /// position runs along `position(t)` (covers).
    ///
    /// Between two keyframes the animation interpolates linearly, which is
    /// exact for `layout(offset:)` as long as the position moves linearly
    /// and the offset `d = i − p` stays on one piece of the layout (the
    /// pieces meet at d = −1, 0 and 1: the turn, the slide and the depth
    /// change there). So an interval is halved while it is longer than
    /// 1/60 s (or 1/600 of a longer motion, so at most 600 steps: halving
    /// from 1/4 s, the shortest interval is 1/64 s) and
    /// either crosses a piece boundary or, checked at its quarters, its
    /// position strays from the straight line by more than
    /// `keyframeTolerance` points of on-screen movement (about 1.34·side
    /// per cover within one cover of the centre: slide, depth and the turn
    /// of a corner; 0.17·side per cover in the stacks). Intervals start at
    /// most 1/4 s long. A cover far out in a stack through a whole fling
    /// gets a few dozen keyframes where uniform sampling gave it one per
    /// frame of the motion.
    func sampleTimes(forCover i: Int, duration: Double, position: (Double) -> Double) -> [Double] {
        let minimumStep = Swift.max(1.0 / 60, duration / 600) * 1.0001
        let d = Double(i)
        let near = side * 1.34, far = side * 0.17
        func mustSplit(_ t0: Double, _ t1: Double) -> Bool {
            guard t1 - t0 > minimumStep else { return false }
            let p0 = position(t0), p1 = position(t1)
            var lo = Swift.min(p0, p1), hi = Swift.max(p0, p1), stray = 0.0
            for f in [0.25, 0.5, 0.75] {
                let p = position(t0 + (t1 - t0) * f)
                lo = Swift.min(lo, p); hi = Swift.max(hi, p)
                stray = Swift.max(stray, Swift.abs(p - (p0 + (p1 - p0) * f)))
            }
            // Piece boundaries at p = i − 1, i, i + 1, strictly inside.
            for k in [d - 1, d, d + 1] where lo < k && k < hi { return true }
            let slope = hi >= d - 1 && lo <= d + 1 ? near : far
            return stray * slope > CoverflowScene.keyframeTolerance
        }
        var times: [Double] = [0]
        var pending: [(Double, Double)] = []
        let pieces = Swift.max(1, Int((duration / 0.25).rounded(.up)))
        for k in 0..<pieces {
            pending.append((duration * Double(k) / Double(pieces), k == pieces - 1 ? duration : duration * Double(k + 1) / Double(pieces)))
            while let (t0, t1) = pending.popLast() {
                if mustSplit(t0, t1) {
                    let mid = (t0 + t1) / 2
                    pending.append((mid, t1))
                    pending.append((t0, mid))
                } else {
                    times.append(t1)
                }
            }
        }
        return times
    }

    /// Stops the shelf where it is on screen at `time` (a finger caught
    /// it) and returns that scroll offset, points.
    private func catchMotion(at time: MediaTime) -> Double {
        let offset = time < motion.endTime ? motion.value(at: time) : position * pointsPerCover
        motion = .resting(at: offset, time: time)
        for cover in covers { cover.removeAnimation(forKey: "scroll"); cover.removeAnimation(forKey: "order") }
        return offset
    }

    /// Springs from where the shelf is on screen (at its speed there) to
    /// cover `target`.
    private func settle(to target: Double) {
        let now = AppRunLoop.current.now
        let from = now < motion.endTime ? motion.value(at: now) : position * pointsPerCover
        let velocity = motion.velocity(at: now)
        run(.spring(from: from, velocity: velocity, to: target * pointsPerCover, at: now,
                    frequency: ScrollAxisMotion.defaultSpringFrequency), to: target, at: now)
    }

    /// The covers to the centre's left and right slide in by whole steps;
    /// nothing else animates (the shelf rests until touched).
    public func startAnimations(at time: MediaTime) {}

    public func installGestures(in router: TouchRouter) -> Bool {
        pan.action = { [unowned(unsafe) self] _ in self.panned() }
        tap.action = { [unowned(unsafe) self] _ in self.tapped() }
        router.add(pan, to: root)
        router.add(tap, to: root)
        return true
    }

    private func panned() {
        let now = AppRunLoop.current.now
        switch pan.state {
        case .began:
            dragStart = catchMotion(at: now)
            fallthrough
        case .changed:
            let offset = rubberBandedOffset(dragStart - pan.translation.x, minimum: 0, maximum: maximumOffset, dimension: width)
            motion = .resting(at: offset, time: now)
            position = offset / pointsPerCover
            layOut(at: position)
        case .ended, .cancelled:
            release(velocity: pan.state == .ended ? -pan.velocity.x : 0, at: now)
        default:
            break
        }
    }

    /// The finger let go at `time`, the offset moving at `velocity`
    /// (points per second, the opposite of the finger's): the shared
    /// release (`ScrollAxisMotion.release`) to the whole cover nearest the
    /// free deceleration's rest, kept on the shelf.
    func release(velocity: Double, at time: MediaTime) {
        let from = motion.value(at: time)
        let tau = ScrollAxisMotion.normalDecelerationTimeConstant
        let rest = ScrollAxisMotion.projectedRest(from: from, velocity: velocity, timeConstant: tau)
        let target = ScrollAxisMotion.snapped(rest, interval: pointsPerCover, minimum: 0, maximum: maximumOffset)
        let m = ScrollAxisMotion.release(from: from, velocity: velocity, target: target, minimum: 0, maximum: maximumOffset,
                                         timeConstant: tau, springFrequency: ScrollAxisMotion.defaultSpringFrequency,
                                         maximumOvershoot: width * ScrollAxisMotion.defaultMaximumOvershootFraction, at: time)
        run(m, to: (target / pointsPerCover).rounded(), at: time)
    }

    private func tapped() {
        let now = AppRunLoop.current.now
        guard let hit = root.hitTest(tap.location, at: now) else { return }
        var layer: Layer? = hit
        var index: Int?
        while let l = layer, index == nil {
            for (i, c) in covers.enumerated() where c === l { index = i }
            layer = l.superlayer
        }
        guard let i = index else { return }
        if Double(i) == position && Swift.abs(visiblePosition(at: now) - position) < 0.01 {
            flip(i)
        } else {
            settle(to: Double(i))
        }
    }

    /// Turns cover `i` over: its flipper's `transform.rotation.y` to π (or
    /// back to 0), 0.6 s.
    private func flip(_ i: Int) {
        flipped[i].toggle()
        let to = flipped[i] ? Double.pi : 0
        Transaction.begin()
        Transaction.disableActions = true
        flippers[i].transform = Transform3D(rotationAngle: to, x: 0, y: 1, z: 0)
        var turn = BasicAnimation(key: .transformRotationY, from: .scalar(Double.pi - to), to: .scalar(to), duration: 0.6)
        turn.timingFunction = .easeInEaseOut
        try? flippers[i].add(turn, forKey: "flip")
        Transaction.commit()
    }
}
