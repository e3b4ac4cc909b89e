@testable import FBRuntime
import Raster
import XCTest

/// draw(in:) into a backing store: redrawn only when marked, dirty
/// rectangles as the clip, needsDisplayOnBoundsChange, contentsScale, and
/// custom properties redrawn every frame while they animate (the 2009
/// talk's Bézier layer).
final class LayerDisplayTests: XCTestCase {
    let size = 100

    /// The surfaces `render` drew into, kept for the test's length (a
    /// view does not own its pixels).
    private var surfaces: [Surface<ARGB8888>] = []

    func render(_ root: Layer, at time: MediaTime = 0, scale: Double = 1) -> PixelView<ARGB8888> {
        let target = Surface<ARGB8888>(width: size, height: size)!
        surfaces.append(target)
        Compositor(scale: scale).render(root, at: time, into: target.view, clearColor: .black)
        return target.view
    }

    func scene(_ layer: Layer) -> Layer {
        let root = Layer(name: "root")
        root.bounds = Rect(x: 0, y: 0, width: Double(size), height: Double(size))
        root.anchorPoint = .zero
        try! root.addSublayer(layer)
        return root
    }

    /// A layer that fills its bounds with `color` and counts its draws.
    final class Swatch: Layer {
        var color = Color.white
        override func draw(in context: DrawingContext) { context.fill(context.bounds, color: color) }
    }

    func swatch() -> Swatch {
        let s = Swatch(name: "swatch")
        s.bounds = Rect(x: 0, y: 0, width: 40, height: 30)
        s.anchorPoint = .zero
        s.position = Point(x: 10, y: 20)
        return s
    }

    func testDrawsOnlyAfterSetNeedsDisplayAndClipsToTheDirtyRect() {
        let s = swatch()
        let root = scene(s)
        XCTAssertEqual(render(root).row(25)[20], 0xFF00_0000, "never marked: no backing store, nothing drawn")
        XCTAssertEqual(s.drawCount, 0)
        s.setNeedsDisplay()
        XCTAssertEqual(render(root).row(25)[20], 0xFFFF_FFFF)
        _ = render(root); _ = render(root)
        XCTAssertEqual(s.drawCount, 1, "drawn once, reused")
        s.color = Color(red: 1, green: 0, blue: 0)
        s.setNeedsDisplay(in: Rect(x: 0, y: 0, width: 10, height: 10))
        let image = render(root)
        XCTAssertEqual(s.drawCount, 2)
        XCTAssertEqual(image.row(25)[15], 0xFFFF_0000, "inside the dirty rect: redrawn")
        XCTAssertEqual(image.row(25)[25], 0xFFFF_FFFF, "outside it: the old drawing")
    }

    func testBoundsChangeStretchesOrRedraws() {
        let s = swatch()
        s.setNeedsDisplay()
        let root = scene(s)
        _ = render(root)
        s.bounds = Rect(x: 0, y: 0, width: 60, height: 30)
        _ = render(root)
        XCTAssertEqual(s.drawCount, 1, "without needsDisplayOnBoundsChange the old drawing is stretched")
        XCTAssertEqual(render(root).row(25)[60], 0xFFFF_FFFF)
        s.needsDisplayOnBoundsChange = true
        s.bounds = Rect(x: 0, y: 0, width: 70, height: 30)
        _ = render(root)
        XCTAssertEqual(s.drawCount, 2)
    }

    func testBackingStoreFollowsContentsScale() {
        let s = swatch()
        s.contentsScale = 2
        s.setNeedsDisplay()
        _ = render(scene(s), scale: 2)
        XCTAssertEqual(s.displayStore.surface?.width, 80)
        XCTAssertEqual(s.displayStore.surface?.height, 60)
    }

    /// The Bézier layer: line width and control points are custom
    /// properties that need display; animated, the layer is redrawn every
    /// frame with the interpolated values.
    final class BezierLayer: Layer {
        var lineWidth = 2.0
        var control1 = Point(x: 10, y: 80)
        override func storedValue(forKey name: String) -> AnimatableValue? {
            switch name {
            case "lineWidth": return .scalar(lineWidth)
            case "control1": return .point(control1)
            default: return super.storedValue(forKey: name)
            }
        }
        override class func needsDisplay(forKey key: String) -> Bool { key == "lineWidth" || key == "control1" || super.needsDisplay(forKey: key) }
        override func draw(in context: DrawingContext) {
            var c1 = control1
            if case let .point(p)? = context.value(forKey: "control1") { c1 = p }
            var path = Path()
            path.move(to: PathPoint(x: 10, y: 10))
            path.cubic(to: PathPoint(x: 90, y: 90), control1: PathPoint(x: c1.x, y: c1.y), control2: PathPoint(x: 90, y: 10))
            context.stroke(path, style: StrokeStyle(width: context.scalar(forKey: "lineWidth") ?? lineWidth), color: .white)
        }
    }

    func bezier() -> BezierLayer {
        let b = BezierLayer(name: "bezier")
        b.bounds = Rect(x: 0, y: 0, width: 100, height: 100)
        b.anchorPoint = .zero
        b.setNeedsDisplay()
        return b
    }

    func testAnimatedCustomPropertiesRedrawEveryFrame() {
        let animated = bezier()
        animated.add(BasicAnimation(key: .custom("lineWidth"), from: .scalar(2), to: .scalar(12), duration: 1), forKey: "w", at: 0)
        animated.add(BasicAnimation(key: .custom("control1"), from: .point(Point(x: 10, y: 80)), to: .point(Point(x: 60, y: 95)), duration: 1),
                     forKey: "c", at: 0)
        let root = scene(animated)
        for (t, drawCount) in [(0.25, 1), (0.5, 2), (0.75, 3)] {
            let frame = render(root, at: t)
            XCTAssertEqual(animated.drawCount, drawCount, "redrawn at t = \(t)")
            let still = bezier()
            still.lineWidth = 2 + 10 * t
            still.control1 = Point(x: 10 + 50 * t, y: 80 + 15 * t)
            XCTAssertEqual(pixelChecksum(frame), pixelChecksum(render(scene(still))), "t = \(t) draws the interpolated values")
        }
        // Once the animation is removed the model values are drawn once more, then reused.
        animated.removeAllAnimations()
        _ = render(root, at: 2); _ = render(root, at: 3)
        XCTAssertEqual(animated.drawCount, 4)
        XCTAssertEqual(pixelChecksum(render(root, at: 4)), pixelChecksum(render(scene(bezier()))))
    }

    func testBadScalesAndHugeLayersWarnOnceAndClamp() {
        var warnings: [String] = []
        Diagnostics.reset()
        Diagnostics.sink = { warnings.append($0) }
        defer { Diagnostics.sink = nil }
        let s = swatch()
        s.name = "badScale"
        s.contentsScale = -1
        s.setNeedsDisplay()
        let root = scene(s)
        _ = render(root)
        s.setNeedsDisplay()
        _ = render(root)
        XCTAssertEqual(s.displayStore.surface?.width, 40, "contentsScale ≤ 0 draws at 1")
        let huge = swatch()
        huge.name = "huge"
        huge.bounds = Rect(x: 0, y: 0, width: 100_000, height: 20)
        huge.setNeedsDisplay()
        try! root.addSublayer(huge)
        _ = render(root)
        XCTAssertLessThanOrEqual(huge.displayStore.surface?.width ?? 0, Layer.maximumBackingStoreSide)
        XCTAssertEqual(warnings.count, 2, "\(warnings)")
        XCTAssertTrue(warnings[0].contains("badScale") && warnings[1].contains("huge"), "\(warnings)")
        let nan = swatch()
        nan.bounds = Rect(x: 0, y: 0, width: .nan, height: 3)
        nan.setNeedsDisplay()
        try! root.addSublayer(nan)
        _ = render(root)
    }
}
