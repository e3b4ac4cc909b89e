import CDRM
import CPosix
import FBRuntime

/// What the page-flip handler records (drmHandleEvent calls it on the
/// thread that waits, so no synchronisation is needed).
private struct FlipEventRecord {
    var done = false
    var seconds: UInt32 = 0
    var microseconds: UInt32 = 0
    var sequence: UInt32 = 0
}

/// The completion event of one page flip at a time on a DRM device: `arm()`
/// gives the user-data pointer to queue the flip with, `wait` polls the
/// device and dispatches with drmHandleEvent until the event comes or the
/// timeout passes (never an unbounded poll).
///
/// Threading: arm and wait on one thread.
public final class PageFlipEvents {
    public let device: DRMDevice
    private let record = UnsafeMutablePointer<FlipEventRecord>.allocate(capacity: 1)
    private var context = drmEventContext()

    public init(device: DRMDevice) {
        self.device = device
        record.initialize(to: FlipEventRecord())
        context.version = 2
        context.page_flip_handler = { _, sequence, seconds, microseconds, userData in
            guard let r = userData?.assumingMemoryBound(to: FlipEventRecord.self) else { return }
            r.pointee = FlipEventRecord(done: true, seconds: seconds, microseconds: microseconds, sequence: sequence)
        }
    }

    deinit { record.deallocate() }

    /// The CRTC's vblank counter at the last flip event `wait` returned (the
    /// kernel's `sequence`; counts only where the driver has vblank
    /// interrupts, and wraps at 2³²). Its differences between flips are the
    /// driver's own count of the vblanks in between.
    public var lastSequence: UInt32 { record.pointee.sequence }
    /// The timestamp of the last flip event `wait` returned (what it
    /// returned: CLOCK_MONOTONIC ns).
    public var lastTimestamp: Int64 { Int64(record.pointee.seconds) * 1_000_000_000 + Int64(record.pointee.microseconds) * 1_000 }

    /// Forgets the last event; returns the pointer to pass as the flip's
    /// user data.
    public func arm() -> UnsafeMutableRawPointer {
        record.pointee = FlipEventRecord()
        return UnsafeMutableRawPointer(record)
    }

    /// Waits for the armed flip's event and returns its timestamp: when the
    /// new framebuffer started to scan out, CLOCK_MONOTONIC nanoseconds
    /// (the kernel's tv_sec/tv_usec).
    public func wait(timeoutNanoseconds: Int64) throws(KMSError) -> Int64 {
        let fd = device.fd
        let deadline = System.monotonicNanoseconds() + timeoutNanoseconds
        while !record.pointee.done {
            let leftMs = Int32(clamping: max(0, (deadline - System.monotonicNanoseconds() + 999_999) / 1_000_000))
            var revents: Int16 = 0
            let p = fbr_poll1(fd, Int16(POLLIN), leftMs, &revents)
            if p < 0 && fbr_errno() == EINTR { continue }
            if p < 0 { throw KMSError.call("poll on \(device.path)", errno: fbr_errno()) }
            if p == 0 {
                if System.monotonicNanoseconds() < deadline { continue }
                throw KMSError(.timedOut, "no page-flip event within \(timeoutNanoseconds / 1_000_000) ms")
            }
            let h = drmHandleEvent(fd, &context)
            if h != 0 { throw KMSError.call("drmHandleEvent", errno: drmErrno(h)) }
        }
        return lastTimestamp
    }
}
