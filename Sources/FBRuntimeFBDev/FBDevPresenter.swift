import CPosix
import FBRuntime
import Raster

/// Shows frames on an fbdev framebuffer (`/dev/fbN`), the fallback for
/// boards without KMS.
///
/// Two strategies, chosen from what the driver gives (`FBDevice.canPan`):
/// - **panning**: two buffers stacked in the virtual screen (`yres_virtual
///   ≥ 2·yres`); a frame's damage (plus what the buffer missed since it
///   last held a frame) is copied into the hidden one, and FBIOPAN_DISPLAY
///   flips to it. The same buffer states as `KMSPresenter` (free →
///   rendering → queued → onScreen), one flip at a time.
/// - **copy**: one buffer, the visible one; the damage is copied straight
///   into it (tearing is possible; there is nothing to flip to).
///
/// Pacing: where FBIO_WAITFORVSYNC really waits (`FBDevice.probeVSync`;
/// DRM's fbdev emulation returns at once on drivers without vblank
/// interrupts), a flip completes at the next vblank (`flipsWaitForVBlank`);
/// elsewhere it completes at once and the render loop holds each one until its target time, a refresh
/// period apart (`FBMode.refreshIntervalNanoseconds`: the mode timings, or
/// 60 Hz).
///
/// Rotation is applied while copying (`ScanoutRotation`), so the frame
/// size is the mode's turned by `rotation`.
///
/// Display power (`setDisplayPower`, idle blanking): FBIOBLANK powerdown
/// and unblank (`FramebufferDevice.setBlanked`). A driver may lose the
/// framebuffer's pixels meanwhile (QEMU's bochs clears its video memory
/// when the mode is enabled again: seen in the VM as a black screen after
/// the unblank), so after an unblank every buffer takes the whole frame,
/// as `KMSPresenter` does. `close()` unblanks before giving the screen
/// back.
///
/// Threading: one thread at a time (the render thread).
public final class FBDevPresenter: FramePresenter {
    public enum Strategy: Equatable, Sendable {
        case panning
        case copy
    }

    public let device: any FramebufferDevice
    public let strategy: Strategy
    public let rotation: ScanoutRotation
    /// Probed at the first commit (FBIO_WAITFORVSYNC); true until then.
    public private(set) var flipsWaitForVBlank = true
    /// The buffers' states, stale areas and the pending flip: two
    /// flipping buffers when panning, one in place when copying.
    public private(set) var ring: ScanoutBufferRing
    public var bufferStates: [ScanoutBufferState] { ring.states }
    public var pageFlipState: PageFlipState { ring.flipState }
    /// Always 0: panning does not fail with EBUSY (kept for the same
    /// figures as `KMSPresenter`).
    public let busyCount = 0

    private let time: FrameTimeSource
    private var isShown = false
    private var isClosed = false
    /// True between `setDisplayPower(false)` and `setDisplayPower(true)`.
    public private(set) var isBlanked = false

    public var width: Int { rotation.frameWidth }
    public var height: Int { rotation.frameHeight }
    public var refreshIntervalNanoseconds: Int64 { device.mode.refreshIntervalNanoseconds }
    public var isFlipPending: Bool { pageFlipState == .waitingForFlip }

    /// Uses `device`, panning when it can and `allowPanning`, else copying.
    /// `time`: the clock of the flip timestamps (CLOCK_MONOTONIC; tests
    /// pass a simulated one).
    public init(device: any FramebufferDevice, rotation: DisplayRotation = .none, allowPanning: Bool = true,
                time: FrameTimeSource = MonotonicFrameTime()) {
        self.device = device
        self.time = time
        strategy = allowPanning && device.canPan ? .panning : .copy
        self.rotation = ScanoutRotation(rotation, panelWidth: device.mode.width, panelHeight: device.mode.height)
        ring = ScanoutBufferRing(count: strategy == .panning ? 2 : 1,
                                 width: self.rotation.frameWidth, height: self.rotation.frameHeight)
    }

    deinit { close() }

    /// Copies each damage rectangle of `pieces` (not their bounding box)
    /// when the buffer's stale area does not already cover them.
    public func prepare(_ frame: PixelView<ARGB8888>, damage: IntRect, pieces: DamageList?) {
        precondition(!isClosed, "FBDevPresenter: prepare after close")
        precondition(frame.width == width && frame.height == height, "FBDevPresenter: frame size differs from the mode")
        ring.prepare(damage: damage, pieces: pieces) { index, area in copy(frame, area, into: index) }
    }

    private func copy(_ frame: PixelView<ARGB8888>, _ area: IntRect, into index: Int) {
        guard !area.isEmpty else { return }
        switch device.mode.format {
        case .xrgb8888: rotation.copy(frame, area, into: device.xrgbView(buffer: index))
        case .rgb565: rotation.copy(frame, area, into: device.rgb565View(buffer: index))
        }
    }

    public func commit() throws(PresentError) -> PresentOutcome {
        guard let index = ring.renderingIndex else {
            preconditionFailure("FBDevPresenter: commit without a prepared frame")
        }
        if strategy == .panning {
            do { try device.pan(toY: index * device.mode.height) } catch {
                ring.commitFailed()
                throw error
            }
        }
        if !isShown {
            isShown = true
            // Whether the driver's vblank waits really wait (two of them).
            flipsWaitForVBlank = device.probeVSync()
            ring.shown()
            return .shown(timestamp: time.nanoseconds())
        }
        ring.queued()
        return .flipQueued
    }

    /// With vblank waits, the next vblank (the pan is latched there, the
    /// copy shown by then); without, at once.
    public func waitForFlip(timeoutNanoseconds: Int64) throws(PresentError) -> Int64 {
        precondition(pageFlipState == .waitingForFlip, "FBDevPresenter: no flip to wait for")
        if flipsWaitForVBlank { _ = try device.waitForVSync(timeoutNanoseconds: timeoutNanoseconds) }
        let timestamp = time.nanoseconds()
        ring.flipCompleted()
        return timestamp
    }

    /// Blanks (off) or unblanks (on) the display; never with a flip pending.
    public func setDisplayPower(_ on: Bool) throws(PresentError) {
        precondition(!isClosed, "FBDevPresenter: display power after close")
        precondition(pageFlipState != .waitingForFlip, "FBDevPresenter: display power changed with a flip pending")
        guard on == isBlanked else { return }
        try device.setBlanked(!on)
        isBlanked = !on
        if on { ring.invalidateAll() }
    }

    /// Waits for a pending flip (up to 1 s), unblanks a blanked display,
    /// then restores the var screen info found at open (pan offset,
    /// console mode). Idempotent.
    public func close() {
        guard !isClosed else { return }
        isClosed = true
        if pageFlipState == .waitingForFlip { _ = try? waitForFlip(timeoutNanoseconds: 1_000_000_000) }
        if isBlanked { try? device.setBlanked(false); isBlanked = false }
        device.restore()
    }
}
