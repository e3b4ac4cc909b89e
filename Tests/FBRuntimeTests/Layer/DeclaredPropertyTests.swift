import XCTest
@testable import FBRuntime
import FBRuntimeTestSupport
import Raster

/// Issue 19: adding an animatable property to a layer is one declaration.
/// This test-only subclass adds `radius` with `LayerProperty` (plus its
/// drawing and its hit area) and touches no other file; the property then
/// animates implicitly, shows in presentation copies, damages and redraws
/// where it is drawn (also on the render thread, with no commit), and is
/// hit where it is drawn.
final class DeclaredPropertyTests: XCTestCase {
    /// A white disc of `radius` points, centred in the bounds.
    final class DiscLayer: Layer {
        static let radius = LayerProperty("radius", default: 4.0)
        static let declared = [radius.declaration]
        override class var declaredProperties: [LayerPropertyDeclaration] { declared }
        var radius: Double { get { self[Self.radius] } set { self[Self.radius] = newValue } }

        override func draw(in context: DrawingContext) {
            let b = context.bounds, r = radius
            let cx = b.minX + b.width / 2, cy = b.minY + b.height / 2
            var disc = Path()
            disc.addEllipse(cx - r, cy - r, 2 * r, 2 * r)
            context.fill(disc, color: .white)
        }
        override func contains(_ point: Point) -> Bool {
            let b = bounds
            let dx = point.x - (b.minX + b.width / 2), dy = point.y - (b.minY + b.height / 2)
            return dx * dx + dy * dy <= radius * radius
        }
        override func makePresentationCopy() -> Layer {
            let copy = DiscLayer(name: name)
            copy.copyLayerState(from: self)
            return copy
        }
    }

    /// A 64×64 root with a 60×60 disc layer centred at (32, 32).
    func scene() -> (root: Layer, disc: DiscLayer) {
        let root = Layer(name: "root")
        root.bounds = Rect(x: 0, y: 0, width: 64, height: 64)
        root.anchorPoint = .zero
        root.backgroundColor = Color(rgb: 0x000000)
        let disc = DiscLayer(name: "disc")
        disc.bounds = Rect(x: 0, y: 0, width: 60, height: 60)
        disc.position = Point(x: 32, y: 32)
        try! root.addSublayer(disc)
        return (root, disc)
    }

    /// Pixels at least half white on the row through the centre: the
    /// drawn diameter, whole pixels.
    func diameter(_ view: PixelView<ARGB8888>) -> Int {
        (0..<view.width).filter { (view[$0, 32] >> 16) & 0xFF >= 128 }.count
    }

    func testADeclaredPropertyGetsDefaultValidationAndImplicitAnimation() throws {
        let saved = AppRunLoop.current
        defer { AppRunLoop.current = saved }
        let clock = ManualClock()
        let loop = AppRunLoop(clock: clock)
        AppRunLoop.current = loop
        let (root, disc) = scene()
        root.isDisplayRoot = true
        // The default, and the key is an animatable property of the class
        // (an animation of it is accepted; a typo is refused).
        XCTAssertEqual(disc.radius, 4)
        XCTAssertTrue(disc.hasAnimatableProperty(DiscLayer.radius.key))
        XCTAssertThrowsError(try disc.add(.basic(BasicAnimation(key: .custom("radios"), from: .scalar(1), to: .scalar(2), duration: 1)),
                                          forKey: "typo"))
        XCTAssertTrue(DiscLayer.needsDisplay(forKey: "radius"))
        // Set inside an animated transaction: animates from where it is on
        // screen, as Layer's own properties do.
        loop.runTurn {
            Transaction.animationTimingFunction = .linear
            Transaction.animationDuration = 1
            disc.radius = 24
        }
        XCTAssertEqual(disc.radius, 24, "the model takes the new value at once")
        XCTAssertFalse(disc.animations.isEmpty, "an implicit animation")
        clock.set(0.5)
        XCTAssertEqual((disc.presentation() as! DiscLayer).radius, 14, accuracy: 1e-9, "presentation: half way")
        XCTAssertEqual(disc.presentationValue(for: DiscLayer.radius.key, at: 0.5), .scalar(14))
        // Retargeted mid-way: from the on-screen 14.
        loop.runTurn {
            Transaction.animationTimingFunction = .linear
            Transaction.animationDuration = 1
            disc.radius = 4
        }
        clock.set(1)
        XCTAssertEqual((disc.presentation() as! DiscLayer).radius, 9, accuracy: 1e-9)
        // Outside an animated transaction: no animation.
        disc.removeAllAnimations()
        loop.runTurn {
            Transaction.disableActions = true
            disc.radius = 10
        }
        XCTAssertTrue(disc.animations.isEmpty)
    }

    func testADeclaredPropertyRedrawsDamagesAndHitTestsWhereItIsDrawn() {
        let (root, disc) = scene()
        disc.add(.basic(BasicAnimation(key: DiscLayer.radius.key, from: .scalar(4), to: .scalar(28), duration: 1)), forKey: "grow", at: 0)
        let compositor = Compositor()
        let frame = Surface<ARGB8888>(width: 64, height: 64)!
        var last = 0
        for t in [0.0, 0.25, 0.5, 0.75] {
            compositor.render(root, at: t, into: frame.view)
            let d = diameter(frame.view)
            XCTAssertEqual(Double(d), 2 * (4 + 24 * t), accuracy: 1, "drawn at the presented radius at \(t)")
            XCTAssertGreaterThan(d, last)
            last = d
            // Damage: the ring the disc grew by, not nothing.
            if t > 0 { XCTAssertGreaterThan(compositor.damage.area, 0, "damaged at \(t)") }
            // Hit testing follows the drawing: a point 10 points from the
            // centre is in the disc from radius 10 on (t = 0.25).
            let hit = root.hitTest(Point(x: 42, y: 32), at: t)
            XCTAssertTrue(t >= 0.25 ? hit === disc : hit === root, "hit at \(t): \(hit?.name ?? "nil")")
        }
        XCTAssertEqual(disc.radius, 4, "the model is unchanged")
    }

    func testADeclaredPropertyAnimatesOnTheRenderThreadWithoutCommits() {
        let (root, disc) = scene()
        disc.add(.basic(BasicAnimation(key: DiscLayer.radius.key, from: .scalar(4), to: .scalar(28), duration: 0.5)), forKey: "grow", at: 0)
        let display = SimulatedPresenter(width: 64, height: 64, flipsWaitForVBlank: true, time: SimulatedFrameTime())!
        let loop = RenderLoop(root: root, presenter: display, time: display.time)
        var diameters: [Int] = []
        for _ in 0..<20 {
            XCTAssertTrue(loop.runOnce())
            diameters.append((0..<64).filter { display.screen.view[$0, 32] & 0xFFFFFF == 0xFFFFFF }.count)
        }
        XCTAssertEqual(loop.statistics.commitsApplied, 1)
        XCTAssertGreaterThan(Set(diameters).count, 10, "the disc grew frame by frame: \(diameters)")
    }
}
