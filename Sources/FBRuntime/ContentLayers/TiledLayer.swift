import Raster

/// One tile a `TiledLayer` asks its delegate to draw.
///
/// Tiles are laid out in the layer's bounds space (points) from its origin
/// (0, 0), not from `bounds.origin`, so scrolling by moving
/// `bounds.origin` or the layer keeps each tile where it is.
public struct Tile: Equatable, Sendable {
    /// The level of detail as a power of two of the full resolution:
    /// 0 is full resolution (`contentsScale` pixels per point), −1 half,
    /// −2 a quarter…; positive levels are the magnified ones that
    /// `levelsOfDetailBias` adds (1: twice, 2: four times).
    public let level: Int
    /// Column and row of the tile at its level (may be negative for a layer
    /// whose bounds reach left of or above its origin).
    public let column: Int, row: Int
    /// The tile's area in the layer's bounds space, points. Tiles at the
    /// right and bottom edges reach beyond the bounds; only the part inside
    /// the bounds is shown.
    public let rect: Rect
    /// Pixels per point the tile is drawn at: `contentsScale × 2^level`.
    public let scale: Double

    @inlinable public init(level: Int, column: Int, row: Int, rect: Rect, scale: Double) {
        self.level = level; self.column = column; self.row = row; self.rect = rect; self.scale = scale
    }
}

/// Draws the tiles of a `TiledLayer` (CATiledLayer's `drawLayer:inContext:`).
///
/// **Threading.** Called on the tile worker threads, several tiles at once
/// on different threads, never on the render thread nor (necessarily) the
/// app thread: the implementation must be safe to call concurrently and
/// must not touch the layer tree. The context is valid only during the
/// call; its `value(forKey:)` reads nothing (there is no layer to read).
public protocol TiledLayerDelegate: AnyObject {
    /// Draws `tile` into `context`: the context's space is the layer's
    /// bounds space (points), its `transform` maps it to the tile's pixels
    /// (`tile.scale` per point), it is clipped to `tile.rect` and starts
    /// transparent.
    func drawTile(_ tile: Tile, in context: DrawingContext)
}

/// A layer whose content is drawn in tiles, on demand, on worker threads,
/// at the level of detail it is shown at — for content far larger than
/// the screen (a map, a huge image, a long document), as `CATiledLayer`.
///
/// **Levels of detail** (CA's meaning). Level 0 is full resolution: tiles
/// of `tileSize` pixels at `contentsScale` pixels per point. Each further
/// of the `levelsOfDetail` levels halves the resolution (level −1, −2…);
/// `levelsOfDetailBias` adds that many magnified levels (1, 2…: drawn at
/// 2×, 4×…, CA's "two extra levels of detail: 2x and 4x"), so the levels
/// kept are 2^`levelsOfDetailBias` down to 2^−(`levelsOfDetail` − 1) times
/// full resolution.
/// At each frame the compositor takes the layer's magnification on screen
/// (target pixels per point, the largest over the visible part, from the
/// accumulated transform at render time) divided by `contentsScale`, and
/// uses the coarsest level at least that fine, clamped to the levels kept.
///
/// **What is asked for.** Only tiles meeting the visible part of the
/// layer — its bounds ∩ the target and the `masksToBounds` clips above,
/// mapped back through the layer's transform (under perspective, the whole
/// bounds when a corner of the clip maps from behind the eye) — and each
/// once until it is invalidated or evicted. A request still queued when
/// its tile leaves the screen is cancelled. Requests go to a small pool of
/// worker threads (`workerThreadCount`); the render thread never waits for
/// one.
///
/// **What is shown.** Each visible tile at the level in use as far as it
/// has arrived; where it has not (or is still fading in) the nearest
/// coarser level that has, magnified; else nothing. A tile fades in over
/// `fadeDuration` seconds of the layer's local time from the first frame
/// rendered after it arrived (alpha = elapsed / `fadeDuration`, clamped to
/// 0…1); a redrawn tile (after `setNeedsDisplay`) replaces the old one at
/// once. The tiles are drawn above the contents image and below the
/// sublayers, clipped to the bounds, faded by the layer's opacity. A tile
/// arriving or fading damages only its own area on screen (`DamageTracker`);
/// inside a subtree drawn as one image (group opacity, mask, rasterised)
/// it damages that image.
///
/// **Memory.** Tiles are kept in a cache of at most `tileCacheBudget`
/// bytes (4 bytes a pixel), shared by the layer and its render-tree twin.
/// Beyond it the least recently shown tiles are evicted first; a tile on
/// screen in the last frame is never evicted for another one — when the
/// visible tiles alone exceed the budget, tiles that do not fit are not
/// kept (and not asked for again until they leave the screen and return).
///
/// **Invalidation.** `setNeedsDisplay()` redraws every tile,
/// `setNeedsDisplay(in:)` the tiles (at every level) that meet the rectangle
/// (bounds space); the old drawing stays until the new one arrives. They
/// take effect at the next display pass (the next commit).
///
/// **Bad input** (documented clamps, no traps): a `tileSize` side ≤ 0 or
/// NaN counts as 256, others are clamped to `minimumTileSide`…
/// `maximumTileSide` pixels; `levelsOfDetail` is clamped to
/// 1…`maximumLevelsOfDetail`, `levelsOfDetailBias` to
/// 0…`maximumLevelsOfDetailBias`;
/// `fadeDuration` NaN or < 0 counts as 0; a magnification that is not
/// positive and finite uses the coarsest level; at most
/// `maximumTilesPerFrame` tiles are taken per frame (a coarser level is
/// used while more would be visible; beyond that, the first rows and
/// columns).
///
/// Threading: as any layer, the model belongs to the app thread; the tile
/// cache is shared with the render thread and the workers behind a lock.
open class TiledLayer: Layer {
    /// Pixels, at level 0. Default 256 × 256.
    public var tileSize = Size(width: 256, height: 256) { didSet { noteModelChange() } }
    /// Levels of detail kept (CA's `levelsOfDetail`). Default 1.
    public var levelsOfDetail = 1 { didSet { noteModelChange() } }
    /// Magnified levels added above full resolution (CA's
    /// `levelsOfDetailBias`). Default 0.
    public var levelsOfDetailBias = 0 { didSet { noteModelChange() } }
    /// Seconds a newly arrived tile takes to fade in (CA's class
    /// `fadeDuration`). Default: the class's `defaultFadeDuration`.
    public var fadeDuration: Double = 0.25 { didSet { noteModelChange() } }
    /// Most bytes the tile cache holds (default 32 MiB).
    public final var tileCacheBudget: Int {
        get { cache.budget }
        set { cache.setBudget(newValue) }
    }

    /// Draws the tiles (see `TiledLayerDelegate`); held strongly.
    public var tileDelegate: TiledLayerDelegate? { didSet { cache.setDrawer(tileDelegate, drawTileHandler); noteModelChange() } }
    /// Draws the tiles when there is no `tileDelegate`; the same rules.
    public var drawTileHandler: ((Tile, DrawingContext) -> Void)? { didSet { cache.setDrawer(tileDelegate, drawTileHandler); noteModelChange() } }

    /// The fade-in of a subclass's tiles, seconds (CA's class method
    /// `fadeDuration`): new layers start with it. 0.25 s.
    open class var defaultFadeDuration: Double { 0.25 }

    public static let minimumTileSide = 16.0
    public static let maximumTileSide = 2048.0
    public static let maximumLevelsOfDetail = 16
    public static let maximumLevelsOfDetailBias = 15
    public static let maximumTilesPerFrame = 1024

    /// Worker threads drawing tiles for all tiled layers (default 2);
    /// takes effect when the pool starts (the first request).
    nonisolated(unsafe) public static var workerThreadCount = 2

    // `final` throughout for the internal members: in Embedded Swift an
    // internal non-final member of an open class is emitted in every
    // client module as well (duplicate symbols at link).
    private var cacheStorage: TileCache?
    final var cache: TileCache {
        if let c = cacheStorage { return c }
        let c = TileCache()
        cacheStorage = c
        return c
    }

    public override init(name: String = "tiled") {
        super.init(name: name)
        fadeDuration = Self.defaultFadeDuration
    }

    open override func makePresentationCopy() -> Layer {
        let copy = TiledLayer(name: name)
        copy.copyLayerState(from: self)
        return copy
    }

    open override func copyLayerState(from other: Layer) {
        super.copyLayerState(from: other)
        let o = unsafeDowncast(other, to: TiledLayer.self)
        tileSize = o.tileSize
        levelsOfDetail = o.levelsOfDetail
        levelsOfDetailBias = o.levelsOfDetailBias
        fadeDuration = o.fadeDuration
        // The tiles are shared: the model's invalidations and the render
        // twin's requests reach the same cache.
        if cacheStorage !== o.cache { cacheStorage = o.cache }
    }

    // MARK: Tests and tools

    /// Waits until no tile is queued or being drawn (for tests and
    /// screenshots: render, wait, render again). Returns false on timeout
    /// (real time, nanoseconds).
    @discardableResult
    public final func waitForPendingTiles(timeoutNanoseconds: Int64 = 5_000_000_000) -> Bool {
        cache.waitForPending(timeoutNanoseconds: timeoutNanoseconds)
    }

    /// Delegate calls so far (all threads).
    public final var tileDrawCount: Int { cache.statistics.drawn }
    /// Bytes the tile cache holds now.
    public final var tileCacheBytes: Int { cache.statistics.bytes }
    /// Tiles held now (arrived, not evicted).
    public final var cachedTileCount: Int { cache.statistics.tiles }
    /// Tiles evicted for the budget so far.
    public final var evictedTileCount: Int { cache.statistics.evicted }
    /// The level the last frame showed (`nil` before the first).
    public final var levelInUse: Int? { cache.statistics.level }

    // MARK: Clamped configuration

    /// `tileSize` in whole pixels, clamped (see Bad input).
    final var clampedTilePixels: (width: Int, height: Int) {
        func side(_ v: Double) -> Int {
            guard v > 0, v.isFinite else { return 256 }
            return Int(Swift.min(TiledLayer.maximumTileSide, Swift.max(TiledLayer.minimumTileSide, v.rounded())))
        }
        return (side(tileSize.width), side(tileSize.height))
    }

    /// The finest and coarsest level kept.
    final var levelRange: (finest: Int, coarsest: Int) {
        let levels = Swift.min(TiledLayer.maximumLevelsOfDetail, Swift.max(1, levelsOfDetail))
        let bias = Swift.min(TiledLayer.maximumLevelsOfDetailBias, Swift.max(0, levelsOfDetailBias))
        return (bias, 1 - levels)
    }

    final var clampedContentsScale: Double { contentsScale > 0 && contentsScale.isFinite ? contentsScale : 1 }

    final var clampedFadeDuration: Double { fadeDuration > 0 && fadeDuration.isFinite ? fadeDuration : 0 }

    /// The level for `magnification` target pixels per point: the coarsest
    /// at least that fine (2^level × contentsScale ≥ magnification, within
    /// 10⁻⁶ so exact powers of two are not rounded up), clamped.
    static func level(forMagnification magnification: Double, contentsScale: Double, finest: Int, coarsest: Int) -> Int {
        let s = magnification / contentsScale
        guard s > 0, s.isFinite else { return coarsest }
        var level = finest
        // The coarsest level whose scale still covers s: walk down while
        // the next one would suffice (levels ≤ 16, so a short loop).
        while level > coarsest, powerOfTwo(level - 1) >= s * (1 - 1e-6) { level -= 1 }
        return level
    }

    // MARK: Hooks

    override var drawsOwnContent: Bool { true }
    override var drawsInTiles: Bool { true }
    /// Tiles arrive and fade in with time.
    override var contentChangesWithTime: Bool { true }

    override func invalidateTiles(in rect: Rect?) { cache.invalidate(rect) }

    override func hasPendingContent(at t: MediaTime) -> Bool { cache.hasPendingWork(at: t) }

    override func combineContentSignature(into s: inout LayerSignature, at t: MediaTime) {
        s.combine(levelsOfDetail); s.combine(levelsOfDetailBias)
        s.combine(tileSize.width); s.combine(tileSize.height)
        // Surveyed as a unit of its own this frame: its tiles damage their
        // own areas (`surveyTiles`). Otherwise (inside a group or bitmap)
        // the tiles' state changes the signature of the whole image.
        if cache.wasSurveyed(at: t) { return }
        s.combine(cache.publish(at: t, fadeDuration: clampedFadeDuration))
    }

    override func drawOwnContent(_ d: OwnContentDrawing) {
        d.compositor.drawTiles(of: self, d)
    }
}

/// 2^n for a small integer n.
@inline(__always) func powerOfTwo(_ n: Int) -> Double {
    var v = 1.0
    if n >= 0 { var i = 0; while i < n { v *= 2; i += 1 } } else { var i = 0; while i < -n { v /= 2; i += 1 } }
    return v
}
