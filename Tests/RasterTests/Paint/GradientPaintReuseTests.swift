@testable import Raster
import XCTest

/// A `GradientPaint` re-made in place (`setLinear`, `setRadial`,
/// `setConic`) is the paint the factory makes from the same arguments:
/// the same cleaned stops, flags and shaded pixels, whatever it was before.
final class GradientPaintReuseTests: XCTestCase {
    private var rng = SplitMix64(seed: 0x9e_ad1e)

    private func coordinate() -> Double {
        Int.random(in: 0..<30, using: &rng) == 0 ? .nan : Double.random(in: -40...100, using: &rng)
    }

    private func stops() -> [GradientStop] {
        (0..<Int.random(in: 0...6, using: &rng)).map { _ in
            let alpha = UInt8.random(in: 0...255, using: &rng) > 100 ? 255 : UInt8.random(in: 0...255, using: &rng)
            let c = PremultipliedColor(red8: UInt8.random(in: 0...alpha, using: &rng), green: UInt8.random(in: 0...alpha, using: &rng),
                                       blue: UInt8.random(in: 0...alpha, using: &rng), alpha: alpha)
            switch Int.random(in: 0..<5, using: &rng) {
            case 0: return GradientStop(c)
            case 1: return GradientStop(c, at: .nan)
            default: return GradientStop(c, at: Double.random(in: -0.2...1.2, using: &rng))   // unsorted, some outside 0…1
            }
        }
    }

    private func transform() -> AffineTransform {
        Int.random(in: 0..<3, using: &rng) == 0 ? .identity
            : AffineTransform(a: Double.random(in: -2...2, using: &rng), b: Double.random(in: -1...1, using: &rng),
                              c: Double.random(in: -1...1, using: &rng), d: Double.random(in: -2...2, using: &rng),
                              tx: coordinate(), ty: coordinate())
    }

    private func assertSamePaint(_ a: GradientPaint, _ b: GradientPaint, _ what: String) {
        XCTAssertEqual(a.stops, b.stops, what)
        XCTAssertEqual(a.isOpaque, b.isOpaque, what)
        XCTAssertEqual(a.isRowInvariant, b.isRowInvariant, what)
        XCTAssertEqual(a.spread, b.spread, what)
        var rowA = [UInt32](repeating: 0, count: 48), rowB = [UInt32](repeating: 1, count: 48)
        for family in [KernelFamily.simd, .reference] {
            for y in [0, 7, 23] {
                rowA.withUnsafeMutableBufferPointer { a.shade(x: -5, y: y, count: 48, into: $0.baseAddress!, family: family) }
                rowB.withUnsafeMutableBufferPointer { b.shade(x: -5, y: y, count: 48, into: $0.baseAddress!, family: family) }
                XCTAssertEqual(rowA, rowB, "\(what), row \(y), \(family)")
            }
        }
    }

    func testARemadePaintIsTheFactorysPaint() {
        let reused = GradientPaint.linear(x0: 0, y0: 0, x1: 10, y1: 0, stops: stops())
        for i in 0..<600 {
            let s = stops()
            let spread: GradientSpread = [.pad, .repeat, .reflect][i % 3]
            let t = transform()
            let fresh: GradientPaint
            switch Int.random(in: 0..<3, using: &rng) {
            case 0:
                let (x0, y0, x1, y1) = (coordinate(), coordinate(), coordinate(), coordinate())
                reused.setLinear(x0: x0, y0: y0, x1: x1, y1: y1, stops: s, spread: spread, transform: t)
                fresh = .linear(x0: x0, y0: y0, x1: x1, y1: y1, stops: s, spread: spread, transform: t)
            case 1:
                let (x0, y0, x1, y1) = (coordinate(), coordinate(), coordinate(), coordinate())
                let r0 = Double.random(in: -2...20, using: &rng), r1 = Double.random(in: -2...40, using: &rng)
                reused.setRadial(x0: x0, y0: y0, r0: r0, x1: x1, y1: y1, r1: r1, stops: s, spread: spread, transform: t)
                fresh = .radial(x0: x0, y0: y0, r0: r0, x1: x1, y1: y1, r1: r1, stops: s, spread: spread, transform: t)
            default:
                let (cx, cy, angle) = (coordinate(), coordinate(), Double.random(in: -7...7, using: &rng))
                reused.setConic(cx: cx, cy: cy, startAngle: angle, stops: s, transform: t)
                fresh = .conic(cx: cx, cy: cy, startAngle: angle, stops: s, transform: t)
            }
            assertSamePaint(reused, fresh, "case \(i)")
        }
    }

    /// The in-place clean-up of the stops is the one that returns a new
    /// array, with storage left over from longer lists.
    func testNormalizingIntoKeptStorageEqualsNormalizing() {
        var out: [GradientStop] = [], locations: [Double?] = []
        for i in 0..<2_000 {
            let s = stops()
            GradientPaint.normalize(s, into: &out, locations: &locations)
            XCTAssertEqual(out, GradientPaint.normalize(s), "case \(i)")
        }
    }
}
