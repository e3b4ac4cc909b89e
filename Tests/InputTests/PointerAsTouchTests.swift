import XCTest
@testable import Input
import FBRuntime
import TouchInput

/// A pointer as one touch, and libinput events into the runtime's touches.
final class PointerAsTouchTests: XCTestCase {
    private func run(_ body: (inout PointerAsTouch, (InputEvent) -> Void) -> Void) -> [InputEvent] {
        var pointer = PointerAsTouch()
        var events: [InputEvent] = []
        body(&pointer) { events.append($0) }
        return events
    }

    func testLeftButtonDragIsATouch() {
        let slot = InputEvent.pointerSlot
        let events = run { p, emit in
            p.moved(x: 100, y: 50, width: 640, height: 480, time: 1, emit)          // hover
            p.button(PointerAsTouch.leftButton, pressed: true, time: 2, emit)
            p.moved(dx: 10, dy: -5, width: 640, height: 480, time: 3, emit)
            p.button(0x111, pressed: true, time: 4, emit)                         // right button: nothing
            p.button(PointerAsTouch.leftButton, pressed: false, time: 5, emit)
        }
        XCTAssertEqual(events, [
            .pointerMoved(x: 100, y: 50, timeMicroseconds: 1),
            .touchDown(slot: slot, x: 100, y: 50, timeMicroseconds: 2), .touchFrame(timeMicroseconds: 2),
            .pointerMoved(x: 110, y: 45, timeMicroseconds: 3),
            .touchMotion(slot: slot, x: 110, y: 45, timeMicroseconds: 3), .touchFrame(timeMicroseconds: 3),
            .touchUp(slot: slot, timeMicroseconds: 5), .touchFrame(timeMicroseconds: 5),
        ])
    }

    func testRelativeMotionIsClampedAndBadDeltasIgnored() {
        let events = run { p, emit in
            p.moved(dx: -50, dy: 9000, width: 640, height: 480, time: 1, emit)
            p.moved(dx: .nan, dy: 1, width: 640, height: 480, time: 2, emit)
            p.moved(dx: .infinity, dy: 1, width: 640, height: 480, time: 3, emit)
            p.button(PointerAsTouch.leftButton, pressed: true, time: 4, emit)
            p.removed(time: 5, emit)                                                // unplugged mid-drag
        }
        XCTAssertEqual(events, [
            .pointerMoved(x: 0, y: 480, timeMicroseconds: 1),
            .touchDown(slot: InputEvent.pointerSlot, x: 0, y: 480, timeMicroseconds: 4), .touchFrame(timeMicroseconds: 4),
            .touchCancel(slot: InputEvent.pointerSlot, timeMicroseconds: 5), .touchFrame(timeMicroseconds: 5),
        ])
    }

    func testMapperAppliesTheOrientationAndConvertsTime() {
        // Panel 800×480 turned 90° clockwise: the panel's top-right corner
        // is the UI's top-left; the panel's (800, 480) its top-right… so a
        // point (x, y) on the panel is (y, 800 − x) in the UI.
        let mapper = TouchEventMapper(orientation: DisplayOrientation(rotation: .clockwise90, panelWidth: 800, panelHeight: 480))
        let down = mapper.touchEvent(.touchDown(slot: 3, x: 700, y: 20, timeMicroseconds: 2_500_000))
        XCTAssertEqual(down, TouchEvent(id: 3, phase: .began, location: Point(x: 20, y: 100), timestamp: 2.5))
        let up = mapper.touchEvent(.touchUp(slot: 3, timeMicroseconds: 2_600_000))
        XCTAssertEqual(up?.phase, .ended)
        XCTAssertEqual(up?.timestamp, 2.6)
        XCTAssertNil(mapper.touchEvent(.touchFrame(timeMicroseconds: 1)))
        XCTAssertNil(mapper.touchEvent(.key(code: 1, pressed: true, timeMicroseconds: 1)))
    }
}
