import Raster

/// The geometry of one layer as a value — what `Layer` stores, what the
/// compositor reads from a presentation snapshot — and the matrices Core
/// Animation derives from it.
///
/// Spaces: a layer's **bounds space** is its own coordinate system (the one
/// `bounds` and its sublayers' `position`s are given in). Its **superlayer
/// space** is the superlayer's bounds space. Everything is in points.
///
/// The layer sits in its superlayer by (row vectors, applied left to right)
///
///     toSuperlayer = flip · T(−anchor, −anchorPointZ) · transform · T(position, zPosition)
///
/// where `anchor` = (`bounds.minX + anchorPoint.x·width`,
/// `bounds.minY + anchorPoint.y·height`) is the anchor point in bounds
/// space: `transform` pivots about it and it lands on `position`.
///
/// `flip` is the identity, or with `isGeometryFlipped` the mirror about the
/// horizontal centre line of the bounds (y ↦ minY + maxY − y): the layer's
/// own space then has y pointing up on screen, so its sublayers are laid out
/// from the bottom edge and inherit the flip (a flipped sublayer of a
/// flipped layer is upright again — CA's `contentsAreFlipped` parity).
/// `anchorPoint` is measured in the flipped space too ((0, 0) is then the
/// bottom-left corner). The mirror maps the bounds onto themselves, so the
/// frame is unchanged; drawing the layer's own contents must undo it
/// (CA: the flag "does not affect the rendering of the layer's content").
///
/// The superlayer then applies its `sublayerTransform` about *its* anchor
/// point — the same pivot as its own transform, so a perspective
/// `sublayerTransform` has its vanishing point at the superlayer's anchor
/// (its centre by default) wherever `bounds.origin` has scrolled to:
///
///     sublayerSpace = T(−anchor, −anchorPointZ) · sublayerTransform · T(anchor, anchorPointZ)
///
/// So a sublayer's full map into its superlayer's bounds space is
/// `sublayer.toSuperlayer · superlayer.sublayerSpace`
/// (`Layer.transformToSuperlayer`).
///
/// Rectangles are used in their standardized form (negative sizes turn
/// around), as `CGRectGetMinX` and friends do.
public struct LayerGeometry: Equatable, Sendable {
    public var bounds: Rect = .zero
    public var position: Point = .zero
    public var zPosition: Double = 0
    public var anchorPoint = Point(x: 0.5, y: 0.5)
    public var anchorPointZ: Double = 0
    public var transform: Transform3D = .identity
    public var sublayerTransform: Transform3D = .identity
    public var isGeometryFlipped = false

    public init() {}

    /// The anchor point in bounds space (x, y); its z is `anchorPointZ`.
    @inlinable public var anchorInBounds: Point {
        Point(x: bounds.minX + anchorPoint.x * bounds.width, y: bounds.minY + anchorPoint.y * bounds.height)
    }

    /// Bounds space → superlayer space, the layer's own part (without the
    /// superlayer's `sublayerTransform`). `frame` is the bounds through this.
    public var toSuperlayer: Transform3D {
        let a = anchorInBounds
        var m = transform
        if !transform.isIdentity || anchorPointZ != 0 {
            m = transform.translatedBy(x: -a.x, y: -a.y, z: -anchorPointZ)
        } else {
            m.m41 = -a.x; m.m42 = -a.y   // exact for the common case, no round-off
        }
        m = m.concatenating(Transform3D(translationX: position.x, y: position.y, z: zPosition))
        if isGeometryFlipped {
            var flip = Transform3D.identity
            flip.m22 = -1
            flip.m42 = bounds.minY + bounds.maxY
            m = flip.concatenating(m)
        }
        return m
    }

    /// This layer's bounds space as its sublayers are laid out in it → the
    /// same space after `sublayerTransform` (about the anchor point); the
    /// identity when `sublayerTransform` is.
    public var sublayerSpace: Transform3D {
        guard !sublayerTransform.isIdentity else { return .identity }
        let a = anchorInBounds
        return sublayerTransform.translatedBy(x: -a.x, y: -a.y, z: -anchorPointZ)
            .concatenating(Transform3D(translationX: a.x, y: a.y, z: anchorPointZ))
    }

    /// The smallest axis-aligned rectangle enclosing the bounds mapped into
    /// the superlayer space by `toSuperlayer` and flattened onto z = 0 (the
    /// four corners projected; the part of the layer behind the eye of a
    /// perspective transform is clipped off first). `Rect.null` when all of
    /// it is behind the eye; NaN in every field when the geometry is not
    /// finite.
    public var frame: Rect {
        ProjectedPolygon(bounds).mapped(by: toSuperlayer.flattened).boundingBox
    }
}

/// A convex polygon carried through projective maps, clipped against the
/// eye plane at every step so that points behind the eye (w ≤ 0) never wrap
/// around to the far side. Used for frames and `convert(_:Rect…)`.
struct ProjectedPolygon {
    var points: [Point]
    /// True once a coordinate or a map has not been finite; the result is
    /// then NaN rather than a guess.
    var isPoisoned = false

    init(_ rect: Rect) {
        points = [Point(x: rect.minX, y: rect.minY), Point(x: rect.maxX, y: rect.minY),
                  Point(x: rect.maxX, y: rect.maxY), Point(x: rect.minX, y: rect.maxY)]
        isPoisoned = !rect.isFinite
    }

    /// Smallest `w` kept: points nearer the eye plane than this are cut off
    /// (they would project arbitrarily far away).
    static let nearW = 1e-9

    func mapped(by m: ProjectiveTransform) -> ProjectedPolygon {
        var out = self
        guard !isPoisoned, m.isFinite else { out.isPoisoned = true; return out }
        out.points.removeAll(keepingCapacity: true)
        guard !points.isEmpty else { return out }
        // Sutherland–Hodgman against w ≥ nearW, in homogeneous coordinates.
        typealias H = (x: Double, y: Double, w: Double)
        func h(_ p: Point) -> H {
            (m.m00 * p.x + m.m01 * p.y + m.m02, m.m10 * p.x + m.m11 * p.y + m.m12, m.m20 * p.x + m.m21 * p.y + m.m22)
        }
        func emit(_ q: H) { out.points.append(Point(x: q.x / q.w, y: q.y / q.w)) }
        var previous = h(points[points.count - 1])
        for p in points {
            let current = h(p)
            let inPrevious = previous.w >= ProjectedPolygon.nearW, inCurrent = current.w >= ProjectedPolygon.nearW
            if inPrevious != inCurrent {
                let s = (ProjectedPolygon.nearW - previous.w) / (current.w - previous.w)
                emit((previous.x + (current.x - previous.x) * s, previous.y + (current.y - previous.y) * s,
                      ProjectedPolygon.nearW))
            }
            if inCurrent { emit(current) }
            previous = current
        }
        return out
    }

    var boundingBox: Rect {
        let nan = Rect(x: .nan, y: .nan, width: .nan, height: .nan)
        if isPoisoned { return nan }
        guard let first = points.first else { return .null }
        var x0 = first.x, y0 = first.y, x1 = first.x, y1 = first.y
        for p in points {
            guard p.x.isFinite, p.y.isFinite else { return nan }
            x0 = Swift.min(x0, p.x); x1 = Swift.max(x1, p.x)
            y0 = Swift.min(y0, p.y); y1 = Swift.max(y1, p.y)
        }
        return Rect(x: x0, y: y0, width: x1 - x0, height: y1 - y0)
    }
}
