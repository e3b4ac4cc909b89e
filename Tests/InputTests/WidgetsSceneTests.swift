import Controls
@testable import DemoScenes
import DemoTouchScripts
import FBRuntime
import Raster
import XCTest

/// The widgets demo: its layout at the boards' smallest, a middle and the
/// largest panel and a few others (every control on screen, none over
/// another), and its interaction through the real `TouchRouter` with the
/// scene's own gestures, on a manual clock, a run-loop turn per event (as
/// fbdemo routes input).
final class WidgetsSceneTests: XCTestCase {
    private var clock = ManualClock(now: 10)
    private var savedLoop: AppRunLoop!

    override func setUp() {
        savedLoop = AppRunLoop.current
        clock = ManualClock(now: 10)
        AppRunLoop.current = AppRunLoop(clock: clock)
    }

    override func tearDown() { AppRunLoop.current = savedLoop }

    /// The boards' smallest and largest panels and a middle one, then
    /// common others, a portrait one and one smaller than any board's.
    static let sizes: [(Double, Double)] = [(480, 272), (640, 480), (1920, 1080),
                                            (800, 480), (1024, 600), (1280, 720), (480, 800), (320, 240)]

    /// The scene displayed, with its gestures in a router over its root.
    private func make(width: Double = 640, height: Double = 480) -> (WidgetsScene, TouchRouter) {
        let scene = WidgetsScene(width: width, height: height)
        scene.root.isDisplayRoot = true
        let router = TouchRouter(root: scene.root)
        XCTAssertTrue(scene.installGestures(in: router))
        return (scene, router)
    }

    private func send(_ router: TouchRouter, _ phase: TouchEvent.Phase, _ p: Point) {
        AppRunLoop.current.runTurn { router.handle(TouchEvent(id: 1, phase: phase, location: p, timestamp: clock.now)) }
    }

    private func tap(_ router: TouchRouter, at p: Point) {
        send(router, .began, p)
        clock.advance(by: 0.05)
        send(router, .ended, p)
    }

    private func drag(_ router: TouchRouter, from: Point, to: Point, moves: Int = 8) {
        send(router, .began, from)
        for i in 1...moves {
            clock.advance(by: 0.016)
            let f = Double(i) / Double(moves)
            send(router, .moved, Point(x: from.x + (to.x - from.x) * f, y: from.y + (to.y - from.y) * f))
        }
        clock.advance(by: 0.016)
        send(router, .ended, to)
    }

    /// Run-loop turns of 1/60 s for `seconds` (animations end).
    private func run(_ seconds: Double) {
        for _ in 0..<Int((seconds * 60).rounded(.up)) {
            clock.advance(by: 1.0 / 60)
            AppRunLoop.current.runTurn {}
        }
    }

    /// `layer`'s bounds in the root's space (the display's: the root fills
    /// it from the origin).
    private func frame(_ layer: Layer, in scene: WidgetsScene) -> Rect {
        layer.convert(layer.bounds, to: scene.root)
    }

    private func mid(_ r: Rect) -> Point { Point(x: r.minX + r.width / 2, y: r.minY + r.height / 2) }

    private func centre(_ layer: Layer, in scene: WidgetsScene) -> Point {
        let f = frame(layer, in: scene)
        return Point(x: f.minX + f.width / 2, y: f.minY + f.height / 2)
    }

    /// The centre of segment `i` of the tabs, display space.
    private func segment(_ i: Int, in scene: WidgetsScene) -> Point {
        let f = frame(scene.tabs, in: scene)
        let n = Double(scene.tabs.titles.count)
        return Point(x: f.minX + f.width * (Double(i) + 0.5) / n, y: f.minY + f.height / 2)
    }

    private func render(_ scene: WidgetsScene, width: Int, height: Int, at t: MediaTime) -> [UInt32] {
        let s = Surface<ARGB8888>(width: width, height: height)!
        Compositor().render(scene.root, at: t, into: s.view, clearColor: .black)
        var pixels: [UInt32] = []
        pixels.reserveCapacity(width * height)
        for y in 0..<height { let row = s.view.row(y); for x in 0..<width { pixels.append(row[x]) } }
        return pixels
    }

    /// Every control in the tree but the panels (which hold the others),
    /// with the page it is on (nil: the header and the tabs, always shown).
    private func controls(of scene: WidgetsScene) -> [(control: Control, page: Int?)] {
        var found: [(Control, Int?)] = []
        func walk(_ layer: Layer, page: Int?) {
            var page = page
            if let i = scene.pages.firstIndex(where: { $0 === layer }) { page = i }
            if let c = layer as? Control, !(c is WidgetsPanel) { found.append((c, page)) }
            for s in layer.sublayers { walk(s, page: page) }
        }
        walk(scene.root, page: nil)
        return found
    }

    // MARK: Layout

    func testEveryControlIsOnScreenAndNoneOverlapsAnotherAtThreeSizes() throws {
        for (w, h) in Self.sizes {
            let scene = WidgetsScene(width: w, height: h)
            let screen = Rect(x: 0, y: 0, width: w, height: h)
            XCTAssertEqual(scene.root.bounds, screen)
            let all = controls(of: scene)
            XCTAssertGreaterThanOrEqual(all.count, 20, "\(w)x\(h)")
            for control in scene.interactiveControls {
                XCTAssertTrue(all.contains { $0.control === control }, "\(control.name) is in the tree")
            }
            for (c, page) in all {
                let f = frame(c, in: scene)
                let what = "\(c.name) on page \(page.map { String($0) } ?? "-") at \(Int(w))x\(Int(h)): \(f)"
                XCTAssertGreaterThan(f.width, 0, what)
                XCTAssertGreaterThan(f.height, 0, what)
                XCTAssertTrue(f.minX >= -1e-9 && f.minY >= -1e-9 && f.maxX <= w + 1e-9 && f.maxY <= h + 1e-9, "off screen: " + what)
            }
            // Interactive controls get at least the height they ask for
            // (nothing squeezed to fit).
            for c in scene.interactiveControls {
                XCTAssertGreaterThanOrEqual(frame(c, in: scene).height, c.preferredSize.height - 1e-9, "\(c.name) \(Int(w))x\(Int(h))")
            }
            // No two overlap, but controls of different pages (one page is
            // shown at a time).
            for i in all.indices {
                for j in all.indices where j > i {
                    let (a, pa) = all[i], (b, pb) = all[j]
                    if let pa, let pb, pa != pb { continue }
                    let fa = frame(a, in: scene), fb = frame(b, in: scene)
                    let overlapX = Swift.min(fa.maxX, fb.maxX) - Swift.max(fa.minX, fb.minX)
                    let overlapY = Swift.min(fa.maxY, fb.maxY) - Swift.max(fa.minY, fb.minY)
                    XCTAssertFalse(overlapX > 1e-6 && overlapY > 1e-6,
                                   "\(a.name) \(fa) overlaps \(b.name) \(fb) at \(Int(w))x\(Int(h))")
                }
            }
        }
    }

    func testTheSceneIsLaidOutAndStillWhenFirstDisplayed() throws {
        let scene = WidgetsScene(width: 480, height: 272)
        scene.root.isDisplayRoot = true
        AppRunLoop.current.runTurn {}
        var animated: [String] = []
        func walk(_ layer: Layer) {
            if !layer.animations.isEmpty || layer.needsLayout { animated.append(layer.name) }
            for s in layer.sublayers { walk(s) }
        }
        walk(scene.root)
        XCTAssertEqual(animated, [], "nothing moves or waits for layout at rest")
        XCTAssertEqual(scene.page, 0)
        XCTAssertFalse(scene.pages[0].isHidden)
        XCTAssertTrue(scene.pages[1].isHidden)
    }

    // MARK: Interaction

    func testTappingTheTabsSwitchesPages() throws {
        let (scene, router) = make()
        XCTAssertEqual(scene.tabs.selectedIndex, 0)
        let wifi = centre(scene.wifiSwitch, in: scene)
        // The Settings page is hidden: a tap where its Wi-Fi switch will be
        // changes nothing.
        tap(router, at: wifi)
        XCTAssertTrue(scene.wifiSwitch.isOn)

        tap(router, at: segment(1, in: scene))
        XCTAssertEqual(scene.tabs.selectedIndex, 1)
        XCTAssertEqual(scene.page, 1)
        XCTAssertTrue(scene.pages[0].isHidden)
        XCTAssertFalse(scene.pages[1].isHidden)
        // The page fades in.
        if case let .scalar(o)? = scene.pages[1].presentationValue(for: .opacity, at: clock.now + 0.05) {
            XCTAssertGreaterThan(o, 0)
            XCTAssertLessThan(o, 1)
        } else {
            XCTFail("no fade")
        }
        run(0.5)
        tap(router, at: wifi)
        XCTAssertFalse(scene.wifiSwitch.isOn, "the Settings page's controls take touches once it shows")

        tap(router, at: segment(0, in: scene))
        XCTAssertEqual(scene.page, 0)
        XCTAssertFalse(scene.pages[0].isHidden)
        XCTAssertTrue(scene.pages[1].isHidden)
    }

    func testTheDarkSwitchChangesTheColours() throws {
        let (scene, router) = make()
        let light = render(scene, width: 640, height: 480, at: clock.now)
        XCTAssertEqual(scene.root.backgroundColor, Theme.light.colors.background)
        tap(router, at: centre(scene.darkSwitch, in: scene))
        XCTAssertTrue(scene.isDark)
        let tapped = clock.now
        // The model is dark at once; on screen the colours fade.
        XCTAssertEqual(scene.root.backgroundColor, Theme.dark.colors.background)
        XCTAssertEqual(scene.tabs.theme.colors.track, Theme.dark.colors.track)
        XCTAssertEqual(scene.cycleLabel.textLayer.foregroundColor, Theme.dark.colors.text)
        if case let .color(mid)? = scene.root.presentationValue(for: .backgroundColor, at: tapped + WidgetsScene.themeDuration / 2) {
            XCTAssertLessThan(mid.red, Theme.light.colors.background.red)
            XCTAssertGreaterThan(mid.red, Theme.dark.colors.background.red)
        } else {
            XCTFail("the background does not animate")
        }
        run(WidgetsScene.themeDuration + 0.3)
        let dark = render(scene, width: 640, height: 480, at: clock.now)
        XCTAssertNotEqual(light, dark)
        // A pixel of the background, below the cards' bottom padding:
        // the themes' background colours.
        let body = frame(scene.pages[0], in: scene)
        let x = 2, y = Int(mid(body).y)
        XCTAssertEqual(light[y * 640 + x] & 0xFF_FFFF, 0xF2F2F5)
        XCTAssertEqual(dark[y * 640 + x] & 0xFF_FFFF, 0x101014)
        // And back.
        tap(router, at: centre(scene.darkSwitch, in: scene))
        run(WidgetsScene.themeDuration + 0.3)
        XCTAssertFalse(scene.isDark)
        XCTAssertEqual(render(scene, width: 640, height: 480, at: clock.now), light)
    }

    func testDraggingASliderChangesItsValue() throws {
        let (scene, router) = make()
        tap(router, at: segment(1, in: scene))
        run(0.5)
        let slider = scene.brightnessSlider
        XCTAssertEqual(slider.value, 70)
        var reported: [Double] = []
        let label = scene.brightnessLabel
        // The thumb's centre, and 20 % of the track's span to the left.
        let thumb = slider.convert(Point(x: slider.thumbCenterX(for: 70), y: mid(slider.bounds).y), to: scene.root)
        let span = slider.thumbCenterX(for: 100) - slider.thumbCenterX(for: 0)
        let handler = slider.onValueChanged
        slider.onValueChanged = { s in reported.append(s.value); handler?(s) }
        drag(router, from: thumb, to: Point(x: thumb.x - 0.2 * span, y: thumb.y))
        XCTAssertEqual(slider.value, 50, accuracy: 1e-9)
        XCTAssertEqual(reported.last ?? .nan, 50, accuracy: 1e-9)
        XCTAssertEqual(label.string, "50 %")
        // The volume slider did not move.
        XCTAssertEqual(scene.volumeSlider.value, 40)
    }

    func testTheStepperAndTheWheelAreAttached() throws {
        let (scene, router) = make()
        tap(router, at: segment(1, in: scene))
        run(0.5)
        let stepper = scene.temperatureStepper
        let plus = stepper.convert(Point(x: stepper.bounds.maxX - stepper.bounds.width / 4, y: mid(stepper.bounds).y), to: scene.root)
        tap(router, at: plus)
        XCTAssertEqual(stepper.value, 50)
        XCTAssertEqual(scene.temperatureLabel.string, "50 °C")
        // A tap on the row below the wheel's band scrolls it in.
        let wheel = scene.modeWheel
        XCTAssertEqual(wheel.selectedIndex, 1)
        let below = wheel.convert(Point(x: mid(wheel.bounds).x, y: mid(wheel.bounds).y + wheel.rowHeight), to: scene.root)
        tap(router, at: below)
        run(1)
        XCTAssertEqual(wheel.selectedIndex, 2)
    }

    // MARK: Animation and the touch script

    func testStartAnimationsRunsTheCycleOnFromRest() throws {
        let scene = WidgetsScene(width: 480, height: 272)
        let rest = render(scene, width: 480, height: 272, at: 10)
        XCTAssertEqual(render(scene, width: 480, height: 272, at: 17), rest, "still at rest")
        scene.startAnimations(at: 10)
        XCTAssertEqual(render(scene, width: 480, height: 272, at: 10), rest, "the start is the rest frame")
        let arc = scene.cycleRing.arcLayer
        func strokeEnd(_ t: MediaTime) -> Double? {
            if case let .scalar(v)? = arc.presentationValue(for: .strokeEnd, at: t) { return v }
            return nil
        }
        XCTAssertEqual(strokeEnd(10) ?? .nan, WidgetsScene.restingCycle, accuracy: 1e-9)
        XCTAssertEqual(strokeEnd(20) ?? .nan, (WidgetsScene.restingCycle + 1) / 2, accuracy: 1e-9)
        XCTAssertEqual(scene.cycleProgress(at: 20), (WidgetsScene.restingCycle + 1) / 2, accuracy: 1e-9)
        // A turn shows the percentage; a turn after a chart step moves the
        // line chart on.
        let values = scene.lineChart.values
        AppRunLoop.current.runTurn { scene.turn(at: 20) }
        XCTAssertEqual(scene.cycleLabel.string, "86 %")
        XCTAssertEqual(scene.lineChart.values, WidgetsScene.temperatures(step: 5))
        XCTAssertNotEqual(scene.lineChart.values, values)
        AppRunLoop.current.runTurn { scene.turn(at: 40) }
        XCTAssertEqual(scene.cycleLabel.string, "100 %")
    }

    func testTheTouchScriptLeavesTheSettingsPageDark() throws {
        let (scene, router) = make(width: 640, height: 480)
        for step in DemoTouchScripts.steps(for: scene) {
            guard case let .tap(x, y) = step else { return XCTFail("taps only") }
            tap(router, at: Point(x: (x * 639).rounded(), y: (y * 479).rounded()))   // as fbcheck rounds to pixels
            clock.advance(by: 0.3)
        }
        run(DemoTouchScripts.restSeconds(for: scene))
        XCTAssertTrue(scene.isDark)
        XCTAssertEqual(scene.page, 1)
        var moving: [String] = []
        func walk(_ layer: Layer) {
            if !layer.animations.isEmpty { moving.append(layer.name) }
            for s in layer.sublayers { walk(s) }
        }
        walk(scene.root)
        XCTAssertEqual(moving, [], "at rest after the script")
    }
}
