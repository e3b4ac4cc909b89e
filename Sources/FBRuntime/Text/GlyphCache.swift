import Raster

/// Glyph outlines (font units, as `Font.outline(of:)` gives them) kept
/// within a memory budget, least recently used evicted first.
///
/// Outlines serve every size: a `fontSize` animation and text under a
/// rotation or perspective are scan-converted from them through the layer's
/// full map. Text that keeps its size and sub-pixel place is blitted from
/// coverage masks made from these outlines (`CoverageMaskCache.glyphs`).
///
/// The cost of an entry is its outline's storage (16 bytes a point, one a
/// verb) plus `entryOverhead`; an outline larger than the whole budget is
/// returned but not kept. Lookups and insertions are O(1) on average.
/// Thread-safe: lookups, insertions and `removeAll` hold the cache's lock
/// (fonts sharing it may draw on the render thread and on the app side at
/// once). The counters are plain reads, for tests and statistics.
public final class GlyphCache {
    /// Bytes charged per entry besides its points and verbs (the key, the
    /// links, the arrays' headers).
    public static let entryOverhead = 96

    struct Key: Hashable {
        var font: Int
        var glyph: UInt32
    }

    struct Entry {
        var key: Key
        var path: Path
        var cost: Int
        var newer: Int   // towards the most recently used; -1 at the end
        var older: Int   // towards the least recently used; -1 at the end
    }

    /// The most bytes the cached outlines may take.
    public var budget: Int {
        didSet {
            if budget < 0 { budget = 0 }
            lock.withLock { evict(toFit: 0) }
        }
    }
    /// Outlines in the cache, and their bytes.
    public var count: Int { index.count }
    public private(set) var bytesUsed = 0
    /// Lookups answered from the cache, lookups that loaded the outline,
    /// and entries dropped to stay within the budget.
    public private(set) var hits = 0
    public private(set) var misses = 0
    public private(set) var evictions = 0

    private var index: [Key: Int] = [:]
    private var entries: [Entry] = []
    private var free: [Int] = []
    private var newest = -1
    private var oldest = -1
    private let lock = Lock()

    /// A cache holding at most `budget` bytes (default 256 KiB, some 700
    /// glyphs of DejaVu Sans).
    public init(budget: Int = 256 * 1024) {
        self.budget = Swift.max(0, budget)
    }

    /// Whether the outline of `glyph` of the font with id `fontID` is
    /// cached (does not count as a lookup or refresh its age).
    func contains(fontID: Int, glyph: UInt32) -> Bool { lock.withLock { index[Key(font: fontID, glyph: glyph)] != nil } }

    /// The cached outline, or `load()`'s, cached when it fits the budget.
    /// `load` runs with the cache's lock held (it takes the font's: always
    /// in that order).
    func outline(fontID: Int, glyph: UInt32, load: () -> Path) -> Path {
        lock.lock()
        defer { lock.unlock() }
        let key = Key(font: fontID, glyph: glyph)
        if let i = index[key] {
            hits += 1
            touch(i)
            return entries[i].path
        }
        misses += 1
        let path = load()
        let cost = path.points.count * 16 + path.verbs.count + GlyphCache.entryOverhead
        guard cost <= budget else { return path }
        evict(toFit: cost)
        let entry = Entry(key: key, path: path, cost: cost, newer: -1, older: newest)
        let i: Int
        if let f = free.popLast() { entries[f] = entry; i = f } else { entries.append(entry); i = entries.count - 1 }
        if newest >= 0 { entries[newest].newer = i }
        newest = i
        if oldest < 0 { oldest = i }
        index[key] = i
        bytesUsed += cost
        return path
    }

    /// Empties the cache (the counters stay).
    public func removeAll() {
        lock.withLock {
            index.removeAll(); entries.removeAll(); free.removeAll()
            newest = -1; oldest = -1; bytesUsed = 0
        }
    }

    private func touch(_ i: Int) {
        guard i != newest else { return }
        unlink(i)
        entries[i].older = newest
        entries[i].newer = -1
        if newest >= 0 { entries[newest].newer = i }
        newest = i
        if oldest < 0 { oldest = i }
    }

    private func unlink(_ i: Int) {
        let e = entries[i]
        if e.newer >= 0 { entries[e.newer].older = e.older } else { newest = e.older }
        if e.older >= 0 { entries[e.older].newer = e.newer } else { oldest = e.newer }
    }

    /// Drops the oldest entries until `cost` more bytes fit the budget.
    private func evict(toFit cost: Int) {
        while bytesUsed + cost > budget, oldest >= 0 {
            let i = oldest
            unlink(i)
            index[entries[i].key] = nil
            bytesUsed -= entries[i].cost
            entries[i].path = Path()
            free.append(i)
            evictions += 1
        }
    }
}
