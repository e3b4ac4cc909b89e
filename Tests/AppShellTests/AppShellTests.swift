@testable import AppShell
import FBRuntime
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

    /// Tap k: down at frame 1 + 30k, up at the frame after; nothing else.
    func testTapScriptTiming() {
        let script = TapScript([Point(x: 1, y: 2), Point(x: 3, y: 4)])
        var seen: [(Int, TouchEvent)] = []
        for frame in 0..<100 { for e in script.events(atFrame: frame, time: Double(frame)) { seen.append((frame, e)) } }
        XCTAssertEqual(seen.map { $0.0 }, [1, 2, 31, 32])
        XCTAssertEqual(seen.map { $0.1.phase }, [.began, .ended, .began, .ended])
        XCTAssertEqual(seen[2].1.location, Point(x: 3, y: 4))
        XCTAssertEqual(seen[2].1.timestamp, 31)
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
