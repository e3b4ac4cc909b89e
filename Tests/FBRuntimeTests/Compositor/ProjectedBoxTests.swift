@testable import FBRuntime
import MallocCounter
import Raster
import TestSupport
import XCTest

/// `projectedBox` keeps only the box of a clipped, projected rectangle; the
/// oracle is `ProjectedPolygon`, which builds the clipped polygon itself
/// (its points in arrays) and boxes it afterwards.
final class ProjectedBoxTests: XCTestCase {
    private func reference(_ rect: Rect, _ m: ProjectiveTransform) -> BoundingBox {
        let r = ProjectedPolygon(rect).mapped(by: m).boundingBox
        guard r.isFinite, !r.isNull else { return .empty }
        return BoundingBox(minX: r.minX, minY: r.minY, maxX: r.maxX, maxY: r.maxY)
    }

    private func assertSame(_ rect: Rect, _ m: ProjectiveTransform, _ what: String,
                            file: StaticString = #filePath, line: UInt = #line) {
        let got = projectedBox(rect, m), want = reference(rect, m)
        if want.isEmpty {
            XCTAssertTrue(got.isEmpty, "\(what): \(got), expected empty", file: file, line: line)
        } else {
            XCTAssertEqual(got, want, what, file: file, line: line)
        }
    }

    /// How many of `rect`'s corners are in front of the eye under `m`.
    private func cornersInFront(_ rect: Rect, _ m: ProjectiveTransform) -> Int {
        var n = 0
        for (x, y) in [(rect.minX, rect.minY), (rect.maxX, rect.minY), (rect.maxX, rect.maxY), (rect.minX, rect.maxY)]
        where m.m20 * x + m.m21 * y + m.m22 >= ProjectedPolygon.nearW { n += 1 }
        return n
    }

    /// A layer turned about a tilted axis under a perspective 300 points
    /// away, at its place and pushed past the eye: all of it, part of it or
    /// none of it is in front.
    private func tilted(_ angle: Double, pushedBy z: Double) -> ProjectiveTransform {
        Transform3D(rotationAngle: angle, x: 1, y: 0.2, z: 0)
            .concatenating(Transform3D(translationX: 0, y: 0, z: z))
            .concatenating(.perspective(distance: 300))
            .concatenating(Transform3D(translationX: 960, y: 540, z: 0)).flattened
    }

    func testTiltedThroughTheEyePlaneIsTheClippedPolygonsBox() {
        let rect = Rect(x: -960, y: -540, width: 1920, height: 1080)
        var counts = [Int](repeating: 0, count: 5)
        for z in [0.0, 200, 450, 900] {
            for step in 0...360 {
                let m = tilted(Double(step) * Double.pi / 180, pushedBy: z)
                counts[cornersInFront(rect, m)] += 1
                assertSame(rect, m, "angle \(step)°, pushed by \(z)")
            }
        }
        // The sweep covered each case the clip has: no corner, some, all.
        XCTAssertGreaterThan(counts[0], 10)
        XCTAssertGreaterThan(counts[1] + counts[2] + counts[3], 10)
        XCTAssertGreaterThan(counts[4], 10)
    }

    func testRandomMapsAndRectanglesAgreeBitForBit() {
        var rng = SplitMix64(seed: 0x5eed_b0c5)
        func value(_ scale: Double) -> Double { Double.random(in: -scale...scale, using: &rng) }
        var clipped = 0
        for i in 0..<20_000 {
            let rect = Rect(x: value(2000), y: value(2000), width: abs(value(3000)), height: abs(value(3000)))
            let m = ProjectiveTransform(m00: value(3), m01: value(3), m02: value(2000),
                                        m10: value(3), m11: value(3), m12: value(2000),
                                        m20: value(0.004), m21: value(0.004), m22: value(2))
            let corners = [(rect.minX, rect.minY), (rect.maxX, rect.minY), (rect.maxX, rect.maxY), (rect.minX, rect.maxY)]
            if corners.contains(where: { m.m20 * $0.0 + m.m21 * $0.1 + m.m22 < ProjectedPolygon.nearW }) { clipped += 1 }
            assertSame(rect, m, "case \(i)")
        }
        XCTAssertGreaterThan(clipped, 5_000, "the random maps should often cut the rectangle")
    }

    func testNonFiniteInputsGiveAnEmptyBox() {
        let rect = Rect(x: 0, y: 0, width: 100, height: 50)
        let identity = ProjectiveTransform(AffineTransform.identity)
        XCTAssertEqual(projectedBox(rect, identity), BoundingBox(minX: 0, minY: 0, maxX: 100, maxY: 50))
        for bad in [Double.nan, .infinity, -.infinity] {
            XCTAssertTrue(projectedBox(Rect(x: bad, y: 0, width: 10, height: 10), identity).isEmpty)
            XCTAssertTrue(projectedBox(Rect(x: 0, y: 0, width: bad, height: 10), identity).isEmpty)
            var m = identity
            m.m21 = bad
            XCTAssertTrue(projectedBox(rect, m).isEmpty, "m21 = \(bad)")
            assertSame(rect, m, "m21 = \(bad)")
        }
        // Finite maps that overflow to infinity when applied.
        let huge = ProjectiveTransform(m00: 1e308, m01: 0, m02: 0, m10: 0, m11: 1e308, m12: 0, m20: 0, m21: 0, m22: 1)
        XCTAssertTrue(projectedBox(rect, huge).isEmpty)
        assertSame(rect, huge, "overflowing map")
        // Entirely behind the eye.
        let behind = ProjectiveTransform(m00: 1, m01: 0, m02: 0, m10: 0, m11: 1, m12: 0, m20: 0, m21: 0, m22: -1)
        XCTAssertTrue(projectedBox(rect, behind).isEmpty)
    }

    /// The map through the eye plane used to fall back to `ProjectedPolygon`
    /// and allocate its arrays on the render thread.
    func testAClippedBoxAllocatesNothing() {
        let rect = Rect(x: -960, y: -540, width: 1920, height: 1080)
        let m = tilted(1.2, pushedBy: 0)
        XCTAssertEqual(cornersInFront(rect, m), 2, "the map should cut the rectangle")
        var sum = 0.0
        fbr_malloc_counter_begin()
        var k = 0
        while k < 100 { sum += projectedBox(rect, m).maxY; k += 1 }
        let allocations = fbr_malloc_counter_end()
        XCTAssertTrue(sum.isFinite)
        XCTAssertNoAllocations(allocations)
    }
}
