// soakprobe: memory over a long run of a demo scene (issue #10).
//
//   soakprobe [--frames N] [--warmup N] [--scene showcase|orbit] [--size WxH]
//             [--max-growth-kib K] [--report-every N]
//
// The scene runs as on a board — the app thread's run loop turning (the
// showcase changes properties and adds animations each turn, every three
// frames: 50 ms at 60 Hz), each turn's commit captured for the render
// thread, the real `RenderLoop` rendering on its own thread through the
// compositor — but on simulated time (`SimulatedFrameTime`: sleeping jumps
// the clock) and into an in-memory presenter whose flips complete at once,
// so 100,000 frames of 60 Hz (28 minutes of scene time) take minutes.
//
// The resident size (`/proc/self/statm`, pages × page size) and the heap
// in use (glibc's `mallinfo2`: bytes handed out by malloc and not freed,
// `Tests/SoakMemory`)
// are printed after `--warmup` frames (default 1,200: 20 s of scene time,
// every part of the showcase has run and the caches and pools have
// settled), every `--report-every` frames and at the end, with the peak
// of the samples after warm-up and the process's peak (`ru_maxrss`). Fails
// (exit 1) when the resident size at the end exceeds the one after warm-up
// by more than `--max-growth-kib` (default 1,024 KiB), or the loop stops
// with an error. The last line is `soakprobe: N passed, M failed`.
import CPosix
import DemoScenes
import FBRuntime
import FBRuntimeTestSupport
import Glibc
import Raster
import SoakMemory

// MARK: Options

setvbuf(stdout, nil, _IOLBF, 0)     // progress lines through a pipe as they come

var frames = 100_000
var warmup = 1_200
var sceneName = "showcase"
var width = 160, height = 120
var maxGrowthKiB = 1_024
var reportEvery = 0

var arguments = CommandLine.arguments.dropFirst().makeIterator()
func usage(_ message: String) -> Never {
    print("soakprobe: \(message)\nusage: soakprobe [--frames N] [--warmup N] [--scene showcase|orbit] [--size WxH] [--max-growth-kib K] [--report-every N]")
    exit(2)
}
while let a = arguments.next() {
    func value() -> String { guard let v = arguments.next() else { usage("\(a) needs a value") }; return v }
    switch a {
    case "--frames": guard let v = Int(value()), v > 0 else { usage("bad --frames") }; frames = v
    case "--warmup": guard let v = Int(value()), v >= 0 else { usage("bad --warmup") }; warmup = v
    case "--scene": sceneName = value(); guard sceneName == "showcase" || sceneName == "orbit" else { usage("unknown scene '\(sceneName)'") }
    case "--size":
        let parts = value().split(separator: "x")
        guard parts.count == 2, let w = Int(parts[0]), let h = Int(parts[1]), w > 0, h > 0, w <= 4096, h <= 4096 else { usage("bad --size") }
        width = w; height = h
    case "--max-growth-kib": guard let v = Int(value()), v >= 0 else { usage("bad --max-growth-kib") }; maxGrowthKiB = v
    case "--report-every": guard let v = Int(value()), v >= 0 else { usage("bad --report-every") }; reportEvery = v
    default: usage("unknown argument '\(a)'")
    }
}
if reportEvery == 0 { reportEvery = max(1_000, frames / 10) }

// MARK: Memory figures

/// Resident bytes: the second field of /proc/self/statm, in pages.
func residentBytes() -> Int {
    guard let f = fopen("/proc/self/statm", "r") else { return -1 }
    defer { fclose(f) }
    var size = 0, resident = 0
    guard withUnsafeMutablePointer(to: &size, { s in withUnsafeMutablePointer(to: &resident) { r in fscanf_two(f, s, r) } }) == 2 else { return -1 }
    return resident * Int(sysconf(Int32(_SC_PAGESIZE)))
}

/// fscanf is variadic, which Swift cannot call; read two numbers by hand.
func fscanf_two(_ f: UnsafeMutablePointer<FILE>, _ a: UnsafeMutablePointer<Int>, _ b: UnsafeMutablePointer<Int>) -> Int {
    var line = [CChar](repeating: 0, count: 256)
    guard fgets(&line, 256, f) != nil else { return 0 }
    let fields = String(cString: line).split(separator: " ")
    guard fields.count >= 2, let x = Int(fields[0]), let y = Int(fields[1]) else { return 0 }
    a.pointee = x; b.pointee = y
    return 2
}

/// Bytes malloc has handed out and not had back.
func heapInUse() -> Int { Int(fbr_heap_in_use()) }

func peakResidentBytes() -> Int {
    var usage = rusage()
    getrusage(RUSAGE_SELF.rawValue, &usage)
    return usage.ru_maxrss * 1024
}

func kib(_ bytes: Int) -> String { "\(bytes / 1024) KiB" }

// MARK: The display

/// An in-memory display on simulated time: the refresh period is 60 Hz of
/// `time`, flips complete as soon as they are queued (the loop then holds
/// each until its target, sleeping — which only moves the simulated
/// clock). The frame is copied by damage into an XRGB8888 screen, as a
/// scan-out buffer would be. Records nothing per frame.
final class SoakPresenter: FramePresenter {
    let width: Int
    let height: Int
    let refreshIntervalNanoseconds: Int64 = 16_666_667
    let flipsWaitForVBlank = false
    let screen: Surface<XRGB8888>
    let time: SimulatedFrameTime
    private(set) var isFlipPending = false
    private var prepared: PixelView<ARGB8888>?
    private var preparedDamage = IntRect.zero
    private var isModeSet = false

    init?(width: Int, height: Int, time: SimulatedFrameTime) {
        guard let screen = Surface<XRGB8888>(width: width, height: height) else { return nil }
        self.width = width
        self.height = height
        self.screen = screen
        self.time = time
    }

    func prepare(_ frame: PixelView<ARGB8888>, damage: IntRect, pieces: DamageList?) {
        prepared = frame
        preparedDamage = damage.intersection(IntRect(x: 0, y: 0, width: width, height: height))
    }

    func commit() throws(PresentError) -> PresentOutcome {
        guard let frame = prepared else { preconditionFailure("SoakPresenter: commit without a prepared frame") }
        prepared = nil
        ScanoutConversion.copy(frame, into: screen.view, rect: preparedDamage)
        if !isModeSet {
            isModeSet = true
            return .shown(timestamp: time.nanoseconds())
        }
        isFlipPending = true
        return .flipQueued
    }

    func waitForFlip(timeoutNanoseconds: Int64) throws(PresentError) -> Int64 {
        isFlipPending = false
        return time.nanoseconds()
    }
}

/// The app's clock: the same simulated nanoseconds, as media time.
final class SimulatedClock: Clock {
    let time: SimulatedFrameTime
    init(_ time: SimulatedFrameTime) { self.time = time }
    var now: MediaTime { MediaTime(time.nanoseconds()) / 1e9 }
}

// MARK: Run

let time = SimulatedFrameTime(startNanoseconds: 1_000_000_000)
guard let presenter = SoakPresenter(width: width, height: height, time: time) else { usage("cannot make a \(width)x\(height) display") }
let appLoop = AppRunLoop(clock: SimulatedClock(time))
AppRunLoop.current = appLoop
let scene: any DemoScene = sceneName == "showcase"
    ? ShowcaseScene(width: Double(width), height: Double(height)) : OrbitScene(width: Double(width), height: Double(height))
scene.root.isDisplayRoot = true
let loop = RenderLoop(root: scene.root, presenter: presenter, time: time)
loop.frameLimit = warmup + frames
loop.attach(to: appLoop)

print("soakprobe: scene \(sceneName), \(width)x\(height), \(warmup) warm-up frames then \(frames) frames; "
      + "resident at start-up \(kib(residentBytes())), heap \(kib(heapInUse()))")
let started = System.monotonicNanoseconds()
do { try loop.start() } catch { print("soakprobe: cannot start the render thread: \(error)"); exit(1) }
guard loop.waitUntil(timeoutNanoseconds: 60_000_000_000, { $0.framesShown >= 1 }) else {
    print("soakprobe: the first frame did not come"); exit(1)
}
loop.update { _ in scene.startAnimations(at: appLoop.clock.now) }     // as fbdemo does

/// Turns the app's run loop every three frames until `target` frames are
/// shown (or the loop stops).
func run(until target: Int) {
    var next = loop.statistics.framesShown + 3
    while loop.isRunning && loop.statistics.framesShown < target {
        if !loop.waitUntil(timeoutNanoseconds: 5_000_000_000, { $0.framesShown >= min(next, target) }) {
            let s = loop.statistics
            print("soakprobe: no frame for 5 s: \(s.framesRendered) rendered, \(s.framesShown) shown, \(s.idleWaits) idle waits, "
                  + "\(s.commitsApplied) commits applied")
        }
        if loop.statistics.framesShown >= next {
            loop.update { _ in appLoop.runTurn { scene.turn(at: appLoop.clock.now) } }
            next = loop.statistics.framesShown + 3
        }
    }
}

run(until: warmup)
let startResident = residentBytes(), startHeap = heapInUse()
let soakStarted = System.monotonicNanoseconds()
print("soakprobe: after warm-up (frame \(loop.statistics.framesShown)): resident \(kib(startResident)), heap \(kib(startHeap))")
var peakResident = startResident, peakHeap = startHeap
var mark = warmup
while loop.isRunning && loop.statistics.framesShown < warmup + frames {
    mark = min(mark + reportEvery, warmup + frames)
    run(until: mark)
    let r = residentBytes(), h = heapInUse()
    peakResident = max(peakResident, r); peakHeap = max(peakHeap, h)
    let shown = loop.statistics.framesShown
    let seconds = Double(System.monotonicNanoseconds() - soakStarted) / 1e9
    print("soakprobe: frame \(shown - warmup) of \(frames): resident \(kib(r)), heap \(kib(h)) "
          + "(\(Int(Double(shown - warmup) / max(seconds, 1e-9))) frames/s)")
}
loop.stop()
let endResident = residentBytes(), endHeap = heapInUse()
peakResident = max(peakResident, endResident); peakHeap = max(peakHeap, endHeap)
let shown = loop.statistics.framesShown - warmup
let duration = Double(System.monotonicNanoseconds() - soakStarted) / 1e9
let total = Double(System.monotonicNanoseconds() - started) / 1e9

var passed = 0, failed = 0
print("soakprobe: \(shown) frames after warm-up in \(Int(duration)) s (\(Int(total)) s in all, "
      + "\(Int(Double(loop.statistics.framesShown) / 60)) s of scene time)")
print("soakprobe: resident start \(kib(startResident)), end \(kib(endResident)), peak \(kib(peakResident)) "
      + "(growth \(kib(endResident - startResident)); process peak \(kib(peakResidentBytes())))")
print("soakprobe: heap in use start \(kib(startHeap)), end \(kib(endHeap)), peak \(kib(peakHeap)) (growth \(kib(endHeap - startHeap)))")
if let error = loop.error {
    print("FAIL soak: the render loop stopped: \(error.description)"); failed += 1
} else if shown < frames {
    print("FAIL soak: \(shown) of \(frames) frames shown"); failed += 1
} else { passed += 1 }
if endResident - startResident > maxGrowthKiB * 1024 {
    print("FAIL soak: resident size grew by \(kib(endResident - startResident)), more than \(maxGrowthKiB) KiB"); failed += 1
} else {
    print("PASS soak: resident growth \(kib(endResident - startResident)) ≤ \(maxGrowthKiB) KiB"); passed += 1
}
print("soakprobe: \(passed) passed, \(failed) failed")
exit(failed == 0 ? 0 : 1)
