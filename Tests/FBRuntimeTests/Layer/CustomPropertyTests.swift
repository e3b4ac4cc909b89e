import XCTest
@testable import FBRuntime
import Raster

/// A layer with one custom animatable property that it draws: a white bar
/// `barWidth` points wide from the left edge.
final class BarLayer: Layer {
    var draws = 0
    override class func defaultValue(forKey key: String) -> AnimatableValue? {
        key == "barWidth" ? .scalar(2) : super.defaultValue(forKey: key)
    }
    override class func needsDisplay(forKey key: String) -> Bool {
        key == "barWidth" || super.needsDisplay(forKey: key)
    }
    var barWidth: Double {
        get { value(forKey: "barWidth")?.scalarValue ?? 2 }
        set { setValue(.scalar(newValue), forKey: "barWidth") }
    }
    override func draw(in context: DrawingContext) {
        draws += 1
        let w = Int((barWidth * context.transform.a).rounded())
        context.canvas.fill(IntRect(x: 0, y: 0, width: w, height: context.canvas.target.height), color: .white)
    }
    override func makePresentationCopy() -> Layer {
        let copy = BarLayer(name: name)
        copy.copyModelProperties(from: self)
        return copy
    }
}

final class CustomPropertyTests: XCTestCase {
    private func whitePixels(inRow y: Int, of view: PixelView<ARGB8888>) -> Int {
        var n = 0
        for x in 0..<view.width where view.row(y)[x] == 0xFFFF_FFFF { n += 1 }
        return n
    }

    private func scene() -> (root: Layer, bar: BarLayer) {
        let root = Layer(name: "root"), bar = BarLayer(name: "bar")
        root.bounds = Rect(x: 0, y: 0, width: 40, height: 10)
        root.position = Point(x: 20, y: 5)
        bar.bounds = Rect(x: 0, y: 0, width: 40, height: 10)
        bar.position = Point(x: 20, y: 5)
        try! root.addSublayer(bar)
        return (root, bar)
    }

    func testDefaultValueAndSetValue() {
        let bar = BarLayer()
        XCTAssertEqual(bar.barWidth, 2)
        XCTAssertFalse(bar.needsDisplay)
        bar.barWidth = 5
        XCTAssertEqual(bar.value(forKey: "barWidth"), .scalar(5))
        XCTAssertTrue(bar.needsDisplay)
        bar.setValue(nil, forKey: "barWidth")
        XCTAssertEqual(bar.barWidth, 2)
        XCTAssertNil(Layer().value(forKey: "barWidth"))
    }

    func testAnimatedCustomPropertyRedrawsEachFrameWithTheInterpolatedValue() {
        let (root, bar) = scene()
        let compositor = Compositor()
        let frame = Surface<ARGB8888>(width: 40, height: 10)!
        bar.add(BasicAnimation(key: .custom("barWidth"), from: .scalar(2), to: .scalar(12), duration: 1), forKey: "grow", at: 0)
        for (t, expected) in [(0.0, 2), (0.25, 5), (0.5, 7), (0.9, 11)] {
            compositor.render(root, at: t, into: frame.view)
            XCTAssertEqual(whitePixels(inRow: 3, of: frame.view), expected, "at \(t)")   // 2 + 10·t points
        }
        XCTAssertEqual(bar.draws, 4)
        XCTAssertEqual(bar.barWidth, 2)                       // the model is unchanged
        // Presentation copies carry the interpolated value.
        XCTAssertEqual(bar.presentation(at: 0.5).value(forKey: "barWidth"), .scalar(7))
        // Removed: one more draw with the model value, then none.
        bar.removeAnimation(forKey: "grow")
        compositor.render(root, at: 2, into: frame.view)
        compositor.render(root, at: 3, into: frame.view)
        XCTAssertEqual(whitePixels(inRow: 3, of: frame.view), 2)
        XCTAssertEqual(bar.draws, 5)
        // Setting the model value redraws once.
        bar.barWidth = 30
        compositor.render(root, at: 4, into: frame.view)
        compositor.render(root, at: 5, into: frame.view)
        XCTAssertEqual(whitePixels(inRow: 3, of: frame.view), 30)
        XCTAssertEqual(bar.draws, 6)
        // Twice the pixels per point: the bar covers twice as many pixels.
        bar.contentsScale = 2
        bar.setNeedsDisplay()
        compositor.render(root, at: 6, into: frame.view)
        XCTAssertEqual(bar.contents?.width, 80)
    }

    func testCustomPropertyAnimatesImplicitlyFromThePresentationValueWhenGivenAnAction() {
        let saved = AppRunLoop.current
        defer { AppRunLoop.current = saved }
        let clock = ManualClock()
        let loop = AppRunLoop(clock: clock)
        AppRunLoop.current = loop
        let (root, bar) = scene()
        root.isDisplayRoot = true
        loop.runTurn { bar.barWidth = 10 }                        // no default action for custom keys (CA)
        XCTAssertTrue(bar.animations.isEmpty)
        bar.actions[.custom("barWidth")] = .implicitAnimation
        loop.runTurn {
            Transaction.animationTimingFunction = .linear
            Transaction.animationDuration = 1
            bar.barWidth = 20
        }
        clock.set(0.5)
        XCTAssertEqual(bar.presentation().value(forKey: "barWidth"), .scalar(15))
        loop.runTurn {
            Transaction.animationTimingFunction = .linear
            Transaction.animationDuration = 1
            bar.barWidth = 5                                      // from 15, where it is on screen
        }
        clock.set(1)
        XCTAssertEqual(bar.presentation().value(forKey: "barWidth"), .scalar(10))
    }
}
