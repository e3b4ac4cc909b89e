@testable import FBRuntime
import MallocCounter
import Raster
import TestSupport
import XCTest

/// `PathProjector` (the compositor's allocation-free projection of paths
/// under perspective) against `projectedPath(_:_:sampleRect:)` below, the
/// earlier implementation that built its polylines in arrays, kept as the
/// reference: the same path, point for point, for paths and maps that keep
/// everything, cut the eye plane or reach past the guard band.
final class PathProjectorTests: XCTestCase {
    private var rng = SplitMix64(seed: 0x9a7_4b0)

    private func randomPath() -> Path {
        var p = Path()
        let r = Double.random(in: 20...400, using: &rng)
        switch Int.random(in: 0..<4, using: &rng) {
        case 0: p.addRect(-r, -r / 2, 2 * r, r)
        case 1: p.addEllipse(-r, -r, 2 * r, 1.5 * r)
        case 2: p = Path(roundedRect: -r, -r, 2 * r, 2 * r, radii: CornerRadii(r / 4))
        default:
            p.move(to: PathPoint(x: -r, y: 0))
            p.cubic(to: PathPoint(x: r, y: 0), control1: PathPoint(x: -r / 2, y: -r), control2: PathPoint(x: r / 2, y: r))
            p.line(to: PathPoint(x: 0, y: r))
            p.close()
            p.move(to: PathPoint(x: 2, y: 2))        // a second subpath, and a degenerate one
            p.line(to: PathPoint(x: 3, y: 3))
        }
        return p
    }

    private func randomMap() -> ProjectiveTransform {
        let angle = Double.random(in: -3.2...3.2, using: &rng)
        let axis = (Double.random(in: -1...1, using: &rng), Double.random(in: -1...1, using: &rng))
        let z = Double.random(in: -600...500, using: &rng)
        let distance = Double.random(in: 150...1500, using: &rng)
        return Transform3D(rotationAngle: angle, x: axis.0, y: axis.1, z: 0.1)
            .concatenating(Transform3D(translationX: 0, y: 0, z: z))
            .concatenating(.perspective(distance: distance))
            .concatenating(Transform3D(translationX: 320, y: 240, z: 0)).flattened
    }

    func testTheProjectorGivesTheReferencesPath() {
        let projector = PathProjector()
        var clipped = 0, empty = 0
        for i in 0..<3_000 {
            let path = randomPath(), m = randomMap()
            let b = path.bounds
            let sample = Rect(x: b.minX, y: b.minY, width: b.maxX - b.minX, height: b.maxY - b.minY)
            let want = projectedPath(path, m, sampleRect: sample)
            let got = projector.project(path, m, sampleRect: sample)
            XCTAssertEqual(got, want, "case \(i)")
            if want.isEmpty { empty += 1 }
            // Some corner behind the eye: the near plane cut the polygon.
            if [(b.minX, b.minY), (b.maxX, b.minY), (b.maxX, b.maxY), (b.minX, b.maxY)]
                .contains(where: { m.m20 * $0.0 + m.m21 * $0.1 + m.m22 < ProjectedPathLimits.nearW }) { clipped += 1 }
        }
        XCTAssertGreaterThan(clipped, 200, "maps through the eye plane were tried")
        XCTAssertGreaterThan(empty, 10, "paths wholly behind the eye were tried")
        XCTAssertLessThan(empty, 2_000)
    }

    func testProjectingAgainAllocatesNothing() {
        let projector = PathProjector()
        let path = Path(roundedRect: -100, -60, 200, 120, radii: CornerRadii(20))
        let m = Transform3D(rotationAngle: 0.8, x: 0, y: 1, z: 0).concatenating(.perspective(distance: 400))
            .concatenating(Transform3D(translationX: 320, y: 240, z: 0)).flattened
        let sample = Rect(x: -100, y: -60, width: 200, height: 120)
        var points = projector.project(path, m, sampleRect: sample).points.count
        fbr_malloc_counter_begin()
        var k = 0
        while k < 20 { points += projector.project(path, m, sampleRect: sample).points.count; k += 1 }
        XCTAssertNoAllocations(fbr_malloc_counter_end())
        XCTAssertGreaterThan(points, 21 * 8)
    }
}

/// The earlier implementation, unchanged.
func projectedPath(_ path: Path, _ m: ProjectiveTransform, sampleRect: Rect) -> Path {
    var magnification = 1.0
    for p in [Point(x: sampleRect.minX, y: sampleRect.minY), Point(x: sampleRect.maxX, y: sampleRect.minY),
              Point(x: sampleRect.maxX, y: sampleRect.maxY), Point(x: sampleRect.minX, y: sampleRect.maxY),
              sampleRect.center] {
        let g = m.magnification(at: p)
        if g.isFinite && g > magnification { magnification = g }
    }
    let tolerance = FlattenLimits.defaultTolerance / magnification
    var out = Path()
    for polyline in path.flattened(tolerance: tolerance) where polyline.points.count >= 2 {
        var h: [(x: Double, y: Double, w: Double)] = []
        h.reserveCapacity(polyline.points.count)
        for p in polyline.points {
            h.append((m.m00 * p.x + m.m01 * p.y + m.m02, m.m10 * p.x + m.m11 * p.y + m.m12,
                      m.m20 * p.x + m.m21 * p.y + m.m22))
        }
        // Inside when a·X + b·Y + c·W ≥ e.
        let g = ProjectedPathLimits.guardBand, e = ProjectedPathLimits.nearW
        for plane in [(0.0, 0.0, 1.0, e), (-1.0, 0.0, g, 0.0), (1.0, 0.0, g, 0.0), (0.0, -1.0, g, 0.0), (0.0, 1.0, g, 0.0)] {
            guard !h.isEmpty else { break }
            var clipped: [(x: Double, y: Double, w: Double)] = []
            clipped.reserveCapacity(h.count + 2)
            func value(_ q: (x: Double, y: Double, w: Double)) -> Double { plane.0 * q.x + plane.1 * q.y + plane.2 * q.w - plane.3 }
            var previous = h[h.count - 1]
            var vp = value(previous)
            for q in h {
                let vq = value(q)
                if (vp >= 0) != (vq >= 0) {
                    let s = vp / (vp - vq)
                    clipped.append((previous.x + (q.x - previous.x) * s, previous.y + (q.y - previous.y) * s,
                                    previous.w + (q.w - previous.w) * s))
                }
                if vq >= 0 { clipped.append(q) }
                previous = q; vp = vq
            }
            h = clipped
        }
        guard h.count >= 3 else { continue }
        var first = true
        for q in h {
            let p = PathPoint(q.x / q.w, q.y / q.w)
            if first { out.move(to: p); first = false } else { out.line(to: p) }
        }
        out.close()
    }
    return out
}
