@testable import AppShell
import FBRuntime
import FBRuntimeTestSupport
import XCTest

/// The app shell's part of idle blanking: every event of a batch passes
/// the `IdleBlanker` before the app sees it, so the sequence that wakes a
/// dark screen never reaches a handler, and what follows does.
final class IdleInputTests: XCTestCase {
    func testTheWakingBatchIsFilteredAndLaterInputDelivered() {
        let time = SimulatedFrameTime(startNanoseconds: 1_000_000)
        let display = SimulatedPresenter(width: 32, height: 24, flipsWaitForVBlank: false, time: time)!
        let root = Layer()
        root.bounds = Rect(x: 0, y: 0, width: 32, height: 24)
        let loop = RenderLoop(root: root, presenter: display, time: time)
        loop.renderBudgetNanoseconds = 1_000_000
        loop.idleTimeoutNanoseconds = 100_000
        for _ in 0..<2 { XCTAssertTrue(loop.runOnce()) }
        let blanker = IdleBlanker(timeouts: IdleTimeouts(dimAfterNanoseconds: nil, offAfterNanoseconds: 1_000_000_000),
                                  backlight: nil, loop: loop)
        time.advance(byNanoseconds: 1_000_000_000)
        blanker.tick()
        XCTAssertEqual(blanker.state, .off)

        func touch(_ id: Int32, _ phase: TouchEvent.Phase) -> TouchEvent {
            TouchEvent(id: id, phase: phase, location: Point(x: 5, y: 5), timestamp: 0)
        }
        // One batch: a finger down and up (the wake), a key pressed and released, a wheel turn.
        var batch = AppInputBatch()
        batch.touches = [touch(0, .began), touch(0, .moved), touch(0, .ended)]
        batch.keys = [KeyEvent(code: 28, pressed: true, timestamp: 0), KeyEvent(code: 28, pressed: false, timestamp: 0)]
        batch.wheels = [WheelEvent(horizontal: 0, vertical: 1, timestamp: 0)]
        batch.admit(through: blanker)
        XCTAssertEqual(batch.touches, [], "the waking touch, down to up")
        XCTAssertEqual(batch.keys.count, 2, "the screen is waking: a key pressed now is delivered")
        XCTAssertEqual(batch.wheels.count, 1)
        XCTAssertEqual(blanker.state, .waking)

        var later = AppInputBatch()
        later.touches = [touch(0, .began), touch(0, .ended)]
        later.admit(through: blanker)
        XCTAssertEqual(later.touches.count, 2, "the next touch is delivered")
    }
}
