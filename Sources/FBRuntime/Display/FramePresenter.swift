import CPosix
import Raster

/// What happened to a presented frame.
public enum PresentOutcome: Equatable, Sendable {
    /// A page flip is queued; its event (`waitForFlip`) says when the frame
    /// reached the screen.
    case flipQueued
    /// The frame is on screen already (the first frame, shown by a modeset,
    /// has no flip event), since `timestamp` (monotonic nanoseconds).
    case shown(timestamp: Int64)
}

/// Puts finished frames on a screen, one flip at a time: the render loop's
/// view of a display (the KMS backend, or `SimulatedPresenter` in tests).
///
/// Threading: used by one thread at a time (the render thread).
/// Invariant: at most one flip is pending; `present` must not be called
/// while `isFlipPending`.
public protocol FramePresenter: AnyObject {
    /// The size of the frames it takes, in pixels (the panel's mode turned
    /// by the presenter's rotation). It may change only inside
    /// `ensureAccess()`, when the display came back with another mode
    /// (`KMSPresenter`); the render loop reads it after each call and
    /// renders the next frame whole at the new size.
    var width: Int { get }
    var height: Int { get }
    /// One refresh period of the display mode, in nanoseconds.
    var refreshIntervalNanoseconds: Int64 { get }
    /// True when a flip completes at a vblank, so the display paces the
    /// frames; false when it completes as soon as it is queued (virtio-gpu,
    /// bochs), so the caller must hold each flip until its target time.
    var flipsWaitForVBlank: Bool { get }
    /// True between a `.flipQueued` present and the matching `waitForFlip`.
    var isFlipPending: Bool { get }
    /// Copies `damage` of `frame` (ordinary, cached memory, the screen's
    /// size) to a free scan-out buffer, adding whatever that buffer missed
    /// since it last held a frame (free → rendering). Nothing is shown yet.
    /// `pieces`, when the caller has them (`Compositor.damage`), are the
    /// disjoint rectangles inside `damage` that changed: a presenter may
    /// copy each instead of their bounding box. Callers use
    /// `prepare(_:damage:)` with a rectangle or a `DamageList`; a presenter
    /// with a `ScanoutBufferRing` hands both to its `prepare`, which
    /// decides what each buffer gets.
    func prepare(_ frame: PixelView<ARGB8888>, damage: IntRect, pieces: DamageList?)
    /// Shows the prepared buffer: a modeset for the first frame, else a
    /// page flip with an event (rendering → queued). Split from `prepare`
    /// so a caller that holds flips until a target time can do the copy
    /// first and queue the flip right at the target.
    /// - Throws: `PresentError` of kind `.busy` (nothing queued; the
    ///   buffer is free again; try next frame), `.masterLost` or
    ///   `.displayLost` (nothing queued; `ensureAccess()` says when the
    ///   display is back) or another kind for a failure.
    func commit() throws(PresentError) -> PresentOutcome
    /// Waits at most `timeoutNanoseconds` for the pending flip's event and
    /// returns its timestamp (monotonic nanoseconds: when the new frame
    /// started to scan out). Throws `.timedOut` if it did not come.
    func waitForFlip(timeoutNanoseconds: Int64) throws(PresentError) -> Int64
    /// True when a frame may be presented now; false while the display is
    /// someone else's (DRM master lost, VT switched away). Called before
    /// each frame, with no flip pending; may try to take the display back
    /// (a presenter that does starts again with a modeset and the whole
    /// frame), or follow a display that came back with another mode
    /// (`width` and `height` change; the next commit is a modeset). The
    /// default: always true.
    func ensureAccess() -> Bool
    /// Turns the display's output off (`false`: KMS CRTC ACTIVE = 0 or
    /// DPMS off; the panel goes dark and scans out nothing) or on again
    /// (`true`). Called by the render loop between frames, never with a
    /// flip pending; while off the loop presents nothing. After turning
    /// on, the next `commit` shows the whole frame (KMS: a modeset), as
    /// after a reconnection. A presenter that cannot power its display
    /// treats it as a no-op (the default: headless, the simulator window).
    /// - Throws: `PresentError` when the driver refuses; the loop stays
    ///   off regardless (nothing is drawn for a screen meant to be dark).
    func setDisplayPower(_ on: Bool) throws(PresentError)
}

extension FramePresenter {
    public func ensureAccess() -> Bool { true }

    public func setDisplayPower(_ on: Bool) throws(PresentError) {}

    /// `damage` of `frame` to a free scan-out buffer (see the requirement).
    public func prepare(_ frame: PixelView<ARGB8888>, damage: IntRect) {
        prepare(frame, damage: damage, pieces: nil)
    }

    /// The disjoint rectangles of `damage` to a free scan-out buffer.
    public func prepare(_ frame: PixelView<ARGB8888>, damage: DamageList) {
        prepare(frame, damage: damage.boundingBox, pieces: damage)
    }

    /// `prepare` then `commit`.
    public func present(_ frame: PixelView<ARGB8888>, damage: IntRect) throws(PresentError) -> PresentOutcome {
        prepare(frame, damage: damage)
        return try commit()
    }
}

/// The time base of the render loop: monotonic nanoseconds, and sleeping
/// until a moment. Real displays use `MonotonicFrameTime`; tests a
/// simulated one that advances without waiting.
public protocol FrameTimeSource: AnyObject {
    func nanoseconds() -> Int64
    /// Returns at `deadline` or soon after (at once if it has passed).
    func sleep(untilNanoseconds deadline: Int64)
}

/// CLOCK_MONOTONIC, the clock of DRM's flip timestamps.
public final class MonotonicFrameTime: FrameTimeSource {
    public init() {}
    public func nanoseconds() -> Int64 { System.monotonicNanoseconds() }
    public func sleep(untilNanoseconds deadline: Int64) {
        let left = deadline - System.monotonicNanoseconds()
        if left > 0 { fbr_sleep_ns(left) }
    }
}
