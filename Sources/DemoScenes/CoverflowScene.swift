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
/// **Touch.** A pan scrolls: `pointsPerCover` points of drag per cover.
/// Released, it goes on with momentum — `momentumSeconds` × the release
/// velocity, at most `maximumMomentumCovers` covers more — and settles on
/// the nearest whole cover with an ease-out animation (the covers'
/// transforms animate from where they are on screen). A tap on a side
/// cover brings it to the centre; a tap on the centre cover flips it
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
    /// Points of horizontal drag per cover.
    public let pointsPerCover: Double
    /// Seconds of release velocity the momentum carries on.
    public static let momentumSeconds = 0.5
    /// The most covers momentum adds to a flick.
    public static let maximumMomentumCovers = 2.0
    /// The side covers' turn, radians.
    public static let sideAngle = 65 * Double.pi / 180
    /// Covers further from the centre than this are hidden (each visible
    /// one costs an offscreen pass for its darkened reflection).
    static let visibleReach = 4.5
    /// Covers on the shelf.
    public static let coverCount = 12
    /// The scroll position: the index of the centre cover (fractional while
    /// dragging), at rest an integer.
    public private(set) var position = 3.0
    /// The settle animation under way: from, to, begin (media time), seconds.
    private var settle: (from: Double, to: Double, begin: MediaTime, duration: Double)?
    private var dragStart = 0.0
    package let centreY: Double

    public init(width: Double, height: Double) {
        self.width = width
        self.height = height
        side = Swift.min(height * 0.42, width * 0.36)
        pointsPerCover = width * 0.15
        centreY = height * 0.40
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

    /// The scroll position on screen at `time` (mid-settle: where the
    /// animation is).
    public func visiblePosition(at time: MediaTime) -> Double {
        guard let s = settle else { return position }
        let f = s.duration > 0 ? Swift.min(Swift.max((time - s.begin) / s.duration, 0), 1) : 1
        // Exactly the target once it has ended (the curve's solver may
        // leave 1 − ε at the end, and a tap compares against the target).
        guard f < 1 else { return s.to }
        return s.from + (s.to - s.from) * TimingFunction.easeOut.value(at: f)
    }

    /// Animates the covers from where they are on screen to `target` (an
    /// index), ease-out.
    private func settle(to target: Double) {
        let now = AppRunLoop.current.now
        let from = visiblePosition(at: now)
        let duration = Swift.min(0.35 + 0.12 * Swift.abs(target - from), 0.9)
        settle = (from, target, now, duration)
        position = target
        Transaction.begin()
        Transaction.disableActions = true
        for (i, cover) in covers.enumerated() {
            let start = layout(offset: Double(i) - from), end = layout(offset: Double(i) - target)
            cover.transform = end.transform
            cover.zPosition = end.z
            cover.isHidden = Swift.abs(Double(i) - target) > CoverflowScene.visibleReach && Swift.abs(Double(i) - from) > CoverflowScene.visibleReach
            var move = BasicAnimation(key: .transform, from: .transform(start.transform), to: .transform(end.transform), duration: duration)
            move.timingFunction = .easeOut
            var order = BasicAnimation(key: .zPosition, from: .scalar(start.z), to: .scalar(end.z), duration: duration)
            order.timingFunction = .easeOut
            try? cover.add(move, forKey: "scroll")
            try? cover.add(order, forKey: "order")
        }
        Transaction.commit()
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
            let p = visiblePosition(at: now)
            settle = nil
            for cover in covers { cover.removeAnimation(forKey: "scroll"); cover.removeAnimation(forKey: "order") }
            dragStart = p
            fallthrough
        case .changed:
            let n = Double(CoverflowScene.coverCount)
            position = Swift.min(Swift.max(dragStart - pan.translation.x / pointsPerCover, -0.4), n - 0.6)
            layOut(at: position)
        case .ended, .cancelled:
            settle(to: CoverflowScene.restingCover(from: position, velocity: pan.velocity.x, pointsPerCover: pointsPerCover))
        default:
            break
        }
    }

    /// The cover a release at scroll position `p` with horizontal velocity
    /// `v` (points per second) settles on: `p` carried on by the momentum
    /// (capped), rounded, kept on the shelf.
    public static func restingCover(from p: Double, velocity v: Double, pointsPerCover: Double) -> Double {
        var carry = v.isFinite ? -v * momentumSeconds / Swift.max(pointsPerCover, 1) : 0
        carry = Swift.min(Swift.max(carry, -maximumMomentumCovers), maximumMomentumCovers)
        let target = (p + carry).rounded()
        return Swift.min(Swift.max(target, 0), Double(coverCount - 1))
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
