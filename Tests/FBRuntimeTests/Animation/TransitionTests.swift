import FBRuntime
import MallocCounter
import Raster
import TestSupport
import XCTest

/// Transitions (fade, moveIn, push, reveal) and the default fade of
/// `contents` and `isHidden`. The oracles are renders of the scene's before
/// and after states made here without any transition, combined by the
/// test's own arithmetic (a blend, a shift by half the width); the goldens
/// show progress 0, ½ and 1 side by side.
final class TransitionTests: XCTestCase {
    private var clock = ManualClock()
    private var loop = AppRunLoop(clock: ManualClock())
    private var savedLoop: AppRunLoop?

    static let width = 96, height = 64
    /// The page's frame in the root, pixels.
    static let page = IntRect(x: 16, y: 8, width: 64, height: 48)
    static let background: UInt32 = 0xFF20_2830

    override func setUp() {
        savedLoop = AppRunLoop.current
        clock = ManualClock(now: 1)
        loop = AppRunLoop(clock: clock)
        AppRunLoop.current = loop
    }

    override func tearDown() {
        if let savedLoop { AppRunLoop.current = savedLoop }
    }

    // MARK: The scene

    /// A root with a 64×48 page: blue with an orange square at its top
    /// left (before), or green with a white square at its bottom right and
    /// a thin bar (after).
    final class Scene {
        let root = Layer(name: "root"), page = Layer(name: "page"), mark = Layer(name: "mark"), bar = Layer(name: "bar")
        init(after: Bool) {
            root.bounds = Rect(x: 0, y: 0, width: Double(TransitionTests.width), height: Double(TransitionTests.height))
            root.anchorPoint = .zero
            root.backgroundColor = Color(rgb: 0x202830)
            page.bounds = Rect(x: 0, y: 0, width: 64, height: 48)
            page.anchorPoint = .zero
            page.position = Point(x: 16, y: 8)
            mark.anchorPoint = .zero
            mark.bounds = Rect(x: 0, y: 0, width: 16, height: 16)
            bar.anchorPoint = .zero
            bar.bounds = Rect(x: 0, y: 0, width: 4, height: 48)
            bar.backgroundColor = Color(rgb: 0xE84855)
            try! page.addSublayer(mark)
            try! page.addSublayer(bar)
            try! root.addSublayer(page)
            setState(after: after)
        }
        func setState(after: Bool) {
            page.backgroundColor = Color(rgb: after ? 0x3BB273 : 0x2E86AB)
            mark.position = after ? Point(x: 40, y: 24) : Point(x: 8, y: 8)
            mark.backgroundColor = Color(rgb: after ? 0xFFFFFF : 0xF2A541)
            bar.isHidden = !after
        }
    }

    func render(_ root: Layer, at time: MediaTime) -> Surface<ARGB8888> {
        let s = Surface<ARGB8888>(width: TransitionTests.width, height: TransitionTests.height)!
        Compositor().render(root, at: time, into: s.view)
        return s
    }

    /// Renders of the before and after states without transitions.
    func oracles() -> (before: Surface<ARGB8888>, after: Surface<ARGB8888>) {
        (render(Scene(after: false).root, at: 0), render(Scene(after: true).root, at: 0))
    }

    /// A displayed scene in its before state with `transition` added and
    /// the subtree changed in one turn at time 1 (actions off for the
    /// change, so only the transition animates).
    func transitionedScene(_ transition: Transition) -> Scene {
        let scene = Scene(after: false)
        scene.root.isDisplayRoot = true
        loop.runTurn {
            try! scene.page.add(.transition(transition), forKey: Transition.key)
            Transaction.withoutActions { scene.setState(after: true) }
        }
        return scene
    }

    func channelsClose(_ a: UInt32, _ b: UInt32, _ tolerance: Int) -> Bool {
        for shift in stride(from: 0, through: 24, by: 8) {
            let x = Int((a >> UInt32(shift)) & 0xFF), y = Int((b >> UInt32(shift)) & 0xFF)
            if abs(x - y) > tolerance { return false }
        }
        return true
    }

    /// Counts pixels of `actual` differing from `expected(x, y)` by more
    /// than `tolerance` in a channel; reports the first.
    func assertImage(_ actual: Surface<ARGB8888>, tolerance: Int, _ what: String,
                     expected: (Int, Int) -> UInt32, file: StaticString = #filePath, line: UInt = #line) {
        var bad = 0
        var first = ""
        for y in 0..<actual.height {
            for x in 0..<actual.width where !channelsClose(actual.view[x, y], expected(x, y), tolerance) {
                if bad == 0 { first = "(\(x), \(y)): 0x\(String(actual.view[x, y], radix: 16)) expected 0x\(String(expected(x, y), radix: 16))" }
                bad += 1
            }
        }
        XCTAssertEqual(bad, 0, "\(what): \(bad) pixels differ, first at \(first)", file: file, line: line)
    }

    /// The golden: progress 0, ½ and 1 side by side.
    func assertGolden(_ frames: [Surface<ARGB8888>], name: String, file: StaticString = #filePath, line: UInt = #line) {
        let w = TransitionTests.width, h = TransitionTests.height
        let strip = Surface<ARGB8888>(width: w * frames.count, height: h)!
        for (i, f) in frames.enumerated() {
            for y in 0..<h { for x in 0..<w { strip.view[i * w + x, y] = f.view[x, y] } }
        }
        let result = compareWithGolden(strip.view, name: name, tolerance: 1)
        XCTAssertTrue(result.passed, result.message, file: file, line: line)
    }

    // MARK: Each type

    func check(_ type: TransitionType, _ subtype: TransitionSubtype, golden: String,
               middle: (_ x: Int, _ y: Int, _ before: UInt32, _ after: UInt32) -> UInt32?,
               file: StaticString = #filePath, line: UInt = #line) {
        let (before, after) = oracles()
        let duration = 0.5
        var t = Transition(type: type, subtype: subtype, duration: duration)
        t.timingFunction = .linear
        let rendered = Transition.imagesRendered
        let t0 = clock.now      // the commit time: the transition begins then
        let scene = transitionedScene(t)
        let frames = [0.0, 0.5, 1.0].map { p in render(scene.root, at: t0 + p * duration - (p == 1 ? 1e-9 : 0)) }
        // More frames: the before image is not rendered again.
        for k in 0..<5 { _ = render(scene.root, at: t0 + Double(k) * 0.1) }
        XCTAssertEqual(Transition.imagesRendered - rendered, 1, "one before image per transition", file: file, line: line)
        // Progress 0 shows the before state, 1 the after state.
        assertImage(frames[0], tolerance: 0, "\(golden) at 0", expected: { before.view[$0, $1] }, file: file, line: line)
        assertImage(frames[2], tolerance: 2, "\(golden) at 1", expected: { after.view[$0, $1] }, file: file, line: line)
        // Progress ½ against the test's own combination of the two.
        let page = TransitionTests.page
        assertImage(frames[1], tolerance: 2, "\(golden) at ½", expected: { x, y in
            guard x >= page.x, x < page.maxX, y >= page.y, y < page.maxY else { return before.view[x, y] }
            return middle(x - page.x, y - page.y, before.view[x, y], after.view[x, y]) ?? 0
        }, file: file, line: line)
        assertGolden(frames, name: golden, file: file, line: line)
        // After the end the layer draws itself again.
        loop.runTurn()
        clock.advance(by: 1)
        loop.runTurn()
        XCTAssertNil(scene.page.animation(forKey: Transition.key), "removed on completion", file: file, line: line)
    }

    func testFadeAtHalfIsTheBlendOfBeforeAndAfter() {
        check(.fade, .fromLeft, golden: "transition-fade") { _, _, b, a in
            var out: UInt32 = 0
            for shift in stride(from: 0 as UInt32, through: 24, by: 8) {
                out |= ((((b >> shift) & 0xFF) + ((a >> shift) & 0xFF) + 1) / 2) << shift
            }
            return out
        }
    }

    /// Page pixels of the before (`b`) or after (`a`) oracle at page-local
    /// (x, y), for the shifted images.
    func pagePixel(_ s: Surface<ARGB8888>, _ x: Int, _ y: Int) -> UInt32? {
        let page = TransitionTests.page
        guard x >= 0, x < page.width, y >= 0, y < page.height else { return nil }
        return s.view[page.x + x, page.y + y]
    }

    func testPushAtHalfShiftsBothImagesByHalfTheWidth() {
        let (before, after) = oracles()
        // fromLeft: the new page comes in from the left, the old leaves at the right.
        check(.push, .fromLeft, golden: "transition-push-fromLeft") { x, y, _, _ in
            x < 32 ? self.pagePixel(after, x + 32, y) : self.pagePixel(before, x - 32, y)
        }
        check(.push, .fromBottom, golden: "transition-push-fromBottom") { x, y, _, _ in
            y < 24 ? self.pagePixel(before, x, y + 24) : self.pagePixel(after, x, y - 24)
        }
    }

    func testMoveInSlidesTheNewImageOverTheOld() {
        let (before, after) = oracles()
        check(.moveIn, .fromRight, golden: "transition-moveIn-fromRight") { x, y, _, _ in
            x < 32 ? self.pagePixel(before, x, y) : self.pagePixel(after, x - 32, y)
        }
        check(.moveIn, .fromTop, golden: "transition-moveIn-fromTop") { x, y, _, _ in
            y < 24 ? self.pagePixel(after, x, y + 24) : self.pagePixel(before, x, y)
        }
    }

    func testRevealSlidesTheOldImageOff() {
        let (before, after) = oracles()
        check(.reveal, .fromLeft, golden: "transition-reveal-fromLeft") { x, y, _, _ in
            x < 32 ? self.pagePixel(after, x, y) : self.pagePixel(before, x - 32, y)
        }
        check(.reveal, .fromBottom, golden: "transition-reveal-fromBottom") { x, y, _, _ in
            y < 24 ? self.pagePixel(before, x, y + 24) : self.pagePixel(after, x, y)
        }
    }

    /// Damage tracking redraws the page as the transition moves, and what
    /// it redraws equals a full render.
    func testDamageTrackedFramesMatchFullRenders() {
        var t = Transition(type: .push, subtype: .fromRight, duration: 0.5)
        t.timingFunction = .easeInEaseOut
        let scene = transitionedScene(t)
        let target = Surface<ARGB8888>(width: TransitionTests.width, height: TransitionTests.height)!
        let compositor = Compositor()
        for k in 0...8 {
            let time = 1 + Double(k) * 0.0625
            compositor.render(scene.root, at: time, into: target.view)
            let full = render(scene.root, at: time)
            assertImage(target, tolerance: 0, "frame \(k)", expected: { full.view[$0, $1] })
        }
    }

    /// Once the before image is made and the first frames have grown the
    /// pools, a running transition's frames allocate nothing, for each type.
    func testRunningTransitionAllocatesNothingPerFrame() {
        for (type, subtype) in [(TransitionType.fade, TransitionSubtype.fromLeft), (.moveIn, .fromTop),
                                (.push, .fromRight), (.reveal, .fromBottom)] {
            var t = Transition(type: type, subtype: subtype, duration: 2)
            t.timingFunction = .easeInEaseOut
            let scene = transitionedScene(t)
            let target = Surface<ARGB8888>(width: TransitionTests.width, height: TransitionTests.height)!
            let compositor = Compositor()
            for k in 0..<30 { compositor.render(scene.root, at: 1 + Double(k) / 60, into: target.view) }
            var perFrame: [UInt64] = []
            perFrame.reserveCapacity(30)
            var k = 30
            while k < 60 {
                fbr_malloc_counter_begin()
                compositor.render(scene.root, at: 1 + Double(k) / 60, into: target.view)
                perFrame.append(fbr_malloc_counter_end())
                k += 1
            }
            XCTAssertNoAllocations(perFrame, "\(type) \(subtype)")
            XCTAssertGreaterThan(compositor.statistics.pixelsWritten, 0, "\(type): the page moved in the last frame")
        }
    }

    // MARK: The default fade

    func solid(_ argb: UInt32) -> LayerContents {
        let s = Surface<ARGB8888>(width: 8, height: 8)!
        for y in 0..<8 { s.view.row(y).update(repeating: argb, count: 8) }
        return LayerContents(s, isOpaque: true)
    }

    func expectedBlend(_ b: UInt32, _ a: UInt32, _ p: Double) -> UInt32 {
        var out: UInt32 = 0
        for shift in stride(from: 0 as UInt32, through: 24, by: 8) {
            let v = Double((b >> shift) & 0xFF) * (1 - p) + Double((a >> shift) & 0xFF) * p
            out |= UInt32(v.rounded()) << shift
        }
        return out
    }

    func testSettingContentsFadesByDefault() {
        let scene = Scene(after: false)
        scene.page.contents = solid(0xFF10_2040)
        scene.root.isDisplayRoot = true
        let before = render(scene.root, at: 1)
        let rendered = Transition.imagesRendered
        loop.runTurn {
            scene.page.contents = solid(0xFFC0_8020)
            scene.page.contents = solid(0xFFF0_E0D0)     // twice: one fade, from what was on screen
        }
        XCTAssertEqual(Transition.imagesRendered - rendered, 1)
        guard case let .transition(t)? = scene.page.animation(forKey: Transition.key) else { return XCTFail("no fade") }
        XCTAssertEqual(t.type, .fade)
        XCTAssertEqual(t.duration, 0.25)
        XCTAssertEqual(t.timingFunction, .default)
        let after = Transaction.withoutActions { () -> Surface<ARGB8888> in
            let s = Scene(after: false)
            s.page.contents = solid(0xFFF0_E0D0)
            return render(s.root, at: 0)
        }
        let p = TimingFunction.default.value(at: 0.5)
        let middle = render(scene.root, at: 1.125)
        assertImage(middle, tolerance: 2, "contents fade at ½ of the time") { x, y in
            self.expectedBlend(before.view[x, y], after.view[x, y], p)
        }
    }

    func testNoneActionAndDisabledActionsChangeContentsAtOnce() {
        let scene = Scene(after: false)
        scene.root.isDisplayRoot = true
        scene.page.actions[.contents] = LayerAction.none
        loop.runTurn { scene.page.contents = solid(0xFFC0_8020) }
        XCTAssertNil(scene.page.animation(forKey: Transition.key))
        scene.page.actions[.contents] = nil
        loop.runTurn { Transaction.withoutActions { scene.page.contents = solid(0xFF80_8080) } }
        XCTAssertNil(scene.page.animation(forKey: Transition.key))
        // Not displayed: never animates.
        let other = Scene(after: false)
        loop.runTurn { other.page.contents = solid(0xFFC0_8020); other.page.isHidden = true }
        XCTAssertNil(other.page.animation(forKey: Transition.key))
        // And the default does run when nothing overrides it.
        loop.runTurn { scene.page.contents = solid(0xFF40_4040) }
        XCTAssertNotNil(scene.page.animation(forKey: Transition.key))
    }

    /// Adding and removing sublayers fades the superlayer (CA's default for
    /// the `sublayers` key), from its image before the first edit of the
    /// transaction; `.none` turns it off.
    func testTreeEditsFadeTheSuperlayer() {
        let scene = Scene(after: false)
        scene.root.isDisplayRoot = true
        let before = render(scene.root, at: 1)
        let rendered = Transition.imagesRendered
        let added = Layer(name: "added")
        added.bounds = Rect(x: 0, y: 0, width: 10, height: 10)
        added.backgroundColor = .white
        loop.runTurn {
            try! scene.page.addSublayer(added)
            added.removeFromSuperlayer()
            try! scene.page.addSublayer(added)             // three edits, one fade
        }
        XCTAssertEqual(Transition.imagesRendered - rendered, 1)
        guard case let .transition(t)? = scene.page.animation(forKey: Transition.key) else { return XCTFail("no fade") }
        XCTAssertEqual(t.type, .fade)
        XCTAssertEqual(pixelChecksum(render(scene.root, at: 1).view), pixelChecksum(before.view), "progress 0 shows the tree before the edit")
        loop.runTurn { added.removeFromSuperlayer() }
        scene.page.removeAllAnimations()
        scene.page.actions[.sublayers] = LayerAction.none
        loop.runTurn { try! scene.page.addSublayer(added) }
        XCTAssertNil(scene.page.animation(forKey: Transition.key))
    }

    /// A layer drawing its own backing store (`draw(in:)`) sets `contents`
    /// when it is displayed: that is not the app's change and must not fade.
    func testBackingStoreRedrawsDoNotFade() {
        let scene = Scene(after: false)
        scene.root.isDisplayRoot = true
        let drawn = Layer(name: "drawn")
        Transaction.withoutActions {
            drawn.bounds = Rect(x: 0, y: 0, width: 8, height: 8)
            try! scene.page.addSublayer(drawn)
        }
        drawn.drawHandler = { _, context in context.fill(Rect(x: 0, y: 0, width: 8, height: 8), color: Color(rgb: 0xFF0000)) }
        let rendered = Transition.imagesRendered
        drawn.setNeedsDisplay()
        _ = render(scene.root, at: 1)
        XCTAssertNotNil(drawn.contents)
        XCTAssertNil(drawn.animation(forKey: Transition.key))
        XCTAssertEqual(Transition.imagesRendered, rendered)
    }

    func testHidingFadesTheLayerOut() {
        let scene = Scene(after: false)
        scene.root.isDisplayRoot = true
        let before = render(scene.root, at: 1)
        loop.runTurn { scene.page.isHidden = true }
        guard case .transition? = scene.page.animation(forKey: Transition.key) else { return XCTFail("no fade") }
        let p = TimingFunction.default.value(at: 0.5)
        let middle = render(scene.root, at: 1.125)
        assertImage(middle, tolerance: 2, "hidden at ½ of the time") { x, y in
            // The page's image faded by 1 − p over the background.
            self.expectedBlend(before.view[x, y], TransitionTests.background, p)
        }
        clock.advance(by: 0.3)
        loop.runTurn()
        XCTAssertNil(scene.page.animation(forKey: Transition.key))
        assertImage(render(scene.root, at: clock.now), tolerance: 0, "hidden") { _, _ in TransitionTests.background }
        // A delegate's `.none` turns the fade of showing it off.
        final class NoFade: LayerDelegate {
            func action(for layer: Layer, forKey key: AnimatableKey) -> LayerAction? { key == .hidden ? LayerAction.none : nil }
        }
        let delegate = NoFade()
        scene.page.delegate = delegate
        loop.runTurn { scene.page.isHidden = false }
        XCTAssertNil(scene.page.animation(forKey: Transition.key))
        scene.page.delegate = nil
    }

    // MARK: Bad input

    func testNaNDurationAndProgressClamp() {
        var t = Transition(type: .push, subtype: .fromTop, duration: .nan)
        t.startProgress = .nan
        t.endProgress = 7
        t.timingFunction = .linear
        let scene = transitionedScene(t)
        guard case let .transition(added)? = scene.page.animation(forKey: Transition.key) else { return XCTFail() }
        // NaN duration → the default 0.25 s; NaN start → 0, 7 → 1.
        XCTAssertEqual(added.progress(at: 1.125) ?? -1, 0.5, accuracy: 1e-9)
        XCTAssertFalse(Animation.transition(added).hasFinished(at: 1.2))
        XCTAssertTrue(Animation.transition(added).hasFinished(at: 1.25))
        _ = render(scene.root, at: 1.125)
        // Huge bounds: the before image is limited, nothing traps.
        let huge = Scene(after: false)
        huge.root.isDisplayRoot = true
        Transaction.withoutActions { huge.page.bounds = Rect(x: 0, y: 0, width: 1e12, height: .nan) }
        loop.runTurn { try! huge.page.add(.transition(Transition()), forKey: Transition.key) }
        _ = render(huge.root, at: clock.now + 0.1)
    }
}
