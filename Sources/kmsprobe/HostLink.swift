import CPosix

/// The screendump handshake with scripts/vm-test, over the serial console
/// (the guest's stdin and stdout).
///
/// The guest prints `READY-FOR-SCREENDUMP <name>` on a line of its own and
/// blocks reading one line from stdin; the host, which watches the serial
/// output, asks QEMU for a screendump over QMP, stores it, and writes one
/// line back (`SCREENDUMP-DONE <name>`). Only then may the guest change the
/// screen or close the DRM device. Without a host (stdin at end of file,
/// or nothing for `timeoutMilliseconds`) the wait ends with an error.
enum HostLink {
    static func requestScreendump(_ name: String, timeoutMilliseconds: Int32 = 30_000) throws(ProbeError) {
        print("READY-FOR-SCREENDUMP \(name)")
        fbr_flush_stdout()
        let deadline = fbr_monotonic_ns() + Int64(timeoutMilliseconds) * 1_000_000
        var line: [UInt8] = []
        var byte: UInt8 = 0
        while true {
            let left = Int32(max(0, (deadline - fbr_monotonic_ns()) / 1_000_000))
            var revents: Int16 = 0
            let r = fbr_poll1(0, Int16(POLLIN), left, &revents)
            if r < 0 && fbr_errno() == EINTR { continue }
            if r < 0 { throw ProbeError("poll on stdin", errno: fbr_errno()) }
            if r == 0 { throw ProbeError("no answer from the host to READY-FOR-SCREENDUMP \(name) in \(timeoutMilliseconds) ms") }
            let n = read(0, &byte, 1)
            if n < 0 && fbr_errno() == EINTR { continue }
            if n < 0 { throw ProbeError("read on stdin", errno: fbr_errno()) }
            if n == 0 { throw ProbeError("stdin closed while waiting for the host's screendump of \(name)") }
            if byte == UInt8(ascii: "\n") { break }
            if byte != UInt8(ascii: "\r") { line.append(byte) }
        }
        let answer = String(decoding: line, as: UTF8.self)
        guard answer == "SCREENDUMP-DONE \(name)" else {
            throw ProbeError("unexpected answer from the host: \"\(answer)\" (wanted SCREENDUMP-DONE \(name))")
        }
    }
}
