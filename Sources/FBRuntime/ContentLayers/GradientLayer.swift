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
/// Between stops, straight colour and alpha are mixed separately (as Core
/// Graphics draws CAGradientLayer, and as SVG and cairo do); a colour with
/// alpha 0 keeps its hue. `interpolation = .premultiplied` mixes
/// premultiplied colours instead (CSS gradients).
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

    public var type: Kind = .axial { didSet { noteModelChange() } }
    /// How colours between stops are mixed: `.unpremultiplied` (default,
    /// Core Graphics' rule) or `.premultiplied`. Not animatable.
    public var interpolation: GradientInterpolation = .unpremultiplied { didSet { noteModelChange() } }
    public var colors: [Color] = [] { willSet { willChangeValue(forKey: .colors) } didSet { didChangeValues() } }
    public var locations: [Double]? { willSet { willChangeValue(forKey: .locations) } didSet { didChangeValues() } }
    /// Unit coordinates; default (0.5, 0): top centre.
    public var startPoint = Point(x: 0.5, y: 0) { willSet { willChangeValue(forKey: .startPoint) } didSet { didChangeValues() } }
    /// Unit coordinates; default (0.5, 1): bottom centre.
    public var endPoint = Point(x: 0.5, y: 1) { willSet { willChangeValue(forKey: .endPoint) } didSet { didChangeValues() } }

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
        interpolation = o.interpolation
        colors = o.colors
        locations = o.locations
        startPoint = o.startPoint
        endPoint = o.endPoint
    }

    /// Its animatable properties animate implicitly when set in a
    /// displayed tree, as in Core Animation.
    open override class func defaultAction(forKey key: AnimatableKey) -> LayerAction? {
        if case let .custom(name) = key, GradientLayer.animatableKeys.contains(name) { return .implicitAnimation }
        return super.defaultAction(forKey: key)
    }
    open override class var customAnimatableKeys: [String] { super.customAnimatableKeys + animatableKeys }

    open override func storedValue(forKey name: String) -> AnimatableValue? {
        switch name {
        case "colors": return .colors(colors)
        case "locations": return .scalars(locations ?? [])
        case "startPoint": return .point(startPoint)
        case "endPoint": return .point(endPoint)
        default: return super.storedValue(forKey: name)
        }
    }

    open override func setStoredValue(_ value: AnimatableValue, forKey name: String) {
        switch (name, value) {
        case let ("colors", .colors(v)): colors = v
        case let ("locations", .scalars(v)): locations = v
        case let ("startPoint", .point(v)): startPoint = v
        case let ("endPoint", .point(v)): endPoint = v
        default: super.setStoredValue(value, forKey: name)
        }
    }

    override var drawsOwnContent: Bool { true }

    static let animatableKeys = ["colors", "locations", "startPoint", "endPoint"]
    static let pointKeys = ["startPoint", "endPoint"]

    override func combineContentSignature(into s: inout LayerSignature, at t: MediaTime) {
        s.combine(presentedColors(at: t))
        s.combine(presentedLocations(at: t))
        s.combine(customKeys: GradientLayer.pointKeys, of: self, at: t)
        s.combine(type == .axial ? 0 : type == .radial ? 1 : 2)
        s.combine(interpolation == .unpremultiplied ? 0 : 1)
    }

    /// Render-thread storage for the lists of a plain animation of `colors`
    /// or `locations` (`plainInterpolation`): interpolated into the same
    /// storage every frame, where the general evaluation would allocate new
    /// lists. A value returned from it must be dropped before the next call.
    private var colorScratch: [Color] = []
    private var locationScratch: [Double] = []

    /// `colors` at local time `t`, animations applied.
    final func presentedColors(at t: MediaTime) -> AnimatableValue? {
        switch plainInterpolation(ofCustomKey: "colors", at: t) {
        case .inactive: return modelValue(forKey: "colors")
        case let .lerp(.colors(a), .colors(b), fraction):
            AnimatableValue.interpolate(a, b, fraction, into: &colorScratch)
            return .colors(colorScratch)
        case .lerp, .notPlain: return customPresentationValue(forKey: "colors", atLocalTime: t)
        }
    }

    /// `locations` at local time `t`, animations applied.
    final func presentedLocations(at t: MediaTime) -> AnimatableValue? {
        switch plainInterpolation(ofCustomKey: "locations", at: t) {
        case .inactive: return modelValue(forKey: "locations")
        case let .lerp(.scalars(a), .scalars(b), fraction):
            AnimatableValue.interpolate(a, b, fraction, into: &locationScratch)
            return .scalars(locationScratch)
        case .lerp, .notPlain: return customPresentationValue(forKey: "locations", atLocalTime: t)
        }
    }

    override func drawOwnContent(_ d: OwnContentDrawing) {
        guard case let .colors(colors)? = presentedColors(at: d.localTime), !colors.isEmpty else { return }
        var spec = GradientSpec(kind: type, interpolation: interpolation, colors: colors, locations: [], start: startPoint, end: endPoint,
                                width: 0, height: 0)
        if case let .scalars(l)? = presentedLocations(at: d.localTime), l.count == colors.count { spec.locations = l }
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
    var interpolation: GradientInterpolation
    var colors: [Color]
    /// Empty: evenly spaced.
    var locations: [Double]
    var start: Point
    var end: Point
    /// Image pixels.
    var width: Int
    var height: Int

    /// The paint in image pixels: `paint` made again in place (its table
    /// and stops reused) or, the first time, a new one; `stops` is working
    /// storage kept by the caller.
    func paint(reusing paint: GradientPaint?, stops: inout [GradientStop]) -> GradientPaint {
        stops.removeAll(keepingCapacity: true)
        stops.reserveCapacity(colors.count)
        var i = 0
        while i < colors.count {
            let c = colors[i]
            stops.append(GradientStop(red: c.red, green: c.green, blue: c.blue, alpha: c.alpha, at: locations.isEmpty ? nil : locations[i]))
            i += 1
        }
        let paint = paint ?? GradientPaint.linear(x0: 0, y0: 0, x1: 0, y1: 0, stops: [])
        paint.interpolation = interpolation
        let w = Double(width), h = Double(height)
        let x0 = start.x * w, y0 = start.y * h, x1 = end.x * w, y1 = end.y * h
        switch kind {
        case .axial:
            paint.setLinear(x0: x0, y0: y0, x1: x1, y1: y1, stops: stops)
        case .radial:
            let rx = Swift.abs(x1 - x0), ry = Swift.abs(y1 - y0)
            if rx > 0, ry > 0 {
                // The unit circle scaled to the ellipse.
                paint.setRadial(x0: 0, y0: 0, r0: 0, x1: 0, y1: 0, r1: 1, stops: stops,
                                transform: AffineTransform(a: rx, b: 0, c: 0, d: ry, tx: x0, ty: y0))
            } else {
                paint.setLinear(x0: 0, y0: 0, x1: 0, y1: 0, stops: stops)     // paints nothing
            }
        case .conic:
            let angle = FloatMath.atan2Turns(y1 - y0, x1 - x0) * FloatMath.twoPi
            paint.setConic(cx: x0, cy: y0, startAngle: angle, stops: stops)
        }
        return paint
    }

    /// Becomes a copy of `other`, in its own lists' storage (no allocation
    /// once they are long enough; a plain assignment would share `other`'s
    /// lists, and the next frame's change to them would copy).
    mutating func assign(_ other: GradientSpec) {
        kind = other.kind; interpolation = other.interpolation; start = other.start; end = other.end; width = other.width; height = other.height
        colors.removeAll(keepingCapacity: true)
        var i = 0
        while i < other.colors.count { colors.append(other.colors[i]); i += 1 }
        locations.removeAll(keepingCapacity: true)
        i = 0
        while i < other.locations.count { locations.append(other.locations[i]); i += 1 }
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

    /// The paint of the last miss, made again in place for the next, and
    /// its stops' working storage: a gradient animating every frame shades
    /// a new image each frame without allocating.
    private var paint: GradientPaint?
    private var stops: [GradientStop] = []

    func image(for spec: GradientSpec) -> Surface<ARGB8888>? {
        if let surface, self.spec == spec { return surface }
        if self.spec == nil { self.spec = spec } else { self.spec!.assign(spec) }
        if surface?.width != spec.width || surface?.height != spec.height {
            surface = Surface<ARGB8888>(width: spec.width, height: spec.height)
        }
        guard let surface else { return nil }
        misses += 1
        let view = surface.view
        let paint = spec.paint(reusing: self.paint, stops: &stops)
        self.paint = paint
        Canvas(view).fill(view.bounds, paint: paint, operator: .src)
        return surface
    }
}
