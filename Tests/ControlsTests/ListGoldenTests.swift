import FBRuntime
import Raster
import TestSupport
import XCTest
@testable import Controls

/// Goldens of a list screen (`Tests/Goldens/controls-list-*.png`,
/// regenerated with `FBR_UPDATE_GOLDENS=1`): at rest, mid-fling (drawn
/// from the render side's keyframes at a time the app thread never
/// ticked, with the indicator shown), with a row swiped open, and
/// refreshing. DejaVu Sans (`fonts-dejavu-core`) for the text.
final class ListGoldenTests: ScrollTestCase {
    static let dejaVu = "/usr/share/fonts/truetype/dejavu/DejaVuSans.ttf"
    var savedFont: Font?

    override func setUp() {
        super.setUp()
        savedFont = TextLayer.defaultFont
        TextLayer.defaultFont = try? Font(path: ListGoldenTests.dejaVu)
    }

    override func tearDown() {
        TextLayer.defaultFont = savedFont
        super.tearDown()
    }

    /// A settings-like screen: 240 × 320 points, a title bar and below it a
    /// list of two sections (headers "Section 1", "Section 2") of 20 rows,
    /// each row a label and a hairline at its foot.
    func makeScreen() throws -> ListView {
        XCTAssertNotNil(TextLayer.defaultFont, "DejaVu Sans is installed")
        root.bounds = Rect(x: 0, y: 0, width: 240, height: 320)
        root.backgroundColor = Color(rgb: 0xF2F2F7)
        let title = TextLayer(name: "title")
        title.string = "Settings"
        title.fontSize = 17
        title.foregroundColor = Color(rgb: 0x111111)
        title.alignmentMode = .center
        title.anchorPoint = .zero
        title.frame = Rect(x: 0, y: 10, width: 240, height: 24)
        try root.addSublayer(title)
        let list = ListView()
        list.position = Point(x: 0, y: 40)
        list.bounds = Rect(x: 0, y: 0, width: 240, height: 280)
        list.backgroundColor = Color(rgb: 0xFFFFFF)
        list.numberOfSections = { _ in 2 }
        list.numberOfRows = { _, _ in 20 }
        list.headerHeight = 26
        list.rowHeight = 40
        list.makeCell = { _, header in
            let cell = ListCell(header: header)
            cell.contentLayer.backgroundColor = header ? Color(rgb: 0xE5E5EA) : Color(rgb: 0xFFFFFF)
            let label = TextLayer(name: "label")
            label.fontSize = header ? 12 : 15
            label.foregroundColor = header ? Color(rgb: 0x6D6D72) : Color(rgb: 0x111111)
            label.anchorPoint = .zero
            label.frame = Rect(x: 14, y: header ? 6 : 11, width: 200, height: 20)
            try? cell.contentLayer.addSublayer(label)
            if !header {
                let line = Layer(name: "separator")
                line.anchorPoint = .zero
                line.frame = Rect(x: 14, y: 39, width: 226, height: 1)
                line.backgroundColor = Color(rgb: 0xC8C7CC)
                try? cell.contentLayer.addSublayer(line)
            }
            return cell
        }
        list.configureHeader = { _, cell, section in
            (cell.contentLayer.sublayers.first as? TextLayer)?.string = "SECTION \(section + 1)"
        }
        list.configureCell = { _, cell, ip in
            (cell.contentLayer.sublayers.first as? TextLayer)?.string = "Item \(ip.section + 1).\(ip.row + 1)"
        }
        list.swipeActions = { _, _ in
            [SwipeAction(title: "Flag", color: Color(rgb: 0xFF9500)) { _, _ in },
             SwipeAction(title: "Delete", color: Color(rgb: 0xFF3B30)) { _, _ in }]
        }
        list.onRefresh = { _ in }
        try root.addSublayer(list)
        list.reloadData()
        return list
    }

    func render(at time: MediaTime) throws -> Surface<ARGB8888> {
        let surface = try XCTUnwrap(Surface<ARGB8888>(width: 240, height: 320))
        Compositor().render(root, at: time, into: surface.view)
        return surface
    }

    func check(_ surface: Surface<ARGB8888>, _ name: String, file: StaticString = #filePath, line: UInt = #line) {
        let result = compareWithGolden(surface.view, name: name, tolerance: 2)
        XCTAssertTrue(result.passed, result.message, file: file, line: line)
    }

    func testListAtRest() throws {
        let list = try makeScreen()
        let surface = try render(at: clock.now)
        // The first header's grey at its top-left, a white row below it.
        XCTAssertEqual(surface.view[2, 42], 0xFFE5_E5EA)
        XCTAssertEqual(surface.view[2, 40 + 26 + 20], 0xFFFF_FFFF)
        XCTAssertEqual(list.visibleCells.count, 9, "header, rows 1–7 and the 44-point margin below: 280 + 44 = 324 points")
        check(surface, "controls-list-screen")
    }

    /// Mid-fling: the app thread last ran at the release; the frame is
    /// drawn 0.3 s later from the render side's keyframes.
    func testListMidFling() throws {
        let list = try makeScreen()
        let router = TouchRouter(root: root)
        list.attach(to: router)
        drag(router, from: Point(x: 120, y: 280), to: Point(x: 120, y: 180), steps: 10, seconds: 0.1)
        let t = clock.now + 0.3
        let offset = list.visibleContentOffset(at: t).y
        // Released at 90 with 1,000 points/s, to rest at 590 (589.5 to a
        // whole point): 90 + 500·(1 − e^(−0.3/τ)).
        XCTAssertEqual(offset, 90 + 500 * (1 - ScrollMath.exp(-0.3 / 0.4995)), accuracy: 1e-9)
        clock.set(t)
        router.advance(to: t)   // the app's cells for that offset
        check(try render(at: t), "controls-list-scrolled")
    }

    func testListWithARowSwipedOpen() throws {
        let list = try makeScreen()
        let router = TouchRouter(root: root)
        list.attach(to: router)
        drag(router, from: Point(x: 220, y: 40 + 26 + 60), to: Point(x: 100, y: 40 + 26 + 60), seconds: 0.3, hold: 0.1)
        XCTAssertEqual(list.swipedOpenRow, ListIndexPath(section: 0, row: 1))
        check(try render(at: clock.now + 1), "controls-list-swiped")
    }

    func testListRefreshing() throws {
        let list = try makeScreen()
        let router = TouchRouter(root: root)
        list.attach(to: router)
        drag(router, from: Point(x: 120, y: 50), to: Point(x: 120, y: 300), steps: 25, seconds: 0.5, hold: 0.1)
        XCTAssertTrue(list.isRefreshing)
        runUntilIdle(router)
        check(try render(at: clock.now + 0.2), "controls-list-refreshing")
    }
}
