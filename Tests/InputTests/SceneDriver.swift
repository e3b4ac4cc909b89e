import DemoScenes
import DemoTouchScripts
import FBRuntime
import Raster
import TestSupport
import XCTest

/// A demo scene displayed on a manual clock with its own gestures in a real
/// `TouchRouter` over its root (root space = display space, points), driven
/// as fbdemo drives it: each touch event in a run-loop turn, and between
/// events turns of 1/60 s in which the router reaches its recognisers'
/// deadlines (`advance(to:)`: a scroll view's motion, the stepper's
/// repeat), as the app shell does.
///
/// Installs its own `AppRunLoop` as `.current`; `finish()` puts the old one
/// back. `TextLayer.defaultFont` is left as it is (nil in these tests, as
/// in fbcheck): the scenes name their fonts.
final class SceneDriver {
    let clock = ManualClock(now: 10)
    let loop: AppRunLoop
    let scene: any DemoScene
    let router: TouchRouter
    private let savedLoop: AppRunLoop
    private var nextID: Int32 = 1

    /// `make` builds the scene once this driver's run loop is current.
    init(_ make: () -> any DemoScene) {
        savedLoop = AppRunLoop.current
        loop = AppRunLoop(clock: clock)
        AppRunLoop.current = loop
        scene = make()
        scene.root.isDisplayRoot = true
        router = TouchRouter(root: scene.root)
        _ = scene.installGestures(in: router)
    }

    func finish() { AppRunLoop.current = savedLoop }

    var now: MediaTime { clock.now }
    var size: Size { scene.root.bounds.size }

    private func send(_ id: Int32, _ phase: TouchEvent.Phase, _ p: Point) {
        loop.runTurn { router.handle(TouchEvent(id: id, phase: phase, location: p, timestamp: clock.now)) }
    }

    private func step(_ seconds: Double) {
        clock.advance(by: seconds)
        loop.runTurn { router.advance(to: clock.now) }
    }

    /// Turns of 1/60 s for `seconds`.
    func run(_ seconds: Double) {
        var t = 0.0
        while t < seconds - 1e-9 { step(1.0 / 60); t += 1.0 / 60 }
    }

    /// Down, `hold` seconds, up at `p`.
    func tap(_ p: Point, hold: Double = 0.06) {
        let id = nextID; nextID += 1
        send(id, .began, p)
        step(hold)
        send(id, .ended, p)
    }

    /// Down at `from`, `moves` moves `dt` seconds apart in equal steps to
    /// `to`, up `dt` later (no pause: a release at the drag's speed).
    func drag(from: Point, to: Point, moves: Int = 8, dt: Double = 1.0 / 60) {
        let id = nextID; nextID += 1
        send(id, .began, from)
        for i in 1...max(moves, 1) {
            step(dt)
            let f = Double(i) / Double(max(moves, 1))
            send(id, .moved, Point(x: from.x + (to.x - from.x) * f, y: from.y + (to.y - from.y) * f))
        }
        step(dt)
        send(id, .ended, to)
    }

    /// Plays the scene's board touch script (`DemoTouchScripts`) as fbcheck
    /// does — a tap held 60 ms then 200 ms of pause, a drag's moves 40 ms
    /// apart then 200 ms — and waits its rest time.
    func playTouchScript() {
        let s = size
        func p(_ x: Double, _ y: Double) -> Point { Point(x: x * s.width, y: y * s.height) }
        for step in DemoTouchScripts.steps(for: scene) {
            switch step {
            case let .tap(x, y):
                tap(p(x, y))
                run(0.2)
            case let .drag(x0, y0, x1, y1, _):
                drag(from: p(x0, y0), to: p(x1, y1), moves: 8, dt: 0.04)
                run(0.2)
            case let .wait(seconds):
                run(seconds)
            case .pinch:
                XCTFail("no pinch in these scripts")
            }
        }
        run(DemoTouchScripts.restSeconds(for: scene))
    }

    /// The tree as on screen now, laid out.
    func render() -> Surface<ARGB8888> {
        scene.root.layoutIfNeeded()
        let target = Surface<ARGB8888>(width: Int(size.width), height: Int(size.height))!
        Compositor().render(scene.root, at: clock.now, into: target.view, clearColor: .black)
        return target
    }

    /// Compares the frame on screen now with `Tests/Goldens/<name>.png`
    /// (`FBR_UPDATE_GOLDENS=1` rewrites it).
    func assertGolden(_ name: String, file: StaticString = #filePath, line: UInt = #line) {
        let result = compareWithGolden(render().view, name: name)
        XCTAssertTrue(result.passed, result.message, file: file, line: line)
    }
}

/// `layer`'s bounds in `root`'s space.
func rootFrame(of layer: Layer, in root: Layer) -> Rect { layer.convert(layer.bounds, to: root) }

func midpoint(of r: Rect) -> Point { Point(x: r.minX + r.width / 2, y: r.minY + r.height / 2) }

/// Every layer of the tree under `root` (`root` included) that is a `T`.
func layers<T: Layer>(_ type: T.Type, under root: Layer) -> [T] {
    var found: [T] = []
    func walk(_ l: Layer) {
        if let t = l as? T { found.append(t) }
        for s in l.sublayers { walk(s) }
    }
    walk(root)
    return found
}
