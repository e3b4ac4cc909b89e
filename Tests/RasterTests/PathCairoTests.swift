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
///
/// Excluded from the max, as in `PathFillTests`: pixels where the path
/// crosses itself and pixels whose winding numbers differ by 2 or more.
/// Cairo resolves the fill rule per sub-row there and we per pixel (the
/// FreeType method), and the two can differ by most of the range: the
/// measured worst such pixel is printed.
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
        let segs = SupersampledReference.segments(path, transform: transform, tolerance: FlattenLimits.defaultTolerance)
        var excluded = SupersampledReference.crossingPixels(segs, clip: clip)
        for (i, m) in SupersampledReference.coverage(segs, rule: rule, clip: clip).mixedWinding.enumerated() where m { excluded.insert(i) }
        var maxErr = 0, sum = 0, touched = 0, worst = 0, excludedMax = 0
        for i in 0..<ours.count where ours[i] != 0 || theirs[i] != 0 {
            let e = abs(Int(ours[i]) - Int(theirs[i]))
            touched += 1; sum += e
            if excluded.contains(i) { excludedMax = max(excludedMax, e); continue }
            if e > maxErr { maxErr = e; worst = i }
        }
        let mean = touched == 0 ? 0 : Double(sum) / Double(touched)
        let report = "cairo \(name): max \(maxErr) at (\(clip.x + worst % clip.width), \(clip.y + worst / clip.width)), mean \(mean) over \(touched) px; crossing/mixed-winding pixels: \(excluded.count), worst \(excludedMax)"
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

    // MARK: Speed (not a gate: runs only with FBR_PATH_PERF=1, best in `-c release`)

    func testSpeedAgainstCairo() throws {
        guard ProcessInfo.processInfo.environment["FBR_PATH_PERF"] == "1" else { throw XCTSkip("set FBR_PATH_PERF=1") }
        func curvedShape(_ size: Double) -> Path {
            var rng = SplitMix64(seed: 300)
            var p = Path()
            let c = size / 2
            for i in 0..<100 {                                     // 100 cubics ≈ 300 control segments
                let a0 = Double(i) / 100 * 2 * .pi, a1 = Double(i + 1) / 100 * 2 * .pi
                let r0 = c * (0.55 + 0.4 * rng.unit()), r1 = c * (0.55 + 0.4 * rng.unit())
                let p0 = PathPoint(c + r0 * cos(a0), c + r0 * sin(a0))
                let p3 = PathPoint(c + r1 * cos(a1), c + r1 * sin(a1))
                if i == 0 { p.move(to: p0) }
                p.cubic(to: p3, control1: PathPoint(c + c * cos(a0 + 0.3) * rng.unit(), c + c * sin(a0 + 0.3) * rng.unit()),
                        control2: PathPoint(c + c * 0.9 * cos(a1 - 0.02), c + c * 0.9 * sin(a1 - 0.02)))
            }
            p.close()
            return p
        }
        /// Milliseconds per call: the best of 5 batches (the machine is shared).
        func time(_ iterations: Int, _ body: () -> Void) -> Double {
            body()
            var best = Double.infinity
            for _ in 0..<5 {
                let start = DispatchTime.now().uptimeNanoseconds
                for _ in 0..<iterations { body() }
                best = min(best, Double(DispatchTime.now().uptimeNanoseconds - start) / 1e6 / Double(iterations))
            }
            return best
        }
        var glyphs = Path()
        var rng = SplitMix64(seed: 16)
        for i in 0..<1000 {
            let x = Double(i % 40) * 25 + rng.unit(), y = Double(i / 40) * 25 + rng.unit()
            glyphs.append(PathFillTests.star(center: PathPoint(x + 10, y + 10), radius: 8, points: 5, step: 2))
            glyphs.addEllipse(x + 2, y + 2, 14, 16)
        }
        let scenes: [(String, Path, Int, Int)] = [
            ("curved 512", curvedShape(512), 512, 50), ("curved 1024", curvedShape(1024), 1024, 20),
            ("1000 glyph-sized shapes", glyphs, 1024, 20),
            ("large circle", Path(circleCenter: PathPoint(512, 512), radius: 500), 1024, 20),
        ]
        let rasterizer = PathRasterizer()
        for (name, path, size, n) in scenes {
            let clip = IntRect(x: 0, y: 0, width: size, height: size)
            let mask = Surface<A8>(width: size, height: size)!
            let ours = time(n) { rasterizer.fill(path, clip: clip, into: mask.view) }
            let cs = cairo_image_surface_create(CAIRO_FORMAT_A8, Int32(size), Int32(size))!
            let cr = cairo_create(cs)!
            cairo_set_tolerance(cr, FlattenLimits.defaultTolerance)
            let theirs = time(n) {
                cairo_set_operator(cr, CAIRO_OPERATOR_SOURCE); cairo_set_source_rgba(cr, 0, 0, 0, 0); cairo_paint(cr)
                cairo_set_operator(cr, CAIRO_OPERATOR_OVER); cairo_set_source_rgba(cr, 0, 0, 0, 1)
                Cairo.append(path, transform: .identity, to: cr); cairo_fill(cr)
            }
            cairo_destroy(cr); cairo_surface_destroy(cs)
            // Solid colour into ARGB with the reference compositor, for scale.
            let argb = Surface<ARGB8888>(width: size, height: size)!
            let canvas = Canvas(argb.view, family: .reference)
            let composite = time(n) { canvas.fill(path, color: PremultipliedColor(red8: 200, green: 30, blue: 30), using: rasterizer) }
            print(String(format: "perf %@ (%d²): ours A8 %.3f ms, cairo A8 %.3f ms (%.2f×), ours ARGB+reference kernel %.3f ms",
                         name, size, ours, theirs, theirs / ours, composite))
        }
    }
}
