import Raster

// Maps from a layer's bounds space to target pixels, and paths through them.

extension ProjectiveTransform {
    /// The affine map with the same top two rows (exact when `isAffine`).
    var affinePart: AffineTransform {
        AffineTransform(a: m00, b: m10, c: m01, d: m11, tx: m02, ty: m12)
    }

    static func translation(_ dx: Double, _ dy: Double) -> ProjectiveTransform {
        ProjectiveTransform(AffineTransform(translationX: dx, y: dy))
    }

    /// True for a map made of translation and positive or negative axis
    /// scales only: rectangles stay axis-aligned rectangles.
    var isAxisAligned: Bool { isAffine && m01 == 0 && m10 == 0 }

    /// How far a step of one unit at `p` moves, at most, in the image (the
    /// larger of the two columns of the local Jacobian); 0 where `p` is behind
    /// the eye.
    func magnification(at p: Point) -> Double {
        let w = m20 * p.x + m21 * p.y + m22
        guard w > 0 else { return 0 }
        let x = (m00 * p.x + m01 * p.y + m02) / w, y = (m10 * p.x + m11 * p.y + m12) / w
        // d(X/W)/dx = (m00 − x·m20)/w, and likewise.
        let ax = (m00 - x * m20) / w, ay = (m10 - y * m20) / w
        let bx = (m01 - x * m21) / w, by = (m11 - y * m21) / w
        let a = (ax * ax + ay * ay).squareRoot(), b = (bx * bx + by * by).squareRoot()
        return Swift.max(a, b)
    }

    /// The local area scale at `p` (|det J|), 0 behind the eye.
    func areaScale(at p: Point) -> Double {
        let w = m20 * p.x + m21 * p.y + m22
        guard w > 0 else { return 0 }
        let x = (m00 * p.x + m01 * p.y + m02) / w, y = (m10 * p.x + m11 * p.y + m12) / w
        let ax = (m00 - x * m20) / w, ay = (m10 - y * m20) / w
        let bx = (m01 - x * m21) / w, by = (m11 - y * m21) / w
        return Swift.abs(ax * by - ay * bx)
    }
}

extension Rect {
    var center: Point { Point(x: (minX + maxX) / 2, y: (minY + maxY) / 2) }
}

/// The bounding box of `rect` mapped by `m`, with the part behind the eye cut
/// off; empty when nothing is in front or a value is not finite.
///
/// The same box as `ProjectedPolygon(rect).mapped(by: m).boundingBox`
/// (the same Sutherland–Hodgman clip against W ≥ `nearW`, the same
/// arithmetic), but only the box of the points the clip emits is kept, so
/// no array is built: a layer tilted through the eye plane costs the
/// render thread no allocation (`ProjectedBoxTests` compares the two).
func projectedBox(_ rect: Rect, _ m: ProjectiveTransform) -> BoundingBox {
    guard rect.isFinite, m.isFinite else { return .empty }
    var box = ClippedCornerBox(m)       // a struct, not a closure: no boxed captures in debug builds
    let c0 = box.homogeneous(rect.minX, rect.minY), c1 = box.homogeneous(rect.maxX, rect.minY)
    let c2 = box.homogeneous(rect.maxX, rect.maxY), c3 = box.homogeneous(rect.minX, rect.maxY)
    box.edge(c3, c0); box.edge(c0, c1); box.edge(c1, c2); box.edge(c2, c3)
    guard box.finite, box.x0 <= box.x1, box.y0 <= box.y1 else { return .empty }
    let r = Rect(x: box.x0, y: box.y0, width: box.x1 - box.x0, height: box.y1 - box.y0)
    guard r.isFinite, !r.isNull else { return .empty }
    return BoundingBox(minX: r.minX, minY: r.minY, maxX: r.maxX, maxY: r.maxY)
}

/// The box of the points a Sutherland–Hodgman clip of a polygon against
/// W ≥ `ProjectedPolygon.nearW` emits, edge by edge, after the divide by W;
/// notes a point projected to a non-finite place.
private struct ClippedCornerBox {
    typealias H = (x: Double, y: Double, w: Double)
    let m: ProjectiveTransform
    var x0 = Double.infinity, y0 = Double.infinity, x1 = -Double.infinity, y1 = -Double.infinity
    var finite = true
    init(_ m: ProjectiveTransform) { self.m = m }

    func homogeneous(_ x: Double, _ y: Double) -> H {
        (m.m00 * x + m.m01 * y + m.m02, m.m10 * x + m.m11 * y + m.m12, m.m20 * x + m.m21 * y + m.m22)
    }

    /// The edge from `previous` to `current`: its crossing of the near
    /// plane, if any, then `current` if it is in front.
    mutating func edge(_ previous: H, _ current: H) {
        let near = ProjectedPolygon.nearW
        let inPrevious = previous.w >= near, inCurrent = current.w >= near
        if inPrevious != inCurrent {
            let s = (near - previous.w) / (current.w - previous.w)
            emit(previous.x + (current.x - previous.x) * s, previous.y + (current.y - previous.y) * s, near)
        }
        if inCurrent { emit(current.x, current.y, current.w) }
    }

    private mutating func emit(_ x: Double, _ y: Double, _ w: Double) {
        let px = x / w, py = y / w
        guard px.isFinite, py.isFinite else { finite = false; return }
        x0 = Swift.min(x0, px); x1 = Swift.max(x1, px)
        y0 = Swift.min(y0, py); y1 = Swift.max(y1, py)
    }
}

extension BoundingBox {
    func union(_ o: BoundingBox) -> BoundingBox {
        if o.isEmpty { return self }
        if isEmpty { return o }
        return BoundingBox(minX: Swift.min(minX, o.minX), minY: Swift.min(minY, o.minY),
                           maxX: Swift.max(maxX, o.maxX), maxY: Swift.max(maxY, o.maxY))
    }
    func intersection(_ o: BoundingBox) -> BoundingBox {
        let b = BoundingBox(minX: Swift.max(minX, o.minX), minY: Swift.max(minY, o.minY),
                            maxX: Swift.min(maxX, o.maxX), maxY: Swift.min(maxY, o.maxY))
        return b.isEmpty ? .empty : b
    }
    func offsetBy(_ dx: Double, _ dy: Double) -> BoundingBox {
        isEmpty ? self : BoundingBox(minX: minX + dx, minY: minY + dy, maxX: maxX + dx, maxY: maxY + dy)
    }
    func insetBy(_ d: Double) -> BoundingBox {
        isEmpty ? self : BoundingBox(minX: minX + d, minY: minY + d, maxX: maxX - d, maxY: maxY - d)
    }
}

extension IntRect {
    func insetBy(_ d: Int) -> IntRect { IntRect(x: x + d, y: y + d, width: width - 2 * d, height: height - 2 * d) }
    func offsetBy(_ dx: Int, _ dy: Int) -> IntRect { IntRect(x: x + dx, y: y + dy, width: width, height: height) }
}

/// Projects a path drawn in a layer's plane through a perspective map into
/// a polygon path in target pixels: the path is flattened in layer space
/// (tolerance chosen from the map's largest local magnification so the
/// error stays below about 0.1 pixel), each polyline is clipped in
/// homogeneous coordinates against the eye plane (W ≥ `nearW`) and a guard
/// band of ±`guardBand` pixels (so no projected point is huge), then
/// divided by W. Straight lines stay straight under the map, so the polygon
/// is exact up to the flattening.
///
/// It works in storage kept from draw to draw (one per compositor, which
/// draws on one thread): the path is flattened through a sink that
/// projects and clips each polyline as it ends, so a
/// layer drawn under perspective every frame (a card turning in 3-D)
/// allocates nothing once the storage has grown. The path returned shares
/// that storage: use it before the next `project`. `PathProjectorTests`
/// compare it with the earlier implementation, which made its arrays per
/// call.
final class PathProjector {
    typealias H = (x: Double, y: Double, w: Double)
    fileprivate var polyline: [PathPoint] = []
    private var h: [H] = [], clipped: [H] = []
    private var out = Path()
    /// The map of the projection under way.
    fileprivate var m = ProjectiveTransform.identity

    func project(_ path: Path, _ m: ProjectiveTransform, sampleRect: Rect) -> Path {
        // The tolerance from the largest finite magnification (at least 1)
        // at the corners and the centre, in the reference's order.
        @inline(__always) func larger(_ g: Double, _ than: Double) -> Double { g.isFinite && g > than ? g : than }
        var magnification = 1.0
        magnification = larger(m.magnification(at: Point(x: sampleRect.minX, y: sampleRect.minY)), magnification)
        magnification = larger(m.magnification(at: Point(x: sampleRect.maxX, y: sampleRect.minY)), magnification)
        magnification = larger(m.magnification(at: Point(x: sampleRect.maxX, y: sampleRect.maxY)), magnification)
        magnification = larger(m.magnification(at: Point(x: sampleRect.minX, y: sampleRect.maxY)), magnification)
        magnification = larger(m.magnification(at: sampleRect.center), magnification)
        self.m = m
        out.removeAll(keepingCapacity: true)
        var sink = ProjectingSink(projector: self)
        path.flatten(tolerance: FlattenLimits.defaultTolerance / magnification, into: &sink)
        return out
    }

    /// The polyline just flattened: mapped to homogeneous coordinates,
    /// clipped against the near plane and the guard band (Sutherland–
    /// Hodgman), divided by W and appended to `out` as a closed polygon.
    fileprivate func endPolyline() {
        guard polyline.count >= 2 else { return }
        h.removeAll(keepingCapacity: true)
        var i = 0
        while i < polyline.count {
            let p = polyline[i]
            h.append((m.m00 * p.x + m.m01 * p.y + m.m02, m.m10 * p.x + m.m11 * p.y + m.m12,
                      m.m20 * p.x + m.m21 * p.y + m.m22))
            i += 1
        }
        // Inside when a·X + b·Y + c·W ≥ e, for the planes in the
        // reference's order.
        let g = ProjectedPathLimits.guardBand, e = ProjectedPathLimits.nearW
        var plane = 0
        while plane < 5 && !h.isEmpty {
            let (a, b, c, d): (Double, Double, Double, Double)
            switch plane {
            case 0: (a, b, c, d) = (0, 0, 1, e)
            case 1: (a, b, c, d) = (-1, 0, g, 0)
            case 2: (a, b, c, d) = (1, 0, g, 0)
            case 3: (a, b, c, d) = (0, -1, g, 0)
            default: (a, b, c, d) = (0, 1, g, 0)
            }
            clipped.removeAll(keepingCapacity: true)
            var previous = h[h.count - 1]
            var vp = a * previous.x + b * previous.y + c * previous.w - d
            var j = 0
            while j < h.count {
                let q = h[j]
                let vq = a * q.x + b * q.y + c * q.w - d
                if (vp >= 0) != (vq >= 0) {
                    let s = vp / (vp - vq)
                    clipped.append((previous.x + (q.x - previous.x) * s, previous.y + (q.y - previous.y) * s,
                                    previous.w + (q.w - previous.w) * s))
                }
                if vq >= 0 { clipped.append(q) }
                previous = q; vp = vq
                j += 1
            }
            let kept = h       // a swap through a temporary: the generic swap is not specialised in debug builds
            h = clipped
            clipped = kept
            plane += 1
        }
        guard h.count >= 3 else { return }
        out.move(to: PathPoint(h[0].x / h[0].w, h[0].y / h[0].w))
        i = 1
        while i < h.count { out.line(to: PathPoint(h[i].x / h[i].w, h[i].y / h[i].w)); i += 1 }
        out.close()
    }
}

/// Hands each flattened polyline of `PathProjector.project` to the projector.
private struct ProjectingSink: PathPolylineSink {
    unowned(unsafe) let projector: PathProjector
    mutating func begin(at p: PathPoint) {
        projector.polyline.removeAll(keepingCapacity: true)
        projector.polyline.append(p)
    }
    mutating func line(to p: PathPoint) { projector.polyline.append(p) }
    mutating func end(closed: Bool) { projector.endPolyline() }
}

enum ProjectedPathLimits {
    /// Smallest W kept (points nearer the eye plane project arbitrarily far).
    static let nearW = 1e-6
    /// Projected coordinates are kept within ±this many pixels (inside
    /// `FlattenLimits.coordinateLimit`, so the rasterizer never clamps a
    /// vertex and bends an edge).
    static let guardBand = 1_048_576.0
}
