import Raster
import Synchronization

/// A glyph's coverage at one device size and sub-pixel position: an A8
/// bitmap placed at (`left`, `top`) from the whole-pixel part of the glyph's
/// device origin.
struct GlyphMask {
    /// Coverage, `width × height`, rows packed.
    var coverage: [UInt8]
    var left: Int, top: Int, width: Int, height: Int
}

/// Glyph coverage bitmaps (A8) within a memory budget, least recently used
/// evicted first, shared by every text layer (`GlyphMaskCache.shared`).
///
/// Why: a text layer whose glyphs keep their size and sub-pixel position
/// from frame to frame (static text, text moved or scrolled by whole
/// pixels: what most appliance screens show) costs a masked blit per glyph
/// instead of a scan conversion of its outline, as LVGL's and FreeType's
/// glyph caches do. Text under rotation, skew, perspective or a size
/// animation, or moving by fractions of a pixel, is drawn from outlines
/// (`TextLayer` decides, per layer and frame).
///
/// **Key.** Font, glyph, the glyph's device scale (x and y) and the
/// fractional part of its device origin, each as the exact `Double` the
/// outline path would use. A mask is scan-converted by the same rasterizer
/// at that fraction, so blitting it at the whole-pixel part gives the
/// pixels the outline path gives (the rasterizer rounds absolute positions
/// to 1/256 pixel and its coverage does not depend on the clip; `TextTests`
/// compare the two paths at several sizes and sub-pixel offsets).
///
/// **Budget.** An entry costs its bitmap's bytes plus `entryOverhead`; a
/// mask larger than the whole budget is drawn but not kept. Lookups and
/// insertions are O(1) on average. Hits allocate nothing.
///
/// **Threading.** Every operation holds the cache's lock: the render thread
/// draws with it while the app side renders too (a transition's before
/// image). A returned mask shares its storage (copy on write), so an
/// eviction on another thread never frees pixels being blitted.
public final class GlyphMaskCache: @unchecked Sendable {   // every access holds `lock`
    /// Bytes charged per entry besides its bitmap.
    public static let entryOverhead = 96
    /// The cache every text layer draws through unless a compositor is given
    /// another (`Compositor.glyphMasks`): 2 MiB, some 7,000 glyphs of
    /// 16-pixel text.
    public static let shared = GlyphMaskCache(budget: 2 << 20)

    struct Key: Hashable {
        var font: Int
        var glyph: UInt32
        var scaleX: UInt64, scaleY: UInt64
        var fractionX: UInt64, fractionY: UInt64
    }

    struct Entry {
        var key: Key
        var mask: GlyphMask
        var cost: Int
        var newer: Int   // towards the most recently used; -1 at the end
        var older: Int   // towards the least recently used; -1 at the end
    }

    /// The most bytes the cached masks may take.
    public var budget: Int {
        get { lock.withLock { storedBudget } }
        set { lock.withLock { storedBudget = Swift.max(0, newValue); evict(toFit: 0) } }
    }
    private var storedBudget: Int
    /// Masks in the cache, and their bytes.
    public var count: Int { lock.withLock { index.count } }
    public var bytesUsed: Int { lock.withLock { storedBytes } }
    private var storedBytes = 0
    /// Lookups answered from the cache, masks made, and entries dropped to
    /// stay within the budget (tests and statistics).
    public private(set) var hits = 0
    public private(set) var misses = 0
    public private(set) var evictions = 0

    private var index: [Key: Int] = [:]
    private var entries: [Entry] = []
    private var free: [Int] = []
    private var newest = -1
    private var oldest = -1
    private let lock = Lock()

    public init(budget: Int) { storedBudget = Swift.max(0, budget) }

    /// The cached mask for `key`, or `make()`'s, kept when it fits the
    /// budget. `make` runs without the lock (it scan-converts).
    func mask(for key: Key, make: () -> GlyphMask) -> GlyphMask {
        lock.lock()
        if let i = index[key] {
            hits += 1
            touch(i)
            let mask = entries[i].mask
            lock.unlock()
            return mask
        }
        misses += 1
        lock.unlock()
        let mask = make()
        let cost = mask.coverage.count + GlyphMaskCache.entryOverhead
        lock.withLock {
            guard cost <= storedBudget, index[key] == nil else { return }
            evict(toFit: cost)
            let entry = Entry(key: key, mask: mask, cost: cost, newer: -1, older: newest)
            let i: Int
            if let f = free.popLast() { entries[f] = entry; i = f } else { entries.append(entry); i = entries.count - 1 }
            if newest >= 0 { entries[newest].newer = i }
            newest = i
            if oldest < 0 { oldest = i }
            index[key] = i
            storedBytes += cost
        }
        return mask
    }

    /// Empties the cache (the counters stay).
    public func removeAll() {
        lock.withLock {
            index.removeAll(); entries.removeAll(); free.removeAll()
            newest = -1; oldest = -1; storedBytes = 0
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
        while storedBytes + cost > storedBudget, oldest >= 0 {
            let i = oldest
            unlink(i)
            index[entries[i].key] = nil
            storedBytes -= entries[i].cost
            entries[i].mask = GlyphMask(coverage: [], left: 0, top: 0, width: 0, height: 0)
            free.append(i)
            evictions += 1
        }
    }
}
