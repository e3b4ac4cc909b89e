@testable import FBRuntime
import Raster
import TestSupport
import XCTest

/// The 3-D emitter (`preservesDepth`): particles drawn where their
/// simulated 3-D position projects through the layer's transform chain
/// (checked against `Transform3D` products written out here), shapes in
/// 3-D, depth order, determinism and the particle cap.
final class EmitterDepthTests: XCTestCase {
    let size = 200
    /// The stage's perspective: the eye 300 points in front of its plane.
    let eye = 300.0

    func square(_ n: Int, _ argb: UInt32) -> LayerContents {
        let s = Surface<ARGB8888>(width: n, height: n)!
        s.clear(to: argb)
        return LayerContents(s)
    }

    /// A root, a stage (its `sublayerTransform` a perspective about its
    /// centre) and an emitter filling the stage with `preservesDepth`.
    func scene(_ configure: (EmitterLayer) -> Void) -> (root: Layer, stage: Layer, emitter: EmitterLayer) {
        let root = Layer(name: "root")
        root.bounds = Rect(x: 0, y: 0, width: Double(size), height: Double(size))
        root.anchorPoint = .zero
        let stage = Layer(name: "stage")
        stage.bounds = root.bounds
        stage.position = Point(x: 100, y: 100)
        stage.sublayerTransform = .perspective(distance: eye)
        let e = EmitterLayer()
        e.bounds = root.bounds
        e.position = Point(x: 100, y: 100)
        e.preservesDepth = true
        configure(e)
        try! stage.addSublayer(e)
        try! root.addSublayer(stage)
        return (root, stage, e)
    }

    /// The surfaces `render` drew into, kept for the test's length (a
    /// view does not own its pixels).
    private var surfaces: [Surface<ARGB8888>] = []

    func render(_ root: Layer, at t: MediaTime) -> PixelView<ARGB8888> {
        let target = Surface<ARGB8888>(width: size, height: size)!
        surfaces.append(target)
        Compositor().render(root, at: t, into: target.view, clearColor: .black)
        return target.view
    }

    /// The centroid of lit pixels (weighted by green).
    /// The centroid of lit pixels (weighted by green), how many are lit
    /// and the lit area (green / 255 summed: pixels of full coverage).
    func centroid(_ v: PixelView<ARGB8888>) -> (x: Double, y: Double, n: Int, area: Double) {
        var sx = 0.0, sy = 0.0, w = 0.0, n = 0
        for y in 0..<v.height { for x in 0..<v.width {
            let g = Double((v.row(y)[x] >> 8) & 0xFF)
            if g > 0 { sx += (Double(x) + 0.5) * g; sy += (Double(y) + 0.5) * g; w += g; n += 1 }
        } }
        return w == 0 ? (0, 0, 0, 0) : (sx / w, sy / w, n, w / 255)
    }

    /// One particle (born at 0, living 10 s, no ranges) leaving the point
    /// (80, 110, 20) up and towards the viewer, pulled back along z; the
    /// emitter is turned 0.4 rad about y under the stage's perspective.
    /// Its drawn centre is where p₀ + v·a + ½·g·a² lands through
    /// emitter.toSuperlayer · stage.sublayerSpace, each written out from
    /// the layer geometry's definition (T(−anchor)·transform·T(position);
    /// T(−anchor)·sublayerTransform·T(anchor)).
    func testAParticleIsDrawnWhereItsSimulatedPositionProjects() {
        let turn = 0.4
        let (root, _, e) = scene { e in
            e.transform = Transform3D(rotationAngle: turn, x: 0, y: 1, z: 0)
            e.emitterPosition = Point(x: 80, y: 110)
            e.emitterZPosition = 20
            let c = EmitterCell()
            c.contents = square(3, 0xFFFF_FFFF)
            c.birthRate = 0.05; c.lifetime = 10
            c.velocity = 40
            c.emissionLongitude = -.pi / 2          // up the screen
            c.emissionLatitude = 0.6                // and towards the viewer
            c.zAcceleration = -30
            c.xAcceleration = 4
            e.emitterCells = [c]
        }
        let toStage = Transform3D(translationX: -100, y: -100)
            .concatenating(Transform3D(rotationAngle: turn, x: 0, y: 1, z: 0))
            .concatenating(Transform3D(translationX: 100, y: 100))
        var perspective = Transform3D.identity
        perspective.m34 = -1 / eye
        let stageSpace = Transform3D(translationX: -100, y: -100).concatenating(perspective)
            .concatenating(Transform3D(translationX: 100, y: 100))
        let full = toStage.concatenating(stageSpace)     // the stage and root sit at identity in the target
        for a in [0.5, 1.0, 2.0] {
            let v = (x: 40 * cos(0.6) * cos(-Double.pi / 2), y: 40 * cos(0.6) * sin(-Double.pi / 2), z: 40 * sin(0.6))
            let p = (x: 80 + v.x * a + 0.5 * 4 * a * a, y: 110 + v.y * a, z: 20 + v.z * a - 0.5 * 30 * a * a)
            let h = full.apply(x: p.x, y: p.y, z: p.z)
            let c = centroid(render(root, at: a))
            XCTAssertGreaterThan(c.n, 0, "drawn at \(a)")
            XCTAssertEqual(c.x, h.x / h.w, accuracy: 0.05, "x at \(a)")
            XCTAssertEqual(c.y, h.y / h.w, accuracy: 0.05, "y at \(a)")
            // And the particle is where the closed form puts it.
            XCTAssertEqual(e.particles.count, 1)
            XCTAssertEqual(e.particles[0].z, p.z, accuracy: 1e-9)
        }
        // Flattened, the same particle lands where its (x, y) does on the
        // emitter's plane: z is dropped.
        e.preservesDepth = false
        let a = 1.0
        let planar = 40 * cos(0.6)
        let q = (x: 80 + 0.5 * 4 * a * a, y: 110 - planar * a)
        let h = full.apply(x: q.x, y: q.y, z: 0)
        let c = centroid(render(root, at: a))
        XCTAssertEqual(c.x, h.x / h.w, accuracy: 0.05)
        XCTAssertEqual(c.y, h.y / h.w, accuracy: 0.05)
    }

    /// Perspective makes a near particle bigger than a far one: the drawn
    /// area scales with (d / (d − z))².
    func testNearParticlesAreLarger() {
        func area(z: Double) -> Double {
            let (root, _, _) = scene { e in
                e.emitterPosition = Point(x: 100, y: 100)
                e.emitterZPosition = z
                let c = EmitterCell()
                c.contents = square(8, 0xFFFF_FFFF)
                c.birthRate = 0.05; c.lifetime = 10
                e.emitterCells = [c]
            }
            return centroid(render(root, at: 1)).area
        }
        // 8 points at z = 150 span 16 pixels (w = 1 − 150/300), at −300 four.
        XCTAssertEqual(area(z: 150), 16 * 16, accuracy: 16 * 16 * 0.05)
        XCTAssertEqual(area(z: 0), 8 * 8, accuracy: 8 * 8 * 0.05)
        XCTAssertEqual(area(z: -300), 4 * 4, accuracy: 4 * 4 * 0.1)
    }

    /// Two opaque particles on the line of sight through the stage's
    /// centre, one 50 points in front of the plane and one 50 behind:
    /// `.backToFront` draws the near one on top whatever the emission
    /// order; `.oldestFirst` draws the one emitted last on top.
    func testBackToFrontDrawsTheNearParticleOnTop() {
        let red: UInt32 = 0xFFFF_0000, blue: UInt32 = 0xFF00_00FF
        func centre(nearFirst: Bool, mode: EmitterLayer.RenderMode) -> UInt32 {
            let (root, _, e) = scene { e in
                e.emitterPosition = Point(x: 100, y: 100)
                e.renderMode = mode
                func cell(_ color: UInt32, towards latitude: Double) -> EmitterCell {
                    let c = EmitterCell()
                    c.contents = square(6, color)
                    c.birthRate = 0.05; c.lifetime = 10
                    c.velocity = 50; c.emissionLatitude = latitude
                    return c
                }
                let near = cell(red, towards: .pi / 2), far = cell(blue, towards: -.pi / 2)
                e.emitterCells = nearFirst ? [near, far] : [far, near]
            }
            let image = render(root, at: 1)
            XCTAssertEqual(e.lastParticleCount, 2)
            return image.row(100)[100]
        }
        XCTAssertEqual(centre(nearFirst: true, mode: .backToFront), red)
        XCTAssertEqual(centre(nearFirst: false, mode: .backToFront), red)
        XCTAssertEqual(centre(nearFirst: true, mode: .oldestFirst), blue)
        XCTAssertEqual(centre(nearFirst: false, mode: .oldestFirst), red)
        XCTAssertEqual(centre(nearFirst: true, mode: .oldestLast), red)
    }

    /// The heap sort against a sort of the same keys by the standard
    /// library: ascending depth, ties in emission order.
    func testDepthSortMatchesAStableSort() {
        var rng = SplitMix64(seed: 7)
        let cell = EmitterCell()
        for n in [0, 1, 2, 3, 17, 500] {
            var particles: [EmitterLayer.Particle] = []
            for i in 0..<n {
                var p = EmitterLayer.Particle(cell: cell, x: 0, y: 0, z: 0, angle: 0, scale: 1, color: .white)
                p.depth = Double(rng.below(20)); p.order = i
                particles.append(p)
            }
            let expected = particles.enumerated().sorted { a, b in
                a.element.depth < b.element.depth || (a.element.depth == b.element.depth && a.offset < b.offset)
            }.map { $0.element.order }
            EmitterLayer.sortBackToFront(&particles)
            XCTAssertEqual(particles.map(\.order), expected, "n = \(n)")
        }
    }

    /// Where 3-D shapes emit (velocity 0: a particle stays where it was
    /// born): on the sphere, in the ball, on the cuboid's edges, faces,
    /// corners and inside it.
    func testShapesEmitIn3D() {
        func positions(_ shape: EmitterLayer.Shape, _ mode: EmitterLayer.Mode) -> [(Double, Double, Double)] {
            let (root, _, e) = scene { e in
                e.emitterPosition = Point(x: 100, y: 90)
                e.emitterZPosition = -10
                e.emitterSize = Size(width: 60, height: 40)
                e.emitterDepth = 30
                e.emitterShape = shape
                e.emitterMode = mode
                let c = EmitterCell()
                c.contents = square(2, 0xFFFF_FFFF)
                c.birthRate = 200; c.lifetime = 1
                e.emitterCells = [c]
            }
            _ = render(root, at: 2)
            XCTAssertGreaterThan(e.particles.count, 150)
            return e.particles.map { ($0.x - 100, $0.y - 90, $0.z + 10) }
        }
        let eps = 1e-9
        for p in positions(.sphere, .surface) {
            XCTAssertEqual((p.0 * p.0 + p.1 * p.1 + p.2 * p.2).squareRoot(), 30, accuracy: 1e-9)
        }
        let ball = positions(.sphere, .volume)
        var spread = 0.0
        for p in ball {
            let r = (p.0 * p.0 + p.1 * p.1 + p.2 * p.2).squareRoot()
            XCTAssertLessThanOrEqual(r, 30 + eps)
            spread = max(spread, abs(p.2))
        }
        XCTAssertGreaterThan(spread, 15, "the ball has depth")
        func onFace(_ v: Double, _ half: Double) -> Bool { abs(abs(v) - half) < eps }
        func inside(_ v: Double, _ half: Double) -> Bool { abs(v) <= half + eps }
        for p in positions(.cuboid, .points) {
            XCTAssertTrue(onFace(p.0, 30) && onFace(p.1, 20) && onFace(p.2, 15), "\(p)")
        }
        for p in positions(.cuboid, .outline) {
            let faces = (onFace(p.0, 30) ? 1 : 0) + (onFace(p.1, 20) ? 1 : 0) + (onFace(p.2, 15) ? 1 : 0)
            XCTAssertGreaterThanOrEqual(faces, 2, "on an edge: \(p)")
            XCTAssertTrue(inside(p.0, 30) && inside(p.1, 20) && inside(p.2, 15))
        }
        for p in positions(.cuboid, .surface) {
            XCTAssertTrue(onFace(p.0, 30) || onFace(p.1, 20) || onFace(p.2, 15), "on a face: \(p)")
            XCTAssertTrue(inside(p.0, 30) && inside(p.1, 20) && inside(p.2, 15))
        }
        var depths = 0.0
        for p in positions(.cuboid, .volume) {
            XCTAssertTrue(inside(p.0, 30) && inside(p.1, 20) && inside(p.2, 15))
            depths = max(depths, abs(p.2))
        }
        XCTAssertGreaterThan(depths, 10)
    }

    /// Directions fill the cone of half-angle `emissionRange / 2` around
    /// the latitude and longitude, and no more.
    func testDirectionsStayInTheirCone() {
        let (root, _, e) = scene { e in
            e.emitterPosition = Point(x: 100, y: 100)
            let c = EmitterCell()
            c.contents = square(2, 0xFFFF_FFFF)
            c.birthRate = 300; c.lifetime = 1; c.velocity = 30
            c.emissionLongitude = 0.7; c.emissionLatitude = 0.5; c.emissionRange = 0.6
            e.emitterCells = [c]
        }
        _ = render(root, at: 3)
        let axis = (cos(0.5) * cos(0.7), cos(0.5) * sin(0.7), sin(0.5))
        var widest = 0.0
        for p in e.particles {
            let d = (p.x - 100, p.y - 100, p.z)
            let length = (d.0 * d.0 + d.1 * d.1 + d.2 * d.2).squareRoot()
            guard length > 1e-6 else { continue }
            let angle = acos(min(1, (d.0 * axis.0 + d.1 * axis.1 + d.2 * axis.2) / length))
            XCTAssertLessThanOrEqual(angle, 0.3 + 1e-9)
            widest = max(widest, angle)
        }
        XCTAssertGreaterThan(widest, 0.25, "the cone is filled")
    }

    /// A firework in 3-D (a sphere of sparks, sub-cells, spin, colour
    /// ranges, `.backToFront`) under perspective.
    func firework(seed: UInt32) -> Layer {
        scene { e in
            e.seed = seed
            e.transform = Transform3D(rotationAngle: 0.5, x: 1, y: 0, z: 0)
            e.emitterPosition = Point(x: 100, y: 110)
            e.emitterZPosition = 0
            e.emitterShape = .sphere
            e.emitterMode = .surface
            e.emitterSize = Size(width: 40, height: 40)
            e.renderMode = .backToFront
            let c = EmitterCell()
            c.contents = square(5, 0xFFFF_FFFF)
            c.birthRate = 60; c.lifetime = 2; c.lifetimeRange = 0.5
            c.velocity = 50; c.velocityRange = 20
            c.emissionLatitude = 0.3; c.emissionRange = 2 * .pi
            c.zAcceleration = -20; c.yAcceleration = 30
            c.spin = 1; c.spinRange = 2; c.scaleRange = 0.3
            c.color = Color(red: 1, green: 0.6, blue: 0.3); c.greenRange = 0.3; c.blueRange = 0.3
            c.alphaSpeed = -0.3
            let spark = EmitterCell(name: "spark")
            spark.contents = square(2, 0xFFFF_FFFF)
            spark.birthRate = 4; spark.lifetime = 0.5
            spark.color = Color(red: 0.6, green: 0.8, blue: 1)
            c.emitterCells = [spark]
            e.emitterCells = [c]
        }.root
    }

    func testSameSeedSameImage() throws {
        let a = render(firework(seed: 3), at: 2.5), b = render(firework(seed: 3), at: 2.5)
        let c = render(firework(seed: 4), at: 2.5)
        var same = true, differ = false, lit = 0
        for y in 0..<size { for x in 0..<size {
            if a.row(y)[x] != b.row(y)[x] { same = false }
            if a.row(y)[x] != c.row(y)[x] { differ = true }
            if a.row(y)[x] & 0xFF_FFFF != 0 { lit += 1 }
        } }
        XCTAssertTrue(same, "the same seed draws the same pixels")
        XCTAssertTrue(differ, "another seed draws others")
        XCTAssertGreaterThan(lit, 500)
    }

    func testGoldenFireworkUnderPerspective() {
        let image = render(firework(seed: 3), at: 2.5)
        let result = compareWithGolden(image, name: "emitter-3d-firework", tolerance: 2)
        XCTAssertTrue(result.passed, result.message)
    }

    /// 10⁷ particles a second in 3-D are thinned to the documented cap,
    /// with one warning naming the layer.
    func testTenMillionParticlesPerSecondAreCapped() {
        var warnings: [String] = []
        Diagnostics.reset()
        Diagnostics.sink = { warnings.append($0) }
        defer { Diagnostics.sink = nil }
        let (root, _, e) = scene { e in
            e.name = "storm3d"
            e.emitterShape = .cuboid
            e.emitterSize = Size(width: 100, height: 100)
            e.emitterDepth = 100
            let c = EmitterCell()
            c.contents = square(1, 0xFFFF_FFFF)
            c.birthRate = 1e7; c.lifetime = 5; c.velocity = 10; c.emissionRange = 2 * .pi
            e.emitterCells = [c]
            e.renderMode = .backToFront
        }
        _ = render(root, at: 10)
        XCTAssertGreaterThan(e.lastParticleCount, EmitterLayer.maximumParticles / 2)
        XCTAssertLessThanOrEqual(e.lastParticleCount, EmitterLayer.maximumParticles + 100)
        XCTAssertEqual(warnings.count, 1)
        XCTAssertTrue(warnings.first?.contains("storm3d") ?? false)
    }
}
