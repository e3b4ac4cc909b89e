// fbdemo: FBRuntime's demo program, the same source for the host and for
// the board (Embedded Swift, aarch64).
//
//   fbdemo [--headless] [--frames N] [--size WxH] [--out DIR] [SCENE]
//
// Until the KMS backend lands (the render-loop issue) every run is headless:
// frames are rendered at 60 Hz of simulated time and written as PNG files.
import CPosix
import FBRuntime
import ImageIO
import Raster

fbr_line_buffer_stdout()

struct Options {
    var headless = false
    var frames = 24
    var width = 320
    var height = 240
    var outDirectory = "out/demo"
    var scene = "orbit"
}

func usage(_ message: String) -> Never {
    fbr_write_stderr("fbdemo: \(message)\nusage: fbdemo [--headless] [--frames N] [--size WxH] [--out DIR] [orbit]\n")
    exit(2)
}

func parseOptions(_ arguments: [String]) -> Options {
    var options = Options()
    var i = 1
    func value() -> String {
        i += 1
        guard i < arguments.count else { usage("\(arguments[i - 1]) needs a value") }
        return arguments[i]
    }
    while i < arguments.count {
        let a = arguments[i]
        switch a {
        case "--headless": options.headless = true
        case "--frames":
            guard let n = Int(value()), n > 0, n <= 100_000 else { usage("--frames takes 1…100000") }
            options.frames = n
        case "--size":
            let parts = value().split(separator: "x")
            guard parts.count == 2, let w = Int(parts[0]), let h = Int(parts[1]),
                  w > 0, h > 0, w <= RasterLimits.maxDimension, h <= RasterLimits.maxDimension else {
                usage("--size takes WxH, each 1…\(RasterLimits.maxDimension)")
            }
            options.width = w; options.height = h
        case "--out": options.outDirectory = value()
        case "-h", "--help": usage("help")
        default:
            if a.hasPrefix("-") { usage("unknown option \(a)") }
            options.scene = a
        }
        i += 1
    }
    return options
}

/// Pads `n` with zeros to `width` digits.
func zeroPadded(_ n: Int, _ width: Int) -> String {
    var s = String(n)
    while s.count < width { s = "0" + s }
    return s
}

func run() {
    let options = parseOptions(System.arguments())
    guard options.scene == "orbit" else { usage("unknown scene '\(options.scene)' (scenes: orbit)") }

    if !options.headless && System.exists("/dev/dri/card0") {
        print("fbdemo: a DRM device exists, but the KMS backend is not built yet; rendering headless")
    }

    guard let display = HeadlessDisplay(width: options.width, height: options.height) else {
        usage("cannot allocate a \(options.width)x\(options.height) frame")
    }
    let scene = OrbitScene(width: Double(options.width), height: Double(options.height), at: display.clock.now)
    let compositor = Compositor()

    do {
        try System.makeDirectories(options.outDirectory)
    } catch {
        fbr_write_stderr("fbdemo: \(error.description)\n")
        exit(1)
    }
    for frame in 0..<options.frames {
        scene.advance(to: display.clock.now)
        display.renderFrame(scene.root, with: compositor)
        let path = options.outDirectory + "/frame-" + zeroPadded(frame, 4) + ".png"
        do {
            try PNG.write(display.framebuffer.view, to: path)
        } catch {
            fbr_write_stderr("fbdemo: \(error.description)\n")
            exit(1)
        }
    }
    print("fbdemo: wrote \(options.frames) frames (\(options.width)x\(options.height), scene \(options.scene)) to \(System.absolutePath(options.outDirectory))/frame-*.png")
}

run()
