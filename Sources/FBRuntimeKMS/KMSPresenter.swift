import CDRM
import CPosix
import FBRuntime
import Seat
import Raster

/// Shows frames on one KMS output through double- or triple-buffered dumb
/// buffers.
///
/// Frames are rendered elsewhere, into ordinary cached memory; `present`
/// copies the damaged area into a free dumb buffer (converting to the
/// scan-out format, dithering into RGB565), and queues a page flip with an
/// event. The first frame is shown by a modeset (then DirtyFB, for
/// virtio-gpu, which shows CPU writes only after a flip or a dirty report;
/// later frames always arrive by flip). `close()` (or deinit)
/// waits for a pending flip, then restores what the CRTC showed before.
///
/// With a committer that takes damage (`AtomicKMSCommitter`), each flip
/// names the rectangles copied into the buffer (the frame's damage plus
/// the buffer's stale area) as FB_DAMAGE_CLIPS.
///
/// DRM master (`access`, a `DisplayAccess`): a commit refused with
/// EACCES/EPERM moves to `.masterLost`; from then `ensureAccess()` (the
/// render loop asks before each frame) answers false and retries
/// drmSetMaster with a bounded back-off (`retryBackoff`), and on success
/// the next frame is a modeset with the whole frame copied. With a
/// `vtSwitcher`, a VT release drops master and acknowledges the switch
/// (`.vtReleased`), an acquire takes it back the same way. A device opened
/// through a seat manager (`DRMDevice.seat`) follows the seat's disable and
/// enable events instead, the same way; the seat's messages are read (never
/// waited for) by `ensureAccess()`, on the render thread.
///
/// Connector hotplug (`hotplugMonitor`, kernel uevents): on a DRM hotplug
/// event `ensureAccess()` reads the connector; disconnected, it moves to
/// `.disconnected` (nothing rendered; the last frame's buffers kept);
/// connected again, to `.recovering`: the next frame is a modeset with the
/// whole frame. The board's mode request is resolved again against what
/// the connector offers now (`KMSOutput.modeOnReconnection`: a pinned
/// size while offered, else the display's preferred mode); when that is
/// another mode, the presenter follows it: new dumb buffers of its size,
/// the ring, rotation and damage clips made for it, and `width` and
/// `height` change (the UI's new size: the mode turned by `rotation`),
/// which the render loop reads after `ensureAccess()` and renders for
/// (`RenderLoop`, step 6). Only if the buffers cannot be made is the old
/// mode asked for again; a driver refusing a mode keeps the presenter in
/// `.recovering`, retrying with back-off. A hotplug event while the
/// connector stays connected is followed the same way when it now asks
/// for another mode (a display swapped between two looks, a display whose
/// modes changed); the state poll, which reads only the connection, does
/// not see that.
///
/// Failed commits: EBUSY drops the frame (drawn again next period);
/// EACCES/EPERM is `.masterLost`; any other error (EINVAL, ENOSPC, EIO…)
/// probes the connector (unplugged: `.disconnected`), else moves to
/// `.recovering`: the next frame is a modeset with the whole frame, and
/// failed modesets are retried with `retryBackoff`. Both throw
/// `PresentError.Kind.displayLost`, which the render loop rides out. The
/// buffer on screen is never written, so the last good frame stays there,
/// untorn. (Before the first frame was shown, a failure is thrown as it
/// is: a mode or format the driver refuses is a configuration error.)
/// (fbcheck injects such failures with a committer that wraps the real
/// one, `FBRuntimeTesting.FaultInjectingCommitter`; the presenter has no
/// test hook.)
///
/// Display power (`setDisplayPower`, idle blanking): off is one blocking
/// commit through the committer (atomic: the CRTC's ACTIVE = 0; legacy:
/// the connector's DPMS off); nothing is committed while off. On again
/// is handled like a reconnection: the next frame is a modeset with the
/// whole frame. VT switches and hotplug are still followed while off
/// (`ensureAccess()`); `close()` powers the display on for the console.
///
/// Threading: one thread at a time (the render thread).
public final class KMSPresenter: FramePresenter {
    public let output: KMSOutput
    public let format: ScanoutFormat
    public let committer: KMSCommitter
    /// Software rotation applied while copying (`ScanoutRotation`); the
    /// frames are the UI's size, `width` × `height`.
    /// Made again for a new mode (`width`, `height` follow it).
    public private(set) var rotation: ScanoutRotation
    /// Probed after the first modeset (drmCrtcGetSequence answers only for
    /// a CRTC that is on); true until then.
    public private(set) var flipsWaitForVBlank = true
    /// The scan-out buffers' states, stale areas and the pending flip.
    public private(set) var ring: ScanoutBufferRing
    public var bufferStates: [ScanoutBufferState] { ring.states }
    public var pageFlipState: PageFlipState { ring.flipState }
    /// Flips that failed with EBUSY (the frame was dropped and retried).
    public private(set) var busyCount = 0
    /// Whether we hold the display (see the type's notes).
    public private(set) var access = DisplayAccess.active
    /// Modesets, flips, flips with damage clips, master lost and regained.
    public private(set) var statistics = KMSPresenterStatistics()
    /// Delays between drmSetMaster attempts while master is lost.
    public var retryBackoff = MasterRetryBackoff()
    /// VT switching (VT_PROCESS mode), if the program set it up; polled
    /// by `ensureAccess()`. Closed by `close()`.
    public var vtSwitcher: VTSwitcher?
    /// The seat manager's connection failed once (said once, not per frame).
    private var seatLostReported = false
    /// DRM hotplug events (made by init; nil where netlink is refused, and
    /// then an unplugged connector is noticed only by a failing commit).
    public var hotplugMonitor: HotplugMonitor?
    /// How often the presenter also reads the connector's state (one
    /// ioctl, no probe), nanoseconds: drivers without connector polling
    /// (virtio-gpu, bochs) send no hotplug uevent when a connector's state
    /// is forced through sysfs, and a board's driver may miss an unplug.
    /// While frames flow the read is made just after a flip is queued, so
    /// it overlaps the wait for the vblank (made at the start of a frame,
    /// the ioctl could hold the frame past its vblank: vkms's pacing test
    /// missed 2–3 vblanks in 600 that way); when no flip has made it for a
    /// whole interval (idle, suspended), `ensureAccess()` makes it.
    public var connectorPollNanoseconds: Int64 = 250_000_000
    private var nextConnectorPoll: Int64 = 0
    /// A read after a flip found the connector's state changed: handled by
    /// the next `ensureAccess()` (between frames, no flip pending).
    private var connectorChangePending = false

    /// Reads the connector's state when a poll is due (`late`: only when
    /// one is a whole interval overdue); true when it differs from what the
    /// access state assumes.
    private func connectorPollFindsChange(now: Int64, late: Bool) -> Bool {
        guard now >= nextConnectorPoll + (late ? connectorPollNanoseconds : 0) else { return false }
        nextConnectorPoll = now + connectorPollNanoseconds
        return output.isDisconnectedNow() != (access == .disconnected)
    }
    /// True between `setDisplayPower(false)` and `setDisplayPower(true)`.
    public private(set) var isDisplayOff = false

    private var buffers: [DumbBuffer]
    /// Per buffer, the area that changed since it last received a frame
    /// (buffer age, in effect): copied along with the next frame's damage.
    private var isModeSet = false
    private var isClosed = false
    private let events: PageFlipEvents
    /// What the prepared buffer received: FB_DAMAGE_CLIPS of its flip.
    private var damageClips: DamageClips

    /// The frame size: the mode's, turned by `rotation`.
    public var width: Int { rotation.frameWidth }
    public var height: Int { rotation.frameHeight }
    public var refreshIntervalNanoseconds: Int64 { output.refreshIntervalNanoseconds }
    public var isFlipPending: Bool { pageFlipState == .waitingForFlip }
    public var bufferCount: Int { buffers.count }
    public var framebufferIDs: [UInt32] { buffers.map { $0.framebufferID } }

    /// Creates `bufferCount` (2 or 3) dumb buffers of the output's size.
    /// Nothing is shown until the first `present`.
    public init(output: KMSOutput, format: ScanoutFormat = .xrgb8888, bufferCount: Int = 2,
                committer: KMSCommitter = LegacyKMSCommitter(), rotation: DisplayRotation = .none) throws(KMSError) {
        precondition(bufferCount == 2 || bufferCount == 3, "KMSPresenter: 2 or 3 buffers")
        self.output = output
        self.format = format
        self.committer = committer
        self.rotation = ScanoutRotation(rotation, panelWidth: output.width, panelHeight: output.height)
        buffers = try KMSPresenter.makeBuffers(bufferCount, on: output.device, width: output.width, height: output.height, format: format)
        ring = ScanoutBufferRing(count: bufferCount, width: self.rotation.frameWidth, height: self.rotation.frameHeight)
        events = PageFlipEvents(device: output.device)
        damageClips = DamageClips(width: output.width, height: output.height)
        hotplugMonitor = try? HotplugMonitor()
    }

    deinit { close() }

    /// `count` dumb buffers of `width` × `height` panel pixels (at start,
    /// and for a new mode).
    private static func makeBuffers(_ count: Int, on device: DRMDevice, width: Int, height: Int,
                                    format: ScanoutFormat) throws(KMSError) -> [DumbBuffer] {
        var made: [DumbBuffer] = []
        for _ in 0..<count { made.append(try DumbBuffer(device: device, width: width, height: height, format: format)) }
        return made
    }

    /// Copies the buffer's stale area, then each damage rectangle of
    /// `pieces` (not their bounding box); the other buffers learn the
    /// bounding box.
    public func prepare(_ frame: PixelView<ARGB8888>, damage: IntRect, pieces: DamageList?) {
        precondition(!isClosed, "KMSPresenter: prepare after close")
        precondition(frame.width == width && frame.height == height, "KMSPresenter: frame size differs from the mode")
        damageClips.removeAll()
        ring.prepare(damage: damage, pieces: pieces) { index, area in
            copy(frame, area, into: buffers[index])
            damageClips.add(area)
        }
    }

    public func commit() throws(PresentError) -> PresentOutcome {
        guard let index = ring.renderingIndex else {
            preconditionFailure("KMSPresenter: commit without a prepared frame")
        }
        precondition(access.allowsCommit(at: System.monotonicNanoseconds()),
                     "KMSPresenter: commit without the display (ensureAccess() is false)")
        precondition(!isDisplayOff, "KMSPresenter: commit while the display is powered off")
        if !isModeSet {
            do {
                try committer.modeset(output, framebufferID: buffers[index].framebufferID)
            } catch {
                ring.commitFailed()
                throw failed(error)
            }
            isModeSet = true
            statistics.modesets += 1
            statistics.lastDamageClipBounds = .zero
            if case .recovering = access { statistics.recoveries += 1 }
            transition(.commitSucceeded)
            // Drivers without vblank interrupts (virtio-gpu, bochs) complete
            // a flip as soon as it is queued.
            flipsWaitForVBlank = output.hasVBlankEvents()
            // virtio-gpu copies to its host resource on a flush; a modeset
            // flushes, but a damage report is cheap insurance.
            try? buffers[index].markDirty()
            ring.shown()
            return .shown(timestamp: System.monotonicNanoseconds())
        }

        do {
            let clipped = try committer.pageFlip(output, framebufferID: buffers[index].framebufferID,
                                                 damage: damageClips, userData: events.arm())
            statistics.flips += 1
            if clipped {
                statistics.damageClipCommits += 1
                statistics.damageClipRects += damageClips.count
                statistics.damageClipPixels += damageClips.totalArea
                statistics.lastDamageClipBounds = damageClips.boundingBox
            } else {
                statistics.lastDamageClipBounds = .zero
            }
        } catch {
            // The buffer holds this frame now but is not shown; it is free,
            // and only the next frame's damage is new to it.
            ring.commitFailed()
            if error.kind == .busy { busyCount += 1 }
            throw failed(error)
        }
        ring.queued()
        if access != .vtReleased && connectorPollFindsChange(now: System.monotonicNanoseconds(), late: false) {
            connectorChangePending = true
        }
        return .flipQueued
    }

    private func copy(_ frame: PixelView<ARGB8888>, _ area: IntRect, into buffer: DumbBuffer) {
        guard !area.isEmpty else { return }
        switch format {
        case .xrgb8888: rotation.copy(frame, area, into: buffer.xrgbView)
        case .rgb565: rotation.copy(frame, area, into: buffer.rgb565View)
        }
    }

    /// The vblank counter and the timestamp (CLOCK_MONOTONIC ns) of the
    /// last flip `waitForFlip` saw (`PageFlipEvents`); render thread.
    public var lastFlipSequence: UInt32 { events.lastSequence }
    public var lastFlipTimestamp: Int64 { events.lastTimestamp }

    public func waitForFlip(timeoutNanoseconds: Int64) throws(PresentError) -> Int64 {
        precondition(pageFlipState == .waitingForFlip, "KMSPresenter: no flip to wait for")
        let timestamp: Int64
        do { timestamp = try events.wait(timeoutNanoseconds: timeoutNanoseconds) } catch { throw PresentError(error) }
        // The flip happened: the old front buffer is released, the queued one
        // is on screen.
        ring.flipCompleted()
        return timestamp
    }

    // MARK: Display power

    /// Off: the committer turns the CRTC off (only when the display is
    /// ours and showing a frame: otherwise nothing scans out to turn off).
    /// On: the committer prepares it (legacy: DPMS on; atomic: nothing)
    /// and the next frame is a modeset with the whole frame. Never with a
    /// flip pending.
    public func setDisplayPower(_ on: Bool) throws(PresentError) {
        precondition(!isClosed, "KMSPresenter: display power after close")
        precondition(pageFlipState != .waitingForFlip, "KMSPresenter: display power changed with a flip pending")
        guard on == isDisplayOff else { return }
        isDisplayOff = !on
        if on {
            statistics.displayPowerOns += 1
            needModeset()
            if access == .active {
                do { try committer.setDisplayActive(output, true) } catch { throw PresentError(error) }
            }
        } else {
            statistics.displayPowerOffs += 1
            guard access == .active && isModeSet else { return }
            do { try committer.setDisplayActive(output, false) } catch { throw PresentError(error) }
        }
    }

    // MARK: DRM master and VT switches

    /// True when a frame may be committed now. Called by the render loop
    /// before each frame (never with a flip pending): handles a VT release
    /// or acquire, and while master is lost retries drmSetMaster when the
    /// back-off allows; on success the display is taken back (`regain`).
    public func ensureAccess() -> Bool {
        if let monitor = hotplugMonitor, monitor.takeDRMHotplug() {
            statistics.hotplugEvents += 1
            connectorMayHaveChanged()
        } else if access != .vtReleased {
            if connectorChangePending || connectorPollFindsChange(now: System.monotonicNanoseconds(), late: true) {
                connectorChangePending = false
                statistics.connectorPollChanges += 1
                connectorMayHaveChanged()
            }
        }
        if let seat = output.device.seat {
            handleSeatEvents(seat)
        }
        if let vt = vtSwitcher {
            switch vt.takeRequest() {
            case .none: break
            case .release:
                // Between frames: no flip is pending (the loop waited for
                // it), so the switch is safe to allow.
                if pageFlipState == .waitingForFlip { _ = try? waitForFlip(timeoutNanoseconds: 1_000_000_000) }
                do { try output.device.dropMaster() } catch {
                    fbr_write_stderr("KMSPresenter: \(error.description)\n")
                }
                vt.acknowledgeRelease()
                transition(.vtReleased)
                statistics.vtReleases += 1
            case .acquire:
                vt.acknowledgeAcquire()
                statistics.vtAcquires += 1
                transition(.vtAcquired)
                // Hotplug events were not acted on while away.
                connectorMayHaveChanged()
            }
        }
        switch access {
        case .active:
            return true
        case .vtReleased, .disconnected:
            return false
        case .recovering(_, let next):
            return System.monotonicNanoseconds() >= next
        case .masterLost(_, let next):
            let now = System.monotonicNanoseconds()
            guard now >= next else { return false }
            do {
                try output.device.acquireMaster()
            } catch {
                statistics.failedMasterAttempts += 1
                transition(.masterRefused)
                return false
            }
            regain()
            return true
        }
    }

    /// The seat manager's news (the device was opened through it), read
    /// without waiting: the seat's counterpart of the VT switcher's
    /// requests. On disable, between frames, the pending flip is waited
    /// for and the disable acknowledged (the seat manager drops our master
    /// itself); on enable, master is ours again: modeset, whole frame.
    private func handleSeatEvents(_ seat: SeatSession) {
        if !seat.dispatch() && !seatLostReported {
            seatLostReported = true
            fbr_write_stderr("KMSPresenter: the seat manager's connection failed\n")
        }
        while true {
            switch seat.takeEvent() {
            case .none:
                return
            case .disable:
                if pageFlipState == .waitingForFlip { _ = try? waitForFlip(timeoutNanoseconds: 1_000_000_000) }
                seat.acknowledgeDisable()
                transition(.vtReleased)
                statistics.vtReleases += 1
            case .enable:
                statistics.vtAcquires += 1
                transition(.vtAcquired)
                connectorMayHaveChanged()
            }
        }
    }

    /// A commit was refused for want of master: stop committing until
    /// drmSetMaster succeeds.
    private func loseMaster() {
        statistics.masterLosses += 1
        transition(.commitRefusedWithoutMaster)
    }

    /// `access` after `event`, now (`DisplayAccess.after`).
    private func transition(_ event: DisplayAccessEvent) {
        access = access.after(event, now: System.monotonicNanoseconds(), backoff: retryBackoff)
    }

    /// A commit failed with `error` (nothing queued): EBUSY passes through
    /// (`.busy`); EACCES/EPERM loses master (`.masterLost`); anything else
    /// probes the connector and goes to `.disconnected` or `.recovering`
    /// (the next frame a modeset with the whole frame): `.displayLost`.
    /// Returns the error to throw, in the render loop's terms.
    private func failed(_ error: KMSError) -> PresentError {
        switch error.kind {
        case .busy:
            return PresentError(error)
        case .masterLost:
            loseMaster()
            return PresentError(error)
        default:
            // Before any frame was shown it is a configuration error (a
            // mode or format the driver refuses), not a fault to ride out.
            guard statistics.modesets > 0 else { return PresentError(error) }
            statistics.failedCommits += 1
            if output.connectorState() == .disconnected {
                disconnect()
                return PresentError(.displayLost, "\(error.description); connector \(output.connectorName) is disconnected", errno: error.errno)
            }
            transition(.commitFailed(errno: error.errno))
            needModeset()
            var when = "now"
            if case .recovering(let attempts, let next) = access, attempts > 0 {
                when = "in \((next - System.monotonicNanoseconds()) / 1_000_000) ms (attempt \(attempts + 1))"
            }
            return PresentError(.displayLost, "\(error.description); retrying as a modeset with the whole frame \(when)", errno: error.errno)
        }
    }

    /// A hotplug event (or a VT acquire): probe the connector and follow it.
    private func connectorMayHaveChanged() {
        switch output.connectorState() {
        case .disconnected:
            if access != .disconnected && access != .vtReleased { disconnect() }
        case .connected(let offersMode):
            if access == .disconnected {
                statistics.reconnections += 1
                if let next = output.modeOnReconnection() {
                    follow(next)
                } else if !offersMode {
                    fbr_write_stderr("KMSPresenter: \(output.connectorName) is back without \(output.modeDescription) and offers no other; asking for it anyway\n")
                }
                transition(.connectorConnected)
                needModeset()
            } else if access != .vtReleased, let next = output.modeOnReconnection() {
                // Connected all along, but with another mode to show: a
                // display swapped between two looks, or one whose modes
                // changed (QEMU's virtio-gpu resized by its host). Between
                // frames (no flip pending), as a reconnection.
                follow(next)
                needModeset()
            }
        case .unknown:
            break
        }
    }

    /// Shows `next` from the next modeset on (the connector came back with
    /// it, or now prefers it): at another size, new dumb buffers (the old ones are freed,
    /// the one on the CRTC too: the next frame is a modeset anyway), ring,
    /// rotation and damage clips of that size. Allocates; hotplug only.
    /// If the buffers cannot be made, the old mode stays (and is asked for).
    private func follow(_ next: drmModeModeInfo) {
        let old = output.modeDescription
        let panelWidth = Int(next.hdisplay), panelHeight = Int(next.vdisplay)
        if panelWidth != output.width || panelHeight != output.height {
            let made: [DumbBuffer]
            do { made = try KMSPresenter.makeBuffers(buffers.count, on: output.device, width: panelWidth, height: panelHeight, format: format) } catch {
                fbr_write_stderr("KMSPresenter: \(output.connectorName) is back with \(panelWidth)x\(panelHeight), but its buffers "
                                 + "cannot be made (\(error.description)); asking for \(old) again\n")
                return
            }
            buffers = made
            rotation = ScanoutRotation(rotation.rotation, panelWidth: panelWidth, panelHeight: panelHeight)
            ring = ScanoutBufferRing(count: made.count, width: rotation.frameWidth, height: rotation.frameHeight)
            damageClips = DamageClips(width: panelWidth, height: panelHeight)
        }
        output.mode = next
        statistics.modeChanges += 1
        fbr_write_stderr("KMSPresenter: \(output.connectorName) is back with \(output.modeDescription) (was \(old)); "
                         + "following it: frames of \(width)x\(height)\n")
    }

    private func disconnect() {
        statistics.disconnections += 1
        transition(.connectorDisconnected)
    }

    /// The next frame is a modeset, and every buffer takes the whole frame
    /// (what is on the CRTC is unknown).
    private func needModeset() {
        isModeSet = false
        ring.invalidateAll()
    }

    /// Master is ours again: another process may have changed the mode and
    /// drawn anything, so the next frame is a modeset and every buffer
    /// takes the whole frame.
    private func regain() {
        transition(.masterAcquired)
        needModeset()
        statistics.regains += 1
    }

    /// Waits (up to 1 s) for a pending flip, then gives the CRTC back to
    /// what it showed before (the console). Idempotent; deinit calls it.
    /// The buffers are freed only after, since removing the framebuffer on
    /// screen would switch the CRTC off. Without master (taken by another
    /// process and not given back), one drmSetMaster is tried; if it
    /// fails, the display is left to its holder.
    public func close() {
        guard !isClosed else { return }
        isClosed = true
        if pageFlipState == .waitingForFlip { _ = try? waitForFlip(timeoutNanoseconds: 1_000_000_000) }
        vtSwitcher?.close()
        if access != .active {
            do { try output.device.acquireMaster() } catch {
                fbr_write_stderr("KMSPresenter: not restoring the CRTC: \(error.description)\n")
                return
            }
        }
        if isDisplayOff {
            // Legacy DPMS stays off through a SetCrtc; atomic needs nothing.
            try? committer.setDisplayActive(output, true)
            isDisplayOff = false
        }
        if statistics.modesets > 0 {
            do { try output.restore() } catch {
                fbr_write_stderr("KMSPresenter: \(error.description)\n")
            }
        }
    }
}
