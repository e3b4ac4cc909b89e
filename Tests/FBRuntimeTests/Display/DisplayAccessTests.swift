import XCTest
@testable import FBRuntime
import FBRuntimeTestSupport
import Raster

/// Losing and regaining the display (DRM master) in the render loop, and
/// the retry back-off.
final class DisplayAccessTests: XCTestCase {
    // MARK: Render loop without the display

    /// A 64×48 scene with a square sliding for 0.6 s (forever when
    /// `repeats`).
    func scene(repeats: Bool = true) -> Layer {
        let root = Layer(name: "root")
        root.bounds = Rect(x: 0, y: 0, width: 64, height: 48)
        root.position = Point(x: 32, y: 24)
        root.backgroundColor = Color(rgb: 0x203040)
        let square = Layer(name: "square")
        square.bounds = Rect(x: 0, y: 0, width: 8, height: 8)
        square.position = Point(x: 8, y: 24)
        square.backgroundColor = Color(rgb: 0xFFFFFF)
        var slide = BasicAnimation(key: .position, from: .point(square.position), to: .point(Point(x: 56, y: 24)), duration: 0.6)
        if repeats { slide.repeatCount = .infinity }
        square.add(slide, forKey: "slide", at: 0)
        try! root.addSublayer(square)
        return root
    }

    /// The screen a correct display shows at `t`: an independent render of
    /// the whole frame by a fresh compositor.
    func expectedScreen(_ root: Layer, at t: Int64) -> Surface<XRGB8888> {
        let reference = Surface<ARGB8888>(width: 64, height: 48)!
        Compositor().render(root, at: Double(t) / 1e9, into: reference.view)
        let expected = Surface<XRGB8888>(width: 64, height: 48)!
        ScanoutConversion.copy(reference.view, into: expected.view, rect: reference.view.bounds)
        return expected
    }

    func testMasterLostRendersNothingThenModesetsTheWholeFrame() {
        let root = scene(repeats: false)
        let display = SimulatedPresenter(width: 64, height: 48, time: SimulatedFrameTime(startNanoseconds: 1_000_000))!
        let loop = RenderLoop(root: root, presenter: display, time: display.time)
        loop.renderBudgetNanoseconds = 2_000_000
        for _ in 0..<10 { XCTAssertTrue(loop.runOnce()) }
        XCTAssertEqual(display.pageFlipState, .waitingForFlip)

        // Another process takes master for 200 ms and draws over the screen.
        let takenAt = display.time.nanoseconds()
        display.masterTakenUntil = takenAt + 200_000_000
        let committedBefore = display.presentTimes.count
        XCTAssertTrue(loop.runOnce())   // waits for the flip, then the commit is refused
        XCTAssertEqual(display.masterLosses, 1)
        let screen = display.screen.view
        for y in 0..<screen.height { for x in 0..<screen.width { screen[x, y] = 0x00FF_00FF } }
        var turns = 0
        while display.time.nanoseconds() < takenAt + 200_000_000 && turns < 1000 {
            XCTAssertTrue(loop.runOnce())   // the loop keeps running…
            display.time.advance(byNanoseconds: 5_000_000)
            turns += 1
        }
        XCTAssertEqual(display.presentTimes.count, committedBefore, "nothing committed without master")
        var stats = loop.statistics
        XCTAssertEqual(stats.masterLostCommits, 1)
        XCTAssertEqual(stats.displaySuspensions, 1)
        XCTAssertGreaterThan(stats.suspendedWaits, 0)
        XCTAssertEqual(stats.displayResumptions, 0)

        // Back: a modeset with the whole frame, then flips again.
        let shownBefore = stats.framesShown
        for _ in 0..<5 { XCTAssertTrue(loop.runOnce()) }
        if display.isFlipPending { _ = try? display.waitForFlip(timeoutNanoseconds: 1) }
        stats = loop.statistics
        XCTAssertEqual(display.regains, 1)
        XCTAssertEqual(stats.displayResumptions, 1)
        XCTAssertGreaterThanOrEqual(stats.framesShown, shownBefore + 4, "the animation goes on")
        XCTAssertNil(loop.error)
        // Run until the animation has ended and the loop idles: the other
        // process's drawing is gone everywhere, not only where the square
        // moved (the first frame back copied the whole frame), and the
        // screen is the scene's final state.
        var idleTurns = 0
        while loop.statistics.idleWaits == 0 && idleTurns < 200 {
            XCTAssertTrue(loop.runOnce())
            idleTurns += 1
        }
        XCTAssertGreaterThan(loop.statistics.idleWaits, 0)
        XCTAssertEqual(pixelChecksum(display.screen.view), pixelChecksum(expectedScreen(root, at: 2_000_000_000).view))
    }

    func testStopEndsTheLoopWhileTheDisplayIsAway() {
        let display = SimulatedPresenter(width: 64, height: 48, time: SimulatedFrameTime(startNanoseconds: 1_000_000))!
        let loop = RenderLoop(root: scene(), presenter: display, time: display.time)
        loop.suspendedPollNanoseconds = 1_000_000
        XCTAssertTrue(loop.runOnce())
        display.masterTakenUntil = Int64.max   // never given back
        try! loop.start()
        XCTAssertTrue(loop.waitUntil(timeoutNanoseconds: 5_000_000_000) { $0.suspendedWaits >= 3 })
        loop.stop()
        XCTAssertFalse(loop.isRunning)
        XCTAssertEqual(display.regains, 0)
        XCTAssertNil(loop.error, "a lost display is not an error that ends the loop")
    }

    // MARK: Back-off

    func testBackoffDoublesFromInitialAndStaysBounded() {
        let backoff = MasterRetryBackoff(initialNanoseconds: 3_000_000, maximumNanoseconds: 250_000_000)
        for n in 0..<80 {
            // Oracle: the real-number formula, then the cap.
            let expected = min(250_000_000.0, 3_000_000.0 * pow(2.0, Double(n)))
            XCTAssertEqual(Double(backoff.delay(afterFailedAttempts: n)), expected, "attempt \(n)")
        }
        XCTAssertEqual(backoff.delay(afterFailedAttempts: Int.max), 250_000_000)
        XCTAssertEqual(backoff.delay(afterFailedAttempts: -5), 3_000_000)
        let odd = MasterRetryBackoff(initialNanoseconds: -1, maximumNanoseconds: -7)
        XCTAssertEqual(odd.delay(afterFailedAttempts: 10), 0)
        let huge = MasterRetryBackoff(initialNanoseconds: Int64.max / 2 + 1, maximumNanoseconds: Int64.max)
        XCTAssertEqual(huge.delay(afterFailedAttempts: 3), Int64.max)
    }
}
