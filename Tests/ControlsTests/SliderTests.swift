@testable import Controls
import FBRuntime
import Raster
import XCTest

/// Slider: goldens at values, highlighted and disabled; dragging the thumb,
/// tapping the track, continuous and end-only reports, clamping, a drag of
/// a slider mid-animation.
final class SliderTests: XCTestCase {
    private var scene: ControlScene!

    override func tearDown() { scene?.finish(); scene = nil }

    /// A 228×44 slider at (16, 18) in a 260×80 scene, values 0…100. With the
    /// 28-point thumb its centre runs over slider x 14…214 (scene x
    /// 30…230): 2 points per unit. Scene y 40 is the middle.
    private func makeSlider(value: Double = 25, dark: Bool = false) -> Slider {
        scene?.finish()
        let theme = Theme.testing(dark: dark)
        scene = ControlScene(width: 260, height: 80, background: theme.colors.background)
        let s = Slider(value: value, minimumValue: 0, maximumValue: 100, theme: theme)
        scene.add(s, frame: Rect(x: 16, y: 18, width: 228, height: 44))
        return s
    }

    // MARK: Goldens

    func testGoldenValues() {
        let s = makeSlider(value: 0)
        scene.assertGolden("controls-slider-0")
        s.value = 25
        XCTAssertEqual(s.thumbLayer.position, Point(x: 64, y: 22))
        XCTAssertEqual(s.fillLayer.frame, Rect(x: 14, y: 19, width: 50, height: 6))
        scene.assertGolden("controls-slider-25")
        s.value = 100
        scene.assertGolden("controls-slider-100")
    }

    func testGoldenHighlightedDisabledDark() {
        let s = makeSlider(value: 60)
        scene.send(1, .began, 150, 40)      // on the thumb (scene x 150)
        XCTAssertTrue(s.isHighlighted)
        scene.advance(by: 1)                // the thumb's colour change has run
        scene.assertGolden("controls-slider-highlighted")
        scene.send(1, .ended, 150, 40)
        s.isEnabled = false
        scene.advance(by: 1)
        scene.assertGolden("controls-slider-disabled")
        scene.finish()
        _ = makeSlider(value: 60, dark: true)
        scene.assertGolden("controls-slider-dark")
    }

    // MARK: Interaction

    func testDraggingTheThumbReportsEveryChange() {
        let s = makeSlider(value: 25)
        var reported: [Double] = []
        s.onValueChanged = { reported.append($0.value) }
        // Grab the thumb 3 points right of its centre (scene x 80 + 3) and
        // move 40 points right in 10 steps: +20 units, no jump at the grab.
        scene.drag(from: Point(x: 83, y: 40), to: Point(x: 123, y: 40), steps: 10)
        XCTAssertEqual(s.value, 45, accuracy: 1e-9)
        XCTAssertEqual(reported.count, 10)
        XCTAssertEqual(reported.first!, 27, accuracy: 1e-9)
        XCTAssertEqual(reported.last!, 45, accuracy: 1e-9)
        XCTAssertEqual(s.thumbLayer.position.x, 14 + 45 * 2, accuracy: 1e-9)
        XCTAssertFalse(s.isHighlighted)
    }

    func testTappingTheTrackJumpsThereAnimated() {
        let s = makeSlider(value: 25)
        var reported: [Double] = []
        s.onValueChanged = { reported.append($0.value) }
        scene.send(1, .began, 200, 40)     // scene x 200 → value (200 − 30) / 2 = 85
        XCTAssertEqual(s.value, 85, accuracy: 1e-9)
        XCTAssertEqual(reported, [85])
        guard case let .basic(jump)? = s.thumbLayer.animation(forKey: "position") else { return XCTFail("no jump animation") }
        XCTAssertEqual(jump.duration, s.theme.metrics.animationDuration)
        XCTAssertEqual(presentedPoint(s.thumbLayer, .position, at: scene.now)!.x, 64, accuracy: 1e-9, "starts from the old place")
        scene.advance(by: 0.05)
        scene.send(1, .ended, 200, 40)
        XCTAssertEqual(reported, [85], "the lift at the same place reports nothing")
        scene.advance(by: 1)
        XCTAssertEqual(presentedPoint(s.thumbLayer, .position, at: scene.now)!.x, 14 + 170, accuracy: 1e-9)
    }

    func testEndOnlyReportsOnceAndClampsBeyondTheEnds() {
        let s = makeSlider(value: 50)
        s.isContinuous = false
        var reported: [Double] = []
        s.onValueChanged = { reported.append($0.value) }
        // From the thumb (scene x 130) far right and off the slider.
        let id = scene.drag(from: Point(x: 130, y: 40), to: Point(x: 600, y: 300), lift: false)
        XCTAssertEqual(s.value, 100)
        XCTAssertTrue(s.isHighlighted, "a drag holds the thumb wherever the finger goes")
        XCTAssertTrue(reported.isEmpty)
        scene.send(id, .moved, -300, 40)
        XCTAssertEqual(s.value, 0)
        scene.send(id, .ended, -300, 40)
        XCTAssertEqual(reported, [0])
        // A drag that ends where it began reports nothing.
        scene.drag(from: Point(x: 30, y: 40), to: Point(x: 30, y: 40), steps: 3)
        XCTAssertEqual(reported, [0])
    }

    func testValuesFromCodeAreClampedAndCallNoHandler() {
        let s = makeSlider()
        var calls = 0
        s.onValueChanged = { _ in calls += 1 }
        s.value = 250
        XCTAssertEqual(s.value, 100)
        s.value = -.infinity
        XCTAssertEqual(s.value, 0)
        s.value = .nan
        XCTAssertEqual(s.value, 0)
        s.minimumValue = 20
        XCTAssertEqual(s.value, 20, "a new minimum clamps the value")
        XCTAssertEqual(s.value(atX: 14), 20)
        XCTAssertEqual(s.value(atX: 214), 100)
        XCTAssertEqual(s.value(atX: 114), 60)
        XCTAssertEqual(calls, 0)
    }

    func testDisabledIgnoresTouches() {
        let s = makeSlider(value: 25)
        s.isEnabled = false
        scene.drag(from: Point(x: 80, y: 40), to: Point(x: 200, y: 40))
        scene.tap(220, 40)
        XCTAssertEqual(s.value, 25)
    }

    func testDraggingASliderThatIsSlidingIn() {
        let s = makeSlider(value: 0)
        // Slides in from 100 points left over 1 s, linear: half way it is 50
        // points left of its model place, so its thumb at value 0 is at
        // scene x −20.
        scene.root.bounds = Rect(x: 0, y: 0, width: 260, height: 80)
        scene.loop.runTurn {
            Transaction.disableActions = true
            s.position = Point(x: s.position.x - 100, y: s.position.y)
        }
        scene.loop.runTurn {
            Transaction.animationDuration = 1
            Transaction.animationTimingFunction = .linear
            s.position = Point(x: s.position.x + 100, y: s.position.y)
        }
        scene.advance(by: 0.5)
        // Scene x 130 on screen is slider x 164 → value 75 (the model would
        // say slider x 114, value 50).
        let id = scene.newTouch()
        scene.send(id, .began, 130, 40)
        XCTAssertEqual(s.value, 75, accuracy: 1e-9)
        scene.send(id, .ended, 130, 40)
    }

    func testPreferredSizeGrowsInAStack() {
        let theme = Theme.testing()
        let row = Layer(name: "row")
        row.layoutManager = StackLayout(gap: 8, crossAlignment: .center)
        row.frame = Rect(x: 0, y: 0, width: 400, height: 60)
        let label = Button(title: "Volume", style: .plain, theme: theme)
        let s = Slider(value: 50, minimumValue: 0, maximumValue: 100, theme: theme)
        XCTAssertEqual(s.preferredSize, Size(width: 200, height: 44))
        s.layoutItem = LayoutItem(grow: 1)
        try! row.addSublayer(label)
        try! row.addSublayer(s)
        row.layoutIfNeeded()
        XCTAssertEqual(s.frame.minX, label.preferredSize.width + 8)
        XCTAssertEqual(s.frame.width, 400 - label.preferredSize.width - 8)
        XCTAssertEqual(s.frame.height, 44)
        XCTAssertEqual(s.thumbLayer.position.x, 14 + (s.frame.width - 28) / 2, accuracy: 1e-9, "laid out at its new width")
    }
}
