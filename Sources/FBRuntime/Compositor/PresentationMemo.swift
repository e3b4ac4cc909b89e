import Synchronization

/// A layer's presentation values as its animations made them for one
/// frame: the compositor evaluates a layer's animations once per frame and
/// reads them from here every other time the frame needs the layer (the
/// survey, the draw of each damage rectangle, an offscreen pass, the
/// signature of a group's subtree, its extent).
///
/// Kept on the layer (`Layer.presentedMemo`, made the first time an
/// animated layer is rendered and reused afterwards) and valid for one
/// `Compositor.render` call — its `epoch` — and one local time: a layer
/// drawn at several times in one frame (the instances of a replicator with
/// an instance delay) is evaluated once per time it is asked for in a row.
/// Render-side state: only the compositor rendering the layer touches it.
final class PresentationMemo {
    var epoch: UInt64 = 0
    var time: MediaTime = 0
    var values: PresentationValues

    init(_ values: PresentationValues) { self.values = values }
}

/// Every `Compositor.render` call takes the next number: memos from an
/// earlier frame, or another compositor's, never match. 0 means "not
/// rendering" (hit tests and transition images evaluate without memos).
private let renderEpochs = Atomic<UInt64>(0)

extension Compositor {
    /// A number no other `render` call (or compositor: `surveyToken`) has
    /// had (odd, so never 0). Doubled before the low bit is set: `n | 1`
    /// gave two consecutive calls the same number (2k and 2k + 1).
    static func nextEpoch() -> UInt64 {
        renderEpochs.wrappingAdd(1, ordering: .relaxed).newValue &<< 1 | 1
    }

    /// The presentation values of `layer` at its local time `t`: from its
    /// memo when this frame already evaluated them at `t`, otherwise
    /// evaluated (counted in `statistics.animationEvaluations` when the
    /// layer has animations) and memoised for the rest of the frame.
    func presentationValues(of layer: Layer, at t: MediaTime) -> PresentationValues {
        guard !layer.animations.isEmpty else { return PresentationValues(modelOf: layer) }
        surveyVaries = true     // the survey of a subtree holding this layer depends on time
        if evaluationEpoch != 0, let memo = layer.presentedMemo, memo.epoch == evaluationEpoch, memo.time == t {
            return memo.values
        }
        let p = PresentationValues(layer, at: t, scratch: &scratch.animationValues)
        statistics.animationEvaluations += 1
        guard evaluationEpoch != 0, writesPresentationMemos else { return p }
        if let memo = layer.presentedMemo {
            memo.values = p
            memo.epoch = evaluationEpoch
            memo.time = t
        } else {
            let memo = PresentationMemo(p)
            memo.epoch = evaluationEpoch
            memo.time = t
            layer.presentedMemo = memo
        }
        return p
    }
}
