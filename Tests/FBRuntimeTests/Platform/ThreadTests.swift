import XCTest
@testable import FBRuntime

final class ThreadTests: XCTestCase {
    func testThreadRunsItsClosureAndJoins() throws {
        let lock = Lock()
        var total = 0
        var threads: [FBRuntime.Thread] = []
        for i in 1...8 {
            threads.append(try FBRuntime.Thread { for _ in 0..<1000 { lock.withLock { total += i } } })
        }
        for t in threads { t.join(); t.join() }   // a second join does nothing
        XCTAssertEqual(total, 36 * 1000)
    }

    func testTimedWaitTimesOutOnTheMonotonicClock() {
        let condition = Condition()
        let start = System.monotonicNanoseconds()
        let signalled = condition.lock.withLock { condition.wait(untilNanoseconds: start + 20_000_000) { false } }
        let waited = System.monotonicNanoseconds() - start
        XCTAssertFalse(signalled)
        XCTAssertGreaterThanOrEqual(waited, 20_000_000)
        XCTAssertLessThan(waited, 2_000_000_000)
    }

    func testSignalWakesAWaiter() throws {
        let condition = Condition()
        var ready = false
        let t = try FBRuntime.Thread {
            fbrSleep(milliseconds: 10)
            condition.lock.withLock { ready = true; condition.signal() }
        }
        let ok = condition.lock.withLock { condition.wait(untilNanoseconds: System.monotonicNanoseconds() + 5_000_000_000) { ready } }
        t.join()
        XCTAssertTrue(ok)
    }
}

func fbrSleep(milliseconds: Int64) {
    MonotonicFrameTime().sleep(untilNanoseconds: System.monotonicNanoseconds() + milliseconds * 1_000_000)
}
