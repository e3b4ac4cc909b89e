import CPosix
import CAppShell
import FBRuntime
import FBRuntimeKMS
import ImageIO
import Input
import Raster
import Seat
import TouchInput

/// Runs an app: one call picks the display, builds the app's layer tree,
/// starts the render loop and input, routes touch to the app's handlers and
/// turns the app's run loop until the app is stopped, then gives the screen
/// back.
///
///     let app = App(name: "hello")
///     app.run { screen in
///         let button = Layer()
///         ...
///         screen.root.addSublayer(button)
///         screen.onTap(button) { button.backgroundColor = .white }
///     }
///
/// **The display**, in this order (`--backend`, or the board file's
/// `backend`, default `auto`): KMS when a DRM card with a connected
/// connector exists → fbdev when the framebuffer device exists (the
/// board's `fb-device`, default /dev/fb0) → the desktop simulator's window
/// (an X11 or Wayland display and SDL2, loaded at run time: `--size`, the
/// mouse as one finger, closing it ends the app) → headless, which renders
/// `--frames` frames (default 1) of simulated 60 Hz time into PNG files in
/// `--out` (default out/NAME) and says so. `--headless` asks for it.
/// The board comes from `--board NAME` or `FBRUNTIME_BOARD`
/// (board-configs/README.md): mode, rotation, touch device and calibration,
/// and the hardware keyboard's layout (`Screen.keyboard`).
///
/// **On a display** the render loop draws on its own thread, paced by the
/// display's page flips; the app thread (the caller of `run`) waits for
/// input, a recogniser's or timer's deadline or an animation's end, and
/// handles what came in one turn of `AppRunLoop.current`, whose commit
/// hands the changes to the render thread. Touch comes from libinput (the
/// board's `touch-device`, else udev's seat0; the mouse counts as one
/// touch). SIGINT and SIGTERM end the run; a VT switch away or a lost DRM
/// master pause drawing until the display is back (`KMSPresenter`). At the
/// end the screen is given back: KMS restores the CRTC's previous
/// framebuffer, fbdev its pan offset.
///
/// **Idle blanking**, where the board file asks for it (`idle-dim-after`,
/// `idle-off-after`): after that long without input the backlight dims,
/// then goes dark and the display turns off (nothing rendered); a touch
/// or key wakes it, and that first touch (down to up) or key press is not
/// delivered (`IdleBlanker`, docs/display-and-kms.md#idle-blanking).
///
/// **Bad input**: an unknown option or a board file that is missing or
/// wrong prints one line and exits with status 2; a handler that throws
/// is logged with its name and the app goes on, the last frame on screen;
/// a handler that traps (a Swift runtime error) ends the process after a
/// line naming it ("coffee: handler 'button Brew' crashed (signal 4)"),
/// with the signal's exit status, for the service manager to restart it.
public final class App: Sendable {
    /// The app's name: the prefix of its log lines and the default output
    /// folder of headless runs.
    public let name: String
    /// The options read from the command line.
    public let options: AppOptions
    /// The board file selected (`--board`, `FBRUNTIME_BOARD`), if any.
    public let board: BoardConfig?
    private let arguments: [String]

    /// Reads the command line (`System.arguments()` unless given): the
    /// shell's options (`AppOptions`) and, first, the app's own through
    /// `options` (return true when it took the argument), which `usage`
    /// names for the usage line ("[--scene NAME]"). Exits with status 2
    /// and one line on a bad option or board file.
    public init(name: String, arguments: [String] = System.arguments(), usage appUsage: String = "",
                options extra: (String, inout AppOptionReader) -> Bool = { _, _ in false }) {
        self.name = name
        self.arguments = arguments
        let usage: (String) -> Never = { message in
            fbr_write_stderr("\(name): \(message)\nusage: \(name) \(appUsage.isEmpty ? "" : appUsage + " ")"
                             + "[--board NAME] [--backend auto|kms|fbdev] [--headless] "
                             + "[--frames N] [--size WxH] [--out DIR] [--settings FILE] [--tap X,Y]... [--key NAME]...\n")
            exit(2)
        }
        options = AppOptions.parse(arguments, usage: usage, extra: extra)
        do { board = try BoardConfig.selected(arguments: arguments) } catch {
            fbr_write_stderr("\(name): \(error.description)\n")
            exit(2)
        }
    }

    /// Runs the app (see the type's description) and exits the process
    /// with its status: 0, or 1 when the display failed or was not
    /// restored. `build` makes the app's layers under `screen.root` and
    /// installs its handlers; it runs once, before the first frame, on the
    /// calling thread, which is the app thread from then on.
    /// Where the app's settings live (`SettingsStore`): `--settings FILE`;
    /// else NAME.settings in `$STATE_DIRECTORY` (the directory systemd
    /// makes for a service with `StateDirectory=`, as the unit that
    /// `scripts/deploy` installs has); else NAME.settings in the working
    /// directory.
    public var settingsPath: String {
        if let path = options.settingsPath { return path }
        if let state = System.environment("STATE_DIRECTORY"), !state.isEmpty {
            // systemd may list several directories, separated by colons: the first.
            let bytes = Array(state.utf8)
            let first = bytes.firstIndex(of: 0x3A).map { String(decoding: bytes[0..<$0], as: UTF8.self) } ?? state
            return first + "/" + name + ".settings"
        }
        return name + ".settings"
    }

    /// Opens the app's settings (`settingsPath`; see `SettingsStore`). An
    /// unreadable or incomplete file is an error naming it, and is left as
    /// it is: an app that would rather start from defaults makes an empty
    /// store (`SettingsStore(path:)` after moving the file aside).
    public func openSettings() throws(SettingsError) -> SettingsStore {
        try SettingsStore(path: settingsPath)
    }

    public func run(_ build: (Screen) throws(AppError) -> Void) -> Never {
        // Log lines reach a pipe or the journal as they are written.
        fbr_line_buffer_stdout()
        // A handler that traps ends the process with a line naming it.
        fbr_trap_log_install(name)
        if TextLayer.defaultFont == nil { TextLayer.defaultFont = App.loadDefaultFont() }
        let config = board ?? BoardConfig(name: "auto")
        let requested = options.backend ?? config.backend
        let seat = options.headless ? nil : openSeat()
        let choice = options.headless ? .headless : DisplayBackendChoice.choose(requested, fbDevice: config.fbDevice, seat: seat)
        if requested == .auto && !options.headless && choice != .kms {
            // Say why KMS was passed by when a card is there but closed to us.
            for card in DRMDevice.unopenableCards() {
                print("\(name): \(card.path): cannot open (errno \(card.errno)\(card.errno == EACCES ? ": not in the video group?" : "")); not using KMS")
            }
        }
        var display: AppDisplay?
        do { display = try AppDisplay.open(choice, board: config, seat: seat) } catch {
            print("\(name): error: \(error.description)")
            exit(1)
        }
        if display == nil && !options.headless {
            // The desktop: the simulator's window, else headless.
            let (window, whyNot) = AppDisplay.openWindow(width: options.width, height: options.height, title: name)
            display = window
            if window == nil {
                print("\(name): no KMS card with a connected display, no \(config.fbDevice), no simulator window (\(whyNot)): running headless")
            }
        }
        guard let display else { exit(runHeadless(config: config, build)) }
        exit(runOnDisplay(display, config: config, seat: seat, build))
    }

    /// The seat the display and input devices are opened through
    /// (`FBRUNTIME_SEAT`, seatd or logind when one runs), or nil for direct
    /// opening; one line says which.
    private func openSeat() -> SeatSession? {
        do {
            switch try SeatSession.open(try SeatSession.choiceFromEnvironment()) {
            case .seat(let seat):
                print("\(name): devices through libseat (\(seat.backend), \(seat.name))")
                return seat
            case .direct(let reason):
                print("\(name): devices opened directly (\(reason))")
                return nil
            }
        } catch {
            print("\(name): error: \(error.description)")
            exit(1)
        }
    }

    // MARK: Headless

    private func runHeadless(config: BoardConfig, _ build: (Screen) throws(AppError) -> Void) -> Int32 {
        guard let display = HeadlessDisplay(width: options.width, height: options.height) else {
            print("\(name): error: cannot allocate a \(options.width)x\(options.height) frame")
            return 1
        }
        let appLoop = AppRunLoop(clock: display.clock)
        AppRunLoop.current = appLoop
        let screen = Screen(appName: name, width: Double(display.width), height: Double(display.height), scale: config.scale, board: config)
        let compositor = Compositor()
        compositor.paintThreads = config.resolvedPaintThreads
        screen.onDebugOverlaysChange = { compositor.debugOverlays = $0 }
        screen.call("build") { () throws(AppError) in try build(screen) }
        screen.root.layoutIfNeeded()       // laid out before it is shown: no animation from the unlaid frames
        screen.root.isDisplayRoot = true   // from now on, changes animate
        let out = options.outDirectory ?? "out/" + name
        do { try System.makeDirectories(out) } catch {
            print("\(name): error: \(error.description)")
            return 1
        }
        let frames = options.frames ?? 1
        let script = InputScript(options.inputSteps)
        var banded = 0
        for frame in 0..<frames {
            appLoop.runTurn {
                screen.handle(script.events(atFrame: frame, time: appLoop.now))
                screen.advance(to: appLoop.now)
            }
            display.renderFrame(screen.root, with: compositor)
            if compositor.statistics.paintBands > 1 { banded += 1 }
            let path = out + "/frame-" + App.zeroPadded(frame, 4) + ".png"
            do { try PNG.write(display.framebuffer.view, to: path) } catch {
                print("\(name): error: \(error.description)")
                return 1
            }
        }
        print("\(name): headless: wrote \(frames) frame\(frames == 1 ? "" : "s") (\(display.width)x\(display.height)) to \(out)/frame-*.png")
        if banded > 0 { print("\(name): headless: \(banded) painted in bands on \(compositor.paintThreads) threads") }
        return 0
    }

    // MARK: On a display

    private func runOnDisplay(_ display: AppDisplay, config: BoardConfig, seat: SeatSession?,
                              _ build: (Screen) throws(AppError) -> Void) -> Int32 {
        TerminationSignal.install()
        print("\(name): \(display.description)")
        let presenter = display.presenter
        let screen = Screen(appName: name, width: Double(presenter.width), height: Double(presenter.height), isOnDisplay: true,
                            scale: config.scale, board: config)
        screen.call("build") { () throws(AppError) in try build(screen) }
        screen.root.layoutIfNeeded()       // as in the headless run
        screen.root.isDisplayRoot = true
        let loop = RenderLoop(root: screen.root, presenter: presenter)
        loop.compositor.debugOverlays = screen.debugOverlays   // before the render thread starts
        loop.compositor.paintThreads = config.resolvedPaintThreads
        screen.onDebugOverlaysChange = { loop.setDebugOverlays($0) }
        screen.statisticsSource = { loop.statistics }
        if let frames = options.frames { loop.frameLimit = frames }
        loop.attach(to: AppRunLoop.current)
        // A display back with another mode: the screen lays out for it,
        // touch maps onto the new panel (`touchInput`, made below).
        var touchInput: AppInput?
        loop.deliverDisplaySizeChanges(to: AppRunLoop.current) { [unowned(unsafe) screen] width, height in
            print("\(screen.appName): the display is \(width)x\(height) now; laying out again")
            screen.displaySizeChanged(width: width, height: height)
            touchInput?.frameSizeChanged(width: width, height: height)
        }
        do { try loop.start() } catch {
            print("\(name): error: \(error.description)")
            _ = display.close()
            return 1
        }
        loop.commit()
        let events: AppEventSource
        if let window = display.window { events = SimWindowInput(window) } else {
            let made = AppInput(board: config, panelWidth: display.panelWidth, panelHeight: display.panelHeight, appName: name, seat: seat)
            touchInput = made
            events = made
        }
        let blanker = display.window == nil ? makeIdleBlanker(config, loop: loop) : nil
        var stillLimit = options.frames.map {
            StillScreenLimit(frames: $0, refreshIntervalNanoseconds: presenter.refreshIntervalNanoseconds, start: MonotonicClock().now)
        }
        while loop.isRunning && !TerminationSignal.isRequested && !events.quitRequested {
            let now = MonotonicClock().now
            if stillLimit?.isReached(framesRendered: loop.statistics.framesRendered, now: now) == true {
                print("\(name): the screen is still after \(loop.statistics.framesRendered) of \(options.frames ?? 0) frames: done")
                break
            }
            var timeout: MediaTime = 0.25   // notice SIGINT, the loop's end
            for t in [screen.nextDeadline, AppRunLoop.current.nextEventTime] {
                if let t { timeout = min(timeout, max(0, t - now + 0.001)) }
            }
            if let due = blanker?.nextDeadlineNanoseconds {
                timeout = min(timeout, max(0, MediaTime(due - loop.time.nanoseconds()) / 1e9 + 0.001))
            }
            var batch = events.wait(milliseconds: Int32(timeout * 1000))
            if let blanker {
                batch.admit(through: blanker)
                blanker.tick()
            }
            AppRunLoop.current.runTurn {
                screen.handle(batch)
                screen.advance(to: MonotonicClock().now)
            }
        }
        loop.stop()
        blanker?.restoreBacklight()
        var status: Int32 = 0
        if let error = loop.error {
            print("\(name): error: \(error.description)")
            status = 1
        }
        print("\(name): \(loop.statistics.summary)")
        if let problem = display.close() {
            print("\(name): error: \(problem)")
            status = 1
        }
        if TerminationSignal.isRequested { print("\(name): stopped by SIGINT/SIGTERM") }
        return status
    }

    // MARK: Pieces

    /// `--frames N` on a display: the render loop stops after N rendered
    /// frames, but a still screen renders none, so the run would never
    /// end. It also ends once N refresh periods have passed since the
    /// start and no frame has been rendered for `stillSeconds` (an
    /// animation still running, however slowly, keeps it going).
    struct StillScreenLimit {
        /// How long no frame must have been rendered, seconds.
        static let stillSeconds: MediaTime = 1
        /// The start plus N refresh periods, seconds (`MonotonicClock`).
        let earliestEnd: MediaTime
        private var framesRendered = -1
        private var lastFrameSeen: MediaTime

        init(frames: Int, refreshIntervalNanoseconds: Int64, start: MediaTime) {
            earliestEnd = start + MediaTime(frames) * MediaTime(max(refreshIntervalNanoseconds, 0)) / 1e9
            lastFrameSeen = start
        }

        /// Whether the run is over, given the loop's count of rendered
        /// frames at `now` (called on each turn of the app's loop).
        mutating func isReached(framesRendered rendered: Int, now: MediaTime) -> Bool {
            if rendered != framesRendered { framesRendered = rendered; lastFrameSeen = now; return false }
            return now >= earliestEnd && now - lastFrameSeen >= StillScreenLimit.stillSeconds
        }
    }

    /// The board's idle blanking on `loop`'s display, nil when the board
    /// asks for none; says what it found.
    private func makeIdleBlanker(_ config: BoardConfig, loop: RenderLoop) -> IdleBlanker? {
        guard let timeouts = config.idleTimeouts else { return nil }
        let (backlight, reason) = Backlight.open(config.backlight)
        func seconds(_ ns: Int64?) -> String { ns.map { formatMilliseconds($0) } ?? "never" }
        print("\(name): idle blanking: dim after \(seconds(timeouts.dimAfterNanoseconds)) to \(timeouts.dimPercent) %, "
              + "off after \(seconds(timeouts.offAfterNanoseconds)); "
              + (backlight.map { "backlight \($0.directory) (max \($0.maxBrightness))" } ?? "no backlight (\(reason ?? "none chosen"))"))
        return IdleBlanker(timeouts: timeouts, backlight: backlight, loop: loop)
    }

    /// The fonts tried, in order, for `TextLayer.defaultFont` (Debian's
    /// DejaVu Sans, from fonts-dejavu-core).
    nonisolated(unsafe) public static var defaultFontPaths = ["/usr/share/fonts/truetype/dejavu/DejaVuSans.ttf"]

    static func loadDefaultFont() -> Font? {
        for path in defaultFontPaths { if let font = try? Font(path: path) { return font } }
        return nil
    }

    static func zeroPadded(_ n: Int, _ width: Int) -> String {
        var s = String(n)
        while s.count < width { s = "0" + s }
        return s
    }
}

extension AppInputBatch {
    /// Drops what `blanker` swallows (the sequence that wakes a dark
    /// screen), letting it see every event.
    mutating func admit(through blanker: IdleBlanker) {
        touches.removeAll { !blanker.admit(.touch(id: $0.id, phase: $0.phase)) }
        keys.removeAll { !blanker.admit(.key(code: $0.code, pressed: $0.pressed)) }
        wheels.removeAll { _ in !blanker.admit(.other) }
    }
}

/// Where the app thread waits and what it gets: touches (UI points), keys
/// and wheel turns, and whether the user asked to quit (the simulator's
/// window closed).
protocol AppEventSource: AnyObject {
    /// Waits up to `milliseconds` for input and returns what came.
    func wait(milliseconds: Int32) -> AppInputBatch
    var quitRequested: Bool { get }
}

/// Input on a display: libinput events as the runtime's touches
/// (`TouchEventMapper`: the board's rotation and calibration), key events
/// and wheel turns, or nothing when no input device can be opened (said
/// once).
final class AppInput: AppEventSource {
    let quitRequested = false
    private let seat: InputSeat?
    private let board: BoardConfig
    /// Panel pixels; made again when the display changes mode.
    private var mapper: TouchEventMapper
    private var width: UInt32, height: UInt32
    /// The seat manager the devices come through, and its enable count
    /// when the devices were last opened.
    private let session: SeatSession?
    private var enables: Int

    init(board: BoardConfig, panelWidth: Int, panelHeight: Int, appName: String, seat session: SeatSession?) {
        self.session = session
        self.board = board
        enables = session?.enableCount ?? 0
        do { seat = try InputSeat.open(touchDevice: board.touchDevice, session: session) } catch {
            print("\(appName): no touch input: \(error.description)")
            seat = nil
        }
        (mapper, width, height) = AppInput.panel(board, panelWidth, panelHeight)
    }

    /// The touch mapping onto a `panelWidth` × `panelHeight` panel, and
    /// the size libinput scales absolute positions to.
    private static func panel(_ board: BoardConfig, _ panelWidth: Int, _ panelHeight: Int) -> (TouchEventMapper, UInt32, UInt32) {
        (TouchEventMapper(orientation: DisplayOrientation(board: board, panelWidth: panelWidth, panelHeight: panelHeight)),
         UInt32(max(panelWidth, 1)), UInt32(max(panelHeight, 1)))
    }

    /// The display came back with another mode: frames of `width` ×
    /// `height` (UI pixels, the panel turned by the board's rotation), so
    /// absolute touch positions map onto the new panel.
    func frameSizeChanged(width: Int, height: Int) {
        let rotation = DisplayRotation(degrees: board.rotation)
        let turned = rotation == .clockwise90 || rotation == .clockwise270
        (mapper, self.width, self.height) = AppInput.panel(board, turned ? height : width, turned ? width : height)
    }

    /// Waits up to `milliseconds` for input and returns the touches (UI
    /// points), keys and wheel turns that came.
    func wait(milliseconds: Int32) -> AppInputBatch {
        guard let seat else {
            if milliseconds > 0 { MonotonicFrameTime().sleep(untilNanoseconds: System.monotonicNanoseconds() + Int64(milliseconds) * 1_000_000) }
            return AppInputBatch()
        }
        if let session, session.enableCount != enables {
            // The seat was away and is back: its manager revoked the input
            // devices meanwhile; open them again.
            enables = session.enableCount
            seat.suspend()
            seat.resume()
        }
        var revents: Int16 = 0
        _ = fbr_poll1(seat.fd, Int16(POLLIN), milliseconds, &revents)
        var batch = AppInputBatch()
        seat.dispatch(width: width, height: height) { event in AppInput.collect(event, mapper: mapper, into: &batch) }
        return batch
    }

    /// Adds what `event` means to the app to `batch`: a touch through
    /// `mapper`, a key as it is (evdev code, press or release), a wheel
    /// turn in detents.
    static func collect(_ event: InputEvent, mapper: TouchEventMapper, into batch: inout AppInputBatch) {
        if case let .key(code, pressed, time) = event {
            batch.keys.append(KeyEvent(code: code, pressed: pressed, timestamp: TouchEventMapper.mediaTime(time)))
        } else if case let .wheel(h, v, time) = event {
            batch.wheels.append(WheelEvent(horizontal: h, vertical: v, timestamp: TouchEventMapper.mediaTime(time)))
        } else if let touch = mapper.touchEvent(event) {
            batch.touches.append(touch)
        }
    }
}

/// The desktop simulator's events: the left mouse button as one finger
/// (frame pixels are points), the window's close button or Escape as quit,
/// and the render thread's wake-ups, on which the newest frame is shown
/// (`SimWindowPresenter.upload`).
final class SimWindowInput: AppEventSource {
    private let presenter: SimWindowPresenter
    private(set) var quitRequested = false
    private var events = [fbr_sim_event](repeating: fbr_sim_event(), count: 64)

    init(_ presenter: SimWindowPresenter) { self.presenter = presenter }

    func wait(milliseconds: Int32) -> AppInputBatch {
        let n = Int(fbr_sim_wait(milliseconds, &events, Int32(events.count)))
        var batch = AppInputBatch()
        var showFrame = false, expose = false
        for e in events[0..<n] {
            let location = Point(x: Double(e.x), y: Double(e.y))
            let time = TouchEventMapper.mediaTime(e.time_us)
            switch Int(e.type) {
            case Int(FBR_SIM_QUIT.rawValue): quitRequested = true
            case Int(FBR_SIM_FRAME.rawValue): showFrame = true
            case Int(FBR_SIM_EXPOSE.rawValue): expose = true
            case Int(FBR_SIM_BUTTON_DOWN.rawValue): batch.touches.append(TouchEvent(id: 0, phase: .began, location: location, timestamp: time))
            case Int(FBR_SIM_MOTION.rawValue) where e.pressed != 0:
                batch.touches.append(TouchEvent(id: 0, phase: .moved, location: location, timestamp: time))
            case Int(FBR_SIM_BUTTON_UP.rawValue): batch.touches.append(TouchEvent(id: 0, phase: .ended, location: location, timestamp: time))
            case Int(FBR_SIM_KEY.rawValue): batch.keys.append(KeyEvent(code: UInt32(e.code), pressed: e.pressed != 0, timestamp: time))
            case Int(FBR_SIM_WHEEL.rawValue): batch.wheels.append(WheelEvent(horizontal: 0, vertical: Double(e.code) / 120, timestamp: time))
            default: break
            }
        }
        let shown = showFrame && presenter.upload { pixels, stride, r in
            fbr_sim_present(pixels, Int32(stride * 4), Int32(r.x), Int32(r.y), Int32(r.width), Int32(r.height))
        }
        if expose && !shown { fbr_sim_refresh() }
        return batch
    }
}

