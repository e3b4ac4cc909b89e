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

    /// Coverage in 0…1 for each pixel of `clip`, row-major, and whether the
    /// winding numbers of the pixel's samples span 2 or more (e.g. 0 and 2):
    /// there area-based rasterizers average windings (see `PathRasterizer`).
    static func coverage(_ segs: [Segment], rule: FillRule, clip: IntRect) -> (coverage: [Double], mixedWinding: [Bool]) {
        let n = grid
        var counts = [Int](repeating: 0, count: clip.width * clip.height)
        var minW = [Int](repeating: Int.max, count: clip.width * clip.height), maxW = [Int](repeating: Int.min, count: clip.width * clip.height)
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
                        let i = py * clip.width + px
                        if inside { counts[i] += 1 }
                        if winding < minW[i] { minW[i] = winding }
                        if winding > maxW[i] { maxW[i] = winding }
                    }
                }
            }
        }
        return (counts.map { Double($0) / Double(n * n) }, zip(minW, maxW).map { $1 - $0 >= 2 })
    }

    /// Pixels of `clip` holding a point where two non-adjacent segments of
    /// the path cross: there the rasterizer averages winding numbers (see
    /// `PathRasterizer`), so they have their own, looser bound.
    static func crossingPixels(_ segs: [Segment], clip: IntRect) -> Set<Int> {
        var out = Set<Int>()
        for i in 0..<segs.count {
            for j in (i + 1)..<max(i + 1, segs.count) {
                let a = segs[i], b = segs[j]
                let rx = a.x1 - a.x0, ry = a.y1 - a.y0, sx = b.x1 - b.x0, sy = b.y1 - b.y0
                let den = rx * sy - ry * sx
                if den == 0 { continue }
                let qx = b.x0 - a.x0, qy = b.y0 - a.y0
                let t = (qx * sy - qy * sx) / den, u = (qx * ry - qy * rx) / den
                // Strictly inside both: shared endpoints of neighbours don't count.
                guard t > 1e-9, t < 1 - 1e-9, u > 1e-9, u < 1 - 1e-9 else { continue }
                let px = Int((a.x0 + t * rx).rounded(.down)) - clip.x, py = Int((a.y0 + t * ry).rounded(.down)) - clip.y
                for dy in -1...1 { for dx in -1...1 {
                    let x = px + dx, y = py + dy
                    if x >= 0, y >= 0, x < clip.width, y < clip.height { out.insert(y * clip.width + x) }
                } }
            }
        }
        return out
    }
}
