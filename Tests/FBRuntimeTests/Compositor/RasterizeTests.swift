@testable import FBRuntime
import Raster
import XCTest

/// `shouldRasterize`: the bitmap cache, against the same scene drawn
/// without rasterizing.
final class RasterizeTests: XCTestCase {
    func layer(_ name: String, _ x: Double, _ y: Double, _ w: Double, _ h: Double, color: UInt32? = nil,
               alpha: Double = 1) -> Layer {
        let l = Layer(name: name)
        l.bounds = Rect(x: 0, y: 0, width: w, height: h)
        l.anchorPoint = .zero
        l.position = Point(x: x, y: y)
        if let color { l.backgroundColor = Color(rgb: color, alpha: alpha) }
        return l
    }

    /// A 64×48 card: a background, a translucent sublayer, a rounded one
    /// that overhangs, and a border.
    func card(_ name: String, _ x: Double, _ y: Double) -> Layer {
        let c = layer(name, x, y, 64, 48, color: 0x3366CC)
        c.borderWidth = 2
        c.borderColor = Color(rgb: 0xF0F0F0)
        let a = layer("a", 6, 6, 30, 20, color: 0xFFCC00, alpha: 0.6)
        let b = layer("b", 30, 20, 30, 24, color: 0x20C060)
        b.cornerRadius = 6
        try! c.addSublayer(a)
        try! c.addSublayer(b)
        c.shouldRasterize = true
        return c
    }

    func largestChannelDifference(_ a: PixelView<ARGB8888>, _ b: PixelView<ARGB8888>) -> Int {
        var worst = 0
        for y in 0..<a.height {
            for x in 0..<a.width {
                let p = a[x, y], q = b[x, y]
                for shift in stride(from: 0, through: 24, by: 8) {
                    worst = max(worst, abs(Int((p >> UInt32(shift)) & 0xFF) - Int((q >> UInt32(shift)) & 0xFF)))
                }
            }
        }
        return worst
    }

    /// The same tree drawn with rasterization off everywhere.
    func unrasterized(_ root: Layer, width: Int, height: Int) -> Surface<ARGB8888> {
        var flagged: [Layer] = []
        func visit(_ l: Layer) {
            if l.shouldRasterize { flagged.append(l); l.shouldRasterize = false }
            l.sublayers.forEach(visit)
        }
        visit(root)
        let s = Surface<ARGB8888>(width: width, height: height)!
        Compositor().render(root, at: 0, into: s.view)
        for l in flagged { l.shouldRasterize = true }
        return s
    }

    func testAnUnchangedRasterizedSubtreeCostsOneCopyPerFrame() throws {
        let w = 200, h = 150
        let root = layer("root", 0, 0, Double(w), Double(h), color: 0x202830)
        let c = card("card", 20, 30)
        try root.addSublayer(c)
        let target = Surface<ARGB8888>(width: w, height: h)!
        let compositor = Compositor()
        compositor.render(root, at: 0, into: target.view)
        var s = compositor.statistics
        XCTAssertEqual(s.rasterizeCacheMisses, 1)
        XCTAssertEqual(s.rasterizeCacheHits, 0)
        XCTAssertEqual(s.offscreenPasses, 1, "the bitmap")
        // Its image matches the layers drawn one by one, within 1 per
        // channel: the bitmap is blended in premultiplied steps of its own
        // before it is composited (a different rounding order).
        XCTAssertLessThanOrEqual(largestChannelDifference(target.view, unrasterized(root, width: w, height: h).view), 1)

        // Full frames: the root's background, then one copy of the bitmap.
        for _ in 0..<3 {
            compositor.invalidate()
            compositor.render(root, at: 0, into: target.view)
            s = compositor.statistics
            XCTAssertEqual(s.rasterizeCacheHits, 1)
            XCTAssertEqual(s.rasterizeCacheMisses, 0)
            XCTAssertEqual(s.offscreenPasses, 0)
            XCTAssertEqual(s.pixelsWritten, w * h + 64 * 48)
            XCTAssertEqual(s.surfacesAllocated, 0)
        }
        // Moving it: a hit; the damage redrawn plus one copy of the bitmap.
        c.position = Point(x: 27, y: 33)
        compositor.render(root, at: 0, into: target.view)
        s = compositor.statistics
        XCTAssertEqual(s.rasterizeCacheHits, 1)
        XCTAssertEqual(s.offscreenPasses, 0)
        XCTAssertEqual(s.pixelsWritten, compositor.damage.area + 64 * 48)
        XCTAssertLessThanOrEqual(largestChannelDifference(target.view, unrasterized(root, width: w, height: h).view), 1)
        // Nothing changed: nothing drawn, no lookup.
        compositor.render(root, at: 0, into: target.view)
        XCTAssertEqual(compositor.statistics.pixelsWritten, 0)

        // Changing a sublayer: a miss, and the new image is right.
        c.sublayers[0].backgroundColor = Color(rgb: 0xFF00FF)
        compositor.render(root, at: 0, into: target.view)
        s = compositor.statistics
        XCTAssertEqual(s.rasterizeCacheMisses, 1)
        XCTAssertEqual(s.rasterizeCacheHits, 0)
        XCTAssertLessThanOrEqual(largestChannelDifference(target.view, unrasterized(root, width: w, height: h).view), 1)

        // Under a transform the bitmap is resampled: still a hit.
        c.transform = Transform3D(rotationAngle: 0.3, x: 0, y: 0, z: 1)
        compositor.render(root, at: 0, into: target.view)
        XCTAssertEqual(compositor.statistics.rasterizeCacheHits, 1)
        XCTAssertEqual(compositor.statistics.rasterizeCacheMisses, 0)
    }

    /// `rasterizationScale` is the bitmap's pixels per point of the
    /// layer's own space, as in Core Animation (issue 22): neither
    /// `contentsScale` nor the display's scale multiply it. Before, both
    /// did, so the iOS recipe (rasterizationScale = the screen's scale) made
    /// a 4 px/pt bitmap on a 2× panel, 4× the memory, whose downsampled
    /// edges were far off the direct drawing.
    func testRasterizationScaleSetsTheBitmapDensity() throws {
        let root = layer("root", 0, 0, 100, 80, color: 0x000000)
        let c = card("card", 10, 10)
        c.rasterizationScale = 2
        c.contentsScale = 3                                   // not part of it
        try root.addSublayer(c)
        let target = Surface<ARGB8888>(width: 200, height: 160)!
        let compositor = Compositor(scale: 2)
        compositor.render(root, at: 0, into: target.view)
        let e = try XCTUnwrap(compositor.rasterizeCache.entry(for: c).image)
        XCTAssertEqual(e.width, 64 * 2)
        XCTAssertEqual(e.height, 48 * 2)
        XCTAssertEqual(compositor.rasterizeCacheBytes, e.rowStride * e.height * 4)
        // The default, 1, on the 2× display: a bitmap of 1 px/pt, magnified.
        c.rasterizationScale = 1
        compositor.render(root, at: 0, into: target.view)
        let low = try XCTUnwrap(compositor.rasterizeCache.entry(for: c).image)
        XCTAssertEqual(low.width, 64)
        XCTAssertEqual(low.height, 48)
    }

    /// Rasterized at the display's scale, the layer looks as drawn
    /// directly, within ±1 per channel: on a compositor of scale 2, and on
    /// a panel magnified by the root's transform (the app shell's
    /// `Screen.scale`), in place and moved by whole and half pixels.
    func testRasterizedAtTheDisplayScaleEqualsTheDirectDrawing() throws {
        func scene(_ rasterize: Bool, rootScale: Double, offset: Double) -> Layer {
            let root = layer("root", 0, 0, 100, 80, color: 0x000000)
            root.transform = Transform3D(scaleX: rootScale, y: rootScale, z: 1)
            root.anchorPoint = .zero
            let c = card("card", 10 + offset, 10)
            c.shouldRasterize = rasterize
            c.rasterizationScale = 2
            try! root.addSublayer(c)
            return root
        }
        for (compositorScale, rootScale) in [(2.0, 1.0), (1.0, 2.0)] {
            for offset in [0.0, 1.0, 0.5] {
                let direct = Surface<ARGB8888>(width: 200, height: 160)!, cached = Surface<ARGB8888>(width: 200, height: 160)!
                Compositor(scale: compositorScale).render(scene(false, rootScale: rootScale, offset: offset), at: 0, into: direct.view)
                let compositor = Compositor(scale: compositorScale)
                compositor.render(scene(true, rootScale: rootScale, offset: offset), at: 0, into: cached.view)
                XCTAssertEqual(compositor.statistics.rasterizeCacheMisses, 1)
                let worst = largestChannelDifference(direct.view, cached.view)
                // Half a point is a whole pixel at 2×: still a plain copy.
                XCTAssertLessThanOrEqual(worst, 1, "scale \(compositorScale) × \(rootScale), offset \(offset)")
            }
        }
    }

    func testExceedingTheBudgetEvictsTheLeastRecentlyUsed() throws {
        let root = layer("root", 0, 0, 240, 60, color: 0x000000)
        let cards = [card("a", 0, 0), card("b", 80, 0), card("c", 160, 0)]
        for c in cards { try root.addSublayer(c) }
        cards[2].isHidden = true
        let target = Surface<ARGB8888>(width: 240, height: 60)!
        let compositor = Compositor()
        let oneBitmap = 64 * 48 * 4
        compositor.rasterizeCacheBudget = 2 * oneBitmap
        compositor.render(root, at: 0, into: target.view)          // a, b rendered
        XCTAssertEqual(compositor.statistics.rasterizeCacheMisses, 2)
        XCTAssertEqual(compositor.rasterizeCacheBytes, 2 * oneBitmap)
        // Use b alone: a becomes the least recently used.
        cards[1].position.y = 2
        compositor.render(root, at: 0, into: target.view)
        XCTAssertEqual(compositor.statistics.rasterizeCacheHits, 1)
        // c appears: a is evicted, b stays.
        cards[2].isHidden = false
        compositor.render(root, at: 0, into: target.view)
        XCTAssertEqual(compositor.statistics.rasterizeCacheMisses, 1)
        XCTAssertTrue(compositor.rasterizeCache.contains(cards[1]))
        XCTAssertTrue(compositor.rasterizeCache.contains(cards[2]))
        XCTAssertFalse(compositor.rasterizeCache.contains(cards[0]))
        XCTAssertLessThanOrEqual(compositor.rasterizeCacheBytes, compositor.rasterizeCacheBudget)
        // a, drawn again, is a miss.
        cards[0].position.y = 3
        compositor.render(root, at: 0, into: target.view)
        XCTAssertEqual(compositor.statistics.rasterizeCacheMisses, 1)
        // A budget smaller than one bitmap: drawn directly, still right.
        compositor.rasterizeCacheBudget = oneBitmap / 2
        XCTAssertEqual(compositor.rasterizeCacheBytes, 0)
        compositor.invalidate()
        compositor.render(root, at: 0, into: target.view)
        XCTAssertEqual(compositor.statistics.rasterizeCacheMisses, 3)
        XCTAssertLessThanOrEqual(largestChannelDifference(target.view, unrasterized(root, width: 240, height: 60).view), 1)
    }
}
