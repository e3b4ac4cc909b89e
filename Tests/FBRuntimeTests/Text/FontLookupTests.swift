import XCTest
@testable import FBRuntime
import Raster

/// Fonts by family name through fontconfig (`Font(family:)`), and glyph
/// fallback for characters a font lacks (`Font.fallbacks`, then
/// `SystemFontFallback`). The oracle for fallback is the same text written
/// as explicit runs, each in the font that has its characters: laid out and
/// drawn, it must give the same glyphs, positions and pixels.
/// Fonts: DejaVu Sans (`fonts-dejavu-core`), Lohit Devanagari
/// (`fonts-lohit-deva`), both installed by `scripts/test`; fontconfig
/// (`libfontconfig1`) from the same packages.
final class FontLookupTests: XCTestCase {
    static let dejaVu = "/usr/share/fonts/truetype/dejavu/DejaVuSans.ttf"
    static let devanagari = "/usr/share/fonts/truetype/lohit-devanagari/Lohit-Devanagari.ttf"
    /// "Hello, नमस्ते world": Latin, Devanagari (with a conjunct and a
    /// vowel sign, which only whole-piece shaping gets right), Latin.
    static let mixed = "Hello, नमस्ते world"

    func testFamilyNamesFindTheirFiles() throws {
        let regular = try Font(family: "DejaVu Sans")
        XCTAssertEqual(regular.path, FontLookupTests.dejaVu)
        XCTAssertEqual(regular.familyName, "DejaVu Sans")
        XCTAssertFalse(regular.isBold)
        let bold = try Font(family: "dejavu sans", bold: true)
        XCTAssertTrue(bold.path.hasSuffix("/DejaVuSans-Bold.ttf"), bold.path)
        XCTAssertTrue(bold.isBold)
        let italic = try Font(family: "DejaVu Sans", italic: true)
        XCTAssertTrue(italic.path.hasSuffix("/DejaVuSans-Oblique.ttf"), italic.path)
        XCTAssertTrue(italic.isItalic)
        XCTAssertEqual(try Font(family: "Lohit Devanagari").path, FontLookupTests.devanagari)
    }

    func testUnknownFamilyIsAClearError() {
        XCTAssertThrowsError(try Font(family: "No Such Family 4711")) { error in
            let e = error as! FontError
            XCTAssertEqual(e.kind, .noSuchFamily)
            XCTAssertEqual(e.description, "font family \"No Such Family 4711\": no installed font has it (fc-list lists them)")
        }
    }

    /// The oracle: the same text as three runs, Devanagari in Lohit.
    func explicitRuns(_ dejaVu: Font, _ lohit: Font, size: Double) -> [TextLayout.Run] {
        [.init("Hello, ", font: dejaVu, size: size), .init("नमस्ते", font: lohit, size: size),
         .init(" world", font: dejaVu, size: size)]
    }

    func assertSameGlyphs(_ a: TextLayout, _ b: TextLayout, file: StaticString = #filePath, line: UInt = #line) {
        XCTAssertEqual(a.glyphs.count, b.glyphs.count, file: file, line: line)
        for (g, h) in zip(a.glyphs, b.glyphs) {
            XCTAssertTrue(g.font === h.font, "glyph \(g.id): \(g.font.path) vs \(h.font.path)", file: file, line: line)
            XCTAssertEqual(g.id, h.id, file: file, line: line)
            XCTAssertEqual(g.x, h.x, accuracy: 1e-9, file: file, line: line)
            XCTAssertEqual(g.y, h.y, accuracy: 1e-9, file: file, line: line)
            XCTAssertEqual(g.scale, h.scale, accuracy: 1e-12, file: file, line: line)
        }
        XCTAssertEqual(a.lines.count, b.lines.count, file: file, line: line)
        for (l, m) in zip(a.lines, b.lines) {
            XCTAssertEqual(l.height, m.height, accuracy: 1e-9, "line height takes the fallback's", file: file, line: line)
            XCTAssertEqual(l.baseline, m.baseline, accuracy: 1e-9, file: file, line: line)
            XCTAssertEqual(l.width, m.width, accuracy: 1e-9, file: file, line: line)
        }
    }

    func testExplicitFallbackListEqualsExplicitRuns() throws {
        let dejaVu = try Font(path: FontLookupTests.dejaVu)
        let lohit = try Font(path: FontLookupTests.devanagari)
        dejaVu.usesSystemFallback = false
        // Without a fallback: the missing-glyph box (glyph 0) for each.
        let bare = TextLayout([.init(FontLookupTests.mixed, font: dejaVu, size: 30)])
        XCTAssertTrue(bare.glyphs.contains { $0.id == 0 })
        XCTAssertTrue(bare.glyphs.allSatisfy { $0.font === dejaVu })

        dejaVu.fallbacks = [lohit]
        let fallen = TextLayout([.init(FontLookupTests.mixed, font: dejaVu, size: 30)])
        let oracle = TextLayout(explicitRuns(dejaVu, lohit, size: 30))
        XCTAssertFalse(fallen.glyphs.contains { $0.id == 0 })
        assertSameGlyphs(fallen, oracle)
        // Wrapped and truncated the same way too.
        let narrowFallen = TextLayout([.init(FontLookupTests.mixed + " " + FontLookupTests.mixed, font: dejaVu, size: 30)],
                                      width: 170, isWrapped: true)
        let narrowOracle = TextLayout(explicitRuns(dejaVu, lohit, size: 30) + [.init(" ", font: dejaVu, size: 30)]
                                      + explicitRuns(dejaVu, lohit, size: 30), width: 170, isWrapped: true)
        XCTAssertGreaterThan(narrowFallen.lines.count, 1)
        assertSameGlyphs(narrowFallen, narrowOracle)
    }

    func testSystemFallbackFindsTheDevanagariFont() throws {
        let dejaVu = try Font(path: FontLookupTests.dejaVu)
        let layout = TextLayout([.init(FontLookupTests.mixed, font: dejaVu, size: 30)])
        XCTAssertFalse(layout.glyphs.contains { $0.id == 0 }, "every character found a font")
        let fallbacks = layout.glyphs.filter { $0.font !== dejaVu }
        XCTAssertFalse(fallbacks.isEmpty)
        for g in fallbacks { XCTAssertEqual(g.font.familyName, "Lohit Devanagari") }
        // The same file as the explicit oracle, and the same layout.
        let lohit = fallbacks[0].font
        XCTAssertEqual(lohit.path, FontLookupTests.devanagari)
        assertSameGlyphs(layout, TextLayout(explicitRuns(dejaVu, lohit, size: 30)))
        // Asked once: laying out again loads nothing more.
        let loaded = SystemFontFallback.shared.loadedFontCount
        _ = TextLayout([.init(FontLookupTests.mixed, font: dejaVu, size: 40)])
        XCTAssertEqual(SystemFontFallback.shared.loadedFontCount, loaded)
    }

    /// A character no installed font has stays the missing-glyph box of
    /// the run's font.
    func testCharacterNoFontHasIsTheMissingGlyphBox() throws {
        let dejaVu = try Font(path: FontLookupTests.dejaVu)
        let layout = TextLayout([.init("a\u{F0000}b", font: dejaVu, size: 30)])   // a private-use plane
        XCTAssertEqual(layout.glyphs.map(\.id).count, 3)
        XCTAssertEqual(layout.glyphs[1].id, 0)
        XCTAssertTrue(layout.glyphs.allSatisfy { $0.font === dejaVu })
    }

    /// Drawn by a TextLayer, the fallback text is the explicit runs' text,
    /// pixel for pixel (glyph masks and outlines alike).
    func testTextLayerDrawsFallbackGlyphsAsExplicitRunsDo() throws {
        let dejaVu = try Font(path: FontLookupTests.dejaVu)
        let lohit = try Font(path: FontLookupTests.devanagari)
        dejaVu.usesSystemFallback = false
        dejaVu.fallbacks = [lohit]
        func render(_ configure: (TextLayer) -> Void) -> Surface<ARGB8888> {
            let root = Layer(name: "root")
            root.bounds = Rect(x: 0, y: 0, width: 320, height: 60)
            root.anchorPoint = .zero
            let text = TextLayer()
            text.font = dejaVu
            text.fontSize = 24
            text.foregroundColor = Color(red: 0, green: 0, blue: 0, alpha: 1)
            text.bounds = Rect(x: 0, y: 0, width: 310, height: 50)
            text.anchorPoint = .zero
            text.position = Point(x: 5, y: 5)
            configure(text)
            try! root.addSublayer(text)
            let target = Surface<ARGB8888>(width: 320, height: 60)!
            Compositor().render(root, at: 0, into: target.view, clearColor: .white)
            return target
        }
        let fallen = render { $0.string = FontLookupTests.mixed }
        let oracle = render {
            $0.attributedString = [TextRun("Hello, "), TextRun("नमस्ते", font: lohit), TextRun(" world")]
        }
        var differing = 0, ink = 0
        for y in 0..<60 { for x in 0..<320 {
            if fallen.view[x, y] != oracle.view[x, y] { differing += 1 }
            if fallen.view[x, y] != Color.white.premultiplied.argb { ink += 1 }
        } }
        XCTAssertEqual(differing, 0)
        XCTAssertGreaterThan(ink, 500, "text was drawn")
    }
}
