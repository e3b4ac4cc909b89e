@testable import Raster
import XCTest

/// `StrokeStyle.reach(for:)`: the stroker's outline never leaves the path's
/// box widened by `reach × width / 2` (random paths of every segment kind,
/// every cap and join, miter limits from 1 to 20), and it is exact for
/// lines: a square's miters reach √2, a spike past the limit is beveled.
/// Where curves meet, the stroker joins their last and first chords, whose
/// directions can stray from the curves' tangents by up to their sweeps
/// (issue 22: join by the analytic tangents), so a miter there counts up
/// to the limit.
final class StrokeReachTests: XCTestCase {
    func testOutlinesStayWithinTheReach() {
        var rng = SplitMix64(seed: 18)
        func r(_ lo: Double, _ hi: Double) -> Double { lo + (hi - lo) * Double(rng.next() % 1_000_000) / 1_000_000 }
        var checked = 0
        for _ in 0..<600 {
            var path = Path()
            path.move(to: PathPoint(r(0, 100), r(0, 100)))
            for _ in 0..<Int(r(1, 7)) {
                switch rng.next() % 4 {
                case 0: path.line(to: PathPoint(r(0, 100), r(0, 100)))
                case 1: path.quad(to: PathPoint(r(0, 100), r(0, 100)), control: PathPoint(r(0, 100), r(0, 100)))
                case 2: path.cubic(to: PathPoint(r(0, 100), r(0, 100)), control1: PathPoint(r(0, 100), r(0, 100)),
                                   control2: PathPoint(r(0, 100), r(0, 100)))
                default: path.close(); path.move(to: PathPoint(r(0, 100), r(0, 100)))
                }
            }
            if rng.next() % 2 == 0 { path.close() }
            let caps: [LineCap] = [.butt, .round, .square], joins: [LineJoin] = [.miter, .round, .bevel]
            var style = StrokeStyle(width: r(0.5, 12), cap: caps[Int(rng.next() % 3)], join: joins[Int(rng.next() % 3)])
            style.miterLimit = r(1, 20)
            let outline = path.stroked(style)
            guard !outline.isEmpty else { continue }
            let reach = style.width / 2 * style.reach(for: path) + 0.15     // flattening of round parts
            let b = path.bounds, o = outline.bounds
            XCTAssertGreaterThanOrEqual(o.minX, b.minX - reach, "\(style)")
            XCTAssertGreaterThanOrEqual(o.minY, b.minY - reach, "\(style)")
            XCTAssertLessThanOrEqual(o.maxX, b.maxX + reach, "\(style)")
            XCTAssertLessThanOrEqual(o.maxY, b.maxY + reach, "\(style)")
            checked += 1
        }
        XCTAssertGreaterThan(checked, 500)
    }

    func testLinesReachTheirMitersAndCurvesUpToTheLimit() {
        var circle = Path()
        circle.arc(center: PathPoint(50, 50), radius: 45, startAngle: 0, endAngle: 2 * Double.pi, clockwise: true)
        let style = StrokeStyle(width: 10, cap: .butt, join: .miter)
        XCTAssertEqual(style.reach(for: circle), 10, "chords meeting between arcs: up to the limit")
        var round = style
        round.join = .round
        XCTAssertEqual(round.reach(for: circle), 1, "round joins and butt caps: half the width")
        XCTAssertEqual(style.reach(for: Path(rect: 0, 0, 80, 40)), 2.0.squareRoot(), accuracy: 1e-9, "square corners: √2")
        var spike = Path()
        spike.move(to: PathPoint(0, 0)); spike.line(to: PathPoint(100, 5)); spike.line(to: PathPoint(0, 10))
        XCTAssertEqual(style.reach(for: spike), 1, "a miter past the limit is beveled")
        var limited = style
        limited.miterLimit = 100
        XCTAssertGreaterThan(limited.reach(for: spike), 10)
        var square = style
        square.cap = .square
        XCTAssertEqual(square.reach(for: Path(roundedRect: 0, 0, 80, 40, radii: CornerRadii(10))), 2.0.squareRoot(), accuracy: 1e-6)
        XCTAssertEqual(round.reach(for: Path(rect: 0, 0, 80, 40)), 1)
    }
}
