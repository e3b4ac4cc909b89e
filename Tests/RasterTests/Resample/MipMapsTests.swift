import Raster
import TestSupport
import XCTest

/// A trilinear `ImagePaint` given a shared `MipMaps` draws exactly what one
/// that builds its own chain draws (the per-region limits of each level
/// come from `MipChain.build` there and are computed per level here).
final class MipMapsTests: XCTestCase {
    func testSharedChainDrawsLikeAnOwnChain() {
        var rng = SplitMix64(seed: 2024)
        let image = Surface<ARGB8888>(width: 77, height: 45)!
        for y in 0..<45 { for x in 0..<77 { image.view[x, y] = rng.premultipliedColor().argb } }
        let shared = MipMaps(image.view)
        let cases: [(AffineTransform, PaintRect)] = [
            (.scale(x: 0.3, y: 0.3), .unit),
            (.scale(x: 0.45, y: 0.2), PaintRect(x: 0.13, y: 0.27, width: 0.61, height: 0.5)),   // a region off the level grid
            (AffineTransform.rotation(radians: 0.4).concatenating(.scale(x: 0.25, y: 0.25)).concatenating(.translation(x: 20, y: 5)),
             PaintRect(x: 0.5, y: 0, width: 0.5, height: 1)),
        ]
        for (i, (transform, rect)) in cases.enumerated() {
            for edge in [ImageEdge.transparent, .clamp] {
                let own = ImagePaint(image: image.view, transform: transform, filter: .trilinear, edge: edge, contentsRect: rect)
                let reused = ImagePaint(image: image.view, transform: transform, filter: .trilinear, edge: edge, contentsRect: rect,
                                        mipMaps: shared)
                let a = Surface<ARGB8888>(width: 60, height: 40)!, b = Surface<ARGB8888>(width: 60, height: 40)!
                a.clear(to: 0xFF10_2030); b.clear(to: 0xFF10_2030)
                Canvas(a.view).fill(a.view.bounds, paint: own)
                Canvas(b.view).fill(b.view.bounds, paint: reused)
                XCTAssertEqual(pixelChecksum(a.view), pixelChecksum(b.view), "case \(i), \(edge)")
            }
        }
        // Projective maps choose the level per pixel.
        let m = ProjectiveTransform(m00: 0.4, m01: 0.05, m02: 3, m10: 0.02, m11: 0.35, m12: 2, m20: 0.004, m21: 0.002, m22: 1)
        let own = ImagePaint(image: image.view, projective: m, filter: .trilinear, contentsRect: PaintRect(x: 0.1, y: 0.1, width: 0.8, height: 0.7))
        let reused = ImagePaint(image: image.view, projective: m, filter: .trilinear,
                                contentsRect: PaintRect(x: 0.1, y: 0.1, width: 0.8, height: 0.7), mipMaps: shared)
        let a = Surface<ARGB8888>(width: 60, height: 40)!, b = Surface<ARGB8888>(width: 60, height: 40)!
        Canvas(a.view).fill(a.view.bounds, paint: own)
        Canvas(b.view).fill(b.view.bounds, paint: reused)
        XCTAssertEqual(pixelChecksum(a.view), pixelChecksum(b.view), "projective")
    }

    /// A chain built for an image of another size is not used (the paint
    /// builds its own): same pixels as without one.
    func testChainOfAnotherSizeIsIgnored() {
        let image = Surface<ARGB8888>(width: 32, height: 32)!
        for y in 0..<32 { for x in 0..<32 { image.view[x, y] = (x / 4 + y / 4) % 2 == 0 ? 0xFFFF_FFFF : 0xFF00_0000 } }
        let other = Surface<ARGB8888>(width: 16, height: 16)!
        other.clear(to: 0xFFFF_0000)
        let wrong = MipMaps(other.view)
        let t = AffineTransform.scale(x: 0.3, y: 0.3)
        let a = Surface<ARGB8888>(width: 12, height: 12)!, b = Surface<ARGB8888>(width: 12, height: 12)!
        Canvas(a.view).fill(a.view.bounds, paint: ImagePaint(image: image.view, transform: t, filter: .trilinear))
        Canvas(b.view).fill(b.view.bounds, paint: ImagePaint(image: image.view, transform: t, filter: .trilinear, mipMaps: wrong))
        XCTAssertEqual(pixelChecksum(a.view), pixelChecksum(b.view))
    }
}
