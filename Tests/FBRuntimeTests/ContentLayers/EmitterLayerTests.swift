@testable import FBRuntime
import Raster
import XCTest

/// The particle system is a function of time: checked against the
/// equations of motion, for determinism, freezing and scrubbing through
/// the layer's timing, counts, sub-cells and bad input.
final class EmitterLayerTests: XCTestCase {
    let size = 200

    /// A 3 × 3 white dot.
    func dot() -> LayerContents {
        let s = Surface<ARGB8888>(width: 3, height: 3)!
        s.clear(to: 0xFFFF_FFFF)
        return LayerContents(s)
    }

    func emitter(_ configure: (EmitterLayer, EmitterCell) -> Void) -> (Layer, EmitterLayer) {
        let root = Layer(name: "root")
        root.bounds = Rect(x: 0, y: 0, width: Double(size), height: Double(size))
        root.anchorPoint = .zero
        let e = EmitterLayer()
        e.bounds = root.bounds
        e.anchorPoint = .zero
        let cell = EmitterCell()
        cell.contents = dot()
        configure(e, cell)
        e.emitterCells = [cell]
        try! root.addSublayer(e)
        return (root, e)
    }

    /// The surfaces `render` drew into, kept for the test's length: a view
    /// does not own its pixels (returning one of a surface that then went
    /// away read freed memory, and crashed once the allocator unmapped it).
    private var surfaces: [Surface<ARGB8888>] = []

    func render(_ root: Layer, at t: MediaTime) -> PixelView<ARGB8888> {
        let target = Surface<ARGB8888>(width: size, height: size)!
        surfaces.append(target)
        Compositor().render(root, at: t, into: target.view, clearColor: .black)
        return target.view
    }

    /// Every pixel, row by row.
    func pixels(_ v: PixelView<ARGB8888>) -> [UInt32] {
        var out: [UInt32] = []
        for y in 0..<v.height { for x in 0..<v.width { out.append(v[x, y]) } }
        return out
    }

    /// The centroid of lit pixels.
    func centroid(_ v: PixelView<ARGB8888>) -> (x: Double, y: Double, n: Int) {
        var sx = 0.0, sy = 0.0, w = 0.0, n = 0
        for y in 0..<v.height { for x in 0..<v.width {
            let g = Double(v.row(y)[x] & 0xFF)
            if g > 0 { sx += (Double(x) + 0.5) * g; sy += (Double(y) + 0.5) * g; w += g; n += 1 }
        } }
        return w == 0 ? (0, 0, 0) : (sx / w, sy / w, n)
    }

    /// One particle at a time (born at 0, living 10 s): at age a it is at
    /// p₀ + v·a + ½·g·a².
    func testAParticleFollowsTheEquationsOfMotion() {
        let (root, _) = emitter { e, c in
            e.emitterPosition = Point(x: 40, y: 150)
            c.birthRate = 0.05          // one particle in 20 s
            c.lifetime = 10
            c.velocity = 60
            c.emissionLongitude = -.pi / 4          // up and to the right
            c.yAcceleration = 20
        }
        for a in [0.5, 1.0, 2.0, 3.0] {
            let c = centroid(render(root, at: a))
            let v = 60 / 2.0.squareRoot()
            XCTAssertEqual(c.x, 40 + v * a, accuracy: 0.05, "x at \(a)")
            XCTAssertEqual(c.y, 150 - v * a + 10 * a * a, accuracy: 0.05, "y at \(a)")
        }
    }

    func testSameSeedSameParticlesAndTimingFreezesAndScrubs() {
        func make(seed: UInt32) -> (Layer, EmitterLayer) {
            emitter { e, c in
                e.seed = seed
                e.emitterPosition = Point(x: 100, y: 100)
                e.emitterShape = .circle
                e.emitterSize = Size(width: 40, height: 40)
                c.birthRate = 50; c.lifetime = 2; c.lifetimeRange = 1
                c.velocity = 40; c.velocityRange = 20; c.emissionRange = 2 * .pi
                c.spin = 1; c.spinRange = 2; c.scaleRange = 0.5
                c.color = Color(red: 1, green: 0.5, blue: 0.2); c.alphaSpeed = -0.3
            }
        }
        let (a, ea) = make(seed: 7), (b, _) = make(seed: 7), (c, _) = make(seed: 8)
        XCTAssertEqual(pixelChecksum(render(a, at: 3)), pixelChecksum(render(b, at: 3)))
        XCTAssertNotEqual(pixelChecksum(render(a, at: 3)), pixelChecksum(render(c, at: 3)))
        // About birthRate × mean lifetime alive in the steady state.
        _ = render(a, at: 10)
        XCTAssertEqual(Double(ea.lastParticleCount), 50 * 2, accuracy: 25)
        // speed 0 + timeOffset: frozen at the offset, whatever the time.
        ea.speed = 0
        ea.timeOffset = 2.5
        let frozen = pixelChecksum(render(a, at: 100))
        XCTAssertEqual(frozen, pixelChecksum(render(a, at: 200)))
        let (reference, _) = make(seed: 7)
        XCTAssertEqual(frozen, pixelChecksum(render(reference, at: 2.5)), "scrubbed to 2.5 s")
    }

    func testSubCellsEmitFromTheirParticlesAndAdditiveAddsUp() {
        let (root, e) = emitter { e, c in
            e.emitterPosition = Point(x: 100, y: 180)
            c.birthRate = 1; c.lifetime = 3; c.velocity = 50
            c.emissionLongitude = -.pi / 2
            let spark = EmitterCell(name: "spark")
            spark.contents = dot()
            spark.birthRate = 20; spark.lifetime = 0.5; spark.velocity = 0
            c.emitterCells = [spark]
        }
        let image = render(root, at: 2)
        // The rocket born at 0 is at y = 180 − 100 = 80; born at 1, at 130.
        // Sparks stay where they were born along each trail: below the rockets.
        // Rockets born at 0, 1 and 2 (just now); each of the older two has
        // 0.5 s of sparks at 20/s alive, the newest its first spark.
        XCTAssertEqual(e.lastParticleCount, 3 + 2 * 10 + 1)
        var lit = 0
        for y in 80..<181 where image.row(y)[100] & 0xFF > 0 { lit += 1 }
        XCTAssertGreaterThan(lit, 20, "a trail of sparks along x = 100")
        e.renderMode = .additive
        e.emitterCells[0].color = Color(red: 0.3, green: 0.3, blue: 0.3)
        e.emitterCells[0].emitterCells = []
        e.emitterCells[0].birthRate = 200; e.emitterCells[0].velocity = 0   // all on one spot
        let added = render(root, at: 2).row(180)[100]
        XCTAssertEqual(added, 0xFFFF_FFFF, "400 particles of 0.3 add up to white")
    }

    /// An emitting layer keeps the render loop drawing though no animation
    /// runs (its particles move every frame), and stops it when it emits
    /// nothing or its layer is paused; a frame at a later time differs.
    func testAnEmittingLayerCountsAsRunning() {
        let (root, e) = emitter { e, cell in
            cell.birthRate = 50; cell.lifetime = 2; cell.velocity = 40
            e.emitterPosition = Point(x: 100, y: 100)
        }
        XCTAssertTrue(root.animations.isEmpty && e.animations.isEmpty)
        XCTAssertTrue(root.hasRunningAnimations(at: 1))
        XCTAssertNotEqual(centroid(render(root, at: 1)).n == 0 ? nil : pixels(render(root, at: 1)), pixels(render(root, at: 1.1)),
                          "the particles move between frames")
        e.speed = 0
        XCTAssertFalse(root.hasRunningAnimations(at: 1), "paused")
        e.speed = 1
        e.birthRate = 0
        XCTAssertFalse(root.hasRunningAnimations(at: 1), "emits nothing")
        e.birthRate = 1
        e.emitterCells[0].birthRate = 0
        XCTAssertFalse(root.hasRunningAnimations(at: 1), "its one cell emits nothing")
    }

    func testBadInputEmitsNothingOrIsThinned() {
        var warnings: [String] = []
        Diagnostics.reset()
        Diagnostics.sink = { warnings.append($0) }
        defer { Diagnostics.sink = nil }
        for bad in [Double.nan, -5, .infinity] {
            let (root, e) = emitter { _, c in c.birthRate = bad; c.lifetime = 1 }
            _ = render(root, at: 1)
            XCTAssertEqual(e.lastParticleCount, 0, "birthRate \(bad)")
        }
        let (root, e) = emitter { e, c in e.name = "storm"; c.birthRate = 1e7; c.lifetime = 5; c.velocity = 10 }
        _ = render(root, at: 10)
        XCTAssertLessThanOrEqual(e.lastParticleCount, EmitterLayer.maximumParticles + 100)
        XCTAssertEqual(warnings.count, 1)
        XCTAssertTrue(warnings.first?.contains("storm") ?? false)
    }
}
