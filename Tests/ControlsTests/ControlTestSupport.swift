import Controls
import FBRuntime
import Raster
import TestSupport
import XCTest

/// Fonts of the goldens: DejaVu Sans (`fonts-dejavu-core`), as the app
/// shell's default.
enum TestFonts {
    nonisolated(unsafe) static let regular = try! Font(path: "/usr/share/fonts/truetype/dejavu/DejaVuSans.ttf")
    nonisolated(unsafe) static let bold = try! Font(path: "/usr/share/fonts/truetype/dejavu/DejaVuSans-Bold.ttf")
}

extension Theme {
    /// `.light` or `.dark` with the test fonts (a theme's nil font means
    /// `TextLayer.defaultFont`, which tests do not set).
    static func testing(dark: Bool = false) -> Theme {
        var theme = dark ? Theme.dark : Theme.light
        theme.fonts.regular = TestFonts.regular
        theme.fonts.bold = TestFonts.bold
        return theme
    }
}

/// A displayed tree on a manual clock with a router over it, for driving
/// controls with synthetic touches through the real `TouchRouter`. The
/// root is at the display's origin, so touch locations are root points.
///
/// Installs its own `AppRunLoop` as `.current` and puts the old one back
/// in `tearDown` (call `finish()`).
final class ControlScene {
    let clock = ManualClock(now: 10)
    let loop: AppRunLoop
    let root = Layer(name: "root")
    let router: TouchRouter
    private let savedLoop: AppRunLoop
    private var nextID: Int32 = 1

    init(width: Double = 320, height: Double = 120, background: Color = Theme.light.colors.background) {
        savedLoop = AppRunLoop.current
        loop = AppRunLoop(clock: clock)
        AppRunLoop.current = loop
        root.anchorPoint = .zero
        root.bounds = Rect(x: 0, y: 0, width: width, height: height)
        root.backgroundColor = background
        router = TouchRouter(root: root)
    }

    func finish() { AppRunLoop.current = savedLoop }

    /// Adds `control` at `frame` (root points), laid out and attached to
    /// the router, without animation (as the app shell lays a screen out
    /// before its first frame); then displays the tree.
    func add(_ control: Control, frame: Rect) {
        Transaction.withoutActions {
            control.frame = frame
            try! root.addSublayer(control)
            root.layoutIfNeeded()
        }
        control.attach(to: router)
        root.isDisplayRoot = true
    }

    var now: MediaTime { clock.now }

    /// Commits what changed (a run-loop turn: animations added outside a
    /// turn begin now), advances the clock and turns again: the router's
    /// recognizers see the time (as the app shell does at their deadlines)
    /// and finished animations are removed.
    func advance(by seconds: Double) {
        loop.runTurn()
        clock.advance(by: seconds)
        loop.runTurn { router.advance(to: clock.now) }
    }

    /// Sends one event at the clock's time, in a run-loop turn; returns the
    /// layer it went to.
    @discardableResult
    func send(_ id: Int32, _ phase: TouchEvent.Phase, _ x: Double, _ y: Double) -> Layer? {
        var hit: Layer?
        loop.runTurn {
            hit = router.handle(TouchEvent(id: id, phase: phase, location: Point(x: x, y: y), timestamp: clock.now))
        }
        return hit
    }

    func newTouch() -> Int32 { defer { nextID += 1 }; return nextID }

    /// A tap at (x, y): down, 0.08 s, up.
    func tap(_ x: Double, _ y: Double) {
        let id = newTouch()
        send(id, .began, x, y)
        clock.advance(by: 0.08)
        send(id, .ended, x, y)
    }

    /// A drag from one point to another in `steps` moves, 1/60 s apart,
    /// then a lift (unless `lift` is false); returns the touch's id.
    @discardableResult
    func drag(from a: Point, to b: Point, steps: Int = 10, lift: Bool = true) -> Int32 {
        let id = newTouch()
        send(id, .began, a.x, a.y)
        for i in 1...steps {
            clock.advance(by: 1.0 / 60)
            let t = Double(i) / Double(steps)
            send(id, .moved, a.x + (b.x - a.x) * t, a.y + (b.y - a.y) * t)
        }
        if lift {
            clock.advance(by: 1.0 / 60)
            send(id, .ended, b.x, b.y)
        }
        return id
    }

    /// The tree as on screen at the clock's time.
    func render() -> Surface<ARGB8888> {
        root.layoutIfNeeded()
        let target = Surface<ARGB8888>(width: Int(root.bounds.width), height: Int(root.bounds.height))!
        Compositor().render(root, at: clock.now, into: target.view, clearColor: .clear)
        return target
    }

    /// Lets the animations of the last changes finish (1 s), renders and
    /// compares with `Tests/Goldens/<name>.png`: a golden shows a state,
    /// not a moment of the way there.
    func assertGolden(_ name: String, file: StaticString = #filePath, line: UInt = #line) {
        advance(by: 1)
        let result = compareWithGolden(render().view, name: name)
        XCTAssertTrue(result.passed, result.message, file: file, line: line)
    }
}

/// The colour `key` of `layer` shows at the scene's time.
func presentedColor(_ layer: Layer, _ key: AnimatableKey, at time: MediaTime) -> Color? {
    guard case let .color(c)? = layer.presentationValue(for: key, at: time) else { return nil }
    return c
}

func presentedPoint(_ layer: Layer, _ key: AnimatableKey, at time: MediaTime) -> Point? {
    guard case let .point(p)? = layer.presentationValue(for: key, at: time) else { return nil }
    return p
}

func assertColor(_ a: Color?, _ b: Color, accuracy: Double = 1e-6, file: StaticString = #filePath, line: UInt = #line) {
    guard let a else { return XCTFail("no colour", file: file, line: line) }
    XCTAssertEqual(a.red, b.red, accuracy: accuracy, file: file, line: line)
    XCTAssertEqual(a.green, b.green, accuracy: accuracy, file: file, line: line)
    XCTAssertEqual(a.blue, b.blue, accuracy: accuracy, file: file, line: line)
    XCTAssertEqual(a.alpha, b.alpha, accuracy: accuracy, file: file, line: line)
}
