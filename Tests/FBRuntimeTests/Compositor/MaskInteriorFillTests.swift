@testable import FBRuntime
import Raster
import TestSupport
import XCTest

/// The inside of a cached shape mask filled with the plain fill kernel
/// (`Compositor.maskInteriorFills`) against the whole mask through the
/// coverage kernel (the switch off), bit for bit: opaque and translucent
/// rounded cards, borders, shape layers, at whole and fractional places,
/// moving by whole pixels so the damage rectangles cut the masks anywhere,
/// both kernel families.
final class MaskInteriorFillTests: XCTestCase {
    func scene(at origin: Point) -> Layer {
        let root = solidLayer("root", 0, 0, 260, 170, 0xF5F5F5)
        for i in 0..<6 {
            let card = solidLayer("card\(i)", origin.x + Double(i % 3) * 82, origin.y + Double(i / 3) * 80,
                                  60 + Double(i) * 3, 40 + Double(i % 2) * 25)
            card.backgroundColor = i == 4 ? Color(rgb: 0x2196F3, alpha: 0.7) : (i == 5 ? Color(rgb: 0x204060) : .white)
            card.cornerRadius = 4 + Double(i) * 2.5
            card.borderWidth = i % 2 == 0 ? 2 : 0
            card.borderColor = Color(rgb: 0xC0C4C8)
            let blob = ShapeLayer(name: "blob\(i)")
            blob.anchorPoint = .zero
            blob.bounds = Rect(x: 0, y: 0, width: 40, height: 30)
            blob.position = Point(x: 6.5, y: 5)
            blob.path = Path(roundedRect: 0, 0, 40, 30, radii: CornerRadii(topLeft: 12, topRight: 3, bottomRight: 12, bottomLeft: 3))
            blob.fillColor = Color(rgb: 0xFFB300)
            try! card.addSublayer(blob)
            try! root.addSublayer(card)
        }
        return root
    }

    func testInteriorFillsEqualTheCoverageKernelBitForBit() {
        for family in [KernelFamily.simd, .reference] {
            for origin in [Point(x: 8, y: 6), Point(x: 8.5, y: 6.25)] {
                let fast = Compositor(kernels: family), reference = Compositor(kernels: family)
                reference.maskInteriorFills = false
                let s1 = scene(at: origin), s2 = scene(at: origin)
                let a = Surface<ARGB8888>(width: 260, height: 170)!, b = Surface<ARGB8888>(width: 260, height: 170)!
                for step in 0..<16 {
                    // Whole-pixel moves: the masks are reused, and the
                    // damage cuts them at varying columns and rows.
                    for (k, (l1, l2)) in zip(s1.sublayers, s2.sublayers).enumerated() {
                        l1.position.x += Double((step + k) % 5) - 2
                        l1.position.y += Double((step * 3 + k) % 3) - 1
                        l2.position = l1.position
                    }
                    fast.render(s1, at: 0, into: a.view)
                    reference.render(s2, at: 0, into: b.view)
                    XCTAssertEqual(pixelChecksum(a.view), pixelChecksum(b.view), "\(family) at \(origin), frame \(step)")
                    if pixelChecksum(a.view) != pixelChecksum(b.view) {
                        writeFailureImages(a.view, b.view, name: "mask-interiors")
                        return
                    }
                }
            }
        }
    }

    /// Rows with a long full run record it; thin rings and short shapes
    /// record nothing.
    func testInteriorsAreTheLongestFullRuns() {
        var rows = [UInt8](repeating: 0, count: 40 * 3)
        for x in 2..<38 { rows[x] = 255 }                  // row 0: one run, 2..<38
        rows[40] = 255; rows[41] = 255; rows[78] = 255     // row 1: short runs only
        for x in 0..<10 { rows[80 + x] = 255 }             // row 2: 0..<10 and 20..<40
        for x in 20..<40 { rows[80 + x] = 255 }
        let mask = CoverageMask(coverage: rows, left: 0, top: 0, width: 40, height: 3)
        XCTAssertEqual(mask.interiors, [2 | 38 << 16, 0, 20 | 40 << 16])
        let ring = CoverageMask(coverage: [UInt8](repeating: 128, count: 40 * 2), left: 0, top: 0, width: 40, height: 2)
        XCTAssertTrue(ring.interiors.isEmpty)
    }
}
