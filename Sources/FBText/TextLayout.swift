import FBPlatform
import CFreeType
import Raster

/// Where a line that is too wide for its width is cut, with an ellipsis
/// ("…") in place of the text left out (as `CATextLayer.truncationMode`).
public enum TextTruncation: Sendable {
    case none, start, middle, end
}

/// How lines sit between the left and right edges of the layout width (as
/// `CATextLayer.alignmentMode`). `natural` is left for left-to-right
/// paragraphs and right for right-to-left ones; `justified` stretches the
/// spaces of every line but the last of a paragraph to the full width.
public enum TextAlignment: Sendable {
    case natural, left, right, center, justified
}

/// Text laid out in lines: glyphs shaped by HarfBuzz, broken into lines,
/// truncated and aligned, with positions in **layout space** — points, the
/// origin at the top left of the layout box, y down (a layer's bounds
/// space when a `TextLayer` draws it).
///
/// **Rules.**
/// - Paragraphs end at "\n"; a tab or "\r" counts as a space.
/// - Each paragraph is split into runs of one script (HarfBuzz's Unicode
///   script property; punctuation and spaces join the script before them)
///   and of one `Run`, each shaped separately by HarfBuzz with its font
///   (kerning, ligatures, Arabic joining, Indic reordering all apply inside
///   such a piece, not across pieces).
/// - Direction: a piece of a right-to-left script is laid out right to
///   left; a paragraph takes the direction of its first piece, and its
///   pieces are ordered in that direction. This is not the full Unicode
///   bidirectional algorithm (digits inside Arabic text come out reversed,
///   for one).
/// - Wrapping (`isWrapped`, finite `width`): lines break after spaces; a
///   word wider than the width on its own is broken between clusters.
///   Spaces at the end of a line take no width. Without wrapping a
///   paragraph is one line.
/// - Lines that would end below `height` (finite) are left out, but the
///   first line always stays. Truncation applies to every line wider than
///   `width`, and, when lines were left out, to the end of the last line
///   kept. A cut never splits a cluster.
/// - A character the run's font lacks is shaped and drawn with the font's
///   fallback for it (`Font.fallbacks`, then the system's): pieces also
///   split where that font changes. Spaces and punctuation take the run's
///   font when it has them; combining marks stay with the font before them.
/// - Line height is the largest `Font.lineHeight` of the fonts in the line
///   (fallbacks included) at their sizes; the baseline sits the largest
///   ascender below the top.
///
/// **Clamps.** A size that is NaN, negative or 0 lays out nothing for its
/// run; sizes above `maximumFontSize` are clamped to it. A NaN or infinite
/// width or height means no limit; a negative one is 0.
public struct TextLayout {
    /// One piece of styled text.
    public struct Run {
        public var string: String
        public var font: Font
        /// Points per em.
        public var size: Double
        public init(_ string: String, font: Font, size: Double) {
            self.string = string; self.font = font; self.size = size
        }
    }

    /// A glyph in its place.
    public struct Glyph {
        /// The run's font, or the fallback font the glyph was found in.
        public var font: Font
        /// The glyph id in `font` (0: the font lacks the character).
        public var id: UInt32
        /// The pen origin on the baseline, layout space (points).
        public var x: Double
        public var y: Double
        /// Points per font unit (`size / unitsPerEm`).
        public var scale: Double
        /// The index of the `Run` the glyph comes from.
        public var run: Int
        /// The UTF-8 offset of the glyph's cluster in the runs' strings
        /// taken together.
        public var cluster: Int
        /// The width it takes on the line, points (justification included).
        public var advance: Double
    }

    /// One line of glyphs.
    public struct Line {
        /// Its glyphs in `glyphs`, left to right on screen.
        public var glyphs: Range<Int>
        /// Layout space, points.
        public var top: Double
        public var baseline: Double
        public var height: Double
        /// Left edge of the first glyph's advance and the width of all the
        /// advances (trailing spaces excluded), points.
        public var x: Double
        public var width: Double
        /// An ellipsis was put in.
        public var isTruncated: Bool
    }

    /// The largest size laid out, points per em.
    public static let maximumFontSize = 4096.0

    public private(set) var glyphs: [Glyph] = []
    public private(set) var lines: [Line] = []
    /// The box the lines take: the widest line (or the width when
    /// justified) by the bottom of the last line, points.
    public private(set) var width = 0.0
    public private(set) var height = 0.0

    public init() {}

    /// Lays out `runs` in a box `width` by `height` points.
    ///
    /// - Complexity: O(n) in the number of UTF-8 bytes and glyphs, plus
    ///   HarfBuzz's shaping.
    public init(_ runs: [Run], width: Double = .infinity, height: Double = .infinity, isWrapped: Bool = false,
                truncation: TextTruncation = .none, alignment: TextAlignment = .natural) {
        layOut(runs, width: width, height: height, isWrapped: isWrapped, truncation: truncation, alignment: alignment,
               scratch: TextLayoutScratch())
    }

    /// The same, in place: this layout's glyph and line storage and
    /// `scratch`'s working storage are reused, so laying out text again
    /// (at another size, say) allocates nothing once they have grown —
    /// as long as no copy of this layout is alive, and except for lines
    /// that are truncated or hold right-to-left text.
    package mutating func layOut(_ runs: [Run], width: Double, height: Double, isWrapped: Bool,
                         truncation: TextTruncation, alignment: TextAlignment, scratch: TextLayoutScratch) {
        glyphs.removeAll(keepingCapacity: true)
        lines.removeAll(keepingCapacity: true)
        self.width = 0
        self.height = 0
        let maxWidth = TextLayout.limit(width), maxHeight = TextLayout.limit(height)
        scratch.builder.reset(runs: runs)
        scratch.lineCount = 0
        guard !scratch.builder.text.isEmpty else { return }
        var p0 = 0
        let n = scratch.builder.text.count
        var linesLeftOut = false
        var top = 0.0
        paragraphs: while p0 <= n {
            var p1 = p0
            while p1 < n && scratch.builder.text[p1] != 0x0A { p1 += 1 }
            scratch.builder.shapeParagraph(p0..<p1, into: &scratch.items)
            scratch.builder.breakLines(scratch.items, maxWidth: isWrapped ? maxWidth : .infinity, into: &scratch.breaks)
            if scratch.breaks.isEmpty { scratch.breaks.append(0..<0) }
            let defaultRun = scratch.builder.run(at: p0)
            var k = 0
            while k < scratch.breaks.count {
                let slot = scratch.addLine()
                scratch.lines[slot].reset(endsParagraph: k == scratch.breaks.count - 1, run: defaultRun)
                let r = scratch.breaks[k]
                var j = r.lowerBound
                while j < r.upperBound { scratch.lines[slot].items.append(scratch.items[j]); j += 1 }
                scratch.lines[slot].measure(scratch.builder.runs, faces: scratch.builder.faces)
                k += 1
                if top + scratch.lines[slot].height > maxHeight + 1e-9 && slot > 0 {
                    scratch.lineCount -= 1
                    linesLeftOut = true
                    break paragraphs
                }
                scratch.lines[slot].top = top
                top += scratch.lines[slot].height
            }
            p0 = p1 + 1
        }
        let count = scratch.lineCount
        // Truncation.
        if truncation != .none {
            var i = 0
            while i < count {
                let forced = linesLeftOut && i == count - 1
                if scratch.lines[i].width > maxWidth + 1e-9 || forced {
                    scratch.lines[i].truncate(forced && scratch.lines[i].width <= maxWidth + 1e-9 ? .end : truncation,
                                              maxWidth: maxWidth, runs: scratch.builder.runs)
                }
                i += 1
            }
        }
        // Alignment and positions.
        var boxWidth = 0.0
        var i = 0
        while i < count { boxWidth = Swift.max(boxWidth, scratch.lines[i].width); i += 1 }
        let alignWidth = maxWidth.isFinite ? maxWidth : boxWidth
        if alignment == .justified && maxWidth.isFinite { boxWidth = Swift.max(boxWidth, maxWidth) }
        i = 0
        while i < count {
            let l = scratch.lines[i]
            i += 1
            l.visualOrder(into: &scratch.visual)
            let visual = scratch.visual
            var extraPerSpace = 0.0
            var x0: Double
            let rtl = l.items.isEmpty ? false : l.items[0].rtl
            switch alignment {
            case .left: x0 = 0
            case .right: x0 = alignWidth - l.width
            case .center: x0 = (alignWidth - l.width) / 2
            case .natural: x0 = rtl ? alignWidth - l.width : 0
            case .justified:
                x0 = rtl ? alignWidth - l.width : 0
                var spaces = 0, j = 0
                while j < l.items.count { if l.items[j].isSpace { spaces += 1 }; j += 1 }
                if !l.endsParagraph, spaces > 0, maxWidth.isFinite, alignWidth > l.width {
                    extraPerSpace = (alignWidth - l.width) / Double(spaces)
                    x0 = 0
                }
            }
            let first = glyphs.count
            var pen = x0
            let baseline = l.top + l.ascent
            var j = 0
            while j < visual.count {
                let item = visual[j]
                j += 1
                let advance = item.advance + (item.isSpace ? extraPerSpace : 0)
                let font = item.face < 0 ? scratch.builder.runs[item.run].font : scratch.builder.faces[item.face]
                let scale = item.face < 0 ? scratch.builder.scales[item.run]
                    : TextLayout.clampSize(scratch.builder.runs[item.run].size) / Double(font.unitsPerEm)
                glyphs.append(Glyph(font: font, id: item.glyph, x: pen + item.dx,
                                    y: baseline - item.dy, scale: scale, run: item.run,
                                    cluster: item.cluster, advance: advance))
                pen += advance
            }
            lines.append(Line(glyphs: first..<glyphs.count, top: l.top, baseline: baseline, height: l.height,
                              x: x0, width: pen - x0, isTruncated: l.isTruncated))
        }
        self.width = boxWidth
        self.height = top
    }

    static func limit(_ v: Double) -> Double {
        if v.isNaN || v == .infinity { return .infinity }
        return Swift.max(0, v)
    }
}

/// A shaped glyph in logical order, before placement. Lengths in points.
struct TextItem {
    var glyph: UInt32
    var cluster: Int
    var advance: Double
    var dx: Double
    var dy: Double
    var run: Int
    /// The font it was shaped with: -1 the run's, else an index in
    /// `Builder.faces` (a fallback).
    var face: Int
    var rtl: Bool
    var isSpace: Bool
}

/// A line in logical order.
struct LogicalLine {
    var items: [TextItem]
    var endsParagraph: Bool
    /// The run whose font sizes an empty line.
    var run: Int
    var top = 0.0
    var ascent = 0.0
    var height = 0.0
    /// Advances without the trailing spaces.
    var width = 0.0
    var isTruncated = false

    init(items: [TextItem], endsParagraph: Bool, run: Int) {
        self.items = items; self.endsParagraph = endsParagraph; self.run = run
    }

    /// Empty, its item storage kept.
    mutating func reset(endsParagraph: Bool, run: Int) {
        items.removeAll(keepingCapacity: true)
        self.endsParagraph = endsParagraph; self.run = run
        top = 0; ascent = 0; height = 0; width = 0; isTruncated = false
    }

    mutating func measure(_ runs: [TextLayout.Run], faces: [Font]) {
        // Index loops and no local function capturing `self`: debug builds
        // allocate for both, and text is laid out again every frame its
        // size animates.
        while !items.isEmpty && items[items.count - 1].isSpace { items.removeLast() }
        width = 0
        var i = 0
        while i < items.count { width += items[i].advance; i += 1 }
        ascent = 0; height = 0
        if items.isEmpty { include(run, -1, runs, faces) }
        var previous = -1, previousFace = -1
        i = 0
        while i < items.count {
            if items[i].run != previous || items[i].face != previousFace {
                include(items[i].run, items[i].face, runs, faces)
                previous = items[i].run
                previousFace = items[i].face
            }
            i += 1
        }
    }

    private mutating func include(_ r: Int, _ face: Int, _ runs: [TextLayout.Run], _ faces: [Font]) {
        guard r >= 0, r < runs.count else { return }
        let f = face < 0 ? runs[r].font : faces[face]
        let s = TextLayout.clampSize(runs[r].size) / Double(f.unitsPerEm)
        ascent = Swift.max(ascent, Double(f.ascender) * s)
        height = Swift.max(height, Double(f.lineHeight) * s)
    }

    /// Cuts the line to `maxWidth` with an ellipsis at the start, the
    /// middle or the end. A cut falls between clusters. In place: the
    /// items' storage is kept, so a truncated line laid out again every
    /// frame allocates nothing (static helpers and index loops, as debug
    /// builds allocate for local functions that capture).
    mutating func truncate(_ mode: TextTruncation, maxWidth: Double, runs: [TextLayout.Run]) {
        guard mode != .none, !items.isEmpty else { return }
        let n = items.count
        switch mode {
        case .end:
            let e = LogicalLine.ellipsis(items, near: n - 1, runs)
            let k = LogicalLine.prefix(items, maxWidth - e.width)
            let cut = k > 0 ? LogicalLine.ellipsis(items, near: k - 1, runs) : e
            cut.replace(k..<n, in: &items)
        case .start:
            let e = LogicalLine.ellipsis(items, near: 0, runs)
            let k = LogicalLine.suffix(items, maxWidth - e.width, notBefore: 0)
            let cut = k < n ? LogicalLine.ellipsis(items, near: k, runs) : e
            cut.replace(0..<k, in: &items)
        case .middle:
            let e = LogicalLine.ellipsis(items, near: n / 2, runs)
            let room = maxWidth - e.width
            let a = LogicalLine.prefix(items, room / 2)
            var kept = 0.0
            var i = 0
            while i < a { kept += items[i].advance; i += 1 }
            let b = LogicalLine.suffix(items, room - kept, notBefore: a)
            e.replace(a..<b, in: &items)
        case .none:
            return
        }
        isTruncated = true
        width = 0
        var i = 0
        while i < items.count { width += items[i].advance; i += 1 }
        // Only an ellipsis wider than the whole width can overflow: then nothing.
        if width > maxWidth + 1e-9 { items.removeAll(keepingCapacity: true); width = 0 }
    }

    /// The ellipsis of a cut: "…" in the font of the item nearest `i`, or
    /// three "." where the font has no "…".
    struct Ellipsis {
        var item: TextItem
        var copies: Int
        /// The copies' advances summed one by one.
        var width: Double {
            var w = 0.0
            var k = 0
            while k < copies { w += item.advance; k += 1 }
            return w
        }
        /// `items[range]` replaced by the copies, in place (no allocation
        /// within the array's capacity, unlike `replaceSubrange`).
        func replace(_ range: Range<Int>, in items: inout [TextItem]) {
            let k = range.count
            var i = 0
            while i < copies && i < k { items[range.lowerBound + i] = item; i += 1 }
            if copies < k {
                items.removeSubrange((range.lowerBound + copies)..<range.upperBound)
            } else {
                while i < copies { items.insert(item, at: range.lowerBound + i); i += 1 }
            }
        }
    }

    static func ellipsis(_ items: [TextItem], near i: Int, _ runs: [TextLayout.Run]) -> Ellipsis {
        let item = items[Swift.min(Swift.max(i, 0), items.count - 1)]
        let font = runs[item.run].font
        let s = TextLayout.clampSize(runs[item.run].size) / Double(font.unitsPerEm)
        var g = font.glyph(for: "\u{2026}"), copies = 1
        if g == 0 { g = font.glyph(for: "."); copies = 3 }
        let e = TextItem(glyph: g, cluster: item.cluster, advance: Double(font.advance(of: g)) * s, dx: 0, dy: 0,
                         run: item.run, face: -1, rtl: item.rtl, isSpace: false)
        return Ellipsis(item: e, copies: copies)
    }

    static func isBoundary(_ items: [TextItem], _ k: Int) -> Bool {
        k <= 0 || k >= items.count || items[k].cluster != items[k - 1].cluster
    }

    /// The longest prefix no wider than `w`: its length.
    static func prefix(_ items: [TextItem], _ w: Double) -> Int {
        let n = items.count
        var k = 0, sum = 0.0
        while k < n && sum + items[k].advance <= w + 1e-9 { sum += items[k].advance; k += 1 }
        while !isBoundary(items, k) { k -= 1 }
        while k > 0 && items[k - 1].isSpace { k -= 1 }
        return k
    }

    /// The longest suffix no wider than `w`: where it starts.
    static func suffix(_ items: [TextItem], _ w: Double, notBefore limit: Int) -> Int {
        let n = items.count
        var k = n, sum = 0.0
        while k > limit && sum + items[k - 1].advance <= w + 1e-9 { sum += items[k - 1].advance; k -= 1 }
        while !isBoundary(items, k) { k += 1 }
        while k < n && items[k].isSpace { k += 1 }
        return k
    }

    /// The items left to right on screen: right-to-left pieces reversed
    /// (HarfBuzz's visual order for them), and the pieces themselves
    /// reversed in a right-to-left paragraph.
    func visualOrder(into v: inout [TextItem]) {
        v.removeAll(keepingCapacity: true)
        var i = 0
        while i < items.count { v.append(items[i]); i += 1 }
        guard !items.isEmpty else { return }
        let baseRTL = items[0].rtl
        var mixed = false
        i = 0
        while i < items.count { if items[i].rtl != baseRTL { mixed = true; break }; i += 1 }
        guard baseRTL || mixed else { return }          // left to right throughout: logical order
        if baseRTL { LogicalLine.reverse(&v, 0, v.count) }
        // Reverse every maximal stretch running against the base direction.
        i = 0
        while i < v.count {
            guard v[i].rtl != baseRTL else { i += 1; continue }
            var j = i
            while j < v.count && v[j].rtl != baseRTL { j += 1 }
            LogicalLine.reverse(&v, i, j)
            i = j
        }
    }

    /// Reverses `v[from ..< to]` in place (no slice, and not `swapAt`,
    /// which debug builds call unspecialised, allocating).
    static func reverse(_ v: inout [TextItem], _ from: Int, _ to: Int) {
        var a = from, b = to - 1
        while a < b { let t = v[a]; v[a] = v[b]; v[b] = t; a += 1; b -= 1 }
    }
}

extension TextLayout {
    /// NaN, negative and 0 → 0 (nothing drawn); above the maximum → the
    /// maximum.
    static func clampSize(_ s: Double) -> Double {
        guard s > 0 else { return 0 }
        return Swift.min(s, maximumFontSize)
    }
}

/// The text of all runs as one UTF-8 array, and the shaping of it.
struct Builder {
    var runs: [TextLayout.Run]
    var text: [UInt8] = []
    /// Where each run starts in `text` (one more entry: the end).
    var starts: [Int] = []
    /// Points per font unit of each run (0 for a run with no size).
    var scales: [Double] = []
    /// The fallback fonts this layout shapes with (`TextItem.face`).
    var faces: [Font] = []

    init(runs: [TextLayout.Run]) {
        self.runs = []
        reset(runs: runs)
    }

    init() { runs = [] }

    /// Takes `runs`, its storage kept.
    mutating func reset(runs: [TextLayout.Run]) {
        self.runs = runs
        text.removeAll(keepingCapacity: true)
        starts.removeAll(keepingCapacity: true)
        scales.removeAll(keepingCapacity: true)
        faces.removeAll(keepingCapacity: true)
        var k = 0
        while k < runs.count {
            let r = runs[k]
            k += 1
            starts.append(text.count)
            let s = TextLayout.clampSize(r.size)
            scales.append(s / Double(r.font.unitsPerEm))
            // A run of size 0 lays out nothing: its text is dropped.
            if s > 0 {
                let first = text.count
                text.append(contentsOf: r.string.utf8)
                var i = first
                while i < text.count { if text[i] == 0x09 || text[i] == 0x0D { text[i] = 0x20 }; i += 1 }
            }
        }
        starts.append(text.count)
    }

    /// The run holding byte `offset` (the last run at the end).
    func run(at offset: Int) -> Int {
        var r = 0
        while r + 1 < runs.count && starts[r + 1] <= offset && starts[r + 1] < text.count { r += 1 }
        return r
    }

    /// Decodes the scalar starting at `i` (the text is valid UTF-8: it
    /// comes from Swift strings).
    func scalar(at i: Int) -> (value: UInt32, length: Int) {
        let b0 = UInt32(text[i])
        if b0 < 0x80 { return (b0, 1) }
        if b0 < 0xE0 { return ((b0 & 0x1F) << 6 | UInt32(text[i + 1] & 0x3F), 2) }
        if b0 < 0xF0 { return ((b0 & 0x0F) << 12 | UInt32(text[i + 1] & 0x3F) << 6 | UInt32(text[i + 2] & 0x3F), 3) }
        return ((b0 & 0x07) << 18 | UInt32(text[i + 1] & 0x3F) << 12 | UInt32(text[i + 2] & 0x3F) << 6 | UInt32(text[i + 3] & 0x3F), 4)
    }

    /// The paragraph `range` shaped piece by piece (one script, one run),
    /// in logical order.
    mutating func shapeParagraph(_ range: Range<Int>) -> [TextItem] {
        var items: [TextItem] = []
        shapeParagraph(range, into: &items)
        return items
    }

    /// The same into `items` (emptied first, its storage kept).
    mutating func shapeParagraph(_ range: Range<Int>, into items: inout [TextItem]) {
        items.removeAll(keepingCapacity: true)
        guard !range.isEmpty else { return }
        let funcs = hb_unicode_funcs_get_default()
        // Pieces: split where the script, the run or the font changes.
        var pieceStart = range.lowerBound
        var pieceScript = HB_SCRIPT_COMMON
        var pieceRun = run(at: range.lowerBound)
        var pieceFace = -1
        var i = range.lowerBound
        while i < range.upperBound {
            let (cp, len) = scalar(at: i)
            let r = run(at: i)
            let own = hb_unicode_script(funcs, cp)
            var script = own
            if own == HB_SCRIPT_COMMON || own == HB_SCRIPT_INHERITED || own == HB_SCRIPT_UNKNOWN { script = pieceScript }
            let face = self.face(for: cp, run: r, isMark: own == HB_SCRIPT_INHERITED, current: r == pieceRun ? pieceFace : -1)
            if r != pieceRun || face != pieceFace || (script != pieceScript && pieceScript != HB_SCRIPT_COMMON) {
                shape(range, piece: pieceStart..<i, script: pieceScript, run: pieceRun, face: pieceFace, into: &items)
                pieceStart = i
                pieceRun = r
                pieceFace = face
            }
            pieceScript = script
            i += len
        }
        shape(range, piece: pieceStart..<range.upperBound, script: pieceScript, run: pieceRun, face: pieceFace, into: &items)
    }

    /// The font `cp` of run `r` is shaped with (-1: the run's, else an
    /// index in `faces`): a combining mark or joiner (`isMark`, script
    /// Inherited) stays with the `current` font when it has it; else the
    /// run's font when it has it (spaces and punctuation too, so text
    /// around a fallback word keeps the run's font); else its fallback;
    /// else the run's font (its missing-glyph box).
    mutating func face(for cp: UInt32, run r: Int, isMark: Bool, current: Int) -> Int {
        let font = runs[r].font
        if cp < 0x20 { return current }
        if isMark && current >= 0 && faces[current].covers(cp) { return current }
        if font.covers(cp) { return -1 }
        guard let fallback = font.fallback(for: cp) else { return -1 }
        var k = 0
        while k < faces.count { if faces[k] === fallback { return k }; k += 1 }
        faces.append(fallback)
        return faces.count - 1
    }

    /// Shapes `piece` of `paragraph` (the rest of the paragraph is context
    /// for HarfBuzz) with `run`'s font.
    func shape(_ paragraph: Range<Int>, piece: Range<Int>, script: hb_script_t, run r: Int, face: Int,
               into items: inout [TextItem]) {
        guard !piece.isEmpty else { return }
        let font = face < 0 ? runs[r].font : faces[face]
        // The font's buffer and face are shared by every thread that shapes
        // with it (see `Font`): one shaping call at a time.
        font.lock.lock()
        defer { font.lock.unlock() }
        let scale = face < 0 ? scales[r] : TextLayout.clampSize(runs[r].size) / Double(font.unitsPerEm)
        let buffer = font.hbBuffer
        hb_buffer_clear_contents(buffer)
        text.withUnsafeBufferPointer { bytes in
            let base = UnsafeRawPointer(bytes.baseAddress! + paragraph.lowerBound).assumingMemoryBound(to: CChar.self)
            hb_buffer_add_utf8(buffer, base, Int32(paragraph.count), UInt32(piece.lowerBound - paragraph.lowerBound),
                               Int32(piece.count))
        }
        let s = script == HB_SCRIPT_COMMON ? HB_SCRIPT_LATIN : script
        hb_buffer_set_script(buffer, s)
        hb_buffer_set_direction(buffer, hb_script_get_horizontal_direction(s))
        hb_buffer_guess_segment_properties(buffer)
        hb_shape(font.hbFont, buffer, nil, 0)
        let rtl = fbr_hb_direction_is_backward(hb_buffer_get_direction(buffer)) != 0
        var count: UInt32 = 0
        guard let infos = hb_buffer_get_glyph_infos(buffer, &count),
              let positions = hb_buffer_get_glyph_positions(buffer, &count) else { return }
        let first = items.count
        for k in 0..<Int(count) {
            let cluster = paragraph.lowerBound + Int(infos[k].cluster)
            let p = positions[k]
            items.append(TextItem(glyph: infos[k].codepoint, cluster: cluster, advance: Double(p.x_advance) * scale,
                                  dx: Double(p.x_offset) * scale, dy: Double(p.y_offset) * scale,
                                  run: r, face: face, rtl: rtl, isSpace: cluster < text.count && text[cluster] == 0x20))
        }
        // HarfBuzz gives right-to-left text in visual order: back to logical.
        if rtl {
            var a = first, b = items.count - 1
            while a < b { let t = items[a]; items[a] = items[b]; items[b] = t; a += 1; b -= 1 }   // not swapAt: unspecialised in debug builds, it allocates
        }
    }

    /// Greedy line breaking of one paragraph's items at `maxWidth`.
    func breakLines(_ items: [TextItem], maxWidth: Double) -> [[TextItem]] {
        var breaks: [Range<Int>] = []
        breakLines(items, maxWidth: maxWidth, into: &breaks)
        var lines: [[TextItem]] = []
        for r in breaks { lines.append(Array(items[r])) }
        return lines
    }

    /// The same as ranges of `items`, into `lines` (emptied first).
    func breakLines(_ items: [TextItem], maxWidth: Double, into lines: inout [Range<Int>]) {
        lines.removeAll(keepingCapacity: true)
        let n = items.count
        var start = 0
        while start < n {
            var width = 0.0
            var lastBreak = -1
            var j = start
            var end = n
            while j < n {
                let item = items[j]
                if !item.isSpace && width + item.advance > maxWidth + 1e-9 && j > start {
                    if lastBreak > start {
                        end = lastBreak
                    } else {
                        // One word wider than the line: break between clusters.
                        var k = j
                        while k > start && items[k].cluster == items[k - 1].cluster { k -= 1 }
                        if k == start {
                            k = start + 1
                            while k < n && items[k].cluster == items[start].cluster { k += 1 }
                        }
                        end = k
                    }
                    break
                }
                width += item.advance
                if item.isSpace && (j + 1 == n || !items[j + 1].isSpace) { lastBreak = j + 1 }
                j += 1
            }
            lines.append(start..<end)
            start = end
        }
    }
}

/// The working storage of `TextLayout.layOut`, kept between layouts by
/// `TextLayoutCache` (one layout at a time).
package final class TextLayoutScratch {
    package init() {}
    var builder = Builder()
    var items: [TextItem] = []
    var breaks: [Range<Int>] = []
    var visual: [TextItem] = []
    /// A pool of lines: the first `lineCount` are in use.
    var lines: [LogicalLine] = []
    var lineCount = 0

    /// A line (reusing an old one's storage); its index.
    func addLine() -> Int {
        if lineCount == lines.count { lines.append(LogicalLine(items: [], endsParagraph: false, run: 0)) }
        lineCount += 1
        return lineCount - 1
    }
}
