import Foundation
import XCTest
import Controls
@testable import DemoScenes
import DemoTouchScripts
import FBRuntime
import FBRuntimeTestSupport
import Input
import Raster

/// The browser, shapes and dashboard demos and the chrome every demo gets
/// (frame-time HUD, debug-overlay toggle): each builds and renders at two
/// sizes, and each interaction does what the model says, driven through
/// the router (or SceneTouch) at a manual clock.
final class DemoScenesBTests: XCTestCase {
    private var clock = ManualClock(now: 10)
    private var savedLoop: AppRunLoop!

    override func setUp() {
        savedLoop = AppRunLoop.current
        clock = ManualClock(now: 10)
        AppRunLoop.current = AppRunLoop(clock: clock)
    }

    override func tearDown() { AppRunLoop.current = savedLoop }

    /// One touch down, `moves` moves from `from` to `to`, `dt` seconds
    /// apart, up (after `hold` seconds at the end), through `router`, the
    /// clock following; each step a run-loop turn.
    private func stroke(_ router: TouchRouter, id: Int32 = 1, from: Point, to: Point, moves: Int = 8, dt: Double = 0.016,
                        hold: Double = 0) {
        let loop = AppRunLoop.current
        loop.runTurn { router.handle(TouchEvent(id: id, phase: .began, location: from, timestamp: clock.now)) }
        for i in 1...max(moves, 1) where moves > 0 {
            clock.advance(by: dt)
            let f = Double(i) / Double(moves)
            let p = Point(x: from.x + (to.x - from.x) * f, y: from.y + (to.y - from.y) * f)
            loop.runTurn { router.handle(TouchEvent(id: id, phase: .moved, location: p, timestamp: clock.now)) }
        }
        if hold > 0 {
            // Still fingers: moves to the same place, so the velocity decays.
            var t = 0.0
            while t < hold {
                clock.advance(by: 0.05); t += 0.05
                loop.runTurn { router.handle(TouchEvent(id: id, phase: .moved, location: to, timestamp: clock.now)) }
            }
        }
        clock.advance(by: dt)
        loop.runTurn { router.handle(TouchEvent(id: id, phase: .ended, location: to, timestamp: clock.now)) }
    }

    private func tap(_ router: TouchRouter, at p: Point) { stroke(router, from: p, to: p, moves: 0) }

    /// Lets `seconds` pass in run-loop turns of 1/60 s.
    private func run(_ seconds: Double) {
        var t = 0.0
        while t < seconds { clock.advance(by: 1.0 / 60); t += 1.0 / 60; AppRunLoop.current.runTurn() }
    }

    /// The centre of `layer` in the root's space (its model frame; no
    /// transforms on the way in these scenes).
    private func centre(of layer: Layer) -> Point {
        var x = layer.bounds.width / 2 - layer.bounds.width * layer.anchorPoint.x + layer.position.x
        var y = layer.bounds.height / 2 - layer.bounds.height * layer.anchorPoint.y + layer.position.y
        var parent = layer.superlayer
        while let p = parent, p.superlayer != nil {
            x += p.position.x - p.bounds.width * p.anchorPoint.x - p.bounds.minX
            y += p.position.y - p.bounds.height * p.anchorPoint.y - p.bounds.minY
            parent = p.superlayer
        }
        return Point(x: x, y: y)
    }

    // MARK: Every demo

    func testEachDemoBuildsAndRendersAtTwoSizes() throws {
        for name in ["browser", "shapes", "dashboard", "widgets"] {
            XCTAssertTrue(DemoCatalog.names.contains(name))
            for (w, h) in [(480, 272), (1280, 720)] {
                let scene = try XCTUnwrap(DemoCatalog.make(name, width: Double(w), height: Double(h)), name)
                XCTAssertEqual(scene.root.bounds.width, Double(w))
                let display = try XCTUnwrap(HeadlessDisplay(width: w, height: h))
                let compositor = Compositor()
                display.renderFrame(scene.root, with: compositor)
                let first = pixelChecksum(display.framebuffer.view)
                // Something besides the background: count pixels unlike
                // the top-left one.
                let view = display.framebuffer.view
                let background = view[0, 0]
                var other = 0
                for y in stride(from: 0, to: h, by: 4) { for x in stride(from: 0, to: w, by: 4) where view[x, y] != background { other += 1 } }
                XCTAssertGreaterThan(other, (w / 4) * (h / 4) / 20, "\(name) \(w)x\(h) draws little")
                scene.startAnimations(at: display.clock.now)
                for _ in 0..<6 {
                    display.clock.advance(by: 0.1)
                    AppRunLoop.current.runTurn { scene.turn(at: display.clock.now) }
                    display.renderFrame(scene.root, with: compositor)
                }
                XCTAssertNotEqual(pixelChecksum(display.framebuffer.view), first, "\(name) does not animate")
                XCTAssertFalse(DemoTouchScripts.steps(for: scene).isEmpty)
            }
        }
    }

    // MARK: Dashboard

    func testDashboardSettingsSheetSlidesInWithOneCompletionAndOut() throws {
        let scene = DashboardScene(width: 640, height: 480)
        scene.root.isDisplayRoot = true
        let router = TouchRouter(root: scene.root)
        XCTAssertTrue(scene.installGestures(in: router))
        let settings = scene.buttons[2]
        XCTAssertEqual(scene.sheet.position.y, scene.closedY)

        // Highlight from down to up.
        let p = centre(of: settings)
        AppRunLoop.current.runTurn { router.handle(TouchEvent(id: 1, phase: .began, location: p, timestamp: clock.now)) }
        XCTAssertEqual(settings.backgroundColor, DashboardScene.highlightColor)
        clock.advance(by: 0.05)
        AppRunLoop.current.runTurn { router.handle(TouchEvent(id: 1, phase: .ended, location: p, timestamp: clock.now)) }
        XCTAssertNotEqual(settings.backgroundColor, DashboardScene.highlightColor)
        let tapTime = clock.now

        // The model is open at once; on screen it slides.
        XCTAssertEqual(scene.sheet.position.y, scene.openY)
        XCTAssertEqual(scene.sheetOpenCompletions, 0)
        if case let .point(mid)? = scene.sheet.presentationValue(for: .position, at: tapTime + DashboardScene.sheetDuration / 2) {
            XCTAssertLessThan(mid.y, scene.closedY)
            XCTAssertGreaterThan(mid.y, scene.openY)
        } else {
            XCTFail("no presentation position")
        }
        run(DashboardScene.sheetDuration + 0.1)
        XCTAssertTrue(scene.isSheetOpen)
        XCTAssertEqual(scene.sheetOpenCompletions, 1)
        run(0.5)
        XCTAssertEqual(scene.sheetOpenCompletions, 1, "the completion handler runs once")

        // A swipe down on the sheet closes it.
        let sheetPoint = Point(x: 320, y: scene.openY + scene.sheetHeight * 0.5)
        stroke(router, from: sheetPoint, to: Point(x: 320, y: sheetPoint.y + 120), moves: 6, dt: 0.02)
        XCTAssertEqual(scene.sheet.position.y, scene.closedY)
        XCTAssertFalse(scene.isSheetOpen)
        run(0.5)

        // Open again; the close button closes it.
        tap(router, at: p)
        run(0.5)
        XCTAssertEqual(scene.sheetOpenCompletions, 2)
        let close = Point(x: scene.closeButton.position.x, y: scene.openY + scene.closeButton.position.y)
        tap(router, at: close)
        XCTAssertEqual(scene.sheet.position.y, scene.closedY)
        run(0.5)
    }

    func testDashboardNeedlesPointAtTheirValues() throws {
        let scene = DashboardScene(width: 800, height: 480)
        for i in 0..<3 {
            let (strokeEnd, needle, text) = scene.gaugeState(i)
            let f = scene.fraction(i)
            XCTAssertEqual(strokeEnd, f, accuracy: 1e-12)
            // The arc runs 135° → 405° from +x (y down); the needle points up
            // (270°) unturned, so it turns by 135° + 270°·f − 270°.
            let turn = (135 + 270 * f - 270) * Double.pi / 180
            XCTAssertEqual(needle.m11, cos(turn), accuracy: 1e-9)
            XCTAssertEqual(needle.m12, sin(turn), accuracy: 1e-9)
            XCTAssertFalse(text.isEmpty)
        }
    }

    // MARK: Browser

    func testBrowserThumbnailsAreDownsampledToTheTileSize() throws {
        let scene = BrowserScene(width: 640, height: 480)
        for photo in scene.photos {
            let contents = try XCTUnwrap(photo.contents)
            XCTAssertEqual(contents.width, Int(photo.bounds.width))
            XCTAssertEqual(contents.height, Int(photo.bounds.height))
            XCTAssertNotNil(photo.shadowPath, "shadows from a path: no offscreen pass")
        }
        // The thumbnail keeps the picture: its mean colour is the source's
        // (an independent box average of all 1024×768 pixels).
        for k in [0, 7] {
            let source = try XCTUnwrap(PhotoSource.load(k))
            let thumb = scene.thumbnails[k]
            func mean(_ view: PixelView<ARGB8888>) -> (Double, Double, Double) {
                var r = 0.0, g = 0.0, b = 0.0
                for y in 0..<view.height { for x in 0..<view.width {
                    let p = view[x, y]
                    r += Double((p >> 16) & 0xFF); g += Double((p >> 8) & 0xFF); b += Double(p & 0xFF)
                } }
                let n = Double(view.width * view.height)
                return (r / n, g / n, b / n)
            }
            let a = mean(source.view), t = mean(thumb.image.view)
            XCTAssertEqual(a.0, t.0, accuracy: 4); XCTAssertEqual(a.1, t.1, accuracy: 4); XCTAssertEqual(a.2, t.2, accuracy: 4)
        }
    }

    /// The browser's grid is a Controls `ScrollView` (its content, one row
    /// the snap interval): a held drag rests on the nearest whole row, a
    /// pull past the top is rubber-banded by the shared curve and springs
    /// back, flicks decelerate and land on a whole row or bounce at the
    /// end, and the attract-mode drift is caught by a finger.
    func testBrowserScrollsWithTheScrollViewPhysicsAndSnapsToRows() throws {
        let scene = BrowserScene(width: 640, height: 480)
        scene.root.isDisplayRoot = true
        let router = TouchRouter(root: scene.root)
        XCTAssertTrue(scene.installGestures(in: router))
        let view = scene.scrollView
        let header = view.position.y
        let expectedMaximum = scene.grid.bounds.height - (480 - header)
        XCTAssertEqual(scene.maximumOffset, expectedMaximum, accuracy: 1e-9)
        XCTAssertEqual(view.snapInterval.height, scene.rowPitch)

        // A slow drag of two rows up, held still before lifting: the
        // content follows the finger from where the drag began (the first
        // 32-point step is the pan's start), no momentum, and it lands on
        // the nearest whole row, two rows down the content.
        let x = 320.0, y0 = 400.0
        stroke(router, from: Point(x: x, y: y0), to: Point(x: x, y: y0 - 2 * scene.rowPitch), moves: 10, dt: 0.05, hold: 0.3)
        let held = 2 * scene.rowPitch * 9 / 10
        XCTAssertEqual(view.visibleContentOffset(at: clock.now).y, held, accuracy: 1e-9)
        XCTAssertEqual(scene.contentOffset, 2 * scene.rowPitch, accuracy: 1e-9)
        run(1.5)
        XCTAssertEqual(view.visibleContentOffset(at: clock.now).y, 2 * scene.rowPitch, accuracy: 1e-9)

        // Pulling down past the top: the excess shown by the rubber band
        // (less than the finger), then the spring back to 0, not crossing.
        let pull = 80.0
        let distance = 2 * scene.rowPitch + pull
        stroke(router, from: Point(x: x, y: 100), to: Point(x: x, y: 100 + distance), moves: 10, dt: 0.05, hold: 0.3)
        let raw = 2 * scene.rowPitch - distance * 9 / 10
        // On a whole point, as a drag keeps the offset.
        let banded = rubberBandedOffset(raw, minimum: 0, maximum: expectedMaximum, dimension: view.bounds.height).rounded()
        XCTAssertLessThan(raw, banded)
        XCTAssertLessThan(banded, 0)
        let release = clock.now
        XCTAssertEqual(view.visibleContentOffset(at: release).y, banded, accuracy: 1e-9)
        XCTAssertEqual(scene.contentOffset, 0, accuracy: 1e-9)
        let back = try XCTUnwrap(view.motionEndTime)
        var t = release
        while t <= back { XCTAssertLessThanOrEqual(view.visibleContentOffset(at: t).y, 1e-9); t += 1.0 / 120 }
        if case let .point(p)? = view.presentationValue(for: .boundsOrigin, at: back + 0.01) { XCTAssertEqual(p.y, 0, accuracy: 1e-9) }
        run(1.5)

        // A fast flick up (5,000 points/s) from the top: its free rest is
        // far past the end, so it decelerates into the end, bounces past
        // it by at most 15 % of the view and lands on it.
        stroke(router, from: Point(x: x, y: 420), to: Point(x: x, y: 100), moves: 4, dt: 0.016)
        XCTAssertEqual(scene.contentOffset, expectedMaximum, accuracy: 1e-9)
        let bounce = clock.now, end = try XCTUnwrap(view.motionEndTime)
        var highest = 0.0
        t = bounce
        while t <= end { highest = max(highest, view.visibleContentOffset(at: t).y); t += 1.0 / 240 }
        XCTAssertGreaterThan(highest, expectedMaximum, "it bounces")
        XCTAssertLessThanOrEqual(highest, expectedMaximum + 0.15 * view.bounds.height + 1e-6)
        if case let .point(p)? = view.presentationValue(for: .boundsOrigin, at: end + 0.01) {
            XCTAssertEqual(p.y, expectedMaximum, accuracy: 1e-9, "the render side lands there too")
        }
        // More flicks, each catching the last: the end stop holds.
        for _ in 0..<2 { stroke(router, from: Point(x: x, y: 420), to: Point(x: x, y: 100), moves: 4, dt: 0.016) }
        XCTAssertEqual(scene.contentOffset, expectedMaximum, accuracy: 1e-9)

        // A flick of intermediate speed back up the content decelerates
        // (slower all the way) and ends exactly on a whole row.
        run(3)
        stroke(router, from: Point(x: x, y: 150), to: Point(x: x, y: 300), moves: 5, dt: 0.02)
        let rows = scene.contentOffset / scene.rowPitch
        XCTAssertEqual(rows, rows.rounded(), accuracy: 1e-9)
        XCTAssertLessThan(scene.contentOffset, expectedMaximum)
        let flick = clock.now, rest = try XCTUnwrap(view.motionEndTime)
        var speed = Double.infinity
        t = flick
        while t < rest - 0.1 {
            let step = view.visibleContentOffset(at: t).y - view.visibleContentOffset(at: t + 0.05).y
            XCTAssertGreaterThanOrEqual(step, -1e-9, "moves one way")
            XCTAssertLessThanOrEqual(step, speed + 1e-9, "slows down")
            speed = step
            t += 0.05
        }
        XCTAssertEqual(view.visibleContentOffset(at: rest).y, scene.contentOffset)
    }

    /// The demo's touch script ends with the grid at its end, the motion
    /// and the indicator's fade over within `restSeconds`, whatever the
    /// speed of its flicks (fast as here, or slow as on a loaded emulated
    /// board): the screendump does not depend on timing.
    func testBrowserTouchScriptEndsAtTheEndAtRest() throws {
        for seconds in [0.064, 0.3] {
            let scene = BrowserScene(width: 640, height: 480)
            scene.root.isDisplayRoot = true
            let router = TouchRouter(root: scene.root)
            XCTAssertTrue(scene.installGestures(in: router))
            let steps = DemoTouchScripts.steps(for: scene)
            XCTAssertEqual(steps.count, 4)
            for step in steps {
                guard case let .drag(x0, y0, x1, y1, _) = step else { return XCTFail("\(step)") }
                stroke(router, from: Point(x: x0 * 640, y: y0 * 480), to: Point(x: x1 * 640, y: y1 * 480), moves: 8, dt: seconds / 8)
                run(0.2)   // fbcheck's pause after a drag
            }
            run(DemoTouchScripts.restSeconds(for: scene) - 0.2)
            XCTAssertEqual(scene.contentOffset, scene.maximumOffset, "\(seconds) s flicks")
            let end = try XCTUnwrap(scene.scrollView.motionEndTime)
            XCTAssertLessThan(end + scene.scrollView.indicatorFadeDelay + scene.scrollView.indicatorFadeDuration, clock.now,
                              "\(seconds) s flicks: at rest, the indicator gone")
            XCTAssertEqual(scene.scrollView.indicatorOpacity(vertical: true, at: clock.now), 0)
        }
    }

    /// Attract mode drifts the scroll view's offset; a finger landing on it
    /// catches the grid where it is on screen and, lifted without a drag,
    /// it lands on the nearest whole row.
    func testBrowserDriftIsCaughtByAFinger() throws {
        let scene = BrowserScene(width: 640, height: 480)
        scene.root.isDisplayRoot = true
        let router = TouchRouter(root: scene.root)
        XCTAssertTrue(scene.installGestures(in: router))
        scene.startAnimations(at: clock.now)
        run(4)
        guard case let .point(drifted)? = scene.scrollView.presentationValue(for: .boundsOrigin, at: clock.now) else {
            return XCTFail("no offset on screen")
        }
        XCTAssertGreaterThan(drifted.y, 0, "it drifts")
        tap(router, at: Point(x: 320, y: 300))
        XCTAssertNil(scene.scrollView.animation(forKey: "drift"))
        let nearest = min((drifted.y / scene.rowPitch).rounded() * scene.rowPitch, scene.maximumOffset)
        XCTAssertEqual(scene.contentOffset, nearest, accuracy: 2, "the nearest row to where it was caught")
        XCTAssertEqual((scene.contentOffset / scene.rowPitch).rounded() * scene.rowPitch, scene.contentOffset, accuracy: 1e-9)
    }

    // MARK: Shapes

    func testShapesPinchZoomsTheStageToTheSpreadRatioSnapped() throws {
        let scene = ShapesScene(width: 640, height: 480)
        let touch = SceneTouch(scene: scene, orientation: DisplayOrientation(panelWidth: 640, panelHeight: 480))
        // Two fingers 80 px apart to 200 px apart: ×2.5.
        let y = 260.0
        var t: UInt64 = 1_000_000
        touch.handle(.touchDown(slot: 0, x: 280, y: y, timeMicroseconds: t))
        touch.handle(.touchDown(slot: 1, x: 360, y: y, timeMicroseconds: t))
        touch.handle(.touchFrame(timeMicroseconds: t))
        for i in 1...8 {
            t += 16_000
            let d = 40 + 60 * Double(i) / 8
            touch.handle(.touchMotion(slot: 0, x: 320 - d, y: y, timeMicroseconds: t))
            touch.handle(.touchMotion(slot: 1, x: 320 + d, y: y, timeMicroseconds: t))
            touch.handle(.touchFrame(timeMicroseconds: t))
        }
        t += 16_000
        touch.handle(.touchUp(slot: 0, timeMicroseconds: t))
        touch.handle(.touchUp(slot: 1, timeMicroseconds: t))
        touch.handle(.touchFrame(timeMicroseconds: t))
        XCTAssertEqual(scene.zoom, 200.0 / 80.0, accuracy: 1e-9)
        XCTAssertEqual(scene.stage.transform.m11, scene.zoom, accuracy: 1e-9)
        XCTAssertEqual(scene.stage.transform.m22, scene.zoom, accuracy: 1e-9)
    }

    /// A shape layer under a 3× zoom is rasterised at 3×: the same pixels
    /// as its path scaled 3× in an unscaled layer (not a magnified bitmap).
    func testZoomedShapeIsAsSharpAsAPathDrawnLarger() throws {
        let path = ShapesScene.arrow(40, bend: 0.5)
        func frame(zoomed: Bool) throws -> Surface<ARGB8888> {
            let root = Layer(name: "root")
            root.bounds = Rect(x: 0, y: 0, width: 160, height: 160)
            root.position = Point(x: 80, y: 80)
            root.backgroundColor = .black
            let holder = Layer(name: "holder")
            holder.anchorPoint = .zero
            holder.bounds = Rect(x: 0, y: 0, width: 160, height: 160)
            let shape = ShapeLayer(name: "arrow")
            shape.anchorPoint = .zero
            shape.bounds = Rect(x: 0, y: 0, width: 160, height: 160)
            shape.fillColor = .white
            if zoomed {
                holder.transform = Transform3D(scaleX: 3, y: 3)
                holder.position = Point(x: 20, y: 20)   // with anchor 0,0
                shape.path = path
            } else {
                holder.position = Point(x: 20, y: 20)
                shape.path = path.applying(AffineTransform(scaleX: 3, y: 3))
            }
            try holder.addSublayer(shape)
            try root.addSublayer(holder)
            let display = try XCTUnwrap(HeadlessDisplay(width: 160, height: 160))
            display.renderFrame(root, with: Compositor())
            let copy = try XCTUnwrap(Surface<ARGB8888>(width: 160, height: 160))
            for y in 0..<160 { for x in 0..<160 { copy.view.row(y)[x] = display.framebuffer.view[x, y] } }
            return copy
        }
        let zoomed = try frame(zoomed: true), large = try frame(zoomed: false)
        var worst: UInt32 = 0, edgePixels = 0
        for y in 0..<160 { for x in 0..<160 {
            let a = zoomed.view[x, y] & 0xFF, b = large.view[x, y] & 0xFF
            worst = max(worst, a > b ? a - b : b - a)
            if a > 0 && a < 255 { edgePixels += 1 }
        } }
        XCTAssertLessThanOrEqual(worst, 2)
        // A sharp edge: partly covered pixels are a thin rim (the outline's
        // length, not a blurred band of 3 pixels).
        XCTAssertGreaterThan(edgePixels, 0)
        XCTAssertLessThan(edgePixels, 2 * 3 * 40 * 4)
    }

    func testShapesAntsMarchAndArrowsMorph() throws {
        let scene = ShapesScene(width: 640, height: 480)
        let t0 = 10.0
        scene.startAnimations(at: t0)
        let period = scene.dashPattern[0] + scene.dashPattern[1]
        guard case let .scalar(phase)? = scene.ants.presentationValue(for: .custom("lineDashPhase"), at: t0 + 0.15) else {
            return XCTFail("no dash phase")
        }
        XCTAssertEqual(phase, period * 0.15 / 0.6, accuracy: 1e-6)
        // The first arrow is bent at the end of its first half cycle.
        guard case let .path(p)? = scene.arrows[0].presentationValue(for: .custom("path"), at: t0 + 1.2) else {
            return XCTFail("no path")
        }
        XCTAssertEqual(p.points.count, scene.bentPath.points.count)
        for (a, b) in zip(p.points, scene.bentPath.points) {
            XCTAssertEqual(a.x, b.x, accuracy: 1e-6); XCTAssertEqual(a.y, b.y, accuracy: 1e-6)
        }
    }

    // MARK: Chrome

    private func statistics(frames: Int, renderNanoseconds: Int64, intervals: Int, intervalNanoseconds: Int64) -> RenderLoopStatistics {
        var s = RenderLoopStatistics()
        s.framesRendered = frames
        s.renderTotalNanoseconds = Int64(frames) * renderNanoseconds
        s.intervalCount = intervals
        s.intervalTotalNanoseconds = Int64(intervals) * intervalNanoseconds
        return s
    }

    func testHUDShowsTheStatisticsItWasGiven() throws {
        let root = Layer(name: "root")
        root.bounds = Rect(x: 0, y: 0, width: 640, height: 480)
        let chrome = DemoChrome(root: root)
        XCTAssertTrue(root.sublayers.last === chrome.layer)
        // The first sample is the baseline: nothing to show yet.
        XCTAssertFalse(chrome.refresh(with: statistics(frames: 10, renderNanoseconds: 9_000_000, intervals: 9,
                                                       intervalNanoseconds: 33_000_000), at: 0))
        // 30 frames later: 4.2 ms each on top of the 10 × 9 ms, flips 1/60 s apart.
        var s = statistics(frames: 10, renderNanoseconds: 9_000_000, intervals: 9, intervalNanoseconds: 33_000_000)
        s.framesRendered += 30; s.renderTotalNanoseconds += 30 * 4_200_000
        s.intervalCount += 30; s.intervalTotalNanoseconds += 30 * 16_666_667
        XCTAssertFalse(chrome.refresh(with: s, at: 0.1), "too soon")
        XCTAssertTrue(chrome.refresh(with: s, at: 0.5))
        let fps = Int((1e9 / 16_666_667).rounded())
        XCTAssertEqual(chrome.text, String(format: "render %.1f ms · %d fps", 4.2, fps))
        XCTAssertEqual(chrome.lastRenderNanoseconds, 4_200_000)
        // Twice the render time: a bar twice as tall.
        var s2 = s
        s2.framesRendered += 20; s2.renderTotalNanoseconds += 20 * 8_400_000
        s2.intervalCount += 20; s2.intervalTotalNanoseconds += 20 * 33_333_333
        XCTAssertTrue(chrome.refresh(with: s2, at: 1))
        XCTAssertEqual(chrome.text, String(format: "render %.1f ms · %d fps", 8.4, Int((1e9 / 33_333_333).rounded())))
        let n = DemoChrome.sampleCount
        XCTAssertEqual(chrome.barHeight(n - 1), 2 * chrome.barHeight(n - 2), accuracy: 1)
        XCTAssertEqual(chrome.barHeight(0), 0)
        // Only the HUD's own frame since: no change (an idle scene stays idle).
        var s3 = s2
        s3.framesRendered += 1
        XCTAssertFalse(chrome.refresh(with: s3, at: 1.5))
        XCTAssertFalse(chrome.refresh(with: s3, at: 2))
    }

    func testTapOnTheHUDCyclesTheOverlays() throws {
        let scene = ShapesScene(width: 640, height: 480)
        let chrome = DemoChrome(root: scene.root)
        let touch = SceneTouch(scene: scene, orientation: DisplayOrientation(panelWidth: 640, panelHeight: 480))
        chrome.installToggle(in: touch.router)
        var seen: [DebugOverlays] = []
        chrome.onOverlaysChange = { seen.append($0) }
        let hud = chrome.layer
        let p = Point(x: hud.position.x - hud.bounds.width / 2, y: hud.position.y + hud.bounds.height / 2)
        var t: UInt64 = 1_000_000
        for _ in 0..<DemoChrome.overlayCycle.count {
            touch.handle(.touchDown(slot: 0, x: p.x, y: p.y, timeMicroseconds: t))
            touch.handle(.touchFrame(timeMicroseconds: t))
            t += 50_000
            touch.handle(.touchUp(slot: 0, timeMicroseconds: t))
            touch.handle(.touchFrame(timeMicroseconds: t))
            t += 1_000_000
            touch.advance(to: Double(t) / 1e6)
        }
        XCTAssertEqual(seen, [.blended, .offscreen, .misaligned, .redrawn, []])
        XCTAssertEqual(chrome.overlays, [])
        XCTAssertEqual(chrome.overlayText, "debug: off (tap)")
    }

    /// The HUD draws on top of the scene, inside its own frame only.
    func testHUDDrawsOnTopInItsCorner() throws {
        func render(hud: Bool) throws -> (Surface<ARGB8888>, Rect?) {
            let scene = DashboardScene(width: 640, height: 480)
            var frame: Rect?
            if hud {
                let chrome = DemoChrome(root: scene.root)
                let l = chrome.layer
                frame = Rect(x: l.position.x - l.bounds.width, y: l.position.y, width: l.bounds.width, height: l.bounds.height)
            }
            let display = try XCTUnwrap(HeadlessDisplay(width: 640, height: 480))
            display.renderFrame(scene.root, with: Compositor())
            let copy = try XCTUnwrap(Surface<ARGB8888>(width: 640, height: 480))
            for y in 0..<480 { for x in 0..<640 { copy.view.row(y)[x] = display.framebuffer.view[x, y] } }
            return (copy, frame)
        }
        let (plain, _) = try render(hud: false)
        let (withHUD, f) = try render(hud: true)
        let frame = try XCTUnwrap(f)
        var inside = 0, outside = 0
        for y in 0..<480 { for x in 0..<640 where plain.view[x, y] != withHUD.view[x, y] {
            if Double(x) >= frame.minX - 1 && Double(x) < frame.maxX + 1 && Double(y) >= frame.minY - 1 && Double(y) < frame.maxY + 1 {
                inside += 1
            } else {
                outside += 1
            }
        } }
        XCTAssertEqual(outside, 0)
        XCTAssertGreaterThan(inside, Int(frame.width * frame.height) / 2)
        if let path = ProcessInfo.processInfo.environment["FBR_HUD_PPM"] {
            var bytes = Array("P6 640 480 255\n".utf8)
            for y in 0..<480 { for x in 0..<640 {
                let p = withHUD.view[x, y]
                bytes += [UInt8((p >> 16) & 0xFF), UInt8((p >> 8) & 0xFF), UInt8(p & 0xFF)]
            } }
            FileManager.default.createFile(atPath: path, contents: Data(bytes))
        }
    }

    /// The overlays reach the render thread's compositor between frames.
    func testRenderLoopTakesOverlaysForTheNextFrame() throws {
        let root = Layer(name: "root")
        root.bounds = Rect(x: 0, y: 0, width: 64, height: 48)
        root.position = Point(x: 32, y: 24)
        root.backgroundColor = Color(rgb: 0x336699)
        let presenter = try XCTUnwrap(SimulatedPresenter(width: 64, height: 48, flipsWaitForVBlank: true,
                                                         time: SimulatedFrameTime(startNanoseconds: 1_000_000_000)))
        let loop = RenderLoop(root: root, presenter: presenter, time: presenter.time)
        XCTAssertTrue(loop.runOnce())
        loop.setDebugOverlays(.blended)
        XCTAssertEqual(loop.compositor.debugOverlays, [])
        XCTAssertTrue(loop.runOnce())
        XCTAssertTrue(loop.runOnce())
        XCTAssertEqual(loop.compositor.debugOverlays, .blended)
        XCTAssertGreaterThanOrEqual(loop.statistics.framesRendered, 2, "the change asks for a frame")
    }
}
