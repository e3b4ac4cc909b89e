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

let simd = render(.simd)
let reference = render(.reference)
print("argb8888 simd=\(hex(simd.argb)) reference=\(hex(reference.argb))")
print("xrgb8888 simd=\(hex(simd.xrgb)) reference=\(hex(reference.xrgb))")
print("rgb565   simd=\(hex(simd.rgb565)) reference=\(hex(reference.rgb565))")
if simd != reference {
    print("rastercheck: SIMD and reference kernels differ")
    exit(1)
}
