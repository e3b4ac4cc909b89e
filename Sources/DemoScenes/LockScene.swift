import FBRuntime
import Raster

/// The iPhone lock screen of the 2009 Core Animation talk, on the runtime's
/// public API:
///
/// - a **clock** in layers: "9:41" (fixed, so screendumps are stable) and
///   the date on a translucent band with a glassy highlight;
/// - a **battery with a reflection**: a `ReplicatorLayer` of two instances,
///   the second flipped about the battery's bottom edge and darkened by an
///   RGB offset of −0.75;
/// - **"slide to unlock"**: a `GradientLayer` whose highlight moves
///   (`startPoint`/`endPoint` animated), masked by a `TextLayer` of the
///   words;
/// - a **knob** dragged along the track (a pan on the knob). Released short
///   of the end it springs back (`SpringAnimation` on `position.x`);
///   dragged to the end it unlocks: the bands slide off screen in one
///   explicit transaction whose completion handler then shows the home
///   screen (a grid of icon tiles).
///
/// Points are pixels of the turned screen; everything is laid out from the
/// given width and height.
public final class LockScene: DemoScene {
    public let root = Layer(name: "root")
    private let width: Double, height: Double
    private let topBand = Layer(name: "clock band")
    private let bottomBand = Layer(name: "slider band")
    private let battery = ReplicatorLayer(name: "battery")
    private let shimmer = GradientLayer(name: "slide to unlock")
    private let knob = GradientLayer(name: "knob")
    private let home = Layer(name: "home")
    private let pan = PanGestureRecognizer()
    /// The knob's centre at the start and at the end of the track, x in
    /// the slider band's space, points.
    public let knobMinX: Double, knobMaxX: Double
    /// The knob's centre y in the slider band's space, and the band's
    /// frame in the root's space.
    private let knobY: Double, bottomFrame: Rect
    private var dragStartX = 0.0
    /// Highlight of the shimmer at rest (unit space of its bounds).
    private static let restStart = Point(x: -0.05, y: 0.5), restEnd = Point(x: 0.95, y: 0.5)

    /// Where the screen is: locked, sliding away, unlocked.
    public enum State: Equatable { case locked, unlocking, unlocked }
    public private(set) var state = State.locked
    /// How many times the unlock transaction's completion handler ran.
    public private(set) var unlockCompletions = 0
    /// The knob (tests read its model and presentation x).
    public var knobLayer: Layer { knob }
    /// The home screen (hidden until unlocked).
    public var homeLayer: Layer { home }
    /// The two translucent bands that slide away when unlocking.
    public var bands: (top: Layer, bottom: Layer) { (topBand, bottomBand) }
    /// The spring the knob returns with (points per second² per point, and
    /// per second).
    public static let springStiffness = 320.0, springDamping = 24.0
    /// Seconds the bands take to slide away.
    public static let unlockDuration = 0.45

    public init(width: Double, height: Double) {
        self.width = width
        self.height = height
        let u = Swift.min(width, height)
        root.bounds = Rect(x: 0, y: 0, width: width, height: height)
        root.position = Point(x: width / 2, y: height / 2)
        root.backgroundColor = Color(rgb: 0x05070D)
        let font = try? Font(path: OrbitScene.fontPath)

        // Wallpaper: a deep diagonal gradient with a soft radial glow.
        let wallpaper = GradientLayer(name: "wallpaper")
        SceneParts.place(wallpaper, frame: root.bounds)
        wallpaper.colors = [Color(rgb: 0x0B1E3F), Color(rgb: 0x2B1650), Color(rgb: 0x0D3B45)]
        wallpaper.startPoint = Point(x: 0, y: 0)
        wallpaper.endPoint = Point(x: 1, y: 1)
        let glow = GradientLayer(name: "glow")
        SceneParts.place(glow, frame: root.bounds)
        glow.type = .radial
        glow.colors = [Color(rgb: 0x6A8CFF, alpha: 0.35), Color(rgb: 0x6A8CFF, alpha: 0)]
        glow.startPoint = Point(x: 0.5, y: 0.55)
        glow.endPoint = Point(x: 1.0, y: 1.1)
        try! wallpaper.addSublayer(glow)
        try! root.addSublayer(wallpaper)

        home.bounds = root.bounds
        home.position = root.position
        home.isHidden = true
        LockScene.buildHome(home, width: width, height: height, font: font)
        try! root.addSublayer(home)

        // The clock band: time and date on translucent black, a gloss above.
        let topFrame = Rect(x: 0, y: 0, width: width, height: height * 0.30)
        SceneParts.place(topBand, frame: topFrame)
        topBand.backgroundColor = Color(rgb: 0x000000, alpha: 0.5)
        let gloss = GradientLayer(name: "gloss")
        SceneParts.place(gloss, frame: Rect(x: 0, y: 0, width: width, height: topFrame.height * 0.5))
        gloss.colors = [Color(rgb: 0xFFFFFF, alpha: 0.16), Color(rgb: 0xFFFFFF, alpha: 0.04)]
        try! topBand.addSublayer(gloss)
        if let time = SceneParts.label("9:41", font: font, size: height * 0.16, color: Color(rgb: 0xF4F6FA),
                                       frame: Rect(x: 0, y: topFrame.height * 0.06, width: width, height: height * 0.19)) {
            try! topBand.addSublayer(time)
        }
        if let date = SceneParts.label("Monday, June 8", font: font, size: height * 0.045, color: Color(rgb: 0xC9D2E3),
                                       frame: Rect(x: 0, y: topFrame.height * 0.72, width: width, height: height * 0.06)) {
            try! topBand.addSublayer(date)
        }
        let line = SceneParts.layer("edge", frame: Rect(x: 0, y: topFrame.height - 1, width: width, height: 1),
                                    color: Color(rgb: 0xFFFFFF, alpha: 0.25))
        try! topBand.addSublayer(line)

        // The battery and its reflection: instance 1 is instance 0 flipped
        // about the battery's bottom edge (plus a small gap), darkened.
        let bw = u * 0.34, bh = u * 0.15, tip = u * 0.025, gap = u * 0.012
        battery.bounds = Rect(x: 0, y: 0, width: bw + tip, height: bh)
        battery.position = Point(x: width / 2, y: height * 0.50)
        battery.instanceCount = 2
        // About the bounds' centre: y ↦ −y, then down by the height and the
        // gap, so the copy's top edge meets the battery's bottom edge.
        battery.instanceTransform = Transform3D(scaleX: 1, y: -1).concatenating(Transform3D(translationX: 0, y: bh + gap))
        battery.instanceRedOffset = -0.75
        battery.instanceGreenOffset = -0.75
        battery.instanceBlueOffset = -0.75
        let body = SceneParts.layer("body", frame: Rect(x: 0, y: 0, width: bw, height: bh),
                                    color: Color(rgb: 0x10141C, alpha: 0.6), corner: bh * 0.16)
        body.borderWidth = Swift.max(2, u * 0.008)
        body.borderColor = Color(rgb: 0xE9EDF5)
        let inset = body.borderWidth + u * 0.008
        let charge = GradientLayer(name: "charge")
        SceneParts.place(charge, frame: Rect(x: inset, y: inset, width: (bw - 2 * inset) * 0.8, height: bh - 2 * inset))
        charge.colors = [Color(rgb: 0xB8F27A), Color(rgb: 0x3FAE2A), Color(rgb: 0x2A8A1C)]
        charge.cornerRadius = bh * 0.08
        charge.masksToBounds = true
        try! body.addSublayer(charge)
        let cap = SceneParts.layer("tip", frame: Rect(x: bw, y: bh * 0.3, width: tip, height: bh * 0.4),
                                   color: Color(rgb: 0xE9EDF5), corner: tip * 0.4)
        try! battery.addSublayer(body)
        try! battery.addSublayer(cap)
        try! root.addSublayer(battery)

        // The slider band: track, shimmering words, knob.
        bottomFrame = Rect(x: 0, y: height * 0.76, width: width, height: height * 0.24)
        SceneParts.place(bottomBand, frame: bottomFrame)
        bottomBand.backgroundColor = Color(rgb: 0x000000, alpha: 0.5)
        let th = bottomFrame.height * 0.46
        let track = Rect(x: width * 0.08, y: (bottomFrame.height - th) / 2, width: width * 0.84, height: th)
        let trackLayer = SceneParts.layer("track", frame: track, color: Color(rgb: 0x0C0F16, alpha: 0.85), corner: th * 0.22)
        trackLayer.borderWidth = 1
        trackLayer.borderColor = Color(rgb: 0xFFFFFF, alpha: 0.22)
        try! bottomBand.addSublayer(trackLayer)
        let pad = th * 0.08
        let kh = th - 2 * pad, kw = kh * 1.45
        knobMinX = track.minX + pad + kw / 2
        knobMaxX = track.maxX - pad - kw / 2
        knobY = track.minY + th / 2
        let wordsFrame = Rect(x: track.minX + pad + kw, y: track.minY, width: track.width - 2 * pad - kw, height: th)
        SceneParts.place(shimmer, frame: wordsFrame)
        shimmer.colors = [Color(rgb: 0x6E7380), Color(rgb: 0x6E7380), Color(rgb: 0xFFFFFF), Color(rgb: 0x6E7380), Color(rgb: 0x6E7380)]
        shimmer.locations = [0, 0.42, 0.5, 0.58, 1]
        shimmer.startPoint = LockScene.restStart
        shimmer.endPoint = LockScene.restEnd
        if let words = SceneParts.label("slide to unlock", font: font, size: th * 0.42, color: .white,
                                        frame: Rect(x: 0, y: th * 0.22, width: wordsFrame.width, height: th * 0.6)) {
            shimmer.mask = words
        } else {
            shimmer.isHidden = true   // no font: no words to shine through
        }
        try! bottomBand.addSublayer(shimmer)

        knob.bounds = Rect(x: 0, y: 0, width: kw, height: kh)
        knob.position = Point(x: knobMinX, y: knobY)
        knob.colors = [Color(rgb: 0xFDFDFD), Color(rgb: 0xC9CDD4)]
        knob.cornerRadius = kh * 0.2
        knob.masksToBounds = true
        let arrow = ShapeLayer(name: "arrow")
        arrow.bounds = knob.bounds
        arrow.position = Point(x: kw / 2, y: kh / 2)
        var p = Path()
        let ax = kw * 0.3, ay = kh * 0.5, aw = kw * 0.4, ah = kh * 0.18
        p.move(to: PathPoint(x: ax, y: ay - ah / 2))
        p.line(to: PathPoint(x: ax + aw * 0.55, y: ay - ah / 2))
        p.line(to: PathPoint(x: ax + aw * 0.55, y: ay - ah * 1.3))
        p.line(to: PathPoint(x: ax + aw, y: ay))
        p.line(to: PathPoint(x: ax + aw * 0.55, y: ay + ah * 1.3))
        p.line(to: PathPoint(x: ax + aw * 0.55, y: ay + ah / 2))
        p.line(to: PathPoint(x: ax, y: ay + ah / 2))
        p.close()
        arrow.path = p
        arrow.fillColor = Color(rgb: 0x7A808C)
        try! knob.addSublayer(arrow)
        try! bottomBand.addSublayer(knob)

        try! root.addSublayer(topBand)
        try! root.addSublayer(bottomBand)
    }

    /// The home screen shown once unlocked: a status line, two rows of
    /// four icon tiles with names, and a dock.
    private static func buildHome(_ home: Layer, width: Double, height: Double, font: Font?) {
        let names = ["Clock", "Photos", "Weather", "Music", "Maps", "Notes", "Camera", "Settings"]
        let tints: [(UInt32, UInt32)] = [(0x3A3F4B, 0x15181F), (0xFFB347, 0xE8553B), (0x5AC8FA, 0x1E6FD9), (0xFF5E8A, 0xC2185B),
                                         (0x8BD66B, 0x2E8B57), (0xFFE36E, 0xF2B71F), (0x9AA3B2, 0x4A5160), (0xB0B6C2, 0x5C6370)]
        let cols = 4.0
        let side = Swift.min(width / (cols + 1.6), height * 0.2)
        let gapX = (width - cols * side) / (cols + 1)
        for (i, name) in names.enumerated() {
            let c = Double(i % 4), r = Double(i / 4)
            let x = gapX + c * (side + gapX), y = height * 0.1 + r * (side + height * 0.1)
            let icon = GradientLayer(name: name)
            SceneParts.place(icon, frame: Rect(x: x, y: y, width: side, height: side))
            icon.colors = [Color(rgb: tints[i].0), Color(rgb: tints[i].1)]
            icon.cornerRadius = side * 0.22
            icon.masksToBounds = true
            let shine = SceneParts.layer("shine", frame: Rect(x: 0, y: 0, width: side, height: side * 0.45),
                                         color: Color(rgb: 0xFFFFFF, alpha: 0.14))
            try! icon.addSublayer(shine)
            try! home.addSublayer(icon)
            if let label = SceneParts.label(name, font: font, size: height * 0.035, color: Color(rgb: 0xF0F3F8),
                                            frame: Rect(x: x - gapX / 2, y: y + side + height * 0.01, width: side + gapX, height: height * 0.05)) {
                try! home.addSublayer(label)
            }
        }
        let dock = SceneParts.layer("dock", frame: Rect(x: 0, y: height * 0.8, width: width, height: height * 0.2),
                                    color: Color(rgb: 0xFFFFFF, alpha: 0.14))
        try! home.addSublayer(dock)
    }

    /// Starts the shimmer: the highlight sweeps across the words every
    /// 2.4 s (the frame at `time` shows it where it rests).
    public func startAnimations(at time: MediaTime) {
        var from = BasicAnimation(key: .startPoint, from: .point(Point(x: -1, y: 0.5)), to: .point(Point(x: 1, y: 0.5)), duration: 2.4)
        from.repeatCount = .infinity
        var to = BasicAnimation(key: .endPoint, from: .point(Point(x: 0, y: 0.5)), to: .point(Point(x: 2, y: 0.5)), duration: 2.4)
        to.repeatCount = .infinity
        // Begin where the highlight rests, so the first frame is the still one.
        from.timeOffset = 2.4 * 0.475
        to.timeOffset = 2.4 * 0.475
        shimmer.add(from, forKey: "shimmer start", at: time)
        shimmer.add(to, forKey: "shimmer end", at: time)
    }

    public func installGestures(in router: TouchRouter) -> Bool {
        pan.action = { [unowned(unsafe) self] _ in self.panned() }
        router.add(pan, to: knob)
        return true
    }

    /// Fractions of the screen: the knob's centre at rest.
    package var knobFraction: (x: Double, y: Double) {
        (knobMinX / width, (bottomFrame.minY + knobY) / height)
    }

    private func panned() {
        guard state == .locked else { return }
        let now = AppRunLoop.current.now
        switch pan.state {
        case .began:
            // Catch the knob where it is on screen (it may be springing back).
            var x = knob.position.x
            if case let .scalar(v)? = knob.presentationValue(for: .positionX, at: now), v.isFinite { x = v }
            knob.removeAnimation(forKey: "spring")
            shimmer.removeAnimation(forKey: "fade")
            dragStartX = x
            follow()
        case .changed:
            follow()
        case .ended:
            if dragStartX + pan.translation.x >= knobMaxX { unlock() } else { springBack() }
        case .cancelled, .failed:
            springBack()
        default:
            break
        }
    }

    /// The knob under the finger (clamped to the track); the words fade as
    /// it leaves the start.
    private func follow() {
        let x = Swift.min(Swift.max(dragStartX + pan.translation.x, knobMinX), knobMaxX)
        let progress = (x - knobMinX) / Swift.max(knobMaxX - knobMinX, 1)
        Transaction.withoutActions {
            knob.position = Point(x: x, y: knobY)
            shimmer.opacity = Swift.max(0, 1 - 2.5 * progress)
        }
    }

    private func springBack() {
        let x = knob.position.x
        Transaction.begin()
        Transaction.disableActions = true
        knob.position = Point(x: knobMinX, y: knobY)
        var spring = SpringAnimation(key: .positionX, from: .scalar(x), to: .scalar(knobMinX))
        spring.stiffness = LockScene.springStiffness
        spring.damping = LockScene.springDamping
        try? knob.add(spring, forKey: "spring")
        let fade = BasicAnimation(key: .opacity, from: .scalar(shimmer.opacity), to: .scalar(1), duration: 0.3)
        shimmer.opacity = 1
        try? shimmer.add(fade, forKey: "fade")
        Transaction.commit()
    }

    /// Slides the bands off screen in one transaction; its completion
    /// handler shows the home screen.
    private func unlock() {
        state = .unlocking
        Transaction.begin()
        Transaction.disableActions = true
        Transaction.setCompletionBlock { [unowned(unsafe) self] in self.showHome() }
        let d = LockScene.unlockDuration
        let topY = topBand.position.y, bottomY = bottomBand.position.y
        topBand.position = Point(x: width / 2, y: -topBand.bounds.height / 2 - 2)
        bottomBand.position = Point(x: width / 2, y: height + bottomBand.bounds.height / 2 + 2)
        var up = BasicAnimation(key: .positionY, from: .scalar(topY), to: .scalar(topBand.position.y), duration: d)
        up.timingFunction = .easeIn
        var down = BasicAnimation(key: .positionY, from: .scalar(bottomY), to: .scalar(bottomBand.position.y), duration: d)
        down.timingFunction = .easeIn
        try? topBand.add(up, forKey: "slide")
        try? bottomBand.add(down, forKey: "slide")
        battery.opacity = 0
        try? battery.add(BasicAnimation(key: .opacity, from: .scalar(1), to: .scalar(0), duration: d), forKey: "fade")
        Transaction.commit()
    }

    private func showHome() {
        unlockCompletions += 1
        state = .unlocked
        Transaction.begin()
        Transaction.disableActions = true
        home.isHidden = false
        var fade = BasicAnimation(key: .opacity, from: .scalar(0), to: .scalar(1), duration: 0.3)
        fade.timingFunction = .easeOut
        try? home.add(fade, forKey: "fade in")
        Transaction.commit()
    }
}
