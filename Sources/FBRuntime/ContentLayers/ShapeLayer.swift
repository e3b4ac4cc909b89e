import Raster

/// A layer that draws a vector path, as `CAShapeLayer`: the path filled,
/// then stroked, above the contents image and below the sublayers.
///
/// The path is in the layer's bounds space (points) and is not clipped to
/// the bounds (only `masksToBounds` clips). It is filled and stroked at the
/// resolution the layer is composited at — through the layer's full map to
/// the display, every frame — so it stays sharp when the layer is scaled
/// up. The stroke follows `StrokeStyle`'s rules (its documentation lists
/// the results for degenerate widths, dashes and miter limits); the stroke
/// is computed in the layer's space, so a non-uniform scale of the layer
/// scales the stroke too, as in Core Animation.
///
/// A path that is one circular arc (`Path.arc`, or a circle) stroked with
/// butt caps and no dashes, under a map that keeps circles round, is drawn
/// as a ring sector in closed form (`SectorRasterizer`: each pixel's area
/// within a level, where an outline is flattened within 0.1 px), and a
/// trim that moves on it redraws only the sector between its ends
/// (`sectorArc(of:width:device:)`).
///
/// Animatable (key path names, as `.custom(name)` keys): `path` (point by
/// point when both paths have the same verbs, else a jump at the midpoint),
/// `fillColor`, `strokeColor`, `lineWidth`, `miterLimit`, `lineDashPhase`
/// (the marching-ants selection), `lineDashPattern` (element by element
/// when the counts match), `strokeStart`, `strokeEnd`.
open class ShapeLayer: Layer {
    /// The shape, in the layer's bounds space. `nil` or empty draws nothing.
    public var path: Path? { willSet { willChangeValue(forKey: .shapePath) } didSet { didChangeValues() } }
    /// `nil` does not fill. Default opaque black, as CA.
    public var fillColor: Color? = .black { willSet { willChangeValue(forKey: .fillColor) } didSet { didChangeValues() } }
    public var fillRule: FillRule = .nonZero { didSet { noteModelChange() } }
    /// `nil` (the default) does not stroke.
    public var strokeColor: Color? { willSet { willChangeValue(forKey: .strokeColor) } didSet { didChangeValues() } }
    /// Points, in the layer's space. Default 1.
    public var lineWidth: Double = 1 { willSet { willChangeValue(forKey: .lineWidth) } didSet { didChangeValues() } }
    public var lineCap: LineCap = .butt { didSet { noteModelChange() } }
    public var lineJoin: LineJoin = .miter { didSet { noteModelChange() } }
    public var miterLimit: Double = 10 { willSet { willChangeValue(forKey: .miterLimit) } didSet { didChangeValues() } }
    /// Alternating on and off lengths in points, starting with on; `nil` or
    /// empty: solid.
    public var lineDashPattern: [Double]? { willSet { willChangeValue(forKey: .lineDashPattern) } didSet { didChangeValues() } }
    /// Points into the dash pattern where the stroke starts.
    public var lineDashPhase: Double = 0 { willSet { willChangeValue(forKey: .lineDashPhase) } didSet { didChangeValues() } }
    /// The stroked part of the path as fractions of its length (0…1,
    /// clamped); `strokeStart >= strokeEnd` strokes nothing.
    public var strokeStart: Double = 0 { willSet { willChangeValue(forKey: .strokeStart) } didSet { didChangeValues() } }
    public var strokeEnd: Double = 1 { willSet { willChangeValue(forKey: .strokeEnd) } didSet { didChangeValues() } }

    /// The last stroke outline, reused while the path, the style and the
    /// device scale are unchanged (render thread state).
    let strokeCache = StrokeOutlineCache()
    /// The outline of a trim change (`trimChangeBounds`), render side.
    let trimPiece = StrokePiece()
    /// The presented path at the last local time asked (render thread
    /// state): the damage tracker, the extent and the drawing ask for it
    /// in one frame, and a morph is interpolated once.
    let presentedPathMemo = PresentedPathMemo()
    /// The presented style at the last local time asked (render thread
    /// state), for the same reason.
    let presentedStyleMemo = PresentedStyleMemo()
    /// What the last presented path gives, kept while it stays the same
    /// (render thread state): read as a circular arc (the trim damage and
    /// the drawing both ask) and the stroke's reach (the extent asks every
    /// frame).
    let geometryMemo = PathGeometryMemo()

    public override init(name: String = "shape") { super.init(name: name) }

    /// A `ShapeLayer` with this layer's model properties (presentation copies,
    /// render-tree twins).
    open override func makePresentationCopy() -> Layer {
        let copy = ShapeLayer(name: name)
        copy.copyLayerState(from: self)
        return copy
    }

    open override func copyLayerState(from other: Layer) {
        super.copyLayerState(from: other)
        // `other` is of this class (see `copyLayerState(from:)`).
        let o = unsafeDowncast(other, to: ShapeLayer.self)
        path = o.path
        fillColor = o.fillColor
        fillRule = o.fillRule
        strokeColor = o.strokeColor
        lineWidth = o.lineWidth
        lineCap = o.lineCap
        lineJoin = o.lineJoin
        miterLimit = o.miterLimit
        lineDashPattern = o.lineDashPattern
        lineDashPhase = o.lineDashPhase
        strokeStart = o.strokeStart
        strokeEnd = o.strokeEnd
    }

    /// Its animatable properties animate implicitly when set in a
    /// displayed tree, as in Core Animation.
    open override class func defaultAction(forKey key: AnimatableKey) -> LayerAction? {
        if case let .custom(name) = key, ShapeLayer.animatableKeys.contains(name) { return .implicitAnimation }
        return super.defaultAction(forKey: key)
    }

    open override class var customAnimatableKeys: [String] { super.customAnimatableKeys + animatableKeys }

    open override func storedValue(forKey name: String) -> AnimatableValue? {
        switch name {
        case "path": return path.map { .path($0) }
        case "fillColor": return fillColor.map { .color($0) }
        case "strokeColor": return strokeColor.map { .color($0) }
        case "lineWidth": return .scalar(lineWidth)
        case "miterLimit": return .scalar(miterLimit)
        case "lineDashPhase": return .scalar(lineDashPhase)
        case "lineDashPattern": return .scalars(lineDashPattern ?? [])
        case "strokeStart": return .scalar(strokeStart)
        case "strokeEnd": return .scalar(strokeEnd)
        default: return super.storedValue(forKey: name)
        }
    }

    open override func setStoredValue(_ value: AnimatableValue, forKey name: String) {
        switch (name, value) {
        case let ("path", .path(v)): path = v
        case let ("fillColor", .color(v)): fillColor = v
        case let ("strokeColor", .color(v)): strokeColor = v
        case let ("lineWidth", .scalar(v)): lineWidth = v
        case let ("miterLimit", .scalar(v)): miterLimit = v
        case let ("lineDashPhase", .scalar(v)): lineDashPhase = v
        case let ("lineDashPattern", .scalars(v)): lineDashPattern = v
        case let ("strokeStart", .scalar(v)): strokeStart = v
        case let ("strokeEnd", .scalar(v)): strokeEnd = v
        default: super.setStoredValue(value, forKey: name)
        }
    }

    override var drawsOwnContent: Bool { true }

    override func combineContentSignature(into s: inout LayerSignature, at t: MediaTime) {
        s.combine(presentedPath(at: t))
        let v = presentedStyle(at: t)
        s.combine(v.fillColor.map { .color($0) }); s.combine(v.strokeColor.map { .color($0) })
        s.combine(v.lineWidth); s.combine(v.miterLimit); s.combine(v.lineDashPhase)
        s.combine(v.lineDashPattern.count)
        var i = 0
        while i < v.lineDashPattern.count { s.combine(v.lineDashPattern[i]); i += 1 }
        s.combine(fillRule == .nonZero)
        s.combine(lineCap == .butt ? 0 : lineCap == .round ? 1 : 2)
        s.combine(lineJoin == .miter ? 0 : lineJoin == .round ? 1 : 2)
    }

    static let animatableKeys = ["path", "fillColor", "strokeColor", "lineWidth", "miterLimit", "lineDashPhase",
                                 "lineDashPattern", "strokeStart", "strokeEnd"]

    override func combineTrimSignature(into s: inout LayerSignature, at t: MediaTime) {
        let v = presentedStyle(at: t)
        s.combine(v.strokeStart); s.combine(v.strokeEnd)
    }

    /// A stroke without dashes (dashes move along the whole path when the
    /// start moves) can be damaged in part when only its trim changes.
    override func partialTrim(at t: MediaTime) -> (start: Double, end: Double)? {
        guard strokeColor != nil, lineDashPattern?.isEmpty ?? true else { return nil }
        let v = presentedStyle(at: t)
        guard v.strokeStart.isFinite, v.strokeEnd.isFinite else { return nil }
        return (v.strokeStart, v.strokeEnd)
    }

    /// The stroke over the part of the path between the old and the new
    /// end (and the old and the new start), each widened by a millionth of
    /// the path at both sides so the joins at its ends are stroked as joins,
    /// with caps at its ends: it covers the old and the new caps there and
    /// every join that appears or goes.
    override func trimChangeBounds(from old: (start: Double, end: Double), to new: (start: Double, end: Double),
                                   at t: MediaTime, device: AffineTransform) -> Rect? {
        let width = presentedStyle(at: t).lineWidth
        guard let path = presentedPath(at: t), width > 0, width.isFinite else { return nil }
        var box = BoundingBox.empty
        if let arc = sectorArc(of: path, width: width, device: device) {
            // Drawn in closed form: a pixel changes only where the sector
            // between the two ends reaches it (its rays included).
            addSectorPiece(of: arc, width: width, between: old.end, and: new.end, to: &box)
            addSectorPiece(of: arc, width: width, between: old.start, and: new.start, to: &box)
            guard !box.isEmpty else { return nil }
            return Rect(x: box.minX, y: box.minY, width: box.maxX - box.minX, height: box.maxY - box.minY)
        }
        var style = strokeStyle(width: width, at: t)
        addTrimPiece(between: old.end, and: new.end, of: path, style: &style, device: device, to: &box)
        addTrimPiece(between: old.start, and: new.start, of: path, style: &style, device: device, to: &box)
        guard !box.isEmpty, box.minX.isFinite, box.maxX.isFinite, box.minY.isFinite, box.maxY.isFinite else { return nil }
        return Rect(x: box.minX, y: box.minY, width: box.maxX - box.minX, height: box.maxY - box.minY)
    }

    /// The path at local time `t`, animations applied (memoised per time).
    func presentedPath(at t: MediaTime) -> Path? {
        if animations.isEmpty { return path }
        let m = presentedPathMemo
        if m.isValid, m.time == t, m.animationsVersion == animationsVersion, m.model == path { return m.value }
        var value: Path?
        // The last presented path's storage, taken out of the memo so that
        // a plain morph can write this frame's path into it.
        var storage = m.value ?? Path()
        m.value = nil
        switch plainMorph(at: t, into: &storage) {
        case .morphed: value = storage
        case .inactive: value = path
        case .notAMorph:
            if case let .path(p)? = customPresentationValue(forKey: "path", atLocalTime: t) { value = p }
        }
        m.isValid = true; m.time = t; m.animationsVersion = animationsVersion; m.model = path; m.value = value
        return value
    }

    enum PlainMorph { case morphed, inactive, notAMorph }

    /// The presented path of a plain morph, the case a render loop meets
    /// every frame: the layer's only animation of `path` interpolates
    /// between two paths with the same verbs (`plainInterpolation`: a basic
    /// animation, or the current segment of linear or paced keyframes). It
    /// is written into `path`'s
    /// storage (`Path.setInterpolation`), so the morph allocates nothing
    /// per frame; the general evaluation (`customPresentationValue`) would
    /// make a new path each time. The value is the same as the general
    /// one's: the same timing state, fraction and interpolation.
    /// `.inactive`: the animation has no effect at `t` (the model's path
    /// shows); `.notAMorph`: the general evaluation must run.
    func plainMorph(at t: MediaTime, into path: inout Path) -> PlainMorph {
        guard self.path != nil else { return .notAMorph }
        switch plainInterpolation(ofCustomKey: "path", at: t) {
        case .notPlain: return .notAMorph
        case .inactive: return .inactive
        case let .lerp(.path(from), .path(to), fraction):
            return path.setInterpolation(from: from, to: to, fraction) ? .morphed : .notAMorph
        case .lerp: return .notAMorph
        }
    }

    /// The presented path's bounds, widened by the stroke's reach: half the
    /// line width times `StrokeStyle.reach(for:)` (1 for a smooth path, the
    /// longest miter its corners make, √2 with square caps).
    override func ownContentExtent(at t: MediaTime) -> Rect? {
        guard let path = presentedPath(at: t), !path.isEmpty else { return nil }
        let b = path.bounds
        var reach = 0.0
        if strokeColor != nil, case let w = presentedStyle(at: t).lineWidth, w > 0 {
            reach = w / 2 * geometryMemo.keyed(by: path).reach(strokeStyle(width: w, at: t))
        }
        return Rect(x: b.minX - reach, y: b.minY - reach, width: b.maxX - b.minX + 2 * reach, height: b.maxY - b.minY + 2 * reach)
    }

    override func drawOwnContent(_ d: OwnContentDrawing) {
        guard let path = presentedPath(at: d.localTime), !path.isEmpty else { return }
        let v = presentedStyle(at: d.localTime)
        if let fill = v.fillColor {
            d.fill(path, color: fill, rule: fillRule)
        }
        let width = v.lineWidth
        guard let stroke = v.strokeColor, stroke.alpha > 0, width > 0, width.isFinite else { return }
        if d.map.isAffine, let arc = sectorArc(of: path, width: width, device: d.map.affinePart) {
            if let sector = arc.strokeSector(width: width, start: v.strokeStart, end: v.strokeEnd)?.mapped(by: d.map.affinePart) {
                d.fill(sector, color: stroke)
            }
            return
        }
        var style = strokeStyle(width: width, at: d.localTime)
        style.dash = v.lineDashPattern
        style.dashPhase = v.lineDashPhase
        style.start = v.strokeStart
        style.end = v.strokeEnd
        let misses = strokeCache.misses
        let outline = strokeCache.outline(of: path, style: style, device: d.approximateAffineMap)
        // An outline made anew this frame (a trim, dash or morph moving) is
        // not the shape of an earlier frame: no coverage mask to look for.
        d.fill(outline, color: stroke, rule: .nonZero, mayBeCached: strokeCache.misses == misses)
    }
}

/// One stroke outline and what it was made from. The outline is in the
/// path's space; only the device map's linear part matters for its
/// flattening, so a layer that only moves keeps its outline.
///
/// A miss strokes into the same outline storage with the same working
/// storage (`StrokeScratch`) as the last, so a morphing, trimmed or dashed
/// stroke allocates nothing once they have grown (the caller must not keep
/// the outline past its drawing).
final class StrokeOutlineCache {
    private var path = Path()
    private var style = StrokeStyle()
    private var linear = (a: 0.0, b: 0.0, c: 0.0, d: 0.0)
    private let result = StrokePiece()
    private var isValid = false
    /// Outlines made (cache misses), for tests.
    private(set) var misses = 0

    func outline(of path: Path, style: StrokeStyle, device: AffineTransform) -> Path {
        let l = (a: device.a, b: device.b, c: device.c, d: device.d)
        if isValid, style == self.style, l == linear, path == self.path { return result.outline }
        result.stroke(path, style: style, device: device)
        // A copy of the points, not a share: the presented path's storage
        // stays its layer's alone, for the next frame's morph to reuse.
        self.path.setContents(of: path); self.style = style; linear = l; isValid = true
        misses += 1
        return result.outline
    }
}

extension ShapeLayer {
    /// The stroke's width (presented, given), cap, join and presented miter
    /// limit at local time `t`: what the outline's shape and reach depend
    /// on besides dashes and trims.
    func strokeStyle(width: Double, at t: MediaTime) -> StrokeStyle {
        var style = StrokeStyle(width: width, cap: lineCap, join: lineJoin)
        style.miterLimit = presentedStyle(at: t).miterLimit
        return style
    }

    /// Adds to `box` the bounds of the stroke between the trim positions
    /// `a` and `b` (clamped to 0…1), widened by a millionth at both sides;
    /// nothing when they are equal.
    func addTrimPiece(between a: Double, and b: Double, of path: Path, style: inout StrokeStyle, device: AffineTransform,
                      to box: inout BoundingBox) {
        let ca = Swift.min(Swift.max(a, 0), 1), cb = Swift.min(Swift.max(b, 0), 1)
        guard ca != cb else { return }
        style.start = Swift.max(0, Swift.min(ca, cb) - 1e-6)
        style.end = Swift.min(1, Swift.max(ca, cb) + 1e-6)
        trimPiece.stroke(path, style: style, device: device)
        let o = trimPiece.outline.bounds
        if !o.isEmpty { box.add(PathPoint(o.minX, o.minY)); box.add(PathPoint(o.maxX, o.maxY)) }
    }
}

extension ShapeLayer {
    /// Most radius, target pixels, of an arc stroked in closed form. The
    /// arc's cubics stray from their circle by at most 2.7·10⁻⁴ of the
    /// radius (`Path.arc`): up to here that is under the flattening
    /// tolerance (0.1 px), so the ring drawn is the path's stroke within
    /// what flattening it would allow anyway.
    static let maximumSectorRadius = 360.0

    /// The presented `path` as a circular arc when its stroke, `width`
    /// points wide, is drawn in closed form under `device` (layer → target
    /// pixels) as a ring sector (`SectorRasterizer`); `nil`: the outline is
    /// stroked and filled. Closed form takes a circular arc
    /// (`Path.circularArc`) with butt caps and no dashes, under a map that
    /// keeps circles circles (`AnnularSector.mapped(by:)`), with an inner
    /// radius of `SectorRasterizer.minimumInnerRadius` pixels or more and a
    /// radius up to `maximumSectorRadius`.
    ///
    /// The answer does not depend on the trim (a trim that moves changes
    /// only the pixels between its old and new ends, however drawn), only
    /// on what the layer's base signature holds: path, width, cap, dashes
    /// and map.
    func sectorArc(of path: Path, width: Double, device: AffineTransform) -> CircularArc? {
        guard lineCap == .butt, lineDashPattern?.isEmpty ?? true, width > 0, width.isFinite,
              let arc = geometryMemo.keyed(by: path).arc, width / 2 < arc.radius,
              let (scale, _) = device.similarity,
              (arc.radius - width / 2) * scale >= SectorRasterizer.minimumInnerRadius,
              arc.radius * scale <= ShapeLayer.maximumSectorRadius else { return nil }
        return arc
    }

    /// Adds to `box` the bounds (layer space) of the stroke sector of `arc`
    /// between the trim positions `a` and `b` (clamped to 0…1); nothing
    /// when they are equal.
    func addSectorPiece(of arc: CircularArc, width: Double, between a: Double, and b: Double, to box: inout BoundingBox) {
        let ca = Swift.min(Swift.max(a, 0), 1), cb = Swift.min(Swift.max(b, 0), 1)
        guard ca != cb, let piece = arc.strokeSector(width: width, start: Swift.min(ca, cb), end: Swift.max(ca, cb)) else { return }
        let o = piece.bounds
        if !o.isEmpty { box.add(PathPoint(o.minX, o.minY)); box.add(PathPoint(o.maxX, o.maxY)) }
    }
}

/// What a `ShapeLayer` derives from its presented path, kept while the
/// path stays the same (a copy of it is the key, so the layer's own
/// storage stays its own): the path read as a circular arc, and the
/// stroke's reach for the last cap, join and miter limit asked.
final class PathGeometryMemo {
    private var path = Path()
    private var isValid = false
    private var arcKnown = false
    private var arcValue: CircularArc?
    private var reachStyle: StrokeStyle?
    private var reachValue = 0.0

    /// Makes `path` the key, forgetting what was derived from another.
    func keyed(by path: Path) -> PathGeometryMemo {
        if !isValid || self.path != path {
            self.path.setContents(of: path)
            isValid = true; arcKnown = false; reachStyle = nil
        }
        return self
    }

    /// `Path.circularArc` of the key.
    var arc: CircularArc? {
        if !arcKnown { arcValue = path.circularArc; arcKnown = true }
        return arcValue
    }

    /// `style.reach(for:)` of the key (it depends on the cap, the join and
    /// the miter limit).
    func reach(_ style: StrokeStyle) -> Double {
        if let s = reachStyle, s.cap == style.cap, s.join == style.join, s.miterLimit == style.miterLimit { return reachValue }
        reachValue = style.reach(for: path)
        reachStyle = style
        return reachValue
    }
}

/// An outline stroked into storage kept between calls (no allocation once
/// grown, as long as no copy of `outline` is kept), flattened through the
/// linear part of the device map only, so it is in the path's own space.
final class StrokePiece {
    private(set) var outline = Path()
    private let scratch = StrokeScratch()

    func stroke(_ path: Path, style: StrokeStyle, device: AffineTransform) {
        path.stroke(style, transform: AffineTransform(a: device.a, b: device.b, c: device.c, d: device.d, tx: 0, ty: 0),
                    into: &outline, scratch: scratch)
    }
}

/// A `ShapeLayer`'s animatable properties but the path, as one value.
struct ShapeStyleValues: Equatable {
    var fillColor: Color?
    var strokeColor: Color?
    var lineWidth: Double
    var miterLimit: Double
    var lineDashPattern: [Double]
    var lineDashPhase: Double
    var strokeStart: Double
    var strokeEnd: Double
}

/// A `ShapeLayer`'s presented style at one local time, with what it was
/// evaluated from.
final class PresentedStyleMemo {
    var isValid = false
    var time: MediaTime = 0
    var animationsVersion: UInt64 = 0
    var model = ShapeStyleValues(fillColor: nil, strokeColor: nil, lineWidth: 0, miterLimit: 0, lineDashPattern: [],
                                 lineDashPhase: 0, strokeStart: 0, strokeEnd: 0)
    var value = ShapeStyleValues(fillColor: nil, strokeColor: nil, lineWidth: 0, miterLimit: 0, lineDashPattern: [],
                                 lineDashPhase: 0, strokeStart: 0, strokeEnd: 0)
}

extension ShapeLayer {
    /// The model values of the style properties.
    var modelStyle: ShapeStyleValues {
        ShapeStyleValues(fillColor: fillColor, strokeColor: strokeColor, lineWidth: lineWidth, miterLimit: miterLimit,
                         lineDashPattern: lineDashPattern ?? [], lineDashPhase: lineDashPhase,
                         strokeStart: strokeStart, strokeEnd: strokeEnd)
    }

    /// The presentation values of the style properties at local time `t`
    /// (the values `customPresentationValue(forKey:atLocalTime:)` gives for
    /// each key; a value of another kind than the property's leaves the
    /// model value), evaluated once per time: the survey's signature, the
    /// trim damage, the extent and the drawing all ask for them in one
    /// frame.
    func presentedStyle(at t: MediaTime) -> ShapeStyleValues {
        let model = modelStyle
        let custom = !actionState.customValues.isEmpty     // `setValue(_:forKey:)` values override the stored ones
        if animations.isEmpty && !custom { return model }
        let m = presentedStyleMemo
        if !custom, m.isValid, m.time == t, m.animationsVersion == animationsVersion, m.model == model { return m.value }
        var v = model
        func color(_ key: String) -> Color? {
            if case let .color(c)? = customPresentationValue(forKey: key, atLocalTime: t) { return c }
            return nil
        }
        func scalar(_ key: String, _ model: Double) -> Double {
            if case let .scalar(x)? = customPresentationValue(forKey: key, atLocalTime: t) { return x }
            return model
        }
        v.fillColor = color("fillColor")
        v.strokeColor = color("strokeColor")
        v.lineWidth = scalar("lineWidth", model.lineWidth)
        v.miterLimit = scalar("miterLimit", model.miterLimit)
        v.lineDashPhase = scalar("lineDashPhase", model.lineDashPhase)
        v.strokeStart = scalar("strokeStart", model.strokeStart)
        v.strokeEnd = scalar("strokeEnd", model.strokeEnd)
        if case let .scalars(d)? = customPresentationValue(forKey: "lineDashPattern", atLocalTime: t) { v.lineDashPattern = d }
        if !custom {
            m.isValid = true; m.time = t; m.animationsVersion = animationsVersion; m.model = model; m.value = v
        }
        return v
    }
}

/// A `ShapeLayer`'s presented path at one local time, with what it was
/// evaluated from.
final class PresentedPathMemo {
    var isValid = false
    var time: MediaTime = 0
    var animationsVersion: UInt64 = 0
    var model: Path?
    var value: Path?
}
