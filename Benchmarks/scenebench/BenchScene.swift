import FBRuntime
import Raster

/// The scene `scripts/bench scene` renders: a 1920×1080 root (opaque
/// background) and 200 layers in three kinds, all moving when `animated`:
/// - 30 cards: a rounded white background casting a shadow through a
///   `shadowPath`, holding a photo (contents, rounded, `masksToBounds`);
/// - 20 groups at 50% opacity: a rounded background and three overlapping
///   rounded sublayers, so each is an offscreen group pass;
/// - 60 photos: contents with rounded corners and `masksToBounds`, a third
///   of them minified trilinearly.
/// A quarter of the top-level layers also turn (off the pixel grid). The
/// layout is a fixed function of the index: runs are repeatable.
final class BenchScene {
    static let width = 1920.0, height = 1080.0
    let root = Layer(name: "root")
    /// The top-level layers, back to front.
    private(set) var movers: [Layer] = []
    /// Every layer below the root.
    private(set) var layerCount = 0
    /// The contents images (shared by the photos).
    let images: [LayerContents]

    /// - Parameters:
    ///   - shadows: cards cast their shadows (off: the cairo-comparable scene).
    ///   - animated: start every mover's animations at `time`.
    init(shadows: Bool, animated: Bool, at time: MediaTime) {
        images = (0..<4).map { BenchScene.makeImage(seed: $0, size: 256) }
        root.bounds = Rect(x: 0, y: 0, width: BenchScene.width, height: BenchScene.height)
        root.anchorPoint = .zero
        root.backgroundColor = Color(rgb: 0x20242C)
        var index = 0
        func place(_ layer: Layer) {
            // A loose grid with jitter, so layers overlap a little.
            let column = index % 14, row = index / 14
            layer.position = Point(x: 80 + Double(column) * 135 + Double((index * 37) % 23),
                                   y: 70 + Double(row) * 120 + Double((index * 53) % 19))
            try! root.addSublayer(layer)
            movers.append(layer)
            index += 1
        }
        for i in 0..<110 {
            switch i % 11 {
            case 0, 4, 8: place(card(i, shadows: shadows))
            case 2, 6: place(group(i))
            default: place(photo(i, size: 100, filterIndex: i))
            }
        }
        layerCount = countLayers(root) - 1
        if animated { startAnimations(at: time) }
    }

    private func countLayers(_ l: Layer) -> Int { 1 + l.sublayers.reduce(0) { $0 + countLayers($1) } }

    private func card(_ i: Int, shadows: Bool) -> Layer {
        let card = Layer(name: "card")
        card.bounds = Rect(x: 0, y: 0, width: 180, height: 130)
        card.backgroundColor = Color(rgb: 0xF4F1EA)
        card.cornerRadius = 14
        if shadows {
            card.shadowOpacity = 0.35
            card.shadowRadius = 10
            card.shadowOffset = Size(width: 0, height: 6)
            card.shadowPath = Path(roundedRect: 0, 0, 180, 130, radii: CornerRadii(14))
        }
        let photo = self.photo(i, size: 0, filterIndex: 1)
        photo.bounds = Rect(x: 0, y: 0, width: 164, height: 114)
        photo.anchorPoint = .zero
        photo.position = Point(x: 8, y: 8)
        photo.cornerRadius = 10
        try! card.addSublayer(photo)
        return card
    }

    private func group(_ i: Int) -> Layer {
        let group = Layer(name: "group")
        group.bounds = Rect(x: 0, y: 0, width: 150, height: 150)
        group.backgroundColor = Color(rgb: 0x3B6EA5)
        group.cornerRadius = 20
        group.opacity = 0.5
        for k in 0..<3 {
            let dot = Layer(name: "dot")
            dot.bounds = Rect(x: 0, y: 0, width: 70, height: 70)
            dot.position = Point(x: 45 + Double(k) * 30, y: 50 + Double((k * 2) % 3) * 25)
            dot.cornerRadius = 35
            dot.backgroundColor = Color(red: 0.9, green: 0.3 + 0.2 * Double(k), blue: 0.2 + 0.1 * Double(i % 5))
            try! group.addSublayer(dot)
        }
        return group
    }

    private func photo(_ i: Int, size: Double, filterIndex: Int) -> Layer {
        let photo = Layer(name: "photo")
        photo.bounds = Rect(x: 0, y: 0, width: size, height: size)
        photo.contents = images[i % images.count]
        photo.cornerRadius = 12
        photo.masksToBounds = true
        if filterIndex % 3 == 0 { photo.minificationFilter = .trilinear }
        return photo
    }

    /// Slides every mover back and forth (linear, autoreversing, periods of
    /// 1.5–4 s) and turns every fourth one continuously.
    func startAnimations(at time: MediaTime) {
        for (i, layer) in movers.enumerated() {
            var slide = BasicAnimation(key: .position, from: .point(layer.position),
                                       to: .point(Point(x: layer.position.x + 120 + Double(i % 7) * 20,
                                                        y: layer.position.y + 40 - Double(i % 5) * 20)),
                                       duration: 1.5 + Double(i % 6) * 0.5)
            slide.autoreverses = true
            slide.repeatCount = .infinity
            layer.add(slide, forKey: "slide", at: time)
            if i % 4 == 1 {
                var turn = BasicAnimation(key: .transformRotationZ, from: .scalar(0), to: .scalar(2 * Double.pi),
                                          duration: 6 + Double(i % 3))
                turn.repeatCount = .infinity
                layer.add(turn, forKey: "turn", at: time)
            }
        }
    }

    /// An opaque `size`² image: a diagonal gradient with a ring, different
    /// per seed (premultiplied ARGB8888).
    static func makeImage(seed: Int, size: Int) -> LayerContents {
        let surface = Surface<ARGB8888>(width: size, height: size)!
        let hue = [(220, 90, 60), (60, 160, 220), (90, 200, 120), (230, 190, 70)][seed % 4]
        for y in 0..<size {
            for x in 0..<size {
                let t = Double(x + y) / Double(2 * size)
                let dx = Double(x - size / 2), dy = Double(y - size / 2)
                let ring = abs((dx * dx + dy * dy).squareRoot() - Double(size) * 0.3) < 6 ? 1.0 : 0.0
                func channel(_ c: Int) -> UInt32 { UInt32(min(255, Double(c) * (0.5 + 0.5 * t) + 255 * 0.6 * ring)) }
                surface.view[x, y] = 0xFF00_0000 | channel(hue.0) << 16 | channel(hue.1) << 8 | channel(hue.2)
            }
        }
        return LayerContents(surface, isOpaque: true)
    }
}

/// A 64×64 layer sliding alone over the static scene.
func addSmallMover(to scene: BenchScene, at time: MediaTime) -> Layer {
    let layer = Layer(name: "small")
    layer.bounds = Rect(x: 0, y: 0, width: 64, height: 64)
    layer.position = Point(x: 400, y: 500)
    layer.backgroundColor = Color(rgb: 0xE84855)
    layer.cornerRadius = 8
    try! scene.root.addSublayer(layer)
    var slide = BasicAnimation(key: .position, from: .point(layer.position), to: .point(Point(x: 1500, y: 600)), duration: 3)
    slide.autoreverses = true
    slide.repeatCount = .infinity
    layer.add(slide, forKey: "slide", at: time)
    return layer
}
