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

/// A convex piece of a plane's bounds (or the whole of them), its points
/// and cuts held in `ContextScratch`'s pools.
struct ContextPiece {
    /// Index of its plane in `ContextScratch.planes`.
    let plane: Int
    /// Its points: `ContextScratch.points[start ..< start + count]`.
    var start: Int, count: Int
    /// Not cut: drawn whole, with what overhangs the bounds.
    var whole: Bool
    /// The planes it was cut along: `ContextScratch.cuts[cutStart ..< cutStart + cutCount]`.
    var cutStart: Int, cutCount: Int
}

/// The working storage of rendering contexts, kept by the compositor from
/// frame to frame so that sorting and splitting planes allocates nothing
/// once it has grown. Used as a stack: a context drawn inside another (a
/// transform layer flattened into a plane) appends after the outer one's
/// entries and removes its own when done, so indices stay valid.
final class ContextScratch {
    var planes: [ContextPlane] = []
    var points: [ContextPoint] = []
    var pieces: [ContextPiece] = []
    var cuts: [Int] = []
    /// Piece indices: the lists of the BSP walk, level after level.
    var work: [Int] = []
    /// Per piece of one BSP level: its side (0 coplanar, 1 front, 2 back,
    /// 3 split) and the piece (or two) it becomes.
    var sides: [(side: Int, a: Int, b: Int)] = []
    /// Piece indices, back to front.
    var ordered: [Int] = []
    /// The outline of a cut piece in target pixels (the fallback coverage).
    var outline = Path()

    /// The pools' sizes, to return to when a context is drawn.
    struct Mark { let planes, points, pieces, cuts, work, ordered: Int }
    var mark: Mark {
        Mark(planes: planes.count, points: points.count, pieces: pieces.count, cuts: cuts.count, work: work.count,
             ordered: ordered.count)
    }

    func reset(to m: Mark) {
        planes.removeLast(planes.count - m.planes)
        points.removeLast(points.count - m.points)
        pieces.removeLast(pieces.count - m.pieces)
        cuts.removeLast(cuts.count - m.cuts)
        work.removeLast(work.count - m.work)
        ordered.removeLast(ordered.count - m.ordered)
    }
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
        let c = contextScratch
        let mark = c.mark
        defer { c.reset(to: mark) }
        var toContext = r.p.geometry.toSuperlayer
        if !parent.sublayerSpace.isIdentity { toContext = toContext.concatenating(parent.sublayerSpace) }
        collectPlanes(of: r, toContext: toContext, parent: parent, opacity: opacity, depth: depth, into: &c.planes)
        guard c.planes.count > mark.planes else { return }
        let firstPiece = c.pieces.count
        var i = mark.planes
        while i < c.planes.count {
            defer { i += 1 }
            let plane = c.planes[i]
            guard let s = resolve(plane.layer, in: plane.placement) else { continue }
            var m = s.p.geometry.toSuperlayer
            if !plane.placement.sublayerSpace.isIdentity { m = m.concatenating(plane.placement.sublayerSpace) }
            let b = s.bounds
            let start = c.points.count
            ContextGeometry.clipInFrontOfEye(m.apply(x: b.minX, y: b.minY), m.apply(x: b.maxX, y: b.minY),
                                             m.apply(x: b.maxX, y: b.maxY), m.apply(x: b.minX, y: b.maxY), into: &c.points)
            if let (n, d) = ContextGeometry.plane(of: c.points, start, c.points.count - start) {
                c.planes[i].normal = n; c.planes[i].d = d
                c.pieces.append(ContextPiece(plane: i, start: start, count: c.points.count - start, whole: true, cutStart: 0, cutCount: 0))
            } else {
                // Empty or edge-on bounds: one point, never split.
                c.points.removeLast(c.points.count - start)
                let a = m.apply(x: b.minX + b.width / 2, y: b.minY + b.height / 2)
                guard a.w > 1e-6 else { continue }
                c.points.append(ContextPoint(x: a.x / a.w, y: a.y / a.w, z: a.z / a.w))
                c.pieces.append(ContextPiece(plane: i, start: start, count: 1, whole: true, cutStart: 0, cutCount: 0))
            }
        }
        let workStart = c.work.count
        var k = firstPiece
        while k < c.pieces.count { c.work.append(k); k += 1 }
        let orderedStart = c.ordered.count
        ContextGeometry.backToFront(c, workStart, c.work.count)
        let orderedEnd = c.ordered.count
        k = orderedStart
        while k < orderedEnd {
            let piece = c.pieces[c.ordered[k]]
            let plane = c.planes[piece.plane]
            if piece.whole {
                draw(plane.layer, parent: plane.placement, opacity: plane.opacity, canvas: canvas, depth: plane.depth)
            } else {
                drawPiece(piece, of: plane, parentToTarget: parent.toTarget, canvas: canvas)
            }
            k += 1
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
    private func drawPiece(_ piece: ContextPiece, of plane: ContextPlane, parentToTarget: ProjectiveTransform, canvas: Canvas) {
        let c = contextScratch
        var box = BoundingBox.empty
        var centre = PathPoint(0, 0)
        var k = 0
        while k < piece.count {
            let p = c.points[piece.start + k]
            guard let q = parentToTarget.apply(x: p.x, y: p.y), q.x.isFinite, q.y.isFinite else { return }
            box = box.union(BoundingBox(minX: q.x, minY: q.y, maxX: q.x, maxY: q.y))
            centre = PathPoint(centre.x + q.x, centre.y + q.y)
            k += 1
        }
        let n = Double(piece.count)
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
        if let seams = seamEdges(piece, of: plane, parentToTarget: parentToTarget, centre: centre),
           let s = resolve(plane.layer, in: shifted) {
            rasterizeBoundsCoverage(s, into: coverage)
            seams.cut(coverage, originX: region.x, originY: region.y)
        } else {
            // The piece's outline, built after the layer's draw (which may
            // draw a context of its own with the same scratch).
            c.outline.removeAll(keepingCapacity: true)
            k = 0
            while k < piece.count {
                let p = c.points[piece.start + k]
                if let q = parentToTarget.apply(x: p.x, y: p.y) {
                    let point = PathPoint(x: q.x, y: q.y)
                    if k == 0 { c.outline.move(to: point) } else { c.outline.line(to: point) }
                }
                k += 1
            }
            c.outline.close()
            rasterizer.fill(c.outline, transform: AffineTransform(translationX: Double(-region.x), y: Double(-region.y)),
                            rule: .nonZero, into: coverage)
        }
        statistics.pixelsWritten += region.area
        composite(off, x: region.x, y: region.y, mask: coverage, operator: .srcOver, alpha: 255, canvas: canvas)
    }

    /// The hard cuts of `piece` in target pixels, kept side towards
    /// `centre` (the piece's centroid there); `nil` when there are more
    /// than `CentreEdges.capacity` or one cannot be placed.
    private func seamEdges(_ piece: ContextPiece, of plane: ContextPlane, parentToTarget: ProjectiveTransform,
                           centre: PathPoint) -> CentreEdges? {
        guard piece.cutCount > 0, piece.cutCount <= CentreEdges.capacity, let n1 = plane.normal else { return nil }
        let c = contextScratch
        var edges = CentreEdges()
        var k = 0
        while k < piece.cutCount {
            let cutter = c.planes[c.cuts[piece.cutStart + k]]
            guard let n2 = cutter.normal,
                  let (a, b) = ContextGeometry.intersection(n1, plane.d, n2, cutter.d),
                  let qa = parentToTarget.apply(x: a.x, y: a.y), let qb = parentToTarget.apply(x: b.x, y: b.y),
                  let edge = CentreEdge(through: PathPoint(qa.x, qa.y), PathPoint(qb.x, qb.y), inside: centre)
            else { return nil }
            edges.append(edge)
            k += 1
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

    typealias Homogeneous = (x: Double, y: Double, z: Double, w: Double)

    /// The quadrilateral a, b, c, d clipped to w > `eyeEpsilon` and divided
    /// by w, appended to `out`; nothing is appended when a point would not
    /// be finite.
    static func clipInFrontOfEye(_ a: Homogeneous, _ b: Homogeneous, _ c: Homogeneous, _ d: Homogeneous,
                                 into out: inout [ContextPoint]) {
        let start = out.count
        var finite = true
        @inline(__always) func edge(_ a: Homogeneous, _ b: Homogeneous, _ out: inout [ContextPoint]) -> Bool {
            let ain = a.w > eyeEpsilon, bin = b.w > eyeEpsilon
            var ok = true
            if ain {
                let p = ContextPoint(x: a.x / a.w, y: a.y / a.w, z: a.z / a.w)
                ok = p.x.isFinite && p.y.isFinite && p.z.isFinite
                out.append(p)
            }
            if ain != bin {
                let t = (eyeEpsilon - a.w) / (b.w - a.w)
                let x = a.x + (b.x - a.x) * t, y = a.y + (b.y - a.y) * t, z = a.z + (b.z - a.z) * t
                let w = eyeEpsilon
                let p = ContextPoint(x: x / w, y: y / w, z: z / w)
                ok = ok && p.x.isFinite && p.y.isFinite && p.z.isFinite
                out.append(p)
            }
            return ok
        }
        finite = edge(a, b, &out) && finite
        finite = edge(b, c, &out) && finite
        finite = edge(c, d, &out) && finite
        finite = edge(d, a, &out) && finite
        if !finite { out.removeLast(out.count - start) }
    }

    /// The plane through the polygon `p[start ..< start + count]` (Newell's
    /// normal), or `nil` when it has no area seen from any side.
    static func plane(of p: [ContextPoint], _ start: Int, _ count: Int) -> (ContextPoint, Double)? {
        guard count >= 3 else { return nil }
        var nx = 0.0, ny = 0.0, nz = 0.0, cx = 0.0, cy = 0.0, cz = 0.0
        var i = 0
        while i < count {
            let a = p[start + i], b = p[start + (i + 1) % count]
            nx += (a.y - b.y) * (a.z + b.z)
            ny += (a.z - b.z) * (a.x + b.x)
            nz += (a.x - b.x) * (a.y + b.y)
            cx += a.x; cy += a.y; cz += a.z
            i += 1
        }
        let length = (nx * nx + ny * ny + nz * nz).squareRoot()
        guard length > 1e-9, length.isFinite else { return nil }
        let k = Double(count)
        let n = ContextPoint(x: nx / length, y: ny / length, z: nz / length)
        return (n, -(n.x * cx / k + n.y * cy / k + n.z * cz / k))
    }

    /// Appends to `c.ordered` the pieces listed in `c.work[lo ..< hi]`, back
    /// to front (a BSP tree built in list order, so coplanar pieces keep
    /// it), splitting where needed. The lists of each level are appended to
    /// `c.work` and removed again before it returns.
    static func backToFront(_ c: ContextScratch, _ lo: Int, _ hi: Int) {
        guard lo < hi else { return }
        let levelStart = c.work.count
        defer { c.work.removeLast(c.work.count - levelStart) }
        let first = c.work[lo]
        let firstPiece = c.pieces[first]
        guard let n = c.planes[firstPiece.plane].normal, firstPiece.count >= 3 else {
            // A point item: sort the rest around it by its depth alone.
            let z = firstPiece.count > 0 ? c.points[firstPiece.start].z : 0
            var k = lo + 1
            while k < hi { if zCentre(c, c.work[k]) < z { c.work.append(c.work[k]) }; k += 1 }
            let frontStart = c.work.count
            k = lo + 1
            while k < hi { if !(zCentre(c, c.work[k]) < z) { c.work.append(c.work[k]) }; k += 1 }
            let frontEnd = c.work.count
            backToFront(c, levelStart, frontStart)
            c.ordered.append(first)
            backToFront(c, frontStart, frontEnd)
            return
        }
        let d = c.planes[firstPiece.plane].d
        // Each piece's side; a straddling piece is split in two here.
        let sidesStart = c.sides.count
        var k = lo + 1
        while k < hi {
            let index = c.work[k]
            let p = c.pieces[index]
            var hasFront = false, hasBack = false
            var j = 0
            while j < p.count {
                let q = c.points[p.start + j]
                let s = n.x * q.x + n.y * q.y + n.z * q.z + d
                if s > planeEpsilon { hasFront = true } else if s < -planeEpsilon { hasBack = true }
                j += 1
            }
            switch (hasFront, hasBack) {
            case (false, false): c.sides.append((0, index, -1))
            case (true, false): c.sides.append((1, index, -1))
            case (false, true): c.sides.append((2, index, -1))
            case (true, true):
                let f = split(c, index, n: n, d: d, front: true, cutBy: firstPiece.plane)
                let b = split(c, index, n: n, d: d, front: false, cutBy: firstPiece.plane)
                c.sides.append((3, f, b))
            }
            k += 1
        }
        // The three lists, each in the order of the pieces.
        let frontStart = c.work.count
        var s = sidesStart
        while s < c.sides.count {
            let e = c.sides[s]
            if e.side == 1 || (e.side == 3 && e.a >= 0) { c.work.append(e.a) }
            s += 1
        }
        let backStart = c.work.count
        s = sidesStart
        while s < c.sides.count {
            let e = c.sides[s]
            if e.side == 2 { c.work.append(e.a) } else if e.side == 3 && e.b >= 0 { c.work.append(e.b) }
            s += 1
        }
        let coplanarStart = c.work.count
        c.work.append(first)
        s = sidesStart
        while s < c.sides.count { if c.sides[s].side == 0 { c.work.append(c.sides[s].a) }; s += 1 }
        let coplanarEnd = c.work.count
        c.sides.removeLast(c.sides.count - sidesStart)
        // The viewer is at z = +∞: on the front side when the normal points
        // towards +z.
        if n.z >= 0 {
            backToFront(c, backStart, coplanarStart)
            k = coplanarStart
            while k < coplanarEnd { c.ordered.append(c.work[k]); k += 1 }
            backToFront(c, frontStart, backStart)
        } else {
            backToFront(c, frontStart, backStart)
            k = coplanarStart
            while k < coplanarEnd { c.ordered.append(c.work[k]); k += 1 }
            backToFront(c, backStart, coplanarStart)
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

    static func zCentre(_ c: ContextScratch, _ index: Int) -> Double {
        let p = c.pieces[index]
        var z = 0.0
        var k = 0
        while k < p.count { z += c.points[p.start + k].z; k += 1 }
        return p.count == 0 ? 0 : z / Double(p.count)
    }

    /// The part of piece `index` in front of (`front`) or behind the plane
    /// n·x + d = 0, as a new piece cut by plane `cutBy` as well as by the
    /// piece's own cuts; -1 when it has fewer than three points.
    static func split(_ c: ContextScratch, _ index: Int, n: ContextPoint, d: Double, front: Bool, cutBy: Int) -> Int {
        let p = c.pieces[index]
        let start = c.points.count
        var i = 0
        while i < p.count {
            let a = c.points[p.start + i], b = c.points[p.start + (i + 1) % p.count]
            let sa = n.x * a.x + n.y * a.y + n.z * a.z + d, sb = n.x * b.x + n.y * b.y + n.z * b.z + d
            if front ? sa >= -planeEpsilon : sa <= planeEpsilon { c.points.append(a) }
            if (sa > planeEpsilon && sb < -planeEpsilon) || (sa < -planeEpsilon && sb > planeEpsilon) {
                let t = sa / (sa - sb)
                c.points.append(ContextPoint(x: a.x + (b.x - a.x) * t, y: a.y + (b.y - a.y) * t, z: a.z + (b.z - a.z) * t))
            }
            i += 1
        }
        let count = c.points.count - start
        guard count >= 3 else { c.points.removeLast(count); return -1 }
        let cutStart = c.cuts.count
        var k = 0
        while k < p.cutCount { c.cuts.append(c.cuts[p.cutStart + k]); k += 1 }
        c.cuts.append(cutBy)
        c.pieces.append(ContextPiece(plane: p.plane, start: start, count: count, whole: false, cutStart: cutStart,
                                     cutCount: p.cutCount + 1))
        return c.pieces.count - 1
    }
}
