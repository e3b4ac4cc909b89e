// rasterbench: Raster's kernels against pixman (and memcpy, the physical
// limit) on the same sizes in the same run. Single thread. Prints one row per
// case — our time, the peer's time, ratio = peer / ours — and writes the
// rows as JSON. Run through `scripts/bench raster`.
import CCairo
import CPixman
import CPosix
import Raster
import TestSupport

fbr_line_buffer_stdout()

/// `FBR_BENCH_ONLY=text` runs only the cases whose name contains `text`
/// (for profiling one row with `perf record`).
let only: String? = getenv("FBR_BENCH_ONLY").map { String(cString: $0) }
func wanted(_ name: String) -> Bool {
    guard let only else { return true }
    return name.contains(only)
}

/// Median wall time of one call of `body`, in milliseconds: a warm-up, then
/// at least 7 runs and at least 0.25 s of runs. Not run (0) when none of the
/// rows named `cases` is wanted (`FBR_BENCH_ONLY`).
func measure(_ cases: String..., body: () -> Void) -> Double {
    guard cases.contains(where: wanted) else { return 0 }
    body()
    var samples: [Double] = []
    let start = fbr_monotonic_ns()
    while samples.count < 7 || (fbr_monotonic_ns() - start < 250_000_000 && samples.count < 1000) {
        let t0 = fbr_monotonic_ns()
        body()
        samples.append(Double(fbr_monotonic_ns() - t0) / 1e6)
    }
    samples.sort()
    return samples[samples.count / 2]
}

struct Row {
    var name: String
    var ours: Double
    var peerName: String
    var peer: Double
    /// The smallest acceptable ratio peer/ours (nil: informational row).
    var target: Double?
    var ratio: Double { peer / ours }
    var met: Bool { target.map { ratio >= $0 } ?? true }
}

var rows: [Row] = []
@MainActor func add(_ name: String, ours: Double, peer: String, _ peerTime: Double, target: Double?) {
    guard wanted(name) else { return }
    let row = Row(name: name, ours: ours, peerName: peer, peer: peerTime, target: target)
    rows.append(row)
    func f(_ v: Double, _ digits: Int = 3) -> String { String(format: v, digits) }
    let targetText = target.map { "≥ " + f($0, 2) } ?? "info"
    print(pad(name, 44) + pad(f(ours) + " ms", 12) + pad(peer, 10) + pad(f(peerTime) + " ms", 12)
          + pad(f(row.ratio, 2) + "×", 9) + pad(targetText, 8) + (row.met ? "ok" : "MISSED"))
}

func pad(_ s: String, _ width: Int) -> String {
    s.count >= width ? s + " " : s + String(repeating: " ", count: width - s.count)
}

/// Fixed-point formatting without Foundation.
func String(format v: Double, _ digits: Int) -> String {
    var scale = 1.0
    for _ in 0..<digits { scale *= 10 }
    let n = Int((v * scale).rounded())
    let whole = n / Int(scale), frac = abs(n % Int(scale))
    var fracText = String(frac)
    while fracText.count < digits { fracText = "0" + fracText }
    return digits == 0 ? String(whole) : "\(whole).\(fracText)"
}

// MARK: Buffers shared by ours and pixman's: the same memory, the same data.

let width = 1920, height = 1080
var rng = SplitMix64(seed: 7)
guard let dst = Surface<ARGB8888>(width: width, height: height),
      let src = Surface<ARGB8888>(width: width, height: height),
      let srcOpaque = Surface<ARGB8888>(width: width, height: height),
      let dst565 = Surface<RGB565>(width: width, height: height),
      let dstX = Surface<XRGB8888>(width: width, height: height) else { fatalError("allocation") }
for y in 0..<height {
    for x in 0..<width {
        src.view[x, y] = rng.premultipliedColor().argb
        srcOpaque.view[x, y] = rng.premultipliedColor().argb | 0xFF00_0000
        dst.view[x, y] = rng.premultipliedColor().argb
    }
}
func pixmanImage<F>(_ s: Surface<F>, _ format: pixman_format_code_t) -> OpaquePointer {
    pixman_image_create_bits(format, Int32(s.width), Int32(s.height),
                             UnsafeMutableRawPointer(s.pixels).assumingMemoryBound(to: UInt32.self),
                             Int32(s.rowStride * F.bytesPerPixel))!
}
let pDst = pixmanImage(dst, PIXMAN_a8r8g8b8)
let pSrc = pixmanImage(src, PIXMAN_a8r8g8b8)
let pSrcOpaque = pixmanImage(srcOpaque, PIXMAN_a8r8g8b8)
let pDst565 = pixmanImage(dst565, PIXMAN_r5g6b5)
let pDstX = pixmanImage(dstX, PIXMAN_x8r8g8b8)
var halfColor = pixman_color_t(red: 0, green: 0, blue: 0, alpha: 0x8080)
let pHalfMask = pixman_image_create_solid_fill(&halfColor)!

let canvas = Canvas(dst.view)
let full = IntRect(x: 0, y: 0, width: width, height: height)
var fullBox = pixman_rectangle16_t(x: 0, y: 0, width: UInt16(width), height: UInt16(height))

print("Raster vs peers, \(width)×\(height) ARGB8888 premultiplied, one thread; ratio = peer / ours")
print(pad("case", 44) + pad("ours", 12) + pad("peer", 10) + pad("peer time", 12) + pad("ratio", 9) + pad("target", 8))

// Solid fills.
do {
    let opaque = PremultipliedColor(red8: 30, green: 140, blue: 220)
    var pColor = pixman_color_t(red: 30 * 257, green: 140 * 257, blue: 220 * 257, alpha: 0xFFFF)
    let ours = measure("solid fill, opaque") { canvas.fill(full, color: opaque) }
    let peer = measure("solid fill, opaque") { _ = pixman_image_fill_rectangles(PIXMAN_OP_OVER, pDst, &pColor, 1, &fullBox) }
    add("solid fill, opaque", ours: ours, peer: "pixman", peer, target: 1.0)

    let half = PremultipliedColor(red8: 30, green: 140, blue: 220, alpha: 128)
    var pHalf = pixman_color_t(red: UInt16(half.argb >> 16 & 0xFF) * 257, green: UInt16(half.argb >> 8 & 0xFF) * 257,
                               blue: UInt16(half.argb & 0xFF) * 257, alpha: 128 * 257)
    let ours2 = measure("solid fill, 50% alpha (over)") { canvas.fill(full, color: half) }
    let peer2 = measure("solid fill, 50% alpha (over)") { _ = pixman_image_fill_rectangles(PIXMAN_OP_OVER, pDst, &pHalf, 1, &fullBox) }
    add("solid fill, 50% alpha (over)", ours: ours2, peer: "pixman", peer2, target: 1.0)
}

// Image compositing.
do {
    let w16 = UInt16(width), h16 = UInt16(height)
    let over = measure("ARGB image OVER ARGB") { canvas.draw(src.view, x: 0, y: 0) }
    let pOver = measure("ARGB image OVER ARGB") { pixman_image_composite(PIXMAN_OP_OVER, pSrc, nil, pDst, 0, 0, 0, 0, 0, 0, w16, h16) }
    add("ARGB image OVER ARGB", ours: over, peer: "pixman", pOver, target: 1.0)

    let copy = measure("ARGB image SRC copy") { canvas.draw(srcOpaque.view, x: 0, y: 0, opaque: true) }
    let pCopy = measure("ARGB image SRC copy") { pixman_image_composite(PIXMAN_OP_SRC, pSrcOpaque, nil, pDst, 0, 0, 0, 0, 0, 0, w16, h16) }
    add("ARGB image SRC copy", ours: copy, peer: "pixman", pCopy, target: 1.0)

    let overHalf = measure("ARGB image OVER ARGB, 50% global alpha") { canvas.draw(src.view, x: 0, y: 0, alpha: 128) }
    let pOverHalf = measure("ARGB image OVER ARGB, 50% global alpha") { pixman_image_composite(PIXMAN_OP_OVER, pSrc, pHalfMask, pDst, 0, 0, 0, 0, 0, 0, w16, h16) }
    add("ARGB image OVER ARGB, 50% global alpha", ours: overHalf, peer: "pixman", pOverHalf, target: 1.0)

    // SRC with a global alpha: Dca' = Sca·g + Dca·(1 − g) over the drawn area
    // (CA's opacity applied to a copy); pixman: SRC through a solid mask.
    let srcHalf = measure("ARGB image SRC copy, 50% global alpha") { canvas.draw(srcOpaque.view, x: 0, y: 0, operator: .src, alpha: 128, opaque: true) }
    let pSrcHalf = measure("ARGB image SRC copy, 50% global alpha") { pixman_image_composite(PIXMAN_OP_SRC, pSrcOpaque, pHalfMask, pDst, 0, 0, 0, 0, 0, 0, w16, h16) }
    add("ARGB image SRC copy, 50% global alpha", ours: srcHalf, peer: "pixman", pSrcHalf, target: 1.0)
}

// Scan-out conversions against memcpy of the same source bytes.
do {
    let bytes = src.rowStride * height * 4
    let scratch = UnsafeMutableRawPointer.allocate(byteCount: bytes, alignment: 64)
    defer { scratch.deallocate() }
    let memcpyTime = measure("ARGB → RGB565 conversion", "ARGB → XRGB8888 conversion", "opaque copy vs memcpy (target: within 2×)") { memcpy(scratch, src.pixels, bytes) }
    let to565 = measure("ARGB → RGB565 conversion") { ScanoutConversion.copy(srcOpaque.view, into: dst565.view, rect: full) }
    add("ARGB → RGB565 conversion", ours: to565, peer: "memcpy", memcpyTime, target: nil)
    let p565 = measure("ARGB → RGB565 conversion") { pixman_image_composite(PIXMAN_OP_SRC, pSrcOpaque, nil, pDst565, 0, 0, 0, 0, 0, 0, UInt16(width), UInt16(height)) }
    add("ARGB → RGB565 conversion", ours: to565, peer: "pixman", p565, target: 1.0)
    let toX = measure("ARGB → XRGB8888 conversion") { ScanoutConversion.copy(src.view, into: dstX.view, rect: full) }
    add("ARGB → XRGB8888 conversion", ours: toX, peer: "memcpy", memcpyTime, target: nil)
    let copyTime = measure("opaque copy vs memcpy (target: within 2×)") { canvas.draw(srcOpaque.view, x: 0, y: 0, opaque: true) }
    // "Opaque copy within 2× of memcpy": ratio memcpy/ours must be ≥ 0.5.
    add("opaque copy vs memcpy (target: within 2×)", ours: copyTime, peer: "memcpy", memcpyTime, target: 0.5)
}

// Bilinear image draws, 1024×1024 source onto a 1024×1024 area, OVER.
do {
    let n = 1024
    guard let image = Surface<ARGB8888>(width: n, height: n), let target = Surface<ARGB8888>(width: n, height: n) else { fatalError() }
    for y in 0..<n { for x in 0..<n { image.view[x, y] = rng.premultipliedColor().argb | 0xFF00_0000 } }
    let pImage = pixmanImage(image, PIXMAN_a8r8g8b8), pTarget = pixmanImage(target, PIXMAN_a8r8g8b8)
    _ = pixman_image_set_filter(pImage, PIXMAN_FILTER_BILINEAR, nil, 0)
    let targetCanvas = Canvas(target.view)
    let area = IntRect(x: 0, y: 0, width: n, height: n)
    let cases: [(String, AffineTransform)] = [
        ("bilinear image, scaled 0.5×", .scale(x: 0.5, y: 0.5)),
        ("bilinear image, scaled 1.5×", .scale(x: 1.5, y: 1.5)),
        ("bilinear image, rotated 30°", AffineTransform.translation(x: -512, y: -512)
            .concatenating(.rotation(radians: Double.pi / 6)).concatenating(.translation(x: 512, y: 512))),
    ]
    for (name, transform) in cases {
        let paint = ImagePaint(image: image.view, transform: transform, filter: .bilinear, edge: .transparent)
        let ours = measure(name + ", 1024²") { targetCanvas.fill(area, paint: paint) }
        // pixman wants destination → source.
        let inv = transform.inverted()!
        var f = pixman_f_transform_t()
        f.m = ((inv.a, inv.c, inv.tx), (inv.b, inv.d, inv.ty), (0, 0, 1))
        var t = pixman_transform_t()
        _ = pixman_transform_from_pixman_f_transform(&t, &f)
        _ = pixman_image_set_transform(pImage, &t)
        let peer = measure(name + ", 1024²") { pixman_image_composite32(PIXMAN_OP_OVER, pImage, nil, pTarget, 0, 0, 0, 0, 0, 0, Int32(n), Int32(n)) }
        add(name + ", 1024²", ours: ours, peer: "pixman", peer, target: 1.0)
    }

    // Informational rows for the other sampler loops: nearest under a
    // rotation, and bilinear under a perspective map (the image as a card
    // turned about its left edge: the right edge 70 % as tall), per-pixel
    // division on both sides (pixman's general projective fetcher).
    let rotated = AffineTransform.translation(x: -512, y: -512)
        .concatenating(.rotation(radians: Double.pi / 6)).concatenating(.translation(x: 512, y: 512))
    let d = Double(n)
    let card = ProjectiveTransform(.scale(x: 1 / d, y: 1 / d))
        .concatenating(ProjectiveTransform.unitSquare(to: (0, 0), (d, 0.15 * d), (d, 0.85 * d), (0, d))!)
    let samplerCases: [(String, ImagePaint, ImageFilter, ProjectiveTransform)] = [
        ("nearest image, rotated 30°", ImagePaint(image: image.view, transform: rotated, filter: .nearest), .nearest,
         ProjectiveTransform(rotated)),
        ("bilinear image, perspective", ImagePaint(image: image.view, projective: card, filter: .bilinear), .bilinear, card),
    ]
    for (name, paint, filter, transform) in samplerCases {
        let ours = measure(name + ", 1024²") { targetCanvas.fill(area, paint: paint) }
        let inv = transform.inverted()!
        var f = pixman_f_transform_t()
        f.m = ((inv.m00, inv.m01, inv.m02), (inv.m10, inv.m11, inv.m12), (inv.m20, inv.m21, inv.m22))
        var t = pixman_transform_t()
        _ = pixman_transform_from_pixman_f_transform(&t, &f)
        _ = pixman_image_set_transform(pImage, &t)
        _ = pixman_image_set_filter(pImage, filter == .nearest ? PIXMAN_FILTER_NEAREST : PIXMAN_FILTER_BILINEAR, nil, 0)
        let peer = measure(name + ", 1024²") { pixman_image_composite32(PIXMAN_OP_OVER, pImage, nil, pTarget, 0, 0, 0, 0, 0, 0, Int32(n), Int32(n)) }
        add(name + ", 1024²", ours: ours, peer: "pixman", peer, target: nil)
    }
}

// Anti-aliased paths, solid colour source-over into ARGB8888, against cairo
// (its image backend, ARGB32 premultiplied — the same format) at the same
// flattening tolerance.
do {
    func curvedShape(_ size: Double) -> Path {
        var r = SplitMix64(seed: 300)
        var p = Path()
        let c = size / 2
        for i in 0..<100 {                                   // 100 cubics = 300 control segments
            let a0 = Double(i) / 100 * FloatMath.twoPi, a1 = Double(i + 1) / 100 * FloatMath.twoPi
            let (s0, c0) = FloatMath.sinCos(a0), (s1, c1) = FloatMath.sinCos(a1)
            let (s0b, c0b) = FloatMath.sinCos(a0 + 0.3), (s1b, c1b) = FloatMath.sinCos(a1 - 0.02)
            let r0 = c * (0.55 + 0.4 * r.unit()), r1 = c * (0.55 + 0.4 * r.unit())
            if i == 0 { p.move(to: PathPoint(c + r0 * c0, c + r0 * s0)) }
            p.cubic(to: PathPoint(c + r1 * c1, c + r1 * s1),
                    control1: PathPoint(c + c * c0b * r.unit(), c + c * s0b * r.unit()),
                    control2: PathPoint(c + c * 0.9 * c1b, c + c * 0.9 * s1b))
        }
        p.close()
        return p
    }
    /// A 16-px glyph-like shape: an outer contour with a counter (even-odd).
    func glyph(_ x: Double, _ y: Double) -> Path {
        var p = Path()
        p.addEllipse(x, y, 14, 16)
        p.addEllipse(x + 4, y + 4, 6, 8)
        return p
    }
    let rasterizer = PathRasterizer()
    let color = PremultipliedColor(red8: 200, green: 30, blue: 30, alpha: 230)
    func cairoTarget(_ s: Surface<ARGB8888>) -> (OpaquePointer, OpaquePointer) {
        let cs = cairo_image_surface_create_for_data(UnsafeMutableRawPointer(s.pixels).assumingMemoryBound(to: UInt8.self),
                                                     CAIRO_FORMAT_ARGB32, Int32(s.width), Int32(s.height), Int32(s.rowStride * 4))!
        let cr = cairo_create(cs)!
        cairo_set_tolerance(cr, FlattenLimits.defaultTolerance)
        cairo_set_source_rgba(cr, 200.0 / 255, 30.0 / 255, 30.0 / 255, 230.0 / 255)
        return (cs, cr)
    }
    for size in [512, 1024] {
        guard let s = Surface<ARGB8888>(width: size, height: size) else { fatalError() }
        let canvas = Canvas(s.view)
        let shape = curvedShape(Double(size))
        let ours = measure("AA fill, 300-segment curved shape, \(size)²") { canvas.fill(shape, color: color, using: rasterizer) }
        let (cs, cr) = cairoTarget(s)
        let peer = measure("AA fill, 300-segment curved shape, \(size)²") { cairo_new_path(cr); Cairo.append(shape, transform: .identity, to: cr); cairo_fill(cr) }
        cairo_destroy(cr); cairo_surface_destroy(cs)
        add("AA fill, 300-segment curved shape, \(size)²", ours: ours, peer: "cairo", peer, target: 1.5)
    }
    guard let s = Surface<ARGB8888>(width: 1024, height: 1024) else { fatalError() }
    let canvas = Canvas(s.view)
    let (cs, cr) = cairoTarget(s)
    defer { cairo_destroy(cr); cairo_surface_destroy(cs) }
    cairo_set_fill_rule(cr, CAIRO_FILL_RULE_EVEN_ODD)
    var glyphs: [Path] = []
    var r = SplitMix64(seed: 16)
    for i in 0..<1000 { glyphs.append(glyph(Double(i % 40) * 25 + r.unit(), Double(i / 40) * 25 + r.unit())) }
    let oursGlyphs = measure("AA fill, 1000 glyph-sized shapes (16 px)") { for g in glyphs { canvas.fill(g, color: color, rule: .evenOdd, using: rasterizer) } }
    let peerGlyphs = measure("AA fill, 1000 glyph-sized shapes (16 px)") { for g in glyphs { cairo_new_path(cr); Cairo.append(g, transform: .identity, to: cr); cairo_fill(cr) } }
    add("AA fill, 1000 glyph-sized shapes (16 px)", ours: oursGlyphs, peer: "cairo", peerGlyphs, target: 1.5)
    cairo_set_fill_rule(cr, CAIRO_FILL_RULE_WINDING)

    let circle = Path(circleCenter: PathPoint(512, 512), radius: 500)
    let oursCircle = measure("AA fill, one large circle (r = 500)") { canvas.fill(circle, color: color, using: rasterizer) }
    let peerCircle = measure("AA fill, one large circle (r = 500)") { cairo_new_path(cr); Cairo.append(circle, transform: .identity, to: cr); cairo_fill(cr) }
    add("AA fill, one large circle (r = 500)", ours: oursCircle, peer: "cairo", peerCircle, target: 1.5)

    var lines = Path()
    for i in 0..<1001 {
        let p = PathPoint(r.unit() * 1024, r.unit() * 1024)
        if i == 0 { lines.move(to: p) } else { lines.line(to: p) }
    }
    let style = StrokeStyle(width: 2, cap: .butt, join: .round)
    let oursLines = measure("stroke, 1000 random lines, width 2, round joins") { canvas.stroke(lines, color: color, style: style, using: rasterizer) }
    cairo_set_line_width(cr, 2)
    cairo_set_line_join(cr, CAIRO_LINE_JOIN_ROUND)
    let peerLines = measure("stroke, 1000 random lines, width 2, round joins") { cairo_new_path(cr); Cairo.append(lines, transform: .identity, to: cr); cairo_stroke(cr) }
    add("stroke, 1000 random lines, width 2, round joins", ours: oursLines, peer: "cairo", peerLines, target: 1.5)
}

// Linear gradient, three opaque stops across the width, pad, OVER.
do {
    let colors: [(UInt8, UInt8, UInt8)] = [(230, 40, 30), (40, 200, 60), (20, 60, 240)]
    let stops = colors.enumerated().map { GradientStop(PremultipliedColor(red8: $1.0, green: $1.1, blue: $1.2), at: Double($0) / 2) }
    let gradient = GradientPaint.linear(x0: 0, y0: 0, x1: Double(width), y1: 0, stops: stops)
    let ours = measure("linear gradient fill 1920×1080") { canvas.fill(full, paint: gradient) }
    var pStops = colors.enumerated().map { i, c in
        pixman_gradient_stop_t(x: pixman_fixed_t(i * 0x8000),
                               color: pixman_color_t(red: UInt16(c.0) * 257, green: UInt16(c.1) * 257, blue: UInt16(c.2) * 257, alpha: 0xFFFF))
    }
    var p0 = pixman_point_fixed_t(x: 0, y: 0), p1 = pixman_point_fixed_t(x: pixman_fixed_t(width << 16), y: 0)
    let pGradient = pixman_image_create_linear_gradient(&p0, &p1, &pStops, Int32(pStops.count))!
    let peer = measure("linear gradient fill 1920×1080") { pixman_image_composite32(PIXMAN_OP_OVER, pGradient, nil, pDst, 0, 0, 0, 0, 0, 0, Int32(width), Int32(height)) }
    add("linear gradient fill 1920×1080", ours: ours, peer: "pixman", peer, target: 1.0)
}

// Gaussian blur, radius 10 (sigma 5), 512², in place. No peer has a
// comparable blur (pixman's separable-convolution filter took about a
// second per image here, a 2-D kernel per pixel), so the row compares the
// SIMD path with Raster's own scalar reference: informational.
do {
    let n = 512, radius = 10.0
    guard let a8 = Surface<A8>(width: n, height: n), let argb = Surface<ARGB8888>(width: n, height: n) else { fatalError() }
    for y in 0..<n { for x in 0..<n {
        let on = (x / 32 + y / 32) % 2 == 0
        a8.view[x, y] = on ? 255 : 0
        argb.view[x, y] = on ? rng.premultipliedColor().argb : 0
    } }
    let blur = GaussianBlur()
    let oursA8 = measure("Gaussian blur radius 10, 512² A8") { blur.blur(a8.view, radius: radius) }
    let refA8 = measure("Gaussian blur radius 10, 512² A8") { blur.blur(a8.view, radius: radius, family: .reference) }
    let oursARGB = measure("Gaussian blur radius 10, 512² ARGB") { blur.blur(argb.view, radius: radius) }
    let refARGB = measure("Gaussian blur radius 10, 512² ARGB") { blur.blur(argb.view, radius: radius, family: .reference) }
    add("Gaussian blur radius 10, 512² A8", ours: oursA8, peer: "scalar", refA8, target: nil)
    add("Gaussian blur radius 10, 512² ARGB", ours: oursARGB, peer: "scalar", refARGB, target: nil)
}

// MARK: JSON
let outPath = "out/bench/raster.json"
_ = "out".withCString { mkdir($0, 0o755) }
_ = "out/bench".withCString { mkdir($0, 0o755) }
var json = "{\n  \"width\": \(width),\n  \"height\": \(height),\n  \"rows\": [\n"
for (i, r) in rows.enumerated() {
    json += "    {\"case\": \"\(r.name)\", \"ours_ms\": \(String(format: r.ours, 4)), \"peer\": \"\(r.peerName)\", \"peer_ms\": \(String(format: r.peer, 4)), \"ratio\": \(String(format: r.ratio, 3)), \"target\": \(r.target.map { String(format: $0, 2) } ?? "null"), \"met\": \(r.met)}"
    json += i + 1 < rows.count ? ",\n" : "\n"
}
json += "  ]\n}\n"
if let f = fopen(outPath, "w") {
    fputs(json, f)
    fclose(f)
    print("rows written to \(outPath)")
}
let missed = rows.filter { !$0.met }.count
print("targets: \(rows.count - missed) met, \(missed) missed")
