@testable import FBRuntime
@testable import FBText
import Raster
import XCTest
import Foundation

/// Every cache the render path keeps between frames, asked for far more
/// than its budget: what it holds stays within the documented budget, and
/// what it draws equals a render by a fresh compositor (nothing cached, the
/// default budgets) of the same tree at the same time — so eviction costs
/// time, never pixels.
///
/// Budgets: the rasterize cache (`Compositor.rasterizeCacheBudget`), the
/// shadow images (`shadowCacheBudget`), the free offscreen surfaces of each
/// pool (`offscreenPoolBudget`) and a font's glyph outlines
/// (`GlyphCache.budget`). Mip chains are not a cache of their own: each
/// lives on its `LayerContents` (⅓ of the image's bytes) and goes with it.
final class CacheBudgetTests: XCTestCase {
    func layer(_ name: String, _ x: Double, _ y: Double, _ w: Double, _ h: Double, color: UInt32? = nil,
               alpha: Double = 1) -> Layer {
        let l = Layer(name: name)
        l.bounds = Rect(x: 0, y: 0, width: w, height: h)
        l.anchorPoint = .zero
        l.position = Point(x: x, y: y)
        if let color { l.backgroundColor = Color(rgb: color, alpha: alpha) }
        return l
    }

    /// The tree rendered from scratch by a new compositor.
    func freshRender(_ root: Layer, at time: MediaTime, width: Int, height: Int) -> Surface<ARGB8888> {
        let s = Surface<ARGB8888>(width: width, height: height)!
        Compositor().render(root, at: time, into: s.view)
        return s
    }

    func assertSamePixels(_ a: PixelView<ARGB8888>, _ b: PixelView<ARGB8888>, _ what: String,
                          file: StaticString = #filePath, line: UInt = #line) {
        for y in 0..<a.height {
            for x in 0..<a.width where a[x, y] != b[x, y] {
                return XCTFail("\(what): first difference at (\(x), \(y)): \(String(a[x, y], radix: 16)) vs \(String(b[x, y], radix: 16))",
                               file: file, line: line)
            }
        }
    }

    // MARK: Rasterize cache

    func testRasterizeCacheStaysWithinItsBudgetAndDrawsAsUncached() {
        let width = 480, height = 200
        let root = layer("root", 0, 0, Double(width), Double(height), color: 0x101820)
        var cards: [Layer] = []
        for i in 0..<40 {
            let c = layer("card\(i)", Double(i % 10) * 46, Double(i / 10) * 48, 40, 40, color: 0x3366CC + UInt32(i) * 0x050301)
            c.cornerRadius = 6
            c.masksToBounds = true
            let dot = layer("dot", 8, 8, 20, 14, color: 0xFFCC00, alpha: 0.6)
            try! c.addSublayer(dot)
            c.shouldRasterize = true
            try! root.addSublayer(c)
            cards.append(c)
        }
        let oneBitmap = 40 * 40 * 4
        let compositor = Compositor()
        compositor.rasterizeCacheBudget = 5 * oneBitmap       // 40 layers want 8× that
        let target = Surface<ARGB8888>(width: width, height: height)!
        var misses = 0
        for frame in 0..<8 {
            // A different quarter of the cards changes each frame; the rest move.
            for (i, c) in cards.enumerated() {
                if i % 4 == frame % 4 { c.sublayers[0].position.x = Double(4 + frame) }
                c.position.y = Double(i / 10) * 48 + Double(frame % 3)
            }
            compositor.render(root, at: 0, into: target.view)
            misses += compositor.statistics.rasterizeCacheMisses
            XCTAssertLessThanOrEqual(compositor.rasterizeCacheBytes, compositor.rasterizeCacheBudget, "frame \(frame)")
            XCTAssertLessThanOrEqual(compositor.rasterizeCache.count, 5, "frame \(frame)")
            assertSamePixels(target.view, freshRender(root, at: 0, width: width, height: height).view, "frame \(frame)")
        }
        XCTAssertGreaterThan(misses, 40, "the budget was too large to evict anything")
        // Shrinking the budget evicts at once.
        compositor.rasterizeCacheBudget = oneBitmap
        XCTAssertLessThanOrEqual(compositor.rasterizeCacheBytes, oneBitmap)
    }

    // MARK: Shadow cache

    /// `count` layers casting `shadowPath` shadows of different sizes.
    func shadowScene(count: Int, width: Int, height: Int) -> (root: Layer, casters: [Layer]) {
        let root = layer("root", 0, 0, Double(width), Double(height), color: 0xE0E0E0)
        var casters: [Layer] = []
        for i in 0..<count {
            let w = 20 + Double(i % 5) * 6, h = 16 + Double(i % 3) * 5
            let l = layer("caster\(i)", 10 + Double(i % 8) * 58, 10 + Double(i / 8) * 50, w, h, color: 0x2060A0)
            l.shadowPath = Path(roundedRect: 0, 0, w, h, radii: CornerRadii(Double(i % 4) * 2))
            l.shadowOpacity = 0.8
            l.shadowRadius = 3 + Double(i % 3)
            l.shadowOffset = Size(width: 2, height: 3)
            try! root.addSublayer(l)
            casters.append(l)
        }
        return (root, casters)
    }

    // The shadow image lives on its layer (`renderCache`), so the oracle
    // renders a twin tree: with the same tree it would find the images the
    // compositor under test made.

    func testShadowCacheStaysWithinItsBudgetAndDrawsAsUncached() {
        let width = 480, height = 200
        let (root, casters) = shadowScene(count: 30, width: width, height: height)
        let (twin, twinCasters) = shadowScene(count: 30, width: width, height: height)
        let compositor = Compositor()
        compositor.shadowCacheBudget = 24 * 1024               // a few of the ~30 images
        let target = Surface<ARGB8888>(width: width, height: height)!
        var rasterized = 0
        for frame in 0..<6 {
            for (i, l) in casters.enumerated() where i % 3 == frame % 3 { l.position.x += 1; twinCasters[i].position.x += 1 }
            compositor.render(root, at: 0, into: target.view)
            rasterized += compositor.statistics.shadowsRasterized
            XCTAssertLessThanOrEqual(compositor.shadowCacheBytes, 24 * 1024, "frame \(frame)")
            assertSamePixels(target.view, freshRender(twin, at: 0, width: width, height: height).view, "frame \(frame)")
        }
        XCTAssertGreaterThan(rasterized, 30, "nothing was evicted: the budget held every shadow")
        XCTAssertGreaterThan(compositor.shadowCacheBytes, 0)
        // With the default budget everything fits: one image per caster, no rebuilds.
        let ample = Compositor(), another = shadowScene(count: 30, width: width, height: height).root
        ample.render(another, at: 0, into: target.view)
        XCTAssertEqual(ample.statistics.shadowsRasterized, 30)
        ample.render(another, at: 0, into: target.view)
        XCTAssertEqual(ample.statistics.shadowsRasterized, 0)
        XCTAssertEqual(ample.shadowImages.count, 30)
        // Shrinking the budget evicts at once.
        ample.shadowCacheBudget = 4096
        XCTAssertLessThanOrEqual(ample.shadowCacheBytes, 4096)
    }

    func testAShadowLargerThanTheBudgetIsDrawnButNotKept() {
        let width = 160, height = 120
        let (root, _) = shadowScene(count: 3, width: width, height: height)
        let compositor = Compositor()
        compositor.shadowCacheBudget = 512                      // smaller than any one image
        let target = Surface<ARGB8888>(width: width, height: height)!
        for frame in 0..<3 {
            compositor.invalidate()
            compositor.render(root, at: 0, into: target.view)
            XCTAssertEqual(compositor.statistics.shadowsRasterized, 3, "rebuilt each frame drawn (frame \(frame))")
            XCTAssertEqual(compositor.shadowCacheBytes, 0)
            assertSamePixels(target.view, freshRender(shadowScene(count: 3, width: width, height: height).root, at: 0,
                                                      width: width, height: height).view, "frame \(frame)")
        }
    }

    func testShadowImagesOfLayersThatWentAwayAreFreed() {
        let width = 480, height = 200
        var scene: (root: Layer, casters: [Layer])? = shadowScene(count: 12, width: width, height: height)
        let compositor = Compositor()
        let target = Surface<ARGB8888>(width: width, height: height)!
        compositor.render(scene!.root, at: 0, into: target.view)
        XCTAssertEqual(compositor.shadowImages.count, 12)
        scene = nil                                              // the whole tree goes
        let (root, casters) = shadowScene(count: 1, width: width, height: height)
        compositor.render(root, at: 0, into: target.view)
        XCTAssertEqual(compositor.shadowImages.count, 1, "the old layers' images were freed with the next insertion")
        let image = casters[0].renderCache!.image!
        XCTAssertEqual(compositor.shadowCacheBytes, image.rowStride * image.height)
    }

    // MARK: Offscreen surface pools

    func testSurfacePoolKeepsFreeSurfacesWithinItsBudget() {
        let pool = SurfacePool<ARGB8888>()
        pool.budgetBytes = 1 << 20
        var views: [PixelView<ARGB8888>] = []
        for i in 0..<24 { views.append(pool.acquire(width: 100 + 37 * i, height: 90 + 11 * i)!) }
        for v in views.reversed() {                            // the largest first: they go again
            pool.release(v)
            XCTAssertLessThanOrEqual(pool.freeBytes, 1 << 20)
        }
        XCTAssertGreaterThan(pool.freeBytes, 0, "the most recently released still fit")
        // What is kept is reused: a small request needs no new surface.
        pool.allocations = 0
        let again = pool.acquire(width: 64, height: 64)!
        XCTAssertEqual(pool.allocations, 0)
        pool.release(again)
        pool.budgetBytes = 0
        XCTAssertEqual(pool.freeBytes, 0)
    }

    /// Regression (fuzz target animation, seed regression-tall-offscreen-pass):
    /// a pass taller than `RasterLimits.maxDimension` got a surface rounded
    /// down to the limit and was cleared past its end.
    func testAPassBeyondTheRasterLimitsGetsNoSurface() {
        let pool = SurfacePool<ARGB8888>()
        XCTAssertNil(pool.acquire(width: 796, height: 1_048_986))
        XCTAssertNil(pool.acquire(width: RasterLimits.maxDimension + 1, height: 10))
        let edge = pool.acquire(width: 10, height: RasterLimits.maxDimension)
        XCTAssertEqual(edge?.height, RasterLimits.maxDimension)
        // Through the compositor: a group (opacity over a sublayer) whose
        // image shadow is thrown a million points down needs a pass a
        // million pixels tall. It is drawn without the pass (a warning),
        // which here looks the same as the group drawn without its far-off
        // shadow.
        func frame(shadow: Bool) -> Surface<ARGB8888> {
            let root = layer("root", 0, 0, 32, 32, color: 0x000000)
            let tall = layer("tall", -400, -524_000, 796, 1_048_986, color: 0x3366CC)
            tall.opacity = 0.5
            try! tall.addSublayer(layer("sub", 0, 0, 20, 20, color: 0xFFCC00))
            if shadow {
                tall.shadowOpacity = 1
                tall.shadowOffset = Size(width: 0, height: -1_000_000)
            }
            try! root.addSublayer(tall)
            let s = Surface<ARGB8888>(width: 32, height: 32)!
            Compositor().render(root, at: 0, into: s.view)
            return s
        }
        assertSamePixels(frame(shadow: true).view, frame(shadow: false).view, "far shadow")
    }

    func testOffscreenPoolsStayWithinTheirBudgetAndDrawAsUncached() {
        let width = 320, height = 200
        let root = layer("root", 0, 0, Double(width), Double(height), color: 0x202020)
        var groups: [Layer] = []
        for i in 0..<16 {
            // Group opacity over overlapping sublayers: an offscreen pass each.
            let g = layer("group\(i)", Double(i % 4) * 78, Double(i / 4) * 48, 70, 44)
            g.opacity = 0.6
            try! g.addSublayer(layer("a", 0, 0, 40, 30, color: 0xCC3030))
            try! g.addSublayer(layer("b", 20, 10, 48, 32, color: 0x30CC30))
            try! root.addSublayer(g)
            groups.append(g)
        }
        let compositor = Compositor()
        compositor.offscreenPoolBudget = 16 * 1024             // smaller than two passes
        let target = Surface<ARGB8888>(width: width, height: height)!
        var passes = 0
        for frame in 0..<6 {
            for (i, g) in groups.enumerated() {                // sizes change frame to frame
                g.bounds.size = Size(width: 70 + Double((i + frame) % 5) * 13, height: 44 + Double(frame % 3) * 9)
            }
            compositor.render(root, at: 0, into: target.view)
            passes += compositor.statistics.offscreenPasses
            XCTAssertLessThanOrEqual(compositor.colorPool.freeBytes, 16 * 1024, "frame \(frame)")
            XCTAssertLessThanOrEqual(compositor.coveragePool.freeBytes, 16 * 1024, "frame \(frame)")
            XCTAssertLessThanOrEqual(compositor.offscreenPoolFreeBytes, 2 * 16 * 1024)
            assertSamePixels(target.view, freshRender(root, at: 0, width: width, height: height).view, "frame \(frame)")
        }
        XCTAssertGreaterThan(passes, 16, "the scene made no offscreen passes")
    }

    // MARK: Glyph cache

    func testGlyphCacheStaysWithinItsBudgetAndDrawsAsUncached() throws {
        let path = TextTests.dejaVu
        try XCTSkipUnless(FileManager.default.fileExists(atPath: path), "DejaVu Sans (fonts-dejavu-core) is not installed")
        let budget = 6 * 1024
        let small = try Font(path: path, glyphCache: GlyphCache(budget: budget))
        let ample = try Font(path: path)
        var text = ""
        for v in 0x21...0x7E { text.unicodeScalars.append(Unicode.Scalar(v)!) }
        for v in 0xC0...0xFF { text.unicodeScalars.append(Unicode.Scalar(v)!) }
        func render(_ font: Font, _ string: String) -> Surface<ARGB8888> {
            let root = layer("root", 0, 0, 300, 160, color: 0x000000)
            let t = TextLayer()
            t.font = font
            t.fontSize = 14
            t.string = string
            t.bounds = Rect(x: 0, y: 0, width: 290, height: 150)
            t.anchorPoint = .zero
            t.position = Point(x: 5, y: 5)
            try! root.addSublayer(t)
            let s = Surface<ARGB8888>(width: 300, height: 160)!
            Compositor().render(root, at: 0, into: s.view)
            return s
        }
        for pass in 0..<2 {
            let a = render(small, text), b = render(ample, text)
            XCTAssertLessThanOrEqual(small.glyphCache.bytesUsed, budget, "pass \(pass)")
            assertSamePixels(a.view, b.view, "pass \(pass)")
        }
        XCTAssertGreaterThan(small.glyphCache.evictions, 50, "the text fitted the budget")
        // Outline by outline through every glyph id of the font: never over
        // the budget, and each outline equals the font's own.
        for glyph in UInt32(0)..<600 {
            XCTAssertEqual(small.outline(of: glyph).points, small.loadOutline(glyph).points)
            XCTAssertLessThanOrEqual(small.glyphCache.bytesUsed, budget)
        }
    }
}
