import FBRuntime
import XCTest
@testable import Controls

/// What the scroll and list tests share: a manual clock installed as the
/// app run loop's, a root layer, and synthetic finger sequences fed
/// through a real `TouchRouter`.
class ScrollTestCase: XCTestCase {
    var savedLoop: AppRunLoop!
    var clock: ManualClock!
    let root = Layer(name: "root")

    override func setUp() {
        super.setUp()
        savedLoop = AppRunLoop.current
        clock = ManualClock(now: 100)
        AppRunLoop.current = AppRunLoop(clock: clock)
        root.anchorPoint = .zero
        root.bounds = Rect(x: 0, y: 0, width: 400, height: 600)
    }

    override func tearDown() {
        AppRunLoop.current = savedLoop
        super.tearDown()
    }

    /// A finger from `a` to `b` (display points) in `steps` equal moves
    /// over `seconds`, starting at the clock's time, then (optionally) held
    /// still for `hold` seconds and lifted. The clock ends at the lift.
    func drag(_ router: TouchRouter, from a: Point, to b: Point, steps: Int = 10, seconds: Double = 0.1,
              hold: Double = 0, id: Int32 = 1, lift: Bool = true) {
        let t0 = clock.now
        router.handle(TouchEvent(id: id, phase: .began, location: a, timestamp: t0))
        for i in 1...steps {
            let f = Double(i) / Double(steps)
            let p = Point(x: a.x + (b.x - a.x) * f, y: a.y + (b.y - a.y) * f)
            router.handle(TouchEvent(id: id, phase: .moved, location: p, timestamp: t0 + seconds * f))
        }
        clock.set(t0 + seconds)
        if hold > 0 {
            // Samples while held, so the release velocity is about zero.
            var t = t0 + seconds
            while t < t0 + seconds + hold - 1e-9 {
                t += 0.02
                router.handle(TouchEvent(id: id, phase: .moved, location: b, timestamp: t))
            }
            clock.set(t)
        }
        if lift { router.handle(TouchEvent(id: id, phase: .ended, location: b, timestamp: clock.now)) }
    }

    func tap(_ router: TouchRouter, at p: Point, id: Int32 = 5) {
        let t = clock.now
        router.handle(TouchEvent(id: id, phase: .began, location: p, timestamp: t))
        router.handle(TouchEvent(id: id, phase: .ended, location: p, timestamp: t + 0.05))
        clock.set(t + 0.05)
    }

    /// Runs the app side until nothing wants time: the router's deadlines
    /// (the scroll recognisers' frame ticks), each at its time. Returns the
    /// number of ticks.
    @discardableResult
    func runUntilIdle(_ router: TouchRouter, limit: Int = 2000) -> Int {
        var ticks = 0
        while let next = router.nextDeadline, ticks < limit {
            clock.set(Swift.max(next, clock.now))
            router.advance(to: clock.now)
            ticks += 1
        }
        return ticks
    }

    /// A vertical scroll view in the root: 300 × 200 points at (50, 100),
    /// content `contentHeight` high.
    func makeVerticalScrollView(contentHeight: Double) -> ScrollView {
        let view = ScrollView()
        view.position = Point(x: 50, y: 100)
        view.bounds = Rect(x: 0, y: 0, width: 300, height: 200)
        view.contentSize = Size(width: 300, height: contentHeight)
        view.scrollAxes = .vertical
        try! root.addSublayer(view)
        return view
    }
}
