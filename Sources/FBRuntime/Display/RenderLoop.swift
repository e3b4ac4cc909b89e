import Raster

/// The frame clock and render thread: on each page flip, plan the next
/// frame for the next vblank, evaluate the scene at that time, render it
/// into ordinary memory and hand it to the presenter (wlroots
/// `handle_page_flip`, Weston `weston_output_finish_frame`, Flutter's
/// animator).
///
/// The pacing rule, with F the last flip's timestamp, T its frame's target
/// and P the refresh period:
///
/// 1. The next target is `max(F, T) + P`, moved on by whole periods while it
///    is in the past (a missed vblank). Animations are evaluated at the
///    target, not at "now".
/// 2. Rendering starts at `target − budget`, the budget being about 1.5× the
///    longest recent time from the planned wake-up to the flip being queued
///    (how late the wake-up came, rendering, the copy and the commit call),
///    plus a margin for what the loop cannot time (the driver's commit work
///    before the vblank, the thread preempted): each frame that reaches the
///    screen late adds a quarter period to it, and it shrinks slowly (1/1024
///    per frame on time: halved in about 12 s at 60 Hz) — a missed vblank
///    is a visible stutter, starting early costs only latency. The margin
///    starts at a quarter period, as if one frame had been late, so the
///    first hiccup after start (a cold page cache, a busy boot) does not
///    stutter either; it has shrunk to half by about 12 s. The budget
///    is at most one period. If the flip event came early, the loop sleeps
///    until then: it never renders more often than the display refreshes.
///    (Measured on vkms under QEMU's TCG, 2 ms renders, 600 frames, a 2-core
///    host at load 6: with 1.5× the render time as the budget, 173 missed
///    vblanks; with this rule, 2. What is left follows the host's load: a
///    fixed budget of a whole period missed 0 and then 5 in two runs.)
/// 3. On a display whose flips complete as soon as they are queued
///    (virtio-gpu, bochs: no vblank interrupt; also once a flip is seen to
///    complete half a period before its target), the flip is held until the
///    target, so flips are at least one period apart. Measured under
///    virtio-gpu without this: 800–6600 flips/s.
/// 4. With nothing animating and no `setNeedsRender()` since the last frame
///    (plus one last frame after animations end, to show their final
///    state), nothing is rendered and nothing flipped: the thread blocks on
///    a condition (with a timeout, to notice SIGINT) until there is work.
/// 5. While the display is powered off (`setDisplayPowered(false)`, idle
///    blanking) nothing is rendered or flipped either, animations or not;
///    commits wait in the queue. Powered on, the next frame is planned
///    from "now" and shown whole (the presenter modesets): animations
///    keep their media time, so it shows their state at that moment.
/// 6. When the presenter's size changes (a display that came back with
///    another mode: `FramePresenter`, `KMSPresenter`), the next frame is
///    rendered into a new back buffer of that size, whole, and the app
///    thread is told (`deliverDisplaySizeChanges(to:_:)`). Until the app
///    commits a new layout the last committed tree is drawn at the new
///    size: the render thread never waits for the app.
///
/// Threading: the loop's own thread renders and presents; the presenter is
/// used only there. The model tree (`root`) belongs to the app thread; the
/// render thread draws the render tree, twins of the model layers that
/// each commit (`commit(at:)`, `update(_:)`, or every outermost commit of an
/// `AppRunLoop` after `attach(to:)`) brings up to date through a bounded
/// queue of depth two (`RenderTreeUpdate`, `RenderTreeQueue`). So a long
/// stretch of app work — or a blocked app thread — never stalls a frame:
/// the running animations go on from the last commit. Changes reach the
/// screen only at a commit, all of one commit in the same frame. The
/// display pass (`draw(in:)`) runs on the app thread at commit.
public final class RenderLoop {
    /// The model tree's root (app thread).
    public let root: Layer
    public let presenter: FramePresenter
    public let time: FrameTimeSource
    public let compositor: Compositor
    /// Commits waiting for the render thread.
    public let updates = RenderTreeQueue()
    public var clearColor: PremultipliedColor = .black

    /// Stop after this many frames have been rendered (and the last one
    /// shown); nil: run until `stop()`.
    public var frameLimit: Int?
    /// A fixed render budget in nanoseconds; nil: adaptive (see above).
    public var renderBudgetNanoseconds: Int64?
    /// Longest a flip event is waited for before the loop gives up.
    public var flipTimeoutNanoseconds: Int64 = 1_000_000_000
    /// Longest an idle wait lasts before the loop looks at its flags again.
    public var idleTimeoutNanoseconds: Int64 = 250_000_000
    /// Called on the render thread when frame `n` (1-based) is on screen,
    /// before the next frame is planned. It may block (a screendump
    /// handshake): the interval statistics start a new run after it.
    public var onFrameShown: ((Int) -> Void)?

    /// Guards everything below it and signals changes to the render thread
    /// (`setNeedsRender`, `stop`) and to waiters (`waitUntil`).
    private let state = Condition()
    private var needsRender = false
    private var stopRequested = false
    private var running = false
    private var stats = RenderLoopStatistics()
    private var failure: PresentError?
    /// Overlays `setDebugOverlays` handed over, for the next frame.
    private var pendingDebugOverlays: DebugOverlays?
    /// What `setDisplayPowered` asked for.
    private var displayPowerRequested = true
    /// The back buffer's size (pixels), for `displaySize`.
    private var frameSize: (width: Int, height: Int)
    /// Where and to whom size changes go (`deliverDisplaySizeChanges`).
    private var sizeChangeDelivery: SizeChangeDelivery?
    private typealias SizeChangeDelivery = (runLoop: AppRunLoop, handler: (Int, Int) -> Void)

    // Render-thread state.
    private var thread: Thread?
    /// The twin of `root`: the tree the render thread draws.
    private let renderRoot: Layer
    /// Updates taken from the queue, kept for its capacity.
    private var taken: [RenderTreeUpdate] = []
    /// Kept between frames: the compositor redraws only its damage. The
    /// presenter's size; replaced when that changes (`followDisplaySize`).
    private var backBuffer: Surface<ARGB8888>
    /// max(F, T) of the last frame shown; nil before the first frame.
    private var lastPresentation: Int64?
    /// The flip timestamp that starts the current run of intervals.
    private var lastFlipTimestamp: Int64?
    private var queuedTarget: Int64?
    /// Set once a flip completes half a period before its target.
    private var sawEarlyFlip = false
    private var lastFrameWasAnimating = false
    /// Decaying maximum of the wake-up-to-queued time, ns.
    private var pathEstimate: Int64 = 0
    /// Added to the budget after late frames, ns (≤ one period). It starts
    /// as after one late frame, a quarter period (see the pacing rule).
    private var lateMargin: Int64
    /// True while the presenter reports the display is not ours.
    private var displaySuspended = false
    /// True while the display is powered off (render thread's view).
    private var displayOff = false
    /// Longest wait between two looks at a suspended display.
    public var suspendedPollNanoseconds: Int64 = 20_000_000

    /// - Precondition: the presenter's size is positive and within
    ///   `RasterLimits` (the back buffer is allocated here).
    public init(root: Layer, presenter: FramePresenter, time: FrameTimeSource = MonotonicFrameTime(),
                compositor: Compositor = Compositor()) {
        self.root = root
        self.presenter = presenter
        self.time = time
        self.compositor = compositor
        guard let surface = Surface<ARGB8888>(width: presenter.width, height: presenter.height) else {
            fatalError("RenderLoop: cannot allocate a \(presenter.width)x\(presenter.height) back buffer")
        }
        backBuffer = surface
        frameSize = (presenter.width, presenter.height)
        lateMargin = max(0, presenter.refreshIntervalNanoseconds / 4)
        compositor.runsDisplayPass = false   // the display pass runs at commit, on the app thread
        taken.reserveCapacity(RenderTreeQueue.capacity)
        root.layoutIfNeeded()   // the first frame shows the tree laid out
        let first = RenderTreeUpdate(capturing: root, at: MediaTime(time.nanoseconds()) / 1e9, everything: true)
        renderRoot = first.root
        updates.push(first)
    }

    // MARK: App thread

    /// Runs `body` on the model tree, lays out what it marked
    /// (`Layer.layoutIfNeeded()`), then commits (app thread). Kept for
    /// programs that change the tree outside an `AppRunLoop` turn; `body`
    /// holds no lock the render thread needs, however long it takes.
    public func update<T>(_ body: (Layer) -> T) -> T {
        let result = body(root)
        root.layoutIfNeeded()
        commit()
        return result
    }

    /// Hands the model tree's current state to the render thread (app
    /// thread): runs the display pass at `time` (global media time,
    /// seconds; default the loop's clock), captures the tree and queues the
    /// update, coalescing it when two are waiting. Changes made since the
    /// last commit show from the first frame rendered after it, together.
    /// - Complexity: O(layers) (see `RenderTreeUpdate`); never waits for a
    ///   frame.
    public func commit(at time: MediaTime? = nil) {
        let t = time ?? MediaTime(self.time.nanoseconds()) / 1e9
        let update = RenderTreeUpdate(capturing: root, at: t)
        updates.push(update)
        setNeedsRender()
    }

    /// Commits at every outermost commit of `runLoop` (its `onCommit`,
    /// which this replaces), so `runTurn` and explicit transactions reach
    /// the screen. The run loop keeps the render loop alive.
    public func attach(to runLoop: AppRunLoop) {
        runLoop.onCommit = { [self] t in commit(at: t) }
    }

    /// Turns the compositor's debug overlays to `overlays` from the next
    /// frame on (any thread; the render thread applies it between frames,
    /// so a frame is never drawn half with the old ones), and asks for
    /// that frame. Before `start()` setting `compositor.debugOverlays`
    /// directly is the same.
    public func setDebugOverlays(_ overlays: DebugOverlays) {
        state.lock.withLock {
            pendingDebugOverlays = overlays
            needsRender = true
            state.broadcast()
        }
    }

    /// Turns the display off (`false`) or on (any thread; the render
    /// thread does it between frames, through
    /// `FramePresenter.setDisplayPower`). While off, nothing is rendered
    /// or flipped (`RenderLoopStatistics.displayOffWaits` counts the
    /// turns spent waiting); on again, the next frame is the whole screen
    /// at the time it is shown. Idempotent.
    public func setDisplayPowered(_ on: Bool) {
        state.lock.withLock {
            displayPowerRequested = on
            if on { needsRender = true }
            state.broadcast()
        }
    }

    /// The size of the frames the render thread draws, in pixels (the
    /// presenter's size: the panel's mode turned by the board's rotation).
    /// It changes when the display comes back with another mode. Any
    /// thread.
    public var displaySize: (width: Int, height: Int) { state.lock.withLock { frameSize } }

    /// Hands every later change of `displaySize` to `handler` on the app
    /// thread: posted to `runLoop` (`AppRunLoop.post`), so it runs at the
    /// start of that loop's next turn, with the new width and height in
    /// pixels, and the turn's commit carries what it changed. The handler
    /// should lay the tree out for the new size (the root's bounds: its
    /// layout manager or autoresizing places the rest). Meanwhile the
    /// render thread draws the last committed tree at the new size, whole
    /// frames: it never waits for the app. Any thread, any time (a change
    /// before the call is not delivered: read `displaySize`); a later call
    /// replaces the handler.
    public func deliverDisplaySizeChanges(to runLoop: AppRunLoop, _ handler: @escaping (Int, Int) -> Void) {
        state.lock.withLock { sizeChangeDelivery = (runLoop, handler) }
    }

    /// What the last `setDisplayPowered` asked for (true until then).
    public var isDisplayPowerRequested: Bool { state.lock.withLock { displayPowerRequested } }

    /// Asks for one frame even if nothing animates.
    public func setNeedsRender() {
        state.lock.withLock {
            needsRender = true
            // Broadcast: `waitUntil` callers share the condition, and a
            // signal could wake one of them instead of the render thread.
            state.broadcast()
        }
    }

    /// The root of the render tree: the twins the render thread draws
    /// (see `RenderTreeUpdate`). Render-thread state: read it only while
    /// the loop's thread is not running (before `start()`, or after
    /// `stop()` returned), e.g. to check it against the model tree.
    public var renderTreeRoot: Layer { renderRoot }

    /// A copy of the statistics so far.
    public var statistics: RenderLoopStatistics { state.lock.withLock { stats } }

    /// The error that ended the loop, if one did.
    public var error: PresentError? { state.lock.withLock { failure } }

    public var isRunning: Bool { state.lock.withLock { running } }

    /// Starts the render thread.
    public func start() throws(SystemError) {
        precondition(thread == nil, "RenderLoop: started twice")
        state.lock.withLock { running = true }
        thread = try Thread { [self] in
            while runOnce() {}
            finish()
        }
    }

    /// Asks the render thread to end and waits for it. The presenter is
    /// left as it is (a pending flip completed); close it afterwards.
    public func stop() {
        state.lock.withLock {
            stopRequested = true
            state.broadcast()
        }
        thread?.join()
        thread = nil
    }

    /// Waits until `predicate(statistics)` holds or the loop has ended, at
    /// most `timeoutNanoseconds` (real time). Returns the predicate's value.
    public func waitUntil(timeoutNanoseconds: Int64, _ predicate: (RenderLoopStatistics) -> Bool) -> Bool {
        let deadline = System.monotonicNanoseconds() + timeoutNanoseconds
        return state.lock.withLock {
            _ = state.wait(untilNanoseconds: deadline) { predicate(stats) || !running }
            return predicate(stats)
        }
    }

    // MARK: Render thread

    private func finish() {
        if presenter.isFlipPending, let t = try? presenter.waitForFlip(timeoutNanoseconds: flipTimeoutNanoseconds) {
            flipped(at: t)
        }
        state.lock.withLock {
            running = false
            state.broadcast()
        }
    }

    /// One turn of the loop on the calling thread: wait for a pending flip,
    /// then plan, render and present one frame, or wait while idle. Returns
    /// false when the loop should end (stop, SIGINT/SIGTERM, frame limit,
    /// an error). Tests drive it directly with a simulated presenter.
    public func runOnce() -> Bool {
        let shouldStop = state.lock.withLock { stopRequested }
        if shouldStop || TerminationSignal.isRequested { return false }

        // 1. A pending flip frees a buffer and times the frame.
        if presenter.isFlipPending {
            do {
                flipped(at: try presenter.waitForFlip(timeoutNanoseconds: flipTimeoutNanoseconds))
            } catch {
                return fail(error)
            }
        }
        if let limit = frameLimit, statistics.framesRendered >= limit { return false }

        // 1¼. Powered off (idle blanking): no frame, no flip, until on.
        if !state.lock.withLock({ displayPowerRequested }) {
            if !displayOff {
                displayOff = true
                var refused = false
                do { try presenter.setDisplayPower(false) } catch { refused = true }
                bump { $0.displayPowerOffs += 1; if refused { $0.displayPowerErrors += 1 } }
            }
            offWait()
            return true
        }
        if displayOff {
            displayOff = false
            var refused = false
            do { try presenter.setDisplayPower(true) } catch { refused = true }
            bump { $0.displayPowerOns += 1; if refused { $0.displayPowerErrors += 1 } }
            state.lock.withLock { needsRender = true }
        }

        // 1½. The display may be someone else's (DRM master taken, VT
        //     switched away): render nothing, look again shortly. When it
        //     comes back the presenter modesets with the whole frame.
        if !presenter.ensureAccess() {
            if !displaySuspended { displaySuspended = true; bump { $0.displaySuspensions += 1 } }
            suspendWait()
            return true
        }
        if displaySuspended {
            displaySuspended = false
            bump { $0.displayResumptions += 1 }
            state.lock.withLock { needsRender = true }
        }

        // 1¾. The presenter followed the display to another mode (it may
        //     only in `ensureAccess()`): render at its new size from now on.
        if presenter.width != backBuffer.width || presenter.height != backBuffer.height {
            guard followDisplaySize() else { return false }
        }

        // 2. Plan the frame for the next vblank.
        let interval = presenter.refreshIntervalNanoseconds
        let now = time.nanoseconds()
        var target = now
        if let last = lastPresentation {
            target = last + interval
            if target < now {
                target += (now - target + interval - 1) / interval * interval
                // Only a frame due back to back with the last one was late.
                if lastFrameWasAnimating { bump { $0.missedVBlanks += 1 } }
            }
        }

        // 3. Anything to draw? Commits since the last frame first: all of
        //    one commit shows in the same frame.
        //    An update applied here always renders: its commit's
        //    `needsRender` may have been taken by the frame before, when the
        //    update came between that frame's apply and its check (the last
        //    commit of a burst then never reached the screen).
        let applied = applyPendingUpdates()
        let (asked, overlays) = state.lock.withLock { () -> (Bool, DebugOverlays?) in
            let n = needsRender
            needsRender = false
            let o = pendingDebugOverlays
            pendingDebugOverlays = nil
            return (n, o)
        }
        let forced = asked || applied
        if let overlays { compositor.debugOverlays = overlays }
        let animating = renderRoot.hasRunningAnimations(at: seconds(target))
        if !forced && !animating && !lastFrameWasAnimating && lastPresentation != nil {
            lastFlipTimestamp = nil   // the next frame starts a new run of intervals
            state.lock.withLock {
                if !needsRender && !stopRequested {
                    stats.idleWaits += 1
                    state.broadcast()   // for `waitUntil` callers
                    _ = state.wait(untilNanoseconds: System.monotonicNanoseconds() + idleTimeoutNanoseconds)
                }
            }
            return true
        }

        // 4. Pace: start rendering one budget before the target.
        let budget = min(interval, renderBudgetNanoseconds ?? (pathEstimate + pathEstimate / 2 + 1_000_000 + lateMargin))
        let wake = target - budget
        time.sleep(untilNanoseconds: wake)
        let wokeLate = max(0, time.nanoseconds() - wake)

        // 5. Render at the target time.
        let renderStart = System.monotonicNanoseconds()
        compositor.render(renderRoot, at: seconds(target), into: backBuffer.view, clearColor: clearColor)
        lastFrameWasAnimating = renderRoot.hasRunningAnimations(at: seconds(target))
        let renderTime = System.monotonicNanoseconds() - renderStart

        // 6. Copy what the compositor redrew into a free scan-out buffer
        //    (the back buffer keeps the rest from earlier frames; the
        //    presenter adds what that buffer missed since it last held one).
        presenter.prepare(backBuffer.view, damage: compositor.damage)
        let prepared = System.monotonicNanoseconds()

        // 7. Hold the flip on a display that would show it at once (the
        //    presenter may learn this only at its first modeset), then flip.
        if !presenter.flipsWaitForVBlank || sawEarlyFlip { time.sleep(untilNanoseconds: target) }
        let outcome: PresentOutcome
        let commitStart = System.monotonicNanoseconds()
        do {
            outcome = try presenter.commit()
            // The hold above is not part of the path: it waits on purpose.
            let path = wokeLate + (prepared - renderStart) + (System.monotonicNanoseconds() - commitStart)
            pathEstimate = max(path, pathEstimate - pathEstimate / 8)
        } catch {
            if error.kind == .masterLost || error.kind == .displayLost {
                // Another process holds the display, or the connector is
                // gone, or the presenter retries a failed commit as a
                // modeset: nothing is queued; ensureAccess says when the
                // display is back, and the frame is drawn again then.
                bump { if error.kind == .masterLost { $0.masterLostCommits += 1 } else { $0.displayLostCommits += 1 } }
                if !displaySuspended { displaySuspended = true; bump { $0.displaySuspensions += 1 } }
                suspendWait()
                return true
            }
            guard error.kind == .busy else { return fail(error) }
            // Nothing was queued: draw this frame again one period later.
            lastPresentation = target
            lastFlipTimestamp = nil
            state.lock.withLock {
                stats.busyRetries += 1
                needsRender = true
            }
            return true
        }
        bump {
            $0.framesRendered += 1
            $0.renderTotalNanoseconds += renderTime
            $0.longestRenderNanoseconds = max($0.longestRenderNanoseconds, renderTime)
        }
        queuedTarget = target
        if case .shown(let timestamp) = outcome { flipped(at: timestamp, byModeset: true) }
        return true
    }

    /// Waits while the display is powered off. The presenter still gets
    /// its `ensureAccess()` (a VT switch is answered, a hotplug noticed);
    /// no timing survives (as `suspendWait`).
    private func offWait() {
        lastPresentation = nil
        lastFlipTimestamp = nil
        queuedTarget = nil
        _ = presenter.ensureAccess()
        state.lock.withLock {
            stats.displayOffWaits += 1
            state.broadcast()   // for `waitUntil` callers
            _ = state.wait(untilNanoseconds: System.monotonicNanoseconds() + idleTimeoutNanoseconds) {
                displayPowerRequested || stopRequested
            }
        }
    }

    /// Waits while the display is not ours (no timing survives it: the
    /// next frame starts a new run of intervals and aims at "now").
    private func suspendWait() {
        lastPresentation = nil
        lastFlipTimestamp = nil
        queuedTarget = nil
        state.lock.withLock {
            stats.suspendedWaits += 1
            needsRender = true
            state.broadcast()
            if !stopRequested {
                _ = state.wait(untilNanoseconds: System.monotonicNanoseconds() + suspendedPollNanoseconds)
            }
        }
    }

    /// Takes a back buffer of the presenter's new size (the compositor sees
    /// a new target and draws the next frame whole) and tells the app
    /// thread. Allocates, once per change. False when the buffer cannot be
    /// allocated (the loop ends with `.failed`).
    private func followDisplaySize() -> Bool {
        let width = presenter.width, height = presenter.height
        guard let surface = Surface<ARGB8888>(width: width, height: height) else {
            return fail(PresentError(.failed, "RenderLoop: cannot allocate a \(width)x\(height) back buffer for the display's new size"))
        }
        backBuffer = surface
        // No timing survives a modeset to another mode.
        lastPresentation = nil
        lastFlipTimestamp = nil
        let delivery = state.lock.withLock { () -> SizeChangeDelivery? in
            frameSize = (width, height)
            stats.displaySizeChanges += 1
            needsRender = true
            state.broadcast()
            return sizeChangeDelivery
        }
        if let delivery {
            let handler = delivery.handler
            delivery.runLoop.post { handler(width, height) }
        }
        return true
    }

    /// A frame reached the screen at `timestamp` (monotonic ns), by a flip
    /// or by the first frame's modeset (never late: it had no vblank to
    /// aim at, and the modeset itself takes a while).
    private func flipped(at timestamp: Int64, byModeset: Bool = false) {
        let interval = presenter.refreshIntervalNanoseconds
        let target = queuedTarget ?? timestamp
        queuedTarget = nil
        let early = timestamp < target - interval / 2
        let late = !byModeset && timestamp > target + interval / 2
        if early { sawEarlyFlip = true }
        if late { lateMargin = min(interval, lateMargin + interval / 4) } else if !byModeset { lateMargin -= lateMargin / 1024 }
        let previous = lastFlipTimestamp
        lastFlipTimestamp = timestamp
        // Where flips complete at vblank, the flip's timestamp is on the
        // vblank grid and the next frame is due one period after it, even
        // when this frame's target was off the grid and the flip came before
        // it (a target planned from the modeset's or an idle stretch's
        // "now"): planning from the target would aim every later frame that
        // far past its vblank, and the first slow one misses it (seen on
        // vkms: one missed vblank at frame 3). Held flips never come before
        // their target.
        lastPresentation = presenter.flipsWaitForVBlank && !sawEarlyFlip && !byModeset ? timestamp : max(timestamp, target)
        let shown = state.lock.withLock { () -> Int in
            if early { stats.earlyFlips += 1 }
            if late { stats.lateFrames += 1 }
            if let previous { stats.recordInterval(timestamp - previous, period: interval) }
            stats.framesShown += 1
            state.broadcast()
            return stats.framesShown
        }
        if let hook = onFrameShown {
            let start = System.monotonicNanoseconds()
            hook(shown)
            // A hook that blocked (a screendump) is a pause, not a frame.
            if System.monotonicNanoseconds() - start > interval / 2 { lastFlipTimestamp = nil }
        }
    }

    /// Applies the commits waiting in the queue to the render tree, oldest
    /// first (render thread).
    /// Applies the commits waiting in the queue to the render tree; true
    /// when there were any.
    @discardableResult
    private func applyPendingUpdates() -> Bool {
        updates.take(into: &taken)
        guard !taken.isEmpty else { return false }
        var commits = 0
        var i = 0
        while i < taken.count { taken[i].apply(); commits += taken[i].commitCount; i += 1 }
        let n = taken.count
        taken.removeAll(keepingCapacity: true)
        bump {
            $0.updatesApplied += n
            $0.commitsApplied += commits
        }
        return true
    }

    private func fail(_ error: PresentError) -> Bool {
        state.lock.withLock { failure = error }
        return false
    }

    private func bump(_ change: (inout RenderLoopStatistics) -> Void) {
        state.lock.withLock { change(&stats) }
    }

    @inline(__always) private func seconds(_ ns: Int64) -> MediaTime { MediaTime(ns) / 1e9 }
}
