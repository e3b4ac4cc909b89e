@testable import FBRuntime
import MallocCounter
import TestSupport
import XCTest

/// When layout runs: marks, the commit-time pass, top-down order, once per
/// commit, before the commit hands the tree on, and no hang on layouts
/// that keep marking upwards.
final class LayoutPassTests: LayoutTestCase {
    func testSetNeedsLayoutAndLayoutIfNeeded() {
        let log = LayoutLog()
        let layer = RecordingLayer("a", log: log)
        XCTAssertFalse(layer.needsLayout)
        layer.setNeedsLayout()
        layer.setNeedsLayout()
        XCTAssertTrue(layer.needsLayout)
        layer.layoutIfNeeded()
        XCTAssertFalse(layer.needsLayout)
        XCTAssertEqual(log.entries, ["a"])
        layer.layoutIfNeeded()                      // nothing marked: nothing runs
        XCTAssertEqual(log.entries, ["a"])
    }

    func testBoundsSizeChangeMarksButPositionDoesNot() {
        let layer = Layer()
        layer.bounds = Rect(x: 0, y: 0, width: 10, height: 10)
        layer.layoutIfNeeded()
        layer.position = Point(x: 40, y: 40)
        layer.bounds.origin = Point(x: 5, y: 5)      // scrolling: same size
        XCTAssertFalse(layer.needsLayout)
        layer.frame = Rect(x: 0, y: 0, width: 10, height: 10)
        XCTAssertFalse(layer.needsLayout)             // the same size again
        layer.frame = Rect(x: 0, y: 0, width: 20, height: 10)
        XCTAssertTrue(layer.needsLayout)
        layer.layoutIfNeeded()
        layer.bounds.size = Size(width: .nan, height: 1)
        XCTAssertTrue(layer.needsLayout)
        layer.layoutIfNeeded()
        layer.bounds.size = Size(width: .nan, height: 1)   // NaN again is no change
        XCTAssertFalse(layer.needsLayout)
    }

    func testAddingAndRemovingSublayersMarksTheSuperlayer() {
        let parent = Layer(), child = Layer()
        parent.layoutIfNeeded()
        try! parent.addSublayer(child)
        XCTAssertTrue(parent.needsLayout)
        parent.layoutIfNeeded()
        child.removeFromSuperlayer()
        XCTAssertTrue(parent.needsLayout)
    }

    func testPresentationCopiesAreNeverMarked() {
        let root = Layer(name: "root")
        root.isDisplayRoot = true
        root.layoutIfNeeded()
        let copy = root.presentation()
        copy.setNeedsLayout()
        XCTAssertFalse(copy.needsLayout)
    }

    /// Superlayers before sublayers, whatever order they were marked in;
    /// a layer's own layout marking its sublayers (their size changed) gets
    /// them laid out in the same pass, after it.
    func testTopDownAndSublayersResizedByTheLayoutFollowInTheSamePass() {
        let log = LayoutLog()
        let root = RecordingLayer("root", log: log), a = RecordingLayer("a", log: log)
        let b = RecordingLayer("b", log: log), c = RecordingLayer("c", log: log)
        try! root.addSublayer(a); try! a.addSublayer(b); try! root.addSublayer(c)
        root.layoutIfNeeded()
        log.entries = []
        b.setNeedsLayout(); c.setNeedsLayout(); root.setNeedsLayout()
        a.duringLayout = { _ in }
        root.duringLayout = { _ in a.bounds.size = Size(width: 50, height: 50) }   // marks a
        root.layoutIfNeeded()
        XCTAssertEqual(log.entries, ["root", "a", "b", "c"])
        XCTAssertFalse(root.needsLayout || a.needsLayout || b.needsLayout || c.needsLayout)
    }

    /// At the outermost commit, inside the transaction, before `onCommit`
    /// (where the render loop captures the tree), once however many times
    /// the layer was marked; nested commits do not lay out.
    func testLayoutRunsOncePerCommitBeforeTheCommitIsHandedOn() {
        let log = LayoutLog()
        let root = RecordingLayer("root", log: log)
        root.bounds = Rect(x: 0, y: 0, width: 100, height: 100)
        let child = Layer(name: "child")
        try! root.addSublayer(child)
        root.duringLayout = { r in child.frame = Rect(x: 0, y: 0, width: r.bounds.width / 2, height: 10) }
        root.layoutIfNeeded()
        root.isDisplayRoot = true
        log.entries = []
        var seenAtCommit: [Rect] = []
        loop.onCommit = { _ in seenAtCommit.append(child.frame) }

        Transaction.begin()
        Transaction.disableActions = true
        root.bounds.size = Size(width: 200, height: 100)
        root.setNeedsLayout()
        Transaction.begin()
        root.bounds.size = Size(width: 300, height: 100)
        Transaction.commit()                          // nested: no layout, no commit point
        XCTAssertEqual(log.entries, [])
        XCTAssertTrue(seenAtCommit.isEmpty)
        Transaction.commit()
        XCTAssertEqual(log.entries, ["root"])
        XCTAssertEqual(seenAtCommit, [Rect(x: 0, y: 0, width: 150, height: 10)])

        // Implicit transaction: the turn's commit lays out.
        loop.runTurn { root.bounds.size = Size(width: 80, height: 100) }
        XCTAssertEqual(log.entries, ["root", "root"])
        XCTAssertEqual(seenAtCommit.last, Rect(x: 0, y: 0, width: 40, height: 10))
        XCTAssertEqual(loop.transactionDepth, 0)
    }

    /// Marking a layer of a displayed tree opens the implicit transaction,
    /// so it is laid out at the end of the turn without anything else
    /// changing; a tree built off screen opens nothing.
    func testSetNeedsLayoutInADisplayedTreeOpensTheImplicitTransaction() {
        let log = LayoutLog()
        let offscreen = RecordingLayer("offscreen", log: log)
        offscreen.setNeedsLayout()
        XCTAssertEqual(loop.transactionDepth, 0)
        offscreen.isDisplayRoot = true                // queued, laid out at the next commit
        XCTAssertEqual(loop.transactionDepth, 0)
        loop.runTurn {}
        XCTAssertEqual(log.entries, [])               // no transaction was open: nothing committed
        loop.runTurn { offscreen.setNeedsLayout() }
        XCTAssertEqual(log.entries, ["offscreen"])
        offscreen.setNeedsLayout()
        XCTAssertEqual(loop.transactionDepth, 1)
        loop.runTurn {}
        XCTAssertEqual(log.entries, ["offscreen", "offscreen"])
    }

    /// A layout that changes its own layer's size (marking it again) is
    /// laid out once per commit, and the run loop commits again on the
    /// next turn; after `LayoutQueue.maximumUnsettledCommits` commits in a
    /// row it stops forcing commits and warns. Nothing loops.
    func testLayoutThatKeepsMarkingItselfNeverHangs() {
        let log = LayoutLog()
        let root = RecordingLayer("root", log: log)
        root.isDisplayRoot = true
        root.duringLayout = { r in r.bounds.size.width += 1 }   // marks itself every time
        loop.runTurn { root.setNeedsLayout() }
        // Two commits a turn at most (the turn flushes twice).
        XCTAssertLessThanOrEqual(log.entries.count, 2)
        var turns = 0
        while loop.hasPendingWork && turns < 100 { loop.runTurn {}; turns += 1 }
        XCTAssertEqual(log.entries.count, LayoutQueue.maximumUnsettledCommits)
        XCTAssertTrue(root.needsLayout)               // still marked: laid out at the app's next commit
        XCTAssertEqual(warnings.count, 1)
        XCTAssertTrue(warnings[0].contains("did not settle"), warnings[0])
        loop.runTurn { root.opacity = 0.5 }
        XCTAssertEqual(log.entries.count, LayoutQueue.maximumUnsettledCommits + 1)
    }

    /// A sublayer's layout that resizes an ancestor: the ancestor is laid
    /// out at the next commit, not again in this pass.
    func testUpwardMarksWaitForTheNextCommit() {
        let log = LayoutLog()
        let root = RecordingLayer("root", log: log), child = RecordingLayer("child", log: log)
        try! root.addSublayer(child)
        root.isDisplayRoot = true
        var once = true
        child.duringLayout = { _ in if once { once = false; root.bounds.size = Size(width: 7, height: 7) } }
        loop.runTurn { root.setNeedsLayout(); child.setNeedsLayout() }
        XCTAssertEqual(log.entries, ["root", "child", "root"])   // the second "root" in the turn's second commit
        XCTAssertFalse(root.needsLayout)
        XCTAssertEqual(loop.transactionDepth, 0)
    }

    /// A subtree built off screen with marks, added to a displayed tree,
    /// is laid out at that tree's commit.
    func testMarkedSubtreeAddedToADisplayedTreeIsLaidOutAtItsCommit() {
        let log = LayoutLog()
        let root = RecordingLayer("root", log: log)
        root.isDisplayRoot = true
        loop.runTurn { root.setNeedsLayout() }
        log.entries = []
        let panel = RecordingLayer("panel", log: log), inner = RecordingLayer("inner", log: log)
        try! panel.addSublayer(inner)
        inner.setNeedsLayout()
        panel.layoutIfNeeded()
        XCTAssertEqual(log.entries, ["panel", "inner"])
        log.entries = []
        inner.setNeedsLayout()
        loop.runTurn { try! root.addSublayer(panel) }
        XCTAssertEqual(log.entries, ["root", "inner"])
    }

    /// Nothing marked: a commit's layout step allocates nothing.
    func testCommitWithNothingMarkedAllocatesNothing() {
        let root = Layer(name: "root")
        root.isDisplayRoot = true
        loop.runTurn { root.opacity = 0.5 }
        let queue = loop.layoutQueue
        XCTAssertTrue(queue.isEmpty)
        _ = queue.layOut()
        fbr_malloc_counter_begin()
        for _ in 0..<100 { _ = queue.layOut() }
        XCTAssertNoAllocations(fbr_malloc_counter_end())
    }
}
