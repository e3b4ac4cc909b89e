import XCTest
import DemoScenes
import FBRuntime
import Input

/// The demo scenes' touch handling (SceneTouch), which fbdemo's libinput
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
