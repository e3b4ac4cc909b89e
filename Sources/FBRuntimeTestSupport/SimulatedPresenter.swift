import CPosix
import FBRuntime
import Raster

/// A display in memory with a simulated vblank clock, for unit tests of the
/// render loop: vblanks fall at `phase + k × refreshInterval` on a
/// `SimulatedFrameTime`; a flip completes at the first vblank at or after
/// it was queued (or at once, with `flipsWaitForVBlank` false, as on
/// virtio-gpu); the frame on screen is kept as XRGB8888.
///
/// Its buffers follow the same `ScanoutBufferRing` as `KMSPresenter`'s
/// (one flip at a time; `present` while one is pending traps; a frame is
/// copied as its damage plus what the buffer missed): one buffer written
/// in place by default, or 2–3 flipping ones (`bufferCount`), where the
/// buffer on screen is never written. A frame is copied at its commit (a
/// refused commit changes nothing on screen). It can fail flips with EBUSY,
/// lose master, be unplugged, come back at another size and fail commits.
public final class SimulatedPresenter: FramePresenter {
    /// The frame size, pixels; changed by a reconnection at
    /// `sizeOnReconnection`.
    public private(set) var width: Int
    public private(set) var height: Int
    public let refreshIntervalNanoseconds: Int64
    /// What the presenter claims (`FramePresenter`); `completesFlipsAtVBlank`
    /// is what it does. They differ only to test the loop's detection of
    /// early flips.
    public let flipsWaitForVBlank: Bool
    public let completesFlipsAtVBlank: Bool
    public let time: SimulatedFrameTime
    /// Vblanks fall at `vblankPhase + k × refreshIntervalNanoseconds`.
    public let vblankPhase: Int64
    /// The scan-out buffers (XRGB8888), by ring index; made anew at a
    /// reconnection at another size.
    public private(set) var buffers: [Surface<XRGB8888>]
    /// Their states, stale areas and the pending flip.
    public private(set) var ring: ScanoutBufferRing
    public var pageFlipState: PageFlipState { ring.flipState }
    /// What the screen shows: the buffer last committed (from its commit,
    /// as if each flip were instant; `ring` says when it really is).
    public var screen: Surface<XRGB8888> { buffers[ring.pendingIndex ?? ring.onScreenIndex ?? 0] }
    /// Times (ns) at which presented frames reached the screen.
    public private(set) var flipTimes: [Int64] = []
    /// Times (ns) at which frames were committed.
    public private(set) var presentTimes: [Int64] = []
    /// The damage rectangle of each committed frame.
    public private(set) var damages: [IntRect] = []
    /// The next this many flips fail with `.busy`.
    public var failNextFlipsWithBusy = 0
    /// Simulated time each flip's commit takes before the flip is queued
    /// (ns): the slow path between rendering and the kernel — a wake-up,
    /// the copy, the driver's commit work — that the loop cannot time.
    public var commitLatencyNanoseconds: Int64 = 0
    /// Leave a flip's event out (the wait times out) when true.
    public var dropFlipEvents = false
    /// Another process holds DRM master until this time (simulated ns):
    /// the next commit before it fails with `.masterLost`, `ensureAccess()`
    /// is false until then, and the first commit after is a modeset that
    /// copies the whole frame (as `KMSPresenter` does after a regain).
    public var masterTakenUntil: Int64?
    /// Commits refused for want of master; regains of the display.
    public private(set) var masterLosses = 0
    public private(set) var regains = 0
    private var masterLost = false
    /// The connector's state; tests unplug it. While false, `ensureAccess()`
    /// is false (`.disconnected`, as `KMSPresenter` after a hotplug event)
    /// and a commit fails with `.displayLost`; once true again the next
    /// frame is a modeset that copies the whole frame.
    public var isConnected = true
    /// The size (pixels) the display has when it is plugged back
    /// (`isConnected` true again), as a monitor with another mode: the
    /// reconnection, in `ensureAccess()`, makes new buffers of that size
    /// and changes `width` and `height` (as `KMSPresenter` following a
    /// new mode). nil: the same size.
    public var sizeOnReconnection: (width: Int, height: Int)?
    /// Reconnections that changed the size.
    public private(set) var sizeChanges = 0
    /// The next this many commits fail with `failCommitsErrno` (an error
    /// other than EBUSY and EACCES): `.displayLost`, nothing shown, then
    /// `KMSPresenter`'s policy — `.recovering`, a modeset with the whole
    /// frame, failed ones retried after `retryBackoff`.
    public var failNextCommits = 0
    public var failCommitsErrno: Int32 = EINVAL
    public var retryBackoff = MasterRetryBackoff()
    /// Disconnection and commit-failure state (`DisplayAccess`; master is
    /// simulated apart, above).
    public private(set) var access = DisplayAccess.active
    /// Commits failed by `failNextCommits`; modesets that ended a recovery.
    public private(set) var failedCommits = 0
    public private(set) var recoveries = 0
    /// Called on the committing thread each time the screen changed (a
    /// commit copied a frame to it): a capturing presenter for tests that
    /// check every frame shown.
    public var onScreenChanged: ((Surface<XRGB8888>) -> Void)?

    /// False while the render loop has the display powered off
    /// (`setDisplayPower`); a commit then traps. Power-offs and -ons seen;
    /// modesets after a power-on (the first frame after a wake).
    public private(set) var isDisplayOn = true
    public private(set) var powerOffs = 0
    public private(set) var powerOns = 0

    private var pendingCompletion: Int64?
    /// The frame `prepare` was given, copied at commit.
    private var held = HeldFrame()
    private var isModeSet = false

    public var isFlipPending: Bool { pageFlipState == .waitingForFlip }

    /// `bufferCount`: 1 (in place) to 3. nil if the buffers cannot be
    /// allocated or `refreshMillihertz` is not positive.
    public init?(width: Int, height: Int, refreshMillihertz: Int = 60_000, flipsWaitForVBlank: Bool = true,
                 time: SimulatedFrameTime = SimulatedFrameTime(), vblankPhase: Int64 = 0, advertisesVBlank: Bool? = nil,
                 bufferCount: Int = 1) {
        precondition((1...3).contains(bufferCount), "SimulatedPresenter: 1 to 3 buffers")
        guard refreshMillihertz > 0 else { return nil }
        var made: [Surface<XRGB8888>] = []
        for _ in 0..<bufferCount {
            guard let buffer = Surface<XRGB8888>(width: width, height: height) else { return nil }
            made.append(buffer)
        }
        buffers = made
        ring = ScanoutBufferRing(count: bufferCount, width: width, height: height)
        self.width = width
        self.height = height
        self.refreshIntervalNanoseconds = 1_000_000_000_000 / Int64(refreshMillihertz)
        self.completesFlipsAtVBlank = flipsWaitForVBlank
        self.flipsWaitForVBlank = advertisesVBlank ?? flipsWaitForVBlank
        self.time = time
        self.vblankPhase = vblankPhase
    }

    /// The first vblank at or after `t`.
    public func nextVBlank(atOrAfter t: Int64) -> Int64 {
        let k = (t - vblankPhase + refreshIntervalNanoseconds - 1) / refreshIntervalNanoseconds
        return vblankPhase + k * refreshIntervalNanoseconds
    }

    public func prepare(_ frame: PixelView<ARGB8888>, damage: IntRect, pieces: DamageList?) {
        precondition(pageFlipState == .idle, "SimulatedPresenter: a flip is pending; wait for it before presenting")
        precondition(frame.width == width && frame.height == height, "SimulatedPresenter: frame size differs")
        held.hold(frame, damage: damage, pieces: pieces)
    }

    public func commit() throws(PresentError) -> PresentOutcome {
        guard let frame = held.take() else { preconditionFailure("SimulatedPresenter: commit without a prepared frame") }
        precondition(isDisplayOn, "SimulatedPresenter: commit while the display is powered off")
        if let until = masterTakenUntil, time.nanoseconds() < until {
            masterLost = true
            masterLosses += 1
            throw PresentError(.masterLost, "simulated EACCES (another process is DRM master)", errno: EACCES)
        }
        if !isConnected {
            access = access.after(.connectorDisconnected, now: time.nanoseconds(), backoff: retryBackoff)
            throw PresentError(.displayLost, "simulated: the connector is disconnected")
        }
        if failNextCommits > 0 {
            failNextCommits -= 1
            failedCommits += 1
            access = access.after(.commitFailed(errno: failCommitsErrno), now: time.nanoseconds(), backoff: retryBackoff)
            isModeSet = false
            ring.invalidateAll()
            throw PresentError(.displayLost, "simulated commit failure; retrying as a modeset", errno: failCommitsErrno)
        }
        if case .recovering = access { recoveries += 1 }
        access = access.after(.commitSucceeded, now: time.nanoseconds(), backoff: retryBackoff)
        if isModeSet && failNextFlipsWithBusy > 0 {
            failNextFlipsWithBusy -= 1
            throw PresentError(.busy, "simulated EBUSY")
        }
        if isModeSet && commitLatencyNanoseconds > 0 { time.advance(byNanoseconds: commitLatencyNanoseconds) }
        let now = time.nanoseconds()
        presentTimes.append(now)
        damages.append(held.damage)
        // A damage that misses a change shows on `screen`: only the damage
        // (and what the buffer missed) is copied.
        ring.prepare(damage: held.damage, pieces: held.pieces) { index, area in
            ScanoutConversion.copy(frame, into: buffers[index].view, rect: area)
        }
        onScreenChanged?(screen)
        if !isModeSet {
            isModeSet = true
            ring.shown()
            flipTimes.append(now)
            return .shown(timestamp: now)
        }
        pendingCompletion = completesFlipsAtVBlank ? nextVBlank(atOrAfter: now) : now
        ring.queued()
        return .flipQueued
    }

    /// Off: nothing may be committed; on: the next frame is a modeset that
    /// copies the whole frame (as `KMSPresenter`).
    public func setDisplayPower(_ on: Bool) throws(PresentError) {
        precondition(pageFlipState == .idle, "SimulatedPresenter: display power changed with a flip pending")
        guard on != isDisplayOn else { return }
        isDisplayOn = on
        if on {
            powerOns += 1
            isModeSet = false
            ring.invalidateAll()
        } else {
            powerOffs += 1
        }
    }

    /// False while master is lost and `masterTakenUntil` has not passed;
    /// then the display is ours again (modeset, whole frame next).
    public func ensureAccess() -> Bool {
        if masterLost {
            if let until = masterTakenUntil, time.nanoseconds() < until { return false }
            masterLost = false
            masterTakenUntil = nil
            isModeSet = false
            ring.invalidateAll()
            regains += 1
        }
        let now = time.nanoseconds()
        if !isConnected {
            if access != .disconnected { access = access.after(.connectorDisconnected, now: now, backoff: retryBackoff) }
            return false
        }
        if access == .disconnected {
            access = access.after(.connectorConnected, now: now, backoff: retryBackoff)
            if let size = sizeOnReconnection, size != (width, height) { resize(to: size) }
            isModeSet = false
            ring.invalidateAll()
        }
        return access.allowsCommit(at: now)
    }

    /// New buffers and ring of `size` (a display back with another mode).
    private func resize(to size: (width: Int, height: Int)) {
        var made: [Surface<XRGB8888>] = []
        for _ in buffers.indices {
            guard let buffer = Surface<XRGB8888>(width: size.width, height: size.height) else {
                preconditionFailure("SimulatedPresenter: cannot allocate \(size.width)x\(size.height) buffers")
            }
            made.append(buffer)
        }
        buffers = made
        ring = ScanoutBufferRing(count: made.count, width: size.width, height: size.height)
        (width, height) = size
        sizeChanges += 1
    }

    public func waitForFlip(timeoutNanoseconds: Int64) throws(PresentError) -> Int64 {
        precondition(pageFlipState == .waitingForFlip, "SimulatedPresenter: no flip to wait for")
        guard let completion = pendingCompletion, !dropFlipEvents else {
            time.sleep(untilNanoseconds: time.nanoseconds() + timeoutNanoseconds)
            throw PresentError(.timedOut, "no page-flip event within \(timeoutNanoseconds / 1_000_000) ms (simulated)")
        }
        time.sleep(untilNanoseconds: completion)
        pendingCompletion = nil
        ring.flipCompleted()
        flipTimes.append(completion)
        return completion
    }
}
