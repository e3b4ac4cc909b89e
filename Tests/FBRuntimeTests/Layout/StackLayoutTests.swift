@testable import FBRuntime
import XCTest

/// The stack (flex) layout: exact frames for rows, columns, wrapping,
/// gaps, padding, grow and shrink, alignment; growth that is not
/// cumulative; nesting.
final class StackLayoutTests: LayoutTestCase {
    private func stack(_ w: Double, _ h: Double, _ layout: StackLayout, _ items: [Layer]) -> Layer {
        let c = Layer(name: "stack")
        c.bounds = Rect(x: 0, y: 0, width: w, height: h)
        c.layoutManager = layout
        for item in items { try! c.addSublayer(item) }
        return c
    }

    func testRowWithPaddingGapAndGrow() {
        let a = frameLayer("a", 0, 0, 40, 20), b = frameLayer("b", 0, 0, 60, 30), c = frameLayer("c", 0, 0, 50, 20)
        b.layoutItem = LayoutItem(grow: 1)
        c.layoutItem = LayoutItem(grow: 2)
        let s = stack(300, 100, StackLayout(gap: 10, padding: EdgeInsets(top: 10, left: 20, bottom: 10, right: 20)), [a, b, c])
        s.layoutIfNeeded()
        assertFrame(a, 20, 10, 40, 20)
        assertFrame(b, 70, 10, 90, 30)
        assertFrame(c, 170, 10, 110, 20)
        // Narrower: the grown items go back to their bases (60 and 50), not
        // to what they were grown to; the line overflows (no shrink).
        s.bounds.size = Size(width: 200, height: 100)
        s.layoutIfNeeded()
        assertFrame(a, 20, 10, 40, 20)
        assertFrame(b, 70, 10, 60, 30)
        assertFrame(c, 140, 10, 50, 20)
        // Wider again: the same frames as at first.
        s.bounds.size = Size(width: 300, height: 100)
        s.layoutIfNeeded()
        assertFrame(b, 70, 10, 90, 30)
        assertFrame(c, 170, 10, 110, 20)
    }

    func testWrapWithGapLineGapPaddingAndCrossCentre() {
        let items = (0..<6).map { frameLayer("i\($0)", 0, 0, 50, $0 == 1 ? 30 : 20) }
        items[4].layoutItem = LayoutItem(grow: 1)
        let layout = StackLayout(gap: 10, lineGap: 5, padding: EdgeInsets(all: 10), wraps: true, crossAlignment: .center)
        let s = stack(200, 200, layout, items)
        s.layoutIfNeeded()
        assertFrame(items[0], 10, 15, 50, 20)
        assertFrame(items[1], 70, 10, 50, 30)
        assertFrame(items[2], 130, 15, 50, 20)
        assertFrame(items[3], 10, 45, 50, 20)
        assertFrame(items[4], 70, 45, 60, 20)
        assertFrame(items[5], 140, 45, 50, 20)
    }

    func testColumnSpaceBetweenStretchAndAlignSelf() {
        let a = frameLayer("a", 0, 0, 40, 50), b = frameLayer("b", 0, 0, 30, 50), c = frameLayer("c", 0, 0, 20, 50)
        c.layoutItem = LayoutItem(alignSelf: .end)
        let layout = StackLayout(direction: .column, mainAlignment: .spaceBetween, crossAlignment: .stretch)
        let s = stack(100, 300, layout, [a, b, c])
        s.layoutIfNeeded()
        assertFrame(a, 0, 0, 100, 50)
        assertFrame(b, 0, 125, 100, 50)
        assertFrame(c, 80, 250, 20, 50)
        // Not stretched any more: back to the widths they had.
        layout.crossAlignment = .start
        s.setNeedsLayout()
        s.layoutIfNeeded()
        assertFrame(a, 0, 0, 40, 50)
        assertFrame(b, 0, 125, 30, 50)
    }

    func testMainAxisAlignments() {
        let expected: [(StackLayout.MainAlignment, Double, Double)] = [
            (.start, 0, 20), (.center, 30, 50), (.end, 60, 80), (.spaceBetween, 0, 80), (.spaceAround, 15, 65), (.spaceEvenly, 20, 60),
        ]
        for (alignment, x0, x1) in expected {
            let a = frameLayer("a", 0, 0, 20, 10), b = frameLayer("b", 0, 0, 20, 10)
            let s = stack(100, 10, StackLayout(mainAlignment: alignment), [a, b])
            s.layoutIfNeeded()
            XCTAssertEqual([a.frame.minX, b.frame.minX], [x0, x1], "\(alignment)")
        }
    }

    func testShrinkIsWeightedByBaseAndBasisZeroSharesByGrow() {
        let a = frameLayer("a", 0, 0, 80, 10), b = frameLayer("b", 0, 0, 40, 10)
        a.layoutItem = LayoutItem(shrink: 1)
        b.layoutItem = LayoutItem(shrink: 3)
        stack(100, 10, StackLayout(), [a, b]).layoutIfNeeded()
        assertFrame(a, 0, 0, 72, 10)
        assertFrame(b, 72, 0, 28, 10)

        let c = frameLayer("c", 0, 0, 500, 10), d = frameLayer("d", 0, 0, 5, 10)
        c.layoutItem = LayoutItem(grow: 1, basis: 0)
        d.layoutItem = LayoutItem(grow: 2, basis: 0)
        stack(90, 10, StackLayout(), [c, d]).layoutIfNeeded()
        assertFrame(c, 0, 0, 30, 10)
        assertFrame(d, 30, 0, 60, 10)
    }

    func testHiddenAndIgnoredItemsTakeNoSpace() {
        let a = frameLayer("a", 0, 0, 10, 10), b = frameLayer("b", 0, 0, 10, 10)
        let c = frameLayer("c", 55, 5, 10, 10), d = frameLayer("d", 0, 0, 10, 10)
        b.isHidden = true
        c.layoutItem = LayoutItem(isIgnored: true)
        let s = stack(100, 10, StackLayout(), [a, b, c, d])
        s.layoutIfNeeded()
        assertFrame(a, 0, 0, 10, 10)
        assertFrame(c, 55, 5, 10, 10)
        assertFrame(d, 10, 0, 10, 10)
        b.isHidden = false                              // marks the stack
        XCTAssertTrue(s.needsLayout)
        s.layoutIfNeeded()
        assertFrame(d, 20, 0, 10, 10)
    }

    func testPreferredSizeAndNestedStacksTopDown() {
        let row = Layer(name: "row")
        row.layoutManager = StackLayout(gap: 10, padding: EdgeInsets(all: 5))
        let x = frameLayer("x", 0, 0, 10, 20), y = frameLayer("y", 0, 0, 30, 10)
        try! row.addSublayer(x); try! row.addSublayer(y)
        XCTAssertEqual(row.preferredSize, Size(width: 60, height: 30))
        let column = stack(200, 200, StackLayout(direction: .column, gap: 4), [row, frameLayer("z", 0, 0, 15, 15)])
        column.layoutIfNeeded()
        assertFrame(row, 0, 0, 60, 30)
        assertFrame(column.sublayers[1], 0, 34, 15, 15)
        assertFrame(x, 5, 5, 10, 20)                    // the row was laid out in the same pass, after the column
        assertFrame(y, 25, 5, 30, 10)
        XCTAssertFalse(row.needsLayout)
    }

    func testNaNAndNegativeSettingsCountAsZero() {
        let a = frameLayer("a", 0, 0, 10, 10), b = frameLayer("b", 0, 0, 10, 10)
        a.layoutItem = LayoutItem(grow: .nan, shrink: -1)
        b.layoutItem = LayoutItem(grow: -3, basis: .nan)
        let s = stack(100, 10, StackLayout(gap: .nan, padding: EdgeInsets(top: -5, left: .infinity)), [a, b])
        s.layoutIfNeeded()
        // The infinite padding leaves no room: the inner box collapses at the
        // middle (x 50); the NaN basis is 0, the NaN gap 0.
        assertFrame(a, 50, 0, 10, 10)
        assertFrame(b, 60, 0, 0, 10)
    }
}
