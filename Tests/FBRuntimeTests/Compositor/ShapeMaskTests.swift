@testable import FBRuntime
import MallocCounter
import Raster
import TestSupport
import XCTest

/// Issue 18: small shapes drawn the same way frame after frame (rounded
/// backgrounds, borders, shape layers' fills and strokes) come from cached
/// coverage (`Compositor.shapeMasks`); the reference is the same scene
/// scan-converted every frame (`shapeMaskBlits = false`), bit for bit.
final class ShapeMaskTests: XCTestCase {
    func cardScene(at origin: Point) -> Layer {
        let root = Layer(name: "root")
        root.bounds = Rect(x: 0, y: 0, width: 240, height: 160)
        root.anchorPoint = .zero
        root.backgroundColor = Color(rgb: 0xF5F5F5)
        for i in 0..<4 {
            let card = Layer(name: "card\(i)")
            card.anchorPoint = i == 3 ? Point(x: 0.5, y: 0.5) : .zero
            card.bounds = Rect(x: 0, y: 0, width: 71 + Double(i) * 3, height: 43)
            card.position = Point(x: origin.x + Double(i % 2) * 110, y: origin.y + Double(i / 2) * 70)
            card.backgroundColor = i == 2 ? Color(rgb: 0x2196F3, alpha: 0.7) : .white
            card.cornerRadius = 6 + Double(i) * 2.5
            card.borderWidth = 1.5 + Double(i) * 0.5
            card.borderColor = Color(rgb: 0xC0C4C8)
            try! root.addSublayer(card)
            let shape = ShapeLayer(name: "icon")
            shape.anchorPoint = .zero
            shape.bounds = Rect(x: 0, y: 0, width: 30, height: 30)
            shape.position = Point(x: 8.25, y: 6)
            var star = Path()
            for k in 0..<10 {
                let a = Double(k) * Double.pi / 5, r = k % 2 == 0 ? 14.0 : 6.0
                let p = PathPoint(15 + r * sin(a), 15 - r * cos(a))
                if k == 0 { star.move(to: p) } else { star.line(to: p) }
            }
            star.close()
            shape.path = star
            shape.fillColor = Color(rgb: 0xFFB300)
            shape.strokeColor = Color(rgb: 0x6D4C41)
            shape.lineWidth = 1.5
            shape.lineJoin = .round
            try! card.addSublayer(shape)
        }
        return root
    }

    func render(_ root: Layer, _ compositor: Compositor, into target: Surface<ARGB8888>, frames: Int = 3) {
        for _ in 0..<frames {
            compositor.invalidate()
            compositor.render(root, at: 0, into: target.view)
        }
    }

    func testShapeMasksEqualDirectFillsBitForBit() {
        for origin in [Point(x: 10, y: 12), Point(x: 10.5, y: 12.25), Point(x: 9.3, y: 11.71)] {
            for scale in [1.0, 2.0] {
                let cache = CoverageMaskCache(budget: 1 << 20)
                let fast = Compositor(scale: scale)
                fast.shapeMasks = cache
                let reference = Compositor(scale: scale)
                reference.shapeMaskBlits = false
                let w = Int(240 * scale), h = Int(160 * scale)
                let a = Surface<ARGB8888>(width: w, height: h)!, b = Surface<ARGB8888>(width: w, height: h)!
                render(cardScene(at: origin), fast, into: a)
                render(cardScene(at: origin), reference, into: b)
                XCTAssertGreaterThan(cache.count, 8, "backgrounds, borders, fills and strokes were cached at \(origin), ×\(scale)")
                XCTAssertGreaterThan(cache.hits, 0)
                XCTAssertEqual(pixelChecksum(a.view), pixelChecksum(b.view), "at \(origin), ×\(scale)")
                if pixelChecksum(a.view) != pixelChecksum(b.view) { writeFailureImages(a.view, b.view, name: "shape-masks") }
            }
        }
    }

    /// Cards moving by whole pixels (falling, scrolling) reuse their masks:
    /// each frame equals the direct fill of the same frame.
    func testMasksReusedAfterWholePixelMovesEqualDirectFills() {
        let cache = CoverageMaskCache(budget: 1 << 20)
        let fast = Compositor()
        fast.shapeMasks = cache
        let reference = Compositor()
        reference.shapeMaskBlits = false
        let s1 = cardScene(at: Point(x: 10.5, y: 12.25)), s2 = cardScene(at: Point(x: 10.5, y: 12.25))
        let a = Surface<ARGB8888>(width: 240, height: 160)!, b = Surface<ARGB8888>(width: 240, height: 160)!
        for step in 0..<20 {
            for (l1, l2) in zip(s1.sublayers, s2.sublayers) {
                l1.position.y += Double(step % 3) - 1
                l2.position.y = l1.position.y
            }
            fast.render(s1, at: 0, into: a.view)
            reference.render(s2, at: 0, into: b.view)
            XCTAssertEqual(pixelChecksum(a.view), pixelChecksum(b.view), "frame \(step)")
        }
        XCTAssertGreaterThan(cache.hits, 50)
    }

    /// A stroke end animating, a morph and a fractional slide change their
    /// shape every frame: no mask is made for them.
    func testShapesThatChangeEveryFrameMakeNoMasks() {
        let cache = CoverageMaskCache(budget: 1 << 20)
        let compositor = Compositor()
        compositor.shapeMasks = cache
        let root = Layer(name: "root")
        root.bounds = Rect(x: 0, y: 0, width: 200, height: 120)
        root.anchorPoint = .zero
        let arc = ShapeLayer(name: "arc")
        arc.bounds = Rect(x: 0, y: 0, width: 100, height: 100)
        arc.anchorPoint = .zero
        var circle = Path()
        circle.arc(center: PathPoint(50, 50), radius: 45, startAngle: 0, endAngle: 2 * Double.pi, clockwise: true)
        arc.path = circle
        arc.fillColor = nil
        arc.strokeColor = .black
        arc.lineWidth = 10
        try! root.addSublayer(arc)
        let slider = Layer(name: "slider")
        slider.bounds = Rect(x: 0, y: 0, width: 40, height: 20)
        slider.cornerRadius = 6
        slider.backgroundColor = .white
        try! root.addSublayer(slider)
        let target = Surface<ARGB8888>(width: 200, height: 120)!
        for i in 0..<30 {
            arc.strokeEnd = Double(i) / 30
            slider.position = Point(x: 120 + Double(i) * 0.3, y: 60)
            compositor.render(root, at: 0, into: target.view)
        }
        XCTAssertEqual(cache.misses, 0, "no masks for shapes that change every frame")
    }

    /// Cards moving by whole pixels every frame allocate nothing once their
    /// masks are made.
    func testMovingCardsAllocateNothingPerFrame() {
        let compositor = Compositor()
        compositor.shapeMasks = CoverageMaskCache(budget: 1 << 20)
        let root = cardScene(at: Point(x: 10, y: 12))
        let target = Surface<ARGB8888>(width: 240, height: 160)!
        var perFrame: [UInt64] = []
        for i in 0..<40 {
            var k = 0
            while k < root.sublayers.count { root.sublayers[k].position.y += i % 2 == 0 ? 1 : -1; k += 1 }
            if i >= 10 { fbr_malloc_counter_begin() }
            compositor.render(root, at: 0, into: target.view)
            if i >= 10 { perFrame.append(fbr_malloc_counter_end()) }
        }
        XCTAssertNoAllocations(perFrame, "heap allocations per frame")
    }

    /// Bad geometry (huge or not finite) is scan-converted and clipped as
    /// before, never masked, and does not trap.
    func testBadGeometryIsNotMasked() {
        let cache = CoverageMaskCache(budget: 1 << 20)
        let compositor = Compositor()
        compositor.shapeMasks = cache
        let root = Layer(name: "root")
        root.bounds = Rect(x: 0, y: 0, width: 64, height: 64)
        root.anchorPoint = .zero
        let shape = ShapeLayer(name: "far")
        shape.anchorPoint = .zero
        shape.bounds = Rect(x: 0, y: 0, width: 64, height: 64)
        var far = Path()
        far.move(to: PathPoint(1e300, 0)); far.line(to: PathPoint(1e300 + 1e290, 10)); far.line(to: PathPoint(-5, 30))
        far.close()
        shape.path = far
        shape.fillColor = .black
        try! root.addSublayer(shape)
        let target = Surface<ARGB8888>(width: 64, height: 64)!
        for _ in 0..<3 { compositor.invalidate(); compositor.render(root, at: 0, into: target.view) }
        shape.path = Path(rect: 0, 0, .nan, 10)
        for _ in 0..<3 { compositor.invalidate(); compositor.render(root, at: 0, into: target.view) }
        XCTAssertEqual(cache.count, 0)
    }
}
