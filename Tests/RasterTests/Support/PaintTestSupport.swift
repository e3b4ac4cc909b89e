import XCTest
import Raster
import TestSupport

/// Foundation (through XCTest) has an `AffineTransform` too; in these tests
/// the name means Raster's.

/// Helpers shared by the paint tests.
enum PaintFixtures {
    /// A 64×64 test picture: an 8-pixel checker of two colours tinted by a
    /// horizontal ramp, a one-pixel white frame, a translucent disc in the
    /// middle and a few thin lines, so filtering, edges and premultiplied
    /// alpha all show.
    static func picture(width: Int = 64, height: Int = 64) -> Surface<ARGB8888> {
        let s = Surface<ARGB8888>(width: width, height: height)!
        for y in 0..<height {
            for x in 0..<width {
                let checker = ((x / 8) + (y / 8)) % 2 == 0
                let ramp = UInt8(x * 255 / max(width - 1, 1))
                var c = checker ? PremultipliedColor(red8: ramp, green: 60, blue: 255 - ramp)
                                : PremultipliedColor(red8: 250, green: 230, blue: 80)
                if x == 0 || y == 0 || x == width - 1 || y == height - 1 { c = .white }
                if x == y || x == 3 * width / 4 { c = PremultipliedColor(red8: 0, green: 0, blue: 0) }
                let dx = Double(x) + 0.5 - Double(width) / 2, dy = Double(y) + 0.5 - Double(height) / 2
                if dx * dx + dy * dy < Double(width * width) / 25 {
                    c = PremultipliedColor(red8: 40, green: 200, blue: 90, alpha: 160)
                }
                s.view[x, y] = c.argb
            }
        }
        return s
    }

    /// The same picture in a guarded buffer whose last texel ends at a
    /// PROT_NONE page (rows `stride` apart), so any read past the image
    /// faults.
    static func guardedPicture(width: Int, height: Int, stride: Int) -> (GuardedBuffer<UInt32>, PixelView<ARGB8888>) {
        let pic = picture(width: width, height: height)
        let count = stride * (height - 1) + width
        let buffer = GuardedBuffer<UInt32>(count: count)
        buffer.pointer.initialize(repeating: 0xDEAD_BEEF, count: count)
        let view = PixelView<ARGB8888>(base: buffer.pointer, width: width, height: height, rowStride: stride)
        for y in 0..<height { for x in 0..<width { view[x, y] = pic.view[x, y] } }
        return (buffer, view)
    }

    /// An opaque canvas of `width`×`height` filled with a neutral grey
    /// checker, so transparent parts of a paint show.
    static func backdrop(width: Int, height: Int, family: KernelFamily = .simd) -> (Surface<ARGB8888>, Canvas) {
        let s = Surface<ARGB8888>(width: width, height: height)!
        var canvas = Canvas(s.view, family: family)
        canvas.fill(s.view.bounds, color: PremultipliedColor(red8: 128, green: 128, blue: 128))
        var y = 0
        while y < height {
            var x = (y / 8) % 2 * 8
            while x < width {
                canvas.fill(IntRect(x: x, y: y, width: 8, height: 8), color: PremultipliedColor(red8: 150, green: 150, blue: 150))
                x += 16
            }
            y += 8
        }
        canvas.family = family
        return (s, canvas)
    }

    static func channels(_ p: UInt32) -> [Double] {
        [Double(p >> 24), Double((p >> 16) & 0xFF), Double((p >> 8) & 0xFF), Double(p & 0xFF)]
    }

    /// Largest per-channel difference between a pixel and expected values.
    static func maxError(_ p: UInt32, _ expected: [Double]) -> Double {
        zip(channels(p), expected).map { abs($0 - $1) }.max()!
    }

    /// Compares with the golden; takes the surface, not a view, so the
    /// pixels stay alive while they are read (a `PixelView` does not own them).
    static func assertGolden(_ surface: Surface<ARGB8888>, _ name: String, file: StaticString = #filePath, line: UInt = #line) {
        let r = withExtendedLifetime(surface) { compareWithGolden(surface.view, name: name) }
        XCTAssertTrue(r.passed, r.message, file: file, line: line)
    }

    static func checksum(_ surface: Surface<ARGB8888>) -> UInt64 {
        withExtendedLifetime(surface) { pixelChecksum(surface.view) }
    }

    /// Shades one span with a paint into a fresh array.
    static func span<P: Paint>(_ paint: P, x: Int, y: Int, count: Int, family: KernelFamily) -> [UInt32] {
        var out = [UInt32](repeating: 0x1234_5678, count: count)
        out.withUnsafeMutableBufferPointer { paint.shade(x: x, y: y, count: count, into: $0.baseAddress!, family: family) }
        return out
    }
}
