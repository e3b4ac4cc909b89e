import Raster
import XCTest

/// Hard edges deciding pixels by their centres: against direct evaluation
/// of the line at each centre, and the partition of every row between the
/// two sides of a line.
final class CentreEdgeTests: XCTestCase {
    /// The signed side of a pixel centre, evaluated directly (exact enough
    /// away from the line).
    func side(_ p: PathPoint, _ q: PathPoint, x: Int, y: Int) -> Double {
        let cx = Double(x) + 0.5, cy = Double(y) + 0.5
        return (q.x - p.x) * (cy - p.y) - (q.y - p.y) * (cx - p.x)
    }

    func testEdgesKeepTheCentresOnTheirSide() throws {
        var rng = SplitMix64(seed: 7)
        func coordinate() -> Double { Double(rng.next() % 20_000) / 100 - 50 }
        var checked = 0
        for _ in 0..<200 {
            let p = PathPoint(coordinate(), coordinate()), q = PathPoint(coordinate(), coordinate())
            let inside = PathPoint(coordinate(), coordinate())
            guard let edge = CentreEdge(through: p, q, inside: inside) else { continue }
            let insideSide = (q.x - p.x) * (inside.y - p.y) - (q.y - p.y) * (inside.x - p.x)
            for y in -60..<160 {
                for x in -60..<160 {
                    let e = side(p, q, x: x, y: y)
                    // Centres within 10⁻⁹ of the line may go either way.
                    let length = ((q.x - p.x) * (q.x - p.x) + (q.y - p.y) * (q.y - p.y)).squareRoot()
                    guard Swift.abs(e) > 1e-9 * length else { continue }
                    XCTAssertEqual(edge.contains(x: x, y: y), (e > 0) == (insideSide > 0), "\(p) \(q) (\(x), \(y))")
                    checked += 1
                }
            }
        }
        XCTAssertGreaterThan(checked, 1_000_000)
    }

    /// The two sides of one line, given its points in either order, divide
    /// every row exactly: each pixel is on one side, never both, never
    /// neither — also for centres exactly on the line.
    func testTwoSidesPartitionEveryRow() throws {
        var rng = SplitMix64(seed: 11)
        // Lines through pixel centres and half-pixel points hit ties.
        func coordinate() -> Double { Double(rng.next() % 400) / 4 - 20 }
        var lines = 0, ties = 0
        for _ in 0..<300 {
            let p = PathPoint(coordinate(), coordinate()), q = PathPoint(coordinate(), coordinate())
            let a = PathPoint(coordinate(), coordinate()), b = PathPoint(coordinate(), coordinate())
            guard let one = CentreEdge(through: p, q, inside: a), let other = CentreEdge(through: q, p, inside: b) else { continue }
            let complementary = one.opposite == other || one == other
            XCTAssertTrue(complementary, "the same line from either order")
            let second = one == other ? other.opposite : other
            lines += 1
            for y in -30..<110 {
                for x in -30..<110 {
                    XCTAssertNotEqual(one.contains(x: x, y: y), second.contains(x: x, y: y), "(\(x), \(y))")
                    if side(p, q, x: x, y: y) == 0 { ties += 1 }
                }
            }
        }
        XCTAssertGreaterThan(lines, 250)
        XCTAssertGreaterThan(ties, 100, "the corpus reaches centres exactly on a line")
    }

    func testCutAndFillMasks() throws {
        // The triangle (0,0) (20.3,0) (0,20.3): three edges, inside (5, 5).
        let inside = PathPoint(5, 5)
        var edges = CentreEdges()
        for (p, q) in [(PathPoint(0, 0), PathPoint(20.3, 0)), (PathPoint(20.3, 0), PathPoint(0, 20.3)), (PathPoint(0, 20.3), PathPoint(0, 0))] {
            XCTAssertTrue(edges.append(try XCTUnwrap(CentreEdge(through: p, q, inside: inside))))
        }
        let surface = try XCTUnwrap(Surface<A8>(width: 24, height: 24))
        edges.fill(surface.view, originX: -2, originY: -2)
        var count = 0
        for y in 0..<24 {
            for x in 0..<24 {
                let cx = Double(x - 2) + 0.5, cy = Double(y - 2) + 0.5
                let expected = cx > 0 && cy > 0 && cx + cy < 20.3
                XCTAssertEqual(surface.view.row(y)[x], expected ? 255 : 0, "(\(x), \(y))")
                if expected { count += 1 }
            }
        }
        // (No centre lies on the diagonal cx + cy = 20.3.)
        XCTAssertGreaterThan(count, 150)
        // Cutting a full mask gives the same.
        let full = try XCTUnwrap(Surface<A8>(width: 24, height: 24))
        for y in 0..<24 { for x in 0..<24 { full.view.row(y)[x] = 255 } }
        edges.cut(full.view, originX: -2, originY: -2)
        for y in 0..<24 { for x in 0..<24 { XCTAssertEqual(full.view.row(y)[x], surface.view.row(y)[x]) } }
        // Degenerate input.
        XCTAssertNil(CentreEdge(through: PathPoint(1, 1), PathPoint(1, 1), inside: inside))
        XCTAssertNil(CentreEdge(through: PathPoint(.nan, 1), PathPoint(1, 1), inside: inside))
        XCTAssertNil(CentreEdge(through: PathPoint(0, 0), PathPoint(2, 2), inside: PathPoint(1, 1)))
    }
}
