@testable import FBRuntime
import MallocCounter
import Raster
import TestSupport
import XCTest

/// Painting a frame's damage in bands on several threads
/// (`Compositor.paintThreads`, ParallelPaint.swift) against its reference,
/// the same frames painted on one thread: equal bit for bit, frame after
/// frame, with shadows from cached `shadowPath` images, offscreen groups,
/// rounded and turned clips, mask layers, trilinear images (mip chains
/// shared by the painters) and layers moving and turning across the band
/// edges, and text, shapes and gradients over them. Frames that hold
/// what the painters cannot share (a replicator) are painted on one
/// thread and still match.
final class ParallelPaintTests: XCTestCase {
    static let width = 480, height = 320

    static func image(_ size: Int, seed: UInt32) -> LayerContents {
        let s = Surface<ARGB8888>(width: size, height: size)!
        for y in 0..<size {
            for x in 0..<size {
                let ring = Swift.abs((x - size / 2) * (x - size / 2) + (y - size / 2) * (y - size / 2) - size * size / 9) < size * 2
                s.view[x, y] = ring ? 0xFFFF_FFFF
                    : 0xFF00_0000 | UInt32(x * 255 / size) << 16 | UInt32(y * 255 / size) << 8 | (seed & 0xFF)
            }
        }
        return LayerContents(s, isOpaque: true)
    }

    /// Cards with shadows and rounded photos, translucent groups, a masked
    /// layer and trilinear thumbnails, sliding and turning (periods of
    /// 1–3 s) over an opaque root.
    static func scene(at time: MediaTime) throws -> Layer {
        let root = Layer(name: "root")
        root.bounds = Rect(x: 0, y: 0, width: Double(Self.width), height: Double(Self.height))
        root.anchorPoint = .zero
        root.backgroundColor = Color(rgb: 0x202428)
        let pictures = [image(128, seed: 40), image(96, seed: 200)]
        for i in 0..<24 {
            let layer: Layer
            switch i % 4 {
            case 0:
                layer = Layer(name: "card")
                layer.bounds = Rect(x: 0, y: 0, width: 90, height: 64)
                layer.backgroundColor = Color(rgb: 0xF4F1EA)
                layer.cornerRadius = 8
                layer.shadowOpacity = 0.4
                layer.shadowRadius = 6
                layer.shadowOffset = Size(width: 0, height: 4)
                layer.shadowPath = Path(roundedRect: 0, 0, 90, 64, radii: CornerRadii(8))
                let photo = Layer(name: "photo")
                photo.bounds = Rect(x: 0, y: 0, width: 80, height: 54)
                photo.anchorPoint = .zero
                photo.position = Point(x: 5, y: 5)
                photo.contents = pictures[i % 2]
                photo.cornerRadius = 6
                photo.masksToBounds = true
                try layer.addSublayer(photo)
            case 1:
                layer = Layer(name: "group")
                layer.bounds = Rect(x: 0, y: 0, width: 80, height: 80)
                layer.backgroundColor = Color(rgb: 0x3B6EA5)
                layer.cornerRadius = 12
                layer.opacity = 0.5
                for k in 0..<3 {
                    let dot = Layer(name: "dot")
                    dot.bounds = Rect(x: 0, y: 0, width: 36, height: 36)
                    dot.position = Point(x: 22 + Double(k) * 18, y: 26 + Double(k % 2) * 20)
                    dot.cornerRadius = 18
                    dot.backgroundColor = Color(red: 0.9, green: 0.3 + 0.2 * Double(k), blue: 0.3)
                    try layer.addSublayer(dot)
                }
            case 2:
                layer = Layer(name: "thumbnail")
                layer.bounds = Rect(x: 0, y: 0, width: 50, height: 50)
                layer.contents = pictures[(i / 4) % 2]
                layer.minificationFilter = .trilinear
                layer.cornerRadius = 10
                layer.masksToBounds = true
            default:
                layer = Layer(name: "masked")
                layer.bounds = Rect(x: 0, y: 0, width: 70, height: 70)
                layer.backgroundColor = Color(rgb: 0x8BC34A)
                layer.borderWidth = 3
                layer.borderColor = Color(rgb: 0x1B5E20)
                let mask = Layer(name: "mask")
                mask.bounds = Rect(x: 0, y: 0, width: 50, height: 50)
                mask.position = Point(x: 35, y: 35)
                mask.cornerRadius = 25
                mask.backgroundColor = Color(rgb: 0xFFFFFF)
                layer.mask = mask
            }
            layer.position = Point(x: 50 + Double(i % 6) * 75, y: 40 + Double(i / 6) * 75)
            try root.addSublayer(layer)
            var slide = BasicAnimation(key: .position, from: .point(layer.position),
                                       to: .point(Point(x: layer.position.x + 40, y: layer.position.y + 30 - Double(i % 3) * 25)),
                                       duration: 1 + Double(i % 3) * 0.7)
            slide.autoreverses = true
            slide.repeatCount = .infinity
            layer.add(slide, forKey: "slide", at: time)
            if i % 3 == 1 {
                var turn = BasicAnimation(key: .transformRotationZ, from: .scalar(0), to: .scalar(2 * Double.pi), duration: 3)
                turn.repeatCount = .infinity
                layer.add(turn, forKey: "turn", at: time)
            }
        }
        return root
    }

    /// Renders `frames` frames of `root` with a compositor of each thread
    /// count, each into its own kept target (damage-only redraws), and
    /// requires every frame equal to the one-thread frame.
    func assertSameFrames(_ root: Layer, frames: Int, threadCounts: [Int], expectBands: Bool,
                          file: StaticString = #filePath, line: UInt = #line) {
        let reference = Compositor()
        let referenceTarget = Surface<ARGB8888>(width: Self.width, height: Self.height)!
        let others = threadCounts.map { n -> (Compositor, Surface<ARGB8888>) in
            let c = Compositor()
            c.paintThreads = n
            return (c, Surface<ARGB8888>(width: Self.width, height: Self.height)!)
        }
        var banded = 0
        for frame in 0..<frames {
            let t = MediaTime(1 + Double(frame) / 30)
            reference.render(root, at: t, into: referenceTarget.view)
            XCTAssertLessThanOrEqual(reference.statistics.paintBands, 1, file: file, line: line)
            for (k, (c, target)) in others.enumerated() {
                c.render(root, at: t, into: target.view)
                XCTAssertEqual(c.damage.rects, reference.damage.rects, "frame \(frame), \(threadCounts[k]) threads: damage",
                               file: file, line: line)
                if c.statistics.paintBands > 1 { banded += 1 }
                if !expectBands { XCTAssertLessThanOrEqual(c.statistics.paintBands, 1, file: file, line: line) }
                for y in 0..<Self.height {
                    let a = target.view.row(y), b = referenceTarget.view.row(y)
                    var x = 0
                    while x < Self.width && a[x] == b[x] { x += 1 }
                    if x < Self.width {
                        XCTFail("frame \(frame), \(threadCounts[k]) threads: pixel (\(x), \(y)) is \(String(a[x], radix: 16)), "
                                + "one thread drew \(String(b[x], radix: 16))", file: file, line: line)
                        return
                    }
                }
            }
        }
        if expectBands {
            XCTAssertEqual(banded, frames * threadCounts.count, "every frame painted in bands", file: file, line: line)
        }
    }

    func testBandsPaintTheSameFramesAsOneThread() throws {
        let root = try Self.scene(at: 1)
        assertSameFrames(root, frames: 10, threadCounts: [2, 3, 8], expectBands: true)
    }

    /// Bands cut through a layer's shadow, group and clip passes at every
    /// row: a scene painted in 8 bands over 320 rows, turning layers on
    /// the edges, matches too (above); here the painters' statistics add
    /// up to the one-thread frame's where they must.
    func testStatisticsOfBandedFrames() throws {
        let root = try Self.scene(at: 1)
        let one = Compositor(), two = Compositor()
        two.paintThreads = 2
        let a = Surface<ARGB8888>(width: Self.width, height: Self.height)!
        let b = Surface<ARGB8888>(width: Self.width, height: Self.height)!
        for frame in 0..<5 {
            let t = MediaTime(1 + Double(frame) / 30)
            one.render(root, at: t, into: a.view)
            two.render(root, at: t, into: b.view)
            XCTAssertEqual(one.statistics.paintBands, 1)
            XCTAssertEqual(two.statistics.paintBands, 2)
            XCTAssertEqual(two.statistics.pixelsDamaged, one.statistics.pixelsDamaged)
            // Each animated layer is still evaluated once per frame: the
            // painters read the survey's memos.
            XCTAssertEqual(two.statistics.animationEvaluations, one.statistics.animationEvaluations)
        }
    }

    /// Text, a stroked shape whose `strokeEnd` animates and a gradient,
    /// each across the band edges while they move: their own caches
    /// (layouts, glyph masks, stroke outlines, gradient images) are filled
    /// under their own-content locks, and the bands still match.
    func testTextShapesAndGradientsPaintInBands() throws {
        let root = try Self.scene(at: 1)
        for k in 0..<3 {
            let text = TextLayer()
            text.string = "Bands \(k): the quick brown fox"
            text.fontSize = 18 + Double(k) * 6
            text.bounds = Rect(x: 0, y: 0, width: 300, height: 40)
            text.position = Point(x: 240, y: 100 + Double(k) * 60)
            text.foregroundColor = Color(rgb: 0xFFFFFF)
            try root.addSublayer(text)
            text.add(BasicAnimation(key: .position, from: .point(text.position),
                                    to: .point(Point(x: 260, y: 140 + Double(k) * 50)), duration: 1), forKey: "move", at: 1)
        }
        let ring = ShapeLayer()
        ring.bounds = Rect(x: 0, y: 0, width: 160, height: 160)
        ring.position = Point(x: 240, y: 160)
        ring.path = Path(ellipseIn: 10, 10, 140, 140)
        ring.fillColor = nil
        ring.strokeColor = Color(rgb: 0xFFC107)
        ring.lineWidth = 12
        ring.lineCap = .round
        try root.addSublayer(ring)
        ring.add(BasicAnimation(key: .strokeEnd, from: .scalar(0.1), to: .scalar(1), duration: 1), forKey: "end", at: 1)
        let gradient = GradientLayer()
        gradient.bounds = Rect(x: 0, y: 0, width: 200, height: 120)
        gradient.position = Point(x: 120, y: 160)
        gradient.colors = [Color(rgb: 0xE91E63), Color(rgb: 0x3F51B5)]
        gradient.cornerRadius = 16
        try root.addSublayer(gradient)
        gradient.add(BasicAnimation(key: .position, from: .point(gradient.position), to: .point(Point(x: 360, y: 170)),
                                    duration: 1), forKey: "move", at: 1)
        assertSameFrames(root, frames: 8, threadCounts: [3], expectBands: true)
    }

    /// A replicator (its instances are drawn at several times and places
    /// from one unit) is painted on one thread, and matches.
    func testFramesWithReplicatorsArePaintedOnOneThread() throws {
        let root = try Self.scene(at: 1)
        let replicator = ReplicatorLayer()
        replicator.bounds = Rect(x: 0, y: 0, width: 300, height: 60)
        replicator.position = Point(x: 240, y: 160)
        replicator.instanceCount = 5
        replicator.instanceTransform = .translation(x: 50, y: 0, z: 0)
        let dot = Layer(name: "dot")
        dot.bounds = Rect(x: 0, y: 0, width: 30, height: 30)
        dot.position = Point(x: 20, y: 30)
        dot.cornerRadius = 15
        dot.backgroundColor = Color(rgb: 0xFFFFFF)
        try replicator.addSublayer(dot)
        try root.addSublayer(replicator)
        assertSameFrames(root, frames: 3, threadCounts: [2], expectBands: false)
    }

    func testSmallDamageIsPaintedOnOneThread() throws {
        let root = Layer(name: "root")
        root.bounds = Rect(x: 0, y: 0, width: Double(Self.width), height: Double(Self.height))
        root.anchorPoint = .zero
        root.backgroundColor = Color(rgb: 0x202428)
        let mover = Layer(name: "mover")
        mover.bounds = Rect(x: 0, y: 0, width: 40, height: 40)
        mover.backgroundColor = Color(rgb: 0xFF8800)
        mover.cornerRadius = 8
        mover.position = Point(x: 100, y: 100)
        try root.addSublayer(mover)
        mover.add(BasicAnimation(key: .position, from: .point(Point(x: 100, y: 100)), to: .point(Point(x: 300, y: 200)),
                                 duration: 1), forKey: "move", at: 1)
        let c = Compositor()
        c.paintThreads = 2
        let target = Surface<ARGB8888>(width: Self.width, height: Self.height)!
        c.render(root, at: 1, into: target.view)
        XCTAssertEqual(c.statistics.paintBands, 2, "the first frame is a full frame, large enough")
        c.render(root, at: 1.1, into: target.view)
        XCTAssertEqual(c.statistics.paintBands, 1, "a small move is painted on one thread")
        XCTAssertTrue(c.paintWorkers.count == 1)
    }

    /// The band edges split the damage's area evenly.
    func testBandEdgesSplitTheDamageArea() {
        let c = Compositor()
        let target = Surface<ARGB8888>(width: 100, height: 100)!
        c.render(Layer(), at: 0, into: target.view)   // a full frame: the whole target is damaged
        let bounds = IntRect(x: 0, y: 0, width: 100, height: 100)
        XCTAssertEqual(c.rowSplittingDamage(atArea: 5000, bounds: bounds), 50)
        XCTAssertEqual(c.rowSplittingDamage(atArea: 2500, bounds: bounds), 25)
        XCTAssertEqual(c.rowSplittingDamage(atArea: 1, bounds: bounds), 1)
        XCTAssertEqual(c.rowSplittingDamage(atArea: 0, bounds: bounds), 0)
    }
}

/// Frames painted in bands allocate nothing in steady state, on either
/// thread (release build; `AllocationChecks`).
final class ParallelPaintAllocationTests: XCTestCase {
    func testBandedFramesAllocateNothing() throws {
        let root = try ParallelPaintTests.scene(at: 1)
        let surface = try XCTUnwrap(Surface<ARGB8888>(width: ParallelPaintTests.width, height: ParallelPaintTests.height))
        let compositor = Compositor()
        compositor.paintThreads = 2
        // Warm-up: the painter thread starts, pools and scratch grow.
        var frame = 0
        while frame < 60 { compositor.render(root, at: 1 + Double(frame) / 60, into: surface.view); frame += 1 }
        var perFrame: [UInt64] = []
        perFrame.reserveCapacity(30)
        var banded = 0
        fbr_malloc_counter_all_threads(1)
        while frame < 90 {
            fbr_malloc_counter_begin()
            compositor.render(root, at: 1 + Double(frame) / 60, into: surface.view)
            perFrame.append(fbr_malloc_counter_end())
            if compositor.statistics.paintBands == 2 { banded += 1 }
            frame += 1
        }
        fbr_malloc_counter_all_threads(0)
        XCTAssertEqual(banded, 30, "every frame was painted in two bands")
        XCTAssertNoAllocations(perFrame, "heap allocations per banded frame, both threads")
    }
}
