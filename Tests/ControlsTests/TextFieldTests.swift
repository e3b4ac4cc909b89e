@testable import Controls
import FBRuntime
import Raster
import TestSupport
import XCTest

/// TextField: caret placement by tap, selection by drag and double tap,
/// copy/cut/paste, deleting, scrolling long text, the caret's blink, bad
/// input (1 MB, invalid UTF-8) and its look (goldens).
final class TextFieldTests: XCTestCase {
    private var scene: ControlScene!

    override func tearDown() { scene?.finish(); scene = nil }

    /// A 280×44 field at (20, 20) in a 320×84 scene.
    private func makeField(_ text: String = "", placeholder: String = "Name") -> TextField {
        scene?.finish()
        let theme = Theme.testing()
        scene = ControlScene(width: 320, height: 84, background: theme.colors.background)
        let field = TextField(text: text, placeholder: placeholder, theme: theme)
        scene.add(field, frame: Rect(x: 20, y: 20, width: 280, height: 44))
        return field
    }

    /// The glyph pen positions of `text` in the field's font, independent
    /// of the field: the oracle for caret positions.
    private func glyphXs(_ text: String) -> [Double] {
        TextLayout([TextLayout.Run(text, font: TestFonts.regular, size: Theme.testing().fonts.bodySize)]).glyphs.map { $0.x }
    }

    /// Display x of the caret at `index`.
    private func displayX(_ field: TextField, _ index: Int) -> Double { field.frame.minX + field.caretX(at: index) }

    /// A golden after the tree has settled, at a moment the caret is on
    /// (its blink is 0.5 s on, 0.5 s off from the last caret move).
    private func assertGolden(_ name: String, file: StaticString = #filePath, line: UInt = #line) {
        scene.advance(by: 1.1)
        let result = compareWithGolden(scene.render().view, name: name)
        XCTAssertTrue(result.passed, result.message, file: file, line: line)
    }

    // MARK: Caret from taps

    func testCaretPositionsComeFromTheGlyphLayout() {
        let field = makeField("Hello world")
        let xs = glyphXs("Hello world")
        XCTAssertEqual(xs.count, 11)
        let origin = field.clipLayer.frame.minX
        for i in 0..<11 { XCTAssertEqual(field.caretX(at: i), origin + xs[i], accuracy: 1e-9, "boundary \(i)") }
        XCTAssertGreaterThan(field.caretX(at: 11), field.caretX(at: 10))
    }

    func testTapPutsTheCaretAtTheNearestBoundary() {
        let field = makeField("Hello world")
        var began = 0
        field.onBeginEditing = { _ in began += 1 }
        XCTAssertFalse(field.isEditing)
        // Just right of the boundary between "Hello" and " ".
        scene.tap(displayX(field, 5) + 1, 42)
        XCTAssertTrue(field.isEditing)
        XCTAssertEqual(began, 1)
        XCTAssertEqual(field.buffer.caret, 5)
        XCTAssertFalse(field.caretLayer.isHidden)
        XCTAssertEqual(field.caretLayer.frame.minX, (field.caretX(at: 5) - field.clipLayer.frame.minX).rounded())
        // Just left of the boundary after "Hel": 3, not 4.
        scene.advance(by: 1)
        scene.tap(displayX(field, 3) + 0.4 * (displayX(field, 4) - displayX(field, 3)), 42)
        XCTAssertEqual(field.buffer.caret, 3)
        // Beyond the text: the end; left of it: the start.
        scene.advance(by: 1)
        scene.tap(290, 42)
        XCTAssertEqual(field.buffer.caret, 11)
        scene.advance(by: 1)
        scene.tap(21, 42)
        XCTAssertEqual(field.buffer.caret, 0)
        XCTAssertEqual(began, 1, "editing began once")
    }

    // MARK: Selection

    func testDragSelectsFromWhereTheFingerLanded() {
        let field = makeField("Hello world")
        scene.drag(from: Point(x: displayX(field, 6), y: 42), to: Point(x: displayX(field, 11) + 5, y: 42))
        XCTAssertEqual(field.buffer.selection, 6..<11)
        XCTAssertEqual(field.buffer.selectedText, "world")
        XCTAssertFalse(field.selectionLayer.isHidden)
        XCTAssertTrue(field.caretLayer.isHidden, "no caret over a selection")
        XCTAssertEqual(field.selectionLayer.frame.width, field.caretX(at: 11) - field.caretX(at: 6), accuracy: 1e-9)
        // Dragging back left of the anchor selects the other way.
        scene.advance(by: 1)
        scene.drag(from: Point(x: displayX(field, 5), y: 42), to: Point(x: displayX(field, 0), y: 42))
        XCTAssertEqual(field.buffer.selection, 0..<5)
        XCTAssertEqual(field.buffer.caret, 0)
    }

    func testDoubleTapSelectsTheWord() {
        let field = makeField("Hello brave world")
        let x = (displayX(field, 7) + displayX(field, 8)) / 2
        scene.tap(x, 42)
        XCTAssertFalse(field.buffer.hasSelection)
        scene.advance(by: 0.1)
        scene.tap(x + 2, 42)
        XCTAssertEqual(field.buffer.selection, 6..<11)
        XCTAssertEqual(field.buffer.selectedText, "brave")
        // A third tap later only moves the caret.
        scene.advance(by: 1)
        scene.tap(displayX(field, 8) - 0.5, 42)
        XCTAssertFalse(field.buffer.hasSelection)
        XCTAssertEqual(field.buffer.caret, 8)
    }

    func testCopyCutAndPasteThroughAPasteboard() {
        let field = makeField("Hello world")
        let pasteboard = Pasteboard()
        var changes: [String] = []
        field.onChange = { changes.append($0.text) }
        field.beginEditing()
        field.copy(to: pasteboard)
        XCTAssertNil(pasteboard.string, "nothing selected, nothing copied")
        field.select(0..<5)
        field.copy(to: pasteboard)
        XCTAssertEqual(pasteboard.string, "Hello")
        XCTAssertTrue(changes.isEmpty)
        field.setCaret(11)
        field.paste(from: pasteboard)
        XCTAssertEqual(field.text, "Hello worldHello")
        XCTAssertEqual(field.buffer.caret, 16)
        // Paste over a selection replaces it.
        field.select(6..<11)
        field.cut(to: pasteboard)
        XCTAssertEqual(pasteboard.string, "world")
        XCTAssertEqual(field.text, "Hello Hello")
        field.select(0..<5)
        field.paste(from: pasteboard)
        XCTAssertEqual(field.text, "world Hello")
        XCTAssertEqual(changes, ["Hello worldHello", "Hello Hello", "world Hello"])
    }

    // MARK: Editing

    func testDeleteBackwardAndCaretMoves() {
        let field = makeField("abc")
        var changes = 0
        field.onChange = { _ in changes += 1 }
        field.beginEditing()
        XCTAssertEqual(field.buffer.caret, 3)
        field.deleteBackward()
        XCTAssertEqual(field.text, "ab")
        field.moveCaretLeft()
        field.moveCaretLeft()
        field.deleteBackward()
        XCTAssertEqual(field.text, "ab", "nothing before the caret")
        XCTAssertEqual(changes, 1)
        field.moveCaretRight(extendingSelection: true)
        field.moveCaretRight(extendingSelection: true)
        XCTAssertEqual(field.buffer.selectedText, "ab")
        field.deleteBackward()
        XCTAssertEqual(field.text, "")
        XCTAssertFalse(field.placeholderLayer.isHidden, "the placeholder is back")
        field.insertText("Привет")
        XCTAssertEqual(field.text, "Привет")
        XCTAssertTrue(field.placeholderLayer.isHidden)
        XCTAssertEqual(changes, 3)
        field.text = "from code"
        XCTAssertEqual(changes, 3, "setting text calls no handler")
        var submitted: TextField?
        field.onSubmit = { submitted = $0 }
        field.submit()
        XCTAssertTrue(submitted === field)
    }

    func testLongTextScrollsToKeepTheCaretVisible() {
        let field = makeField()
        field.beginEditing()
        field.insertText(String(repeating: "m", count: 60))
        let area = field.clipLayer.frame
        XCTAssertGreaterThan(field.scrollOffset, 0)
        let caret = field.caretX(at: field.buffer.caret)
        XCTAssertLessThanOrEqual(caret + TextField.caretWidth, area.maxX + 1e-9)
        XCTAssertGreaterThan(caret, area.minX + area.width / 2, "the caret at the right end, not scrolled past")
        XCTAssertEqual(field.textLayer.frame.minX, -field.scrollOffset)
        field.setCaret(0)
        XCTAssertEqual(field.scrollOffset, 0)
        XCTAssertEqual(field.caretX(at: 0), area.minX)
    }

    func testTheCaretBlinksOnTheRenderThreadClock() {
        let field = makeField("abc")
        field.beginEditing()
        scene.advance(by: 0)
        let start = scene.now
        func opacity(_ t: MediaTime) -> Double? {
            guard case let .scalar(v)? = field.caretLayer.presentationValue(for: .opacity, at: t) else { return nil }
            return v
        }
        XCTAssertEqual(opacity(start + 0.2), 1)
        XCTAssertEqual(opacity(start + 0.7), 0)
        XCTAssertEqual(opacity(start + 10.2), 1)
        XCTAssertEqual(opacity(start + 10.7), 0)
        // An edit restarts it on.
        scene.advance(by: 0.7)
        field.insertText("d")
        scene.advance(by: 0)
        XCTAssertEqual(opacity(scene.now + 0.2), 1)
        field.endEditing()
        XCTAssertTrue(field.caretLayer.isHidden)
        XCTAssertTrue(field.caretLayer.animations.isEmpty)
    }

    // MARK: Bad input

    func testOneMegabyteIsCutAtTheLimitAndLaidOutBounded() {
        let field = makeField()
        field.beginEditing()
        let megabyte = [UInt8](repeating: 0x61, count: 1 << 20)
        field.insertText(utf8: megabyte)
        XCTAssertEqual(field.buffer.count, TextBuffer.defaultMaximumLength)
        XCTAssertEqual(field.laidOutScalarCount, TextBuffer.defaultMaximumLength)
        // More is refused; a 1 MB string set from code is cut too.
        field.insertText("more")
        XCTAssertEqual(field.buffer.count, TextBuffer.defaultMaximumLength)
        field.text = String(repeating: "ж", count: 1 << 19)
        XCTAssertEqual(field.buffer.count, TextBuffer.defaultMaximumLength)
        XCTAssertEqual(field.laidOutScalarCount, TextBuffer.defaultMaximumLength)
        XCTAssertEqual(field.textLayer.string.unicodeScalars.count, TextBuffer.defaultMaximumLength)
        // It draws, the caret in view at the end.
        let caret = field.caretX(at: field.buffer.caret)
        XCTAssertLessThanOrEqual(caret, field.clipLayer.frame.maxX)
        XCTAssertGreaterThanOrEqual(caret, field.clipLayer.frame.minX)
        _ = scene.render()
        // A lower limit cuts the text.
        field.maximumLength = 10
        XCTAssertEqual(field.laidOutScalarCount, 10)
    }

    func testInvalidUTF8BecomesReplacementCharacters() {
        let field = makeField()
        let bytes: [UInt8] = [0x61, 0xFF, 0x62, 0xC3, 0x28, 0xE2, 0x82, 0x63, 0xF0, 0x9F, 0x98, 0x80, 0xED, 0xA0, 0x80, 0xE2, 0x82]
        field.insertText(utf8: bytes)
        XCTAssertEqual(field.text, String(decoding: bytes, as: UTF8.self), "as the standard library decodes")
        XCTAssertEqual(field.text.unicodeScalars.filter { $0 == "\u{FFFD}" }.count, 7)
        XCTAssertEqual(field.laidOutScalarCount, field.buffer.count)
        _ = scene.render()
        // Through the bounded decoder too: 1 MB of garbage.
        field.text = ""
        field.insertText(utf8: [UInt8](repeating: 0xFF, count: 1 << 20))
        XCTAssertEqual(field.buffer.count, TextBuffer.defaultMaximumLength)
        XCTAssertTrue(field.buffer.scalars.allSatisfy { $0 == "\u{FFFD}" })
    }

    // MARK: Goldens

    func testGoldenEmptyWithPlaceholder() {
        _ = makeField(placeholder: "Programme name")
        assertGolden("controls-text-placeholder")
    }

    func testGoldenTextAndCaret() {
        let field = makeField("Cotton 40°")
        scene.tap(displayX(field, 6) + 1, 42)
        XCTAssertEqual(field.buffer.caret, 6)
        assertGolden("controls-text-caret")
    }

    func testGoldenSelection() {
        let field = makeField("Cotton 40° eco")
        field.beginEditing()
        field.select(7..<10)
        assertGolden("controls-text-selection")
    }
}
