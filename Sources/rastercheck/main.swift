// rastercheck: renders a fixed scene with every Raster kernel, once with the
// SIMD kernels and once with the scalar reference kernels, and prints a
// checksum of each result. scripts/test runs the host build and the aarch64
// build (under qemu-aarch64-static) and requires identical output, so the
// kernels give the same pixels on x86-64 (SSE) and arm64 (NEON).
import CPosix
import Raster

fbr_line_buffer_stdout()

func hex(_ v: UInt64) -> String {
    let digits: [Character] = ["0", "1", "2", "3", "4", "5", "6", "7", "8", "9", "a", "b", "c", "d", "e", "f"]
    var s = ""
    var shift = 60
    while shift >= 0 { s.append(digits[Int((v &>> UInt64(shift)) & 0xF)]); shift -= 4 }
    return s
}

/// The scene: a background, opaque and translucent rectangles, and a
/// translucent sprite composited at full, partial and zero global alpha,
/// clipped at the edges; then the conversions to the scan-out formats.
func render(_ family: KernelFamily) -> (argb: UInt64, xrgb: UInt64, rgb565: UInt64, dithered: UInt64) {
    let width = 203, height = 117   // odd sizes: every kernel has a tail
    guard let surface = Surface<ARGB8888>(width: width, height: height),
          let sprite = Surface<ARGB8888>(width: 37, height: 29),
          let xrgb = Surface<XRGB8888>(width: width, height: height),
          let rgb565 = Surface<RGB565>(width: width, height: height) else { fatalError("allocation") }
    var rng = SplitMix64(seed: 0xF00D)
    for y in 0..<sprite.height {
        for x in 0..<sprite.width { sprite.view[x, y] = rng.premultipliedColor().argb }
    }
    var canvas = Canvas(surface.view, family: family)
    // Opaque background on the left, translucent on the right, so the
    // scan-out conversions see both.
    canvas.fill(IntRect(x: 0, y: 0, width: 120, height: height), color: PremultipliedColor(red8: 20, green: 40, blue: 90))
    canvas.fill(IntRect(x: 120, y: 0, width: width - 120, height: height), color: PremultipliedColor(red8: 90, green: 40, blue: 20, alpha: 100))
    for _ in 0..<40 {
        let rect = IntRect(x: rng.below(width + 40) - 20, y: rng.below(height + 40) - 20,
                           width: rng.below(80), height: rng.below(60))
        canvas.fill(rect, color: rng.premultipliedColor())
    }
    for i in 0..<12 {
        let alpha: UInt8 = i % 3 == 0 ? 255 : UInt8(truncatingIfNeeded: rng.next() | 1)
        canvas.draw(sprite.view, x: rng.below(width + 20) - 10, y: rng.below(height + 20) - 10, alpha: alpha)
    }
    canvas.clip(to: IntRect(x: 10, y: 10, width: 150, height: 80))
    canvas.fill(IntRect(x: 0, y: 0, width: 300, height: 300), color: PremultipliedColor(red8: 255, green: 255, blue: 255, alpha: 77))
    canvas.draw(sprite.view, x: 140, y: 70, alpha: 0)
    ScanoutConversion.copy(surface.view, into: xrgb.view, rect: surface.view.bounds, family: family)
    ScanoutConversion.copy(surface.view, into: rgb565.view, rect: surface.view.bounds, family: family)
    let plain565 = pixelChecksum(rgb565.view)
    // Dithered, in two damaged regions at odd offsets.
    ScanoutConversion.copyDithered(surface.view, into: rgb565.view, rect: IntRect(x: 0, y: 0, width: 77, height: height), family: family)
    ScanoutConversion.copyDithered(surface.view, into: rgb565.view, rect: IntRect(x: 77, y: 3, width: 200, height: 100), family: family)
    return (pixelChecksum(surface.view), pixelChecksum(xrgb.view), plain565, pixelChecksum(rgb565.view))
}

/// Paints: gradients of every shape and spread (Double per pixel for radial
/// and conic, so this also checks that x86-64 and arm64 round alike), and an
/// image drawn bilinear scaled 0.5× and 1.5×, rotated 30°, trilinear, and
/// under a perspective transform.
func renderPaints(_ family: KernelFamily) -> UInt64 {
    let width = 211, height = 133
    guard let surface = Surface<ARGB8888>(width: width, height: height),
          let image = Surface<ARGB8888>(width: 45, height: 38) else { fatalError("allocation") }
    var rng = SplitMix64(seed: 0xBEEF)
    for y in 0..<image.height {
        for x in 0..<image.width {
            image.view[x, y] = (x / 4 + y / 4) % 3 == 0 ? rng.premultipliedColor().argb : rng.premultipliedColor().argb | 0xFF00_0000
        }
    }
    var canvas = Canvas(surface.view, family: family)
    let stops = [GradientStop(PremultipliedColor(red8: 250, green: 40, blue: 30)),
                 GradientStop(PremultipliedColor(red8: 30, green: 200, blue: 60, alpha: 150), at: 0.35),
                 GradientStop(PremultipliedColor(red8: 20, green: 40, blue: 240))]
    let rot = AffineTransform.rotation(radians: 0.7).concatenating(.translation(x: 60, y: 30))
    canvas.fill(IntRect(x: 0, y: 0, width: width, height: height),
                paint: GradientPaint.linear(x0: 0, y0: 0, x1: 37, y1: 11, stops: stops, spread: .reflect, transform: rot))
    canvas.fill(IntRect(x: 0, y: 0, width: 120, height: 70),
                paint: GradientPaint.radial(x0: 40, y0: 30, r0: 3, x1: 55, y1: 35, r1: 30, stops: stops, spread: .repeat), alpha: 200)
    canvas.fill(IntRect(x: 120, y: 0, width: 91, height: 70),
                paint: GradientPaint.conic(cx: 165, cy: 35, startAngle: 0.3, stops: stops))
    let center = AffineTransform.translation(x: -22.5, y: -19)
    let draws: [(AffineTransform, ImageFilter)] = [
        (center.concatenating(.scale(x: 0.5, y: 0.5)).concatenating(.translation(x: 20, y: 100)), .bilinear),
        (center.concatenating(.scale(x: 1.5, y: 1.5)).concatenating(.translation(x: 70, y: 95)), .bilinear),
        (center.concatenating(.rotation(radians: FloatMath.pi / 6)).concatenating(.translation(x: 130, y: 100)), .bilinear),
        (center.concatenating(.scale(x: 0.3, y: 0.4)).concatenating(.rotation(radians: 1)).concatenating(.translation(x: 20, y: 60)), .trilinear),
    ]
    for (t, filter) in draws {
        canvas.fill(IntRect(x: 0, y: 0, width: width, height: height), paint: ImagePaint(image: image.view, transform: t, filter: filter))
    }
    if let quad = ProjectiveTransform.unitSquare(to: (160, 75), (205, 80), (208, 130), (150, 125)) {
        let m = ProjectiveTransform(.scale(x: 1.0 / 45, y: 1.0 / 38)).concatenating(quad)
        canvas.fill(IntRect(x: 140, y: 70, width: 71, height: 63), paint: ImagePaint(image: image.view, projective: m, filter: .bilinear))
    }
    // Nearest under a rotation; a clamped edge far from the image (long
    // runs of 8-lane edge chunks); a perspective map, nearest and clamped.
    let turned = center.concatenating(.rotation(radians: 2.2)).concatenating(.translation(x: 50, y: 30))
    canvas.fill(IntRect(x: 0, y: 0, width: 100, height: 60), paint: ImagePaint(image: image.view, transform: turned, filter: .nearest), alpha: 200)
    canvas.fill(IntRect(x: 100, y: 0, width: 103, height: 45),
                paint: ImagePaint(image: image.view, transform: .scale(x: 0.9, y: 1.1), filter: .bilinear, edge: .clamp), alpha: 160)
    if let quad = ProjectiveTransform.unitSquare(to: (5, 62), (80, 70), (70, 112), (10, 105)) {
        let m = ProjectiveTransform(.scale(x: 1.0 / 45, y: 1.0 / 38)).concatenating(quad)
        canvas.fill(IntRect(x: 0, y: 60, width: 90, height: 57),
                    paint: ImagePaint(image: image.view, projective: m, filter: .nearest, edge: .clamp), alpha: 120)
    }
    canvas.clip(to: IntRect(x: 3, y: 3, width: 90, height: 60))
    canvas.fill(IntRect(x: 0, y: 0, width: 100, height: 100),
                paint: NinePartPaint(image: image.view, contentsCenter: PaintRect(x: 0.3, y: 0.3, width: 0.4, height: 0.4),
                                     bounds: PaintRect(x: 10.5, y: 12, width: 70, height: 44)), alpha: 180)
    return withExtendedLifetime(image) { pixelChecksum(surface.view) }
}

/// Images under a scale and a translation only, the table-driven rows of
/// ImageSampling+Scaled.swift: minified past 2× and magnified, flipped,
/// steps of exactly 1 and 2 texels (the contiguous rows), a one-texel
/// column and row, a contentsRect, both edges, trilinear, at global alphas;
/// half of the draws keep their taps in one scratch, as the compositor
/// does, half build them per row piece.
func renderScaled(_ family: KernelFamily) -> UInt64 {
    let width = 233, height = 141
    guard let surface = Surface<ARGB8888>(width: width, height: height),
          let image = Surface<ARGB8888>(width: 67, height: 41) else { fatalError("allocation") }
    var rng = SplitMix64(seed: 0x5CA1E)
    for y in 0..<image.height {
        for x in 0..<image.width {
            image.view[x, y] = (x / 3 + y / 5) % 4 == 0 ? rng.premultipliedColor().argb : rng.premultipliedColor().argb | 0xFF00_0000
        }
    }
    let canvas = Canvas(surface.view, family: family)
    canvas.fill(IntRect(x: 0, y: 0, width: width, height: height), color: PremultipliedColor(red8: 40, green: 50, blue: 60))
    let scratch = ImageSamplingScratch()
    let column = PixelView<ARGB8888>(base: image.pixels + 5, width: 1, height: 41, rowStride: image.rowStride)
    let row = PixelView<ARGB8888>(base: image.pixels + 7 * image.rowStride, width: 67, height: 1, rowStride: image.rowStride)
    let draws: [(PixelView<ARGB8888>, AffineTransform, ImageFilter, ImageEdge, PaintRect, UInt8)] = [
        (image.view, AffineTransform(a: 0.39, b: 0, c: 0, d: 0.41, tx: 3.3, ty: 2.7), .bilinear, .transparent, .unit, 255),
        (image.view, AffineTransform(a: 2.6, b: 0, c: 0, d: 1.7, tx: 35.45, ty: 5.2), .bilinear, .transparent, .unit, 200),
        (image.view, AffineTransform(a: -1.3, b: 0, c: 0, d: 1.1, tx: 230.2, ty: 60.9), .bilinear, .clamp, .unit, 170),
        (image.view, AffineTransform(a: 1, b: 0, c: 0, d: 1, tx: 4.6, ty: 95.3), .bilinear, .transparent, .unit, 230),
        (image.view, AffineTransform(a: 0.5, b: 0, c: 0, d: 0.75, tx: 80.1, ty: 100.4), .bilinear, .clamp,
         PaintRect(x: 0.2, y: 0.1, width: 0.7, height: 0.8), 255),
        (image.view, AffineTransform(a: 0.3, b: 0, c: 0, d: -0.35, tx: 140.5, ty: 139.8), .trilinear, .transparent, .unit, 255),
        (column, AffineTransform(a: 7.5, b: 0, c: 0, d: 0.8, tx: 200.3, ty: 3.1), .bilinear, .clamp, .unit, 180),
        (row, AffineTransform(a: 0.9, b: 0, c: 0, d: 9, tx: 150.7, ty: 40.2), .bilinear, .clamp, .unit, 255),
    ]
    for (i, (view, t, filter, edge, part, alpha)) in draws.enumerated() {
        let paint = ImagePaint(image: view, transform: t, filter: filter, edge: edge, contentsRect: part,
                               scratch: i % 2 == 0 ? scratch : nil)
        canvas.fill(IntRect(x: 0, y: 0, width: width, height: height), paint: paint, alpha: alpha)
    }
    return withExtendedLifetime(image) { pixelChecksum(surface.view) }
}

/// Paths and strokes: curves, a self-intersecting star under both fill
/// rules, a rotated rounded rectangle, dashed strokes with every cap and
/// join, a partial stroke, and shapes clipped at the edges. The coverage
/// is fixed point; the geometry is IEEE basic operations, so both
/// architectures must agree.
func renderPaths(_ family: KernelFamily) -> UInt64 {
    guard let surface = Surface<ARGB8888>(width: 181, height: 143) else { fatalError("allocation") }
    let canvas = Canvas(surface.view, family: family)
    let rasterizer = PathRasterizer()
    canvas.fill(surface.view.bounds, color: PremultipliedColor(red8: 250, green: 250, blue: 240))
    var star = Path()
    for i in 0..<5 {
        let (s, c) = FloatMath.sinCos(Double(i * 2) * FloatMath.twoPi / 5)
        let p = PathPoint(x: 50 + 40 * s, y: 55 - 40 * c)
        if i == 0 { star.move(to: p) } else { star.line(to: p) }
    }
    star.close()
    canvas.fill(star, color: PremultipliedColor(red8: 200, green: 40, blue: 40, alpha: 200), rule: .nonZero, using: rasterizer)
    canvas.fill(star, color: PremultipliedColor(red8: 40, green: 40, blue: 200, alpha: 120), rule: .evenOdd,
                transform: .translation(x: 70, y: 10), using: rasterizer)
    var curve = Path()
    curve.move(to: PathPoint(x: -10, y: 130))
    curve.cubic(to: PathPoint(x: 190, y: 120), control1: PathPoint(x: 40, y: 20), control2: PathPoint(x: 120, y: 200))
    curve.quad(to: PathPoint(x: 90, y: 150), control: PathPoint(x: 160, y: 160))
    curve.close()
    canvas.fill(curve, color: PremultipliedColor(red8: 30, green: 160, blue: 90, alpha: 160), using: rasterizer)
    let rounded = Path(roundedRect: -20, -20, 60, 40, radii: CornerRadii(12))
    canvas.fill(rounded, color: PremultipliedColor(red8: 240, green: 180, blue: 0, alpha: 220),
                transform: AffineTransform(rotationAngle: 0.5).concatenating(.translation(x: 140, y: 40)), using: rasterizer)
    let caps: [LineCap] = [.butt, .round, .square], joins: [LineJoin] = [.miter, .round, .bevel]
    for i in 0..<3 {
        var zigzag = Path()
        zigzag.move(to: PathPoint(x: 20, y: 100 + Double(i) * 14))
        zigzag.line(to: PathPoint(x: 60, y: 90 + Double(i) * 14))
        zigzag.line(to: PathPoint(x: 100, y: 104 + Double(i) * 14))
        zigzag.line(to: PathPoint(x: 170, y: 92 + Double(i) * 14))
        let style = StrokeStyle(width: 3 + Double(i), cap: caps[i], join: joins[i], miterLimit: 4,
                                dash: i == 1 ? [] : [9, 4, 2, 4], dashPhase: Double(i) * 3,
                                start: i == 2 ? 0.1 : 0, end: i == 2 ? 0.8 : 1)
        canvas.stroke(zigzag, color: PremultipliedColor(red8: 20, green: 20, blue: 20, alpha: 230), style: style, using: rasterizer)
    }
    return pixelChecksum(surface.view)
}

/// An anti-aliased-looking disc as A8 coverage (integer only): full inside,
/// a ramp over the last few pixels of the radius.
func makeDisc(_ size: Int) -> Surface<A8> {
    guard let mask = Surface<A8>(width: size, height: size + 3) else { fatalError("allocation") }
    let c = size * 8, r2 = (size * 8 - 12) * (size * 8 - 12)
    for y in 0..<mask.height {
        for x in 0..<size {
            let dx = x * 16 + 8 - c, dy = y * 16 + 8 - c, d2 = dx * dx + dy * dy
            let v = d2 >= r2 ? 0 : min(255, (r2 - d2) / (size * 4))
            mask.view[x, y] = UInt8(v)
        }
    }
    return mask
}

/// The compositing scene: one column per operator (solid fill, translucent
/// sprite at global alpha, masked colour, masked sprite), over a background
/// that mixes opaque, translucent and transparent pixels.
func renderOperators(_ family: KernelFamily) -> (operators: UInt64, masks: UInt64) {
    let cell = 19, width = cell * BlendOperator.allCases.count + 7, height = 61
    guard let surface = Surface<ARGB8888>(width: width, height: height),
          let masked = Surface<ARGB8888>(width: width, height: height),
          let sprite = Surface<ARGB8888>(width: 23, height: 26) else { fatalError("allocation") }
    let disc = makeDisc(23)
    var rng = SplitMix64(seed: 0xB1E4D)
    for y in 0..<sprite.height {
        for x in 0..<sprite.width { sprite.view[x, y] = rng.premultipliedColor().argb }
    }
    for y in 0..<height {
        for x in 0..<width {
            let p = rng.premultipliedColor().argb
            let v = y < 20 ? p | 0xFF00_0000 : (y < 40 ? p : (x % 3 == 0 ? 0 : p))
            surface.view[x, y] = v
            masked.view[x, y] = v
        }
    }
    let plain = Canvas(surface.view, family: family), withMasks = Canvas(masked.view, family: family)
    for (i, op) in BlendOperator.allCases.enumerated() {
        let x = i * cell
        let color = rng.premultipliedColor()
        plain.fill(IntRect(x: x, y: 2, width: cell - 2, height: 50), color: color, operator: op)
        plain.fill(IntRect(x: x + 3, y: 30, width: cell, height: 25), color: color, operator: op, alpha: 140)
        plain.draw(sprite.view, x: x - 2, y: 8, operator: op, alpha: 200)
        plain.draw(sprite.view, x: x + 1, y: 36, operator: op, opaque: false)
        withMasks.fill(mask: disc.view, x: x - 1, y: 1, color: color, operator: op)
        withMasks.fill(mask: disc.view, x: x + 2, y: 20, color: PremultipliedColor(argb: color.argb | 0xFF00_0000), operator: op, alpha: 90)
        withMasks.draw(sprite.view, x: x, y: 34, mask: disc.view, operator: op, alpha: i % 2 == 0 ? 255 : 170)
    }
    return (pixelChecksum(surface.view), pixelChecksum(masked.view))
}

/// Blurred patches: the disc mask and a sprite-filled ARGB patch.
func renderBlur(_ family: KernelFamily) -> (a8: UInt64, argb: UInt64) {
    let blur = GaussianBlur()
    let disc = makeDisc(45)
    blur.blur(disc.view, radius: 6, family: family)
    guard let patch = Surface<ARGB8888>(width: 71, height: 53) else { fatalError("allocation") }
    var rng = SplitMix64(seed: 0xB1A2)
    for y in 0..<patch.height {
        for x in 0..<patch.width { patch.view[x, y] = (x / 9 + y / 7) % 3 == 0 ? rng.premultipliedColor().argb : 0 }
    }
    blur.blur(patch.view, radius: 10, family: family)
    blur.blur(PixelView(base: patch.pixels + 3, width: 40, height: 30, rowStride: patch.rowStride), radius: 3.3, family: family)
    return (pixelChecksum(disc.view), pixelChecksum(patch.view))
}

/// Colour matrices (`ColorMatrixKernels`, the layer filters): saturate,
/// contrast and a full 4×5 matrix with offsets over random premultiplied
/// pixels, an odd width and a sub-view with padded rows.
func renderColorMatrix(_ family: KernelFamily) -> UInt64 {
    guard let patch = Surface<ARGB8888>(width: 61, height: 37) else { fatalError("allocation") }
    var rng = SplitMix64(seed: 0xC0105)
    for y in 0..<patch.height {
        for x in 0..<patch.width { patch.view[x, y] = (x + y) % 7 == 0 ? 0 : rng.premultipliedColor().argb }
    }
    ColorMatrixKernels.apply(ColorMatrixPlan(.saturation(1.7)), to: patch.view, family: family)
    ColorMatrixKernels.apply(ColorMatrixPlan(.contrast(0.6)), to: PixelView(base: patch.pixels + 5, width: 43, height: 30,
                                                                           rowStride: patch.rowStride), family: family)
    let matrix = ColorMatrix([0.5, 0.3, 0.2, 0, 0.05, -0.2, 1.1, 0.3, 0, 0.1, 0.1, -0.4, 0.9, 0, -0.05, 0.1, 0.1, 0, 0.8, 0.02])
    ColorMatrixKernels.apply(ColorMatrixPlan(matrix), to: patch.view, family: family)
    return pixelChecksum(patch.view)
}

/// Colour through resampled masks (`Canvas.fill(_:mask:transform:…)`,
/// the shadows' path): the blurred disc at sub-pixel translations (the
/// contiguous loop), scaled, turned, in perspective, at partial alpha.
func renderMaskFills(_ family: KernelFamily) -> UInt64 {
    guard let surface = Surface<ARGB8888>(width: 149, height: 97) else { fatalError("allocation") }
    let canvas = Canvas(surface.view, family: family)
    canvas.fill(surface.view.bounds, color: PremultipliedColor(red8: 230, green: 235, blue: 240))
    let disc = makeDisc(41)
    GaussianBlur().blur(disc.view, radius: 4, family: family)
    let maps: [AffineTransform] = [
        .translation(x: 3.3, y: 2.7), .translation(x: 50, y: 4), .translation(x: 95.9, y: 1.05),
        AffineTransform(scaleX: 0.7, y: 1.3).concatenating(.translation(x: 10.4, y: 45.6)),
        AffineTransform(rotationAngle: 0.6).concatenating(.translation(x: 70.2, y: 40.9)),
    ]
    for (k, map) in maps.enumerated() {
        let color = PremultipliedColor(red8: UInt8(50 * k), green: 20, blue: 80, alpha: k % 2 == 0 ? 120 : 255)
        canvas.fill(surface.view.bounds, mask: disc.view, transform: map, color: color, alpha: k == 3 ? 170 : 255)
    }
    let tilt = ProjectiveTransform(m00: 1, m01: 0.1, m02: 100, m10: 0.05, m11: 1, m12: 50, m20: 0.002, m21: 0.001, m22: 1)
    canvas.fill(surface.view.bounds, mask: disc.view, projective: tilt, color: PremultipliedColor(red8: 0, green: 0, blue: 0, alpha: 90))
    return pixelChecksum(surface.view)
}

/// Ring sectors in closed form (`SectorRasterizer`: the ring part in
/// `Float`, four pixels at a time, the rays in `Double`): whole rings,
/// short and long sweeps, thin and thick rings, centres on pixel centres
/// (the axis lanes), mirrored and turned maps, a clip through them.
func renderSectors(_ family: KernelFamily) -> UInt64 {
    guard let surface = Surface<ARGB8888>(width: 167, height: 131) else { fatalError("allocation") }
    var canvas = Canvas(surface.view, family: family)
    let rasterizer = SectorRasterizer()
    canvas.fill(surface.view.bounds, color: PremultipliedColor(red8: 250, green: 250, blue: 240))
    var arc = Path()
    arc.arc(center: PathPoint(x: 0, y: 0), radius: 30, startAngle: 0.3, endAngle: 2 * FloatMath.pi + 0.3, clockwise: true)
    guard let circle = arc.circularArc else { fatalError("not an arc") }
    let cases: [(Double, Double, Double, AffineTransform)] = [
        (8, 0, 1, .translation(x: 40.5, y: 40.5)),                       // whole ring, centre on a pixel centre
        (10, 0.05, 0.42, .translation(x: 120.3, y: 38.8)),
        (3, 0.3, 0.95, AffineTransform(a: -1.2, b: 0, c: 0, d: 1.2, tx: 60.7, ty: 92.1)),
        (14, 0.6, 0.61, AffineTransform(rotationAngle: 0.4).concatenating(.translation(x: 128, y: 95.25))),
        (0.7, 0.1, 0.55, .translation(x: 30.2, y: 100.6)),
    ]
    for (k, (width, start, end, map)) in cases.enumerated() {
        guard let sector = circle.strokeSector(width: width, start: start, end: end)?.mapped(by: map) else { fatalError("not a sector") }
        let color = PremultipliedColor(red8: UInt8(40 * k), green: 90, blue: 200, alpha: k == 2 ? 160 : 255)
        canvas.fill(sector, color: color, using: rasterizer)
    }
    canvas.clip(to: IntRect(x: 70, y: 20, width: 60, height: 90))
    if let sector = circle.strokeSector(width: 6, start: 0.2, end: 0.9)?.mapped(by: .translation(x: 100.5, y: 66)) {
        canvas.fill(sector, color: PremultipliedColor(red8: 200, green: 30, blue: 30, alpha: 200), using: rasterizer)
    }
    return pixelChecksum(surface.view)
}

let simd = render(.simd)
let reference = render(.reference)
print("argb8888 simd=\(hex(simd.argb)) reference=\(hex(reference.argb))")
print("xrgb8888 simd=\(hex(simd.xrgb)) reference=\(hex(reference.xrgb))")
print("rgb565   simd=\(hex(simd.rgb565)) reference=\(hex(reference.rgb565))")
print("rgb565-dithered simd=\(hex(simd.dithered)) reference=\(hex(reference.dithered))")
let paintsSIMD = renderPaints(.simd)
let paintsReference = renderPaints(.reference)
print("paints   simd=\(hex(paintsSIMD)) reference=\(hex(paintsReference))")
let scaledSIMD = renderScaled(.simd)
let scaledReference = renderScaled(.reference)
print("scaled   simd=\(hex(scaledSIMD)) reference=\(hex(scaledReference))")
let pathsSIMD = renderPaths(.simd)
let pathsReference = renderPaths(.reference)
print("paths    simd=\(hex(pathsSIMD)) reference=\(hex(pathsReference))")
let sectorsSIMD = renderSectors(.simd)
let sectorsReference = renderSectors(.reference)
print("sectors  simd=\(hex(sectorsSIMD)) reference=\(hex(sectorsReference))")
let simdOps = renderOperators(.simd), referenceOps = renderOperators(.reference)
print("operators simd=\(hex(simdOps.operators)) reference=\(hex(referenceOps.operators))")
print("masks     simd=\(hex(simdOps.masks)) reference=\(hex(referenceOps.masks))")
let simdBlur = renderBlur(.simd), referenceBlur = renderBlur(.reference)
print("blur-a8   simd=\(hex(simdBlur.a8)) reference=\(hex(referenceBlur.a8))")
print("blur-argb simd=\(hex(simdBlur.argb)) reference=\(hex(referenceBlur.argb))")
let maskFillsSIMD = renderMaskFills(.simd), maskFillsReference = renderMaskFills(.reference)
print("mask-fills simd=\(hex(maskFillsSIMD)) reference=\(hex(maskFillsReference))")
let colorMatrixSIMD = renderColorMatrix(.simd), colorMatrixReference = renderColorMatrix(.reference)
print("color-matrix simd=\(hex(colorMatrixSIMD)) reference=\(hex(colorMatrixReference))")
let runtimeRetains = bridgeObjectRetainsReturnTheirArgument()
print("runtime   bridge-object retains \(runtimeRetains ? "return their argument" : "DO NOT return their argument")")
if !runtimeRetains {
    print("rastercheck: the Swift runtime's bridge-object retains do not return their argument (board-runtime/bridge_object_retain.c)")
    exit(1)
}
if simd != reference || paintsSIMD != paintsReference || scaledSIMD != scaledReference || pathsSIMD != pathsReference || sectorsSIMD != sectorsReference
    || simdOps != referenceOps || simdBlur != referenceBlur || maskFillsSIMD != maskFillsReference
    || colorMatrixSIMD != colorMatrixReference {
    print("rastercheck: SIMD and reference kernels differ")
    exit(1)
}
