// fbcheck: the check program of the VM and emulated-board tests
// (scripts/vm-test, scripts/qemu-board, and scripts/test's host = aarch64
// frame comparison): the demo scenes through the render loop with the
// checks those tests ask for. The same source for the host and for the
// board (Embedded Swift, aarch64); only the tests run it. The demo app
// people run is fbdemo (Sources/fbdemo, over the app shell), which has
// none of this.
//
//   fbcheck [--headless] [--backend auto|kms|fbdev] [--frames N] [--size WxH] [--out DIR]
//          [--scene NAME] [--board NAME] [--device PATH] [--screendump NAME]
//          [--still] [--expect-idle] [--check-pacing] [SCENE]
//
// The display, in the fallback order (--backend, or the board's `backend`,
// default auto): KMS when a DRM card with a connected connector exists →
// fbdev when the framebuffer device exists (the board's `fb-device`,
// default /dev/fb0) → headless. --headless skips both; --device PATH picks
// a card (or a /dev/fbN, which means fbdev).
//
// On KMS or fbdev the scene runs through the render loop: for --frames N
// frames, or until SIGINT/SIGTERM; then the frame-interval figures are
// printed and the screen is given back (KMS: the CRTC's previous
// framebuffer; fbdev: the var screen info and pan offset found at open,
// and the console's text mode). The display comes from --board (or
// FBRUNTIME_BOARD, see board-configs/README.md); without one, the first
// card with a connected connector, its preferred mode, XRGB8888,
// double-buffered. The board's `rotation` turns the UI in software (the
// scene is laid out at the turned size) and touch with it.
//
// Headless: frames are rendered at 60 Hz of simulated time and written as
// PNG files.
//
// Scenes: `orbit` (the default: the VM golden and the host/aarch64 frame
// comparison of scripts/test use it), `showcase` (every kind of
// animation, see ShowcaseScene; 150 frames headless unless --frames) and
// `pacer` (one small moving square: the vkms pacing test, PacerScene),
// `blink` (one small square pulsing: the damage-clip test, BlinkScene);
// the board demos are the other names of `DemoCatalog` (DemoScenes).
// Before each frame the app's run loop turns (AppRunLoop.runTurn), where
// the showcase changes properties and adds animations.
//
// FBR_DEBUG=blended,offscreen,misaligned,redrawn (any of them, or all)
// turns on the compositor's debug overlays (see DebugOverlays); the HUD's
// toggle changes them at run time.
//
// For scripts/vm-test (KMS only):
//   --screendump NAME  once the first frame is on screen, ask the host for a
//                      screendump (READY-FOR-SCREENDUMP NAME) and wait.
//   --still            do not start the animations (an idle scene).
//   --expect-idle      after the first frame, watch for 1 s: exit 1 if any
//                      frame is rendered or flipped meanwhile.
//   --check-pacing     exit 1 if two flips came less than a refresh period
//                      apart.
//   --max-missed-vblanks N  on a display with real vblanks (vkms): log the
//                      page-flip events from frame 2 on, print their
//                      interval histogram and the missed vblanks (from the
//                      timestamps and from the vblank counter); exit 1
//                      above N (see VBlankCheck).
//   --interrupt-after N  send ourselves SIGINT once N frames are on screen
//                      (the signal path: flag, loop ends, CRTC restored).
//   --touch            read touch (and a pointer as one touch) from udev's
//                      seat0, or the board's touch-device node: drag a
//                      layer, pinch to zoom it (also on with a board
//                      touch-device).
//   --drag-check       with --still: ask the host to drag on QEMU's tablet
//                      (READY-FOR-POINTER), require the layer under it to
//                      follow, print the touch-to-photon latency.
//   --block-app-ms N   with the animations running, block the app thread
//                      for N ms mid-change and ask the host for two
//                      screendumps meanwhile, which must differ (the render
//                      thread goes on from the last commit).
//   --kms-api atomic|legacy|auto  how frames are committed (default: the
//                      board's kms-api, else auto: atomic where available).
//   --master-handoff   while the animations run, drop DRM master for
//                      kmsprobe --take-master (a second process) to take,
//                      and require the display back (see MasterHandoffCheck).
//   --vt-handoff       the same through a VT switch (chvt away, kmsprobe
//                      takes master, switches back to our VT).
//   --seat-switch-check  under a seat manager (scripts/vm/with-seatd): a
//                      switch to VT 2 asked of it, the display released;
//                      back to our VT (by root, outside), the display taken
//                      back (see SeatSwitchCheck).
//   --expect-damage-clips  exit 1 unless flips carried FB_DAMAGE_CLIPS: the
//                      commits atomic, the primary plane with the property
//                      (strict: a driver without it fails; without the flag
//                      fbcheck only says whether the plane has it).
//   --damage-clips-check  with --scene blink (one small layer pulsing):
//                      --expect-damage-clips, and each flip from frame 3 on
//                      must name only that layer (see DamageClipCheck).
//   --no-vt-switch     leave the VT alone (default: VT_PROCESS mode where
//                      there is a VT, so a VT switch drops and retakes master).
//   --uinput-drag-check  with --still: make a uinput touchscreen, wait for
//                      the seat to hot-plug it (udev's seat0 with udevd),
//                      drag on it, require the layer to follow, print the
//                      touch-to-photon latency from each uinput write.
//   --tap X,Y, --drag X0,Y0,X1,Y1  (repeatable, played in order; screen
//                      pixels) a script of touches written to a uinput
//                      touchscreen fbcheck makes, read through libinput like
//                      a board's (TouchScript); then the program ends, and
//                      --screendump is taken once the scene is at rest after
//                      the touches instead of at the first frame.
//   --demo-touch       the same with the scene's own script
//                      (DemoTouchScripts.steps(for:): the touches each demo is
//                      checked with on the emulated board).
//   --idle-blank-check  (implies --still) idle blanking: dim, display
//                      off (read back from the kernel), no frames while
//                      off, a uinput tap wakes it and is not delivered,
//                      the screen as before (see IdleBlankCheck).
//   --test-fault NAME  a fault while the scene runs, for tests only:
//                      connector, flip-error[:ERRNO[:N]], tree-replace,
//                      touch-replug (see FaultChecks).
//   --keymap-check     no display: compile the board file's keymap and type
//                      a few keys through it (KeymapCheck); exit 1 without
//                      the xkb data its layout needs. --keymap-layout L,
//                      --keymap-variant V, --keymap-options O and
//                      --keymap-locale LOCALE|none check that keymap instead.
//   --hud, --no-hud    the frame-time HUD with its debug-overlay toggle (a
//                      tap on it cycles off/blended/offscreen/misaligned/
//                      redrawn; DemoChrome): on by default on KMS and fbdev
//                      unless --frames, a check or a screendump is asked for
//                      (those runs compare pixels or timing); never in
//                      headless frames.
import AppShell
import CPosix
import DemoScenes
import FBRuntime
import FBRuntimeFBDev
import FBRuntimeKMS
import FBRuntimeTesting
import ImageIO
import Raster
import Seat
import Synchronization

fbr_line_buffer_stdout()
// The scenes turn and tilt their layers: smooth every edge, as an iOS app
// does with UIViewEdgeAntialiasing (Core Animation's default is hard
// edges; see Layer.allowsEdgeAntialiasing).
Layer.defaultAllowsEdgeAntialiasing = true

struct Options {
    var headless = false
    var frames = 24
    var width = 320
    var height = 240
    var outDirectory = "out/fbcheck"
    var scene = "orbit"
    var framesGiven = false
    var devicePath: String?
    var screendump: String?
    var still = false
    var expectIdle = false
    var checkPacing = false
    var maxMissedVBlanks: Int?
    var interruptAfter: Int?
    var touch = false
    var dragCheck = false
    var blockAppMilliseconds: Int?
    var uinputDrag = false
    var kmsAPI: KMSAPIChoice?
    var masterHandoff = false
    var vtHandoff = false
    /// --seat-switch-check (SeatSwitchCheck).
    var seatSwitchCheck = false
    var vtSwitch = true
    var expectDamageClips = false
    var damageClipsCheck = false
    /// --backend; nil: the board's (auto without one).
    var backend: BoardConfig.Backend?
    var touchScript = TouchScript()
    /// --demo-touch: the scene's own touch script (DemoTouchScripts.steps(for:)).
    var demoTouch = false
    /// --test-fault (FaultChecks).
    var testFault: String?
    /// --idle-blank-check (IdleBlankCheck).
    var idleBlankCheck = false
    /// --keymap-check (KeymapCheck).
    var keymapCheck = false
    /// --keymap-layout/-variant/-options/-locale: the keymap --keymap-check
    /// compiles instead of the board file's (each value on its own).
    var keymapLayout: String?, keymapVariant: String?, keymapOptions: String?, keymapLocale: String?
    /// --hud / --no-hud; nil: the rule of `showsHUD`.
    var hud: Bool?

    /// The frame-time HUD and its overlay toggle (DemoChrome): on in
    /// interactive runs (until Ctrl-C), off in every run whose pixels or
    /// timing are checked, and in counted runs (--frames N: the VM and
    /// board tests), so the goldens never show it and an idle check stays
    /// idle; --hud or --no-hud decide instead.
    func showsHUD(scripted: Bool) -> Bool {
        hud ?? !(framesGiven || screendump != nil || expectIdle || checkPacing || maxMissedVBlanks != nil || dragCheck
                 || blockAppMilliseconds != nil || damageClipsCheck || masterHandoff || seatSwitchCheck || interruptAfter != nil || testFault != nil || idleBlankCheck || scripted)
    }
}

func usage(_ message: String) -> Never {
    fbr_write_stderr("fbcheck: \(message)\nusage: fbcheck [--headless] [--backend auto|kms|fbdev] [--frames N] [--size WxH] [--out DIR] [--board NAME] [--device PATH]\n"
                     + "              [--screendump NAME] [--still] [--expect-idle] [--check-pacing] [--max-missed-vblanks N] [--touch] [--block-app-ms N] [--demo-touch] [--keymap-check] [--hud|--no-hud] [--scene NAME]\n"
                     + "              [--keymap-layout L] [--keymap-variant V] [--keymap-options O] [--keymap-locale LOCALE|none]\n"
                     + "              [--kms-api atomic|legacy|auto] [--master-handoff] [--vt-handoff] [--no-vt-switch]\n"
                     + "              [--expect-damage-clips] [--damage-clips-check] [--idle-blank-check]\n")
    exit(2)
}

func parseOptions(_ arguments: [String]) -> Options {
    var options = Options()
    var r = DemoOptionReader(arguments, usage: usage)
    while let a = r.next() {
        switch a {
        case "--headless": options.headless = true
        case "--backend": options.backend = r.backend()
        case "--frames":
            options.frames = r.frames()
            options.framesGiven = true
        case "--size": (options.width, options.height) = r.size()
        case "--out": options.outDirectory = r.value()
        case "--scene": options.scene = r.value()
        case "--board": _ = r.value()   // read by BoardConfig.selected
        case "--device": options.devicePath = r.value()
        case "--screendump":
            let name = r.value()
            guard !name.isEmpty, name.utf8.allSatisfy({ BoardConfig.isNameByte($0) }) else {
                usage("--screendump takes a name of letters, digits, '-' and '_'")
            }
            options.screendump = name
        case "--still": options.still = true
        case "--expect-idle": options.expectIdle = true
        case "--check-pacing": options.checkPacing = true
        case "--max-missed-vblanks":
            guard let n = Int(r.value()), n >= 0 else { usage("--max-missed-vblanks takes a count ≥ 0") }
            options.maxMissedVBlanks = n
        case "--touch": options.touch = true
        case "--drag-check": options.touch = true; options.dragCheck = true
        case "--block-app-ms":
            guard let n = Int(r.value()), n > 0, n <= 60_000 else { usage("--block-app-ms takes 1…60000") }
            options.blockAppMilliseconds = n
        case "--kms-api":
            guard let api = KMSAPIChoice(r.value()) else { usage("--kms-api takes atomic, legacy or auto") }
            options.kmsAPI = api
        case "--master-handoff": options.masterHandoff = true
        case "--vt-handoff": options.masterHandoff = true; options.vtHandoff = true
        case "--seat-switch-check": options.seatSwitchCheck = true
        case "--no-vt-switch": options.vtSwitch = false
        case "--expect-damage-clips": options.expectDamageClips = true
        case "--damage-clips-check": options.expectDamageClips = true; options.damageClipsCheck = true
        case "--uinput-drag-check": options.touch = true; options.dragCheck = true; options.uinputDrag = true
        case "--tap", "--drag":
            guard let step = TouchScript.parse(r.value(), drag: a == "--drag") else {
                usage(a == "--tap" ? "--tap takes X,Y (pixels)" : "--drag takes X0,Y0,X1,Y1 (pixels)")
            }
            options.touchScript.steps.append(step)
        case "--demo-touch": options.demoTouch = true
        case "--test-fault": options.testFault = r.value()
        case "--idle-blank-check": options.idleBlankCheck = true; options.still = true
        case "--keymap-check": options.keymapCheck = true
        case "--keymap-layout": options.keymapLayout = r.value()
        case "--keymap-variant": options.keymapVariant = r.value()
        case "--keymap-options": options.keymapOptions = r.value()
        case "--keymap-locale": options.keymapLocale = r.value()
        case "--hud", "--no-hud": options.hud = DemoOptionReader.hudChoice(a)
        case "--interrupt-after":
            guard let n = Int(r.value()), n > 0 else { usage("--interrupt-after takes a positive frame count") }
            options.interruptAfter = n
        default: options.scene = r.sceneOrUnknown(a)
        }
    }
    return options
}

/// The overlays `FBR_DEBUG` names (the environment belongs to the program,
/// not to the library); unknown names are reported and ignored.
func debugOverlaysFromEnvironment() -> DebugOverlays {
    guard let text = System.environment("FBR_DEBUG") else { return [] }
    let (overlays, unknown) = DebugOverlays.parse(text)
    for name in unknown {
        fbr_write_stderr("fbcheck: FBR_DEBUG: unknown overlay '\(name)' (have: blended, offscreen, misaligned, redrawn, all)\n")
    }
    return overlays
}

/// Pads `n` with zeros to `width` digits.
func zeroPadded(_ n: Int, _ width: Int) -> String {
    var s = String(n)
    while s.count < width { s = "0" + s }
    return s
}

func run() {
    let options = parseOptions(System.arguments())
    guard DemoCatalog.names.contains(options.scene) || options.scene == "pacer" || options.scene == "blink" else {
        usage("unknown scene '\(options.scene)' (scenes: \(DemoCatalog.namesLine), pacer, blink)")
    }
    guard !options.damageClipsCheck || options.scene == "blink" else { usage("--damage-clips-check needs --scene blink") }
    guard !options.demoTouch || options.touchScript.isEmpty else { usage("--demo-touch and --tap/--drag exclude each other") }

    let board: BoardConfig?
    do { board = try BoardConfig.selected(arguments: System.arguments()) } catch {
        fbr_write_stderr("fbcheck: \(error.description)\n")
        exit(2)
    }
    if options.keymapCheck {
        var keymap = KeymapCheck.Request(board: board ?? BoardConfig(name: "auto"))
        if let v = options.keymapLayout { keymap.layout = v }
        if let v = options.keymapVariant { keymap.variant = v }
        if let v = options.keymapOptions { keymap.options = v }
        if let v = options.keymapLocale { keymap.locale = v == "none" ? "" : v }
        exit(KeymapCheck.run(keymap))
    }
    if !options.headless {
        var config = board ?? BoardConfig(name: "auto")
        var requested = options.backend ?? config.backend
        if let path = options.devicePath {
            // --device names the display: a framebuffer means fbdev.
            if path.hasPrefix("/dev/fb") { config.fbDevice = path; requested = .fbdev } else if requested == .auto { requested = .kms }
        }
        // Through a seat manager when one runs (FBRUNTIME_SEAT: as the app
        // shell), for the probe, the card and the input devices.
        do throws(SeatError) {
            switch try SeatSession.open(try SeatSession.choiceFromEnvironment()) {
            case .seat(let seat):
                seatSession = seat
                print("fbcheck: devices through libseat (\(seat.backend), \(seat.name))")
            case .direct(let reason):
                print("fbcheck: devices opened directly (\(reason))")
            }
        } catch {
            print("fbcheck: error: \(error.description)")
            exit(1)
        }
        switch DisplayBackendChoice.choose(requested, fbDevice: config.fbDevice, seat: seatSession) {
        case .kms: exit(runOnKMS(options, config: config))
        case .fbdev(let path): exit(runOnFBDev(options, config: config, path: path))
        case .headless: break
        }
    }

    guard let display = HeadlessDisplay(width: options.width, height: options.height) else {
        usage("cannot allocate a \(options.width)x\(options.height) frame")
    }
    // The app side runs on the display's simulated clock.
    let appLoop = AppRunLoop(clock: display.clock)
    AppRunLoop.current = appLoop
    let scene = makeScene(options.scene, width: Double(options.width), height: Double(options.height))
    scene.startAnimations(at: display.clock.now)
    scene.root.isDisplayRoot = true     // from now on, changes animate
    let frames = options.framesGiven || options.scene == "orbit" ? options.frames : 150
    let compositor = Compositor()
    compositor.debugOverlays = debugOverlaysFromEnvironment()

    do {
        try System.makeDirectories(options.outDirectory)
    } catch {
        fbr_write_stderr("fbcheck: \(error.description)\n")
        exit(1)
    }
    for frame in 0..<frames {
        appLoop.runTurn { scene.turn(at: display.clock.now) }
        display.renderFrame(scene.root, with: compositor)
        let path = options.outDirectory + "/frame-" + zeroPadded(frame, 4) + ".png"
        do {
            try PNG.write(display.framebuffer.view, to: path)
        } catch {
            fbr_write_stderr("fbcheck: \(error.description)\n")
            exit(1)
        }
    }
    print("fbcheck: wrote \(frames) frames (\(options.width)x\(options.height), scene \(options.scene)) to \(System.absolutePath(options.outDirectory))/frame-*.png")
}


/// The seat the devices are opened through (run), the card's and the
/// input devices' (TouchControl); nil when they are opened directly.
nonisolated(unsafe) var seatSession: SeatSession?

/// Runs the scene on KMS through the render loop; returns the exit status.
func runOnKMS(_ options: Options, config: BoardConfig) -> Int32 {
    TerminationSignal.install()
    let device: DRMDevice
    let output: KMSOutput
    let presenter: KMSPresenter
    do {
        if let path = options.devicePath {
            device = try DRMDevice(path: path, seat: seatSession)
        } else if case .path(let path) = config.drmDevice {
            device = try DRMDevice(path: path, seat: seatSession)
        } else {
            device = try DRMDevice.openFirstConnected(seat: seatSession)
        }
        output = try KMSOutput(device: device, connectorName: config.connector, mode: config.mode)
        let (committer, fallback) = try (options.kmsAPI ?? config.kmsAPI).makeCommitter(for: output)
        if let fallback { print("fbcheck: legacy KMS: \(fallback)") }
        // Wrapped so that --test-fault flip-error can make commits fail
        // (FaultChecks); it passes every commit through until armed.
        presenter = try KMSPresenter(output: output, format: config.pixelFormat, bufferCount: config.buffers,
                                     committer: FaultInjectingCommitter(wrapping: committer), rotation: DisplayRotation(degrees: config.rotation))
    } catch {
        print("fbcheck: error: \(error.description)")
        return 1
    }
    print("fbcheck: board \(config.name): \(device.path) (\(device.driverName)\(device.supportsAtomic ? ", atomic" : "")), "
          + "connector \(output.connectorName), CRTC \(output.crtcID), mode \(output.modeDescription), "
          + "\(config.pixelFormat.name) ×\(config.buffers), rotation \(config.rotation), \(presenter.committer.apiName) commits"
          + (presenter.committer.apiName == "atomic" ? (presenter.committer.supportsDamageClips ? " with FB_DAMAGE_CLIPS" : " (no FB_DAMAGE_CLIPS)") : ""))
    if options.vtSwitch && seatSession != nil {
        print("fbcheck: no VT_PROCESS mode: the seat manager switches VTs")
    } else if options.vtSwitch {
        do throws(KMSError) {
            presenter.vtSwitcher = try VTSwitcher()
            print("fbcheck: \(presenter.vtSwitcher!.path) in VT_PROCESS mode (a VT switch drops and retakes DRM master)")
        } catch {
            print("fbcheck: no VT switching: \(error.description)")
        }
    }
    var status = runScene(options, config: config, presenter: presenter, kms: presenter, panelWidth: output.width,
                          panelHeight: output.height, busyCount: { presenter.busyCount })

    presenter.close()
    let showing = output.currentFramebufferID()
    if showing == output.savedFramebufferID {
        print("fbcheck: CRTC \(output.crtcID) restored to framebuffer \(showing)")
    } else {
        print("fbcheck: error: CRTC \(output.crtcID) shows framebuffer \(showing), not \(output.savedFramebufferID) as before")
        status = 1
    }
    if TerminationSignal.isRequested { print("fbcheck: stopped by SIGINT/SIGTERM") }
    withExtendedLifetime(presenter) {}
    return status
}

/// Runs the scene on an fbdev framebuffer through the render loop; returns
/// the exit status.
func runOnFBDev(_ options: Options, config: BoardConfig, path: String) -> Int32 {
    TerminationSignal.install()
    let device: FBDevice
    do { device = try FBDevice(path: path) } catch {
        print("fbcheck: error: \(error.description)")
        return 1
    }
    let presenter = FBDevPresenter(device: device, rotation: DisplayRotation(degrees: config.rotation))
    let m = device.mode
    print("fbcheck: board \(config.name): \(path) (fbdev, \(device.driverName)), \(m.width)x\(m.height) "
          + "(virtual height \(m.virtualHeight)), \(m.format.name), "
          + "\(presenter.strategy == .panning ? "panning double buffer" : "copy to the visible buffer"), "
          + "refresh \(formatMilliseconds(m.refreshIntervalNanoseconds)), rotation \(config.rotation)")
    var status = runScene(options, config: config, presenter: presenter, panelWidth: m.width, panelHeight: m.height,
                          busyCount: { presenter.busyCount },
                          // DRM's fbdev emulation flushes CPU writes to the
                          // display from a worker, 50 ms later.
                          screendumpDelayNanoseconds: 200_000_000)
    presenter.close()
    if device.panOffset == device.savedPanOffset {
        print("fbcheck: \(path) restored (pan offset \(device.panOffset))")
    } else {
        print("fbcheck: error: \(path) pan offset \(device.panOffset), not \(device.savedPanOffset) as before")
        status = 1
    }
    if TerminationSignal.isRequested { print("fbcheck: stopped by SIGINT/SIGTERM") }
    withExtendedLifetime(presenter) {}
    return status
}

/// The scene on `presenter` through the render loop, the checks the
/// options ask for and the figures; returns the exit status. The caller
/// closes the presenter. `panelWidth`/`panelHeight`: the mode's size
/// (touch maps from it through the board's rotation); the scene is laid
/// out at the presenter's (turned) size.
func runScene(_ options: Options, config: BoardConfig, presenter: FramePresenter, kms: KMSPresenter? = nil,
              panelWidth: Int, panelHeight: Int, busyCount: () -> Int, screendumpDelayNanoseconds: Int64 = 0) -> Int32 {
    let scene = makeScene(options.scene, width: Double(presenter.width), height: Double(presenter.height))
    scene.root.isDisplayRoot = true
    let touchScript = options.demoTouch ? TouchScript(scene: scene, width: panelWidth, height: panelHeight) : options.touchScript
    if let kms, options.masterHandoff && !options.vtHandoff {
        // The second process must win the race for the freed master:
        // fbcheck's first drmSetMaster retry waits 250 ms (default 20 ms).
        kms.retryBackoff = MasterRetryBackoff(initialNanoseconds: 250_000_000, maximumNanoseconds: 500_000_000)
    }
    let overlays = debugOverlaysFromEnvironment()
    // The HUD joins the tree before the loop captures it.
    let chrome = options.showsHUD(scripted: !touchScript.isEmpty) ? DemoChrome(root: scene.root, overlays: overlays) : nil
    let loop = RenderLoop(root: scene.root, presenter: presenter)
    loop.compositor.debugOverlays = overlays   // before the render thread starts
    chrome?.onOverlaysChange = { [unowned(unsafe) loop] in
        loop.setDebugOverlays($0)
        print("fbcheck: debug overlays: \(DemoChrome.name(of: $0))")
    }
    if options.framesGiven { loop.frameLimit = options.frames }
    var handshakeError: HandshakeError?
    // Frames 2… are shown by flips (frame 1 by the modeset).
    let flipLog = options.maxMissedVBlanks != nil ? FlipLog(capacity: options.framesGiven ? options.frames : 100_000) : nil
    // A touch script asks for its screendump after playing (below).
    let firstFrameScreendump = touchScript.isEmpty ? options.screendump : nil
    let clipLog = options.damageClipsCheck && kms != nil ? DamageClipLog() : nil
    // virtio-gpu's transfers to the host, from frame 3's commit on.
    let transferTrace = clipLog != nil ? TransferTrace() : nil
    var transferTraceProblem: String?
    if firstFrameScreendump != nil || flipLog != nil || clipLog != nil {
        // On the render thread, with frame n on screen and the device open.
        loop.onFrameShown = { n in
            if n >= 2, let flipLog, let kms {
                flipLog.record(timestamp: kms.lastFlipTimestamp, sequence: kms.lastFlipSequence)
            }
            if let clipLog, let kms { clipLog.record(frame: n, kms.statistics) }
            if n == DamageClipLog.firstFrame - 1, let transferTrace { transferTraceProblem = transferTrace.start() }
            guard n == 1, let name = firstFrameScreendump else { return }
            if screendumpDelayNanoseconds > 0 {
                MonotonicFrameTime().sleep(untilNanoseconds: System.monotonicNanoseconds() + screendumpDelayNanoseconds)
            }
            do throws(HandshakeError) { try ScreendumpHandshake.request(name) } catch { handshakeError = error }
            firstFrameHandshakeEnded.store(true, ordering: .releasing)
        }
    }
    do { try loop.start() } catch {
        print("fbcheck: error: \(error.description)")
        return 1
    }
    var status: Int32 = 0
    if !loop.waitUntil(timeoutNanoseconds: 40_000_000_000, { $0.framesShown >= 1 }) {
        print("fbcheck: error: the first frame did not reach the screen")
        status = 1
    } else {
        // The host answers on stdin, one request at a time: the checks
        // below that read stdin (the drag check's pointer, a touch script's
        // screendump) wait for the render thread's first-frame handshake.
        if firstFrameScreendump != nil && !awaitFirstFrameHandshake(timeoutNanoseconds: 40_000_000_000) {
            print("fbcheck: error: the first frame's screendump handshake did not end")
            status = 1
        }
        if !options.still {
            let now = MonotonicClock().now
            loop.update { _ in scene.startAnimations(at: now) }
        }
    }

    if status == 0 && options.expectIdle {
        status = idleCheck(loop)
    } else if status == 0 && options.masterHandoff {
        if let kms {
            status = masterHandoffCheck(loop, presenter: kms, scene: scene, viaVT: options.vtHandoff)
        } else {
            print("fbcheck: error: --master-handoff and --vt-handoff need KMS")
            status = 1
        }
    } else if status == 0 && options.seatSwitchCheck {
        if let seatSession {
            status = seatSwitchCheck(loop, seat: seatSession)
        } else {
            print("VMTEST-CHECK FAIL fbcheck: --seat-switch-check needs a seat (no seat manager: see above)")
            status = 1
        }
    } else if status == 0 && options.idleBlankCheck {
        status = idleBlankCheck(loop, kms: kms, scene: scene, config: config, panelWidth: panelWidth, panelHeight: panelHeight)
    } else if status == 0, let fault = options.testFault {
        status = faultCheck(fault, loop, presenter: presenter, kms: kms, scene: scene, config: config,
                            panelWidth: panelWidth, panelHeight: panelHeight)
    } else if status == 0, let ms = options.blockAppMilliseconds {
        status = blockAppCheck(loop, milliseconds: ms)
    } else if status == 0, let n = options.interruptAfter {
        status = interruptCheck(loop, afterFrames: n)
    } else if status == 0 {
        let run = runInteractive(options, config: config, scene: scene, loop: loop, chrome: chrome, touchScript: touchScript,
                                 panelWidth: panelWidth, panelHeight: panelHeight)
        status = run.status
        if let error = run.handshakeError { handshakeError = error }
    }
    loop.stop()
    let transfers = transferTrace?.stop() ?? []
    if report(options, loop: loop, presenter: presenter, kms: kms, busyCount: busyCount(), flipLog: flipLog,
              handshakeError: handshakeError) != 0 {
        status = 1
    }
    if options.damageClipsCheck {
        if let clipLog, let kms, let blink = scene as? BlinkScene {
            let w = kms.output.width, h = kms.output.height
            if damageClipCheck(clipLog, changingRect: blink.changingRect, screenWidth: w,
                               screenHeight: h, canClip: kms.committer.supportsDamageClips) != 0 { status = 1 }
            if let problem = transferTraceProblem {
                print("fbcheck: no transfer trace: \(problem)")
            } else if let transferTrace {
                reportTransfers(transfers, allowed: damageAllowedRect(blink.changingRect), screenWidth: w, screenHeight: h)
                if let same = sameFramebufferTransfers(kms, rect: blink.changingRect, trace: transferTrace) {
                    print("fbcheck: one commit of the framebuffer on screen with the layer's clip "
                          + "(\(blink.changingRect.x),\(blink.changingRect.y) \(blink.changingRect.width)x\(blink.changingRect.height)): "
                          + (same.isEmpty ? "no transfer" : same.map { "transfer \($0.x),\($0.y) \($0.width)x\($0.height)" }.joined(separator: ", ")))
                }
            }
        } else {
            print("VMTEST-CHECK FAIL fbcheck damage clips: --damage-clips-check needs KMS and --scene blink")
            status = 1
        }
    }
    return status
}

/// Set by the render thread when the first frame's screendump handshake
/// (`--screendump` without a touch script) has ended, answered or not.
private let firstFrameHandshakeEnded = Atomic<Bool>(false)

/// Waits (app thread) until the first frame's screendump handshake has
/// ended; false after `timeoutNanoseconds`.
func awaitFirstFrameHandshake(timeoutNanoseconds: Int64) -> Bool {
    let deadline = System.monotonicNanoseconds() + timeoutNanoseconds
    while !firstFrameHandshakeEnded.load(ordering: .acquiring) {
        if System.monotonicNanoseconds() >= deadline { return false }
        MonotonicFrameTime().sleep(untilNanoseconds: System.monotonicNanoseconds() + 5_000_000)
    }
    return true
}

/// `--expect-idle`: a still scene renders and flips nothing for a second.
func idleCheck(_ loop: RenderLoop) -> Int32 {
    let before = loop.statistics
    let cpuBefore = cpuTicks()
    let start = System.monotonicNanoseconds()
    MonotonicFrameTime().sleep(untilNanoseconds: start + 1_000_000_000)
    let after = loop.statistics
    let cpu = cpuTicks() - cpuBefore
    let frames = after.framesRendered - before.framesRendered, flips = after.framesShown - before.framesShown
    print("fbcheck: idle for \(formatMilliseconds(System.monotonicNanoseconds() - start)): \(frames) frames rendered, "
          + "\(flips) flips, \(after.idleWaits - before.idleWaits) idle waits, CPU \(cpu) ticks (1/100 s)")
    if frames != 0 || flips != 0 {
        print("fbcheck: error: an idle scene rendered or flipped")
        return 1
    }
    return 0
}

/// `--interrupt-after N`: SIGINT after N frames stops the loop within 2 s.
func interruptCheck(_ loop: RenderLoop, afterFrames n: Int) -> Int32 {
    var status: Int32 = 0
    _ = loop.waitUntil(timeoutNanoseconds: 30_000_000_000) { $0.framesShown >= n }
    print("fbcheck: \(loop.statistics.framesShown) frames shown; sending SIGINT to ourselves")
    _ = kill(getpid(), SIGINT)
    if !loop.waitUntil(timeoutNanoseconds: 2_000_000_000, { _ in false }) && loop.isRunning {
        print("fbcheck: error: the loop still runs 2 s after SIGINT")
        status = 1
    }
    if !TerminationSignal.isRequested {
        print("fbcheck: error: SIGINT did not set the termination flag")
        status = 1
    }
    return status
}

/// The default run: the scene animates until the frame limit, SIGINT or
/// SIGTERM (the loop sees the flag) or an error ends the loop, with touch
/// input, a touch script or the drag checks when asked for. Returns the
/// status and the error of a screendump asked for after a touch script.
func runInteractive(_ options: Options, config: BoardConfig, scene: DemoScene, loop: RenderLoop, chrome: DemoChrome?,
                    touchScript: TouchScript, panelWidth: Int, panelHeight: Int) -> (status: Int32, handshakeError: HandshakeError?) {
    var status: Int32 = 0
    var handshakeError: HandshakeError?
    // With --touch or a board touch-device, input is read meanwhile:
    // drag a layer, pinch to zoom it (TouchControl).
    // A touch script reads its own uinput touchscreen (path backend).
    var touchBoard = config
    let scripted = touchScript.isEmpty ? nil : ScriptedTouchscreen(width: panelWidth, height: panelHeight)
    if let scripted { touchBoard.touchDevice = scripted.node }
    let touch = options.touch || touchBoard.touchDevice != nil
        ? TouchControl(board: touchBoard, scene: scene, width: panelWidth, height: panelHeight, chrome: chrome) : nil
    if !touchScript.isEmpty {
        if let scripted, let touch { status = touchScript.play(on: scripted, touch, loop) } else { status = 1 }
        if status == 0, let name = options.screendump {
            do throws(HandshakeError) { try ScreendumpHandshake.request(name) } catch { handshakeError = error }
        }
    }
    if options.dragCheck {
        status = options.uinputDrag
            ? touch?.uinputDragCheck(loop, width: panelWidth, height: panelHeight) ?? 1
            : touch?.dragCheck(loop, width: panelWidth, height: panelHeight) ?? 1
    }
    let turns = !options.still && options.scene != "orbit" && options.scene != "pacer"
    while status == 0 && !options.dragCheck && touchScript.isEmpty && loop.isRunning {
        if let touch { touch.waitAndDispatch(loop, timeoutMilliseconds: turns ? 50 : 200) }
        else { _ = loop.waitUntil(timeoutNanoseconds: appWaitNanoseconds(turns ? 50_000_000 : 200_000_000)) { _ in false } }
        // A turn of the app's run loop: the showcase's property changes
        // and new animations, committed together. Without input of its
        // own, a still scene turns only when the run loop has work (a
        // posted block, an animation that ended, a completion handler).
        if turns { loop.update { _ in AppRunLoop.current.runTurn { scene.turn(at: AppRunLoop.current.now) } } }
        else if touch == nil && AppRunLoop.current.hasPendingWork { loop.update { _ in AppRunLoop.current.runTurn() } }
        // The HUD's figures, a few times a second (app thread).
        if let chrome, chrome.refresh(with: loop.statistics, at: MonotonicClock().now) { loop.commit() }
    }
    if let touch { print("fbcheck: \(touch.touchCount) touch events routed") }
    return (status, handshakeError)
}

/// The run's figures, then its end checks: loop and handshake errors,
/// frames shown, pacing, missed vblanks. Non-zero when one failed.
func report(_ options: Options, loop: RenderLoop, presenter: FramePresenter, kms: KMSPresenter?, busyCount: Int,
            flipLog: FlipLog?, handshakeError: HandshakeError?) -> Int32 {
    var status: Int32 = 0
    let stats = loop.statistics
    let period = presenter.refreshIntervalNanoseconds
    print("fbcheck: \(stats.summary)")
    print("fbcheck: refresh period \(formatMilliseconds(period)), flips \(presenter.flipsWaitForVBlank ? "wait for vblank" : "complete at once (held to the period)"), "
          + "\(busyCount) EBUSY")
    if let kms {
        let k = kms.statistics
        print("fbcheck: \(kms.committer.apiName) commits: \(k.modesets) modesets, \(k.flips) flips, "
              + "\(k.damageClipCommits) with damage clips; master lost \(k.masterLosses)×, regained \(k.regains)×, "
              + "\(k.failedMasterAttempts) failed drmSetMaster; VT releases \(k.vtReleases), acquires \(k.vtAcquires); "
              + "\(k.hotplugEvents) hotplug events, \(k.connectorPollChanges) changes polled, \(k.disconnections) disconnections, \(k.reconnections) reconnections (\(k.modeChanges) to another mode), "
              + "\(k.failedCommits) failed commits, \(k.recoveries) recoveries")
        if k.damageClipCommits > 0 {
            print("fbcheck: damage clips: \(k.damageClipRects) rects, \(k.damageClipPixels) px in \(k.damageClipCommits) flips "
                  + "(the screen: \(kms.output.width * kms.output.height) px a flip without them)")
        }
        if options.expectDamageClips {
            if !kms.committer.supportsDamageClips {
                print("fbcheck: error: damage clips expected, but \(kms.committer.apiName) commits"
                      + (kms.committer.apiName == "atomic" ? " and the primary plane has no FB_DAMAGE_CLIPS" : " cannot carry them"))
                status = 1
            } else if k.damageClipCommits == 0 || k.flips == 0 {
                print("fbcheck: error: \(k.flips) flips, none with damage clips")
                status = 1
            }
        }
    }
    print("fbcheck: frame intervals: \(stats.histogramDescription)")
    if let error = loop.error {
        print("fbcheck: error: \(error.description)")
        status = 1
    }
    if let handshakeError {
        print("fbcheck: error: \(handshakeError.description)")
        status = 1
    }
    if options.framesGiven && !options.expectIdle && stats.framesShown < options.frames && !TerminationSignal.isRequested {
        print("fbcheck: error: \(stats.framesShown) of \(options.frames) frames shown")
        status = 1
    }
    // Flip timestamps are whole microseconds: allow 10 µs of rounding.
    if options.checkPacing && stats.intervalCount > 0 && stats.shortestIntervalNanoseconds < period - 10_000 {
        print("fbcheck: error: flips \(formatMilliseconds(stats.shortestIntervalNanoseconds)) apart, less than the refresh period")
        status = 1
    }

    if let flipLog, let maxMissed = options.maxMissedVBlanks,
       vblankCheck(flipLog, period: period, flipsWaitForVBlank: presenter.flipsWaitForVBlank, maxMissed: maxMissed) != 0 {
        status = 1
    }
    return status
}

/// The scene named `name` (one of `DemoCatalog.names`, or "pacer"), at
/// rest; orbit for an unknown name (run() checks names first).
func makeScene(_ name: String, width: Double, height: Double) -> any DemoScene {
    if name == "pacer" { return PacerScene(width: width, height: height) }
    if name == "blink" { return BlinkScene(width: width, height: height) }
    return DemoCatalog.make(name, width: width, height: height) ?? OrbitScene(width: width, height: height)
}

/// User plus system CPU time of this process, in clock ticks (1/100 s on
/// Linux), from /proc/self/stat; 0 if it cannot be read.
func cpuTicks() -> Int {
    guard let bytes = try? System.readFile("/proc/self/stat"),
          let paren = bytes.lastIndex(of: UInt8(ascii: ")")) else { return 0 }
    // After "pid (comm)": state is field 3, utime 14, stime 15.
    let fields = bytes[(paren + 1)...].split(separator: UInt8(ascii: " "))
    guard fields.count > 12 else { return 0 }
    let utime = Int(String(decoding: fields[11], as: UTF8.self)) ?? 0
    let stime = Int(String(decoding: fields[12], as: UTF8.self)) ?? 0
    return utime + stime
}

run()

/// How long the app thread may sleep, at most `limit`: until the app run
/// loop's next animation event (`AppRunLoop.nextEventTime`), plus 1 ms so
/// the turn after finds it over.
func appWaitNanoseconds(_ limit: Int64) -> Int64 {
    guard let t = AppRunLoop.current.nextEventTime else { return limit }
    let until = (t - MonotonicClock().now) * 1e9 + 1_000_000
    return until <= 0 ? 0 : (until >= Double(limit) ? limit : Int64(until))
}
