import FBRuntime
import FBRuntimeKMS

/// Queues one page flip at a time (FBRuntime's legacy commit) and waits for
/// its completion event (FBRuntime's `PageFlipEvents`, with a timeout).
final class Flipper {
    let output: KMSOutput
    private let committer = LegacyKMSCommitter()
    private let events: PageFlipEvents

    init(output: KMSOutput) {
        self.output = output
        events = PageFlipEvents(device: output.device)
    }

    /// Flips to `framebufferID` and waits for the flip event. Returns the
    /// time from queueing the flip to handling its event, and the event's
    /// kernel timestamp, both in nanoseconds.
    func flip(to framebufferID: UInt32, timeoutMilliseconds: Int64 = 2_000) throws(KMSError) -> (latency: Int64, timestamp: Int64) {
        let start = System.monotonicNanoseconds()
        try committer.pageFlip(output, framebufferID: framebufferID, userData: events.arm())
        let timestamp = try events.wait(timeoutNanoseconds: timeoutMilliseconds * 1_000_000)
        return (System.monotonicNanoseconds() - start, timestamp)
    }
}
