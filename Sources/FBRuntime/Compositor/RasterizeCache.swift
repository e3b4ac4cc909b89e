import Raster

/// Bitmaps of `shouldRasterize` layers kept between frames, within a memory
/// budget, evicting the least recently used.
///
/// One entry per rasterized layer, keyed by identity (a new layer at a
/// freed one's address finds a stale entry whose signature does not match:
/// a miss, never a wrong image). Entries are few (one per rasterized
/// layer), so they are found by a linear search.
final class RasterizeCache {
    final class Entry {
        let layer: ObjectIdentifier
        /// Signature of the subtree the held `image` shows.
        var signature: UInt64 = 0
        var image: Surface<ARGB8888>?
        /// Uses so far when it was last used (LRU order).
        var lastUse: UInt64 = 0

        // This frame's plan (see `Compositor.rasterPlan`), made once a frame.
        var frame: UInt64 = .max
        /// What the subtree looks like now, in raster space.
        var currentSignature: UInt64 = 0
        /// The layer's bounds space → bitmap pixels.
        var rasterMap = ProjectiveTransform.identity
        var width = 0, height = 0
        /// Hit or miss counted this frame.
        var counted = false

        init(layer: ObjectIdentifier) { self.layer = layer }

        var bytes: Int { image.map { $0.rowStride * $0.height * 4 } ?? 0 }
        /// The held image shows the subtree as it is now.
        var isValid: Bool { image != nil && signature == currentSignature }
    }

    /// Most bytes of bitmaps kept; a bitmap larger than this is not cached.
    var budgetBytes: Int
    private(set) var bytes = 0
    private var entries: [Entry] = []
    private var uses: UInt64 = 0

    init(budgetBytes: Int) { self.budgetBytes = budgetBytes }

    /// Bitmaps held.
    var count: Int { entries.reduce(0) { $0 + ($1.image == nil ? 0 : 1) } }

    func contains(_ layer: Layer) -> Bool {
        entries.contains { $0.layer == ObjectIdentifier(layer) && $0.image != nil }
    }

    /// The entry of `layer`, made (without an image) if it has none.
    func entry(for layer: Layer) -> Entry {
        let id = ObjectIdentifier(layer)
        if let e = entries.first(where: { $0.layer == id }) { return e }
        let e = Entry(layer: id)
        entries.append(e)
        return e
    }

    func touch(_ e: Entry) {
        uses &+= 1
        e.lastUse = uses
    }

    /// Makes room for `newBytes` more, evicting least recently used images
    /// other than `keeping`'s; false (nothing evicted) when `newBytes` alone
    /// exceeds the budget.
    func makeRoom(_ newBytes: Int, keeping: Entry) -> Bool {
        guard newBytes <= budgetBytes else { return false }
        while bytes + newBytes > budgetBytes {
            var victim: Entry?
            for e in entries where e !== keeping && e.image != nil {
                if victim == nil || e.lastUse < victim!.lastUse { victim = e }
            }
            guard let v = victim else { break }
            drop(v)
        }
        return true
    }

    /// Holds `image` for `e` (its bytes must have been made room for).
    func store(_ image: Surface<ARGB8888>, signature: UInt64, in e: Entry) {
        bytes -= e.bytes
        e.image = image
        e.signature = signature
        bytes += e.bytes
    }

    func drop(_ e: Entry) {
        bytes -= e.bytes
        e.image = nil
    }

    /// Frees every bitmap (on a scale change, say); entries stay.
    func removeAll() {
        for e in entries { e.image = nil }
        entries.removeAll(keepingCapacity: true)
        bytes = 0
    }

    /// Drops entries not planned for `frames` frames (their layers left the
    /// tree or stopped rasterizing).
    func removeStale(currentFrame: UInt64, olderThan frames: UInt64) {
        var kept = 0, i = 0
        while i < entries.count {
            let e = entries[i]
            if e.frame == .max || currentFrame &- e.frame > frames {
                bytes -= e.bytes
                e.image = nil
            } else {
                if kept != i { entries[kept] = e }
                kept += 1
            }
            i += 1
        }
        if kept < entries.count { entries.removeLast(entries.count - kept) }
    }
}

extension RasterizeCache {
    /// Evicts least recently used images until within the budget.
    func makeRoomForBudget() -> Bool {
        while bytes > budgetBytes {
            var victim: Entry?
            for e in entries where e.image != nil {
                if victim == nil || e.lastUse < victim!.lastUse { victim = e }
            }
            guard let v = victim else { break }
            drop(v)
        }
        return true
    }
}
