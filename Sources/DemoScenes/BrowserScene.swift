import Controls
import FBRuntime
import Raster

/// A scrolling grid of photos, the 2010 image-browser lesson:
///
/// - **downsampled once at load**: each photo comes at 1024×768
///   (`BrowserScene.sourceWidth` × `sourceHeight`) and is resampled to the
///   tile's pixel size with a trilinear (mip-mapped) `ImagePaint` into its
///   own small surface, once; the large image is then dropped. Frames only
///   ever sample tile-sized contents at 1:1, never a large texture.
///   Photos here are painted procedurally (`PhotoSource.paint`); a JPEG
///   loader plugs in at `PhotoSource.load` (return the decoded image, or
///   with decode-time downsampling a smaller one: the resample then has
///   less to do, and is skipped when the size already matches);
/// - **rounded corners** (`cornerRadius` with `masksToBounds` on a layer
///   that has only contents: the compositor clips the image itself, no
///   offscreen pass) and **shadows with `shadowPath`** (the shadow's shape
///   is known, so no pass renders the layer to find it);
/// - **feathered edges** at the top and bottom of the scroll view are two
///   `GradientLayer`s above it, background colour to clear — overlays, not
///   a mask (a mask would be an offscreen pass of the whole grid every
///   frame);
/// - **momentum scrolling** is the Controls `ScrollView`'s (the grid is
///   its content, `snapInterval` one row): a pan moves the grid with the
///   finger, rubber-banded past either end; released, it decelerates
///   exponentially and lands on a whole row (clamped to the content), a
///   flick into an end bouncing there by a bounded overshoot. The way
///   there runs on the render thread (keyframes of the view's
///   `bounds.origin`), and a finger catches it where it is on screen.
///
/// With its animations started the grid drifts slowly down and back up
/// (attract mode, an animation of the scroll view's `bounds.origin.y`)
/// until a finger lands on it: the scroll view catches it there.
///
/// Scrolling is `contentOffset`: points of content above the view's top,
/// 0…`maximumOffset`, the scroll view's `bounds.origin.y`.
public final class BrowserScene: DemoScene {
    public let root = Layer(name: "root")
    private let width: Double, height: Double
    private let u: Double
    /// The scroll view and the grid, its content.
    public let scrollView = ScrollView(name: "scroll-view")
    public let grid = Layer(name: "grid")
    public private(set) var photos: [Layer] = []
    /// Distinct photos (the grid repeats them).
    public static let distinctPhotos = 12
    public static let rows = 8
    public let columns: Int
    /// Distance from one row's top to the next, points.
    public let rowPitch: Double
    /// Tile size, points (= pixels: contents scale 1).
    public let tileWidth: Int, tileHeight: Int
    public static let sourceWidth = 1024, sourceHeight = 768
    /// The downsampled images, one per distinct photo (shared by tiles).
    public private(set) var thumbnails: [LayerContents] = []

    public init(width: Double, height: Double) {
        self.width = width
        self.height = height
        u = Swift.max(Swift.min(width, height), 1) / 272
        root.bounds = Rect(x: 0, y: 0, width: width, height: height)
        root.position = Point(x: width / 2, y: height / 2)
        let background = Color(rgb: 0x0E1117)
        root.backgroundColor = background
        let font = try? Font(path: OrbitScene.fontPath)

        let headerHeight = (height * 0.11).rounded()
        columns = Swift.max(2, Swift.min(6, Int((width / (height * 0.5)).rounded())))
        let gap = (8 * u).rounded()
        let tw = Swift.max(8, ((width - Double(columns + 1) * gap) / Double(columns)).rounded(.down))
        tileWidth = Int(tw)
        tileHeight = Swift.max(6, Int((tw * 0.75).rounded()))
        rowPitch = Double(tileHeight) + gap

        scrollView.position = Point(x: 0, y: headerHeight)   // anchor point (0, 0), masks to bounds
        scrollView.bounds = Rect(x: 0, y: 0, width: width, height: height - headerHeight)
        scrollView.scrollAxes = .vertical
        scrollView.snapInterval = Size(width: 0, height: rowPitch)
        scrollView.indicatorColor = Color(red: 1, green: 1, blue: 1, alpha: 0.45)   // on the dark background
        try! root.addSublayer(scrollView)
        grid.anchorPoint = .zero
        grid.bounds = Rect(x: 0, y: 0, width: width, height: Double(BrowserScene.rows) * rowPitch + gap)
        scrollView.contentSize = grid.bounds.size
        try! scrollView.addContentSublayer(grid)

        for k in 0..<BrowserScene.distinctPhotos {
            thumbnails.append(PhotoSource.thumbnail(k, width: tileWidth, height: tileHeight))
        }
        let radius = (6 * u).rounded()
        let total = columns * BrowserScene.rows
        for i in 0..<total {
            let photo = Layer(name: "photo")
            photo.anchorPoint = .zero
            photo.position = Point(x: gap + Double(i % columns) * (tw + gap), y: gap + Double(i / columns) * rowPitch)
            photo.bounds = Rect(x: 0, y: 0, width: tw, height: Double(tileHeight))
            photo.contents = thumbnails[(i * 5) % BrowserScene.distinctPhotos]
            photo.contentsGravity = .resize
            photo.cornerRadius = radius
            photo.masksToBounds = true
            photo.shadowOpacity = 0.55
            photo.shadowRadius = 4 * u
            photo.shadowOffset = Size(width: 0, height: 2 * u)
            photo.shadowPath = Path(roundedRect: 0, 0, tw, Double(tileHeight), radii: CornerRadii(radius))
            grid.addSublayerOrTrap(photo)
            photos.append(photo)
        }

        // Feathered edges: overlays in the background colour, above the
        // scroll view (no mask).
        let feather = (14 * u).rounded()
        for top in [true, false] {
            let edge = GradientLayer(name: top ? "feather-top" : "feather-bottom")
            edge.anchorPoint = .zero
            edge.position = Point(x: 0, y: top ? headerHeight : height - feather)
            edge.bounds = Rect(x: 0, y: 0, width: width, height: feather)
            edge.colors = top ? [background, background.withAlpha(0)] : [background.withAlpha(0), background]
            try! root.addSublayer(edge)
        }

        let header = TextLayer(name: "title")
        header.font = font
        header.string = "Photos · \(total) items"
        header.fontSize = 13 * u
        header.foregroundColor = Color(rgb: 0xE8EEF7)
        header.anchorPoint = .zero
        header.position = Point(x: gap, y: headerHeight * 0.18)
        header.bounds = Rect(x: 0, y: 0, width: width - 2 * gap, height: headerHeight * 0.8)
        try! root.addSublayer(header)
    }

    /// Points of content scrolled above the view's top, as set (the model
    /// value; a motion may be on its way to it).
    public var contentOffset: Double { scrollView.contentOffset.y }
    /// The largest offset: the grid's bottom at the view's bottom.
    public var maximumOffset: Double { scrollView.maximumContentOffset.y }

    /// Seconds the attract-mode drift takes from the top to the end.
    public static let driftSeconds = 14.0

    /// Attract mode: the grid drifts down the content and back
    /// (autoreversing, repeating) until a finger takes it.
    public func startAnimations(at time: MediaTime) {
        var drift = BasicAnimation(key: .boundsOriginY, from: .scalar(contentOffset), to: .scalar(maximumOffset),
                                   duration: BrowserScene.driftSeconds)
        drift.timingFunction = .easeInEaseOut
        drift.autoreverses = true
        drift.repeatCount = .infinity
        scrollView.add(drift, forKey: "drift", at: time)
    }

    public func installGestures(in router: TouchRouter) -> Bool {
        scrollView.attach(to: router)
        return true
    }
}

private extension Layer {
    func addSublayerOrTrap(_ layer: Layer) { try! addSublayer(layer) }
}

private extension Color {
    func withAlpha(_ a: Double) -> Color { Color(red: red, green: green, blue: blue, alpha: a) }
}

/// Where the browser's photos come from: painted here, procedurally, at a
/// camera-like size, then downsampled once to the tile size.
enum PhotoSource {
    /// Photo `k` at full size (`BrowserScene.sourceWidth` × `sourceHeight`).
    /// A JPEG loader would replace this: decode the file (ideally with
    /// decode-time downsampling to about the tile size) and return it.
    static func load(_ k: Int) -> Surface<ARGB8888>? {
        guard let image = Surface<ARGB8888>(width: BrowserScene.sourceWidth, height: BrowserScene.sourceHeight) else { return nil }
        paint(k, into: image.view)
        return image
    }

    /// Photo `k` resampled to `width` × `height` pixels (trilinear: the mip
    /// level nearest the scale, so every source pixel counts), opaque.
    /// Falls back to a flat tile if memory is short.
    static func thumbnail(_ k: Int, width: Int, height: Int) -> LayerContents {
        let w = Swift.max(width, 1), h = Swift.max(height, 1)
        let tile = Surface<ARGB8888>(width: w, height: h) ?? Surface<ARGB8888>(width: 1, height: 1)!
        let canvas = Canvas(tile.view)
        if let source = load(k) {
            let paint = ImagePaint.contents(source.view, bounds: PaintRect(x: 0, y: 0, width: Double(w), height: Double(h)),
                                            filter: .trilinear, edge: .clamp, imageIsOpaque: true)
            canvas.fill(tile.view.bounds, paint: paint, operator: .src)
        } else {
            canvas.fill(tile.view.bounds, color: Color(rgb: 0x404040).premultiplied)
        }
        return LayerContents(tile, isOpaque: true)
    }

    /// A landscape: a sky gradient, a sun, three ridges of hills and a lake,
    /// with colours and shapes varied by `k` (deterministic).
    static func paint(_ k: Int, into view: PixelView<ARGB8888>) {
        let w = Double(view.width), h = Double(view.height)
        var rng = SplitMix64(seed: UInt64(k) &* 0x9E37_79B9 &+ 17)
        func unit() -> Double { Double(rng.next() >> 11) / Double(1 << 53) }
        let hue = Double(k) / Double(BrowserScene.distinctPhotos)
        let canvas = Canvas(view)
        let skyTop = hsv(hue, 0.55, 0.45), skyBottom = hsv(hue + 0.08, 0.35, 0.95)
        let sky = GradientPaint.linear(x0: 0, y0: 0, x1: 0, y1: h * 0.7,
                                       stops: [GradientStop(skyTop.premultiplied), GradientStop(skyBottom.premultiplied)])
        canvas.fill(view.bounds, paint: sky, operator: .src)
        let sunX = w * (0.2 + 0.6 * unit()), sunY = h * (0.15 + 0.3 * unit()), sunR = h * (0.06 + 0.06 * unit())
        canvas.fill(Path(circleCenter: PathPoint(x: sunX, y: sunY), radius: sunR * 1.8), color: Color(rgb: 0xFFF3C4, alpha: 0.25).premultiplied)
        canvas.fill(Path(circleCenter: PathPoint(x: sunX, y: sunY), radius: sunR), color: Color(rgb: 0xFFF3C4).premultiplied)
        for ridge in 0..<3 {
            var path = Path()
            let base = h * (0.5 + 0.12 * Double(ridge))
            path.move(to: PathPoint(x: 0, y: h))
            let n = 7
            for i in 0...n {
                let x = w * Double(i) / Double(n)
                let y = base - h * (0.05 + 0.15 * unit()) * (i % 2 == 0 ? 0.4 : 1)
                path.line(to: PathPoint(x: x, y: y))
            }
            path.line(to: PathPoint(x: w, y: h))
            path.close()
            canvas.fill(path, color: hsv(hue + 0.3 + 0.05 * Double(ridge), 0.45, 0.55 - 0.15 * Double(ridge)).premultiplied)
        }
        let lake = GradientPaint.linear(x0: 0, y0: h * 0.86, x1: 0, y1: h,
                                        stops: [GradientStop(hsv(hue + 0.5, 0.5, 0.6).premultiplied),
                                                GradientStop(hsv(hue + 0.5, 0.6, 0.3).premultiplied)])
        canvas.fill(IntRect(x: 0, y: Int(h * 0.86), width: view.width, height: view.height - Int(h * 0.86)), paint: lake)
    }

    /// A colour from hue (turns, wrapped), saturation and value (0…1).
    static func hsv(_ hue: Double, _ s: Double, _ v: Double) -> Color {
        let h6 = (hue - hue.rounded(.down)) * 6
        let i = Int(h6) % 6, f = h6 - h6.rounded(.down)
        let p = v * (1 - s), q = v * (1 - s * f), t = v * (1 - s * (1 - f))
        switch i {
        case 0: return Color(red: v, green: t, blue: p)
        case 1: return Color(red: q, green: v, blue: p)
        case 2: return Color(red: p, green: v, blue: t)
        case 3: return Color(red: p, green: q, blue: v)
        case 4: return Color(red: t, green: p, blue: v)
        default: return Color(red: v, green: p, blue: q)
        }
    }
}
