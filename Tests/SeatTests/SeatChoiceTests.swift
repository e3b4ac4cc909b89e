import Seat
import XCTest

/// The choice between libseat and direct opening (no seat manager needed:
/// `SeatChoice.decide` is a pure function of what the environment shows).
final class SeatChoiceTests: XCTestCase {
    func testModeFromEnvironment() {
        XCTAssertEqual(SeatChoice.Mode(environmentValue: nil), .auto)
        XCTAssertEqual(SeatChoice.Mode(environmentValue: ""), .auto)
        XCTAssertEqual(SeatChoice.Mode(environmentValue: "auto"), .auto)
        XCTAssertEqual(SeatChoice.Mode(environmentValue: "libseat"), .libseat)
        XCTAssertEqual(SeatChoice.Mode(environmentValue: "direct"), .direct)
        XCTAssertNil(SeatChoice.Mode(environmentValue: "seatd"))
    }

    func testAutoWithoutSeatManagerOpensDirectly() {
        // Not libseat: its built-in seatd would take the VT as root.
        XCTAssertEqual(SeatChoice.decide(mode: .auto, seatdSocketExists: false, logindRuns: false, libseatBackend: nil),
                       .direct(reason: "no seat manager (no seatd socket, no logind)"))
        XCTAssertEqual(SeatChoice.decide(mode: .auto, seatdSocketExists: false, logindRuns: false, libseatBackend: ""),
                       .direct(reason: "no seat manager (no seatd socket, no logind)"))
    }

    func testAutoTriesWhatRuns() {
        XCTAssertEqual(SeatChoice.decide(mode: .auto, seatdSocketExists: true, logindRuns: false, libseatBackend: nil),
                       .libseat(backends: ["seatd"], required: false))
        XCTAssertEqual(SeatChoice.decide(mode: .auto, seatdSocketExists: false, logindRuns: true, libseatBackend: nil),
                       .libseat(backends: ["logind"], required: false))
        // libseat's own order: seatd first.
        XCTAssertEqual(SeatChoice.decide(mode: .auto, seatdSocketExists: true, logindRuns: true, libseatBackend: nil),
                       .libseat(backends: ["seatd", "logind"], required: false))
    }

    func testLibseatBackendIsTheUsersChoice() {
        XCTAssertEqual(SeatChoice.decide(mode: .auto, seatdSocketExists: false, logindRuns: false, libseatBackend: "builtin"),
                       .libseat(backends: ["builtin"], required: false))
    }

    func testForcedModes() {
        XCTAssertEqual(SeatChoice.decide(mode: .direct, seatdSocketExists: true, logindRuns: true, libseatBackend: "seatd"),
                       .direct(reason: "FBRUNTIME_SEAT=direct"))
        XCTAssertEqual(SeatChoice.decide(mode: .libseat, seatdSocketExists: false, logindRuns: false, libseatBackend: nil),
                       .libseat(backends: [], required: true))
    }

    func testDirectChoiceOpensNoSeat() throws {
        guard case .direct(let reason) = try SeatSession.open(.direct(reason: "test")) else {
            return XCTFail("a direct choice opened a seat")
        }
        XCTAssertEqual(reason, "test")
    }

    /// A seatd backend with no seatd socket (SEATD_SOCK names a path that
    /// does not exist): libseat refuses, and the outcome is direct with its
    /// reason; required, it throws. Runs the real libseat where installed.
    func testUnreachableSeatdFallsBackToDirect() throws {
        setenv("SEATD_SOCK", "/nonexistent/seatd.sock", 1)
        defer { unsetenv("SEATD_SOCK") }
        let outcome = try SeatSession.open(.libseat(backends: ["seatd"], required: false), timeoutMilliseconds: 100)
        guard case .direct(let reason) = outcome else { return XCTFail("opened a seat with no seatd") }
        XCTAssertTrue(reason.hasPrefix("seatd: "), reason)
        XCTAssertThrowsError(try SeatSession.open(.libseat(backends: ["seatd"], required: true), timeoutMilliseconds: 100))
    }
}
