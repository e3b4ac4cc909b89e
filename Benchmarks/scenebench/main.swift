// scenebench: the compositor on a 1920×1080 scene of 200 moving layers,
// and on one 64×64 layer moving over the same scene at rest; one thread.
// Prints ms per frame (p50, p99), pixels written per frame (the
// compositor's FrameStatistics) and heap allocations per frame (the
// MallocCounter hook), each against its target, then cairo drawing the
// comparable scene (no shadows) as a peer. Rows go to out/bench/scene.json.
// Run through `scripts/bench scene` (release build).
import CPosix
import FBRuntime
import ImageIO
import MallocCounter
import Raster

fbr_line_buffer_stdout()

let width = Int(BenchScene.width), height = Int(BenchScene.height)
/// 2 s of scene time: every turning layer passes 45°, so the surface pool
/// holds the largest passes the scene needs before measuring starts.
let warmUpFrames = 120
/// `FBR_BENCH_FRAMES=N` measures N frames per case (default 300).
let measuredFrames = getenv("FBR_BENCH_FRAMES").flatMap { Int(String(cString: $0)) }.map { max(10, $0) } ?? 300
/// `FBR_BENCH_ONLY=full|small|peer|content|text|…` runs one case (for `perf record`;
/// `text` is the first of the content cases alone).
let only: String? = getenv("FBR_BENCH_ONLY").map { String(cString: $0) }
func wanted(_ name: String) -> Bool { only == nil || only == name }
/// `FBR_ALLOC_TRACE=1` prints a backtrace of each allocation in the first
/// measured frame of each case (stderr), to find where they come from.
let traceAllocations = getenv("FBR_ALLOC_TRACE").map { String(cString: $0) == "1" } ?? false
let frameInterval = 1.0 / 60
let startTime: MediaTime = 1

guard let frame = Surface<ARGB8888>(width: width, height: height) else { fatalError("cannot allocate the frame") }

/// One frame as the render loop draws it: the compositor keeps the back
/// buffer's content between frames and redraws only the damage.
func renderFrame(_ compositor: Compositor, _ root: Layer, at time: MediaTime, into target: PixelView<ARGB8888>) {
    compositor.render(root, at: time, into: target)
}

struct Measurement {
    var p50 = 0.0, p99 = 0.0, mean = 0.0
    /// The rendering thread's own CPU time per frame (without the time the
    /// machine gave other processes meanwhile): p50 and p99.
    var cpuP50 = 0.0, cpuP99 = 0.0
    var pixelsWritten = 0, pixelsBlended = 0, offscreenPasses = 0
    /// Allocations per measured frame: mean and worst frame.
    var allocationsMean = 0.0, allocationsMax = 0
    /// Frames whose damage was painted in bands on several threads.
    var bandedFrames = 0
}

func percentile(_ sorted: [Double], _ p: Double) -> Double {
    sorted[min(sorted.count - 1, Int((Double(sorted.count - 1) * p).rounded()))]
}

/// This thread's CPU time, ns (CLOCK_THREAD_CPUTIME_ID).
func threadCPUTime() -> Int64 {
    var ts = timespec()
    clock_gettime(CLOCK_THREAD_CPUTIME_ID, &ts)
    return Int64(ts.tv_sec) * 1_000_000_000 + Int64(ts.tv_nsec)
}

/// Renders `warmUpFrames`, then `measuredFrames` at advancing times (60 Hz),
/// timing each (wall and thread CPU time) and counting its allocations.
func measure(_ root: Layer, _ compositor: Compositor) -> Measurement {
    var t = startTime
    for _ in 0..<warmUpFrames { renderFrame(compositor, root, at: t, into: frame.view); t += frameInterval }
    var times = [Double](repeating: 0, count: measuredFrames)
    var cpuTimes = [Double](repeating: 0, count: measuredFrames)
    var allocations = [Int](repeating: 0, count: measuredFrames)
    var pixels = 0, blended = 0, passes = 0
    var m = Measurement()
    for i in 0..<measuredFrames {
        fbr_malloc_counter_trace(traceAllocations && i == 0 ? 1 : 0)
        fbr_malloc_counter_begin()
        let c0 = threadCPUTime()
        let t0 = fbr_monotonic_ns()
        renderFrame(compositor, root, at: t, into: frame.view)
        let t1 = fbr_monotonic_ns()
        cpuTimes[i] = Double(threadCPUTime() - c0) / 1e6
        allocations[i] = Int(fbr_malloc_counter_end())
        fbr_malloc_counter_trace(0)
        times[i] = Double(t1 - t0) / 1e6
        pixels += compositor.statistics.pixelsWritten
        blended += compositor.statistics.pixelsBlended
        passes += compositor.statistics.offscreenPasses
        if compositor.statistics.paintBands > 1 { m.bandedFrames += 1 }
        t += frameInterval
    }
    let sorted = times.sorted()
    m.p50 = percentile(sorted, 0.5)
    m.p99 = percentile(sorted, 0.99)
    let cpuSorted = cpuTimes.sorted()
    m.cpuP50 = percentile(cpuSorted, 0.5)
    m.cpuP99 = percentile(cpuSorted, 0.99)
    m.mean = times.reduce(0, +) / Double(times.count)
    m.pixelsWritten = pixels / measuredFrames
    m.pixelsBlended = blended / measuredFrames
    m.offscreenPasses = passes / measuredFrames
    m.allocationsMean = Double(allocations.reduce(0, +)) / Double(measuredFrames)
    m.allocationsMax = allocations.max() ?? 0
    return m
}

func pad(_ s: String, _ width: Int) -> String {
    s.count >= width ? s + " " : s + String(repeating: " ", count: width - s.count)
}

/// Fixed-point formatting without Foundation.
func fixed(_ v: Double, _ digits: Int) -> String {
    var scale = 1.0
    for _ in 0..<digits { scale *= 10 }
    let n = Int((v * scale).rounded())
    let whole = n / Int(scale), frac = abs(n % Int(scale))
    var fracText = String(frac)
    while fracText.count < digits { fracText = "0" + fracText }
    return digits == 0 ? String(whole) : (n < 0 && whole == 0 ? "-" : "") + "\(whole).\(fracText)"
}

struct Row {
    var name: String
    var value: Double
    var unit: String
    /// At most this (nil: informational).
    var target: Double?
    var met: Bool { target.map { value <= $0 } ?? true }
}
var rows: [Row] = []
@MainActor func report(_ name: String, _ value: Double, _ unit: String, digits: Int = 2, target: Double? = nil) {
    let row = Row(name: name, value: value, unit: unit, target: target)
    rows.append(row)
    let targetText = target.map { "≤ " + fixed($0, digits) + " " + unit } ?? "info"
    print(pad(name, 50) + pad(fixed(value, digits) + " " + unit, 16) + pad(targetText, 14)
          + (target == nil ? "" : row.met ? "ok" : "MISSED"))
}

let hookActive = fbr_malloc_counter_is_active() != 0
print("scene benchmark, \(width)×\(height) ARGB8888, one thread, \(warmUpFrames) warm-up + \(measuredFrames) measured frames at 60 Hz of scene time")
if !hookActive { print("warning: the malloc hook is not active; allocation counts are meaningless") }
print("render: one compositor and one back buffer per case, so only damage is redrawn (what the render loop does)")
print(pad("case", 50) + pad("value", 16) + pad("target", 14))

_ = "out".withCString { mkdir($0, 0o755) }
_ = "out/bench".withCString { mkdir($0, 0o755) }

// Full motion: 200 layers, all moving.
let moving = BenchScene(shadows: true, animated: true, at: startTime)
if wanted("full") {
    let compositor = Compositor()
    let full = measure(moving.root, compositor)
    report("200 layers moving: ms per frame p50", full.p50, "ms")
    report("200 layers moving: ms per frame p99", full.p99, "ms", target: 8)
    // On a shared machine the wall clock also counts the time other
    // processes had the core: the thread's own CPU time tells the two apart.
    report("200 layers moving: CPU ms per frame p50 (the thread's own)", full.cpuP50, "ms")
    report("200 layers moving: CPU ms per frame p99 (the thread's own)", full.cpuP99, "ms")
    report("200 layers moving: pixels written per frame", Double(full.pixelsWritten), "px", digits: 0)
    report("200 layers moving: pixels blended per frame", Double(full.pixelsBlended), "px", digits: 0)
    report("200 layers moving: offscreen passes per frame", Double(full.offscreenPasses), "", digits: 0)
    report("200 layers moving: heap allocations per frame", full.allocationsMean, "", target: 0)
    report("200 layers moving: heap allocations, worst frame", Double(full.allocationsMax), "", digits: 0, target: 0)
    try? PNG.write(frame.view, to: "out/bench/scene-ours.png")
}
// The same on two threads (`Compositor.paintThreads`): the damage painted
// in two bands at once, as `RenderLoop` does on a board with two cores or
// more. Allocations of both threads count.
if wanted("full") || only == "full2" {
    let compositor = Compositor()
    compositor.paintThreads = 2
    fbr_malloc_counter_all_threads(1)
    let two = measure(moving.root, compositor)
    fbr_malloc_counter_all_threads(0)
    report("200 layers moving, 2 paint threads: ms per frame p50", two.p50, "ms")
    report("200 layers moving, 2 paint threads: ms per frame p99", two.p99, "ms", target: 8)
    report("200 layers moving, 2 paint threads: frames painted in 2 bands", Double(two.bandedFrames), "", digits: 0)
    report("200 layers moving, 2 paint threads: heap allocations per frame", two.allocationsMean, "", target: 0)
    report("200 layers moving, 2 paint threads: heap allocations, worst frame", Double(two.allocationsMax), "", digits: 0,
           target: 0)
}

// One small layer moving over the scene at rest.
if wanted("small") {
    let still = BenchScene(shadows: true, animated: false, at: startTime)
    _ = addSmallMover(to: still, at: startTime)
    let smallCompositor = Compositor()
    let small = measure(still.root, smallCompositor)
    report("one 64×64 layer moving: ms per frame p50", small.p50, "ms")
    report("one 64×64 layer moving: ms per frame p99", small.p99, "ms", target: 0.5)
    report("one 64×64 layer moving: pixels written per frame", Double(small.pixelsWritten), "px", digits: 0)
    report("one 64×64 layer moving: heap allocations per frame", small.allocationsMean, "", target: 0)
}

// The peer: the scene without shadows, ours and cairo's, at the same times.
if wanted("peer") {
    let plain = BenchScene(shadows: false, animated: true, at: startTime)
    let plainCompositor = Compositor()
    let oursPlain = measure(plain.root, plainCompositor)
    let peer = CairoPeer(target: frame)
    var cairoTimes: [Double] = []
    do {
        var t = startTime
        for i in 0..<(warmUpFrames + measuredFrames) {
            peer.prepare(plain.root, at: t)
            let t0 = fbr_monotonic_ns()
            peer.draw()
            let t1 = fbr_monotonic_ns()
            if i >= warmUpFrames { cairoTimes.append(Double(t1 - t0) / 1e6) }
            t += frameInterval
        }
        try? PNG.write(frame.view, to: "out/bench/scene-cairo.png")
    }
    let cairoSorted = cairoTimes.sorted()
    let cairoP50 = percentile(cairoSorted, 0.5)
    report("no shadows, 200 layers moving: ours p50", oursPlain.p50, "ms")
    report("no shadows, 200 layers moving: cairo p50 (drawing only)", cairoP50, "ms")
    report("no shadows: ratio cairo / ours (p50, > 1: we are faster)", cairoP50 / oursPlain.p50, "×")
}

// Content layers (issue #8): text, shapes, particles — ms per frame.
if wanted("content") || only == "text" {
    if let text = ContentScenes.text(at: startTime) {
        let m = measure(text.root, Compositor())
        report("text, \(text.glyphs) glyphs, size animating: ms p50", m.p50, "ms")
        report("text, \(text.glyphs) glyphs, size animating: ms p99", m.p99, "ms")
        report("text: heap allocations per frame", m.allocationsMean, "", target: 0)
    } else {
        print("text: skipped, \(ContentScenes.fontPath) is missing (fonts-dejavu-core)")
    }
}
if wanted("content") {
    let shapes = measure(ContentScenes.shapes(at: startTime), Compositor())
    report("20 shapes, 300-segment paths morphing: ms p50", shapes.p50, "ms")
    report("20 shapes, 300-segment paths morphing: ms p99", shapes.p99, "ms")
    report("shapes: heap allocations per frame", shapes.allocationsMean, "", target: 0)
    let particles = ContentScenes.emitter()
    let p = measure(particles.root, Compositor())
    report("emitter, \(particles.emitter.lastParticleCount) particles: ms p50", p.p50, "ms")
    report("emitter: ms p99", p.p99, "ms")
    report("emitter: heap allocations per frame", p.allocationsMean, "", target: 0)
    let depth = ContentScenes.emitter3D()
    let d = measure(depth.root, Compositor())
    report("emitter in 3-D, \(depth.emitter.lastParticleCount) particles, back to front: ms p50", d.p50, "ms")
    report("emitter in 3-D: ms p99", d.p99, "ms")
    report("emitter in 3-D: heap allocations per frame", d.allocationsMean, "", target: 0)
    let kinds = measure(ContentScenes.animationKinds(at: startTime), Compositor())
    report("keyframe gradient + 24 cards (keyframes, group, spring): ms p50", kinds.p50, "ms")
    report("keyframe gradient + 24 cards: ms p99", kinds.p99, "ms")
    report("animation kinds: heap allocations per frame", kinds.allocationsMean, "", target: 0)
}

// A list of N rows (issue 19): one row changes per frame. The commit (the
// app thread's capture of the change) and the frame (the render side
// applying it and drawing) should cost what the change costs, not what
// the list holds: the same scene at 1,000 and 10,000 layers.
if wanted("list") {
    var results: [(n: Int, commit: Double, frame: Double, carried: Double)] = []
    for n in [1_000, 10_000] {
        let root = Layer(name: "root")
        root.bounds = Rect(x: 0, y: 0, width: Double(width), height: Double(height))
        root.anchorPoint = .zero
        root.backgroundColor = Color(rgb: 0x101418)
        let list = Layer(name: "list")
        list.bounds = Rect(x: 0, y: 400, width: Double(width), height: Double(height))   // scrolled 10 rows down
        list.anchorPoint = .zero
        list.masksToBounds = true
        try! root.addSublayer(list)
        var rows: [Layer] = []
        for i in 0..<n {
            let row = Layer(name: "row")
            row.bounds = Rect(x: 0, y: 0, width: Double(width), height: 38)
            row.anchorPoint = .zero
            row.position = Point(x: 0, y: Double(i) * 40)
            row.backgroundColor = Color(rgb: i % 2 == 0 ? 0x30343A : 0x2A2E33)
            try! list.addSublayer(row)
            rows.append(row)
        }
        let compositor = Compositor()
        compositor.runsDisplayPass = false     // as RenderLoop's: the display pass ran at the commit
        var t = startTime
        let first = RenderTreeUpdate(capturing: root, at: t)
        first.apply()
        let renderRoot = first.root
        compositor.render(renderRoot, at: t, into: frame.view)
        var commits: [Double] = [], frames: [Double] = []
        var carried = 0
        for i in 0..<(warmUpFrames + measuredFrames) {
            t += frameInterval
            let row = rows[10 + i % 20]            // a visible row
            row.backgroundColor = Color(rgb: UInt32(0x406080 + (i % 64) * 0x010203))
            let t0 = fbr_monotonic_ns()
            let update = RenderTreeUpdate(capturing: root, at: t)
            let t1 = fbr_monotonic_ns()
            update.apply()
            compositor.render(renderRoot, at: t, into: frame.view)
            let t2 = fbr_monotonic_ns()
            if i >= warmUpFrames {
                commits.append(Double(t1 - t0) / 1e6)
                frames.append(Double(t2 - t1) / 1e6)
                carried += update.layerCount
            }
        }
        let c = percentile(commits.sorted(), 0.5), f = percentile(frames.sorted(), 0.5)
        results.append((n, c, f, Double(carried) / Double(measuredFrames)))
        report("list of \(n) rows, one changing: commit (app thread) ms p50", c, "ms", digits: 4)
        report("list of \(n) rows, one changing: layers a commit carries", Double(carried) / Double(measuredFrames), "", digits: 1)
        report("list of \(n) rows, one changing: frame (apply + render) ms p50", f, "ms", digits: 3)
    }
    if results.count == 2 {
        report("list: commit cost 10,000 / 1,000 rows (1: proportional to the change)", results[1].commit / results[0].commit, "×")
        report("list: frame cost 10,000 / 1,000 rows (1: proportional to the change)", results[1].frame / results[0].frame, "×")
    }
}

// Issue 21: a 10,000-row ListView flung at full speed. Per frame, the app
// side's step (cell reuse for the offset on screen; on some frames a touch
// of the next fling) and the render of the model tree are timed and their
// allocations counted apart; the app side's are split between frames with
// a touch event (a fling's start builds its keyframes) and frames of
// motion only (the steady state).
if wanted("fling") {
    let clock = ManualClock(now: startTime)
    AppRunLoop.current = AppRunLoop(clock: clock)
    let scene = ListFlingScene(at: startTime)
    let compositor = Compositor()
    var t = startTime
    var appTimes: [Double] = [], renderTimes: [Double] = [], frameTimes: [Double] = []
    appTimes.reserveCapacity(measuredFrames); renderTimes.reserveCapacity(measuredFrames)
    frameTimes.reserveCapacity(measuredFrames)
    var motionFrames = 0, motionAllocations = 0, touchFrames = 0, touchAllocations = 0, renderAllocations = 0
    var mostLayers = 0
    var travelled = 0.0, lastOffset = scene.list.visibleContentOffset.y
    // Warm-up longer than the other cases: the pools fill on the first
    // screenful, the glyph cache on the first few hundred rows.
    for i in 0..<(warmUpFrames * 3 + measuredFrames) {
        t += frameInterval
        clock.set(t)
        let measured = i >= warmUpFrames * 3
        fbr_malloc_counter_trace(traceAllocations && i == warmUpFrames * 3 ? 1 : 0)
        fbr_malloc_counter_begin()
        let t0 = fbr_monotonic_ns()
        let touched = scene.step(at: t)
        let t1 = fbr_monotonic_ns()
        let a = Int(fbr_malloc_counter_end())
        fbr_malloc_counter_begin()
        let t2 = fbr_monotonic_ns()
        compositor.render(scene.root, at: t, into: frame.view)
        let t3 = fbr_monotonic_ns()
        let r = Int(fbr_malloc_counter_end())
        fbr_malloc_counter_trace(0)
        guard measured else { continue }
        appTimes.append(Double(t1 - t0) / 1e6)
        renderTimes.append(Double(t3 - t2) / 1e6)
        frameTimes.append(Double(t3 - t0) / 1e6)
        if touched { touchFrames += 1; touchAllocations += a } else { motionFrames += 1; motionAllocations += a }
        renderAllocations += r
        mostLayers = max(mostLayers, scene.layerCount)
        let y = scene.list.visibleContentOffset.y
        travelled += abs(y - lastOffset)
        lastOffset = y
    }
    let seconds = Double(measuredFrames) * frameInterval
    report("10,000-row list flung: points scrolled per second", travelled / seconds, "pt/s", digits: 0)
    report("10,000-row list flung: layers in the list, most", Double(mostLayers), "", digits: 0, target: 30)
    report("10,000-row list flung: app step (cell reuse) ms p99", percentile(appTimes.sorted(), 0.99), "ms", digits: 3)
    report("10,000-row list flung: render ms p50", percentile(renderTimes.sorted(), 0.5), "ms")
    report("10,000-row list flung: app step + render ms p99", percentile(frameTimes.sorted(), 0.99), "ms", target: 8)
    report("10,000-row list flung: app heap allocations per frame of motion",
           Double(motionAllocations) / Double(max(motionFrames, 1)), "", target: 0)
    report("10,000-row list flung: app heap allocations per frame with a touch",
           Double(touchAllocations) / Double(max(touchFrames, 1)), "", digits: 1)
    report("10,000-row list flung: render heap allocations per frame",
           Double(renderAllocations) / Double(measuredFrames), "", target: 0)
    try? PNG.write(frame.view, to: "out/bench/scene-list-fling.png")
}

// MARK: JSON
var json = "{\n  \"width\": \(width),\n  \"height\": \(height),\n  \"layers\": \(moving.layerCount),\n"
json += "  \"warm_up_frames\": \(warmUpFrames),\n  \"measured_frames\": \(measuredFrames),\n"
json += "  \"render\": \"damage-tracked\",\n  \"malloc_hook_active\": \(hookActive),\n  \"rows\": [\n"
for (i, r) in rows.enumerated() {
    json += "    {\"case\": \"\(r.name)\", \"value\": \(fixed(r.value, 4)), \"unit\": \"\(r.unit)\", "
        + "\"target\": \(r.target.map { fixed($0, 2) } ?? "null"), \"met\": \(r.met)}"
    json += i + 1 < rows.count ? ",\n" : "\n"
}
json += "  ]\n}\n"
let outPath = "out/bench/scene.json"
if let f = fopen(outPath, "w") {
    fputs(json, f)
    fclose(f)
    print("rows written to \(outPath); frames in out/bench/scene-ours.png and scene-cairo.png")
}
let targeted = rows.filter { $0.target != nil }
let missed = targeted.filter { !$0.met }.count
print("targets: \(targeted.count - missed) met, \(missed) missed")
