import FBRuntime
import Raster

/// A multi-line text area: its text wrapped to the width, a blinking caret,
/// selection and the editing operations of `TextField`, the return key
/// breaking the line, and vertical scrolling that keeps the caret's line in
/// view.
///
/// Touch: a tap begins editing and puts the caret at the boundary nearest
/// the finger on the line under it (`caretIndex(at:)`); a drag selects; a
/// double tap selects a word. The selection is drawn as one `ShapeLayer`
/// (a rectangle per line it covers). The caret blinks as a field's does
/// (a repeating keyframe animation on the render thread).
///
/// **Bad input.** At most `maximumLength` scalars are stored (default
/// `TextArea.defaultMaximumLength`, 4096), so every layout of the area is
/// bounded (`laidOutScalarCount`); invalid UTF-8 becomes U+FFFD.
public final class TextArea: TextInputControl {
    /// Four pages of a paragraph per line of a small panel.
    public static let defaultMaximumLength = 4096

    public private(set) var buffer = TextBuffer(maximumLength: TextArea.defaultMaximumLength)

    /// The text. Setting it puts the caret at the end and calls no handler.
    public var text: String {
        get { buffer.text }
        set { buffer.setText(newValue); textDidChange() }
    }

    public var maximumLength: Int {
        get { buffer.maximumLength }
        set { buffer.maximumLength = newValue; textDidChange() }
    }

    public var onChange: ((TextArea) -> Void)?
    public var onBeginEditing: ((TextArea) -> Void)?
    public var onEndEditing: ((TextArea) -> Void)?
    public var doubleTapInterval: Double = 0.35

    public private(set) var isEditing = false
    /// How far the text is scrolled up, points (≥ 0).
    public private(set) var scrollOffset = 0.0
    /// Scalars in the last layout (at most `maximumLength`).
    public var laidOutScalarCount: Int { stops.count - 1 }
    /// Lines in the last layout.
    public private(set) var lineCount = 0

    public let clipLayer = Layer(name: "textArea")
    public let selectionLayer = ShapeLayer(name: "selection")
    public let textLayer = TextLayer(name: "text")
    public let caretLayer = Layer(name: "caret")

    /// A caret position: x in the text layer's space and the line's top
    /// and height, points; `right`: where the scalar after it ends on
    /// that line (its glyph's advance), for the selection.
    struct Stop { var x: Double; var top: Double; var height: Double; var right: Double }
    private var stops: [Stop] = [Stop(x: 0, top: 0, height: 0, right: 0)]
    private var lineHeight = 0.0
    private var textHeight = 0.0
    private var blink: KeyframeAnimation
    private var dragAnchor = 0
    private var selectingWord = false
    private var lastTapTime: MediaTime = -.infinity
    private var lastTapPoint = Point(x: 0, y: 0)

    public init(text: String = "", theme: Theme = .light) {
        var animation = KeyframeAnimation(key: .opacity, values: [.scalar(1), .scalar(0)], duration: 1)
        animation.calculationMode = .discrete
        animation.keyTimes = [0, 0.5, 1]
        animation.repeatCount = .infinity
        blink = animation
        super.init(name: "textArea")
        self.theme = theme
        clipLayer.anchorPoint = .zero
        clipLayer.masksToBounds = true
        selectionLayer.strokeColor = nil
        textLayer.isWrapped = true
        for layer in [selectionLayer, textLayer, caretLayer] as [Layer] {
            layer.anchorPoint = .zero
            try? clipLayer.addSublayer(layer)
        }
        try? addSublayer(clipLayer)
        caretLayer.isHidden = true
        buffer.setText(text)
        applyFonts()
        updateAppearance()
    }

    /// 240 by 120 points.
    public override var preferredSize: Size { Size(width: 240, height: 120) }

    // MARK: Editing

    public override func insertText(_ string: String) { buffer.insert(string); edited() }
    public func insertText(utf8 bytes: [UInt8]) { buffer.insert(utf8: bytes); edited() }
    public override func deleteBackward() { if buffer.deleteBackward() { edited() } }
    /// A line break at the caret.
    public override func insertReturn() { insertText("\n") }

    public func setCaret(_ index: Int, extendingSelection: Bool = false) {
        buffer.moveCaret(to: index, extendingSelection: extendingSelection)
        caretDidMove()
    }

    public func select(_ range: Range<Int>) { buffer.select(range); caretDidMove() }

    public func copy(to pasteboard: Pasteboard = .general) {
        guard buffer.hasSelection else { return }
        pasteboard.string = buffer.selectedText
    }

    public func paste(from pasteboard: Pasteboard = .general) {
        guard let string = pasteboard.string else { return }
        insertText(string)
    }

    public func beginEditing() {
        guard !isEditing else { return }
        isEditing = true
        keyboard?.beginInput(for: self)
        caretDidMove()
        onBeginEditing?(self)
    }

    public override func endEditing() {
        guard isEditing else { return }
        isEditing = false
        buffer.moveCaret(to: buffer.caret)
        keyboard?.endInput(for: self)
        caretDidMove()
        onEndEditing?(self)
    }

    // MARK: Geometry

    /// The caret index nearest `point` (bounds space, points): on the line
    /// under it (the first or last line above or below the text), the
    /// boundary with the nearest x.
    /// - Complexity: O(count).
    public func caretIndex(at point: Point) -> Int {
        let origin = clipLayer.frame
        let x = point.x - origin.minX, y = point.y - origin.minY + scrollOffset
        guard x.isFinite, y.isFinite else { return 0 }
        // The line: the last whose top is at or above y (the first if none).
        var lineTop = stops[0].top
        for s in stops where s.top <= y { lineTop = max(lineTop, s.top) }
        var best = 0, bestDistance = Double.infinity
        for (i, s) in stops.enumerated() where s.top == lineTop {
            let d = abs(s.x - x)
            if d < bestDistance { best = i; bestDistance = d }
        }
        return best
    }

    /// The caret at `index`: its top left in bounds space (scrolling
    /// included) and its height, points.
    public func caretRect(at index: Int) -> Rect {
        let s = stops[min(max(index, 0), stops.count - 1)]
        let origin = clipLayer.frame
        return Rect(x: origin.minX + s.x, y: origin.minY + s.top - scrollOffset, width: TextField.caretWidth, height: s.height)
    }

    // MARK: Control

    public override func beginTracking(at point: Point) -> Bool {
        let wasEditing = isEditing
        let index = caretIndex(at: point)
        let dx = point.x - lastTapPoint.x, dy = point.y - lastTapPoint.y
        let slop = theme.metrics.touchSlop
        if wasEditing && trackingTime - lastTapTime <= doubleTapInterval && dx * dx + dy * dy <= slop * slop {
            selectingWord = true
            buffer.select(buffer.wordRange(at: index))
        } else {
            selectingWord = false
            dragAnchor = index
            buffer.moveCaret(to: index)
        }
        if wasEditing { caretDidMove() } else { beginEditing() }
        return true
    }

    public override func continueTracking(at point: Point) {
        guard !selectingWord else { return }
        buffer.moveCaret(to: dragAnchor)
        buffer.moveCaret(to: caretIndex(at: point), extendingSelection: true)
        caretDidMove()
    }

    public override func endTracking(at point: Point) {
        lastTapTime = selectingWord ? -.infinity : trackingTime
        lastTapPoint = point
    }

    public override func cancelTracking() {}

    /// Disabling the area ends its editing (and hides its keyboard).
    public override func stateDidChange(from old: State) {
        if state == .disabled { endEditing() }
        super.stateDidChange(from: old)
    }

    public override func themeDidChange() {
        applyFonts()
        super.themeDidChange()
    }

    public override func updateAppearance() {
        let c = theme.colors
        Transaction.withoutActions {
            if backgroundColor != c.surface { backgroundColor = c.surface }
            let border = isEditing ? c.accent : c.separator
            if borderColor != border { borderColor = border }
            if borderWidth != 1 { borderWidth = 1 }
            if cornerRadius != theme.metrics.cornerRadius { cornerRadius = theme.metrics.cornerRadius }
            textLayer.foregroundColor = state == .disabled ? c.disabledText : c.text
            caretLayer.backgroundColor = c.accent
            selectionLayer.fillColor = Color(red: c.accent.red, green: c.accent.green, blue: c.accent.blue, alpha: 0.3)
        }
    }

    public override func layoutSublayers() {
        super.layoutSublayers()
        let b = bounds
        let padding = theme.metrics.padding / 2
        let clip = Rect(x: b.minX + padding, y: b.minY + padding / 2, width: max(0, b.width - 2 * padding),
                        height: max(0, b.height - padding))
        Transaction.withoutActions {
            if clipLayer.frame != clip {
                clipLayer.frame = clip
                textDidChange()   // the wrap width changed
            }
        }
    }

    // MARK: Internals

    private func edited() {
        textDidChange()
        onChange?(self)
    }

    private func applyFonts() {
        let font = theme.fonts.regular ?? TextLayer.defaultFont
        if textLayer.font !== font { textLayer.font = font }
        if textLayer.fontSize != theme.fonts.bodySize { textLayer.fontSize = theme.fonts.bodySize }
        lineHeight = font.map { TextLayout([TextLayout.Run("Hg", font: $0, size: theme.fonts.bodySize)]).height } ?? 0
        textDidChange()
    }

    /// Lays the text out once, wrapped to the text area's width, for the
    /// caret stops, and hands it to the text layer.
    private func textDidChange() {
        let string = buffer.text
        let width = clipLayer.bounds.width
        stops.removeAll(keepingCapacity: true)
        var layout = TextLayout()
        if let font = textLayer.font, width > 0 {
            layout = TextLayout([TextLayout.Run(string, font: font, size: textLayer.fontSize)], width: width, isWrapped: true)
        }
        TextArea.stops(for: buffer.scalars, layout: layout, lineHeight: lineHeight, into: &stops)
        lineCount = layout.lines.count
        textHeight = (stops.map { $0.top + $0.height }.max() ?? 0)
        Transaction.withoutActions {
            textLayer.string = string
        }
        caretDidMove()
    }

    /// For each boundary `0...count`: the x of the glyph that starts there
    /// on its line; a boundary without a glyph (before a line break, inside
    /// a cluster) is at the end of the scalar before it; after a final line
    /// break, the start of a new line below the last.
    static func stops(for scalars: [Unicode.Scalar], layout: TextLayout, lineHeight: Double, into stops: inout [Stop]) {
        let n = scalars.count
        var offsets: [Int] = []
        offsets.reserveCapacity(n)
        var o = 0
        for s in scalars { offsets.append(o); o += UTF8.width(s) }
        var starts = [Stop?](repeating: nil, count: n)
        var ends = [Stop?](repeating: nil, count: n)
        for (l, line) in layout.lines.enumerated() {
            for g in line.glyphs {
                let glyph = layout.glyphs[g]
                // The scalar at the glyph's cluster (binary search).
                var lo = 0, hi = n
                while lo < hi { let mid = (lo + hi) / 2; if offsets[mid] < glyph.cluster { lo = mid + 1 } else { hi = mid } }
                guard lo < n, offsets[lo] == glyph.cluster else { continue }
                let top = layout.lines[l].top, height = layout.lines[l].height
                let end = glyph.x + glyph.advance
                if let s = starts[lo] {
                    if s.top == top { starts[lo]!.right = max(s.right, end) }
                } else {
                    starts[lo] = Stop(x: glyph.x, top: top, height: height, right: end)
                }
                if let e = ends[lo], e.top == top, e.x >= end { continue }
                ends[lo] = Stop(x: end, top: top, height: height, right: end)
            }
        }
        var previousEnd = Stop(x: 0, top: 0, height: lineHeight, right: 0)
        for k in 0..<n {
            var stop = starts[k] ?? previousEnd
            if starts[k] == nil { stop.right = stop.x }
            stops.append(stop)
            if let e = ends[k] { previousEnd = e }
            if scalars[k] == "\n" {
                // A line break: what follows starts a line below.
                previousEnd = Stop(x: 0, top: previousEnd.top + previousEnd.height, height: lineHeight, right: 0)
            }
        }
        stops.append(previousEnd)
    }

    private func caretDidMove() {
        Transaction.withoutActions { place() }
    }

    private func place() {
        let area = clipLayer.bounds
        let caret = stops[min(buffer.caret, stops.count - 1)]
        if caret.top + caret.height - scrollOffset > area.height { scrollOffset = caret.top + caret.height - area.height }
        if caret.top < scrollOffset { scrollOffset = caret.top }
        scrollOffset = max(0, min(scrollOffset, textHeight - area.height))

        let textFrame = Rect(x: 0, y: -scrollOffset, width: area.width, height: max(textHeight, lineHeight))
        if textLayer.frame != textFrame { textLayer.frame = textFrame }

        let selection = buffer.selection
        let showsSelection = isEditing && !selection.isEmpty
        if showsSelection {
            // One rectangle per line: from each boundary to the next on
            // the same line.
            var path = Path()
            for i in selection {
                let a = stops[i], b = stops[i + 1]
                let right = b.top == a.top ? b.x : a.right
                if right > a.x { path.addRect(a.x, a.top - scrollOffset, right - a.x, a.height) }
            }
            selectionLayer.frame = Rect(x: 0, y: 0, width: area.width, height: area.height)
            selectionLayer.path = path
        }
        if selectionLayer.isHidden == showsSelection { selectionLayer.isHidden = !showsSelection }

        let showsCaret = isEditing && selection.isEmpty
        caretLayer.frame = Rect(x: caret.x.rounded(), y: caret.top - scrollOffset, width: TextField.caretWidth, height: caret.height)
        if caretLayer.isHidden == showsCaret { caretLayer.isHidden = !showsCaret }
        if showsCaret {
            try? caretLayer.add(blink, forKey: "blink")
        } else if !caretLayer.animations.isEmpty {
            caretLayer.removeAnimation(forKey: "blink")
        }
        updateAppearance()
    }
}
