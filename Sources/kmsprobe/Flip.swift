import CDRM
import CPosix

/// What the page-flip event handler records: set by drmHandleEvent's
/// callback, read by `Flipper.flip` (same thread).
private struct FlipEvent {
    var done = false
    var sequence: UInt32 = 0
    var seconds: UInt32 = 0
    var microseconds: UInt32 = 0
}

/// Queues one page flip at a time and waits for its completion event.
/// A second flip is never queued while one is pending, and every wait has
/// a timeout.
final class Flipper {
    let card: Card
    let crtcID: UInt32
    private let event = UnsafeMutablePointer<FlipEvent>.allocate(capacity: 1)
    private var context = drmEventContext()

    init(card: Card, crtcID: UInt32) {
        self.card = card
        self.crtcID = crtcID
        event.initialize(to: FlipEvent())
        context.version = 2
        context.page_flip_handler = { _, sequence, seconds, microseconds, userData in
            guard let e = userData?.assumingMemoryBound(to: FlipEvent.self) else { return }
            e.pointee = FlipEvent(done: true, sequence: sequence, seconds: seconds, microseconds: microseconds)
        }
    }

    deinit { event.deallocate() }

    /// Flips `crtcID` to `framebufferID` and waits for the flip event.
    /// Returns the time from queueing the flip to handling its event, in
    /// nanoseconds, and the event's kernel timestamp in microseconds.
    func flip(to framebufferID: UInt32, timeoutMilliseconds: Int32 = 2_000) throws(ProbeError) -> (latency: Int64, timestamp: UInt64) {
        event.pointee = FlipEvent()
        let start = fbr_monotonic_ns()
        let r = drmModePageFlip(card.fd, crtcID, framebufferID, UInt32(DRM_MODE_PAGE_FLIP_EVENT), UnsafeMutableRawPointer(event))
        let e = drmErrno(r)
        if e != 0 { throw ProbeError("drmModePageFlip to framebuffer \(framebufferID)", errno: e) }
        let deadline = start + Int64(timeoutMilliseconds) * 1_000_000
        while !event.pointee.done {
            let left = Int32(max(0, (deadline - fbr_monotonic_ns()) / 1_000_000))
            var revents: Int16 = 0
            let p = fbr_poll1(card.fd, Int16(POLLIN), left, &revents)
            if p < 0 && fbr_errno() == EINTR { continue }
            if p < 0 { throw ProbeError("poll on the DRM device", errno: fbr_errno()) }
            if p == 0 { throw ProbeError("no page-flip event within \(timeoutMilliseconds) ms") }
            let h = drmHandleEvent(card.fd, &context)
            if h != 0 { throw ProbeError("drmHandleEvent", errno: drmErrno(h)) }
        }
        let e2 = event.pointee
        return (fbr_monotonic_ns() - start, UInt64(e2.seconds) * 1_000_000 + UInt64(e2.microseconds))
    }
}
