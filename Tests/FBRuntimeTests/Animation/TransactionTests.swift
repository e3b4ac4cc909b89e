import XCTest
@testable import FBRuntime

final class TransactionTests: XCTestCase {
    func testCompletionWaitsForEveryAnimationOfTheTransaction() {
        let stack = TransactionStack()
        var calls: [String] = []
        stack.begin()
        stack.setCompletionBlock { calls.append("outer") }
        let a = stack.register()
        stack.begin()
        stack.setCompletionBlock { calls.append("inner") }
        let b = stack.register()
        stack.commit()                       // inner: waits for b
        stack.commit()                       // outer: waits for a and b
        stack.deliverCompletions()
        XCTAssertEqual(calls, [])
        stack.finished(b)
        stack.deliverCompletions()
        XCTAssertEqual(calls, ["inner"])
        stack.finished(a)
        stack.deliverCompletions()
        XCTAssertEqual(calls, ["inner", "outer"])
    }

    func testCompletionWithoutAnimationsRunsAfterCommit() {
        let stack = TransactionStack()
        var ran = false
        stack.begin()
        stack.setCompletionBlock { ran = true }
        stack.deliverCompletions()
        XCTAssertFalse(ran)                  // not before the commit
        stack.commit()
        XCTAssertTrue(stack.hasDueCompletions)
        stack.deliverCompletions()
        XCTAssertTrue(ran)
        stack.commit()                       // unbalanced commit: ignored
        XCTAssertEqual(stack.depth, 0)
    }

    /// `hasPendingWork` against what a turn then does: each case checks
    /// that a turn runs something exactly when it said there was work.
    func testHasPendingWorkSaysWhenATurnWouldDoSomething() throws {
        let saved = AppRunLoop.current
        defer { AppRunLoop.current = saved }
        let clock = ManualClock(now: 10)
        let loop = AppRunLoop(clock: clock)
        AppRunLoop.current = loop
        XCTAssertFalse(loop.hasPendingWork, "a fresh loop")

        // A block posted from another thread.
        var posted = 0
        let thread = try FBRuntime.Thread { loop.post { posted += 1 } }
        thread.join()
        XCTAssertTrue(loop.hasPendingWork, "a posted block")
        loop.runTurn()
        XCTAssertEqual(posted, 1)
        XCTAssertFalse(loop.hasPendingWork, "after the turn")

        // A change to a displayed layer made outside a turn opens the
        // implicit transaction; its implicit animation (0.25 s) then runs.
        let layer = Layer()
        layer.isDisplayRoot = true
        layer.opacity = 0.5
        XCTAssertTrue(loop.hasPendingWork, "an open implicit transaction")
        loop.runTurn()
        XCTAssertFalse(loop.hasPendingWork, "the implicit animation runs")
        XCTAssertEqual(loop.nextEventTime ?? 0, 10.25, accuracy: 1e-9)
        clock.set(10.25)
        XCTAssertTrue(loop.hasPendingWork, "the implicit animation has ended")
        loop.runTurn()
        XCTAssertFalse(loop.hasPendingWork)

        // An explicit transaction committed outside a turn, with an
        // animation of 1 s: its completion handler is due when it ends.
        var completed = 0
        Transaction.begin()
        Transaction.setCompletionBlock { completed += 1 }
        try layer.add(BasicAnimation(key: .opacity, from: .scalar(0), to: .scalar(1), duration: 1), forKey: "fade")
        Transaction.commit()
        loop.runTurn()
        XCTAssertFalse(loop.hasPendingWork, "the animation runs until 11.25")
        XCTAssertEqual(loop.nextEventTime ?? 0, 11.25, accuracy: 1e-9)
        clock.set(10.75)
        XCTAssertFalse(loop.hasPendingWork, "half-way")
        clock.set(11.25)
        XCTAssertTrue(loop.hasPendingWork, "the animation has ended")
        loop.runTurn()
        XCTAssertEqual(completed, 1)
        XCTAssertFalse(loop.hasPendingWork, "after the completion handler ran")
        XCTAssertNil(loop.nextEventTime)
    }

    /// An animation that begins later, with a delegate waiting for
    /// `animationDidStart`: the run loop's next event is its start (a turn
    /// then tells the delegate), then its end.
    func testNextEventTimeIsADelegatesStartThenTheEnd() throws {
        final class Recorder: AnimationDelegate {
            var events: [String] = []
            func animationDidStart(_ animation: Animation, forKey key: String, on layer: Layer) { events.append("start") }
            func animationDidStop(_ animation: Animation, forKey key: String, on layer: Layer, finished: Bool) {
                events.append(finished ? "stop" : "removed")
            }
        }
        let saved = AppRunLoop.current
        defer { AppRunLoop.current = saved }
        let clock = ManualClock(now: 5)
        let loop = AppRunLoop(clock: clock)
        AppRunLoop.current = loop
        let layer = Layer()
        layer.isDisplayRoot = true
        let recorder = Recorder()
        var move = BasicAnimation(key: .opacity, from: .scalar(0), to: .scalar(1), duration: 2)
        move.beginTime = 7
        move.delegate = recorder
        try layer.add(move, forKey: "later")
        loop.runTurn()
        XCTAssertEqual(recorder.events, [])
        XCTAssertEqual(loop.nextEventTime ?? 0, 7, accuracy: 1e-9, "the start, for the delegate")
        clock.set(7)
        XCTAssertTrue(loop.hasPendingWork)
        loop.runTurn()
        XCTAssertEqual(recorder.events, ["start"])
        XCTAssertEqual(loop.nextEventTime ?? 0, 9, accuracy: 1e-9, "then the end")
        XCTAssertFalse(loop.hasPendingWork)
        clock.set(9)
        loop.runTurn()
        XCTAssertEqual(recorder.events, ["start", "stop"])
        XCTAssertNil(loop.nextEventTime)
    }

    func testSettingsNestAndDefault() {
        let stack = TransactionStack()
        XCTAssertEqual(stack.animationDuration, 0.25)
        XCTAssertFalse(stack.disableActions)
        stack.begin()
        stack.animationDuration = 2
        stack.disableActions = true
        stack.begin()
        XCTAssertEqual(stack.animationDuration, 2)           // inherited
        stack.animationDuration = 0.5
        XCTAssertEqual(stack.animationDuration, 0.5)
        XCTAssertTrue(stack.disableActions)
        stack.commit()
        XCTAssertEqual(stack.animationDuration, 2)
        stack.commit()
        XCTAssertEqual(stack.animationDuration, 0.25)
    }

    func testImplicitTransactionCommitsAtTheEndOfTheTurn() {
        let stack = TransactionStack()
        stack.ensureImplicitTransaction()
        stack.ensureImplicitTransaction()
        XCTAssertEqual(stack.depth, 1)
        var done = false
        stack.setCompletionBlock { done = true }
        let t = stack.register()
        stack.flushImplicitTransaction()
        XCTAssertEqual(stack.depth, 0)
        stack.finished(t)
        stack.deliverCompletions()
        XCTAssertTrue(done)
        // An explicit transaction is not flushed as if it were implicit.
        stack.begin()
        stack.flushImplicitTransaction()
        XCTAssertEqual(stack.depth, 1)
    }

    func testHandlersMayStartNewTransactions() {
        let stack = TransactionStack()
        var order: [Int] = []
        stack.begin()
        stack.setCompletionBlock {
            order.append(1)
            stack.begin()
            stack.setCompletionBlock { order.append(2) }
            stack.commit()
        }
        stack.commit()
        stack.deliverCompletions()
        XCTAssertEqual(order, [1, 2])
    }
}
