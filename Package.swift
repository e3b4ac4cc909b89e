// swift-tools-version:6.2
//
// FBRuntime: a Core Animation–style UI runtime for embedded Linux boards.
//
// The core modules (Raster, FBRuntime, its display backends FBRuntimeKMS and
// FBRuntimeFBDev, Input) and the board programs (fbdemo, fbcheck,
// rastercheck) compile both as ordinary Swift on the host and as Embedded
// Swift for aarch64 Linux (see scripts/cross-build-arm64). They therefore use
// no Foundation, Dispatch, key paths, reflection or non-class existentials.
// Host-only helpers live in their own targets and are never a dependency of a
// core module.
import PackageDescription

// The board build (scripts/cross-build-arm64 sets FBR_BOARD_BUILD=1)
// optimises for size everywhere but in Raster, whose pixel loops must be
// inlined and unrolled for speed: the stripped board binary has a size
// budget (scripts/binary-size), and the layer tree, animation, text and
// device code is not where the frame time goes.
let boardSize: [SwiftSetting] = Context.environment["FBR_BOARD_BUILD"] == "1" ? [.unsafeFlags(["-Osize"])] : []

// Release builds of the runtime skip Swift's dynamic exclusivity checks:
// on layer-heavy frames (LVGL's benchmark scenes, `scripts/bench lvgl`)
// they took 25-30 % of the frame time, spread over every class property
// access of the layer walk. Debug builds, which the tests run, keep them,
// so an overlapping access is still caught there. (Tools version 6.2: a
// package with unsafe flags can still be a versioned dependency.)
let releaseSpeed: [SwiftSetting] = [.unsafeFlags(["-enforce-exclusivity=unchecked"], .when(configuration: .release))]

let package = Package(
    name: "FBRuntime",
    products: [
        .library(name: "Raster", targets: ["Raster"]),
        .library(name: "FBRuntime", targets: ["FBRuntime"]),
        // The display backends, for a program that drives a display
        // itself (the app shell opens one for an app).
        .library(name: "FBRuntimeKMS", targets: ["FBRuntimeKMS"]),
        .library(name: "FBRuntimeFBDev", targets: ["FBRuntimeFBDev"]),
        .library(name: "Input", targets: ["Input"]),
        // What an app imports: the shell that runs it (display, render loop,
        // touch, run loop, signals), touch input, image files and loading.
        .library(name: "AppShell", targets: ["AppShell"]),
        .library(name: "TouchInput", targets: ["TouchInput"]),
        .library(name: "KeyboardInput", targets: ["KeyboardInput"]),
        .library(name: "ImageIO", targets: ["ImageIO"]),
        .library(name: "ImageLoading", targets: ["ImageLoading"]),
        .library(name: "Controls", targets: ["Controls"]),
        .executable(name: "fbdemo", targets: ["fbdemo"]),
        .executable(name: "fbcheck", targets: ["fbcheck"]),
        .executable(name: "rastercheck", targets: ["rastercheck"]),
        .executable(name: "kmsprobe", targets: ["kmsprobe"]),
        .executable(name: "touchprobe", targets: ["touchprobe"]),
        .executable(name: "fbsim", targets: ["fbsim"]),
    ],
    targets: [
        // C shims: one header each, static inline wrappers for what Swift
        // cannot import (variadic functions, function-like macros, errno).
        .systemLibrary(name: "CPosix", path: "Sources/CPosix"),
        // Raster's long-fill string instruction (x86-64; a header, nothing to link).
        .systemLibrary(name: "CRasterFill", path: "Sources/CRasterFill"),
        .systemLibrary(name: "CDRM", path: "Sources/CDRM", pkgConfig: "libdrm",
                       providers: [.apt(["libdrm-dev"])]),
        .systemLibrary(name: "CInput", path: "Sources/CInput", pkgConfig: "libinput",
                       providers: [.apt(["libinput-dev", "libudev-dev"])]),
        // libxkbcommon: hardware keyboards' keymaps and compose tables (the
        // board links it; xkb-data and libx11-data hold the data it reads).
        .systemLibrary(name: "CXKBCommon", path: "Sources/CXKBCommon", pkgConfig: "xkbcommon",
                       providers: [.apt(["libxkbcommon-dev", "xkb-data", "libx11-data"])]),
        // FreeType (glyph outlines) and HarfBuzz (shaping) for text; the
        // board links them too.
        .systemLibrary(name: "CFreeType", path: "Sources/CFreeType", pkgConfig: "freetype2",
                       providers: [.apt(["libfreetype-dev", "libharfbuzz-dev"])]),
        // Peers for benchmarks and cross-checks in tests (host only).
        .systemLibrary(name: "CPixman", path: "Sources/CPixman", pkgConfig: "pixman-1",
                       providers: [.apt(["libpixman-1-dev"])]),
        .systemLibrary(name: "CPNG", path: "Sources/CPNG", pkgConfig: "libpng16",
                       providers: [.apt(["libpng-dev"])]),
        // JPEG through libjpeg-turbo (the board links it too).
        .systemLibrary(name: "CJPEG", path: "Sources/CJPEG", pkgConfig: "libjpeg",
                       providers: [.apt(["libjpeg62-turbo-dev"])]),
        // The desktop simulator's window (host only): SDL2 on X11 or Wayland.
        .systemLibrary(name: "CSDL2", path: "Sources/CSDL2", pkgConfig: "sdl2",
                       providers: [.apt(["libsdl2-dev"])]),
        // Tests only: cairo as a second opinion on path coverage.
        .systemLibrary(name: "CCairo", path: "Tests/CCairo", pkgConfig: "cairo",
                       providers: [.apt(["libcairo2-dev"])]),

        // Pixel kernels: no OS calls; no C dependencies but libm (below) and
        // one header-only inline function, the x86-64 long fill (CRasterFill).
        // libm only for `sqrt` in unoptimised builds (optimised ones use the
        // CPU's instruction): see FloatMath.squareRoot.
        .target(name: "Raster", dependencies: ["CRasterFill"], path: "Sources/Raster", swiftSettings: releaseSpeed, linkerSettings: [.linkedLibrary("m")]),
                // The system underneath, for hosted and Embedded Swift alike:
        // threads, a mutex and a condition variable over pthreads, system
        // errors and calls, the termination signals, a cost-bounded LRU.
        .target(name: "FBPlatform", dependencies: ["CPosix"], path: "Sources/FBPlatform",
                swiftSettings: boardSize + releaseSpeed, linkerSettings: [.linkedLibrary("pthread")]),
        // Text: fonts (FreeType faces, HarfBuzz shaping, fontconfig lookup
        // and fallback), glyph outlines and their cache, line layout.
        .target(name: "FBText", dependencies: ["Raster", "FBPlatform", "CFreeType", "CFontLookup"], path: "Sources/FBText",
                swiftSettings: boardSize + releaseSpeed),
        // Layers, animation, transactions, compositor, render loop, the
        // presenter protocol and its error type; text layers over FBText.
        // Re-exports FBPlatform and FBText (an app imports FBRuntime alone).
        .target(name: "FBRuntime", dependencies: ["Raster", "FBPlatform", "FBText", "CPosix"], path: "Sources/FBRuntime",
                swiftSettings: boardSize + releaseSpeed, linkerSettings: [.linkedLibrary("m"), .linkedLibrary("pthread")]),
        // The KMS display backend (libdrm): devices, outputs, dumb buffers,
        // legacy and atomic commits, the presenter, DRM master, VT switches,
        // hotplug.
        .target(name: "FBRuntimeKMS", dependencies: ["FBRuntime", "Raster", "CPosix", "CDRM", "Seat"], path: "Sources/FBRuntimeKMS",
                swiftSettings: boardSize + releaseSpeed),
        // The fbdev display backend (/dev/fbN): the device and its presenter.
        .target(name: "FBRuntimeFBDev", dependencies: ["FBRuntime", "Raster", "CPosix"], path: "Sources/FBRuntimeFBDev",
                swiftSettings: boardSize + releaseSpeed),
        // Fonts by family name and by character through fontconfig, loaded
        // at run time with dlopen (a board without fontconfig still runs).
        .target(name: "CFontLookup", path: "Sources/CFontLookup"),
        // libseat (seatd or logind), loaded at run time with dlopen (a board
        // without libseat1 opens its devices directly), and the seat
        // session over it: DRM and input devices through a seat manager.
        .target(name: "CSeat", path: "Sources/CSeat"),
        .target(name: "Seat", dependencies: ["CSeat", "CPosix"], path: "Sources/Seat", swiftSettings: boardSize + releaseSpeed),
        // libinput + libudev.
        .target(name: "Input", dependencies: ["CInput", "CPosix", "Seat", "CSeat"], path: "Sources/Input", swiftSettings: boardSize + releaseSpeed),
        // Hardware keyboards' evdev codes as keysyms and text through an
        // xkbcommon keymap (the board's layout), dead keys and Compose.
        .target(name: "KeyboardInput", dependencies: ["FBRuntime", "CXKBCommon"], path: "Sources/KeyboardInput",
                swiftSettings: boardSize + releaseSpeed),
        // libinput's events as the runtime's touches (DisplayOrientation):
        // the one module that knows both Input and FBRuntime.
        .target(name: "TouchInput", dependencies: ["FBRuntime", "Input", "Seat"], path: "Sources/TouchInput", swiftSettings: boardSize + releaseSpeed),
        // Image files through libpng (reading and writing) and libjpeg-turbo
        // (reading, downsampled at decode time); used by the demo and the
        // tests, never by the core modules.
        .target(name: "ImageIO", dependencies: ["Raster", "CPNG", "CJPEG", "CPosix"], path: "Sources/ImageIO"),
        // Decoding images off the app thread (worker pthreads), results
        // delivered on the app's run-loop turns: FBRuntime + ImageIO.
        .target(name: "ImageLoading", dependencies: ["FBRuntime", "ImageIO"], path: "Sources/ImageLoading", swiftSettings: boardSize + releaseSpeed),
        // Controls over the layer model and the touch router: theme, buttons,
        // switches, sliders, scroll views, lists. Embedded-ready.
        .target(name: "Controls", dependencies: ["FBRuntime", "Raster"], path: "Sources/Controls", swiftSettings: boardSize + releaseSpeed),

        // The app shell: one call runs an app (display choice, render loop,
        // input and touch routing, the app run loop, signals, restoring the
        // screen) with the options every app gets. Embedded-ready: apps on
        // the board link it.
        // The app shell's C side: the desktop simulator's window (SDL2 loaded
        // at run time with dlopen, so nothing links SDL; without SDL's headers,
        // as in the board's sysroot, it builds as "unavailable") and the
        // crash line naming the handler that trapped.
        .target(name: "CAppShell", path: "Sources/CAppShell"),
        .target(name: "AppShell", dependencies: ["FBRuntime", "FBRuntimeKMS", "FBRuntimeFBDev", "Raster", "Input", "TouchInput", "KeyboardInput", "ImageIO", "CPosix", "Seat",
                                               "CAppShell"],
                path: "Sources/AppShell", swiftSettings: boardSize),

        // The demo scenes (orbit, showcase, the board demos) and their touch
        // handling, shared by fbdemo, fbcheck and the desktop simulator fbsim.
        .target(name: "DemoScenes", dependencies: ["AppShell", "FBRuntime", "Input", "TouchInput", "Raster", "ImageIO", "ImageLoading", "Controls"], path: "Sources/DemoScenes",
                swiftSettings: boardSize),
        // Each demo scene's scripted touch and settling time, for fbcheck's
        // --demo-touch on the emulated board and the scene tests: test
        // material, so not in DemoScenes (fbdemo links none of it).
        .target(name: "DemoTouchScripts", dependencies: ["DemoScenes", "FBRuntime", "Controls"], path: "Sources/DemoTouchScripts",
                swiftSettings: boardSize),
        // The demo app, on the host and on the board: the scenes over the app
        // shell, a chooser or one scene (scripts/demo, the deploy unit).
        .executableTarget(name: "fbdemo", dependencies: ["AppShell", "Controls", "DemoScenes", "FBRuntime"],
                          path: "Sources/fbdemo", swiftSettings: boardSize),
        // What the VM and board checks need and no app does: the screendump
        // handshake with the host, a committer that injects commit failures.
        .target(name: "FBRuntimeTesting", dependencies: ["FBRuntime", "FBRuntimeKMS", "CPosix"], path: "Sources/FBRuntimeTesting",
                swiftSettings: boardSize),
        // Deterministic doubles for the render loop's tests (swift-nio's
        // NIOEmbedded idea): a display in memory on a simulated vblank
        // clock, and that clock. Core only, no backend; no app links it.
        .target(name: "FBRuntimeTestSupport", dependencies: ["FBRuntime", "Raster", "CPosix"], path: "Sources/FBRuntimeTestSupport",
                swiftSettings: boardSize),
        // The check program of the VM and emulated-board tests (scripts/vm-test,
        // scripts/qemu-board; never deployed): the scenes through the render
        // loop with screendump handshakes, pacing, idle, touch-script, DRM
        // master and fault checks.
        .executableTarget(
            name: "fbcheck",
            dependencies: ["AppShell", "FBRuntime", "FBRuntimeKMS", "FBRuntimeFBDev", "FBRuntimeTesting", "Input", "TouchInput", "Raster", "ImageIO", "CPosix", "CInput", "Seat",
                           "DemoScenes", "DemoTouchScripts", "KeyboardInput"],
            path: "Sources/fbcheck", swiftSettings: boardSize
        ),
        // Renders a fixed scene with every Raster kernel and prints a checksum;
        // host and aarch64 builds must print the same value.
        .executableTarget(name: "rastercheck", dependencies: ["Raster", "CPosix"], path: "Sources/rastercheck"),
        // KMS smoke test run inside a QEMU guest by scripts/vm-test (also
        // usable by hand on a board): dumb buffers, set-CRTC, page flips,
        // through FBRuntimeKMS's types but without its presenter.
        .executableTarget(name: "kmsprobe", dependencies: ["FBRuntime", "FBRuntimeKMS", "FBRuntimeTesting", "Raster", "CPosix"], path: "Sources/kmsprobe"),

        // Touch test for the VM (scripts/vm-test): a uinput touchscreen read
        // back through libinput, routed and recognised.
        .executableTarget(name: "touchprobe", dependencies: ["FBRuntime", "Input", "TouchInput", "CInput", "CPosix"],
                          path: "Sources/touchprobe"),

        // The desktop simulator (host only, never built for the board): the
        // demo scenes through the render loop in an SDL2 window, the mouse
        // as one touch (scripts/sim, scripts/sim-test).
        .executableTarget(name: "fbsim",
                          dependencies: ["FBRuntime", "FBRuntimeTesting", "AppShell", "DemoScenes", "Input", "Raster", "ImageIO", "CPosix", "CSDL2"],
                          path: "Sources/fbsim"),

        // Benchmarks against the peers (host only): scripts/bench.
        .executableTarget(name: "rasterbench", dependencies: ["Raster", "CPixman", "CCairo", "CPosix", "TestSupport"],
                          path: "Benchmarks/rasterbench"),
        // A malloc hook counting heap allocations (host only): the scene
        // benchmark and the zero-allocation tests link it.
        .target(name: "MallocCounter", path: "Benchmarks/MallocCounter"),
        // LVGL's benchmark scenes as layer trees (host only): the FBRuntime
        // side of `scripts/bench lvgl` (Benchmarks/lvgl drives both engines).
        .executableTarget(name: "lvglbench",
                          dependencies: ["FBRuntime", "Controls", "Raster", "ImageIO", "CPosix", "MallocCounter"],
                          path: "Benchmarks/lvglbench"),
        .executableTarget(name: "scenebench",
                          dependencies: ["FBRuntime", "Controls", "Raster", "ImageIO", "CCairo", "CPosix", "TestSupport", "MallocCounter"],
                          path: "Benchmarks/scenebench"),

        // libFuzzer targets (host only): scripts/fuzz builds this with
        // -sanitize=fuzzer,address; libFuzzer supplies main.
        // FuzzSupport: the byte reader and the driver entry both share.
        .target(name: "FuzzSupport", dependencies: ["CPosix"], path: "Fuzz/FuzzSupport"),
        .executableTarget(name: "fuzz-raster", dependencies: ["Raster", "ImageIO", "CPosix", "FuzzSupport"],
                          path: "Fuzz/fuzz-raster",
                          swiftSettings: [.unsafeFlags(["-parse-as-library"])]),
        // libFuzzer targets on FBRuntime (host only): the stroker, the
        // board-config parser and the animation evaluator (scripts/fuzz).
        .executableTarget(name: "fuzz-runtime", dependencies: ["FBRuntime", "Raster", "CPosix", "FuzzSupport"],
                          path: "Fuzz/fuzz-runtime",
                          swiftSettings: [.unsafeFlags(["-parse-as-library"])]),

        // The mutation storm (host only): app-side threads change one layer
        // tree while the render loop renders as fast as it can; scripts/stress
        // builds it with ThreadSanitizer and AddressSanitizer.
        .executableTarget(name: "stressprobe", dependencies: ["FBRuntime", "Raster", "CPosix"], path: "Tests/Stress",
                          swiftSettings: [.swiftLanguageMode(.v5)]),
        // Memory over a long headless run of a demo scene (host only):
        // scripts/soak.
        .target(name: "SoakMemory", path: "Tests/SoakMemory"),
        .executableTarget(name: "soakprobe", dependencies: ["FBRuntime", "FBRuntimeTestSupport", "DemoScenes", "Raster", "CPosix", "SoakMemory"],
                          path: "Tests/Soak", swiftSettings: [.swiftLanguageMode(.v5)]),

        // Host-only test helpers (Foundation allowed): guarded buffers, goldens.
        .target(name: "TestSupport", dependencies: ["Raster", "ImageIO", "CCairo"], path: "Tests/TestSupport"),
        // SVGCorpus holds the SVG oracle corpus's files, read from the
        // checkout (as Tests/Goldens), not built.
        .testTarget(name: "RasterTests", dependencies: ["Raster", "ImageIO", "TestSupport", "CCairo"], path: "Tests/RasterTests",
                    exclude: ["SVGCorpus"]),
        .testTarget(name: "FBRuntimeTests", dependencies: ["FBRuntime", "FBText", "FBPlatform", "Raster", "ImageIO", "ImageLoading", "TestSupport", "CCairo", "CFreeType", "MallocCounter",
                                                          "FBRuntimeTestSupport"], path: "Tests/FBRuntimeTests"),
        .testTarget(name: "FBRuntimeKMSTests", dependencies: ["FBRuntimeKMS", "FBRuntime", "FBRuntimeTesting", "Raster", "CPosix"],
                    path: "Tests/FBRuntimeKMSTests"),
        .testTarget(name: "FBRuntimeFBDevTests", dependencies: ["FBRuntimeFBDev", "FBRuntime", "FBRuntimeTestSupport", "Raster", "CPosix", "TestSupport",
                                                               "MallocCounter"], path: "Tests/FBRuntimeFBDevTests"),
        // An app whose handlers throw and trap, run by AppShellTests.
        .executableTarget(name: "apptrapprobe", dependencies: ["AppShell", "FBRuntime"], path: "Tests/AppTrapProbe"),
        // Writes a settings file until killed, for AppShellTests' power-loss test.
        .executableTarget(name: "settingsprobe", dependencies: ["AppShell", "FBRuntime", "CPosix"], path: "Tests/SettingsProbe"),
        .testTarget(name: "AppShellTests", dependencies: ["AppShell", "FBRuntime", "FBRuntimeTestSupport", "Input", "TouchInput", "KeyboardInput",
                                                         "apptrapprobe", "settingsprobe"],
                    path: "Tests/AppShellTests"),
        .testTarget(name: "InputTests", dependencies: ["Input", "TouchInput", "FBRuntime", "FBRuntimeTestSupport", "DemoScenes", "DemoTouchScripts", "Controls", "TestSupport"], path: "Tests/InputTests"),
        .testTarget(name: "SeatTests", dependencies: ["Seat"], path: "Tests/SeatTests"),
        .testTarget(name: "KeyboardInputTests", dependencies: ["KeyboardInput", "FBRuntime"], path: "Tests/KeyboardInputTests"),
        .testTarget(name: "ControlsTests", dependencies: ["Controls", "FBRuntime", "Raster", "ImageIO", "TestSupport", "KeyboardInput"], path: "Tests/ControlsTests"),
    ]
)
