import AppShell
import Controls
import DemoScenes
import FBRuntime

/// fbdemo's screens: the chooser and the demo open over it, or one demo
/// alone. A demo runs as the scenes expect (`DemoScene`): its root fills
/// the screen, its animations start once it is on screen, it turns every
/// 50 ms (all but orbit, whose animations need no app work), and it
/// answers touch with its own gestures or the generic drag and pinch.
///
/// Each demo is made the first time it is opened and kept: opened again it
/// is as it was left. The scenes' gesture actions and completion blocks
/// refer to their scene unretained (the board build has no `weak`), so a
/// scene must outlive them; keeping every demo made bounds the memory too.
///
/// Threading: the app thread (the shell calls the build closure, handlers
/// and timers there).
final class DemoApp {
    /// The one instance, alive for the run (handlers refer to it).
    nonisolated(unsafe) private static var running: DemoApp?

    private let screen: Screen
    private let chooser: Chooser?
    private let back: Layer?
    private var demos: [String: OpenDemo] = [:]
    private var current: OpenDemo?
    private var turnTimerInstalled = false
    /// The board's keys as controls' keys (keeps the Shift state).
    private var keys = EvdevKeyMapper()
    /// A high-resolution wheel's fraction of a detent, kept for the next turn.
    private var wheelRest = 0.0

    /// Builds the first screen on `screen`: the demo `scene`, or the chooser
    /// when nil; with `hud`, on a display, the frame-time HUD above it.
    static func start(on screen: Screen, scene: String?, hud: Bool) {
        let demoApp = DemoApp(screen: screen, choosing: scene == nil)
        running = demoApp
        if let scene {
            demoApp.open(scene)
        } else if let chooser = demoApp.chooser {
            try? screen.root.addSublayer(chooser.layer)
        }
        if hud && screen.isOnDisplay { demoApp.showHUD() }
        screen.onKey(name: "focus keys") { [unowned(unsafe) demoApp] event in demoApp.key(event) }
        screen.onWheel(name: "focus wheel") { [unowned(unsafe) demoApp] event in demoApp.wheel(event) }
    }

    /// A key for the open demo's controls (`DemoScene.focus`: Tab and
    /// arrows move the focus, Enter activates); Escape, when the focused
    /// control leaves it, goes back to the chooser.
    private func key(_ event: KeyEvent) {
        guard let key = keys.key(code: event.code, pressed: event.pressed, text: event.text),
              let demo = current else { return }
        if let focus = demo.scene.focus, focus.handle(key) { return }
        if key == .escape { close() }
    }

    /// A wheel turn (a rotary encoder) moves the open demo's focus a
    /// control per detent, down or right forward.
    private func wheel(_ event: WheelEvent) {
        guard let focus = current?.scene.focus else { return }
        wheelRest += event.vertical + event.horizontal
        let detents = Int(wheelRest.rounded(.towardZero))
        wheelRest -= Double(detents)
        if detents != 0 { focus.rotate(by: detents) }
    }

    private init(screen: Screen, choosing: Bool) {
        self.screen = screen
        guard choosing else { chooser = nil; back = nil; return }
        let back = BackButton.make(width: screen.width, height: screen.height)
        self.back = back
        chooser = Chooser(width: screen.width, height: screen.height)
        chooser?.onOpen(on: screen) { [unowned(unsafe) self] name in self.open(name) }
        screen.onTap(back, name: "back to the demos") { [unowned(unsafe) self] in self.close() }
    }

    /// Shows demo `name` in place of the chooser.
    private func open(_ name: String) {
        let demo: OpenDemo
        if let made = demos[name] {
            demo = made
            screen.router.onTouch = made.onTouch
        } else {
            guard let scene = DemoCatalog.make(name, width: screen.width, height: screen.height) else { return }
            demo = OpenDemo(name: name, scene: scene)
            demos[name] = demo
            // A scene's gestures may watch every touch (`onTouch`); it is
            // the open demo's alone.
            screen.router.onTouch = nil
            demo.gestures = SceneDragAndPinch.install(for: scene, in: screen.router)
            demo.onTouch = screen.router.onTouch
        }
        Transaction.withoutActions {
            chooser?.layer.removeFromSuperlayer()
            try? screen.root.insertSublayer(demo.scene.root, at: 0)
            if let back {
                BackButton.place(back, in: demo.scene.hostButtonCorner, width: screen.width, height: screen.height)
                try? screen.root.addSublayer(back)
            }
        }
        current = demo
        if !demo.started {
            demo.started = true
            startWhenShown(demo)
        }
        if demo.turns && !turnTimerInstalled {
            turnTimerInstalled = true
            screen.every(0.05, name: "turn") { [unowned(unsafe) self] now in
                if let current = self.current, current.turns { current.scene.turn(at: now) }
            }
        }
    }

    /// Back to the chooser; the demo stays as it is, off screen.
    private func close() {
        guard let demo = current, let chooser else { return }
        current = nil
        screen.router.onTouch = nil
        Transaction.withoutActions {
            demo.scene.root.removeFromSuperlayer()
            back?.removeFromSuperlayer()
            try? screen.root.insertSublayer(chooser.layer, at: 0)
        }
    }

    /// Starts `demo`'s animations at the first turn of the app's run loop
    /// with a frame on screen (headless: the first frame's turn), so its
    /// first frame shows it at rest and the animations run from there.
    private func startWhenShown(_ demo: OpenDemo) {
        AppRunLoop.current.post { [unowned(unsafe) self] in
            if let shown = self.screen.renderStatistics?.framesShown, shown < 1 {
                self.startWhenShown(demo)
                return
            }
            demo.scene.startAnimations(at: AppRunLoop.current.now)
        }
    }

    /// The frame-time HUD (top right) with its debug-overlay toggle: a tap
    /// on it cycles the compositor's overlays.
    private func showHUD() {
        let chrome = DemoChrome(root: screen.root, overlays: screen.debugOverlays)
        chrome.installToggle(in: screen.router)
        chrome.onOverlaysChange = { [unowned(unsafe) self] overlays in
            self.screen.debugOverlays = overlays
            print("fbdemo: debug overlays: \(DemoChrome.name(of: overlays))")
        }
        screen.every(DemoChrome.sampleInterval, name: "hud") { [unowned(unsafe) self] now in
            if let statistics = self.screen.renderStatistics { chrome.refresh(with: statistics, at: now) }
        }
    }
}

/// A demo once made: its scene and the touch handling it installed.
final class OpenDemo {
    let name: String
    let scene: any DemoScene
    /// The generic drag and pinch, for a scene without gestures of its own.
    var gestures: SceneDragAndPinch?
    /// The scene's watcher of every touch, if it set one.
    var onTouch: ((Layer, TouchEvent) -> Void)?
    var started = false
    /// Whether it turns every 50 ms (as fbcheck's interactive run: all but orbit).
    var turns: Bool { name != "orbit" }

    init(name: String, scene: any DemoScene) {
        self.name = name
        self.scene = scene
    }
}
