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
