import XCTest
import Raster
import TestSupport

final class ImagePaintTests: XCTestCase {
    let picture = PaintFixtures.picture()

    /// Four 100×100 panels: scale 0.5×, scale 1.5×, rotation 30° (about the
    /// picture's centre, at scale 1.2), and a perspective quad.
    private func panels(_ filter: ImageFilter) -> Surface<ARGB8888> {
        let (s, canvas) = PaintFixtures.backdrop(width: 4 * 104, height: 100)
        let img = picture.view
        let transforms: [AffineTransform] = [
            .scale(x: 0.5, y: 0.5).concatenating(.translation(x: 30.25, y: 30.5)),
            .scale(x: 1.5, y: 1.5).concatenating(.translation(x: 104 + 2.3, y: 1.7)),
            AffineTransform.translation(x: -32, y: -32).concatenating(.scale(x: 1.2, y: 1.2))
                .concatenating(.rotation(radians: FloatMath.pi / 6)).concatenating(.translation(x: 208 + 50, y: 50)),
        ]
        for (i, t) in transforms.enumerated() {
            var c = canvas
            let panel = IntRect(x: i * 104, y: 0, width: 100, height: 100)
            c.clip(to: panel)
            c.fill(panel, paint: ImagePaint(image: img, transform: t, filter: filter))
        }
        var c = canvas
        let panel = IntRect(x: 312, y: 0, width: 100, height: 100)
        c.clip(to: panel)
        let quad = ProjectiveTransform.unitSquare(to: (312 + 30, 8), (312 + 70, 8), (312 + 98, 95), (312 + 2, 95))!
        let perspective = ProjectiveTransform(.scale(x: 1.0 / 64, y: 1.0 / 64)).concatenating(quad)
        c.fill(panel, paint: ImagePaint(image: img, projective: perspective, filter: filter))
        return s
    }

    func testNearestGolden() { PaintFixtures.assertGolden(panels(.nearest), "image-nearest") }
    func testBilinearGolden() { PaintFixtures.assertGolden(panels(.bilinear), "image-bilinear") }
    func testTrilinearGolden() { PaintFixtures.assertGolden(panels(.trilinear), "image-trilinear") }

    func testContentsRectGolden() {
        // The lower-right quarter of the picture stretched onto a 90×60
        // layer, then rotated a little: only that quarter's texels appear,
        // with transparent (antialiased) edges.
        let (s, canvas) = PaintFixtures.backdrop(width: 200, height: 100)
        let left = ImagePaint.contents(picture.view, contentsRect: PaintRect(x: 0.5, y: 0.5, width: 0.5, height: 0.5),
                                       bounds: PaintRect(x: 5, y: 20, width: 90, height: 60))
        canvas.fill(IntRect(x: 0, y: 0, width: 100, height: 100), paint: left)
        let right = ImagePaint.contents(picture.view, contentsRect: PaintRect(x: 0.5, y: 0.5, width: 0.5, height: 0.5),
                                        bounds: PaintRect(x: -45, y: -30, width: 90, height: 60),
                                        transform: AffineTransform.rotation(radians: 0.3).concatenating(.translation(x: 150, y: 50)))
        canvas.fill(IntRect(x: 100, y: 0, width: 100, height: 100), paint: right)
        PaintFixtures.assertGolden(s, "image-contents-rect")
    }

    /// A 24×24 "button" image: a 6-pixel dark frame with rounded-ish
    /// corners, a light centre with a cross, so stretching shows.
    private func buttonImage() -> Surface<ARGB8888> {
        let s = Surface<ARGB8888>(width: 24, height: 24)!
        for y in 0..<24 {
            for x in 0..<24 {
                let edge = min(x, y, 23 - x, 23 - y)
                var c: PremultipliedColor
                if edge < 6 {
                    let corner = (x < 6 || x > 17) && (y < 6 || y > 17)
                    let dx = Double(x < 6 ? 6 - x : x - 17), dy = Double(y < 6 ? 6 - y : y - 17)
                    if corner && dx * dx + dy * dy > 36 { c = .clear } else {
                        c = PremultipliedColor(red8: UInt8(40 + edge * 20), green: 60, blue: 140)
                    }
                } else {
                    c = (x == 11 || y == 11) ? PremultipliedColor(red8: 200, green: 80, blue: 40)
                                             : PremultipliedColor(red8: 235, green: 235, blue: 215, alpha: 230)
                }
                s.view[x, y] = c.argb
            }
        }
        return s
    }

    func testNinePartGolden() {
        let button = buttonImage()
        defer { withExtendedLifetime(button) {} }
        let (s, canvas) = PaintFixtures.backdrop(width: 220, height: 100)
        let center = PaintRect(x: 0.25, y: 0.25, width: 0.5, height: 0.5)
        // Wide, tall, and smaller than the corners (which then shrink).
        let cases: [(PaintRect, ImageFilter)] = [
            (PaintRect(x: 4, y: 4, width: 120, height: 40), .bilinear),
            (PaintRect(x: 4.5, y: 50.5, width: 120, height: 44), .nearest),
            (PaintRect(x: 132, y: 4, width: 40, height: 90), .bilinear),
            (PaintRect(x: 180, y: 4, width: 9, height: 9), .bilinear),
        ]
        for (bounds, filter) in cases {
            let paint = NinePartPaint(image: button.view, contentsCenter: center, bounds: bounds, filter: filter)
            canvas.fill(IntRect(x: 0, y: 0, width: 220, height: 100), paint: paint)
        }
        PaintFixtures.assertGolden(s, "image-nine-part")
    }

    /// No seams: a nine-part of a uniform image is uniform over the whole
    /// destination, for any centre, any bounds (fractional too), either
    /// filter, and a contentsRect; and pixels outside the bounds are 0.
    func testNinePartOfUniformImageIsUniform() {
        let color = PremultipliedColor(red8: 90, green: 170, blue: 30, alpha: 200).argb
        let img = Surface<ARGB8888>(width: 17, height: 13)!
        defer { withExtendedLifetime(img) {} }
        img.clear(to: color)
        var rng = SplitMix64(seed: 5)
        for trial in 0..<200 {
            let cx = rng.unit(), cy = rng.unit()
            let center = PaintRect(x: cx, y: cy, width: rng.unit() * (1 - cx), height: rng.unit() * (1 - cy))
            let bounds = PaintRect(x: rng.unit() * 10, y: rng.unit() * 10, width: 1 + rng.unit() * 60, height: 1 + rng.unit() * 60)
            let contents = trial % 2 == 0 ? PaintRect.unit : PaintRect(x: 0.2, y: 0.1, width: 0.5, height: 0.7)
            let paint = NinePartPaint(image: img.view, contentsRect: contents, contentsCenter: center, bounds: bounds,
                                      filter: trial % 3 == 0 ? .nearest : .bilinear)
            for y in 0..<80 {
                let span = PaintFixtures.span(paint, x: 0, y: y, count: 80, family: trial % 2 == 0 ? .simd : .reference)
                for x in 0..<80 {
                    let inside = Double(x) + 0.5 >= bounds.x && Double(x) + 0.5 < bounds.maxX
                        && Double(y) + 0.5 >= bounds.y && Double(y) + 0.5 < bounds.maxY
                    if span[x] != (inside ? color : 0) {
                        XCTFail("trial \(trial): pixel (\(x), \(y)) is 0x\(String(span[x], radix: 16)), inside=\(inside)")
                        return
                    }
                }
            }
        }
    }

    // MARK: Oracles

    /// Exact bilinear interpolation in Double at a point `s` (texel-centre
    /// coordinates), transparent outside.
    private func floatBilinear(_ v: PixelView<ARGB8888>, _ sx: Double, _ sy: Double) -> [Double] {
        let x0 = Int(sx.rounded(.down)), y0 = Int(sy.rounded(.down))
        let fx = sx - Double(x0), fy = sy - Double(y0)
        func texel(_ x: Int, _ y: Int) -> [Double] {
            guard x >= 0, y >= 0, x < v.width, y < v.height else { return [0, 0, 0, 0] }
            return PaintFixtures.channels(v[x, y])
        }
        let a = texel(x0, y0), b = texel(x0 + 1, y0), c = texel(x0, y0 + 1), d = texel(x0 + 1, y0 + 1)
        return (0..<4).map { i in
            (a[i] * (1 - fx) + b[i] * fx) * (1 - fy) + (c[i] * (1 - fx) + d[i] * fx) * fy
        }
    }

    /// The fixed-point bilinear sampler against exact float bilinear on
    /// random premultiplied images and positions (a 0/255 checker, the worst
    /// case, among them). Bounds per channel: ≤ 1.5 against float bilinear
    /// at the same 1/256-texel position the sampler uses (w11 rounding moves
    /// the weights by ≤ 1/512 each: ≤ 510/512 levels, plus the final ½),
    /// ≤ 2.5 against the exact, unquantised position (the draws place
    /// samples to the nearest 1/256 texel, see `bilinearShift`: ≤ 1/512
    /// texel per axis, ≤ ½ level each).
    func testBilinearMatchesFloatOracle() {
        var rng = SplitMix64(seed: 99)
        let img = Surface<ARGB8888>(width: 9, height: 7)!
        var worstSame = 0.0, worstExact = 0.0
        for round in 0..<40 {
            for y in 0..<7 { for x in 0..<9 { img.view[x, y] = rng.premultipliedColor().argb } }
            if round % 4 == 0 { for y in 0..<7 { for x in 0..<9 { img.view[x, y] = (x + y) % 2 == 0 ? 0xFFFF_FFFF : 0 } } }
            let src = SampleSource(img.view)
            for _ in 0..<2000 {
                let sx = rng.unit() * 12 - 2, sy = rng.unit() * 10 - 2
                let fx = Fixed16(sx), fy = Fixed16(sy)
                let got = ImageSampler.referenceBilinear(src, sx: fx, sy: fy, edge: .transparent)
                // The position the sampler resolves: 16.16 truncated to 1/256.
                let qx = Double(fx.raw >> 8) / 256, qy = Double(fy.raw >> 8) / 256
                let rx = Fixed16(sx + 1.0 / 512), ry = Fixed16(sy + 1.0 / 512)
                let rounded = ImageSampler.referenceBilinear(src, sx: rx, sy: ry, edge: .transparent)
                worstSame = max(worstSame, PaintFixtures.maxError(got, floatBilinear(img.view, qx, qy)))
                worstExact = max(worstExact, PaintFixtures.maxError(rounded, floatBilinear(img.view, sx, sy)))
                let a = got >> 24
                XCTAssertTrue((got >> 16) & 0xFF <= a && (got >> 8) & 0xFF <= a && got & 0xFF <= a, "premultiplied invariant")
            }
        }
        XCTAssertLessThanOrEqual(worstSame, 1.5)
        XCTAssertLessThanOrEqual(worstExact, 2.5)
    }

    /// A whole bilinear draw against float bilinear at the float-mapped
    /// pixel centre: ≤ 2.5 levels (the sampler's bound at exact positions;
    /// 16.16 stepping drifts by < 1/256 texel over a 512-pixel piece).
    func testBilinearDrawMatchesFloatOracle() {
        let img = picture.view
        let t = AffineTransform.translation(x: -32, y: -32).concatenating(.scale(x: 1.37, y: 0.83))
            .concatenating(.rotation(radians: 0.52)).concatenating(.translation(x: 60, y: 50))
        let paint = ImagePaint(image: img, transform: t, filter: .bilinear)
        let inv = t.inverted()!
        for family in [KernelFamily.simd, .reference] {
            for y in 0..<100 {
                let span = PaintFixtures.span(paint, x: 0, y: y, count: 120, family: family)
                for x in 0..<120 {
                    let p = inv.apply(x: Double(x) + 0.5, y: Double(y) + 0.5)
                    let e = PaintFixtures.maxError(span[x], floatBilinear(img, p.x - 0.5, p.y - 0.5))
                    if e > 2.5 { XCTFail("\(family) (\(x), \(y)): error \(e)"); return }
                }
            }
        }
    }

    /// Perspective-correct: every pixel samples where the exact projective
    /// inverse says (float oracle, ≤ 2.5 levels as for affine draws).
    func testPerspectiveMatchesFloatOracle() {
        let img = picture.view
        let quad = ProjectiveTransform.unitSquare(to: (20, 5), (90, 12), (110, 95), (3, 80))!
        let m = ProjectiveTransform(.scale(x: 1.0 / 64, y: 1.0 / 64)).concatenating(quad)
        let paint = ImagePaint(image: img, projective: m, filter: .bilinear)
        let inv = m.inverted()!
        for y in 0..<100 {
            let span = PaintFixtures.span(paint, x: 0, y: y, count: 120, family: .simd)
            for x in 0..<120 {
                guard let p = inv.apply(x: Double(x) + 0.5, y: Double(y) + 0.5) else { XCTAssertEqual(span[x], 0); continue }
                let e = PaintFixtures.maxError(span[x], floatBilinear(img, p.x - 0.5, p.y - 0.5))
                if e > 2.5 { XCTFail("(\(x), \(y)): error \(e)"); return }
            }
        }
    }

    // MARK: SIMD against the reference

    /// Random affine transforms, all filters and edges, spans of every
    /// length with random starts, on an image whose last texel touches a
    /// guard page (rows padded and not): the SIMD family must equal the
    /// reference bit for bit, and nothing may read past the image.
    func testSIMDEqualsReferenceWithGuardPages() {
        var rng = SplitMix64(seed: 1234)
        let (b1, tight) = PaintFixtures.guardedPicture(width: 37, height: 23, stride: 37)
        let (b2, padded) = PaintFixtures.guardedPicture(width: 40, height: 31, stride: 45)
        defer { withExtendedLifetime((b1, b2)) {} }
        for trial in 0..<300 {
            let img = trial % 2 == 0 ? tight : padded
            let scale = [0.3, 0.5, 0.9, 1.0, 1.5, 3.0, 7.0][rng.below(7)]
            var t = AffineTransform.translation(x: -Double(img.width) / 2, y: -Double(img.height) / 2)
                .concatenating(.scale(x: scale * (0.8 + rng.unit() * 0.4), y: scale))
            if trial % 3 != 0 { t = t.concatenating(.rotation(radians: rng.unit() * 7)) }
            t = t.concatenating(.translation(x: rng.unit() * 60 + 10, y: rng.unit() * 60 + 10))
            let filter: ImageFilter = [.nearest, .bilinear, .trilinear][trial % 3]
            let edge: ImageEdge = trial % 5 == 0 ? .clamp : .transparent
            let contents = trial % 7 == 0 ? PaintRect(x: 0.1, y: 0.2, width: 0.7, height: 0.5) : PaintRect.unit
            let paint = ImagePaint(image: img, transform: t, filter: filter, edge: edge, contentsRect: contents)
            for _ in 0..<8 {
                let x = rng.below(120) - 20, y = rng.below(100) - 10, n = 1 + rng.below(90)
                let a = PaintFixtures.span(paint, x: x, y: y, count: n, family: .simd)
                let b = PaintFixtures.span(paint, x: x, y: y, count: n, family: .reference)
                if a != b {
                    let i = (0..<n).first { a[$0] != b[$0] }!
                    XCTFail("trial \(trial) \(filter) \(edge): pixel \(x + i) of row \(y): SIMD 0x\(String(a[i], radix: 16)) reference 0x\(String(b[i], radix: 16))")
                    return
                }
            }
        }
    }

    /// Transforms without rotation or shear take the row-constant loops
    /// (contiguous taps at whole steps of 1 and 2 texels, two-row gathers
    /// otherwise): exact scales and translations, whole and fractional,
    /// flipped, with contentsRect and both edges, long spans crossing the
    /// image's edges, against the reference bit for bit, on guarded images.
    func testAxisAlignedSIMDEqualsReferenceWithGuardPages() {
        var rng = SplitMix64(seed: 77)
        let (b1, tight) = PaintFixtures.guardedPicture(width: 61, height: 19, stride: 61)
        let (b2, padded) = PaintFixtures.guardedPicture(width: 70, height: 33, stride: 75)
        defer { withExtendedLifetime((b1, b2)) {} }
        let scales = [1.0, 0.5, 2.0, 1.5, 1.0 / 3, 0.25, 0.75, -1.0, -0.5, 3.0]
        for trial in 0..<400 {
            let img = trial % 2 == 0 ? tight : padded
            let sx = scales[rng.below(scales.count)], sy = scales[rng.below(scales.count)]
            let whole = trial % 3 == 0
            let tx = whole ? Double(rng.below(40) - 10) : rng.unit() * 50 - 10
            let ty = whole ? Double(rng.below(30) - 10) : rng.unit() * 40 - 10
            let t = AffineTransform.scale(x: sx, y: sy).concatenating(.translation(x: tx + (sx < 0 ? 60 : 0), y: ty + (sy < 0 ? 30 : 0)))
            let filter: ImageFilter = trial % 5 == 4 ? .trilinear : .bilinear
            let edge: ImageEdge = trial % 4 == 1 ? .clamp : .transparent
            let contents = trial % 7 == 0 ? PaintRect(x: 0.1, y: 0.2, width: 0.7, height: 0.5) : PaintRect.unit
            let paint = ImagePaint(image: img, transform: t, filter: filter, edge: edge, contentsRect: contents)
            for _ in 0..<6 {
                let x = rng.below(60) - 30, y = rng.below(90) - 20, n = 1 + rng.below(200)
                let a = PaintFixtures.span(paint, x: x, y: y, count: n, family: .simd)
                let b = PaintFixtures.span(paint, x: x, y: y, count: n, family: .reference)
                if a != b {
                    let i = (0..<n).first { a[$0] != b[$0] }!
                    XCTFail("trial \(trial) scale \(sx)×\(sy) \(edge): pixel \(x + i) of row \(y): SIMD 0x\(String(a[i], radix: 16)) reference 0x\(String(b[i], radix: 16))")
                    return
                }
            }
        }
    }

    /// `paintedBounds` never cuts off a painted pixel: with transparent
    /// edges every pixel outside it shades to 0 (either family), for random
    /// transforms, filters and contentsRects; clamping is unbounded.
    func testPaintedBoundsHoldEveryPaintedPixel() {
        var rng = SplitMix64(seed: 4321)
        let img = picture.view
        for trial in 0..<150 {
            let scale = [0.2, 0.5, 1.0, 1.5, 3.0][rng.below(5)]
            var t = AffineTransform.translation(x: -32, y: -32).concatenating(.scale(x: scale * (0.7 + rng.unit() * 0.6), y: scale))
            if trial % 2 == 0 { t = t.concatenating(.rotation(radians: rng.unit() * 7)) }
            t = t.concatenating(.translation(x: rng.unit() * 80 + 20, y: rng.unit() * 80 + 20))
            let filter: ImageFilter = [.nearest, .bilinear, .trilinear][trial % 3]
            let contents = trial % 4 == 0 ? PaintRect(x: 0.1, y: 0.3, width: 0.6, height: 0.5) : PaintRect.unit
            let paint = ImagePaint(image: img, transform: t, filter: filter, contentsRect: contents)
            guard let b = paint.paintedBounds else { XCTFail("trial \(trial): unbounded"); return }
            let family: KernelFamily = trial % 2 == 0 ? .simd : .reference
            for y in -60..<220 {
                let span = PaintFixtures.span(paint, x: -60, y: y, count: 300, family: family)
                for i in 0..<300 where span[i] != 0 {
                    let x = i - 60
                    if !(x >= b.x && x < b.maxX && y >= b.y && y < b.maxY) {
                        XCTFail("trial \(trial): pixel (\(x), \(y)) = 0x\(String(span[i], radix: 16)) outside \(b)")
                        return
                    }
                }
            }
        }
        XCTAssertNil(ImagePaint(image: img, transform: .identity, edge: .clamp).paintedBounds)
        XCTAssertEqual(ImagePaint(image: img, transform: .scale(x: 0, y: 1)).paintedBounds, .zero)
    }

    func testCanvasFamiliesAgree() {
        let t = AffineTransform.rotation(radians: 0.5).concatenating(.scale(x: 2.2, y: 1.9)).concatenating(.translation(x: 90, y: -10))
        for filter in [ImageFilter.nearest, .bilinear, .trilinear] {
            let paint = ImagePaint(image: picture.view, transform: t, filter: filter, edge: .clamp, imageIsOpaque: false)
            let (a, ca) = PaintFixtures.backdrop(width: 700, height: 60, family: .simd)
            let (b, cb) = PaintFixtures.backdrop(width: 700, height: 60, family: .reference)
            ca.fill(IntRect(x: 0, y: 0, width: 700, height: 60), paint: paint, alpha: 180)
            cb.fill(IntRect(x: 0, y: 0, width: 700, height: 60), paint: paint, alpha: 180)
            XCTAssertEqual(PaintFixtures.checksum(a), PaintFixtures.checksum(b), "\(filter)")
        }
    }

    // MARK: Mip chain

    func testMipChainAndLevelChoice() {
        let img = Surface<ARGB8888>(width: 13, height: 5)!
        img.clear(to: 0x8040_2010)
        let (storage, levels) = MipChain.build(img.view, region: img.view.bounds)
        defer { storage?.deallocate() }
        XCTAssertEqual(levels.map { $0.x1 }, [7, 4, 2, 1])
        XCTAssertEqual(levels.map { $0.y1 }, [3, 2, 1, 1])
        for l in levels { XCTAssertEqual(l.base[0], 0x8040_2010, "a uniform image stays uniform") }
        XCTAssertEqual(MipChain.box(0xFF00_0000, 0xFF00_0000, 0, 0), 0x8000_0000)
        // Minifying by 4 with trilinear samples level 2: a 2×2 checker
        // averages to grey.
        let checker = Surface<ARGB8888>(width: 64, height: 64)!
        defer { withExtendedLifetime(checker) {} }
        for y in 0..<64 { for x in 0..<64 { checker.view[x, y] = (x + y) % 2 == 0 ? 0xFFFF_FFFF : 0xFF00_0000 } }
        let paint = ImagePaint(image: checker.view, transform: .scale(x: 0.25, y: 0.25), filter: .trilinear)
        let span = PaintFixtures.span(paint, x: 2, y: 2, count: 10, family: .simd)
        for p in span { XCTAssertEqual(Double((p >> 8) & 0xFF), 127.5, accuracy: 1.5) }
    }

    // MARK: Bad input

    func testBadInputPaintsNothing() {
        let img = picture.view
        let empty = Surface<ARGB8888>(width: 1, height: 1)!
        defer { withExtendedLifetime(empty) {} }
        let zeroSize = PixelView<ARGB8888>(base: empty.pixels, width: 0, height: 5, rowStride: 1)
        let strip = UnsafeMutablePointer<UInt32>.allocate(capacity: 100_000)
        defer { strip.deallocate() }
        strip.initialize(repeating: 0xFFFF_FFFF, count: 100_000)
        let longStrip = PixelView<ARGB8888>(base: strip, width: 100_000, height: 1, rowStride: 100_000)
        let paints: [(String, ImagePaint)] = [
            ("NaN transform", ImagePaint(image: img, transform: AffineTransform(a: .nan, b: 0, c: 0, d: 1, tx: 0, ty: 0))),
            ("infinite translation", ImagePaint(image: img, transform: .translation(x: .infinity, y: 0))),
            ("singular", ImagePaint(image: img, transform: .scale(x: 1, y: 0), filter: .trilinear)),
            ("singular projective", ImagePaint(image: img, projective: ProjectiveTransform(m00: 1, m01: 2, m02: 0, m10: 2, m11: 4, m12: 0, m20: 0, m21: 0, m22: 1))),
            ("NaN projective", ImagePaint(image: img, projective: ProjectiveTransform(m00: 1, m01: 0, m02: 0, m10: 0, m11: 1, m12: 0, m20: .nan, m21: 0, m22: 1))),
            ("zero-size image", ImagePaint(image: zeroSize, transform: .identity, filter: .trilinear)),
            ("100000×1 image", ImagePaint(image: longStrip, transform: .identity, filter: .trilinear)),
            ("empty contentsRect", ImagePaint(image: img, transform: .identity, contentsRect: PaintRect(x: 0.5, y: 0.5, width: 0, height: 0.2))),
            ("NaN contentsRect", ImagePaint(image: img, transform: .identity, contentsRect: PaintRect(x: .nan, y: 0, width: 1, height: 1))),
            ("contents in empty bounds", ImagePaint.contents(img, bounds: PaintRect(x: 0, y: 0, width: 0, height: 10))),
        ]
        for (name, p) in paints {
            XCTAssertFalse(p.isOpaque)
            for family in [KernelFamily.simd, .reference] {
                XCTAssertEqual(PaintFixtures.span(p, x: -5, y: 3, count: 70, family: family), [UInt32](repeating: 0, count: 70), name)
            }
        }
        let nine = NinePartPaint(image: zeroSize, contentsCenter: .unit, bounds: PaintRect(x: 0, y: 0, width: 10, height: 10))
        XCTAssertEqual(PaintFixtures.span(nine, x: 0, y: 0, count: 10, family: .simd), [UInt32](repeating: 0, count: 10))
        let nineNaN = NinePartPaint(image: img, contentsCenter: PaintRect(x: .nan, y: 0, width: 1, height: 1), bounds: PaintRect(x: 0, y: 0, width: 10, height: 10))
        XCTAssertEqual(PaintFixtures.span(nineNaN, x: 0, y: 0, count: 10, family: .simd), [UInt32](repeating: 0, count: 10))
        // Extreme but valid transforms: no trap; far away is transparent,
        // clamping extends the edge texels.
        let huge = ImagePaint(image: img, transform: .scale(x: 1e-7, y: 1e-7), filter: .bilinear)
        _ = PaintFixtures.span(huge, x: 0, y: 0, count: 600, family: .simd)
        let far = ImagePaint(image: img, transform: .scale(x: 1e7, y: 1e7), filter: .bilinear, edge: .clamp)
        let s = PaintFixtures.span(far, x: 1_000_000, y: 1_000_000, count: 50, family: .simd)
        XCTAssertEqual(s[0], img[0, 0])
        let behind = ImagePaint(image: img, projective: ProjectiveTransform(m00: 1, m01: 0, m02: 0, m10: 0, m11: 1, m12: 0, m20: -0.01, m21: 0, m22: 1), filter: .trilinear)
        _ = PaintFixtures.span(behind, x: -300, y: 10, count: 600, family: .simd)
    }
}
