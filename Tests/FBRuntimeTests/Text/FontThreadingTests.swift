@testable import FBRuntime
import Raster
import XCTest

/// A `Font` is shared by the model layers and their render-tree twins, so
/// the render thread draws with it while the app side renders with it too
/// (a transition's before image; `TextLayer.layout`). Found by the
/// mutation storm under ThreadSanitizer (scripts/stress): the glyph cache's
/// dictionary and the FreeType face were used by both threads at once.
/// The oracle is the same drawing made on one thread before the race.
final class FontThreadingTests: XCTestCase {
    func scene(_ font: Font, _ text: String) -> Layer {
        let root = Layer(name: "root")
        root.bounds = Rect(x: 0, y: 0, width: 160, height: 60)
        root.anchorPoint = .zero
        root.backgroundColor = Color(rgb: 0x102030)
        for (i, piece) in [text, String(text.reversed()), text.uppercased()].enumerated() {
            let t = TextLayer(name: "text\(i)")
            t.font = font
            t.string = piece
            t.fontSize = 11 + Double(i) * 2
            t.bounds = Rect(x: 0, y: 0, width: 160, height: 20)
            t.anchorPoint = .zero
            t.position = Point(x: 0, y: Double(i) * 20)
            try! root.addSublayer(t)
        }
        return root
    }

    func checksum(_ root: Layer) -> UInt64 {
        let surface = Surface<ARGB8888>(width: 160, height: 60)!
        Compositor().render(root, at: 0, into: surface.view)
        return pixelChecksum(surface.view)
    }

    func testTwoThreadsDrawingAndShapingWithOneFontDrawWhatOneThreadDraws() throws {
        guard FileManager.default.fileExists(atPath: TextTests.dejaVu) else { throw XCTSkip("no DejaVu Sans") }
        // A cache far smaller than the text: outlines are evicted and loaded
        // from the face again all the time, on both threads.
        let font = try Font(path: TextTests.dejaVu, glyphCache: GlyphCache(budget: 2048))
        let texts = ["The quick brown fox jumps over the lazy dog 0123456789",
                     "Sphinx of black quartz, judge my vow! @#%&*()[]{}"]
        let trees = texts.map { scene(font, $0) }
        let expected = trees.map(checksum)
        func shaped(_ tree: Layer) -> [Double] {
            let layout = (tree.sublayers[1] as! TextLayer).layout
            return layout.glyphs.flatMap { [Double($0.id), $0.x, $0.y] } + [layout.width]
        }
        let expectedShapes = trees.map(shaped)
        XCTAssertNotEqual(expected[0], expected[1])

        var failures = [0, 0]
        var threads: [FBRuntime.Thread] = []
        for k in 0..<2 {
            threads.append(try FBRuntime.Thread { [self] in
                for _ in 0..<25 {
                    // Fresh layers each time (fresh layout caches): every
                    // draw shapes and fetches outlines again.
                    let tree = scene(font, texts[k])
                    if checksum(tree) != expected[k] { failures[k] += 1 }
                    if shaped(tree) != expectedShapes[k] { failures[k] += 1 }
                }
            })
        }
        for t in threads { t.join() }
        XCTAssertEqual(failures, [0, 0], "drawings that differ from the single-threaded ones")
        XCTAssertGreaterThan(font.glyphCache.evictions, 0, "the cache was too small to hold the text")
    }
}
