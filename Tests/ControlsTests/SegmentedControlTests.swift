@testable import Controls
import FBRuntime
import Raster
import XCTest

/// SegmentedControl: goldens with each kind of selection, pressed, disabled
/// and dark; selecting by tap, sliding the press along, lifting off, the
/// indicator's slide, a tap mid-animation, and its size in a stack.
final class SegmentedControlTests: XCTestCase {
    private var scene: ControlScene!

    override func tearDown() { scene?.finish(); scene = nil }

    /// A 240×44 control at (10, 10) in a 260×64 scene: three segments of 80
    /// points, scene x 10…90, 90…170, 170…250; y 32 is the middle.
    private func makeControl(selected: Int? = 0, dark: Bool = false) -> SegmentedControl {
        scene?.finish()
        let theme = Theme.testing(dark: dark)
        scene = ControlScene(width: 260, height: 64, background: theme.colors.background)
        let c = SegmentedControl(titles: ["Small", "Medium", "Large"], selectedIndex: selected, theme: theme)
        scene.add(c, frame: Rect(x: 10, y: 10, width: 240, height: 44))
        return c
    }

    // MARK: Goldens

    func testGoldens() {
        let c = makeControl()
        XCTAssertEqual(c.indicatorLayer.frame, Rect(x: 3, y: 3, width: 74, height: 38))
        scene.assertGolden("controls-segmented-first")
        c.selectedIndex = 2
        scene.assertGolden("controls-segmented-last")
        scene.send(1, .began, 130, 32)
        XCTAssertEqual(c.pressedIndex, 1)
        scene.assertGolden("controls-segmented-middle-pressed")
        scene.send(1, .cancelled, 130, 32)
        c.selectedIndex = nil
        c.isEnabled = false
        scene.assertGolden("controls-segmented-none-disabled")
        _ = makeControl(selected: 1, dark: true)
        scene.assertGolden("controls-segmented-dark")
    }

    // MARK: Interaction

    func testTapSelectsAndTheIndicatorSlides() {
        let c = makeControl()
        var reported: [Int?] = []
        c.onValueChanged = { reported.append($0.selectedIndex) }
        scene.tap(200, 32)
        XCTAssertEqual(c.selectedIndex, 2)
        XCTAssertEqual(reported, [2])
        XCTAssertEqual(c.indicatorLayer.frame.minX, 163)
        // It slides from the first segment over animationDuration.
        let start = presentedPoint(c.indicatorLayer, .position, at: scene.now)!.x
        XCTAssertEqual(start, 40, accuracy: 1e-9)
        scene.advance(by: c.theme.metrics.animationDuration / 2)
        let mid = presentedPoint(c.indicatorLayer, .position, at: scene.now)!.x
        XCTAssertGreaterThan(mid, 40)
        XCTAssertLessThan(mid, 200)
        scene.advance(by: 1)
        XCTAssertEqual(presentedPoint(c.indicatorLayer, .position, at: scene.now)!.x, 200, accuracy: 1e-9)
        // The selected segment again: no call.
        scene.tap(200, 32)
        XCTAssertEqual(reported, [2])
        XCTAssertEqual(c.titleLayers[2].foregroundColor, c.theme.colors.text)
        XCTAssertEqual(c.titleLayers[0].foregroundColor, c.theme.colors.secondaryText)
    }

    func testThePressFollowsTheFingerAndALiftOffSelectsNothing() {
        let c = makeControl()
        var calls = 0
        c.onValueChanged = { _ in calls += 1 }
        let id = scene.drag(from: Point(x: 50, y: 32), to: Point(x: 130, y: 32), lift: false)
        XCTAssertEqual(c.pressedIndex, 1)
        XCTAssertFalse(c.pressedLayer.isHidden)
        scene.send(id, .moved, 130, 32 + 22 + c.theme.metrics.touchSlop + 10)
        XCTAssertNil(c.pressedIndex)
        XCTAssertTrue(c.pressedLayer.isHidden)
        scene.send(id, .ended, 130, 32 + 22 + c.theme.metrics.touchSlop + 10)
        XCTAssertEqual(c.selectedIndex, 0)
        XCTAssertEqual(calls, 0)
        // Slid along to the last segment and lifted there: the last.
        scene.drag(from: Point(x: 50, y: 32), to: Point(x: 240, y: 40))
        XCTAssertEqual(c.selectedIndex, 2)
        XCTAssertEqual(calls, 1)
    }

    func testATapMidAnimationAndDisabled() {
        let c = makeControl()
        scene.root.bounds = Rect(x: 0, y: 0, width: 600, height: 64)
        // Slides 300 points right over 1 s, linear: half way the first
        // segment is at scene x 160…240.
        scene.loop.runTurn {
            Transaction.animationDuration = 1
            Transaction.animationTimingFunction = .linear
            c.position = Point(x: c.position.x + 300, y: c.position.y)
        }
        scene.advance(by: 0.5)
        // Scene x 350: the third segment on screen (320…400), the model's
        // first. The lift 0.08 s later is 24 points further left in the
        // control (it moved on under the finger): still the third.
        scene.tap(350, 32)
        XCTAssertEqual(c.selectedIndex, 2)
        scene.advance(by: 1)
        c.isEnabled = false
        scene.tap(350, 32)
        XCTAssertEqual(c.selectedIndex, 2)
        XCTAssertEqual(c.opacity, 0.45)
    }

    func testTitlesAndSelectionFromCode() {
        let c = makeControl(selected: 2)
        var calls = 0
        c.onValueChanged = { _ in calls += 1 }
        c.selectedIndex = 7
        XCTAssertNil(c.selectedIndex, "out of range")
        XCTAssertTrue(c.indicatorLayer.isHidden)
        c.setSelectedIndex(1, animated: false)
        XCTAssertFalse(c.indicatorLayer.isHidden)
        XCTAssertNil(c.indicatorLayer.animation(forKey: "position"), "moved without animation")
        c.titles = ["On", "Off"]
        XCTAssertEqual(c.titleLayers.map(\.string), ["On", "Off"])
        XCTAssertEqual(c.sublayers.count, 4, "pressed, indicator and two titles")
        XCTAssertEqual(c.selectedIndex, 1)
        c.titles = ["Only"]
        XCTAssertNil(c.selectedIndex, "the selection left the range")
        XCTAssertEqual(calls, 0)
    }

    func testPreferredSizeIsEqualSegmentsAndAStackUsesIt() {
        let theme = Theme.testing()
        let c = SegmentedControl(titles: ["A", "Medium", "B"], theme: theme)
        let widest = c.titleLayers[1].preferredSize.width
        XCTAssertEqual(c.preferredSize, Size(width: 3 * (widest + 32).rounded(.up), height: 44))
        let column = Layer(name: "column")
        column.layoutManager = StackLayout(direction: .column, gap: 8, padding: EdgeInsets(all: 10))
        column.frame = Rect(x: 0, y: 0, width: 400, height: 200)
        let b = Button(title: "Go", theme: theme)
        try! column.addSublayer(c)
        try! column.addSublayer(b)
        column.layoutIfNeeded()
        XCTAssertEqual(c.frame, Rect(x: 10, y: 10, width: c.preferredSize.width, height: 44))
        XCTAssertEqual(b.frame.minY, 62)
        XCTAssertEqual(c.titleLayers[2].frame.minX, 2 * c.preferredSize.width / 3 + 3, accuracy: 1e-9)
    }
}
