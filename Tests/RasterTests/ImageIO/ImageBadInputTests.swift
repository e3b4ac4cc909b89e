import Foundation
import ImageIO
import Raster
import TestSupport
import XCTest

/// Bad image files (issue 8's bad-input tests, issue 10's corpus): truncated
/// at several offsets, bytes flipped, sizes declared far over the limits —
/// always a clear `ImageError` or a well-formed image, never a crash and
/// never a giant allocation. Made here from the valid test images, so the
/// corpus needs no files of its own (`Fuzz/corpus/jpeg` holds the seeds the
/// fuzzer starts from).
final class ImageBadInputTests: XCTestCase {
    static let images = repositoryRoot.appendingPathComponent("Tests/Images")

    func bytes(_ name: String) throws -> [UInt8] {
        [UInt8](try Data(contentsOf: Self.images.appendingPathComponent(name)))
    }

    /// A small opaque PNG and a translucent one, made with `PNG.write`.
    func pngBytes(opaque: Bool) throws -> [UInt8] {
        let s = try XCTUnwrap(Surface<ARGB8888>(width: 37, height: 29))
        for y in 0..<29 { for x in 0..<37 { s.view.row(y)[x] = opaque ? 0xFF00_0000 | UInt32(x * 6) << 16 | UInt32(y * 8) : 0x8000_4020 } }
        let path = FileManager.default.temporaryDirectory.appendingPathComponent("fbr-bad-\(getpid())-\(opaque).png").path
        try PNG.write(s.view, to: path)
        return [UInt8](try Data(contentsOf: URL(fileURLWithPath: path)))
    }

    func load(_ b: [UInt8], _ options: ImageDecodeOptions = ImageDecodeOptions()) throws -> DecodedImage {
        try b.withUnsafeBytes { raw -> DecodedImage in try ImageFile.load(bytes: raw, options: options, what: "test") }
    }

    /// A decode that succeeded must be a sane image.
    func checkWellFormed(_ image: DecodedImage, file: StaticString = #filePath, line: UInt = #line) {
        XCTAssertGreaterThan(image.width, 0, file: file, line: line)
        XCTAssertGreaterThan(image.height, 0, file: file, line: line)
        for y in 0..<image.height {
            let row = image.surface.view.row(y)
            for x in 0..<image.width {
                let p = row[x], a = p >> 24
                if (p >> 16) & 0xFF > a || (p >> 8) & 0xFF > a || p & 0xFF > a {
                    XCTFail("not premultiplied at \(x),\(y)", file: file, line: line)
                    return
                }
            }
        }
    }

    func allInputs() throws -> [(String, [UInt8])] {
        [("photo.jpg", try bytes("photo-64x48.jpg")), ("progressive.jpg", try bytes("progressive-64x48.jpg")),
         ("gray.jpg", try bytes("gray-40x30.jpg")), ("cmyk.jpg", try bytes("cmyk-40x30.jpg")),
         ("opaque.png", try pngBytes(opaque: true)), ("translucent.png", try pngBytes(opaque: false))]
    }

    func testTruncatedFilesAreErrors() throws {
        for (name, whole) in try allInputs() {
            XCTAssertNoThrow(try load(whole), name)
            // Cut at 0, 2, 8 bytes, at eighths of the file, and just before the end.
            var cuts = [0, 2, 8, whole.count - 2]
            for k in 1..<8 { cuts.append(whole.count * k / 8) }
            for cut in cuts {
                let part = Array(whole.prefix(cut))
                // A PNG cut inside its final IEND chunk (12 bytes) still
                // has every pixel: libpng does not read that far, and the
                // image is whole. Anything shorter is an error.
                if name.hasSuffix(".png") && cut > whole.count - 12 {
                    checkWellFormed(try load(part))
                    continue
                }
                for options in [ImageDecodeOptions(), ImageDecodeOptions(fittingIn: 16, 16)] {
                    XCTAssertThrowsError(try load(part, options), "\(name) cut at \(cut)") { error in
                        XCTAssertFalse("\(error)".isEmpty)
                    }
                }
            }
        }
    }

    func testFlippedBytesNeverCrash() throws {
        var rng = SplitMix64(seed: 2024)
        var refused = 0, decoded = 0
        for (_, whole) in try allInputs() {
            for _ in 0..<150 {
                var b = whole
                // One to four flipped bytes, anywhere (headers included).
                for _ in 0...Int(rng.next() % 4) {
                    let i = Int(rng.next() % UInt64(b.count))
                    b[i] ^= UInt8(truncatingIfNeeded: rng.next() | 1)
                }
                let options = rng.next() % 2 == 0 ? ImageDecodeOptions() : ImageDecodeOptions(fittingIn: 20, 20)
                do {
                    let image = try load(b, options)
                    checkWellFormed(image)
                    decoded += 1
                } catch {
                    XCTAssertFalse("\(error)".isEmpty)
                    refused += 1
                }
            }
        }
        print("flipped bytes: \(refused) refused, \(decoded) decoded")
        XCTAssertGreaterThan(refused, 0)
    }

    /// JPEG's size fields are 16 bits: patch the first SOF's height and width.
    func jpegDeclaring(_ width: Int, _ height: Int) throws -> [UInt8] {
        var b = try bytes("photo-64x48.jpg")
        var i = 2
        while i + 9 < b.count {
            if b[i] == 0xFF && (b[i + 1] == 0xC0 || b[i + 1] == 0xC2) {
                b[i + 5] = UInt8(height >> 8); b[i + 6] = UInt8(height & 0xFF)
                b[i + 7] = UInt8(width >> 8); b[i + 8] = UInt8(width & 0xFF)
                return b
            }
            i += 1
        }
        XCTFail("no SOF marker")
        return b
    }

    /// The IHDR of a PNG patched to `width × height`, its CRC recomputed.
    func pngDeclaring(_ width: UInt32, _ height: UInt32) throws -> [UInt8] {
        var b = try pngBytes(opaque: true)
        for (k, v) in [(16, width), (20, height)] {
            for j in 0..<4 { b[k + j] = UInt8((v >> (24 - 8 * UInt32(j))) & 0xFF) }
        }
        // CRC-32 (IEEE, reflected) over the chunk type and data: bytes 12..<29.
        var crc: UInt32 = 0xFFFF_FFFF
        for byte in b[12..<29] {
            crc ^= UInt32(byte)
            for _ in 0..<8 { crc = crc & 1 != 0 ? (crc >> 1) ^ 0xEDB8_8320 : crc >> 1 }
        }
        crc ^= 0xFFFF_FFFF
        for j in 0..<4 { b[29 + j] = UInt8((crc >> (24 - 8 * UInt32(j))) & 0xFF) }
        return b
    }

    func testHugeDeclaredSizesAreRefusedBeforeAllocating() throws {
        // Over ImageDecodeLimits (65,535 per side, 256 Mpx): refused from
        // the header, whatever size is asked for.
        for options in [ImageDecodeOptions(), ImageDecodeOptions(fittingIn: 100, 100)] {
            // libpng's own IHDR check refuses it first ("Invalid IHDR data").
            XCTAssertThrowsError(try load(try pngDeclaring(100_000, 100_000), options)) {
                XCTAssertTrue("\($0)".contains("IHDR"), "\($0)")
            }
            XCTAssertThrowsError(try load(try pngDeclaring(60_000, 60_000), options)) {
                XCTAssertTrue("\($0)".contains("ImageDecodeLimits"), "\($0)")
            }
            // libjpeg's own maximum (65,500) refuses it first.
            XCTAssertThrowsError(try load(try jpegDeclaring(65_535, 65_535), options)) {
                XCTAssertTrue("\($0)".contains("65500"), "\($0)")
            }
            XCTAssertThrowsError(try load(try jpegDeclaring(30_000, 20_000), options)) {
                XCTAssertTrue("\($0)".contains("ImageDecodeLimits"), "\($0)")
            }
        }
        // Within the source limits but over RasterLimits at full size: a
        // clear error that says to fit it, before any pixel is decoded.
        XCTAssertThrowsError(try load(try jpegDeclaring(16_000, 16_000))) {
            XCTAssertTrue("\($0)".contains("RasterLimits"), "\($0)")
        }
        XCTAssertThrowsError(try load(try pngDeclaring(20_000, 10_000))) {
            XCTAssertTrue("\($0)".contains("RasterLimits"), "\($0)")
        }
        // Fitted, the decode runs into the missing data: an error, quickly.
        XCTAssertThrowsError(try load(try jpegDeclaring(16_000, 16_000), ImageDecodeOptions(fittingIn: 64, 64)))
        XCTAssertThrowsError(try load(try pngDeclaring(20_000, 10_000), ImageDecodeOptions(fittingIn: 64, 64)))
    }

    func testNotAnImage() throws {
        for junk: [UInt8] in [[], [0xFF], [0xFF, 0xD8], [0xFF, 0xD8, 0xFF], [0x89, 0x50, 0x4E, 0x47, 0x0D, 0x0A, 0x1A, 0x0A],
                              Array("GIF89a".utf8), [UInt8](repeating: 0, count: 100)] {
            XCTAssertThrowsError(try load(junk)) { XCTAssertFalse("\($0)".isEmpty) }
        }
        XCTAssertThrowsError(try load(Array("hello".utf8))) { XCTAssertTrue("\($0)".contains("not a PNG or JPEG"), "\($0)") }
    }

    func testCancelledDecodeStops() throws {
        let c = DecodeCancellation()
        c.cancel()
        var options = ImageDecodeOptions(fittingIn: 10, 10)
        options.cancellation = c
        for (name, whole) in try allInputs() {
            XCTAssertThrowsError(try load(whole, options), name) { error in
                XCTAssertTrue((error as? ImageError)?.isCancellation == true, "\(name): \(error)")
            }
        }
    }
}
