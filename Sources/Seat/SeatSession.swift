import CPosix
import CSeat

/// Why a seat could not be opened.
public struct SeatError: Error, CustomStringConvertible, Equatable {
    public let description: String
    public init(_ description: String) { self.description = description }
}

/// The process's seat, opened through libseat: a seat manager (seatd, or
/// systemd-logind) opens the DRM and input devices for us, so the program
/// needs neither root nor the `video` and `input` groups, and VT switches
/// are the seat manager's. libseat is loaded at run time (CSeat); without
/// it, or without a seat manager, devices are opened directly
/// (`SeatSession.open` says which).
///
/// While the seat is enabled, devices opened through it work (a DRM device
/// comes with DRM master). When it is disabled (a switch to another VT or
/// session) the seat manager takes master and revokes input devices: the
/// user stops rendering and calls `acknowledgeDisable()`; on `.enable`
/// master is back, and the whole frame must be drawn with a modeset.
///
/// Threading: any thread (CSeat serialises libseat's calls). One seat per
/// process: while one is open, a second `open` opens none (`.direct` with
/// the reason, or a throw when required). Events are queued in arrival
/// order and have one reader: `takeEvent()` after `dispatch()` (the KMS
/// presenter, on the render thread); other users of the seat's devices
/// watch `enableCount`. Nothing is dispatched unless someone calls
/// `dispatch()`: a seat whose display is not KMS leaves a disable
/// unanswered.
public final class SeatSession {
    public enum Event: Equatable, Sendable {
        case none
        /// The seat is going away: stop using the devices, then
        /// `acknowledgeDisable()`.
        case disable
        /// The seat is back: DRM master again; modeset, whole frame.
        case enable
    }

    /// The seat's name ("seat0").
    public let name: String
    /// The libseat backend that opened it ("seatd", "logind", or
    /// "libseat's choice").
    public let backend: String
    private var isClosed = false

    private init(name: String, backend: String) {
        self.name = name
        self.backend = backend
    }

    deinit { close() }

    /// What opening devices comes to: a seat, or direct opening with the
    /// reason (one line for the log).
    public enum Outcome {
        case seat(SeatSession)
        case direct(reason: String)
    }

    /// Opens the seat as `choice` says. A `.libseat` choice tries its
    /// backends in order; when none opens, the outcome is `.direct` with
    /// every backend's reason, unless the choice is `required`, which
    /// throws.
    public static func open(_ choice: SeatChoice, timeoutMilliseconds: Int32 = 2000) throws(SeatError) -> Outcome {
        let backends: [String?]
        let required: Bool
        switch choice {
        case .direct(let reason): return .direct(reason: reason)
        case .libseat(let list, let isRequired):
            backends = list.isEmpty ? [nil] : list.map { $0 }
            required = isRequired
        }
        var reasons: [String] = []
        for backend in backends {
            var error = [CChar](repeating: 0, count: 256)
            let result: Int32
            if let backend {
                result = backend.withCString { fbr_seat_open($0, timeoutMilliseconds, &error, Int32(error.count)) }
            } else {
                result = fbr_seat_open(nil, timeoutMilliseconds, &error, Int32(error.count))
            }
            if result == Int32(FBR_SEAT_OPENED) {
                var name = [CChar](repeating: 0, count: 64), used = [CChar](repeating: 0, count: 32)
                fbr_seat_describe(&name, Int32(name.count), &used, Int32(used.count))
                return .seat(SeatSession(name: string(name), backend: string(used)))
            }
            reasons.append((backend ?? "libseat") + ": " + string(error))
            if result == Int32(FBR_SEAT_UNAVAILABLE) || result == Int32(FBR_SEAT_ALREADY_OPEN) { break }
        }
        var reason = ""
        for r in reasons { reason += (reason.isEmpty ? "" : "; ") + r }
        if required { throw SeatError("FBRUNTIME_SEAT=libseat, but no seat: " + reason) }
        return .direct(reason: reason)
    }

    /// The choice the environment makes: `FBRUNTIME_SEAT` (auto, libseat,
    /// direct), seatd's socket, logind, `LIBSEAT_BACKEND`.
    /// - Throws: `SeatError` for an `FBRUNTIME_SEAT` it does not know.
    public static func choiceFromEnvironment() throws(SeatError) -> SeatChoice {
        let value = environment("FBRUNTIME_SEAT")
        guard let mode = SeatChoice.Mode(environmentValue: value) else {
            throw SeatError("FBRUNTIME_SEAT=\(value ?? "") (auto, libseat or direct)")
        }
        let socket = environment("SEATD_SOCK") ?? "/run/seatd.sock"
        return SeatChoice.decide(mode: mode, seatdSocketExists: exists(socket),
                                 logindRuns: exists("/run/systemd/seats"),
                                 libseatBackend: environment("LIBSEAT_BACKEND"))
    }

    // (FBRuntime's System has these; Seat stays below the core, as Input does.)
    private static func environment(_ name: String) -> String? {
        guard let value = name.withCString({ getenv($0) }) else { return nil }
        return String(cString: value)
    }
    private static func exists(_ path: String) -> Bool { path.withCString { access($0, F_OK) } == 0 }

    /// The descriptor to poll: readable when the seat manager has sent
    /// something (`dispatch()` reads it).
    public var fd: Int32 { fbr_seat_fd() }

    /// True while the seat is enabled.
    public var isActive: Bool { fbr_seat_is_active() != 0 }

    /// Reads what the seat manager sent, waiting up to
    /// `timeoutMilliseconds` (0: not at all); queues the events.
    /// Returns false when the connection failed (the seat manager is gone).
    @discardableResult
    public func dispatch(timeoutMilliseconds: Int32 = 0) -> Bool { fbr_seat_dispatch(timeoutMilliseconds) >= 0 }

    /// How many times the seat came back (enabled again) since it was
    /// opened: a second user of the seat's devices (the app thread's
    /// input) compares it with what it saw last and reopens its devices.
    /// The events themselves go to one reader (`takeEvent()`, the
    /// presenter).
    public var enableCount: Int { Int(fbr_seat_enable_count()) }

    /// The oldest queued event, removed.
    public func takeEvent() -> Event {
        switch fbr_seat_take_event() {
        case Int32(FBR_SEAT_EVENT_DISABLE): return .disable
        case Int32(FBR_SEAT_EVENT_ENABLE): return .enable
        default: return .none
        }
    }

    /// Lets the seat manager take the devices (after a `.disable`, once
    /// nothing more is queued on the display).
    public func acknowledgeDisable() { _ = fbr_seat_acknowledge_disable() }

    /// Opens the device node `path` through the seat manager.
    /// - Returns: the descriptor (read-write, close-on-exec, non-blocking)
    ///   and libseat's id for it, for `closeDevice`.
    /// - Throws: the errno (EACCES, ENOENT…).
    public func openDevice(_ path: String) throws(SeatDeviceError) -> (fd: Int32, deviceID: Int32) {
        var id: Int32 = -1
        let fd = path.withCString { fbr_seat_open_device($0, &id) }
        guard fd >= 0 else { throw SeatDeviceError(path: path, errno: -fd) }
        return (fd, id)
    }

    /// Gives back what `openDevice` opened (the seat manager's side; the
    /// caller closes its descriptor).
    public func closeDevice(_ deviceID: Int32) { _ = fbr_seat_close_device(deviceID) }

    /// Asks the seat manager to switch to `session` (under seatd, the VT
    /// of that number; the user's own VT switch key, in effect). The
    /// disable comes as an event. Returns false when refused.
    @discardableResult
    public func switchSession(_ session: Int32) -> Bool { fbr_seat_switch_session(session) == 0 }

    /// Closes the seat (close its devices first). Idempotent.
    public func close() {
        guard !isClosed else { return }
        isClosed = true
        fbr_seat_close()
    }

    private static func string(_ chars: [CChar]) -> String {
        String(decoding: chars.prefix { $0 != 0 }.map { UInt8(bitPattern: $0) }, as: UTF8.self)
    }
}

/// A device the seat manager would not open.
public struct SeatDeviceError: Error, Equatable {
    public let path: String
    public let errno: Int32
}
