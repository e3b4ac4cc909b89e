import FBRuntime
import Raster
import Synchronization

/// A `FramePresenter` for the desktop simulator's window (the app shell's
/// through `CAppShell`, and fbsim's own SDL window).
///
/// The render thread never calls SDL (SDL's video functions and Xlib belong
/// to the thread that made the window, the app thread here): `commit`
/// copies the frame's damage into `scanout`, an XRGB8888 buffer in
/// ordinary memory standing in for a KMS dumb buffer, adds it to the area
/// the window has not seen, and wakes the app thread (`onCommit`, which
/// pushes an SDL event, thread-safe). The app thread then uploads that
/// area into the window's texture and presents it (`upload(_:)`).
///
/// Pacing: the "flip" completes when it is committed, as on virtio-gpu, so
/// `flipsWaitForVBlank` is false and `RenderLoop` holds each commit until
/// its target time — frames at most one refresh period apart (the board's
/// mode or 60 Hz). The window shows a frame at the app thread's next turn
/// after its commit: while the app thread is blocked the render loop goes
/// on and the window shows the latest frame afterwards.
///
/// Sizes: `width` × `height` are the frame's, in UI pixels; the window
/// shows the frame as the app lays it out (no board rotation).
public final class SimWindowPresenter: FramePresenter {
    public let width: Int
    public let height: Int
    public let refreshIntervalNanoseconds: Int64
    public let flipsWaitForVBlank = false
    public var isFlipPending: Bool { ring.isFlipPending }
    /// Called on the render thread after a commit when the app thread has
    /// not uploaded since the last call (one wake-up per upload, however
    /// long the app thread is away).
    public var onCommit: () -> Void = {}
    /// True from a wake-up until the app thread's next upload.
    private let wakePending = Atomic<Bool>(false)

    /// The frame last committed, XRGB8888 (SDL's RGB888: 0x00RRGGBB).
    private let scanout: Surface<XRGB8888>
    /// `scanout`'s state: one buffer, written in place.
    private var ring: ScanoutBufferRing
    /// Guards `scanout` and `unseen`.
    private let lock = Lock()
    /// What changed in `scanout` since the window last uploaded it.
    private var unseen = IntRect.zero
    private var held = HeldFrame()
    private var hasShownFirst = false

    /// nil if the buffer cannot be allocated. `refreshMillihertz` ≤ 0
    /// counts as 60 Hz.
    public init?(width: Int, height: Int, refreshMillihertz: Int) {
        guard let scanout = Surface<XRGB8888>(width: width, height: height) else { return nil }
        self.width = width
        self.height = height
        self.scanout = scanout
        ring = ScanoutBufferRing(count: 1, width: width, height: height)
        refreshIntervalNanoseconds = 1_000_000_000_000 / Int64(refreshMillihertz > 0 ? refreshMillihertz : 60_000)
    }

    public func prepare(_ frame: PixelView<ARGB8888>, damage: IntRect, pieces: DamageList?) {
        precondition(!isFlipPending, "SimWindowPresenter: a flip is pending; wait for it before presenting")
        precondition(frame.width == width && frame.height == height, "SimWindowPresenter: frame size differs")
        held.hold(frame, damage: damage, pieces: pieces)
    }

    /// Copies the prepared damage into the scan-out buffer (the frame stays
    /// valid until the next render, after `waitForFlip`).
    public func commit() throws(PresentError) -> PresentOutcome {
        guard let frame = held.take() else { preconditionFailure("SimWindowPresenter: commit without a prepared frame") }
        lock.withLock {
            _ = ring.prepare(damage: held.damage, pieces: held.pieces) { _, area in
                ScanoutConversion.copy(frame, into: scanout.view, rect: area)
                unseen = unseen.isEmpty ? area : unseen.union(area)
            }
        }
        if !wakePending.exchange(true, ordering: .acquiringAndReleasing) { onCommit() }
        let now = System.monotonicNanoseconds()
        if !hasShownFirst {
            hasShownFirst = true
            ring.shown()
            return .shown(timestamp: now)
        }
        ring.queued()
        return .flipQueued
    }

    /// Returns at once: the flip completed when it was committed.
    public func waitForFlip(timeoutNanoseconds: Int64) throws(PresentError) -> Int64 {
        precondition(isFlipPending, "SimWindowPresenter: no flip to wait for")
        ring.flipCompleted()
        return System.monotonicNanoseconds()
    }

    /// App thread: hands what changed since the last call to `show` (the
    /// XRGB8888 frame, its row stride in pixels, the changed rectangle), to
    /// copy into the window. Returns false (and calls nothing) when nothing
    /// changed.
    public func upload(_ show: (UnsafePointer<UInt32>, Int, IntRect) -> Void) -> Bool {
        // Cleared first: a commit after this point wakes the app thread again.
        wakePending.store(false, ordering: .releasing)
        return lock.withLock {
            guard !unseen.isEmpty else { return false }
            show(UnsafePointer(scanout.pixels), scanout.rowStride, unseen)
            unseen = .zero
            return true
        }
    }
}
