import FBRuntime
import Foundation
import XCTest
@testable import Controls

/// The list: cell reuse over 10,000 rows, sections and heights, swipe
/// actions and pull to refresh through a real `TouchRouter`.
final class ListViewTests: ScrollTestCase {
    /// A list of `rows` rows of 44 points filling 320 × 480 at the root's
    /// origin; each cell has a text layer the configure closure fills with
    /// "Row N".
    func makeList(rows: Int) -> ListView {
        let list = ListView()
        list.bounds = Rect(x: 0, y: 0, width: 320, height: 480)
        list.numberOfRows = { _, _ in rows }
        list.makeCell = { _, header in
            let cell = ListCell(header: header)
            let label = TextLayer(name: "label")
            label.anchorPoint = .zero
            label.frame = Rect(x: 12, y: 10, width: 200, height: 24)
            try? cell.contentLayer.addSublayer(label)
            return cell
        }
        list.configureCell = { _, cell, indexPath in
            (cell.contentLayer.sublayers.first as? TextLayer)?.string = "Row \(indexPath.row)"
        }
        try! root.addSublayer(list)
        list.reloadData()
        return list
    }

    private func label(_ cell: ListCell) -> String { (cell.contentLayer.sublayers.first as? TextLayer)?.string ?? "" }

    /// Checks the visible cells against the window at `offset`: contiguous
    /// rows covering it, each at its row's frame showing its row.
    private func checkCells(_ list: ListView, at offset: Double, file: StaticString = #filePath, line: UInt = #line) {
        let cells = list.visibleCells
        guard let first = cells.first, let last = cells.last else { return XCTFail("no cells", file: file, line: line) }
        let top = offset - list.reuseMargin, bottom = offset + 480 + list.reuseMargin
        XCTAssertEqual(first.indexPath.row, Swift.max(0, Int(Foundation.floor(top / 44))), file: file, line: line)
        XCTAssertEqual(last.indexPath.row, Swift.min(9999, Int(Foundation.ceil(bottom / 44)) - 1), file: file, line: line)
        for (i, cell) in cells.enumerated() {
            XCTAssertEqual(cell.indexPath.row, first.indexPath.row + i, file: file, line: line)
            XCTAssertEqual(cell.frame, Rect(x: 0, y: Double(cell.indexPath.row) * 44, width: 320, height: 44), file: file, line: line)
            XCTAssertEqual(label(cell), "Row \(cell.indexPath.row)", file: file, line: line)
            XCTAssertFalse(cell.isHidden, file: file, line: line)
        }
    }

    /// 10,000 rows scrolled through in uneven steps, then flung back to the
    /// top with momentum: never more cells than a window plus margins
    /// holds, each showing the right row.
    func testTenThousandRowsKeepOnlyTheVisibleCells() {
        let list = makeList(rows: 10_000)
        XCTAssertEqual(list.contentSize.height, 440_000)
        // The window with margins is 568 points: at most ⌈568/44⌉ + 1 = 14 rows.
        let bound = 14
        let cellsAtStart = list.cellCount
        XCTAssertEqual(cellsAtStart, 12, "rows 0…11 cover 0…524 (480 + 44)")
        var offset = 0.0
        var steps = 0
        while offset < 440_000 - 480 {
            offset = Swift.min(offset + 37 + Double(steps % 5) * 61, 440_000 - 480)
            list.contentOffset = Point(x: 0, y: offset)
            XCTAssertLessThanOrEqual(list.cellCount, bound)
            if steps % 97 == 0 { checkCells(list, at: offset) }
            steps += 1
        }
        checkCells(list, at: offset)
        XCTAssertEqual(list.visibleCells.last?.indexPath.row, 9999)
        XCTAssertLessThanOrEqual(list.cellCount, bound)
        XCTAssertEqual(list.sublayers.count, list.cellCount + 3, "cells, the spinner and the two indicators: nothing else")
        // Back to the top animated: every app-side tick shows the rows on screen then.
        let router = TouchRouter(root: root)
        list.attach(to: router)
        list.scroll(to: .zero, animated: true)
        var ticks = 0
        while let next = router.nextDeadline {
            clock.set(next)
            router.advance(to: next)
            let y = list.visibleContentOffset(at: next).y
            XCTAssertEqual(list.visibleContentOffset.y, y)
            if ticks % 7 == 0 { checkCells(list, at: y) }
            XCTAssertLessThanOrEqual(list.cellCount, bound)
            ticks += 1
        }
        XCTAssertGreaterThan(ticks, 30)
        checkCells(list, at: 0)
    }

    /// A fling through the router over a long list: the cells follow the
    /// motion on every tick, and their number stays bounded.
    func testFlingReusesCells() {
        let list = makeList(rows: 10_000)
        let router = TouchRouter(root: root)
        list.attach(to: router)
        for _ in 0..<5 {
            drag(router, from: Point(x: 160, y: 400), to: Point(x: 160, y: 80), steps: 8, seconds: 0.08)
            while let next = router.nextDeadline {
                clock.set(next)
                router.advance(to: next)
                XCTAssertLessThanOrEqual(list.cellCount, 14)
            }
            checkCells(list, at: list.contentOffset.y)
        }
        // Five flings of 4,000 points/s: each goes about 4,000 × 0.5 = 2,000 points.
        XCTAssertGreaterThan(list.contentOffset.y, 9000)
    }

    /// In a displayed tree, reusing a cell moves and shows it at once: no
    /// implicit animation of its frame or a fade of its `isHidden` (the
    /// list changes them without actions), and reloading does the same.
    func testReuseInADisplayedTreeAnimatesNothing() {
        root.isDisplayRoot = true
        let list = makeList(rows: 1000)
        let router = TouchRouter(root: root)
        list.attach(to: router)
        AppRunLoop.current.runTurn {
            drag(router, from: Point(x: 160, y: 400), to: Point(x: 160, y: 80), steps: 8, seconds: 0.08)
        }
        for _ in 0..<20 {
            clock.advance(by: 1.0 / 60)
            AppRunLoop.current.runTurn { router.advance(to: clock.now) }
        }
        AppRunLoop.current.runTurn { list.reloadData() }
        let cells = list.sublayers.compactMap { $0 as? ListCell }
        XCTAssertGreaterThan(cells.count, 10)
        for cell in cells {
            XCTAssertTrue(cell.animations.isEmpty, "cell \(cell.indexPath.row): \(cell.animations.map { $0.key })")
        }
        XCTAssertNotNil(list.animation(forKey: ScrollView.motionAnimationKey), "the fling's own keyframes run")
        XCTAssertEqual(list.animations.count, 1, "and nothing else on the list")
    }

    /// A tap on a list in motion stops it where it is and selects nothing;
    /// the next tap, on content at rest, selects.
    func testATapThatCatchesAFlingSelectsNothing() {
        let list = makeList(rows: 1000)
        var selected: [ListIndexPath] = []
        list.onSelectRow = { _, ip in selected.append(ip) }
        let router = TouchRouter(root: root)
        list.attach(to: router)
        drag(router, from: Point(x: 160, y: 400), to: Point(x: 160, y: 80), steps: 8, seconds: 0.08)
        clock.advance(by: 0.2)
        let onScreen = list.visibleContentOffset(at: clock.now).y
        tap(router, at: Point(x: 100, y: 200))
        XCTAssertTrue(selected.isEmpty)
        XCTAssertFalse(list.isDecelerating)
        XCTAssertEqual(list.contentOffset.y, onScreen, accuracy: 1e-9)
        clock.advance(by: 0.5)
        tap(router, at: Point(x: 100, y: 200))
        XCTAssertEqual(selected, [ListIndexPath(section: 0, row: Int((onScreen + 200) / 44))])
    }

    /// Reloading with fewer rows while scrolled near the end moves the
    /// offset back within the new range; bad data source answers are
    /// clamped, never a trap.
    func testReloadShorterAndBadAnswers() {
        var rows = 1000
        let list = makeList(rows: 0)
        list.numberOfRows = { _, _ in rows }
        list.reloadData()
        list.contentOffset = Point(x: 0, y: 40_000)
        XCTAssertEqual(list.visibleCells.first?.indexPath.row, 908)
        rows = 20   // 880 points: the end at 400
        list.reloadData()
        XCTAssertEqual(list.contentOffset.y, 400)
        XCTAssertEqual(list.visibleContentOffset.y, 400)
        XCTAssertEqual(list.visibleCells.last?.indexPath.row, 19)
        XCTAssertEqual(list.visibleCells.first?.indexPath.row, 8, "400 − 44 margin = 356: row 8")

        list.numberOfSections = { _ in 3 }
        list.numberOfRows = { _, section in section == 1 ? -5 : 4 }
        list.heightOfRow = { _, ip in [Double.nan, -10, .infinity, 30][ip.row] }
        list.reloadData()
        XCTAssertEqual(list.contentSize.height, 60, "two sections of rows 0, 0, 0 and 30 points")
        XCTAssertEqual(list.contentOffset.y, 0)
        XCTAssertEqual(list.rectForRow(at: ListIndexPath(section: 2, row: 3)), Rect(x: 0, y: 30, width: 320, height: 30))
        XCTAssertNil(list.rectForRow(at: ListIndexPath(section: 1, row: 0)))
        XCTAssertNil(list.rectForRow(at: ListIndexPath(section: -1, row: 0)))
        list.scroll(to: Point(x: .nan, y: .infinity), animated: true)
        XCTAssertEqual(list.contentOffset, .zero, "a list shorter than its view rests at the top")
    }

    /// Sections with headers and rows of varying height: the tops are the
    /// running sums, lookups go both ways, headers get header cells.
    func testSectionsHeadersAndRowHeights() {
        let list = ListView()
        list.bounds = Rect(x: 0, y: 0, width: 320, height: 480)
        list.numberOfSections = { _ in 3 }
        list.numberOfRows = { _, section in [5, 0, 40][section] }
        list.headerHeight = 30
        list.heightOfRow = { _, indexPath in 20 + Double(indexPath.row % 3) * 10 }
        var headers: [Int] = []
        list.configureHeader = { _, _, section in headers.append(section) }
        try! root.addSublayer(list)
        list.reloadData()
        // Section 0: header 0…30, rows 20, 30, 40, 20, 30 → 170. Section 1:
        // header 170…200, no rows. Section 2: header 200…230, 40 rows
        // (13 × 90 + 20 = 1,190).
        XCTAssertEqual(list.contentSize.height, 230 + 13 * 90 + 20)
        XCTAssertEqual(list.rectForRow(at: ListIndexPath(section: 0, row: 2)), Rect(x: 0, y: 80, width: 320, height: 40))
        XCTAssertEqual(list.rectForRow(at: ListIndexPath(section: 2, row: 0)), Rect(x: 0, y: 230, width: 320, height: 20))
        XCTAssertNil(list.rectForRow(at: ListIndexPath(section: 1, row: 0)))
        XCTAssertNil(list.rectForRow(at: ListIndexPath(section: 0, row: 5)))
        XCTAssertEqual(list.indexPathForRow(at: Point(x: 10, y: 85)), ListIndexPath(section: 0, row: 2))
        XCTAssertNil(list.indexPathForRow(at: Point(x: 10, y: 185)), "a header")
        XCTAssertEqual(list.indexPathForRow(at: Point(x: 10, y: 250)), ListIndexPath(section: 2, row: 1))
        XCTAssertEqual(headers, [0, 1, 2], "the three headers are on the first screen")
        let headerCells = list.visibleCells.filter { $0.isHeader }
        XCTAssertEqual(headerCells.map { $0.indexPath.section }, [0, 1, 2])
        XCTAssertEqual(headerCells.map { $0.frame.minY }, [0, 170, 200])
        list.scrollToRow(at: ListIndexPath(section: 2, row: 10), animated: false)
        XCTAssertEqual(list.contentOffset.y, 230 + 3 * 90 + 20)
        XCTAssertFalse(list.visibleCells.contains { $0.isHeader })
    }

    /// Swipe a row left: its two buttons open; a tap on one runs it with
    /// the row and closes the row. A vertical drag does not open a row.
    func testSwipeActionsThroughTheRouter() {
        let list = makeList(rows: 50)
        var ran: [(String, ListIndexPath)] = []
        var selected: [ListIndexPath] = []
        list.swipeActions = { _, _ in
            [SwipeAction(title: "Flag", color: Color(red: 1, green: 0.6, blue: 0)) { _, ip in ran.append(("flag", ip)) },
             SwipeAction(title: "Delete") { _, ip in ran.append(("delete", ip)) }]
        }
        list.onSelectRow = { _, ip in selected.append(ip) }
        let router = TouchRouter(root: root)
        list.attach(to: router)
        // Row 2 spans y 88…132. Drag it 120 points left (over half of 160).
        drag(router, from: Point(x: 300, y: 110), to: Point(x: 180, y: 112), seconds: 0.3, hold: 0.1)
        XCTAssertEqual(list.swipedOpenRow, ListIndexPath(section: 0, row: 2))
        XCTAssertEqual(list.swipeRevealDistance, 160, "opens fully")
        XCTAssertEqual(list.contentOffset.y, 0, "the list did not scroll")
        let cell = try! XCTUnwrap(list.cellForRow(at: ListIndexPath(section: 0, row: 2)))
        XCTAssertEqual(cell.contentLayer.frame.minX, -160)
        XCTAssertEqual(cell.actionButtons.count, 2)
        // The buttons: Flag at x 160…240, Delete at 240…320. Tap Delete.
        clock.advance(by: 0.5)
        tap(router, at: Point(x: 280, y: 110))
        XCTAssertEqual(ran.map { $0.0 }, ["delete"])
        XCTAssertEqual(ran.first?.1, ListIndexPath(section: 0, row: 2))
        XCTAssertNil(list.swipedOpenRow)
        XCTAssertEqual(cell.contentLayer.frame.minX, 0)
        XCTAssertEqual(cell.actionButtons.map { $0.opacity }, [0, 0], "the buttons faded out with the slide")
        list.contentOffset = Point(x: 0, y: 1000)
        XCTAssertTrue(cell.actionButtons.isEmpty, "and removed when the cell is reused")
        list.contentOffset = .zero
        XCTAssertTrue(selected.isEmpty, "the tap went to the button, not the row")
        // A short swipe (40 points) closes again; then a tap selects.
        clock.advance(by: 0.5)
        drag(router, from: Point(x: 300, y: 200), to: Point(x: 260, y: 200), seconds: 0.4, hold: 0.1)
        XCTAssertNil(list.swipedOpenRow)
        clock.advance(by: 0.5)
        tap(router, at: Point(x: 100, y: 200))
        XCTAssertEqual(selected, [ListIndexPath(section: 0, row: 4)])
        // Vertical: scrolls, opens nothing.
        clock.advance(by: 0.5)
        drag(router, from: Point(x: 300, y: 300), to: Point(x: 290, y: 200), seconds: 0.4, hold: 0.1)
        XCTAssertNil(list.swipedOpenRow)
        XCTAssertEqual(list.contentOffset.y, 90, accuracy: 1)
    }

    /// Pull past the threshold and let go: the spinner shows and turns, the
    /// handler runs once, the top rests with the spinner's room until
    /// `endRefreshing()`; a short pull does nothing.
    func testPullToRefreshThroughTheRouter() {
        let list = makeList(rows: 50)
        var refreshes = 0
        list.onRefresh = { _ in refreshes += 1 }
        let router = TouchRouter(root: root)
        list.attach(to: router)
        // 80 points down: shown as −(1 − 1/(70·0.55/480 + 1))·480 ≈ −35.6: under the threshold.
        drag(router, from: Point(x: 160, y: 100), to: Point(x: 160, y: 180), seconds: 0.4, hold: 0.1)
        XCTAssertEqual(refreshes, 0)
        XCTAssertFalse(list.isRefreshing)
        runUntilIdle(router)
        XCTAssertEqual(list.contentOffset.y, 0)
        // 400 points down: the pull shown is ≈ 150 points, past 70.
        drag(router, from: Point(x: 160, y: 60), to: Point(x: 160, y: 460), steps: 40, seconds: 0.8, hold: 0.1, lift: false)
        XCTAssertTrue(list.isPulledPastThreshold)
        XCTAssertEqual(list.refreshSpinner.opacity, 1)
        XCTAssertGreaterThan(list.pullDistance(at: list.contentOffset), 70)
        router.handle(TouchEvent(id: 1, phase: .ended, location: Point(x: 160, y: 460), timestamp: clock.now))
        XCTAssertTrue(list.isRefreshing)
        XCTAssertEqual(refreshes, 1)
        XCTAssertEqual(list.contentOffset.y, -list.refreshHeight, "rests with the spinner in view")
        XCTAssertNotNil(list.refreshSpinner.animation(forKey: ListView.spinnerAnimationKey), "turning")
        XCTAssertEqual(list.refreshSpinner.position, Point(x: 160, y: -28))
        runUntilIdle(router)
        XCTAssertEqual(list.visibleContentOffset.y, -56)
        list.endRefreshing()
        XCTAssertFalse(list.isRefreshing)
        XCTAssertEqual(list.contentOffset.y, 0)
        XCTAssertEqual(list.refreshSpinner.opacity, 0)
        XCTAssertNil(list.refreshSpinner.animation(forKey: ListView.spinnerAnimationKey))
        runUntilIdle(router)
        XCTAssertEqual(list.visibleContentOffset.y, 0)
        XCTAssertEqual(refreshes, 1)
    }
}
