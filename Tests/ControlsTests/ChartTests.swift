@testable import Controls
import FBRuntime
import Raster
import XCTest

/// BarChart and LineChart: goldens, geometry computed by hand, animated
/// value changes (bars grow, the line morphs point by point), clamping,
/// and their size in a stack.
final class ChartTests: XCTestCase {
    private var scene: ControlScene!

    override func tearDown() { scene?.finish(); scene = nil }

    /// A 200×100 chart at (10, 10) in a 220×120 scene.
    private func makeScene(dark: Bool = false) -> Theme {
        scene?.finish()
        let theme = Theme.testing(dark: dark)
        scene = ControlScene(width: 220, height: 120, background: theme.colors.background)
        return theme
    }

    // MARK: BarChart

    func testBarGoldensAndGeometry() {
        let theme = makeScene()
        let chart = BarChart(values: [1, 3, 2, 4, 0], theme: theme)
        scene.add(chart, frame: Rect(x: 10, y: 10, width: 200, height: 100))
        // Slots of 40, bars 34 wide from x = slot + 3; the largest (4) is full height.
        XCTAssertEqual(chart.barLayers.count, 5)
        XCTAssertEqual(chart.barLayers[0].frame, Rect(x: 3, y: 75, width: 34, height: 25))
        XCTAssertEqual(chart.barLayers[3].frame, Rect(x: 123, y: 0, width: 34, height: 100))
        XCTAssertEqual(chart.barLayers[4].frame.height, 0)
        scene.assertGolden("controls-barchart")
        chart.isEnabled = false
        scene.assertGolden("controls-barchart-disabled")
        let dark = makeScene(dark: true)
        let other = BarChart(values: [5, 10, 7.5], maximumValue: 10, theme: dark)
        scene.add(other, frame: Rect(x: 10, y: 10, width: 200, height: 100))
        scene.assertGolden("controls-barchart-dark")
    }

    func testBarsGrowAnimatedAndValuesAreClamped() {
        let theme = makeScene()
        let chart = BarChart(values: [2, 2], maximumValue: 4, theme: theme)
        scene.add(chart, frame: Rect(x: 10, y: 10, width: 200, height: 100))
        scene.loop.runTurn {
            Transaction.animationTimingFunction = .linear
            chart.setValues([4, 2], animated: true, duration: 1)
        }
        XCTAssertEqual(chart.barLayers[0].frame.height, 100)
        scene.advance(by: 0.5)
        guard case let .rect(b)? = chart.barLayers[0].presentationValue(for: .bounds, at: scene.now) else { return XCTFail("no bounds") }
        XCTAssertEqual(b.height, 75, accuracy: 1e-9, "half way from 50 to 100")
        XCTAssertNil(chart.barLayers[1].animation(forKey: "bounds"), "an unchanged bar does not animate")
        chart.values = [9, -3, .nan]
        XCTAssertEqual(chart.barLayers.count, 3, "another count rebuilds")
        XCTAssertEqual(chart.barLayers[0].frame.height, 100)
        XCTAssertEqual(chart.barLayers[1].frame.height, 0)
        XCTAssertEqual(chart.barLayers[2].frame.height, 0)
        XCTAssertEqual(chart.sublayers.count, 4, "three bars and the baseline")
    }

    // MARK: LineChart

    func testLineGoldensAndGeometry() {
        let theme = makeScene()
        let chart = LineChart(values: [0.2, 0.6, 0.4, 0.9, 0.7], theme: theme)
        scene.add(chart, frame: Rect(x: 10, y: 10, width: 200, height: 100))
        // Inset by 1 (half the line width): x = 1 + 198 · i / 4, y = 99 − 98 · v.
        XCTAssertEqual(chart.point(at: 0), PathPoint(1, 99 - 98 * 0.2))
        XCTAssertEqual(chart.point(at: 4), PathPoint(199, 99 - 98 * 0.7))
        XCTAssertEqual(chart.point(at: 2).x, 100)
        scene.assertGolden("controls-linechart")
        chart.isEnabled = false
        scene.assertGolden("controls-linechart-disabled")
        let dark = makeScene(dark: true)
        let other = LineChart(values: [3, 1, 4, 1, 5, 9, 2, 6], minimumValue: 0, maximumValue: 10, theme: dark)
        other.gridLineCount = 3
        scene.add(other, frame: Rect(x: 10, y: 10, width: 200, height: 100))
        scene.assertGolden("controls-linechart-dark")
    }

    func testTheLineMorphsPointByPoint() {
        let theme = makeScene()
        let chart = LineChart(values: [0, 0, 0], theme: theme)
        scene.add(chart, frame: Rect(x: 10, y: 10, width: 200, height: 100))
        scene.loop.runTurn {
            Transaction.animationTimingFunction = .linear
            chart.setValues([1, 0.5, 0], animated: true, duration: 1)
        }
        XCTAssertNotNil(chart.lineLayer.animation(forKey: "path"))
        XCTAssertNil(chart.gridLayer.animation(forKey: "path"), "the grid did not change")
        scene.advance(by: 0.5)
        guard case let .path(p)? = chart.lineLayer.presentationValue(for: .shapePath, at: scene.now) else {
            return XCTFail("no path")
        }
        // Half way: the first point at y 99 − 49 = 50, the second at 99 − 24.5.
        let bounds = p.bounds
        XCTAssertEqual(bounds.minY, 50, accuracy: 1e-9)
        XCTAssertEqual(bounds.maxY, 99, accuracy: 1e-9)
    }

    func testLineValuesAreClampedAndChartsTakeNoTouches() {
        let theme = makeScene()
        let chart = LineChart(values: [5, -5, .nan], minimumValue: 0, maximumValue: 1, theme: theme)
        scene.add(chart, frame: Rect(x: 10, y: 10, width: 200, height: 100))
        XCTAssertEqual(chart.point(at: 0).y, 1)
        XCTAssertEqual(chart.point(at: 1).y, 99)
        XCTAssertEqual(chart.point(at: 2).y, 99)
        chart.values = [0.5]
        XCTAssertEqual(chart.point(at: 0).x, 100, "one value: the middle")
        var taps = 0
        scene.router.add(TapGestureRecognizer { _ in taps += 1 }, to: scene.root)
        scene.tap(100, 60)
        XCTAssertEqual(taps, 1)
        XCTAssertFalse(chart.isTracking)
    }

    func testChartsInAStack() {
        let theme = Theme.testing()
        let column = Layer(name: "column")
        column.layoutManager = StackLayout(direction: .column, gap: 10, crossAlignment: .stretch)
        column.frame = Rect(x: 0, y: 0, width: 300, height: 400)
        let bars = BarChart(values: [1, 2], theme: theme), line = LineChart(values: [0, 1], theme: theme)
        try! column.addSublayer(bars)
        try! column.addSublayer(line)
        column.layoutIfNeeded()
        XCTAssertEqual(bars.frame, Rect(x: 0, y: 0, width: 300, height: 120))
        XCTAssertEqual(line.frame, Rect(x: 0, y: 130, width: 300, height: 120))
        XCTAssertEqual(bars.barLayers[1].frame, Rect(x: 153, y: 0, width: 144, height: 120))
        XCTAssertEqual(line.point(at: 1), PathPoint(299, 1))
    }
}
