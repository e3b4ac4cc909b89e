import FBPlatform
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

    /// The most bytes the cached outlines may take (negative counts as 0);
    /// lowering it evicts at once.
    public var budget: Int {
        get { lock.withLock { store.budget } }
        set { lock.withLock { store.setBudget(newValue) } }
    }
    /// Outlines in the cache, and their bytes.
    public var count: Int { lock.withLock { store.count } }
    public var bytesUsed: Int { lock.withLock { store.costUsed } }
    /// Lookups answered from the cache, lookups that loaded the outline,
    /// and entries dropped to stay within the budget.
    public private(set) var hits = 0
    public private(set) var misses = 0
    public var evictions: Int { lock.withLock { store.evictions } }

    private var store: CostLRU<Key, Path>
    private let lock = Lock()

    /// A cache holding at most `budget` bytes (default 256 KiB, some 700
    /// glyphs of DejaVu Sans).
    public init(budget: Int = 256 * 1024) {
        store = CostLRU(budget: budget)
    }

    /// Whether the outline of `glyph` of the font with id `fontID` is
    /// cached (does not count as a lookup or refresh its age).
    func contains(fontID: Int, glyph: UInt32) -> Bool { lock.withLock { store.contains(Key(font: fontID, glyph: glyph)) } }

    /// The cached outline, or `load()`'s, cached when it fits the budget.
    /// `load` runs with the cache's lock held (it takes the font's: always
    /// in that order).
    func outline(fontID: Int, glyph: UInt32, load: () -> Path) -> Path {
        lock.lock()
        defer { lock.unlock() }
        let key = Key(font: fontID, glyph: glyph)
        if let path = store.value(for: key) {
            hits += 1
            return path
        }
        misses += 1
        let path = load()
        store.insert(path, for: key, cost: path.points.count * 16 + path.verbs.count + GlyphCache.entryOverhead)
        return path
    }

    /// Empties the cache (the counters stay).
    public func removeAll() { lock.withLock { store.removeAll() } }
}
