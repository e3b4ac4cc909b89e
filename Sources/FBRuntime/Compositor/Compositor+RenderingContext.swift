import Raster

// 3-D rendering contexts: the planes under a TransformLayer, sorted with a
// BSP tree and split where they intersect.

/// A point in the post-projective space of a rendering context: x and y
/// as flattened onto the context's superlayer plane, z the depth (larger
/// is nearer the viewer, who looks down −z).
struct ContextPoint {
    var x: Double, y: Double, z: Double
}

/// One ordinary layer inside a rendering context: drawn whole (its
/// subtree flattened into its plane) with `placement`, or cut to pieces.
struct ContextPlane {
    let layer: Layer
    let placement: Compositor.ParentPlacement
    let opacity: Double
    let depth: Int
    /// The plane n·p + d = 0 (n not normalised); `nil` for a layer whose
    /// bounds are empty or edge-on (it is sorted by `anchor` and never
    /// split).
    var normal: ContextPoint?
    var d: Double
}

/// A convex piece of a plane's bounds (or the whole of them).
struct ContextPolygon {
    let plane: Int
    var points: [ContextPoint]
    /// Not cut: drawn whole, with what overhangs the bounds.
    var whole: Bool
    /// The planes (indices) this piece was cut along.
    var cutBy: [Int] = []
}

extension Compositor {
    /// Draws the rendering context rooted at the transform layer `r`.
    ///
    /// **Planes.** Every ordinary layer below `r` (through nested transform
    /// layers, each passing on its transform and `sublayerTransform` without
    /// flattening) is one plane: its bounds mapped by its full 4×4 into the
    /// space of `r`'s superlayer (perspective included), clipped in front of
    /// the eye (w > 10⁻⁶) and divided by w — a space in which the viewer
    /// looks straight down −z, so depth order is z order.
    ///
    /// **Order.** A BSP tree over the planes' bounds polygons, built in
    /// drawing order (zPosition, then tree order) so coplanar layers keep
    /// it; a polygon that straddles a splitting plane (by more than 10⁻⁴
    /// points) is cut in two. The tree is walked back to front.
    ///
    /// **Drawing.** A plane never cut is drawn as any layer (its subtree
    /// flattened into it, overhang included). The pieces of a cut plane are
    /// drawn by rendering the layer offscreen and compositing it through the
    /// coverage of the piece (one offscreen pass each); their image is cut
    /// to the layer's bounds, and the seam between two pieces is hard and
    /// shared exactly (see `drawPiece`). A layer with empty bounds is sorted by the depth of its
    /// position and drawn whole.
    @inline(never)
    func drawRenderingContext(_ r: ResolvedLayer, parent: ParentPlacement, opacity: Double, canvas: Canvas, depth: Int) {
        var planes: [ContextPlane] = []
        var toContext = r.p.geometry.toSuperlayer
        if !parent.sublayerSpace.isIdentity { toContext = toContext.concatenating(parent.sublayerSpace) }
        collectPlanes(of: r, toContext: toContext, parent: parent, opacity: opacity, depth: depth, into: &planes)
        guard !planes.isEmpty else { return }
        var polygons: [ContextPolygon] = []
        for (i, plane) in planes.enumerated() {
            guard let s = resolve(plane.layer, in: plane.placement) else { continue }
            var m = s.p.geometry.toSuperlayer
            if !plane.placement.sublayerSpace.isIdentity { m = m.concatenating(plane.placement.sublayerSpace) }
            let b = s.bounds
            let corners = [(b.minX, b.minY), (b.maxX, b.minY), (b.maxX, b.maxY), (b.minX, b.maxY)]
            var homogeneous: [(x: Double, y: Double, z: Double, w: Double)] = []
            for (x, y) in corners { homogeneous.append(m.apply(x: x, y: y)) }
            let points = ContextGeometry.clipInFrontOfEye(homogeneous)
            if let (n, d) = ContextGeometry.plane(of: points) {
                planes[i].normal = n; planes[i].d = d
                polygons.append(ContextPolygon(plane: i, points: points, whole: true))
            } else {
                // Empty or edge-on bounds: one point, never split.
                let a = m.apply(x: b.minX + b.width / 2, y: b.minY + b.height / 2)
                guard a.w > 1e-6 else { continue }
                polygons.append(ContextPolygon(plane: i, points: [ContextPoint(x: a.x / a.w, y: a.y / a.w, z: a.z / a.w)], whole: true))
            }
        }
        var ordered: [ContextPolygon] = []
        ordered.reserveCapacity(polygons.count)
        ContextGeometry.backToFront(polygons, planes: planes, into: &ordered)
        for piece in ordered {
            let plane = planes[piece.plane]
            if piece.whole {
                draw(plane.layer, parent: plane.placement, opacity: plane.opacity, canvas: canvas, depth: plane.depth)
            } else {
                drawPiece(piece, of: plane, planes: planes, parentToTarget: parent.toTarget, canvas: canvas)
            }
        }
    }

    /// Appends the planes below the transform layer `r`, whose full map
    /// into the context space is `toContext`.
    func collectPlanes(of r: ResolvedLayer, toContext: Transform3D, parent: ParentPlacement, opacity: Double,
                               depth: Int, into planes: inout [ContextPlane]) {
        guard depth + 1 < Compositor.maximumDepth else { return }
        let space = r.sublayerSpace.isIdentity ? toContext : r.sublayerSpace.concatenating(toContext)
        let placement = ParentPlacement(toTarget: parent.toTarget, sublayerSpace: space, flipped: r.sublayersFlipped,
                                        time: r.localTime)
        forEachSublayerInDrawingOrder(r.layer) { sublayer in
            if sublayer.isTransformLayer {
                guard let s = resolve(sublayer, in: placement) else { return }
                let o = opacity * clampUnit(s.p.opacity)
                guard o > 0 else { return }
                collectPlanes(of: s, toContext: s.p.geometry.toSuperlayer.concatenating(space), parent: parent,
                              opacity: o, depth: depth + 1, into: &planes)
            } else {
                planes.append(ContextPlane(layer: sublayer, placement: placement, opacity: opacity, depth: depth + 1,
                                           normal: nil, d: 0))
            }
        }
    }

    /// One piece of a cut plane: the layer offscreen, composited through
    /// the piece's coverage.
    ///
    /// **Seams.** The coverage is the layer's bounds (its own edges as the
    /// layer draws them, `hardEdgeOutline`) cut hard along each plane that
    /// cut the piece (`CentreEdge`). The line of a cut is computed from the
    /// two planes alone, so the pieces on its two sides see the same line
    /// bit for bit and together cover every pixel along the seam exactly
    /// once: no backdrop shows through, nothing is drawn twice. More than
    /// `CentreEdges.capacity` cuts (or a cut line that cannot be placed)
    /// fall back to the piece polygon anti-aliased on every side.
    private func drawPiece(_ piece: ContextPolygon, of plane: ContextPlane, planes: [ContextPlane],
                           parentToTarget: ProjectiveTransform, canvas: Canvas) {
        var path = Path()
        var box = BoundingBox.empty
        var centre = PathPoint(0, 0)
        for (k, p) in piece.points.enumerated() {
            guard let q = parentToTarget.apply(x: p.x, y: p.y), q.x.isFinite, q.y.isFinite else { return }
            let point = PathPoint(x: q.x, y: q.y)
            if k == 0 { path.move(to: point) } else { path.line(to: point) }
            box = box.union(BoundingBox(minX: q.x, minY: q.y, maxX: q.x, maxY: q.y))
            centre = PathPoint(centre.x + q.x, centre.y + q.y)
        }
        path.close()
        let n = Double(piece.points.count)
        centre = PathPoint(centre.x / n, centre.y / n)
        let region = box.enclosingIntRect.intersection(canvas.clip)
        guard !region.isEmpty, let off = colorPool.acquire(width: region.width, height: region.height) else { return }
        defer { colorPool.release(off) }
        guard let coverage = coveragePool.acquire(width: region.width, height: region.height) else { return }
        defer { coveragePool.release(coverage) }
        statistics.offscreenPasses += 1
        let shift = ProjectiveTransform.translation(Double(-region.x), Double(-region.y))
        let p = plane.placement
        let shifted = ParentPlacement(toTarget: p.toTarget.concatenating(shift), sublayerSpace: p.sublayerSpace,
                                      flipped: p.flipped, time: p.time)
        draw(plane.layer, parent: shifted, opacity: plane.opacity, canvas: Canvas(off, family: kernels), depth: plane.depth)
        let toRegion = AffineTransform(translationX: Double(-region.x), y: Double(-region.y))
        if let seams = seamEdges(piece, of: plane, planes: planes, parentToTarget: parentToTarget, centre: centre),
           let s = resolve(plane.layer, in: shifted) {
            rasterizeBoundsCoverage(s, into: coverage)
            seams.cut(coverage, originX: region.x, originY: region.y)
        } else {
            rasterizer.fill(path, transform: toRegion, rule: .nonZero, into: coverage)
        }
        statistics.pixelsWritten += region.area
        composite(off, x: region.x, y: region.y, mask: coverage, operator: .srcOver, alpha: 255, canvas: canvas)
    }

    /// The hard cuts of `piece` in target pixels, kept side towards
    /// `centre` (the piece's centroid there); `nil` when there are more
    /// than `CentreEdges.capacity` or one cannot be placed.
    private func seamEdges(_ piece: ContextPolygon, of plane: ContextPlane, planes: [ContextPlane],
                           parentToTarget: ProjectiveTransform, centre: PathPoint) -> CentreEdges? {
        guard !piece.cutBy.isEmpty, piece.cutBy.count <= CentreEdges.capacity, let n1 = plane.normal else { return nil }
        var edges = CentreEdges()
        for cutter in piece.cutBy {
            guard let n2 = planes[cutter].normal,
                  let (a, b) = ContextGeometry.intersection(n1, plane.d, n2, planes[cutter].d),
                  let qa = parentToTarget.apply(x: a.x, y: a.y), let qb = parentToTarget.apply(x: b.x, y: b.y),
                  let edge = CentreEdge(through: PathPoint(qa.x, qa.y), PathPoint(qb.x, qb.y), inside: centre)
            else { return nil }
            edges.append(edge)
        }
        return edges
    }
}

/// The geometry of rendering contexts: eye clipping, planes, BSP order.
enum ContextGeometry {
    /// Points closer to the eye plane than this (in w) are clipped off.
    static let eyeEpsilon = 1e-6
    /// A vertex within this distance of a splitting plane (points, in the
    /// post-projective space) counts as on it.
    static let planeEpsilon = 1e-4

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

    /// Appends `polygons` in back-to-front order, splitting where needed.
    static func backToFront(_ polygons: [ContextPolygon], planes: [ContextPlane], into out: inout [ContextPolygon]) {
        guard let first = polygons.first else { return }
        guard let n = planes[first.plane].normal, first.points.count >= 3 else {
            // A point item: sort the rest around it by its depth alone.
            var behind: [ContextPolygon] = [], front: [ContextPolygon] = []
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
        var front: [ContextPolygon] = [], back: [ContextPolygon] = [], coplanar: [ContextPolygon] = [first]
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

    /// Two points of the line where the planes n1·p + d1 = 0 and
    /// n2·p + d2 = 0 meet: the point of the line nearest the origin and
    /// that point plus 256 units along n1 × n2 (normalised). A function of
    /// the two planes alone; `nil` for parallel planes.
    static func intersection(_ n1: ContextPoint, _ d1: Double, _ n2: ContextPoint, _ d2: Double) -> (ContextPoint, ContextPoint)? {
        let u = ContextPoint(x: n1.y * n2.z - n1.z * n2.y, y: n1.z * n2.x - n1.x * n2.z, z: n1.x * n2.y - n1.y * n2.x)
        let uu = u.x * u.x + u.y * u.y + u.z * u.z
        guard uu > 1e-18, uu.isFinite else { return nil }
        // Planes n·p = h with h = −d; p0 = c1·n1 + c2·n2.
        let h1 = -d1, h2 = -d2
        let n11 = n1.x * n1.x + n1.y * n1.y + n1.z * n1.z, n22 = n2.x * n2.x + n2.y * n2.y + n2.z * n2.z
        let n12 = n1.x * n2.x + n1.y * n2.y + n1.z * n2.z
        let c1 = (h1 * n22 - h2 * n12) / uu, c2 = (h2 * n11 - h1 * n12) / uu
        let p0 = ContextPoint(x: c1 * n1.x + c2 * n2.x, y: c1 * n1.y + c2 * n2.y, z: c1 * n1.z + c2 * n2.z)
        let s = 256 / uu.squareRoot()
        let p1 = ContextPoint(x: p0.x + u.x * s, y: p0.y + u.y * s, z: p0.z + u.z * s)
        guard p0.x.isFinite, p0.y.isFinite, p1.x.isFinite, p1.y.isFinite else { return nil }
        return (p0, p1)
    }

    static func zCentre(_ p: ContextPolygon) -> Double {
        var z = 0.0
        for q in p.points { z += q.z }
        return p.points.isEmpty ? 0 : z / Double(p.points.count)
    }

    /// The parts of `p` in front of and behind the plane n·x + d = 0.
    static func split(_ p: ContextPolygon, n: ContextPoint, d: Double) -> (ContextPolygon, ContextPolygon) {
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
        return (ContextPolygon(plane: p.plane, points: f, whole: false, cutBy: p.cutBy),
                ContextPolygon(plane: p.plane, points: b, whole: false, cutBy: p.cutBy))
    }
}
