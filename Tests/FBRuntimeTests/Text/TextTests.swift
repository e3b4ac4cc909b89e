import CFreeType
@testable import FBRuntime
@testable import FBText
import Foundation
import Raster
import TestSupport
import XCTest

/// Fonts, shaping, line layout, the glyph cache and TextLayer.
///
/// Oracles: HarfBuzz called directly (its own face from the file, not
/// through `Font`) for glyphs and advances; FreeType's own anti-aliased
/// renderer (`FT_Render_Glyph`, unhinted) for the pixels of a glyph
/// drawn by a TextLayer, within ≤ 26 levels per pixel and ≤ 1.5 levels
/// mean over the glyph's box. Both renderers compute exact area coverage
/// at 1/256 px, and the scaled points agree to 1/64 px; what differs is
/// the flattening of curves into chords: FreeType's to 1/16 px (a
/// bisection count from the control-point deviation), ours to 0.1 px, so a
/// curved edge may sit up to 0.1 px (26 levels) apart. (Flattening ours
/// finer does not bring them closer: FreeType's 1/16 px then dominates.)
/// Line positions come from the advances of words shaped on their own.
/// Fonts: DejaVu Sans (`fonts-dejavu-core`), Lohit Devanagari
/// (`fonts-lohit-deva`).
final class TextTests: XCTestCase {
    static let dejaVu = "/usr/share/fonts/truetype/dejavu/DejaVuSans.ttf"
    static let devanagari = "/usr/share/fonts/truetype/lohit-devanagari/Lohit-Devanagari.ttf"

    lazy var font = try! Font(path: TextTests.dejaVu)

    // MARK: Oracle: HarfBuzz on its own

    struct HBGlyph: Equatable { var id: UInt32; var advance: Int32; var dx: Int32; var dy: Int32 }

    /// `text` shaped by HarfBuzz with its own face over `path`, at the em
    /// scale, in visual order.
    func harfBuzz(_ text: String, path: String) -> [HBGlyph] {
        let blob = hb_blob_create_from_file(path)
        let face = hb_face_create(blob, 0)
        let font = hb_font_create(face)
        let buffer = hb_buffer_create()
        defer { hb_buffer_destroy(buffer); hb_font_destroy(font); hb_face_destroy(face); hb_blob_destroy(blob) }
        hb_buffer_add_utf8(buffer, text, Int32(text.utf8.count), 0, Int32(text.utf8.count))
        hb_buffer_guess_segment_properties(buffer)
        hb_shape(font, buffer, nil, 0)
        var n: UInt32 = 0
        let infos = hb_buffer_get_glyph_infos(buffer, &n)!
        let pos = hb_buffer_get_glyph_positions(buffer, &n)!
        return (0..<Int(n)).map { HBGlyph(id: infos[$0].codepoint, advance: pos[$0].x_advance, dx: pos[$0].x_offset, dy: pos[$0].y_offset) }
    }

    /// One line laid out by us equals HarfBuzz's glyphs, and the positions
    /// are its advances and offsets summed.
    func assertMatchesHarfBuzz(_ text: String, path: String, size: Double = 50, file: StaticString = #filePath, line: UInt = #line) {
        let font = try! Font(path: path)
        let layout = TextLayout([.init(text, font: font, size: size)], alignment: .left)
        let expected = harfBuzz(text, path: path)
        XCTAssertEqual(layout.glyphs.map(\.id), expected.map(\.id), "glyphs of \(text)", file: file, line: line)
        let s = size / Double(font.unitsPerEm)
        var pen = 0
        for (g, e) in zip(layout.glyphs, expected) {
            XCTAssertEqual(g.x, Double(pen + Int(e.dx)) * s, accuracy: 1e-9, file: file, line: line)
            XCTAssertEqual(g.y, Double(font.ascender) * s - Double(e.dy) * s, accuracy: 1e-9, file: file, line: line)
            pen += Int(e.advance)
        }
        XCTAssertEqual(layout.lines.count, 1, file: file, line: line)
        XCTAssertEqual(layout.width, Double(pen) * s, accuracy: 1e-9, file: file, line: line)
    }

    // MARK: Shaping

    func testLatinShapingGivesHarfBuzzAdvancesWithKerning() {
        assertMatchesHarfBuzz("AVATAR Wave, fly office", path: TextTests.dejaVu)
        let f = font
        func width(_ s: String) -> Double { TextLayout([.init(s, font: f, size: 100)]).width }
        XCTAssertLessThan(width("AV"), width("A") + width("V") - 1, "kerning pulls V under A")
        XCTAssertEqual(width("A") + width("V"), Double(f.advance(of: f.glyph(for: "A")) + f.advance(of: f.glyph(for: "V"))) * 100 / 2048,
                       accuracy: 1e-9)
    }

    func testArabicIsJoinedAndRightToLeft() {
        let text = "مرحبا بالعالم"
        assertMatchesHarfBuzz(text, path: TextTests.dejaVu)
        let f = font
        // Joining: beh between two letters is not the isolated form.
        let isolated = f.glyph(for: "ب")
        let joined = TextLayout([.init("ببب", font: f, size: 40)])
        XCTAssertEqual(joined.glyphs.count, 3)
        XCTAssertFalse(joined.glyphs.contains { $0.id == isolated }, "all three joined: initial, medial, final forms")
        // Right to left: the first character's cluster is the rightmost glyph.
        let layout = TextLayout([.init(text, font: f, size: 40)], width: 400)
        let rightmost = layout.glyphs.max { $0.x < $1.x }!
        XCTAssertEqual(rightmost.cluster, 0)
        // Natural alignment of a right-to-left paragraph is right.
        XCTAssertEqual(layout.lines[0].x + layout.lines[0].width, 400, accuracy: 1e-9)
    }

    func testDevanagariIsReorderedAndMissingGlyphsAreNotdef() {
        let text = "नमस्ते दुनिया"
        assertMatchesHarfBuzz(text, path: TextTests.devanagari)
        let deva = try! Font(path: TextTests.devanagari)
        // The vowel sign i is drawn before (left of) the consonant it follows.
        let ki = TextLayout([.init("कि", font: deva, size: 40)])
        XCTAssertEqual(ki.glyphs.count, 2)
        XCTAssertEqual(ki.glyphs[1].id, deva.glyph(for: "क"))
        XCTAssertLessThan(ki.glyphs[0].x, ki.glyphs[1].x)
        // DejaVu has no Devanagari: without fallback (FontLookupTests has
        // it), .notdef (0) boxes, laid out and drawn.
        let font = try! Font(path: TextTests.dejaVu)
        font.usesSystemFallback = false
        let missing = TextLayout([.init(text, font: font, size: 20)])
        XCTAssertFalse(missing.glyphs.isEmpty)
        XCTAssertTrue(missing.glyphs.filter { $0.id != font.glyph(for: " ") }.allSatisfy { $0.id == 0 })
        let layer = textLayer(text, size: 20, font: font)
        XCTAssertNotEqual(pixelChecksum(render(layer).view), pixelChecksum(render(Layer()).view), "the boxes are drawn")
    }

    func testScriptsAndRunsMixInOneLine() {
        let f = font
        // Latin then Arabic in one run: two pieces, the Arabic one reversed.
        let layout = TextLayout([.init("ab سلام", font: f, size: 30)], alignment: .left)
        let clusters = layout.glyphs.map(\.cluster)
        XCTAssertEqual(Array(clusters.prefix(3)), [0, 1, 2])
        // سلام: seen, lam-alef (one ligature), meem; clusters 3, 5, 9.
        XCTAssertEqual(Array(clusters.suffix(3)), [9, 5, 3], "Arabic right to left, lam-alef joined")
        // Two runs of different sizes: the second starts where the first ends.
        let two = TextLayout([.init("AV", font: f, size: 20), .init("AV", font: f, size: 40)], alignment: .left)
        let firstWidth = TextLayout([.init("AV", font: f, size: 20)]).width
        XCTAssertEqual(two.glyphs[2].x, firstWidth, accuracy: 1e-9)
        XCTAssertEqual(two.glyphs[2].scale, 40.0 / 2048)
        XCTAssertEqual(two.lines[0].height, Double(f.lineHeight) * 40 / 2048, accuracy: 1e-9, "the tallest run sets the line")
    }

    // MARK: Line layout

    func wordWidth(_ w: String, size: Double) -> Double {
        Double(harfBuzz(w, path: TextTests.dejaVu).reduce(0) { $0 + Int($1.advance) }) * size / 2048
    }

    func lineText(_ layout: TextLayout, _ i: Int, _ text: String) -> String {
        let bytes = Array(text.utf8)
        let clusters = Set(layout.glyphs[layout.lines[i].glyphs].map(\.cluster)).sorted()
        return String(decoding: clusters.map { bytes[$0] }, as: UTF8.self)
    }

    func testWrappingBreaksAfterSpacesAtTheWidth() {
        let f = font, size = 20.0
        let text = "Hello world of text\nwrapping"
        let hello = wordWidth("Hello", size: size), world = wordWidth("Hello world", size: size)
        // Room for "Hello world" but not "Hello world of".
        let width = world + 1
        let layout = TextLayout([.init(text, font: f, size: size)], width: width, isWrapped: true, alignment: .left)
        XCTAssertEqual(layout.lines.count, 3)
        XCTAssertEqual(lineText(layout, 0, text), "Hello world")
        XCTAssertEqual(layout.lines[0].width, world, accuracy: 1e-9, "the trailing space takes no width")
        XCTAssertEqual(lineText(layout, 1, text), "of text")
        XCTAssertEqual(lineText(layout, 2, text), "wrapping")
        let step = Double(f.lineHeight) * size / 2048
        for (i, line) in layout.lines.enumerated() {
            XCTAssertEqual(line.top, Double(i) * step, accuracy: 1e-9)
            XCTAssertEqual(line.baseline, line.top + Double(f.ascender) * size / 2048, accuracy: 1e-9)
            XCTAssertEqual(layout.glyphs[line.glyphs.lowerBound].x, 0, accuracy: 1e-9)
            XCTAssertLessThanOrEqual(line.width, width)
        }
        XCTAssertGreaterThan(world, hello)
        // Without wrapping: one line per paragraph.
        XCTAssertEqual(TextLayout([.init(text, font: f, size: size)], width: width).lines.count, 2)
        // A word wider than the line is broken between letters.
        let long = TextLayout([.init("abcdefghijklmnop", font: f, size: size)], width: 50, isWrapped: true)
        XCTAssertGreaterThan(long.lines.count, 2)
        for line in long.lines { XCTAssertLessThanOrEqual(line.width, 50); XCTAssertFalse(line.glyphs.isEmpty) }
        XCTAssertEqual(long.glyphs.count, 16)
        // Lines below the height are left out (the first one always stays).
        let short = TextLayout([.init(text, font: f, size: size)], width: width, height: step * 2 + 0.5, isWrapped: true)
        XCTAssertEqual(short.lines.count, 2)
        XCTAssertEqual(TextLayout([.init(text, font: f, size: size)], width: width, height: 1, isWrapped: true).lines.count, 1)
    }

    func testTruncationPutsAnEllipsisAtTheStartMiddleOrEnd() {
        let f = font, size = 20.0
        let text = "Truncate this long line"
        let ellipsis = f.glyph(for: "…")
        XCTAssertNotEqual(ellipsis, 0)
        let width = wordWidth("Truncate this", size: size)
        func lay(_ mode: TextTruncation) -> TextLayout {
            TextLayout([.init(text, font: f, size: size)], width: width, truncation: mode, alignment: .left)
        }
        let end = lay(.end), start = lay(.start), middle = lay(.middle)
        for l in [end, start, middle] {
            XCTAssertTrue(l.lines[0].isTruncated)
            XCTAssertLessThanOrEqual(l.lines[0].width, width + 1e-9)
            XCTAssertEqual(l.glyphs.filter { $0.id == ellipsis }.count, 1)
        }
        let e = wordWidth("…", size: size)
        // End: "Truncate thi" + "…" is the longest prefix that fits.
        XCTAssertEqual(end.glyphs.last!.id, ellipsis)
        let kept = end.glyphs.count - 1
        XCTAssertEqual(end.glyphs[..<kept].map(\.cluster), Array(0..<kept))
        // One more glyph (with the spaces before it) would not have fitted.
        let full = lay(.none).glyphs
        var next = kept
        while full[next].id == f.glyph(for: " ") { next += 1 }
        XCTAssertGreaterThan(full[next].x + full[next].advance + e, width)
        // Start: "…" then a suffix ending with the last letter.
        XCTAssertEqual(start.glyphs.first!.id, ellipsis)
        XCTAssertEqual(start.glyphs.last!.cluster, text.utf8.count - 1)
        // Middle: the first and last letters stay, the ellipsis between.
        XCTAssertEqual(middle.glyphs.first!.cluster, 0)
        XCTAssertEqual(middle.glyphs.last!.cluster, text.utf8.count - 1)
        let m = middle.glyphs.firstIndex { $0.id == ellipsis }!
        XCTAssertTrue(m > 2 && m < middle.glyphs.count - 3)
        // Positions follow one another: the ellipsis takes its own advance.
        for i in 1..<end.glyphs.count {
            XCTAssertEqual(end.glyphs[i].x, end.glyphs[i - 1].x + end.glyphs[i - 1].advance, accuracy: 1e-9)
        }
        // Wrapped text cut by the height ends its last line with "…".
        let step = Double(f.lineHeight) * size / 2048
        let wrapped = TextLayout([.init(text + " and more words", font: f, size: size)], width: width, height: step * 2,
                                 isWrapped: true, truncation: .end)
        XCTAssertEqual(wrapped.lines.count, 2)
        XCTAssertFalse(wrapped.lines[0].isTruncated)
        XCTAssertTrue(wrapped.lines[1].isTruncated)
        XCTAssertEqual(wrapped.glyphs.last!.id, ellipsis)
        // No truncation: the line is left wider than the width.
        XCTAssertGreaterThan(lay(.none).lines[0].width, width)
    }

    func testAlignmentPlacesLinesInTheWidth() {
        let f = font, size = 20.0
        let text = "one two three four five six"
        let width = wordWidth("one two three", size: size) + 4
        func lay(_ a: TextAlignment) -> TextLayout {
            TextLayout([.init(text, font: f, size: size)], width: width, isWrapped: true, alignment: a)
        }
        let left = lay(.left), right = lay(.right), center = lay(.center), justified = lay(.justified), natural = lay(.natural)
        let n = left.lines.count
        XCTAssertGreaterThanOrEqual(n, 2)
        for i in 0..<n {
            let w = left.lines[i].width
            XCTAssertEqual(left.lines[i].x, 0)
            XCTAssertEqual(natural.lines[i].x, 0, "natural is left for Latin")
            XCTAssertEqual(right.lines[i].x, width - w, accuracy: 1e-9)
            XCTAssertEqual(center.lines[i].x, (width - w) / 2, accuracy: 1e-9)
            // Glyphs move with their line.
            let g = left.lines[i].glyphs.lowerBound
            XCTAssertEqual(right.glyphs[g].x - left.glyphs[g].x, width - w, accuracy: 1e-9)
        }
        // Justified: every line but the last spans the width, its spaces
        // widened equally; the last line is natural.
        for i in 0..<(n - 1) {
            let line = justified.lines[i]
            let last = justified.glyphs[line.glyphs.upperBound - 1]
            XCTAssertEqual(last.x + last.advance, width, accuracy: 1e-9)
            XCTAssertEqual(justified.glyphs[line.glyphs.lowerBound].x, 0)
        }
        XCTAssertEqual(justified.lines[n - 1].x, 0)
        XCTAssertEqual(justified.lines[n - 1].width, left.lines[n - 1].width, accuracy: 1e-9)
    }

    /// Seeded random strings of mixed scripts, marks, newlines, tabs and
    /// characters DejaVu lacks, in random boxes with every mode: no crash,
    /// and the layout's invariants hold.
    func testRandomTextKeepsLayoutInvariants() {
        let f = font, deva = try! Font(path: TextTests.devanagari)
        let pool = ["a", "W", "V", "A", " ", " ", "\n", "\t", "ب", "ل", "ا", "م", "क", "ि", "्", "ष", "\u{301}", "1", "…", "😀", "fi", "ffl"]
        let truncations: [TextTruncation] = [.none, .start, .middle, .end]
        let alignments: [TextAlignment] = [.natural, .left, .right, .center, .justified]
        var rng = SplitMix64(seed: 8)
        var linesChecked = 0
        for _ in 0..<400 {
            var runs: [TextLayout.Run] = []
            for _ in 0..<(1 + rng.below(3)) {
                var text = ""
                for _ in 0..<rng.below(30) { text += pool[rng.below(pool.count)] }
                runs.append(.init(text, font: rng.below(4) == 0 ? deva : f, size: [6, 13, 20, 41][rng.below(4)]))
            }
            let width = [Double.infinity, 0, 15, 60, 140][rng.below(5)]
            let height = [Double.infinity, 10, 40][rng.below(3)]
            let wrapped = rng.below(2) == 0
            let truncation = truncations[rng.below(4)]
            let layout = TextLayout(runs, width: width, height: height, isWrapped: wrapped,
                                    truncation: truncation, alignment: alignments[rng.below(5)])
            var next = 0
            for line in layout.lines {
                XCTAssertEqual(line.glyphs.lowerBound, next)
                next = line.glyphs.upperBound
                XCTAssertTrue(line.x.isFinite && line.width.isFinite && line.baseline.isFinite)
                let clusters = Set(layout.glyphs[line.glyphs].map(\.cluster))
                if width.isFinite && (wrapped || truncation != .none) && clusters.count > 1 {
                    XCTAssertLessThanOrEqual(line.width, width + 1e-6, "\(runs.map(\.string)) in \(width)")
                    linesChecked += 1
                }
            }
            XCTAssertEqual(next, layout.glyphs.count)
            for g in layout.glyphs { XCTAssertTrue(g.x.isFinite && g.y.isFinite) }
            if height.isFinite && layout.lines.count > 1 { XCTAssertLessThanOrEqual(layout.height, height + 1e-6) }
        }
        XCTAssertGreaterThan(linesChecked, 200, "the width limit was exercised")
    }

    // MARK: TextLayer

    let size = 120

    func render(_ layer: Layer, at time: MediaTime = 0, width: Int? = nil, height: Int? = nil) -> Surface<ARGB8888> {
        let w = width ?? size, h = height ?? size
        let root = Layer(name: "root")
        root.bounds = Rect(x: 0, y: 0, width: Double(w), height: Double(h))
        root.anchorPoint = .zero
        try! root.addSublayer(layer)
        let target = Surface<ARGB8888>(width: w, height: h)!
        Compositor().render(root, at: time, into: target.view, clearColor: .clear)
        return target
    }

    func textLayer(_ string: String, size: Double = 24, font: Font? = nil) -> TextLayer {
        let t = TextLayer()
        t.font = font ?? self.font
        t.fontSize = size
        t.string = string
        t.bounds = Rect(x: 0, y: 0, width: 110, height: 110)
        t.anchorPoint = .zero
        t.position = Point(x: 5, y: 5)
        return t
    }

    /// One glyph through TextLayer against FreeType's own anti-aliased
    /// bitmap of it at the same size, unhinted.
    func testGlyphMatchesFreeTypeRenderer() throws {
        var library: FT_Library?
        XCTAssertEqual(FT_Init_FreeType(&library), 0)
        defer { FT_Done_FreeType(library) }
        var face: FT_Face?
        XCTAssertEqual(FT_New_Face(library, TextTests.dejaVu, 0, &face), 0)
        defer { FT_Done_Face(face) }
        let f = font
        var worstOverall = 0
        for (character, pixels) in [("g", 40), ("@", 23), ("S", 61)] {
            let gid = f.glyph(for: Unicode.Scalar(character)!)
            XCTAssertEqual(FT_Set_Pixel_Sizes(face, 0, UInt32(pixels)), 0)
            XCTAssertEqual(FT_Load_Glyph(face, gid, fbr_ft_load_unhinted()), 0)
            let slot = face!.pointee.glyph!
            XCTAssertEqual(FT_Render_Glyph(slot, FT_RENDER_MODE_NORMAL), 0)
            let bitmap = slot.pointee.bitmap
            let left = Int(slot.pointee.bitmap_left), top = Int(slot.pointee.bitmap_top)
            // Put the bitmap's top left at (10, 10): the pen at (10 − left, 10 + top).
            let layer = textLayer(character, size: Double(pixels))
            let ascent = Double(f.ascender) * Double(pixels) / 2048
            layer.position = Point(x: Double(10 - left), y: Double(10 + top) - ascent)
            let image = render(layer).view
            var worst = 0, sum = 0, inside = 0
            for y in 0..<size {
                for x in 0..<size {
                    let bx = x - 10, by = y - 10
                    var expected = 0
                    if bx >= 0, by >= 0, bx < Int(bitmap.width), by < Int(bitmap.rows) {
                        expected = Int(bitmap.buffer[by * Int(bitmap.pitch) + bx])
                        inside += 1
                    }
                    let actual = Int(image[x, y] >> 24)
                    let d = abs(actual - expected)
                    worst = max(worst, d)
                    sum += d
                }
            }
            XCTAssertGreaterThan(inside, 100)
            XCTAssertLessThanOrEqual(worst, 26, "\(character) at \(pixels) px: worst \(worst)")
            XCTAssertLessThanOrEqual(Double(sum) / Double(inside), 1.5, "\(character) at \(pixels) px: mean \(Double(sum) / Double(inside))")
            worstOverall = max(worstOverall, worst)
            print("\(character) at \(pixels) px vs FT_Render_Glyph: worst \(worst), mean \(Double(sum) / Double(inside))")
        }
        print("glyph vs FT_Render_Glyph: worst \(worstOverall) levels")
    }

    func testTextSceneGolden() {
        let f = font
        let root = Layer(name: "root")
        root.bounds = Rect(x: 0, y: 0, width: 200, height: 120)
        root.anchorPoint = .zero
        root.backgroundColor = Color(rgb: 0x202830)
        let title = textLayer("Hello, AV World!", size: 20, font: f)
        title.position = Point(x: 6, y: 4)
        title.bounds = Rect(x: 0, y: 0, width: 188, height: 26)
        let styled = TextLayer()
        styled.font = f
        styled.fontSize = 14
        styled.attributedString = [TextRun("Red ", color: Color(rgb: 0xFF5040)), TextRun("big ", fontSize: 22),
                                   TextRun("مرحبا", color: Color(rgb: 0x60D0FF))]
        styled.anchorPoint = .zero
        styled.position = Point(x: 6, y: 30)
        styled.bounds = Rect(x: 0, y: 0, width: 188, height: 30)
        let wrapped = textLayer("Wrapped and centred text, truncated at the end of the box", size: 11, font: f)
        wrapped.isWrapped = true
        wrapped.alignmentMode = .center
        wrapped.truncationMode = .end
        wrapped.bounds = Rect(x: 0, y: 0, width: 110, height: 40)
        wrapped.position = Point(x: 6, y: 64)
        wrapped.foregroundColor = Color(rgb: 0xFFE070)
        let turned = textLayer("Turned", size: 16, font: f)
        turned.bounds = Rect(x: 0, y: 0, width: 60, height: 22)
        turned.anchorPoint = Point(x: 0.5, y: 0.5)
        turned.position = Point(x: 160, y: 88)
        turned.transform = Transform3D(rotationAngle: -0.5, x: 0, y: 0, z: 1)
        for l in [title, styled, wrapped, turned] { try! root.addSublayer(l) }
        let target = Surface<ARGB8888>(width: 200, height: 120)!
        Compositor().render(root, at: 0, into: target.view, clearColor: .clear)
        let result = compareWithGolden(target.view, name: "text-scene")
        XCTAssertTrue(result.passed, result.message)
    }

    func testFontSizeAndColorAnimationsEqualStaticFrames() {
        let animated = textLayer("Grow")
        animated.add(BasicAnimation(key: .custom("fontSize"), from: .scalar(20), to: .scalar(40), duration: 1), forKey: "size", at: 0)
        let at25 = textLayer("Grow", size: 25)
        XCTAssertEqual(pixelChecksum(render(animated, at: 0.25).view), pixelChecksum(render(at25).view))
        XCTAssertNotEqual(pixelChecksum(render(animated, at: 0.5).view), pixelChecksum(render(at25).view))
        XCTAssertEqual(animated.presentationValue(for: .custom("fontSize"), at: 0.75), .scalar(35))
        let tinted = textLayer("Tint")
        tinted.add(BasicAnimation(key: .custom("foregroundColor"), from: .color(.white), to: .color(Color(red: 1, green: 0, blue: 0)),
                                  duration: 1), forKey: "tint", at: 0)
        let half = textLayer("Tint")
        half.foregroundColor = Color(red: 1, green: 0.5, blue: 0.5)
        XCTAssertEqual(pixelChecksum(render(tinted, at: 0.5).view), pixelChecksum(render(half).view))
        // Runs with their own size do not follow the layer's fontSize.
        let fixed = textLayer("")
        fixed.attributedString = [TextRun("Fixed", fontSize: 18)]
        fixed.add(BasicAnimation(key: .custom("fontSize"), from: .scalar(20), to: .scalar(40), duration: 1), forKey: "size", at: 0)
        XCTAssertEqual(pixelChecksum(render(fixed, at: 0.5).view), pixelChecksum(render(textLayer("Fixed", size: 18)).view))
    }

    func testLayoutIsReusedWhileNothingChanges() {
        let layer = textLayer("Same text")
        for x in 0..<4 {
            layer.position = Point(x: Double(x), y: 5)
            _ = render(layer)
        }
        XCTAssertEqual(layer.layoutCache.misses, 1)
        layer.string = "Other text"
        _ = render(layer)
        XCTAssertEqual(layer.layoutCache.misses, 2)
    }

    func testTextIsSharpWhenScaledUp() {
        let layer = textLayer("l", size: 10)
        layer.transform = Transform3D(scaleX: 8, y: 8, z: 1)
        layer.anchorPoint = .zero
        layer.position = Point(x: 0, y: 0)
        let image = render(layer).view
        // The stem of "l" at 8× is some 8 px wide: solid inside, at most one
        // partial pixel at each side.
        let row = 60
        let partial = (0..<size).filter { let a = image[$0, row] >> 24; return a != 0 && a != 255 }
        let solid = (0..<size).filter { image[$0, row] >> 24 == 255 }
        XCTAssertLessThanOrEqual(partial.count, 2, "\(partial)")
        XCTAssertGreaterThan(solid.count, 5)
        // On a 2× display the glyphs are drawn at 2× (not a 1× image
        // scaled up): the same pixels as the layer scaled 2× at 1×.
        let text = textLayer("Sharp g", size: 12)
        let root = Layer(name: "root")
        root.bounds = Rect(x: 0, y: 0, width: 60, height: 60)
        root.anchorPoint = .zero
        try! root.addSublayer(text)
        let retina = Surface<ARGB8888>(width: size, height: size)!
        Compositor(scale: 2).render(root, at: 0, into: retina.view, clearColor: .clear)
        let scaled = textLayer("Sharp g", size: 12)
        scaled.position = Point(x: 10, y: 10)
        scaled.transform = Transform3D(scaleX: 2, y: 2, z: 1)
        XCTAssertEqual(pixelChecksum(retina.view), pixelChecksum(render(scaled).view))
        XCTAssertNotEqual(pixelChecksum(retina.view), pixelChecksum(render(Layer()).view))
    }

    // MARK: Glyph cache

    func testGlyphCacheCountsHitsAndMissesAndEvictsWithinBudget() {
        let cache = GlyphCache(budget: 1 << 20)
        let f = try! Font(path: TextTests.dejaVu, glyphCache: cache)
        let layer = textLayer("abcabc", font: f)
        _ = render(layer)
        // The first frame measures the ink (6 lookups, once per layout) and
        // draws (6 more).
        XCTAssertEqual(cache.misses, 3, "a, b, c loaded once")
        XCTAssertEqual(cache.hits, 9)
        XCTAssertEqual(cache.count, 3)
        _ = render(layer)
        XCTAssertEqual(cache.misses, 3)
        XCTAssertEqual(cache.hits, 15, "the same layout: its ink is not measured again")
        // The cost is the outline's storage.
        let ids = "abc".unicodeScalars.map { f.glyph(for: $0) }
        let costs = ids.map { id -> Int in
            let p = f.loadOutline(id)
            return p.points.count * 16 + p.verbs.count + GlyphCache.entryOverhead
        }
        XCTAssertEqual(cache.bytesUsed, costs.reduce(0, +))
        // A budget for a and b only: loading c evicts the least recently used.
        // Room for any two of a, b, c but not all three.
        cache.budget = costs.reduce(0, +) - 1
        XCTAssertEqual(cache.evictions, 1, "shrinking evicts the oldest (a)")
        XCTAssertFalse(cache.contains(fontID: f.id, glyph: ids[0]))
        _ = f.outline(of: ids[1])                  // b is now the newest
        _ = f.outline(of: ids[0])                  // a back in: c (oldest) goes
        XCTAssertTrue(cache.contains(fontID: f.id, glyph: ids[0]))
        XCTAssertTrue(cache.contains(fontID: f.id, glyph: ids[1]))
        XCTAssertFalse(cache.contains(fontID: f.id, glyph: ids[2]))
        XCTAssertLessThanOrEqual(cache.bytesUsed, cache.budget)
        // Many glyphs through a small budget: always within it.
        cache.budget = 8 * 1024
        _ = render(textLayer("The quick brown fox jumps over the lazy dog 0123456789", size: 8, font: f))
        XCTAssertLessThanOrEqual(cache.bytesUsed, 8 * 1024)
        XCTAssertGreaterThan(cache.evictions, 5)
        // Two fonts share one cache without mixing their glyphs.
        let other = try! Font(path: TextTests.devanagari, glyphCache: cache)
        XCTAssertNotEqual(other.id, f.id)
        XCTAssertEqual(other.outline(of: 1).points, other.loadOutline(1).points)
        XCTAssertEqual(f.outline(of: 1).points, f.loadOutline(1).points)
        // An outline larger than the whole budget is returned but not kept.
        cache.budget = 10
        XCTAssertFalse(f.outline(of: ids[0]).isEmpty)
        XCTAssertEqual(cache.count, 0)
    }

    // MARK: Bad input

    func testBadInputIsAnErrorOrClamped() throws {
        XCTAssertThrowsError(try Font(path: "/nonexistent/NoSuchFont.ttf")) { e in
            XCTAssertEqual((e as? FontError)?.kind, .cannotOpen)
            XCTAssertTrue("\(e)".contains("NoSuchFont.ttf"))
        }
        let dir = FileManager.default.temporaryDirectory
        let corrupt = dir.appendingPathComponent("fbr-corrupt-\(getpid()).ttf")
        try Data((0..<4096).map { UInt8(truncatingIfNeeded: $0 &* 7919) }).write(to: corrupt)
        defer { try? FileManager.default.removeItem(at: corrupt) }
        XCTAssertThrowsError(try Font(path: corrupt.path)) { XCTAssertEqual(($0 as? FontError)?.kind, .notAFont) }
        // A real font cut short.
        let truncated = dir.appendingPathComponent("fbr-truncated-\(getpid()).ttf")
        try Data(try Data(contentsOf: URL(fileURLWithPath: TextTests.dejaVu)).prefix(2000)).write(to: truncated)
        defer { try? FileManager.default.removeItem(at: truncated) }
        if let f = try? Font(path: truncated.path) {
            // FreeType may accept the header: then glyphs must not crash.
            _ = TextLayout([.init("Hello", font: f, size: 20)])
            _ = f.outline(of: 5)
        }
        XCTAssertThrowsError(try Font(path: dir.path)) { XCTAssertNotNil($0 as? FontError) }

        let empty = render(Layer())
        // Empty string, no font, NaN and negative sizes: nothing drawn.
        XCTAssertEqual(pixelChecksum(render(textLayer("")).view), pixelChecksum(empty.view))
        XCTAssertTrue(TextLayout([.init("", font: font, size: 20)]).lines.isEmpty)
        let noFont = textLayer("text"); noFont.font = nil
        XCTAssertEqual(pixelChecksum(render(noFont).view), pixelChecksum(empty.view))
        for s in [Double.nan, -5, 0] {
            XCTAssertEqual(pixelChecksum(render(textLayer("text", size: s)).view), pixelChecksum(empty.view), "size \(s)")
        }
        // Huge sizes are clamped (and drawn clipped, quickly): the stem of
        // a 4096-point "l" covers the target.
        let huge = textLayer("l", size: 1e12)
        XCTAssertEqual(huge.layout.glyphs.first?.scale, TextLayout.maximumFontSize / 2048)
        huge.position = Point(x: -440, y: -1000)   // the stem spans x −54…314, y −310…2802
        XCTAssertEqual(render(huge).view[60, 60], 0xFFFF_FFFF)
        _ = render(textLayer("W", size: .infinity))
        // Odd widths and heights.
        for w in [Double.nan, -1, 0, .infinity] {
            let l = TextLayout([.init("two words\nand more", font: font, size: 20)], width: w, height: w, isWrapped: true,
                               truncation: .middle, alignment: .justified)
            XCTAssertFalse(l.lines.isEmpty)
            for g in l.glyphs { XCTAssertTrue(g.x.isFinite && g.y.isFinite) }
        }
        // Out-of-range glyph ids have no outline.
        XCTAssertTrue(font.outline(of: 1_000_000).isEmpty)
        // Control characters and a lone newline.
        _ = render(textLayer("\n\t\r\u{0}\u{200B}a\n"))
    }
}
