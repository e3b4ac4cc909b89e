import Raster

/// A short list of target pixel rectangles that need redrawing (a region
/// in the manner of pixman's and LVGL's invalidated-area lists). Rectangles
/// that overlap are merged into their bounding box, so the list never
/// covers a pixel twice; past `maximumCount` rectangles the one just added
/// is merged with the rectangle whose bounding box with it adds the fewest
/// undamaged pixels (greedy, O(n) per rectangle added), so scattered small
/// changes stay small and a screen of them still ends in a few draws.
public struct DamageList: Equatable, Sendable {
    /// Most rectangles kept apart. 64 (it was 32, LVGL's count, past which
    /// LVGL redraws the whole screen): LVGL's arcs scene at 1920×1080
    /// changes 66 small pieces a frame, 160 px apart, and merging them into
    /// 32 made 17 % of the screen damage instead of 0.3 % (0.76 ms a frame
    /// against 0.28). Its other scenes took as long with 32, 64 and 128
    /// within the machine's noise (each rectangle costs a walk of the units
    /// it meets; the labels scene damaged less with more rectangles and
    /// took no less).
    public static let maximumCount = 64
    /// Disjoint rectangles in target pixels, inside the target.
    public private(set) var rects: [IntRect] = []

    public init() { rects.reserveCapacity(DamageList.maximumCount + 1) }

    public var isEmpty: Bool { rects.isEmpty }
    /// The smallest rectangle holding every damaged pixel (`.zero` if none).
    public var boundingBox: IntRect {
        rects.reduce(IntRect.zero) { $0.union($1) }
    }
    /// Damaged pixels (the rectangles are disjoint).
    public var area: Int { rects.reduce(0) { $0 + $1.area } }

    /// Adds `rect` cut to `bounds`.
    ///
    /// - Complexity: O(n), n ≤ `maximumCount` + 1.
    public mutating func add(_ rect: IntRect, within bounds: IntRect) {
        let r = rect.intersection(bounds)
        guard !r.isEmpty else { return }
        insert(r)
        while rects.count > DamageList.maximumCount { mergeLast() }
    }

    /// Appends `r`, first merging every rectangle it overlaps into it.
    private mutating func insert(_ rect: IntRect) {
        var r = rect
        var i = 0
        while i < rects.count {
            if rects[i].intersects(r) {
                r = r.union(rects[i])
                rects.remove(at: i)
                i = 0                  // the grown rectangle may meet earlier ones
            } else {
                i += 1
            }
        }
        rects.append(r)
    }

    /// Merges the last rectangle with the one whose bounding box with it
    /// costs the fewest pixels beyond the two.
    private mutating func mergeLast() {
        let last = rects.removeLast()
        var best = 0, bestCost = Int.max
        var i = 0
        while i < rects.count {
            let cost = rects[i].union(last).area - rects[i].area - last.area
            if cost < bestCost { bestCost = cost; best = i }
            i += 1
        }
        let merged = rects[best].union(last)
        rects.remove(at: best)
        insert(merged)
    }

    public mutating func removeAll() { rects.removeAll(keepingCapacity: true) }
}

/// What the compositor drew for one *unit* in one frame. A unit is a layer
/// drawn straight into the target: its own parts (background, contents,
/// border, a `shadowPath` shadow), or — when it renders offscreen (group
/// opacity, a mask, a shadow cast by its image, an operator over several
/// parts, a rounded or transformed `masksToBounds` clip) — its whole
/// subtree as one image. Sublayers of a unit that draws only its own parts
/// are units of their own.
struct DrawnUnit {
    let layer: ObjectIdentifier
    /// `LayerSignature` of what decides the unit's pixels.
    let signature: UInt64
    /// Target pixels the unit's drawing may touch (anti-aliasing margin,
    /// shadow and border included), cut by the clips above it.
    let extent: IntRect
    /// Whole target pixels the unit covers with opaque pixels that do not
    /// depend on what is below (empty if none).
    let opaqueRect: IntRect
    /// `signature` without the trim a layer can damage in part, and that
    /// trim (`Layer.partialTrim`); equal to `signature` and `nil` otherwise.
    var baseSignature: UInt64 = 0
    var trim: (start: Double, end: Double)?
    /// When only the trim changed since the last frame: the target pixels
    /// that change (`Layer.trimChangeBounds`), damaged instead of the
    /// whole extent.
    var partialDamage: IntRect?
    /// `extent` joined with the extents of the units in its subtree.
    var subtreeExtent: IntRect
    /// One past the last unit of its subtree: units from this index on are
    /// drawn above the whole subtree.
    var subtreeEnd: Int
    /// Hidden under an opaque unit drawn above its whole subtree.
    var occluded = false
    /// Its sublayers are the units of its subtree (a layer drawn straight
    /// into the target, not offscreen as one image): the draw plays them
    /// from the unit list (`Compositor.drawSublayerUnits`).
    var playsSublayers = false
    /// Bookkeeping of the comparison with the next frame.
    var matched = false
}

/// Remembers the units of the last frame and finds what changed: a unit
/// whose signature or extent changed, that appeared, disappeared, or now
/// lies below a unit it used to be above, damages its old and new extents.
///
/// Storage (two unit arrays, two indexes by layer identity, the damage
/// list) is kept between frames: no allocation in steady state. A layer is
/// known by its identity only to pair it with last frame's record; the
/// signature holds everything else, so a new layer at a freed one's
/// address is compared by value and still correct.
final class DamageTracker {
    private(set) var units: [DrawnUnit] = []
    /// The layer of each unit of this frame, by unit index (the draw plays
    /// the units of a straight layer's subtree from here).
    private(set) var unitLayers: [Layer] = []
    private var previous: [DrawnUnit] = []
    /// The last frame's `unitLayers`, kept until the survey ends
    /// (`endSurvey`) for the units it replays.
    private var previousUnitLayers: [Layer] = []
    private var index: [ObjectIdentifier: Int] = [:]
    private var previousIndex: [ObjectIdentifier: Int] = [:]
    /// The opaque rectangles of this frame's units.
    private(set) var occlusion = OcclusionMap()
    private(set) var damage = DamageList()
    /// Areas invalidated by the caller since the last frame.
    private var pending = DamageList()
    private var needsFullFrame = true

    // What a full frame depends on beyond the units.
    private var targetBase: UnsafeMutablePointer<UInt32>?
    private var targetSize = (width: 0, height: 0, stride: 0)
    private var frameSettings: UInt64 = 0

    /// The next frame redraws everything.
    func invalidate() { needsFullFrame = true }

    /// The next frame redraws `rect` (target pixels) too.
    func invalidate(_ rect: IntRect) { pending.add(rect, within: rect) }   // cut to the target at the next frame

    /// What changed this frame: `damage` without what was redrawn only to
    /// remove the last frame's `.redrawn` overlay tint.
    private(set) var changed = DamageList()
    /// Redrawn next frame to remove this frame's overlay tint, without
    /// counting as a change.
    private var overlayRepaint = DamageList()

    /// Asks the next frame to repaint `rect` (untinted) without flashing it.
    func repaintOverlay(_ rect: IntRect) { overlayRepaint.add(rect, within: rect) }

    /// Starts a frame: last frame's units become `previous`. A new target
    /// (another buffer or size) or changed `settings` (a signature of the
    /// clear colour, scale, kernels) forces a full frame.
    func beginFrame(target: PixelView<ARGB8888>, settings: UInt64) {
        swap(&units, &previous)
        swap(&index, &previousIndex)
        swap(&unitLayers, &previousUnitLayers)
        units.removeAll(keepingCapacity: true)
        unitLayers.removeAll(keepingCapacity: true)
        index.removeAll(keepingCapacity: true)
        occlusion.removeAll()
        damage.removeAll()
        if targetBase != target.base || targetSize != (target.width, target.height, target.rowStride)
            || frameSettings != settings {
            needsFullFrame = true
            targetBase = target.base
            targetSize = (target.width, target.height, target.rowStride)
            frameSettings = settings
        }
    }

    /// Records a unit in drawing order; returns its index. Finish it with
    /// `endSubtree(of:)` after its sublayers' units.
    func append(_ layer: Layer, signature: UInt64, extent: IntRect, opaqueRect: IntRect,
                baseSignature: UInt64? = nil, trim: (start: Double, end: Double)? = nil, partialDamage: IntRect? = nil) -> Int {
        let i = units.count
        units.append(DrawnUnit(layer: ObjectIdentifier(layer), signature: signature, extent: extent,
                               opaqueRect: opaqueRect, baseSignature: baseSignature ?? signature, trim: trim,
                               partialDamage: partialDamage, subtreeExtent: extent, subtreeEnd: i + 1))
        unitLayers.append(layer)
        index[ObjectIdentifier(layer)] = i
        occlusion.add(opaqueRect, position: i)
        return i
    }

    /// Appends the last frame's units `range` again, in order, with their
    /// signatures, extents and opaque rectangles (a subtree the survey
    /// found unchanged: see `SurveyMemo`); returns the index of the first.
    /// `nil`, appending nothing, when the range is not a whole subtree of
    /// the last frame whose first unit is `layer`.
    func replay(_ range: Range<Int>, of layer: Layer) -> Int? {
        let first = units.count
        guard !range.isEmpty else { return first }
        guard range.upperBound <= previous.count, range.upperBound <= previousUnitLayers.count,
              previousUnitLayers[range.lowerBound] === layer, previous[range.lowerBound].subtreeEnd == range.upperBound
        else { return nil }
        appendPrevious(range)
        return first
    }

    /// True when the last frame's units `range` are whole subtrees side by
    /// side (the units of a run of sibling layers; empty counts).
    func isRunOfSubtrees(_ range: Range<Int>) -> Bool {
        guard range.lowerBound >= 0, range.upperBound <= previous.count, range.upperBound <= previousUnitLayers.count
        else { return false }
        return isRunOfPreOrderSubtrees(range) { previous[$0].subtreeEnd }
    }

    /// Appends the last frame's units `range` again (see `replay(_:of:)`);
    /// the caller checked `isRunOfSubtrees(range)`. Returns the index of
    /// the first.
    @discardableResult
    func replayRun(_ range: Range<Int>) -> Int {
        let first = units.count
        appendPrevious(range)
        return first
    }

    private func appendPrevious(_ range: Range<Int>) {
        let first = units.count
        let shift = first - range.lowerBound
        var k = range.lowerBound
        while k < range.upperBound {
            var u = previous[k]
            u.subtreeEnd += shift
            u.partialDamage = nil          // the signature is the last frame's: nothing to damage
            u.occluded = false
            u.matched = false
            units.append(u)
            unitLayers.append(previousUnitLayers[k])
            index[u.layer] = k + shift
            occlusion.add(u.opaqueRect, position: k + shift)
            k += 1
        }
    }

    /// The layer of the last frame's unit `i`.
    func previousUnitLayer(_ i: Int) -> Layer { previousUnitLayers[i] }

    /// The survey is over: lets go of the last frame's layers.
    func endSurvey() { previousUnitLayers.removeAll(keepingCapacity: true) }

    /// Marks unit `i` as one whose sublayers are units (`playsSublayers`).
    func setPlaysSublayers(_ i: Int) { units[i].playsSublayers = true }

    func endSubtree(of i: Int) {
        var box = units[i].extent
        var j = i + 1
        while j < units.count { box = box.union(units[j].subtreeExtent); j = units[j].subtreeEnd }   // the sublayers' units
        units[i].subtreeExtent = box
        units[i].subtreeEnd = units.count
    }

    /// The unit `layer` was last frame, if it was one.
    func previousUnit(of layer: Layer) -> DrawnUnit? {
        guard let p = previousIndex[ObjectIdentifier(layer)] else { return nil }
        return previous[p]
    }

    /// The unit `layer` is this frame, if it is one.
    @inline(__always) func unitIndex(of layer: Layer) -> Int? { index[ObjectIdentifier(layer)] }

    /// Compares this frame's units with the last frame's and fills
    /// `damage` (cut to `bounds`, the target).
    func computeDamage(bounds: IntRect) {
        defer {
            pending.removeAll()
            changed.removeAll()
            var i = 0
            while i < damage.rects.count { changed.add(damage.rects[i], within: bounds); i += 1 }
            i = 0
            while i < overlayRepaint.rects.count { damage.add(overlayRepaint.rects[i], within: bounds); i += 1 }
            overlayRepaint.removeAll()
        }
        if needsFullFrame {
            needsFullFrame = false
            damage.add(bounds, within: bounds)
            return
        }
        for rect in pending.rects { damage.add(rect, within: bounds) }
        var highestPrevious = -1
        var k = 0
        while k < units.count {
            let u = units[k]
            k += 1
            guard let p = previousIndex[u.layer] else {
                damage.add(u.extent, within: bounds)
                continue
            }
            previous[p].matched = true
            let old = previous[p]
            // Below a unit it used to be above: the order changed here.
            if old.signature != u.signature || old.extent != u.extent || p < highestPrevious {
                if let partial = u.partialDamage, old.baseSignature == u.baseSignature, old.extent == u.extent,
                   p >= highestPrevious {
                    damage.add(partial, within: bounds)      // only the trim changed: what it changed
                } else {
                    damage.add(old.extent, within: bounds)
                    damage.add(u.extent, within: bounds)
                }
            }
            if p > highestPrevious { highestPrevious = p }
        }
        k = 0
        while k < previous.count {
            if !previous[k].matched { damage.add(previous[k].extent, within: bounds) }
            k += 1
        }
    }

    /// Replaces the damage with all of `bounds`.
    func damageEverything(bounds: IntRect) {
        damage.removeAll()
        damage.add(bounds, within: bounds)
    }

    /// Marks units whose whole subtree lies under an opaque unit drawn
    /// above it (`occlusion`); returns how many of them the damage reaches.
    func markOccluded() -> Int {
        var count = 0
        guard !occlusion.isEmpty else { return 0 }
        var i = 0
        while i < units.count {
            guard occlusion.covers(units[i].subtreeExtent, drawnFrom: units[i].subtreeEnd) else { i += 1; continue }
            let e = units[i].subtreeExtent
            if damage.rects.contains(where: { !$0.intersection(e).isEmpty }) { count += 1 }
            // Its subtree's units go with it: the draw never reaches them.
            units[i].occluded = true
            i = units[i].subtreeEnd
        }
        return count
    }
}

/// True when `range` of a list in pre-order (each entry followed by its
/// subtree's, `subtreeEnd(k)` one past the last of entry `k`'s) is whole
/// subtrees side by side; an empty range counts. The damage tracker's
/// units and the hit list both are such lists.
@inline(__always)
func isRunOfPreOrderSubtrees(_ range: Range<Int>, subtreeEnd: (Int) -> Int) -> Bool {
    var k = range.lowerBound
    while k < range.upperBound {
        let end = subtreeEnd(k)
        guard end > k else { return false }
        k = end
    }
    return k == range.upperBound
}
