import XCTest
@testable import FBRuntime
@testable import FBText

/// `LogicalLine.truncate` (in place, no allocation) against the reference
/// kept here, the earlier version that builds the result by concatenation,
/// on random lines; and `visualOrder(into:)` against reversals spelt out.
final class TextTruncationReferenceTests: XCTestCase {
    func testInPlaceTruncationEqualsTheReference() throws {
        guard let font = try? Font(path: "/usr/share/fonts/truetype/dejavu/DejaVuSans.ttf") else {
            throw XCTSkip("DejaVu Sans is not installed (fonts-dejavu-core)")
        }
        let runs = [TextLayout.Run("x", font: font, size: 14), TextLayout.Run("y", font: font, size: 22)]
        var seed: UInt64 = 0x5EED
        func next() -> UInt64 { seed = seed &* 6364136223846793005 &+ 1442695040888963407; return seed >> 33 }
        var truncated = 0, emptied = 0
        for round in 0..<3000 {
            let n = Int(next() % 40) + (round % 7 == 0 ? 0 : 1)
            var items: [TextItem] = []
            var cluster = 0
            for _ in 0..<n {
                if next() % 4 != 0 { cluster += 1 }          // some clusters of several glyphs
                items.append(TextItem(glyph: UInt32(next() % 500), cluster: cluster, advance: Double(next() % 2000) / 100,
                                      dx: 0, dy: 0, run: Int(next() % 2), face: -1, rtl: next() % 3 == 0, isSpace: next() % 5 == 0))
            }
            let maxWidth = Double(next() % 30_000) / 100 - 5
            for mode in [TextTruncation.end, .start, .middle] {
                var a = LogicalLine(items: items, endsParagraph: true, run: 0)
                var b = a
                a.measure(runs, faces: []); b.measure(runs, faces: [])
                a.truncate(mode, maxWidth: maxWidth, runs: runs)
                b.truncateReference(mode, maxWidth: maxWidth, runs: runs)
                XCTAssertEqual(a.items.count, b.items.count, "round \(round) \(mode)")
                for k in 0..<min(a.items.count, b.items.count) {
                    XCTAssertTrue(same(a.items[k], b.items[k]), "round \(round) \(mode) item \(k)")
                }
                XCTAssertEqual(a.width, b.width, "round \(round) \(mode)")
                XCTAssertEqual(a.isTruncated, b.isTruncated)
                if a.isTruncated { truncated += 1 }
                if a.isTruncated && a.items.isEmpty { emptied += 1 }
            }
        }
        XCTAssertGreaterThan(truncated, 1000)
        XCTAssertGreaterThan(emptied, 10, "ellipses wider than the width")
    }

    func testVisualOrderReversesRightToLeftStretches() {
        func item(_ c: Int, _ rtl: Bool) -> TextItem {
            TextItem(glyph: 0, cluster: c, advance: 1, dx: 0, dy: 0, run: 0, face: -1, rtl: rtl, isSpace: false)
        }
        var v: [TextItem] = []
        // Left to right with a right-to-left stretch (1 2 3) in it.
        LogicalLine(items: [item(0, false), item(1, true), item(2, true), item(3, true), item(4, false)], endsParagraph: true, run: 0)
            .visualOrder(into: &v)
        XCTAssertEqual(v.map { $0.cluster }, [0, 3, 2, 1, 4])
        // A right-to-left paragraph with a left-to-right stretch (2 3).
        LogicalLine(items: [item(0, true), item(1, true), item(2, false), item(3, false), item(4, true)], endsParagraph: true, run: 0)
            .visualOrder(into: &v)
        XCTAssertEqual(v.map { $0.cluster }, [4, 2, 3, 1, 0])
        // Left to right throughout: logical order.
        LogicalLine(items: [item(0, false), item(1, false)], endsParagraph: true, run: 0).visualOrder(into: &v)
        XCTAssertEqual(v.map { $0.cluster }, [0, 1])
    }

    func same(_ a: TextItem, _ b: TextItem) -> Bool {
        a.glyph == b.glyph && a.cluster == b.cluster && a.advance == b.advance && a.run == b.run && a.rtl == b.rtl && a.isSpace == b.isSpace
    }
}

extension LogicalLine {
    /// The truncation as it was written before it worked in place (array
    /// concatenation, local functions): the reference for the in-place one.
    mutating func truncateReference(_ mode: TextTruncation, maxWidth: Double, runs: [TextLayout.Run]) {
        guard mode != .none, !items.isEmpty else { return }
        let n = items.count
        func ellipsis(near i: Int) -> [TextItem] {
            let item = items[Swift.min(Swift.max(i, 0), n - 1)]
            let font = runs[item.run].font
            let s = TextLayout.clampSize(runs[item.run].size) / Double(font.unitsPerEm)
            var g = font.glyph(for: "\u{2026}"), copies = 1
            if g == 0 { g = font.glyph(for: "."); copies = 3 }
            let e = TextItem(glyph: g, cluster: item.cluster, advance: Double(font.advance(of: g)) * s, dx: 0, dy: 0,
                             run: item.run, face: -1, rtl: item.rtl, isSpace: false)
            return Array(repeating: e, count: copies)
        }
        func isBoundary(_ k: Int) -> Bool { k <= 0 || k >= n || items[k].cluster != items[k - 1].cluster }
        /// The longest prefix no wider than `w`: its length.
        func prefix(_ w: Double) -> Int {
            var k = 0, sum = 0.0
            while k < n && sum + items[k].advance <= w + 1e-9 { sum += items[k].advance; k += 1 }
            while !isBoundary(k) { k -= 1 }
            while k > 0 && items[k - 1].isSpace { k -= 1 }
            return k
        }
        /// The longest suffix no wider than `w`: where it starts.
        func suffix(_ w: Double, notBefore limit: Int) -> Int {
            var k = n, sum = 0.0
            while k > limit && sum + items[k - 1].advance <= w + 1e-9 { sum += items[k - 1].advance; k -= 1 }
            while !isBoundary(k) { k += 1 }
            while k < n && items[k].isSpace { k += 1 }
            return k
        }
        func widthOf(_ r: Range<Int>) -> Double { var w = 0.0; for i in r { w += items[i].advance }; return w }
        var result: [TextItem] = []
        switch mode {
        case .end:
            let e = ellipsis(near: n - 1)
            let k = prefix(maxWidth - e.reduce(0) { $0 + $1.advance })
            result = Array(items[0..<k]) + (k > 0 ? ellipsis(near: k - 1) : e)
        case .start:
            let e = ellipsis(near: 0)
            let k = suffix(maxWidth - e.reduce(0) { $0 + $1.advance }, notBefore: 0)
            result = (k < n ? ellipsis(near: k) : e) + Array(items[k..<n])
        case .middle:
            let e = ellipsis(near: n / 2)
            let room = maxWidth - e.reduce(0) { $0 + $1.advance }
            let a = prefix(room / 2)
            let b = suffix(room - widthOf(0..<a), notBefore: a)
            result = Array(items[0..<a]) + e + Array(items[b..<n])
        case .none:
            return
        }
        // Only an ellipsis wider than the whole width can overflow: then nothing.
        if result.reduce(0, { $0 + $1.advance }) > maxWidth + 1e-9 { result = [] }
        items = result
        isTruncated = true
        width = 0
        for i in items { width += i.advance }
    }

}
