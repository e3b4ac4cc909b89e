import FBRuntime
import Raster

/// A small animated scene: a rounded card with a border and a cached path
/// shadow that slides back and forth with ease-in-ease-out while it turns
/// (a `transform.rotation.z` animation; its badge clipped to the rounded
/// corner), a rounded square with an overlapping sublayer that fades as a
/// group, and a scrolling strip (its bounds origin animates, which moves
/// its sublayers) — position, opacity, bounds, transforms and the layer
/// image at work — and a title whose font size breathes, when the font
/// file is there (`fontPath`; without it the scene has no text, as in the
/// VM guests, which carry no fonts). Everything depends only on the clock
/// the animations are evaluated at, so frames are repeatable.
public final class OrbitScene {
    public let root = Layer(name: "root")
    private let card = Layer(name: "card")
    private let pulse = Layer(name: "pulse")
    private let strip = Layer(name: "strip")
    private let title = TextLayer(name: "title")
    /// DejaVu Sans where Debian's fonts-dejavu-core puts it (on the host,
    /// in the arm64 sysroot the aarch64 build runs against, on a board).
    public static let fontPath = "/usr/share/fonts/truetype/dejavu/DejaVuSans.ttf"
    private let width: Double, height: Double

    /// The scene with its animations running from `time`.
    public convenience init(width: Double, height: Double, at time: MediaTime) {
        self.init(width: width, height: height)
        startAnimations(at: time)
    }

    /// The scene at rest: what the animated scene shows at its start time.
    public init(width: Double, height: Double) {
        self.width = width
        self.height = height
        root.bounds = Rect(x: 0, y: 0, width: width, height: height)
        root.position = Point(x: width / 2, y: height / 2)
        root.backgroundColor = Color(rgb: 0x1C2433)

        card.bounds = Rect(x: 0, y: 0, width: width * 0.25, height: height * 0.25)
        card.position = Point(x: width * 0.2, y: height * 0.3)
        card.backgroundColor = Color(rgb: 0xF2A541)
        let radius = Swift.min(width, height) * 0.04
        card.cornerRadius = radius
        card.masksToBounds = false   // a clip would cut the shadow off
        card.borderWidth = 2
        card.borderColor = Color(rgb: 0xFFFFFF, alpha: 0.85)
        card.shadowOpacity = 0.5
        card.shadowRadius = 6
        card.shadowOffset = Size(width: 0, height: 4)
        card.shadowPath = Path(roundedRect: 0, 0, card.bounds.width, card.bounds.height, radii: CornerRadii(radius))
        // The badge sits in a clipping container so it follows the card's
        // rounded corner.
        let clip = Layer(name: "clip")
        clip.bounds = card.bounds
        clip.anchorPoint = Point(x: 0, y: 0)
        clip.cornerRadius = radius
        clip.masksToBounds = true
        let badge = Layer(name: "badge")
        badge.bounds = Rect(x: 0, y: 0, width: width * 0.1, height: height * 0.1)
        badge.anchorPoint = Point(x: 0, y: 0)
        badge.position = Point(x: -4, y: -4)
        badge.backgroundColor = Color(rgb: 0x2E86AB, alpha: 0.9)
        try! clip.addSublayer(badge)
        try! card.addSublayer(clip)

        pulse.bounds = Rect(x: 0, y: 0, width: width * 0.2, height: width * 0.2)
        pulse.position = Point(x: width * 0.5, y: height * 0.62)
        pulse.backgroundColor = Color(rgb: 0xE84855)
        pulse.cornerRadius = width * 0.03
        let dot = Layer(name: "dot")   // overlaps the pulse; group opacity fades them as one
        dot.bounds = Rect(x: 0, y: 0, width: width * 0.1, height: width * 0.1)
        dot.position = Point(x: width * 0.2, y: width * 0.2)
        dot.cornerRadius = width * 0.05
        dot.backgroundColor = Color(rgb: 0xFFFFFF)
        try! pulse.addSublayer(dot)

        strip.bounds = Rect(x: 0, y: 0, width: width * 0.9, height: height * 0.12)
        strip.position = Point(x: width * 0.5, y: height * 0.9)
        strip.backgroundColor = Color(rgb: 0x3B4A63)
        strip.masksToBounds = true   // tiles scroll out of it
        for i in 0..<12 {
            let tile = Layer(name: "tile")
            tile.bounds = Rect(x: 0, y: 0, width: height * 0.08, height: height * 0.08)
            tile.position = Point(x: Double(i) * height * 0.14 + height * 0.05, y: height * 0.06)
            tile.backgroundColor = Color(red: Double(i) / 12, green: 0.8, blue: 1 - Double(i) / 12)
            try! strip.addSublayer(tile)
        }

        if let font = try? Font(path: OrbitScene.fontPath) {
            title.font = font
            title.string = "FBRuntime"
            title.fontSize = height * 0.08
            title.foregroundColor = Color(rgb: 0xE8EEF7)
            title.alignmentMode = .right
            title.bounds = Rect(x: 0, y: 0, width: width * 0.6, height: height * 0.15)
            title.anchorPoint = Point(x: 1, y: 0)
            title.position = Point(x: width * 0.96, y: height * 0.03)
        }
        for layer in [title, strip, pulse, card] { try! root.addSublayer(layer) }
    }

    /// Starts the slide, the turn, the pulse and the scroll at `time` (their
    /// first values are the layers' model values, so nothing jumps).
    public func startAnimations(at time: MediaTime) {
        var slide = BasicAnimation(key: .position, from: .point(card.position),
                                   to: .point(Point(x: width * 0.8, y: height * 0.3)), duration: 0.4)
        slide.autoreverses = true
        slide.repeatCount = .infinity
        slide.timingFunction = .easeInEaseOut
        card.add(slide, forKey: "slide", at: time)
        // One revolution every 3 s: a scalar past 2π, which interpolating
        // matrices could not express.
        var turn = BasicAnimation(key: .transformRotationZ, from: .scalar(0), to: .scalar(2 * Double.pi), duration: 3)
        turn.repeatCount = .infinity
        card.add(turn, forKey: "turn", at: time)
        var fade = BasicAnimation(key: .opacity, from: .scalar(1), to: .scalar(0.15), duration: 0.2)
        fade.autoreverses = true
        fade.repeatCount = .infinity
        pulse.add(fade, forKey: "fade", at: time)
        var scroll = BasicAnimation(key: .bounds, from: .rect(strip.bounds),
                                    to: .rect(strip.bounds.offsetBy(dx: height * 0.7, dy: 0)), duration: 0.8)
        scroll.repeatCount = .infinity
        strip.add(scroll, forKey: "scroll", at: time)
        // The title is laid out again at each frame's size.
        var breathe = BasicAnimation(key: .fontSize, from: .scalar(title.fontSize),
                                     to: .scalar(title.fontSize * 1.25), duration: 1)
        breathe.autoreverses = true
        breathe.repeatCount = .infinity
        breathe.timingFunction = .easeInEaseOut
        title.add(breathe, forKey: "breathe", at: time)
    }
}
