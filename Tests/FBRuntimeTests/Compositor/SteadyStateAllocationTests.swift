import FBRuntime
import MallocCounter
import Raster
import TestSupport
import XCTest

/// Issue 4: a steady-state frame allocates nothing on the heap. The
/// MallocCounter hook (linked into the test binary) counts the allocations
/// the rendering thread makes while counting is on.
final class SteadyStateAllocationTests: XCTestCase {
    /// The oracle itself: the hook is the process's malloc and sees an
    /// allocation Swift makes (so a zero below means something).
    func testHookCountsAllocations() {
        XCTAssertEqual(fbr_malloc_counter_is_active(), 1, "the malloc hook is not the malloc this process calls")
        fbr_malloc_counter_begin()
        let array = [Int](repeating: 7, count: 1000)
        let object = Layer(name: "counted")
        let counted = fbr_malloc_counter_end()
        XCTAssertGreaterThanOrEqual(counted, 2, "an array and an object were allocated")
        // Counts are asserted where the build is optimised (`AllocationChecks`).
        XCTAssertEqual(AllocationChecks.areAsserted, !_isDebugAssertConfiguration())
        withExtendedLifetime((array, object)) {}
    }

    /// Choosing a kernel for any operator is a lookup: after the first
    /// choice (which builds the tables), no choice allocates — also for
    /// operators without a dedicated loop (the additive emitter's `plus`).
    func testKernelChoiceAllocatesNothing() {
        _ = KernelTable.image(.plus, alpha: 255, sourceIsOpaque: false, family: .simd)
        _ = KernelTable.solid(.plus, color: 0x8040_2010, alpha: 255, family: .simd)
        _ = KernelTable.solidMask(.plus, color: 0x8040_2010, alpha: 255, family: .simd)
        _ = KernelTable.imageMask(.plus, alpha: 255, sourceIsOpaque: false, family: .simd)
        // Index loops over arrays made before counting: `for … in` and
        // array literals allocate by themselves in debug builds.
        let ops: [BlendOperator] = [.plus, .multiply, .xor, .colorDodge, .dstIn]
        let families: [KernelFamily] = [.simd, .reference]
        var found = 0
        fbr_malloc_counter_begin()
        var k = 0
        while k < ops.count * 4 {
            let op = ops[k / 4], family = families[k % 2], alpha: UInt32 = (k / 2) % 2 == 0 ? 128 : 255
            if let _ = KernelTable.image(op, alpha: alpha, sourceIsOpaque: false, family: family) { found += 1 }
            if let _ = KernelTable.solid(op, color: 0x8040_2010, alpha: alpha, family: family) { found += 1 }
            if let _ = KernelTable.solidMask(op, color: 0x8040_2010, alpha: alpha, family: family) { found += 1 }
            if let _ = KernelTable.imageMask(op, alpha: alpha, sourceIsOpaque: true, family: family) { found += 1 }
            k += 1
        }
        XCTAssertNoAllocations(fbr_malloc_counter_end())
        XCTAssertEqual(found, 5 * 2 * 2 * 4, "every choice found its kernel")
    }

    /// Counting is per thread: allocations of another thread do not count.
    func testOtherThreadsDoNotCount() throws {
        fbr_malloc_counter_begin()
        let thread = try Thread {
            for _ in 0..<100 { _ = [Int](repeating: 1, count: 64).count }
        }
        thread.join()
        let counted = fbr_malloc_counter_end()
        // Starting and joining a thread allocates on this thread a little;
        // the other thread's 100 arrays must not be there.
        XCTAssertLessThan(counted, 100)
    }

    func image(_ size: Int) -> LayerContents {
        let s = Surface<ARGB8888>(width: size, height: size)!
        for y in 0..<size { for x in 0..<size { s.view[x, y] = 0xFF00_0000 | UInt32(x * 255 / size) << 16 | UInt32(y * 255 / size) << 8 | 0x40 } }
        return LayerContents(s, isOpaque: true)
    }

    /// A scene with every per-frame feature: rounded corners with
    /// `masksToBounds` around contents (bilinear and trilinear), a border,
    /// shadows with and without `shadowPath`, group opacity, a mask layer,
    /// sublayers out of `zPosition` order, and animations of position,
    /// rotation, opacity and bounds running. Every animation repeats with
    /// a period of 0.5 s (or a divisor of it).
    func makeScene(at time: MediaTime) -> Layer {
        let root = Layer(name: "root")
        root.bounds = Rect(x: 0, y: 0, width: 240, height: 160)
        root.anchorPoint = .zero
        root.backgroundColor = Color(rgb: 0x202830)

        let photo = Layer(name: "photo")
        photo.bounds = Rect(x: 0, y: 0, width: 60, height: 44)
        photo.position = Point(x: 50, y: 40)
        photo.contents = image(64)
        photo.cornerRadius = 8
        photo.masksToBounds = true
        photo.borderWidth = 2
        photo.borderColor = Color(rgb: 0xFFFFFF)

        let mip = Layer(name: "mip")
        mip.bounds = Rect(x: 0, y: 0, width: 30, height: 30)
        mip.position = Point(x: 130, y: 30)
        mip.contents = image(128)
        mip.minificationFilter = .trilinear
        mip.cornerRadius = 6
        mip.masksToBounds = true

        let card = Layer(name: "card")
        card.bounds = Rect(x: 0, y: 0, width: 50, height: 36)
        card.position = Point(x: 190, y: 40)
        card.backgroundColor = Color(rgb: 0xF2A541)
        card.cornerRadius = 7
        card.shadowOpacity = 0.5
        card.shadowRadius = 4
        card.shadowOffset = Size(width: 0, height: 3)
        card.shadowPath = Path(roundedRect: 0, 0, 50, 36, radii: CornerRadii(7))

        let glow = Layer(name: "glow")                 // shadow from the layer image
        glow.bounds = Rect(x: 0, y: 0, width: 40, height: 30)
        glow.position = Point(x: 50, y: 110)
        glow.backgroundColor = Color(rgb: 0x2E86AB)
        glow.cornerRadius = 10
        glow.shadowOpacity = 0.6
        glow.shadowRadius = 5

        let group = Layer(name: "group")
        group.bounds = Rect(x: 0, y: 0, width: 60, height: 50)
        group.position = Point(x: 120, y: 110)
        group.backgroundColor = Color(rgb: 0xE84855)
        group.cornerRadius = 9
        group.opacity = 0.5
        for (i, z) in [2.0, -1.0, 0.5].enumerated() {   // drawn in z order, not tree order
            let dot = Layer(name: "dot")
            dot.bounds = Rect(x: 0, y: 0, width: 26, height: 26)
            dot.position = Point(x: 15 + Double(i) * 15, y: 25)
            dot.cornerRadius = 13
            dot.zPosition = z
            dot.backgroundColor = Color(red: 0.2 * Double(i), green: 0.9, blue: 0.6)
            try! group.addSublayer(dot)
        }

        let masked = Layer(name: "masked")
        masked.bounds = Rect(x: 0, y: 0, width: 50, height: 50)
        masked.position = Point(x: 195, y: 110)
        masked.backgroundColor = Color(rgb: 0x9BC53D)
        let mask = Layer(name: "mask")
        mask.bounds = Rect(x: 0, y: 0, width: 40, height: 40)
        mask.position = Point(x: 25, y: 25)
        mask.cornerRadius = 20
        mask.backgroundColor = Color(rgb: 0xFFFFFF)
        masked.mask = mask

        for l in [photo, mip, card, glow, group, masked] { try! root.addSublayer(l) }

        func repeating(_ a: BasicAnimation, duration: Double = 0.5) -> BasicAnimation {
            var a = a
            a.duration = duration
            a.autoreverses = duration == 0.25
            a.repeatCount = .infinity
            return a
        }
        photo.add(repeating(BasicAnimation(key: .position, from: .point(photo.position), to: .point(Point(x: 70.3, y: 47.6)))),
                  forKey: "slide", at: time)
        mip.add(repeating(BasicAnimation(key: .transformRotationZ, from: .scalar(0), to: .scalar(2 * Double.pi))),
                forKey: "turn", at: time)
        card.add(repeating(BasicAnimation(key: .transformRotationZ, from: .scalar(0), to: .scalar(2 * Double.pi))),
                 forKey: "turn", at: time)
        glow.add(repeating(BasicAnimation(key: .positionX, from: .scalar(50), to: .scalar(62.5)), duration: 0.25),
                 forKey: "slide", at: time)
        group.add(repeating(BasicAnimation(key: .opacity, from: .scalar(0.3), to: .scalar(0.8)), duration: 0.25),
                  forKey: "fade", at: time)
        masked.add(repeating(BasicAnimation(key: .bounds, from: .rect(masked.bounds), to: .rect(Rect(x: 0, y: 0, width: 60, height: 44)))),
                   forKey: "grow", at: time)
        return root
    }

    /// After one period of the animations (the warm-up: pools, caches and
    /// scratch storage reach their size), the frames of the next period
    /// allocate nothing — drawing the same geometry as the warm-up did.
    func testSteadyStateFrameAllocatesNothing() throws {
        let start: MediaTime = 10
        let root = makeScene(at: start)
        let surface = try XCTUnwrap(Surface<ARGB8888>(width: 240, height: 160))
        let compositor = Compositor()
        let frames = 30                                     // 0.5 s at 60 Hz
        for i in 0..<frames { compositor.render(root, at: start + Double(i) / 60, into: surface.view) }
        var perFrame: [UInt64] = []
        perFrame.reserveCapacity(frames)
        var offscreenPasses = 0, shadowsRasterized = 0, layersDrawn = 0
        // FBR_ALLOC_TRACE=1 prints a backtrace of each allocation of the
        // first measured frame (to find where they come from).
        let trace = ProcessInfo.processInfo.environment["FBR_ALLOC_TRACE"] == "1"
        for i in frames..<(2 * frames) {
            let t = start + Double(i) / 60
            let traceFrame = Int(ProcessInfo.processInfo.environment["FBR_ALLOC_TRACE_FRAME"] ?? "") ?? 0
            fbr_malloc_counter_trace(trace && i == frames + traceFrame ? 1 : 0)
            fbr_malloc_counter_begin()
            compositor.render(root, at: t, into: surface.view)
            perFrame.append(fbr_malloc_counter_end())
            fbr_malloc_counter_trace(0)
            offscreenPasses = max(offscreenPasses, compositor.statistics.offscreenPasses)
            shadowsRasterized += compositor.statistics.shadowsRasterized
            layersDrawn = max(layersDrawn, compositor.statistics.layersDrawn)
        }
        XCTAssertNoAllocations(perFrame, "heap allocations per steady-state frame")
        // The frames did draw the features under test.
        XCTAssertGreaterThanOrEqual(offscreenPasses, 5, "clip passes, group, image shadow, mask")
        XCTAssertEqual(shadowsRasterized, 0, "the shadow path's image is cached")
        // Root, six layers, three dots, the mask — at least once (a layer
        // reaching several damage rectangles counts once for each).
        XCTAssertGreaterThanOrEqual(layersDrawn, 1 + 6 + 3 + 1)
    }

    /// A tiled layer moving about the screen with every tile present and
    /// faded in: its frames allocate nothing — the survey's marking and sweep, the
    /// per-tile damage check and the tile draws.
    func testTiledLayerSteadyStateAllocatesNothing() throws {
        final class Checker: TiledLayerDelegate {
            func drawTile(_ tile: Tile, in context: DrawingContext) {
                let odd = (tile.column + tile.row) & 1 == 1
                context.fill(tile.rect, color: odd ? Color(rgb: 0x3366CC) : Color(rgb: 0xF2A541))
            }
        }
        let root = Layer(name: "root")
        root.bounds = Rect(x: 0, y: 0, width: 240, height: 160)
        root.anchorPoint = .zero
        let tiled = TiledLayer()
        tiled.bounds = Rect(x: 0, y: 0, width: 150, height: 100)
        tiled.tileSize = Size(width: 32, height: 32)
        tiled.levelsOfDetail = 2
        tiled.tileDelegate = Checker()
        tiled.position = Point(x: 100, y: 70)
        try root.addSublayer(tiled)
        let start: MediaTime = 10
        var slide = BasicAnimation(key: .position, from: .point(tiled.position), to: .point(Point(x: 140.5, y: 90.25)))
        slide.duration = 0.5
        slide.repeatCount = .infinity
        tiled.add(slide, forKey: "slide", at: start)
        let surface = try XCTUnwrap(Surface<ARGB8888>(width: 240, height: 160))
        let compositor = Compositor()
        let frames = 30
        // Warm-up: the tiles are asked for, arrive, fade in (0.25 s).
        compositor.render(root, at: start, into: surface.view)
        XCTAssertTrue(tiled.waitForPendingTiles())
        for i in 0..<(2 * frames) { compositor.render(root, at: start + Double(i) / 60, into: surface.view) }
        XCTAssertTrue(tiled.waitForPendingTiles())
        let drawn = tiled.tileDrawCount
        var perFrame: [UInt64] = []
        perFrame.reserveCapacity(frames)
        for i in (2 * frames)..<(3 * frames) {
            fbr_malloc_counter_begin()
            compositor.render(root, at: start + Double(i) / 60, into: surface.view)
            perFrame.append(fbr_malloc_counter_end())
        }
        XCTAssertNoAllocations(perFrame, "heap allocations per steady-state frame")
        XCTAssertEqual(tiled.tileDrawCount, drawn, "no tile asked for again")
        XCTAssertEqual(tiled.levelInUse, 0)
        var blue = 0, orange = 0
        for y in 0..<160 { for x in 0..<240 {
            if surface.view[x, y] == 0xFF33_66CC { blue += 1 } else if surface.view[x, y] == 0xFFF2_A541 { orange += 1 }
        } }
        XCTAssertGreaterThan(blue, 5000, "the tiles are on screen")
        XCTAssertGreaterThan(orange, 5000, "the tiles are on screen")
    }
}
