import FBRuntime

/// A single-line text field: its text (or a placeholder) on a bordered
/// `surface` box, a blinking caret while editing, a selection highlight,
/// touch to place the caret and select, copy and paste through a
/// `Pasteboard`, and the editing operations an on-screen `Keyboard` (or an
/// app) calls.
///
/// **Touch.** A tap begins editing (`isEditing`, `onBeginEditing`, the
/// `keyboard` shown for it) and puts the caret at the character boundary
/// nearest the finger (`caretIndex(atX:)`). Dragging selects from where the
/// finger landed to where it is. Two taps within `doubleTapInterval` and
/// `touchSlop` of each other select the word under the finger.
///
/// **Caret.** A 2-point `accent` bar that blinks (0.5 s on, 0.5 s off) by
/// a repeating discrete keyframe animation of its opacity: the render
/// thread evaluates it, the app thread does nothing per frame. Each edit or
/// caret move restarts the blink with the caret on. It hides while there
/// is a selection.
///
/// **Scrolling.** Text wider than the field scrolls horizontally
/// (`scrollOffset`, points) so the caret stays inside the text area.
///
/// **Handlers** receive the field: `onChange` after an edit made by touch,
/// the keyboard or the editing methods below (not after setting `text`),
/// `onSubmit` at `submit()` (the keyboard's return key), `onBeginEditing`
/// and `onEndEditing`.
///
/// **Bad input** (1 MB of text, invalid UTF-8): the text is a `TextBuffer`,
/// so at most `maximumLength` scalars are stored (default
/// `TextBuffer.defaultMaximumLength`, 1024); longer input is cut and
/// invalid bytes decode to U+FFFD (`insertText(utf8:)`). Every layout of the
/// field's text is of at most that many scalars (`laidOutScalarCount`), and
/// only edits lay it out: a frame without an edit redraws cached glyphs.
public final class TextField: TextInputControl {
    /// The text, caret and selection.
    public private(set) var buffer = TextBuffer()

    /// The text. Setting it puts the caret at the end and calls no handler.
    public var text: String {
        get { buffer.text }
        set { buffer.setText(newValue); textDidChange() }
    }

    /// Shown in `secondaryText` while the text is empty.
    public var placeholder: String {
        get { placeholderLayer.string }
        set { placeholderLayer.string = newValue }
    }

    /// The most scalars stored (see the type's doc).
    public var maximumLength: Int {
        get { buffer.maximumLength }
        set { buffer.maximumLength = newValue; textDidChange() }
    }

    public var onChange: ((TextField) -> Void)?
    public var onSubmit: ((TextField) -> Void)?
    public var onBeginEditing: ((TextField) -> Void)?
    public var onEndEditing: ((TextField) -> Void)?

    /// The caret shows and the field takes keys.
    public private(set) var isEditing = false

    /// Two taps closer in time than this (seconds) select a word.
    public var doubleTapInterval: Double = 0.35

    /// How far the text is scrolled left, points (≥ 0).
    public private(set) var scrollOffset = 0.0

    /// Scalars in the text layer's last layout: never more than
    /// `maximumLength` (the bound on per-edit layout work).
    public var laidOutScalarCount: Int { caretStops.count - 1 }

    /// The parts, for tests and styling: `clipLayer` (the text area,
    /// masking) holds the selection, placeholder, text and caret.
    public let clipLayer = Layer(name: "textArea")
    public let selectionLayer = Layer(name: "selection")
    public let placeholderLayer = TextLayer(name: "placeholder")
    public let textLayer = TextLayer(name: "text")
    public let caretLayer = Layer(name: "caret")

    /// Caret x for each index `0...count`, in the text layer's space
    /// (points), from the last layout.
    private var caretStops: [Double] = [0]
    private var lineHeight = 0.0
    private var blink: KeyframeAnimation
    /// Where the finger landed (drag selection) and the last tap's end.
    private var dragAnchor = 0
    private var selectingWord = false
    private var lastTapTime: MediaTime = -.infinity
    private var lastTapPoint = Point(x: 0, y: 0)

    static let caretWidth = 2.0

    public init(text: String = "", placeholder: String = "", theme: Theme = .light) {
        var animation = KeyframeAnimation(key: .opacity, values: [.scalar(1), .scalar(0)], duration: 1)
        animation.calculationMode = .discrete
        animation.keyTimes = [0, 0.5, 1]
        animation.repeatCount = .infinity
        blink = animation
        super.init(name: "textField")
        self.theme = theme
        clipLayer.anchorPoint = .zero
        clipLayer.masksToBounds = true
        for layer in [selectionLayer, placeholderLayer, textLayer, caretLayer] {
            layer.anchorPoint = .zero
            try? clipLayer.addSublayer(layer)
        }
        try? addSublayer(clipLayer)
        caretLayer.isHidden = true
        selectionLayer.isHidden = true
        placeholderLayer.string = placeholder
        buffer.setText(text)
        applyFonts()
        updateAppearance()
        textDidChange()
    }

    /// 200 points wide (give it `LayoutItem(grow: 1)` to fill a row) by
    /// `controlHeight`, or the line's height plus 8 if taller.
    public override var preferredSize: Size {
        Size(width: 200, height: max(theme.metrics.controlHeight, (lineHeight + 8).rounded(.up)))
    }

    // MARK: Editing (onChange follows each)

    /// Replaces the selection or inserts at the caret (cut at
    /// `maximumLength`).
    public override func insertText(_ string: String) {
        buffer.insert(string)
        edited()
    }

    /// `bytes` as UTF-8, invalid sequences as U+FFFD, cut at `maximumLength`.
    public func insertText(utf8 bytes: [UInt8]) {
        buffer.insert(utf8: bytes)
        edited()
    }

    public override func deleteBackward() {
        if buffer.deleteBackward() { edited() }
    }

    public func moveCaretLeft(extendingSelection: Bool = false) {
        buffer.moveCaretLeft(extendingSelection: extendingSelection)
        caretDidMove()
    }

    public func moveCaretRight(extendingSelection: Bool = false) {
        buffer.moveCaretRight(extendingSelection: extendingSelection)
        caretDidMove()
    }

    /// Moves the caret (clamped), collapsing the selection unless
    /// `extendingSelection`.
    public func setCaret(_ index: Int, extendingSelection: Bool = false) {
        buffer.moveCaret(to: index, extendingSelection: extendingSelection)
        caretDidMove()
    }

    public func select(_ range: Range<Int>) {
        buffer.select(range)
        caretDidMove()
    }

    public func selectAll() { select(0..<buffer.count) }

    /// Copies the selection to `pasteboard`; nothing without a selection.
    public func copy(to pasteboard: Pasteboard = .general) {
        guard buffer.hasSelection else { return }
        pasteboard.string = buffer.selectedText
    }

    /// Copies and deletes the selection.
    public func cut(to pasteboard: Pasteboard = .general) {
        guard buffer.hasSelection else { return }
        pasteboard.string = buffer.selectedText
        buffer.deleteSelection()
        edited()
    }

    /// Inserts the pasteboard's text in place of the selection.
    public func paste(from pasteboard: Pasteboard = .general) {
        guard let string = pasteboard.string else { return }
        insertText(string)
    }

    /// Calls `onSubmit`.
    public func submit() { onSubmit?(self) }

    /// The return key: `submit()`.
    public override func insertReturn() { submit() }

    /// Shows the caret and the `keyboard`; calls `onBeginEditing`.
    public func beginEditing() {
        guard !isEditing else { return }
        isEditing = true
        keyboard?.beginInput(for: self)
        caretDidMove()
        onBeginEditing?(self)
    }

    /// Hides the caret, the selection and the `keyboard`; calls
    /// `onEndEditing`.
    public override func endEditing() {
        guard isEditing else { return }
        isEditing = false
        buffer.moveCaret(to: buffer.caret)
        keyboard?.endInput(for: self)
        caretDidMove()
        onEndEditing?(self)
    }

    // MARK: Geometry

    /// The caret index nearest `x` (the field's bounds space, points):
    /// the boundary between scalars whose caret position is closest, from
    /// the text's layout (its glyphs' clusters and advances).
    /// - Complexity: O(log count).
    public func caretIndex(atX x: Double) -> Int {
        let tx = x - clipLayer.frame.minX + scrollOffset
        guard tx.isFinite else { return 0 }
        // First stop at or right of tx.
        var lo = 0, hi = caretStops.count - 1
        while lo < hi {
            let mid = (lo + hi) / 2
            if caretStops[mid] < tx { lo = mid + 1 } else { hi = mid }
        }
        if lo > 0 && tx - caretStops[lo - 1] <= caretStops[lo] - tx { return lo - 1 }
        return lo
    }

    /// Where the caret at `index` is drawn: its x in the field's bounds
    /// space (points), scrolling included.
    public func caretX(at index: Int) -> Double {
        let i = min(max(index, 0), caretStops.count - 1)
        return clipLayer.frame.minX + caretStops[i] - scrollOffset
    }

    // MARK: Control

    public override func beginTracking(at point: Point) -> Bool {
        let wasEditing = isEditing
        let index = caretIndex(atX: point.x)
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
        let index = caretIndex(atX: point.x)
        buffer.moveCaret(to: dragAnchor)
        buffer.moveCaret(to: index, extendingSelection: true)
        caretDidMove()
    }

    public override func endTracking(at point: Point) {
        lastTapTime = selectingWord ? -.infinity : trackingTime
        lastTapPoint = point
    }

    public override func cancelTracking() {}

    /// Disabling the field ends its editing (and hides its keyboard).
    public override func stateDidChange(from old: State) {
        if state == .disabled { endEditing() }
        super.stateDidChange(from: old)
    }

    public override func themeDidChange() {
        applyFonts()
        super.themeDidChange()
        textDidChange()
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
            placeholderLayer.foregroundColor = c.secondaryText
            caretLayer.backgroundColor = c.accent
            selectionLayer.backgroundColor = Color(red: c.accent.red, green: c.accent.green, blue: c.accent.blue, alpha: 0.3)
        }
    }

    public override func layoutSublayers() {
        super.layoutSublayers()
        let b = bounds
        let padding = theme.metrics.padding / 2
        let clip = Rect(x: b.minX + padding, y: b.minY, width: max(0, b.width - 2 * padding), height: b.height)
        Transaction.withoutActions {
            if clipLayer.frame != clip { clipLayer.frame = clip }
            placeText()
        }
    }

    // MARK: Internals

    private func edited() {
        textDidChange()
        onChange?(self)
    }

    private func applyFonts() {
        let font = theme.fonts.regular ?? TextLayer.defaultFont
        let size = theme.fonts.bodySize
        for layer in [textLayer, placeholderLayer] {
            if layer.font !== font { layer.font = font }
            if layer.fontSize != size { layer.fontSize = size }
        }
        if let font {
            lineHeight = TextLayout([TextLayout.Run("Hg", font: font, size: size)]).height
        } else {
            lineHeight = 0
        }
    }

    /// Lays the text out once (at most `maximumLength` scalars) for the
    /// caret positions, and hands it to the text layer.
    private func textDidChange() {
        let string = buffer.text
        caretStops.removeAll(keepingCapacity: true)
        if let font = textLayer.font {
            let layout = TextLayout([TextLayout.Run(string, font: font, size: textLayer.fontSize)])
            TextField.caretStops(for: buffer.scalars, glyphs: layout.glyphs, into: &caretStops)
        } else {
            caretStops.append(contentsOf: repeatElement(0, count: buffer.count + 1))
        }
        Transaction.withoutActions {
            textLayer.string = string
            placeholderLayer.isHidden = !buffer.isEmpty
        }
        caretDidMove()
    }

    /// For scalar boundary i, the x of the first glyph of the cluster that
    /// starts there; boundaries inside a cluster (a combining mark, a
    /// ligature) take the cluster's start; the end is the last glyph's
    /// right edge. Left-to-right text.
    static func caretStops(for scalars: [Unicode.Scalar], glyphs: [TextLayout.Glyph], into stops: inout [Double]) {
        var end = 0.0
        for g in glyphs { end = max(end, g.x + g.advance) }
        stops.append(contentsOf: repeatElement(Double.nan, count: scalars.count + 1))
        // UTF-8 offset of each scalar, then glyph clusters matched to them.
        var offsets: [Int] = []
        offsets.reserveCapacity(scalars.count)
        var o = 0
        for s in scalars { offsets.append(o); o += UTF8.width(s) }
        var i = 0
        for g in glyphs {
            while i < offsets.count && offsets[i] < g.cluster { i += 1 }
            if i < offsets.count && offsets[i] == g.cluster && stops[i].isNaN { stops[i] = g.x }
        }
        stops[scalars.count] = end
        var last = 0.0
        for k in 0..<scalars.count {
            if stops[k].isNaN { stops[k] = last } else { last = stops[k] }
        }
    }

    private func caretDidMove() {
        Transaction.withoutActions { placeText() }
    }

    /// Scrolls so the caret is inside the text area and places the text,
    /// caret and selection.
    private func placeText() {
        let area = clipLayer.bounds
        let y = ((area.height - lineHeight) / 2).rounded()
        let textWidth = caretStops[caretStops.count - 1]
        let caretStop = caretStops[min(buffer.caret, caretStops.count - 1)]
        let visible = max(0, area.width - TextField.caretWidth)
        if caretStop - scrollOffset > visible { scrollOffset = caretStop - visible }
        if caretStop < scrollOffset { scrollOffset = caretStop }
        scrollOffset = max(0, min(scrollOffset, textWidth - visible))

        let textFrame = Rect(x: -scrollOffset, y: y, width: max(area.width, textWidth + 1), height: lineHeight)
        if textLayer.frame != textFrame { textLayer.frame = textFrame }
        let placeholderFrame = Rect(x: 0, y: y, width: area.width, height: lineHeight)
        if placeholderLayer.frame != placeholderFrame { placeholderLayer.frame = placeholderFrame }

        let selection = buffer.selection
        let showsSelection = isEditing && !selection.isEmpty
        if showsSelection {
            let x0 = caretStops[selection.lowerBound] - scrollOffset, x1 = caretStops[selection.upperBound] - scrollOffset
            selectionLayer.frame = Rect(x: x0, y: y, width: x1 - x0, height: lineHeight)
        }
        if selectionLayer.isHidden == showsSelection { selectionLayer.isHidden = !showsSelection }

        let showsCaret = isEditing && selection.isEmpty
        caretLayer.frame = Rect(x: (caretStop - scrollOffset).rounded(), y: y, width: TextField.caretWidth, height: lineHeight)
        if caretLayer.isHidden == showsCaret { caretLayer.isHidden = !showsCaret }
        if showsCaret {
            // Restart the blink: the caret is on right after a move.
            try? caretLayer.add(blink, forKey: "blink")
        } else if !caretLayer.animations.isEmpty {
            caretLayer.removeAnimation(forKey: "blink")
        }
        updateAppearance()
    }
}
