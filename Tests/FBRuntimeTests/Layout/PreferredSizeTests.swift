@testable import FBRuntime
import Raster
import XCTest

/// `preferredSize`: bounds for a plain layer, the image in points, the
/// layout manager's answer, and measured text.
final class PreferredSizeTests: LayoutTestCase {
    final class FixedSizeManager: LayoutManager {
        func layoutSublayers(of layer: Layer) {}
        func preferredSize(of layer: Layer) -> Size? { Size(width: 12, height: .nan) }
    }

    func testPlainImageAndManager() {
        let plain = frameLayer("plain", 0, 0, 33, 44)
        XCTAssertEqual(plain.preferredSize, Size(width: 33, height: 44))
        let image = Layer()
        image.contents = LayerContents(Surface<ARGB8888>(width: 40, height: 20)!)
        image.contentsScale = 2
        XCTAssertEqual(image.preferredSize, Size(width: 20, height: 10))
        image.contentsScale = .nan
        XCTAssertEqual(image.preferredSize, Size(width: 40, height: 20))
        image.layoutManager = FixedSizeManager()
        XCTAssertEqual(image.preferredSize, Size(width: 12, height: 0))
    }

    /// The text's size: the advances of its glyphs (DejaVu Sans, no kerning
    /// pair in "Hill") by the font's line height, at 20 points per em.
    func testTextMeasuresItsText() throws {
        let font = try Font(path: TextTests.dejaVu)
        let text = TextLayer()
        text.font = font
        text.fontSize = 20
        text.string = "Hill"
        let scale = 20 / Double(font.unitsPerEm)
        let advances = "Hill".unicodeScalars.reduce(0.0) { $0 + Double(font.advance(of: font.glyph(for: $1))) * scale }
        XCTAssertEqual(text.preferredSize.width, advances, accuracy: 1e-9)
        XCTAssertEqual(text.preferredSize.height, Double(font.lineHeight) * scale, accuracy: 1e-9)
        let measured = TextLayout([TextLayout.Run("Hill", font: font, size: 20)])
        XCTAssertEqual(text.preferredSize, Size(width: measured.width, height: measured.height))

        // In a stack, a text item sizes to its text, and a change of the
        // text marks the stack.
        let row = Layer(name: "row")
        row.bounds = Rect(x: 0, y: 0, width: 300, height: 40)
        row.layoutManager = StackLayout(gap: 5)
        let icon = frameLayer("icon", 0, 0, 16, 16)
        try! row.addSublayer(icon); try! row.addSublayer(text)
        row.layoutIfNeeded()
        assertFrame(text, 21, 0, measured.width, measured.height)
        text.string = "Hill Hill"
        XCTAssertTrue(row.needsLayout)
        row.layoutIfNeeded()
        XCTAssertEqual(text.frame.width, text.preferredSize.width)
        XCTAssertGreaterThan(text.frame.width, measured.width)
    }
}
