@testable import FBRuntime
import Raster
import TestSupport
import XCTest

/// A layer's animations are evaluated once per frame, however many damage
/// rectangles, offscreen passes and subtree signatures need its values
/// (`PresentationMemo`, `FrameStatistics.animationEvaluations`), and the
/// frames are still exactly what a compositor without memory draws.
final class AnimationEvaluationTests: XCTestCase {
    func same(_ a: PixelView<ARGB8888>, _ b: PixelView<ARGB8888>) -> Bool {
        for y in 0..<a.height { for x in 0..<a.width where a[x, y] != b[x, y] { return false } }
        return true
    }

    func box(_ name: String, _ x: Double, _ y: Double, _ w: Double, _ h: Double, _ rgb: UInt32) -> Layer {
        solidLayer(name, x, y, w, h, rgb)
    }

    /// A linear 0…1 s slide of `layer` by `dx` points, for ever.
    func slide(_ layer: Layer, by dx: Double) {
        var a = BasicAnimation(key: .positionX, from: .scalar(layer.position.x), to: .scalar(layer.position.x + dx))
        a.duration = 1
        a.repeatCount = .infinity
        layer.add(a, forKey: "slide", at: 0)
    }

    /// A scene whose animated layers are spread apart (a damage rectangle
    /// each), one of them inside a group faded as a whole (drawn
    /// offscreen, its subtree folded into the group's signature), one
    /// with a mask, one casting a `shadowPath` shadow.
    func makeScene() throws -> (root: Layer, animated: Int) {
        let root = box("root", 0, 0, 640, 360, 0x102030)
        var animated = 0
        for i in 0..<6 {
            let l = box("row \(i)", 20, 20 + Double(i) * 55, 40, 30, 0x3070C0 + UInt32(i) * 0x101000)
            l.cornerRadius = Double(i)          // some whole-pixel, some rounded
            try root.addSublayer(l)
            slide(l, by: 200)
            animated += 1
        }
        let group = box("group", 420, 20, 180, 120, 0x804020)
        group.opacity = 0.6
        let inner = box("inner", 10, 10, 50, 50, 0x20C040)
        let inner2 = box("inner2", 40, 40, 50, 50, 0xC02040)
        try group.addSublayer(inner)
        try group.addSublayer(inner2)
        slide(inner, by: 60)
        slide(inner2, by: 40)
        try root.addSublayer(group)
        animated += 2
        let masked = box("masked", 420, 180, 120, 80, 0xE0E040)
        let mask = box("mask", 0, 0, 60, 60, 0xFFFFFF)
        mask.cornerRadius = 30
        masked.mask = mask
        slide(mask, by: 50)
        try root.addSublayer(masked)
        animated += 1
        let shadowed = box("shadowed", 420, 290, 60, 40, 0xA0A0A0)
        shadowed.shadowOpacity = 0.8
        shadowed.shadowRadius = 4
        shadowed.shadowPath = Path(roundedRect: 0, 0, 60, 40, radii: CornerRadii(topLeft: 6, topRight: 6, bottomRight: 6, bottomLeft: 6))
        slide(shadowed, by: 100)
        try root.addSublayer(shadowed)
        animated += 1
        return (root, animated)
    }

    func testEachAnimatedLayerIsEvaluatedOncePerFrame() throws {
        let (root, animated) = try makeScene()
        let target = Surface<ARGB8888>(width: 640, height: 360)!
        let compositor = Compositor()
        for frame in 0..<12 {
            let t = 0.05 + Double(frame) / 60
            compositor.render(root, at: t, into: target.view)
            XCTAssertEqual(compositor.statistics.animationEvaluations, animated,
                           "frame \(frame): every animated layer evaluated exactly once")
            if frame > 0 {
                XCTAssertGreaterThan(compositor.damage.rects.count, 3, "frame \(frame): several damage rectangles to redraw")
            }
            let oracle = Surface<ARGB8888>(width: 640, height: 360)!
            Compositor().render(root, at: t, into: oracle.view)
            XCTAssertTrue(same(target.view, oracle.view), "frame \(frame): the frame a fresh compositor draws")
        }
    }

    /// A memo never outlives its frame: a model change between two frames
    /// at the same time (an animation removed, a property set) shows.
    func testMemoDoesNotSurviveTheFrame() throws {
        let (root, _) = try makeScene()
        let target = Surface<ARGB8888>(width: 640, height: 360)!
        let compositor = Compositor()
        compositor.render(root, at: 0.25, into: target.view)
        let row = root.sublayers[2]
        row.removeAnimation(forKey: "slide")
        row.position.x = 300
        root.sublayers[6].sublayers[0].removeAllAnimations()
        compositor.render(root, at: 0.25, into: target.view)
        let oracle = Surface<ARGB8888>(width: 640, height: 360)!
        Compositor().render(root, at: 0.25, into: oracle.view)
        XCTAssertTrue(same(target.view, oracle.view))
        XCTAssertEqual(compositor.statistics.animationEvaluations, 8)
    }
}
