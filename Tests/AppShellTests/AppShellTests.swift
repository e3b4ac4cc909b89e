@testable import AppShell
import FBRuntime
import Input
import KeyboardInput
import TouchInput
import XCTest

/// The app shell's pieces that run without a display: its options, the
/// headless tap script, tap and timer handlers and their failures. (The
/// whole shell runs in scripts/examples-test: Examples/Hello headless
/// against goldens, and on aarch64.)
final class AppShellTests: XCTestCase {
    private struct Refused: Error { let message: String }

    private func parse(_ arguments: [String], extra: (String, inout AppOptionReader) -> Bool = { _, _ in false }) -> AppOptions {
        AppOptions.parse(["app"] + arguments, usage: { fatalError("refused: \($0)") }, extra: extra)
    }

    func testOptionsEveryAppGets() {
        let o = parse(["--headless", "--frames", "12", "--size", "800x480", "--out", "x", "--backend", "fbdev",
                       "--tap", "10,20", "--tap", "30,40", "--board", "some-board"])
        XCTAssertTrue(o.headless)
        XCTAssertEqual(o.frames, 12)
        XCTAssertEqual(o.width, 800)
        XCTAssertEqual(o.height, 480)
        XCTAssertEqual(o.outDirectory, "x")
        XCTAssertEqual(o.backend, .fbdev)
        XCTAssertEqual(o.taps, [Point(x: 10, y: 20), Point(x: 30, y: 40)])
        let defaults = parse([])
        XCTAssertFalse(defaults.headless)
        XCTAssertNil(defaults.frames)
        XCTAssertNil(defaults.backend)
        XCTAssertTrue(defaults.taps.isEmpty)
    }

    func testAppOptionsComeFirst() {
        var scene = ""
        let o = parse(["--scene", "list", "--frames", "3"]) { option, reader in
            guard option == "--scene" else { return false }
            scene = reader.value()
            return true
        }
        XCTAssertEqual(scene, "list")
        XCTAssertEqual(o.frames, 3)
    }

    func testValueParsersRefuseNonsense() {
        XCTAssertNil(AppOptionReader.parseSize("0x10"))
        XCTAssertNil(AppOptionReader.parseSize("10x"))
        XCTAssertNil(AppOptionReader.parseSize("99999999x10"))
        XCTAssertEqual(AppOptionReader.parseSize("640x480")?.width, 640)
        XCTAssertNil(AppOptionReader.parsePoint("1"))
        XCTAssertNil(AppOptionReader.parsePoint("-1,2"))
        XCTAssertNil(AppOptionReader.parsePoint("1,2,3"))
        XCTAssertEqual(AppOptionReader.parsePoint("7,8"), Point(x: 7, y: 8))
    }

    /// Step k: a finger down or a key pressed at frame 1 + 30k, up or
    /// released at the frame after; nothing else. `--tap` and `--key` keep
    /// their order.
    func testInputScriptTiming() {
        let o = parse(["--tap", "1,2", "--key", "Tab", "--tap", "3,4", "--key", "7"])
        XCTAssertEqual(o.taps, [Point(x: 1, y: 2), Point(x: 3, y: 4)])
        XCTAssertEqual(o.inputSteps, [.tap(Point(x: 1, y: 2)), .key(15), .tap(Point(x: 3, y: 4)), .key(8)])
        let script = InputScript(o.inputSteps)
        var touches: [(Int, TouchEvent)] = [], keys: [(Int, KeyEvent)] = []
        for frame in 0..<200 {
            let batch = script.events(atFrame: frame, time: Double(frame))
            for e in batch.touches { touches.append((frame, e)) }
            for k in batch.keys { keys.append((frame, k)) }
        }
        XCTAssertEqual(touches.map { $0.0 }, [1, 2, 61, 62])
        XCTAssertEqual(touches.map { $0.1.phase }, [.began, .ended, .began, .ended])
        XCTAssertEqual(touches[2].1.location, Point(x: 3, y: 4))
        XCTAssertEqual(touches[2].1.timestamp, 61)
        XCTAssertEqual(keys.map { $0.0 }, [31, 32, 91, 92])
        XCTAssertEqual(keys.map { $0.1 }, [KeyEvent(code: 15, pressed: true, timestamp: 31), KeyEvent(code: 15, pressed: false, timestamp: 32),
                                            KeyEvent(code: 8, pressed: true, timestamp: 91), KeyEvent(code: 8, pressed: false, timestamp: 92)])
    }

    /// Key names: the keypad's, letters and digits as a US keyboard
    /// numbers them, evdev codes; nothing else.
    func testKeyNames() {
        XCTAssertEqual(KeyNames.code("enter"), 28)
        XCTAssertEqual(KeyNames.code("DOWN"), 108)
        XCTAssertEqual(KeyNames.code("a"), 30)
        XCTAssertEqual(KeyNames.code("z"), 44)
        XCTAssertEqual(KeyNames.code("q"), 16)
        XCTAssertEqual(KeyNames.code("0"), 11)
        XCTAssertEqual(KeyNames.code("1"), 2)
        XCTAssertEqual(KeyNames.code("125"), 125)
        XCTAssertNil(KeyNames.code("0000"))
        XCTAssertNil(KeyNames.code("768"))
        XCTAssertNil(KeyNames.code("hyper"))
        XCTAssertNil(KeyNames.code(""))
    }

    /// libinput's key events reach the app as they are (evdev code, press
    /// or release, media time); its touches go through the mapper.
    func testLibinputKeysAndTouchesBecomeTheAppsInput() {
        let mapper = TouchEventMapper(orientation: DisplayOrientation(board: BoardConfig(name: "test"), panelWidth: 200, panelHeight: 100))
        var batch = AppInputBatch()
        AppInput.collect(.key(code: 103, pressed: true, timeMicroseconds: 2_000_000), mapper: mapper, into: &batch)
        AppInput.collect(.touchDown(slot: 0, x: 20, y: 30, timeMicroseconds: 2_100_000), mapper: mapper, into: &batch)
        AppInput.collect(.touchFrame(timeMicroseconds: 2_100_000), mapper: mapper, into: &batch)
        AppInput.collect(.key(code: 103, pressed: false, timeMicroseconds: 2_200_000), mapper: mapper, into: &batch)
        AppInput.collect(.wheel(horizontal: 0, vertical: -1, timeMicroseconds: 2_300_000), mapper: mapper, into: &batch)
        XCTAssertEqual(batch.keys, [KeyEvent(code: 103, pressed: true, timestamp: 2), KeyEvent(code: 103, pressed: false, timestamp: 2.2)])
        XCTAssertEqual(batch.touches.first?.location, Point(x: 20, y: 30))
        XCTAssertEqual(batch.wheels, [WheelEvent(horizontal: 0, vertical: -1, timestamp: 2.3)])
    }

    /// Wheel turns (a rotary encoder) reach the wheel handlers after the
    /// batch's keys.
    func testWheelHandlers() {
        withManualRunLoop { _ in
            let screen = Screen(appName: "test", width: 200, height: 100)
            var seen: [String] = []
            screen.onKey { key in seen.append("key \(key.code)") }
            screen.onWheel { wheel in seen.append("wheel \(wheel.vertical)") }
            var batch = AppInputBatch()
            batch.wheels = [WheelEvent(horizontal: 0, vertical: 1, timestamp: 1), WheelEvent(horizontal: 0, vertical: -0.5, timestamp: 1)]
            batch.keys = [KeyEvent(code: 28, pressed: true, timestamp: 1)]
            screen.handle(batch)
            XCTAssertEqual(seen, ["key 28", "wheel 1.0", "wheel -0.5"])
        }
    }

    /// The screen types keys through the board's keymap: each event the
    /// handlers see carries its text (a German board: KEY_Y types "z",
    /// Shift with it "Z", the dead acute then e "é") and keysym; the keymap
    /// is made at the first key.
    func testKeyEventsCarryTheBoardLayoutsText() {
        var board = BoardConfig(name: "german")
        board.keyboardLayout = "de"
        withManualRunLoop { _ in
            let screen = Screen(appName: "test", width: 200, height: 100, board: board)
            XCTAssertNil(screen.keyboard)
            var typed: [String?] = []
            screen.onKey { key in typed.append(key.text) }
            var batch = AppInputBatch()
            for (code, pressed) in [(UInt32(21), true), (21, false), (42, true), (21, true), (21, false), (42, false),
                                    (13, true), (13, false), (18, true), (18, false)] {
                batch.keys.append(KeyEvent(code: code, pressed: pressed, timestamp: 1))
            }
            screen.handle(batch)
            XCTAssertEqual(typed, ["z", "", "", "Z", "", "", "", "", "é", ""])
            XCTAssertEqual(screen.keyboard?.layout, "de")
            XCTAssertEqual(screen.keyboard?.fallbackReason, nil)
        }
    }

    /// Key handlers run in the order they were added, each with every
    /// event; one that throws is counted and the next still runs.
    func testKeyHandlersInOrderAndTheirFailures() {
        withManualRunLoop { _ in
            let screen = Screen(appName: "test", width: 200, height: 100)
            var seen: [String] = []
            screen.onKey(name: "first") { (key: KeyEvent) throws(AppError) in
                seen.append("first \(key.code)")
                if key.code == 14 { throw AppError("no") }
            }
            screen.onKey { key in seen.append("second \(key.code) \(key.pressed)") }
            var batch = AppInputBatch()
            batch.keys = [KeyEvent(code: 15, pressed: true, timestamp: 1), KeyEvent(code: 14, pressed: true, timestamp: 1)]
            screen.handle(batch)
            XCTAssertEqual(seen, ["first 15", "second 15 true", "first 14", "second 14 true"])
            XCTAssertEqual(screen.failures, 1)
        }
    }

    /// The display back at another size: the screen's points, the root's
    /// bounds and its layout follow at once, without animation, then the
    /// resize handlers run; the board's scale divides the pixels.
    func testDisplaySizeChangeLaysTheScreenOutAgain() {
        withManualRunLoop { _ in
            let screen = Screen(appName: "test", width: 640, height: 480, isOnDisplay: true, scale: 2)
            let corner = Layer(name: "corner")
            corner.bounds = Rect(x: 0, y: 0, width: 20, height: 10)
            corner.constraints = [LayoutConstraint(.maxX, offset: -4), LayoutConstraint(.maxY, offset: -4)]
            try? screen.root.addSublayer(corner)
            screen.root.layoutManager = ConstraintLayoutManager()
            screen.root.layoutIfNeeded()
            screen.root.isDisplayRoot = true
            XCTAssertEqual(corner.frame, Rect(x: 296, y: 226, width: 20, height: 10))
            var resized: [Double] = []
            screen.onResize { resized.append(screen.width) }

            AppRunLoop.current.runTurn { screen.displaySizeChanged(width: 800, height: 600) }
            XCTAssertEqual(screen.width, 400)
            XCTAssertEqual(screen.height, 300)
            XCTAssertEqual(screen.root.bounds, Rect(x: 0, y: 0, width: 400, height: 300))
            XCTAssertEqual(screen.root.position, Point(x: 400, y: 300), "centred on the panel, in its pixels")
            XCTAssertEqual(corner.frame, Rect(x: 376, y: 286, width: 20, height: 10), "at the new bottom right corner")
            XCTAssertTrue(screen.root.animations.isEmpty && corner.animations.isEmpty, "a new mode is a jump, not an animation")
            XCTAssertEqual(resized, [400])
            screen.displaySizeChanged(width: 800, height: 600)
            XCTAssertEqual(resized, [400], "the same size again changes nothing")
        }
    }

    private func withManualRunLoop(_ body: (ManualClock) -> Void) {
        let saved = AppRunLoop.current
        let clock = ManualClock(now: 100)
        AppRunLoop.current = AppRunLoop(clock: clock)
        defer { AppRunLoop.current = saved }
        body(clock)
    }

    private func tap(_ screen: Screen, at p: Point, time: MediaTime, id: Int32 = 1) {
        screen.router.handle(TouchEvent(id: id, phase: .began, location: p, timestamp: time))
        screen.router.handle(TouchEvent(id: id, phase: .ended, location: p, timestamp: time + 0.05))
        screen.advance(to: time + 0.05)
    }

    /// A tap inside the layer calls its handler once; a tap elsewhere does
    /// not; a handler that throws is counted (and logged) and the next tap
    /// still reaches it.
    func testTapHandlersAndTheirFailures() {
        withManualRunLoop { clock in
            let screen = Screen(appName: "test", width: 200, height: 100)
            let button = Layer(name: "button")
            button.frame = Rect(x: 10, y: 10, width: 50, height: 30)
            try? screen.root.addSublayer(button)
            var calls = 0
            screen.onTap(button) { () throws(AppError) in
                calls += 1
                if calls == 2 { throw AppError("disk full") }
            }
            tap(screen, at: Point(x: 20, y: 20), time: 100)
            XCTAssertEqual(calls, 1)
            tap(screen, at: Point(x: 150, y: 80), time: 101)
            XCTAssertEqual(calls, 1, "a tap outside the button")
            tap(screen, at: Point(x: 30, y: 25), time: 102)
            XCTAssertEqual(calls, 2)
            XCTAssertEqual(screen.failures, 1)
            tap(screen, at: Point(x: 30, y: 25), time: 103)
            XCTAssertEqual(calls, 3, "the handler still runs after it failed")
            XCTAssertEqual(screen.failures, 1)
        }
    }

    /// With the board's scale 2, the screen is half the panel in points,
    /// drawn magnified, and a tap at a panel pixel lands on the layer laid
    /// out at that pixel's point (here by a stack).
    func testScaledScreenIsInPoints() {
        withManualRunLoop { _ in
            let screen = Screen(appName: "test", width: 400, height: 200, scale: 2)
            XCTAssertEqual(screen.scale, 2)
            XCTAssertEqual([screen.width, screen.height], [200, 100])
            XCTAssertEqual(screen.root.bounds, Rect(x: 0, y: 0, width: 200, height: 100))
            XCTAssertEqual(screen.root.frame, Rect(x: 0, y: 0, width: 400, height: 200))
            screen.root.layoutManager = StackLayout(gap: 10, padding: EdgeInsets(all: 10))
            let left = Layer(name: "left"), right = Layer(name: "right")
            left.bounds.size = Size(width: 50, height: 30)
            right.bounds.size = Size(width: 50, height: 30)
            try? screen.root.addSublayer(left); try? screen.root.addSublayer(right)
            screen.root.layoutIfNeeded()
            XCTAssertEqual(right.frame, Rect(x: 70, y: 10, width: 50, height: 30))
            var taps = 0
            screen.onTap(right) { () throws(AppError) in taps += 1 }
            tap(screen, at: Point(x: 100, y: 30), time: 100)   // point (50, 15): on `left`
            XCTAssertEqual(taps, 0)
            tap(screen, at: Point(x: 150, y: 30), time: 101)   // point (75, 15)
            XCTAssertEqual(taps, 1)
        }
    }

    /// A page's handlers go with `removeHandlers(in:)`, and with them what
    /// they captured; handlers elsewhere stay.
    func testRemovingAPagesHandlersReleasesThem() {
        withManualRunLoop { _ in
            let screen = Screen(appName: "test", width: 200, height: 100)
            let page = Layer(name: "page"), other = Layer(name: "other")
            page.frame = Rect(x: 0, y: 0, width: 100, height: 100)
            other.frame = Rect(x: 100, y: 0, width: 100, height: 100)
            let button = Layer(name: "button")
            button.frame = Rect(x: 10, y: 10, width: 50, height: 50)
            try? page.addSublayer(button)
            try? screen.root.addSublayer(page)
            try? screen.root.addSublayer(other)
            final class Token {}
            var token: Token? = Token()
            weak let watched = token
            var calls = 0
            screen.onTap(button) { [token] in _ = token; calls += 1 }
            screen.onTap(other) { calls += 10 }
            token = nil
            XCTAssertNotNil(watched, "the handler keeps what it captured")
            screen.removeHandlers(in: page)
            XCTAssertNil(watched, "removed with the page's handlers")
            tap(screen, at: Point(x: 20, y: 20), time: 100)
            XCTAssertEqual(calls, 0)
            tap(screen, at: Point(x: 150, y: 20), time: 101)
            XCTAssertEqual(calls, 10, "the other layer's handler stays")
        }
    }

    /// Headless there are no render-loop figures; the overlays an app sets
    /// reach whatever draws the frames (the shell's hook), in order.
    func testDisplayFiguresAndOverlays() {
        withManualRunLoop { _ in
            let screen = Screen(appName: "test", width: 10, height: 10)
            XCTAssertFalse(screen.isOnDisplay)
            XCTAssertNil(screen.renderStatistics)
            var seen: [DebugOverlays] = []
            screen.onDebugOverlaysChange = { seen.append($0) }
            screen.debugOverlays = .blended
            screen.debugOverlays = []
            XCTAssertEqual(seen, [.blended, []])
            screen.statisticsSource = { RenderLoopStatistics() }
            XCTAssertEqual(screen.renderStatistics?.framesShown, 0)
        }
    }

    /// `every` fires once per interval, once when late however late, and
    /// names the earliest deadline for the app thread's wait.
    func testTimers() {
        withManualRunLoop { clock in
            let screen = Screen(appName: "test", width: 10, height: 10)
            var fired: [MediaTime] = []
            screen.every(0.5, name: "tick") { t in fired.append(t) }
            XCTAssertEqual(screen.nextDeadline, 100.5)
            screen.advance(to: 100.2)
            XCTAssertEqual(fired, [])
            screen.advance(to: 100.5)
            XCTAssertEqual(fired, [100.5])
            XCTAssertEqual(screen.nextDeadline, 101)
            screen.advance(to: 103.2)   // late: one call, then 0.5 s after now
            XCTAssertEqual(fired, [100.5, 103.2])
            XCTAssertEqual(screen.nextDeadline, 103.7)
        }
    }
}
