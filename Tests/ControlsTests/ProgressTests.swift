@testable import Controls
import FBRuntime
import Raster
import XCTest

/// ProgressBar and ProgressRing: goldens at several values, disabled and
/// dark; animated progress (the bar's fill frame, the ring's strokeEnd);
/// touches pass through to the superlayer's recognizers.
final class ProgressTests: XCTestCase {
    private var scene: ControlScene!

    override func tearDown() { scene?.finish(); scene = nil }

    /// A 200×6 bar at (20, 17) in a 240×40 scene.
    private func makeBar(_ progress: Double, dark: Bool = false) -> ProgressBar {
        scene?.finish()
        let theme = Theme.testing(dark: dark)
        scene = ControlScene(width: 240, height: 40, background: theme.colors.background)
        let bar = ProgressBar(progress: progress, theme: theme)
        scene.add(bar, frame: Rect(x: 20, y: 17, width: 200, height: 6))
        return bar
    }

    /// An 80×80 ring at (10, 10) in a 100×100 scene.
    private func makeRing(_ progress: Double, dark: Bool = false) -> ProgressRing {
        scene?.finish()
        let theme = Theme.testing(dark: dark)
        scene = ControlScene(width: 100, height: 100, background: theme.colors.background)
        let ring = ProgressRing(progress: progress, theme: theme)
        scene.add(ring, frame: Rect(x: 10, y: 10, width: 80, height: 80))
        return ring
    }

    // MARK: ProgressBar

    func testBarGoldens() {
        let bar = makeBar(0)
        XCTAssertEqual(bar.fillLayer.frame.width, 0)
        scene.assertGolden("controls-progressbar-0")
        Transaction.withoutActions { bar.progress = 0.4 }
        XCTAssertEqual(bar.fillLayer.frame, Rect(x: 0, y: 0, width: 80, height: 6))
        scene.assertGolden("controls-progressbar-40")
        Transaction.withoutActions { bar.progress = 1; bar.isEnabled = false }
        scene.assertGolden("controls-progressbar-100-disabled")
        scene.finish()
        _ = makeBar(0.7, dark: true)
        scene.assertGolden("controls-progressbar-70-dark")
    }

    func testBarProgressIsClampedAndAnimates() {
        let bar = makeBar(0.2)
        bar.progress = 7
        XCTAssertEqual(bar.progress, 1)
        bar.progress = .nan
        XCTAssertEqual(bar.progress, 0)
        XCTAssertEqual(bar.fillLayer.frame.width, 0)
        bar.setProgress(0.001, animated: false)
        XCTAssertEqual(bar.fillLayer.frame.width, 6, "never narrower than its height while above 0")
        bar.setProgress(0.5, animated: false)
        scene.advance(by: 1)     // the implicit animations of the plain sets above have ended
        XCTAssertTrue(bar.fillLayer.animations.isEmpty)
        // Over 2 s, linear: half way the fill is 100 + (160 − 100) / 2 wide.
        scene.loop.runTurn { bar.setProgress(0.8, animated: true, duration: 2, timing: .linear) }
        XCTAssertEqual(bar.fillLayer.frame.width, 160)
        scene.advance(by: 1)
        guard case let .rect(b)? = bar.fillLayer.presentationValue(for: .bounds, at: scene.now) else { return XCTFail("no bounds") }
        XCTAssertEqual(b.width, 130, accuracy: 1e-9)
    }

    // MARK: ProgressRing

    func testRingGoldens() {
        let ring = makeRing(0.25)
        XCTAssertEqual(ring.arcLayer.strokeEnd, 0.25)
        XCTAssertEqual(ring.trackLayer.strokeEnd, 1)
        scene.assertGolden("controls-progressring-25")
        Transaction.withoutActions { ring.progress = 0.7 }
        scene.assertGolden("controls-progressring-70")
        Transaction.withoutActions { ring.isEnabled = false }
        scene.assertGolden("controls-progressring-70-disabled")
        scene.finish()
        _ = makeRing(1, dark: true)
        scene.assertGolden("controls-progressring-100-dark")
    }

    func testRingArcStartsAtTwelveAndAnimatesStrokeEnd() {
        let ring = makeRing(0)
        guard let path = ring.arcLayer.path, let arc = path.circularArc else { return XCTFail("not a circular arc") }
        XCTAssertEqual(arc.center, PathPoint(40, 40))
        XCTAssertEqual(arc.radius, 40 - ring.theme.metrics.ringLineWidth / 2, accuracy: 1e-9)
        XCTAssertEqual(arc.startDirection.x, 0, accuracy: 1e-9)
        XCTAssertEqual(arc.startDirection.y, -1, accuracy: 1e-9, "twelve o'clock")
        XCTAssertEqual(arc.sweep, 2 * Double.pi, accuracy: 1e-9, "clockwise on screen")
        scene.loop.runTurn { ring.setProgress(0.6, animated: true, duration: 1, timing: .linear) }
        XCTAssertEqual(ring.arcLayer.strokeEnd, 0.6)
        scene.advance(by: 0.25)
        guard case let .scalar(end)? = ring.arcLayer.presentationValue(for: .strokeEnd, at: scene.now) else {
            return XCTFail("no strokeEnd")
        }
        XCTAssertEqual(end, 0.15, accuracy: 1e-9)
    }

    func testTouchesPassToTheSuperlayersRecognizers() {
        let ring = makeRing(0.5)
        var taps = 0
        scene.router.add(TapGestureRecognizer { _ in taps += 1 }, to: scene.root)
        scene.tap(50, 12)              // on the ring's stroke at twelve o'clock
        XCTAssertEqual(taps, 1)
        XCTAssertFalse(ring.isTracking)
        XCTAssertFalse(ring.isHighlighted)
        XCTAssertEqual(ring.preferredSize, Size(width: 88, height: 88))
    }

    func testBarPreferredSizeInAStack() {
        let theme = Theme.testing()
        let column = Layer(name: "column")
        column.layoutManager = StackLayout(direction: .column, gap: 4, crossAlignment: .stretch)
        column.frame = Rect(x: 0, y: 0, width: 300, height: 100)
        let a = ProgressBar(progress: 0.5, theme: theme), b = ProgressBar(progress: 0.25, theme: theme)
        try! column.addSublayer(a)
        try! column.addSublayer(b)
        column.layoutIfNeeded()
        XCTAssertEqual(a.frame, Rect(x: 0, y: 0, width: 300, height: 6))
        XCTAssertEqual(b.frame, Rect(x: 0, y: 10, width: 300, height: 6))
        XCTAssertEqual(b.fillLayer.frame.width, 75, "the fill follows the stretched width")
    }
}
