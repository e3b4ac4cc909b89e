import Raster

/// A layer that fills its bounds with a colour gradient, as
/// `CAGradientLayer`: above the contents image, below the sublayers, not
/// rounded by `cornerRadius` unless `masksToBounds`.
///
/// **Geometry.** `startPoint` and `endPoint` are in the unit coordinate
/// space of the bounds ((0, 0) the bounds' origin corner, (1, 1) the
/// opposite one), mapped to the bounds before the gradient is laid out, so
/// the lines of one colour are perpendicular to the axis in the layer's
/// space (as CA draws it):
/// - `.axial`: colour 0 at `startPoint`, the last at `endPoint`, padded
///   beyond both;
/// - `.radial`: an ellipse centred at `startPoint` whose half axes reach
///   `endPoint` (|Δx|·width by |Δy|·height); one of them 0 draws nothing;
/// - `.conic`: a sweep about `startPoint`, starting in the direction of
///   `endPoint` and turning clockwise on screen.
///
/// **Stops.** `colors` in order; `locations` (0…1) place them, and a
/// `locations` array whose count differs from `colors` is ignored (stops
/// spread evenly), as CA does for `nil`. No colours draws nothing.
///
/// **Drawing.** The gradient is shaded into an image at the layer's
/// on-screen density (at most `maximumImageSide` pixels a side), cached
/// until a property, the bounds size or the density changes, and resampled
/// through the layer's map every frame (so moving or turning the layer
/// costs one resampled copy).
///
/// Animatable (key path names, as `.custom(name)` keys): `colors` (colour
/// by colour when the counts match, else a jump at the midpoint),
/// `locations`, `startPoint`, `endPoint`.
open class GradientLayer: Layer {
    public enum Kind: Sendable { case axial, radial, conic }

    public var type: Kind = .axial
    public var colors: [Color] = [] { willSet { willChangeValue(forKey: .custom("colors")) } didSet { didChangeValues() } }
    public var locations: [Double]? { willSet { willChangeValue(forKey: .custom("locations")) } didSet { didChangeValues() } }
    /// Unit coordinates; default (0.5, 0): top centre.
    public var startPoint = Point(x: 0.5, y: 0) { willSet { willChangeValue(forKey: .custom("startPoint")) } didSet { didChangeValues() } }
    /// Unit coordinates; default (0.5, 1): bottom centre.
    public var endPoint = Point(x: 0.5, y: 1) { willSet { willChangeValue(forKey: .custom("endPoint")) } didSet { didChangeValues() } }

    /// Largest side of the shaded image.
    public static let maximumImageSide = 2048

    let imageCache = GradientImageCache()

    public override init(name: String = "gradient") { super.init(name: name) }

    /// A `GradientLayer` with this layer's model properties (presentation copies,
    /// render-tree twins).
    open override func makePresentationCopy() -> Layer {
        let copy = GradientLayer(name: name)
        copy.copyLayerState(from: self)
        return copy
    }

    open override func copyLayerState(from other: Layer) {
        super.copyLayerState(from: other)
        // `other` is of this class (see `copyLayerState(from:)`).
        let o = unsafeDowncast(other, to: GradientLayer.self)
        type = o.type
        colors = o.colors
        locations = o.locations
        startPoint = o.startPoint
        endPoint = o.endPoint
    }

    /// Its animatable properties animate implicitly when set in a
    /// displayed tree, as in Core Animation.
    open override class func defaultAction(forKey key: AnimatableKey) -> LayerAction? {
        if case let .custom(name) = key, ["colors", "locations", "startPoint", "endPoint"].contains(name) { return .implicitAnimation }
        return super.defaultAction(forKey: key)
    }

    open override func storedValue(forKey name: String) -> AnimatableValue? {
        switch name {
        case "colors": return .colors(colors)
        case "locations": return .scalars(locations ?? [])
        case "startPoint": return .point(startPoint)
        case "endPoint": return .point(endPoint)
        default: return super.storedValue(forKey: name)
        }
    }

    override var drawsOwnContent: Bool { true }

    override func combineContentSignature(into s: inout LayerSignature, at t: MediaTime) {
        s.combine(customKeys: ["colors", "locations", "startPoint", "endPoint"], of: self, at: t)
        s.combine(type == .axial ? 0 : type == .radial ? 1 : 2)
    }

    override func drawOwnContent(_ d: OwnContentDrawing) {
        guard case let .colors(colors)? = d.value("colors"), !colors.isEmpty else { return }
        var spec = GradientSpec(kind: type, colors: colors, locations: [], start: startPoint, end: endPoint, width: 0, height: 0)
        if case let .scalars(l)? = d.value("locations"), l.count == colors.count { spec.locations = l }
        if case let .point(p)? = d.value("startPoint") { spec.start = p }
        if case let .point(p)? = d.value("endPoint") { spec.end = p }
        let b = d.bounds
        guard b.width > 0, b.height > 0 else { return }
        var density = d.localScale
        let side = Double(GradientLayer.maximumImageSide)
        if b.width * density > side { density = side / b.width }
        if b.height * density > side { density = side / b.height }
        spec.width = Swift.max(1, Int((b.width * density).rounded(.up)))
        spec.height = Swift.max(1, Int((b.height * density).rounded(.up)))
        guard let image = imageCache.image(for: spec) else { return }
        d.draw(image.view, in: b)
    }
}

/// Everything a gradient image depends on.
struct GradientSpec: Equatable {
    var kind: GradientLayer.Kind
    var colors: [Color]
    /// Empty: evenly spaced.
    var locations: [Double]
    var start: Point
    var end: Point
    /// Image pixels.
    var width: Int
    var height: Int

    /// The paint in image pixels.
    var paint: GradientPaint {
        var stops: [GradientStop] = []
        stops.reserveCapacity(colors.count)
        for (i, c) in colors.enumerated() {
            stops.append(GradientStop(c.premultiplied, at: locations.isEmpty ? nil : locations[i]))
        }
        let w = Double(width), h = Double(height)
        let x0 = start.x * w, y0 = start.y * h, x1 = end.x * w, y1 = end.y * h
        switch kind {
        case .axial:
            return .linear(x0: x0, y0: y0, x1: x1, y1: y1, stops: stops)
        case .radial:
            let rx = Swift.abs(x1 - x0), ry = Swift.abs(y1 - y0)
            guard rx > 0, ry > 0 else { return .linear(x0: 0, y0: 0, x1: 0, y1: 0, stops: stops) }  // paints nothing
            // The unit circle scaled to the ellipse.
            return .radial(cx: 0, cy: 0, radius: 1, stops: stops,
                           transform: AffineTransform(a: rx, b: 0, c: 0, d: ry, tx: x0, ty: y0))
        case .conic:
            let angle = FloatMath.atan2Turns(y1 - y0, x1 - x0) * FloatMath.twoPi
            return .conic(cx: x0, cy: y0, startAngle: angle, stops: stops)
        }
    }
}

/// The shaded image of one `GradientSpec`, rebuilt when the spec changes.
final class GradientImageCache {
    private var spec: GradientSpec?
    private var surface: Surface<ARGB8888>?
    /// Images shaded (cache misses), for tests.
    private(set) var misses = 0
    /// The size of the last image asked for, pixels.
    var lastSize: (width: Int, height: Int) { (spec?.width ?? 0, spec?.height ?? 0) }

    func image(for spec: GradientSpec) -> Surface<ARGB8888>? {
        if let surface, self.spec == spec { return surface }
        self.spec = spec
        if surface?.width != spec.width || surface?.height != spec.height {
            surface = Surface<ARGB8888>(width: spec.width, height: spec.height)
        }
        guard let surface else { return nil }
        misses += 1
        let view = surface.view
        Canvas(view).fill(view.bounds, paint: spec.paint, operator: .src)
        return surface
    }
}
