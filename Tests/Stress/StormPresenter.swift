import FBRuntime
import Raster

/// A display in memory that lets the render loop go as fast as it can: a
/// short refresh period (1 ms by default) on the real monotonic clock, and
/// flips that complete as soon as they are queued (as on virtio-gpu, so the
/// loop holds each one until its target). The frame on screen is kept as
/// XRGB8888, copied by damage like `KMSPresenter` and `SimulatedPresenter`,
/// so a damage that misses a change shows on `screen`.
///
/// Threading: used by the render thread only; `screen` may be read by
/// another thread once the loop has stopped.
final class StormPresenter: FramePresenter {
    let width: Int
    let height: Int
    let refreshIntervalNanoseconds: Int64
    let flipsWaitForVBlank = false
    let screen: Surface<XRGB8888>
    private(set) var isFlipPending = false
    private var prepared: PixelView<ARGB8888>?
    private var preparedDamage = IntRect.zero
    private var isModeSet = false

    init?(width: Int, height: Int, refreshIntervalNanoseconds: Int64) {
        guard let screen = Surface<XRGB8888>(width: width, height: height), refreshIntervalNanoseconds > 0 else { return nil }
        self.width = width
        self.height = height
        self.refreshIntervalNanoseconds = refreshIntervalNanoseconds
        self.screen = screen
    }

    func prepare(_ frame: PixelView<ARGB8888>, damage: IntRect, pieces: DamageList?) {
        precondition(!isFlipPending, "StormPresenter: a flip is pending")
        prepared = frame
        preparedDamage = damage.intersection(IntRect(x: 0, y: 0, width: width, height: height))
    }

    func commit() throws(PresentError) -> PresentOutcome {
        guard let frame = prepared else { preconditionFailure("StormPresenter: commit without a prepared frame") }
        prepared = nil
        ScanoutConversion.copy(frame, into: screen.view, rect: preparedDamage)
        if !isModeSet {
            isModeSet = true
            return .shown(timestamp: System.monotonicNanoseconds())
        }
        isFlipPending = true
        return .flipQueued
    }

    func waitForFlip(timeoutNanoseconds: Int64) throws(PresentError) -> Int64 {
        precondition(isFlipPending, "StormPresenter: no flip to wait for")
        isFlipPending = false
        return System.monotonicNanoseconds()
    }
}
