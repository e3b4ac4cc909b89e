@testable import FBRuntime
import MallocCounter
import Raster
import TestSupport
import XCTest

/// Issue 8: the content layers' steady state allocates nothing per frame
/// once caches and scratch storage have grown (the MallocCounter hook, as
/// `SteadyStateAllocationTests`; these run in debug builds too).
final class ContentSteadyStateAllocationTests: XCTestCase {
    /// Renders `warmUp` frames at 60 Hz from `start`, then counts the
    /// allocations of each of the next `frames`.
    func allocations(_ root: Layer, size: (Int, Int), start: MediaTime, warmUp: Int, frames: Int,
                     check: (Compositor) -> Void = { _ in }) throws -> [UInt64] {
        let surface = try XCTUnwrap(Surface<ARGB8888>(width: size.0, height: size.1))
        let compositor = Compositor()
        for i in 0..<warmUp { compositor.render(root, at: start + Double(i) / 60, into: surface.view) }
        var perFrame: [UInt64] = []
        perFrame.reserveCapacity(frames)
        var drawn = 0, pixels = 0
        let trace = ProcessInfo.processInfo.environment["FBR_ALLOC_TRACE"] == "1"
        for i in warmUp..<(warmUp + frames) {
            fbr_malloc_counter_trace(trace && i == warmUp ? 1 : 0)
            fbr_malloc_counter_begin()
            compositor.render(root, at: start + Double(i) / 60, into: surface.view)
            perFrame.append(fbr_malloc_counter_end())
            fbr_malloc_counter_trace(0)
            check(compositor)
            drawn = max(drawn, compositor.statistics.layersDrawn)
            pixels += compositor.statistics.pixelsWritten
        }
        XCTAssertGreaterThan(drawn, 1, "the content layers were drawn")
        XCTAssertGreaterThan(pixels, 0)
        return perFrame
    }

    func wing(_ segments: Int, phase: Double) -> Path {
        var p = Path()
        for i in 0..<segments {
            let a = Double(i) / Double(segments) * 2 * Double.pi
            let r = 40 + 20 * sin(2 * a + phase)
            let point = PathPoint(x: 60 + r * cos(a), y: 60 + r * sin(a) * 0.8)
            if i == 0 { p.move(to: point) } else { p.line(to: point) }
        }
        p.close()
        return p
    }

    func repeating(_ a: BasicAnimation, duration: Double) -> BasicAnimation {
        var a = a
        a.duration = duration
        a.autoreverses = true
        a.repeatCount = .infinity
        return a
    }

    /// A dashed, trimmed stroke whose dash phase and stroke end animate
    /// (the marching ants): restroked every frame, into the same storage.
    func testAnimatedStrokeAllocatesNothing() throws {
        let start: MediaTime = 5
        let root = try antsScene(start: start) { $0.lineJoin = .round }
        // One period (0.5 s there and back) to warm up, one measured.
        let perFrame = try allocations(root, size: (160, 120), start: start, warmUp: 60, frames: 60)
        XCTAssertNoAllocations(perFrame, "heap allocations per frame")
    }

    /// A 300-segment path morphing, with its stroke end and dash phase
    /// animating: the morphed path is written into the storage of the one
    /// before (`ShapeLayer.plainMorph`), the stroke reuses its own.
    func testMorphingShapeAllocatesNothingPerFrame() throws {
        let start: MediaTime = 5
        let root = try antsScene(start: start) { shape in
            shape.add(self.repeating(BasicAnimation(key: .custom("path"), from: .path(self.wing(300, phase: 0)),
                                                    to: .path(self.wing(300, phase: 2))), duration: 0.5),
                      forKey: "morph", at: start)
        }
        let perFrame = try allocations(root, size: (160, 120), start: start, warmUp: 60, frames: 60)
        XCTAssertNoAllocations(perFrame, "heap allocations per frame")
    }

    /// A 160×120 root holding a filled, stroked, dashed 300-segment wing
    /// whose dash phase ("ants") and stroke end ("draw") animate from
    /// `start`; `configure` adds to the shape before the ants.
    func antsScene(start: MediaTime, configure: (ShapeLayer) -> Void) throws -> Layer {
        let root = Layer(name: "root")
        root.bounds = Rect(x: 0, y: 0, width: 160, height: 120)
        root.anchorPoint = .zero
        let shape = ShapeLayer()
        shape.bounds = Rect(x: 0, y: 0, width: 120, height: 120)
        shape.position = Point(x: 80, y: 60)
        shape.path = wing(300, phase: 0)
        shape.fillColor = Color(red: 0.9, green: 0.5, blue: 0.2)
        shape.strokeColor = .white
        shape.lineWidth = 2
        shape.lineDashPattern = [6, 3]
        configure(shape)
        shape.add(repeating(BasicAnimation(key: .custom("lineDashPhase"), from: .scalar(0), to: .scalar(9)), duration: 0.5),
                  forKey: "ants", at: start)
        shape.add(repeating(BasicAnimation(key: .custom("strokeEnd"), from: .scalar(0.3), to: .scalar(1)), duration: 0.5),
                  forKey: "draw", at: start)
        try root.addSublayer(shape)
        return root
    }

    /// DejaVu Sans, or a skip where fonts-dejavu-core is not installed.
    func dejaVu() throws -> Font {
        guard let font = try? Font(path: "/usr/share/fonts/truetype/dejavu/DejaVuSans.ttf") else {
            throw XCTSkip("DejaVu Sans is not installed (fonts-dejavu-core)")
        }
        return font
    }

    /// A screen of text whose glyphs are cached and whose layout does not
    /// change (the colour animates, so every glyph is drawn every frame).
    func testTextScreenAllocatesNothing() throws {
        try textScreen(animating: BasicAnimation(key: .custom("foregroundColor"), from: .color(.white),
                                                 to: .color(Color(red: 1, green: 0.8, blue: 0.3))))
    }

    /// The same with the font size breathing (as `scripts/bench scene`):
    /// laid out again every frame, in the storage of the last layout.
    func testTextLaidOutEveryFrameAllocatesNothing() throws {
        try textScreen(animating: BasicAnimation(key: .custom("fontSize"), from: .scalar(11), to: .scalar(12)))
    }

    /// Lines cut with an ellipsis (each mode), some right to left
    /// (Hebrew, Arabic, mixed), their font size breathing: laid out, cut
    /// and put in visual order every frame, in the storage of the last.
    func testTruncatedAndRightToLeftTextLaidOutEveryFrameAllocatesNothing() throws {
        let font = try dejaVu()
        let start: MediaTime = 5
        let root = Layer(name: "root")
        root.bounds = Rect(x: 0, y: 0, width: 320, height: 240)
        root.anchorPoint = .zero
        let lines = ["a line of text far too long to fit in the width of its layer",
                     "שורה ארוכה מדי של טקסט בעברית שלא נכנסת ברוחב",
                     "سطر طويل جدا من النص العربي لا يتسع في العرض",
                     "mixed עברית and English in one line, too long"]
        let modes: [TextTruncation] = [.end, .start, .middle]
        var layers: [TextLayer] = []
        for (i, line) in lines.enumerated() {
            for (j, mode) in modes.enumerated() {
                let text = TextLayer()
                text.font = font
                text.fontSize = 12
                text.truncationMode = mode
                text.string = line
                text.bounds = Rect(x: 0, y: 0, width: 100, height: 18)
                text.anchorPoint = .zero
                text.position = Point(x: 5 + Double(j) * 105, y: 5 + Double(i) * 20)
                text.add(repeating(BasicAnimation(key: .custom("fontSize"), from: .scalar(11), to: .scalar(13)), duration: 0.5),
                         forKey: "size", at: start)
                try root.addSublayer(text)
                layers.append(text)
            }
        }
        var layouts = 0
        let perFrame = try allocations(root, size: (320, 240), start: start, warmUp: 30, frames: 30) { _ in
            layouts = layers.reduce(0) { $0 + $1.layoutCache.misses }
        }
        XCTAssertNoAllocations(perFrame, "heap allocations per frame")
        XCTAssertGreaterThanOrEqual(layouts, layers.count * 60, "laid out every frame")
        // Every line was cut.
        for layer in layers {
            let layout = layer.layoutCache.layout
            XCTAssertTrue(layout.lines.allSatisfy { $0.isTruncated }, layer.string ?? "")
        }
    }

    func textScreen(animating animation: BasicAnimation) throws {
        let font = try dejaVu()
        let start: MediaTime = 5
        let root = Layer(name: "root")
        root.bounds = Rect(x: 0, y: 0, width: 320, height: 240)
        root.anchorPoint = .zero
        var glyphs = 0
        var layers: [TextLayer] = []
        for column in 0..<2 {
            let text = TextLayer()
            text.font = font
            text.fontSize = 11
            text.isWrapped = true
            text.bounds = Rect(x: 0, y: 0, width: 150, height: 230)
            text.anchorPoint = .zero
            text.position = Point(x: 5 + Double(column) * 160, y: 5)
            var s = ""
            var k = column
            let words = ["layer", "render", "board", "touch", "frame", "glyph", "vsync", "swift", "pixel", "shadow"]
            while s.count < 700 { s += words[k % words.count] + " "; k += 3 }
            text.string = s
            glyphs += s.filter { $0 != " " }.count
            text.add(repeating(animation, duration: 0.5), forKey: "animation", at: start)
            try root.addSublayer(text)
            layers.append(text)
        }
        XCTAssertGreaterThan(glyphs, 1000)
        var layouts = 0
        let perFrame = try allocations(root, size: (320, 240), start: start, warmUp: 30, frames: 30) { _ in
            layouts = layers[0].layoutCache.misses + layers[1].layoutCache.misses
        }
        XCTAssertNoAllocations(perFrame, "heap allocations per frame")
        // Laid out once (the colour) or in every frame (the size).
        if case .custom("fontSize") = animation.key { XCTAssertGreaterThanOrEqual(layouts, 2 * 60) } else { XCTAssertEqual(layouts, 2) }
    }

    /// A 3-D emitter under perspective, sorted back to front, with
    /// sub-cells: its particle storage is kept, the sort is in place.
    func testEmitterInDepthAllocatesNothing() throws {
        let root = Layer(name: "root")
        root.bounds = Rect(x: 0, y: 0, width: 160, height: 120)
        root.anchorPoint = .zero
        let stage = Layer(name: "stage")
        stage.bounds = root.bounds
        stage.position = Point(x: 80, y: 60)
        stage.sublayerTransform = .perspective(distance: 300)
        let e = EmitterLayer()
        e.bounds = root.bounds
        e.position = Point(x: 80, y: 60)
        e.preservesDepth = true
        e.renderMode = .backToFront
        e.emitterPosition = Point(x: 80, y: 60)
        e.emitterShape = .sphere
        e.emitterMode = .volume
        e.emitterSize = Size(width: 40, height: 40)
        let dot = try XCTUnwrap(Surface<ARGB8888>(width: 4, height: 4))
        dot.clear(to: 0xFFFF_FFFF)
        let c = EmitterCell()
        c.contents = LayerContents(dot)
        c.birthRate = 80; c.lifetime = 1; c.velocity = 40; c.emissionRange = 2 * .pi
        c.zAcceleration = -20; c.color = Color(red: 1, green: 0.6, blue: 0.3)
        let spark = EmitterCell(name: "spark")
        spark.contents = LayerContents(dot)
        spark.birthRate = 5; spark.lifetime = 0.3
        c.emitterCells = [spark]
        e.emitterCells = [c]
        try stage.addSublayer(e)
        try root.addSublayer(stage)
        // A lifetime and a bit to warm up: the particle count is steady after one.
        let perFrame = try allocations(root, size: (160, 120), start: 5, warmUp: 75, frames: 20)
        XCTAssertGreaterThan(e.lastParticleCount, 80)
        // The count wobbles by a few particles from frame to frame; storage
        // grown to the largest count of the warm-up holds them.
        XCTAssertNoAllocations(perFrame, "heap allocations per frame")
    }
}
