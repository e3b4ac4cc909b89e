@testable import FBRuntime
import Raster
import TestSupport
import XCTest

/// Issue 18: images shown 1:1 on whole pixels are composited row by row
/// from their pixels (`Compositor.wholePixelBlits`); the reference is the
/// resampling image paint they went through before (the switch off),
/// bit for bit. `.tile` contents against the same picture made of one
/// layer per tile.
final class WholePixelBlitTests: XCTestCase {
    /// A `w`×`h` image with soft alpha (or opaque), different per seed.
    func image(_ w: Int, _ h: Int, opaque: Bool, seed: UInt32) -> LayerContents {
        let s = Surface<ARGB8888>(width: w, height: h)!
        var x32 = seed | 1
        for y in 0..<h {
            for x in 0..<w {
                x32 ^= x32 << 13; x32 ^= x32 >> 17; x32 ^= x32 << 5
                let a: UInt32 = opaque ? 255 : UInt32((x * 255) / max(1, w - 1)) ^ (x32 & 0x1F)
                let r = (UInt32(x * 7 + y) & 0xFF) * a / 255, g = (UInt32(y * 5) & 0xFF) * a / 255, b = (x32 >> 8 & 0xFF) * a / 255
                s.view[x, y] = a << 24 | r << 16 | g << 8 | b
            }
        }
        return LayerContents(s, isOpaque: opaque)
    }

    func render(_ root: Layer, blits: Bool, frames: [(Layer) -> Void] = [{ _ in }]) -> [UInt64] {
        let target = Surface<ARGB8888>(width: 200, height: 160)!
        let compositor = Compositor()
        compositor.wholePixelBlits = blits
        var sums: [UInt64] = []
        for change in frames {
            change(root)
            compositor.render(root, at: 0, into: target.view)
            sums.append(pixelChecksum(target.view))
        }
        return sums
    }

    func scene(opacity: Double, op: BlendOperator, contentsRect: Rect, gravity: ContentsGravity) -> Layer {
        let root = Layer(name: "root")
        root.bounds = Rect(x: 0, y: 0, width: 200, height: 160)
        root.anchorPoint = .zero
        root.backgroundColor = Color(rgb: 0x406080)
        for (i, opaque) in [true, false, false].enumerated() {
            let l = Layer(name: "image\(i)")
            l.contents = image(37 + i * 5, 29 + i * 3, opaque: opaque, seed: UInt32(i + 1))
            l.anchorPoint = .zero
            l.bounds = Rect(x: 0, y: 0, width: Double(37 + i * 5), height: Double(29 + i * 3))
            l.position = Point(x: Double(10 + i * 50), y: Double(12 + i * 30))
            l.opacity = opacity
            l.compositingOperator = op
            l.contentsRect = contentsRect
            l.contentsGravity = gravity
            try! root.addSublayer(l)
        }
        return root
    }

    func testBlitEqualsResampledImageBitForBit() {
        var cases = 0
        for opacity in [1.0, 0.5] {
            for op in [BlendOperator.srcOver, .src, .multiply, .plus] {
                for (cr, gravity) in [(Rect(x: 0, y: 0, width: 1, height: 1), ContentsGravity.resize),
                                      (Rect(x: 0, y: 0, width: 1, height: 1), .topLeft),
                                      (Rect(x: 0, y: 0, width: 1, height: 1), .center),
                                      (Rect(x: 0.2, y: 0, width: 0.6, height: 1), .topLeft)] {
                    // Whole-pixel moves between frames, and one off the grid
                    // (the resampling path on both sides).
                    let moves: [(Layer) -> Void] = [{ _ in }, { $0.sublayers[1].position.x += 3 },
                                                    { $0.sublayers[2].position.y -= 7 }, { $0.sublayers[0].position.x += 0.5 }]
                    let fast = render(scene(opacity: opacity, op: op, contentsRect: cr, gravity: gravity), blits: true, frames: moves)
                    let slow = render(scene(opacity: opacity, op: op, contentsRect: cr, gravity: gravity), blits: false, frames: moves)
                    XCTAssertEqual(fast, slow, "opacity \(opacity), \(op), contentsRect \(cr), \(gravity)")
                    cases += 1
                }
            }
        }
        XCTAssertEqual(cases, 32)
    }

    /// `.tile` over a layer equals a grid of layers each showing the image
    /// (the last column and row cut by a `masksToBounds` parent), on and off
    /// the pixel grid, and the blit equals the resampled tiles.
    func testTilesEqualAGridOfLayers() {
        let tile = image(23, 17, opaque: false, seed: 7)
        for (origin, scale) in [(Point(x: 5, y: 9), 1.0), (Point(x: 5.5, y: 9.25), 1.0), (Point(x: 3, y: 4), 2.0)] {
            let tiled = Layer(name: "root")
            tiled.bounds = Rect(x: 0, y: 0, width: 200, height: 160)
            tiled.anchorPoint = .zero
            tiled.backgroundColor = .white
            let wallpaper = Layer(name: "wallpaper")
            wallpaper.anchorPoint = .zero
            wallpaper.bounds = Rect(x: 0, y: 0, width: 150, height: 100)
            wallpaper.position = origin
            wallpaper.contents = tile
            wallpaper.contentsGravity = .tile
            wallpaper.contentsScale = scale
            try! tiled.addSublayer(wallpaper)

            let grid = Layer(name: "root")
            grid.bounds = tiled.bounds
            grid.anchorPoint = .zero
            grid.backgroundColor = .white
            let clip = Layer(name: "clip")
            clip.anchorPoint = .zero
            clip.bounds = wallpaper.bounds
            clip.position = origin
            clip.masksToBounds = true
            try! grid.addSublayer(clip)
            let tw = 23 / scale, th = 17 / scale
            var y = 0.0
            while y < 100 {
                var x = 0.0
                while x < 150 {
                    let l = Layer(name: "tile")
                    l.anchorPoint = .zero
                    l.bounds = Rect(x: 0, y: 0, width: tw, height: th)
                    l.position = Point(x: x, y: y)
                    l.contents = tile
                    l.contentsScale = scale
                    try! clip.addSublayer(l)
                    x += tw
                }
                y += th
            }
            let a = render(tiled, blits: true), b = render(tiled, blits: false)
            XCTAssertEqual(a, b, "tiles at \(origin), contentsScale \(scale): blit = resampled")
            if origin.x == origin.x.rounded() && scale == 1 {
                XCTAssertEqual(a, render(grid, blits: false), "tiles at \(origin) = a grid of layers")
            } else {
                // Off the grid (or scaled) each tile is resampled on its
                // own, as each layer of the grid is; the clip differs only
                // at the cut edges' anti-aliasing. Compare inside.
                let t1 = Surface<ARGB8888>(width: 200, height: 160)!, t2 = Surface<ARGB8888>(width: 200, height: 160)!
                Compositor().render(tiled, at: 0, into: t1.view)
                Compositor().render(grid, at: 0, into: t2.view)
                var worst = 0
                for py in Int(origin.y.rounded(.up)) + 1 ..< Int(origin.y) + 99 {
                    for px in Int(origin.x.rounded(.up)) + 1 ..< Int(origin.x) + 149 {
                        let p = t1.view[px, py], q = t2.view[px, py]
                        for s in stride(from: 0, through: 24, by: 8) {
                            worst = max(worst, abs(Int((p >> UInt32(s)) & 0xFF) - Int((q >> UInt32(s)) & 0xFF)))
                        }
                    }
                }
                XCTAssertLessThanOrEqual(worst, 1, "tiles at \(origin), contentsScale \(scale) inside the cut")
                if worst > 1 { writeFailureImages(t1.view, t2.view, name: "tiles-\(origin.x)-\(scale)") }
            }
        }
    }

    /// An opaque tiled wallpaper hides what is below it (its pixels are not
    /// drawn), and the frame equals the one drawn without culling.
    func testOpaqueTilesOccludeWhatIsBelow() {
        func scene() -> Layer {
            let root = Layer(name: "root")
            root.bounds = Rect(x: 0, y: 0, width: 200, height: 160)
            root.anchorPoint = .zero
            root.backgroundColor = .white
            let below = Layer(name: "below")
            below.anchorPoint = .zero
            below.bounds = Rect(x: 0, y: 0, width: 60, height: 60)
            below.position = Point(x: 30, y: 30)
            below.backgroundColor = Color(rgb: 0xFF0000)
            below.cornerRadius = 9
            try! root.addSublayer(below)
            let wallpaper = Layer(name: "wallpaper")
            wallpaper.anchorPoint = .zero
            wallpaper.bounds = Rect(x: 0, y: 0, width: 150, height: 130)
            wallpaper.position = Point(x: 10, y: 5)
            wallpaper.contents = image(23, 17, opaque: true, seed: 5)
            wallpaper.contentsGravity = .tile
            try! root.addSublayer(wallpaper)
            return root
        }
        let culled = Compositor(), reference = Compositor()
        reference.cullsOccludedLayers = false
        let a = Surface<ARGB8888>(width: 200, height: 160)!, b = Surface<ARGB8888>(width: 200, height: 160)!
        culled.render(scene(), at: 0, into: a.view)
        reference.render(scene(), at: 0, into: b.view)
        XCTAssertEqual(culled.statistics.layersOccluded, 1, "the layer under the wallpaper")
        XCTAssertEqual(pixelChecksum(a.view), pixelChecksum(b.view))
    }

    /// A tile grid past `maximumTiles` is refused with a warning, not drawn
    /// for ever; a NaN natural size draws nothing.
    func testHugeTileGridsAreClamped() {
        let root = Layer(name: "root")
        root.bounds = Rect(x: 0, y: 0, width: 64, height: 64)
        root.anchorPoint = .zero
        let wallpaper = Layer(name: "wallpaper")
        wallpaper.anchorPoint = .zero
        wallpaper.bounds = Rect(x: 0, y: 0, width: 1e6, height: 1e6)
        wallpaper.contents = image(2, 2, opaque: true, seed: 3)
        wallpaper.contentsGravity = .tile
        try! root.addSublayer(wallpaper)
        let target = Surface<ARGB8888>(width: 64, height: 64)!
        Compositor().render(root, at: 0, into: target.view, clearColor: .clear)
        XCTAssertEqual(target.view[10, 10], 0, "a grid of 2.5·10¹¹ tiles is not drawn")
        wallpaper.bounds = Rect(x: 0, y: 0, width: 64, height: 64)
        Compositor().render(root, at: 0, into: target.view, clearColor: .clear)
        XCTAssertNotEqual(target.view[10, 10], 0, "a small grid is drawn")
        // A nearly singular map sends the clip's corners out of Int's range
        // in the layer's space: the tile range is clamped, nothing traps.
        wallpaper.transform = Transform3D(scaleX: 1e-300, y: 1e-300)
        Compositor().render(root, at: 0, into: target.view, clearColor: .clear)
    }
}
