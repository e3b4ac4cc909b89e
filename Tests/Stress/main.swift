// stressprobe: a mutation storm against the commit hand-off (issue #10).
//
//   stressprobe [--seconds S] [--seed N] [--mutators K] [--size WxH]
//               [--refresh-us U] [--font PATH]
//
// The real `RenderLoop` renders as fast as it can (a 1 ms refresh period on
// an in-memory presenter whose flips complete at once) while, for S
// seconds, the threads the runtime's threading contract allows work on one
// model tree (`Layer`, `Transaction`, `AppRunLoop`: the model tree belongs
// to the app thread; another thread may change it between turns with the
// transaction lock held):
//
// - the app thread runs `AppRunLoop.runTurn`: random property changes,
//   tree edits, animations added and removed, nested explicit transactions
//   with completion blocks; each turn's outermost commit captures the tree
//   for the render thread (`RenderLoop.attach(to:)`), and completion blocks
//   and delegates run there;
// - K mutator threads do the same with `Transaction.lock()`/`unlock()`
//   around each batch (their changes join the open implicit transaction,
//   or commit their own explicit ones under the lock);
// - a reader thread, under the lock, makes `presentation()` trees and hit
//   tests points;
// - the render thread applies the commits to its twins and renders.
//
// Each thread's choices come from its own seeded generator (the seed and
// the thread's index); the interleaving is the scheduler's. At the end the
// storm stops, the app thread removes every animation in one last
// transaction (so the final state is still), and the program checks:
// every completion block ran exactly once; every commit reached the render
// thread (commits applied = commits made + the loop's first); the render
// tree equals the model tree property by property; and the frame on screen
// equals a fresh single-threaded render of the final model tree (and of
// the render tree). The last line is `stressprobe: N passed, M failed`.
//
// Build it with `-sanitize=thread` or `-sanitize=address` (scripts/stress).
import CPosix
import FBRuntime
import Raster
import Synchronization

// MARK: Options

var seconds = 5.0
var seed: UInt64 = 1
var mutatorCount = 3
var width = 240, height = 160
var refreshMicroseconds: Int64 = 1000
var fontPath = "/usr/share/fonts/truetype/dejavu/DejaVuSans.ttf"   // Debian's fonts-dejavu-core; optional

var arguments = CommandLine.arguments.dropFirst().makeIterator()
func usage(_ message: String) -> Never {
    print("stressprobe: \(message)\nusage: stressprobe [--seconds S] [--seed N] [--mutators K] [--size WxH] [--refresh-us U] [--font PATH]")
    exit(2)
}
while let a = arguments.next() {
    func value() -> String { guard let v = arguments.next() else { usage("\(a) needs a value") }; return v }
    switch a {
    case "--seconds": guard let v = Double(value()), v >= 0, v <= 86_400 else { usage("bad --seconds") }; seconds = v
    case "--seed": guard let v = UInt64(value()) else { usage("bad --seed") }; seed = v
    case "--mutators": guard let v = Int(value()), (0...16).contains(v) else { usage("bad --mutators (0…16)") }; mutatorCount = v
    case "--size":
        let parts = value().split(separator: "x")
        guard parts.count == 2, let w = Int(parts[0]), let h = Int(parts[1]), (16...2048).contains(w), (16...2048).contains(h) else { usage("bad --size") }
        width = w; height = h
    case "--refresh-us": guard let v = Int64(value()), v > 0 else { usage("bad --refresh-us") }; refreshMicroseconds = v
    case "--font": fontPath = value()
    default: usage("unknown argument \(a)")
    }
}

var passed = 0, failed = 0
func check(_ ok: Bool, _ what: String) {
    if ok { passed += 1; print("PASS \(what)") } else { failed += 1; print("FAIL \(what)") }
}

// MARK: The scene

// Bad input the storm sets on purpose (NaN, huge geometry) is warned about
// once per layer: count the warnings rather than print them.
let warnings = Atomic<Int>(0)
Diagnostics.sink = { _ in warnings.add(1, ordering: .relaxed) }

let runLoop = AppRunLoop.current
let font = try? Font(path: fontPath)
if font == nil { print("stressprobe: no font at \(fontPath): no text layers") }
var images: [LayerContents] = []
for i in 0..<6 {
    images.append(Storm.makeImage(width: 8 + 8 * i, height: 6 + 5 * i, seed: seed &+ UInt64(i), opaque: i % 2 == 0))
}
let root = Layer(name: "root")
root.bounds = Rect(x: 0, y: 0, width: Double(width), height: Double(height))
root.anchorPoint = .zero
root.position = .zero
root.backgroundColor = Color(rgb: 0x202830)
let storm = Storm(root: root, width: Double(width), height: Double(height), font: font, images: images, maximumLayers: 60)
do {
    var rng = SeededRandom(seed: seed)
    for _ in 0..<20 {
        let layers = storm.treeLayers()
        try? layers[rng.below(layers.count)].addSublayer(storm.makeLayer(&rng))
    }
}
root.isDisplayRoot = true

guard let presenter = StormPresenter(width: width, height: height, refreshIntervalNanoseconds: refreshMicroseconds * 1000) else {
    usage("cannot make a \(width)x\(height) presenter")
}
let loop = RenderLoop(root: root, presenter: presenter)
loop.clearColor = .black
// Every outermost commit (any thread, lock held) goes to the render thread.
runLoop.onCommit = { t in
    storm.commits += 1
    loop.commit(at: t)
}

// MARK: The storm

let stop = Atomic<Bool>(false)
let start = System.monotonicNanoseconds()
let deadline = start + Int64(seconds * 1e9)

do { try loop.start() } catch { print("stressprobe: cannot start the render thread: \(error)"); exit(1) }

var mutatorCounts: [WorkerCounts] = []
var threads: [FBRuntime.Thread] = []
for index in 0..<mutatorCount {
    let counts = WorkerCounts()
    mutatorCounts.append(counts)
    let threadSeed = seed ^ (UInt64(index + 1) &* 0x9E37_79B9_7F4A_7C15)
    let thread = try! FBRuntime.Thread {
        var rng = SeededRandom(seed: threadSeed)
        while !stop.load(ordering: .relaxed) {
            Transaction.lock()
            let explicit = rng.chance(0.2)
            if explicit { Transaction.begin() }
            for _ in 0..<(1 + rng.below(6)) { counts.mutations += storm.mutate(&rng) }
            if explicit { Transaction.commit(); counts.transactions += 1 }
            var removed = storm.detached
            storm.detached.removeAll()
            Transaction.unlock()
            removed.removeAll()   // possibly the last references: model layers freed here, without the lock
            pause(Int64(rng.below(300_000)))
        }
    }
    threads.append(thread)
}

let readerCounts = WorkerCounts()
let reader = try! FBRuntime.Thread {
    var rng = SeededRandom(seed: seed ^ 0xDEAD_BEEF)
    while !stop.load(ordering: .relaxed) {
        Transaction.lock()
        let p = root.presentation()
        var modelCount = 0, presentationCount = 0
        func count(_ l: Layer, _ n: inout Int) { n += 1; for s in l.sublayers { count(s, &n) } }
        count(root, &modelCount)
        count(p, &presentationCount)
        if modelCount != presentationCount || p.model() !== root { readerCounts.mismatches += 1 }
        readerCounts.presentationReads += 1
        let t = runLoop.now
        for _ in 0..<4 {
            let point = Point(x: rng.double(0, Double(width)), y: rng.double(0, Double(height)))
            if let hit = root.hitTest(point, at: t) {
                readerCounts.hits += 1
                var top = hit
                while let s = top.superlayer { top = s }
                if top !== root { readerCounts.mismatches += 1 }   // a hit outside the tree
            }
            readerCounts.hitTests += 1
        }
        Transaction.unlock()
        pause(Int64(500_000 + rng.below(1_000_000)))
    }
}

// The app thread.
let appCounts = WorkerCounts()
var appRng = SeededRandom(seed: seed ^ 0xA99)
var turns = 0
while System.monotonicNanoseconds() < deadline {
    runLoop.runTurn {
        for _ in 0..<(1 + appRng.below(8)) { appCounts.mutations += storm.mutate(&appRng) }
        storm.detached.removeAll()
    }
    turns += 1
    pause(Int64(appRng.below(2_000_000)))
}
stop.store(true, ordering: .relaxed)
for t in threads { t.join() }
reader.join()
let stormNanoseconds = System.monotonicNanoseconds() - start

// MARK: The end: a still final state, every completion delivered

var finalTurns = 0
runLoop.runTurn {
    Transaction.disableActions = true
    for l in storm.treeLayers() { l.removeAllAnimations(); l.mask?.removeAllAnimations() }
    for w in storm.animated { w.layer?.removeAllAnimations() }
}
finalTurns += 1
// Completions of animations removed just now became due in that turn.
// Layers that left the tree may still run animations added implicitly
// (fades, property changes), held by the run loop until they end: turn
// until none is left (they are finite; at most 10 s), so nothing animates
// any more and every animation is freed before the exit. (LeakSanitizer
// cannot see a live `Animation` of most cases: Swift keeps an indirect
// enum's case in the spare bits of the box pointer, so LSan calls the box
// leaked. With none alive at exit, its leak check stays meaningful.)
let endDeadline = System.monotonicNanoseconds() + 10_000_000_000
while (storm.completionRuns.contains(0) || runLoop.nextEventTime != nil) && System.monotonicNanoseconds() < endDeadline {
    runLoop.runTurn {}
    finalTurns += 1
    pause(10_000_000)
}
// Layers still alive outside the tree (held by the app's code, the run
// loop, a transition) keep their animations: count them, then remove those
// too, so no animation is alive at exit.
var aliveAnimated = 0, aliveOffTree = 0
for w in storm.everMade {
    guard let l = w.layer else { continue }
    var top = l
    while let s = top.superlayer { top = s }
    if top !== root { aliveOffTree += 1 }
    if !l.animations.isEmpty { aliveAnimated += 1; l.removeAllAnimations() }
}
print("stressprobe: at the end \(aliveOffTree) layers alive outside the tree, \(aliveAnimated) alive layers still had animations")
// The twins of layers outside the tree keep the animations of their last
// update, and twins of layers freed after the last commit wait for the
// next one: put the layers back in the tree and commit twice, so every
// twin is brought up to date (or freed) and no animation is alive at exit.
runLoop.runTurn {
    Transaction.disableActions = true
    for w in storm.everMade {
        guard let l = w.layer, l.name != "mask" else { continue }
        var top = l
        while let s = top.superlayer { top = s }
        if top !== root && top.name != "mask" { try? root.addSublayer(top) }
    }
}
for _ in 0..<2 { runLoop.runTurn { Transaction.begin(); Transaction.commit() } }
let expectedCommits = storm.commits + 1   // and the loop's own first capture
let applied = loop.waitUntil(timeoutNanoseconds: 30_000_000_000) { $0.commitsApplied >= expectedCommits }
let framesAfterApply = loop.statistics.framesRendered
loop.setNeedsRender()
_ = loop.waitUntil(timeoutNanoseconds: 30_000_000_000) { $0.framesRendered > framesAfterApply }
loop.stop()
let stats = loop.statistics

// MARK: Checks

let never = storm.completionRuns.filter { $0 == 0 }.count
check(never == 0 && storm.completionRepeats == 0,
      "every completion block ran exactly once (\(storm.completionRuns.count) blocks; \(never) never ran, \(storm.completionRepeats) extra runs)")
check(applied && stats.commitsApplied == expectedCommits,
      "no lost commits: \(stats.commitsApplied) applied by the render thread = \(storm.commits) made + 1 initial")
check(runLoop.nextEventTime == nil, "every animation ended (\(finalTurns) turns after the storm)")
check(loop.error == nil, "the render loop ended without an error\(loop.error.map { ": \($0)" } ?? "")")
check(readerCounts.mismatches == 0, "presentation trees matched the model and every hit was in the tree (\(readerCounts.mismatches) mismatches)")

/// Property-by-property comparison of a model layer and its twin; doubles
/// by bit pattern (bad input left NaN in place on purpose).
func sameDouble(_ a: Double, _ b: Double) -> Bool { a.bitPattern == b.bitPattern }
func sameGeometry(_ a: Layer, _ b: Layer) -> Bool {
    let p = [a.bounds.origin.x, a.bounds.origin.y, a.bounds.size.width, a.bounds.size.height, a.position.x, a.position.y,
             a.zPosition, a.anchorPoint.x, a.anchorPoint.y, a.anchorPointZ]
    let q = [b.bounds.origin.x, b.bounds.origin.y, b.bounds.size.width, b.bounds.size.height, b.position.x, b.position.y,
             b.zPosition, b.anchorPoint.x, b.anchorPoint.y, b.anchorPointZ]
    return zip(p, q).allSatisfy(sameDouble) && a.transform == b.transform && a.sublayerTransform == b.sublayerTransform
}
/// Paths compared point by point by bit pattern too: bad input leaves NaN
/// in a path drawn in a NaN-sized layer (a mask or shadow path made from
/// its bounds), which `==` would call different from its own copy.
func samePath(_ a: Path?, _ b: Path?) -> Bool {
    guard let a, let b else { return a == nil && b == nil }
    return a.verbs == b.verbs && a.points.count == b.points.count
        && zip(a.points, b.points).allSatisfy { sameDouble($0.x, $1.x) && sameDouble($0.y, $1.y) }
}
var treeProblems: [String] = []
var comparedLayers = 0
func compare(_ m: Layer, _ r: Layer, _ path: String) {
    comparedLayers += 1
    func problem(_ what: String) { if treeProblems.count < 20 { treeProblems.append("\(path): \(what)") } }
    if m === r { problem("the render tree holds the model layer itself") }
    if ObjectIdentifier(type(of: m)) != ObjectIdentifier(type(of: r)) { problem("class \(type(of: m)) vs \(type(of: r))") }
    if m.name != r.name { problem("name") }
    if !sameGeometry(m, r) { problem("geometry") }
    if !sameDouble(m.opacity, r.opacity) { problem("opacity") }
    if m.isHidden != r.isHidden { problem("isHidden") }
    if m.backgroundColor != r.backgroundColor { problem("backgroundColor") }
    if !sameDouble(m.cornerRadius, r.cornerRadius) || m.masksToBounds != r.masksToBounds { problem("cornerRadius/masksToBounds") }
    if !sameDouble(m.borderWidth, r.borderWidth) || m.borderColor != r.borderColor { problem("border") }
    if m.contents !== r.contents || m.contentsRect != r.contentsRect { problem("contents") }
    if m.shadowOpacity != r.shadowOpacity || m.shadowRadius != r.shadowRadius || m.shadowOffset != r.shadowOffset
        || !samePath(m.shadowPath, r.shadowPath) { problem("shadow") }
    if !r.animations.isEmpty || !m.animations.isEmpty { problem("animations left: model \(m.animations.count), render \(r.animations.count)") }
    if let ms = m as? ShapeLayer, let rs = r as? ShapeLayer {
        if !samePath(ms.path, rs.path) || ms.fillColor != rs.fillColor || ms.strokeColor != rs.strokeColor
            || !sameDouble(ms.lineWidth, rs.lineWidth) || !sameDouble(ms.strokeEnd, rs.strokeEnd) { problem("shape") }
    }
    if let mt = m as? TextLayer, let rt = r as? TextLayer {
        if mt.string != rt.string || mt.fontSize != rt.fontSize || mt.foregroundColor != rt.foregroundColor || mt.font !== rt.font { problem("text") }
    }
    switch (m.mask, r.mask) {
    case (nil, nil): break
    case let (mm?, rm?): compare(mm, rm, path + "/mask")
    default: problem("mask presence")
    }
    guard m.sublayers.count == r.sublayers.count else { problem("\(m.sublayers.count) sublayers vs \(r.sublayers.count)"); return }
    for (i, (ms, rs)) in zip(m.sublayers, r.sublayers).enumerated() {
        if rs.superlayer !== r { problem("sublayer \(i) of the twin has another superlayer") }
        compare(ms, rs, path + "/\(i):\(ms.name)")
    }
}
compare(root, loop.renderTreeRoot, "root")
check(treeProblems.isEmpty, "the render tree equals the model tree (\(comparedLayers) layers)" +
      (treeProblems.isEmpty ? "" : ": " + treeProblems.joined(separator: "; ")))

/// A fresh, single-threaded render of `tree` as the screen would show it.
func freshScreen(_ tree: Layer) -> Surface<XRGB8888> {
    let full = Surface<ARGB8888>(width: width, height: height)!
    Compositor().render(tree, at: currentMediaTime(), into: full.view, clearColor: .black)
    let screen = Surface<XRGB8888>(width: width, height: height)!
    ScanoutConversion.copy(full.view, into: screen.view, rect: IntRect(x: 0, y: 0, width: width, height: height))
    return screen
}
func difference(_ a: Surface<XRGB8888>, _ b: Surface<XRGB8888>) -> (count: Int, first: String) {
    var count = 0, first = ""
    for y in 0..<height {
        for x in 0..<width where a.view[x, y] & 0xFFFFFF != b.view[x, y] & 0xFFFFFF {
            if count == 0 { first = " (first at \(x),\(y))" }
            count += 1
        }
    }
    return (count, first)
}
let modelScreen = freshScreen(root)
let shown = difference(presenter.screen, modelScreen)
check(shown.count == 0, "the frame on screen equals a fresh render of the final model tree (\(shown.count) pixels differ\(shown.first))")
let twins = difference(freshScreen(loop.renderTreeRoot), modelScreen)
check(twins.count == 0, "a fresh render of the render tree equals it too (\(twins.count) pixels differ\(twins.first))")

// MARK: Summary

let mutations = appCounts.mutations + mutatorCounts.reduce(0) { $0 + $1.mutations }
let explicitTransactions = mutatorCounts.reduce(0) { $0 + $1.transactions }
func fixed(_ v: Double, _ digits: Int) -> String {
    var scale = 1.0
    for _ in 0..<digits { scale *= 10 }
    let n = Int((v * scale).rounded())
    let whole = n / Int(scale), frac = n % Int(scale)
    var f = String(frac)
    while f.count < digits { f = "0" + f }
    return digits == 0 ? String(whole) : "\(whole).\(f)"
}
print("stressprobe: \(fixed(Double(stormNanoseconds) / 1e9, 1)) s, seed \(seed), threads: app + \(mutatorCount) mutators + reader + render; "
      + "\(mutations) mutations (\(turns) app turns, \(explicitTransactions) locked explicit transactions), "
      + "\(storm.commits) commits (\(loop.updates.coalescedCommits) coalesced, \(stats.updatesApplied) updates applied), "
      + "\(stats.framesRendered) frames rendered, \(storm.completionRuns.count) completion blocks, "
      + "\(readerCounts.presentationReads) presentation trees, \(readerCounts.hitTests) hit tests (\(readerCounts.hits) hits), "
      + "final tree \(comparedLayers) layers, \(warnings.load(ordering: .relaxed)) bad-input warnings")
print("stressprobe: \(passed) passed, \(failed) failed")
fflush(stdout)   // before a sanitizer's exit-time report ends the process
exit(failed == 0 ? 0 : 1)
