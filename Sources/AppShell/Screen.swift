import CAppShell
import FBRuntime
import KeyboardInput

/// What a handler reports when it cannot do its job. The shell logs it with
/// the handler's name and the app goes on; what the handler changed before
/// it threw is committed as usual.
public struct AppError: Error, CustomStringConvertible {
    public let description: String
    public init(_ description: String) { self.description = description }
}

/// The app's view of the display: the root layer it builds its tree under,
/// the size of the screen in points, and the touch handlers.
///
/// Coordinates: the root layer covers the screen, origin top left, in
/// points: `scale` pixels of the panel a point (the board's `scale`,
/// default 1), turned by the board's `rotation` (a portrait app on a
/// landscape panel sees a portrait screen). The root is drawn magnified by
/// `scale` (its `transform`), so layout in points looks alike on a
/// 480×272 and a 1920×1080 panel; touches land in the root's points.
///
/// Threading: everything here runs on the app thread (the thread that called
/// `App.run`): the build closure, tap and timer handlers, gesture
/// recognisers' actions. Each turn of the app's run loop commits what they
/// changed, together, and implicit animations run from what is on screen.
///
/// Ownership: the screen keeps its handlers (and what their closures
/// capture) until `removeHandlers(in:)`; capture strongly what a handler
/// uses (Embedded Swift, the board build, has no `weak`), and remove the
/// handlers of a page that goes away for good.
public final class Screen {
    /// The layer that fills the screen; add the app's layers under it.
    public let root: Layer
    /// The screen's size in points (the panel's pixels / `scale`). It
    /// changes when the display comes back with another mode (a monitor
    /// swapped): the root then takes the new size, its layout runs, and
    /// the `onResize` handlers are called.
    public private(set) var width: Double, height: Double
    /// Panel pixels per point (the board's `scale`; 1 without one). Give
    /// layers with backing stores or images this `contentsScale` for
    /// sharp pixels; text and shapes are drawn at the panel's resolution
    /// anyway.
    public let scale: Double
    /// Routes touches (hit-tested against the presentation tree) to gesture
    /// recognisers; add your own with `router.add(_:to:)`.
    public let router: TouchRouter
    /// The app's name, the prefix of its log lines.
    public let appName: String
    /// Handler failures so far (each also printed).
    public private(set) var failures = 0
    /// True when the frames go to a display (KMS, fbdev or the desktop
    /// simulator's window), false in a headless run (PNG files). Known
    /// from `build` on.
    public let isOnDisplay: Bool

    /// The compositor's debug overlays (`DebugOverlays`: blended,
    /// offscreen, misaligned, redrawn), from the next frame on; none by
    /// default.
    public var debugOverlays: DebugOverlays = [] {
        didSet { onDebugOverlaysChange?(debugOverlays) }
    }

    /// The render loop's figures so far (frames rendered and shown, render
    /// times, flip intervals: `RenderLoopStatistics`), for a frame-time
    /// readout; nil in a headless run, and during `build` (the loop starts
    /// after it). A copy, taken under the loop's lock.
    public var renderStatistics: RenderLoopStatistics? { statisticsSource?() }

    /// The hardware keyboard's keymap (the board's `keyboard-layout`,
    /// `keyboard-variant`, `keyboard-options` and `keyboard-locale`):
    /// every key event goes through it before the key handlers see it, so
    /// each carries the text it typed. Made at the first key event (a board
    /// without a keyboard spends nothing on it: the compose table is some
    /// thousand lines to read); nil before that, and when no keymap compiles
    /// (no xkb data: keys then come without text, said once).
    public private(set) var keyboard: KeyboardTranslator?
    private var keyboardBoard: BoardConfig?

    private var timers: [Timer] = []
    private var keyHandlers: [(name: String, action: (KeyEvent) throws(AppError) -> Void)] = []
    private var wheelHandlers: [(name: String, action: (WheelEvent) throws(AppError) -> Void)] = []
    private var resizeHandlers: [(name: String, action: () throws(AppError) -> Void)] = []
    /// Set by `App` once its compositor or render loop exists.
    var onDebugOverlaysChange: ((DebugOverlays) -> Void)?
    var statisticsSource: (() -> RenderLoopStatistics)?

    /// `width` and `height` in panel pixels; `scale` pixels a point (not
    /// positive and finite: 1).
    /// `board` names the keymap (`keyboard`); nil: US, en_US.UTF-8 compose.
    init(appName: String, width: Double, height: Double, isOnDisplay: Bool = false, scale: Double = 1, board: BoardConfig? = nil) {
        keyboardBoard = board ?? BoardConfig(name: "auto")
        let scale = scale > 0 && scale.isFinite ? scale : 1
        self.appName = appName
        self.scale = scale
        self.width = width / scale
        self.height = height / scale
        self.isOnDisplay = isOnDisplay
        root = Layer(name: "screen")
        root.bounds = Rect(x: 0, y: 0, width: width / scale, height: height / scale)
        root.position = Point(x: width / 2, y: height / 2)
        if scale != 1 { root.transform = Transform3D(scaleX: scale, y: scale, z: 1) }
        router = TouchRouter(root: root)
    }

    /// Calls `action` when `layer` (or a sublayer of it) is tapped: one
    /// finger down and up within `TapGestureRecognizer.allowableMovement`
    /// points. `name` names the handler in log lines (default: the layer's
    /// name). Returns the recogniser, to tune or remove.
    @discardableResult
    public func onTap(_ layer: Layer, name: String? = nil,
                      _ action: @escaping () throws(AppError) -> Void) -> TapGestureRecognizer {
        let handlerName = name ?? "tap on \(layer.name)"
        let tap = TapGestureRecognizer { [unowned(unsafe) self] recognizer in
            guard recognizer.state == .recognized else { return }
            self.call(handlerName, action)
        }
        router.add(tap, to: layer)
        return tap
    }

    /// Removes the tap handlers and recognisers attached to `layer` and the
    /// layers under it, releasing what they captured: call it when a part
    /// of the UI goes away for good (the screen otherwise keeps handlers as
    /// long as it lives; a layer out of the tree is simply never hit).
    public func removeHandlers(in layer: Layer) {
        router.removeAll(in: layer)
    }

    /// Calls `action` every `interval` seconds (media time) from now on, on
    /// the app thread, with the current time. `name` names it in log lines.
    public func every(_ interval: MediaTime, name: String = "timer",
                      _ action: @escaping (MediaTime) throws(AppError) -> Void) {
        let interval = interval.isFinite && interval > 0.001 ? interval : 0.001
        timers.append(Timer(name: name, interval: interval, next: AppRunLoop.current.now + interval, action: action))
    }

    /// Calls `action` with every key event (pressed and released; evdev
    /// codes, see `KeyEvent`), after the handlers added before it. Keys come
    /// from the seat's keyboards and keypads on a display (every input
    /// device of `seat0`; a board's `touch_device` path opens only that
    /// device), from the simulator window's keyboard (Escape closes the
    /// window), and from `--key` in a headless run. To drive Controls'
    /// focus and type into its text fields: `var keys = EvdevKeyMapper()`
    /// and, in the handler, `if let k = keys.key(code: event.code, pressed:
    /// event.pressed, text: event.text) { _ = focus.handle(k) }` (each
    /// event has the text the board's keymap gave it: see `keyboard`).
    public func onKey(name: String = "key", _ action: @escaping (KeyEvent) throws(AppError) -> Void) {
        keyHandlers.append((name, action))
    }

    /// Calls `action` with every wheel turn (`WheelEvent`, detents): a
    /// rotary encoder that reports a wheel, a mouse wheel, the simulator
    /// window's wheel. A rotary encoder moves Controls' focus with
    /// `focus.rotate(by:)`; keep the fractions of a high-resolution wheel
    /// until they make a whole detent.
    public func onWheel(name: String = "wheel", _ action: @escaping (WheelEvent) throws(AppError) -> Void) {
        wheelHandlers.append((name, action))
    }

    /// Calls `action` after the screen changed size (`width` and
    /// `height`, points; the display came back with another mode), once
    /// the root has the new bounds and its layout manager has laid it out
    /// (without animation). For what a layout manager does not place:
    /// layers positioned by hand from the screen's size. App thread.
    public func onResize(name: String = "resize", _ action: @escaping () throws(AppError) -> Void) {
        resizeHandlers.append((name, action))
    }

    /// The display's new size, `width` × `height` panel pixels turned by
    /// the board's rotation (`RenderLoop.deliverDisplaySizeChanges`): the
    /// root takes it in points and is laid out now, without animation (a
    /// mode change is a jump, not a move); then the `onResize` handlers
    /// run. The run-loop turn's commit hands it all to the render thread.
    func displaySizeChanged(width: Int, height: Int) {
        let w = Double(width) / scale, h = Double(height) / scale
        guard w != self.width || h != self.height else { return }
        self.width = w
        self.height = h
        Transaction.withoutActions {
            root.bounds = Rect(x: 0, y: 0, width: w, height: h)
            root.position = Point(x: Double(width) / 2, y: Double(height) / 2)
            root.layoutIfNeeded()
        }
        for (name, action) in resizeHandlers { call(name, action) }
    }

    /// Hands `key`, translated through the keymap, to every key handler, in
    /// the order they were added.
    func handle(_ key: KeyEvent) {
        if let board = keyboardBoard {
            keyboardBoard = nil
            keyboard = KeyboardTranslator(layout: board.keyboardLayout, variant: board.keyboardVariant,
                                          options: board.keyboardOptions, composeLocale: board.keyboardLocale)
        }
        var key = key
        if let keyboard, key.text == nil {
            let typed = keyboard.translate(code: key.code, pressed: key.pressed)
            key = KeyEvent(code: key.code, pressed: key.pressed, timestamp: key.timestamp, text: typed.text, keysym: typed.keysym)
        }
        for (name, action) in keyHandlers { call(name) { () throws(AppError) in try action(key) } }
    }

    /// Routes one batch of input: the touches to the router, then the keys
    /// to the key handlers, then the wheel turns to the wheel handlers.
    func handle(_ batch: AppInputBatch) {
        for event in batch.touches { router.handle(event) }
        for key in batch.keys { handle(key) }
        for wheel in batch.wheels {
            for (name, action) in wheelHandlers { call(name) { () throws(AppError) in try action(wheel) } }
        }
    }

    /// The earliest time a timer or a recogniser needs the app thread.
    var nextDeadline: MediaTime? {
        var t = router.nextDeadline
        for timer in timers where t == nil || timer.next < t! { t = timer.next }
        return t
    }

    /// Runs the recognisers' timers and the due timers at `now`.
    func advance(to now: MediaTime) {
        router.advance(to: now)
        for i in timers.indices where timers[i].next <= now {
            let timer = timers[i]
            // One call however late, then the next due time after now.
            var next = timer.next + timer.interval
            if next <= now { next = now + timer.interval }
            timers[i].next = next
            call(timer.name) { () throws(AppError) in try timer.action(now) }
        }
    }

    /// Runs a handler; a failure is printed with its name and counted. A
    /// trap inside it (a Swift runtime error) ends the process, but first
    /// the crash line names the handler (`fbr_trap_log_enter`).
    func call(_ name: String, _ action: () throws(AppError) -> Void) {
        name.withCString { fbr_trap_log_enter($0) }
        defer { fbr_trap_log_enter(nil) }
        do { try action() } catch {
            failures += 1
            print("\(appName): \(name) failed: \(error.description)")
        }
    }

    private struct Timer {
        let name: String
        let interval: MediaTime
        var next: MediaTime
        let action: (MediaTime) throws(AppError) -> Void
    }
}
