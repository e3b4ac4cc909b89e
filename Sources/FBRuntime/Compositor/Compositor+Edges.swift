import Raster

// Edge anti-aliasing (`allowsEdgeAntialiasing`, `edgeAntialiasingMask`).
//
// A layer off the pixel grid has its straight edges either anti-aliased
// (coverage of the area, as the path rasterizer computes it) or hard (a
// pixel is in when its centre is). A shape with hard edges is drawn as its
// outline with the hard edges pushed `HardEdgeOutline.margin` pixels
// outward, anti-aliased as usual, and then cut along the true hard edges
// by `CentreEdges`: the anti-aliased edges keep their coverage, the hard
// ones end exactly at the pixel centres, and every pixel is composited
// once (the backdrop is never sampled twice).

/// The outline of a layer rectangle in target pixels, ready for a fill:
/// `path` is the quadrilateral with its hard edges pushed outward, `hard`
/// the cut along them (its kept side is the inside).
struct HardEdgeOutline {
    /// How far hard edges are pushed out before the cut, in pixels: past
    /// the anti-aliasing of the rasterizer (one pixel) with room to spare.
    static let margin = 2.0
    var hard: CentreEdges
    /// The four corners, in order (minX,minY) (maxX,minY) (maxX,maxY)
    /// (minX,maxY) of the rectangle, hard edges pushed out.
    var corners: (PathPoint, PathPoint, PathPoint, PathPoint)

    typealias Line = (p: PathPoint, d: PathPoint)

    /// A corner mapped by `m`, within the guard band.
    static func corner(_ m: ProjectiveTransform, _ x: Double, _ y: Double) -> PathPoint? {
        let limit = ProjectedPathLimits.guardBand
        guard let q = m.apply(x: x, y: y), Swift.abs(q.x) < limit, Swift.abs(q.y) < limit else { return nil }
        return PathPoint(q.x, q.y)
    }

    /// The line of the edge `a → b` as a point and a direction; a hard edge
    /// is appended to `hard` and its line moved `margin` away from `centre`.
    static func line(_ a: PathPoint, _ b: PathPoint, isHard: Bool, centre: PathPoint, into hard: inout CentreEdges) -> Line? {
        let d = PathPoint(b.x - a.x, b.y - a.y)
        guard let edge = CentreEdge(through: a, b, inside: centre) else { return nil }
        guard isHard else { return (a, d) }
        hard.append(edge)
        let length = (d.x * d.x + d.y * d.y).squareRoot()
        // The unit normal pointing away from the centre.
        var nx = -d.y / length, ny = d.x / length
        if nx * (centre.x - a.x) + ny * (centre.y - a.y) > 0 { nx = -nx; ny = -ny }
        return (PathPoint(a.x + nx * margin, a.y + ny * margin), d)
    }

    /// Where two edge lines meet, within the guard band.
    static func meet(_ l: Line, _ n: Line) -> PathPoint? {
        let den = l.d.x * n.d.y - l.d.y * n.d.x
        guard den != 0 else { return nil }
        let t = ((n.p.x - l.p.x) * n.d.y - (n.p.y - l.p.y) * n.d.x) / den
        let q = PathPoint(l.p.x + l.d.x * t, l.p.y + l.d.y * t)
        let limit = ProjectedPathLimits.guardBand
        guard q.x.isFinite, q.y.isFinite, Swift.abs(q.x) < limit, Swift.abs(q.y) < limit else { return nil }
        return q
    }

    func append(to path: inout Path) {
        path.move(to: corners.0); path.line(to: corners.1); path.line(to: corners.2); path.line(to: corners.3)
        path.close()
    }
}

extension Compositor {
    /// The edges of `r` drawn hard: all four without
    /// `allowsEdgeAntialiasing`, else those not in `edgeAntialiasingMask`.
    func hardEdgeMask(_ r: ResolvedLayer) -> EdgeAntialiasingMask {
        r.layer.allowsEdgeAntialiasing ? EdgeAntialiasingMask.all.subtracting(r.layer.edgeAntialiasingMask) : .all
    }

    /// The outline of `rect` (bounds space of `r`) under `r.toTarget` with
    /// the layer's hard edges; `nil` when every edge is anti-aliased, the
    /// layer has rounded corners (always anti-aliased), or a corner is
    /// behind the eye or beyond `ProjectedPathLimits.guardBand` (the
    /// caller then anti-aliases every edge).
    @inline(never)
    func hardEdgeOutline(_ r: ResolvedLayer, rect: Rect) -> HardEdgeOutline? {
        let hardMask = hardEdgeMask(r)
        guard !hardMask.isEmpty, !r.hasCorners, rect.width > 0, rect.height > 0 else { return nil }
        // Straight-line code and static helpers without captures: this runs
        // for every layer off the grid in every frame, and local functions
        // that capture variables allocate their context in debug builds.
        let m = r.toTarget
        guard let c0 = HardEdgeOutline.corner(m, rect.minX, rect.minY), let c1 = HardEdgeOutline.corner(m, rect.maxX, rect.minY),
              let c2 = HardEdgeOutline.corner(m, rect.maxX, rect.maxY), let c3 = HardEdgeOutline.corner(m, rect.minX, rect.maxY)
        else { return nil }
        let centre = PathPoint((c0.x + c1.x + c2.x + c3.x) / 4, (c0.y + c1.y + c2.y + c3.y) / 4)
        // Edges top (c0→c1), right, bottom, left (c3→c0), hard ones moved out.
        var hard = CentreEdges()
        guard let top = HardEdgeOutline.line(c0, c1, isHard: hardMask.contains(.top), centre: centre, into: &hard),
              let right = HardEdgeOutline.line(c1, c2, isHard: hardMask.contains(.right), centre: centre, into: &hard),
              let bottom = HardEdgeOutline.line(c2, c3, isHard: hardMask.contains(.bottom), centre: centre, into: &hard),
              let left = HardEdgeOutline.line(c3, c0, isHard: hardMask.contains(.left), centre: centre, into: &hard),
              // Corner k is where edge k−1 meets edge k.
              let o0 = HardEdgeOutline.meet(left, top), let o1 = HardEdgeOutline.meet(top, right),
              let o2 = HardEdgeOutline.meet(right, bottom), let o3 = HardEdgeOutline.meet(bottom, left)
        else { return nil }
        return HardEdgeOutline(hard: hard, corners: (o0, o1, o2, o3))
    }

    /// The outline of the bounds of `r` as a device path in the scratch
    /// path (valid until the next scratch path use), with its cut.
    func hardEdgeBounds(_ r: ResolvedLayer) -> (path: Path, hard: CentreEdges)? {
        guard let o = hardEdgeOutline(r, rect: r.bounds) else { return nil }
        scratch.path.removeAll(keepingCapacity: true)
        o.append(to: &scratch.path)
        return (scratch.path, o.hard)
    }

    /// The border ring of `r` with hard outer edges: the pushed-out outline
    /// and the inner rectangle (mapped to the target: straight lines stay
    /// straight), for an even-odd fill, in the scratch path.
    func hardEdgeBorderRing(_ r: ResolvedLayer, width: Double) -> (path: Path, hard: CentreEdges)? {
        guard let o = hardEdgeOutline(r, rect: r.bounds) else { return nil }
        scratch.path.removeAll(keepingCapacity: true)
        o.append(to: &scratch.path)
        let b = r.bounds
        let w2 = b.width - 2 * width, h2 = b.height - 2 * width
        if w2 > 0, h2 > 0 {
            let m = r.toTarget
            guard let i0 = m.apply(x: b.minX + width, y: b.minY + width), let i1 = m.apply(x: b.maxX - width, y: b.minY + width),
                  let i2 = m.apply(x: b.maxX - width, y: b.maxY - width), let i3 = m.apply(x: b.minX + width, y: b.maxY - width)
            else { return nil }
            scratch.path.move(to: PathPoint(i0.x, i0.y)); scratch.path.line(to: PathPoint(i1.x, i1.y))
            scratch.path.line(to: PathPoint(i2.x, i2.y)); scratch.path.line(to: PathPoint(i3.x, i3.y))
            scratch.path.close()
        }
        return (scratch.path, o.hard)
    }

    // The draws with hard edges, out of line so the recursion through
    // sublayers does not carry their frames (deep trees in debug builds).

    /// The background of a layer not on whole pixels: its rounded bounds,
    /// or its outline with hard edges.
    @inline(never)
    func fillBackgroundShape(_ r: ResolvedLayer, color: PremultipliedColor, operator op: BlendOperator, canvas: Canvas) {
        if let outline = hardEdgeBounds(r) {
            fillShape(outline.path, map: .identity, sampleRect: r.bounds, color: color, rule: .nonZero, operator: op,
                      canvas: canvas, hard: outline.hard)
        } else {
            fillShape(roundedBounds(r), map: r.toTarget, sampleRect: r.bounds, color: color, rule: .nonZero,
                      operator: op, canvas: canvas, owner: (r.layer, ShapePart.background))
        }
    }

    /// The border, inside the bounds, following the corner radii; its outer
    /// edges hard where the layer's are (off the pixel grid).
    @inline(never)
    func fillBorder(_ r: ResolvedLayer, width: Double, color: PremultipliedColor, operator op: BlendOperator,
                    canvas: Canvas) {
        if wholePixelRect(r) == nil, let ring = hardEdgeBorderRing(r, width: width) {
            fillShape(ring.path, map: .identity, sampleRect: r.bounds, color: color, rule: .evenOdd, operator: op,
                      canvas: canvas, hard: ring.hard)
        } else {
            fillShape(borderRing(r, width: width), map: r.toTarget, sampleRect: r.bounds, color: color, rule: .evenOdd,
                      operator: op, canvas: canvas, owner: (r.layer, ShapePart.border))
        }
    }

    /// Returns false, drawing nothing, when the layer has no hard edge
    /// (the caller then draws as usual).
    /// Contents filling the bounds of a layer off the pixel grid: the image
    /// clamped at its border (its own filtering does not fade it) and cut
    /// along the bounds' outline.
    @inline(never)
    func drawHardEdgeContents(_ contents: LayerContents, _ r: ResolvedLayer, texelToTarget: ProjectiveTransform,
                              filter: ImageFilter, contentsRect unit: PaintRect, mipMaps: MipMaps?, box: IntRect,
                              alpha: UInt8, operator op: BlendOperator, canvas: Canvas) -> Bool {
        // Debug overlays tint through the plain image draw: keep it for them.
        guard debugOverlays.isEmpty, wholePixelRect(r) == nil, let outline = hardEdgeBounds(r) else { return false }
        let image = contents.image.view
        if texelToTarget.isAffine {
            let paint = ImagePaint(image: image, transform: texelToTarget.affinePart, filter: filter, edge: .clamp,
                                   contentsRect: unit, imageIsOpaque: contents.isOpaque, mipMaps: mipMaps,
                                   scratch: scratch.imageSampling, levelOfDetailBias: r.layer.minificationFilterBias)
            fillPaint(box, paint: paint, through: outline.path, map: .identity, sampleRect: r.bounds, operator: op,
                      alpha: alpha, canvas: canvas, hard: outline.hard)
        } else {
            let paint = ImagePaint(image: image, projective: texelToTarget, filter: filter, edge: .clamp,
                                   contentsRect: unit, mipMaps: mipMaps,
                                   levelOfDetailBias: r.layer.minificationFilterBias)
            fillPaint(box, paint: paint, through: outline.path, map: .identity, sampleRect: r.bounds, operator: op,
                      alpha: alpha, canvas: canvas, hard: outline.hard)
        }
        return true
    }

    /// The coverage of the (rounded) bounds of `r`, its hard edges cut hard,
    /// into `mask` (pixel (0, 0) is target pixel (0, 0) of `r`'s map).
    @inline(never)
    func rasterizeBoundsCoverage(_ r: ResolvedLayer, into mask: PixelView<A8>) {
        if let outline = hardEdgeBounds(r) {
            rasterizeCoverage(outline.path, map: .identity, sampleRect: r.bounds, into: mask)
            outline.hard.cut(mask, originX: 0, originY: 0)
        } else {
            rasterizeCoverage(roundedBounds(r), map: r.toTarget, sampleRect: r.bounds, into: mask)
        }
    }
}
