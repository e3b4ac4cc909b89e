import Raster

// Painting one frame's damage on several threads.
//
// The survey, the damage and the occlusion are found once, on the thread
// that calls `render`. The damage is then cut into horizontal bands of
// about equal area, one per thread: the calling thread paints the first,
// each `PaintWorker` (a thread kept from frame to frame, with a painter of
// its own) paints one of the others. A band is painted exactly as a damage
// rectangle is (cleared, then the units that meet it played, every draw
// clipped to it), and the compositor already promises that a damage
// rectangle's pixels are those of a full frame; so the frame is the same
// bit for bit however it is cut (`ParallelPaintTests`).
//
// What the threads share while they paint:
// - read only: the render tree, the units, their resolved values, the
//   occlusion map, the presentation memos (no thread writes a memo while
//   bands are painted: `writesPresentationMemos`);
// - behind locks: the glyph and shape masks (`CoverageMaskCache`), the
//   shadow images (`sharedCacheLock`), the contents' mip chains;
// - each painter's own: scratch storage, rasterizers, blur, surface pools,
//   statistics (added to the compositor's at the end of the frame).
// - behind one of 16 locks by address: what a layer caches while it draws
//   or measures its own content (`Compositor.ownContentLock`);
// A frame is painted on one thread when any layer it draws keeps state
// that is not covered above (see `Layer.paintsConcurrently`), while a
// backdrop blur is on screen (it reads pixels of the other bands), with
// debug overlays, or when the damage is small.

extension Layer {
    /// Whether two painters may draw this layer at once. Text, shapes and
    /// gradients may: what they cache while drawn is filled under their
    /// own-content lock (`Compositor.ownContentLock`). Tiles and particles
    /// (content that changes with time), 3-D rendering contexts,
    /// replicators, rasterized layers, filters and running transitions are
    /// painted on one thread (their state is not shared between painters
    /// yet).
    var paintsConcurrently: Bool {
        if drawsInTiles || isTransformLayer || replicator != nil || shouldRasterize
            || !filters.isEmpty || contentChangesWithTime {
            return false
        }
        let animations = self.animations
        var i = 0
        while i < animations.count {
            if case .transition = animations[i].animation { return false }
            i += 1
        }
        return true
    }
}

extension Compositor {
    /// Damage smaller than this (pixels) is painted on one thread: waking
    /// a painter costs more than it saves.
    static let minimumParallelPaintArea = 64 * 1024

    /// How many bands this frame's damage is painted in (1: on this
    /// thread alone). Called after the damage is known.
    func paintBandCount() -> Int {
        guard paintThreads > 1, !isPainter, debugOverlays.isEmpty, !backdropOnScreen,
              tracker.damage.area >= Compositor.minimumParallelPaintArea else { return 1 }
        let units = tracker.units, layers = tracker.unitLayers
        var j = 0
        while j < units.count {
            let layer = layers[j]
            guard layer.paintsConcurrently else { return 1 }
            // A unit drawn offscreen as one image draws its subtree itself.
            if !units[j].playsSublayers && !subtreePaintsConcurrently(layer, depth: 0) { return 1 }
            j += 1
        }
        return Swift.min(paintThreads, Compositor.maximumPaintThreads)
    }

    /// Most threads a frame is painted on.
    public static let maximumPaintThreads = 8

    private func subtreePaintsConcurrently(_ layer: Layer, depth: Int) -> Bool {
        guard layer.paintsConcurrently, depth < Compositor.maximumDepth else { return false }
        if let mask = layer.mask, !subtreePaintsConcurrently(mask, depth: depth + 1) { return false }
        let sublayers = layer.sublayers
        var i = 0
        while i < sublayers.count {
            if !subtreePaintsConcurrently(sublayers[i], depth: depth + 1) { return false }
            i += 1
        }
        return true
    }

    /// Clears and draws the damage rectangles' parts in `rows` (target
    /// rows), each clipped to its part.
    func paintDamage(_ root: Layer, placement: ParentPlacement, target: PixelView<ARGB8888>,
                     clearColor: PremultipliedColor, rows: Range<Int>, drawable: Bool) {
        let rects = tracker.damage.rects
        var k = 0
        while k < rects.count {
            let whole = rects[k]
            k += 1
            let top = Swift.max(whole.y, rows.lowerBound), bottom = Swift.min(whole.maxY, rows.upperBound)
            guard bottom > top else { continue }
            let rect = IntRect(x: whole.x, y: top, width: whole.width, height: bottom - top)
            tracker.occlusion.forEachVisiblePart(of: rect, drawnFrom: 0) { piece in
                var y = piece.y
                while y < piece.maxY { (target.row(y) + piece.x).update(repeating: clearColor.argb, count: piece.width); y += 1 }
                statistics.pixelsWritten += piece.area
            }
            if drawable {
                var canvas = Canvas(target, family: kernels)
                canvas.clip(to: rect)
                draw(root, parent: placement, opacity: 1, canvas: canvas, depth: 0)
            }
        }
    }

    /// Paints the damage in `bands` bands of about equal area, the first
    /// on this thread and each other on a painter's; returns false (and
    /// paints nothing) when a painter thread cannot be started.
    func paintInBands(_ bands: Int, root: Layer, placement: ParentPlacement, target: PixelView<ARGB8888>,
                      clearColor: PremultipliedColor, bounds: IntRect) -> Bool {
        while paintWorkers.count < bands - 1 {
            do {
                paintWorkers.append(try PaintWorker(owner: self))
            } catch {
                Diagnostics.warn("paint", "cannot start a painter thread (\(error.description)); painting on one thread")
                paintThreads = 1
                return false
            }
        }
        // Band edges: each band gets its share of the damage's area
        // (`bandShares`, balanced by the last frames' times).
        if bandShares.count != bands {
            bandShares.removeAll(keepingCapacity: true)
            while bandShares.count < bands { bandShares.append(1 / Double(bands)) }
        }
        let total = Double(tracker.damage.area)
        var edges = (bounds.y, 0, 0, 0, 0, 0, 0, 0, bounds.maxY)
        withUnsafeMutableBytes(of: &edges) { raw in
            let edge = raw.bindMemory(to: Int.self)
            var above = 0.0
            var k = 1
            while k < bands {
                above += bandShares[k - 1]
                edge[k] = Swift.max(edge[k - 1], rowSplittingDamage(atArea: Int(total * above), bounds: bounds))
                k += 1
            }
            edge[bands] = bounds.maxY
            writesPresentationMemos = false
            k = 1
            while k < bands {
                paintWorkers[k - 1].start(root: root, placement: placement, target: target, clearColor: clearColor,
                                          rows: edge[k] ..< edge[k + 1], owner: self)
                k += 1
            }
            let start = System.monotonicNanoseconds()
            paintDamage(root, placement: placement, target: target, clearColor: clearColor,
                        rows: edge[0] ..< edge[1], drawable: true)
            bandNanoseconds[0] = System.monotonicNanoseconds() - start
            k = 1
            while k < bands {
                let painter = paintWorkers[k - 1].finish()
                bandNanoseconds[k] = paintWorkers[k - 1].nanoseconds
                statistics.add(painter.statistics)
                k += 1
            }
            writesPresentationMemos = true
        }
        balanceBands(bands)
        statistics.paintBands = bands
        return true
    }

    /// Moves the bands' shares of the damage towards equal times: a band
    /// that took longer per share than the others gets less next frame
    /// (animated scenes change little from frame to frame). Half of the
    /// way each frame, and never under 1/(4n), so a band stalled once by
    /// the scheduler does not starve.
    func balanceBands(_ bands: Int) {
        var speeds = 0.0
        var k = 0
        while k < bands {
            speeds += bandShares[k] / Double(Swift.max(bandNanoseconds[k], 1))
            k += 1
        }
        guard speeds > 0, speeds.isFinite else { return }
        let floor = 1 / Double(4 * bands)
        var sum = 0.0
        k = 0
        while k < bands {
            let balanced = bandShares[k] / Double(Swift.max(bandNanoseconds[k], 1)) / speeds
            bandShares[k] = Swift.max(floor, (bandShares[k] + balanced) / 2)
            sum += bandShares[k]
            k += 1
        }
        k = 0
        while k < bands { bandShares[k] /= sum; k += 1 }
    }

    /// The first row `y` such that at least `area` pixels of the damage lie
    /// above it (binary search; the damage rectangles are disjoint).
    func rowSplittingDamage(atArea area: Int, bounds: IntRect) -> Int {
        var lo = bounds.y, hi = bounds.maxY
        while lo < hi {
            let mid = lo + (hi - lo) / 2
            if damageArea(above: mid) >= area { hi = mid } else { lo = mid + 1 }
        }
        return lo
    }

    private func damageArea(above y: Int) -> Int {
        let rects = tracker.damage.rects
        var sum = 0
        var k = 0
        while k < rects.count {
            let r = rects[k]
            k += 1
            sum += r.width * Swift.max(0, Swift.min(y, r.maxY) - r.y)
        }
        return sum
    }

    /// Sets this painter up for its owner's frame: the same settings, the
    /// owner's frame, time and resolved units; statistics from zero.
    func adoptFrame(of owner: Compositor) {
        scale = owner.scale
        kernels = owner.kernels
        cullsOccludedLayers = owner.cullsOccludedLayers
        wholePixelBlits = owner.wholePixelBlits
        glyphMaskBlits = owner.glyphMaskBlits
        composedTextBlits = owner.composedTextBlits
        glyphMasks = owner.glyphMasks
        shapeMaskBlits = owner.shapeMaskBlits
        maskInteriorFills = owner.maskInteriorFills
        shapeMasks = owner.shapeMasks
        replaysUnchangedSubtrees = owner.replaysUnchangedSubtrees
        if colorPool.budgetBytes != owner.colorPool.budgetBytes { offscreenPoolBudget = owner.offscreenPoolBudget }
        frameNumber = owner.frameNumber
        evaluationEpoch = owner.evaluationEpoch
        time = owner.time
        frameTarget = owner.frameTarget
        unitResolved = owner.unitResolved
        statistics = FrameStatistics()
        overlayState = DebugOverlayState(frameBase: owner.frameTarget)
    }

    /// After a frame painted in `bands` bands: the pools of the painters
    /// that painted one forget what the frame did not use, and report
    /// what they allocated.
    func endPaintersFrame(bands: Int) -> Int {
        var allocated = 0
        var k = 0
        while k < bands - 1 {
            let painter = paintWorkers[k].painter
            k += 1
            painter.colorPool.endFrame()
            painter.coveragePool.endFrame()
            allocated += painter.colorPool.allocations + painter.coveragePool.allocations
            painter.colorPool.allocations = 0
            painter.coveragePool.allocations = 0
        }
        return allocated
    }
}

/// A thread that paints one band of its owner's frames with a painter of
/// its own (`Compositor(painterFor:)`).
///
/// States: `idle` → `painting` (`start`, owner's thread) → `finished`
/// (the worker) → `idle` (`finish`, owner's thread); `stopping` ends the
/// thread. The owner waits in `finish` until its band is done, so the
/// frame's state the painter reads is not touched meanwhile.
final class PaintWorker {
    private enum State { case idle, painting, finished, stopping }

    let painter: Compositor
    private let condition = Condition()
    private var state = State.idle
    private var thread: Thread?
    // The job, set by `start` and read by the worker under the lock's
    // hand-over.
    private var root: Layer?
    private var placement = Compositor.ParentPlacement(toTarget: .identity, sublayerSpace: .identity, flipped: false, time: 0)
    private var target: PixelView<ARGB8888>?
    private var clearColor = PremultipliedColor.black
    private var rows = 0 ..< 0
    /// How long the last band took to paint (monotonic clock).
    private(set) var nanoseconds: Int64 = 0

    init(owner: Compositor) throws(SystemError) {
        painter = Compositor(painterFor: owner)
        thread = try Thread { [self] in run() }
    }

    /// Hands the worker its band of the owner's frame.
    func start(root: Layer, placement: Compositor.ParentPlacement, target: PixelView<ARGB8888>,
               clearColor: PremultipliedColor, rows: Range<Int>, owner: Compositor) {
        painter.adoptFrame(of: owner)
        condition.lock.withLock {
            precondition(state == .idle, "PaintWorker.start: already painting")
            self.root = root
            self.placement = placement
            self.target = target
            self.clearColor = clearColor
            self.rows = rows
            state = .painting
            condition.signal()
        }
    }

    /// Waits for the band to be painted; returns the painter (its
    /// statistics are the band's).
    func finish() -> Compositor {
        condition.lock.withLock {
            while state != .finished { condition.wait(untilNanoseconds: System.monotonicNanoseconds() + 1_000_000_000) }
            state = .idle
            root = nil
        }
        return painter
    }

    /// Ends the thread (the owner is going away).
    func stop() {
        condition.lock.withLock {
            while state == .painting { condition.wait(untilNanoseconds: System.monotonicNanoseconds() + 1_000_000_000) }
            state = .stopping
            condition.signal()
        }
        thread?.join()
        thread = nil
    }

    private func run() {
        while true {
            condition.lock.lock()
            while state != .painting && state != .stopping {
                condition.wait(untilNanoseconds: System.monotonicNanoseconds() + 1_000_000_000)
            }
            if state == .stopping { condition.lock.unlock(); return }
            let root = self.root, target = self.target, placement = self.placement
            let clearColor = self.clearColor, rows = self.rows
            condition.lock.unlock()
            let start = System.monotonicNanoseconds()
            if let root, let target {
                painter.paintDamage(root, placement: placement, target: target, clearColor: clearColor, rows: rows,
                                    drawable: true)
            }
            let time = System.monotonicNanoseconds() - start
            condition.lock.withLock {
                nanoseconds = time
                state = .finished
                condition.signal()
            }
        }
    }
}
