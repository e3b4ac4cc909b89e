import FBRuntime
import ImageIO
import Raster

/// xorshift32, as the LVGL side draws its random numbers
/// (Benchmarks/lvgl/lvgl_scenes.py): seeded per scene, drawn in object
/// creation order, so both engines build the same screen.
struct XorShift32 {
    var state: UInt32 = 0x2545_F491
    mutating func next() -> UInt32 {
        state ^= state << 13
        state ^= state >> 17
        state ^= state << 5
        return state
    }
    /// `lo … hi`, inclusive.
    mutating func next(_ lo: Int, _ hi: Int) -> Int { lo + Int(next() % UInt32(hi - lo + 1)) }
    mutating func color() -> Color { Color(rgb: next() & 0xFF_FFFF) }
}

/// LVGL's ramp as the LVGL side computes it (`triangle` in
/// lvgl_scenes.py): at frame `i` (i/60 s), linear 0 → `amp` in `f` ms and
/// back in `r` ms, repeating, in whole pixels (integer arithmetic in units
/// of 1/60 ms, rounding half up), with the sign of `amp`.
func triangle(_ i: Int, _ f: Int, _ r: Int, _ amp: Int) -> Int {
    let tau = (i * 1000) % (60 * (f + r))
    let F = 60 * f, R = 60 * r, a = abs(amp)
    let v = tau < F ? (2 * a * tau + F) / (2 * F) : (2 * a * (R - (tau - F)) + R) / (2 * R)
    return amp < 0 ? -v : v
}

/// LVGL's "fall": `translate_y` along `triangle` with durations drawn
/// from the generator right after the object is made.
struct Fall {
    var forward: Int, back: Int, maximum: Int
    init(_ random: inout XorShift32, maximum: Int) {
        forward = random.next(300, 3000)
        back = random.next(300, 3000)
        self.maximum = maximum
    }
    func offset(atFrame i: Int) -> Double { Double(triangle(i, forward, back, maximum)) }
}

/// The images both engines draw (`Benchmarks/lvgl/assets.py` writes them).
struct Assets {
    let logoRGB: LayerContents
    let logoARGB: LayerContents
    let avatar: LayerContents

    init(folder: String) throws(ImageError) {
        func load(_ name: String) throws(ImageError) -> LayerContents {
            let image = try PNG.readImage(from: folder + "/" + name)
            return LayerContents(image.surface, isOpaque: image.isOpaque)
        }
        logoRGB = try load("logo_rgb.png")
        logoARGB = try load("logo_argb.png")
        avatar = try load("avatar.png")
    }
}

/// One of LVGL's benchmark screens as a layer tree, and what the app
/// changes before each frame (`update(frameIndex)`).
final class BenchmarkScene {
    let root: Layer
    var update: (Int) -> Void = { _ in }
    init(root: Layer) { self.root = root }
}

/// Builds the scenes of `../shared/lvgl-benchmark-scenes.md` (0–15) at a
/// screen size exactly as `Benchmarks/lvgl/lvgl_scenes.py` builds them on
/// the LVGL side (its docstrings give the geometry): the same counts,
/// sizes, positions, motion and colours, with LVGL's default light theme
/// copied (screen #F5F5F5, white cards with a 2 px #E0E0E0 border, a blue
/// button with a small shadow). Text is DejaVu Sans at Montserrat's pixel
/// sizes; where the layout depends on a text's size, Montserrat's as LVGL
/// measures it is used, so both screens have the same grid.
struct SceneBuilder {
    let width: Int, height: Int
    let assets: Assets
    let font: Font
    /// Scene 15's layout, LVGL's (`WidgetsLayout`); without it there is
    /// no scene 15.
    var widgetsLayout: WidgetsLayout? = nil
    /// LVGL's `PAD_BASIC`: screen padding and flex gaps.
    let pad = 8
    /// The labels' and the screen-sized text's font: montserrat 24 above
    /// 800×480, 16 above 320×240, else 14.
    var largeText: Int { width * height > 800 * 480 ? 24 : (width * height > 320 * 240 ? 16 : 14) }
    /// "Hello LVGL!" in that Montserrat, as `lv_text_get_size` gives it.
    var helloSize: (w: Int, h: Int) { largeText == 24 ? (139, 27) : (largeText == 16 ? (91, 18) : (80, 16)) }

    static let screenColor = Color(rgb: 0xF5F5F5)
    static let cardText = Color(rgb: 0x212121)
    static let cardBorder = Color(rgb: 0xE0E0E0)
    static let primary = Color(rgb: 0x2196F3)

    func makeRoot() -> Layer {
        let root = Layer(name: "screen")
        root.bounds = Rect(x: 0, y: 0, width: Double(width), height: Double(height))
        root.anchorPoint = .zero
        root.backgroundColor = SceneBuilder.screenColor
        root.isOpaque = true
        return root
    }

    func scene(_ n: Int) -> BenchmarkScene? {
        var random = XorShift32()
        switch n {
        case 0: return emptyScreen(&random)
        case 1: return movingWallpaper(&random)
        case 2: return singleRectangle(&random)
        case 3: return multipleRectangles(&random)
        case 4: return imageGrid(&random, assets.logoRGB, cell: 160, rotated: false)
        case 5: return imageGrid(&random, assets.logoARGB, cell: 160, rotated: false)
        case 6: return imageGrid(&random, assets.logoARGB, cell: 240, rotated: true)
        case 7: return labels(&random)
        case 8: return screenSizedText(&random)
        case 9: return arcs(&random)
        case 10: return containers(&random, style: .plain)
        case 11: return containers(&random, style: .overlay)
        case 12: return containers(&random, style: .opacityPerPart)
        case 13: return containers(&random, style: .opacityGroup)
        case 14: return scrollingContainers(&random)
        case 15: return widgetsLayout.map(widgetsDemo)
        default: return nil
        }
    }

    // MARK: Layout

    /// The screen's content box with `bottom` padding (88 where things fall).
    func content(bottom: Int = 8) -> (x: Int, y: Int, w: Int, h: Int) {
        (pad, pad, width - 2 * pad, height - pad - bottom)
    }

    /// LVGL's flex row wrap with SPACE_EVENLY along the rows (and between
    /// the rows when `evenTracks`, else rows from the top), gaps of
    /// `columnGap` and `rowGap` besides: `columns` × `rows` items of `w`×`h`,
    /// row by row.
    func flexGrid(columns: Int, rows: Int, w: Int, h: Int, bottom: Int = 8, rowGap: Int = 8, columnGap: Int = 8,
                  evenTracks: Bool = true) -> [Point] {
        let c = content(bottom: bottom)
        let gapX = (c.w - (columns * w + (columns - 1) * columnGap)) / (columns + 1)
        let gapY = evenTracks ? (c.h - (rows * h + (rows - 1) * rowGap)) / (rows + 1) : 0
        var points: [Point] = []
        for row in 0..<rows {
            for column in 0..<columns {
                points.append(Point(x: Double(c.x + gapX + column * (w + columnGap + gapX)),
                                    y: Double(c.y + gapY + row * (h + rowGap + gapY))))
            }
        }
        return points
    }

    func box(_ name: String, _ p: Point, _ w: Int, _ h: Int) -> Layer {
        let l = Layer(name: name)
        l.anchorPoint = .zero
        l.bounds = Rect(x: 0, y: 0, width: Double(w), height: Double(h))
        l.position = p
        return l
    }

    func text(_ string: String, size: Int, color: Color, at p: Point, wrapWidth: Int? = nil) -> TextLayer {
        let t = TextLayer(name: "label")
        t.font = font
        t.fontSize = Double(size)
        t.foregroundColor = color
        t.string = string
        t.anchorPoint = .zero
        t.position = p
        if let wrapWidth {
            t.isWrapped = true
            t.bounds = Rect(x: 0, y: 0, width: Double(wrapWidth), height: .infinity)
        }
        let layout = t.layout
        t.bounds = Rect(x: 0, y: 0, width: wrapWidth.map(Double.init) ?? layout.width.rounded(.up), height: layout.height.rounded(.up))
        return t
    }

    func image(_ contents: LayerContents, at p: Point) -> Layer {
        let l = box("image", p, contents.image.width, contents.image.height)
        l.contents = contents
        return l
    }

    // MARK: Scenes

    func emptyScreen(_ random: inout XorShift32) -> BenchmarkScene {
        let scene = BenchmarkScene(root: makeRoot())
        var r = random
        scene.update = { [root = scene.root] _ in root.backgroundColor = r.color() }
        return scene
    }

    func movingWallpaper(_ random: inout XorShift32) -> BenchmarkScene {
        let root = makeRoot()
        let wallpaper = box("wallpaper", .zero, width * 3 / 2, height * 3 / 2)
        wallpaper.contents = assets.logoRGB
        wallpaper.contentsGravity = .tile
        try! root.addSublayer(wallpaper)
        let fall = Fall(&random, maximum: -(height / 3))
        let scene = BenchmarkScene(root: root)
        scene.update = { i in wallpaper.position = Point(x: 0, y: fall.offset(atFrame: i)) }
        return scene
    }

    func singleRectangle(_ random: inout XorShift32) -> BenchmarkScene {
        let root = makeRoot()
        let c = content()
        let w = c.w * 30 / 100, h = c.h * 30 / 100
        let rect = box("rect", Point(x: Double(c.x + c.w / 2 - w / 2), y: Double(c.y + c.h / 2 - h / 2)), w, h)
        rect.isOpaque = true
        try! root.addSublayer(rect)
        let scene = BenchmarkScene(root: root)
        var r = random
        scene.update = { _ in rect.backgroundColor = r.color() }
        return scene
    }

    func multipleRectangles(_ random: inout XorShift32) -> BenchmarkScene {
        let root = makeRoot()
        let c = content()
        let w = c.w * 25 / 100, h = c.h * 25 / 100
        var columns = 1
        while (columns + 1) * w + columns * pad <= c.w { columns += 1 }
        columns = min(columns, 9)
        let rows = (9 + columns - 1) / columns
        var rects: [Layer] = []
        for p in flexGrid(columns: columns, rows: rows, w: w, h: h).prefix(9) {
            let rect = box("rect", p, w, h)
            rect.isOpaque = true
            try! root.addSublayer(rect)
            rects.append(rect)
        }
        let scene = BenchmarkScene(root: root)
        var r = random
        scene.update = { _ in for rect in rects { rect.backgroundColor = r.color() } }
        return scene
    }

    func imageGrid(_ random: inout XorShift32, _ contents: LayerContents, cell: Int, rotated: Bool) -> BenchmarkScene {
        let root = makeRoot()
        let c = content(bottom: 88)
        let columns = max(1, c.w / cell), rows = max(1, c.h / cell)
        let size = contents.image.width
        var movers: [(Layer, Double, Fall)] = []
        for p in flexGrid(columns: columns, rows: rows, w: size, h: size, bottom: 88) {
            let l = image(contents, at: p)
            if rotated {
                // Tenths of a degree, clockwise (y down), about the centre.
                let angle = Double(random.next(100, 3500)) / 10
                l.anchorPoint = Point(x: 0.5, y: 0.5)
                l.position = Point(x: p.x + Double(size) / 2, y: p.y + Double(size) / 2)
                l.transform = Transform3D(rotationAngle: angle * Double.pi / 180, x: 0, y: 0, z: 1)
            }
            let fall = Fall(&random, maximum: 80)
            try! root.addSublayer(l)
            movers.append((l, l.position.y, fall))
        }
        let scene = BenchmarkScene(root: root)
        scene.update = { i in for (l, y, fall) in movers { l.position.y = y + fall.offset(atFrame: i) } }
        return scene
    }

    func labels(_ random: inout XorShift32) -> BenchmarkScene {
        let root = makeRoot()
        let c = content()
        let (tw, th) = helloSize
        let columns = max(1, c.w / (tw * 3 / 2)), rows = max(1, c.h / (th * 3))
        var labels: [TextLayer] = []
        for p in flexGrid(columns: columns, rows: rows, w: tw, h: th) {
            let l = text("Hello LVGL!", size: largeText, color: .black, at: p)
            try! root.addSublayer(l)
            labels.append(l)
        }
        let scene = BenchmarkScene(root: root)
        var r = random
        scene.update = { _ in for l in labels { l.foregroundColor = r.color() } }
        return scene
    }

    func screenSizedText(_ random: inout XorShift32) -> BenchmarkScene {
        let root = makeRoot()
        let page = box("page", .zero, width, height)
        let c = content()
        let label = text(Lorem.text, size: largeText, color: .black, at: Point(x: Double(c.x), y: Double(c.y)), wrapWidth: c.w)
        try! page.addSublayer(label)
        try! root.addSublayer(page)
        let range = max(0, Int(label.bounds.height) + 2 * pad - height)
        let scene = BenchmarkScene(root: root)
        let (w, h) = (Double(width), Double(height))
        scene.update = { i in page.bounds = Rect(x: 0, y: Double(triangle(i, 3000, 3000, range)), width: w, height: h) }
        return scene
    }

    func arcs(_ random: inout XorShift32) -> BenchmarkScene {
        let root = makeRoot()
        let c = content()
        let columns = max(1, c.w / 160), rows = max(1, c.h / 160)
        var arcs: [(ShapeLayer, Int, Int)] = []
        for p in flexGrid(columns: columns, rows: rows, w: 100, h: 100) {
            let arc = ShapeLayer(name: "arc")
            arc.anchorPoint = .zero
            arc.bounds = Rect(x: 0, y: 0, width: 100, height: 100)
            arc.position = p
            // LVGL's indicator: clockwise from 3 o'clock, radii 40–50,
            // square (butt) ends; the value is the share of the circle.
            var path = Path()
            path.arc(center: PathPoint(50, 50), radius: 45, startAngle: 0, endAngle: 2 * Double.pi, clockwise: true)
            arc.path = path
            arc.fillColor = nil
            arc.strokeColor = random.color()
            arc.lineWidth = 10
            arc.lineCap = .butt
            arc.strokeEnd = 0
            let forward = random.next(1000, 3000), back = random.next(1000, 3000)
            try! root.addSublayer(arc)
            arcs.append((arc, forward, back))
        }
        let scene = BenchmarkScene(root: root)
        scene.update = { i in for (arc, f, b) in arcs { arc.strokeEnd = Double(triangle(i, f, b, 100)) / 100 } }
        return scene
    }

    enum CardStyle { case plain, overlay, opacityPerPart, opacityGroup }

    /// LVGL's benchmark card (lvgl_scenes.py `card`): a 270×120 white panel,
    /// radius 10, a 2 px #E0E0E0 border above its children; the avatar, a
    /// name, a line and a "Connect" button at the LVGL side's positions.
    func card(at p: Point) -> Layer {
        let card = box("card", p, 270, 120)
        card.backgroundColor = .white
        card.cornerRadius = 10
        card.borderWidth = 2
        card.borderColor = SceneBuilder.cardBorder
        try! card.addSublayer(image(assets.avatar, at: Point(x: 10, y: 20)))
        try! card.addSublayer(text("John Smith", size: 24, color: SceneBuilder.cardText, at: Point(x: 110, y: 10)))
        try! card.addSublayer(text("A DIY enthusiast", size: 14, color: SceneBuilder.cardText, at: Point(x: 110, y: 40)))
        let button = box("button", Point(x: 110, y: 60), 102, 38)
        button.backgroundColor = SceneBuilder.primary
        button.cornerRadius = 13
        button.shadowColor = Color(rgb: 0x9E9E9E)
        button.shadowOpacity = 0.5
        button.shadowRadius = 1
        button.shadowOffset = Size(width: 0, height: 2)
        button.shadowPath = Path(roundedRect: 0, 0, 102, 38, radii: CornerRadii(13))
        try! button.addSublayer(text("Connect", size: 14, color: .white, at: Point(x: 20, y: 11)))
        try! card.addSublayer(button)
        return card
    }

    func containers(_ random: inout XorShift32, style: CardStyle) -> BenchmarkScene {
        let root = makeRoot()
        let c = content(bottom: 88)
        let columns = max(1, c.w / 350), rows = max(1, c.h / 170)
        var movers: [(Layer, Double, Fall)] = []
        for p in flexGrid(columns: columns, rows: rows, w: 270, h: 120, bottom: 88) {
            let card = card(at: p)
            switch style {
            case .opacityPerPart: card.opacity = 0.5; card.allowsGroupOpacity = false
            case .opacityGroup: card.opacity = 0.5; card.allowsGroupOpacity = true
            case .plain, .overlay: break
            }
            try! root.addSublayer(card)
            movers.append((card, p.y, Fall(&random, maximum: 30)))
        }
        let scene = BenchmarkScene(root: root)
        if style == .overlay {
            let overlay = box("overlay", .zero, width, height)
            overlay.opacity = 0.5
            try! root.addSublayer(overlay)
            var r = random
            scene.update = { i in
                overlay.backgroundColor = r.color()
                for (card, y, fall) in movers { card.position.y = y + fall.offset(atFrame: i) }
            }
        } else {
            scene.update = { i in for (card, y, fall) in movers { card.position.y = y + fall.offset(atFrame: i) } }
        }
        return scene
    }

    func scrollingContainers(_ random: inout XorShift32) -> BenchmarkScene {
        let root = makeRoot()
        let page = box("page", .zero, width, height)
        let c = content()
        let columns = max(1, c.w / 400)
        let rows = max(20, 2 * (c.h / 152))
        for p in flexGrid(columns: columns, rows: rows, w: 270, h: 120, rowGap: 32, evenTracks: false) {
            try! page.addSublayer(card(at: p))
        }
        try! root.addSublayer(page)
        let range = max(0, rows * 120 + (rows - 1) * 32 + 2 * pad - height)
        let scene = BenchmarkScene(root: root)
        let (w, h) = (Double(width), Double(height))
        scene.update = { i in page.bounds = Rect(x: 0, y: Double(triangle(i, 3000, 3000, range)), width: w, height: h) }
        return scene
    }
}
