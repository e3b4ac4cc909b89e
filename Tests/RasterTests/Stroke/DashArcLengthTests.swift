import Foundation
@testable import Raster
import XCTest

/// Dashes are measured along the curve, not along the chords that replace
/// it: a polyline within `tolerance` of a curve is shorter than the curve
/// (by about tolerance / 3r of its length on a circle of radius r), and a
/// pattern measured on it drifts ahead of where it belongs, a little more
/// with each lap (issue 22).
///
/// The oracle is the arc length of the path's own cubic Béziers, integrated
/// here (Gauss–Legendre, 5 points on 64 pieces of each curve: exact to far
/// below 1e-6 px for these curves): each dash's first point is located on
/// its curve (the parameter where the curve is closest to it) and its arc
/// length from the start compared with where the pattern puts it.
///
/// Stated tolerance: ≤ 0.02 px anywhere along 12 laps of a circle of
/// radius 40 (about 3,000 px of curve, 250 dashes), and along an S-curve of
/// two cubics whose curvature varies; the chords themselves lie within the
/// flattening tolerance (0.1 px) of the curve, which is not what is
/// measured here.
final class DashArcLengthTests: XCTestCase {
    struct Cubic {
        var p0, p1, p2, p3: PathPoint

        func point(_ t: Double) -> PathPoint {
            let u = 1 - t
            return p0 * (u * u * u) + p1 * (3 * u * u * t) + p2 * (3 * u * t * t) + p3 * (t * t * t)
        }

        func derivative(_ t: Double) -> PathPoint {
            let u = 1 - t
            return (p1 - p0) * (3 * u * u) + (p2 - p1) * (6 * u * t) + (p3 - p2) * (3 * t * t)
        }

        func secondDerivative(_ t: Double) -> PathPoint {
            (p2 - p1 * 2 + p0) * (6 * (1 - t)) + (p3 - p2 * 2 + p1) * (6 * t)
        }

        /// Arc length from 0 to `t`.
        func length(to t: Double) -> Double {
            let nodes = [-0.906_179_845_938_664, -0.538_469_310_105_683, 0, 0.538_469_310_105_683, 0.906_179_845_938_664]
            let weights = [0.236_926_885_056_189, 0.478_628_670_499_366, 0.568_888_888_888_889, 0.478_628_670_499_366, 0.236_926_885_056_189]
            let pieces = 64
            let h = t / Double(pieces)
            var sum = 0.0
            for k in 0..<pieces {
                let mid = (Double(k) + 0.5) * h
                for (x, w) in zip(nodes, weights) { sum += w * derivative(mid + x * h / 2).length * h / 2 }
            }
            return sum
        }

        /// The parameter where the curve is closest to `p`, near `guess`
        /// (Newton on (B(t) − p)·B′(t) = 0), clamped to 0…1.
        func parameter(closestTo p: PathPoint, near guess: Double) -> Double {
            var t = min(max(guess, 0), 1)
            for _ in 0..<30 {
                let d = point(t) - p, b1 = derivative(t), b2 = secondDerivative(t)
                let f = d.x * b1.x + d.y * b1.y
                let df = b1.x * b1.x + b1.y * b1.y + d.x * b2.x + d.y * b2.y
                guard df != 0 else { break }
                t = min(max(t - f / df, 0), 1)
            }
            return t
        }
    }

    /// Dashes `curves` (one open subpath) with `pattern`; the worst
    /// difference between each dash's start, measured on the curves, and
    /// the pattern's position for it.
    func worstDrift(_ curves: [Cubic], pattern: [Double]) -> (worst: Double, dashes: Int) {
        var path = Path()
        path.move(to: curves[0].p0)
        for c in curves { path.cubic(to: c.p3, control1: c.p1, control2: c.p2) }
        var collector = Stroker.Collector()
        path.flatten(tolerance: FlattenLimits.defaultTolerance, into: &collector)
        XCTAssertEqual(collector.list.count, 1)
        var piece = collector.list.items[0]
        Stroker.clean(&piece)
        let stroker = Stroker(style: StrokeStyle(width: 2, dash: pattern), tolerance: FlattenLimits.defaultTolerance)
        let dashes = stroker.dashed([piece])
        let lengths = curves.map { $0.length(to: 1) }
        // Where the pattern starts each dash: its "on" entries, period
        // after period.
        var starts: [Double] = [], position = 0.0
        while starts.count < dashes.count {
            for (i, entry) in pattern.enumerated() {
                if i % 2 == 0 { starts.append(position) }
                position += entry
            }
        }
        var worst = 0.0
        for (k, dash) in dashes.enumerated() {
            let expected = starts[k]
            // The curve the pattern puts it on, then the closest point there
            // (or on a neighbour, for a start near a curve's end).
            var before = 0.0, j = 0
            while j < curves.count - 1 && before + lengths[j] < expected { before += lengths[j]; j += 1 }
            var best = Double.infinity
            for i in max(0, j - 1)...min(curves.count - 1, j + 1) {
                let start = lengths[0..<i].reduce(0, +)
                let t = curves[i].parameter(closestTo: dash.points[0], near: (expected - start) / lengths[i])
                let miss = (curves[i].point(t) - dash.points[0]).length
                if miss < 0.2 {
                    let drift = abs(start + curves[i].length(to: t) - expected)
                    best = min(best, drift)
                }
            }
            XCTAssertLessThan(best, Double.infinity, "dash \(k) starts off the curve")
            worst = max(worst, best)
        }
        return (worst, dashes.count)
    }

    func testDashesAlongLapsOfACircleStayOnTheirArcLengths() {
        let r = 40.0, k = r * Path.quarterCircleKappa
        var curves: [Cubic] = []
        for _ in 0..<12 {
            curves.append(Cubic(p0: PathPoint(r, 0), p1: PathPoint(r, k), p2: PathPoint(k, r), p3: PathPoint(0, r)))
            curves.append(Cubic(p0: PathPoint(0, r), p1: PathPoint(-k, r), p2: PathPoint(-r, k), p3: PathPoint(-r, 0)))
            curves.append(Cubic(p0: PathPoint(-r, 0), p1: PathPoint(-r, -k), p2: PathPoint(-k, -r), p3: PathPoint(0, -r)))
            curves.append(Cubic(p0: PathPoint(0, -r), p1: PathPoint(k, -r), p2: PathPoint(r, -k), p3: PathPoint(r, 0)))
        }
        let (worst, dashes) = worstDrift(curves, pattern: [7, 5])
        print("12 laps of r = 40, dashes [7, 5]: \(dashes) dashes, worst drift \(worst) px")
        XCTAssertGreaterThan(dashes, 240)
        XCTAssertLessThanOrEqual(worst, 0.02)
    }

    func testDashesAlongAnSCurveStayOnTheirArcLengths() {
        let curves = [
            Cubic(p0: PathPoint(0, 0), p1: PathPoint(300, -40), p2: PathPoint(-100, 260), p3: PathPoint(200, 300)),
            Cubic(p0: PathPoint(200, 300), p1: PathPoint(500, 340), p2: PathPoint(20, 600), p3: PathPoint(400, 620)),
        ]
        let (worst, dashes) = worstDrift(curves, pattern: [3, 2, 1, 2])
        print("S-curve, dashes [3, 2, 1, 2]: \(dashes) dashes, worst drift \(worst) px")
        XCTAssertGreaterThan(dashes, 100)
        XCTAssertLessThanOrEqual(worst, 0.02)
    }
}
