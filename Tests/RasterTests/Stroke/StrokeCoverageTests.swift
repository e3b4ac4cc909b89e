import Foundation
import Raster
import XCTest

/// Stroke coverage against a brute-force supersampled oracle of the
/// stroke's geometry (issue 22): 16 × 16 sample points per pixel, each
/// inside when its distance to the centre line is at most half the width
/// (round caps and joins: the set of points within w/2 of the line), or, for
/// butt caps on a straight line, when it lies in the line's rectangle. The
/// oracle shares nothing with the stroker or the rasterizer: it measures
/// distances to the curve flattened as finely as `Path.flattened` allows
/// (0.01 px, ten times finer than strokes are).
///
/// Stated bounds, per pixel against the oracle: ≤ 36 levels of 255 and a
/// mean ≤ 5 levels over the pixels either touches. What they are made of:
/// the oracle's own grid error, up to 1/16 of a pixel (16 levels) for a
/// pixel crossed by one edge, and the stroke's flattening: its outline
/// (offset curves, round caps and joins) lies within 0.1 px of the true
/// one, and moving an edge by 0.1 px moves a pixel it crosses by up to 25.5
/// levels. Measured: straight lines worst 12.5 (thick, 17°), 3.8 (0.35 px
/// sliver), 27.3 (almost vertical, at a round cap), butt caps 6.5; curves
/// worst 30.5 (arc), 17.5 (S-curve), 13.7 (thin S-curve), means 0.5–4.6.
/// Straight edges are exact up to the grid; the rest is the 0.1 px
/// flattening, which a finer stroke tolerance would trade for time.
/// Strokes whose pieces overlap (a line retraced, a turn back, round caps
/// of two subpaths meeting, dashes whose caps reach the next dash) are held
/// to the same bounds: their overlapped parts count once
/// (`testOverlappingPiecesCountOnce`).
final class StrokeCoverageTests: XCTestCase {
    static let grid = 16
    static let size = 96

    /// The oracle: the fraction of each pixel's samples for which `inside`
    /// holds, as 0…255. With `distance` (to the set's core, 1-Lipschitz)
    /// and `radius`, a pixel whose centre is more than half a diagonal
    /// from the boundary is whole or empty without sampling.
    func reference(distance: ((Double, Double) -> Double)? = nil, radius: Double = 0,
                   _ inside: (Double, Double) -> Bool) -> [Double] {
        var out = [Double](repeating: 0, count: Self.size * Self.size)
        let n = Self.grid
        for py in 0..<Self.size {
            for px in 0..<Self.size {
                if let distance {
                    let d = distance(Double(px) + 0.5, Double(py) + 0.5)
                    if d > radius + 0.75 { continue }
                    if d < radius - 0.75 { out[py * Self.size + px] = 255; continue }
                }
                var count = 0
                for sy in 0..<n {
                    for sx in 0..<n where inside(Double(px) + (Double(sx) + 0.5) / Double(n), Double(py) + (Double(sy) + 0.5) / Double(n)) {
                        count += 1
                    }
                }
                out[py * Self.size + px] = 255 * Double(count) / Double(n * n)
            }
        }
        return out
    }

    /// Distance to a polyline, looking only at the segments near the point
    /// (cells of 4 px listing the segments within `reach` of them); beyond
    /// `reach`, infinity.
    struct PolylineDistance {
        let points: [PathPoint]
        var cells: [[Int]]
        static let cell = 4.0, cellsPerSide = 24

        init(_ points: [PathPoint], reach: Double) {
            self.points = points
            cells = Array(repeating: [], count: Self.cellsPerSide * Self.cellsPerSide)
            for k in 1..<points.count {
                let a = points[k - 1], b = points[k]
                let x0 = Int(((min(a.x, b.x) - reach) / Self.cell).rounded(.down)), x1 = Int(((max(a.x, b.x) + reach) / Self.cell).rounded(.down))
                let y0 = Int(((min(a.y, b.y) - reach) / Self.cell).rounded(.down)), y1 = Int(((max(a.y, b.y) + reach) / Self.cell).rounded(.down))
                for cy in max(0, y0)...min(Self.cellsPerSide - 1, max(0, y1)) where cy >= y0 && cy <= y1 {
                    for cx in max(0, x0)...min(Self.cellsPerSide - 1, max(0, x1)) where cx >= x0 && cx <= x1 { cells[cy * Self.cellsPerSide + cx].append(k) }
                }
            }
        }

        func callAsFunction(_ x: Double, _ y: Double) -> Double {
            let cx = min(max(Int(x / Self.cell), 0), Self.cellsPerSide - 1), cy = min(max(Int(y / Self.cell), 0), Self.cellsPerSide - 1)
            var best = Double.infinity
            for k in cells[cy * Self.cellsPerSide + cx] { best = min(best, StrokeCoverageTests.distance(x, y, points[k - 1], points[k])) }
            return best
        }
    }

    /// FBRuntime's coverage of `path` stroked with `style`.
    func ours(_ path: Path, _ style: StrokeStyle) -> [Double] {
        let mask = Surface<A8>(width: Self.size, height: Self.size)!
        PathRasterizer().fill(path.stroked(style), rule: .nonZero, into: mask.view)
        var out = [Double](repeating: 0, count: Self.size * Self.size)
        for y in 0..<Self.size { for x in 0..<Self.size { out[y * Self.size + x] = Double(mask.view.row(y)[x]) } }
        return out
    }

    /// Distance from (x, y) to the segment a–b.
    static func distance(_ x: Double, _ y: Double, _ a: PathPoint, _ b: PathPoint) -> Double {
        let dx = b.x - a.x, dy = b.y - a.y, l2 = dx * dx + dy * dy
        let t = l2 > 0 ? min(max(((x - a.x) * dx + (y - a.y) * dy) / l2, 0), 1) : 0
        return hypot(x - (a.x + t * dx), y - (a.y + t * dy))
    }

    /// `path` flattened as finely as `Path.flattened` goes (0.001 px asked,
    /// `FlattenLimits.toleranceRange` makes it 0.01), one polyline.
    func fine(_ path: Path) -> [PathPoint] {
        path.flattened(transform: .identity, tolerance: 0.001).flatMap(\.points)
    }

    func compare(_ name: String, ours: [Double], reference: [Double], file: StaticString = #filePath, line: UInt = #line) {
        var worst = 0.0, at = 0, sum = 0.0, touched = 0, ink = 0.0
        for i in 0..<ours.count where ours[i] > 0 || reference[i] > 0 {
            let d = abs(ours[i] - reference[i])
            if d > worst { worst = d; at = i }
            sum += d; touched += 1
            ink += reference[i] / 255
        }
        let mean = touched > 0 ? sum / Double(touched) : 0
        print("stroke coverage \(name): worst \(worst) levels at (\(at % Self.size), \(at / Self.size)), mean \(mean) over \(touched) px")
        XCTAssertGreaterThan(ink, 20, "\(name): the stroke covers something (pixels' worth of coverage)", file: file, line: line)
        XCTAssertLessThanOrEqual(worst, 36, "\(name): worst pixel at (\(at % Self.size), \(at / Self.size))", file: file, line: line)
        XCTAssertLessThanOrEqual(mean, 5, "\(name): mean over touched pixels", file: file, line: line)
    }

    /// Round caps: a thick line at 17°, a sliver 0.35 px wide, a line
    /// almost vertical, each the points within w/2 of the segment.
    func testStraightLinesWithRoundCaps() {
        let cases: [(String, PathPoint, PathPoint, Double)] = [
            ("thick line at 17°", PathPoint(12.3, 20.6), PathPoint(80.2, 41.35), 6),
            ("sliver 0.35 px", PathPoint(8.1, 70.3), PathPoint(88.7, 63.9), 0.35),
            ("almost vertical", PathPoint(47.3, 6.2), PathPoint(48.05, 90.1), 2.5),
        ]
        for (name, a, b, w) in cases {
            var path = Path()
            path.move(to: a); path.line(to: b)
            let d = { (x: Double, y: Double) in Self.distance(x, y, a, b) }
            compare(name, ours: ours(path, StrokeStyle(width: w, cap: .round)),
                    reference: reference(distance: d, radius: w / 2) { x, y in d(x, y) <= w / 2 })
        }
    }

    /// Butt caps: the line's rectangle.
    func testStraightLineWithButtCaps() {
        let a = PathPoint(14.6, 80.2), b = PathPoint(83.3, 12.7), w = 7.3
        var path = Path()
        path.move(to: a); path.line(to: b)
        let dx = b.x - a.x, dy = b.y - a.y, l = hypot(dx, dy)
        compare("butt caps", ours: ours(path, StrokeStyle(width: w, cap: .butt)), reference: reference { x, y in
            let along = ((x - a.x) * dx + (y - a.y) * dy) / l, across = ((x - a.x) * dy - (y - a.y) * dx) / l
            return along >= 0 && along <= l && abs(across) <= w / 2
        })
    }

    /// Curves with round caps and joins: a circular arc and a gentle
    /// S-shaped cubic, against the distance to the curve flattened at
    /// 0.001 px.
    func testCurvesWithRoundCapsAndJoins() {
        var arc = Path()
        arc.arc(center: PathPoint(48.2, 47.7), radius: 31.4, startAngle: 0.3, endAngle: 2.9, clockwise: false)
        var wave = Path()
        wave.move(to: PathPoint(6.4, 60.2))
        wave.cubic(to: PathPoint(90.1, 38.6), control1: PathPoint(30.5, 10.3), control2: PathPoint(60.7, 92.8))
        for (name, path, w) in [("arc", arc, 5.0), ("S-curve", wave, 3.2), ("thin S-curve", wave, 0.6)] {
            let points = fine(path)
            XCTAssertGreaterThan(points.count, 50)
            let d = PolylineDistance(points, reach: w / 2 + 1.5)
            compare(name, ours: ours(path, StrokeStyle(width: w, cap: .round, join: .round)),
                    reference: reference(distance: { d($0, $1) }, radius: w / 2) { x, y in d(x, y) <= w / 2 })
        }
    }

    /// Pieces of one stroke that overlap (issue 22): a line retraced
    /// A→B→A, a line turning back at a sharp angle, two subpaths whose
    /// round caps overlap, and a dash pattern whose round caps reach over
    /// the gaps. The oracle is the same set, the points within w/2 of the
    /// centre lines, so an overlapped part must count once: summed
    /// coverage would show as rims of 255 where the oracle has ~130.
    func testOverlappingPiecesCountOnce() {
        let a = PathPoint(14.3, 22.7), b = PathPoint(81.6, 40.2), c = PathPoint(20.5, 31.9)
        var retrace = Path()
        retrace.move(to: a); retrace.line(to: b); retrace.line(to: a)
        var turnBack = Path()
        turnBack.move(to: a); turnBack.line(to: b); turnBack.line(to: c)
        var caps = Path()
        caps.move(to: PathPoint(10.2, 60.4)); caps.line(to: PathPoint(47.1, 61.9))
        caps.move(to: PathPoint(52.6, 63.3)); caps.line(to: PathPoint(88.4, 70.8))
        let capPolylines = [[PathPoint(10.2, 60.4), PathPoint(47.1, 61.9)], [PathPoint(52.6, 63.3), PathPoint(88.4, 70.8)]]
        let cases: [(String, Path, [[PathPoint]], Double)] = [
            ("retraced line", retrace, [[a, b]], 7.5),
            ("turn back", turnBack, [[a, b, c]], 5.2),
            ("round caps meeting", caps, capPolylines, 9.0),
        ]
        for (name, path, polylines, w) in cases {
            let distances = polylines.map { PolylineDistance($0, reach: w / 2 + 1.5) }
            let d = { (x: Double, y: Double) in distances.map { $0(x, y) }.min()! }
            compare(name, ours: ours(path, StrokeStyle(width: w, cap: .round, join: .round)),
                    reference: reference(distance: d, radius: w / 2) { x, y in d(x, y) <= w / 2 })
        }
        // Dashes 6 on, 3 off with round caps 5 wide: each cap reaches 2.5
        // into the gap, so neighbouring dashes overlap by 2 px.
        let p = PathPoint(8.7, 84.1), q = PathPoint(89.2, 52.6)
        var line = Path()
        line.move(to: p); line.line(to: q)
        let w = 5.0, length = hypot(q.x - p.x, q.y - p.y)
        var dashes: [[PathPoint]] = []
        var s0 = 0.0
        while s0 < length {
            let s1 = min(s0 + 6, length)
            func at(_ s: Double) -> PathPoint { PathPoint(p.x + (q.x - p.x) * s / length, p.y + (q.y - p.y) * s / length) }
            dashes.append([at(s0), at(s1)])
            s0 += 9
        }
        let pairs = dashes.map { ($0[0], $0[1]) }
        let d = { (x: Double, y: Double) -> Double in pairs.map { Self.distance(x, y, $0.0, $0.1) }.min()! }
        compare("overlapping round-capped dashes", ours: ours(line, StrokeStyle(width: w, cap: .round, dash: [6, 3])),
                reference: reference(distance: d, radius: w / 2) { x, y in d(x, y) <= w / 2 })
    }
}
