import XCTest
@testable import FBRuntime
import Raster

/// Records animation delegate calls in order.
final class DelegateLog: AnimationDelegate {
    var events: [String] = []
    func animationDidStart(_ animation: Animation, forKey key: String, on layer: Layer) {
        events.append("start \(key)")
    }
    func animationDidStop(_ animation: Animation, forKey key: String, on layer: Layer, finished: Bool) {
        events.append("stop \(key) \(finished)")
    }
}

/// Transactions, implicit animations, actions, callbacks and the
/// presentation tree, on a manual clock. Expected values are computed here
/// by hand (linear interpolation between the endpoints the test chose), not
/// by the code under test.
final class ImplicitAnimationTests: XCTestCase {
    private var clock = ManualClock()
    private var loop = AppRunLoop(clock: ManualClock())
    private var savedLoop: AppRunLoop?
    /// Keeps the scene's root alive (a superlayer is not retained by its
    /// sublayers).
    private var root: Layer?

    override func setUp() {
        savedLoop = AppRunLoop.current
        clock = ManualClock(now: 0)
        loop = AppRunLoop(clock: clock)
        AppRunLoop.current = loop
    }

    override func tearDown() {
        if let savedLoop { AppRunLoop.current = savedLoop }
        root = nil
    }

    /// A displayed root with one 100×100 sublayer at (0, 0), set up without
    /// animations (the tree is not displayed while it is built).
    private func scene() -> (root: Layer, layer: Layer) {
        let root = Layer(name: "root"), layer = Layer(name: "layer")
        root.bounds = Rect(x: 0, y: 0, width: 640, height: 480)
        layer.bounds = Rect(x: 0, y: 0, width: 100, height: 100)
        layer.position = .zero
        try! root.addSublayer(layer)
        root.isDisplayRoot = true
        self.root = root
        return (root, layer)
    }

    private func lerp(_ a: Point, _ b: Point, _ t: Double) -> Point {
        Point(x: a.x + (b.x - a.x) * t, y: a.y + (b.y - a.y) * t)
    }

    private func position(_ layer: Layer) -> Point {
        guard case let .point(p)? = layer.presentationValue(for: .position) else { XCTFail("no position"); return .zero }
        return p
    }

    private func assertEqual(_ a: Point, _ b: Point, accuracy: Double = 1e-9, file: StaticString = #filePath, line: UInt = #line) {
        XCTAssertEqual(a.x, b.x, accuracy: accuracy, file: file, line: line)
        XCTAssertEqual(a.y, b.y, accuracy: accuracy, file: file, line: line)
    }

    func testSetupOffScreenDoesNotAnimate() {
        let (root, layer) = scene()
        XCTAssertTrue(layer.animations.isEmpty)
        XCTAssertTrue(root.animations.isEmpty)
        let loose = Layer(name: "loose")
        loose.opacity = 0.5
        XCTAssertTrue(loose.animations.isEmpty)
        XCTAssertEqual(loop.transactionDepth, 0)      // nothing opened a transaction
    }

    func testImplicitAnimationStartsFromThePresentationValueMidAnimation() {
        let (_, layer) = scene()
        let a = Point(x: 100, y: 0), b = Point(x: 100, y: 100)
        loop.runTurn {
            Transaction.animationDuration = 1
            Transaction.animationTimingFunction = .linear
            layer.position = a
        }
        XCTAssertEqual(layer.position, a)                      // the model changes at once
        XCTAssertEqual(layer.animations.count, 1)
        clock.advance(by: 0.5)
        let mid = lerp(.zero, a, 0.5)
        assertEqual(position(layer), mid)
        loop.runTurn {
            Transaction.animationDuration = 1
            Transaction.animationTimingFunction = .linear
            layer.position = b
        }
        XCTAssertEqual(layer.animations.count, 1)               // replaced, not stacked
        assertEqual(position(layer), mid)                       // no jump
        clock.advance(by: 0.5)
        assertEqual(position(layer), lerp(mid, b, 0.5))
        clock.advance(by: 0.5)
        loop.runTurn()
        XCTAssertTrue(layer.animations.isEmpty)                 // removed at its end
        XCTAssertEqual(position(layer), b)
    }

    func testDefaultTimingFunctionAndDuration() {
        let (_, layer) = scene()
        loop.runTurn { layer.opacity = 0 }
        guard case let .basic(anim)? = layer.animation(forKey: "opacity") else { return XCTFail("no implicit animation") }
        XCTAssertEqual(anim.duration, 0.25)
        XCTAssertEqual(anim.timingFunction, TimingFunction(0.25, 0.1, 0.25, 1))   // CA's default curve
        XCTAssertEqual(anim.fromValue, .scalar(1))
        XCTAssertNil(anim.toValue)                                                  // heads for the model value
    }

    func testSettingTwiceInOneTransactionGivesOneAnimationFromTheScreen() {
        let (_, layer) = scene()
        let start = Point(x: 40, y: 40), target = Point(x: 300, y: 200)
        Transaction.withoutActions { layer.position = start }
        XCTAssertTrue(layer.animations.isEmpty)
        loop.runTurn {
            Transaction.animationDuration = 2
            Transaction.animationTimingFunction = .linear
            layer.position = Point(x: 10, y: 10)
            layer.position = Point(x: 20, y: 900)
            layer.position = target
        }
        XCTAssertEqual(layer.animations.count, 1)
        guard case let .basic(anim)? = layer.animation(forKey: "position") else { return XCTFail() }
        XCTAssertEqual(anim.fromValue, .point(start))
        clock.advance(by: 1)
        assertEqual(position(layer), lerp(start, target, 0.5))
    }

    func testDisableActionsAndZeroDuration() {
        let (_, layer) = scene()
        loop.runTurn {
            Transaction.disableActions = true
            layer.position = Point(x: 50, y: 50)
            layer.opacity = 0.25
        }
        XCTAssertTrue(layer.animations.isEmpty)
        XCTAssertEqual(position(layer), Point(x: 50, y: 50))
        loop.runTurn {
            Transaction.animationDuration = 0
            layer.cornerRadius = 8
        }
        XCTAssertTrue(layer.animations.isEmpty)
        // The next turn's transaction has the defaults again.
        loop.runTurn { layer.borderWidth = 2 }
        XCTAssertNotNil(layer.animation(forKey: "borderWidth"))
    }

    func testNestedTransactionsInheritSettings() {
        let (_, layer) = scene()
        Transaction.begin()
        Transaction.animationDuration = 2
        Transaction.animationTimingFunction = .easeIn
        Transaction.begin()
        layer.opacity = 0.5                                   // inherits 2 s, easeIn
        Transaction.animationDuration = 0.5
        layer.cornerRadius = 4                                 // its own 0.5 s, inherited curve
        Transaction.begin()
        Transaction.disableActions = true
        layer.borderWidth = 3                                  // no animation
        Transaction.commit()
        Transaction.commit()
        layer.shadowOpacity = 1                                // back in the outer one: 2 s
        Transaction.commit()
        func basic(_ key: String) -> BasicAnimation? {
            if case let .basic(a)? = layer.animation(forKey: key) { return a }
            return nil
        }
        XCTAssertEqual(basic("opacity")?.duration, 2)
        XCTAssertEqual(basic("opacity")?.timingFunction, .easeIn)
        XCTAssertEqual(basic("cornerRadius")?.duration, 0.5)
        XCTAssertEqual(basic("cornerRadius")?.timingFunction, .easeIn)
        XCTAssertNil(basic("borderWidth"))
        XCTAssertEqual(basic("shadowOpacity")?.duration, 2)
        XCTAssertEqual(loop.transactionDepth, 0)
        XCTAssertEqual(Transaction.animationDuration, 0.25)   // defaults with nothing open
    }

    func testAnimationsBeginAtCommitTime() {
        let (_, layer) = scene()
        clock.set(10)
        var commits: [MediaTime] = []
        loop.onCommit = { commits.append($0) }
        Transaction.begin()
        try! layer.add(BasicAnimation(key: .opacity, from: .scalar(0), to: .scalar(1), duration: 1), forKey: "fade")
        clock.advance(by: 3)                                    // the transaction stays open a while
        Transaction.commit()
        XCTAssertEqual(commits, [13])
        XCTAssertEqual(layer.animation(forKey: "fade")?.timing.beginTime, 13)
        XCTAssertEqual(layer.presentationValue(for: .opacity, at: 13.5), .scalar(0.5))
        // An explicit beginTime is kept.
        var later = BasicAnimation(key: .opacity, from: .scalar(0), to: .scalar(1), duration: 1)
        later.beginTime = 20
        try! layer.add(later, forKey: "later")
        loop.flush()
        XCTAssertEqual(layer.animation(forKey: "later")?.timing.beginTime, 20)
    }

    func testOnlyTheOutermostCommitIsACommitPoint() {
        let (_, layer) = scene()
        var commits: [MediaTime] = []
        loop.onCommit = { commits.append($0) }
        layer.opacity = 0.5                                         // opens the implicit transaction
        XCTAssertEqual(loop.transactionDepth, 1)
        Transaction.begin()                                         // nested in the implicit one
        layer.cornerRadius = 3
        Transaction.flush()                                         // an explicit one is open: nothing
        XCTAssertEqual(commits, [])
        Transaction.commit()
        XCTAssertEqual(commits, [])                                 // the implicit one is still open
        clock.set(2)
        loop.runTurn()
        XCTAssertEqual(commits, [2])
        XCTAssertEqual(layer.animation(forKey: "opacity")?.timing.beginTime, 2)
        XCTAssertEqual(layer.animation(forKey: "cornerRadius")?.timing.beginTime, 2)
        loop.runTurn()
        XCTAssertEqual(commits, [2])                                // no transaction, no commit
    }

    func testCompletionRunsOnceAfterTheLastAnimationEnds() {
        let (root, layer) = scene()
        let other = Layer(name: "other")
        Transaction.withoutActions { try! root.addSublayer(other) }       // no fade of the root
        var completions = 0
        Transaction.begin()
        Transaction.setCompletionBlock { completions += 1 }
        try! layer.add(BasicAnimation(key: .opacity, from: .scalar(0), to: .scalar(1), duration: 1), forKey: "a")
        try! other.add(BasicAnimation(key: .opacity, from: .scalar(0), to: .scalar(1), duration: 2), forKey: "b")
        Transaction.commit()
        XCTAssertEqual(loop.nextEventTime, 1)
        for (t, expected, aPresent) in [(0.0, 0, true), (0.5, 0, true), (1.0, 0, false), (1.5, 0, false),
                                        (2.0, 1, false), (5.0, 1, false)] {
            clock.set(t)
            loop.runTurn()
            XCTAssertEqual(completions, expected, "at \(t)")
            XCTAssertEqual(layer.animation(forKey: "a") != nil, aPresent, "at \(t)")   // removed at its end time
            if t == 1.0 { XCTAssertEqual(loop.nextEventTime, 2) }
        }
        XCTAssertNil(loop.nextEventTime)
        // With no animations the block runs at the end of the commit's turn.
        var empty = 0
        loop.runTurn {
            Transaction.setCompletionBlock { empty += 1 }
            layer.opacity = layer.opacity                       // no visible change: no animation
        }
        XCTAssertEqual(empty, 1)
    }

    func testEndTimesFollowLayerTiming() {
        let (_, layer) = scene()
        layer.speed = 2                                            // local time runs twice as fast
        clock.set(4)
        loop.runTurn { try! layer.add(BasicAnimation(key: .opacity, from: .scalar(0), to: .scalar(1), duration: 1), forKey: "f") }
        XCTAssertEqual(loop.nextEventTime!, 4.5, accuracy: 1e-12)  // 1 s of local time = 0.5 s of global time
        clock.set(4.49)
        loop.runTurn()
        XCTAssertNotNil(layer.animation(forKey: "f"))
        clock.set(4.5)
        loop.runTurn()
        XCTAssertNil(layer.animation(forKey: "f"))
        layer.speed = 0                                            // paused: never ends
        loop.runTurn { try! layer.add(BasicAnimation(key: .opacity, from: .scalar(0), to: .scalar(1), duration: 1), forKey: "g") }
        XCTAssertNil(loop.nextEventTime)
    }

    func testCompletionAndDelegateOnRemoval() {
        let (_, layer) = scene()
        let log = DelegateLog()
        var completions = 0
        var anim = BasicAnimation(key: .opacity, from: .scalar(0), to: .scalar(1), duration: 10)
        anim.delegate = log
        loop.runTurn {
            Transaction.setCompletionBlock { completions += 1 }
            try! layer.add(anim, forKey: "long")
        }
        XCTAssertEqual(log.events, ["start long"])
        clock.advance(by: 1)
        loop.runTurn { layer.removeAnimation(forKey: "long") }
        XCTAssertEqual(log.events, ["start long", "stop long false"])
        XCTAssertEqual(completions, 1)
        clock.advance(by: 20)
        loop.runTurn()
        XCTAssertEqual(completions, 1)
        XCTAssertEqual(log.events.count, 2)
    }

    func testDelegateOrderStartThenStop() {
        let (_, layer) = scene()
        let log = DelegateLog()
        var a = BasicAnimation(key: .opacity, from: .scalar(0), to: .scalar(1), duration: 1)
        a.delegate = log
        var b = a
        b.beginTime = 5                                           // starts later
        loop.runTurn {
            try! layer.add(a, forKey: "a")
            try! layer.add(b, forKey: "b")
        }
        XCTAssertEqual(log.events, ["start a"])
        clock.set(1)
        loop.runTurn()
        XCTAssertEqual(log.events, ["start a", "stop a true"])
        clock.set(10)                                             // b began and ended between turns
        loop.runTurn()
        XCTAssertEqual(log.events, ["start a", "stop a true", "start b", "stop b true"])
        // Replacing a running animation stops the old one, not finished.
        loop.runTurn { try! layer.add(a, forKey: "c") }
        loop.runTurn { try! layer.add(a, forKey: "c") }
        XCTAssertEqual(Array(log.events.suffix(3)), ["start c", "stop c false", "start c"])
        // Kept on completion: reported stopped, left on the layer.
        var kept = a
        kept.isRemovedOnCompletion = false
        kept.fillMode = .forwards
        loop.runTurn { try! layer.add(kept, forKey: "kept") }
        clock.advance(by: 2)
        loop.runTurn()
        XCTAssertEqual(log.events.last, "stop kept true")
        XCTAssertNotNil(layer.animation(forKey: "kept"))
    }

    final class Lookup: LayerDelegate {
        func action(for layer: Layer, forKey key: AnimatableKey) -> LayerAction? {
            switch key {
            case .opacity: return LayerAction.none                        // delegate says no
            case .shadowRadius:                                     // delegate wins over the table
                var a = BasicAnimation(key: .shadowRadius, duration: 7)
                a.timingFunction = .linear
                return .animation(.basic(a))
            default: return nil                                     // keep looking
            }
        }
    }

    final class Recorder: LayerActionHandler {
        var runs: [(AnimatableKey, AnimatableValue?)] = []
        func run(forKey key: AnimatableKey, on layer: Layer, presentationValue: AnimatableValue?) {
            runs.append((key, presentationValue))
        }
    }

    final class QuietBorders: Layer {
        override class func defaultAction(forKey key: AnimatableKey) -> LayerAction? {
            key == .borderWidth ? LayerAction.none : super.defaultAction(forKey: key)
        }
    }

    func testActionLookupOrderAndNoAction() {
        let (root, layer) = scene()
        let quiet = QuietBorders(name: "quiet")
        try! root.addSublayer(quiet)
        let delegate = Lookup(), recorder = Recorder()
        layer.delegate = delegate
        layer.actions[.shadowRadius] = .none                        // shadowed by the delegate
        layer.actions[.cornerRadius] = .animation(.basic(BasicAnimation(key: .opacity, duration: 3)))   // key set on use
        layer.actions[.borderColor] = .handler(recorder)
        loop.runTurn {
            layer.opacity = 0.5
            layer.shadowRadius = 10
            layer.cornerRadius = 12
            layer.borderColor = .white
            layer.position = Point(x: 1, y: 1)
            quiet.borderWidth = 4
            quiet.opacity = 0.5
        }
        XCTAssertNil(layer.animation(forKey: "opacity"))            // delegate: .none
        XCTAssertEqual(layer.animation(forKey: "shadowRadius")?.timing.duration, 7)
        guard case let .basic(corner)? = layer.animation(forKey: "cornerRadius") else { return XCTFail() }
        XCTAssertEqual(corner.duration, 3)
        XCTAssertEqual(corner.key, .cornerRadius)
        XCTAssertEqual(corner.fromValue, .scalar(0))                // filled in: from the presentation value
        XCTAssertEqual(recorder.runs.count, 1)
        XCTAssertEqual(recorder.runs.first?.0, .borderColor)
        XCTAssertEqual(recorder.runs.first?.1, .color(.black))
        XCTAssertNil(layer.animation(forKey: "borderColor"))
        XCTAssertNotNil(layer.animation(forKey: "position"))        // class default
        XCTAssertNil(quiet.animation(forKey: "borderWidth"))        // subclass default: .none
        XCTAssertNotNil(quiet.animation(forKey: "opacity"))
        layer.delegate = nil
    }

    func testPresentationTreeMidAnimationAndModelRoundTrip() {
        let (root, layer) = scene()
        let child = Layer(name: "child")
        child.bounds = Rect(x: 0, y: 0, width: 10, height: 10)
        try! layer.addSublayer(child)
        layer.speed = 2                                            // the layer's (and child's) time runs twice as fast
        try! layer.add(BasicAnimation(key: .position, from: .point(.zero), to: .point(Point(x: 100, y: 0)), duration: 4),
                       forKey: "move")
        try! child.add(BasicAnimation(key: .opacity, from: .scalar(1), to: .scalar(0), duration: 4), forKey: "fade")
        loop.flush()
        clock.set(1)
        let p = child.presentation()
        XCTAssertTrue(p.isPresentationLayer)
        XCTAssertTrue(p.model() === child)
        XCTAssertEqual(p.opacity, 0.5, accuracy: 1e-12)              // 1 s global = 2 s of the child's 4
        XCTAssertTrue(p.animations.isEmpty)
        guard let pl = p.superlayer, let pr = pl.superlayer else { return XCTFail("no presentation ancestors") }
        XCTAssertTrue(pl.model() === layer)
        XCTAssertTrue(pr.model() === root)
        XCTAssertNil(pr.superlayer)
        XCTAssertEqual(pl.position.x, 50, accuracy: 1e-12)          // 1 s global = 2 s of 4 on the layer's clock
        XCTAssertEqual(pl.bounds, layer.bounds)
        XCTAssertEqual(pr.sublayers.count, root.sublayers.count)
        XCTAssertTrue(pl.sublayers.first === p)
        XCTAssertTrue(p.presentation() === p)
        XCTAssertTrue(child.model() === child)
        // A snapshot: the model moving on does not change it.
        Transaction.withoutActions { child.opacity = 0.1 }
        XCTAssertEqual(p.opacity, 0.5, accuracy: 1e-12)
        // The presentation of the root finds the same values.
        let whole = root.presentation(at: 1)
        XCTAssertEqual(whole.sublayers[0].sublayers[0].opacity, 0.5, accuracy: 1e-12)   // from/to set: the model does not matter
        XCTAssertEqual(whole.sublayers[0].position.x, 50, accuracy: 1e-12)
    }

    func testBadInputIsRefusedOrClamped() {
        let (_, layer) = scene()
        XCTAssertThrowsError(try layer.add(BasicAnimation(key: .position, from: .scalar(1), to: .scalar(2)), forKey: "bad")) { error in
            XCTAssertEqual(error as? AnimationError, .wrongValueKind(key: "position", expected: "point", got: "scalar"))
            XCTAssertTrue("\(error)".contains("position"))
        }
        let keyframes = KeyframeAnimation(key: .opacity, values: [.scalar(0), .color(.white)])
        XCTAssertThrowsError(try layer.add(keyframes, forKey: "bad"))
        XCTAssertThrowsError(try layer.add(AnimationGroup([.basic(BasicAnimation(key: .bounds, to: .point(.zero)))]), forKey: "bad"))
        XCTAssertTrue(layer.animations.isEmpty)
        var spin = BasicAnimation(key: .transform, from: .scalar(0), to: .scalar(6))
        spin.valueFunction = .rotateZ
        XCTAssertNoThrow(try layer.add(spin, forKey: "spin"))     // a value function takes scalars
        // NaN and negative durations: the documented clamp to 0.25 s.
        var nan = BasicAnimation(key: .opacity, from: .scalar(0), to: .scalar(1), duration: .nan)
        nan.beginTime = 100
        try! layer.add(nan, forKey: "nan")
        XCTAssertEqual(layer.presentationValue(for: .opacity, at: 100.125), .scalar(0.5))
        XCTAssertFalse(layer.animation(forKey: "nan")!.hasFinished(at: 100.2))
        XCTAssertTrue(layer.animation(forKey: "nan")!.hasFinished(at: 100.25))
        Transaction.begin()
        Transaction.animationDuration = .nan
        XCTAssertEqual(Transaction.animationDuration, 0.25)
        Transaction.animationDuration = -3
        XCTAssertEqual(Transaction.animationDuration, 0)
        Transaction.commit()
        Transaction.commit()                                      // unbalanced: ignored
        XCTAssertEqual(loop.transactionDepth, 0)
    }

    func testLockIsRecursiveAndExcludesOtherThreadsDuringATurn() throws {
        let (_, layer) = scene()
        Transaction.lock()
        Transaction.lock()                                         // recursive on one thread
        Transaction.unlock()
        Transaction.unlock()
        // Another thread's read-modify-write waits for the turn to end.
        var order: [String] = []
        let orderLock = Lock()
        var thread: FBRuntime.Thread?
        loop.runTurn {
            thread = try? FBRuntime.Thread {
                Transaction.lock()
                orderLock.withLock { order.append("other") }
                Transaction.unlock()
            }
            fbr_test_sleep()
            orderLock.withLock { order.append("turn") }
            _ = layer
        }
        thread?.join()
        XCTAssertEqual(order, ["turn", "other"])
    }
}

private func fbr_test_sleep() { usleep(50_000) }
