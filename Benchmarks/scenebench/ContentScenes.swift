import FBRuntime
import Raster

/// The content-layer cases of `scripts/bench scene` (issue #8), each on a
/// 1920×1080 opaque root:
/// - a screen of text: 2,000 glyphs in wrapped paragraphs (DejaVu Sans;
///   `nil` when the font is not installed), its fontSize breathing so the
///   glyphs are drawn every frame from the glyph cache;
/// - 20 shape layers with 300-segment closed paths (the 2010 butterfly
///   demo), each turning and morphing its path and stroke end;
/// - an emitter keeping about 2,000 particles alive, flattened, and the
///   same in 3-D (`preservesDepth`) under a perspective, sorted back to
///   front;
/// - every kind of animation at once: a full-screen gradient whose colours
///   and locations run through keyframes, over 24 cards moved by paced
///   keyframes, turned by cubic ones, pulsed by a group and dropped by a
///   spring.
enum ContentScenes {
    static func root() -> Layer {
        let root = Layer(name: "root")
        root.bounds = Rect(x: 0, y: 0, width: 1920, height: 1080)
        root.anchorPoint = .zero
        root.backgroundColor = Color(red: 0.08, green: 0.09, blue: 0.11)
        return root
    }

    static let fontPath = "/usr/share/fonts/truetype/dejavu/DejaVuSans.ttf"

    static func text(at time: MediaTime) -> (root: Layer, glyphs: Int)? {
        guard let font = try? Font(path: fontPath) else { return nil }
        let root = root()
        let words = ["layer", "render", "board", "touch", "frame", "glyph", "vsync", "swift", "pixel", "shadow"]
        var glyphs = 0
        for column in 0..<4 {
            let text = TextLayer()
            text.font = font
            text.fontSize = 18
            text.isWrapped = true
            text.bounds = Rect(x: 0, y: 0, width: 440, height: 1040)
            text.anchorPoint = .zero
            text.position = Point(x: 20 + Double(column) * 475, y: 20)
            var s = ""
            var k = column
            while s.count < 600 { s += words[k % words.count] + " "; k += 3 }
            text.string = s
            glyphs += s.filter { $0 != " " }.count
            var breathe = BasicAnimation(key: .fontSize, from: .scalar(18), to: .scalar(19), duration: 1)
            breathe.autoreverses = true
            breathe.repeatCount = .infinity
            text.add(breathe, forKey: "breathe", at: time)
            try! root.addSublayer(text)
        }
        return (root, glyphs)
    }

    /// A closed wing-like curve of `segments` line segments.
    static func wing(_ segments: Int, phase: Double) -> Path {
        var p = Path()
        for i in 0..<segments {
            let a = Double(i) / Double(segments) * 2 * Double.pi
            let (s, c) = FloatMath.sinCos(a)
            let (s2, _) = FloatMath.sinCos(2 * a + phase)
            let r = 60 + 40 * s2
            let point = PathPoint(x: 80 + r * c, y: 80 + r * s * 0.8)
            if i == 0 { p.move(to: point) } else { p.line(to: point) }
        }
        p.close()
        return p
    }

    static func shapes(at time: MediaTime) -> Layer {
        let root = root()
        for i in 0..<20 {
            let shape = ShapeLayer()
            shape.bounds = Rect(x: 0, y: 0, width: 160, height: 160)
            shape.position = Point(x: 120 + Double(i % 5) * 400, y: 140 + Double(i / 5) * 260)
            shape.path = wing(300, phase: 0)
            shape.fillColor = Color(red: 0.9, green: 0.5 + 0.02 * Double(i), blue: 0.2, alpha: 0.8)
            shape.strokeColor = .white
            shape.lineWidth = 3
            var morph = BasicAnimation(key: .shapePath, from: .path(wing(300, phase: 0)), to: .path(wing(300, phase: 2)), duration: 1.5)
            morph.autoreverses = true
            morph.repeatCount = .infinity
            shape.add(morph, forKey: "morph", at: time)
            var spin = BasicAnimation(key: .transformRotationZ, from: .scalar(0), to: .scalar(2 * Double.pi), duration: 4 + Double(i % 3))
            spin.repeatCount = .infinity
            shape.add(spin, forKey: "spin", at: time)
            try! root.addSublayer(shape)
        }
        return root
    }

    static func animationKinds(at time: MediaTime) -> Layer {
        let root = root()
        let sky = GradientLayer()
        sky.bounds = root.bounds
        sky.anchorPoint = .zero
        sky.colors = [Color(rgb: 0x1B2A49), Color(rgb: 0x2E86AB), Color(rgb: 0xF2A541)]
        sky.locations = [0, 0.6, 1]
        var colors = KeyframeAnimation(key: .colors, values: [
            .colors(sky.colors), .colors([Color(rgb: 0x3A1C71), Color(rgb: 0xD76D77), Color(rgb: 0xFFAF7B)]),
            .colors([Color(rgb: 0x0F2027), Color(rgb: 0x203A43), Color(rgb: 0x2C5364)]), .colors(sky.colors),
        ], duration: 6)
        colors.calculationMode = .paced
        colors.timing.repeatCount = .infinity
        sky.add(colors, forKey: "colors", at: time)
        var locations = KeyframeAnimation(key: .locations, values: [.scalars([0, 0.6, 1]), .scalars([0, 0.3, 1]), .scalars([0, 0.6, 1])],
                                          duration: 4)
        locations.timing.repeatCount = .infinity
        sky.add(locations, forKey: "locations", at: time)
        try! root.addSublayer(sky)
        for i in 0..<24 {
            let card = Layer(name: "card")
            card.bounds = Rect(x: 0, y: 0, width: 160, height: 100)
            let x = 140 + Double(i % 6) * 320, y = 150 + Double(i / 6) * 250
            card.position = Point(x: x, y: y)
            card.backgroundColor = Color(red: 0.95, green: 0.95 - 0.02 * Double(i), blue: 0.9)
            card.cornerRadius = 12
            var path = KeyframeAnimation(key: .position, values: [.point(card.position), .point(Point(x: x + 60, y: y - 30)),
                                                                  .point(Point(x: x - 40, y: y + 20)), .point(card.position)], duration: 3)
            path.calculationMode = .paced
            path.timing.repeatCount = .infinity
            card.add(path, forKey: "move", at: time)
            var turn = KeyframeAnimation(key: .transformRotationZ, values: [.scalar(0), .scalar(0.3), .scalar(-0.2), .scalar(0)], duration: 2)
            turn.calculationMode = .cubic
            turn.timing.repeatCount = .infinity
            card.add(turn, forKey: "turn", at: time)
            var fade = BasicAnimation(key: .opacity, from: .scalar(1), to: .scalar(0.6))
            fade.duration = 0.5
            fade.autoreverses = true
            var group = AnimationGroup([.basic(fade)], duration: 1 + Double(i % 4) * 0.25)
            group.timing.repeatCount = .infinity
            card.add(group, forKey: "pulse", at: time)
            var drop = SpringAnimation(key: .transformTranslationY, from: .scalar(-40), to: .scalar(0))
            drop.damping = 6
            drop.basic.timing.duration = 1.5
            drop.basic.timing.repeatCount = .infinity
            card.add(drop, forKey: "drop", at: time)
            try! root.addSublayer(card)
        }
        return root
    }

    static func emitter() -> (root: Layer, emitter: EmitterLayer) {
        let root = root()
        let e = EmitterLayer()
        e.bounds = root.bounds
        e.anchorPoint = .zero
        e.emitterPosition = Point(x: 960, y: 540)
        e.emitterShape = .circle
        e.emitterSize = Size(width: 200, height: 200)
        let spark = Surface<ARGB8888>(width: 8, height: 8)!
        for y in 0..<8 { for x in 0..<8 {
            let dx = Double(x) - 3.5, dy = Double(y) - 3.5
            let a = max(0, 1 - (dx * dx + dy * dy) / 16)
            let v = UInt32(a * 255)
            spark.view.row(y)[x] = v << 24 | v << 16 | v << 8 | v
        } }
        let cell = EmitterCell()
        cell.contents = LayerContents(spark)
        cell.birthRate = 1000
        cell.lifetime = 2
        cell.velocity = 150; cell.velocityRange = 80
        cell.emissionRange = 2 * Double.pi
        cell.spin = 2; cell.spinRange = 3
        cell.color = Color(red: 1, green: 0.7, blue: 0.3)
        cell.alphaSpeed = -0.4
        cell.yAcceleration = 60
        e.emitterCells = [cell]
        e.renderMode = .additive
        try! root.addSublayer(e)
        return (root, e)
    }

    /// The emitter in 3-D: a sphere of particles leaving every way,
    /// pulled back along z, under a perspective 1,200 points away, tilted,
    /// drawn back to front.
    static func emitter3D() -> (root: Layer, emitter: EmitterLayer) {
        let (root, e) = emitter()
        e.removeFromSuperlayer()
        let stage = Layer(name: "stage")
        stage.bounds = root.bounds
        stage.position = Point(x: 960, y: 540)
        stage.sublayerTransform = .perspective(distance: 1200)
        e.anchorPoint = Point(x: 0.5, y: 0.5)
        e.position = Point(x: 960, y: 540)
        e.transform = Transform3D(rotationAngle: 0.4, x: 1, y: 0, z: 0)
        e.preservesDepth = true
        e.emitterShape = .sphere
        e.emitterMode = .surface
        e.renderMode = .backToFront
        e.emitterCells[0].zAcceleration = -40
        try! stage.addSublayer(e)
        try! root.addSublayer(stage)
        return (root, e)
    }
}
