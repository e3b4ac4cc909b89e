import Foundation
import ImageIO
import Raster
import TestSupport
import XCTest

/// Arithmetic-coded JPEG is refused with a clear error. libjpeg's
/// arithmetic decoder reads zeros where the data ends early, without the
/// warning its Huffman decoder gives, so the jpeg fuzzer's 340-byte file
/// declaring 4096×53248 (`Fuzz/corpus/jpeg/regression-arithmetic-4096x53248.jpg`)
/// was decoded whole, fitted, in 0.1 s under ASan (seconds on a board).
/// `Tests/Images/arithmetic-gray-40x30.jpg` is `gray-40x30.jpg` recoded
/// losslessly by `jpegtran -arithmetic`: the same picture, which still
/// decodes from its Huffman-coded original.
final class JPEGArithmeticTests: XCTestCase {
    func bytes(_ path: String) throws -> [UInt8] {
        [UInt8](try Data(contentsOf: repositoryRoot.appendingPathComponent(path)))
    }

    func load(_ b: [UInt8], _ options: ImageDecodeOptions) throws -> DecodedImage {
        try b.withUnsafeBytes { raw -> DecodedImage in try ImageFile.load(bytes: raw, options: options, what: "test") }
    }

    func assertRefused(_ b: [UInt8], _ options: ImageDecodeOptions, file: StaticString = #filePath, line: UInt = #line) {
        XCTAssertThrowsError(try load(b, options), file: file, line: line) { error in
            XCTAssertTrue("\(error)".contains("arithmetic-coded JPEG is not supported"), "\(error)", file: file, line: line)
        }
    }

    func testArithmeticCodingIsRefused() throws {
        let arithmetic = try bytes("Tests/Images/arithmetic-gray-40x30.jpg")
        XCTAssertTrue(arithmetic.indices.dropLast().contains { arithmetic[$0] == 0xFF && arithmetic[$0 + 1] == 0xC9 },
                      "the test file is arithmetic-coded (SOF9)")
        assertRefused(arithmetic, ImageDecodeOptions())
        assertRefused(arithmetic, ImageDecodeOptions(fittingIn: 17, 13))
        XCTAssertThrowsError(try arithmetic.withUnsafeBytes { raw in try JPEG.size(bytes: raw) })
        // The same picture, Huffman-coded, decodes.
        let huffman = try load(try bytes("Tests/Images/gray-40x30.jpg"), ImageDecodeOptions())
        XCTAssertEqual(huffman.width, 40)
        XCTAssertEqual(huffman.height, 30)
    }

    /// The fuzzer's input: refused at the header, not decoded.
    func testFuzzerInputIsRefusedAtTheHeader() throws {
        let found = try bytes("Fuzz/corpus/jpeg/regression-arithmetic-4096x53248.jpg")
        XCTAssertEqual(found.count, 340)
        assertRefused(found, ImageDecodeOptions(fittingIn: 17, 13))
        assertRefused(found, ImageDecodeOptions())
    }
}
