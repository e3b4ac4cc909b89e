@testable import Controls
import FBRuntime
import Raster
import TestSupport
import XCTest

/// TextArea: wrapping, caret placement by tap on any line, line breaks
/// from the keyboard's return key, selection over lines, vertical
/// scrolling and bad input; a golden.
final class TextFieldAreaTests: XCTestCase {
    private var scene: ControlScene!

    override func tearDown() { scene?.finish(); scene = nil }

    /// A 200×120 area at (20, 20) in a 240×160 scene.
    private func makeArea(_ text: String = "") -> TextArea {
        scene?.finish()
        let theme = Theme.testing()
        scene = ControlScene(width: 240, height: 160, background: theme.colors.background)
        let area = TextArea(text: text, theme: theme)
        scene.add(area, frame: Rect(x: 20, y: 20, width: 200, height: 120))
        return area
    }

    private let sample = "Cotton 40 degrees, eco mode, spin 1200 and an extra rinse"

    func testTextWrapsAndCaretsFollowTheLines() {
        let area = makeArea(sample)
        XCTAssertGreaterThan(area.lineCount, 1)
        XCTAssertEqual(area.laidOutScalarCount, sample.unicodeScalars.count)
        let first = area.caretRect(at: 0)
        let lineStarts = (1...area.buffer.count).filter { area.caretRect(at: $0).minY > area.caretRect(at: $0 - 1).minY }
        XCTAssertEqual(lineStarts.count, area.lineCount - 1, "one step down per wrapped line")
        for i in lineStarts { XCTAssertEqual(area.caretRect(at: i).minX, first.minX, "a line starts at the left") }
        // The wrapped layout is the text layer's own.
        area.layoutIfNeeded()
        XCTAssertEqual(area.textLayer.layout.lines.count, area.lineCount)
    }

    func testTapPlacesTheCaretOnTheLineUnderTheFinger() {
        let area = makeArea(sample)
        let second = (1...area.buffer.count).first { area.caretRect(at: $0).minY > area.caretRect(at: 0).minY }!
        let target = second + 2
        let r = area.caretRect(at: target)
        scene.tap(20 + r.minX + 1, 20 + r.minY + r.height / 2)
        XCTAssertTrue(area.isEditing)
        XCTAssertEqual(area.buffer.caret, target)
        XCTAssertFalse(area.caretLayer.isHidden)
        // Below the text: the last line; at its right, the end.
        scene.advance(by: 1)
        scene.tap(215, 135)
        XCTAssertEqual(area.buffer.caret, area.buffer.count)
    }

    func testReturnKeyBreaksTheLine() {
        let area = makeArea()
        scene.root.bounds = Rect(x: 0, y: 0, width: 480, height: 272)
        let keyboard = Keyboard(theme: Theme.testing())
        Transaction.withoutActions { try! scene.root.addSublayer(keyboard) }
        keyboard.placeHidden()
        keyboard.attachKeys(to: scene.router)
        area.keyboard = keyboard
        scene.tap(100, 40)
        scene.advance(by: 0.5)
        XCTAssertTrue(keyboard.target === area)
        for key in [keyboard.keyCap(label: "o"), keyboard.keyCap(label: "k"), keyboard.keyCap(for: .enter), keyboard.keyCap(label: "a")] {
            let cap = key!
            let p = cap.convert(Point(x: cap.bounds.width / 2, y: cap.bounds.height / 2), to: nil)
            let id = scene.newTouch()
            scene.send(id, .began, p.x, p.y)
            scene.advance(by: 0.05)
            scene.send(id, .ended, p.x, p.y)
        }
        XCTAssertEqual(area.text, "ok\na")
        XCTAssertEqual(area.lineCount, 2)
        let caret = area.caretRect(at: area.buffer.caret), start = area.caretRect(at: 0)
        XCTAssertEqual(caret.minY, start.minY + start.height, accuracy: 1e-9, "the caret on the second line")
        // A break at the end: the caret on a new, empty line.
        area.insertReturn()
        XCTAssertEqual(area.caretRect(at: area.buffer.caret).minX, start.minX)
        XCTAssertEqual(area.caretRect(at: area.buffer.caret).minY, caret.minY + caret.height, accuracy: 1e-9)
    }

    func testSelectionOverLinesAndCopyPaste() {
        let area = makeArea(sample)
        let pasteboard = Pasteboard()
        area.beginEditing()
        area.select(4..<30)
        XCTAssertFalse(area.selectionLayer.isHidden)
        XCTAssertTrue(area.caretLayer.isHidden)
        let box = area.selectionLayer.path!.bounds
        XCTAssertGreaterThan(box.height, area.caretRect(at: 0).height * 1.5, "more than one line is covered")
        area.copy(to: pasteboard)
        XCTAssertEqual(pasteboard.string, String(sample.unicodeScalars.dropFirst(4).prefix(26)))
        area.setCaret(0)
        area.paste(from: pasteboard)
        XCTAssertTrue(area.text.hasPrefix(pasteboard.string!))
    }

    func testLongTextIsCutAndScrollsToTheCaret() {
        let area = makeArea()
        area.beginEditing()
        area.insertText(utf8: [UInt8](repeating: 0x61, count: 1 << 20))
        XCTAssertEqual(area.buffer.count, TextArea.defaultMaximumLength)
        XCTAssertEqual(area.laidOutScalarCount, TextArea.defaultMaximumLength)
        XCTAssertGreaterThan(area.scrollOffset, 0)
        let caret = area.caretRect(at: area.buffer.caret), clip = area.clipLayer.frame
        XCTAssertLessThanOrEqual(caret.maxY, clip.maxY + 1e-9)
        XCTAssertGreaterThanOrEqual(caret.minY, clip.minY - 1e-9)
        area.setCaret(0)
        XCTAssertEqual(area.scrollOffset, 0)
        _ = scene.render()
    }

    func testGolden() {
        let area = makeArea(sample)
        area.beginEditing()
        area.select(area.buffer.wordRange(at: 24))
        XCTAssertEqual(area.buffer.selectedText, "mode")
        scene.assertGolden("controls-text-area")
    }
}
