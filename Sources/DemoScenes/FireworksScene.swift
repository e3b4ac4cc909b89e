import FBRuntime
import Raster

/// Fireworks over a city, the 2008 Core Animation demo: an `EmitterLayer`
/// whose rockets (a cell) emit sub-cells — a glowing trail, and a fuse that
/// is born as the rocket reaches the top of its climb and bursts into
/// sparks that fall with gravity and fade (additive render mode, a fixed
/// seed: the same time always shows the same sky).
///
/// **Timing.** Everything that moves lives in the `sky` layer, so the
/// whole show runs on its timeline: `speed` 0 pauses it and `timeOffset`
/// says where it stands (the emitter is a function of time). At rest
/// (before `startAnimations`, or with fbcheck's `--still`) the sky is paused
/// at `restTime`.
///
/// **Touch.** A tap on the sky launches a rocket at the tap's x that bursts
/// at the tap's height (and sets a paused sky running again). A horizontal
/// drag on the timeline strip at the bottom pauses the sky and scrubs it:
/// the finger's place along the strip, 0…1 from its left end, sets
/// `timeOffset` to the last launch's time (or `restTime` without one) +
/// that fraction × `scrubSpan` seconds — left end: lift-off, right end
/// `scrubSpan` seconds later. The sky stays paused until the next tap.
///
/// Rockets are launched from below the skyline, out of sight (the emitters
/// clip to the sky above it): the fuse's first particle, born at lift-off,
/// bursts there unseen.
public final class FireworksScene: DemoScene {
    public let root = Layer(name: "root")
    private let width: Double, height: Double
    private let sky = Layer(name: "sky")
    private let show = EmitterLayer(name: "show")
    private let stars = ShapeLayer(name: "stars")
    private let timeline = Layer(name: "timeline")
    private let thumb = Layer(name: "thumb")
    private var launches: [EmitterLayer] = []
    private let tap = TapGestureRecognizer()
    private let pan = PanGestureRecognizer()
    /// The sky's local time the still scene shows, seconds.
    public static let restTime = 5.0
    /// Seconds the timeline strip spans.
    public static let scrubSpan = 4.0
    /// The most tap-launched rockets kept (the oldest goes first).
    public static let maximumLaunches = 8
    /// Where rockets start (below the skyline) and where the skyline's top
    /// is, y in points.
    public let launchY: Double, groundY: Double
    /// Rocket gravity, points per second² (downwards).
    public let gravity: Double
    /// The sky's local time of the last tap's launch.
    public private(set) var lastLaunchTime: Double?
    /// The x of each tap-launched rocket, in order, points.
    public private(set) var launchXs: [Double] = []
    /// The timeline strip's frame in the root's space.
    public let timelineFrame: Rect

    public init(width: Double, height: Double) {
        self.width = width
        self.height = height
        groundY = height * 0.80
        launchY = groundY + height * 0.25
        gravity = height * 0.5
        timelineFrame = Rect(x: width * 0.05, y: height * 0.90, width: width * 0.9, height: height * 0.07)
        root.bounds = Rect(x: 0, y: 0, width: width, height: height)
        root.position = Point(x: width / 2, y: height / 2)
        root.backgroundColor = Color(rgb: 0x02030A)
        let font = try? Font(path: OrbitScene.fontPath)

        let night = GradientLayer(name: "night")
        SceneParts.place(night, frame: root.bounds)
        night.colors = [Color(rgb: 0x01020A), Color(rgb: 0x0B1233), Color(rgb: 0x2A1E45)]
        night.locations = [0, 0.7, 1]
        try! root.addSublayer(night)

        SceneParts.place(sky, frame: root.bounds)
        sky.speed = 0
        sky.timeOffset = FireworksScene.restTime
        try! root.addSublayer(sky)

        // Stars: fixed dots (a seeded scatter) that twinkle while the sky runs.
        SceneParts.place(stars, frame: root.bounds)
        var rng: UInt64 = 0x9E37_79B9_7F4A_7C15
        var starPath = Path()
        for _ in 0..<70 {
            rng = rng &* 6_364_136_223_846_793_005 &+ 1_442_695_040_888_963_407
            let x = Double(rng >> 40 & 0xFFFF) / 65_535 * width
            let y = Double(rng >> 20 & 0xFFFF) / 65_535 * groundY * 0.9
            let r = 0.6 + Double(rng >> 8 & 0xFF) / 255 * 0.9
            starPath.append(Path(circleCenter: PathPoint(x: x, y: y), radius: r))
        }
        stars.path = starPath
        stars.fillColor = Color(rgb: 0xDDE6FF, alpha: 0.8)
        stars.shouldRasterize = true   // drawn once: the sparks redraw the sky every frame
        try! sky.addSublayer(stars)

        configure(show)
        show.emitterPosition = Point(x: width / 2, y: launchY)
        show.emitterShape = .line
        show.emitterSize = Size(width: width * 0.7, height: 0)
        show.seed = 2008
        show.emitterCells = [rocket(apexY: height * 0.28, birthRate: 1.1, spread: 0.22,
                                    sparkColor: Color(red: 1, green: 0.75, blue: 0.45), hueRange: 0.45)]
        try! sky.addSublayer(show)

        let skyline = ShapeLayer(name: "skyline")
        SceneParts.place(skyline, frame: root.bounds)
        skyline.path = FireworksScene.skylinePath(width: width, height: height, groundY: groundY)
        skyline.fillColor = Color(rgb: 0x06070E)
        skyline.shouldRasterize = true
        try! root.addSublayer(skyline)

        SceneParts.place(timeline, frame: timelineFrame)
        timeline.backgroundColor = Color(rgb: 0xFFFFFF, alpha: 0.08)
        timeline.cornerRadius = timelineFrame.height / 2
        timeline.borderWidth = 1
        timeline.borderColor = Color(rgb: 0xFFFFFF, alpha: 0.2)
        if let hint = SceneParts.label("drag here to scrub time", font: font, size: timelineFrame.height * 0.45,
                                       color: Color(rgb: 0x8C96B4), frame: Rect(x: 0, y: timelineFrame.height * 0.18,
                                                                                width: timelineFrame.width, height: timelineFrame.height * 0.7)) {
            try! timeline.addSublayer(hint)
        }
        thumb.bounds = Rect(x: 0, y: 0, width: timelineFrame.height * 0.5, height: timelineFrame.height * 0.7)
        thumb.position = Point(x: 0, y: timelineFrame.height / 2)
        thumb.cornerRadius = timelineFrame.height * 0.2
        thumb.backgroundColor = Color(rgb: 0xFFD166)
        thumb.isHidden = true
        try! timeline.addSublayer(thumb)
        try! root.addSublayer(timeline)
    }

    /// An emitter clipped to the sky above the skyline, adding its
    /// particles.
    private func configure(_ e: EmitterLayer) {
        e.bounds = Rect(x: 0, y: 0, width: width, height: groundY)
        e.anchorPoint = .zero
        e.position = .zero
        e.masksToBounds = true
        e.renderMode = .additive
    }

    /// A rocket cell that climbs from `launchY` to `apexY` (stopping there
    /// under `gravity`), trailing embers, and bursts at the top: its fuse
    /// sub-cell is born once per climb, the second one exactly at the apex.
    private func rocket(apexY: Double, birthRate: Double, spread: Double, sparkColor: Color, hueRange: Double) -> EmitterCell {
        let climb = Swift.max(launchY - apexY, 1)
        let v0 = (2 * gravity * climb).squareRoot(), rise = v0 / gravity
        let dot = SceneParts.softDot(side: 12)
        let r = EmitterCell(name: "rocket")
        r.birthRate = birthRate
        r.lifetime = rise + 0.04
        r.velocity = v0
        r.emissionLongitude = -Double.pi / 2
        r.emissionRange = spread
        r.yAcceleration = gravity
        r.contents = dot
        r.scale = 0.7
        r.color = Color(red: 1, green: 0.95, blue: 0.85)

        let trail = EmitterCell(name: "trail")
        trail.birthRate = 36
        trail.lifetime = 0.45
        trail.velocity = height * 0.02
        trail.emissionRange = 2 * Double.pi
        trail.yAcceleration = gravity * 0.3
        trail.contents = dot
        trail.scale = 0.45
        trail.color = Color(red: 1, green: 0.6, blue: 0.25, alpha: 0.8)
        trail.alphaSpeed = -1.8

        let fuse = EmitterCell(name: "fuse")
        fuse.birthRate = 1 / rise
        fuse.lifetime = 0.05

        let spark = EmitterCell(name: "spark")
        spark.birthRate = 1800
        spark.lifetime = 1.6
        spark.lifetimeRange = 0.3
        spark.velocity = height * 0.17
        spark.velocityRange = height * 0.05
        spark.emissionRange = 2 * Double.pi
        spark.yAcceleration = height * 0.12
        spark.contents = dot
        spark.scale = 0.8
        spark.scaleRange = 0.2
        spark.scaleSpeed = -0.25
        spark.color = sparkColor
        spark.redRange = hueRange * 0.5
        spark.greenRange = hueRange
        spark.blueRange = hueRange
        spark.alphaSpeed = -0.42

        fuse.emitterCells = [spark]
        r.emitterCells = [trail, fuse]
        return r
    }

    static func skylinePath(width w: Double, height h: Double, groundY: Double) -> Path {
        var p = Path()
        p.move(to: PathPoint(x: 0, y: h))
        var x = 0.0
        var k = 0
        let heights = [0.06, 0.12, 0.04, 0.16, 0.09, 0.2, 0.07, 0.13, 0.03, 0.1, 0.17, 0.05, 0.11, 0.08]
        while x < w {
            let bw = w * (0.05 + 0.02 * Double(k % 3))
            let top = groundY - h * heights[k % heights.count] * 0.6
            p.line(to: PathPoint(x: x, y: top))
            p.line(to: PathPoint(x: Swift.min(x + bw, w), y: top))
            x += bw
            k += 1
        }
        p.line(to: PathPoint(x: w, y: h))
        p.close()
        return p
    }

    /// The sky's local time now (global media time `time`).
    private func skyTime(at time: MediaTime) -> Double { sky.convertTime(time, from: nil) }

    /// Runs a paused sky from where it stands.
    private func resume(at time: MediaTime) {
        guard sky.speed == 0 else { return }
        let t = skyTime(at: time)
        sky.beginTime = time
        sky.timeOffset = t
        sky.speed = 1
        thumb.isHidden = true
        // The twinkle keeps frames coming while the sky runs (an emitter
        // alone is not an animation the render loop waits for).
        var twinkle = BasicAnimation(key: .opacity, from: .scalar(1), to: .scalar(0.55), duration: 1.3)
        twinkle.autoreverses = true
        twinkle.repeatCount = .infinity
        stars.add(twinkle, forKey: "twinkle", at: time)
    }

    /// Sets the show running from its rest time at `time`.
    public func startAnimations(at time: MediaTime) {
        Transaction.withoutActions { resume(at: time) }
    }

    /// The sky's timeline (tests read its `speed` and `timeOffset`).
    public var skyLayer: Layer { sky }
    /// The tap-launched emitters, oldest first.
    public var launchLayers: [EmitterLayer] { launches }

    public func installGestures(in router: TouchRouter) -> Bool {
        tap.action = { [unowned(unsafe) self] _ in self.tapped() }
        pan.action = { [unowned(unsafe) self] _ in self.scrubbed() }
        router.add(tap, to: root)   // the skyline and the strip lie over the sky; taps below the skyline are ignored
        router.add(pan, to: timeline)
        return true
    }

    private func tapped() {
        let now = AppRunLoop.current.now
        let p = tap.location
        guard p.isFinite, p.y < groundY else { return }
        Transaction.withoutActions {
            resume(at: now)
            let t = skyTime(at: now)
            let e = EmitterLayer(name: "launch")
            configure(e)
            e.emitterPosition = Point(x: p.x, y: launchY)
            e.seed = UInt32(truncatingIfNeeded: launches.count &* 7919 &+ 11)
            // One rocket: the next would be born 1000 s later.
            e.emitterCells = [rocket(apexY: Swift.max(p.y, height * 0.08), birthRate: 0.001, spread: 0,
                                     sparkColor: Color(red: 0.55, green: 0.8, blue: 1), hueRange: 0.35)]
            e.beginTime = t
            if launches.count >= FireworksScene.maximumLaunches { launches.removeFirst().removeFromSuperlayer() }
            try? sky.insertSublayer(e, above: show)
            launches.append(e)
            launchXs.append(p.x)
            lastLaunchTime = t
        }
    }

    /// The sky time the timeline shows for a finger at `x` (root space).
    public func scrubTime(forX x: Double) -> Double {
        let f = Swift.min(Swift.max((x - timelineFrame.minX) / timelineFrame.width, 0), 1)
        return (lastLaunchTime ?? FireworksScene.restTime) + f * FireworksScene.scrubSpan
    }

    private func scrubbed() {
        switch pan.state {
        case .began, .changed:
            let x = pan.location.x
            guard x.isFinite else { return }
            Transaction.withoutActions {
                sky.speed = 0
                sky.beginTime = 0
                sky.timeOffset = scrubTime(forX: x)
                stars.removeAnimation(forKey: "twinkle")
                thumb.isHidden = false
                thumb.position = Point(x: Swift.min(Swift.max(x - timelineFrame.minX, 0), timelineFrame.width),
                                       y: timelineFrame.height / 2)
            }
        default:
            break
        }
    }
}
