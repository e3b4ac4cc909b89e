import Controls
@testable import DemoScenes
import DemoTouchScripts
import FBRuntime
import Raster
import XCTest

/// The 10,000-row list demo: only about a screen of cell layers whatever
/// the scroll, a fling through the real `TouchRouter`, selection, swipe
/// actions, "Top", its layout from 480×272 to 1920×1080, goldens at rest
/// and after its board touch script.
final class ListSceneTests: XCTestCase {
    private func make(_ w: Double = 640, _ h: Double = 480) -> (SceneDriver, ListScene) {
        let driver = SceneDriver { ListScene(width: w, height: h) }
        return (driver, driver.scene as! ListScene)
    }

    /// The most cells the list may hold: the rows that fit in its height
    /// plus the reuse margin above and below, one more at each end for the
    /// partial rows, and a header per day that can show.
    private func cellBound(_ scene: ListScene) -> Int {
        let list = scene.list
        let window = list.bounds.height + 2 * list.reuseMargin
        return Int((window / list.rowHeight).rounded(.up)) + 2 + Int((window / (Double(EventLog.perDay) * list.rowHeight)).rounded(.up)) + 1
    }

    /// Every visible cell shows the item at its frame and the cells cover
    /// the window on screen.
    private func assertCellsMatchRows(_ scene: ListScene, file: StaticString = #filePath, line: UInt = #line) {
        let list = scene.list
        let offset = list.visibleContentOffset
        for cell in list.visibleCells {
            XCTAssertFalse(cell.isHidden, file: file, line: line)
            if !cell.isHeader {
                let rect = list.rectForRow(at: cell.indexPath)
                XCTAssertEqual(cell.position.y, rect?.minY, "row \(cell.indexPath) at its place", file: file, line: line)
                let view = cell.contentLayer.sublayers.first as? EventRowView
                XCTAssertEqual(view?.numberLabel.string, scene.entry(at: cell.indexPath).map { EventLog.numberText($0) },
                               file: file, line: line)
            }
        }
        let first = list.visibleCells.first.map { $0.position.y } ?? .infinity
        let last = list.visibleCells.last.map { $0.position.y + $0.bounds.height } ?? -.infinity
        XCTAssertLessThanOrEqual(first, Swift.max(offset.y, 0), "the window's top is covered", file: file, line: line)
        XCTAssertGreaterThanOrEqual(last, offset.y + list.bounds.height, "the window's foot is covered", file: file, line: line)
    }

    // MARK: Cell reuse and fling

    func testTenThousandRowsKeepAboutAScreenOfCellLayers() throws {
        let (d, scene) = make()
        defer { d.finish() }
        XCTAssertEqual(scene.entryCount, 10_000)
        XCTAssertEqual(scene.list.itemCount, 10_000 + EventLog.days, "a header a day")
        XCTAssertEqual(scene.countLabel.string, "10,000 entries")
        let bound = cellBound(scene)
        XCTAssertLessThanOrEqual(scene.list.cellCount, bound)
        XCTAssertLessThanOrEqual(bound, 16, "a screen's worth at 640×480")
        XCTAssertEqual(layers(ListCell.self, under: scene.root).count, scene.list.cellCount, "no other cells exist")
        assertCellsMatchRows(scene)
    }

    func testAFlingScrollsOnWithMomentumAndOnlyVisibleRowsExist() throws {
        let (d, scene) = make()
        defer { d.finish() }
        let list = scene.list
        // A fast upward flick: 300 points in 8 moves of 1/60 s.
        d.drag(from: Point(x: 320, y: 400), to: Point(x: 320, y: 100), moves: 8)
        let released = list.visibleContentOffset.y
        XCTAssertGreaterThan(released, 200, "the content followed the finger")
        XCTAssertTrue(list.isDecelerating)
        var cellsSeen = 0
        var previous = released
        for _ in 0..<30 {   // half a second of frames
            d.run(1.0 / 60)
            XCTAssertGreaterThanOrEqual(list.visibleContentOffset.y, previous, "it keeps going down the list")
            previous = list.visibleContentOffset.y
            cellsSeen = Swift.max(cellsSeen, list.cellCount)
            assertCellsMatchRows(scene)
        }
        d.run(6)
        XCTAssertFalse(list.isDecelerating)
        let rest = list.visibleContentOffset.y
        XCTAssertGreaterThan(rest, released + 1000, "momentum carried it well past the release (\(rest))")
        XCTAssertEqual(rest, list.contentOffset.y, "the app side ends where the model rests")
        XCTAssertLessThanOrEqual(cellsSeen, cellBound(scene), "never more than a screen of cells while flinging")
        XCTAssertEqual(layers(ListCell.self, under: scene.root).count, list.cellCount)
        assertCellsMatchRows(scene)
        // The rows on screen are far down the log now.
        let firstRow = try XCTUnwrap(list.visibleCells.first { !$0.isHeader })
        XCTAssertGreaterThan(scene.entry(at: firstRow.indexPath) ?? 0, 20)
    }

    func testTopScrollsBackFromAFlingStillMoving() throws {
        let (d, scene) = make()
        defer { d.finish() }
        d.drag(from: Point(x: 320, y: 400), to: Point(x: 320, y: 100), moves: 8)
        d.run(0.2)
        XCTAssertTrue(scene.list.isDecelerating)
        d.tap(midpoint(of: rootFrame(of: scene.topButton, in: scene.root)))
        d.run(3)
        XCTAssertEqual(scene.list.visibleContentOffset.y, 0, accuracy: 1e-9)
        XCTAssertEqual(scene.list.contentOffset.y, 0)
        assertCellsMatchRows(scene)
    }

    // MARK: Rows

    func testATapSelectsTheRowAndTheHeaderShowsIt() throws {
        let (d, scene) = make()
        defer { d.finish() }
        let ip = ListIndexPath(section: 0, row: 1)
        d.tap(try XCTUnwrap(scene.rowCentre(ip)))
        XCTAssertEqual(scene.selected, 1)
        XCTAssertEqual(scene.countLabel.string, "#00002 · 06:09")
        let view = try XCTUnwrap(scene.list.cellForRow(at: ip)?.contentLayer.sublayers.first as? EventRowView)
        XCTAssertTrue(view.isSelected)
        XCTAssertEqual(view.backgroundColor, scene.theme.colors.surfaceHighlighted)
        let other = try XCTUnwrap(scene.list.cellForRow(at: ListIndexPath(section: 0, row: 2))?.contentLayer.sublayers.first as? EventRowView)
        XCTAssertFalse(other.isSelected)
    }

    func testSwipeOpensFlagAndDeleteAndTheyAct() throws {
        let (d, scene) = make()
        defer { d.finish() }
        let ip = ListIndexPath(section: 0, row: 3)
        let y = try XCTUnwrap(scene.rowCentre(ip)).y
        d.drag(from: Point(x: 500, y: y), to: Point(x: 200, y: y), moves: 8, dt: 0.04)
        d.run(0.5)
        XCTAssertEqual(scene.list.swipedOpenRow, ip)
        XCTAssertEqual(scene.list.swipeRevealDistance, 2 * scene.list.swipeActionWidth)
        // Flag: the left button.
        let w = scene.list.bounds.width
        d.tap(Point(x: w - 1.5 * scene.list.swipeActionWidth, y: y))
        d.run(0.5)
        XCTAssertTrue(scene.isFlagged(3))
        XCTAssertNil(scene.list.swipedOpenRow, "the row closed")
        let view = try XCTUnwrap(scene.list.cellForRow(at: ip)?.contentLayer.sublayers.first as? EventRowView)
        XCTAssertEqual(view.titleLabel.style, .value, "a flagged entry's text is in the accent colour")
        // Delete: the right button; entry #4 (number 3) leaves the log.
        d.drag(from: Point(x: 500, y: y), to: Point(x: 200, y: y), moves: 8, dt: 0.04)
        d.run(0.5)
        d.tap(Point(x: w - 0.5 * scene.list.swipeActionWidth, y: y))
        d.run(0.5)
        XCTAssertEqual(scene.entryCount, 9_999)
        XCTAssertEqual(scene.countLabel.string, "9,999 entries")
        XCTAssertEqual(scene.entry(at: ip), 4)
        assertCellsMatchRows(scene)
    }

    // MARK: Layout, goldens, script

    func testHeaderAndRowsFitFrom480x272To1920x1080() throws {
        for (w, h) in SettingsSceneTests.sizes {
            let (d, scene) = make(w, h)
            defer { d.finish() }
            let list = rootFrame(of: scene.list, in: scene.root)
            let top = rootFrame(of: scene.topButton, in: scene.root)
            let what = "\(Int(w))x\(Int(h))"
            XCTAssertEqual(list.maxY, h, accuracy: 1e-9, what)
            XCTAssertEqual(list.width, w, accuracy: 1e-9, what)
            XCTAssertLessThanOrEqual(top.maxY, list.minY, what)
            XCTAssertLessThanOrEqual(top.maxX, w, what)
            XCTAssertGreaterThanOrEqual(top.height, scene.topButton.preferredSize.height - 1e-9, what)
            XCTAssertGreaterThanOrEqual(list.height / scene.list.rowHeight, 5, "\(what): at least five rows show")
            XCTAssertLessThanOrEqual(scene.list.cellCount, cellBound(scene), what)
            // The texts of a row sit side by side, inside the row.
            let cell = try XCTUnwrap(scene.list.visibleCells.first { !$0.isHeader })
            let view = try XCTUnwrap(cell.contentLayer.sublayers.first as? EventRowView)
            let t = rootFrame(of: view.timeLabel, in: scene.root), n = rootFrame(of: view.numberLabel, in: scene.root)
            let title = rootFrame(of: view.titleLabel, in: scene.root)
            XCTAssertLessThanOrEqual(t.maxX, title.minX, what)
            XCTAssertLessThanOrEqual(title.maxX, n.minX, what)
            XCTAssertLessThanOrEqual(n.maxX, w, what)
        }
    }

    /// `Tests/Goldens/demo-list-{rest,touched}.png` at 480×272: at rest;
    /// after the board touch script (flung, back at the top, the second
    /// row selected, the fourth swiped open).
    func testGoldens() throws {
        let (d, _) = make(480, 272)
        defer { d.finish() }
        d.assertGolden("demo-list-rest")
        let (d2, scene2) = make(480, 272)
        defer { d2.finish() }
        d2.playTouchScript()
        XCTAssertEqual(scene2.selected, 1)
        d2.assertGolden("demo-list-touched")
    }

    func testTouchScriptEndsAtTheTopWithARowSelectedAndOneSwipedOpen() throws {
        for (w, h) in [(640.0, 480.0), (480.0, 272.0), (1920.0, 1080.0)] {
            let (d, scene) = make(w, h)
            defer { d.finish() }
            d.playTouchScript()
            let what = "\(Int(w))x\(Int(h))"
            XCTAssertEqual(scene.list.contentOffset.y, 0, what)
            XCTAssertFalse(scene.list.isDecelerating, what)
            XCTAssertEqual(scene.selected, 1, what)
            XCTAssertEqual(scene.list.swipedOpenRow, ListIndexPath(section: 0, row: 3), what)
            XCTAssertEqual(scene.list.swipeRevealDistance, 2 * scene.list.swipeActionWidth, what)
        }
    }
}
