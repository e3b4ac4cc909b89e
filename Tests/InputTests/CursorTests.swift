@testable import FBRuntime
import Input
import Raster
import TouchInput
import XCTest

/// The optional cursor layer: it follows pointer moves through the same
/// orientation as touches, draws above the scene, never animates.
final class CursorTests: XCTestCase {
    func testCursorLocationFollowsTheOrientation() {
        let mapper = TouchEventMapper(orientation: DisplayOrientation(rotation: .clockwise90, panelWidth: 640, panelHeight: 480))
        // Turned 90° clockwise, the panel's top-right corner is the UI's top-left.
        let p = mapper.cursorLocation(.pointerMoved(x: 640, y: 0, timeMicroseconds: 1))
        XCTAssertEqual(p?.x ?? .nan, 0, accuracy: 1e-9)
        XCTAssertEqual(p?.y ?? .nan, 0, accuracy: 1e-9)
        XCTAssertNil(mapper.cursorLocation(.touchFrame(timeMicroseconds: 1)))
    }

    func testCursorDrawsAboveTheSceneAndMovesAtOnce() throws {
        let saved = AppRunLoop.current
        defer { AppRunLoop.current = saved }
        let loop = AppRunLoop(clock: ManualClock(now: 0))
        AppRunLoop.current = loop
        let root = Layer(name: "root")
        root.bounds = Rect(x: 0, y: 0, width: 100, height: 100)
        root.anchorPoint = .zero
        root.backgroundColor = Color(red: 0.2, green: 0.2, blue: 0.2)
        let cursor = CursorLayer(size: 20)
        try root.addSublayer(cursor)
        let card = Layer(name: "card")              // added later, but the cursor stays on top
        card.bounds = Rect(x: 0, y: 0, width: 100, height: 100)
        card.anchorPoint = .zero
        card.backgroundColor = Color(red: 0, green: 0, blue: 1)
        try root.addSublayer(card)
        root.isDisplayRoot = true
        let target = try XCTUnwrap(Surface<ARGB8888>(width: 100, height: 100))
        Compositor().render(root, at: 0, into: target.view)
        XCTAssertEqual(target.view.row(45)[42], 0xFF00_00FF, "hidden before the pointer moves")
        loop.runTurn { cursor.move(to: Point(x: 40, y: 30)) }
        XCTAssertTrue(cursor.animations.isEmpty, "no action: the cursor follows at once")
        Compositor().render(root, at: 0, into: target.view)
        XCTAssertEqual(target.view.row(40)[42], 0xFFFF_FFFF, "the arrow's body, white, above the card")
        XCTAssertTrue(root.hitTest(Point(x: 42, y: 40), at: 0) === card, "the cursor is never hit")
        cursor.move(to: Point(x: .nan, y: 3))
        XCTAssertEqual(cursor.position, Point(x: 40, y: 30))
    }
}
