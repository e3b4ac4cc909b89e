import Raster

/// A tile's place: level, column, row (see `Tile`).
struct TileKey: Hashable {
    let level: Int, column: Int, row: Int
}

/// Where a tile's drawing is.
enum TileWork {
    /// Nothing asked (shown, or waiting to be asked).
    case idle
    /// In the worker pool's queue.
    case queued
    /// A worker is running the delegate.
    case drawing
    /// Drawn, but it did not fit the budget without evicting a tile on
    /// screen: not asked again until it leaves the screen.
    case refused
}

/// One tile of a `TileCache`. All fields are guarded by the cache's lock.
final class TileEntry {
    let tile: Tile
    let key: TileKey
    /// The drawing on screen.
    var surface: Surface<ARGB8888>?
    /// A drawing that arrived and is not shown yet: the next frame shows it
    /// (from that frame's time on it fades in).
    var incoming: Surface<ARGB8888>?
    var work = TileWork.idle
    /// Bumped by invalidation and cancellation: a drawing of an older
    /// generation is thrown away when it arrives.
    var generation: UInt32 = 0
    /// Invalidated: the drawing shown is out of date.
    var stale = false
    /// The cache's use clock when the tile was last on screen (LRU).
    var lastUsed: UInt64 = 0
    /// Local media time of the frame that first showed it.
    var shownAt: MediaTime = 0
    /// It fades in (a first drawing; a redrawn tile replaces at once).
    var fades = false
    /// The alpha the last survey saw (−1: none yet), to damage changes.
    var surveyedAlpha = -1.0

    init(tile: Tile, key: TileKey) { self.tile = tile; self.key = key }

    /// The tile's alpha at local time `t` with fade-in `fade` seconds.
    @inline(__always) func alpha(at t: MediaTime, fade: Double) -> Double {
        guard fades, fade > 0 else { return 1 }
        return clampUnit((t - shownAt) / fade)
    }
}

/// What `TiledLayer` reports about its cache.
struct TileCacheStatistics {
    var drawn = 0, bytes = 0, tiles = 0, evicted = 0
    var level: Int?
}

/// The tiles of one `TiledLayer` (shared by the model layer and its render
/// twin) within a byte budget.
///
/// **Budget.** `bytes` (4 per pixel of every drawing held, shown or
/// arrived) never exceeds `budget`: before a new drawing is kept, the
/// drawings used least recently are evicted; one used in the last survey
/// (on screen now) never is — the new drawing is then dropped instead
/// (`TileWork.refused`).
///
/// **Threads.** The render thread surveys and draws under `state.lock`;
/// workers take it only to pick up a job and to hand in a drawing, never
/// while the delegate draws; the app thread takes it to invalidate.
final class TileCache {
    let state = Condition()
    private(set) var entries: [TileKey: TileEntry] = [:]
    private(set) var budget = 32 << 20
    private var bytes = 0
    /// Bumped at each survey: entries marked with it are on screen.
    private(set) var useClock: UInt64 = 1
    /// Jobs queued or drawing.
    private var pending = 0
    /// Entries with an `incoming` drawing.
    private var readyCount = 0
    /// Local time by which every shown tile has faded in.
    private var fadingUntil = -MediaTime.infinity
    /// Changes with every change of what is shown (the signature of a
    /// tiled layer drawn inside an offscreen image).
    private var stamp: UInt64 = 0
    private var drawn = 0, evicted = 0
    private var level: Int?
    /// Tile size (pixels) and contents scale the entries were drawn for.
    private var pixelWidth = 0, pixelHeight = 0
    private var contentsScale = 0.0
    private var delegate: TiledLayerDelegate?
    private var handler: ((Tile, DrawingContext) -> Void)?
    /// Local time of the last survey of the layer as a unit of its own,
    /// and of the last bump of the use clock.
    private var surveyTime = MediaTime.nan
    private var useTime = MediaTime.nan

    init() { entries.reserveCapacity(64) }

    // MARK: Any thread

    func setDrawer(_ d: TiledLayerDelegate?, _ h: ((Tile, DrawingContext) -> Void)?) {
        state.lock.withLock { delegate = d; handler = h }
    }

    func setBudget(_ n: Int) {
        state.lock.withLock {
            budget = Swift.max(0, n)
            _ = makeRoomLocked(0, keeping: nil)
        }
    }

    var statistics: TileCacheStatistics {
        state.lock.withLock {
            var s = TileCacheStatistics(drawn: drawn, bytes: bytes, tiles: 0, evicted: evicted, level: level)
            var i = entries.startIndex
            while i != entries.endIndex {
                let e = entries[i].value
                if e.surface != nil || e.incoming != nil { s.tiles += 1 }
                i = entries.index(after: i)
            }
            return s
        }
    }

    func waitForPending(timeoutNanoseconds: Int64) -> Bool {
        let deadline = System.monotonicNanoseconds() + timeoutNanoseconds
        return state.lock.withLock { state.wait(untilNanoseconds: deadline) { pending == 0 } }
    }

    /// Marks the entries meeting `rect` (bounds space, `nil`: all) for
    /// redrawing; a drawing queued or under way for them is thrown away.
    func invalidate(_ rect: Rect?) {
        state.lock.withLock {
            var i = entries.startIndex
            while i != entries.endIndex {
                let e = entries[i].value
                i = entries.index(after: i)
                if let rect, !TileCache.meets(e.tile.rect, rect) { continue }
                e.generation &+= 1
                e.stale = true
                if e.work == .queued || e.work == .refused { e.work = .idle }
                if let inc = e.incoming { bytes -= TileCache.size(of: inc); e.incoming = nil; readyCount -= 1 }
            }
            stamp &+= 1
        }
    }

    /// Open rectangles meet (a shared edge is not enough).
    static func meets(_ a: Rect, _ b: Rect) -> Bool {
        a.minX < b.maxX && b.minX < a.maxX && a.minY < b.maxY && b.minY < a.maxY
    }

    static func size(of s: Surface<ARGB8888>) -> Int { s.width * s.height * 4 }

    func hasPendingWork(at t: MediaTime) -> Bool {
        state.lock.withLock { pending > 0 || readyCount > 0 || t < fadingUntil }
    }

    func wasSurveyed(at t: MediaTime) -> Bool { state.lock.withLock { surveyTime == t } }
    func wasSurveyedLocked(at t: MediaTime) -> Bool { surveyTime == t }

    /// Shows what arrived (from local time `t` on) and returns a digest of
    /// what is shown at `t`: for a tiled layer drawn inside an offscreen
    /// image, whose signature must change when its tiles do.
    func publish(at t: MediaTime, fadeDuration: Double) -> UInt64 {
        state.lock.withLock {
            if useTime != t { useTime = t; useClock &+= 1 }
            publishLocked(at: t, fadeDuration: fadeDuration)
            return t < fadingUntil ? stamp ^ t.bitPattern : stamp
        }
    }

    // MARK: Render thread, lock held

    /// Starts a survey of the layer as a unit of its own at local time
    /// `t`; drops every tile when the tile size or contents scale changed.
    func beginSurveyLocked(at t: MediaTime, pixelWidth w: Int, pixelHeight h: Int, contentsScale cs: Double) {
        configureLocked(pixelWidth: w, pixelHeight: h, contentsScale: cs)
        surveyTime = t
        if useTime != t { useTime = t }
        useClock &+= 1
    }

    /// The tile size (pixels) and contents scale tiles are drawn for; a
    /// change drops every tile.
    func configureLocked(pixelWidth w: Int, pixelHeight h: Int, contentsScale cs: Double) {
        guard w != pixelWidth || h != pixelHeight || cs != contentsScale else { return }
        removeAllLocked()
        pixelWidth = w; pixelHeight = h; contentsScale = cs
    }

    func setLevelLocked(_ l: Int?) { level = l }
    var levelLocked: Int? { level }

    var hasDrawerLocked: Bool { delegate != nil || handler != nil }

    func publishLocked(at t: MediaTime, fadeDuration fade: Double) {
        guard readyCount > 0 else { return }
        var i = entries.startIndex
        while i != entries.endIndex {
            let e = entries[i].value
            i = entries.index(after: i)
            guard let inc = e.incoming else { continue }
            let had = e.surface != nil
            if let old = e.surface { bytes -= TileCache.size(of: old) }
            e.surface = inc
            e.incoming = nil
            readyCount -= 1
            e.shownAt = t
            e.fades = !had && fade > 0
            e.surveyedAlpha = -1
            if e.fades { fadingUntil = Swift.max(fadingUntil, t + fade) }
            stamp &+= 1
        }
    }

    /// The entry for `key` marked as on screen; asked for when it has no
    /// up-to-date drawing and `request` (a new entry is made for it).
    /// `nil` when it has none and was not asked for.
    @discardableResult
    func wantLocked(_ key: TileKey, rect: Rect, scale: Double, request: Bool) -> TileEntry? {
        if let e = entries[key] {
            e.lastUsed = useClock
            if request, e.work == .idle, e.incoming == nil, e.surface == nil || e.stale, hasDrawerLocked { enqueueLocked(e) }
            return e
        }
        guard request, hasDrawerLocked else { return nil }
        let e = TileEntry(tile: Tile(level: key.level, column: key.column, row: key.row, rect: rect, scale: scale), key: key)
        e.lastUsed = useClock
        entries[key] = e
        enqueueLocked(e)
        return e
    }

    /// Marks an entry already found as on screen (a coarser tile drawn in
    /// place of a missing one).
    func entryLocked(_ key: TileKey) -> TileEntry? { entries[key] }

    private func enqueueLocked(_ e: TileEntry) {
        e.work = .queued
        e.stale = false
        pending += 1
        TileWorkerPool.shared.enqueue(TileWorkerPool.Job(cache: self, entry: e, generation: e.generation))
    }

    /// After a survey: requests still queued for tiles no longer on screen
    /// are cancelled, and entries that hold nothing are dropped.
    func sweepLocked() {
        var i = entries.startIndex
        while i != entries.endIndex {
            let e = entries[i].value
            if e.lastUsed != useClock && (e.work == .queued || e.work == .refused) {
                e.work = .idle
                e.generation &+= 1
            }
            if e.lastUsed != useClock && e.work == .idle && e.surface == nil && e.incoming == nil {
                entries.remove(at: i)    // invalidates indices: start again (rare)
                i = entries.startIndex
                continue
            }
            i = entries.index(after: i)
        }
    }

    /// Calls `body` with every entry that has a shown drawing.
    func forEachShownLocked(_ body: (TileEntry) -> Void) {
        var i = entries.startIndex
        while i != entries.endIndex {
            let e = entries[i].value
            i = entries.index(after: i)
            if e.surface != nil { body(e) }
        }
    }

    private func removeAllLocked() {
        var i = entries.startIndex
        while i != entries.endIndex {
            let e = entries[i].value
            i = entries.index(after: i)
            e.generation &+= 1
            if e.work != .drawing { e.work = .idle }
        }
        entries.removeAll(keepingCapacity: true)
        bytes = 0
        readyCount = 0
        stamp &+= 1
    }

    /// Evicts least recently used drawings (other than `keeping`'s) until
    /// `needed` more bytes fit; false when that would evict one on screen.
    private func makeRoomLocked(_ needed: Int, keeping: TileEntry?) -> Bool {
        while bytes + needed > budget {
            var victim: TileEntry?
            var i = entries.startIndex
            while i != entries.endIndex {
                let e = entries[i].value
                i = entries.index(after: i)
                guard e !== keeping, e.surface != nil || e.incoming != nil else { continue }
                if victim == nil || e.lastUsed < victim!.lastUsed { victim = e }
            }
            guard let v = victim, v.lastUsed != useClock || keeping == nil else { return false }
            if let s = v.surface { bytes -= TileCache.size(of: s); v.surface = nil }
            if let s = v.incoming { bytes -= TileCache.size(of: s); v.incoming = nil; readyCount -= 1 }
            if v.work == .idle || v.work == .refused { entries[v.key] = nil }
            evicted += 1
            stamp &+= 1
        }
        return true
    }

    // MARK: Worker threads

    /// Runs one job: the delegate draws the tile (lock not held), then the
    /// drawing is kept if it is still wanted and fits.
    func run(_ job: TileWorkerPool.Job, rasterizer: PathRasterizer, placeholder: Layer) {
        let e = job.entry
        state.lock.lock()
        guard e.work == .queued, e.generation == job.generation else {
            pending -= 1
            state.broadcast()
            state.lock.unlock()
            return
        }
        e.work = .drawing
        let w = pixelWidth, h = pixelHeight
        let d = delegate, handler = handler
        state.lock.unlock()

        let tile = e.tile
        var surface: Surface<ARGB8888>?
        if d != nil || handler != nil, let s = Surface<ARGB8888>(width: w, height: h) {
            let toPixels = AffineTransform(a: tile.scale, b: 0, c: 0, d: tile.scale,
                                           tx: -tile.rect.minX * tile.scale, ty: -tile.rect.minY * tile.scale)
            let context = DrawingContext(bounds: tile.rect, dirtyRect: tile.rect, contentsScale: tile.scale,
                                         transform: toPixels, canvas: Canvas(s.view), rasterizer: rasterizer,
                                         layer: placeholder)
            if let d { d.drawTile(tile, in: context) } else if let handler { handler(tile, context) }
            surface = s
        }

        state.lock.lock()
        drawn += 1
        pending -= 1
        if e.work == .drawing && e.generation == job.generation, let s = surface,
           s.width == pixelWidth, s.height == pixelHeight {
            let n = TileCache.size(of: s)
            if n <= budget && makeRoomLocked(n, keeping: e) {
                e.incoming = s
                bytes += n
                readyCount += 1
                e.work = .idle
            } else {
                e.work = .refused
            }
        } else if e.work == .drawing {
            e.work = .idle
        }
        state.broadcast()
        state.lock.unlock()
    }
}

/// The threads that draw tiles for every `TiledLayer`: a FIFO of jobs and
/// `TiledLayer.workerThreadCount` pthreads, started at the first job and
/// kept for the life of the process (idle ones block on a condition).
final class TileWorkerPool: @unchecked Sendable {
    struct Job {
        let cache: TileCache
        let entry: TileEntry
        let generation: UInt32
    }

    static let shared = TileWorkerPool()

    private let state = Condition()
    private var jobs: [Job] = []
    private var head = 0
    private var threads: [Thread] = []
    private var started = false

    private init() { jobs.reserveCapacity(256) }

    func enqueue(_ job: Job) {
        state.lock.withLock {
            if !started { startLocked() }
            jobs.append(job)
            state.signal()
        }
    }

    private func startLocked() {
        started = true
        let count = Swift.max(1, Swift.min(16, TiledLayer.workerThreadCount))
        var i = 0
        while i < count {
            do {
                threads.append(try Thread { [self] in work() })
            } catch {
                let n = threads.count
                Diagnostics.warn(Layer(name: "tile workers"), "thread", "cannot start a tile worker thread (\(error)); \(n) draw the tiles")
            }
            i += 1
        }
    }

    private func next() -> Job {
        state.lock.withLock {
            while head == jobs.count {
                _ = state.wait(untilNanoseconds: System.monotonicNanoseconds() + 1_000_000_000)
            }
            let job = jobs[head]
            head += 1
            if head == jobs.count { jobs.removeAll(keepingCapacity: true); head = 0 }
            return job
        }
    }

    private func work() {
        let rasterizer = PathRasterizer()
        let placeholder = Layer(name: "tile")
        while true {
            let job = next()
            job.cache.run(job, rasterizer: rasterizer, placeholder: placeholder)
        }
    }
}
