@testable import FBRuntime
import Raster
import XCTest

/// `Layer.filters` in the compositor: the layer and its sublayers filtered
/// as one image, the chain in order, damage grown by what a blur spreads,
/// no redraw while nothing changes, a redraw when a filter does, frames
/// drawn by damage equal to full renders, animated parameters, bad values.
final class LayerFilterTests: XCTestCase {
    let size = 100

    func box(_ name: String, _ x: Double, _ y: Double, _ w: Double, _ h: Double, _ color: Color?, in parent: Layer) -> Layer {
        let l = Layer(name: name)
        l.bounds = Rect(x: 0, y: 0, width: w, height: h)
        l.anchorPoint = .zero
        l.position = Point(x: x, y: y)
        l.backgroundColor = color
        try! parent.addSublayer(l)
        return l
    }

    /// A black root with a red card holding a green and a translucent blue
    /// sublayer (overlapping).
    func scene() -> (root: Layer, card: Layer) {
        let root = Layer(name: "root")
        root.bounds = Rect(x: 0, y: 0, width: Double(size), height: Double(size))
        root.anchorPoint = .zero
        root.backgroundColor = .black
        let card = box("card", 30, 30, 40, 40, Color(red: 0.9, green: 0.1, blue: 0.1, alpha: 1), in: root)
        _ = box("green", 5, 5, 20, 20, Color(red: 0.1, green: 0.8, blue: 0.2, alpha: 1), in: card)
        _ = box("blue", 15, 15, 20, 20, Color(red: 0.1, green: 0.2, blue: 0.9, alpha: 0.5), in: card)
        return (root, card)
    }

    func render(_ root: Layer, at t: MediaTime = 0, compositor: Compositor = Compositor()) -> Surface<ARGB8888> {
        let target = Surface<ARGB8888>(width: size, height: size)!
        compositor.render(root, at: t, into: target.view, clearColor: .black)
        return target
    }

    /// Each opaque pixel of the card (background and sublayers) is the
    /// matrix kernel applied to the unfiltered pixel: the subtree was
    /// rendered as one image, then filtered (the chain in order).
    func testColourFiltersApplyToTheLayerAndSublayersAsOneImage() {
        let (root, card) = scene()
        let plain = render(root)
        card.filters = [.saturation(0.2), .contrast(1.6), .brightness(0.8)]
        let compositor = Compositor()
        let filtered = render(root, compositor: compositor)
        XCTAssertGreaterThanOrEqual(compositor.statistics.offscreenPasses, 1)
        let chain = [ColorMatrix.saturation(0.2), .contrast(1.6), .brightness(0.8)].map(ColorMatrixPlan.init)
        let one = Surface<ARGB8888>(width: 1, height: 1)!
        for (x, y) in [(32, 32), (40, 40), (50, 50), (60, 60), (69, 69), (10, 10), (80, 50)] {
            one.view[0, 0] = plain.view[x, y]
            if (30..<70).contains(x) && (30..<70).contains(y) {
                for plan in chain { ColorMatrixKernels.apply(plan, to: one.view, family: .reference) }
            }
            XCTAssertEqual(filtered.view[x, y], one.view[0, 0], "pixel (\(x), \(y))")
        }
        // Order matters: brightness then saturation differs somewhere.
        card.filters = [.brightness(0.8), .contrast(1.6), .saturation(0.2)]
        XCTAssertNotEqual(pixelChecksum(render(root).view), pixelChecksum(filtered.view))
    }

    /// A blur spreads the card beyond its bounds: its damage, and what is
    /// drawn, reach about 1.5 radii further.
    func testBlurGrowsTheDamageExtent() {
        let (root, card) = scene()
        let compositor = Compositor()
        let target = Surface<ARGB8888>(width: size, height: size)!
        compositor.render(root, at: 0, into: target.view, clearColor: .black)
        card.filters = [.gaussianBlur(radius: 8)]
        compositor.render(root, at: 0, into: target.view, clearColor: .black)
        let damage = compositor.damage.boundingBox
        XCTAssertLessThanOrEqual(damage.x, 30 - 12); XCTAssertLessThanOrEqual(damage.y, 30 - 12)
        XCTAssertGreaterThanOrEqual(damage.maxX, 70 + 12); XCTAssertGreaterThanOrEqual(damage.maxY, 70 + 12)
        XCTAssertNotEqual(target.view[25, 50] & 0xFF_FFFF, 0, "the blur reaches beyond the bounds")
        XCTAssertEqual(target.view[5, 5], 0xFF00_0000, "not far beyond")
        // The whole-frame render agrees with the damage-tracked one.
        XCTAssertEqual(pixelChecksum(target.view), pixelChecksum(render(root).view))
        // A larger radius damages further still.
        card.filters = [.gaussianBlur(radius: 16)]
        compositor.render(root, at: 0, into: target.view, clearColor: .black)
        XCTAssertLessThanOrEqual(compositor.damage.boundingBox.x, 30 - 24)
        XCTAssertEqual(pixelChecksum(target.view), pixelChecksum(render(root).view))
    }

    func testUnchangedFiltersDoNotRedrawAndChangedOnesDo() {
        let (root, card) = scene()
        card.filters = [.saturation(0.5), .gaussianBlur(radius: 4)]
        let compositor = Compositor()
        let target = Surface<ARGB8888>(width: size, height: size)!
        compositor.render(root, at: 0, into: target.view, clearColor: .black)
        compositor.render(root, at: 1, into: target.view, clearColor: .black)
        XCTAssertTrue(compositor.damage.isEmpty, "nothing changed")
        card.filters = [.saturation(0.5), .gaussianBlur(radius: 4)]      // the same list again
        compositor.render(root, at: 2, into: target.view, clearColor: .black)
        XCTAssertTrue(compositor.damage.isEmpty, "an equal list draws nothing")
        for change in [[LayerFilter.saturation(0.6), .gaussianBlur(radius: 4)], [.saturation(0.6), .gaussianBlur(radius: 5)],
                       [.saturation(0.6)], [.colorMatrix(.brightness(0.5))], [.colorMatrix(.brightness(0.6))], []] {
            card.filters = change
            compositor.render(root, at: 3, into: target.view, clearColor: .black)
            XCTAssertFalse(compositor.damage.isEmpty, "\(change) redraws")
            XCTAssertEqual(pixelChecksum(target.view), pixelChecksum(render(root, at: 3).view), "\(change)")
        }
    }

    /// Frames drawn by damage rectangles against full renders, with a
    /// sublayer of the blurred card and a layer beside it moving: the blur
    /// reads the pixels around each damage rectangle, so they agree bit
    /// for bit.
    func testDamageTrackedFramesMatchFullRenders() {
        let (root, card) = scene()
        card.filters = [.gaussianBlur(radius: 6), .saturation(1.8)]
        let inner = box("inner", 2, 30, 6, 6, .white, in: card)
        let outer = box("outer", 5, 80, 8, 8, Color(red: 1, green: 1, blue: 0, alpha: 1), in: root)
        inner.add(BasicAnimation(key: .positionX, from: .scalar(2), to: .scalar(32), duration: 1), forKey: "a", at: 0)
        outer.add(BasicAnimation(key: .positionX, from: .scalar(5), to: .scalar(85), duration: 1), forKey: "b", at: 0)
        let compositor = Compositor()
        let target = Surface<ARGB8888>(width: size, height: size)!
        var partial = 0
        for i in 0...20 {
            let t = Double(i) / 20
            compositor.render(root, at: t, into: target.view, clearColor: .black)
            if compositor.damage.area < size * size { partial += 1 }
            XCTAssertEqual(pixelChecksum(target.view), pixelChecksum(render(root, at: t).view), "frame \(i)")
        }
        XCTAssertGreaterThan(partial, 10, "most frames redrew part of the target")
    }

    /// The blur radius and the amounts animate by key; the presentation
    /// layer shows the animated filter.
    func testParametersAnimate() {
        let (root, card) = scene()
        card.filters = [.saturation(1), .gaussianBlur(radius: 0)]
        let plain = render(root)
        card.add(BasicAnimation(key: .filterBlurRadius, from: .scalar(0), to: .scalar(10), duration: 1), forKey: "blur", at: 0)
        card.add(BasicAnimation(key: .filterSaturation, from: .scalar(1), to: .scalar(0), duration: 1), forKey: "grey", at: 0)
        XCTAssertEqual(pixelChecksum(render(root, at: 0).view), pixelChecksum(plain.view), "identity at the start")
        let compositor = Compositor()
        let target = Surface<ARGB8888>(width: size, height: size)!
        compositor.render(root, at: 0.5, into: target.view, clearColor: .black)
        let mid = target.view[50, 50]
        XCTAssertNotEqual(mid, plain.view[50, 50])
        XCTAssertNotEqual(target.view[26, 50] & 0xFF_FFFF, 0, "blurred beyond the bounds")
        compositor.render(root, at: 0.75, into: target.view, clearColor: .black)
        XCTAssertFalse(compositor.damage.isEmpty, "an animated filter redraws")
        let p = card.presentation(at: 0.5)
        XCTAssertEqual(p.filters, [.saturation(0.5), .gaussianBlur(radius: 5)])
        XCTAssertEqual(card.filters, [.saturation(1), .gaussianBlur(radius: 0)], "the model keeps its values")
        // Only the first filter of a kind is driven.
        card.filters = [.saturation(1), .gaussianBlur(radius: 0), .saturation(0.3)]
        XCTAssertEqual(card.presentation(at: 0.5).filters[2], .saturation(0.3))
        XCTAssertEqual(card.value(forKey: "filters.gaussianBlur.inputRadius"), .scalar(0))
    }

    /// A rasterized layer's bitmap holds its image before its filters,
    /// which apply when it is drawn: the same pixels as without the cache
    /// (whole-pixel placement, rasterization scale 1).
    func testRasterizedLayerFiltersItsBitmap() {
        let (root, card) = scene()
        card.filters = [.gaussianBlur(radius: 6), .saturation(0.3)]
        let direct = render(root)
        card.shouldRasterize = true
        let compositor = Compositor()
        let cached = render(root, compositor: compositor)
        XCTAssertEqual(pixelChecksum(cached.view), pixelChecksum(direct.view))
        XCTAssertGreaterThan(compositor.rasterizeCacheBytes, 0)
        XCTAssertLessThanOrEqual(compositor.rasterizeCacheBytes, 64 * 64 * 4, "the bitmap is the image, not its blur's spread")
    }

    /// NaN, infinite and huge parameters are clamped: nothing traps, and a
    /// NaN amount changes nothing.
    func testBadValuesAreClamped() {
        let (root, card) = scene()
        let plain = render(root)
        card.filters = [.saturation(.nan), .brightness(.nan), .contrast(.nan), .gaussianBlur(radius: .nan),
                        .gaussianBlur(radius: -4)]
        let nanFrame = render(root)
        XCTAssertEqual(nanFrame.view[50, 50], plain.view[50, 50])
        XCTAssertEqual(nanFrame.view[40, 40], plain.view[40, 40])
        card.filters = [.saturation(.infinity), .brightness(-1e300), .contrast(1e300), .gaussianBlur(radius: .infinity),
                        .colorMatrix(ColorMatrix([Double](repeating: .nan, count: 20))),
                        .colorMatrix(ColorMatrix([Double](repeating: 1e300, count: 20)))]
        _ = render(root)
        // Each blur's radius is clamped to maximumShadowRadius pixels, and
        // what a chain spreads to maximumFilterMargin.
        card.filters = [LayerFilter](repeating: .gaussianBlur(radius: 1e9), count: 12)
        let compositor = Compositor()
        let placement = Compositor.ParentPlacement(toTarget: .identity, sublayerSpace: .identity, flipped: false, time: 0)
        XCTAssertEqual(compositor.filterMargin(compositor.resolve(card, in: placement)!), Compositor.maximumFilterMargin)
        card.filters = [.gaussianBlur(radius: 1e9)]
        XCTAssertEqual(compositor.filterMargin(compositor.resolve(card, in: placement)!),
                       Int(1.5 * Compositor.maximumShadowRadius) + 2)
        _ = render(root, compositor: compositor)
    }
}
