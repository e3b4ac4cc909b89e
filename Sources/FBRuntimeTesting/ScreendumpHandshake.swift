import CPosix
import FBRuntime

/// The screendump handshake with scripts/vm-test, over the serial console
/// (the program's stdin and stdout), shared by kmsprobe and fbcheck.
///
/// The guest prints `READY-FOR-SCREENDUMP <name>` on a line of its own and
/// blocks reading one line from stdin; the host, which watches the serial
/// output, asks QEMU for a screendump over QMP, compares it with
/// Tests/Goldens/vm-<name>.png, and writes back `SCREENDUMP-DONE <name>`.
/// Only then may the guest change the screen or close the DRM device
/// (closing hands the screen back to the console). Without a host (stdin
/// at end of file, or no answer in time) the wait ends with an error.
public enum ScreendumpHandshake {
    /// - Parameter name: letters, digits, '-' and '_' (it names files).
    public static func request(_ name: String, timeoutMilliseconds: Int32 = 30_000) throws(HandshakeError) {
        print("READY-FOR-SCREENDUMP \(name)")
        try awaitAnswer(name, timeoutMilliseconds: timeoutMilliseconds)
    }

    /// The same handshake for a screen that is moving (no golden can say
    /// what it shows): the host saves the dump as `<name>.png` and, given
    /// `earlier`, checks that it differs from the dump of that name — the
    /// screen changed between the two (`READY-FOR-SCREENDUMP-UNCHECKED`).
    public static func requestUnchecked(_ name: String, differingFrom earlier: String? = nil,
                                        timeoutMilliseconds: Int32 = 30_000) throws(HandshakeError) {
        if let earlier { print("READY-FOR-SCREENDUMP-UNCHECKED \(name) \(earlier)") }
        else { print("READY-FOR-SCREENDUMP-UNCHECKED \(name)") }
        try awaitAnswer(name, timeoutMilliseconds: timeoutMilliseconds)
    }

    private static func awaitAnswer(_ name: String, timeoutMilliseconds: Int32) throws(HandshakeError) {
        let answer = try readAnswer(to: "READY-FOR-SCREENDUMP \(name)", timeoutMilliseconds: timeoutMilliseconds)
        guard answer == "SCREENDUMP-DONE \(name)" else {
            throw HandshakeError("unexpected answer from the host: \"\(answer)\" (wanted SCREENDUMP-DONE \(name))")
        }
    }

    /// Flushes stdout and reads the host's answer to `request`: one line
    /// from stdin within `timeoutMilliseconds`, without its line end.
    static func readAnswer(to request: String, timeoutMilliseconds: Int32) throws(HandshakeError) -> String {
        fbr_flush_stdout()
        let deadline = fbr_monotonic_ns() + Int64(timeoutMilliseconds) * 1_000_000
        var line: [UInt8] = []
        var byte: UInt8 = 0
        while true {
            let left = Int32(max(0, (deadline - fbr_monotonic_ns()) / 1_000_000))
            var revents: Int16 = 0
            let r = fbr_poll1(0, Int16(POLLIN), left, &revents)
            if r < 0 && fbr_errno() == EINTR { continue }
            if r < 0 { throw HandshakeError("poll on stdin", errno: fbr_errno()) }
            if r == 0 { throw HandshakeError("no answer from the host to \(request) in \(timeoutMilliseconds) ms") }
            let n = read(0, &byte, 1)
            if n < 0 && fbr_errno() == EINTR { continue }
            if n < 0 { throw HandshakeError("read on stdin", errno: fbr_errno()) }
            if n == 0 { throw HandshakeError("stdin closed while waiting for the host's answer to \(request)") }
            if byte == UInt8(ascii: "\n") { break }
            if byte != UInt8(ascii: "\r") { line.append(byte) }
        }
        return String(decoding: line, as: UTF8.self)
    }
}

/// Asks the host to change the size of QEMU's display (scripts/vm/run.py,
/// over QEMU's VNC server: a client's SetDesktopSize, which QEMU hands to
/// the display device as a new preferred size, as a monitor swapped for
/// another would offer; virtio-gpu then gives the guest a new EDID and
/// display info). Same serial-console handshake as the screendumps:
/// `READY-FOR-DISPLAY-SIZE <name> <width> <height>`, answered
/// `DISPLAY-SIZE-DONE <name>` or `DISPLAY-SIZE-REFUSED <name> <reason>`
/// (a device that cannot change size: QEMU's standard VGA, bochs-drm).
public enum HostDisplaySize {
    /// nil when the host changed the size; else the reason it did not.
    public static func request(_ name: String, width: Int, height: Int,
                               timeoutMilliseconds: Int32 = 30_000) throws(HandshakeError) -> String? {
        let request = "READY-FOR-DISPLAY-SIZE \(name) \(width) \(height)"
        print(request)
        let answer = try ScreendumpHandshake.readAnswer(to: request, timeoutMilliseconds: timeoutMilliseconds)
        if answer == "DISPLAY-SIZE-DONE \(name)" { return nil }
        let refused = "DISPLAY-SIZE-REFUSED \(name) "
        if answer.hasPrefix(refused) { return String(answer.dropFirst(refused.count)) }
        throw HandshakeError("unexpected answer from the host: \"\(answer)\" (wanted DISPLAY-SIZE-DONE \(name))")
    }
}

/// Why a handshake with the host failed: what went wrong (no answer in
/// time, stdin closed, an unexpected answer, a failed read) and the errno
/// of a failed call, 0 when there was none.
public struct HandshakeError: Error, CustomStringConvertible {
    public let message: String
    public let errno: Int32

    public init(_ message: String, errno: Int32 = 0) {
        self.message = message; self.errno = errno
    }

    public var description: String { System.describe(message, errno: errno) }
}
