/// How devices are opened: through a seat manager with libseat, or
/// directly (the program needs the `video` and `input` groups, and handles
/// VT switches itself). A pure decision from what the environment shows,
/// so it is tested without a seat manager.
public enum SeatChoice: Equatable, Sendable {
    /// Open the devices directly; `reason` says why (one log line).
    case direct(reason: String)
    /// Try libseat with these backends in order ("seatd", "logind"; an
    /// empty list: libseat's own choice). `required`: when none opens,
    /// fail rather than open directly.
    case libseat(backends: [String], required: Bool)

    /// What `FBRUNTIME_SEAT` may say.
    public enum Mode: Equatable, Sendable {
        /// libseat when a seat manager is reachable, else direct.
        case auto
        /// libseat or nothing (its own backend choice, LIBSEAT_BACKEND
        /// honoured; as root that includes its built-in seatd).
        case libseat
        /// Always direct.
        case direct

        /// `FBRUNTIME_SEAT`'s value: "auto" (or unset, or empty),
        /// "libseat", "direct"; nil for anything else.
        public init?(environmentValue: String?) {
            switch environmentValue ?? "" {
            case "", "auto": self = .auto
            case "libseat": self = .libseat
            case "direct": self = .direct
            default: return nil
            }
        }
    }

    /// The choice for `mode`, given whether seatd's socket exists
    /// (`SEATD_SOCK`, else /run/seatd.sock), whether logind runs
    /// (/run/systemd/seats) and the value of `LIBSEAT_BACKEND`.
    ///
    /// In `.auto` libseat is tried only where a seat manager is found:
    /// Debian's libseat also has a built-in seatd, which as root would
    /// "succeed" with no seat manager running and take the VT itself. A
    /// `LIBSEAT_BACKEND` that is set is the user's choice and taken as it is.
    public static func decide(mode: Mode, seatdSocketExists: Bool, logindRuns: Bool,
                              libseatBackend: String?) -> SeatChoice {
        switch mode {
        case .direct:
            return .direct(reason: "FBRUNTIME_SEAT=direct")
        case .libseat:
            return .libseat(backends: [], required: true)
        case .auto:
            if let backend = libseatBackend, !backend.isEmpty {
                return .libseat(backends: [backend], required: false)
            }
            var backends: [String] = []
            if seatdSocketExists { backends.append("seatd") }
            if logindRuns { backends.append("logind") }
            if backends.isEmpty { return .direct(reason: "no seat manager (no seatd socket, no logind)") }
            return .libseat(backends: backends, required: false)
        }
    }
}
