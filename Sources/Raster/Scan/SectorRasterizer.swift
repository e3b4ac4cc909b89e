/// Anti-aliased scan conversion of an `AnnularSector` (device pixels) in
/// closed form: the area of each pixel the sector covers, computed from the
/// sector's circles and rays, without an outline to flatten or edges to
/// sweep. A stroked circular arc with butt ends drawn this way costs what
/// its pixels cost, and a small clip (the damage of a trim that moved)
/// costs only the pixels in it.
///
/// The coverage model (`AnnularSector.coverage(x:y:)`, the reference), for
/// the pixel square `[x, x+1] × [y, y+1]` with centre p at distance d from
/// the sector's centre:
/// - Near a circle (its tangent line at distance t = r − d along the
///   radius crosses the square), the circle is taken as the parabola that
///   matches it to second order there: the area on its side of the tangent
///   line (the half-plane area of a unit square, piecewise quadratic in t)
///   less ∫ v²/2d dv along the tangent's chord through the square (the
///   strip between tangent and circle). Both circles of a thin ring in one
///   pixel: the difference of the two areas. In `Float`: it is the part
///   computed for every pixel on an edge, four at a time (`ringAreas`).
/// - Where a ray's line crosses the square, the square is clipped by the
///   circles' tangent lines and the rays' half-planes and the polygon's
///   area taken (up to half a turn the sector is where both half-planes
///   hold; past it, where either does: inclusion–exclusion); in `Double`.
/// - Elsewhere the pixel is wholly inside (255) or outside (0).
/// - Pixels outside the sector's `bounds` widened by one pixel are 0.
/// Against the exact area (measured in `SectorRasterizerTests` by exact
/// integration along thin slices) this is within 1 level of 255 for radii
/// of 20 px and more and within 4 levels down to an inner radius of 4 px;
/// smaller holes are for the general path rasterizer.
///
/// `fill` gives the reference's bytes for every pixel (tests compare them):
/// row by row it writes the pixels that are certainly empty or full (more
/// than `margin` from every edge, where the model takes its 0 and 255
/// branches) and computes the others with the same operations, the ring
/// part four pixels at a time. Only IEEE basic operations and square
/// roots, never fused, so the bits are the same on x86-64 and arm64.
///
/// Owns a coverage row that it reuses: after the first draws, filling
/// allocates nothing. Not thread-safe: use one per thread.
public final class SectorRasterizer {
    var row = ScratchBuffer<UInt8>()

    /// Smallest inner radius, device pixels, the coverage model is kept to
    /// (within 4 levels of the exact area; see above).
    public static let minimumInnerRadius = 4.0
    /// Largest outer radius, device pixels, drawn: past it `Float` leaves
    /// the model too little of a pixel (a sector beyond it has an empty
    /// `pixelBox`, so nothing is drawn).
    public static let maximumRadius = 8192.0
    /// How far from an edge a pixel centre must be for the pixel to be
    /// wholly on one side: √2/2 (a square's half diagonal) and room for
    /// the `Float` rounding of the ring part up to `maximumRadius`.
    static let margin = 0.71

    public init() {}

    deinit { row.release() }

    /// Scan-converts `sector` inside `clip` and hands the coverage to
    /// `spans`, as `PathRasterizer.fill` does: `spans(y, x, coverage,
    /// count)` for pixels `x ..< x + count` of row `y`, in increasing `y`
    /// then `x`, never empty, never overlapping, inside the clip; pixels in
    /// no span have coverage 0 (a span can still hold zeros). The coverage
    /// pointer is valid only during the call.
    ///
    /// `family`: `.simd` (the default) writes the pixels that are certainly
    /// empty or full row by row and computes the others, the ring part
    /// four at a time; `.reference` computes every pixel of the sector's
    /// box through `AnnularSector.coverage(x:y:)`, one at a time. Both give
    /// the same bytes.
    ///
    /// An empty sector or clip, or one that is not finite, produces no
    /// spans.
    ///
    /// - Complexity: O(rows of the sector in the clip + pixels of its
    ///   edges there), plus the pixels of its inside that are written.
    public func fill(_ sector: AnnularSector, clip: IntRect, family: KernelFamily = .simd,
                     spans: (_ y: Int, _ x: Int, _ coverage: UnsafePointer<UInt8>, _ count: Int) -> Void) {
        if family == .reference { fillReference(sector, clip: clip, spans: spans); return }
        let box = sector.pixelBox.intersection(PathRasterizer.effectiveClip(clip))
        guard !box.isEmpty else { return }
        row.reserve(box.width, fill: 0)
        let out = row.base
        let cx = sector.center.x, cy = sector.center.y
        let outer = sector.outerRadius, inner = sector.innerRadius
        let margin = SectorRasterizer.margin
        let reach2 = (outer + margin) * (outer + margin)
        let solidIn2 = (inner + margin) * (inner + margin)
        let solidOut2 = outer > margin ? (outer - margin) * (outer - margin) : -1
        let holeIn = inner - 1
        let hole2 = holeIn > 0 ? holeIn * holeIn : -1
        let whole = sector.isWholeRing, reflex = sector.sweep > 3.141_592_653_589_793
        let u0 = sector.startDirection, u1 = sector.endDirection
        var y = box.y
        while y < box.maxY {
            defer { y += 1 }
            let py = Double(y) + 0.5 - cy
            let py2 = py * py
            guard reach2 > py2 else { continue }
            // The row's parts by |px| = |x + 0.5 − cx|: candidates inside
            // the outer circle's reach, a pixel more either side for
            // rounding; whole ring coverage between the circles' margins
            // (strictly inside by 10⁻⁶); empty in the middle of the hole
            // (two pixels in from its ends).
            let xReach = FloatMath.squareRoot(reach2 - py2)
            let first = Swift.max(box.x, SectorRasterizer.floor(cx - xReach - 0.5) - 1)
            let last = Swift.min(box.maxX - 1, SectorRasterizer.ceil(cx + xReach - 0.5) + 1)
            guard first <= last else { continue }
            var solid = (first: 1, last: 0, first2: 1, last2: 0)
            if solidOut2 > py2 {
                let xo = FloatMath.squareRoot(solidOut2 - py2)
                let xi = solidIn2 > py2 ? FloatMath.squareRoot(solidIn2 - py2) : 0
                solid = (SectorRasterizer.ceil(cx - xo - 0.5 + 1e-6), SectorRasterizer.floor(cx - xi - 0.5 - 1e-6),
                         SectorRasterizer.ceil(cx + xi - 0.5 + 1e-6), SectorRasterizer.floor(cx + xo - 0.5 - 1e-6))
            }
            var holeFirst = last + 1, holeLast = last
            if hole2 > py2 {
                let xHole = FloatMath.squareRoot(hole2 - py2)
                holeFirst = SectorRasterizer.floor(cx - xHole - 0.5) + 2
                holeLast = SectorRasterizer.ceil(cx + xHole - 0.5) - 2
            }
            // The rays: along the row s0 = u0.x·py − u0.y·px and
            // s1 = u1.y·px − py·u1.x are linear in px, so the pixels the rays
            // alone decide are runs. Up to half a turn, `a` is the run that
            // is not certainly empty (s0, s1 > −margin) and `b` the run that
            // is certainly full (s0, s1 ≥ margin); past it, `a` is the run
            // that is certainly empty (s0, s1 ≤ −margin) and `b` the run that
            // is not certainly full (s0 or s1 < margin).
            var a = (first: first, last: last), b = (first: first, last: last)
            if !whole {
                let q0 = u0.x * py, q1 = -py * u1.x
                let range = (lo: Double(first) + 0.5 - cx - 1, hi: Double(last) + 0.5 - cx + 1)
                if !reflex {
                    let n0 = SectorRasterizer.halfLine(q0, -u0.y, atLeast: -margin, range)
                    let n1 = SectorRasterizer.halfLine(q1, u1.y, atLeast: -margin, range)
                    let f0 = SectorRasterizer.halfLine(q0, -u0.y, atLeast: margin, range)
                    let f1 = SectorRasterizer.halfLine(q1, u1.y, atLeast: margin, range)
                    a = SectorRasterizer.pixels(Swift.max(n0.lo, n1.lo), Swift.min(n0.hi, n1.hi), cx, widened: true)
                    b = SectorRasterizer.pixels(Swift.max(f0.lo, f1.lo), Swift.min(f0.hi, f1.hi), cx, widened: false)
                } else {
                    let e0 = SectorRasterizer.halfLine(q0, -u0.y, atMost: -margin, range)
                    let e1 = SectorRasterizer.halfLine(q1, u1.y, atMost: -margin, range)
                    let g0 = SectorRasterizer.halfLine(q0, -u0.y, atMost: margin, range)
                    let g1 = SectorRasterizer.halfLine(q1, u1.y, atMost: margin, range)
                    a = SectorRasterizer.pixels(Swift.max(e0.lo, e1.lo), Swift.min(e0.hi, e1.hi), cx, widened: false)
                    b = SectorRasterizer.pixels(Swift.max(g0.lo, g1.lo), Swift.min(g0.hi, g1.hi), cx, widened: true)
                }
            }
            var run = 0
            while run < 2 {
                defer { run += 1 }
                var lo = first, hi = last
                if holeFirst <= holeLast {
                    if run == 0 { hi = Swift.min(last, holeFirst - 1) } else { lo = Swift.max(first, holeLast + 1) }
                } else if run == 1 { break }
                guard lo <= hi else { continue }
                // Runs of one kind: the boundaries above cut the row into
                // at most a dozen. Inside everything: 255; outside: 0; on a
                // circle well inside the rays: the ring part four at a
                // time; near a ray: pixel by pixel.
                let fy = Float(py)
                var x = lo
                while x <= hi {
                    var end = hi
                    let ringWhole = SectorRasterizer.within(x, solid.first, solid.last, &end)
                        || SectorRasterizer.within(x, solid.first2, solid.last2, &end)
                    var empty = false, full = true
                    if !whole {
                        let inA = SectorRasterizer.within(x, a.first, a.last, &end)
                        let inB = SectorRasterizer.within(x, b.first, b.last, &end)
                        if !reflex { empty = !inA; full = inB } else { empty = inA; full = !inB }
                    }
                    if empty {
                        (out + (x - lo)).update(repeating: 0, count: end - x + 1)
                    } else if ringWhole && full {
                        (out + (x - lo)).update(repeating: 255, count: end - x + 1)
                    } else if full {
                        var k = x
                        while k <= end {
                            let px = (SIMD4<Double>(repeating: Double(k)) + SIMD4(0, 1, 2, 3)) + 0.5 - cx
                            let (ring, fallback) = sector.ringAreas(px: SIMD4<Float>(px), py: fy)
                            let n = Swift.min(4, end - k + 1)
                            var lane = 0
                            while lane < n {
                                // −1 and 2 make 0 and 255.
                                let c = fallback[lane] ? sector.ringArea(px: Float(px[lane]), py: fy) : ring[lane]
                                out[k + lane - lo] = AnnularSector.byte(Double(c))
                                lane += 1
                            }
                            k += 4
                        }
                    } else {
                        var k = x
                        while k <= end {
                            let px = Double(k) + 0.5 - cx
                            out[k - lo] = AnnularSector.byte(sector.wedgeArea(px: px, py: py,
                                                                               ring: ringWhole ? 2 : sector.ringArea(px: Float(px), py: fy)))
                            k += 1
                        }
                    }
                    x = end + 1
                }
                // Without the zeros at either end.
                var l = 0, h = hi - lo
                while l <= h && out[l] == 0 { l += 1 }
                while h >= l && out[h] == 0 { h -= 1 }
                if l <= h { spans(y, lo + l, UnsafePointer(out + l), h - l + 1) }
            }
        }
    }

    /// Whether `x` is in `first…last`; `end` is lowered to the last pixel
    /// from `x` on with the same answer.
    @inline(__always)
    static func within(_ x: Int, _ first: Int, _ last: Int, _ end: inout Int) -> Bool {
        if first > last { return false }
        if x < first { if first - 1 < end { end = first - 1 }; return false }
        if x <= last { if last < end { end = last }; return true }
        return false
    }

    /// The px (a pixel centre's offset from the centre along its row)
    /// where `q + k·px ≥ c`, as an interval within `range` (empty when
    /// lo > hi).
    @inline(__always)
    static func halfLine(_ q: Double, _ k: Double, atLeast c: Double, _ range: (lo: Double, hi: Double)) -> (lo: Double, hi: Double) {
        if k > 0 { return (Swift.max(range.lo, (c - q) / k), range.hi) }
        if k < 0 { return (range.lo, Swift.min(range.hi, (c - q) / k)) }
        return q >= c ? range : (1, 0)
    }

    /// The px where `q + k·px ≤ c`, as an interval within `range`.
    @inline(__always)
    static func halfLine(_ q: Double, _ k: Double, atMost c: Double, _ range: (lo: Double, hi: Double)) -> (lo: Double, hi: Double) {
        if k > 0 { return (range.lo, Swift.min(range.hi, (c - q) / k)) }
        if k < 0 { return (Swift.max(range.lo, (c - q) / k), range.hi) }
        return q <= c ? range : (1, 0)
    }

    /// The pixels whose centres' px lie in `lo…hi`: `widened`, every pixel
    /// that might (a pixel more either side); else only those that
    /// certainly do (10⁻⁶ in). `first > last` when none.
    @inline(__always)
    static func pixels(_ lo: Double, _ hi: Double, _ cx: Double, widened: Bool) -> (first: Int, last: Int) {
        guard lo <= hi else { return (1, 0) }
        if widened {
            return (floor(lo + cx - 0.5) - 1, ceil(hi + cx - 0.5) + 1)
        }
        return (ceil(lo + cx - 0.5 + 1e-6), floor(hi + cx - 0.5 - 1e-6))
    }

    /// `fill` through the reference: every pixel of the clip within the
    /// sector's `pixelBox` from `AnnularSector.coverage(x:y:)`, one span
    /// per row (zeros included).
    func fillReference(_ sector: AnnularSector, clip: IntRect,
                       spans: (_ y: Int, _ x: Int, _ coverage: UnsafePointer<UInt8>, _ count: Int) -> Void) {
        let box = sector.pixelBox.intersection(PathRasterizer.effectiveClip(clip))
        guard !box.isEmpty else { return }
        row.reserve(box.width, fill: 0)
        var y = box.y
        while y < box.maxY {
            var x = box.x
            while x < box.maxX { row.base[x - box.x] = sector.coverage(x: x, y: y); x += 1 }
            spans(y, box.x, UnsafePointer(row.base), box.width)
            y += 1
        }
    }

    /// ⌊v⌋ and ⌈v⌉ as `Int`, `v` clamped to ±2³⁰ first (NaN: −2³⁰): the
    /// row bounds, whatever the sector, stay far from `Int`'s range.
    @inline(__always) static func floor(_ v: Double) -> Int {
        let c = !(v >= -1_073_741_824) ? -1_073_741_824 : (v > 1_073_741_824 ? 1_073_741_824 : v)
        let t = Int(c)
        return Double(t) > c ? t &- 1 : t
    }

    @inline(__always) static func ceil(_ v: Double) -> Int {
        let c = !(v >= -1_073_741_824) ? -1_073_741_824 : (v > 1_073_741_824 ? 1_073_741_824 : v)
        let t = Int(c)
        return Double(t) < c ? t &+ 1 : t
    }
}

extension AnnularSector {
    /// The pixels the model may cover: `bounds` widened by one pixel, as
    /// whole pixels; empty for an empty or non-finite sector and past
    /// `SectorRasterizer.maximumRadius`.
    public var pixelBox: IntRect {
        guard outerRadius <= SectorRasterizer.maximumRadius else { return .zero }
        let b = bounds
        guard !b.isEmpty else { return .zero }
        return BoundingBox(minX: b.minX - 1, minY: b.minY - 1, maxX: b.maxX + 1, maxY: b.maxY + 1).enclosingIntRect
    }

    /// The sector's coverage of pixel (`x`, `y`), 0–255, by the model of
    /// `SectorRasterizer` (the reference its `fill` is compared with).
    public func coverage(x: Int, y: Int) -> UInt8 {
        let box = pixelBox
        guard x >= box.x, x < box.maxX, y >= box.y, y < box.maxY else { return 0 }
        return AnnularSector.byte(area(px: Double(x) + 0.5 - center.x, py: Double(y) + 0.5 - center.y))
    }

    /// Coverage 0…1 to a byte, rounded to nearest.
    @inline(__always) static func byte(_ c: Double) -> UInt8 {
        let v = c * 255 + 0.5
        return v >= 255 ? 255 : (v > 0 ? UInt8(truncatingIfNeeded: Int(v)) : 0)
    }

    /// The covered area (0…1) of the unit pixel square centred at offset
    /// (`px`, `py`) from the centre, by the model (`SectorRasterizer`).
    @inline(__always)
    func area(px: Double, py: Double) -> Double {
        wedgeArea(px: px, py: py, ring: ringArea(px: Float(px), py: Float(py)))
    }

    /// The model's area of the ring alone (the circles, not the rays): −1
    /// when the square lies wholly outside it (or is centred on the centre,
    /// which sectors drawn in closed form leave in their hole), 2 when no
    /// circle crosses it (wholly inside: area 1).
    ///
    /// Written in terms of A = |px|, B = |py| and d² rather than the unit
    /// radial vector (A/d, B/d): with T = t·d the half-plane area and the
    /// chord need only 1/(A·B) and 1/d⁴, so a pixel on a circle costs one
    /// square root and one division, which run side by side.
    /// `ringAreas(px:py:)` is the same, four pixels at a time.
    @inline(__always)
    func ringArea(px: Float, py: Float) -> Float {
        let d2 = px * px + py * py
        if !(d2 > 0) { return -1 }
        let d = d2.squareRoot()
        let a = px < 0 ? -px : px, b = py < 0 ? -py : py
        // How far the square reaches along the radius from its centre,
        // and the circles' distances t from it, all times d.
        let half = (a + b) * 0.5
        let outerT = Float(outerRadius) - d, innerT = Float(innerRadius) - d
        let outerD = outerT * d, innerD = innerT * d
        if outerD <= -half || innerD >= half { return -1 }
        let crossesOuter = outerD < half, crossesInner = innerD > -half
        if !crossesOuter && !crossesInner { return 2 }
        let hi = a > b ? a : b, lo = a > b ? b : a
        var outside: Float = 1, hole: Float = 0
        if lo == 0 {
            // On an axis through the centre: the edges are parallel to the
            // square's sides, the chord a whole side (∫ v² dv = 1/12).
            let correction = 1 / (24 * d)
            if crossesOuter { outside = outerT + 0.5 - correction }
            if crossesInner { hole = innerT + 0.5 - correction }
        } else {
            let d4 = d2 * d2
            let inverse = 1 / (a * b * d4)
            let inverseAB = d4 * inverse, inverseD4 = (a * b) * inverse
            let inverseA = b * inverseAB, inverseB = a * inverseAB
            let inverseHi = a > b ? inverseA : inverseB
            let h = d2 * 0.5
            // The half-plane area (triangle, trapezoid, square less a
            // triangle) less ∫ v²/2d dv along the chord, v = w/d:
            // (w₁³ − w₀³)/(6d⁴). On the line, |t·a − w·b| ≤ d²/2 and
            // |t·b + w·a| ≤ d²/2.
            @inline(__always) func edge(_ t: Float) -> Float {
                let u = t + (hi + lo) * 0.5
                let w = hi + lo - u
                let plane = u <= lo ? u * u * 0.5 * inverseAB : (u < hi ? (u - lo * 0.5) * inverseHi : 1 - w * w * 0.5 * inverseAB)
                let p = (t * a - h) * inverseB, q = (-h - t * b) * inverseA
                let r = (t * a + h) * inverseB, s = (h - t * b) * inverseA
                let w0 = p > q ? p : q, w1 = r < s ? r : s
                let cubes = w1 > w0 ? w1 * w1 * w1 - w0 * w0 * w0 : 0
                return plane - cubes * inverseD4 * (1.0 / 6)
            }
            if crossesOuter { outside = edge(outerD) }
            if crossesInner { hole = edge(innerD) }
        }
        let c = outside - hole
        return c < 0 ? 0 : (c > 1 ? 1 : c)
    }

    /// `ringArea(px:py:)` of four pixels of one row, lane by lane the same
    /// operations (every branch computed, then chosen), so the same bits;
    /// for the lanes in `fallback` (both circles cross the square, or the
    /// pixel centre is on an axis through the centre) call `ringArea`.
    @inline(__always)
    func ringAreas(px: SIMD4<Float>, py: Float) -> (areas: SIMD4<Float>, fallback: SIMDMask<SIMD4<Int32>>) {
        let y = SIMD4<Float>(repeating: py)
        let d2 = px * px + y * y
        let d = d2.squareRoot()
        let a = px.replacing(with: -px, where: px .< 0)
        let b = SIMD4<Float>(repeating: py < 0 ? -py : py)
        let half = (a + b) * 0.5
        let outerD = (Float(outerRadius) - d) * d, innerD = (Float(innerRadius) - d) * d
        let missed = (outerD .<= -half) .| (innerD .>= half) .| .!(d2 .> 0)
        let crossesOuter = outerD .< half, crossesInner = innerD .> -half
        let wider = a .> b
        let hi = b.replacing(with: a, where: wider), lo = a.replacing(with: b, where: wider)
        let d4 = d2 * d2
        let inverse = 1 / (a * b * d4)
        let inverseAB = d4 * inverse, inverseD4 = (a * b) * inverse
        let inverseA = b * inverseAB, inverseB = a * inverseAB
        let inverseHi = inverseB.replacing(with: inverseA, where: wider)
        let h = d2 * 0.5
        // One circle per lane: the outer one where it crosses, else the inner.
        let t = innerD.replacing(with: outerD, where: crossesOuter)
        let u = t + (hi + lo) * 0.5
        let w = hi + lo - u
        let plane = (1 - w * w * 0.5 * inverseAB).replacing(with: (u - lo * 0.5) * inverseHi, where: u .< hi)
            .replacing(with: u * u * 0.5 * inverseAB, where: u .<= lo)
        let p = (t * a - h) * inverseB, q = (-h - t * b) * inverseA
        let r = (t * a + h) * inverseB, s = (h - t * b) * inverseA
        let w0 = q.replacing(with: p, where: p .> q), w1 = s.replacing(with: r, where: r .< s)
        let cubes = (w1 * w1 * w1 - w0 * w0 * w0).replacing(with: 0, where: .!(w1 .> w0))
        let e = plane - cubes * inverseD4 * (1.0 / 6)
        // outside − hole, with the other term 1 (outer) or 0 (inner).
        let c = (1 - e).replacing(with: e, where: crossesOuter)
        let areas = c.replacing(with: 1, where: c .> 1).replacing(with: 0, where: c .< 0)
            .replacing(with: 2, where: .!crossesOuter .& .!crossesInner)
            .replacing(with: -1, where: missed)
        let fallback = .!missed .& ((crossesOuter .& crossesInner) .| (lo .== 0))
        return (areas, fallback)
    }

    /// The model's area given the ring's (`ringArea`): the rays decide,
    /// or clip the square where their lines cross it (`cornerArea`).
    @inline(__always)
    func wedgeArea(px: Double, py: Double, ring: Float) -> Double {
        if ring < 0 { return 0 }
        let part = ring > 1 ? 1 : Double(ring)
        if isWholeRing { return part }
        let u0 = startDirection, u1 = endDirection
        // Signed distances from the rays' lines, positive on the sector's
        // side, and how far the square reaches across each.
        let s0 = u0.x * py - u0.y * px, s1 = px * u1.y - py * u1.x
        let r0 = ((u0.x < 0 ? -u0.x : u0.x) + (u0.y < 0 ? -u0.y : u0.y)) * 0.5
        let r1 = ((u1.x < 0 ? -u1.x : u1.x) + (u1.y < 0 ? -u1.y : u1.y)) * 0.5
        // Up to half a turn the sector is where both half-planes hold;
        // past it, where either does. A square wholly on one side of a
        // line decides alone; one that a line crosses is clipped.
        if sweep <= 3.141_592_653_589_793 {
            if s0 <= -r0 || s1 <= -r1 { return 0 }
        } else if s0 >= r0 || s1 >= r1 {
            return part
        } else if s0 <= -r0 && s1 <= -r1 {
            return 0
        }
        let cross0 = s0 < r0 && s0 > -r0, cross1 = s1 < r1 && s1 > -r1
        guard cross0 || cross1 else { return part }
        if ring > 1 && cross0 != cross1 {
            // Inside both circles with one line across: its half-plane,
            // (u0.y, −u0.x) · q ≤ s0 or (−u1.y, u1.x) · q ≤ s1.
            let u = cross0 ? u0 : u1, s = cross0 ? s0 : s1
            let ax = u.x < 0 ? -u.x : u.x, ay = u.y < 0 ? -u.y : u.y
            let hi = ax > ay ? ax : ay, lo = ax > ay ? ay : ax
            let v = s + (hi + lo) * 0.5
            if v <= lo { return v * v / (2 * hi * lo) }
            if v < hi { return (v - lo * 0.5) / hi }
            return 1 - (hi + lo - v) * (hi + lo - v) / (2 * hi * lo)
        }
        let d = FloatMath.squareRoot(px * px + py * py)
        return cornerArea(px: px, py: py, d: d, tOuter: outerRadius - d, tInner: innerRadius - d, s0: s0, s1: s1,
                          cross0: cross0, cross1: cross1)
    }

    /// The model's area where a ray's line crosses the square and a circle
    /// or both rays do too: the square clipped by the circles' tangent
    /// lines where they cross it, then by the rays' half-planes (see
    /// `SectorRasterizer`).
    func cornerArea(px: Double, py: Double, d: Double, tOuter: Double, tInner: Double,
                    s0: Double, s1: Double, cross0: Bool, cross1: Bool) -> Double {
        let u0 = startDirection, u1 = endDirection
        let nx = px / d, ny = py / d
        let reach = ((nx < 0 ? -nx : nx) + (ny < 0 ? -ny : ny)) * 0.5
        let crossesOuter = tOuter < reach, crossesInner = tInner > -reach
        return withUnsafeTemporaryAllocation(of: Double.self, capacity: 64) { buffer in
            let p = buffer.baseAddress!
            // Four polygons of up to 8 vertices: xs at +0, ys at +8.
            let ring = p, first = p + 16, second = p + 32, scratch = p + 48
            var n = PixelPolygon.square(ring)
            if crossesOuter { n = PixelPolygon.clip(ring, n, nx, ny, tOuter, into: scratch); PixelPolygon.copy(scratch, n, to: ring) }
            if crossesInner { n = PixelPolygon.clip(ring, n, -nx, -ny, -tInner, into: scratch); PixelPolygon.copy(scratch, n, to: ring) }
            // The sector's side of the start ray's line: (u0.y, −u0.x) · q ≤ s0;
            // of the end ray's: (−u1.y, u1.x) · q ≤ s1. Up to half a turn a
            // line that misses the square leaves it wholly inside (see
            // `area`); past it, wholly outside.
            if sweep <= 3.141_592_653_589_793 {
                if cross0 { n = PixelPolygon.clip(ring, n, u0.y, -u0.x, s0, into: scratch); PixelPolygon.copy(scratch, n, to: ring) }
                if cross1 { n = PixelPolygon.clip(ring, n, -u1.y, u1.x, s1, into: scratch); PixelPolygon.copy(scratch, n, to: ring) }
                return PixelPolygon.area(ring, n)
            }
            let n0 = cross0 ? PixelPolygon.clip(ring, n, u0.y, -u0.x, s0, into: first) : 0
            let n1 = cross1 ? PixelPolygon.clip(ring, n, -u1.y, u1.x, s1, into: second) : 0
            let n01 = cross0 && cross1 ? PixelPolygon.clip(first, n0, -u1.y, u1.x, s1, into: scratch) : 0
            return PixelPolygon.area(first, n0) + PixelPolygon.area(second, n1) - PixelPolygon.area(scratch, n01)
        }
    }
}

/// Convex polygons of at most 8 vertices inside a pixel square (relative
/// to its centre), clipped by half-planes (Sutherland–Hodgman), in caller
/// storage: 8 xs, then 8 ys.
enum PixelPolygon {
    /// Writes the unit square; its vertex count.
    @inline(__always) static func square(_ p: UnsafeMutablePointer<Double>) -> Int {
        p[0] = -0.5; p[1] = 0.5; p[2] = 0.5; p[3] = -0.5
        p[8] = -0.5; p[9] = -0.5; p[10] = 0.5; p[11] = 0.5
        return 4
    }

    @inline(__always) static func copy(_ from: UnsafeMutablePointer<Double>, _ n: Int, to: UnsafeMutablePointer<Double>) {
        var i = 0
        while i < n { to[i] = from[i]; to[8 + i] = from[8 + i]; i += 1 }
    }

    /// The part of polygon `p` (`n` vertices) where `nx·x + ny·y ≤ t`,
    /// into `out`; its vertex count (a convex 4-gon clipped four times
    /// has at most 8).
    static func clip(_ p: UnsafeMutablePointer<Double>, _ n: Int, _ nx: Double, _ ny: Double, _ t: Double,
                     into out: UnsafeMutablePointer<Double>) -> Int {
        var m = 0, i = 0
        while i < n {
            let j = i + 1 == n ? 0 : i + 1
            let xi = p[i], yi = p[8 + i], xj = p[j], yj = p[8 + j]
            let fi = nx * xi + ny * yi - t, fj = nx * xj + ny * yj - t
            if fi <= 0 && m < 8 { out[m] = xi; out[8 + m] = yi; m += 1 }
            if ((fi < 0 && fj > 0) || (fi > 0 && fj < 0)) && m < 8 {
                let s = fi / (fi - fj)
                out[m] = xi + (xj - xi) * s; out[8 + m] = yi + (yj - yi) * s; m += 1
            }
            i += 1
        }
        return m
    }

    /// Shoelace formula.
    static func area(_ p: UnsafeMutablePointer<Double>, _ n: Int) -> Double {
        guard n >= 3 else { return 0 }
        var twice = 0.0, i = 0
        while i < n {
            let j = i + 1 == n ? 0 : i + 1
            twice += p[i] * p[8 + j] - p[j] * p[8 + i]
            i += 1
        }
        return (twice < 0 ? -twice : twice) * 0.5
    }
}
