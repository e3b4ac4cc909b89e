import XCTest
@testable import DemoScenes
import DemoTouchScripts
import FBRuntime
import Raster

/// The lock, coverflow, cube and fireworks demos (and widgets, at rest and
/// animated; its interaction is in WidgetsSceneTests): each builds at two sizes
/// and renders, and its interaction does what it should, driven through
/// the scene's own gestures (`SceneTouch(scene:orientation:)`) with
/// synthetic touches on a manual clock, a turn of the app's run loop per
/// event (as fbdemo and fbsim route input). Expected values come from the
/// scenes' documented rules (gains, spans, rounding), not from pixels.
final class DemoScenesATests: XCTestCase {
    private var clock: ManualClock!
    private var savedLoop: AppRunLoop!
    private var touch: SceneTouch!

    override func setUp() {
        savedLoop = AppRunLoop.current
        clock = ManualClock(now: 100)
        AppRunLoop.current = AppRunLoop(clock: clock)
    }

    override func tearDown() {
        AppRunLoop.current = savedLoop
        touch = nil
    }

    /// The scene on a displayed tree with its gestures installed.
    private func make<S: DemoScene>(_ scene: S, width: Double = 640, height: Double = 480) -> S {
        scene.root.isDisplayRoot = true
        touch = SceneTouch(scene: scene, orientation: DisplayOrientation(panelWidth: width, panelHeight: height))
        return scene
    }

    private func send(_ phase: TouchEvent.Phase, _ p: Point) {
        AppRunLoop.current.runTurn {
            touch.router.handle(TouchEvent(id: 1, phase: phase, location: p, timestamp: clock.now))
        }
    }

    /// Down at `from`, `steps` moves `dt` apart to `to`, `hold` seconds
    /// still, up.
    private func drag(from: Point, to: Point, steps: Int = 8, dt: Double = 0.016, hold: Double = 0) {
        send(.began, from)
        for i in 1...steps {
            clock.advance(by: dt)
            let f = Double(i) / Double(steps)
            send(.moved, Point(x: from.x + (to.x - from.x) * f, y: from.y + (to.y - from.y) * f))
        }
        if hold > 0 {
            // Still: the velocity over the last 0.1 s falls to zero.
            for _ in 0..<Int((hold / 0.05).rounded()) { clock.advance(by: 0.05); send(.moved, to) }
        }
        clock.advance(by: dt)
        send(.ended, to)
    }

    private func tap(_ p: Point) {
        send(.began, p)
        clock.advance(by: 0.05)
        send(.ended, p)
    }

    /// Turns of the run loop at 60 Hz for `seconds` (animations end, their
    /// completion handlers run).
    private func run(_ seconds: Double) {
        for _ in 0..<Int((seconds * 60).rounded(.up)) {
            clock.advance(by: 1.0 / 60)
            AppRunLoop.current.runTurn {}
        }
    }

    private func render(_ root: Layer, width: Int, height: Int, at t: MediaTime) -> [UInt32] {
        let s = Surface<ARGB8888>(width: width, height: height)!
        Compositor().render(root, at: t, into: s.view, clearColor: .black)
        var pixels: [UInt32] = []
        pixels.reserveCapacity(width * height)
        for y in 0..<height { let row = s.view.row(y); for x in 0..<width { pixels.append(row[x]) } }
        return pixels
    }

    private func scalar(_ layer: Layer, _ key: AnimatableKey, at t: MediaTime) -> Double? {
        if case let .scalar(v)? = layer.presentationValue(for: key, at: t) { return v }
        return nil
    }

    // MARK: Every demo

    func testEachDemoBuildsAtTwoSizesAndRendersAtRest() throws {
        for name in ["lock", "coverflow", "cube", "fireworks", "widgets"] {
            XCTAssertTrue(DemoCatalog.names.contains(name), name)
            // The boards' smallest, a middle and the largest panels are laid out; a
            // quarter of the smallest is rendered (a debug build renders
            // slowly: four renders of four scenes at 480×272 took 20–60 s
            // on the shared machine).
            for (w, h) in [(480.0, 272.0), (640.0, 480.0), (1920.0, 1080.0)] {
                let laidOut = try XCTUnwrap(DemoCatalog.make(name, width: w, height: h), name)
                XCTAssertEqual(laidOut.root.bounds, Rect(x: 0, y: 0, width: w, height: h))
            }
            for (w, h) in [(240, 136)] {
                let scene = try XCTUnwrap(DemoCatalog.make(name, width: Double(w), height: Double(h)), name)
                XCTAssertEqual(scene.root.bounds, Rect(x: 0, y: 0, width: Double(w), height: Double(h)))
                XCTAssertFalse(DemoTouchScripts.steps(for: scene).isEmpty, name)
                // At rest, frames at two times are the same picture (the
                // still scene on the board does not move).
                let a = render(scene.root, width: w, height: h, at: 100)
                let b = render(scene.root, width: w, height: h, at: 107)
                XCTAssertEqual(a, b, "\(name) \(w)x\(h) at rest")
                var distinct = Set<UInt32>()
                for p in a where distinct.count < 20 { distinct.insert(p) }
                XCTAssertGreaterThanOrEqual(distinct.count, 20, "\(name) \(w)x\(h) draws a scene")
                // Animated: the first frame after the start is the rest frame
                // (frame 1 is deterministic), later ones move.
                scene.startAnimations(at: 100)
                XCTAssertEqual(render(scene.root, width: w, height: h, at: 100), a, "\(name) \(w)x\(h) starts at rest")
                if name != "coverflow" {   // the shelf rests until touched
                    XCTAssertNotEqual(render(scene.root, width: w, height: h, at: 101.3), a, "\(name) animates")
                }
            }
        }
    }

    /// fbdemo's chooser shows each name with its line: every entry makes a
    /// scene, names are unique, lines short enough for one row of a
    /// 480-point-wide screen.
    func testCatalogEntriesMakeScenesAndFitARow() throws {
        XCTAssertEqual(Set(DemoCatalog.names).count, DemoCatalog.entries.count)
        for (name, summary) in DemoCatalog.entries {
            XCTAssertNotNil(DemoCatalog.make(name, width: 480, height: 320), name)
            XCTAssertFalse(summary.isEmpty, name)
            XCTAssertLessThanOrEqual(summary.count, 44, name)
        }
    }

    func testTouchScriptsStayOnScreen() throws {
        for name in DemoCatalog.names {
            let scene = try XCTUnwrap(DemoCatalog.make(name, width: 640, height: 480))
            for step in DemoTouchScripts.steps(for: scene) {
                switch step {
                case let .tap(x, y): XCTAssertTrue((0...1).contains(x) && (0...1).contains(y), name)
                case let .drag(x0, y0, x1, y1, _):
                    for v in [x0, y0, x1, y1] { XCTAssertTrue((0...1).contains(v), name) }
                case let .wait(s): XCTAssertGreaterThan(s, 0)
                case let .pinch(x, y, startSpread, endSpread):
                    for v in [x, y, startSpread, endSpread] { XCTAssertTrue((0...1).contains(v), name) }
                }
            }
        }
    }

    // MARK: Lock

    func testLockShortDragSpringsBack() {
        let scene = make(LockScene(width: 640, height: 480))
        let knob = scene.knobLayer
        let start = knob.position
        let band = scene.bands.bottom.position
        // The knob's centre in the root's space.
        let p = Point(x: start.x, y: band.y - scene.bands.bottom.bounds.height / 2 + start.y)
        drag(from: p, to: Point(x: p.x + 128, y: p.y))
        XCTAssertEqual(scene.state, .locked)
        XCTAssertEqual(knob.position.x, scene.knobMinX, "the model is back at the start at once")
        let released = scalar(knob, .positionX, at: clock.now) ?? .nan
        XCTAssertEqual(released, start.x + 128, accuracy: 1, "the spring starts where the finger let go")
        run(3)
        XCTAssertEqual(scalar(knob, .positionX, at: clock.now) ?? .nan, scene.knobMinX, accuracy: 0.5, "sprung back")
        XCTAssertEqual(scene.unlockCompletions, 0)
        XCTAssertTrue(scene.homeLayer.isHidden)
    }

    func testLockFullDragUnlocksAndTheCompletionRunsOnce() {
        let scene = make(LockScene(width: 640, height: 480))
        let knob = scene.knobLayer
        let band = scene.bands.bottom
        let p = Point(x: knob.position.x, y: band.position.y - band.bounds.height / 2 + knob.position.y)
        drag(from: p, to: Point(x: 630, y: p.y))
        XCTAssertEqual(scene.state, .unlocking)
        XCTAssertEqual(scene.unlockCompletions, 0, "not before the bands have gone")
        XCTAssertTrue(scene.homeLayer.isHidden)
        run(LockScene.unlockDuration - 0.1)
        XCTAssertEqual(scene.unlockCompletions, 0)
        run(0.2)
        XCTAssertEqual(scene.unlockCompletions, 1)
        XCTAssertEqual(scene.state, .unlocked)
        XCTAssertFalse(scene.homeLayer.isHidden)
        let top = scene.bands.top, bottom = scene.bands.bottom
        XCTAssertLessThanOrEqual(top.position.y + top.bounds.height / 2, 0, "the clock band is above the screen")
        XCTAssertGreaterThanOrEqual(bottom.position.y - bottom.bounds.height / 2, 480, "the slider band is below it")
        run(1)
        XCTAssertEqual(scene.unlockCompletions, 1, "once")
        // Unlocked: the knob's drag does nothing more.
        drag(from: p, to: Point(x: 630, y: p.y))
        run(1)
        XCTAssertEqual(scene.unlockCompletions, 1)
    }

    // MARK: Coverflow

    func testCoverflowFlickSettlesOnAWholeCoverWithCappedMomentum() {
        let scene = make(CoverflowScene(width: 640, height: 480))
        XCTAssertEqual(scene.position, 3)
        let y = 480 * 0.4
        // 288 points left in 8 × 16 ms: 3 covers of 96 points, and a release
        // at 2250 points/s, whose momentum (1125 points) is capped at 2 covers.
        drag(from: Point(x: 512, y: y), to: Point(x: 224, y: y))
        XCTAssertEqual(scene.position, 3 + 288 / scene.pointsPerCover + CoverflowScene.maximumMomentumCovers)
        XCTAssertEqual(scene.position, scene.position.rounded())
        run(1)
        XCTAssertEqual(scene.visiblePosition(at: clock.now), 8)
        // Each cover's transform is where the layout puts it, on screen too.
        for i in 0..<CoverflowScene.coverCount {
            let cover = scene.root.sublayers[1].sublayers[i]
            let expected = scene.layout(offset: Double(i) - 8).transform
            guard case let .transform(t)? = cover.presentationValue(for: .transform, at: clock.now) else { return XCTFail() }
            XCTAssertEqual(t.m11, expected.m11, accuracy: 1e-9)
            XCTAssertEqual(t.m41, expected.m41, accuracy: 1e-6)
            XCTAssertEqual(t.m43, expected.m43, accuracy: 1e-6)
        }
    }

    func testCoverflowSlowDragRoundsToTheNearestCover() {
        let scene = make(CoverflowScene(width: 640, height: 480))
        let y = 480 * 0.4
        drag(from: Point(x: 400, y: y), to: Point(x: 240, y: y), hold: 0.3)   // 160 points: 1.67 covers, no momentum
        XCTAssertEqual(scene.position, (3 + 160 / scene.pointsPerCover).rounded())
        XCTAssertEqual(scene.position, 5)
        XCTAssertEqual(CoverflowScene.restingCover(from: 20, velocity: 0, pointsPerCover: 96), 11, "kept on the shelf")
        XCTAssertEqual(CoverflowScene.restingCover(from: 2, velocity: .nan, pointsPerCover: 96), 2, "bad velocity: no momentum")
    }

    func testCoverflowTapBringsASideCoverToTheCentreAndFlipsTheCentreOne() {
        let scene = make(CoverflowScene(width: 640, height: 480))
        let y = 480 * 0.4
        let side = Point(x: 320 + scene.side * 0.55, y: y)
        XCTAssertEqual(scene.root.hitTest(side, at: clock.now)?.name == "cover 4"
                       || SceneTouch.topLevelLayer(at: side, in: scene.root) != nil, true)
        tap(side)
        XCTAssertEqual(scene.position, 4, "the first cover on the right comes to the centre")
        run(1)
        XCTAssertEqual(scene.flipped, Array(repeating: false, count: CoverflowScene.coverCount))
        tap(Point(x: 320, y: y))
        XCTAssertEqual(scene.flipped[4], true, "a tap on the centre cover flips it")
        XCTAssertEqual(scene.position, 4)
        run(1)
        let flipper = scene.root.sublayers[1].sublayers[4].sublayers[0]
        let turned = Transform3D(rotationAngle: Double.pi, x: 0, y: 1, z: 0)
        XCTAssertEqual(flipper.transform.m11, turned.m11, accuracy: 1e-9)
        XCTAssertEqual(flipper.transform.m33, turned.m33, accuracy: 1e-9)
        XCTAssertTrue(flipper.animations.isEmpty, "the flip has ended")
        // On screen the back shows: its paper colour near its bottom edge
        // (below the track list), where the front has its artwork.
        let s = scene.side
        let probe = Point(x: 320, y: y - s / 2 + 0.96 * s)
        let pixels = render(scene.root, width: 640, height: 480, at: clock.now)
        let shown = pixels[Int(probe.y) * 640 + Int(probe.x)] & 0xFF_FFFF
        XCTAssertEqual(shown, 0x15171C, "the back's paper")
        tap(Point(x: 320, y: y))
        XCTAssertEqual(scene.flipped[4], false, "and back")
    }

    // MARK: Cube

    func testCubeDragTurnsByTheGain() {
        let scene = make(CubeScene(width: 640, height: 480))
        let yaw0 = scene.yawDegrees, pitch0 = scene.pitchDegrees
        drag(from: Point(x: 200, y: 240), to: Point(x: 360, y: 240))
        XCTAssertEqual(scene.yawDegrees, yaw0 + 160 * CubeScene.degreesPerPoint, accuracy: 1e-9)
        XCTAssertEqual(scene.pitchDegrees, pitch0, accuracy: 1e-9)
        let expected = CubeScene.rotation(yawDegrees: yaw0 + 64, pitchDegrees: pitch0)
        let t = scene.outerCube.transform
        for (a, b) in [(t.m11, expected.m11), (t.m13, expected.m13), (t.m22, expected.m22), (t.m31, expected.m31), (t.m33, expected.m33)] {
            XCTAssertEqual(a, b, accuracy: 1e-9)
        }
        run(1)
        XCTAssertEqual(scene.yawDegrees, yaw0 + 64, accuracy: 1e-9, "released, it stays")
        // Up by 400 points: pitch +160°, clamped to 80°.
        drag(from: Point(x: 300, y: 440), to: Point(x: 300, y: 40))
        XCTAssertEqual(scene.pitchDegrees, 80)
        XCTAssertEqual(scene.yawDegrees, yaw0 + 64, accuracy: 1e-9)
    }

    // MARK: Fireworks

    func testFireworksTapLaunchesAtTheTapAndTheTimelineScrubsAPausedSky() {
        let scene = make(FireworksScene(width: 640, height: 480))
        let sky = scene.skyLayer
        XCTAssertEqual(sky.speed, 0, "at rest the sky is paused")
        XCTAssertEqual(sky.timeOffset, FireworksScene.restTime)
        tap(Point(x: 192, y: 150))
        XCTAssertEqual(scene.launchXs, [192])
        XCTAssertEqual(scene.launchLayers.count, 1)
        XCTAssertEqual(scene.launchLayers[0].emitterPosition.x, 192)
        XCTAssertEqual(scene.lastLaunchTime, FireworksScene.restTime, "launched at the paused sky's time")
        XCTAssertEqual(sky.speed, 1, "and the sky runs again")
        run(0.5)
        XCTAssertEqual(sky.convertTime(clock.now, from: nil), FireworksScene.restTime + (clock.now - 100.05), accuracy: 1e-6)
        // Along the strip from 20 % to 60 % of the width.
        let frame = scene.timelineFrame
        let y = frame.minY + frame.height / 2
        drag(from: Point(x: 128, y: y), to: Point(x: 384, y: y))
        XCTAssertEqual(sky.speed, 0)
        let expected = FireworksScene.restTime + (384 - frame.minX) / frame.width * FireworksScene.scrubSpan
        XCTAssertEqual(sky.timeOffset, expected, accuracy: 1e-9)
        XCTAssertEqual(sky.convertTime(clock.now + 5, from: nil), expected, accuracy: 1e-9, "paused: time stands")
        // The paused sky is one picture whenever it is drawn, and the
        // launched rocket's burst is in it.
        let a = render(scene.root, width: 640, height: 480, at: clock.now)
        XCTAssertGreaterThan(scene.launchLayers[0].lastParticleCount, 50, "the burst's sparks")
        XCTAssertEqual(a, render(scene.root, width: 640, height: 480, at: clock.now + 3))
        // A tap below the skyline launches nothing.
        tap(Point(x: 300, y: 420))
        XCTAssertEqual(scene.launchXs, [192])
    }

    func testFireworksSparksOutliveTheirShell() {
        // The burst: a rocket whose fuse (0.05 s) emits sparks living 1.3–1.9 s.
        let scene = FireworksScene(width: 640, height: 480)
        let sky = scene.skyLayer
        _ = render(scene.root, width: 320, height: 240, at: 0)
        let atRest = (sky.sublayers.first { $0 is EmitterLayer } as? EmitterLayer)?.lastParticleCount ?? 0
        XCTAssertGreaterThan(atRest, 100, "bursts at rest, long after their fuses died")
    }
}

/// EmitterLayer's sub-cells against a count worked out by hand.
final class EmitterSubCellLifetimeTests: XCTestCase {
    func testSparksOfADeadParentStillLive() {
        // A parent born at 0 (the next at 1 s) living 0.1 s, emitting 100
        // sparks a second that live 1 s: born at 0, 0.01, …, 0.1 — eleven,
        // all alive at 0.5 s although their parent died at 0.1 s.
        let root = Layer(name: "root")
        root.bounds = Rect(x: 0, y: 0, width: 64, height: 64)
        root.anchorPoint = .zero
        let e = EmitterLayer()
        e.bounds = root.bounds
        e.anchorPoint = .zero
        e.emitterPosition = Point(x: 32, y: 32)
        let parent = EmitterCell(name: "shell")
        parent.birthRate = 1
        parent.lifetime = 0.1
        let spark = EmitterCell(name: "spark")
        spark.birthRate = 100
        spark.lifetime = 1
        spark.contents = SceneParts.softDot(side: 3)
        parent.emitterCells = [spark]
        e.emitterCells = [parent]
        try! root.addSublayer(e)
        let s = Surface<ARGB8888>(width: 64, height: 64)!
        Compositor().render(root, at: 0.5, into: s.view, clearColor: .black)
        XCTAssertEqual(e.lastParticleCount, 11)
    }
}
