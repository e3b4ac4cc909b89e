@testable import FBRuntime
import FBRuntimeTestSupport
import Raster
import XCTest

/// The commit hand-off: the render thread draws twins of the model layers,
/// brought up to date only by commits through a queue of depth two. The
/// oracle throughout is a fresh `Compositor` rendering the model tree
/// itself (the path with no hand-off at all).
final class RenderTreeTests: XCTestCase {
    func layer(_ name: String, _ x: Double, _ y: Double, _ w: Double, _ h: Double, _ rgb: UInt32) -> Layer {
        let l = Layer(name: name)
        l.bounds = Rect(x: 0, y: 0, width: w, height: h)
        l.anchorPoint = .zero
        l.position = Point(x: x, y: y)
        l.backgroundColor = Color(rgb: rgb)
        return l
    }

    func presenter(width: Int = 64, height: Int = 48) -> SimulatedPresenter {
        SimulatedPresenter(width: width, height: height, flipsWaitForVBlank: true, time: SimulatedFrameTime())!
    }

    /// What the model tree looks like at `time`, as the screen shows it.
    func reference(_ root: Layer, at time: MediaTime = 0, width: Int = 64, height: Int = 48) -> UInt64 {
        let full = Surface<ARGB8888>(width: width, height: height)!
        let compositor = Compositor()
        compositor.render(root, at: time, into: full.view)
        let screen = Surface<XRGB8888>(width: width, height: height)!
        ScanoutConversion.copy(full.view, into: screen.view, rect: full.view.bounds)
        return pixelChecksum(screen.view)
    }

    /// A 64×48 root with a white 8×8 square at (4, 20) and a blue one.
    func scene() -> (root: Layer, square: Layer, other: Layer) {
        let root = layer("root", 0, 0, 64, 48, 0x203040)
        let square = layer("square", 4, 20, 8, 8, 0xFFFFFF)
        let other = layer("other", 40, 4, 10, 10, 0x3060FF)
        try! root.addSublayer(square)
        try! root.addSublayer(other)
        return (root, square, other)
    }

    // MARK: A blocked app thread

    func testTheScreenKeepsChangingWhileTheAppThreadIsBlockedForHalfASecond() throws {
        let (root, square, _) = scene()
        var slide = BasicAnimation(key: .positionX, from: .scalar(4), to: .scalar(52), duration: 0.5)
        slide.repeatCount = .infinity
        square.add(slide, forKey: "slide", at: 0)
        let display = presenter()
        let loop = RenderLoop(root: root, presenter: display, time: display.time)
        // Checksums of what the screen shows, frame by frame (render thread;
        // read here only after `stop()` joined it).
        var shown: [UInt64] = []
        loop.onFrameShown = { _ in shown.append(pixelChecksum(display.screen.view)) }
        try loop.start()
        XCTAssertTrue(loop.waitUntil(timeoutNanoseconds: 5_000_000_000) { $0.framesShown >= 3 })

        // The app thread blocks for 500 ms in the middle of changing the
        // model (the old scene lock was held right here).
        var during = (first: 0, last: 0)
        loop.update { _ in
            square.backgroundColor = Color(rgb: 0xFF0000)   // not committed until the block ends
            during.first = loop.statistics.framesShown
            let end = System.monotonicNanoseconds() + 500_000_000
            MonotonicFrameTime().sleep(untilNanoseconds: end)
            during.last = loop.statistics.framesShown
        }
        XCTAssertTrue(loop.waitUntil(timeoutNanoseconds: 5_000_000_000) { $0.framesShown >= during.last + 3 })
        loop.stop()
        XCTAssertNil(loop.error)
        XCTAssertGreaterThan(during.last - during.first, 10, "frames kept coming while the app thread was blocked")
        let window = Array(shown[during.first..<during.last])
        XCTAssertGreaterThan(Set(window).count, 2, "and they showed the animation moving")
        // The red set inside the block reached the screen only after it.
        let red = display.screen.view.pixels(where: { $0 & 0xFFFFFF == 0xFF0000 })
        XCTAssertGreaterThan(red, 0)
        XCTAssertEqual(loop.statistics.commitsApplied, 2)   // the one at start, the update's
    }

    // MARK: The queue

    func testTheQueueHoldsAtMostTwoUpdatesAndCoalescesTheRest() {
        let (root, square, other) = scene()
        let display = presenter()
        let loop = RenderLoop(root: root, presenter: display, time: display.time)
        XCTAssertEqual(loop.updates.count, 1, "the tree as it was when the loop was made")
        for k in 1...5 {
            square.position.x += 3
            if k == 3 { other.backgroundColor = Color(rgb: 0x00FF00) }
            loop.commit()
            XCTAssertLessThanOrEqual(loop.updates.count, RenderTreeQueue.capacity)
        }
        XCTAssertEqual(loop.updates.count, 2)
        XCTAssertEqual(loop.updates.coalescedCommits, 4, "commits 2…5 went into the newest pending update")
        XCTAssertEqual(loop.updates.deepestQueue, 2)
        XCTAssertTrue(loop.runOnce())
        XCTAssertEqual(loop.updates.count, 0)
        XCTAssertEqual(loop.statistics.updatesApplied, 2)
        XCTAssertEqual(loop.statistics.commitsApplied, 6)
        XCTAssertEqual(pixelChecksum(display.screen.view), reference(root), "the newest state, every change in it")

        // The queue on its own: an update coalesced from several applies
        // as the last of them.
        let queue = RenderTreeQueue()
        for _ in 0..<7 { queue.push(RenderTreeUpdate(capturing: root, at: 0)) }
        XCTAssertEqual(queue.count, 2)
        XCTAssertEqual(queue.coalescedCommits, 5)
        var taken: [RenderTreeUpdate] = []
        queue.take(into: &taken)
        XCTAssertEqual(taken.map(\.commitCount), [1, 6])
        XCTAssertEqual(queue.count, 0)
    }

    // MARK: Twins

    func testTwinsKeepTheirIdentityAcrossCommitsSoAMovingLayerGivesSmallDamage() {
        let (root, square, _) = scene()
        for k in 0..<12 { try! root.addSublayer(layer("tile\(k)", Double(k % 6) * 10 + 2, Double(k / 6) * 10 + 30, 6, 6, 0x808080)) }
        let display = presenter()
        let loop = RenderLoop(root: root, presenter: display, time: display.time)
        XCTAssertTrue(loop.runOnce())
        let twin = square.handOff.twin, rootTwin = root.handOff.twin
        XCTAssertNotNil(twin)
        XCTAssertFalse(twin === square, "the render thread draws a twin, not the model layer")
        for step in 1...8 {
            let oldX = Int(square.position.x)
            loop.update { _ in square.position.x += 2 }
            XCTAssertTrue(loop.runOnce())
            XCTAssertTrue(square.handOff.twin === twin && root.handOff.twin === rootTwin, "step \(step)")
            // The old and the new square (8×8, 2 apart), exactly (a
            // whole-pixel rectangle needs no anti-aliasing margin): what
            // the damage tracker gives a moved layer.
            let expected = IntRect(x: oldX, y: 20, width: 8 + 2, height: 8)
            XCTAssertEqual(loop.compositor.damage.boundingBox, expected, "step \(step)")
            XCTAssertEqual(pixelChecksum(display.screen.view), reference(root), "step \(step)")
        }
        // A layer removed and put back gets its old twin again.
        loop.update { _ in square.removeFromSuperlayer() }
        XCTAssertTrue(loop.runOnce())
        XCTAssertEqual(pixelChecksum(display.screen.view), reference(root))
        loop.update { root in try! root.addSublayer(square) }
        XCTAssertTrue(loop.runOnce())
        XCTAssertTrue(square.handOff.twin === twin)
        XCTAssertEqual(pixelChecksum(display.screen.view), reference(root))
    }

    func testTheTwinOfAFreedModelLayerIsFreedOnceTheRenderTreeLetsGoOfIt() {
        let (root, _, _) = scene()
        let display = presenter()
        let loop = RenderLoop(root: root, presenter: display, time: display.time)
        weak var twin: Layer?
        do {
            let doomed = layer("doomed", 20, 20, 6, 6, 0xFF0000)
            loop.update { root in try! root.addSublayer(doomed) }
            XCTAssertTrue(loop.runOnce())
            twin = doomed.handOff.twin
            doomed.removeFromSuperlayer()
        }
        XCTAssertNotNil(twin, "the render tree still shows it")
        loop.commit()
        XCTAssertNotNil(twin, "until the render thread applies the commit")
        XCTAssertTrue(loop.runOnce())
        XCTAssertNil(twin)
        XCTAssertEqual(pixelChecksum(display.screen.view), reference(root))
    }

    /// A model layer's last reference may go on another thread than the
    /// one committing (an app thread that removed it under
    /// `Transaction.lock()` and let go of it after `unlock()`): its twin
    /// must still reach the render thread with a later update and be freed
    /// there. Seen while writing the mutation storm (scripts/stress), which
    /// now lets go of removed layers after `unlock()`: the list of retiring
    /// twins was a plain static array written by both threads (by reading
    /// the code; the storm's TSan runs had not hit the window).
    /// The oracle: every such twin is gone once the render tree applied the
    /// next commit, and the screen shows the model tree.
    func testModelLayersFreedOnAnotherThreadWhileTheAppThreadCommitsStillRetireTheirTwins() throws {
        let (root, _, _) = scene()
        let display = presenter()
        let loop = RenderLoop(root: root, presenter: display, time: display.time)
        final class WeakBox { weak var layer: Layer?; init(_ l: Layer?) { layer = l } }
        var twins: [WeakBox] = []
        let lock = Lock(recursive: true)
        for round in 0..<20 {
            var batch: [Layer] = []
            for k in 0..<16 { batch.append(layer("r\(round)-\(k)", Double(k * 3), Double(round), 3, 3, 0x808080)) }
            lock.withLock {
                for l in batch { try! root.addSublayer(l) }
                loop.commit()
            }
            XCTAssertTrue(loop.runOnce())
            for l in batch { twins.append(WeakBox(l.handOff.twin)) }
            XCTAssertTrue(twins.suffix(16).allSatisfy { $0.layer != nil })
            lock.withLock { for l in batch { l.removeFromSuperlayer() } }
            // The other thread holds the last references and drops them
            // while this one keeps committing.
            let release = try FBRuntime.Thread { [batch] in _ = batch.count }   // freed with the closure, there
            batch.removeAll()
            for _ in 0..<8 { lock.withLock { loop.commit() } }
            release.join()
            lock.withLock { loop.commit() }
            XCTAssertTrue(loop.runOnce())
        }
        XCTAssertEqual(twins.count, 320)
        XCTAssertEqual(twins.filter { $0.layer != nil }.count, 0, "twins of freed model layers still alive")
        XCTAssertEqual(pixelChecksum(display.screen.view), reference(root))
    }

    // MARK: Commits

    func testModelChangesReachTheScreenOnlyAtACommitAllInTheSameFrame() {
        let (root, square, other) = scene()
        let display = presenter()
        let loop = RenderLoop(root: root, presenter: display, time: display.time)
        loop.idleTimeoutNanoseconds = 1_000_000
        XCTAssertTrue(loop.runOnce())
        let before = reference(root)
        XCTAssertEqual(pixelChecksum(display.screen.view), before)

        // One transaction's changes, not committed yet.
        square.position = Point(x: 30, y: 30)
        other.backgroundColor = Color(rgb: 0xFFFF00)
        try! root.addSublayer(layer("new", 2, 2, 5, 5, 0xFF00FF))
        loop.setNeedsRender()
        XCTAssertTrue(loop.runOnce())
        XCTAssertTrue(loop.runOnce())   // the flip
        XCTAssertEqual(loop.statistics.framesRendered, 2)
        XCTAssertEqual(pixelChecksum(display.screen.view), before, "the render thread sees no model change before the commit")

        loop.commit()
        XCTAssertTrue(loop.runOnce())
        XCTAssertEqual(loop.statistics.framesRendered, 3)
        XCTAssertEqual(pixelChecksum(display.screen.view), reference(root), "every change in the next frame")
    }

    func testAnAppRunLoopCommitsThroughTheLoopAtEachOutermostCommit() {
        let (root, square, _) = scene()
        root.isDisplayRoot = true
        let display = presenter()
        let loop = RenderLoop(root: root, presenter: display, time: display.time)
        let saved = AppRunLoop.current
        let clock = ManualClock()
        AppRunLoop.current = AppRunLoop(clock: clock)
        defer { AppRunLoop.current = saved }
        loop.attach(to: AppRunLoop.current)
        XCTAssertTrue(loop.runOnce())

        // An implicit animation, added in a turn: its begin time is the
        // commit's, and the twin carries it.
        AppRunLoop.current.runTurn { square.position = Point(x: 40, y: 20) }
        XCTAssertEqual(loop.updates.count, 1)
        XCTAssertTrue(loop.runOnce())
        XCTAssertTrue(square.handOff.twin!.animations.contains { $0.key == "position" })
        // Explicit transactions commit once, at the outermost.
        Transaction.begin()
        square.opacity = 0.5
        Transaction.begin()
        square.cornerRadius = 2
        Transaction.commit()
        XCTAssertEqual(loop.updates.count, 0, "an inner commit hands nothing over")
        Transaction.commit()
        XCTAssertEqual(loop.updates.count, 1)
    }

    // MARK: The display pass

    func testTheDisplayPassRunsAtCommitAndTheRenderThreadGetsACopyOfTheBackingStore() {
        let root = layer("root", 0, 0, 64, 48, 0x000000)
        let drawn = layer("drawn", 10, 10, 20, 20, 0x000000)
        drawn.backgroundColor = nil
        var color = Color(rgb: 0xFF0000)
        drawn.drawHandler = { _, context in context.fill(context.bounds, color: color) }
        drawn.setNeedsDisplay()
        try! root.addSublayer(drawn)
        let display = presenter()
        let loop = RenderLoop(root: root, presenter: display, time: display.time)
        XCTAssertEqual(drawn.drawCount, 1, "drawn when the loop took the tree")
        XCTAssertTrue(loop.runOnce())
        XCTAssertEqual(drawn.drawCount, 1, "the render thread runs no draw(in:)")
        XCTAssertEqual(display.screen.view[15, 15] & 0xFFFFFF, 0xFF0000)

        color = Color(rgb: 0x0000FF)
        drawn.setNeedsDisplay()
        loop.commit()
        XCTAssertEqual(drawn.drawCount, 2)
        XCTAssertTrue(loop.runOnce())
        XCTAssertEqual(display.screen.view[15, 15] & 0xFFFFFF, 0x0000FF)
        XCTAssertEqual(pixelChecksum(display.screen.view), reference(root))

        // The app redraws its backing store without committing: the render
        // tree keeps the copy it was given.
        color = Color(rgb: 0x00FF00)
        drawn.display(at: 0)
        loop.compositor.invalidate()
        loop.setNeedsRender()
        XCTAssertTrue(loop.runOnce())
        XCTAssertTrue(loop.runOnce())
        XCTAssertEqual(display.screen.view[15, 15] & 0xFFFFFF, 0x0000FF)
    }

    /// Issue 19: a custom property that a subclass draws (`BarLayer`'s
    /// `barWidth`, `needsDisplay(forKey:)`) animates on the render thread
    /// with no commit at all (an app thread that is blocked): the twin's
    /// `draw(in:)` redraws every frame with that frame's value, and each
    /// frame equals the model drawn at its flip time.
    func testAnimatedDrawnPropertyRedrawsEveryFrameOnTheRenderThreadWithoutCommits() {
        let root = layer("root", 0, 0, 64, 48, 0x000000)
        let bar = BarLayer(name: "bar")
        bar.bounds = Rect(x: 0, y: 0, width: 48, height: 10)
        bar.anchorPoint = .zero
        bar.position = Point(x: 4, y: 4)
        try! root.addSublayer(bar)
        bar.add(BasicAnimation(key: .custom("barWidth"), from: .scalar(2), to: .scalar(48), duration: 0.5), forKey: "grow", at: 0)
        let display = presenter()
        let loop = RenderLoop(root: root, presenter: display, time: display.time)
        loop.idleTimeoutNanoseconds = 1_000_000
        let appDraws = bar.draws
        var widths: [Int] = []
        var displayed = 0
        for _ in 0..<24 {
            XCTAssertTrue(loop.runOnce())
            displayed += loop.compositor.statistics.layersDisplayed
            widths.append((0..<64).filter { display.screen.view[$0, 8] & 0xFFFFFF == 0xFFFFFF }.count)
        }
        XCTAssertEqual(bar.draws, appDraws, "no commit: the app thread drew nothing")
        XCTAssertEqual(loop.statistics.commitsApplied, 1, "only the loop's first")
        XCTAssertGreaterThanOrEqual(displayed, 20, "the twin redrew on the render thread, frame after frame")
        XCTAssertGreaterThan(Set(widths).count, 12, "the bar grew on screen: \(widths)")
        XCTAssertEqual(widths, widths.sorted(), "and only grew")
        // The animation is over (0.5 s at 60 Hz is 30 frames; after 24 it
        // is not yet): the last shown frame is the model at its flip time.
        _ = try? display.waitForFlip(timeoutNanoseconds: 1)
        XCTAssertEqual(pixelChecksum(display.screen.view), reference(root, at: Double(display.flipTimes.last!) / 1e9))
        // Past the end: one more draw with the model value, then none.
        for _ in 0..<12 { _ = loop.runOnce() }
        XCTAssertEqual(widths.last.map { $0 > 2 }, true)
        XCTAssertEqual((0..<64).filter { display.screen.view[$0, 8] & 0xFFFFFF == 0xFFFFFF }.count, 2,
                       "the bar is back at its model width once the animation is removed")
        let twin = loop.renderTreeRoot.sublayers[0]
        let twinDraws = twin.drawCount
        for _ in 0..<3 { _ = loop.runOnce() }
        XCTAssertEqual(twin.drawCount, twinDraws, "and then it is not drawn again")
        XCTAssertGreaterThanOrEqual(twinDraws, 25)
    }

    /// A layer class whose `level` is drawn, by a `drawHandler` (app
    /// code with its captures, which twins do not get).
    final class HandlerDrawn: Layer {
        override class func defaultValue(forKey key: String) -> AnimatableValue? {
            key == "level" ? .scalar(0) : super.defaultValue(forKey: key)
        }
        override class func needsDisplay(forKey key: String) -> Bool { key == "level" || super.needsDisplay(forKey: key) }
        override func makePresentationCopy() -> Layer {
            let copy = HandlerDrawn(name: name)
            copy.copyLayerState(from: self)
            return copy
        }
    }

    /// A layer drawn by a `drawHandler` whose drawn property animates
    /// keeps the contents of its commits on the render thread: its twin
    /// draws nothing once, is not asked again, and the screen keeps the
    /// app's drawing.
    func testADrawHandlerLayerKeepsItsCommittedContentsOnTheRenderThread() {
        let root = layer("root", 0, 0, 64, 48, 0x000000)
        let handled = HandlerDrawn(name: "handled")
        handled.bounds = Rect(x: 0, y: 0, width: 20, height: 20)
        handled.anchorPoint = .zero
        handled.position = Point(x: 30, y: 20)
        handled.drawHandler = { _, context in context.fill(context.bounds, color: Color(rgb: 0x00FF00)) }
        handled.add(BasicAnimation(key: .custom("level"), from: .scalar(0), to: .scalar(1), duration: 10), forKey: "level", at: 0)
        try! root.addSublayer(handled)
        let display = presenter()
        let loop = RenderLoop(root: root, presenter: display, time: display.time)
        var displayed = 0
        for _ in 0..<4 {
            XCTAssertTrue(loop.runOnce())
            displayed += loop.compositor.statistics.layersDisplayed
            XCTAssertEqual(display.screen.view[35, 25] & 0xFFFFFF, 0x00FF00, "the commit's drawing stays on screen")
        }
        XCTAssertEqual(displayed, 0)
    }

    // MARK: Layer subclasses

    final class Dial: Layer {
        var angle = 0.0
        override func draw(in context: DrawingContext) {
            var p = Path()
            p.move(to: PathPoint(x: 15, y: 15))
            p.line(to: PathPoint(x: 15 + 12 * cos(angle), y: 15 + 12 * sin(angle)))
            context.stroke(p, style: StrokeStyle(width: 2), color: .white)
        }
    }

    func testContentLayerTwinsAreOfTheirClassAndDrawAsTheModel() throws {
        let root = layer("root", 0, 0, 200, 150, 0x1A1F26)
        // Paused: the animations stand where `timeOffset` says, whatever
        // time the loop renders at.
        root.speed = 0
        let shape = ShapeLayer()
        shape.bounds = Rect(x: 0, y: 0, width: 60, height: 60); shape.anchorPoint = .zero; shape.position = Point(x: 10, y: 10)
        var star = Path()
        star.move(to: PathPoint(x: 30, y: 2)); star.line(to: PathPoint(x: 58, y: 58)); star.line(to: PathPoint(x: 2, y: 20))
        star.line(to: PathPoint(x: 58, y: 20)); star.line(to: PathPoint(x: 2, y: 58)); star.close()
        shape.path = star
        shape.strokeColor = .white
        shape.lineWidth = 3
        shape.lineDashPattern = [6, 3]
        shape.add(BasicAnimation(key: .custom("strokeEnd"), from: .scalar(0), to: .scalar(1), duration: 1), forKey: "end", at: 0)
        let gradient = GradientLayer()
        gradient.bounds = Rect(x: 0, y: 0, width: 50, height: 40); gradient.anchorPoint = .zero; gradient.position = Point(x: 80, y: 10)
        gradient.colors = [Color(red: 1, green: 0, blue: 0), Color(red: 0, green: 0, blue: 1)]
        gradient.type = .radial
        gradient.endPoint = Point(x: 1, y: 1)
        let replicator = ReplicatorLayer()
        replicator.bounds = Rect(x: 0, y: 0, width: 80, height: 60); replicator.anchorPoint = .zero; replicator.position = Point(x: 10, y: 80)
        replicator.instanceCount = 3
        replicator.instanceTransform = Transform3D(translationX: 25, y: 0)
        replicator.instanceDelay = 0.1
        replicator.instanceGreenOffset = -0.3
        let dot = layer("dot", 0, 0, 15, 15, 0xFFFFFF)
        dot.add(BasicAnimation(key: .positionY, from: .scalar(0), to: .scalar(40), duration: 0.8), forKey: "y", at: 0)
        try replicator.addSublayer(dot)
        let cube = TransformLayer()
        cube.position = Point(x: 160, y: 100)
        for k in 0..<2 {
            let face = layer("face\(k)", 0, 0, 30, 30, k == 0 ? 0xE6B31A : 0x33CC4D)
            face.anchorPoint = Point(x: 0.5, y: 0.5)
            face.transform = Transform3D(rotationAngle: k == 0 ? 0.5 : -0.5, x: 0, y: 1, z: 0)
            try cube.addSublayer(face)
        }
        cube.add(BasicAnimation(key: .transformRotationY, from: .scalar(0), to: .scalar(3), duration: 1), forKey: "spin", at: 0)
        let emitter = EmitterLayer()
        emitter.bounds = Rect(x: 0, y: 0, width: 50, height: 50); emitter.anchorPoint = .zero; emitter.position = Point(x: 100, y: 60)
        let cell = EmitterCell()
        let spark = Surface<ARGB8888>(width: 2, height: 2)!
        spark.clear(to: 0xFFFF_FF80)
        cell.contents = LayerContents(spark)
        cell.birthRate = 30; cell.lifetime = 0.5; cell.velocity = 40; cell.emissionRange = 6.3
        emitter.emitterCells = [cell]
        emitter.emitterPosition = Point(x: 25, y: 25)
        emitter.seed = 7
        let dial = Dial(name: "dial")
        dial.bounds = Rect(x: 0, y: 0, width: 30, height: 30); dial.anchorPoint = .zero; dial.position = Point(x: 140, y: 10)
        dial.setNeedsDisplay()
        for l in [shape, gradient, replicator, cube, emitter, dial] as [Layer] { try root.addSublayer(l) }
        let text = TextLayer()
        if let font = try? Font(path: TextTests.dejaVu) {
            text.font = font
            text.string = "Twin"
            text.fontSize = 14
            text.foregroundColor = Color(rgb: 0xFFE080)
            text.bounds = Rect(x: 0, y: 0, width: 60, height: 24); text.anchorPoint = .zero; text.position = Point(x: 130, y: 120)
            text.add(BasicAnimation(key: .custom("fontSize"), from: .scalar(10), to: .scalar(20), duration: 1), forKey: "size", at: 0)
            try root.addSublayer(text)
        }

        let display = presenter(width: 200, height: 150)
        let loop = RenderLoop(root: root, presenter: display, time: display.time)
        XCTAssertTrue(shape.handOff.twin is ShapeLayer)
        XCTAssertTrue(gradient.handOff.twin is GradientLayer)
        XCTAssertTrue(replicator.handOff.twin is ReplicatorLayer)
        XCTAssertTrue(cube.handOff.twin is TransformLayer)
        XCTAssertTrue(emitter.handOff.twin is EmitterLayer)
        XCTAssertTrue(text.handOff.twin is TextLayer)
        for step in 0..<12 {
            switch step {
            case 2: gradient.position.x += 7
            case 4: gradient.colors = [.white, .black, .white]
            case 5: dial.angle = 1.2; dial.setNeedsDisplay()
            case 7: replicator.instanceCount = 2
            case 8: shape.lineWidth = 6; shape.lineDashPhase = 2
            case 9: emitter.seed = 9; emitter.birthRate = 2
            case 10: text.string = "Twins"; text.isWrapped = true
            default: break
            }
            root.timeOffset = Double(step) / 15
            loop.commit()
            XCTAssertTrue(loop.runOnce())
            XCTAssertEqual(pixelChecksum(display.screen.view), reference(root, width: 200, height: 150), "step \(step)")
        }
    }
}

extension PixelView {
    /// Pixels whose raw value satisfies `predicate`.
    func pixels(where predicate: (Format.Storage) -> Bool) -> Int {
        var n = 0
        for y in 0..<height { for x in 0..<width where predicate(self[x, y]) { n += 1 } }
        return n
    }
}
