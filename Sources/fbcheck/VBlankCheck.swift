import FBRuntime

/// `--max-missed-vblanks N` (scripts/vm-test's vkms boot): the page-flip
/// events of one run, frame 2 on (frame 1 is shown by the modeset, which has
/// no event), each with the kernel's timestamp and the CRTC's vblank
/// counter, recorded on the render thread (`onFrameShown`) into storage
/// reserved up front: no allocation per frame.
///
/// Every logged frame is rendered back to back with the one before (the
/// orbit scene's animations repeat forever), so each interval between two
/// logged flips is one refresh period unless a vblank went by without a new
/// frame. The check counts those missed vblanks twice, independently of the
/// render loop's own statistics: from the timestamps (an interval of k
/// periods, rounded, misses k − 1) and from the vblank counter (a step of
/// k misses k − 1).
final class FlipLog {
    private(set) var timestamps: [Int64] = []
    private(set) var sequences: [UInt32] = []
    let capacity: Int

    init(capacity: Int) {
        self.capacity = max(0, capacity)
        timestamps.reserveCapacity(self.capacity)
        sequences.reserveCapacity(self.capacity)
    }

    /// Render thread. Flips beyond the capacity are not logged.
    func record(timestamp: Int64, sequence: UInt32) {
        guard timestamps.count < capacity else { return }
        timestamps.append(timestamp)
        sequences.append(sequence)
    }
}

/// Prints the flip intervals of `log` (a histogram in 1 ms buckets, the
/// mean and the rate) and the missed vblanks by both counts, with a
/// VMTEST-CHECK line; returns 1 if either count is above `maxMissed`, if the
/// display's flips do not wait for vblank (nothing to count), or if fewer
/// than two flips were logged.
/// - Parameter period: the mode's refresh period, ns.
func vblankCheck(_ log: FlipLog, period: Int64, flipsWaitForVBlank: Bool, maxMissed: Int) -> Int32 {
    guard flipsWaitForVBlank else {
        print("VMTEST-CHECK FAIL fbcheck vblank pacing: this display's flips do not wait for vblank (no vblank interrupt): nothing to count")
        return 1
    }
    let t = log.timestamps, s = log.sequences
    guard t.count >= 2, period > 0 else {
        print("VMTEST-CHECK FAIL fbcheck vblank pacing: \(t.count) flip events logged, too few to time")
        return 1
    }
    var histogram = [Int](repeating: 0, count: RenderLoopStatistics.histogramBuckets)
    var missedByTime = 0, missedByCounter = 0
    var shortest = Int64.max, longest: Int64 = 0
    var counterSteps: Int64 = 0
    var missedAt: [String] = []   // "flip 123 (+2)": where, and how many
    for i in 1..<t.count {
        let interval = t[i] - t[i - 1]
        shortest = min(shortest, interval)
        longest = max(longest, interval)
        histogram[Int(min(max(0, interval / 1_000_000), Int64(histogram.count - 1)))] += 1
        // Periods to the nearest, halves up.
        let r = interval % period
        let periods = interval / period + (r >= period - r ? 1 : 0)
        missedByTime += Int(clamping: max(0, periods - 1))
        let step = Int64(s[i] &- s[i - 1])   // the counter wraps at 2³²
        counterSteps += step
        missedByCounter += Int(clamping: max(0, step - 1))
        if periods > 1 || step > 1 {
            // Frame numbers as the loop counts them: the log starts at frame 2.
            missedAt.append("frame \(i + 2) (\(formatMilliseconds(interval)), counter +\(step))")
        }
    }
    let intervals = t.count - 1
    let mean = (t[t.count - 1] - t[0]) / Int64(intervals)
    var buckets: [String] = []
    for (k, n) in histogram.enumerated() where n > 0 {
        buckets.append((k == histogram.count - 1 ? "≥\(k) ms" : "\(k) ms") + " ×\(n)")
    }
    print("fbcheck: vblank pacing: \(t.count) flip events, \(intervals) intervals over \(counterSteps) vblanks of the CRTC's counter; "
          + "refresh period \(formatMilliseconds(period)) (\(formatHertz(period))); intervals min \(formatMilliseconds(shortest)) "
          + "mean \(formatMilliseconds(mean)) (\(formatHertz(mean))) max \(formatMilliseconds(longest))")
    print("fbcheck: vblank pacing: flip intervals (page-flip event timestamps): \(buckets.joined(separator: ", "))")
    print("fbcheck: vblank pacing: missed vblanks: \(missedByTime) by the timestamps, \(missedByCounter) by the vblank counter (at most \(maxMissed) allowed)")
    if !missedAt.isEmpty {
        print("fbcheck: vblank pacing: late flips: \(missedAt.joined(separator: ", "))")
    }
    if missedByTime != missedByCounter {
        print("fbcheck: vblank pacing: warning: the two counts differ (timestamps off the vblank grid: jitter in the guest's timers)")
    }
    let passed = missedByTime <= maxMissed && missedByCounter <= maxMissed
    print("VMTEST-CHECK \(passed ? "PASS" : "FAIL") fbcheck vblank pacing: \(t.count) flips, mean \(formatMilliseconds(mean)) (\(formatHertz(mean))), "
          + "missed vblanks \(missedByTime) (timestamps) / \(missedByCounter) (counter), at most \(maxMissed) allowed")
    return passed ? 0 : 1
}

/// A period in ns as a rate with two decimals ("60.00 Hz"), without printing
/// a Double (Embedded Swift cannot).
func formatHertz(_ periodNanoseconds: Int64) -> String {
    guard periodNanoseconds > 0 else { return "– Hz" }
    let centihertz = (100_000_000_000 + periodNanoseconds / 2) / periodNanoseconds
    let fraction = centihertz % 100
    return "\(centihertz / 100)." + (fraction < 10 ? "0" : "") + "\(fraction) Hz"
}
