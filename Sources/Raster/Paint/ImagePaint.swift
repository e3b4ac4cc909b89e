/// How an image is resampled.
public enum ImageFilter: Sendable {
    /// The texel containing the point (`kCAFilterNearest`).
    case nearest
    /// Bilinear between the four nearest texel centres, 8-bit weights
    /// (`kCAFilterLinear`).
    case bilinear
    /// Bilinear in the two mip levels around the transform's scale, blended
    /// (`kCAFilterTrilinear`). The mip chain comes from `init` (a `MipMaps`
    /// the caller keeps between draws, or one built there).
    case trilinear
}

/// An image pattern: a premultiplied ARGB8888 image placed in the
/// destination by an affine or projective transform and resampled.
///
/// The transform maps image pixel space (texel (i, j) covers
/// [i, i+1)×[j, j+1)) to destination pixel space. Only the source region
/// (`contentsRect`, in unit coordinates of the image as in `CALayer`, rounded
/// to whole texels and limited to the image) is sampled; outside it the edge
/// mode decides (transparent, or the nearest texel of the region).
///
/// **Ownership.** The paint reads the image's memory at every `shade` and
/// does not own it: the caller keeps the memory alive and unchanged while the
/// paint is in use (with `.trilinear`, changes made after the mip chain was
/// built are not in it). The paint is a value; it shares the mip chain
/// (`MipMaps`, a class) it was given or built.
///
/// **Bad input** paints nothing (every pixel transparent): an empty image, an
/// image wider or taller than `RasterLimits.maxDimension` (16.16 positions
/// cannot address it; a 100000×1 strip is refused, not misread), a
/// non-finite or singular transform, a non-finite or empty `contentsRect`.
///
/// - Complexity: `init` is O(1) and allocates nothing, or with `.trilinear`
///   and no `MipMaps` given O(pixels) (the mip chain, ⅓ of the image's
///   memory); `shade` is O(count) with no allocation.
public struct ImagePaint: Paint {
    @usableFromInline
    enum Mapping {
        case nothing
        /// Destination → image.
        case affine(AffineTransform)
        /// Destination → image, a scale and a translation only (`b = c = 0`),
        /// sampled bilinearly: the table-driven rows of
        /// ImageSampling+Scaled.swift, chosen here once per draw.
        case scaled(AffineTransform)
        /// Destination → image, homogeneous.
        case projective(ProjectiveTransform)
    }

    @usableFromInline let mapping: Mapping
    public let filter: ImageFilter
    public let edge: ImageEdge
    /// Level 0: the image itself, limited to the source region.
    @usableFromInline let level0: SampleSource
    /// With `.trilinear`: levels 1…, level k 2ᵏ times smaller (2×2 box
    /// filter, ceil sizes); `nil` otherwise.
    let mipMaps: MipMaps?
    /// The source region in level-0 texels (levels k ≥ 1 are limited to it
    /// scaled by 2⁻ᵏ, rounded outward).
    let region: IntRect
    /// 1 + the levels of `mipMaps`.
    let levelCount: Int
    /// For affine trilinear: the level and the 0…255 weight of the next one.
    let affineLOD: (level: Int, fraction: UInt32)
    /// Added to the level of detail of trilinear sampling (Core
    /// Animation's `minificationFilterBias`): positive is blurrier.
    let levelOfDetailBias: Double
    public let isOpaque: Bool
    /// With an affine map and transparent edges: the destination box of the
    /// source region grown by a margin (below); `nil` otherwise.
    public let paintedBounds: IntRect?
    /// With `.scaled`: the taps kept between rows (and draws), if the
    /// caller has a scratch; and the destination column the draw reaches,
    /// how far to build them.
    let scratch: ImageSamplingScratch?
    let scaledEnd: Int

    /// An image under an affine `transform` (image pixels → destination).
    /// `imageIsOpaque` declares every texel opaque; the paint is opaque only
    /// if also `edge == .clamp`.
    /// `mipMaps`, used with `.trilinear`, is the chain of this image kept by
    /// the caller between draws (`MipMaps(image)`); without it, or when it
    /// was built for an image of another size, the paint builds its own.
    /// `scratch`: where a bilinear or trilinear draw under a scale and a
    /// translation keeps its horizontal taps, computed once per draw
    /// instead of once per row piece (the same pixels either way); the
    /// paint uses it from the thread that shades it and must not outlive
    /// the caller's use of it.
    /// `levelOfDetailBias`, with `.trilinear`: levels added to the mip
    /// level the footprint asks for (Core Animation's
    /// `minificationFilterBias`): 1 samples from images half as large
    /// (blurrier), −1 twice as large (sharper, more aliasing); limited to
    /// ±16, a non-finite bias is 0.
    public init(image: PixelView<ARGB8888>, transform: AffineTransform, filter: ImageFilter = .bilinear,
                edge: ImageEdge = .transparent, contentsRect: PaintRect = .unit, imageIsOpaque: Bool = false,
                mipMaps: MipMaps? = nil, scratch: ImageSamplingScratch? = nil, levelOfDetailBias: Double = 0) {
        let m: Mapping = transform.inverted().map { .affine($0) } ?? .nothing
        self.init(image: image, mapping: m, filter: filter, edge: edge, contentsRect: contentsRect, imageIsOpaque: imageIsOpaque,
                  mipMaps: mipMaps, scratch: scratch, levelOfDetailBias: levelOfDetailBias)
    }

    /// An image under a projective `transform` (image pixels → destination),
    /// sampled perspective-correctly (one division per pixel). Parts of the
    /// image behind the eye (W ≤ 0) are not drawn. With `.trilinear` the
    /// level is chosen per pixel.
    public init(image: PixelView<ARGB8888>, projective transform: ProjectiveTransform, filter: ImageFilter = .bilinear,
                edge: ImageEdge = .transparent, contentsRect: PaintRect = .unit, mipMaps: MipMaps? = nil,
                levelOfDetailBias: Double = 0) {
        let m: Mapping
        if transform.isAffine {
            let a = AffineTransform(a: transform.m00, b: transform.m10, c: transform.m01, d: transform.m11, tx: transform.m02, ty: transform.m12)
            m = a.inverted().map { .affine($0) } ?? .nothing
        } else {
            m = transform.inverted().map { .projective($0) } ?? .nothing
        }
        self.init(image: image, mapping: m, filter: filter, edge: edge, contentsRect: contentsRect, imageIsOpaque: false,
                  mipMaps: mipMaps, scratch: nil, levelOfDetailBias: levelOfDetailBias)
    }

    /// Layer contents: the `contentsRect` part of `image` stretched onto
    /// `bounds` (destination pixels, before `transform`), as `CALayer` draws
    /// with `contentsGravity = .resize`; `transform` then maps the layer to
    /// the destination.
    public static func contents(_ image: PixelView<ARGB8888>, contentsRect: PaintRect = .unit, bounds: PaintRect,
                                transform: AffineTransform = .identity, filter: ImageFilter = .bilinear,
                                edge: ImageEdge = .transparent, imageIsOpaque: Bool = false) -> ImagePaint {
        let rx = contentsRect.x * Double(image.width), ry = contentsRect.y * Double(image.height)
        let rw = contentsRect.width * Double(image.width), rh = contentsRect.height * Double(image.height)
        let sx = bounds.width / rw, sy = bounds.height / rh
        let place = AffineTransform(a: sx, b: 0, c: 0, d: sy, tx: bounds.x - rx * sx, ty: bounds.y - ry * sy)
        return ImagePaint(image: image, transform: place.concatenating(transform), filter: filter, edge: edge,
                          contentsRect: contentsRect, imageIsOpaque: imageIsOpaque)
    }

    init(image: PixelView<ARGB8888>, mapping: Mapping, filter: ImageFilter, edge: ImageEdge,
         contentsRect: PaintRect, imageIsOpaque: Bool, mipMaps given: MipMaps?, scratch: ImageSamplingScratch?,
         levelOfDetailBias: Double = 0) {
        self.filter = filter
        self.edge = edge
        let bias = levelOfDetailBias.isFinite ? Swift.min(Swift.max(levelOfDetailBias, -16), 16) : 0
        self.levelOfDetailBias = bias
        let region = ImagePaint.sourceRegion(image, contentsRect)
        guard let region, !ImagePaint.isNothing(mapping) else {
            self.mapping = .nothing
            level0 = SampleSource(base: UnsafePointer(image.base), rowStride: 0, x0: 0, y0: 0, x1: 0, y1: 0)
            mipMaps = nil
            self.region = .zero
            levelCount = 1
            affineLOD = (0, 0)
            isOpaque = false
            paintedBounds = .zero
            self.scratch = nil
            scaledEnd = 0
            return
        }
        // The row loop, once per draw: a map with neither rotation nor
        // shear samples bilinearly from a table of horizontal taps.
        var m = mapping
        if case let .affine(inv) = mapping, inv.b == 0, inv.c == 0, filter != .nearest { m = .scaled(inv) }
        self.mapping = m
        level0 = SampleSource(image).limited(x0: Int32(region.x), y0: Int32(region.y),
                                             x1: Int32(region.maxX), y1: Int32(region.maxY))
        self.region = region
        if filter == .trilinear {
            let chain = given.flatMap { $0.width == image.width && $0.height == image.height ? $0 : nil } ?? MipMaps(image)
            mipMaps = chain
            levelCount = 1 + chain.levels.count
        } else {
            mipMaps = nil
            levelCount = 1
        }
        let affine = ImagePaint.affineInverse(m)
        if let inv = affine, filter == .trilinear {
            affineLOD = ImagePaint.levelOfDetail(dudx: inv.a, dvdx: inv.b, dudy: inv.c, dvdy: inv.d, levels: levelCount, bias: bias)
        } else {
            affineLOD = (0, 0)
        }
        isOpaque = affine != nil && imageIsOpaque && edge == .clamp
        if let inv = affine, edge == .transparent {
            // A sample is non-zero only if a tap is in the region: bilinear
            // points within 1 + 1/512 texel of it, nearest points inside it.
            // 2 texels leave ~1 texel for 16.16 stepping drift (2⁻¹⁷ texel
            // per pixel: spans up to ~100000 pixels). Level l+1 of a
            // trilinear draw has texels 2^(l+1) wide and its region is
            // rounded out by less than one of them.
            var margin = 2.0
            if filter == .trilinear {
                margin = 6                                          // 3·2^(l+1)
                for _ in 0..<affineLOD.level { margin *= 2 }
            }
            paintedBounds = ImagePaint.destinationBox(inv, region, margin: margin)
        } else {
            paintedBounds = nil
        }
        if case let .scaled(inv) = m {
            self.scratch = scratch
            let box = paintedBounds ?? ImagePaint.destinationBox(inv, region, margin: 2)
            scaledEnd = box?.maxX ?? Int.max
        } else {
            self.scratch = nil
            scaledEnd = 0
        }
    }

    /// The inverse of an affine mapping (destination → image); `nil` for
    /// the others.
    static func affineInverse(_ m: Mapping) -> AffineTransform? {
        switch m {
        case .affine(let inv), .scaled(let inv): return inv
        case .nothing, .projective: return nil
        }
    }

    /// Integer destination bounds of `region` grown by `margin` texels under
    /// the inverse of `inv`, plus 2 pixels for rounding; `nil` when that is
    /// not representable.
    static func destinationBox(_ inv: AffineTransform, _ region: IntRect, margin: Double) -> IntRect? {
        guard let forward = inv.inverted() else { return nil }
        let xs = (Double(region.x) - margin, Double(region.maxX) + margin)
        let ys = (Double(region.y) - margin, Double(region.maxY) + margin)
        // The four corners written out: a loop over an array literal, or a
        // local function updating `lo`/`hi`, allocates in debug builds.
        let q0 = forward.apply(x: xs.0, y: ys.0), q1 = forward.apply(x: xs.1, y: ys.0)
        let q2 = forward.apply(x: xs.0, y: ys.1), q3 = forward.apply(x: xs.1, y: ys.1)
        let lo = (x: Swift.min(Swift.min(q0.x, q1.x), Swift.min(q2.x, q3.x)), y: Swift.min(Swift.min(q0.y, q1.y), Swift.min(q2.y, q3.y)))
        let hi = (x: Swift.max(Swift.max(q0.x, q1.x), Swift.max(q2.x, q3.x)), y: Swift.max(Swift.max(q0.y, q1.y), Swift.max(q2.y, q3.y)))
        let limit = Double(1 << 40)
        guard lo.x > -limit, lo.y > -limit, hi.x < limit, hi.y < limit else { return nil }
        let x0 = Int(FloatMath.floor(lo.x)) - 2, y0 = Int(FloatMath.floor(lo.y)) - 2
        let x1 = Int(FloatMath.ceil(hi.x)) + 2, y1 = Int(FloatMath.ceil(hi.y)) + 2
        return IntRect(x: x0, y: y0, width: x1 - x0, height: y1 - y0)
    }

    /// Level `l` limited to the source region (0 ≤ l < `levelCount`).
    @inline(__always)
    func level(_ l: Int) -> SampleSource {
        l == 0 ? level0 : mipMaps.unsafelyUnwrapped.level(l, region: region)
    }

    static func isNothing(_ m: Mapping) -> Bool {
        if case .nothing = m { return true }
        return false
    }

    /// `contentsRect` in whole texels, limited to the image; `nil` when
    /// empty, not finite, or the image is empty or too large.
    static func sourceRegion(_ image: PixelView<ARGB8888>, _ r: PaintRect) -> IntRect? {
        let w = image.width, h = image.height
        guard w > 0, h > 0, w <= RasterLimits.maxDimension, h <= RasterLimits.maxDimension, r.isFinite else { return nil }
        func edge(_ v: Double, _ size: Int) -> Int {
            let p = FloatMath.round(v * Double(size))
            return p <= 0 ? 0 : (p >= Double(size) ? size : Int(p))
        }
        let x0 = edge(Swift.min(r.x, r.maxX), w), x1 = edge(Swift.max(r.x, r.maxX), w)
        let y0 = edge(Swift.min(r.y, r.maxY), h), y1 = edge(Swift.max(r.y, r.maxY), h)
        guard x1 > x0, y1 > y0 else { return nil }
        return IntRect(x: x0, y: y0, width: x1 - x0, height: y1 - y0)
    }

    /// The mip level for a footprint with these derivatives (image texels
    /// per destination pixel): λ = log₂ of the longer of the two footprint
    /// axes; level ⌊λ⌋ blended with the next by (λ − ⌊λ⌋), 8-bit. λ ≤ 0
    /// (magnification) is level 0 alone.
    static func levelOfDetail(dudx: Double, dvdx: Double, dudy: Double, dvdy: Double, levels: Int,
                              bias: Double = 0) -> (level: Int, fraction: UInt32) {
        let lx = dudx * dudx + dvdx * dvdx, ly = dudy * dudy + dvdy * dvdy
        let lambda = 0.5 * FloatMath.approximateLog2(lx > ly ? lx : ly) + bias
        if !(lambda > 0) { return (0, 0) }
        let top = Double(levels - 1)
        if lambda >= top { return (levels - 1, 0) }
        let l = FloatMath.floor(lambda)
        return (Int(l), UInt32(FloatMath.floor((lambda - l) * 256)))
    }

    // MARK: Shading

    public func shade(x: Int, y: Int, count: Int, into span: UnsafeMutablePointer<UInt32>, family: KernelFamily) {
        guard count > 0 else { return }
        switch mapping {
        case .nothing:
            span.update(repeating: 0, count: count)
        case .affine(let inv):
            let p = inv.apply(x: Double(x) + 0.5, y: Double(y) + 0.5)
            let step = (x: inv.a, y: inv.b)
            switch filter {
            case .nearest:
                ImageSampler.affineRow(level0, filter: .nearest, edge: edge, start: p, step: step, count: count, into: span, family: family)
            case .bilinear:
                ImageSampler.affineRow(level0, filter: .bilinear, edge: edge, start: p, step: step, count: count, into: span, family: family)
            case .trilinear:
                shadeAffineTrilinear(p, step, x, count, span, family)
            }
        case .scaled(let inv):
            let p = inv.apply(x: Double(x) + 0.5, y: Double(y) + 0.5)
            let step = (x: inv.a, y: inv.b)
            if filter == .trilinear {
                shadeAffineTrilinear(p, step, x, count, span, family)
            } else {
                ImageSampler.scaledRow(level0, edge: edge, start: p, step: step, x: x, count: count, into: span, family: family,
                                       scratch: scratch, end: scaledEnd)
            }
        case .projective(let inv):
            switch filter {
            case .nearest:
                ImageSampler.projectiveRow(level0, filter: .nearest, edge: edge, inverse: inv, x: x, y: y, scale: 1, count: count, into: span, family: family)
            case .bilinear:
                ImageSampler.projectiveRow(level0, filter: .bilinear, edge: edge, inverse: inv, x: x, y: y, scale: 1, count: count, into: span, family: family)
            case .trilinear:
                switch edge {
                case .transparent: shadeProjectiveTrilinear(TransparentEdge.self, inv, x, y, count, span)
                case .clamp: shadeProjectiveTrilinear(ClampEdge.self, inv, x, y, count, span)
                }
            }
        }
    }

    /// Level l into `span`, level l+1 into a stack chunk, then the 8-bit
    /// blend. Both levels go through the family's bilinear row, so the
    /// families agree.
    func shadeAffineTrilinear(_ p: (x: Double, y: Double), _ step: (x: Double, y: Double), _ x: Int, _ count: Int,
                              _ span: UnsafeMutablePointer<UInt32>, _ family: KernelFamily) {
        let (l, f) = affineLOD
        let s0 = levelScale(l)
        levelRow(l, start: (p.x * s0, p.y * s0), step: (step.x * s0, step.y * s0), x: x, count: count, into: span, family: family)
        if f == 0 { return }
        let s1 = levelScale(l + 1)
        let chunk = 256
        withUnsafeTemporaryAllocation(of: UInt32.self, capacity: chunk) { buffer in
            let tmp = buffer.baseAddress!
            var i = 0
            while i < count {
                let n = Swift.min(chunk, count - i)
                let di = Double(i)
                levelRow(l + 1, start: ((p.x + di * step.x) * s1, (p.y + di * step.y) * s1),
                         step: (step.x * s1, step.y * s1), x: x + i, count: n, into: tmp, family: family)
                ImageSampler.lerpRow(span + i, tmp, f, count: n, family: family)
                i += n
            }
        }
    }

    /// A bilinear row of level `l`: the scaled rows when the map has
    /// neither rotation nor shear, the general affine ones otherwise.
    @inline(__always)
    func levelRow(_ l: Int, start: (x: Double, y: Double), step: (x: Double, y: Double), x: Int, count: Int,
                  into span: UnsafeMutablePointer<UInt32>, family: KernelFamily) {
        if case .scaled = mapping {
            ImageSampler.scaledRow(level(l), edge: edge, start: start, step: step, x: x, count: count, into: span, family: family,
                                   scratch: scratch, end: scaledEnd)
        } else {
            ImageSampler.affineRow(level(l), filter: .bilinear, edge: edge, start: start, step: step, count: count, into: span,
                                   family: family)
        }
    }

    @inline(__always)
    func levelScale(_ l: Int) -> Double {
        var s = 1.0
        var k = 0
        while k < l { s *= 0.5; k &+= 1 }
        return s
    }

    /// Per pixel: the image point, the footprint from the derivatives of the
    /// projective map there, the level, and two bilinear samples blended.
    func shadeProjectiveTrilinear<E: EdgeRule>(_: E.Type, _ m: ProjectiveTransform, _ x: Int, _ y: Int, _ count: Int,
                                               _ span: UnsafeMutablePointer<UInt32>) {
        let px = Double(x) + 0.5, py = Double(y) + 0.5
        let X0 = m.m00 * px + m.m01 * py + m.m02
        let Y0 = m.m10 * px + m.m11 * py + m.m12
        let W0 = m.m20 * px + m.m21 * py + m.m22
        let n = levelCount
        var i = 0
        while i < count {
            let di = Double(i)
            let w = W0 + di * m.m20
            guard w > 0 else { span[i] = 0; i &+= 1; continue }
            let r = 1 / w
            let u = (X0 + di * m.m00) * r, v = (Y0 + di * m.m10) * r
            // d(X/W)/dx = (m00 − u·m20)/W, and so on.
            let (l, f) = ImagePaint.levelOfDetail(dudx: (m.m00 - u * m.m20) * r, dvdx: (m.m10 - v * m.m20) * r,
                                                  dudy: (m.m01 - u * m.m21) * r, dvdy: (m.m11 - v * m.m21) * r, levels: n,
                                                  bias: levelOfDetailBias)
            let s0 = levelScale(l)
            let a = ImageSampler.bilinear(E.self, level(l), Fixed16(ImageSampler.clampToBox(u * s0 - ImageSampler.bilinearShift)).raw,
                                          Fixed16(ImageSampler.clampToBox(v * s0 - ImageSampler.bilinearShift)).raw)
            if f == 0 {
                span[i] = a
            } else {
                let s1 = s0 * 0.5
                let b = ImageSampler.bilinear(E.self, level(l + 1), Fixed16(ImageSampler.clampToBox(u * s1 - ImageSampler.bilinearShift)).raw,
                                              Fixed16(ImageSampler.clampToBox(v * s1 - ImageSampler.bilinearShift)).raw)
                span[i] = ImageSampler.lerp(a, b, f)
            }
            i &+= 1
        }
    }
}

/// The mip chain of one image (levels 1… down to 1×1, whole), built once
/// and shared by the `ImagePaint`s that draw the image, so a trilinear draw
/// repeated every frame does not rebuild it. Rebuild it when the image's
/// pixels change.
public final class MipMaps {
    /// Level 0's size, pixels.
    public let width: Int, height: Int
    let storage: UnsafeMutablePointer<UInt32>?
    /// Levels 1…, each whole (not limited to a region).
    let levels: [SampleSource]

    /// Builds the chain of `image` (see `MipChain`).
    /// - Complexity: O(width·height), one allocation of about ⅓ of the image.
    public init(_ image: PixelView<ARGB8888>) {
        width = image.width
        height = image.height
        (storage, levels) = MipChain.build(image, region: image.bounds)
    }

    deinit { storage?.deallocate() }

    /// Level `k` (≥ 1) limited to `region` (level-0 texels) scaled by 2⁻ᵏ,
    /// rounded outward: what `MipChain.build` gives for that region.
    @inline(__always)
    func level(_ k: Int, region: IntRect) -> SampleSource {
        let whole = levels[k - 1]
        let one = 1 << k
        let x1 = Swift.min(Int32(truncatingIfNeeded: (region.maxX + one - 1) >> k), whole.x1)
        let y1 = Swift.min(Int32(truncatingIfNeeded: (region.maxY + one - 1) >> k), whole.y1)
        return whole.limited(x0: Int32(truncatingIfNeeded: region.x >> k), y0: Int32(truncatingIfNeeded: region.y >> k), x1: x1, y1: y1)
    }
}

/// The mip chain of an image: each level the 2×2 box average of the one
/// above, `(a + b + c + d + 2) >> 2` per channel, sizes rounded up (the last
/// column or row of an odd size is averaged with itself).
public enum MipChain {
    /// Builds levels 1… of `image` until 1×1, in one allocation the caller
    /// owns; each level's region is `region` scaled by 2⁻ᵏ, rounded outward.
    /// - Complexity: O(width·height), one allocation of about ⅓ of the image.
    public static func build(_ image: PixelView<ARGB8888>, region: IntRect) -> (UnsafeMutablePointer<UInt32>?, [SampleSource]) {
        var sizes: [(Int, Int)] = []
        var w = image.width, h = image.height
        var total = 0
        while w > 1 || h > 1 {
            w = (w + 1) / 2; h = (h + 1) / 2
            sizes.append((w, h))
            total += w * h
        }
        guard total > 0 else { return (nil, []) }
        let storage = UnsafeMutablePointer<UInt32>.allocate(capacity: total)
        var levels: [SampleSource] = []
        var src = UnsafePointer(image.base), srcStride = image.rowStride, srcW = image.width, srcH = image.height
        var dst = storage
        var k = 1
        for (lw, lh) in sizes {
            var yy = 0
            while yy < lh {
                let r0 = src + (2 * yy) * srcStride
                let r1 = src + Swift.min(2 * yy + 1, srcH - 1) * srcStride
                let out = dst + yy * lw
                var xx = 0
                while xx < lw {
                    let xa = 2 * xx, xb = Swift.min(2 * xx + 1, srcW - 1)
                    out[xx] = box(r0[xa], r0[xb], r1[xa], r1[xb])
                    xx += 1
                }
                yy += 1
            }
            let one = 1 << k
            let x0 = region.x >> k, y0 = region.y >> k
            let x1 = Swift.min((region.maxX + one - 1) >> k, lw), y1 = Swift.min((region.maxY + one - 1) >> k, lh)
            levels.append(SampleSource(base: UnsafePointer(dst), rowStride: lw, x0: Int32(x0), y0: Int32(y0), x1: Int32(x1), y1: Int32(y1)))
            src = UnsafePointer(dst); srcStride = lw; srcW = lw; srcH = lh
            dst += lw * lh
            k += 1
        }
        return (storage, levels)
    }

    /// The rounded mean of four premultiplied pixels, per channel.
    @inlinable @inline(__always)
    public static func box(_ a: UInt32, _ b: UInt32, _ c: UInt32, _ d: UInt32) -> UInt32 {
        let m: UInt32 = 0x00FF_00FF
        let rb = (a & m) &+ (b & m) &+ (c & m) &+ (d & m) &+ 0x0002_0002
        let ag = ((a &>> 8) & m) &+ ((b &>> 8) & m) &+ ((c &>> 8) & m) &+ ((d &>> 8) & m) &+ 0x0002_0002
        return ((rb &>> 2) & m) | (((ag &>> 2) & m) &<< 8)
    }
}
