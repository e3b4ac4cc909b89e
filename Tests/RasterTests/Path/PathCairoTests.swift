import XCTest
import Foundation
import CCairo
import TestSupport
import Raster

/// Cairo as an outside second opinion on coverage, and the speed yardstick.
///
/// Stated tolerance: on polygons, |ours − cairo| ≤ 20 levels per pixel and
/// ≤ 4 levels mean over touched pixels. Cairo's scan converter samples 15
/// sub-rows per pixel (exact in x within each), so a near-horizontal edge
/// can be off by up to 1/15 of a pixel there (17 levels; thin shallow
/// slivers show it in the mean). On curves add the flattening difference
/// (cairo subdivides recursively, we uniformly; both at tolerance 0.1 px):
/// ≤ 40 levels max.
/// That holds everywhere, pixels where the path crosses itself or
/// overlaps included: both apply the fill rule to the winding number of
/// each part of a pixel (cairo per sub-row, `PathRasterizer` per slab
/// between crossings).
final class PathCairoTests: XCTestCase {
    /// Renders `path` with cairo into an A8 image of `clip`'s size.
    static func cairoCoverage(_ path: Path, transform: AffineTransform = .identity, rule: FillRule, clip: IntRect,
                              tolerance: Double = FlattenLimits.defaultTolerance) -> [UInt8] {
        let surface = cairo_image_surface_create(CAIRO_FORMAT_A8, Int32(clip.width), Int32(clip.height))!
        defer { cairo_surface_destroy(surface) }
        let cr = cairo_create(surface)!
        defer { cairo_destroy(cr) }
        cairo_set_tolerance(cr, tolerance)
        cairo_set_fill_rule(cr, rule == .nonZero ? CAIRO_FILL_RULE_WINDING : CAIRO_FILL_RULE_EVEN_ODD)
        cairo_translate(cr, Double(-clip.x), Double(-clip.y))
        Cairo.append(path, transform: transform, to: cr)
        cairo_fill(cr)
        cairo_surface_flush(surface)
        let data = cairo_image_surface_get_data(surface)!
        let stride = Int(cairo_image_surface_get_stride(surface))
        var out = [UInt8](repeating: 0, count: clip.width * clip.height)
        for y in 0..<clip.height { for x in 0..<clip.width { out[y * clip.width + x] = data[y * stride + x] } }
        return out
    }

    static func ourCoverage(_ path: Path, transform: AffineTransform = .identity, rule: FillRule, clip: IntRect,
                            rasterizer: PathRasterizer = PathRasterizer()) -> [UInt8] {
        var out = [UInt8](repeating: 0, count: clip.width * clip.height)
        rasterizer.fill(path, transform: transform, rule: rule, clip: clip) { y, x, cov, n in
            for i in 0..<n { out[(y - clip.y) * clip.width + x - clip.x + i] = cov[i] }
        }
        return out
    }

    func compare(_ name: String, _ path: Path, transform: AffineTransform = .identity, rule: FillRule = .nonZero, clip: IntRect,
                 maxBound: Double, meanBound: Double = 4, file: StaticString = #filePath, line: UInt = #line) {
        let ours = PathCairoTests.ourCoverage(path, transform: transform, rule: rule, clip: clip)
        let theirs = PathCairoTests.cairoCoverage(path, transform: transform, rule: rule, clip: clip)
        var maxErr = 0, sum = 0, touched = 0, worst = 0
        for i in 0..<ours.count where ours[i] != 0 || theirs[i] != 0 {
            let e = abs(Int(ours[i]) - Int(theirs[i]))
            touched += 1; sum += e
            if e > maxErr { maxErr = e; worst = i }
        }
        let mean = touched == 0 ? 0 : Double(sum) / Double(touched)
        let report = "cairo \(name): max \(maxErr) at (\(clip.x + worst % clip.width), \(clip.y + worst / clip.width)), mean \(mean) over \(touched) px"
        print(report)
        XCTAssertLessThanOrEqual(Double(maxErr), maxBound, report, file: file, line: line)
        if touched >= 16 { XCTAssertLessThanOrEqual(mean, meanBound, report, file: file, line: line) }
    }

    func testPolygonsAgreeWithCairo() {
        let clip = IntRect(x: 0, y: 0, width: 80, height: 80)
        compare("star nonzero", PathFillTests.star(center: PathPoint(40.3, 39.6), radius: 37), rule: .nonZero, clip: clip, maxBound: 20)
        compare("star evenodd", PathFillTests.star(center: PathPoint(40.3, 39.6), radius: 37), rule: .evenOdd, clip: clip, maxBound: 20)
        var slivers = Path()
        slivers.move(to: PathPoint(2.3, 3.1)); slivers.line(to: PathPoint(70.7, 20.4)); slivers.line(to: PathPoint(70.7, 20.45)); slivers.close()
        slivers.addRect(20.25, 49.95, 30, 0.1)
        compare("slivers", slivers, clip: clip, maxBound: 20)
        var rng = SplitMix64(seed: 0xCA1)
        for i in 0..<8 {
            var p = Path()
            for k in 0..<(3 + rng.below(10)) {
                let q = PathPoint(rng.unit() * 90 - 5, rng.unit() * 90 - 5)
                if k == 0 { p.move(to: q) } else { p.line(to: q) }
            }
            p.close()
            compare("random polygon #\(i)", p, rule: i % 2 == 0 ? .nonZero : .evenOdd, clip: clip, maxBound: 20)
        }
    }

    func testCurvesAgreeWithCairo() {
        compare("circle r=20", Path(circleCenter: PathPoint(30.4, 30.7), radius: 20), clip: IntRect(x: 0, y: 0, width: 64, height: 64), maxBound: 40)
        compare("circle r=0.3", Path(circleCenter: PathPoint(5.4, 5.7), radius: 0.3), clip: IntRect(x: 0, y: 0, width: 12, height: 12), maxBound: 40)
        compare("rounded rect", Path(roundedRect: 3.3, 4.6, 50.2, 30.1, radii: CornerRadii(topLeft: 12, topRight: 0, bottomRight: 5.5, bottomLeft: 40)),
                clip: IntRect(x: 0, y: 0, width: 60, height: 40), maxBound: 40)
        compare("r=5000 rim", Path(circleCenter: PathPoint(2600.3, 2400.7), radius: 5000), clip: IntRect(x: 6100, y: 5900, width: 80, height: 80), maxBound: 40)
    }
}
