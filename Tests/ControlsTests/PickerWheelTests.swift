@testable import Controls
import FBRuntime
import Raster
import XCTest

/// PickerWheel: goldens at two selections, disabled and dark; a slow drag
/// that snaps, a fling that coasts at the finger's speed with constant
/// deceleration and stops on a row, catching it mid-coast, a tap on a row,
/// the rubber band at the ends, items from code, and its size.
///
/// Oracle for the coast: constant deceleration `a` from speed `v` travels
/// v²/(2a); the wheel stops on the nearest row to that, over 2d/v seconds
/// (so it starts at speed v), following d·(2t − t²).
final class PickerWheelTests: XCTestCase {
    private var scene: ControlScene!

    override func tearDown() { scene?.finish(); scene = nil }

    /// A 160×180 wheel (5 rows of 36) at (20, 10) in a 200×200 scene, items
    /// "Item 0" … "Item 19". The band's centre is wheel y 90, scene y 100;
    /// the content's top at offset 0 is wheel y 72.
    private func makeWheel(selected: Int = 0, dark: Bool = false) -> PickerWheel {
        scene?.finish()
        let theme = Theme.testing(dark: dark)
        scene = ControlScene(width: 200, height: 200, background: theme.colors.background)
        let w = PickerWheel(items: (0..<20).map { "Item \($0)" }, selectedIndex: selected, theme: theme)
        scene.add(w, frame: Rect(x: 20, y: 10, width: 160, height: 180))
        return w
    }

    private func contentY(_ w: PickerWheel) -> Double { presentedPoint(w.contentLayer, .position, at: scene.now)!.y }

    // MARK: Goldens

    func testGoldens() {
        let w = makeWheel()
        XCTAssertEqual(w.contentLayer.position, Point(x: 0, y: 72))
        scene.assertGolden("controls-picker-first")
        w.selectedIndex = 6
        XCTAssertEqual(w.contentLayer.position, Point(x: 0, y: 72 - 216))
        scene.assertGolden("controls-picker-6")
        w.isEnabled = false
        scene.assertGolden("controls-picker-6-disabled")
        _ = makeWheel(selected: 3, dark: true)
        scene.assertGolden("controls-picker-dark")
    }

    // MARK: Interaction

    func testASlowDragSnapsToTheNearestRow() {
        let w = makeWheel()
        var reported: [Int] = []
        w.onValueChanged = { reported.append($0.selectedIndex) }
        // 80 points up, then rest 0.2 s: no speed at the lift.
        let id = scene.drag(from: Point(x: 100, y: 150), to: Point(x: 100, y: 70), lift: false)
        XCTAssertEqual(w.offset, 80)
        XCTAssertEqual(w.contentLayer.position.y, 72 - 80, "follows the finger")
        scene.advance(by: 0.2)
        scene.send(id, .ended, 100, 70)
        XCTAssertEqual(w.selectedIndex, 2, "80 points is nearest to row 2 (72)")
        XCTAssertEqual(reported, [2])
        XCTAssertEqual(w.offset, 72)
        scene.advance(by: 1)
        XCTAssertEqual(contentY(w), 0, accuracy: 1e-9)
        XCTAssertEqual(w.rowLayers[2].foregroundColor, w.theme.colors.text)
    }

    func testAFlingCoastsWithConstantDecelerationAndStopsOnARow() {
        let w = makeWheel()
        var reported: [Int] = []
        w.onValueChanged = { reported.append($0.selectedIndex) }
        // 72 points up in 6 moves of 1/60 s: 720 points/s, lifted 1/60 s after.
        scene.drag(from: Point(x: 100, y: 150), to: Point(x: 100, y: 78), steps: 6)
        // Projected: 72 + 720² / (2 · 1500) = 244.8 → row 7 (252); d = 180,
        // over 2 · 180 / 720 = 0.5 s.
        XCTAssertEqual(w.selectedIndex, 7)
        XCTAssertEqual(reported, [7])
        guard case let .basic(coast)? = w.contentLayer.animation(forKey: "position") else { return XCTFail("no coast") }
        XCTAssertEqual(coast.duration, 0.5, accuracy: 1e-9)
        XCTAssertEqual(coast.timingFunction, TimingFunction(1.0 / 3, 2.0 / 3, 2.0 / 3, 1))
        // It starts at the finger's speed: over the first 10 ms (x = 0.02) it
        // covers 180 · (0.04 − 0.0004) = 7.128 points ≈ 720 points/s · 0.01 s.
        scene.advance(by: 0.01)
        XCTAssertEqual(contentY(w), 72 - 72 - 7.128, accuracy: 1e-3)
        // Half way: 72 + 180 · (2 · 0.5 − 0.25) = 207.
        scene.advance(by: 0.24)
        XCTAssertEqual(contentY(w), 72 - 207, accuracy: 1e-3)
        scene.advance(by: 1)
        XCTAssertEqual(contentY(w), 72 - 252, accuracy: 1e-9)
    }

    func testCatchingACoastingWheelStopsItWhereItIsOnScreen() {
        let w = makeWheel()
        var reported: [Int] = []
        w.onValueChanged = { reported.append($0.selectedIndex) }
        scene.drag(from: Point(x: 100, y: 150), to: Point(x: 100, y: 78), steps: 6)
        scene.advance(by: 0.25)                 // on screen at offset 207
        let id = scene.newTouch()
        scene.send(id, .began, 100, 100)
        XCTAssertEqual(w.offset, 207, accuracy: 1e-3, "stopped where it was on screen")
        XCTAssertNil(w.contentLayer.animation(forKey: "position"))
        XCTAssertEqual(contentY(w), 72 - w.offset, accuracy: 1e-9)
        scene.clock.advance(by: 0.05)
        scene.send(id, .ended, 100, 100)
        XCTAssertEqual(w.selectedIndex, 6, "207 is nearest to row 6 (216), not the tapped row")
        XCTAssertEqual(reported, [7, 6])
    }

    func testATapScrollsTheTappedRowIntoTheBand() {
        let w = makeWheel(selected: 5)
        var reported: [Int] = []
        w.onValueChanged = { reported.append($0.selectedIndex) }
        scene.tap(100, 100 + 72)                // two rows below the band
        XCTAssertEqual(w.selectedIndex, 7)
        scene.advance(by: 1)                    // at rest (a tap on a moving wheel stops it instead)
        scene.tap(100, 100 - 36)                // one row above
        XCTAssertEqual(w.selectedIndex, 6)
        scene.advance(by: 1)
        scene.tap(100, 100)                     // the band itself: no change
        XCTAssertEqual(reported, [7, 6])
    }

    func testTheEndsResistAndSnapBack() {
        let w = makeWheel()
        var calls = 0
        w.onValueChanged = { _ in calls += 1 }
        let id = scene.drag(from: Point(x: 100, y: 60), to: Point(x: 100, y: 150), lift: false)
        XCTAssertEqual(w.offset, -30, accuracy: 1e-9, "90 points past the top move it 30")
        scene.advance(by: 0.2)
        scene.send(id, .ended, 100, 150)
        XCTAssertEqual(w.selectedIndex, 0)
        XCTAssertEqual(w.offset, 0)
        XCTAssertEqual(calls, 0)
        // A hard fling down past the end of a wheel near its last row stops on
        // the last row.
        w.selectedIndex = 17
        scene.drag(from: Point(x: 100, y: 180), to: Point(x: 100, y: 20), steps: 4)
        XCTAssertEqual(w.selectedIndex, 19)
    }

    func testItemsFromCodeAndDisabled() {
        let w = makeWheel(selected: 15)
        var calls = 0
        w.onValueChanged = { _ in calls += 1 }
        w.items = ["A", "B", "C"]
        XCTAssertEqual(w.selectedIndex, 2, "clamped to the new rows")
        XCTAssertEqual(w.rowLayers.count, 3)
        XCTAssertEqual(w.contentLayer.sublayers.count, 3)
        w.selectedIndex = -4
        XCTAssertEqual(w.selectedIndex, 0)
        w.isEnabled = false
        scene.tap(100, 172)
        XCTAssertEqual(w.selectedIndex, 0)
        XCTAssertEqual(calls, 0)
    }

    func testPreferredSizeInAStack() {
        let theme = Theme.testing()
        let w = PickerWheel(items: ["a", "b"], theme: theme)
        XCTAssertEqual(w.preferredSize, Size(width: 160, height: 180))
        w.visibleRows = 3
        XCTAssertEqual(w.preferredSize, Size(width: 160, height: 108))
        let row = Layer(name: "row")
        row.layoutManager = StackLayout(gap: 4)
        row.frame = Rect(x: 0, y: 0, width: 400, height: 200)
        let other = PickerWheel(items: ["x"], theme: theme)
        try! row.addSublayer(w)
        try! row.addSublayer(other)
        row.layoutIfNeeded()
        XCTAssertEqual(w.frame, Rect(x: 0, y: 0, width: 160, height: 108))
        XCTAssertEqual(other.frame, Rect(x: 164, y: 0, width: 160, height: 180))
        XCTAssertEqual(w.bandLayer.frame, Rect(x: 0, y: 36, width: 160, height: 36), "the band follows the new height")
    }
}
