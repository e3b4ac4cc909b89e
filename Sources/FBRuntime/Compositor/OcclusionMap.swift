import Raster

/// The whole target pixels that units cover with opaque pixels, by their
/// position in drawing order (see `DrawnUnit.opaqueRect`): what lies
/// entirely under one of them, drawn later, is not drawn, and what a
/// later one covers is not cleared.
///
/// A subtree is culled only when one rectangle holds all of it (no union
/// of several). Storage is kept between frames.
struct OcclusionMap {
    private var entries: [(position: Int, rect: IntRect)] = []

    var isEmpty: Bool { entries.isEmpty }

    mutating func removeAll() { entries.removeAll(keepingCapacity: true) }

    /// Records the opaque rectangle of the unit at `position` (positions
    /// must come in increasing order); an empty one is ignored.
    mutating func add(_ rect: IntRect, position: Int) {
        if !rect.isEmpty { entries.append((position, rect)) }
    }

    /// True when one rectangle of a unit at `from` or later holds `extent`.
    /// - Complexity: O(rectangles at `from` or later).
    func covers(_ extent: IntRect, drawnFrom from: Int) -> Bool {
        guard !extent.isEmpty else { return false }
        var k = entries.count - 1
        while k >= 0 && entries[k].position >= from {
            if entries[k].rect.contains(extent) { return true }
            k -= 1
        }
        return false
    }

    /// Calls `body` with the parts of `rect` that no rectangle of a unit at
    /// `from` or later covers (those units overwrite them anyway). A hole
    /// that would split the pieces beyond `VisiblePieces.capacity` is left
    /// out (its pixels are drawn: correct, just more work), and the other
    /// holes still apply. A rectangle one unit covers whole (an opaque
    /// screen background under the damage) is answered first: with many
    /// opaque cards above it, subtracting them first would run out of
    /// pieces before reaching it.
    func forEachVisiblePart(of rect: IntRect, drawnFrom from: Int, _ body: (IntRect) -> Void) {
        if covers(rect, drawnFrom: from) { return }
        var pieces = VisiblePieces(rect)
        var k = entries.count - 1
        while k >= 0 && entries[k].position >= from {
            if !entries[k].rect.intersection(rect).isEmpty, pieces.subtract(entries[k].rect), pieces.isEmpty { return }
            k -= 1
        }
        pieces.forEach(body)
    }
}

/// Up to `capacity` disjoint rectangles, kept inline (no allocation).
struct VisiblePieces {
    static let capacity = 16
    private var storage: (IntRect, IntRect, IntRect, IntRect, IntRect, IntRect, IntRect, IntRect,
                          IntRect, IntRect, IntRect, IntRect, IntRect, IntRect, IntRect, IntRect)
    private(set) var count = 0

    init(_ rect: IntRect) {
        storage = (.zero, .zero, .zero, .zero, .zero, .zero, .zero, .zero,
                   .zero, .zero, .zero, .zero, .zero, .zero, .zero, .zero)
        if !rect.isEmpty { storage.0 = rect; count = 1 }
    }

    var isEmpty: Bool { count == 0 }

    private subscript(i: Int) -> IntRect {
        get { withUnsafeBytes(of: storage) { $0.load(fromByteOffset: i * MemoryLayout<IntRect>.stride, as: IntRect.self) } }
        set {
            withUnsafeMutableBytes(of: &storage) {
                $0.storeBytes(of: newValue, toByteOffset: i * MemoryLayout<IntRect>.stride, as: IntRect.self)
            }
        }
    }

    /// Removes `hole` from every piece (each splits into at most four).
    /// Returns false, changing nothing, when the result would not fit.
    mutating func subtract(_ hole: IntRect) -> Bool {
        var out = VisiblePieces(.zero)
        var i = 0
        while i < count {
            let r = self[i]
            let h = r.intersection(hole)
            if h.isEmpty {
                guard out.append(r) else { return false }
            } else {
                // Above, below, left and right of the hole.
                let parts = (IntRect(x: r.x, y: r.y, width: r.width, height: h.y - r.y),
                             IntRect(x: r.x, y: h.maxY, width: r.width, height: r.maxY - h.maxY),
                             IntRect(x: r.x, y: h.y, width: h.x - r.x, height: h.height),
                             IntRect(x: h.maxX, y: h.y, width: r.maxX - h.maxX, height: h.height))
                if !parts.0.isEmpty { guard out.append(parts.0) else { return false } }
                if !parts.1.isEmpty { guard out.append(parts.1) else { return false } }
                if !parts.2.isEmpty { guard out.append(parts.2) else { return false } }
                if !parts.3.isEmpty { guard out.append(parts.3) else { return false } }
            }
            i += 1
        }
        self = out
        return true
    }

    private mutating func append(_ r: IntRect) -> Bool {
        guard count < VisiblePieces.capacity else { return false }
        self[count] = r
        count += 1
        return true
    }

    func forEach(_ body: (IntRect) -> Void) {
        var i = 0
        while i < count { body(self[i]); i += 1 }
    }
}
