import Raster

/// The blurred `shadowPath` images of all layers, kept within a byte budget,
/// least recently used evicted first.
///
/// Each image lives on its layer (`LayerRenderCache`, so a hit costs no
/// lookup); this ledger holds a reference to every cache that has one,
/// counts their bytes and takes images back to stay within `budgetBytes`.
/// A layer that went away (its render tree was replaced, or the app dropped
/// it) leaves the ledger the only owner of its cache: such entries are freed
/// at the next insertion. An image larger than the whole budget is built,
/// drawn once and not kept (`isTransient`), so a layer whose shadow alone
/// exceeds the budget rebuilds it every frame it is drawn — memory stays
/// bounded at the price of time.
///
/// The ledger's array grows only when more layers have shadow images than
/// ever before.
/// Render thread only, like the compositor.
final class ShadowCache {
    /// Most bytes of shadow images kept between frames (≥ 0).
    var budgetBytes: Int { didSet { budgetBytes = Swift.max(0, budgetBytes); evict(toFit: 0, keeping: nil) } }
    /// Bytes of the images held now (≤ `budgetBytes` between frames).
    private(set) var bytes = 0
    private var held: [LayerRenderCache] = []
    private var uses: UInt64 = 0

    init(budgetBytes: Int) { self.budgetBytes = Swift.max(0, budgetBytes) }

    /// Images held.
    var count: Int { held.count }

    static func bytes(of image: Surface<A8>) -> Int { image.rowStride * image.height }

    /// Marks `cache`'s image as just used (a hit).
    func touch(_ cache: LayerRenderCache) {
        uses &+= 1
        cache.lastUse = uses
    }

    /// Forgets `cache`'s image (about to be rebuilt or dropped).
    func remove(_ cache: LayerRenderCache) {
        guard cache.isHeld else { return }
        var i = 0
        while i < held.count && held[i] !== cache { i += 1 }
        if i < held.count { held.remove(at: i) }
        bytes -= cache.heldBytes
        cache.isHeld = false
        cache.heldBytes = 0
    }

    /// Takes `cache`'s new `image` into the ledger, evicting least recently
    /// used images of other layers to make room; an image larger than the
    /// budget is marked transient instead (the caller drops it after
    /// drawing).
    func admit(_ cache: LayerRenderCache, image: Surface<A8>) {
        remove(cache)
        freeOrphans()
        let size = ShadowCache.bytes(of: image)
        guard size <= budgetBytes else { cache.isTransient = true; return }
        cache.isTransient = false
        evict(toFit: size, keeping: cache)
        touch(cache)
        cache.isHeld = true
        cache.heldBytes = size
        bytes += size
        held.append(cache)
    }

    /// Drops every image (entries of live layers rebuild on their next draw).
    func removeAll() {
        var i = 0
        while i < held.count { held[i].image = nil; held[i].isHeld = false; held[i].heldBytes = 0; i += 1 }
        held.removeAll(keepingCapacity: true)
        bytes = 0
    }

    /// Frees the caches whose layers are gone (the ledger is their only
    /// owner).
    private func freeOrphans() {
        var i = held.count - 1
        while i >= 0 {
            if isKnownUniquelyReferenced(&held[i]) {
                bytes -= held[i].heldBytes
                held.remove(at: i)
            }
            i -= 1
        }
    }

    /// Evicts least recently used images (other than `keeping`'s) until
    /// `size` more bytes fit the budget.
    private func evict(toFit size: Int, keeping: LayerRenderCache?) {
        while bytes + size > budgetBytes && !held.isEmpty {
            var victim = -1
            var i = 0
            while i < held.count {
                if held[i] !== keeping && (victim < 0 || held[i].lastUse < held[victim].lastUse) { victim = i }
                i += 1
            }
            guard victim >= 0 else { return }
            let c = held.remove(at: victim)
            bytes -= c.heldBytes
            c.image = nil
            c.isHeld = false
            c.heldBytes = 0
        }
    }
}
