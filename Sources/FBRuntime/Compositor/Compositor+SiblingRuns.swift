import Raster

/// What the survey recorded about the sublayers of one layer that has many
/// of them (at least `Layer.changedSublayersMinimum`: a list of rows, a
/// grid of tiles) in the last frame, so that the next frame can replay the
/// runs of unchanged sublayers between the changed ones at once, instead
/// of asking each of them whether it changed (`SurveyMemo`): a frame in
/// which one row of a 10,000-row list changed then costs what that row
/// costs.
///
/// Valid for the next frame of the same compositor (`token`, `frame`)
/// while the sublayers are the same array (`SublayerChanges.version`) in
/// drawing order (no `zPosition` puts one before an earlier one), placed
/// the same (`placement`: map, sublayer transform, mirror, opacity, clip,
/// depth). The sublayers surveyed afresh are those the layer lists as
/// changed (`SublayerChanges.changed`) and those whose survey depended on
/// time last frame (`varied`); every other one's units are the last
/// frame's, found through `starts`. Render-side state, like `SurveyMemo`;
/// its arrays keep their storage from frame to frame.
final class SiblingRunMemo {
    var token: UInt64 = 0
    var frame: UInt64 = 0
    var sublayersVersion: UInt64 = 0
    /// Where the sublayers were surveyed.
    var placement = SurveyPlacement()
    /// Index of the first sublayer unit in that frame's unit list.
    var firstUnit = 0
    /// Sublayer `i`'s units begin at `firstUnit + starts[i]`; one more
    /// entry than sublayers, the last one past all their units.
    var starts: [Int32] = []
    /// The same for their hit list entries (`HitList`): sublayer `i`'s
    /// begin at `firstHit + hitStarts[i]`.
    var firstHit = 0
    var hitStarts: [Int32] = []
    /// Back faces culled in sublayer `i`'s subtree, and in all of them.
    var culled: [Int32] = []
    var culledTotal = 0
    /// Sublayers (indices, ascending) whose survey depended on time.
    var varied: [Int] = []
    /// This frame's sublayers to survey afresh, and their change in unit
    /// count (scratch).
    var fresh: [Int] = []
    var growth: [Int] = []
    var hitGrowth: [Int] = []
    var nextVaried: [Int] = []
}

extension Compositor {
    /// Surveys the sublayers of `layer` (at least
    /// `Layer.changedSublayersMinimum` of them) as `survey` would one by
    /// one, replaying the runs of sublayers that did not change since the
    /// last frame at once (see `SiblingRunMemo`). `parent`, `opacity`,
    /// `clip` and `depth` are the sublayers' placement.
    func surveySublayerRuns(of layer: Layer, parent: ParentPlacement, opacity: Double, clip: IntRect, depth: Int) {
        defer { layer.forgetChangedSublayers() }
        let memo: SiblingRunMemo
        if let m = layer.sublayerChanges.runs { memo = m } else { memo = SiblingRunMemo(); layer.sublayerChanges.runs = memo }
        if surveyReplayAllowed, replaySublayerRuns(of: layer, memo, parent: parent, opacity: opacity, clip: clip, depth: depth) {
            return
        }
        surveyAllSublayers(of: layer, memo, parent: parent, opacity: opacity, clip: clip, depth: depth)
    }

    /// Every sublayer through `survey`, recording the memo when they are
    /// in drawing order.
    private func surveyAllSublayers(of layer: Layer, _ memo: SiblingRunMemo, parent: ParentPlacement, opacity: Double,
                                    clip: IntRect, depth: Int) {
        let sublayers = layer.sublayers
        let n = sublayers.count
        var inOrder = true
        var i = 1
        while i < n {
            if Compositor.z(sublayers[i]) < Compositor.z(sublayers[i - 1]) { inOrder = false; break }
            i += 1
        }
        guard inOrder else {
            memo.token = 0
            forEachSublayerInDrawingOrder(layer) { sublayer in
                survey(sublayer, parent: parent, opacity: opacity, clip: clip, depth: depth)
            }
            return
        }
        let first = tracker.units.count
        let firstHit = hits.count
        memo.starts.removeAll(keepingCapacity: true)
        memo.hitStarts.removeAll(keepingCapacity: true)
        memo.culled.removeAll(keepingCapacity: true)
        memo.varied.removeAll(keepingCapacity: true)
        var culledTotal = 0
        i = 0
        while i < n {
            let sublayer = sublayers[i]
            sublayer.sublayerChanges.indexHint = i
            memo.starts.append(Int32(truncatingIfNeeded: tracker.units.count - first))
            memo.hitStarts.append(Int32(truncatingIfNeeded: hits.count - firstHit))
            let culledBefore = statistics.layersCulled
            survey(sublayer, parent: parent, opacity: opacity, clip: clip, depth: depth)
            let culled = statistics.layersCulled - culledBefore
            memo.culled.append(Int32(truncatingIfNeeded: culled))
            culledTotal += culled
            if sublayer.surveyMemo.varies { memo.varied.append(i) }
            i += 1
        }
        memo.starts.append(Int32(truncatingIfNeeded: tracker.units.count - first))
        memo.hitStarts.append(Int32(truncatingIfNeeded: hits.count - firstHit))
        memo.culledTotal = culledTotal
        memo.firstUnit = first
        memo.firstHit = firstHit
        record(memo, layer, parent: parent, opacity: opacity, clip: clip, depth: depth)
    }

    private func record(_ memo: SiblingRunMemo, _ layer: Layer, parent: ParentPlacement, opacity: Double, clip: IntRect, depth: Int) {
        memo.token = surveyToken
        memo.frame = frameNumber
        memo.sublayersVersion = layer.sublayerChanges.version
        memo.placement.record(parent, opacity: opacity, clip: clip, depth: depth)
    }

    /// The sublayers from the last frame's memo: the runs between the ones
    /// to survey afresh replayed, those surveyed. False, having appended
    /// nothing, when the memo does not hold for this frame.
    private func replaySublayerRuns(of layer: Layer, _ memo: SiblingRunMemo, parent: ParentPlacement, opacity: Double,
                                    clip: IntRect, depth: Int) -> Bool {
        let sublayers = layer.sublayers
        let n = sublayers.count
        guard memo.token == surveyToken, memo.frame &+ 1 == frameNumber, memo.sublayersVersion == layer.sublayerChanges.version,
              memo.starts.count == n + 1, memo.hitStarts.count == n + 1, memo.culled.count == n,
              memo.placement.matches(parent, opacity: opacity, clip: clip, depth: depth) else { return false }
        // The sublayers to survey afresh: last frame's time-dependent ones
        // (ascending) and the changed ones, each put in its place once (no
        // `sort()`: it allocates a buffer); a changed one must still be in
        // drawing order with its neighbours.
        memo.fresh.removeAll(keepingCapacity: true)
        memo.fresh.append(contentsOf: memo.varied)
        var k = 0
        while k < layer.sublayerChanges.changed.count {
            let c = layer.sublayerChanges.changed[k]
            k += 1
            let i = c.sublayerChanges.indexHint
            guard i >= 0, i < n, sublayers[i] === c else { return false }
            let z = Compositor.z(c)
            if i > 0 && Compositor.z(sublayers[i - 1]) > z { return false }
            if i + 1 < n && z > Compositor.z(sublayers[i + 1]) { return false }
            var lo = 0, hi = memo.fresh.count
            while lo < hi {
                let mid = (lo + hi) / 2
                if memo.fresh[mid] < i { lo = mid + 1 } else { hi = mid }
            }
            if lo < memo.fresh.count && memo.fresh[lo] == i { continue }
            // `insert(_:at:)`, spelled out: the generic one allocated.
            memo.fresh.append(i)
            var j = memo.fresh.count - 1
            while j > lo { memo.fresh[j] = memo.fresh[j - 1]; j -= 1 }
            memo.fresh[lo] = i
        }
        // The runs between them must be whole subtrees of the last frame.
        let base = memo.firstUnit, hitBase = memo.firstHit
        var cursor = 0, hitCursor = 0
        k = 0
        while k < memo.fresh.count {
            let i = memo.fresh[k]
            guard tracker.isRunOfSubtrees((base + cursor) ..< (base + Int(memo.starts[i]))),
                  !recordsHitList || hits.isRunOfSubtrees((hitBase + hitCursor) ..< (hitBase + Int(memo.hitStarts[i])))
            else { return false }
            cursor = Int(memo.starts[i + 1])
            hitCursor = Int(memo.hitStarts[i + 1])
            k += 1
        }
        guard tracker.isRunOfSubtrees((base + cursor) ..< (base + Int(memo.starts[n]))),
              !recordsHitList || hits.isRunOfSubtrees((hitBase + hitCursor) ..< (hitBase + Int(memo.hitStarts[n])))
        else { return false }

        // Replay and survey.
        let first = tracker.units.count
        let firstHit = hits.count
        memo.growth.removeAll(keepingCapacity: true)
        memo.hitGrowth.removeAll(keepingCapacity: true)
        memo.nextVaried.removeAll(keepingCapacity: true)
        var culledTotal = memo.culledTotal
        // The replayed runs' culled back faces, as their sublayers' surveys
        // would have counted them: all last frame's but the fresh ones'.
        var replayedCulled = memo.culledTotal
        cursor = 0
        hitCursor = 0
        k = 0
        while k < memo.fresh.count {
            let i = memo.fresh[k]
            k += 1
            let run = (base + cursor) ..< (base + Int(memo.starts[i]))
            replayRun(run, hits: (hitBase + hitCursor) ..< (hitBase + Int(memo.hitStarts[i])))
            let sublayer = sublayers[i]
            let unitsBefore = tracker.units.count
            let hitsBefore = hits.count
            let culledBefore = statistics.layersCulled
            survey(sublayer, parent: parent, opacity: opacity, clip: clip, depth: depth)
            let culled = statistics.layersCulled - culledBefore
            replayedCulled -= Int(memo.culled[i])
            culledTotal += culled - Int(memo.culled[i])
            memo.culled[i] = Int32(truncatingIfNeeded: culled)
            memo.growth.append((tracker.units.count - unitsBefore) - Int(memo.starts[i + 1] - memo.starts[i]))
            memo.hitGrowth.append((hits.count - hitsBefore) - Int(memo.hitStarts[i + 1] - memo.hitStarts[i]))
            if sublayer.surveyMemo.varies { memo.nextVaried.append(i) }
            cursor = Int(memo.starts[i + 1])
            hitCursor = Int(memo.hitStarts[i + 1])
        }
        replayRun((base + cursor) ..< (base + Int(memo.starts[n])),
                  hits: (hitBase + hitCursor) ..< (hitBase + Int(memo.hitStarts[n])))
        statistics.layersCulled += replayedCulled

        // The starts after a sublayer whose unit (or entry) count changed
        // move.
        var shift = 0, hitShift = 0
        k = 0
        while k < memo.fresh.count {
            let i = memo.fresh[k]
            let grown = memo.growth[k], hitsGrown = memo.hitGrowth[k]
            k += 1
            guard grown != 0 || shift != 0 || hitsGrown != 0 || hitShift != 0 else { continue }
            let end = k < memo.fresh.count ? memo.fresh[k] : n
            shift += grown
            hitShift += hitsGrown
            var j = i + 1
            while j <= end {
                memo.starts[j] += Int32(truncatingIfNeeded: shift)
                memo.hitStarts[j] += Int32(truncatingIfNeeded: hitShift)
                j += 1
            }
        }
        swap(&memo.varied, &memo.nextVaried)
        memo.culledTotal = culledTotal
        memo.firstUnit = first
        memo.firstHit = firstHit
        record(memo, layer, parent: parent, opacity: opacity, clip: clip, depth: depth)
        return true
    }

    /// The last frame's units `run` (whole subtrees) and their hit list
    /// entries `hits` appended again, with their memos carried.
    private func replayRun(_ run: Range<Int>, hits entries: Range<Int>) {
        let firstHit = recordsHitList ? hits.replay(entries) : hits.count
        carryReplayedUnits(run, to: tracker.replayRun(run), memosFrom: run.lowerBound, hitShift: firstHit - entries.lowerBound)
    }

    /// A sublayer's `zPosition` for drawing order (NaN counts as 0).
    @inline(__always)
    static func z(_ l: Layer) -> Double { l.zPosition.isNaN ? 0 : l.zPosition }
}
