/// How long a screen may sit without input before it dims and before it
/// turns off (a board file's `idle-dim-after`, `idle-off-after` and
/// `idle-dim-brightness`).
public struct IdleTimeouts: Equatable, Sendable {
    /// Time without input before the backlight dims, nanoseconds; nil:
    /// it never dims.
    public var dimAfterNanoseconds: Int64?
    /// Time without input before the display turns off, nanoseconds,
    /// counted from the last input (not from the dimming); nil: never.
    /// When both are set, later than `dimAfterNanoseconds`.
    public var offAfterNanoseconds: Int64?
    /// The backlight while dimmed, percent of its maximum (1…100).
    public var dimPercent: Int

    /// - Precondition: times positive, `off > dim` when both are set,
    ///   `dimPercent` in 1…100.
    public init(dimAfterNanoseconds: Int64?, offAfterNanoseconds: Int64?, dimPercent: Int = 30) {
        precondition((dimAfterNanoseconds ?? 1) > 0 && (offAfterNanoseconds ?? 1) > 0, "IdleTimeouts: times must be positive")
        if let dim = dimAfterNanoseconds, let off = offAfterNanoseconds {
            precondition(off > dim, "IdleTimeouts: the display turns off after it dims")
        }
        precondition((1...100).contains(dimPercent), "IdleTimeouts: dimPercent is 1…100")
        self.dimAfterNanoseconds = dimAfterNanoseconds
        self.offAfterNanoseconds = offAfterNanoseconds
        self.dimPercent = dimPercent
    }
}

/// Where idle blanking stands (`IdlePolicy`).
public enum IdleState: Equatable, Sendable {
    /// Full brightness, frames flowing.
    case active
    /// The backlight dimmed; the display still shows frames, and input is
    /// delivered (it brightens the screen again).
    case dimmed
    /// The display is off (KMS ACTIVE = 0 / DPMS off) and the backlight at
    /// 0: nothing is rendered or flipped.
    case off
    /// Input woke the display: it is powered again and its first frame is
    /// on its way; the backlight comes back once that frame is shown (or
    /// `IdlePolicy.wakeTimeoutNanoseconds` passed), so the panel never
    /// lights what was on it before.
    case waking
}

/// What the policy asks the screen to do at a transition (`IdleBlanker`
/// carries it out).
public enum IdleAction: Equatable, Sendable {
    /// Remember the backlight's brightness, then dim it.
    case dimBacklight
    /// Backlight to 0 (after remembering it, when coming from `active`)
    /// and the display's power off.
    case displayOff
    /// The display's power on (the next frame is a modeset with the whole
    /// frame); the backlight stays dark until `restoreBacklight`.
    case displayOn
    /// The remembered brightness back.
    case restoreBacklight
}

/// One input event as idle blanking sees it.
public enum IdleInput: Equatable, Sendable {
    /// A touch's phase (`TouchEvent.Phase`) and id (its slot).
    case touch(id: Int32, phase: TouchEvent.Phase)
    /// A key pressed (also auto-repeat) or released: its evdev code.
    case key(code: UInt32, pressed: Bool)
    /// Anything else the user did (a wheel turned, a pointer moved).
    case other
}

/// Idle blanking as appliances do it, as a small explicit state machine
/// over a clock in nanoseconds (the render loop's, `FrameTimeSource`):
///
///     active ──idle ≥ dimAfter──▶ dimmed ──idle ≥ offAfter──▶ off
///     active ──idle ≥ offAfter (no dim, or both due)──▶ off
///     dimmed ──input (delivered)──▶ active                 [restoreBacklight]
///     off ──touch-down / key press / other input (swallowed)──▶ waking [displayOn]
///     waking ──frame shown, or wakeTimeout──▶ active       [restoreBacklight]
///
/// "idle" is the time since the last input (`input(_:at:)`), or since
/// the policy was made. The input that wakes the display is not
/// delivered, nor is the rest of its sequence: a touch's moves and its
/// up or cancel (by id), a key's repeats and release (by code), so a tap
/// on a dark screen is never a tap on what appears. Touches and keys
/// that began before the display went off end as they are (delivered),
/// so the app never sees a touch that begins and does not end. Further
/// touches, even while waking, are delivered.
///
/// A pure value: no clock, no device (`IdleBlanker` drives it and does
/// what it asks), so every transition is tested on the host.
public struct IdlePolicy: Equatable, Sendable {
    public let timeouts: IdleTimeouts
    /// Longest the backlight stays dark after a wake when no frame comes
    /// (the display taken by another process, say), nanoseconds.
    public var wakeTimeoutNanoseconds: Int64 = 500_000_000
    public private(set) var state = IdleState.active
    /// When the last input came (or the policy was made), ns.
    public private(set) var lastInputNanoseconds: Int64
    /// When the display was asked to wake, ns (valid in `waking`).
    public private(set) var wokeNanoseconds: Int64 = 0
    /// The touch ids and key codes of the sequence that woke the display,
    /// not yet ended: their events are swallowed.
    public private(set) var swallowedTouches: [Int32] = []
    public private(set) var swallowedKeys: [UInt32] = []

    /// A policy in `active`, its idle time counted from `now` (ns).
    public init(timeouts: IdleTimeouts, now: Int64) {
        self.timeouts = timeouts
        lastInputNanoseconds = now
    }

    /// The next time (ns) `tick(now:)` may change the state without input;
    /// nil when nothing is due (off, or no timeout set). For the app
    /// thread's wait.
    public var nextDeadlineNanoseconds: Int64? {
        switch state {
        case .active:
            let dim = timeouts.dimAfterNanoseconds.map { lastInputNanoseconds + $0 }
            let off = timeouts.offAfterNanoseconds.map { lastInputNanoseconds + $0 }
            if let dim { return dim }
            return off
        case .dimmed:
            return timeouts.offAfterNanoseconds.map { lastInputNanoseconds + $0 }
        case .off:
            return nil
        case .waking:
            return wokeNanoseconds + wakeTimeoutNanoseconds
        }
    }

    /// The transition the time alone makes at `now` (ns), if any.
    public mutating func tick(now: Int64) -> IdleAction? {
        let idle = now - lastInputNanoseconds
        switch state {
        case .active:
            if let off = timeouts.offAfterNanoseconds, idle >= off { state = .off; return .displayOff }
            if let dim = timeouts.dimAfterNanoseconds, idle >= dim { state = .dimmed; return .dimBacklight }
            return nil
        case .dimmed:
            if let off = timeouts.offAfterNanoseconds, idle >= off { state = .off; return .displayOff }
            return nil
        case .off:
            return nil
        case .waking:
            if now - wokeNanoseconds >= wakeTimeoutNanoseconds { state = .active; return .restoreBacklight }
            return nil
        }
    }

    /// The first frame after a wake reached the screen.
    public mutating func frameShown() -> IdleAction? {
        guard state == .waking else { return nil }
        state = .active
        return .restoreBacklight
    }

    /// `event` came at `now` (ns): whether to deliver it to the app, and
    /// the transition it makes.
    public mutating func input(_ event: IdleInput, at now: Int64) -> (deliver: Bool, action: IdleAction?) {
        lastInputNanoseconds = now
        // The rest of the waking sequence, in any state.
        switch event {
        case .touch(let id, let phase):
            if let i = swallowedTouches.firstIndex(of: id) {
                if phase == .ended || phase == .cancelled { swallowedTouches.remove(at: i) }
                // A new touch-down on a reused id while one is held cannot
                // come from a device; it falls through as the same sequence.
                return (false, nil)
            }
        case .key(let code, let pressed):
            if let i = swallowedKeys.firstIndex(of: code) {
                if !pressed { swallowedKeys.remove(at: i) }
                return (false, nil)
            }
        case .other:
            break
        }
        switch state {
        case .active, .waking:
            return (true, nil)
        case .dimmed:
            state = .active
            return (true, .restoreBacklight)
        case .off:
            switch event {
            case .touch(let id, let phase):
                // The end of a touch that began before the display went
                // off is delivered (and wakes nothing by itself).
                guard phase == .began else { return (true, nil) }
                swallowedTouches.append(id)
            case .key(let code, let pressed):
                guard pressed else { return (true, nil) }
                swallowedKeys.append(code)
            case .other:
                break
            }
            state = .waking
            wokeNanoseconds = now
            return (false, .displayOn)
        }
    }
}
