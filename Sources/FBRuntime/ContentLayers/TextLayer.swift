import Raster

/// A piece of styled text for `TextLayer.attributedString`. A `nil`
/// attribute takes the layer's (`font`, `fontSize`, `foregroundColor`),
/// animations of the layer's properties included.
public struct TextRun {
    public var string: String
    public var font: Font?
    /// Points per em.
    public var fontSize: Double?
    public var color: Color?

    public init(_ string: String, font: Font? = nil, fontSize: Double? = nil, color: Color? = nil) {
        self.string = string; self.font = font; self.fontSize = fontSize; self.color = color
    }
}

/// A layer that draws text, as `CATextLayer`: above the contents image and
/// below the sublayers, laid out in the bounds (points, from the top left)
/// by `TextLayout`'s rules (shaping, wrapping, truncation, alignment are
/// documented there).
///
/// **Drawing.** Glyph outlines (from `Font`, cached in its `GlyphCache`)
/// are scan-converted through the layer's full map, so text is as sharp as
/// the display allows at any scale or transform; `contentsScale` does not
/// limit it (the outlines are always drawn at the display's resolution,
/// never below it). While the layer keeps its size and sub-pixel place from
/// one draw to the next (static text, text moved or scrolled by whole
/// pixels) each glyph is blitted from its coverage mask
/// (`CoverageMaskCache.glyphs`), the same pixels; text that turns, changes
/// size or moves by fractions of a pixel is drawn from outlines. Text is
/// not clipped to the bounds unless `masksToBounds`. Its damage is its ink
/// (the glyphs' outline boxes).
///
/// **Animatable** (as `.custom(name)` keys): `fontSize` (the text is laid
/// out again at the interpolated size each frame the animation runs, so a
/// frame mid-animation is the static layout at that size) and
/// `foregroundColor`.
///
/// **Bad input.** No font (`font` `nil` and a run without one): that text
/// is not drawn. NaN, negative or zero sizes draw nothing; sizes above
/// `TextLayout.maximumFontSize` are clamped. Characters the font lacks are
/// drawn as its missing-glyph box.
open class TextLayer: Layer {
    /// Plain text, in the layer's font, size and colour. Ignored when
    /// `attributedString` is set.
    public var string: String = "" { didSet { textVersion &+= 1; noteModelChange(); invalidatePreferredSize() } }
    /// Styled runs, drawn instead of `string` when not `nil`.
    public var attributedString: [TextRun]? { didSet { textVersion &+= 1; noteModelChange(); invalidatePreferredSize() } }
    /// The font; a new layer starts with `TextLayer.defaultFont`.
    public var font: Font? = TextLayer.defaultFont { didSet { textVersion &+= 1; noteModelChange(); invalidatePreferredSize() } }
    /// The font new text layers start with (`nil`: none, so text draws
    /// nothing until a font is set). The app shell sets it at start to the
    /// system's sans-serif font (`App.defaultFontPaths`). Set it on the app
    /// thread before making text layers; render-tree twins and presentation
    /// copies take their layer's font, not this one.
    nonisolated(unsafe) public static var defaultFont: Font?
    /// Points per em. Default 36, as CA.
    public var fontSize: Double = 36 { willSet { willChangeValue(forKey: .fontSize) } didSet { didChangeValues(); invalidatePreferredSize() } }
    /// Default opaque white, as CA.
    public var foregroundColor: Color = .white { willSet { willChangeValue(forKey: .foregroundColor) } didSet { didChangeValues() } }
    public var alignmentMode: TextAlignment = .natural { didSet { textVersion &+= 1; noteModelChange() } }
    /// Break lines to the bounds' width (default off: one line a paragraph).
    public var isWrapped = false { didSet { textVersion &+= 1; noteModelChange(); invalidatePreferredSize() } }
    public var truncationMode: TextTruncation = .none { didSet { textVersion &+= 1; noteModelChange() } }

    let layoutCache = TextLayoutCache()
    /// Bumped by every change of the text, fonts or layout options (the
    /// damage tracker's signature).
    var textVersion: UInt64 = 0

    public override init(name: String = "text") { super.init(name: name) }

    /// A `TextLayer` with this layer's model properties (presentation copies,
    /// render-tree twins).
    open override func makePresentationCopy() -> Layer {
        let copy = TextLayer(name: name)
        copy.copyLayerState(from: self)
        return copy
    }

    open override func copyLayerState(from other: Layer) {
        super.copyLayerState(from: other)
        // `other` is of this class (see `copyLayerState(from:)`).
        let o = unsafeDowncast(other, to: TextLayer.self)
        string = o.string
        attributedString = o.attributedString
        font = o.font
        fontSize = o.fontSize
        foregroundColor = o.foregroundColor
        alignmentMode = o.alignmentMode
        isWrapped = o.isWrapped
        truncationMode = o.truncationMode
        textVersion = o.textVersion   // the same text keeps its version: no damage
    }

    /// `fontSize` and `foregroundColor` animate implicitly when set in a
    /// displayed tree, as in Core Animation.
    open override class func defaultAction(forKey key: AnimatableKey) -> LayerAction? {
        if case let .custom(name) = key, TextLayer.animatableKeys.contains(name) { return .implicitAnimation }
        return super.defaultAction(forKey: key)
    }

    open override class var customAnimatableKeys: [String] { super.customAnimatableKeys + animatableKeys }

    override func combineContentSignature(into s: inout LayerSignature, at t: MediaTime) {
        if hasOnlyStoredValues {
            // The common case, without the general evaluation's copies.
            s.combine(fontSize); s.combine(foregroundColor)
        } else {
            s.combine(customKeys: TextLayer.animatableKeys, of: self, at: t)
        }
        s.combine(textVersion)
    }

    /// No animation and no dynamically set value: the presented size and
    /// colour are the stored ones (what most text is, every frame).
    private var hasOnlyStoredValues: Bool { animations.isEmpty && actionState.customValues.isEmpty }

    /// The font size on screen at local time `t`.
    func presentedFontSize(at t: MediaTime) -> Double {
        if !hasOnlyStoredValues, case let .scalar(v)? = customPresentationValue(forKey: "fontSize", atLocalTime: t) { return v }
        return fontSize
    }

    /// The text colour on screen at local time `t`.
    func presentedForegroundColor(at t: MediaTime) -> Color {
        if !hasOnlyStoredValues, case let .color(v)? = customPresentationValue(forKey: "foregroundColor", atLocalTime: t) { return v }
        return foregroundColor
    }

    static let animatableKeys = ["fontSize", "foregroundColor"]

    open override func storedValue(forKey name: String) -> AnimatableValue? {
        switch name {
        case "fontSize": return .scalar(fontSize)
        case "foregroundColor": return .color(foregroundColor)
        default: return super.storedValue(forKey: name)
        }
    }

    open override func setStoredValue(_ value: AnimatableValue, forKey name: String) {
        switch (name, value) {
        case let ("fontSize", .scalar(v)): fontSize = v
        case let ("foregroundColor", .color(v)): foregroundColor = v
        default: super.setStoredValue(value, forKey: name)
        }
    }

    /// The size of the text laid out with the model values, points: the
    /// `TextLayout`'s `width` and `height` (widest line by the bottom of
    /// the last line) for an unlimited height, and an unlimited width too
    /// unless `isWrapped` (then the bounds' width). Not rounded. Text
    /// changes tell the superlayer's layout manager
    /// (`invalidatePreferredSize()`).
    open override var preferredSize: Size {
        if let manager = layoutManager, let s = manager.preferredSize(of: self) { return LayoutLimits.clamp(s) }
        var runs: [TextLayout.Run] = []
        var sources: [Int] = []
        resolveRuns(fontSize: fontSize, into: &runs, sources: &sources)
        let measured = TextLayout(runs, width: isWrapped ? bounds.width : .infinity, height: .infinity, isWrapped: isWrapped,
                                  truncation: .none, alignment: alignmentMode)
        return LayoutLimits.clamp(Size(width: measured.width, height: measured.height))
    }

    /// The layout of the model values (no animation applied) in the
    /// current bounds, for measuring. Not cached. It shapes with the
    /// fonts (each shaping call under its font's lock, so this may run
    /// while the render thread draws with the same fonts).
    public var layout: TextLayout {
        var runs: [TextLayout.Run] = []
        var sources: [Int] = []
        resolveRuns(fontSize: fontSize, into: &runs, sources: &sources)
        return TextLayout(runs, width: bounds.width, height: bounds.height, isWrapped: isWrapped,
                          truncation: truncationMode, alignment: alignmentMode)
    }

    /// The runs to lay out: the ones with a font, with the layer's values
    /// for what they leave `nil`; `sources[i]` is the index in
    /// `attributedString` of `runs[i]`.
    func resolveRuns(fontSize size: Double, into runs: inout [TextLayout.Run], sources: inout [Int]) {
        runs.removeAll(keepingCapacity: true)
        sources.removeAll(keepingCapacity: true)
        if let attributed = attributedString {
            for (i, r) in attributed.enumerated() {
                guard let f = r.font ?? font else { continue }
                runs.append(TextLayout.Run(r.string, font: f, size: r.fontSize ?? size))
                sources.append(i)
            }
        } else if let font {
            runs.append(TextLayout.Run(string, font: font, size: size))
            sources.append(0)
        }
    }

    override var drawsOwnContent: Bool { true }

    /// Where the glyphs' outlines reach (text may overflow the bounds when
    /// not wrapped): the union of their control-point boxes, computed once
    /// per layout. It is what changes when the text is recoloured, so a
    /// label's damage is its ink, not its line boxes widened.
    override func ownContentExtent(at t: MediaTime) -> Rect? {
        // Without animations the presented bounds are the model's: no
        // evaluation (the survey asks this of every text unit it walks).
        let bounds = animations.isEmpty ? self.bounds : PresentationValues(self, at: t).bounds
        _ = layoutCache.layout(for: self, fontSize: presentedFontSize(at: t), bounds: bounds)
        return layoutCache.inkBounds
    }

    /// Glyphs land up to half a snap step from their exact place.
    override var ownContentSnapMargin: Double { 0.5 / CoverageMaskCache.glyphFractionSteps }

    override func drawOwnContent(_ d: OwnContentDrawing) {
        let size = presentedFontSize(at: d.localTime)
        let color = presentedForegroundColor(at: d.localTime)
        let layout = layoutCache.layout(for: self, fontSize: size, bounds: d.bounds)
        let attributed = attributedString
        let glyphs = layout.glyphs
        // Glyph masks only for text that keeps its size and sub-pixel place
        // from one draw to the next: text moving by fractions of a pixel or
        // changing size would fill the cache with masks used once. While it
        // keeps them, each glyph's mask is remembered here too, so a frame
        // blits without looking anything up.
        let blits = layoutCache.isPlacementStable(map: d.map, fontSize: size) && d.blitsGlyphs
        if blits { layoutCache.prepareMasks(count: glyphs.count) }
        // One colour and a placement that holds: the whole text as one mask
        // (`TextLayoutCache.composed`), a single blit instead of one per glyph.
        // The layer's own whole-pixel origin (the glyphs' placements are
        // noted relative to it); `nil` where no glyph could be blitted.
        let origin = blits && attributed == nil && d.composesText ? MaskPlacement(d.map.affinePart) : nil
        let composes = origin != nil
        if let origin, let composed = layoutCache.composed {
            d.blit(composed, x: origin.x + composed.left, y: origin.y + composed.top, color: color)
            return
        }
        var i = 0
        while i < glyphs.count {          // an index loop: no iterator (debug builds allocate one per step)
            let g = glyphs[i]
            let k = i
            i += 1
            var c = color
            if let attributed {
                let source = layoutCache.sources[g.run]
                if source < attributed.count, let own = attributed[source].color { c = own }
            }
            // Font units (y up) → bounds space (y down) at the pen position.
            let place = AffineTransform(a: g.scale, b: 0, c: 0, d: -g.scale, tx: g.x, ty: g.y)
            if blits, let placement = d.glyphPlacement(place) {
                if let origin { layoutCache.noteMaskOrigin(k, x: placement.x - origin.x, y: placement.y - origin.y) }
                switch layoutCache.masks[k] {
                case .mask(let mask):
                    if d.isVisible(mask, at: placement) { d.blit(mask, at: placement, color: c) }
                    continue
                case .unknown:
                    let outline = g.font.outline(of: g.id)
                    if outline.isEmpty { layoutCache.setMask(k, .empty); continue }
                    if let mask = d.glyphMask(outline, font: g.font, glyph: g.id, at: placement) {
                        layoutCache.setMask(k, .mask(mask))
                        if d.isVisible(mask, at: placement) { d.blit(mask, at: placement, color: c) }
                        continue
                    }
                    layoutCache.setMask(k, .outline)
                case .empty:
                    continue
                case .outline:
                    break
                }
            }
            d.fill(g.font.outline(of: g.id), transform: place, color: c, rule: .nonZero)
        }
        if composes { layoutCache.compose() }
    }
}

/// What a text layer remembers of a glyph's mask while its placement is
/// stable (`TextLayoutCache.masks`).
enum GlyphMaskMemo {
    /// Not looked up yet.
    case unknown
    /// The glyph has no outline (a space).
    case empty
    /// Too large for a mask: filled from its outline.
    case outline
    case mask(CoverageMask)
}

/// The last layout of a `TextLayer` and what it was made from; laid out
/// again only when one of them changes (a `fontSize` animation changes
/// the size every frame; that layout reuses the storage of the last, so
/// it allocates nothing once grown, but for truncated and right-to-left
/// lines). Render thread state.
final class TextLayoutCache {
    private(set) var layout = TextLayout()
    private var runs: [TextLayout.Run] = []
    private(set) var sources: [Int] = []
    private var width = Double.nan, height = Double.nan
    private var isWrapped = false
    private var truncation = TextTruncation.none
    private var alignment = TextAlignment.natural
    private var scratchRuns: [TextLayout.Run] = []
    private var scratchSources: [Int] = []
    private let scratch = TextLayoutScratch()
    /// Layouts made (cache misses), for tests.
    private(set) var misses = 0
    /// The ink of the current layout (see `inkBounds`), `nil` until asked.
    private var ink: Rect??

    /// The union of the glyphs' outline boxes in layout space (points),
    /// `nil` when no glyph has an outline. Computed once per layout.
    var inkBounds: Rect? {
        if let ink { return ink }
        var box = BoundingBox.empty
        let glyphs = layout.glyphs
        var i = 0
        while i < glyphs.count {       // an index loop: no iterator in debug builds
            let g = glyphs[i]
            i += 1
            let b = g.font.outline(of: g.id).bounds
            guard !b.isEmpty, g.scale.isFinite else { continue }
            box.add(PathPoint(g.x + b.minX * g.scale, g.y - b.maxY * g.scale))
            box.add(PathPoint(g.x + b.maxX * g.scale, g.y - b.minY * g.scale))
        }
        let result: Rect? = box.isEmpty || !box.minX.isFinite || !box.maxX.isFinite || !box.minY.isFinite || !box.maxY.isFinite
            ? nil : Rect(x: box.minX, y: box.minY, width: box.maxX - box.minX, height: box.maxY - box.minY)
        ink = .some(result)
        return result
    }
    /// Per glyph of the layout, its mask at the current placement; emptied
    /// when the layout or the placement changes. The masks are shared with
    /// `CoverageMaskCache` (an eviction there leaves them alive here while the
    /// text is drawn with them).
    private(set) var masks: [GlyphMaskMemo] = []
    /// Per glyph, where its mask's origin lands (target pixels) relative to
    /// the whole-pixel origin of the layer's map (`MaskPlacement`'s `x`,
    /// `y`), as noted by the last draw; the same after whole-pixel moves.
    private var maskOrigins: [(x: Int32, y: Int32)] = []

    /// The glyph masks of the whole text composed into one, placed
    /// (`left`, `top`) from the whole-pixel origin of the layer's map, while
    /// the placement and layout hold: a text layer in one colour then costs
    /// one masked blit, whatever its glyph count (LVGL's labels scene: 40
    /// labels of 11 glyphs, recoloured every frame). Made by `compose()`
    /// after a draw that knew every glyph's mask, only when no two glyph
    /// masks cover the same pixel (so the one blit writes exactly the
    /// pixels the glyph blits write, bit for bit) and the text's box holds
    /// at most `composedBudget` pixels. `nil` otherwise.
    private(set) var composed: CoverageMask?
    /// `compose()` found it cannot compose (overlap, size, a glyph drawn
    /// from its outline) at this placement and layout: not tried again.
    private var composeRefused = false

    /// Most pixels a composed text mask may have (64 KiB of coverage, a
    /// 1,000 × 64 px line); larger text is blitted glyph by glyph.
    static let composedBudget = 1 << 16

    /// Forgets the glyph masks and the composed mask (new layout or
    /// placement).
    private func forgetMasks() {
        masks.removeAll(keepingCapacity: true)
        if let old = composed {
            composed = nil
            spareCoverage = old.coverage        // the only reference left: reused by the next `compose()`
        }
        composeRefused = false
    }

    /// The storage of the last composed mask, kept for the next (a list
    /// row whose text changes as it is reused composes without allocating).
    private var spareCoverage: [UInt8] = []

    /// Makes `masks` hold one entry per glyph (unknown ones when it was
    /// emptied).
    func prepareMasks(count: Int) {
        if masks.count != count {
            forgetMasks()
            // Room for a label's worth at once: a reused list row whose
            // text grows by a glyph ("Row 99" → "Row 100") does not grow
            // the storage each time.
            if masks.capacity < count {
                let room = Swift.max(count, TextLayoutCache.minimumMaskRoom)
                masks.reserveCapacity(room)
                maskOrigins.reserveCapacity(room)
            }
            masks.append(contentsOf: repeatElement(.unknown, count: count))
            maskOrigins.removeAll(keepingCapacity: true)
            maskOrigins.append(contentsOf: repeatElement((x: Int32(0), y: Int32(0)), count: count))
        }
    }

    /// Glyph entries `masks` first makes room for (a short label's).
    static let minimumMaskRoom = 32

    /// Notes glyph `k`'s mask origin relative to the map's whole-pixel
    /// origin (see `maskOrigins`).
    func noteMaskOrigin(_ k: Int, x: Int, y: Int) {
        maskOrigins[k] = (Int32(truncatingIfNeeded: x), Int32(truncatingIfNeeded: y))
    }

    /// Remembers what glyph `k` is drawn from at this placement.
    func setMask(_ k: Int, _ memo: GlyphMaskMemo) { masks[k] = memo }

    /// Makes `composed` from the glyph masks the last draw knew (see
    /// `composed`), once per placement and layout.
    func compose() {
        guard composed == nil, !composeRefused else { return }
        composeRefused = true
        var box = IntRect.zero
        var any = false
        var k = 0
        while k < masks.count {
            switch masks[k] {
            case .unknown, .outline: return
            case .empty: break
            case .mask(let m):
                let r = IntRect(x: Int(maskOrigins[k].x) + m.left, y: Int(maskOrigins[k].y) + m.top, width: m.width, height: m.height)
                if !r.isEmpty { box = any ? box.union(r) : r; any = true }
            }
            k += 1
        }
        guard any, box.area <= TextLayoutCache.composedBudget else { return }
        var coverage: [UInt8] = []
        swap(&coverage, &spareCoverage)
        coverage.removeAll(keepingCapacity: true)
        coverage.append(contentsOf: repeatElement(0, count: box.area))
        let overlaps = coverage.withUnsafeMutableBufferPointer { out -> Bool in
            var k = 0
            while k < masks.count {
                if case .mask(let m) = masks[k] {
                    let x0 = Int(maskOrigins[k].x) + m.left - box.x, y0 = Int(maskOrigins[k].y) + m.top - box.y
                    let clash = m.coverage.withUnsafeBufferPointer { src -> Bool in
                        var y = 0
                        while y < m.height {
                            let row = (y0 + y) * box.width + x0
                            var x = 0
                            while x < m.width {
                                let c = src[y * m.width + x]
                                if c != 0 {
                                    if out[row + x] != 0 { return true }
                                    out[row + x] = c
                                }
                                x += 1
                            }
                            y += 1
                        }
                        return false
                    }
                    if clash { return true }
                }
                k += 1
            }
            return false
        }
        guard !overlaps else { swap(&coverage, &spareCoverage); return }
        composed = CoverageMask(coverage: coverage, left: box.x, top: box.y, width: box.width, height: box.height,
                                findsInteriors: false)
        composeRefused = false
    }

    /// The map's scale and sub-pixel offset, and the size, of the last draw.
    private var lastPlacement: Placement?
    private struct Placement {
        var a, b, c, d, fx, fy, size: Double
    }

    /// True when `map` (bounds → target) is affine and has the same linear
    /// part and sub-pixel offset, and `fontSize` is the same, as at the
    /// last call: the glyphs then land on the same sub-pixel positions.
    func isPlacementStable(map: ProjectiveTransform, fontSize: Double) -> Bool {
        guard map.isAffine else { lastPlacement = nil; forgetMasks(); return false }
        let m = map.affinePart
        let now = Placement(a: m.a, b: m.b, c: m.c, d: m.d, fx: m.tx - m.tx.rounded(.down), fy: m.ty - m.ty.rounded(.down),
                            size: fontSize)
        defer { lastPlacement = now }
        // The same sub-pixel place, give or take the rounding of whole-pixel
        // steps (see `CoverageMaskCache.fractionKey`).
        guard let last = lastPlacement, last.a == now.a, last.b == now.b, last.c == now.c, last.d == now.d,
              last.size == now.size || (last.size.isNaN && now.size.isNaN),
              Swift.abs(last.fx - now.fx) < 1e-7, Swift.abs(last.fy - now.fy) < 1e-7 else {
            forgetMasks()
            return false
        }
        return true
    }

    func layout(for layer: TextLayer, fontSize: Double, bounds: Rect) -> TextLayout {
        layer.resolveRuns(fontSize: fontSize, into: &scratchRuns, sources: &scratchSources)
        if misses > 0, bounds.width == width, bounds.height == height, layer.isWrapped == isWrapped,
           layer.truncationMode == truncation, layer.alignmentMode == alignment, scratchSources == sources,
           same(scratchRuns, runs) {
            return layout
        }
        swap(&runs, &scratchRuns)
        swap(&sources, &scratchSources)
        width = bounds.width; height = bounds.height
        isWrapped = layer.isWrapped; truncation = layer.truncationMode; alignment = layer.alignmentMode
        // In place: the glyph, line and working storage of the last layout
        // are reused (a `fontSize` animation lays out every frame).
        layout.layOut(runs, width: width, height: height, isWrapped: isWrapped, truncation: truncation,
                      alignment: alignment, scratch: scratch)
        ink = nil
        forgetMasks()
        misses += 1
        return layout
    }

    private func same(_ a: [TextLayout.Run], _ b: [TextLayout.Run]) -> Bool {
        guard a.count == b.count else { return false }
        for i in a.indices {
            guard a[i].font === b[i].font, a[i].size == b[i].size || (a[i].size.isNaN && b[i].size.isNaN),
                  a[i].string == b[i].string else { return false }
        }
        return true
    }
}
