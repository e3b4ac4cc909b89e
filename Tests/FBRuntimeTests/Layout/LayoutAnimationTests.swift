@testable import FBRuntime
import XCTest

/// Layout changes in a displayed tree are ordinary property changes of the
/// transaction: they animate implicitly, and not with actions disabled.
final class LayoutAnimationTests: LayoutTestCase {
    private func scene() -> (root: Layer, grower: Layer, fixed: Layer) {
        let root = Layer(name: "root")
        root.bounds = Rect(x: 0, y: 0, width: 300, height: 100)
        root.layoutManager = StackLayout(gap: 10)
        let grower = frameLayer("grower", 0, 0, 50, 100), fixed = frameLayer("fixed", 0, 0, 40, 100)
        grower.layoutItem = LayoutItem(grow: 1)
        try! root.addSublayer(grower); try! root.addSublayer(fixed)
        root.layoutIfNeeded()                           // laid out off screen: no animation
        root.isDisplayRoot = true
        XCTAssertTrue(grower.animations.isEmpty)
        assertFrame(grower, 0, 0, 250, 100)
        assertFrame(fixed, 260, 0, 40, 100)
        return (root, grower, fixed)
    }

    func testLayoutChangeAnimatesImplicitly() {
        let (root, grower, fixed) = scene()
        loop.runTurn {
            Transaction.animationDuration = 1
            root.bounds.size = Size(width: 200, height: 100)
        }
        assertFrame(grower, 0, 0, 150, 100)              // the model is laid out at the commit
        assertFrame(fixed, 160, 0, 40, 100)
        guard case let .basic(move)? = fixed.animation(forKey: "position") else { return XCTFail("no position animation") }
        XCTAssertEqual(move.fromValue, .point(Point(x: 280, y: 50)))
        XCTAssertEqual(move.timing.duration, 1)
        XCTAssertEqual(move.timing.beginTime, 0)         // the commit time
        XCTAssertNotNil(grower.animation(forKey: "bounds"))
        // Half way: half way between the old and the new frame.
        clock.advance(by: 0.5)
        guard case let .point(p)? = fixed.presentationValue(for: .position) else { return XCTFail("no position") }
        XCTAssertGreaterThan(p.x, 180)
        XCTAssertLessThan(p.x, 280)
    }

    func testDisabledActionsDisableTheLayoutAnimation() {
        let (root, grower, fixed) = scene()
        loop.runTurn {
            Transaction.disableActions = true
            root.bounds.size = Size(width: 200, height: 100)
        }
        assertFrame(fixed, 160, 0, 40, 100)
        XCTAssertTrue(fixed.animations.isEmpty)
        XCTAssertTrue(grower.animations.isEmpty)
    }
}
