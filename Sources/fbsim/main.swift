// fbsim: the desktop simulator (host only, never built for the board). The
// demo scenes run through the real render loop into a window on X11 or
// Wayland (SDL2), the mouse acting as one touch and the keyboard's keys as
// key events, so an app can be tried on a development machine without a
// board.
//
//   fbsim [--board NAME | --size WxH] [--scene NAME] [--frames N]
//         [--still] [--check-pacing] [--drag-check] [--oracle DIR] [--hud|--no-hud]
//
// The window is the panel: its size is the board's mode (`--board NAME` or
// FBRUNTIME_BOARD; a board whose mode is `preferred` gets 1280x720) or
// `--size WxH` (default 640x480), and its refresh rate paces the frames
// (60 Hz without one). The board's rotation turns the UI on the panel as
// the board's scan-out would (the frame is rendered in UI orientation and
// turned by SDL when shown), and the mouse, in panel pixels, reaches the
// scene through the same `DisplayOrientation` as a touchscreen (no
// calibration: the mouse is exact). Escape or closing the window ends it.
//
// For scripts/sim-test (under Xvfb):
//   --frames N       stop after N frames; exit 1 if fewer were shown.
//   --check-pacing   exit 1 if two frames were committed less than a
//                    refresh period apart.
//   --drag-check     with --still: once the first frame is in the window,
//                    ask for a capture (READY-FOR-SCREENDUMP sim-first),
//                    then for a drag (READY-FOR-DRAG X0 Y0 X1 Y1, window
//                    pixels) from the top-level layer at 20 %, 30 % of the
//                    UI a quarter of its width to the right; require that
//                    layer to follow the mouse, then ask for a capture
//                    again (READY-FOR-SCREENDUMP sim-after-drag). The
//                    harness answers each on stdin.
//   --hud, --no-hud  the frame-time HUD and its debug-overlay toggle (tap
//                    the HUD; DemoChrome), the same as fbcheck's: on unless
//                    --check-pacing or --drag-check (their captures and
//                    timings are compared).
//   --oracle DIR     with --drag-check: write what the two captures must
//                    show, rendered headless from fresh scenes, as
//                    DIR/sim-first.png and DIR/sim-after-drag.png (UI
//                    orientation).
import AppShell
import CPosix
import CSDL2
import DemoScenes
import FBRuntime
import ImageIO
import Input
import Raster

fbr_line_buffer_stdout()
// As fbdemo and fbcheck: the scenes turn and tilt layers, so every edge is
// smoothed (Core Animation's default is hard edges; see
// Layer.allowsEdgeAntialiasing).
Layer.defaultAllowsEdgeAntialiasing = true

struct Options {
    var width = 640
    var height = 480
    var sizeGiven = false
    var scene = "orbit"
    var frames: Int?
    var still = false
    var checkPacing = false
    var dragCheck = false
    var oracleDirectory: String?
    /// --hud / --no-hud; default: on unless a check runs (DemoChrome).
    var hud: Bool?
}

func usage(_ message: String) -> Never {
    fbr_write_stderr("fbsim: \(message)\nusage: fbsim [--board NAME | --size WxH] [--scene NAME] [--frames N] [--still]\n"
                     + "             [--check-pacing] [--drag-check] [--oracle DIR] [--hud|--no-hud]\n")
    exit(2)
}

func parseOptions(_ arguments: [String]) -> Options {
    var options = Options()
    var r = DemoOptionReader(arguments, usage: usage)
    while let a = r.next() {
        switch a {
        case "--size": (options.width, options.height) = r.size(); options.sizeGiven = true
        case "--board": _ = r.value()   // read by BoardConfig.selected
        case "--scene": options.scene = r.value()
        case "--frames": options.frames = r.frames()
        case "--still": options.still = true
        case "--check-pacing": options.checkPacing = true
        case "--drag-check": options.dragCheck = true; options.still = true
        case "--oracle": options.oracleDirectory = r.value()
        case "--hud", "--no-hud": options.hud = DemoOptionReader.hudChoice(a)
        default: options.scene = r.sceneOrUnknown(a)
        }
    }
    guard DemoCatalog.names.contains(options.scene) else {
        usage("unknown scene '\(options.scene)' (scenes: \(DemoCatalog.namesLine))")
    }
    return options
}

/// The scene `name` of `DemoCatalog` (orbit for an unknown one: the
/// options are checked first).
func makeScene(_ name: String, width: Double, height: Double) -> any DemoScene {
    DemoCatalog.make(name, width: width, height: height) ?? OrbitScene(width: width, height: height)
}

func sdlError() -> String { String(cString: SDL_GetError()) }

/// A failure of SDL, with SDL's message.
struct SimError: Error, CustomStringConvertible {
    let description: String
    init(_ description: String) { self.description = description }
}

/// Microseconds of CLOCK_MONOTONIC, the time base of `InputEvent`.
func nowMicroseconds() -> UInt64 { UInt64(max(0, System.monotonicNanoseconds() / 1000)) }

/// The window, its renderer and the texture the frames go to, and how the
/// texture is turned onto the window (the board's rotation).
final class SimWindow {
    let window: OpaquePointer
    let renderer: OpaquePointer
    let texture: OpaquePointer
    /// Where the UI-sized texture goes before SDL turns it about its
    /// centre by `angle` degrees clockwise, so it covers the window.
    private var destination: SDL_Rect
    private let angle: Double

    init(title: String, panelWidth: Int, panelHeight: Int, uiWidth: Int, uiHeight: Int, rotation: DisplayRotation) throws(SimError) {
        guard let window = SDL_CreateWindow(title, fbr_sdl_windowpos_undefined(), fbr_sdl_windowpos_undefined(),
                                            Int32(panelWidth), Int32(panelHeight), SDL_WINDOW_SHOWN.rawValue) else {
            throw SimError("SDL_CreateWindow: \(sdlError())")
        }
        // Nearest neighbour: the window shows the frame's pixels as they are.
        _ = SDL_SetHint(SDL_HINT_RENDER_SCALE_QUALITY, "0")
        guard let renderer = SDL_CreateRenderer(window, -1, 0) else {
            SDL_DestroyWindow(window)
            throw SimError("SDL_CreateRenderer: \(sdlError())")
        }
        guard let texture = SDL_CreateTexture(renderer, fbr_sdl_pixelformat_xrgb8888(), Int32(SDL_TEXTUREACCESS_STREAMING.rawValue),
                                              Int32(uiWidth), Int32(uiHeight)) else {
            SDL_DestroyRenderer(renderer); SDL_DestroyWindow(window)
            throw SimError("SDL_CreateTexture: \(sdlError())")
        }
        self.window = window
        self.renderer = renderer
        self.texture = texture
        destination = SDL_Rect(x: Int32((panelWidth - uiWidth) / 2), y: Int32((panelHeight - uiHeight) / 2),
                               w: Int32(uiWidth), h: Int32(uiHeight))
        angle = Double(rotation.rawValue)
    }

    /// Shows the texture (again: after an expose, too).
    func present() {
        _ = SDL_RenderClear(renderer)
        if angle == 0 {
            _ = SDL_RenderCopy(renderer, texture, nil, nil)
        } else {
            _ = SDL_RenderCopyEx(renderer, texture, nil, &destination, angle, nil, SDL_FLIP_NONE)
        }
        SDL_RenderPresent(renderer)
    }

    deinit {
        SDL_DestroyTexture(texture)
        SDL_DestroyRenderer(renderer)
        SDL_DestroyWindow(window)
    }
}

func run() -> Int32 {
    let arguments = System.arguments()
    var options = parseOptions(arguments)
    let board: BoardConfig
    do { board = try BoardConfig.selected(arguments: arguments) ?? BoardConfig(name: "desktop") } catch {
        fbr_write_stderr("fbsim: \(error.description)\n")
        return 2
    }
    var refreshMillihertz = 60_000
    if !options.sizeGiven && board.name != "desktop" {
        switch board.mode {
        case let .size(width, height, refresh):
            options.width = width; options.height = height
            if let refresh { refreshMillihertz = refresh }
        case .preferred:
            options.width = 1280; options.height = 720
            print("fbsim: board \(board.name) asks for the connector's preferred mode; simulating 1280x720@60 (--size to change)")
        }
    }
    let orientation = DisplayOrientation(rotation: DisplayRotation(degrees: board.rotation),
                                         panelWidth: Double(options.width), panelHeight: Double(options.height))
    let uiWidth = Int(orientation.uiSize.width), uiHeight = Int(orientation.uiSize.height)

    _ = SDL_SetHint(SDL_HINT_NO_SIGNAL_HANDLERS, "1")
    guard SDL_Init(fbr_sdl_init_video()) == 0 else {
        print("fbsim: error: SDL_Init: \(sdlError()) (no X11 or Wayland display? scripts/sim needs one; scripts/sim-test runs under Xvfb)")
        return 1
    }
    defer { SDL_Quit() }
    let frameReady = SDL_RegisterEvents(1)
    guard frameReady != UInt32.max,
          let presenter = SimWindowPresenter(width: uiWidth, height: uiHeight, refreshMillihertz: refreshMillihertz) else {
        print("fbsim: error: cannot set up a \(uiWidth)x\(uiHeight) frame")
        return 1
    }
    let window: SimWindow
    do {
        window = try SimWindow(title: "fbsim \(board.name) \(options.scene)", panelWidth: options.width, panelHeight: options.height,
                               uiWidth: uiWidth, uiHeight: uiHeight, rotation: orientation.rotation)
    } catch {
        print("fbsim: error: \(error.description)")
        return 1
    }
    var driver = "?"
    if let name = SDL_GetCurrentVideoDriver() { driver = String(cString: name) }
    if driver == "offscreen" || driver == "dummy" {
        // SDL falls back to these when it finds no X11 or Wayland display.
        print("fbsim: warning: SDL's \(driver) video driver: nothing is visible (no DISPLAY or WAYLAND_DISPLAY?)")
    }
    var info = SDL_RendererInfo()
    let rendererName = SDL_GetRendererInfo(window.renderer, &info) == 0 && info.name != nil ? String(cString: info.name) : "?"
    print("fbsim: board \(board.name): window \(options.width)x\(options.height) on \(driver) (renderer \(rendererName)), "
          + "UI \(uiWidth)x\(uiHeight), rotation \(orientation.rotation.rawValue), "
          + "refresh \(formatMilliseconds(presenter.refreshIntervalNanoseconds)), scene \(options.scene)")

    // The render thread wakes the app thread (this one, SDL's) for each frame.
    presenter.onCommit = {
        var event = SDL_Event()
        event.type = frameReady
        _ = SDL_PushEvent(&event)
    }
    let scene = makeScene(options.scene, width: Double(uiWidth), height: Double(uiHeight))
    scene.root.isDisplayRoot = true
    let chrome = options.hud ?? !(options.checkPacing || options.dragCheck) ? DemoChrome(root: scene.root) : nil
    let loop = RenderLoop(root: scene.root, presenter: presenter)
    if let frames = options.frames { loop.frameLimit = frames }
    let touch = SceneTouch(scene: scene, orientation: orientation)
    chrome?.installToggle(in: touch.router)
    chrome?.onOverlaysChange = { [unowned(unsafe) loop] in loop.setDebugOverlays($0) }
    do { try loop.start() } catch {
        print("fbsim: error: \(error.description)")
        return 1
    }
    let app = SimApp(window: window, presenter: presenter, loop: loop, touch: touch, frameReady: frameReady,
                     panelWidth: options.width, panelHeight: options.height)
    var status: Int32 = 0
    if !app.pump(until: { $0.windowFrames >= 1 }, timeoutNanoseconds: 20_000_000_000) {
        print("fbsim: error: the first frame did not reach the window")
        status = 1
    } else if !options.still {
        let now = MonotonicClock().now
        loop.update { _ in scene.startAnimations(at: now) }
    }

    if status == 0 && options.dragCheck {
        status = dragCheck(app, scene: options.scene, orientation: orientation, oracle: options.oracleDirectory)
    } else if status == 0 {
        let turns = options.scene != "orbit" && !options.still
        while !app.quitRequested && loop.isRunning {
            app.pumpOnce(timeoutMilliseconds: turns ? 50 : 200)
            if turns { loop.update { _ in AppRunLoop.current.runTurn { scene.turn(at: AppRunLoop.current.now) } } }
            if let chrome, chrome.refresh(with: loop.statistics, at: MonotonicClock().now) { loop.commit() }
        }
        // The last frames the loop committed before it stopped.
        app.pumpOnce(timeoutMilliseconds: 0)
    }
    loop.stop()

    let stats = loop.statistics
    print("fbsim: \(stats.summary)")
    print("fbsim: frame intervals: \(stats.histogramDescription)")
    print("fbsim: \(app.windowFrames) window updates, \(touch.touchCount) touch events routed, \(app.keyCount) key events")
    if let error = loop.error {
        print("fbsim: error: \(error.description)")
        status = 1
    }
    if let frames = options.frames, stats.framesShown < frames, !app.quitRequested {
        print("fbsim: error: \(stats.framesShown) of \(frames) frames shown")
        status = 1
    }
    let period = presenter.refreshIntervalNanoseconds
    if options.checkPacing && stats.intervalCount > 0 && stats.shortestIntervalNanoseconds < period - 10_000 {
        print("fbsim: error: frames \(formatMilliseconds(stats.shortestIntervalNanoseconds)) apart, less than the refresh period")
        status = 1
    }
    withExtendedLifetime(window) {}
    return status
}

exit(run())
