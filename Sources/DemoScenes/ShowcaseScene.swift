import FBRuntime
import Raster

/// Every kind of animation at once, one per cell of a 3 × 2 grid:
///
/// - **implicit**: a tile that the app moves to the next corner (and
///   recolours and rounds) on each turn of its run loop — property changes
///   in a transaction, animated by their default actions;
/// - **basic**: a bar turning (`transform.rotation.z`, 0 → 2π, repeating);
/// - **keyframe**: an arrow (a `ShapeLayer`) going round a circle along a
///   path, turned to the path's direction (`rotationMode` auto);
/// - **group**: a square that grows, fades and rounds as one group,
///   autoreversing;
/// - **transition**: two pages — a `GradientLayer` whose colours animate,
///   and a star `ShapeLayer` — pushed in turn;
/// - **spring**: a ball dropped to a new height with a `SpringAnimation`
///   on every other turn.
///
/// Labels and a title are `TextLayer`s when the font file is there
/// (`OrbitScene.fontPath`). The app drives it with `turn(at:)` inside
/// `AppRunLoop.runTurn`; everything depends only on the times it is given,
/// so headless frames are repeatable.
public final class ShowcaseScene: DemoScene {
    public let root = Layer(name: "root")
    private let width: Double, height: Double
    private let tile = Layer(name: "implicit")
    private let bar = Layer(name: "basic")
    private let arrow = ShapeLayer(name: "keyframe")
    private let pulse = Layer(name: "group")
    private let page = Layer(name: "page")
    private let gradient = GradientLayer(name: "gradient")
    private let star = ShapeLayer(name: "star")
    private let ball = Layer(name: "spring")
    /// The cells' frames, in the root's space.
    private var cells: [Rect] = []
    /// Seconds between the app's scene changes.
    static let period = 0.8
    private var startTime: MediaTime = 0
    private var lastStep = 0
    private var started = false

    public init(width: Double, height: Double) {
        self.width = width
        self.height = height
        root.bounds = Rect(x: 0, y: 0, width: width, height: height)
        root.position = Point(x: width / 2, y: height / 2)
        root.backgroundColor = Color(rgb: 0x1C2433)
        let font = try? Font(path: OrbitScene.fontPath)
        let top = height * 0.12
        let cw = width / 3, ch = (height - top) / 2
        let names = ["implicit", "basic", "keyframe", "group", "transition", "spring"]
        for i in 0..<6 {
            let frame = Rect(x: Double(i % 3) * cw, y: top + Double(i / 3) * ch, width: cw, height: ch)
            cells.append(frame)
            let panel = Layer(name: "panel")
            panel.bounds = Rect(x: 0, y: 0, width: cw - 6, height: ch - 6)
            panel.position = Point(x: frame.mid.x, y: frame.mid.y)
            panel.backgroundColor = Color(rgb: 0x263042)
            panel.cornerRadius = 6
            try! root.addSublayer(panel)
            if let font {
                let label = TextLayer(name: "label")
                label.font = font
                label.string = names[i]
                label.fontSize = height * 0.045
                label.foregroundColor = Color(rgb: 0x9AA8BF)
                label.bounds = Rect(x: 0, y: 0, width: cw - 12, height: height * 0.07)
                label.anchorPoint = Point(x: 0, y: 0)
                label.position = Point(x: frame.minX + 8, y: frame.minY + 5)
                try! root.addSublayer(label)
            }
        }
        if let font {
            let title = TextLayer(name: "title")
            title.font = font
            title.string = "FBRuntime: every kind of animation"
            title.fontSize = height * 0.06
            title.foregroundColor = Color(rgb: 0xE8EEF7)
            title.bounds = Rect(x: 0, y: 0, width: width - 16, height: top)
            title.anchorPoint = Point(x: 0, y: 0)
            title.position = Point(x: 8, y: height * 0.025)
            try! root.addSublayer(title)
        }
        let s = Swift.min(cw, ch)

        tile.bounds = Rect(x: 0, y: 0, width: s * 0.28, height: s * 0.28)
        tile.position = corner(0, of: cells[0])
        tile.backgroundColor = Color(rgb: 0xF2A541)
        tile.cornerRadius = 2

        bar.bounds = Rect(x: 0, y: 0, width: s * 0.6, height: s * 0.1)
        bar.position = center(cells[1])
        bar.backgroundColor = Color(rgb: 0x2E86AB)
        bar.cornerRadius = s * 0.05

        arrow.bounds = Rect(x: 0, y: 0, width: s * 0.2, height: s * 0.16)
        var head = Path()
        head.move(to: PathPoint(x: 0, y: 0))
        head.line(to: PathPoint(x: s * 0.2, y: s * 0.08))
        head.line(to: PathPoint(x: 0, y: s * 0.16))
        head.line(to: PathPoint(x: s * 0.05, y: s * 0.08))
        head.close()
        arrow.path = head
        arrow.fillColor = Color(rgb: 0x3BB273)
        arrow.strokeColor = Color(rgb: 0xFFFFFF)
        arrow.lineWidth = 1
        arrow.position = orbitPoint(0)

        pulse.bounds = Rect(x: 0, y: 0, width: s * 0.35, height: s * 0.35)
        pulse.position = center(cells[3])
        pulse.backgroundColor = Color(rgb: 0xE84855)
        let dot = Layer(name: "dot")        // group opacity fades both as one
        dot.bounds = Rect(x: 0, y: 0, width: s * 0.18, height: s * 0.18)
        dot.position = Point(x: s * 0.35, y: s * 0.35)
        dot.backgroundColor = Color(rgb: 0xFFFFFF)
        dot.cornerRadius = s * 0.09
        try! pulse.addSublayer(dot)

        page.bounds = Rect(x: 0, y: 0, width: cells[4].width * 0.7, height: cells[4].height * 0.55)
        page.position = Point(x: cells[4].mid.x, y: cells[4].mid.y + height * 0.02)
        page.backgroundColor = Color(rgb: 0x3B4A63)
        page.masksToBounds = true
        gradient.bounds = page.bounds
        gradient.anchorPoint = .zero
        gradient.colors = [Color(rgb: 0x2E86AB), Color(rgb: 0x9B5DE5), Color(rgb: 0xF2A541)]
        gradient.startPoint = Point(x: 0, y: 0)
        gradient.endPoint = Point(x: 1, y: 1)
        star.bounds = page.bounds
        star.anchorPoint = .zero
        star.path = ShowcaseScene.starPath(center: Point(x: page.bounds.width / 2, y: page.bounds.height / 2),
                                           radius: page.bounds.height * 0.42)
        star.fillColor = Color(rgb: 0xF2D541)
        star.strokeColor = Color(rgb: 0xE84855)
        star.lineWidth = 2
        star.isHidden = true
        try! page.addSublayer(gradient)
        try! page.addSublayer(star)

        ball.bounds = Rect(x: 0, y: 0, width: s * 0.2, height: s * 0.2)
        ball.cornerRadius = s * 0.1
        ball.backgroundColor = Color(rgb: 0x9B5DE5)
        ball.position = Point(x: cells[5].mid.x, y: cells[5].minY + cells[5].height * 0.35)

        for layer in [tile, bar, arrow, pulse, page, ball] as [Layer] { try! root.addSublayer(layer) }
    }

    private func center(_ r: Rect) -> Point { Point(x: r.mid.x, y: r.mid.y + height * 0.02) }

    /// Corner `k` (clockwise from the top left) of the implicit tile's path.
    private func corner(_ k: Int, of r: Rect) -> Point {
        let dx = r.width * 0.28, dy = r.height * 0.2
        let c = center(r)
        switch k % 4 {
        case 0: return Point(x: c.x - dx, y: c.y - dy)
        case 1: return Point(x: c.x + dx, y: c.y - dy)
        case 2: return Point(x: c.x + dx, y: c.y + dy)
        default: return Point(x: c.x - dx, y: c.y + dy)
        }
    }

    /// Point `k` of eight around the keyframe cell's circle (clockwise on
    /// screen, from the right).
    private func orbitPoint(_ k: Int) -> Point {
        var c = center(cells[2])
        c.y += height * 0.02
        let r = Swift.min(cells[2].width, cells[2].height) * 0.26
        let angle = Double(k) * Double.pi / 4
        let (sin, cos) = FloatMath.sinCos(angle)
        return Point(x: c.x + r * cos, y: c.y + r * sin)
    }

    static func starPath(center c: Point, radius r: Double) -> Path {
        var path = Path()
        for k in 0..<10 {
            let angle = -Double.pi / 2 + Double(k) * Double.pi / 5
            let rr = k % 2 == 0 ? r : r * 0.45
            let (sin, cos) = FloatMath.sinCos(angle)
            let p = PathPoint(x: c.x + rr * cos, y: c.y + rr * sin)
            if k == 0 { path.move(to: p) } else { path.line(to: p) }
        }
        path.close()
        return path
    }

    /// Adds the repeating animations (basic, keyframe, group, the
    /// gradient's colours) beginning at `time`.
    public func startAnimations(at time: MediaTime) {
        startTime = time
        lastStep = 0
        started = true
        var spin = BasicAnimation(key: .transformRotationZ, from: .scalar(0), to: .scalar(2 * Double.pi), duration: 2)
        spin.repeatCount = .infinity
        bar.add(spin, forKey: "spin", at: time)

        // Round the circle: a keyframe animation along a path, turning
        // with it (rotationMode auto: the arrow points along the tangent).
        let start = orbitPoint(0), centre = Point(x: (orbitPoint(0).x + orbitPoint(4).x) / 2, y: orbitPoint(0).y)
        var around = KeyframeAnimation(key: .position, values: [], duration: 2.4)
        around.path = Path(circleCenter: PathPoint(x: centre.x, y: centre.y), radius: start.x - centre.x)
        around.rotationMode = .auto
        around.timing.repeatCount = .infinity
        arrow.add(around, forKey: "around", at: time)

        var grow = BasicAnimation(key: .transformScale, from: .scalar(1), to: .scalar(1.35), duration: 0.7)
        grow.timingFunction = .easeInEaseOut
        let fade = BasicAnimation(key: .opacity, from: .scalar(1), to: .scalar(0.45), duration: 0.7)
        let round = BasicAnimation(key: .cornerRadius, from: .scalar(0), to: .scalar(pulse.bounds.width / 2), duration: 0.7)
        var group = AnimationGroup([.basic(grow), .basic(fade), .basic(round)], duration: 0.7)
        group.timing.autoreverses = true
        group.timing.repeatCount = .infinity
        pulse.add(group, forKey: "pulse", at: time)

        var shimmer = BasicAnimation(key: .colors, from: .colors(gradient.colors),
                                     to: .colors([Color(rgb: 0xF2A541), Color(rgb: 0x2E86AB), Color(rgb: 0x3BB273)]),
                                     duration: 1.2)
        shimmer.autoreverses = true
        shimmer.repeatCount = .infinity
        gradient.add(shimmer, forKey: "shimmer", at: time)
    }

    /// The app's work in one turn of its run loop at `time` (call it inside
    /// `AppRunLoop.runTurn`): every `period` seconds after the start, move
    /// the implicit tile on; on odd steps push the other page in, on even
    /// ones drop the ball with a spring.
    public func turn(at time: MediaTime) {
        guard started else { return }
        let elapsed = time - startTime
        let step = elapsed.isFinite && elapsed > 0 ? Int(Swift.min(elapsed / ShowcaseScene.period, 1e9)) : 0
        guard step > lastStep else { return }
        lastStep = step
        // Implicit: plain property changes; the actions animate them from
        // where the tile is on screen.
        Transaction.animationDuration = 0.6
        tile.position = corner(step, of: cells[0])
        tile.backgroundColor = Color(rgb: step % 2 == 0 ? 0xF2A541 : 0x3BB273)
        tile.cornerRadius = step % 2 == 0 ? 2 : tile.bounds.width / 2
        if step % 2 == 1 {
            // Transition: add the push first (its before image is the page
            // as on screen now), then swap the pages without actions.
            var push = Transition(type: .push, subtype: step % 4 == 1 ? .fromRight : .fromLeft, duration: 0.6)
            push.timingFunction = .easeInEaseOut
            try? page.add(.transition(push), forKey: Transition.key)
            Transaction.withoutActions {
                star.isHidden.toggle()
                gradient.isHidden = !star.isHidden
            }
        } else {
            // Spring: to the other height, from where the ball is now.
            let y0 = cells[5].minY + cells[5].height * 0.35, y1 = cells[5].minY + cells[5].height * 0.68
            let from = ball.presentationValue(for: .positionY) ?? .scalar(ball.position.y)
            let target = step % 4 == 0 ? y0 : y1
            Transaction.withoutActions { ball.position = Point(x: ball.position.x, y: target) }
            var spring = SpringAnimation(key: .positionY, from: from, to: .scalar(target))
            spring.stiffness = 180
            spring.damping = 7
            try? ball.add(spring, forKey: "drop")
        }
    }
}

extension OrbitScene: DemoScene {}

private extension Rect {
    /// The centre, points.
    var mid: Point { Point(x: minX + width / 2, y: minY + height / 2) }
}
