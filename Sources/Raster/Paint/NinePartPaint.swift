/// Nine-part stretching of an image onto a destination rectangle, as
/// `CALayer.contentsCenter` does: the image's source region (`contentsRect`)
/// is cut by `contentsCenter` (a unit rectangle relative to that region) into
/// a 3×3 grid; corners keep their size in texels (one texel per destination
/// pixel), the top and bottom edges stretch horizontally, the left and right
/// edges vertically, and the centre both ways. When the destination is
/// smaller than the two fixed parts of an axis, both shrink in proportion and
/// the centre vanishes (Core Animation does the same).
///
/// **No seams.** Every destination pixel belongs to exactly one part (by its
/// centre), and each part samples with clamping inside its own texels, so no
/// filter tap crosses into a neighbouring part: a uniform image gives a
/// uniform result, and a part boundary is never a blend of two parts.
///
/// The destination is axis-aligned (`bounds` in destination pixels); pixels
/// outside it are transparent. Filters: nearest or bilinear (`.trilinear` is
/// treated as bilinear). Bad input (empty or huge image, non-finite or empty
/// rectangles) paints nothing. The caller keeps the image memory alive.
public final class NinePartPaint: Paint {
    /// One axis of the grid: destination boundaries `d`, the first source
    /// point `s` and the scale (texels per pixel) of each part, and the
    /// texel range each part may read.
    struct Axis {
        var d: (Double, Double, Double, Double) = (0, 0, 0, 0)
        var s: (Double, Double, Double) = (0, 0, 0)
        var scale: (Double, Double, Double) = (0, 0, 0)
        var texels: ((Int32, Int32), (Int32, Int32), (Int32, Int32)) = ((0, 0), (0, 0), (0, 0))

        /// `origin`/`length` in destination pixels; `start`/`size` the
        /// region in texels; `c0`/`c1` the centre's unit edges.
        init(origin: Double, length: Double, start: Int, size: Int, c0: Double, c1: Double) {
            let r = Double(size), s0 = Double(start)
            let lo = Swift.min(Swift.max(c0, 0), 1), hi = Swift.max(Swift.min(c1, 1), lo)
            let left = lo * r, right = (1 - hi) * r
            var dl = left, dr = right
            if left + right > length {
                let f = left + right > 0 ? length / (left + right) : 0
                dl = left * f; dr = length - dl
            }
            d = (origin, origin + dl, origin + length - dr, origin + length)
            let src = (s0, s0 + left, s0 + r - right, s0 + r)
            s = (src.0, src.1, src.2)
            func sc(_ ds: Double, _ dd: Double) -> Double { dd > 0 ? ds / dd : 0 }
            scale = (sc(src.1 - src.0, d.1 - d.0), sc(src.2 - src.1, d.2 - d.1), sc(src.3 - src.2, d.3 - d.2))
            // Each part's texels: its source span rounded to whole texels,
            // at least one texel, inside the region.
            let end = Int32(start + size)
            func texelRange(_ a: Double, _ b: Double) -> (Int32, Int32) {
                var t0 = Int32(FloatMath.round(a)), t1 = Int32(FloatMath.round(b))
                if t1 <= t0 { t0 = Swift.min(t0, end - 1); t1 = t0 + 1 }
                return (t0, t1)
            }
            texels = (texelRange(src.0, src.1), texelRange(src.1, src.2), texelRange(src.2, src.3))
        }

        func boundary(_ k: Int) -> Double {
            switch k { case 0: return d.0; case 1: return d.1; case 2: return d.2; default: return d.3 }
        }
        func part(_ k: Int) -> (s: Double, scale: Double, texels: (Int32, Int32)) {
            switch k {
            case 0: return (s.0, scale.0, texels.0)
            case 1: return (s.1, scale.1, texels.1)
            default: return (s.2, scale.2, texels.2)
            }
        }
        /// The first pixel whose centre is at or after `v`.
        static func firstPixel(atOrAfter v: Double) -> Int {
            let p = FloatMath.ceil(v - 0.5)
            if p < -1e15 { return Int.min / 2 }
            if p > 1e15 { return Int.max / 2 }
            return Int(p)
        }
    }

    let source: SampleSource?
    let x: Axis, y: Axis
    public let filter: ImageFilter
    public var isOpaque: Bool { false }

    /// - Parameters:
    ///   - contentsRect: the source region, unit coordinates of the image.
    ///   - contentsCenter: the stretchable centre, unit coordinates of the
    ///     source region (`(0, 0, 1, 1)` stretches the whole region).
    ///   - bounds: the destination rectangle, pixels.
    public init(image: PixelView<ARGB8888>, contentsRect: PaintRect = .unit, contentsCenter: PaintRect,
                bounds: PaintRect, filter: ImageFilter = .bilinear) {
        self.filter = filter
        guard let region = ImagePaint.sourceRegion(image, contentsRect), contentsCenter.isFinite, bounds.isFinite,
              bounds.width > 0, bounds.height > 0, bounds.width < 1e9, bounds.height < 1e9 else {
            source = nil
            x = Axis(origin: 0, length: 0, start: 0, size: 1, c0: 0, c1: 1)
            y = x
            return
        }
        source = SampleSource(image)
        x = Axis(origin: bounds.x, length: bounds.width, start: region.x, size: region.width,
                 c0: contentsCenter.x, c1: contentsCenter.maxX)
        y = Axis(origin: bounds.y, length: bounds.height, start: region.y, size: region.height,
                 c0: contentsCenter.y, c1: contentsCenter.maxY)
    }

    public func shade(x px: Int, y py: Int, count: Int, into span: UnsafeMutablePointer<UInt32>, family: KernelFamily) {
        guard count > 0 else { return }
        span.update(repeating: 0, count: count)
        guard let source else { return }
        let yc = Double(py) + 0.5
        // The row's part: the k with d_k ≤ yc < d_k+1.
        var row = -1
        for k in 0..<3 where y.boundary(k) <= yc && yc < y.boundary(k + 1) { row = k }
        if row < 0 { return }
        let rp = y.part(row)
        let v = rp.s + (yc - y.boundary(row)) * rp.scale
        let f: ImageSampler.Filter = filter == .nearest ? .nearest : .bilinear
        for k in 0..<3 {
            let cp = x.part(k)
            let first = Swift.max(Axis.firstPixel(atOrAfter: x.boundary(k)), px)
            let end = Swift.min(Axis.firstPixel(atOrAfter: x.boundary(k + 1)), px + count)
            if first >= end { continue }
            let part = source.limited(x0: cp.texels.0, y0: rp.texels.0, x1: cp.texels.1, y1: rp.texels.1)
            let u = cp.s + (Double(first) + 0.5 - x.boundary(k)) * cp.scale
            ImageSampler.affineRow(part, filter: f, edge: .clamp, start: (u, v), step: (cp.scale, 0),
                                   count: end - first, into: span + (first - px), family: family)
        }
    }
}
