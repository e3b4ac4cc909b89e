import XCTest
@testable import Raster

/// `Path.setInterpolation(from:to:_:)`, `interpolated(to:_:)` and
/// `setContents(of:)` against the arithmetic written out here.
final class PathInterpolationTests: XCTestCase {
    let a: Path = {
        var p = Path()
        p.move(to: PathPoint(x: 0, y: 0)); p.line(to: PathPoint(x: 10, y: 0))
        p.quad(to: PathPoint(x: 10, y: 10), control: PathPoint(x: 20, y: 5)); p.close()
        p.move(to: PathPoint(x: 30, y: 30)); p.line(to: PathPoint(x: 40, y: 30))
        return p
    }()
    let b: Path = {
        var p = Path()
        p.move(to: PathPoint(x: 4, y: -2)); p.line(to: PathPoint(x: 14, y: 8))
        p.quad(to: PathPoint(x: 2, y: 18), control: PathPoint(x: 28, y: 1)); p.close()
        p.move(to: PathPoint(x: 50, y: 10)); p.line(to: PathPoint(x: 60, y: 70))
        return p
    }()

    func testPointsAreTheLinearMixAndTheVerbsAreKept() throws {
        for t in [0.0, 0.25, 0.5, 1.0, -0.5, 1.75] {
            var p = Path()
            XCTAssertTrue(p.setInterpolation(from: a, to: b, t))
            XCTAssertEqual(p.verbs, a.verbs)
            XCTAssertEqual(p.points.count, a.points.count)
            for k in 0..<a.points.count {
                XCTAssertEqual(p.points[k].x, a.points[k].x * (1 - t) + b.points[k].x * t, accuracy: 1e-12)
                XCTAssertEqual(p.points[k].y, a.points[k].y * (1 - t) + b.points[k].y * t, accuracy: 1e-12)
            }
            XCTAssertEqual(a.interpolated(to: b, t), p)
            // The open second subpath goes on from the mixed start: closing
            // it draws back to (30, 30)·(1 − t) + (50, 10)·t.
            var q = p
            q.line(to: PathPoint(x: 0, y: 100))
            q.close()
            q.line(to: PathPoint(x: 1, y: 1))      // a line after close starts at the subpath's start
            let start = q.points[q.points.count - 2]
            XCTAssertEqual(start.x, 30 * (1 - t) + 50 * t, accuracy: 1e-12)
            XCTAssertEqual(start.y, 30 * (1 - t) + 10 * t, accuracy: 1e-12)
        }
    }

    func testMismatchedPathsAreRefusedAndLeaveThePathAlone() {
        var other = b
        other.line(to: PathPoint(x: 1, y: 2))
        var p = a
        XCTAssertFalse(p.setInterpolation(from: a, to: other, 0.5))
        XCTAssertEqual(p, a)
        XCTAssertNil(a.interpolated(to: other, 0.5))
    }

    func testStorageIsReusedAndCopiesAreIndependent() {
        var p = Path()
        XCTAssertTrue(p.setInterpolation(from: a, to: b, 0.1))
        let before = p.points.withUnsafeBufferPointer { $0.baseAddress }
        for i in 0..<10 { XCTAssertTrue(p.setInterpolation(from: a, to: b, Double(i) / 10)) }
        XCTAssertEqual(p.points.withUnsafeBufferPointer { $0.baseAddress }, before, "the same point storage every time")

        var kept = Path()
        kept.setContents(of: p)
        XCTAssertEqual(kept, p)
        XCTAssertNotEqual(kept.points.withUnsafeBufferPointer { $0.baseAddress }, before, "its own storage")
        XCTAssertTrue(p.setInterpolation(from: a, to: b, 0.3))
        XCTAssertEqual(p.points.withUnsafeBufferPointer { $0.baseAddress }, before, "still unshared")
        XCTAssertNotEqual(kept, p, "the copy kept the old points")
    }
}
