/// Carries out idle blanking (`IdlePolicy`) on a render loop's display and
/// a backlight: dims the backlight after the dim time, turns it to 0 and
/// the display off after the off time (`RenderLoop.setDisplayPowered`:
/// no frame rendered or flipped while off), and on input powers the
/// display on, swallows the waking sequence and restores the remembered
/// brightness once the first frame is on screen.
///
/// Time is the render loop's clock (`RenderLoop.time`, monotonic ns), the
/// one its frames are planned on. The app thread feeds it every input
/// event (`admit`) before delivering it, calls `tick()` each turn, and
/// wakes by `nextDeadlineNanoseconds` at the latest (`App` does all three).
///
/// Threading: one thread (the app thread). The backlight is written only
/// at transitions (two or three sysfs writes per blanking).
public final class IdleBlanker {
    /// The state machine it follows.
    public private(set) var policy: IdlePolicy
    /// nil: display power only (no backlight, or none found).
    public let backlight: Backlight?
    public let loop: RenderLoop
    /// The brightness before dimming (restored on wake), if one was read.
    public private(set) var rememberedBrightness: Int?
    /// The last backlight read or write that failed, for a log line;
    /// blanking goes on without it.
    public private(set) var lastBacklightError: SystemError?
    private var framesShownAtWake = 0

    public var state: IdleState { policy.state }

    /// Starts in `active`, idle counted from now on the loop's clock.
    public init(timeouts: IdleTimeouts, backlight: Backlight?, loop: RenderLoop) {
        self.policy = IdlePolicy(timeouts: timeouts, now: loop.time.nanoseconds())
        self.backlight = backlight
        self.loop = loop
    }

    /// Whether `event` (which came now) goes on to the app; makes the
    /// transition it causes (a wake, a brightening).
    public func admit(_ event: IdleInput) -> Bool {
        let (deliver, action) = policy.input(event, at: loop.time.nanoseconds())
        if let action { perform(action) }
        return deliver
    }

    /// Makes the transitions due now: dim, off, and the end of a wake (a
    /// frame shown since, or the wake timeout).
    public func tick() {
        if policy.state == .waking && loop.statistics.framesShown > framesShownAtWake,
           let action = policy.frameShown() {
            perform(action)
        }
        if let action = policy.tick(now: loop.time.nanoseconds()) { perform(action) }
    }

    /// When `tick()` should run next (loop clock, ns); nil: only input
    /// changes anything. While waking, a short poll for the first frame.
    public var nextDeadlineNanoseconds: Int64? {
        guard policy.state != .waking else {
            return min(loop.time.nanoseconds() + 10_000_000, policy.nextDeadlineNanoseconds ?? .max)
        }
        return policy.nextDeadlineNanoseconds
    }

    /// Gives the backlight its remembered brightness back (the app is
    /// ending, dimmed or off: the console must not stay dark). The display
    /// power comes back with the presenter's own restore.
    public func restoreBacklight() {
        if let level = rememberedBrightness { write(level) }
        rememberedBrightness = nil
    }

    private func perform(_ action: IdleAction) {
        switch action {
        case .dimBacklight:
            guard let backlight else { return }
            remember()
            let dim = backlight.steps(percent: policy.timeouts.dimPercent)
            write(min(dim, rememberedBrightness ?? dim))   // never brighter than it was
        case .displayOff:
            remember()
            if backlight != nil { write(0) }
            loop.setDisplayPowered(false)
        case .displayOn:
            framesShownAtWake = loop.statistics.framesShown
            loop.setDisplayPowered(true)
        case .restoreBacklight:
            restoreBacklight()
        }
    }

    /// Reads the brightness to come back to, unless one is remembered
    /// (dimmed, then off: the level before dimming).
    private func remember() {
        guard let backlight, rememberedBrightness == nil else { return }
        do { rememberedBrightness = try backlight.brightness() } catch { lastBacklightError = error }
    }

    private func write(_ level: Int) {
        guard let backlight else { return }
        do { try backlight.setBrightness(level) } catch { lastBacklightError = error }
    }
}
