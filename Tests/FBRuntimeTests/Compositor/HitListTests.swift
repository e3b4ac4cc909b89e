@testable import FBRuntime
import MallocCounter
import Raster
import TestSupport
import XCTest

/// The hit list (`HitList`) the survey records: hit testing reads it, so
/// it must hold what the frame drew. Checked on seeded random scenes
/// against the frame's units and pixels, against `Layer.hitTest` (the same
/// list recorded without drawing), across frames that replay subtrees,
/// and for allocations on the render path.
final class HitListTests: XCTestCase {
    typealias SeededRandom = DamageTests.SeededRandom
    private var savedMinimum = 0

    override func setUp() {
        super.setUp()
        // Edges anti-aliased: a pixel on an edge mixes colours and is not
        // taken for any one layer's.
        Layer.defaultAllowsEdgeAntialiasing = true
        savedMinimum = Layer.changedSublayersMinimum
    }

    override func tearDown() {
        Layer.defaultAllowsEdgeAntialiasing = false
        Layer.changedSublayersMinimum = savedMinimum
        super.tearDown()
    }

    /// A random scene: every layer opaque and of its own colour, with
    /// transforms, `zPosition`, rounded clips, masks, groups drawn
    /// offscreen (translucent, rasterized), replicators, a 3-D rendering
    /// context and back faces culled. Returns the root and the layers.
    func randomScene(_ rng: inout SeededRandom, width: Double, height: Double) throws -> (Layer, [Layer]) {
        var layers: [Layer] = []
        func colored(_ name: String, _ x: Double, _ y: Double, _ w: Double, _ h: Double) -> Layer {
            let l = solidLayer(name, x, y, w, h, 0x10_1010 | UInt32(truncatingIfNeeded: rng.next()) & 0xFF_FFFF)
            layers.append(l)
            return l
        }
        let root = colored("root", 0, 0, width, height)
        func populate(_ parent: Layer, depth: Int) throws {
            let count = depth == 0 ? 4 + rng.int(3) : rng.int(3)
            for i in 0..<count {
                let b = parent.bounds
                let w = rng.double(12, max(14, b.width * 0.7)), h = rng.double(12, max(14, b.height * 0.7))
                let name = "\(parent.name).\(i)"
                let l: Layer
                switch rng.int(12) {
                case 0:
                    let r = ReplicatorLayer(name: name)
                    r.bounds = Rect(x: 0, y: 0, width: w, height: h)
                    r.anchorPoint = .zero
                    r.position = Point(x: rng.double(-10, b.width - 10), y: rng.double(-10, b.height - 10))
                    r.backgroundColor = Color(rgb: 0x10_1010 | UInt32(truncatingIfNeeded: rng.next()) & 0xFF_FFFF)
                    r.instanceCount = 2 + rng.int(2)
                    r.instanceTransform = .translation(x: rng.double(8, 16), y: rng.double(-4, 4))
                    layers.append(r)
                    try r.addSublayer(colored("\(name).bar", 0, 0, 6, h * 0.8))
                    try parent.addSublayer(r)
                    continue
                case 1 where depth == 0:
                    // Two planes crossing under a perspective.
                    let context = TransformLayer()
                    context.name = name
                    context.bounds = Rect(x: 0, y: 0, width: 60, height: 40)
                    context.position = Point(x: rng.double(30, b.width - 30), y: rng.double(20, b.height - 20))
                    context.sublayerTransform = .perspective(distance: 300)
                    let flat = colored("\(name).flat", 0, 0, 60, 24)
                    let turned = colored("\(name).turned", 0, 0, 60, 24)
                    turned.transform = .rotation(radians: rng.double(0.3, 1.0), x: 0, y: 1, z: 0)
                    for plane in [flat, turned] {
                        plane.anchorPoint = Point(x: 0.5, y: 0.5)
                        plane.position = Point(x: 30, y: 20)
                        try context.addSublayer(plane)
                    }
                    try parent.addSublayer(context)
                    continue
                default:
                    l = colored(name, rng.double(-10, b.width - 10), rng.double(-10, b.height - 10), w, h)
                }
                switch rng.int(10) {
                case 0: l.transform = .rotation(radians: rng.double(-0.8, 0.8), x: 0, y: 0, z: 1)
                case 1: l.cornerRadius = rng.double(2, 10); l.masksToBounds = true
                case 2: l.mask = solidLayer("\(name).mask", 0, 0, w / 2, h, 0xFFFFFF)
                case 3: l.opacity = 0.6                                          // a group, translucent
                case 4: l.shouldRasterize = true
                case 5: l.zPosition = rng.double(-2, 2)
                case 6:
                    // Its back faces the viewer: culled, with its subtree.
                    l.isDoubleSided = false
                    l.transform = .rotation(radians: .pi, x: 0, y: 1, z: 0)
                default: break
                }
                try parent.addSublayer(l)
                if depth < 2 { try populate(l, depth: depth + 1) }
            }
        }
        try populate(root, depth: 0)
        return (root, layers)
    }

    /// The hit testing cannot drift from the drawing: at every pixel of
    /// random scenes, the layer the frame's hit list hits (a) is the one
    /// `Layer.hitTest` finds (the same list, recorded without drawing),
    /// (b) lies in a unit the frame drew whose extent covers the pixel,
    /// and (c) is the layer whose colour the pixel shows, wherever the
    /// pixel and its four neighbours show one layer's colour exactly.
    func testHitsAreWhatTheFrameDrewInRandomScenes() throws {
        let width = 120, height = 90
        var checked = 0, byColor = 0
        for seed in 1...16 as ClosedRange<UInt64> {
            var rng = SeededRandom(state: seed)
            let (root, layers) = try randomScene(&rng, width: Double(width), height: Double(height))
            let compositor = Compositor()
            compositor.recordsHitList = true
            let surface = try XCTUnwrap(Surface<ARGB8888>(width: width, height: height))
            compositor.render(root, at: 0, into: surface.view)
            let view = surface.view
            var owner: [UInt32: Layer] = [:]
            for l in layers { owner[l.backgroundColor!.premultiplied.argb] = l }
            for y in 1..<(height - 1) {
                for x in 1..<(width - 1) {
                    let point = Point(x: Double(x) + 0.5, y: Double(y) + 0.5)
                    let hit = compositor.hitTest(point)
                    let where_ = "seed \(seed), pixel (\(x), \(y))"
                    if (x + y) % 5 == 0, hit !== root.hitTest(point, at: 0) {     // a fifth of the pixels: it surveys the tree
                        XCTFail("\(where_): \(hit?.name ?? "nil") vs Layer.hitTest's \(root.hitTest(point, at: 0)?.name ?? "nil")")
                        return
                    }
                    guard let hit else { continue }
                    checked += 1
                    // (b) The unit that drew it: the layer's own, or the
                    // offscreen, replicated or 3-D unit it is drawn in.
                    var drawn: Layer? = hit
                    while let l = drawn, compositor.tracker.unitIndex(of: l) == nil { drawn = l.superlayer }
                    guard let unitLayer = drawn, let u = compositor.tracker.unitIndex(of: unitLayer) else {
                        XCTFail("\(where_): \(hit.name) is in no unit of the frame")
                        return
                    }
                    XCTAssertTrue(compositor.tracker.units[u].subtreeExtent.contains(IntRect(x: x, y: y, width: 1, height: 1)),
                                  "\(where_): \(hit.name)'s unit (\(unitLayer.name)) does not cover the pixel")
                    // (c) The pixel's colour, where it is one layer's.
                    let c = view[x, y]
                    guard let shown = owner[c], view[x - 1, y] == c, view[x + 1, y] == c, view[x, y - 1] == c,
                          view[x, y + 1] == c else { continue }
                    byColor += 1
                    if hit !== shown {
                        XCTFail("\(where_): shows \(shown.name) but the hit is \(hit.name)")
                        return
                    }
                }
            }
        }
        XCTAssertGreaterThan(checked, 16 * width * height / 2, "most pixels hit a layer")
        XCTAssertGreaterThan(byColor, 16 * width * height / 3, "most pixels show one layer's colour")
    }

    /// What the tests compare of an entry: everything but its time (the
    /// entries of a replayed subtree keep the last frame's local time,
    /// which nothing there depends on).
    func summary(_ e: HitEntry) -> String {
        let m = e.toTarget
        let map = [m.m00, m.m01, m.m02, m.m10, m.m11, m.m12, m.m20, m.m21, m.m22].map { String($0.bitPattern) }
        return "\(e.layer.name) \(e.kind) \(e.masksToBounds) \(e.hasMask) \(e.boundsAnimated) \(map) \(e.bounds) "
            + "\(e.parent) \(e.context) \(e.subtreeEnd)"
    }

    /// Subtrees and runs of rows the survey replays (`SurveyMemo`,
    /// `SiblingRunMemo`) bring their entries: the list equals the one a
    /// compositor surveying every layer records, entry for entry, while
    /// rows change, hide, turn transparent, animate, move in z, come and
    /// go and the list scrolls.
    func testReplayedSubtreesKeepTheListWhole() throws {
        Layer.changedSublayersMinimum = 8
        let root = solidLayer("root", 0, 0, 160, 200, 0x101418)
        let list = solidLayer("list", 10, 10, 140, 180, 0x20242A)
        list.masksToBounds = true
        try root.addSublayer(list)
        for i in 0..<40 {
            let row = solidLayer("row\(i)", 0, Double(i) * 12, 140, 11, i % 2 == 0 ? 0x30343A : 0x2A2E33)
            let dot = solidLayer("dot\(i)", 4, 2, 7, 7, 0x80C0FF)
            dot.cornerRadius = 3.5
            try row.addSublayer(dot)
            try row.addSublayer(solidLayer("empty\(i)", 20, 0, 30, 11))        // draws nothing, still hit
            try list.addSublayer(row)
        }
        let replaying = Compositor(), reference = Compositor()
        reference.replaysUnchangedSubtrees = false
        for c in [replaying, reference] { c.recordsHitList = true }
        let a = try XCTUnwrap(Surface<ARGB8888>(width: 160, height: 200))
        let b = try XCTUnwrap(Surface<ARGB8888>(width: 160, height: 200))
        var rng = SeededRandom(state: 7)
        var time: MediaTime = 0
        var replayed = 0
        for step in 0..<150 {
            let rows = list.sublayers
            let row = rows[rng.int(rows.count)]
            let edit = rng.int(14)
            switch edit {
            case 0, 1: row.backgroundColor = Color(rgb: UInt32(truncatingIfNeeded: rng.next()) & 0xFFFFFF)
            case 2: row.isHidden.toggle()
            case 3: row.opacity = row.opacity == 0 ? 1 : 0                     // not drawn, still hit
            case 4: row.add(BasicAnimation(key: .positionX, from: .scalar(0), to: .scalar(8), duration: 0.2),
                            forKey: "nudge", at: time)
            case 5: row.zPosition = rng.chance(0.7) ? 0 : rng.double(-1, 1)
            case 6: try list.insertSublayer(solidLayer("new\(step)", 0, Double(rng.int(40)) * 12, 140, 11, 0x406080),
                                            at: rng.int(rows.count + 1))
            case 7: if rows.count > 10 { row.removeFromSuperlayer() }
            case 8: list.bounds.origin.y = Double(rng.int(300))               // scroll
            case 9: row.sublayers.first?.isHidden.toggle()
            default: break                                                     // idle: the whole list replays
            }
            time += 1.0 / 30
            replaying.render(root, at: time, into: a.view)
            reference.render(root, at: time, into: b.view)
            replayed += replaying.statistics.unitsReplayed
            let log = "step \(step), edit \(edit) on \(row.name)"
            XCTAssertEqual(replaying.hits.count, reference.hits.count, log)
            guard replaying.hits.count == reference.hits.count else { return }
            for k in 0..<replaying.hits.count where summary(replaying.hits.entries[k]) != summary(reference.hits.entries[k]) {
                XCTFail("\(log): entry \(k) is \(summary(replaying.hits.entries[k])), surveyed afresh \(summary(reference.hits.entries[k]))")
                return
            }
            for _ in 0..<8 {
                let p = Point(x: rng.double(0, 160), y: rng.double(0, 200))
                XCTAssertTrue(replaying.hitTest(p) === reference.hitTest(p), "\(log) at \(p)")
            }
        }
        XCTAssertGreaterThan(replayed, 1000, "the replay was exercised")
    }

    /// Recording is off by default and costs nothing then; turned on, the
    /// next frame surveys every layer (the last frame recorded no
    /// entries to replay) and turned off, the list lets go of its layers.
    func testRecordingIsOffByDefaultAndCanBeTurnedOnAndOff() throws {
        let root = solidLayer("root", 0, 0, 40, 40, 0x202020)
        let child = solidLayer("child", 10, 10, 10, 10, 0xFF0000)
        try root.addSublayer(child)
        let compositor = Compositor()
        let surface = try XCTUnwrap(Surface<ARGB8888>(width: 40, height: 40))
        compositor.render(root, at: 0, into: surface.view)
        XCTAssertEqual(compositor.hits.count, 0)
        XCTAssertNil(compositor.hitTest(Point(x: 15, y: 15)))
        compositor.render(root, at: 0.1, into: surface.view)
        compositor.recordsHitList = true
        compositor.render(root, at: 0.2, into: surface.view)
        XCTAssertEqual(compositor.statistics.unitsReplayed, 0, "nothing replayed into a list that had no entries")
        XCTAssertTrue(compositor.hitTest(Point(x: 15, y: 15)) === child)
        compositor.render(root, at: 0.3, into: surface.view)
        XCTAssertGreaterThan(compositor.statistics.unitsReplayed, 0)
        XCTAssertTrue(compositor.hitTest(Point(x: 15, y: 15)) === child, "replayed with its entries")
        XCTAssertTrue(compositor.hitTest(Point(x: 35, y: 5)) === root)
        compositor.recordsHitList = false
        XCTAssertEqual(compositor.hits.count, 0)
        XCTAssertNil(compositor.hitTest(Point(x: 15, y: 15)))
        // The compositor's scale maps the point as `render` maps the root.
        let double = Compositor(scale: 2)
        double.recordsHitList = true
        let big = try XCTUnwrap(Surface<ARGB8888>(width: 80, height: 80))
        double.render(root, at: 0, into: big.view)
        XCTAssertTrue(double.hitTest(Point(x: 15, y: 15)) === child)
        XCTAssertTrue(double.hitTest(Point(x: 25, y: 25)) === root)
    }

    /// The render thread's survey with hit recording on allocates nothing
    /// per frame in steady state (counted on the optimised build:
    /// `AllocationChecks`), and neither do hit tests read from its list:
    /// animated layers, a group, a mask, a replicator, a rendering context
    /// and a list long enough for its runs of rows to replay.
    func testHitListRecordingAllocatesNothingPerFrame() throws {
        let root = solidLayer("root", 0, 0, 240, 160, 0x101820)
        let mover = solidLayer("mover", 10, 10, 40, 30, 0xC04040)
        var slide = BasicAnimation(key: .positionX, from: .scalar(10), to: .scalar(60), duration: 0.5)
        slide.repeatCount = .infinity
        mover.add(slide, forKey: "slide", at: 0)
        let group = solidLayer("group", 120, 10, 50, 40, 0x40C040)
        group.opacity = 0.5
        try group.addSublayer(solidLayer("inGroup", 10, 10, 20, 20, 0x4040C0))
        let masked = solidLayer("masked", 180, 10, 40, 40, 0xC0C040)
        masked.mask = solidLayer("mask", 0, 0, 20, 40, 0xFFFFFF)
        let replicator = ReplicatorLayer(name: "replicator")
        replicator.bounds = Rect(x: 0, y: 0, width: 60, height: 20)
        replicator.anchorPoint = .zero
        replicator.position = Point(x: 10, y: 60)
        replicator.instanceCount = 3
        replicator.instanceTransform = .translation(x: 20, y: 0)
        try replicator.addSublayer(solidLayer("bar", 0, 0, 8, 20, 0xC040C0))
        let context = TransformLayer()
        context.bounds = Rect(x: 0, y: 0, width: 60, height: 40)
        context.position = Point(x: 150, y: 80)
        let plane = solidLayer("plane", 0, 0, 60, 40, 0x40C0C0)
        plane.transform = .rotation(radians: 0.5, x: 0, y: 1, z: 0)
        try context.addSublayer(plane)
        let list = solidLayer("list", 10, 100, 220, 50, 0x202428)
        list.masksToBounds = true
        for i in 0..<80 { try list.addSublayer(solidLayer("row\(i)", 0, Double(i) * 6, 220, 5, 0x303438)) }
        for l in [mover, group, masked, replicator, context, list] { try root.addSublayer(l) }

        let compositor = Compositor()
        compositor.recordsHitList = true
        let surface = try XCTUnwrap(Surface<ARGB8888>(width: 240, height: 160))
        let probes = [Point(x: 135, y: 25), Point(x: 185, y: 30), Point(x: 32, y: 70), Point(x: 20, y: 101)]
        let frames = 30                                              // one period of the slide at 60 Hz
        for i in 0..<frames {
            compositor.render(root, at: Double(i) / 60, into: surface.view)
            for p in probes { _ = compositor.hitTest(p) }
        }
        var perFrame: [UInt64] = []
        perFrame.reserveCapacity(frames)
        var answers: [Layer?] = []
        answers.reserveCapacity(probes.count)
        for i in frames..<(2 * frames) {
            answers.removeAll(keepingCapacity: true)
            fbr_malloc_counter_begin()
            compositor.render(root, at: Double(i) / 60, into: surface.view)
            var k = 0
            while k < probes.count { answers.append(compositor.hitTest(probes[k])); k += 1 }
            perFrame.append(fbr_malloc_counter_end())
        }
        XCTAssertNoAllocations(perFrame, "heap allocations per frame with the hit list recorded and read")
        XCTAssertEqual(answers.map { $0?.name }, ["inGroup", "masked", "bar", "row0"])
        // The rows the list shows (the others, off its clip, are not surveyed).
        XCTAssertGreaterThanOrEqual(compositor.hits.count, 12 + 8)
    }
}
