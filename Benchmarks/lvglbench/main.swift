// lvglbench: the FBRuntime side of `scripts/bench lvgl`. Builds one of
// LVGL's benchmark scenes (../shared/lvgl-benchmark-scenes.md, 0–15) as a
// layer tree, renders it frame after frame at 60 Hz of scene time with
// one compositor and one back buffer (only the damage is redrawn, as the
// render loop does), and prints one line for the driver
// (Benchmarks/lvgl/bench.py):
//
//   result scene=N mean_ms=X p95_ms=Y dirty_pct=Z allocs=A
//
// The app's changes for a frame (positions, colours, scroll offsets: the
// same functions as the LVGL side) are made before the timer starts, as
// the LVGL side sets its styles before `lv_refr_now`; the timed part is
// the compositor's frame: animation evaluation, damage, drawing.
//
//   lvglbench --scene N --size WxH [--frames F] [--warmup W] [--png PATH]
//             [--assets DIR] [--lorem FILE] [--font FILE]
import CPosix
import FBRuntime
import ImageIO
import MallocCounter
import Raster

#if canImport(Glibc)
import Glibc
#endif

fbr_line_buffer_stdout()

struct Options {
    var scene = 0
    var width = 800, height = 480
    var frames = 300, warmup = 30
    var png: String?
    var assets = "out/lvglbench/assets"
    /// Default: `lorem.txt` in the assets folder (bench.py puts it there),
    /// else Benchmarks/lvgl/lorem.txt.
    var lorem: String?
    var font = "/usr/share/fonts/truetype/dejavu/DejaVuSans.ttf"
}

func fail(_ message: String) -> Never {
    fbr_write_stderr("lvglbench: \(message)\n")
    exit(2)
}

func parseOptions() -> Options {
    var o = Options()
    var args = CommandLine.arguments.dropFirst()
    func value(_ flag: String) -> String {
        guard let v = args.popFirst() else { fail("\(flag) needs a value") }
        return v
    }
    func number(_ flag: String) -> Int {
        guard let n = Int(value(flag)), n >= 0 else { fail("\(flag) needs a whole number") }
        return n
    }
    while let a = args.popFirst() {
        switch a {
        case "--scene": o.scene = number(a)
        case "--frames": o.frames = max(1, number(a))
        case "--warmup": o.warmup = number(a)
        case "--png": o.png = value(a)
        case "--assets": o.assets = value(a)
        case "--lorem": o.lorem = value(a)
        case "--font": o.font = value(a)
        case "--size":
            let parts = value(a).split(separator: "x")
            guard parts.count == 2, let w = Int(parts[0]), let h = Int(parts[1]), w > 0, h > 0 else {
                fail("--size takes WIDTHxHEIGHT")
            }
            o.width = w; o.height = h
        default: fail("unknown option \(a)")
        }
    }
    return o
}

/// The whole file, or `nil` when it cannot be read.
func readText(_ path: String) -> String? {
    guard let f = fopen(path, "rb") else { return nil }
    defer { fclose(f) }
    var bytes: [UInt8] = []
    var chunk = [UInt8](repeating: 0, count: 65536)
    while true {
        let n = fread(&chunk, 1, chunk.count, f)
        if n <= 0 { break }
        bytes += chunk[0..<n]
    }
    return String(decoding: bytes, as: UTF8.self)
}

let options = parseOptions()
let assets: Assets
do { assets = try Assets(folder: options.assets) } catch { fail("cannot read the images in \(options.assets): \(error)") }
let font: Font
do { font = try Font(path: options.font) } catch { fail("\(error)") }
if let text = readText(options.lorem ?? options.assets + "/lorem.txt") ?? readText("Benchmarks/lvgl/lorem.txt") {
    Lorem.text = text
}

var builder = SceneBuilder(width: options.width, height: options.height, assets: assets, font: font)
if options.scene == 15 {
    // LVGL's layout of the widgets screen, which bench.py writes as it
    // runs the LVGL side of the scene.
    let path = options.assets + "/widgets-layout-\(options.width)x\(options.height).txt"
    guard let text = readText(path), let layout = WidgetsLayout(text: text) else {
        fail("scene 15 needs \(path), LVGL's layout, which Benchmarks/lvgl/bench.py writes (scripts/bench lvgl --scenes 15)")
    }
    builder.widgetsLayout = layout
}
guard let scene = builder.scene(options.scene) else {
    print("unsupported scene=\(options.scene)")
    exit(0)
}
guard let frame = Surface<ARGB8888>(width: options.width, height: options.height) else { fail("cannot allocate the frame") }

let compositor = Compositor()
let traceAllocations = getenv("FBR_ALLOC_TRACE").map { String(cString: $0) == "1" } ?? false
var times: [Double] = []
times.reserveCapacity(options.frames)
var damaged = 0
var allocations = 0
let screenPixels = Double(options.width * options.height)
for i in 0..<(options.warmup + options.frames) {
    // Frame i at i/60 s (LVGL's tick: whole milliseconds).
    let ms = i * 1000 / 60
    scene.update(i)
    let measuring = i >= options.warmup
    // `FBR_ALLOC_TRACE=1`: a backtrace of each allocation of measured
    // frames (stderr), to find where they come from.
    fbr_malloc_counter_trace(traceAllocations && measuring ? 1 : 0)
    fbr_malloc_counter_begin()
    let t0 = fbr_monotonic_ns()
    compositor.render(scene.root, at: MediaTime(Double(ms) / 1000), into: frame.view, clearColor: .black)
    let t1 = fbr_monotonic_ns()
    let allocated = Int(fbr_malloc_counter_end())
    if measuring {
        times.append(Double(t1 - t0) / 1e6)
        damaged += compositor.statistics.pixelsDamaged
        allocations += allocated
    }
}
if let png = options.png {
    do { try PNG.write(frame.view, to: png) } catch { fail("cannot write \(png): \(error)") }
}
let sorted = times.sorted()
let mean = times.reduce(0, +) / Double(times.count)
let p95 = sorted[min(sorted.count - 1, Int((Double(sorted.count - 1) * 0.95).rounded()))]
let dirty = 100 * Double(damaged) / Double(options.frames) / screenPixels
print("result scene=\(options.scene) mean_ms=\(mean) p95_ms=\(p95) dirty_pct=\(dirty) allocs=\(Double(allocations) / Double(options.frames))")
