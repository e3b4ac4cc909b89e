import FBRuntime
import MallocCounter
import Raster
import TestSupport
import XCTest

/// Every kind of animation running, frame after frame: once the warm-up
/// has grown the caches, evaluating them and drawing the frame allocate
/// nothing (`SteadyStateAllocationTests` covers basic animations only).
final class AnimationKindsAllocationTests: XCTestCase {
    private func dot(_ name: String, _ x: Double, _ y: Double, _ root: Layer) -> Layer {
        let l = Layer(name: name)
        l.bounds = Rect(x: 0, y: 0, width: 24, height: 24)
        l.position = Point(x: x, y: y)
        l.backgroundColor = Color(rgb: 0x2E86AB)
        l.cornerRadius = 6
        try! root.addSublayer(l)
        return l
    }

    private func repeating(_ t: inout MediaTiming, _ duration: Double) {
        t.duration = duration
        t.repeatCount = .infinity
    }

    /// One layer per kind: keyframes in each calculation mode (with key
    /// times, timing functions and tension), along a path with auto
    /// rotation, a group, a spring, additive and cumulative basics.
    private func makeScene(at time: MediaTime) -> (Layer, [Layer]) {
        let root = Layer(name: "root")
        root.bounds = Rect(x: 0, y: 0, width: 240, height: 160)
        root.anchorPoint = .zero
        root.backgroundColor = Color(rgb: 0x202830)
        var layers: [Layer] = []
        func keyframe(_ key: AnimatableKey, _ values: [AnimatableValue], _ mode: CalculationMode,
                      _ name: String, _ x: Double, _ y: Double, configure: (inout KeyframeAnimation) -> Void = { _ in }) {
            let l = dot(name, x, y, root)
            var a = KeyframeAnimation(key: key, values: values)
            a.calculationMode = mode
            repeating(&a.timing, 0.5)
            configure(&a)
            l.add(a, forKey: name, at: time)
            layers.append(l)
        }
        keyframe(.opacity, [.scalar(1), .scalar(0.2), .scalar(0.7), .scalar(1)], .linear, "linear", 20, 20) {
            $0.keyTimes = [0, 0.2, 0.7, 1]
            $0.timingFunctions = [.easeIn, .easeOut, .easeInEaseOut]
        }
        keyframe(.position, [.point(Point(x: 60, y: 20)), .point(Point(x: 90, y: 30)), .point(Point(x: 60, y: 50))],
                 .paced, "paced", 60, 20)
        keyframe(.transformRotationZ, [.scalar(0), .scalar(1), .scalar(-0.5), .scalar(0)], .cubic, "cubic", 120, 20) {
            $0.tensionValues = [0, 0.5, -0.5, 0]
        }
        keyframe(.backgroundColor, [.color(Color(rgb: 0xE84855)), .color(Color(rgb: 0x9BC53D)), .color(Color(rgb: 0xF2A541))],
                 .discrete, "discrete", 160, 20)
        keyframe(.positionX, [.scalar(200), .scalar(220), .scalar(190)], .cubicPaced, "cubicPaced", 200, 20)
        keyframe(.position, [], .paced, "alongPath", 20, 80) {
            $0.path = Path(roundedRect: 10, 70, 60, 40, radii: CornerRadii(12))
            $0.rotationMode = .auto
        }

        let grouped = dot("group", 120, 80, root)
        var fade = BasicAnimation(key: .opacity, from: .scalar(0.3), to: .scalar(1))
        fade.duration = 0.25
        var turn = KeyframeAnimation(key: .transformRotationZ, values: [.scalar(0), .scalar(3), .scalar(0)])
        turn.timing.beginTime = 0.1
        var group = AnimationGroup([.basic(fade), .keyframe(turn)], duration: 0.5)
        group.timing.repeatCount = .infinity
        grouped.add(group, forKey: "group", at: time)
        layers.append(grouped)

        let sprung = dot("spring", 170, 80, root)
        var spring = SpringAnimation(key: .positionY, from: .scalar(60), to: .scalar(100))
        spring.damping = 4
        repeating(&spring.basic.timing, 0.5)
        sprung.add(spring, forKey: "spring", at: time)
        layers.append(sprung)

        let added = dot("additive", 210, 80, root)
        var nudge = BasicAnimation(key: .position, from: .point(Point(x: 0, y: 0)), to: .point(Point(x: 10, y: 20)))
        nudge.isAdditive = true
        repeating(&nudge.timing, 0.25)
        added.add(nudge, forKey: "nudge", at: time)
        var grow = BasicAnimation(key: .bounds, from: .rect(added.bounds), to: .rect(Rect(x: 0, y: 0, width: 30, height: 16)))
        grow.isCumulative = true
        grow.timing.duration = 0.125
        grow.timing.repeatCount = 4
        grow.timing.autoreverses = true
        grow.timing.fillMode = .both
        added.add(grow, forKey: "grow", at: time)
        layers.append(added)
        return (root, layers)
    }

    /// Renders `frames` frames at 60 Hz from `start` (the warm-up), then
    /// `frames` more, counting each one's allocations; returns the counts,
    /// the most layers drawn by a measured frame and the fewest pixels
    /// written by one.
    /// `FBR_ALLOC_TRACE=1` prints the first measured frame's allocations.
    /// `beforeEachFrame(i)` runs before frame `i` is drawn, counted (the
    /// app's own work of a frame, such as presenting a pixel buffer).
    func measure(_ root: Layer, from start: MediaTime, frames: Int, beforeEachFrame: ((Int) -> Void)? = nil) throws
        -> (perFrame: [UInt64], layersDrawn: Int, pixelsWritten: Int) {
        let surface = try XCTUnwrap(Surface<ARGB8888>(width: Int(root.bounds.width), height: Int(root.bounds.height)))
        let compositor = Compositor()
        for i in 0..<frames {
            beforeEachFrame?(i)
            compositor.render(root, at: start + Double(i) / 60, into: surface.view)
        }
        var perFrame: [UInt64] = []
        perFrame.reserveCapacity(frames)
        let trace = ProcessInfo.processInfo.environment["FBR_ALLOC_TRACE"] == "1"
        var drawn = 0, written = Int.max
        var i = frames
        while i < 2 * frames {
            fbr_malloc_counter_trace(trace && i == frames ? 1 : 0)
            fbr_malloc_counter_begin()
            beforeEachFrame?(i)
            compositor.render(root, at: start + Double(i) / 60, into: surface.view)
            perFrame.append(fbr_malloc_counter_end())
            fbr_malloc_counter_trace(0)
            drawn = max(drawn, compositor.statistics.layersDrawn)
            written = min(written, compositor.statistics.pixelsWritten)
            i += 1
        }
        return (perFrame, drawn, written)
    }

    func testEveryKindOfAnimationAllocatesNothingPerFrame() throws {
        let start: MediaTime = 10
        let (root, layers) = makeScene(at: start)
        let frames = 30                                     // 0.5 s at 60 Hz: one period of every animation
        let m = try measure(root, from: start, frames: frames)
        XCTAssertNoAllocations(m.perFrame, "heap allocations per frame")
        XCTAssertGreaterThanOrEqual(m.layersDrawn, layers.count, "the animated layers were drawn")
        // The animations ran: each layer's presentation differs from its
        // model somewhere in the measured period.
        for layer in layers {
            var moved = false
            for i in frames..<(2 * frames) where !moved {
                let p = layer.presentation(at: start + Double(i) / 60)
                moved = p.position != layer.position || p.opacity != layer.opacity || p.bounds != layer.bounds
                    || p.transform != layer.transform || p.backgroundColor != layer.backgroundColor
            }
            XCTAssertTrue(moved, "\(layer.name) animates")
        }
    }
}

extension AnimationKindsAllocationTests {
    /// A gradient whose colours and locations animate is drawn again every
    /// frame (a new gradient image each time): that allocates nothing once
    /// warm either.
    func testAnimatedGradientAllocatesNothingPerFrame() throws {
        try assertGradientAllocatesNothing(keyframes: false)
    }

    func testGradientWithKeyframesAllocatesNothingPerFrame() throws {
        try assertGradientAllocatesNothing(keyframes: true)
    }

    private func assertGradientAllocatesNothing(keyframes: Bool) throws {
        let root = Layer(name: "root")
        root.bounds = Rect(x: 0, y: 0, width: 240, height: 160)
        root.anchorPoint = .zero
        let gradient = GradientLayer()
        gradient.bounds = Rect(x: 0, y: 0, width: 200, height: 120)
        gradient.position = Point(x: 120, y: 80)
        gradient.colors = [Color(rgb: 0xE84855), Color(rgb: 0x2E86AB), Color(rgb: 0xF2A541)]
        gradient.locations = [0, 0.5, 1]
        try root.addSublayer(gradient)
        let start: MediaTime = 10
        var colors = BasicAnimation(key: .custom("colors"), from: .colors(gradient.colors),
                                    to: .colors([Color(rgb: 0x9BC53D), Color(rgb: 0x202830), Color(rgb: 0xFFFFFF)]))
        colors.timing.duration = 0.5
        colors.timing.autoreverses = true
        colors.timing.repeatCount = .infinity
        var locations = BasicAnimation(key: .custom("locations"), from: .scalars([0, 0.5, 1]), to: .scalars([0, 0.2, 1]))
        locations.timing.duration = 1
        locations.timing.repeatCount = .infinity
        if keyframes {
            var k = KeyframeAnimation(key: .custom("colors"), values: [colors.fromValue!, colors.toValue!, .colors(gradient.colors.reversed())])
            k.timing = colors.timing
            k.calculationMode = .paced
            gradient.add(k, forKey: "colors", at: start)
            var l = KeyframeAnimation(key: .custom("locations"), values: [locations.fromValue!, locations.toValue!, .scalars([0, 0.8, 1])])
            l.timing = locations.timing
            l.keyTimes = [0, 0.25, 1]
            gradient.add(l, forKey: "locations", at: start)
        } else {
            gradient.add(colors, forKey: "colors", at: start)
            gradient.add(locations, forKey: "locations", at: start)
        }
        let frames = 60
        let m = try measure(root, from: start, frames: frames)
        XCTAssertNoAllocations(m.perFrame, "heap allocations per frame")
        XCTAssertGreaterThanOrEqual(m.pixelsWritten, 200 * 120, "every frame drew the whole gradient again")
    }

    /// A shape morphing through keyframes, filled and stroked.
    func testKeyframeMorphAllocatesNothingPerFrame() throws {
        func blob(_ k: Double) -> Path {
            var p = Path()
            var i = 0
            while i < 40 {
                let a = Double(i) / 40 * 2 * Double.pi, r = 40 + 12 * sin(a * 3 + k)
                let point = PathPoint(x: 120 + r * cos(a), y: 80 + r * sin(a))
                if i == 0 { p.move(to: point) } else { p.line(to: point) }
                i += 1
            }
            p.close()
            return p
        }
        let root = Layer(name: "root")
        root.bounds = Rect(x: 0, y: 0, width: 240, height: 160)
        root.anchorPoint = .zero
        let shape = ShapeLayer()
        shape.bounds = root.bounds
        shape.anchorPoint = .zero
        shape.path = blob(0)
        shape.fillColor = Color(rgb: 0x2E86AB)
        shape.strokeColor = Color(rgb: 0xFFFFFF)
        shape.lineWidth = 3
        try root.addSublayer(shape)
        let start: MediaTime = 10
        var morph = KeyframeAnimation(key: .custom("path"), values: [.path(blob(0)), .path(blob(2)), .path(blob(4)), .path(blob(0))], duration: 0.5)
        morph.keyTimes = [0, 0.2, 0.6, 1]
        morph.timing.repeatCount = .infinity
        shape.add(morph, forKey: "morph", at: start)
        let frames = 30
        let m = try measure(root, from: start, frames: frames)
        XCTAssertNoAllocations(m.perFrame, "heap allocations per frame")
        XCTAssertGreaterThan(m.pixelsWritten, 1000, "every frame redrew the moving shape")
    }

    /// Animated looks rather than geometry: a shadow's radius and offset,
    /// a clipping corner radius, a border, a mask that moves, a sprite
    /// sheet's `contentsRect`, a card turning in 3-D under a perspective,
    /// and text changing colour.
    /// A 240 × 160 root with a dark background.
    private func darkRoot() -> Layer {
        let root = Layer(name: "root")
        root.bounds = Rect(x: 0, y: 0, width: 240, height: 160)
        root.anchorPoint = .zero
        root.backgroundColor = Color(rgb: 0x202830)
        return root
    }

    /// A basic animation from `from` to `to` and back every half second.
    private func repeating(_ key: AnimatableKey, _ from: AnimatableValue, _ to: AnimatableValue) -> BasicAnimation {
        var a = BasicAnimation(key: key, from: from, to: to)
        a.timing.duration = 0.25
        a.timing.autoreverses = true
        a.timing.repeatCount = .infinity
        return a
    }

    func testAnimatedLooksAllocateNothingPerFrame() throws {
        let root = darkRoot()
        let start: MediaTime = 10
        let shadowed = dot("shadowed", 30, 30, root)
        shadowed.shadowOpacity = 0.6
        shadowed.add(repeating(.shadowRadius, .scalar(2), .scalar(8)), forKey: "r", at: start)
        shadowed.add(repeating(.shadowOffset, .point(Point(x: 0, y: 2)), .point(Point(x: 4, y: 6))), forKey: "o", at: start)
        let clipped = dot("clipped", 80, 30, root)
        clipped.masksToBounds = true
        let inner = Layer(name: "inner")
        inner.bounds = Rect(x: 0, y: 0, width: 40, height: 40)
        inner.backgroundColor = Color(rgb: 0xF2A541)
        try clipped.addSublayer(inner)
        clipped.add(repeating(.cornerRadius, .scalar(0), .scalar(12)), forKey: "c", at: start)
        let bordered = dot("bordered", 130, 30, root)
        bordered.borderColor = Color(rgb: 0xFFFFFF)
        bordered.add(repeating(.borderWidth, .scalar(1), .scalar(6)), forKey: "b", at: start)
        bordered.add(repeating(.borderColor, .color(Color(rgb: 0xFFFFFF)), .color(Color(rgb: 0xE84855))), forKey: "bc", at: start)
        let masked = dot("masked", 180, 30, root)
        let mask = Layer(name: "mask")
        mask.bounds = Rect(x: 0, y: 0, width: 14, height: 14)
        mask.cornerRadius = 7
        mask.backgroundColor = Color(rgb: 0xFFFFFF)
        masked.mask = mask
        mask.add(repeating(.position, .point(Point(x: 7, y: 7)), .point(Point(x: 17, y: 17))), forKey: "m", at: start)
        let sprite = dot("sprite", 30, 100, root)
        let sheet = Surface<ARGB8888>(width: 64, height: 16)!
        for y in 0..<16 { for x in 0..<64 { sheet.view[x, y] = 0xFF00_0000 | UInt32(x * 4) << 16 | UInt32(y * 16) } }
        sprite.contents = LayerContents(sheet, isOpaque: true)
        var frames = KeyframeAnimation(key: .contentsRect, values: (0..<4).map { .rect(Rect(x: Double($0) / 4, y: 0, width: 0.25, height: 1)) },
                                       duration: 0.5)
        frames.calculationMode = .discrete
        frames.timing.repeatCount = .infinity
        sprite.add(frames, forKey: "frames", at: start)
        let stage = Layer(name: "stage")
        stage.bounds = Rect(x: 0, y: 0, width: 80, height: 60)
        stage.position = Point(x: 110, y: 110)
        stage.sublayerTransform = .perspective(distance: 300)
        try root.addSublayer(stage)
        let card = dot("card", 40, 30, stage)
        card.isDoubleSided = false
        card.add(repeating(.transformRotationY, .scalar(-1.2), .scalar(1.2)), forKey: "turn", at: start)
        let text = TextLayer()
        text.string = "Ready"
        text.fontSize = 14
        text.bounds = Rect(x: 0, y: 0, width: 60, height: 20)
        text.position = Point(x: 200, y: 110)
        text.font = try? Font(path: "/usr/share/fonts/truetype/dejavu/DejaVuSans.ttf")
        try root.addSublayer(text)
        text.add(repeating(.custom("foregroundColor"), .color(Color(rgb: 0xFFFFFF)), .color(Color(rgb: 0x9BC53D))), forKey: "tint", at: start)
        let m = try measure(root, from: start, frames: 30)
        XCTAssertNoAllocations(m.perFrame, "heap allocations per frame")
        XCTAssertGreaterThanOrEqual(m.layersDrawn, 8, "the animated layers were drawn")
    }

    /// The other content kinds with something moving every frame: a
    /// replicator of an animated dot, a transform layer sorting its faces
    /// as they turn in 3-D (split where they cross), a rasterized group
    /// moving, a frosted backdrop over moving content, and a pixel buffer
    /// the app writes and presents.
    func testOtherContentKindsAllocateNothingPerFrame() throws {
        let root = darkRoot()
        let start: MediaTime = 10
        let replicator = ReplicatorLayer()
        replicator.bounds = Rect(x: 0, y: 0, width: 100, height: 30)
        replicator.position = Point(x: 60, y: 20)
        replicator.instanceCount = 5
        replicator.instanceDelay = 0.05
        replicator.instanceTransform = Transform3D(translationX: 18, y: 0)
        replicator.instanceAlphaOffset = -0.15
        try root.addSublayer(replicator)
        let bead = dot("bead", 10, 15, replicator)
        bead.bounds = Rect(x: 0, y: 0, width: 12, height: 12)
        bead.add(repeating(.positionY, .scalar(8), .scalar(22)), forKey: "bob", at: start)

        let cube = TransformLayer()
        cube.bounds = Rect(x: 0, y: 0, width: 60, height: 60)
        cube.position = Point(x: 180, y: 40)
        var perspective = Transform3D.identity
        perspective.m34 = -1 / 300
        cube.transform = perspective
        try root.addSublayer(cube)
        for (i, angle) in [0.0, Double.pi / 2, Double.pi, 3 * Double.pi / 2, Double.pi / 3].enumerated() {
            // Four faces of a box, and one plane through its middle that
            // the others cut.
            let face = dot("face\(i)", 30, 30, cube)
            face.bounds = Rect(x: 0, y: 0, width: 40, height: 40)
            face.transform = Transform3D(rotationAngle: angle, x: 0, y: 1, z: 0)
                .concatenating(Transform3D(translationX: 0, y: 0, z: i == 4 ? 0 : 20))
            face.backgroundColor = Color(red: 0.2 * Double(i), green: 0.6, blue: 0.8, alpha: 0.9)
        }
        cube.add(repeating(.sublayerTransform, .transform(.identity), .transform(Transform3D(rotationAngle: 1.2, x: 0, y: 1, z: 0))),
                 forKey: "spin", at: start)

        let rasterized = dot("rasterized", 40, 90, root)
        rasterized.shouldRasterize = true
        rasterized.shadowOpacity = 0.5
        rasterized.shadowRadius = 3
        _ = dot("inside", 12, 12, rasterized)
        rasterized.add(repeating(.position, .point(Point(x: 40, y: 90)), .point(Point(x: 60, y: 100))), forKey: "move", at: start)

        let behind = dot("behind", 120, 100, root)
        behind.add(repeating(.positionX, .scalar(100), .scalar(140)), forKey: "slide", at: start)
        let glass = Layer(name: "glass")
        glass.bounds = Rect(x: 0, y: 0, width: 60, height: 40)
        glass.position = Point(x: 120, y: 100)
        glass.cornerRadius = 8
        glass.backgroundBlurRadius = 6
        glass.backgroundColor = Color(red: 1, green: 1, blue: 1, alpha: 0.2)
        try root.addSublayer(glass)

        let video = try XCTUnwrap(PixelBufferLayer(width: 32, height: 24, isOpaque: true))
        video.bounds = Rect(x: 0, y: 0, width: 48, height: 36)
        video.position = Point(x: 200, y: 120)
        try root.addSublayer(video)
        var frame = 0
        let onFrame: (Int) -> Void = { _ in
            frame += 1
            let shade = UInt32(frame % 256)
            video.withBackBuffer { view in
                var y = 0
                while y < view.height { view.row(y).update(repeating: 0xFF00_0000 | shade << 8, count: view.width); y += 1 }
            }
            video.present()
        }
        let m = try measure(root, from: start, frames: 30, beforeEachFrame: onFrame)
        XCTAssertNoAllocations(m.perFrame, "heap allocations per frame")
        XCTAssertGreaterThanOrEqual(m.layersDrawn, 10, "the animated layers were drawn")
    }
}
