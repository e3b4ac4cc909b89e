import FBRuntime
import Raster
import TestSupport
import XCTest
@testable import Controls

/// Goldens of a two-axis scroll view (`Tests/Goldens/controls-scroll-*.png`,
/// regenerated with `FBR_UPDATE_GOLDENS=1`): held past its top-left
/// corner (rubber-banded on both axes, both indicators shortened), and
/// mid-fling drawn from the render side's keyframes.
final class ScrollGoldenTests: ScrollTestCase {
    /// A 180 × 130 view at (10, 10) in a 200 × 150 root, over 600 × 600
    /// points of 60-point tiles in a colour ramp.
    func makeScene() throws -> ScrollView {
        root.bounds = Rect(x: 0, y: 0, width: 200, height: 150)
        root.backgroundColor = Color(rgb: 0x303030)
        let view = ScrollView()
        view.position = Point(x: 10, y: 10)
        view.bounds = Rect(x: 0, y: 0, width: 180, height: 130)
        view.backgroundColor = Color(rgb: 0xF0F0F0)
        view.contentSize = Size(width: 600, height: 600)
        for row in 0..<10 {
            for column in 0..<10 {
                let tile = Layer(name: "tile")
                tile.anchorPoint = .zero
                tile.frame = Rect(x: Double(column) * 60 + 2, y: Double(row) * 60 + 2, width: 56, height: 56)
                tile.cornerRadius = 8
                tile.backgroundColor = Color(red: 0.2 + 0.07 * Double(column), green: 0.3 + 0.06 * Double(row), blue: 0.8 - 0.05 * Double(column))
                try view.addContentSublayer(tile)
            }
        }
        try root.addSublayer(view)
        return view
    }

    func render(at time: MediaTime) throws -> Surface<ARGB8888> {
        let surface = try XCTUnwrap(Surface<ARGB8888>(width: 200, height: 150))
        Compositor().render(root, at: time, into: surface.view)
        return surface
    }

    func check(_ surface: Surface<ARGB8888>, _ name: String, file: StaticString = #filePath, line: UInt = #line) {
        let result = compareWithGolden(surface.view, name: name, tolerance: 2)
        XCTAssertTrue(result.passed, result.message, file: file, line: line)
    }

    func testRubberBandedAtTheCorner() throws {
        let view = try makeScene()
        let router = TouchRouter(root: root)
        view.attach(to: router)
        drag(router, from: Point(x: 60, y: 50), to: Point(x: 160, y: 130), steps: 20, seconds: 0.4, hold: 0.2, lift: false)
        XCTAssertLessThan(view.contentOffset.x, -20)
        XCTAssertLessThan(view.contentOffset.y, -20)
        XCTAssertGreaterThan(view.contentOffset.x, -180)
        let v = view.indicatorFrame(vertical: true, at: view.contentOffset)
        XCTAssertEqual(v.height, Swift.max(12, 123 * 130 / 600 + view.contentOffset.y), accuracy: 1e-9, "shortened by the excess")
        check(try render(at: clock.now), "controls-scroll-rubberband")
    }

    func testMidFling() throws {
        let view = try makeScene()
        let router = TouchRouter(root: root)
        view.attach(to: router)
        drag(router, from: Point(x: 150, y: 120), to: Point(x: 90, y: 60), steps: 6, seconds: 0.06)
        // Released at (50, 50) moving at (1000, 1000) points/s; 0.25 s later:
        let t = clock.now + 0.25
        let expected = 50 + 1000 * 0.4995 * (1 - ScrollMath.exp(-0.25 / 0.4995))
        XCTAssertEqual(view.visibleContentOffset(at: t).x, expected, accuracy: 1e-9)
        XCTAssertEqual(view.visibleContentOffset(at: t).y, expected, accuracy: 1e-9)
        check(try render(at: t), "controls-scroll-fling")
    }
}
