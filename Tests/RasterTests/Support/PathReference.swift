import Raster

// Foundation (re-exported by XCTest) has its own AffineTransform.

/// The slow, obviously correct oracle for the path rasterizer: 16 × 16
/// sample points per pixel (at the centres of a regular grid), each inside
/// or outside by its winding number around the flattened path, counted along
/// a horizontal ray. It shares nothing with `PathRasterizer` but the
/// flattening (`Path.flattened`), which is the thing being filled.
///
/// Its own error: for a pixel crossed by one straight edge, counting 256
/// points can be off by at most one sample per sample row or column the edge
/// passes, i.e. ≤ 16/256 = 1/16 of the pixel (≈ 16 levels of 255).
enum SupersampledReference {
    static let grid = 16

    struct Segment { var x0, y0, x1, y1: Double }

    /// All line segments of the flattened path, every polyline closed (fills
    /// close their subpaths).
    static func segments(_ path: Path, transform: AffineTransform, tolerance: Double) -> [Segment] {
        var out: [Segment] = []
        for poly in path.flattened(transform: transform, tolerance: tolerance) {
            let pts = poly.points
            guard pts.count > 1 else { continue }
            for i in 0..<pts.count {
                let a = pts[i], b = pts[(i + 1) % pts.count]
                if a != b { out.append(Segment(x0: a.x, y0: a.y, x1: b.x, y1: b.y)) }
            }
        }
        return out
    }

    /// Coverage in 0…1 for each pixel of `clip`, row-major: the fraction of
    /// its samples whose winding number the rule counts as inside.
    static func coverage(_ segs: [Segment], rule: FillRule, clip: IntRect) -> [Double] {
        let n = grid
        var counts = [Int](repeating: 0, count: clip.width * clip.height)
        var crossings: [(x: Double, w: Int)] = []
        for py in 0..<clip.height {
            for sy in 0..<n {
                let ys = Double(clip.y + py) + (Double(sy) + 0.5) / Double(n)
                crossings.removeAll(keepingCapacity: true)
                for s in segs {
                    // Half-open in y so a vertex on the sample row counts once.
                    if (s.y0 <= ys && ys < s.y1) || (s.y1 <= ys && ys < s.y0) {
                        let x = s.x0 + (ys - s.y0) * (s.x1 - s.x0) / (s.y1 - s.y0)
                        crossings.append((x, s.y1 > s.y0 ? 1 : -1))
                    }
                }
                crossings.sort { $0.x < $1.x }
                var k = 0, winding = 0
                for px in 0..<clip.width {
                    for sx in 0..<n {
                        let xs = Double(clip.x + px) + (Double(sx) + 0.5) / Double(n)
                        while k < crossings.count && crossings[k].x < xs { winding += crossings[k].w; k += 1 }
                        let inside = rule == .nonZero ? winding != 0 : winding & 1 != 0
                        if inside { counts[py * clip.width + px] += 1 }
                    }
                }
            }
        }
        return counts.map { Double($0) / Double(n * n) }
    }
}
