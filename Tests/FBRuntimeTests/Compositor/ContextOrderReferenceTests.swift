@testable import FBRuntime
import Raster
import XCTest

/// The BSP order of rendering contexts (`ContextGeometry.backToFront`,
/// which works in `ContextScratch`'s pools without allocating) against the
/// earlier implementation kept here as the reference: polygons as arrays,
/// new arrays at every level. Random planes through random boxes: the
/// same pieces (plane, points, cuts) in the same order.
final class ContextOrderReferenceTests: XCTestCase {
    /// The reference's polygon: its own arrays.
    struct RefPolygon {
        let plane: Int
        var points: [ContextPoint]
        var whole: Bool
        var cutBy: [Int] = []
    }

    /// The earlier implementation, unchanged but for the names.
    enum Reference {
        static let planeEpsilon = ContextGeometry.planeEpsilon
        static let eyeEpsilon = ContextGeometry.eyeEpsilon

        /// The polygon clipped to w > `eyeEpsilon` and divided by w.
        static func clipInFrontOfEye(_ h: [(x: Double, y: Double, z: Double, w: Double)]) -> [ContextPoint] {
            var out: [ContextPoint] = []
            let n = h.count
            for i in 0..<n {
                let a = h[i], b = h[(i + 1) % n]
                let ain = a.w > eyeEpsilon, bin = b.w > eyeEpsilon
                if ain { out.append(ContextPoint(x: a.x / a.w, y: a.y / a.w, z: a.z / a.w)) }
                if ain != bin {
                    let t = (eyeEpsilon - a.w) / (b.w - a.w)
                    let x = a.x + (b.x - a.x) * t, y = a.y + (b.y - a.y) * t, z = a.z + (b.z - a.z) * t
                    let w = eyeEpsilon
                    out.append(ContextPoint(x: x / w, y: y / w, z: z / w))
                }
            }
            return out.allSatisfy({ $0.x.isFinite && $0.y.isFinite && $0.z.isFinite }) ? out : []
        }

        /// The plane through a polygon (Newell's normal), or `nil` when it has
        /// no area seen from any side.
        static func plane(of p: [ContextPoint]) -> (ContextPoint, Double)? {
            guard p.count >= 3 else { return nil }
            var nx = 0.0, ny = 0.0, nz = 0.0, cx = 0.0, cy = 0.0, cz = 0.0
            for i in 0..<p.count {
                let a = p[i], b = p[(i + 1) % p.count]
                nx += (a.y - b.y) * (a.z + b.z)
                ny += (a.z - b.z) * (a.x + b.x)
                nz += (a.x - b.x) * (a.y + b.y)
                cx += a.x; cy += a.y; cz += a.z
            }
            let length = (nx * nx + ny * ny + nz * nz).squareRoot()
            guard length > 1e-9, length.isFinite else { return nil }
            let k = Double(p.count)
            let n = ContextPoint(x: nx / length, y: ny / length, z: nz / length)
            return (n, -(n.x * cx / k + n.y * cy / k + n.z * cz / k))
        }

    static func backToFront(_ polygons: [RefPolygon], planes: [ContextPlane], into out: inout [RefPolygon]) {
        guard let first = polygons.first else { return }
        guard let n = planes[first.plane].normal, first.points.count >= 3 else {
            // A point item: sort the rest around it by its depth alone.
            var behind: [RefPolygon] = [], front: [RefPolygon] = []
            let z = first.points.first?.z ?? 0
            for p in polygons.dropFirst() {
                if zCentre(p) < z { behind.append(p) } else { front.append(p) }
            }
            backToFront(behind, planes: planes, into: &out)
            out.append(first)
            backToFront(front, planes: planes, into: &out)
            return
        }
        let d = planes[first.plane].d
        var front: [RefPolygon] = [], back: [RefPolygon] = [], coplanar: [RefPolygon] = [first]
        for p in polygons.dropFirst() {
            var hasFront = false, hasBack = false
            for q in p.points {
                let s = n.x * q.x + n.y * q.y + n.z * q.z + d
                if s > planeEpsilon { hasFront = true } else if s < -planeEpsilon { hasBack = true }
            }
            switch (hasFront, hasBack) {
            case (false, false): coplanar.append(p)
            case (true, false): front.append(p)
            case (false, true): back.append(p)
            case (true, true):
                var (f, b) = split(p, n: n, d: d)
                f.cutBy.append(first.plane); b.cutBy.append(first.plane)
                if f.points.count >= 3 { front.append(f) }
                if b.points.count >= 3 { back.append(b) }
            }
        }
        // The viewer is at z = +∞: on the front side when the normal points
        // towards +z.
        if n.z >= 0 {
            backToFront(back, planes: planes, into: &out)
            out.append(contentsOf: coplanar)
            backToFront(front, planes: planes, into: &out)
        } else {
            backToFront(front, planes: planes, into: &out)
            out.append(contentsOf: coplanar)
            backToFront(back, planes: planes, into: &out)
        }
    }

    static func zCentre(_ p: RefPolygon) -> Double {
        var z = 0.0
        for q in p.points { z += q.z }
        return p.points.isEmpty ? 0 : z / Double(p.points.count)
    }

    static func split(_ p: RefPolygon, n: ContextPoint, d: Double) -> (RefPolygon, RefPolygon) {
        var f: [ContextPoint] = [], b: [ContextPoint] = []
        let count = p.points.count
        for i in 0..<count {
            let a = p.points[i], c = p.points[(i + 1) % count]
            let sa = n.x * a.x + n.y * a.y + n.z * a.z + d, sc = n.x * c.x + n.y * c.y + n.z * c.z + d
            if sa >= -planeEpsilon { f.append(a) }
            if sa <= planeEpsilon { b.append(a) }
            if (sa > planeEpsilon && sc < -planeEpsilon) || (sa < -planeEpsilon && sc > planeEpsilon) {
                let t = sa / (sa - sc)
                let m = ContextPoint(x: a.x + (c.x - a.x) * t, y: a.y + (c.y - a.y) * t, z: a.z + (c.z - a.z) * t)
                f.append(m); b.append(m)
            }
        }
        return (RefPolygon(plane: p.plane, points: f, whole: false, cutBy: p.cutBy),
                RefPolygon(plane: p.plane, points: b, whole: false, cutBy: p.cutBy))
    }
    }

    private var rng = SplitMix64(seed: 0xb5_9013)

    private func point(_ scale: Double) -> ContextPoint {
        ContextPoint(x: Double.random(in: -scale...scale, using: &rng), y: Double.random(in: -scale...scale, using: &rng),
                     z: Double.random(in: -scale...scale, using: &rng))
    }

    /// A planar quadrilateral: a centre, two random axes in a random plane;
    /// some are point items (no normal), some share a plane.
    private func quad() -> [ContextPoint] {
        let c = point(60), u = point(1), v0 = point(1)
        // v ⟂ u in the plane of u and v0.
        let uu = u.x * u.x + u.y * u.y + u.z * u.z
        let k = (u.x * v0.x + u.y * v0.y + u.z * v0.z) / uu
        let v = ContextPoint(x: v0.x - k * u.x, y: v0.y - k * u.y, z: v0.z - k * u.z)
        let a = Double.random(in: 10...50, using: &rng), b = Double.random(in: 10...50, using: &rng)
        return [(-1.0, -1.0), (1, -1), (1, 1), (-1, 1)].map { s, t in
            ContextPoint(x: c.x + s * a * u.x + t * b * v.x, y: c.y + s * a * u.y + t * b * v.y, z: c.z + s * a * u.z + t * b * v.z)
        }
    }

    func testTheOrderEqualsTheReferences() {
        let layer = Layer(name: "plane")
        let placement = Compositor.ParentPlacement(toTarget: .identity, sublayerSpace: .identity, flipped: false, time: 0)
        var splits = 0, pointItems = 0
        for i in 0..<1_500 {
            let c = ContextScratch()
            var refPolygons: [RefPolygon] = []
            let n = Int.random(in: 1...7, using: &rng)
            for j in 0..<n {
                var plane = ContextPlane(layer: layer, placement: placement, opacity: 1, depth: 1, normal: nil, d: 0)
                var points = quad()
                if j > 0 && Int.random(in: 0..<6, using: &rng) == 0 { points = [point(60)] }   // empty bounds
                if j > 0 && Int.random(in: 0..<6, using: &rng) == 0 {                           // coplanar with the first
                    let f = refPolygons[0].points
                    points = f.count >= 3 ? [f[0], f[1], f[2]] : points
                }
                let start = c.points.count
                c.points.append(contentsOf: points)
                if let (normal, d) = ContextGeometry.plane(of: c.points, start, points.count) {
                    plane.normal = normal; plane.d = d
                } else {
                    pointItems += 1
                }
                c.planes.append(plane)
                c.pieces.append(ContextPiece(plane: j, start: start, count: points.count, whole: true, cutStart: 0, cutCount: 0))
                c.work.append(j)
                refPolygons.append(RefPolygon(plane: j, points: points, whole: true))
            }
            var want: [RefPolygon] = []
            Reference.backToFront(refPolygons, planes: c.planes, into: &want)
            ContextGeometry.backToFront(c, 0, c.work.count)
            XCTAssertEqual(c.work.count, n, "case \(i): the walk leaves only the first list")
            XCTAssertEqual(c.ordered.count, want.count, "case \(i)")
            for (k, w) in want.enumerated() where k < c.ordered.count {
                let piece = c.pieces[c.ordered[k]]
                let points = Array(c.points[piece.start ..< piece.start + piece.count])
                let cuts = Array(c.cuts[piece.cutStart ..< piece.cutStart + piece.cutCount])
                XCTAssertEqual(piece.plane, w.plane, "case \(i), piece \(k)")
                XCTAssertEqual(piece.whole, w.whole, "case \(i), piece \(k)")
                XCTAssertEqual(cuts, w.cutBy, "case \(i), piece \(k)")
                XCTAssertTrue(points.count == w.points.count && zip(points, w.points).allSatisfy {
                    $0.x.bitPattern == $1.x.bitPattern && $0.y.bitPattern == $1.y.bitPattern && $0.z.bitPattern == $1.z.bitPattern
                }, "case \(i), piece \(k): \(points) ≠ \(w.points)")
            }
            if want.contains(where: { !$0.whole }) { splits += 1 }
        }
        XCTAssertGreaterThan(splits, 300, "planes were split")
        XCTAssertGreaterThan(pointItems, 100, "point items were sorted")
    }

    /// The quadrilateral clipped in front of the eye and its plane, into
    /// the pool, against the reference's arrays: corners in front, behind,
    /// on the eye plane, huge and not finite.
    func testClippingAndPlanesEqualTheReferences() {
        var clipped = 0, refused = 0
        for i in 0..<20_000 {
            func corner() -> ContextGeometry.Homogeneous {
                let w: Double
                switch Int.random(in: 0..<10, using: &rng) {
                case 0: w = -Double.random(in: 0...2, using: &rng)
                case 1: w = 0
                case 2: w = 1e-300
                default: w = Double.random(in: 0.2...2, using: &rng)
                }
                let big = Int.random(in: 0..<50, using: &rng) == 0 ? 1e307 : 100
                return (Double.random(in: -big...big, using: &rng), Double.random(in: -100...100, using: &rng),
                        Double.random(in: -100...100, using: &rng), w)
            }
            let q = [corner(), corner(), corner(), corner()]
            let want = Reference.clipInFrontOfEye(q)
            var pool = [ContextPoint(x: 7, y: 7, z: 7)]            // something before: the clip appends after it
            ContextGeometry.clipInFrontOfEye(q[0], q[1], q[2], q[3], into: &pool)
            let got = Array(pool.dropFirst())
            XCTAssertEqual(got.count, want.count, "case \(i)")
            XCTAssertTrue(zip(got, want).allSatisfy { $0.x.bitPattern == $1.x.bitPattern && $0.y.bitPattern == $1.y.bitPattern
                && $0.z.bitPattern == $1.z.bitPattern }, "case \(i)")
            let p1 = ContextGeometry.plane(of: pool, 1, got.count), p2 = Reference.plane(of: want)
            XCTAssertEqual(p1?.0.x.bitPattern, p2?.0.x.bitPattern, "case \(i)")
            XCTAssertEqual(p1?.0.z.bitPattern, p2?.0.z.bitPattern, "case \(i)")
            XCTAssertEqual(p1?.1.bitPattern, p2?.1.bitPattern, "case \(i)")
            if want.count != 4 && !want.isEmpty { clipped += 1 }
            if want.isEmpty { refused += 1 }
        }
        XCTAssertGreaterThan(clipped, 1_000, "quadrilaterals cut by the eye plane")
        XCTAssertGreaterThan(refused, 100, "quadrilaterals refused (behind the eye or not finite)")
    }
}
