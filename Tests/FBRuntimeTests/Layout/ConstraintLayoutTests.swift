@testable import FBRuntime
import XCTest

/// Constraints as Core Animation's: exact frames, sibling chains in any
/// order, and bad input (cycles, unknown names, conflicts, NaN) reported
/// with the layers named, never a hang.
final class ConstraintLayoutTests: LayoutTestCase {
    private func container(_ w: Double = 400, _ h: Double = 300) -> Layer {
        let c = Layer(name: "panel")
        c.bounds = Rect(x: 0, y: 0, width: w, height: h)
        c.layoutManager = ConstraintLayoutManager()
        return c
    }

    func testEdgeOffsetFromTheSuperlayer() {
        let panel = container()
        let a = frameLayer("a", 0, 0, 50, 20)
        try! panel.addSublayer(a)
        a.constraints = [LayoutConstraint(.minX, offset: 10), LayoutConstraint(.minY, offset: 5)]
        panel.layoutIfNeeded()
        assertFrame(a, 10, 5, 50, 20)                 // a single edge keeps the size
    }

    func testTwoEdgesStretchAndCentreWithSize() {
        let panel = container()
        let a = frameLayer("a", 0, 0, 50, 20), b = frameLayer("b", 0, 0, 1, 1)
        try! panel.addSublayer(a); try! panel.addSublayer(b)
        a.constraints = [LayoutConstraint(.minX, offset: 10), LayoutConstraint(.maxX, offset: -10),
                         LayoutConstraint(.maxY, offset: -8), LayoutConstraint(.height, .height, scale: 0.1, offset: 0)]
        b.constraints = [LayoutConstraint(.midX), LayoutConstraint(.width, .width, scale: 0.5),
                         LayoutConstraint(.midY), LayoutConstraint(.height, offset: -200)]
        panel.layoutIfNeeded()
        assertFrame(a, 10, 262, 380, 30)
        assertFrame(b, 100, 100, 200, 100)
    }

    /// A chain of siblings is placed in dependency order whatever the
    /// sublayer order: c reads b reads a.
    func testSiblingChainInDependencyOrder() {
        let panel = container()
        let c = frameLayer("c", 0, 0, 40, 40), b = frameLayer("b", 0, 0, 30, 30), a = frameLayer("a", 0, 0, 20, 20)
        for l in [c, b, a] { try! panel.addSublayer(l) }
        a.constraints = [LayoutConstraint(.minX, offset: 10), LayoutConstraint(.minY, offset: 10)]
        b.constraints = [LayoutConstraint(.minX, relativeTo: "a", .maxX, offset: 5), LayoutConstraint(.minY, relativeTo: "a", .minY)]
        c.constraints = [LayoutConstraint(.minX, relativeTo: "b", .maxX, offset: 5), LayoutConstraint(.maxY, relativeTo: "b", .maxY),
                         LayoutConstraint(.width, relativeTo: "a", .width, scale: 2, offset: 1)]
        panel.layoutIfNeeded()
        assertFrame(a, 10, 10, 20, 20)
        assertFrame(b, 35, 10, 30, 30)
        assertFrame(c, 70, 0, 41, 40)
        XCTAssertTrue(warnings.isEmpty, "\(warnings)")
        XCTAssertEqual(ConstraintLayoutManager.solve(panel).placements.map { $0.layer.name }, ["a", "b", "c"])
    }

    /// A size alone keeps the anchor point (as setting bounds.size does);
    /// an unconstrained sibling is read where it is.
    func testSizeAloneKeepsThePositionAndUnconstrainedSiblingsAreRead() {
        let panel = container()
        let fixed = frameLayer("fixed", 100, 100, 60, 10), a = frameLayer("a", 0, 0, 20, 20)
        try! panel.addSublayer(fixed); try! panel.addSublayer(a)
        a.position = Point(x: 50, y: 50)
        a.constraints = [LayoutConstraint(.width, relativeTo: "fixed", .width), LayoutConstraint(.minY, relativeTo: "fixed", .maxY)]
        panel.layoutIfNeeded()
        assertFrame(a, 20, 110, 60, 20)
        assertFrame(fixed, 100, 100, 60, 10)
    }

    func testSuperlayerBoundsOriginIsItsSpace() {
        let panel = container()
        panel.bounds.origin = Point(x: -100, y: 20)    // scrolled
        let a = frameLayer("a", 0, 0, 10, 10)
        try! panel.addSublayer(a)
        a.constraints = [LayoutConstraint(.minX), LayoutConstraint(.minY)]
        panel.layoutIfNeeded()
        assertFrame(a, -100, 20, 10, 10)
    }

    /// A change of the superlayer's size re-lays out at the next commit.
    func testResizingTheSuperlayerRelaysOutAtTheCommit() {
        let panel = container()
        panel.isDisplayRoot = true
        let a = frameLayer("a", 0, 0, 10, 10)
        try! panel.addSublayer(a)
        a.constraints = [LayoutConstraint(.maxX, offset: -10), LayoutConstraint(.minY), LayoutConstraint(.height)]
        loop.runTurn { Transaction.disableActions = true }
        assertFrame(a, 380, 0, 10, 300)
        loop.runTurn {
            Transaction.disableActions = true
            panel.bounds.size = Size(width: 200, height: 100)
        }
        assertFrame(a, 180, 0, 10, 100)
    }

    // MARK: Bad input

    func testCycleIsBrokenAtTheClosingConstraintAndReported() {
        let panel = container()
        let a = frameLayer("a", 0, 0, 10, 10), b = frameLayer("b", 300, 0, 20, 10)
        try! panel.addSublayer(a); try! panel.addSublayer(b)
        a.constraints = [LayoutConstraint(.minX, relativeTo: "b", .maxX, offset: 5)]   // a after b
        b.constraints = [LayoutConstraint(.minX, relativeTo: "a", .maxX, offset: 5)]   // b after a: a cycle
        let solution = ConstraintLayoutManager.solve(panel)
        XCTAssertEqual(solution.issues, [.cycle(container: "panel", cycle: ["a", "b"], brokenAt: "b", constraint: "minX = a.maxX + 5")])
        XCTAssertEqual(solution.issues[0].description,
                       "constraint cycle among the sublayers of 'panel': 'a' → 'b' → 'a'; broken by ignoring 'b'.minX = a.maxX + 5")
        // b's closing constraint is ignored: b stays, a follows it.
        panel.layoutIfNeeded()
        assertFrame(b, 300, 0, 20, 10)
        assertFrame(a, 325, 0, 10, 10)
        XCTAssertEqual(warnings.count, 1)
        XCTAssertTrue(warnings[0].contains("layer \"b\"") && warnings[0].contains("'a' → 'b' → 'a'"), warnings[0])
        // The same result at every layout (no drift), reported once.
        panel.setNeedsLayout()
        panel.layoutIfNeeded()
        assertFrame(a, 325, 0, 10, 10)
        XCTAssertEqual(warnings.count, 1)
    }

    func testLongerCycleAndSelfReference() {
        let panel = container()
        let a = frameLayer("a", 0, 0, 10, 10), b = frameLayer("b", 0, 0, 10, 10), c = frameLayer("c", 0, 0, 10, 10)
        let me = frameLayer("me", 7, 7, 10, 10)
        for l in [a, b, c, me] { try! panel.addSublayer(l) }
        a.constraints = [LayoutConstraint(.minY, relativeTo: "c", .maxY)]
        b.constraints = [LayoutConstraint(.minY, relativeTo: "a", .maxY)]
        c.constraints = [LayoutConstraint(.minY, relativeTo: "b", .maxY), LayoutConstraint(.minX, offset: 3)]
        me.constraints = [LayoutConstraint(.minX, relativeTo: "me", .maxX)]
        let issues = ConstraintLayoutManager.solve(panel).issues
        XCTAssertEqual(issues.count, 2)
        XCTAssertEqual(issues[0], .cycle(container: "panel", cycle: ["a", "c", "b"], brokenAt: "b", constraint: "minY = a.maxY"))
        XCTAssertEqual(issues[1], .cycle(container: "panel", cycle: ["me"], brokenAt: "me", constraint: "minX = me.maxX"))
        panel.layoutIfNeeded()
        assertFrame(b, 0, 0, 10, 10)       // kept
        assertFrame(c, 3, 10, 10, 10)
        assertFrame(a, 0, 20, 10, 10)
        assertFrame(me, 7, 7, 10, 10)
    }

    func testUnknownSiblingIsIgnoredAndNamed() {
        let panel = container()
        let a = frameLayer("a", 0, 0, 10, 10)
        try! panel.addSublayer(a)
        a.constraints = [LayoutConstraint(.minX, relativeTo: "nobody", .maxX), LayoutConstraint(.minY, offset: 4)]
        panel.layoutIfNeeded()
        assertFrame(a, 0, 4, 10, 10)
        XCTAssertEqual(warnings, ["FBRuntime warning: layer \"a\": constraint 'a'.minX = nobody.maxX refers to 'nobody', which is not a sublayer of 'panel' (nor \"superlayer\"); ignored"])
    }

    func testConflictsKeepTheFirstTwoAttributesOfAnAxis() {
        let panel = container()
        let a = frameLayer("a", 0, 0, 10, 10), b = frameLayer("b", 0, 0, 10, 10)
        try! panel.addSublayer(a); try! panel.addSublayer(b)
        a.constraints = [LayoutConstraint(.minX, offset: 10), LayoutConstraint(.width, offset: -300),
                         LayoutConstraint(.maxX, offset: -1), LayoutConstraint(.minX, offset: 99)]
        b.constraints = [LayoutConstraint(.minX, offset: 50), LayoutConstraint(.maxX, .minX, offset: 20)]   // maxX < minX
        let issues = ConstraintLayoutManager.solve(panel).issues
        XCTAssertEqual(issues.map(\.layerName), ["a", "a", "b"])
        XCTAssertEqual(issues[0].description, "constraints of 'a' in 'panel' conflict at 'a'.maxX = superlayer.maxX − 1: minX and width already fix this axis: this one is ignored")
        XCTAssertEqual(issues[1].description, "constraints of 'a' in 'panel' conflict at 'a'.minX = superlayer.minX + 99: minX is constrained twice: the first is used, this one ignored")
        XCTAssertEqual(issues[2].description, "constraints of 'b' in 'panel' conflict at 'b'.maxX: minX and maxX give a negative size: size 0 at minX")
        panel.layoutIfNeeded()
        assertFrame(a, 10, 0, 100, 10)
        assertFrame(b, 50, 0, 0, 10)
    }

    func testConstraintTextFormatsNumbersWithoutPrintingDoubles() {
        XCTAssertEqual(LayoutConstraint(.minX, relativeTo: "a", .maxX, scale: 0.25, offset: -1.5).text, "minX = a.maxX × 0.25 − 1.5")
        XCTAssertEqual([0, 5, -0.0004, 2.0625, 1e20, .nan, -.infinity].map(LayoutConstraint.decimal),
                       ["0", "5", "0", "2.063", "huge", "nan", "-inf"])
    }

    func testNaNAndHugeValuesAreClamped() {
        let panel = container()
        let a = frameLayer("a", 0, 0, 10, 10), b = frameLayer("b", 0, 0, 10, 10)
        try! panel.addSublayer(a); try! panel.addSublayer(b)
        a.constraints = [LayoutConstraint(.minX, .minX, scale: .nan), LayoutConstraint(.minY, offset: 1e300),
                         LayoutConstraint(.height, offset: .infinity)]
        b.constraints = [LayoutConstraint(.width, .width, scale: 1e300), LayoutConstraint(.minX, .minX, scale: -1, offset: -1e300)]
        panel.layoutIfNeeded()
        assertFrame(a, 0, LayoutLimits.maximumCoordinate, 10, 10)
        assertFrame(b, -LayoutLimits.maximumCoordinate, 0, LayoutLimits.maximumCoordinate, 10)
        XCTAssertEqual(ConstraintLayoutManager.solve(panel).issues.count, 2)   // the NaN scale and the infinite offset
        // A NaN superlayer: everything read from it counts as 0.
        panel.bounds = Rect(x: .nan, y: 0, width: .nan, height: 100)
        panel.layoutIfNeeded()
        XCTAssertTrue(a.frame.isFinite && b.frame.isFinite)
    }
}
