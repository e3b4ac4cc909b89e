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
func render(_ family: KernelFamily) -> (argb: UInt64, xrgb: UInt64, rgb565: UInt64) {
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
    return (pixelChecksum(surface.view), pixelChecksum(xrgb.view), pixelChecksum(rgb565.view))
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

let simd = render(.simd)
let reference = render(.reference)
print("argb8888 simd=\(hex(simd.argb)) reference=\(hex(reference.argb))")
print("xrgb8888 simd=\(hex(simd.xrgb)) reference=\(hex(reference.xrgb))")
print("rgb565   simd=\(hex(simd.rgb565)) reference=\(hex(reference.rgb565))")
let simdOps = renderOperators(.simd), referenceOps = renderOperators(.reference)
print("operators simd=\(hex(simdOps.operators)) reference=\(hex(referenceOps.operators))")
print("masks     simd=\(hex(simdOps.masks)) reference=\(hex(referenceOps.masks))")
let simdBlur = renderBlur(.simd), referenceBlur = renderBlur(.reference)
print("blur-a8   simd=\(hex(simdBlur.a8)) reference=\(hex(referenceBlur.a8))")
print("blur-argb simd=\(hex(simdBlur.argb)) reference=\(hex(referenceBlur.argb))")
if simd != reference || simdOps != referenceOps || simdBlur != referenceBlur {
    print("rastercheck: SIMD and reference kernels differ")
    exit(1)
}
