@testable import FBRuntime
import MallocCounter
import Raster
import TestSupport
import XCTest

/// Issue 18: text drawn from cached glyph coverage (`CoverageMaskCache`)
/// against the reference, the same text scan-converted from outlines
/// (`Compositor.glyphMaskBlits = false`), at several sizes and sub-pixel
/// offsets; the cache's budget under a storm of sizes and fonts; no
/// allocation per frame once the masks are made; text that moves by
/// fractions of a pixel stays on the outline path.
final class GlyphMaskCacheTests: XCTestCase {
    static let dejaVu = "/usr/share/fonts/truetype/dejavu/DejaVuSans.ttf"
    static let devanagari = "/usr/share/fonts/truetype/lohit-devanagari/Lohit-Devanagari.ttf"
    lazy var font = try! Font(path: GlyphMaskCacheTests.dejaVu)

    func scene(_ text: String, font: Font, size: Double, at origin: Point, opacity: Double = 1) -> (root: Layer, text: TextLayer) {
        let root = Layer(name: "root")
        root.bounds = Rect(x: 0, y: 0, width: 240, height: 90)
        root.anchorPoint = .zero
        root.backgroundColor = Color(rgb: 0xF0F4F8)
        let t = TextLayer()
        t.font = font
        t.fontSize = size
        t.string = text
        t.isWrapped = true
        t.foregroundColor = Color(rgb: 0x1A3050)
        t.opacity = opacity
        t.anchorPoint = .zero
        t.bounds = Rect(x: 0, y: 0, width: 220, height: 80)
        t.position = origin
        try! root.addSublayer(t)
        return (root, t)
    }

    /// Renders `root` three times through `compositor` (the first draw
    /// learns the placement, the second makes the masks, the third blits
    /// them), a full frame each time.
    func renderThrice(_ root: Layer, _ compositor: Compositor) -> Surface<ARGB8888> {
        let target = Surface<ARGB8888>(width: 240, height: 90)!
        for _ in 0..<3 {
            compositor.invalidate()
            compositor.render(root, at: 0, into: target.view)
        }
        return target
    }

    /// The glyphs whose masks `text` remembers (drawn from them, without a
    /// cache lookup, while its placement holds).
    /// A compositor blitting glyphs from a cache of its own (`budget`
    /// bytes) and one drawing every glyph from its outline.
    func glyphCompositors(budget: Int, scale: Double = 1) -> (cache: CoverageMaskCache, fast: Compositor, reference: Compositor) {
        let cache = CoverageMaskCache(budget: budget)
        let fast = Compositor(scale: scale)
        fast.glyphMasks = cache
        let reference = Compositor(scale: scale)
        reference.glyphMaskBlits = false
        return (cache, fast, reference)
    }

    func rememberedMasks(_ text: TextLayer) -> Int {
        text.layoutCache.masks.reduce(0) { n, m in if case .mask = m { return n + 1 } else { return n } }
    }

    func maximumDifference(_ a: PixelView<ARGB8888>, _ b: PixelView<ARGB8888>) -> (Int, Int) {
        var worst = 0, differing = 0
        for y in 0..<a.height {
            for x in 0..<a.width {
                let p = a[x, y], q = b[x, y]
                var d = 0
                for shift in stride(from: 0, through: 24, by: 8) {
                    d = max(d, abs(Int((p >> UInt32(shift)) & 0xFF) - Int((q >> UInt32(shift)) & 0xFF)))
                }
                if d > 0 { differing += 1 }
                worst = max(worst, d)
            }
        }
        return (worst, differing)
    }

    func testCachedGlyphsEqualOutlinesAtSizesAndSubpixelOffsets() {
        let text = "Wavy fjord quiz: 0123456789 @&%? ÅÉ"
        var worstOverall = 0
        for size in [9.0, 12, 14, 16.5, 24, 36] {
            for (dx, dy) in [(0.0, 0.0), (0.13, 0.0), (0.25, 0.5), (0.5, 0.3), (0.77, 0.62)] {
                for opacity in [1.0, 0.6] {
                    let (cache, fast, reference) = glyphCompositors(budget: 1 << 20)
                    let origin = Point(x: 6 + dx, y: 4 + dy)
                    let fastScene = scene(text, font: font, size: size, at: origin, opacity: opacity)
                    let a = renderThrice(fastScene.root, fast)
                    let b = renderThrice(scene(text, font: font, size: size, at: origin, opacity: opacity).root, reference)
                    XCTAssertGreaterThan(cache.misses, 5, "masks were made at \(size) pt, offset \(dx), \(dy)")
                    XCTAssertGreaterThan(rememberedMasks(fastScene.text), 5, "the last frame was drawn from them")
                    let (worst, _) = maximumDifference(a.view, b.view)
                    XCTAssertEqual(worst, 0, "\(size) pt at offset (\(dx), \(dy)), opacity \(opacity)")
                    worstOverall = max(worstOverall, worst)
                }
            }
        }
        print("glyph masks vs outlines: worst difference \(worstOverall) levels")
    }

    /// Scaled by the compositor's scale (a 2× panel) the masks are made at
    /// device size, and still equal the outlines.
    func testCachedGlyphsEqualOutlinesOnAScaledPanel() {
        let (_, fast, reference) = glyphCompositors(budget: 1 << 20, scale: 2)
        let target = { Surface<ARGB8888>(width: 480, height: 180)! }
        let a = target(), b = target()
        let s1 = scene("Scaled text, 2×", font: font, size: 15, at: Point(x: 3.3, y: 2.1))
        let s2 = scene("Scaled text, 2×", font: font, size: 15, at: Point(x: 3.3, y: 2.1))
        for _ in 0..<3 { fast.invalidate(); fast.render(s1.root, at: 0, into: a.view) }
        for _ in 0..<3 { reference.invalidate(); reference.render(s2.root, at: 0, into: b.view) }
        XCTAssertGreaterThan(rememberedMasks(s1.text), 5)
        XCTAssertEqual(maximumDifference(a.view, b.view).0, 0)
    }

    func testBudgetHoldsUnderAStormOfSizesAndFonts() throws {
        let other = try Font(path: GlyphMaskCacheTests.devanagari)
        let budget = 48 * 1024
        let (cache, fast, reference) = glyphCompositors(budget: budget)
        for step in 0..<30 {
            let size = 8 + Double(step) * 1.7
            let f = step % 3 == 2 ? other : font
            let text = f === other ? "नमस्ते दुनिया" : "Storm of sizes \(step)"
            let a = renderThrice(scene(text, font: f, size: size, at: Point(x: 2, y: 2)).root, fast)
            let b = renderThrice(scene(text, font: f, size: size, at: Point(x: 2, y: 2)).root, reference)
            XCTAssertLessThanOrEqual(cache.bytesUsed, budget)
            XCTAssertEqual(maximumDifference(a.view, b.view).0, 0, "step \(step)")
        }
        XCTAssertGreaterThan(cache.evictions, 0, "the storm went past the budget")
        XCTAssertLessThanOrEqual(cache.bytesUsed, budget)
        cache.budget = 0
        XCTAssertEqual(cache.count, 0)
        XCTAssertEqual(cache.bytesUsed, 0)
    }

    /// Masks made at one place and blitted after whole-pixel moves (a
    /// scrolled page): equal to the outlines drawn at the new place, bit
    /// for bit (a glyph is scan-converted on its own grid, relative to its
    /// whole-pixel origin, both ways).
    func testMasksReusedAfterWholePixelMovesEqualOutlines() {
        let text = "Scrolling page: the quick brown fox jumps over the lazy dog 0123456789"
        var worstOverall = 0, differing = 0
        for size in [11.0, 14, 20.5] {
            let (cache, fast, reference) = glyphCompositors(budget: 1 << 20)
            let s1 = scene(text, font: font, size: size, at: Point(x: 3.37, y: 2.71))
            let s2 = scene(text, font: font, size: size, at: Point(x: 3.37, y: 2.71))
            let a = Surface<ARGB8888>(width: 240, height: 90)!, b = Surface<ARGB8888>(width: 240, height: 90)!
            for step in 0..<12 {
                let p = Point(x: 3.37 + Double(step * 7 % 5), y: 2.71 - Double(step))
                s1.text.position = p
                s2.text.position = p
                fast.render(s1.root, at: 0, into: a.view)
                reference.render(s2.root, at: 0, into: b.view)
                let (worst, n) = maximumDifference(a.view, b.view)
                worstOverall = max(worstOverall, worst)
                differing += n
            }
            XCTAssertGreaterThan(rememberedMasks(s1.text), 20, "\(size) pt: the masks were reused")
            XCTAssertLessThanOrEqual(cache.misses, s1.text.string.count, "\(size) pt: made once")
        }
        XCTAssertEqual(worstOverall, 0)
        print("masks reused after whole-pixel moves: worst \(worstOverall) levels, \(differing) pixels differ over 36 frames")
    }

    /// New text at ever new sub-pixel places (a list's rows scrolled into
    /// view, numbers whose digits shift the glyphs after them): a glyph gets
    /// at most 16 masks per font and size (quarter-pixel places across and
    /// down), so once they are made, new text makes none; and what is drawn
    /// equals the outlines at the same places.
    func testNewTextAtNewSubpixelPlacesReusesQuarterPixelMasks() {
        let (cache, fast, reference) = glyphCompositors(budget: 1 << 20)
        let a = Surface<ARGB8888>(width: 240, height: 60)!, b = Surface<ARGB8888>(width: 240, height: 60)!
        var rng = SplitMix64(seed: 7)
        var madeAfterWarmUp = 0
        for row in 0..<400 {
            // A new label each time, at a new place, drawn twice (the second
            // draw finds its placement stable and uses the masks).
            let text = "Row \(row * 37 % 9973) \(rng.below(100000))"
            let origin = Point(x: 3 + Double(rng.below(1000)) / 997, y: 5 + Double(rng.below(1000)) / 991)
            let s1 = scene(text, font: font, size: 13, at: origin)
            let s2 = scene(text, font: font, size: 13, at: origin)
            let before = cache.misses
            for _ in 0..<2 {
                fast.render(s1.root, at: 0, into: a.view)
                reference.render(s2.root, at: 0, into: b.view)
            }
            XCTAssertEqual(maximumDifference(a.view, b.view).0, 0, "row \(row): masks equal outlines")
            if row >= 300 { madeAfterWarmUp += cache.misses - before }
        }
        // "Row " and the digits 0-9: 13 glyphs with outlines, 16 places each.
        XCTAssertLessThanOrEqual(cache.misses, 13 * 16)
        XCTAssertEqual(madeAfterWarmUp, 0, "the last 100 labels found every mask made")
    }

    /// Text moving by fractions of a pixel is drawn from outlines: no
    /// masks made once per frame and thrown away.
    func testFractionalMotionStaysOnOutlines() {
        let cache = CoverageMaskCache(budget: 1 << 20)
        let compositor = Compositor()
        compositor.glyphMasks = cache
        let s = scene("Sliding text", font: font, size: 14, at: Point(x: 4, y: 4))
        let target = Surface<ARGB8888>(width: 240, height: 90)!
        for i in 0..<20 {
            s.text.position = Point(x: 4 + Double(i) * 0.37, y: 4)
            compositor.render(s.root, at: 0, into: target.view)
        }
        XCTAssertEqual(cache.hits + cache.misses, 0, "fractional motion does not use the masks")
        // Whole-pixel motion keeps the sub-pixel place: masks from the
        // second frame on, made once and remembered.
        for i in 0..<20 {
            s.text.position = Point(x: 4 + Double(i), y: 4)
            compositor.render(s.root, at: 0, into: target.view)
        }
        XCTAssertLessThanOrEqual(cache.misses, "Sliding text".count)
        XCTAssertGreaterThan(rememberedMasks(s.text), 8)
    }

    /// Static text recoloured every frame (LVGL's "multiple labels"): no
    /// heap allocation per frame once the masks are made.
    func testRecolouredTextAllocatesNothingPerFrame() {
        let compositor = Compositor()
        compositor.glyphMasks = CoverageMaskCache(budget: 1 << 20)
        let s = scene("Hello LVGL! Hello again.", font: font, size: 18, at: Point(x: 4, y: 4))
        let target = Surface<ARGB8888>(width: 240, height: 90)!
        var perFrame: [UInt64] = []
        for i in 0..<40 {
            s.text.foregroundColor = Color(rgb: UInt32(i * 0x050301) & 0xFFFFFF)
            if i >= 10 { fbr_malloc_counter_begin() }
            compositor.render(s.root, at: 0, into: target.view)
            if i >= 10 { perFrame.append(fbr_malloc_counter_end()) }
            XCTAssertGreaterThan(compositor.statistics.pixelsWritten, 0)
        }
        XCTAssertNoAllocations(perFrame, "heap allocations per frame")
    }

    // MARK: Text composed into one mask

    /// A text layer in one colour whose placement holds is drawn as one
    /// mask composed of its glyph masks: the same pixels, bit for bit, as
    /// the glyph-by-glyph blits (`composedTextBlits = false`), at several
    /// sizes, sub-pixel offsets and opacities, over partial damage, and
    /// after whole-pixel moves.
    func testComposedTextEqualsGlyphBlitsBitForBit() {
        let text = "Hello LVGL! Wavy fjord quiz 0123456789"
        var composedCount = 0
        for size in [10.0, 14, 16, 24.5] {
            for (dx, dy) in [(0.0, 0.0), (0.25, 0.5), (0.77, 0.62)] {
                for opacity in [1.0, 0.6] {
                    let cache = CoverageMaskCache(budget: 1 << 20)
                    let composed = Compositor(), perGlyph = Compositor()
                    composed.glyphMasks = cache
                    perGlyph.glyphMasks = cache
                    perGlyph.composedTextBlits = false
                    let s1 = scene(text, font: font, size: size, at: Point(x: 6 + dx, y: 4 + dy), opacity: opacity)
                    let s2 = scene(text, font: font, size: size, at: Point(x: 6 + dx, y: 4 + dy), opacity: opacity)
                    let a = Surface<ARGB8888>(width: 240, height: 90)!, b = Surface<ARGB8888>(width: 240, height: 90)!
                    for step in 0..<8 {
                        // Recoloured every frame, moved by whole pixels on
                        // some, and part of it damaged by a small layer.
                        let colour = Color(rgb: UInt32(0x103050 &+ step &* 0x0A0B0C) & 0xFFFFFF)
                        s1.text.foregroundColor = colour
                        s2.text.foregroundColor = colour
                        if step % 3 == 2 {
                            let p = Point(x: s1.text.position.x + 1, y: s1.text.position.y + Double(step % 2))
                            s1.text.position = p
                            s2.text.position = p
                        }
                        if step == 5 {
                            s1.text.foregroundColor = s1.text.foregroundColor     // unchanged: only damage below
                            composed.invalidate(IntRect(x: 30, y: 10, width: 17, height: 9))
                            perGlyph.invalidate(IntRect(x: 30, y: 10, width: 17, height: 9))
                        }
                        composed.render(s1.root, at: 0, into: a.view)
                        perGlyph.render(s2.root, at: 0, into: b.view)
                        XCTAssertEqual(maximumDifference(a.view, b.view).0, 0,
                                       "\(size) pt at (\(dx), \(dy)), opacity \(opacity), frame \(step)")
                    }
                    XCTAssertNil(s2.text.layoutCache.composed, "the reference blits glyph by glyph")
                    if s1.text.layoutCache.composed != nil { composedCount += 1 }
                }
            }
        }
        // Some placements have glyph masks that touch the same pixel (the
        // anti-aliased edges of neighbours): those stay glyph by glyph.
        XCTAssertGreaterThan(composedCount, 12, "most of the 24 texts were drawn composed")
        print("composed text: \(composedCount) of 24 texts composed")
    }

    /// The composed mask is made once per placement and layout, from the
    /// second stable draw on; a fractional move, a new string or an
    /// attributed string (colours per run) draw glyph by glyph again.
    func testComposedTextFollowsPlacementLayoutAndColours() {
        let compositor = Compositor()
        compositor.glyphMasks = CoverageMaskCache(budget: 1 << 20)
        let s = scene("Hello LVGL!", font: font, size: 16, at: Point(x: 4, y: 4))
        let target = Surface<ARGB8888>(width: 240, height: 90)!
        compositor.render(s.root, at: 0, into: target.view)
        XCTAssertNil(s.text.layoutCache.composed, "the first draw only learns the placement")
        compositor.invalidate()
        compositor.render(s.root, at: 0, into: target.view)
        let first = s.text.layoutCache.composed
        XCTAssertNotNil(first, "composed after the draw that made the glyph masks")
        XCTAssertLessThanOrEqual(first.map { $0.width * $0.height } ?? 0, 240 * 90)
        s.text.position = Point(x: 9, y: 7)          // whole pixels: kept
        compositor.render(s.root, at: 0, into: target.view)
        XCTAssertEqual(s.text.layoutCache.composed?.coverage, first?.coverage)
        s.text.position = Point(x: 9.5, y: 7)        // a fraction: gone
        compositor.render(s.root, at: 0, into: target.view)
        XCTAssertNil(s.text.layoutCache.composed)
        s.text.position = Point(x: 4, y: 4)
        compositor.render(s.root, at: 0, into: target.view)
        compositor.invalidate()
        compositor.render(s.root, at: 0, into: target.view)
        XCTAssertNotNil(s.text.layoutCache.composed)
        s.text.string = "Hello LVGM!"                // a new layout: made anew
        compositor.render(s.root, at: 0, into: target.view)
        XCTAssertNotEqual(s.text.layoutCache.composed?.coverage, first?.coverage)
        s.text.attributedString = [TextRun("Hello ", color: Color(rgb: 0xFF0000)), TextRun("LVGL!")]
        compositor.render(s.root, at: 0, into: target.view)
        compositor.render(s.root, at: 0, into: target.view)
        XCTAssertNil(s.text.layoutCache.composed, "colours per run are blitted glyph by glyph")
    }

    /// Glyph masks that share a pixel are not composed (adding or
    /// over-blending their coverage would not give the pixels two blits
    /// give); masks that only touch are, each byte where its glyph put it.
    func testOverlappingGlyphMasksAreNotComposed() {
        func mask(_ bytes: [UInt8], width: Int) -> GlyphMaskMemo {
            .mask(CoverageMask(coverage: bytes, left: 0, top: 0, width: width, height: bytes.count / width))
        }
        let a = mask([10, 20, 30, 40], width: 2), b = mask([50, 0, 60, 70], width: 2)
        func composed(_ offsetOfB: (Int, Int)) -> CoverageMask? {
            let cache = TextLayoutCache()
            cache.prepareMasks(count: 3)
            cache.setMask(0, a); cache.noteMaskOrigin(0, x: 3, y: -1)
            cache.setMask(1, .empty)
            cache.setMask(2, b); cache.noteMaskOrigin(2, x: 3 + offsetOfB.0, y: -1 + offsetOfB.1)
            cache.compose()
            return cache.composed
        }
        // Side by side: one 4×2 mask at (3, −1).
        let beside = composed((2, 0))
        XCTAssertEqual(beside?.coverage, [10, 20, 50, 0, 30, 40, 60, 70])
        XCTAssertEqual(beside.map { [$0.left, $0.top, $0.width, $0.height] }, [3, -1, 4, 2])
        // Overlapping where both cover: refused. Overlapping only where b
        // is 0 (its top right byte over a's bottom left): composed.
        XCTAssertNil(composed((1, 0)))
        XCTAssertNil(composed((0, 1)))
        let corner = composed((-1, 1))
        XCTAssertEqual(corner?.coverage, [0, 10, 20, 50, 30, 40, 60, 70, 0])
        // A glyph drawn from its outline: the text stays glyph by glyph.
        let cache = TextLayoutCache()
        cache.prepareMasks(count: 2)
        cache.setMask(0, a)
        cache.setMask(1, .outline)
        cache.compose()
        XCTAssertNil(cache.composed)
    }

    /// A right-aligned label whose width animates while its right edge
    /// stays put (a layout animation): its glyphs land on the same sub-pixel
    /// places frame after frame, give or take 10⁻¹³ pixel, so masks made in
    /// one frame are blitted in the next. Every frame equals the text drawn
    /// from outlines, bit for bit, whichever frame made the masks. (Before
    /// the places were snapped, `MaskPlacement`, a pixel on a rounding tie
    /// came out one level off: the settings demo's "Off" label after the
    /// Wi-Fi switch, in some board runs and not others.)
    func testMasksBlittedAtPlacesWithOneKeyEqualOutlinesBitForBit() {
        let (cache, fast, reference) = glyphCompositors(budget: 1 << 20)
        let a = Surface<ARGB8888>(width: 240, height: 90)!, b = Surface<ARGB8888>(width: 240, height: 90)!
        for size in [15.6, 16.0, 13.3] {
            let s1 = scene("Off", font: font, size: size, at: .zero), s2 = scene("Off", font: font, size: size, at: .zero)
            for t in [s1.text, s2.text] { t.alignmentMode = .right; t.isWrapped = false }
            for step in 0..<24 {
                // Widths from an ease-out toward 24.7, the right edge at 230.
                let u = 1 - Double(step) / 23
                let f = 1 - u * u * u
                let width = 60.123456789 + (24.71323390367416 - 60.123456789) * f
                for t in [s1.text, s2.text] {
                    t.bounds = Rect(x: 0, y: 0, width: width, height: 18.159375)
                    t.position = Point(x: 230 - width, y: 33.5796875)
                }
                for _ in 0..<2 { fast.invalidate(); fast.render(s1.root, at: 0, into: a.view) }
                reference.invalidate()
                reference.render(s2.root, at: 0, into: b.view)
                let (w, _) = maximumDifference(a.view, b.view)
                XCTAssertEqual(w, 0, "\(size) pt, step \(step)")
            }
            XCTAssertGreaterThan(rememberedMasks(s1.text), 0, "\(size) pt: drawn from masks")
        }
        XCTAssertGreaterThan(cache.hits, 0, "masks made in one frame were blitted in another")
    }
}
