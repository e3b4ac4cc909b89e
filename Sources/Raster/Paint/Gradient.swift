/// One colour stop of a gradient.
public struct GradientStop: Equatable, Sendable {
    /// The colour at `location`, premultiplied.
    public var color: PremultipliedColor
    /// The same colour with straight (unpremultiplied) alpha, ARGB
    /// `0xAARRGGBB`, when the stop was made from straight channels: what
    /// `.unpremultiplied` interpolation mixes. `nil` for a stop made from a
    /// premultiplied colour, whose straight channels are then `c' · 255 / a`
    /// exactly (a transparent stop is transparent black).
    public var straight: UInt32?
    /// Where along the gradient the stop sits (0 = start, 1 = end), or `nil`
    /// to have it placed automatically (see `GradientPaint` for the rules).
    public var location: Double?

    @inlinable public init(_ color: PremultipliedColor, at location: Double? = nil) {
        self.color = color; self.location = location; straight = nil
    }

    /// A stop from straight channels in 0…1 (clamped; NaN counts as 0),
    /// as SVG's `stop-color` with `stop-opacity` or `CGGradient` give them:
    /// a transparent stop keeps its colour for `.unpremultiplied`
    /// interpolation.
    @inlinable public init(red: Double, green: Double, blue: Double, alpha: Double = 1, at location: Double? = nil) {
        let r = unitToByte(red), g = unitToByte(green), b = unitToByte(blue), a = unitToByte(alpha)
        color = PremultipliedColor(red8: r, green: g, blue: b, alpha: a)
        straight = UInt32(a) << 24 | UInt32(r) << 16 | UInt32(g) << 8 | UInt32(b)
        self.location = location
    }
}

/// How a gradient mixes the colours of two stops.
public enum GradientInterpolation: Sendable {
    /// Straight colour and alpha are mixed separately, then premultiplied:
    /// Core Graphics', SVG's and cairo's rule, and the default. White to
    /// black at 20 % opacity is mid-grey at 60 % opacity half-way (77 over
    /// black).
    case unpremultiplied
    /// Premultiplied channels are mixed (CSS gradients' and Canvas' rule):
    /// a transparent stop fades its neighbour out without darkening it.
    /// The same example is 128 over black half-way.
    case premultiplied
}

/// What a gradient shows outside its 0…1 parameter range.
public enum GradientSpread: Sendable {
    /// The end colours continue (CAGradientLayer, Canvas 2D).
    case pad
    /// The gradient starts again: t ↦ t − ⌊t⌋.
    case `repeat`
    /// The gradient runs back and forth: t ↦ 1 − |(t mod 2) − 1|.
    case reflect
}

/// A gradient paint: linear, radial (two-point conical) or conic, any
/// number of stops, a spread mode and a gradient-space transform.
///
/// **Evaluation.** Colours come from a 256-entry table of premultiplied
/// colours (mixed as `interpolation` says: unpremultiplied by default)
/// built when the paint is made (and rebuilt in place by
/// `setLinear`, `setRadial` and `setConic`, never during a draw); entry `i`
/// is the colour at `t = i/255`. Per
/// pixel the parameter `t` is found as an 8.24 fixed-point value (`Fixed24`),
/// mapped by the spread mode to `f` in `0…1`, and the entry `round(f·255)` is
/// taken. A linear gradient steps `t` by a constant per pixel in integer
/// arithmetic; radial and conic gradients evaluate `t` per pixel in `Double`
/// with IEEE basic operations and a square root only (no libm), which give the
/// same bits on x86-64 and arm64. There is one loop per shape and spread,
/// used by both kernel families.
///
/// **Stops.** Locations that are `nil`, NaN or infinite are filled in as in
/// CSS: a first stop without one gets 0, a last one gets 1, and a run of
/// stops without locations is spread evenly between the stops around it (so
/// no locations at all means evenly spaced, like `CAGradientLayer` with
/// `locations == nil`). The stops are then sorted by location, stably, so
/// unsorted locations are allowed and stops sharing a location keep their
/// order and make a hard edge. Locations outside 0…1 are kept: the colour
/// function is linear between stops and constant before the first and after
/// the last, and the gradient shows its 0…1 part. No stops paints nothing
/// (transparent); one stop paints that colour everywhere.
///
/// **Degenerate geometry.** Non-finite points, radii, angles or transform,
/// a singular transform, a linear gradient whose start equals its end, and a
/// radial gradient whose two circles are equal all paint nothing
/// (transparent), as Canvas 2D specifies for the degenerate cases.
public final class GradientPaint: Paint {
    @usableFromInline
    enum Shape {
        case nothing
        case solid(UInt32)
        /// `t = a·x + b·y + c` at destination point (x, y).
        case linear(a: Double, b: Double, c: Double)
        /// Two-point conical: circles (c0, r0) → (c0 + cd, r0 + dr) in
        /// gradient space; `quadratic` is cd·cd − dr² (0 when flat).
        case radial(inverse: AffineTransform, c0x: Double, c0y: Double, r0: Double,
                    cdx: Double, cdy: Double, dr: Double, quadratic: Double)
        /// Angle about (cx, cy) in gradient space, in turns, minus `start`.
        case conic(inverse: AffineTransform, cx: Double, cy: Double, start: Double)
    }

    @usableFromInline private(set) var shape: Shape
    public private(set) var spread: GradientSpread
    /// The 256 premultiplied colours; entry i is the colour at t = i/255.
    @usableFromInline let table: UnsafeMutablePointer<UInt32>
    public private(set) var isOpaque: Bool
    /// Solid, nothing, or linear with t independent of y (`b == 0`: then
    /// `b·(y + 0.5)` is ±0 and adds nothing to t, bit for bit).
    public private(set) var isRowInvariant: Bool
    /// The stops after the clean-up described above, in order.
    public private(set) var stops: [GradientStop]
    /// How colours between stops are mixed (default `.unpremultiplied`);
    /// setting it rebuilds the colour table (never do it during a draw).
    /// Stops that are all opaque give the same table either way.
    public var interpolation: GradientInterpolation = .unpremultiplied {
        didSet { if interpolation != oldValue { GradientPaint.buildTable(stops, interpolation: interpolation, into: table) } }
    }
    /// `normalize`'s working storage, kept for the next `set…`.
    private var locationScratch: [Double?] = []

    init(shape: Shape, stops rawStops: [GradientStop], spread: GradientSpread, coversPlane: Bool) {
        table = .allocate(capacity: 256)
        self.shape = .nothing
        self.spread = spread
        stops = []
        isOpaque = false
        isRowInvariant = true
        configure(shape: shape, stops: rawStops, spread: spread, coversPlane: coversPlane)
    }

    /// Everything but the table's memory: the stops cleaned up into
    /// `stops`' storage, the table rebuilt in place.
    private func configure(shape: Shape, stops rawStops: [GradientStop], spread: GradientSpread, coversPlane: Bool) {
        GradientPaint.normalize(rawStops, into: &stops, locations: &locationScratch)
        self.spread = spread
        GradientPaint.buildTable(stops, interpolation: interpolation, into: table)
        switch (stops.count, shape) {
        case (0, _), (_, .nothing):
            self.shape = .nothing
        case (1, _):
            self.shape = .solid(stops[0].color.argb)
        default:
            self.shape = shape
        }
        var opaque = coversPlane && !stops.isEmpty && stops.allSatisfy { $0.color.isOpaque }
        if case .nothing = self.shape { opaque = false }
        isOpaque = opaque
        switch self.shape {
        case .nothing, .solid: isRowInvariant = true
        case let .linear(_, b, _): isRowInvariant = b == 0
        case .radial, .conic: isRowInvariant = false
        }
    }

    deinit { table.deallocate() }

    /// A linear gradient from (`x0`, `y0`) (t = 0) to (`x1`, `y1`) (t = 1),
    /// points in gradient space; `transform` maps gradient space to
    /// destination pixels. Lines perpendicular to the axis have one colour.
    public static func linear(x0: Double, y0: Double, x1: Double, y1: Double, stops: [GradientStop],
                              spread: GradientSpread = .pad, transform: AffineTransform = .identity) -> GradientPaint {
        let g = linearShape(x0: x0, y0: y0, x1: x1, y1: y1, transform: transform)
        return GradientPaint(shape: g.shape, stops: stops, spread: spread, coversPlane: g.coversPlane)
    }

    /// Makes this paint what `linear(x0:y0:x1:y1:stops:spread:transform:)`
    /// makes, in place: the colour table and the stops' storage are reused,
    /// so a gradient re-made every frame (an animated `GradientLayer`)
    /// allocates nothing once its stop count has been seen. The paint must
    /// not be in a draw while it changes.
    public func setLinear(x0: Double, y0: Double, x1: Double, y1: Double, stops: [GradientStop],
                          spread: GradientSpread = .pad, transform: AffineTransform = .identity) {
        let g = GradientPaint.linearShape(x0: x0, y0: y0, x1: x1, y1: y1, transform: transform)
        configure(shape: g.shape, stops: stops, spread: spread, coversPlane: g.coversPlane)
    }

    private static func linearShape(x0: Double, y0: Double, x1: Double, y1: Double,
                                    transform: AffineTransform) -> (shape: Shape, coversPlane: Bool) {
        let dx = x1 - x0, dy = y1 - y0
        let length2 = dx * dx + dy * dy
        guard x0.isFinite, y0.isFinite, length2 > 0, length2.isFinite, let inv = transform.inverted() else {
            return (.nothing, false)
        }
        // t(p) = ((inv·p − p0) · d) / |d|², affine in the destination point p.
        let a = (inv.a * dx + inv.b * dy) / length2
        let b = (inv.c * dx + inv.d * dy) / length2
        let c = ((inv.tx - x0) * dx + (inv.ty - y0) * dy) / length2
        guard a.isFinite, b.isFinite, c.isFinite else { return (.nothing, false) }
        return (.linear(a: a, b: b, c: c), true)
    }

    /// A two-point conical gradient, as Canvas 2D `createRadialGradient`
    /// (and `CGContextDrawRadialGradient`): t = 0 is the circle centred at
    /// (`x0`, `y0`) with radius `r0`, t = 1 the circle at (`x1`, `y1`) with
    /// radius `r1`; each point takes the largest t whose interpolated circle
    /// passes through it with a radius ≥ 0, and is transparent when there is
    /// none. Negative radii are treated as invalid (paint nothing), as in
    /// Canvas 2D, which throws for them.
    public static func radial(x0: Double, y0: Double, r0: Double, x1: Double, y1: Double, r1: Double,
                              stops: [GradientStop], spread: GradientSpread = .pad,
                              transform: AffineTransform = .identity) -> GradientPaint {
        let g = radialShape(x0: x0, y0: y0, r0: r0, x1: x1, y1: y1, r1: r1, transform: transform)
        return GradientPaint(shape: g.shape, stops: stops, spread: spread, coversPlane: g.coversPlane)
    }

    /// Makes this paint what `radial(x0:y0:r0:x1:y1:r1:stops:spread:transform:)`
    /// makes, in place (see `setLinear`).
    public func setRadial(x0: Double, y0: Double, r0: Double, x1: Double, y1: Double, r1: Double,
                          stops: [GradientStop], spread: GradientSpread = .pad, transform: AffineTransform = .identity) {
        let g = GradientPaint.radialShape(x0: x0, y0: y0, r0: r0, x1: x1, y1: y1, r1: r1, transform: transform)
        configure(shape: g.shape, stops: stops, spread: spread, coversPlane: g.coversPlane)
    }

    private static func radialShape(x0: Double, y0: Double, r0: Double, x1: Double, y1: Double, r1: Double,
                                    transform: AffineTransform) -> (shape: Shape, coversPlane: Bool) {
        let cdx = x1 - x0, cdy = y1 - y0, dr = r1 - r0
        let finite = x0.isFinite && y0.isFinite && r0.isFinite && cdx.isFinite && cdy.isFinite && dr.isFinite
        guard finite, r0 >= 0, r1 >= 0, cdx != 0 || cdy != 0 || dr != 0,
              let inv = transform.inverted() else {
            return (.nothing, false)
        }
        let cd2 = cdx * cdx + cdy * cdy
        var quadratic = cd2 - dr * dr
        // The focal point on the end circle makes a = 0 in exact arithmetic;
        // rounding must not turn that into a tiny a (one root would explode).
        if abs(quadratic) <= 1e-9 * (cd2 + dr * dr) { quadratic = 0 }
        // The start circle inside the end one: every point has a t ≥ 0.
        let inside = r0 <= r1 && FloatMath.squareRoot(cd2) + r0 <= r1
        return (.radial(inverse: inv, c0x: x0, c0y: y0, r0: r0, cdx: cdx, cdy: cdy, dr: dr, quadratic: quadratic), inside)
    }

    /// A radial gradient of the circle at (`cx`, `cy`) with `radius` (t = 1)
    /// whose t = 0 is the focal point (`fx`, `fy`) (default: the centre).
    /// The same as `radial(x0: fx, y0: fy, r0: 0, x1: cx, y1: cy, r1: radius)`.
    /// An elliptical gradient like `CAGradientLayer`'s `.radial` is a circle
    /// under a scaling `transform`.
    public static func radial(cx: Double, cy: Double, radius: Double, fx: Double? = nil, fy: Double? = nil,
                              stops: [GradientStop], spread: GradientSpread = .pad,
                              transform: AffineTransform = .identity) -> GradientPaint {
        radial(x0: fx ?? cx, y0: fy ?? cy, r0: 0, x1: cx, y1: cy, r1: radius, stops: stops, spread: spread, transform: transform)
    }

    /// A conic (sweep) gradient about (`cx`, `cy`), as Canvas 2D
    /// `createConicGradient`: t runs from 0 to 1 once around the centre,
    /// starting at `startAngle` radians from +x and turning towards +y
    /// (clockwise on a y-down screen). `t` is always in 0…1, so `spread` has
    /// no effect. The centre pixel takes the colour at the start angle.
    public static func conic(cx: Double, cy: Double, startAngle: Double, stops: [GradientStop],
                             transform: AffineTransform = .identity) -> GradientPaint {
        let g = conicShape(cx: cx, cy: cy, startAngle: startAngle, transform: transform)
        return GradientPaint(shape: g.shape, stops: stops, spread: .repeat, coversPlane: g.coversPlane)
    }

    /// Makes this paint what `conic(cx:cy:startAngle:stops:transform:)`
    /// makes, in place (see `setLinear`).
    public func setConic(cx: Double, cy: Double, startAngle: Double, stops: [GradientStop],
                         transform: AffineTransform = .identity) {
        let g = GradientPaint.conicShape(cx: cx, cy: cy, startAngle: startAngle, transform: transform)
        configure(shape: g.shape, stops: stops, spread: .repeat, coversPlane: g.coversPlane)
    }

    private static func conicShape(cx: Double, cy: Double, startAngle: Double,
                                   transform: AffineTransform) -> (shape: Shape, coversPlane: Bool) {
        guard cx.isFinite, cy.isFinite, startAngle.isFinite, let inv = transform.inverted() else { return (.nothing, false) }
        var start = startAngle / FloatMath.twoPi
        start -= FloatMath.floor(start)
        return (.conic(inverse: inv, cx: cx, cy: cy, start: start), true)
    }

    // MARK: Stops

    /// Fills in missing locations and sorts the stops (rules in the type's
    /// documentation).
    static func normalize(_ stops: [GradientStop]) -> [GradientStop] {
        var out: [GradientStop] = [], locations: [Double?] = []
        normalize(stops, into: &out, locations: &locations)
        return out
    }

    /// `normalize(_:)` into `out`'s storage, with `locations` as working
    /// storage (both emptied first; no allocation once they are big enough).
    static func normalize(_ stops: [GradientStop], into out: inout [GradientStop], locations: inout [Double?]) {
        out.removeAll(keepingCapacity: true)
        locations.removeAll(keepingCapacity: true)
        let n = stops.count
        if n == 0 { return }
        var k = 0
        while k < n {
            if let l = stops[k].location, l.isFinite { locations.append(l) } else { locations.append(nil) }
            k += 1
        }
        if locations[0] == nil { locations[0] = 0 }
        if n > 1, locations[n - 1] == nil { locations[n - 1] = 1 }
        var i = 1
        while i < n {
            if locations[i] == nil {
                // A run [i, j) without locations between two known ones.
                var j = i
                while locations[j] == nil { j += 1 }
                let from = locations[i - 1]!, to = locations[j]!
                let steps = Double(j - i + 1)
                var k = i
                while k < j { locations[k] = from + (to - from) * Double(k - i + 1) / steps; k += 1 }
                i = j
            }
            i += 1
        }
        out.reserveCapacity(n)
        k = 0
        while k < n {
            var stop = stops[k]
            stop.location = locations[k]!
            out.append(stop)
            k += 1
        }
        // Stable insertion sort: n is small, and equal locations keep their order.
        var a = 1
        while a < n {
            let item = out[a]
            var b = a - 1
            while b >= 0 && out[b].location! > item.location! {
                out[b + 1] = out[b]
                b -= 1
            }
            out[b + 1] = item
            a += 1
        }
    }

    /// The premultiplied colour at `t` of the piecewise-linear colour
    /// function of sorted `stops` (non-empty), per channel in `Double`,
    /// unrounded: the reference the table and the tests use. With
    /// `.unpremultiplied`, the straight channels and alpha of the two stops
    /// around `t` are mixed, then the colour premultiplied (`c · a / 255`).
    public static func colorComponents(at t: Double, stops: [GradientStop],
                                       interpolation: GradientInterpolation = .unpremultiplied) -> (a: Double, r: Double, g: Double, b: Double) {
        func comps(_ c: UInt32) -> (Double, Double, Double, Double) {
            (Double(c >> 24), Double((c >> 16) & 0xFF), Double((c >> 8) & 0xFF), Double(c & 0xFF))
        }
        /// Straight channels in 0…255 (unrounded), alpha as is.
        func straightComps(_ stop: GradientStop) -> (Double, Double, Double, Double) {
            if let s = stop.straight { return comps(s) }
            let c = comps(stop.color.argb)
            guard c.0 > 0 else { return (0, 0, 0, 0) }
            return (c.0, c.1 * 255 / c.0, c.2 * 255 / c.0, c.3 * 255 / c.0)
        }
        let n = stops.count
        if t < stops[0].location! { return comps(stops[0].color.argb) }
        // The last stop whose location is ≤ t (so at a shared location the
        // later stop wins and the edge is hard).
        var k = 0
        while k + 1 < n && stops[k + 1].location! <= t { k += 1 }
        if k == n - 1 { return comps(stops[k].color.argb) }
        let l0 = stops[k].location!, l1 = stops[k + 1].location!
        let u = (t - l0) / (l1 - l0)
        if interpolation == .unpremultiplied && !(stops[k].color.isOpaque && stops[k + 1].color.isOpaque) {
            let c0 = straightComps(stops[k]), c1 = straightComps(stops[k + 1])
            let a = c0.0 + (c1.0 - c0.0) * u
            let f = a / 255
            return (a, (c0.1 + (c1.1 - c0.1) * u) * f, (c0.2 + (c1.2 - c0.2) * u) * f, (c0.3 + (c1.3 - c0.3) * u) * f)
        }
        let c0 = comps(stops[k].color.argb), c1 = comps(stops[k + 1].color.argb)
        return (c0.0 + (c1.0 - c0.0) * u, c0.1 + (c1.1 - c0.1) * u, c0.2 + (c1.2 - c0.2) * u, c0.3 + (c1.3 - c0.3) * u)
    }

    static func buildTable(_ stops: [GradientStop], interpolation: GradientInterpolation, into table: UnsafeMutablePointer<UInt32>) {
        if stops.isEmpty {
            table.initialize(repeating: 0, count: 256)
            return
        }
        for i in 0..<256 {
            let c = colorComponents(at: Double(i) / 255, stops: stops, interpolation: interpolation)
            // Rounding is monotonic, so channel ≤ alpha survives it.
            func byte(_ v: Double) -> UInt32 { UInt32(FloatMath.floor(v + 0.5)) }
            (table + i).initialize(to: (byte(c.a) << 24) | (byte(c.r) << 16) | (byte(c.g) << 8) | byte(c.b))
        }
    }

    /// The table entry for spread-mapped fraction `f` in `0…2²⁴` (8.24):
    /// `round(f · 255 / 2²⁴)`. `f · 255 + 2²³` stays below 2³².
    @inlinable @inline(__always)
    static func tableIndex(_ f: UInt32) -> Int {
        Int(truncatingIfNeeded: (f &* 255 &+ 0x80_0000) &>> 24)
    }

    /// The colour table entry for parameter `t` (the reference path the tests
    /// use to check single pixels): spread applied, then `tableIndex`.
    public func tableColor(at t: Double) -> UInt32 {
        switch spread {
        case .pad: return table[GradientPaint.tableIndex(PadSpread.fraction(PadSpread.reduce(t)))]
        case .repeat: return table[GradientPaint.tableIndex(RepeatSpread.fraction(RepeatSpread.reduce(t)))]
        case .reflect: return table[GradientPaint.tableIndex(ReflectSpread.fraction(ReflectSpread.reduce(t)))]
        }
    }
}

// MARK: Spread rules

/// A spread mode as a type, so each gradient loop is specialised for one mode
/// and never branches on it per pixel.
@usableFromInline
protocol SpreadRule {
    /// `t` (any finite or non-finite `Double`) as 8.24 raw, reduced so the
    /// `Int32` cannot overflow and `fraction` gives the same answer as for
    /// the unreduced `t`.
    static func reduce(_ t: Double) -> Int32
    /// The spread-mapped parameter in `0…2²⁴` for 8.24 raw `t`.
    static func fraction(_ t: Int32) -> UInt32
}

@usableFromInline
enum PadSpread: SpreadRule {
    /// Clamped to −1…2 (anything beyond pads the same); NaN counts as 0.
    @inlinable @inline(__always)
    static func reduce(_ t: Double) -> Int32 {
        Fixed24(t < -1 ? -1 : (t > 2 ? 2 : t)).raw
    }
    /// clamp(t, 0, 1)
    @inlinable @inline(__always)
    static func fraction(_ t: Int32) -> UInt32 {
        UInt32(truncatingIfNeeded: Swift.min(Swift.max(t, 0), 1 << 24))
    }
}

@usableFromInline
enum RepeatSpread: SpreadRule {
    /// t mod 2, in 0…2 (repeat has period 1, so mod 2 is as good).
    @inlinable @inline(__always)
    static func reduce(_ t: Double) -> Int32 {
        guard t.isFinite else { return 0 }
        return Fixed24(t - 2 * FloatMath.floor(t * 0.5)).raw
    }
    /// t − ⌊t⌋: the low 24 bits, exact under `&+` wrap-around.
    @inlinable @inline(__always)
    static func fraction(_ t: Int32) -> UInt32 {
        UInt32(truncatingIfNeeded: t) & 0xFF_FFFF
    }
}

@usableFromInline
enum ReflectSpread: SpreadRule {
    @inlinable @inline(__always)
    static func reduce(_ t: Double) -> Int32 { RepeatSpread.reduce(t) }
    /// m = t mod 2; m ≤ 1 ? m : 2 − m. Period 2 is the low 25 bits.
    @inlinable @inline(__always)
    static func fraction(_ t: Int32) -> UInt32 {
        let m = UInt32(truncatingIfNeeded: t) & 0x1FF_FFFF
        return Swift.min(m, 0x200_0000 &- m)
    }
}
