import XCTest
import DemoScenes
import FBRuntime
import Input

/// The demo scenes' touch handling (SceneTouch), which fbcheck's libinput
/// seat and fbsim's mouse both feed: device events in panel pixels reach
/// the scene through the board's rotation and drag the layer under them.
final class SceneTouchTests: XCTestCase {
    private func card(of scene: OrbitScene) -> Layer? { scene.root.sublayers.first { $0.name == "card" } }

    /// A pointer drag from `from` to `to` (panel pixels) in eight moves.
    private func drag(_ touch: SceneTouch, from: (Double, Double), to: (Double, Double)) {
        let slot = InputEvent.pointerSlot
        var t: UInt64 = 1_000_000
        touch.handle(.touchDown(slot: slot, x: from.0, y: from.1, timeMicroseconds: t))
        for i in 1...8 {
            t += 16_000
            let f = Double(i) / 8
            touch.handle(.touchMotion(slot: slot, x: from.0 + (to.0 - from.0) * f, y: from.1 + (to.1 - from.1) * f,
                                      timeMicroseconds: t))
        }
        t += 16_000
        touch.handle(.touchUp(slot: slot, timeMicroseconds: t))
    }

    func testPointerDragOnATurnedPanelMovesTheLayerInUIPoints() throws {
        // A 480×640 panel turned 90° clockwise shows a 640×480 UI. By hand:
        // the UI point (u, v) is the panel point (480 − v, u).
        let scene = OrbitScene(width: 640, height: 480)
        let card = try XCTUnwrap(card(of: scene))
        let before = card.position
        let touch = SceneTouch(root: scene.root,
                               orientation: DisplayOrientation(rotation: .clockwise90, panelWidth: 480, panelHeight: 640))
        // From the card's centre, 160 UI points to the right (down the panel).
        let start = (u: before.x, v: before.y)
        drag(touch, from: (480 - start.v, start.u), to: (480 - start.v, start.u + 160))
        XCTAssertEqual(card.position.x - before.x, 160, accuracy: 1e-9)
        XCTAssertEqual(card.position.y - before.y, 0, accuracy: 1e-9)
        XCTAssertEqual(touch.touchCount, 10)
    }

    /// fbdemo's case: the scene's root is one layer under the screen's root,
    /// beside a back button, and the touches come in UI points to the
    /// screen's router. The generic drag attached there moves the card by
    /// the drag; a drag that begins on the button moves nothing.
    func testGenericDragOfASceneUnderTheScreensRoot() throws {
        let screen = Layer(name: "screen")
        screen.bounds = Rect(x: 0, y: 0, width: 640, height: 480)
        screen.position = Point(x: 320, y: 240)
        let scene = OrbitScene(width: 640, height: 480)
        try screen.addSublayer(scene.root)
        let button = Layer(name: "back")
        button.frame = Rect(x: 0, y: 0, width: 60, height: 30)
        button.backgroundColor = .white
        try screen.addSublayer(button)
        let router = TouchRouter(root: screen)
        let gestures = SceneDragAndPinch.install(for: scene, in: router)
        XCTAssertNotNil(gestures, "orbit has no gestures of its own: the generic ones")
        let card = try XCTUnwrap(card(of: scene))
        let before = card.position
        var t = 1.0
        func drag(from p: Point, by dx: Double, id: Int32) {
            router.handle(TouchEvent(id: id, phase: .began, location: p, timestamp: t))
            for i in 1...8 {
                t += 0.016
                router.handle(TouchEvent(id: id, phase: .moved, location: Point(x: p.x + dx * Double(i) / 8, y: p.y), timestamp: t))
            }
            t += 0.016
            router.handle(TouchEvent(id: id, phase: .ended, location: Point(x: p.x + dx, y: p.y), timestamp: t))
        }
        drag(from: before, by: 100, id: 1)
        XCTAssertEqual(card.position.x - before.x, 100, accuracy: 1e-9)
        XCTAssertEqual(card.position.y, before.y, accuracy: 1e-9)
        drag(from: Point(x: 30, y: 15), by: 100, id: 2)
        XCTAssertEqual(button.position, Point(x: 30, y: 15), "the button is not the scene's")
        XCTAssertEqual(card.position.x - before.x, 100, accuracy: 1e-9)
        withExtendedLifetime(gestures) {}
    }

    func testKeysAndFramesRouteNoTouch() throws {
        let scene = OrbitScene(width: 640, height: 480)
        let card = try XCTUnwrap(card(of: scene))
        let before = card.position
        let touch = SceneTouch(root: scene.root, orientation: DisplayOrientation(panelWidth: 640, panelHeight: 480))
        XCTAssertNil(touch.handle(.key(code: 30, pressed: true, timeMicroseconds: 1)))
        XCTAssertNil(touch.handle(.touchFrame(timeMicroseconds: 2)))
        XCTAssertNil(touch.handle(.pointerMoved(x: before.x, y: before.y, timeMicroseconds: 3)))
        XCTAssertEqual(touch.touchCount, 0)
        XCTAssertEqual(card.position, before)
    }
}
