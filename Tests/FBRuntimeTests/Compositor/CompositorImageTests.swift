import FBRuntime
import Raster
import TestSupport
import XCTest

/// The layer image: goldens for each feature (tolerance `goldenTolerance`
/// per channel, for rounding differences between machines), the SIMD and
/// reference kernels agreeing on every scene, statistics, bad input.
final class CompositorImageTests: XCTestCase {
    /// Largest per-channel difference a golden comparison allows.
    let goldenTolerance: UInt32 = 2

    // MARK: Helpers

    func layer(_ name: String, _ x: Double, _ y: Double, _ w: Double, _ h: Double, color: UInt32? = nil) -> Layer {
        solidLayer(name, x, y, w, h, color)
    }

    func root(_ w: Double, _ h: Double, color: UInt32 = 0x202830) -> Layer { layer("root", 0, 0, w, h, color: color) }

    /// A `w × h` image: four coloured quadrants (red, green, blue, yellow
    /// clockwise from the top left) and a white top-left texel, opaque.
    func quadrants(_ w: Int, _ h: Int) -> LayerContents {
        let s = Surface<ARGB8888>(width: w, height: h)!
        for y in 0..<h {
            for x in 0..<w {
                let left = x < w / 2, top = y < h / 2
                s.view.row(y)[x] = top ? (left ? 0xFFE0_3030 : 0xFF30_C040) : (left ? 0xFFF0_D020 : 0xFF30_60E0)
            }
        }
        s.view.row(0)[0] = 0xFFFF_FFFF
        return LayerContents(s, isOpaque: true)
    }

    /// Renders with SIMD kernels, checks the reference kernels give the same
    /// pixels, compares with the golden, returns the frame and statistics.
    @discardableResult
    func renderAndCompare(_ root: Layer, _ w: Int, _ h: Int, golden: String?, scale: Double = 1,
                          file: StaticString = #filePath, line: UInt = #line) throws -> (PixelView<ARGB8888>, FrameStatistics) {
        let display = try XCTUnwrap(HeadlessDisplay(width: w, height: h))
        let compositor = Compositor(scale: scale)
        display.renderFrame(root, with: compositor)
        let reference = try XCTUnwrap(HeadlessDisplay(width: w, height: h))
        reference.renderFrame(root, with: Compositor(scale: scale, kernels: .reference))
        XCTAssertEqual(pixelChecksum(display.framebuffer.view), pixelChecksum(reference.framebuffer.view),
                       "SIMD and reference kernels differ", file: file, line: line)
        if let golden {
            let result = compareWithGolden(display.framebuffer.view, name: golden, tolerance: goldenTolerance)
            XCTAssertTrue(result.passed, result.message, file: file, line: line)
        }
        return (display.framebuffer.view, compositor.statistics)
    }

    func channels(_ p: UInt32) -> [Int] { [Int(p >> 24), Int((p >> 16) & 0xFF), Int((p >> 8) & 0xFF), Int(p & 0xFF)] }

    func assertClose(_ a: UInt32, _ b: UInt32, _ tolerance: Int, _ message: String = "", file: StaticString = #filePath, line: UInt = #line) {
        let d = zip(channels(a), channels(b)).map { Swift.abs($0 - $1) }.max()!
        XCTAssertLessThanOrEqual(d, tolerance, "0x\(String(a, radix: 16)) vs 0x\(String(b, radix: 16)) \(message)", file: file, line: line)
    }

    // MARK: Goldens

    func testCornerRadiusMasksToBoundsAndBorder() throws {
        let r = root(96, 64)
        let card = layer("card", 8, 8, 80, 48, color: 0x3366CC)
        card.cornerRadius = 14
        card.masksToBounds = true
        card.borderWidth = 3
        card.borderColor = Color(rgb: 0xF0F0F0)
        let sticker = layer("sticker", -10, -10, 34, 30, color: 0xE04040)   // overhangs the top-left corner
        try card.addSublayer(sticker)
        let bar = layer("bar", 60, 30, 40, 8, color: 0x40D080)               // overhangs the right edge
        try card.addSublayer(bar)
        try r.addSublayer(card)
        let (v, stats) = try renderAndCompare(r, 96, 64, golden: "layer-rounded-clip-border")
        XCTAssertEqual(v[9, 9], 0xFF20_2830, "outside the rounded corner: the root shows")
        XCTAssertEqual(v[30, 9], 0xFFF0_F0F0, "the border lies above the sticker")
        XCTAssertEqual(v[92, 33], 0xFF20_2830, "the bar is clipped at the right edge")
        XCTAssertEqual(v[20, 20], 0xFFE0_4040, "the sticker inside the card")
        XCTAssertEqual(stats.offscreenPasses, 1, "one rounded clip pass")
        // Square corners on whole pixels: a plain clip rectangle, no pass.
        card.cornerRadius = 0
        let (v2, stats2) = try renderAndCompare(r, 96, 64, golden: nil)
        XCTAssertEqual(stats2.offscreenPasses, 0)
        XCTAssertEqual(v2[7, 20], 0xFF20_2830)
        XCTAssertEqual(v2[12, 12], 0xFFE0_4040)
    }

    func testContentsGravityFamiliesAndContentsRect() throws {
        let r = root(200, 40)
        let image = quadrants(16, 12)
        let gravities: [ContentsGravity] = [.center, .resize, .resizeAspect, .resizeAspectFill, .topLeft]
        var cells: [Layer] = []
        for (i, g) in gravities.enumerated() {
            let cell = layer("cell", 4 + Double(i) * 39, 10, 36, 20, color: 0x505860)
            cell.contents = image
            cell.contentsGravity = g
            cell.magnificationFilter = .nearest
            cell.minificationFilter = .nearest
            cell.masksToBounds = g == .resizeAspectFill
            cells.append(cell)
            try r.addSublayer(cell)
        }
        cells[4].contentsRect = Rect(x: 0.5, y: 0, width: 0.5, height: 1)   // the right half: green over blue
        let (v, _) = try renderAndCompare(r, 200, 40, golden: "layer-contents-gravity")
        // center: 16×12 at (4 + 10, 10 + 4).
        XCTAssertEqual(v[14, 14], 0xFFFF_FFFF)
        XCTAssertEqual(v[13, 14], 0xFF50_5860)
        XCTAssertEqual(v[29, 25], 0xFF30_60E0)
        XCTAssertEqual(v[30, 25], 0xFF50_5860)
        // resize: the whole cell.
        XCTAssertEqual(v[43, 10], 0xFFFF_FFFF)
        XCTAssertEqual(v[43 + 35, 29], 0xFF30_60E0)
        // resizeAspect: 20 high → 26.67 wide, centred (x from 82 + 4.67).
        XCTAssertEqual(v[85, 20], 0xFF50_5860)
        XCTAssertEqual(v[87, 10], 0xFFFF_FFFF)
        XCTAssertEqual(v[88, 10], 0xFFE0_3030)
        // resizeAspectFill: 36 wide → 27 high, overhang clipped by masksToBounds.
        XCTAssertEqual(v[121, 10], 0xFFE0_3030)
        XCTAssertEqual(v[121, 9], 0xFF20_2830)
        // topLeft with the right half of the image: 8×12 at (160, 10).
        XCTAssertEqual(v[160, 10], 0xFF30_C040)
        XCTAssertEqual(v[167, 21], 0xFF30_60E0)
        XCTAssertEqual(v[168, 21], 0xFF50_5860)
    }

    /// An image 12×12 with 4-texel corner squares in four colours, edges
    /// grey, centre white.
    func ninePartImage() -> LayerContents {
        let s = Surface<ARGB8888>(width: 12, height: 12)!
        for y in 0..<12 {
            for x in 0..<12 {
                let cx = x < 4 ? 0 : (x < 8 ? 1 : 2), cy = y < 4 ? 0 : (y < 8 ? 1 : 2)
                var c: UInt32 = 0xFF80_8080
                switch (cx, cy) {
                case (0, 0): c = 0xFFE0_3030
                case (2, 0): c = 0xFF30_C040
                case (0, 2): c = 0xFF30_60E0
                case (2, 2): c = 0xFFF0_D020
                case (1, 1): c = 0xFFFF_FFFF
                default: break
                }
                s.view.row(y)[x] = c
            }
        }
        return LayerContents(s, isOpaque: true)
    }

    func testNinePartContentsCenter() throws {
        let r = root(120, 80)
        let straight = layer("straight", 4, 4, 60, 30)
        straight.contents = ninePartImage()
        straight.contentsCenter = Rect(x: 1.0 / 3, y: 1.0 / 3, width: 1.0 / 3, height: 1.0 / 3)
        straight.magnificationFilter = .nearest
        try r.addSublayer(straight)
        let turned = layer("turned", 60, 40, 50, 24)
        turned.anchorPoint = Point(x: 0.5, y: 0.5)
        turned.position = Point(x: 84, y: 56)
        turned.transform = .rotation(radians: 0.35, x: 0, y: 0, z: 1)
        turned.contents = ninePartImage()
        turned.contentsCenter = straight.contentsCenter
        try r.addSublayer(turned)
        let (v, stats) = try renderAndCompare(r, 120, 80, golden: "layer-contents-nine-part")
        // Corners keep their 4 points; the edges and centre stretch.
        XCTAssertEqual(v[4, 4], 0xFFE0_3030)
        XCTAssertEqual(v[7, 7], 0xFFE0_3030)
        XCTAssertEqual(v[8, 8], 0xFFFF_FFFF)
        XCTAssertEqual(v[63, 4], 0xFF30_C040)
        XCTAssertEqual(v[60, 4], 0xFF30_C040)
        XCTAssertEqual(v[59, 4], 0xFF80_8080)
        XCTAssertEqual(v[63, 33], 0xFFF0_D020)
        XCTAssertEqual(v[30, 20], 0xFFFF_FFFF)
        XCTAssertEqual(stats.offscreenPasses, 1, "the turned one goes through an intermediate image")
    }

    func testRotatedLayerWithCornerRadiusAndBorder() throws {
        let r = root(96, 96)
        let card = layer("card", 48, 48, 60, 40, color: 0x2E86AB)
        card.anchorPoint = Point(x: 0.5, y: 0.5)
        card.transform = .rotation(radians: .pi / 6, x: 0, y: 0, z: 1)
        card.cornerRadius = 10
        card.borderWidth = 4
        card.borderColor = Color(rgb: 0xF2A541)
        card.masksToBounds = true
        let stripe = layer("stripe", -5, 16, 70, 8, color: 0xE84855)
        try card.addSublayer(stripe)
        try r.addSublayer(card)
        let (v, stats) = try renderAndCompare(r, 96, 96, golden: "layer-rotated-rounded-border")
        XCTAssertEqual(v[48, 48], 0xFFE8_4855, "the stripe crosses the centre")
        XCTAssertEqual(stats.offscreenPasses, 1, "the rotated clip goes offscreen")
        XCTAssertGreaterThan(stats.pixelsBlended, 0)
    }

    func testPerspectivePlane() throws {
        let r = root(128, 96)
        r.anchorPoint = Point(x: 0.5, y: 0.5)                     // the vanishing point: the centre
        r.position = Point(x: 64, y: 48)
        r.sublayerTransform = .perspective(distance: 150)
        let plane = layer("plane", 64, 48, 80, 60, color: 0x3B4A63)
        plane.anchorPoint = Point(x: 0.5, y: 0.5)
        plane.transform = .rotation(radians: 0.9, x: 0, y: 1, z: 0)
        plane.contents = quadrants(8, 6)
        plane.contentsGravity = .resizeAspect
        plane.magnificationFilter = .nearest
        plane.cornerRadius = 12
        plane.borderWidth = 3
        plane.borderColor = .white
        try r.addSublayer(plane)
        let (v, _) = try renderAndCompare(r, 128, 96, golden: "layer-perspective-plane")
        // A rotation about y by +0.9 brings the left edge nearer: it is
        // taller, and the vanishing point (the root's centre) keeps the
        // trapezoid symmetric about the middle row.
        func rows(atColumn x: Int) -> [Int] { (0..<96).filter { v[x, $0] != 0xFF20_2830 } }
        let columns = (0..<128).filter { !rows(atColumn: $0).isEmpty }
        let left = try XCTUnwrap(columns.first) + 3, right = try XCTUnwrap(columns.last) - 3
        XCTAssertGreaterThan(rows(atColumn: left).count, rows(atColumn: right).count + 10)
        for x in [left, right] {
            let r = rows(atColumn: x)
            XCTAssertEqual(Double(r.first! + r.last!) / 2, 47.5, accuracy: 1.0)
        }
    }

    func shadowScene(path: Bool) -> Layer {
        let r = root(96, 72, color: 0xE8E8E8)
        let card = layer("card", 20, 14, 50, 36, color: 0xFFFFFF)
        card.cornerRadius = 8
        card.shadowOpacity = 0.6
        card.shadowRadius = 5
        card.shadowOffset = Size(width: 4, height: 6)
        if path { card.shadowPath = Path(roundedRect: 0, 0, 50, 36, radii: CornerRadii(8)) }
        try! r.addSublayer(card)
        return r
    }

    func testShadowWithAndWithoutShadowPath() throws {
        let display = try XCTUnwrap(HeadlessDisplay(width: 96, height: 72))
        let compositor = Compositor()
        let withPath = shadowScene(path: true)
        display.renderFrame(withPath, with: compositor)
        XCTAssertEqual(compositor.statistics.shadowsRasterized, 1)
        XCTAssertEqual(compositor.statistics.offscreenPasses, 0, "a path shadow needs no offscreen pass")
        display.renderFrame(withPath, with: compositor)
        XCTAssertEqual(compositor.statistics.shadowsRasterized, 0, "the blurred path is cached")
        withPath.sublayers[0].shadowRadius = 6
        display.renderFrame(withPath, with: compositor)
        XCTAssertEqual(compositor.statistics.shadowsRasterized, 1, "a new radius rebuilds it")
        withPath.sublayers[0].shadowColor = Color(rgb: 0x203080)
        withPath.sublayers[0].shadowOpacity = 0.4
        display.renderFrame(withPath, with: compositor)
        XCTAssertEqual(compositor.statistics.shadowsRasterized, 0, "the cached coverage has no colour: a new colour or opacity reuses it")
        withPath.sublayers[0].shadowColor = Color(rgb: 0x000000)
        withPath.sublayers[0].shadowOpacity = 0.6
        withPath.sublayers[0].shadowRadius = 5

        let (a, _) = try renderAndCompare(withPath, 96, 72, golden: "layer-shadow-path")
        let (b, stats) = try renderAndCompare(shadowScene(path: false), 96, 72, golden: "layer-shadow-alpha")
        XCTAssertEqual(stats.offscreenPasses, 2, "the layer image and its blurred alpha")
        // Both ways cast the same shape: close everywhere.
        var worst = 0
        for y in 0..<72 { for x in 0..<96 { worst = Swift.max(worst, zip(channels(a[x, y]), channels(b[x, y])).map { Swift.abs($0 - $1) }.max()!) } }
        XCTAssertLessThanOrEqual(worst, 6)
        // Below and right of the card (offset (4, 6)) it is darker than the
        // root; above-left it is not.
        XCTAssertLessThan(a[72, 52] & 0xFF, 0xE0)
        XCTAssertEqual(a[17, 11], 0xFFE8_E8E8)
        XCTAssertEqual(a[40, 30], 0xFFFF_FFFF, "the card covers its shadow")
    }

    func testMaskLayer() throws {
        let r = root(80, 60)
        let photo = layer("photo", 10, 5, 60, 50)
        photo.contents = quadrants(12, 10)
        photo.magnificationFilter = .nearest
        let mask = layer("mask", 5, 0, 50, 50, color: 0xFFFFFF)
        mask.cornerRadius = 25                                   // a disc
        let hole = layer("hole", 20, 20, 10, 10)
        hole.backgroundColor = Color(rgb: 0, alpha: 0.5)
        hole.compositingOperator = .dstOut                       // punches the disc's alpha down to ½
        try mask.addSublayer(hole)
        photo.mask = mask
        try r.addSublayer(photo)
        let (v, stats) = try renderAndCompare(r, 80, 60, golden: "layer-mask")
        XCTAssertEqual(v[12, 7], 0xFF20_2830, "outside the disc")
        // The hole: the photo (blue quadrant) at ½ over the root.
        assertClose(v[40, 30], 0xFF28_4588, 1, "the half-punched hole")
        XCTAssertEqual(v[30, 12], 0xFFE0_3030, "inside the disc, top-left quadrant")
        XCTAssertEqual(stats.offscreenPasses, 2, "the layer image and the mask")
    }

    /// The 2011 "see the track through the knob" case: a track and a knob
    /// overlapping inside a parent at 50 % opacity.
    func groupScene(groups: Bool) -> Layer {
        let r = root(80, 40)
        let slider = layer("slider", 0, 0, 80, 40)
        slider.opacity = 0.5
        slider.allowsGroupOpacity = groups
        let track = layer("track", 8, 16, 64, 8, color: 0x3080FF)
        track.cornerRadius = 4
        let knob = layer("knob", 30, 6, 28, 28, color: 0xFFFFFF)
        knob.cornerRadius = 14
        try! slider.addSublayer(track)
        try! slider.addSublayer(knob)
        try! r.addSublayer(slider)
        return r
    }

    func testGroupOpacityOnAndOff() throws {
        let (on, onStats) = try renderAndCompare(groupScene(groups: true), 80, 40, golden: "layer-group-opacity-on")
        XCTAssertEqual(onStats.offscreenPasses, 1)
        // On: where the knob covers the track the pixel is the knob alone at
        // 50 % over the root, like a knob pixel off the track.
        assertClose(on[44, 20], on[44, 9], 1, "overlap vs knob only")
        let (off, offStats) = try renderAndCompare(groupScene(groups: false), 80, 40, golden: "layer-group-opacity-off")
        XCTAssertEqual(offStats.offscreenPasses, 0)
        XCTAssertNotEqual(off[44, 20], off[44, 9], "off: the track shows through the knob")
        assertClose(off[44, 9], on[44, 9], 1, "a knob pixel off the track is the same either way")
    }

    func testIsDoubleSidedCulling() throws {
        let r = root(64, 64)
        let card = layer("card", 32, 32, 40, 40, color: 0xFFFFFF)
        card.anchorPoint = Point(x: 0.5, y: 0.5)
        try r.addSublayer(card)
        let child = layer("child", 5, 5, 10, 10, color: 0xFF0000)
        try card.addSublayer(child)
        for (angle, doubleSided, drawn) in [(0.4, false, true), (Double.pi - 0.3, false, false), (Double.pi - 0.3, true, true),
                                             (Double.pi + 0.3, false, false), (-0.4, false, true)] {
            card.transform = .rotation(radians: angle, x: 0, y: 1, z: 0)
            card.isDoubleSided = doubleSided
            let (v, stats) = try renderAndCompare(r, 64, 64, golden: nil)
            XCTAssertEqual(v[32, 32] == 0xFFFF_FFFF, drawn, "angle \(angle), double-sided \(doubleSided)")
            XCTAssertEqual(stats.layersCulled, drawn ? 0 : 1)
            XCTAssertEqual(stats.layersDrawn, drawn ? 3 : 1, "a culled layer takes its sublayers with it")
        }
        // A container with empty bounds is judged by its map, not its area.
        card.transform = .rotation(radians: 0.4, x: 0, y: 1, z: 0)
        card.isDoubleSided = false
        card.bounds = Rect(x: 0, y: 0, width: 0, height: 0)
        child.position = Point(x: -5, y: -5)
        let (cv, cstats) = try renderAndCompare(r, 64, 64, golden: nil)
        XCTAssertEqual(cstats.layersCulled, 0)
        XCTAssertEqual(cv[32, 32], 0xFFFF_0000)
        card.bounds = Rect(x: 0, y: 0, width: 40, height: 40)
        child.position = Point(x: 5, y: 5)
        // isGeometryFlipped mirrors the sublayers' space but is not the back.
        card.transform = .identity
        card.isDoubleSided = false
        card.isGeometryFlipped = true
        child.isDoubleSided = false
        let (_, stats) = try renderAndCompare(r, 64, 64, golden: nil)
        XCTAssertEqual(stats.layersCulled, 0)
    }

    func testMaskedCornersAndScale() throws {
        let r = root(40, 40)
        let l = layer("l", 5, 5, 15, 15, color: 0xFFFFFF)
        l.cornerRadius = 6
        l.maskedCorners = [.minXMinY, .maxXMaxY]                 // top-left and bottom-right on screen
        try r.addSublayer(l)
        let (v, _) = try renderAndCompare(r, 40, 40, golden: nil, scale: 2)
        XCTAssertEqual(v[10, 10], 0xFF20_2830, "top-left rounded (scale 2: the layer is at 10…40 px)")
        XCTAssertEqual(v[39, 10], 0xFFFF_FFFF, "top-right square")
        XCTAssertEqual(v[10, 39], 0xFFFF_FFFF, "bottom-left square")
        XCTAssertEqual(v[39, 39], 0xFF20_2830, "bottom-right rounded")
        XCTAssertEqual(v[25, 25], 0xFFFF_FFFF)
    }

    // MARK: Statistics and steady state

    func testStatisticsAndSteadyStateAllocation() throws {
        let r = groupScene(groups: true)
        r.sublayers[0].sublayers[1].shadowOpacity = 0.5           // the knob casts an image shadow
        let display = try XCTUnwrap(HeadlessDisplay(width: 80, height: 40))
        let compositor = Compositor()
        display.renderFrame(r, with: compositor)
        let first = compositor.statistics
        XCTAssertEqual(first.layersDrawn, 4)
        XCTAssertEqual(first.offscreenPasses, 3, "group, knob image, knob shadow")
        XCTAssertGreaterThan(first.surfacesAllocated, 0)
        XCTAssertGreaterThanOrEqual(first.pixelsWritten, 80 * 40)
        XCTAssertLessThanOrEqual(first.pixelsBlended, first.pixelsWritten)
        compositor.invalidate()                                   // a full frame again (see DamageTests)
        display.renderFrame(r, with: compositor)
        XCTAssertEqual(compositor.statistics.surfacesAllocated, 0, "steady state reuses the pooled surfaces")
        XCTAssertEqual(compositor.statistics.offscreenPasses, first.offscreenPasses)
        // A plain opaque rectangle: written, not blended, no pass.
        let plain = root(16, 16)
        plain.addSublayerForTest(layer("box", 2, 2, 4, 4, color: 0xFFFFFF))
        display.renderFrame(plain, with: compositor)
        XCTAssertEqual(compositor.statistics.offscreenPasses, 0)
        XCTAssertEqual(compositor.statistics.pixelsBlended, 0)
        // A new scene into the same target: only what changed is redrawn, and
        // opaque layers are not drawn over (the root covers the clear, the
        // box the root's background).
        XCTAssertEqual(compositor.statistics.pixelsWritten, 80 * 40)
    }

    func testCompositingOperator() throws {
        let r = root(32, 16, color: 0x808080)
        let a = layer("a", 0, 0, 16, 16, color: 0x000000)
        a.backgroundColor = Color(rgb: 0xFF0000, alpha: 0.5)
        a.compositingOperator = .src                              // replaces, bounded to the layer
        try r.addSublayer(a)
        let (v, _) = try renderAndCompare(r, 32, 16, golden: nil)
        assertClose(v[4, 4], 0x8080_0000, 1)
        XCTAssertEqual(v[20, 4], 0xFF80_8080)
        // A layer with only a sublayer: the operator applies to its image
        // (one group), not to nothing.
        a.backgroundColor = nil
        a.addSublayerForTest(layer("inner", 0, 0, 8, 8, color: 0x000000))
        a.sublayers[0].backgroundColor = Color(rgb: 0x0000FF, alpha: 0.5)
        let (w, stats) = try renderAndCompare(r, 32, 16, golden: nil)
        XCTAssertEqual(stats.offscreenPasses, 1)
        assertClose(w[2, 2], 0x8000_0080, 1, "src replaces inside the image")
        XCTAssertEqual(w[12, 12], 0, "the group is composited as its pixel rectangle: src clears the rest of it")
        XCTAssertEqual(w[20, 4], 0xFF80_8080, "outside the rectangle the root stays")
    }

    // MARK: Bad input

    func testBadInputIsClampedOrSkipped() throws {
        let r = root(64, 48)
        for bad in [Double.nan, .infinity, -.infinity] {
            let l = layer("bad", 4, 4, 20, 20, color: 0xFFFFFF)
            l.cornerRadius = bad
            l.borderWidth = bad
            l.shadowOpacity = 1
            l.shadowRadius = bad
            l.shadowOffset = Size(width: bad, height: bad)
            l.contents = quadrants(4, 4)
            l.contentsRect = Rect(x: bad, y: 0, width: 1, height: 1)
            l.contentsCenter = Rect(x: 0, y: bad, width: 1, height: 1)
            l.opacity = 0.5
            l.contentsScale = bad
            try r.addSublayer(l)
            let singular = layer("singular", 10, 10, 20, 20, color: 0xFF0000)
            singular.transform = .scale(x: 0, y: 1)
            singular.cornerRadius = 4
            singular.masksToBounds = true
            singular.shadowOpacity = 1
            try singular.addSublayer(layer("inner", 0, 0, 5, 5, color: 0x00FF00))
            try r.addSublayer(singular)
        }
        try renderAndCompare(r, 64, 48, golden: nil)   // must not trap

        // A 100000-point-wide layer: drawn clipped; offscreen surfaces stay
        // within the target plus the shadow margin.
        let wide = root(64, 48)
        let strip = layer("strip", -50_000, 10, 100_000, 20, color: 0x3366CC)
        strip.cornerRadius = 6
        strip.masksToBounds = true
        strip.opacity = 0.7
        strip.borderWidth = 2
        try strip.addSublayer(layer("dot", 50_010, 5, 8, 8, color: 0xFFFFFF))
        let shadowed = layer("shadowed", -50_000, 34, 100_000, 10, color: 0xFFFFFF)
        shadowed.shadowOpacity = 1
        shadowed.shadowRadius = 1e6
        try wide.addSublayer(strip)
        try wide.addSublayer(shadowed)
        let (v, stats) = try renderAndCompare(wide, 64, 48, golden: nil)
        XCTAssertNotEqual(v[5, 12], 0xFF20_2830, "the strip is drawn")
        // The radius is clamped to 256 px (margin 386): the image pass and
        // the shadow are at most the target grown by that margin each way.
        let grown = (64 + 2 * 386) * (48 + 2 * 386)
        XCTAssertLessThan(stats.pixelsWritten, 64 * 48 * 20 + 4 * grown, "no giant offscreen work")

        // contentsScale ≤ 0 counts as 1.
        let scaled = root(32, 32)
        let c = layer("c", 0, 0, 32, 32)
        c.contents = quadrants(8, 8)
        c.contentsGravity = .topLeft
        c.contentsScale = 0
        try scaled.addSublayer(c)
        let (sv, _) = try renderAndCompare(scaled, 32, 32, golden: nil)
        XCTAssertEqual(sv[7, 7], 0xFF30_60E0)
        XCTAssertEqual(sv[8, 8], 0xFF20_2830)
    }

    /// 10000 nested layers: no stack overflow; layers at depth
    /// `Compositor.maximumDepth` and below are not drawn (documented clamp).
    func testDeepNestingIsClamped() throws {
        let r = root(32, 32)
        var parent = r
        for i in 0..<10_000 {
            let l = layer("n\(i)", 0, 0, 32, 32)
            if i % 100 == 0 { l.backgroundColor = Color(rgb: 0x101010 * UInt32(1 + i / 1000 % 9)) }
            l.opacity = 0.999
            l.allowsGroupOpacity = i % 2 == 0
            try parent.addSublayer(l)
            parent = l
        }
        let display = try XCTUnwrap(HeadlessDisplay(width: 32, height: 32))
        let compositor = Compositor()
        display.renderFrame(r, with: compositor)
        XCTAssertEqual(compositor.statistics.layersDrawn, Compositor.maximumDepth)
    }
}

extension Layer {
    func addSublayerForTest(_ l: Layer) { try! addSublayer(l) }
}
