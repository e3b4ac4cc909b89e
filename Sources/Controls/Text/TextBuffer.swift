/// The editable text of a `TextField`: Unicode scalars, a caret and a
/// selection, and the editing operations. A value; the field draws it.
///
/// Indices are scalar offsets, `0...count`. The caret is `selection.upperBound`
/// side of the anchor: a selection is made by moving the caret away from
/// its anchor (`moveCaret(to:extendingSelection:)`).
///
/// **Length limit.** At most `maximumLength` scalars are stored; an insertion
/// that would pass it is cut there (the rest is dropped, and the insertion
/// methods return how many scalars they took). This bounds every later
/// layout and draw of the text, whatever was fed in (a 1 MB paste).
///
/// **Bad input.** Bytes that are not UTF-8 (`insert(utf8:)`) become U+FFFD
/// replacement characters, one per maximal invalid subsequence, as
/// `String(decoding:as:)` does; decoding stops once the limit is reached, so
/// a huge input costs O(`maximumLength`), not O(input).
///
/// Caret steps are by scalar: a base character followed by a combining
/// mark takes two steps (grapheme clusters need Unicode tables Embedded
/// Swift does not link by default).
public struct TextBuffer: Equatable {
    /// The default `maximumLength`: enough for any single-line field of an
    /// appliance, small enough to lay out in well under a frame on a board.
    public static let defaultMaximumLength = 1024

    public private(set) var scalars: [Unicode.Scalar] = []
    /// Where a selection started (equal to `caret` without a selection).
    public private(set) var anchor = 0
    /// The insertion point, `0...count`.
    public private(set) var caret = 0
    /// Stored scalars at most; lowering it cuts the text.
    public var maximumLength: Int {
        didSet {
            maximumLength = max(0, maximumLength)
            if scalars.count > maximumLength {
                scalars.removeSubrange(maximumLength...)
                anchor = min(anchor, maximumLength); caret = min(caret, maximumLength)
            }
        }
    }

    public init(_ text: String = "", maximumLength: Int = TextBuffer.defaultMaximumLength) {
        self.maximumLength = max(0, maximumLength)
        _ = insert(text)
    }

    public var count: Int { scalars.count }
    public var isEmpty: Bool { scalars.isEmpty }
    /// The selected scalars' range (empty: just the caret).
    public var selection: Range<Int> { min(anchor, caret)..<max(anchor, caret) }
    public var hasSelection: Bool { anchor != caret }

    /// The text as a string.
    public var text: String { string(scalars[...]) }
    /// The selected text ("" without a selection).
    public var selectedText: String { string(scalars[selection]) }

    private func string(_ s: ArraySlice<Unicode.Scalar>) -> String {
        var result = String()
        result.unicodeScalars.append(contentsOf: s)
        return result
    }

    // MARK: Editing

    /// Replaces the selection (or inserts at the caret) with `text`, cut at
    /// `maximumLength`; the caret goes after it. Returns the scalars taken.
    /// - Complexity: O(count + taken); at most `maximumLength` scalars of
    ///   `text` are read.
    @discardableResult
    public mutating func insert(_ text: String) -> Int {
        deleteSelection()
        let room = maximumLength - scalars.count
        guard room > 0 else { return 0 }
        var new: [Unicode.Scalar] = []
        for s in text.unicodeScalars {
            if new.count == room { break }
            new.append(s)
        }
        return insert(scalars: new)
    }

    /// `bytes` decoded as UTF-8 (invalid sequences become U+FFFD) and
    /// inserted as `insert(_:)` does. Decoding stops at the limit.
    @discardableResult
    public mutating func insert(utf8 bytes: [UInt8]) -> Int {
        deleteSelection()
        let room = maximumLength - scalars.count
        guard room > 0 else { return 0 }
        var new: [Unicode.Scalar] = []
        var iterator = bytes.makeIterator()
        var decoder = UTF8()
        decoding: while new.count < room {
            switch decoder.decode(&iterator) {
            case let .scalarValue(s): new.append(s)
            case .error: new.append(Unicode.Scalar(0xFFFD)!)
            case .emptyInput: break decoding
            }
        }
        return insert(scalars: new)
    }

    private mutating func insert(scalars new: [Unicode.Scalar]) -> Int {
        scalars.insert(contentsOf: new, at: caret)
        caret += new.count
        anchor = caret
        return new.count
    }

    /// Deletes the selection, or else the scalar before the caret. Returns
    /// false when there was nothing to delete.
    @discardableResult
    public mutating func deleteBackward() -> Bool {
        if hasSelection { deleteSelection(); return true }
        guard caret > 0 else { return false }
        scalars.remove(at: caret - 1)
        caret -= 1
        anchor = caret
        return true
    }

    /// Removes the selected scalars; the caret goes where they were.
    public mutating func deleteSelection() {
        let range = selection
        guard !range.isEmpty else { return }
        scalars.removeSubrange(range)
        caret = range.lowerBound
        anchor = caret
    }

    /// Replaces the whole text (cut at `maximumLength`), caret at the end.
    public mutating func setText(_ text: String) {
        scalars.removeAll(keepingCapacity: true)
        caret = 0; anchor = 0
        _ = insert(text)
    }

    // MARK: Caret and selection

    /// Moves the caret to `index` (clamped to `0...count`); without
    /// `extendingSelection` the selection collapses there.
    public mutating func moveCaret(to index: Int, extendingSelection: Bool = false) {
        caret = min(max(index, 0), scalars.count)
        if !extendingSelection { anchor = caret }
    }

    /// One scalar left; a selection collapses to its start instead.
    public mutating func moveCaretLeft(extendingSelection: Bool = false) {
        if hasSelection && !extendingSelection { moveCaret(to: selection.lowerBound); return }
        moveCaret(to: caret - 1, extendingSelection: extendingSelection)
    }

    /// One scalar right; a selection collapses to its end instead.
    public mutating func moveCaretRight(extendingSelection: Bool = false) {
        if hasSelection && !extendingSelection { moveCaret(to: selection.upperBound); return }
        moveCaret(to: caret + 1, extendingSelection: extendingSelection)
    }

    /// Selects `range` (clamped), the caret at its end.
    public mutating func select(_ range: Range<Int>) {
        let n = scalars.count
        anchor = min(max(range.lowerBound, 0), n)
        caret = min(max(range.upperBound, anchor), n)
    }

    public mutating func selectAll() { select(0..<scalars.count) }

    /// The word around `index`: the run of word scalars (not spaces or
    /// ASCII punctuation) that touches it; empty at `index` when there is
    /// none.
    public func wordRange(at index: Int) -> Range<Int> {
        let i = min(max(index, 0), scalars.count)
        var lo = i, hi = i
        while lo > 0 && TextBuffer.isWordScalar(scalars[lo - 1]) { lo -= 1 }
        while hi < scalars.count && TextBuffer.isWordScalar(scalars[hi]) { hi += 1 }
        return lo..<hi
    }

    /// Letters and digits of any script count; ASCII spaces, controls and
    /// punctuation, no-break and ideographic spaces do not. (No Unicode
    /// property tables: Embedded Swift.)
    static func isWordScalar(_ s: Unicode.Scalar) -> Bool {
        let v = s.value
        if v < 0x80 {
            return (v >= 0x30 && v <= 0x39) || (v >= 0x41 && v <= 0x5A) || (v >= 0x61 && v <= 0x7A) || v == 0x5F
        }
        return v != 0xA0 && v != 0x3000 && !(v >= 0x2000 && v <= 0x206F)
    }
}
