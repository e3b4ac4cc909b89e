import Raster
import Synchronization

/// A shape's coverage at one device size and sub-pixel position: an A8
/// bitmap placed at (`left`, `top`) from the whole-pixel part of the
/// shape's device origin.
struct CoverageMask {
    /// Coverage, `width × height`, rows packed.
    var coverage: [UInt8]
    var left: Int, top: Int, width: Int, height: Int
    /// Per row, the longest run of full coverage (255) when it is at least
    /// `minimumInterior` pixels long: start in the low 16 bits, end
    /// (exclusive) in the high 16 bits, mask columns; 0 for none. Empty
    /// when no row has one. An opaque colour fills it without reading the
    /// mask (`Compositor.fillMask`): the inside of a rounded background.
    var interiors: [UInt32] = []

    /// Shorter full runs are blended with the rest of the row.
    static let minimumInterior = 16

    /// `findsInteriors` false: no `interiors` (text, whose rows have no
    /// long full runs; saves a pass and an allocation).
    init(coverage: [UInt8], left: Int, top: Int, width: Int, height: Int, findsInteriors: Bool = true) {
        self.coverage = coverage
        self.left = left; self.top = top; self.width = width; self.height = height
        guard findsInteriors, width >= CoverageMask.minimumInterior, width <= Int(UInt16.max), coverage.count == width * height else { return }
        var runs = [UInt32](repeating: 0, count: height)
        var found = false
        coverage.withUnsafeBufferPointer { c in
            var y = 0
            while y < height {
                let row = y * width
                var best = 0, bestStart = 0, start = -1
                var x = 0
                while x <= width {
                    if x < width && c[row + x] == 255 {
                        if start < 0 { start = x }
                    } else if start >= 0 {
                        if x - start > best { best = x - start; bestStart = start }
                        start = -1
                    }
                    x += 1
                }
                if best >= CoverageMask.minimumInterior {
                    runs[y] = UInt32(bestStart) | UInt32(bestStart + best) << 16
                    found = true
                }
                y += 1
            }
        }
        if found { interiors = runs }
    }
}

/// Coverage bitmaps (A8) of shapes that keep their shape, size and
/// sub-pixel position from frame to frame, within a memory budget, least
/// recently used evicted first: glyphs (`glyphs`, shared by every text
/// layer) and small filled paths — rounded backgrounds, borders, stroked
/// outlines of shape layers (`shapes`).
///
/// Why: a shape drawn again where it was, or moved or scrolled by whole
/// pixels (what most appliance screens show), costs a masked blit instead
/// of a scan conversion, as LVGL's and FreeType's glyph caches and LVGL's
/// corner masks do. Shapes under rotation, skew or perspective, or moving
/// by fractions of a pixel, are scan-converted as before (the callers
/// decide: `TextLayer` per layer and frame, `Compositor.fillShape` by
/// asking for a mask only when the same shape came in an earlier frame).
///
/// **Key.** The source (a font and glyph, or a fill rule and a 64-bit hash
/// of the path's verbs and points), the device scale (x and y) as the exact
/// `Double` the scan conversion would use, and the fractional part of the
/// device origin to 2⁻²⁰ pixel (`fractionKey`). A mask is scan-converted by the same
/// rasterizer where the shape is drawn, so blitting it gives the pixels a
/// direct fill gives (the rasterizer rounds absolute positions to 1/256
/// pixel and its coverage does not depend on the clip); reused after a
/// whole-pixel move it could differ where a point falls exactly on a
/// rounding tie (`GlyphMaskCacheTests` and `ShapeMaskTests` compare both
/// with the direct fill). Two paths with the same 64-bit hash would share
/// a mask: a collision is about as likely as 2⁻⁶⁴ per pair.
///
/// **Budget.** An entry costs its bitmap's bytes plus `entryOverhead`; a
/// mask larger than the whole budget is drawn but not kept. Lookups and
/// insertions are O(1) on average. Hits allocate nothing.
///
/// **Threading.** Every operation holds the cache's lock: the render thread
/// draws with it while the app side renders too (a transition's before
/// image). A returned mask shares its storage (copy on write), so an
/// eviction on another thread never frees pixels being blitted.
public final class CoverageMaskCache: @unchecked Sendable {   // every access holds `lock`
    /// Bytes charged per entry besides its bitmap.
    public static let entryOverhead = 96
    /// The glyph cache every text layer draws through unless a compositor
    /// is given another (`Compositor.glyphMasks`): 2 MiB, some 7,000 glyphs
    /// of 16-pixel text.
    public static let glyphs = CoverageMaskCache(budget: 2 << 20)
    /// The cache of filled shapes (`Compositor.shapeMasks`): 4 MiB, some
    /// 120 card-sized rounded rectangles.
    public static let shapes = CoverageMaskCache(budget: 4 << 20)

    /// The step sub-pixel places are snapped to (`MaskPlacement`), per pixel.
    static let fractionQuantum: Double = 1_048_576
    /// The steps per pixel glyphs are placed at, across and down: a quarter
    /// of a pixel, as Core Graphics' subpixel quantization of glyph
    /// positions and Skia's glyph cache do. A glyph then has at most 16
    /// masks per font and size, so new text (a list's rows scrolled into
    /// view, a counter's digits) soon finds all its masks made, and a
    /// frame allocates nothing; the place moves by at most 1/8 pixel.
    /// Outlines drawn without a mask snap the same way (the same pixels).
    static let glyphFractionSteps: Double = 4

    /// A sub-pixel fraction as a key: rounded to 2⁻²⁰ pixel, so a place
    /// reached by whole-pixel steps from a fractional one (3.37 + 2 is not
    /// 5.37 to the last bit) finds the same mask. `MaskPlacement` snaps the
    /// map to the same step, so all places with one key draw the same
    /// pixels (but for a device point within 10⁻¹³ pixel of a 1/256 rounding
    /// tie, after the whole-pixel part is added).
    static func fractionKey(_ f: Double) -> UInt64 { (f * fractionQuantum).rounded().bitPattern }

    struct Key: Hashable {
        /// A font's id, or `-1 - fill rule` for a path.
        var source: Int
        /// The glyph id, or the path's hash.
        var item: UInt64
        var scaleX: UInt64, scaleY: UInt64
        var fractionX: UInt64, fractionY: UInt64
    }

    /// The most bytes the cached masks may take (negative counts as 0);
    /// lowering it evicts at once.
    public var budget: Int {
        get { lock.withLock { store.budget } }
        set { lock.withLock { store.setBudget(newValue) } }
    }
    /// Masks in the cache, and their bytes.
    public var count: Int { lock.withLock { store.count } }
    public var bytesUsed: Int { lock.withLock { store.costUsed } }
    /// Lookups answered from the cache, masks made, and entries dropped to
    /// stay within the budget (tests and statistics).
    public private(set) var hits = 0
    public private(set) var misses = 0
    public var evictions: Int { lock.withLock { store.evictions } }

    private var store: CostLRU<Key, CoverageMask>
    private let lock = Lock()

    public init(budget: Int) { store = CostLRU(budget: budget) }

    /// The cached mask for `key`, or `make()`'s, kept when it fits the
    /// budget. `make` runs without the lock (it scan-converts).
    func mask(for key: Key, make: () -> CoverageMask) -> CoverageMask {
        if let mask = cachedMask(for: key) { return mask }
        lock.withLock { misses += 1 }
        let mask = make()
        lock.withLock { store.insert(mask, for: key, cost: mask.coverage.count + 4 * mask.interiors.count + CoverageMaskCache.entryOverhead) }
        return mask
    }

    /// The cached mask for `key` (counted as a hit), or `nil` (not counted).
    func cachedMask(for key: Key) -> CoverageMask? {
        lock.withLock {
            guard let mask = store.value(for: key) else { return nil }
            hits += 1
            return mask
        }
    }

    /// Empties the cache (the counters stay).
    public func removeAll() { lock.withLock { store.removeAll() } }
}

/// What each shape-drawing part of each layer (its background, its border,
/// the n-th fill of its own content) drew in recent frames, in a fixed
/// table (no allocation): a part gets a mask only once it has drawn the
/// same shape at the same size and sub-pixel place in two frames in a row.
/// So a part whose shape changes every frame (an animated stroke end, a
/// morph, a fractional slide), or a layer drawn several times a frame (a
/// replicator's instances), never fills `CoverageMaskCache` with masks used
/// once. Two-way: a part's entry lives in one of two neighbouring slots,
/// and a newcomer takes the one used least recently, so two parts that
/// draw every frame and hash to the same slot do not evict each other for
/// ever (a part never cached); a third only delays a mask.
struct ShapeCandidates {
    static let slots = 1024
    private var owners = [Int](repeating: 0, count: ShapeCandidates.slots)
    private var keys = [Int](repeating: 0, count: ShapeCandidates.slots)
    /// The first and the last frame of the part's run of the same shape.
    private var firstFrames = [UInt64](repeating: 0, count: ShapeCandidates.slots)
    private var lastFrames = [UInt64](repeating: 0, count: ShapeCandidates.slots)

    /// Notes that `part` of `layer` draws `key` in `frame`; true when it
    /// drew the same in the frames before, without a gap.
    mutating func confirm(layer: ObjectIdentifier, part: Int, key: CoverageMaskCache.Key, frame: UInt64) -> Bool {
        var hasher = Hasher()
        hasher.combine(layer)
        hasher.combine(part)
        let owner = hasher.finalize()
        let first = Int(UInt(bitPattern: owner) % UInt(ShapeCandidates.slots)) & ~1
        // The part's own slot of the pair, else the one drawn least recently.
        let slot = owners[first] == owner ? first : owners[first + 1] == owner ? first + 1
            : lastFrames[first] <= lastFrames[first + 1] ? first : first + 1
        let k = key.hashValue
        if owners[slot] == owner, keys[slot] == k, lastFrames[slot] &+ 1 >= frame {
            lastFrames[slot] = frame          // the run goes on (or this frame again)
        } else {
            owners[slot] = owner; keys[slot] = k
            firstFrames[slot] = frame; lastFrames[slot] = frame
        }
        return firstFrames[slot] < frame
    }
}
