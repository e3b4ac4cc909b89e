import Foundation
import ImageIO
import Raster
import TestSupport
import XCTest

/// The SVG oracle corpus (issue 22): every file in
/// `Tests/RasterTests/SVGCorpus/` is drawn three ways and compared —
/// librsvg (`rsvg-convert`, which reads the file itself), cairo (the
/// drawing as `SVGReader` reads it, through cairo's C API:
/// `SVGCairoReplay`) and FBRuntime (the same drawing through the Raster
/// API: `SVGRasterReplay`). Each is a transparent canvas of the file's
/// size in premultiplied ARGB.
///
/// Stated tolerance, FBRuntime against each oracle, as `PathArcTests`:
/// the largest channel difference ≤ 40 levels per pixel, and ≤ 4 levels
/// mean over the pixels either image touches (non-transparent in either).
/// Edges: cairo samples 15 sub-rows per pixel (a near-horizontal edge is
/// up to 17 levels off) and flattens curves its own way (both at 0.1 px),
/// so curves and stroke outlines reach the 20s and 30s. Gradients: a
/// 256-entry table against cairo's per-pixel colour, a level or two. A
/// wrong rule, cap, join, dash, stop or transform moves whole edges or
/// areas and shows as hundreds of pixels far beyond 40. Each comparison
/// must be about something: the oracle inks (alpha ≥ 32) at least
/// `minimumInked` pixels.
///
/// A failing file's images are written to `out/tests/svg-corpus/`:
/// NAME.fbruntime.png, NAME.librsvg.png, NAME.cairo.png and a difference
/// image per oracle (NAME.diff-librsvg.png: red beyond the tolerance,
/// darker grey the larger a difference within it).
///
/// Files showing a defect of issue 22 not fixed yet are listed in
/// `knownDefects`, where the test asserts the documented state instead.
final class SVGCorpusTests: XCTestCase {
    static let maxTolerance = 40
    static let meanTolerance = 4.0
    static let minimumInked = 300

    /// A corpus file that differs beyond the tolerance because of an open
    /// defect of issue 22, and what the difference is confined to today
    /// (measured, with a little room). The test asserts that the defect
    /// still shows against at least one oracle (when a fix makes the file
    /// pass, it fails and asks for the entry to be removed), that at most
    /// `pixelsBeyond` pixels are beyond `maxTolerance` and the mean is at
    /// most `mean` against either oracle, and, with `oursDarker`, that
    /// every pixel beyond the tolerance has more coverage (alpha) in
    /// FBRuntime's image than in the oracle's: the over-dark rims where the
    /// coverages of overlapping pieces add up.
    struct KnownDefect {
        var defect: String
        var pixelsBeyond: Int
        var mean: Double
        var oursDarker: Bool
    }

    /// File name → the issue-22 defect it shows. Remove an entry when its
    /// defect is fixed. Measured at the commit that made the table (against
    /// librsvg and cairo alike): pixels beyond 40, worst, mean.
    static let knownDefects: [String: KnownDefect] = [:]
    // Emptied by the overlap resolution of `PathRasterizer` (commit
    // "PathRasterizer: overlapping and crossing pieces count once"). Before
    // it, against either oracle: stroke-retrace.svg 160 px beyond 40,
    // worst 140 (rims 255 where cairo has ~130); stroke-caps-meet.svg 3 px,
    // worst 76; dash-overlap.svg 91 px, worst 101; fill-rule-star.svg 6 px,
    // worst 97. After: worst 16, 13, 6 and 16, nothing beyond 40.

    /// Files where the oracles are no oracle for one thing, with what the
    /// difference is confined to (asserted as for `knownDefects`): librsvg
    /// and cairo measure a dash pattern along their flattening of the
    /// curve (0.1 px), so their dashes drift ahead of the true arc length
    /// on long curves and round corners, by about tolerance / 3r of the
    /// length; FBRuntime measures on the curve, and `DashArcLengthTests`
    /// holds its dashes to the Béziers' integrated arc length (0.02 px).
    /// Dashing only cairo more finely is no way out (its outline then
    /// leaves FBRuntime's 0.1 px flattening along every edge, mean 5.7 on
    /// dash-circle), but with both at 0.01 px these files are within the
    /// tolerance (`testDashedCurvesMatchCairoFlattenedFinely`: worst 19 and
    /// 12): the difference at 0.1 px is the oracles' drift. Measured at
    /// ef6d59a: dash-circle 7 px beyond 40,
    /// worst 48, mean 5.2 against librsvg, 12 px, worst 55, mean 5.4
    /// against cairo (before, when FBRuntime measured on its chords too:
    /// 1-2 px, worst 61, mean 4.3-4.5); dash-rounded-rect 2 px, worst 53,
    /// mean 3.3 against either.
    static let oracleLimitations: [String: KnownDefect] = [
        "dash-circle.svg": KnownDefect(defect: "the oracle's dashes drift along its flattened curve", pixelsBeyond: 16, mean: 6, oursDarker: false),
        "dash-rounded-rect.svg": KnownDefect(defect: "the oracle's dashes drift along its flattened curve", pixelsBeyond: 4, mean: 4, oursDarker: false),
    ]

    static let corpusDirectory = repositoryRoot.appendingPathComponent("Tests/RasterTests/SVGCorpus")
    static let outputDirectory: URL = {
        let url = testOutputDirectory.appendingPathComponent("svg-corpus")
        try? FileManager.default.createDirectory(at: url, withIntermediateDirectories: true)
        return url
    }()

    static func corpusFiles() throws -> [URL] {
        try FileManager.default.contentsOfDirectory(at: corpusDirectory, includingPropertiesForKeys: nil)
            .filter { $0.pathExtension == "svg" }
            .sorted { $0.lastPathComponent < $1.lastPathComponent }
    }

    func testCorpusCoversWhatItClaims() throws {
        let files = try Self.corpusFiles()
        XCTAssertGreaterThanOrEqual(files.count, 15)
        for name in Array(Self.knownDefects.keys) + Array(Self.oracleLimitations.keys) {
            XCTAssertTrue(files.contains { $0.lastPathComponent == name }, "known-defect entry \(name) has no file")
        }
        // Every segment kind, absolute and relative, in the path files.
        let text = try files.map { try String(contentsOf: $0, encoding: .utf8) }.joined()
        for command in "MLHVCSQTAZmlhvcsqtaz" {
            XCTAssertTrue(text.range(of: "d=\"[^\"]*\(command)", options: .regularExpression) != nil, "no path uses \(command)")
        }
        for element in ["rect", "circle", "ellipse", "line", "polyline", "polygon", "linearGradient", "radialGradient", "g"] {
            XCTAssertTrue(text.contains("<\(element) "), "no <\(element)>")
        }
        for value in ["evenodd", "nonzero", "butt", "round", "square", "miter", "bevel", "stroke-miterlimit", "stroke-dashoffset",
                      "stop-opacity", "opacity=", "translate(", "scale(", "rotate(", "matrix(", "skewX(", "skewY("] {
            XCTAssertTrue(text.contains(value), "no file uses \(value)")
        }
    }

    func testCorpusMatchesLibrsvg() throws {
        try XCTSkipIf(PathArcTests.rsvgConvert == nil, "rsvg-convert is not installed (scripts/test installs librsvg2-bin)")
        try checkCorpus(oracle: "librsvg", limitations: Self.oracleLimitations) { file, drawing in
            try Self.librsvg(file, width: drawing.width, height: drawing.height)
        }
    }

    /// The files of `oracleLimitations` against cairo with both flattening
    /// at 0.01 px: cairo's dashes then drift ten times less along its
    /// chords, and the files are within the corpus's tolerance, so what
    /// stays at 0.1 px is the oracle's drift, not FBRuntime's dashing.
    func testDashedCurvesMatchCairoFlattenedFinely() throws {
        for name in Self.oracleLimitations.keys.sorted() {
            let text = try String(contentsOf: Self.corpusDirectory.appendingPathComponent(name), encoding: .utf8)
            let drawing = try SVGReader.read(text)
            let ours = SVGRasterReplay.render(drawing, tolerance: 0.01), theirs = SVGCairoReplay.render(drawing, tolerance: 0.01)
            let d = Self.difference(ours, theirs)
            print("SVG corpus \(name) vs cairo, both at 0.01 px: \(d)")
            XCTAssertGreaterThanOrEqual(d.inked, Self.minimumInked, name)
            XCTAssertLessThanOrEqual(d.max, Self.maxTolerance, "\(name): worst pixel; \(d)")
            XCTAssertLessThanOrEqual(d.mean, Self.meanTolerance, "\(name): mean over touched pixels; \(d)")
        }
    }

    func testCorpusMatchesCairo() throws {
        try checkCorpus(oracle: "cairo", limitations: Self.oracleLimitations) { _, drawing in SVGCairoReplay.render(drawing) }
    }

    /// Every corpus file drawn by FBRuntime against `render`'s image:
    /// within the tolerance, or, for a file in `knownDefects` or this
    /// oracle's `limitations`, in its documented state.
    func checkCorpus(oracle: String, limitations: [String: KnownDefect] = [:],
                     render: (URL, SVGDrawing) throws -> Surface<ARGB8888>) throws {
        for file in try Self.corpusFiles() {
            let name = file.lastPathComponent
            let drawing: SVGDrawing
            do { drawing = try SVGReader.read(try String(contentsOf: file, encoding: .utf8)) } catch {
                XCTFail("\(name): \(error)"); continue
            }
            let ours = SVGRasterReplay.render(drawing), theirs = try render(file, drawing)
            let d = Self.difference(ours, theirs)
            print("SVG corpus \(name) vs \(oracle): \(d)")
            XCTAssertGreaterThanOrEqual(d.inked, Self.minimumInked, "\(name): \(oracle) drew almost nothing; the comparison would say nothing")
            var failed = false
            if let known = Self.knownDefects[name] ?? limitations[name] {
                if d.max <= Self.maxTolerance && d.mean <= Self.meanTolerance {
                    XCTFail("\(name) is within the tolerance against \(oracle): is \"\(known.defect)\" fixed? Remove it from knownDefects.")
                }
                if d.beyond > known.pixelsBeyond || d.mean > known.mean {
                    XCTFail("\(name) vs \(oracle): beyond what the known defect (\(known.defect)) accounts for (\(known.pixelsBeyond) px, mean \(known.mean)); \(d)")
                    failed = true
                }
                if known.oursDarker && d.beyondNotDarker > 0 {
                    XCTFail("\(name) vs \(oracle): pixels beyond the tolerance where FBRuntime is not the darker: not only \(known.defect); \(d)")
                    failed = true
                }
            } else {
                XCTAssertLessThanOrEqual(d.max, Self.maxTolerance, "\(name) vs \(oracle): worst pixel; \(d)")
                XCTAssertLessThanOrEqual(d.mean, Self.meanTolerance, "\(name) vs \(oracle): mean over touched pixels; \(d)")
                failed = d.max > Self.maxTolerance || d.mean > Self.meanTolerance
            }
            if failed || Self.knownDefects[name] != nil || limitations[name] != nil {
                let written = Self.writeImages(name, oracle: oracle, ours: ours, theirs: theirs)
                if failed { XCTFail("\(name) vs \(oracle): images in \(written)") } else { print("SVG corpus \(name): known defect, images in \(written)") }
            }
        }
    }

    /// The reader against librsvg, through the same rasterizer: cairo
    /// drawing `SVGReader`'s reading agrees with librsvg drawing the file
    /// (both cairo underneath), so a comparison with FBRuntime is one of
    /// renderers, not of readings. Measured: the same pixels but for a
    /// level in gradients and where arcs are stroked or dashed (cairo_arc's
    /// curves are not librsvg's): 31 levels on dash-circle.svg, 9 on
    /// shapes.svg.
    func testReaderAgreesWithLibrsvg() throws {
        try XCTSkipIf(PathArcTests.rsvgConvert == nil, "rsvg-convert is not installed (scripts/test installs librsvg2-bin)")
        for file in try Self.corpusFiles() {
            let name = file.lastPathComponent
            let drawing = try SVGReader.read(try String(contentsOf: file, encoding: .utf8))
            let d = Self.difference(SVGCairoReplay.render(drawing), try Self.librsvg(file, width: drawing.width, height: drawing.height))
            print("SVG corpus \(name) cairo vs librsvg: \(d)")
            XCTAssertLessThanOrEqual(d.max, Self.maxTolerance, "\(name): cairo's replay of the reading vs librsvg; \(d)")
            XCTAssertLessThanOrEqual(d.mean, 1, "\(name): cairo's replay of the reading vs librsvg; \(d)")
        }
    }

    // MARK: Comparing

    struct Difference: CustomStringConvertible {
        var max = 0, worst = (x: 0, y: 0)
        var sum = 0, touched = 0, inked = 0
        /// Pixels beyond `maxTolerance`, and those of them where ours has
        /// no more alpha than the oracle's.
        var beyond = 0, beyondNotDarker = 0
        /// The first few of them: where, ours, the oracle's.
        var examples: [(x: Int, y: Int, ours: UInt32, theirs: UInt32)] = []
        var mean: Double { touched == 0 ? 0 : Double(sum) / Double(touched) }
        var description: String {
            "max \(max) at (\(worst.x), \(worst.y)), mean \(String(format: "%.2f", mean)) over \(touched) touched px, "
                + "\(beyond) px beyond \(SVGCorpusTests.maxTolerance) (\(beyondNotDarker) of them not darker in ours), \(inked) inked"
                + examples.map { " (\($0.x), \($0.y)): 0x\(String($0.ours, radix: 16)) vs 0x\(String($0.theirs, radix: 16))" }.joined(separator: ",")
        }
    }

    static func channelDifference(_ a: UInt32, _ b: UInt32) -> Int {
        var d = 0
        for shift: UInt32 in [0, 8, 16, 24] { d = Swift.max(d, abs(Int((a >> shift) & 0xFF) - Int((b >> shift) & 0xFF))) }
        return d
    }

    static func difference(_ ours: Surface<ARGB8888>, _ theirs: Surface<ARGB8888>) -> Difference {
        var d = Difference()
        for y in 0..<ours.height {
            for x in 0..<ours.width {
                let a = ours.view[x, y], b = theirs.view[x, y]
                if b >> 24 >= 32 { d.inked += 1 }
                guard a != 0 || b != 0 else { continue }
                let e = channelDifference(a, b)
                d.touched += 1; d.sum += e
                if e > d.max { d.max = e; d.worst = (x, y) }
                if e > maxTolerance {
                    d.beyond += 1
                    if d.examples.count < 6 { d.examples.append((x, y, a, b)) }
                    if a >> 24 <= b >> 24 { d.beyondNotDarker += 1 }
                }
            }
        }
        return d
    }

    /// Writes FBRuntime's image, the oracle's and their difference;
    /// returns where.
    static func writeImages(_ name: String, oracle: String, ours: Surface<ARGB8888>, theirs: Surface<ARGB8888>) -> String {
        let stem = outputDirectory.appendingPathComponent((name as NSString).deletingPathExtension).path
        try? PNG.write(ours.view, to: "\(stem).fbruntime.png")
        try? PNG.write(theirs.view, to: "\(stem).\(oracle).png")
        let diff = Surface<ARGB8888>(width: ours.width, height: ours.height)!
        for y in 0..<ours.height {
            for x in 0..<ours.width {
                let e = channelDifference(ours.view[x, y], theirs.view[x, y])
                let grey = UInt32(255 - Swift.min(255, e * 5))
                diff.view[x, y] = e > maxTolerance ? 0xFFFF_0000 : 0xFF00_0000 | grey << 16 | grey << 8 | grey
            }
        }
        try? PNG.write(diff.view, to: "\(stem).diff-\(oracle).png")
        return "\(stem).{fbruntime,\(oracle),diff-\(oracle)}.png"
    }

    /// librsvg's rendering of `file`, read back premultiplied.
    static func librsvg(_ file: URL, width: Int, height: Int) throws -> Surface<ARGB8888> {
        let png = FileManager.default.temporaryDirectory.appendingPathComponent("fbr-svg-\(getpid())-\(UUID().uuidString).png")
        defer { try? FileManager.default.removeItem(at: png) }
        let process = Process()
        process.executableURL = URL(fileURLWithPath: PathArcTests.rsvgConvert!)
        process.arguments = ["-f", "png", "-o", png.path, file.path]
        try process.run()
        process.waitUntilExit()
        guard process.terminationStatus == 0 else { throw SVGReadError("rsvg-convert failed on \(file.lastPathComponent)") }
        let image = try PNG.read(from: png.path)
        guard image.width == width, image.height == height else {
            throw SVGReadError("librsvg drew \(file.lastPathComponent) at \(image.width)×\(image.height), not \(width)×\(height)")
        }
        return image
    }
}
