/// Figures the render loop keeps per frame, readable at any time through
/// `RenderLoop.statistics` (a copy taken under the loop's lock).
public struct RenderLoopStatistics: Equatable, Sendable {
    /// Frames rendered and handed to the presenter.
    public var framesRendered = 0
    /// Frames that reached the screen (flip events, and the first modeset).
    public var framesShown = 0
    /// Flips refused with EBUSY (the frame is rendered again next time).
    public var busyRetries = 0
    /// Frames whose target time had passed when they were planned (the
    /// loop skipped to the next vblank).
    public var missedVBlanks = 0
    /// Frames that reached the screen more than half a period after their
    /// target (rendering took longer than the budget, or the display
    /// missed the vblank).
    public var lateFrames = 0
    /// Times the loop went idle (nothing animating, nothing to redraw).
    public var idleWaits = 0
    /// Flips that completed more than half a refresh period before their
    /// target: the display does not wait for vblank, so the loop holds
    /// each flip until its target time from then on.
    public var earlyFlips = 0
    /// Render-tree updates applied (at most one per frame start, each
    /// possibly carrying several commits), and the commits they carried.
    public var updatesApplied = 0
    public var commitsApplied = 0
    /// Commits refused because DRM master was taken (EACCES/EPERM); the
    /// frame is drawn again once the display is back.
    public var masterLostCommits = 0
    /// Commits that failed for another reason the presenter recovers from
    /// (`PresentError.Kind.displayLost`: connector unplugged, a failed flip
    /// retried as a modeset); nothing was queued.
    public var displayLostCommits = 0
    /// Times the display went away (`FramePresenter.ensureAccess()` turned
    /// false) and came back; turns of the loop spent waiting meanwhile.
    public var displaySuspensions = 0
    public var displayResumptions = 0
    public var suspendedWaits = 0
    /// Times the display was powered off and on (`RenderLoop.setDisplayPowered`,
    /// idle blanking), refusals of either by the driver, and turns of the
    /// loop spent waiting while off (no frame rendered or flipped in them).
    public var displayPowerOffs = 0
    public var displayPowerOns = 0
    public var displayPowerErrors = 0
    public var displayOffWaits = 0
    /// Times the presenter's size changed (a display back with another
    /// mode): the loop took a back buffer of the new size and drew the
    /// whole frame (`RenderLoop.displaySize`).
    public var displaySizeChanges = 0

    /// Time between consecutive flips of frames rendered back to back (an
    /// idle stretch or a blocking hook starts a new run), in 1 ms buckets:
    /// `intervalHistogram[k]` counts intervals in [k, k + 1) ms; the last
    /// bucket also holds everything longer.
    public var intervalHistogram = [Int](repeating: 0, count: RenderLoopStatistics.histogramBuckets)
    public var intervalCount = 0
    /// Refreshes the screen went through without a new frame, seen from
    /// the flip timestamps of frames rendered back to back: an interval of
    /// k refresh periods (rounded to the nearest) counts k − 1. Where flips
    /// complete at vblank (vkms, real displays) these are the vblanks the
    /// loop missed as the screen saw them; `missedVBlanks` is the planner's
    /// own count, made before rendering.
    public var skippedRefreshes = 0
    public var intervalTotalNanoseconds: Int64 = 0
    public var shortestIntervalNanoseconds = Int64.max
    public var longestIntervalNanoseconds: Int64 = 0
    /// Rendering time (compositor only), the longest seen, in nanoseconds.
    public var longestRenderNanoseconds: Int64 = 0
    public var renderTotalNanoseconds: Int64 = 0

    public static let histogramBuckets = 101

    public init() {}

    /// Records the time between two flips, `ns`; with a refresh period
    /// (ns, > 0) also the refreshes skipped between them.
    mutating func recordInterval(_ ns: Int64, period: Int64 = 0) {
        intervalCount += 1
        if period > 0 && ns > 0 {
            // Periods to the nearest, halves up; no overflow for any ns.
            let periods = ns / period + (ns % period >= period - ns % period ? 1 : 0)
            let (sum, overflow) = skippedRefreshes.addingReportingOverflow(Int(clamping: max(0, periods - 1)))
            skippedRefreshes = overflow ? Int.max : sum
        }
        intervalTotalNanoseconds += ns
        shortestIntervalNanoseconds = min(shortestIntervalNanoseconds, ns)
        longestIntervalNanoseconds = max(longestIntervalNanoseconds, ns)
        let bucket = Int(min(max(0, ns / 1_000_000), Int64(RenderLoopStatistics.histogramBuckets - 1)))
        intervalHistogram[bucket] += 1
    }

    public var meanIntervalNanoseconds: Int64 { intervalCount == 0 ? 0 : intervalTotalNanoseconds / Int64(intervalCount) }

    /// "16 ms ×58, 17 ms ×2" — the non-empty buckets.
    public var histogramDescription: String {
        var parts: [String] = []
        for (k, n) in intervalHistogram.enumerated() where n > 0 {
            let label = k == RenderLoopStatistics.histogramBuckets - 1 ? "≥\(k) ms" : "\(k) ms"
            parts.append("\(label) ×\(n)")
        }
        return parts.isEmpty ? "(no intervals)" : parts.joined(separator: ", ")
    }

    /// One line for logs: counts, then min/mean/max interval and render time.
    public var summary: String {
        let renders = framesRendered == 0 ? 0 : renderTotalNanoseconds / Int64(framesRendered)
        return "\(framesRendered) frames rendered, \(framesShown) shown, \(busyRetries) EBUSY, \(missedVBlanks) missed vblanks, \(skippedRefreshes) skipped refreshes, \(lateFrames) late, "
            + "\(idleWaits) idle waits, \(earlyFlips) early flips; intervals "
            + (intervalCount == 0 ? "none"
               : "min \(formatMilliseconds(shortestIntervalNanoseconds)) mean \(formatMilliseconds(meanIntervalNanoseconds)) max \(formatMilliseconds(longestIntervalNanoseconds))")
            + "; render mean \(formatMilliseconds(renders)) max \(formatMilliseconds(longestRenderNanoseconds))"
    }
}

/// Nanoseconds as milliseconds with two decimals ("16.67 ms"), without
/// printing a Double (Embedded Swift cannot).
public func formatMilliseconds(_ ns: Int64) -> String {
    let hundredths = (ns + 5_000) / 10_000
    let fraction = hundredths % 100
    return "\(hundredths / 100)." + (fraction < 10 ? "0" : "") + "\(fraction) ms"
}
