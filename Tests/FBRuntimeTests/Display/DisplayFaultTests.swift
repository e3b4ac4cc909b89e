import Foundation
import XCTest
@testable import FBRuntime
import FBRuntimeTestSupport
import Raster

/// The display faults of issue #10 on the host: the `DisplayAccess` state
/// machine and the real `RenderLoop` riding out
/// an unplugged connector, failing commits and a whole-tree replacement on
/// a `SimulatedPresenter` (which follows the same state machine).
final class DisplayFaultTests: XCTestCase {
    let backoff = MasterRetryBackoff(initialNanoseconds: 10_000_000, maximumNanoseconds: 80_000_000)

    // MARK: State machine

    func testEveryStateAndEvent() {
        let now: Int64 = 5_000_000_000
        let states: [DisplayAccess] = [.active, .masterLost(attempts: 2, nextAttemptNanoseconds: 7), .vtReleased,
                                       .disconnected, .recovering(attempts: 3, nextAttemptNanoseconds: 9)]
        let events: [DisplayAccessEvent] = [.commitRefusedWithoutMaster, .masterAcquired, .masterRefused, .vtReleased,
                                            .vtAcquired, .connectorDisconnected, .connectorConnected,
                                            .commitFailed(errno: EINVAL), .commitSucceeded]
        for state in states {
            for event in events {
                let next = state.after(event, now: now, backoff: backoff)
                // The oracle: the rules of the type's documentation, written
                // out case by case.
                let expected: DisplayAccess
                if state == .vtReleased {
                    expected = event == .vtAcquired ? .masterLost(attempts: 0, nextAttemptNanoseconds: now) : .vtReleased
                } else if event == .vtReleased {
                    expected = .vtReleased
                } else if event == .connectorDisconnected {
                    expected = .disconnected
                } else if state == .disconnected {
                    expected = event == .connectorConnected ? .recovering(attempts: 0, nextAttemptNanoseconds: now) : .disconnected
                } else if event == .commitRefusedWithoutMaster {
                    expected = .masterLost(attempts: 0, nextAttemptNanoseconds: now + 10_000_000)
                } else {
                    switch (state, event) {
                    case (.masterLost(let a, _), .masterRefused):
                        expected = .masterLost(attempts: a + 1, nextAttemptNanoseconds: now + min(80_000_000, 10_000_000 << Int64(a + 1)))
                    case (.masterLost, .masterAcquired): expected = .active
                    case (.active, .commitFailed): expected = .recovering(attempts: 0, nextAttemptNanoseconds: now)
                    case (.recovering(let a, _), .commitFailed):
                        expected = .recovering(attempts: a + 1, nextAttemptNanoseconds: now + min(80_000_000, 10_000_000 << Int64(a + 1)))
                    case (.recovering, .commitSucceeded): expected = .active
                    default: expected = state
                    }
                }
                XCTAssertEqual(next, expected, "\(state) after \(event)")
            }
        }
    }

    func testCommitsAllowedOnlyWhenActiveOrARecoveryIsDue() {
        XCTAssertTrue(DisplayAccess.active.allowsCommit(at: 0))
        XCTAssertFalse(DisplayAccess.disconnected.allowsCommit(at: .max))
        XCTAssertFalse(DisplayAccess.vtReleased.allowsCommit(at: .max))
        XCTAssertFalse(DisplayAccess.masterLost(attempts: 0, nextAttemptNanoseconds: 0).allowsCommit(at: .max),
                       "master must be taken back (drmSetMaster) before a commit")
        let recovering = DisplayAccess.recovering(attempts: 1, nextAttemptNanoseconds: 100)
        XCTAssertFalse(recovering.allowsCommit(at: 99))
        XCTAssertTrue(recovering.allowsCommit(at: 100))
    }

    /// A run of failed recovery modesets backs off as `MasterRetryBackoff`
    /// says, and never further than its maximum.
    func testRepeatedFailuresBackOffBounded() {
        var state = DisplayAccess.active
        var now: Int64 = 0
        for n in 0..<20 {
            state = state.after(.commitFailed(errno: ENOSPC), now: now, backoff: backoff)
            guard case .recovering(let attempts, let next) = state else { return XCTFail("\(state)") }
            XCTAssertEqual(attempts, n)
            XCTAssertEqual(next - now, n == 0 ? 0 : backoff.delay(afterFailedAttempts: n))
            XCTAssertLessThanOrEqual(next - now, 80_000_000)
            now = next
        }
        XCTAssertEqual(state.after(.commitSucceeded, now: now, backoff: backoff), .active)
    }

    // MARK: The render loop through the faults

    /// 64×48: a background and a square sliding across it in 0.6 s (once).
    func scene() -> Layer {
        let root = Layer(name: "root")
        root.bounds = Rect(x: 0, y: 0, width: 64, height: 48)
        root.position = Point(x: 32, y: 24)
        root.backgroundColor = Color(rgb: 0x203040)
        let square = Layer(name: "square")
        square.bounds = Rect(x: 0, y: 0, width: 8, height: 8)
        square.position = Point(x: 8, y: 24)
        square.backgroundColor = Color(rgb: 0xFFFFFF)
        square.add(BasicAnimation(key: .position, from: .point(square.position), to: .point(Point(x: 56, y: 24)), duration: 0.6),
                   forKey: "slide", at: 0)
        try! root.addSublayer(square)
        return root
    }

    /// An independent render of the whole tree at `t` (ns) by a fresh
    /// compositor, converted as the display shows it.
    func expectedScreen(_ root: Layer, at t: Int64) -> UInt64 {
        expectedScreen(root, at: t, width: root.bounds.width > 0 ? Int(root.bounds.width) : 64,
                       height: root.bounds.height > 0 ? Int(root.bounds.height) : 48)
    }

    /// The same on a `width` × `height` screen.
    func expectedScreen(_ root: Layer, at t: Int64, width: Int, height: Int) -> UInt64 {
        let reference = Surface<ARGB8888>(width: width, height: height)!
        Compositor().render(root, at: Double(t) / 1e9, into: reference.view)
        let shown = Surface<XRGB8888>(width: reference.width, height: reference.height)!
        ScanoutConversion.copy(reference.view, into: shown.view, rect: reference.view.bounds)
        return pixelChecksum(shown.view)
    }

    /// A display that shows a flip at once (held to the target by the
    /// loop), so each commit's time is its frame's target time.
    func display() -> SimulatedPresenter {
        SimulatedPresenter(width: 64, height: 48, flipsWaitForVBlank: false, time: SimulatedFrameTime(startNanoseconds: 1_000_000))!
    }

    func testUnpluggedConnectorKeepsTheLastFrameAndRepaintsWhenBack() {
        let root = scene()
        let display = display()
        var screens: [(time: Int64, checksum: UInt64)] = []
        display.onScreenChanged = { [unowned display] screen in screens.append((display.time.nanoseconds(), pixelChecksum(screen.view))) }
        let loop = RenderLoop(root: root, presenter: display, time: display.time)
        loop.renderBudgetNanoseconds = 2_000_000
        loop.suspendedPollNanoseconds = 100_000   // real time: the display's clock is simulated
        for _ in 0..<8 { XCTAssertTrue(loop.runOnce()) }
        let lastGood = pixelChecksum(display.screen.view)
        let committed = display.presentTimes.count

        display.isConnected = false
        let unplugged = display.time.nanoseconds()
        while display.time.nanoseconds() < unplugged + 150_000_000 {
            XCTAssertTrue(loop.runOnce())
            display.time.advance(byNanoseconds: 3_000_000)
        }
        XCTAssertEqual(display.access, .disconnected)
        XCTAssertEqual(display.presentTimes.count, committed, "nothing committed to an unplugged connector")
        XCTAssertEqual(pixelChecksum(display.screen.view), lastGood, "the last good frame stays")
        XCTAssertEqual(loop.statistics.displaySuspensions, 1)
        XCTAssertNil(loop.error)

        display.isConnected = true
        for _ in 0..<3 { XCTAssertTrue(loop.runOnce()) }
        XCTAssertEqual(display.access, .active)
        XCTAssertEqual(display.recoveries, 1)
        XCTAssertEqual(loop.statistics.displayResumptions, 1)
        // Every frame shown, before and after, is the whole tree at its time.
        for s in screens { XCTAssertEqual(s.checksum, expectedScreen(root, at: s.time), "frame at \(s.time)") }
        XCTAssertGreaterThan(screens.count, committed)
    }

    /// The connector comes back with another mode (`sizeOnReconnection`):
    /// the loop renders the last committed tree whole at the new size, the
    /// app thread learns the size at its next run-loop turn and lays the
    /// tree out for it, and the animation goes on.
    func testReconnectionAtAnotherSizeIsRenderedWholeAndLaidOutByTheApp() {
        let root = scene()
        // A marker held to the bottom right corner by the root's layout.
        let corner = Layer(name: "corner")
        corner.bounds = Rect(x: 0, y: 0, width: 6, height: 6)
        corner.backgroundColor = Color(rgb: 0xE84855)
        corner.constraints = [LayoutConstraint(.maxX, offset: -2), LayoutConstraint(.maxY, offset: -2)]
        try! root.addSublayer(corner)
        root.layoutManager = ConstraintLayoutManager()
        root.layoutIfNeeded()
        XCTAssertEqual(corner.frame, Rect(x: 56, y: 40, width: 6, height: 6))
        root.isDisplayRoot = true   // as the app shell's: its changes are committed by the run loop's turns

        let display = display()
        var screens: [(time: Int64, width: Int, checksum: UInt64)] = []
        display.onScreenChanged = { [unowned display] screen in
            screens.append((display.time.nanoseconds(), screen.width, pixelChecksum(screen.view)))
        }
        let saved = AppRunLoop.current
        defer { AppRunLoop.current = saved }
        let appLoop = AppRunLoop(clock: ManualClock())
        AppRunLoop.current = appLoop
        let loop = RenderLoop(root: root, presenter: display, time: display.time)
        loop.renderBudgetNanoseconds = 2_000_000
        loop.suspendedPollNanoseconds = 100_000
        loop.attach(to: appLoop)
        var delivered: [(Int, Int)] = []
        loop.deliverDisplaySizeChanges(to: appLoop) { width, height in
            delivered.append((width, height))
            Transaction.withoutActions {
                root.bounds = Rect(x: 0, y: 0, width: Double(width), height: Double(height))
                root.position = Point(x: Double(width) / 2, y: Double(height) / 2)
                root.layoutIfNeeded()
            }
        }
        for _ in 0..<6 { XCTAssertTrue(loop.runOnce()) }

        display.sizeOnReconnection = (96, 40)
        display.isConnected = false
        for _ in 0..<3 { XCTAssertTrue(loop.runOnce()); display.time.advance(byNanoseconds: 10_000_000) }
        let beforeBack = display.presentTimes.count
        display.isConnected = true
        XCTAssertTrue(loop.runOnce())
        XCTAssertEqual(display.sizeChanges, 1)
        XCTAssertTrue(loop.displaySize == (96, 40), "\(loop.displaySize)")
        XCTAssertEqual(loop.statistics.displaySizeChanges, 1)
        XCTAssertEqual(display.presentTimes.count, beforeBack + 1, "a frame at once, without waiting for the app")
        XCTAssertEqual(display.damages.last, IntRect(x: 0, y: 0, width: 96, height: 40), "the first frame at the new size is whole")
        XCTAssertTrue(delivered.isEmpty, "the app hears of it on its own thread, at its next turn")
        XCTAssertTrue(appLoop.hasPostedBlocks)
        // Until the app lays out, the old tree (64×48) at the new size.
        XCTAssertEqual(screens.last?.checksum, expectedScreen(root, at: screens.last!.time, width: 96, height: 40))

        appLoop.runTurn()   // delivers the size; its commit hands the layout over
        XCTAssertEqual(delivered.count, 1)
        XCTAssertTrue(delivered.first.map { $0 == (96, 40) } ?? false)
        XCTAssertEqual(corner.frame, Rect(x: 88, y: 32, width: 6, height: 6), "laid out against the new right and bottom edges")
        let atLayout = screens.count
        for _ in 0..<6 { XCTAssertTrue(loop.runOnce()) }
        XCTAssertGreaterThan(screens.count, atLayout + 3, "the animation goes on")
        XCTAssertNil(loop.error)
        for s in screens[atLayout...] {
            XCTAssertEqual(s.width, 96)
            XCTAssertEqual(s.checksum, expectedScreen(root, at: s.time, width: 96, height: 40), "frame at \(s.time)")
        }
        // The laid-out tree differs from the old one where the corner moved.
        XCTAssertNotEqual(screens.last!.checksum, expectedScreen(scene(), at: screens.last!.time, width: 96, height: 40))
    }

    func testFailingCommitsRetryAsModesetsAndNeverShowATornFrame() {
        for errno in [EINVAL, ENOSPC, EIO] {
            let root = scene()
            let display = display()
            display.retryBackoff = backoff
            var screens: [(time: Int64, checksum: UInt64)] = []
            display.onScreenChanged = { [unowned display] screen in screens.append((display.time.nanoseconds(), pixelChecksum(screen.view))) }
            let loop = RenderLoop(root: root, presenter: display, time: display.time)
            loop.renderBudgetNanoseconds = 2_000_000
            loop.suspendedPollNanoseconds = 100_000
            loop.idleTimeoutNanoseconds = 100_000
        loop.suspendedPollNanoseconds = 100_000   // real time: the display's clock is simulated
            for _ in 0..<6 { XCTAssertTrue(loop.runOnce()) }
            let before = pixelChecksum(display.screen.view)
            display.failCommitsErrno = errno
            display.failNextCommits = 4
            let failedAt = display.time.nanoseconds()
            var turns = 0
            while display.failNextCommits > 0 && turns < 500 {
                XCTAssertTrue(loop.runOnce())
                display.time.advance(byNanoseconds: 2_000_000)   // while it backs off
                if display.failNextCommits > 0 && display.failedCommits > 0 {
                    XCTAssertEqual(pixelChecksum(display.screen.view), before, "the last good frame stays while commits fail")
                }
                turns += 1
            }
            while display.recoveries == 0 && turns < 500 {
                XCTAssertTrue(loop.runOnce())
                display.time.advance(byNanoseconds: 2_000_000)
                turns += 1
            }
            let recovered = display.time.nanoseconds() - failedAt
            XCTAssertEqual(display.failedCommits, 4)
            XCTAssertEqual(display.recoveries, 1)
            XCTAssertEqual(display.access, .active)
            XCTAssertNil(loop.error, "errno \(errno)")
            XCTAssertEqual(loop.statistics.displayLostCommits, 4)
            // Three failed modesets waited 20, 40 and 80 ms (the first retry
            // is at once): the recovery takes at least that, and not much more.
            XCTAssertGreaterThanOrEqual(recovered, 140_000_000)
            XCTAssertLessThan(recovered, 140_000_000 + 10 * display.refreshIntervalNanoseconds)
            for _ in 0..<60 { XCTAssertTrue(loop.runOnce()) }
            for s in screens { XCTAssertEqual(s.checksum, expectedScreen(root, at: s.time), "errno \(errno): frame at \(s.time)") }
        }
    }

    // MARK: The whole tree replaced in one transaction

    /// Tree `variant` (0 or 1) of 48 squares of different colours and
    /// places: a frame with part of one and part of the other matches
    /// neither render.
    static func tree(_ variant: Int) -> [Layer] {
        var layers: [Layer] = []
        for i in 0..<48 {
            let l = Layer(name: "v\(variant)-\(i)")
            l.bounds = Rect(x: 0, y: 0, width: 7, height: 7)
            let x = Double(i % 8) * 8 + 4, y = Double(i / 8) * 8 + 4
            l.position = variant == 0 ? Point(x: x, y: y) : Point(x: 63 - x, y: 47 - y + 1)
            l.backgroundColor = Color(rgb: variant == 0 ? UInt32(0x102000 + i * 0x040305) : UInt32(0xF0E0D0 - i * 0x030201))
            layers.append(l)
        }
        return layers
    }

    static func root(_ variant: Int) -> Layer {
        let root = Layer(name: "root")
        root.bounds = Rect(x: 0, y: 0, width: 64, height: 48)
        root.position = Point(x: 32, y: 24)
        root.backgroundColor = Color(rgb: variant == 0 ? 0x000040 : 0x400000)
        for l in tree(variant) { try! root.addSublayer(l) }
        return root
    }

    /// The app thread throws the whole tree away and builds the other one,
    /// again and again, each time in one commit, while the real render
    /// thread draws as fast as it can: every frame the display shows is
    /// the complete old tree or the complete new one.
    func testWholeTreeReplacementNeverShowsAHalfCommittedTree() throws {
        let allowed: Set<UInt64> = [expectedScreen(Self.root(0), at: 0), expectedScreen(Self.root(1), at: 0)]
        XCTAssertEqual(allowed.count, 2)
        let display = display()
        let lock = NSLock()
        var shown: [UInt64] = []
        display.onScreenChanged = { screen in
            let c = pixelChecksum(screen.view)
            lock.lock(); shown.append(c); lock.unlock()
        }
        let root = Self.root(0)
        let loop = RenderLoop(root: root, presenter: display, time: display.time)
        loop.renderBudgetNanoseconds = 1_000_000
        try loop.start()
        XCTAssertTrue(loop.waitUntil(timeoutNanoseconds: 10_000_000_000) { $0.framesShown >= 1 })
        let replacements = 60
        for n in 1...replacements {
            loop.update { root in
                root.backgroundColor = Color(rgb: n % 2 == 0 ? 0x000040 : 0x400000)
                while let last = root.sublayers.last { last.removeFromSuperlayer() }
                for l in Self.tree(n % 2) { try! root.addSublayer(l) }
            }
            if n % 3 == 0 { usleep(500) }   // sometimes let a frame through between two commits
        }
        // Every commit applied (the first is the loop's own capture), then
        // the last tree reaches the screen (its flip completes after the
        // render: the loop may count an idle wait before the display has
        // shown it, so wait for the screen itself).
        XCTAssertTrue(loop.waitUntil(timeoutNanoseconds: 10_000_000_000) { $0.commitsApplied >= replacements + 1 })
        let last = expectedScreen(Self.root(replacements % 2), at: 0)
        for _ in 0..<1000 {
            lock.lock(); let there = shown.last == last; lock.unlock()
            if there { break }
            usleep(10_000)
        }
        loop.stop()
        lock.lock(); let frames = shown; lock.unlock()
        XCTAssertGreaterThan(frames.count, 1)
        for (i, c) in frames.enumerated() { XCTAssertTrue(allowed.contains(c), "frame \(i) is neither the whole old tree nor the whole new one") }
        XCTAssertEqual(frames.last, last, "the screen shows the last tree")
        print("DisplayFaultTests: \(replacements) whole-tree replacements, \(frames.count) frames shown, all complete trees")
    }
}
