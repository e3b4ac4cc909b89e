// libFuzzer targets for FBRuntime (and Raster's stroker), built with
// `-sanitize=fuzzer,address` by scripts/fuzz (host only). One binary, the
// target chosen by the FBR_FUZZ_TARGET environment variable, so each target
// keeps its own corpus (Fuzz/corpus/TARGET).
//
//   stroke:       random path commands and coordinates (raw bit patterns:
//                 NaN, ±inf, huge values), a random StrokeStyle (width, cap,
//                 join, miter limit, dash pattern and phase, strokeStart and
//                 strokeEnd) and transform; either `Path.stroked` is built
//                 (its size checked against the documented work limit) and
//                 rasterised, spans checked to lie in the clip, or the
//                 canvas strokes the path into a small surface.
//   board-config: the bytes as a board file through `BoardConfig.parse`,
//                 against an independent byte-level reading of the format
//                 (ASCII input): an accepted file has only known keys, each
//                 once; an unknown key is an error naming its line (unless
//                 an earlier line failed first); errors name a line that
//                 exists.
//   animation:    a basic (additive, cumulative, by-values), keyframe (any
//                 calculation mode, key times, timing functions with wild
//                 control points, a path), spring, group or transition
//                 animation with random timing (speed, timeOffset, repeat,
//                 autoreverse, fill mode), evaluated at random times through
//                 `Animation.values(at:)`, and — when `validate()` accepts it
//                 — attached to a layer and evaluated as the render thread
//                 does, at each time: the presentation tree and one key's
//                 `presentationValue(for:at:)`; and a `Compositor` render
//                 into a small surface at the first and last time.
import CPosix
import FBRuntime
import FuzzSupport
import Raster

// MARK: stroke

nonisolated(unsafe) let rasterizer = PathRasterizer()   // libFuzzer calls from one thread
nonisolated(unsafe) let canvasSurface = Surface<ARGB8888>(width: 61, height: 47)!

func randomPath(_ r: inout ByteReader, maxCommands: Int) -> Path {
    var path = Path()
    var commands = 0
    let count = Int(r.byte()) % (maxCommands + 1)
    while commands < count && !r.exhausted {
        commands += 1
        let p = PathPoint(x: r.number(), y: r.number())
        switch r.byte() % 8 {
        case 0: path.move(to: p)
        case 1, 2, 3: path.line(to: p)
        case 4: path.quad(to: p, control: PathPoint(x: r.number(), y: r.number()))
        case 5: path.cubic(to: p, control1: PathPoint(x: r.number(), y: r.number()),
                           control2: PathPoint(x: r.number(), y: r.number()))
        case 6: path.close()
        default:
            switch r.byte() % 3 {
            case 0: path.addEllipse(p.x, p.y, r.number(), r.number())
            case 1: path.append(Path(roundedRect: p.x, p.y, r.number(), r.number(), radii: CornerRadii(r.number())))
            default: path.append(Path(circleCenter: p, radius: r.number()))
            }
        }
    }
    return path
}

func randomStrokeStyle(_ r: inout ByteReader) -> StrokeStyle {
    let caps: [LineCap] = [.butt, .round, .square], joins: [LineJoin] = [.miter, .round, .bevel]
    var dash: [Double] = []
    let dashes = Int(r.byte() % 8)
    for _ in 0..<dashes { dash.append(r.byte() % 4 == 0 ? r.number() : Double(r.byte()) / 8) }
    return StrokeStyle(width: r.byte() % 4 == 0 ? r.number() : Double(r.byte()) / 16,
                       cap: caps[Int(r.byte() % 3)], join: joins[Int(r.byte() % 3)],
                       miterLimit: r.byte() % 4 == 0 ? r.number() : Double(r.byte()) / 16,
                       dash: dash, dashPhase: r.number(), start: r.unitish(), end: r.unitish())
}

func fuzzStroke(_ r: inout ByteReader) {
    let style = randomStrokeStyle(&r)
    let transform: AffineTransform
    switch r.byte() % 4 {
    case 0: transform = AffineTransform(a: r.number(), b: r.number(), c: r.number(), d: r.number(), tx: r.number(), ty: r.number())
    case 1: let s = r.unitish(); transform = AffineTransform(a: s, b: 0, c: 0, d: s, tx: 8, ty: 8)
    default: transform = .identity
    }
    rasterizer.tolerance = r.byte() % 8 == 0 ? r.number() : FlattenLimits.defaultTolerance
    let path = randomPath(&r, maxCommands: 24)
    let clip = IntRect(x: Int(Int8(bitPattern: r.byte())) / 4, y: Int(Int8(bitPattern: r.byte())) / 4,
                       width: Int(r.byte() % 80), height: Int(r.byte() % 60))
    // Either the outline, checked and filled by the rasterizer, or the
    // canvas's own stroke of the path: each strokes the path once (doing
    // both per input halved the rate, for no coverage either lacks).
    let family = r.byte()
    if family & 1 == 0 {
        var canvas = Canvas(canvasSurface.view, family: family & 2 == 0 ? .simd : .reference)
        canvas.clip(to: clip)
        canvas.stroke(path, color: PremultipliedColor(argb: 0xFF102030), style: style, transform: transform, using: rasterizer)
        return
    }
    let outline = path.stroked(style, transform: transform, tolerance: rasterizer.tolerance)
    // The work limit (`StrokeStyle.maxOutlinePoints`): the limit plus the
    // one piece under way: at most three points per vertex on each side
    // (a join, an arc being one chord), plus its caps, the two ends a dash
    // or trim adds and the rest of the one arc that crossed the limit.
    var flattened = 0
    for polyline in path.flattened(transform: transform, tolerance: rasterizer.tolerance) { flattened += polyline.points.count }
    precondition(outline.points.count <= StrokeStyle.maxOutlinePoints + 6 * flattened + 64,
                 "stroked outline of \(outline.points.count) points, over the work limit")
    // The outline is an ordinary path: its verbs and points agree.
    var needed = 0
    for verb in outline.verbs {
        switch verb {
        case .move, .line: needed += 1
        case .quad: needed += 2
        case .cubic: needed += 3
        case .close: break
        }
    }
    precondition(needed == outline.points.count, "stroked outline: \(needed) points for its verbs, \(outline.points.count) held")
    rasterizer.fill(outline, transform: transform, rule: .nonZero, clip: clip, mask: nil) { y, x, cov, n in
        precondition(n > 0 && y >= clip.y && y < clip.maxY && x >= clip.x && x + n <= clip.maxX, "span outside the clip")
        _ = cov[n - 1]
    }
}

// MARK: board-config

/// The keys of the lines of a board file as the format defines them
/// (`board-configs/README.md`), read independently of the parser, byte by
/// byte: per line, `#` starts a comment, spaces and tabs around are
/// ignored (and a trailing CR), a non-empty line is `key = value`.
/// `nil` entries are lines without `=`, blank lines are left out.
func boardFileKeys(_ bytes: [UInt8]) -> [(line: Int, key: [UInt8]?)] {
    func isBlank(_ b: UInt8) -> Bool { b == 0x20 || b == 0x09 }
    var result: [(line: Int, key: [UInt8]?)] = []
    var line = 0
    for raw in bytes.split(separator: UInt8(ascii: "\n"), omittingEmptySubsequences: false) {
        line += 1
        var text = Array(raw)
        if let hash = text.firstIndex(of: UInt8(ascii: "#")) { text.removeSubrange(hash...) }
        while let last = text.last, isBlank(last) || last == 0x0D { text.removeLast() }
        while let first = text.first, isBlank(first) { text.removeFirst() }
        if text.isEmpty { continue }
        guard let equals = text.firstIndex(of: UInt8(ascii: "=")) else { result.append((line, nil)); continue }
        var key = Array(text[..<equals])
        while let last = key.last, isBlank(last) || last == 0x0D { key.removeLast() }
        result.append((line, key))
    }
    return result
}

func fuzzBoardConfig(_ data: UnsafePointer<UInt8>, _ size: Int) {
    let bytes = Array(UnsafeBufferPointer(start: data, count: size))
    var lines = 1
    for b in bytes where b == UInt8(ascii: "\n") { lines += 1 }
    // The oracle reads bytes; the parser reads characters (a combining mark
    // after `=` makes one character of both): compare on ASCII input only.
    var ascii = true
    for b in bytes where b >= 0x80 { ascii = false }
    let known = BoardConfig.keys.map { Array($0.utf8) }
    let entries = ascii ? boardFileKeys(bytes) : []
    var firstUnknown: (line: Int, key: [UInt8])?
    for e in entries {
        if let k = e.key, !known.contains(k) { firstUnknown = (e.line, k); break }
    }
    do {
        let config = try BoardConfig.parse(bytes, file: "fuzz.board")
        // What parsed is within the documented ranges.
        precondition([0, 90, 180, 270].contains(config.rotation), "rotation \(config.rotation)")
        precondition(config.buffers == 2 || config.buffers == 3, "buffers \(config.buffers)")
        precondition(config.calibration.count == 6, "calibration count")
        precondition(!config.name.isEmpty, "empty name accepted")
        // Accepted: every line is `key = value` with a known key, each once.
        var seen: [[UInt8]] = []
        for e in entries {
            guard let k = e.key else { preconditionFailure("line \(e.line) has no '=' but the file was accepted") }
            precondition(known.contains(k), "unknown key on line \(e.line) accepted")
            precondition(!seen.contains(k), "key on line \(e.line) set twice but accepted")
            seen.append(k)
        }
    } catch {
        precondition(error.line >= 0 && error.line <= lines, "error names line \(error.line) of \(lines)")
        precondition(!error.message.isEmpty, "error without a message")
        // An unknown key is reported as one, on its line, unless an earlier
        // line was wrong first.
        if error.message.hasPrefix("unknown key") {
            precondition(ascii == false || firstUnknown?.line == error.line, "'\(error.message)' on line \(error.line), not the first unknown key's")
        }
        if let u = firstUnknown, error.line > u.line {
            preconditionFailure("unknown key on line \(u.line) not reported; the error is on line \(error.line): \(error.message)")
        }
        _ = error.description
    }
    // A file with an unknown key is never accepted (the `do` above would
    // have trapped on it).
}

// MARK: animation

let keys: [AnimatableKey] = [.opacity, .position, .positionX, .bounds, .boundsSize, .backgroundColor, .transform,
                             .transformRotationZ, .transformScale, .transformTranslation, .sublayerTransform,
                             .cornerRadius, .borderWidth, .shadowPath, .shadowOffset, .anchorPoint, .zPosition,
                             .contentsRect, .custom("fuzz")]

func randomValue(_ r: inout ByteReader) -> AnimatableValue {
    switch r.byte() % 9 {
    case 0, 1: return .scalar(r.number())
    case 2: return .point(Point(x: r.number(), y: r.number()))
    case 3: return .rect(Rect(x: r.number(), y: r.number(), width: r.number(), height: r.number()))
    case 4: return .color(Color(red: r.unitish(), green: r.unitish(), blue: r.unitish(), alpha: r.unitish()))
    case 5:
        var t = Transform3D.identity
        switch r.byte() % 4 {
        case 0: t = Transform3D(rotationAngle: r.number(), x: r.unitish(), y: r.unitish(), z: r.unitish())
        case 1: t = Transform3D(scaleX: r.number(), y: r.number(), z: r.number())
        case 2: t = Transform3D(translationX: r.number(), y: r.number(), z: r.number())
        default: t.m34 = r.number()
        }
        return .transform(t)
    case 6: return .path(randomPath(&r, maxCommands: 6))
    case 7:
        var c: [Color] = []
        for _ in 0..<Int(r.byte() % 4) { c.append(Color(red: r.unitish(), green: r.unitish(), blue: r.unitish(), alpha: r.unitish())) }
        return .colors(c)
    default:
        var s: [Double] = []
        for _ in 0..<Int(r.byte() % 4) { s.append(r.number()) }
        return .scalars(s)
    }
}

func randomTimingFunction(_ r: inout ByteReader) -> TimingFunction {
    switch r.byte() % 4 {
    case 0: return .easeInEaseOut
    case 1: return TimingFunction(r.unitish(), r.unitish(), r.unitish(), r.unitish())
    default: return TimingFunction(r.number(), r.number(), r.number(), r.number())
    }
}

func randomTiming(_ r: inout ByteReader) -> MediaTiming {
    var t = MediaTiming()
    let fills: [FillMode] = [.removed, .forwards, .backwards, .both]
    t.beginTime = r.byte() % 2 == 0 ? 0 : r.number()
    t.duration = r.byte() % 2 == 0 ? Double(r.byte()) / 32 : r.number()
    t.speed = r.byte() % 2 == 0 ? 1 : r.number()
    t.timeOffset = r.byte() % 2 == 0 ? 0 : r.number()
    t.repeatCount = r.byte() % 2 == 0 ? Double(r.byte() % 4) : r.number()
    t.repeatDuration = r.byte() % 4 == 0 ? r.number() : 0
    t.autoreverses = r.byte() % 2 == 0
    t.fillMode = fills[Int(r.byte() % 4)]
    return t
}

func randomAnimation(_ r: inout ByteReader, depth: Int) -> Animation {
    let key = keys[Int(r.byte()) % keys.count]
    switch r.byte() % (depth < 2 ? 6 : 5) {
    case 0, 1:
        var a = BasicAnimation(key: key, from: r.byte() % 3 == 0 ? nil : randomValue(&r),
                               to: r.byte() % 3 == 0 ? nil : randomValue(&r), by: r.byte() % 3 == 0 ? randomValue(&r) : nil)
        a.isAdditive = r.byte() % 2 == 0
        a.isCumulative = r.byte() % 2 == 0
        a.timingFunction = randomTimingFunction(&r)
        if r.byte() % 4 == 0 {
            let functions: [ValueFunction] = [.rotateZ, .scale, .scaleX, .translate, .translateY, .rotateX]
            a.valueFunction = functions[Int(r.byte()) % functions.count]
        }
        a.timing = randomTiming(&r)
        return .basic(a)
    case 2:
        var values: [AnimatableValue] = []
        for _ in 0..<Int(r.byte() % 6) { values.append(randomValue(&r)) }
        var a = KeyframeAnimation(key: key, values: values)
        if r.byte() % 2 == 0 {
            var times: [Double] = []
            for _ in 0..<Int(r.byte() % 7) { times.append(r.unitish()) }
            a.keyTimes = times
        }
        if r.byte() % 2 == 0 {
            var functions: [TimingFunction] = []
            for _ in 0..<Int(r.byte() % 6) { functions.append(randomTimingFunction(&r)) }
            a.timingFunctions = functions
        }
        a.timingFunction = randomTimingFunction(&r)
        let modes: [CalculationMode] = [.linear, .discrete, .paced, .cubic, .cubicPaced]
        a.calculationMode = modes[Int(r.byte() % 5)]
        if r.byte() % 3 == 0 {
            var tension: [Double] = [], continuity: [Double] = [], bias: [Double] = []
            for _ in 0..<Int(r.byte() % 6) { tension.append(r.unitish()); continuity.append(r.unitish()); bias.append(r.unitish()) }
            a.tensionValues = tension; a.continuityValues = continuity; a.biasValues = bias
        }
        if r.byte() % 4 == 0 {
            a.path = randomPath(&r, maxCommands: 8)
            a.rotationMode = r.byte() % 2 == 0 ? .auto : .autoReverse
        }
        a.timing = randomTiming(&r)
        return .keyframe(a)
    case 3:
        var a = SpringAnimation(key: key, from: r.byte() % 3 == 0 ? nil : randomValue(&r),
                                to: r.byte() % 3 == 0 ? nil : randomValue(&r))
        a.mass = r.number(); a.stiffness = r.number(); a.damping = r.number(); a.initialVelocity = r.number()
        a.basic.timing = randomTiming(&r)
        return .spring(a)
    case 4:
        let types: [TransitionType] = [.fade, .moveIn, .push, .reveal]
        let subtypes: [TransitionSubtype] = [.fromLeft, .fromRight, .fromTop, .fromBottom]
        var t = Transition(type: types[Int(r.byte() % 4)], subtype: subtypes[Int(r.byte() % 4)], duration: r.number())
        t.startProgress = r.unitish(); t.endProgress = r.unitish()
        t.timingFunction = randomTimingFunction(&r)
        t.timing = randomTiming(&r)
        return .transition(t)
    default:
        var members: [Animation] = []
        for _ in 0..<Int(r.byte() % 4) { members.append(randomAnimation(&r, depth: depth + 1)) }
        var g = AnimationGroup(members, duration: r.number())
        g.timing = randomTiming(&r)
        return .group(g)
    }
}

nonisolated(unsafe) let target = Surface<ARGB8888>(width: 24, height: 24)!
nonisolated(unsafe) var found: [(key: AnimatableKey, value: AnimatableValue)] = []

func fuzzAnimation(_ r: inout ByteReader) {
    let animation = randomAnimation(&r, depth: 0)
    var times: [Double] = []
    for _ in 0..<(1 + Int(r.byte() % 6)) { times.append(r.byte() % 3 == 0 ? r.number() : Double(r.byte()) / 64) }
    for t in times {
        found.removeAll(keepingCapacity: true)
        animation.values(at: t, base: { _ in .scalar(1) }, into: &found)
        _ = animation.hasFinished(at: t)
    }
    guard (try? animation.validate()) != nil else { return }
    let root = Layer(name: "root")
    root.bounds = Rect(x: 0, y: 0, width: 24, height: 24)
    root.position = Point(x: 12, y: 12)
    let layer = ShapeLayer()
    layer.bounds = Rect(x: 0, y: 0, width: 10, height: 8)
    layer.position = Point(x: 12, y: 12)
    layer.backgroundColor = Color(red: 0.2, green: 0.4, blue: 0.8)
    layer.shadowOpacity = 0.5
    layer.path = Path(circleCenter: PathPoint(x: 5, y: 4), radius: 3)
    try? root.addSublayer(layer)
    layer.add(animation, forKey: "fuzz", at: times[0])
    // Every key through one presentation copy per time (each
    // `presentationValue(for:at:)` evaluates all the layer's animations, so
    // asking it for all 19 keys at every time was most of the cost), and
    // one key, chosen by the input, the direct way.
    // Rendered at the first and the last time only: a render costs several
    // evaluations, and the times between add little to it.
    let probe = keys[Int(r.byte()) % keys.count]
    // A compositor per input. One kept across inputs carried each input's
    // layers into the next (its damage tracker holds the previous frame's
    // layers), so an input's run depended on the one before it, and
    // LeakSanitizer reported that input's animations as leaked (a group's
    // box, a keyframe path) though the global still reached them, most
    // likely through enum payloads whose spare pointer bits hold the case
    // tag, which it cannot follow.
    // With seeds 2, 5 and 10 (-max_total_time=6) it did so every time;
    // with this change, seeds 1 to 12 run clean.
    let compositor = Compositor(scale: 1)
    for (i, t) in times.enumerated() {
        let shown = layer.presentation(at: t)
        _ = shown.opacity; _ = shown.transform; _ = shown.shadowPath
        _ = layer.presentationValue(for: probe, at: t)
        if i == 0 || i == times.count - 1 { compositor.render(root, at: t, into: target.view) }
    }
}

// MARK: driver

let targetName: String = getenv("FBR_FUZZ_TARGET").map { String(cString: $0) } ?? "animation"

@_cdecl("LLVMFuzzerTestOneInput")
public func fuzzOneInput(_ data: UnsafePointer<UInt8>, _ size: Int) -> CInt {
    switch targetName {
    case "board-config": fuzzBoardConfig(data, size)
    case "stroke":
        var reader = ByteReader(data: data, size: size)
        fuzzStroke(&reader)
    default:
        var reader = ByteReader(data: data, size: size)
        fuzzAnimation(&reader)
    }
    return 0
}

// SwiftPM links executables with their entry point renamed to
// `<module>_main`: libFuzzer's driver from there (FuzzSupport), or, built
// without libFuzzer, each named input file run once.
@_cdecl("fuzz_runtime_main")
public func fuzzMain(_ argc: CInt, _ argv: UnsafeMutablePointer<UnsafeMutablePointer<CChar>?>?) -> CInt {
    fuzzerMain("fuzz-runtime", argc, argv) { data, size in fuzzOneInput(data, size) }
}
