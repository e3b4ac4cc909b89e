import Raster
import XCTest

/// The test-side SVG reader's own pieces, on text whose drawing is known.
/// (Its reading of the whole corpus is checked against librsvg in
/// `SVGCorpusTests.testReaderAgreesWithLibrsvg`.)
final class SVGReaderTests: XCTestCase {
    func testReaderResolvesShorthands() throws {
        let d = try SVGPathDataParser.parse("m10 20 l5-5 5 5h10v-10zm1.5.5 c1 1 2 2 3 3 s5 5 6 6 q1 0 2 0 t2 2 a5 5 0 0 1 10 0")
        let p = { (x: Double, y: Double) in PathPoint(x, y) }
        XCTAssertEqual(d.segments, [
            .move(p(10, 20)), .line(p(15, 15)), .line(p(20, 20)), .line(p(30, 20)), .line(p(30, 10)), .close,
            .move(p(11.5, 20.5)), .cubic(control1: p(12.5, 21.5), control2: p(13.5, 22.5), to: p(14.5, 23.5)),
            .cubic(control1: p(15.5, 24.5), control2: p(19.5, 28.5), to: p(20.5, 29.5)),
            .quad(control: p(21.5, 29.5), to: p(22.5, 29.5)), .quad(control: p(23.5, 29.5), to: p(24.5, 31.5)),
            .arc(rx: 5, ry: 5, rotation: 0, largeArc: false, sweep: true, to: p(34.5, 31.5)),
        ])
        let t = try SVGReader.transform("translate(10 20) rotate(90) scale(2, 3)")
        let q = t.apply(PathPoint(1, 1))
        XCTAssertEqual(q.x, 10 - 3, accuracy: 1e-9)
        XCTAssertEqual(q.y, 20 + 2, accuracy: 1e-9)
    }

    func testReaderRefusesWhatItDoesNotTake() {
        let unsupported = [
            #"<svg width="8" height="8" viewBox="0 0 4 4"/>"#,
            #"<svg width="8" height="8"><text x="1" y="1">a</text></svg>"#,
            #"<svg width="8" height="8"><rect width="4" height="4" style="fill:red"/></svg>"#,
            #"<svg width="8" height="8"><linearGradient id="g" x1="0" y1="0" x2="1" y2="0"/></svg>"#,
            #"<svg width="8" height="8"><path d="M 0 0 L 4 4 X"/></svg>"#,
        ]
        for text in unsupported { XCTAssertThrowsError(try SVGReader.read(text), text) }
    }

    func testBasicShapesStartWhereSVGSays() throws {
        let drawing = try SVGReader.read(##"<svg width="64" height="64"><rect x="2" y="3" width="20" height="10" rx="4" fill="none" stroke="#000"/></svg>"##)
        guard case let .stroke(path, _, _, _) = drawing.operations.first else { return XCTFail("no stroke") }
        XCTAssertEqual(path.segments.first, .move(PathPoint(6, 3)))
        XCTAssertEqual(path.segments.count, 10)
        XCTAssertEqual(path.segments[2], .arc(rx: 4, ry: 4, rotation: 0, largeArc: false, sweep: true, to: PathPoint(22, 7)))
    }
}
