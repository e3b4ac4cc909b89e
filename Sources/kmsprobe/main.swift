// kmsprobe: a KMS smoke test for the VM harness (scripts/vm-test), and a
// quick check on a board. It opens a DRM device, finds a connected
// connector, its preferred mode and a CRTC, and shows two test patterns in
// XRGB8888 dumb buffers: the first with drmModeSetCrtc, the second with a
// page flip whose completion event it waits for; then it draws into the
// buffer on screen and reports the damage with drmModeDirtyFB. After each
// step it asks the host for a screendump over the serial console (see
// HostLink). Then it times a burst of flips, restores the CRTC it found and
// exits 0; any failure prints `kmsprobe: error: …` and exits 1.
//
// Usage: kmsprobe [--device PATH] [--no-host] [--flips N]
//   --no-host   do not wait for screendumps (running by hand on a board)
import CDRM
import CPosix

fbr_line_buffer_stdout()

struct Options {
    var devicePath = "/dev/dri/card0"
    var askHost = true
    var burstFlips = 60

    static func parse(_ arguments: [String]) -> Options {
        var options = Options()
        var iterator = arguments.makeIterator()
        while let argument = iterator.next() {
            switch argument {
            case "--device": options.devicePath = iterator.next() ?? options.devicePath
            case "--no-host": options.askHost = false
            case "--flips": options.burstFlips = Int(iterator.next() ?? "") ?? options.burstFlips
            default:
                fbr_write_stderr("usage: kmsprobe [--device PATH] [--no-host] [--flips N]\n")
                exit(2)
            }
        }
        return options
    }
}

func milliseconds(_ ns: Int64) -> String {
    let tenths = (ns + 50_000) / 100_000
    return "\(tenths / 10).\(tenths % 10) ms"
}

func run(_ options: Options) throws(ProbeError) {
    let card = try Card(path: options.devicePath)
    print("kmsprobe: \(options.devicePath): driver \(card.driverName)")
    let output = try card.findOutput()
    print("kmsprobe: connector \(output.connectorName) (id \(output.connectorID)), CRTC \(output.crtcID), mode \(output.modeDescription)")

    // What was on the CRTC (the console, usually), to put back at the end.
    let saved = drmModeGetCrtc(card.fd, output.crtcID)
    if saved == nil { print("kmsprobe: warning: drmModeGetCrtc \(output.crtcID) failed, errno \(fbr_errno()); nothing to restore") }
    defer { if let saved { drmModeFreeCrtc(saved) } }

    let front = try DumbBuffer(card: card, width: output.width, height: output.height)
    let back = try DumbBuffer(card: card, width: output.width, height: output.height)
    print("kmsprobe: two dumb buffers \(output.width)x\(output.height) XRGB8888, pitch \(front.pitch), framebuffers \(front.framebufferID) and \(back.framebufferID)")

    let first = Pattern.quadrants, second = Pattern.bars
    front.fill { first.color(x: $0, y: $1, width: output.width, height: output.height) }
    back.fill { second.color(x: $0, y: $1, width: output.width, height: output.height) }

    var connectorID = output.connectorID
    var mode = output.mode
    let setStart = fbr_monotonic_ns()
    let set = drmModeSetCrtc(card.fd, output.crtcID, front.framebufferID, 0, 0, &connectorID, 1, &mode)
    if drmErrno(set) != 0 { throw ProbeError("drmModeSetCrtc", errno: drmErrno(set)) }
    try front.markDirty()
    print("kmsprobe: drmModeSetCrtc showed \(first.name) in \(milliseconds(fbr_monotonic_ns() - setStart))")
    if options.askHost { try HostLink.requestScreendump(first.name) }

    let flip = Flipper(card: card, crtcID: output.crtcID)
    let (latency, timestamp) = try flip.flip(to: back.framebufferID)
    print("kmsprobe: page flip to \(second.name): event after \(milliseconds(latency)), kernel timestamp \(timestamp) us")
    if options.askHost { try HostLink.requestScreendump(second.name) }

    // Front-buffer rendering: draw into the buffer on screen and report
    // the damage. virtio-gpu shows it only after DirtyFB (its scan-out is
    // a host-side copy); bochs scans out of VRAM and has no dirty hook.
    let damage = Pattern.damageRect(width: output.width, height: output.height)
    back.fill(x: damage.x, y: damage.y, width: damage.width, height: damage.height, Pattern.damageSquare)
    try back.markDirty(x: damage.x, y: damage.y, width: damage.width, height: damage.height)
    print("kmsprobe: drew a \(damage.width)x\(damage.height) checkerboard into the buffer on screen, drmModeDirtyFB on that rectangle")
    if options.askHost { try HostLink.requestScreendump(second.name + "-damaged") }

    // A burst of flips, each waited for, to see how the driver paces them.
    // An even count ends on `back`, so the screen keeps the second pattern.
    if options.burstFlips > 0 {
        let count = options.burstFlips + options.burstFlips % 2
        let start = fbr_monotonic_ns()
        var worst: Int64 = 0
        for i in 0..<count {
            let (l, _) = try flip.flip(to: i % 2 == 0 ? front.framebufferID : back.framebufferID)
            worst = max(worst, l)
        }
        let total = fbr_monotonic_ns() - start
        print("kmsprobe: \(count) flips in \(milliseconds(total)): \(Int64(count) * 1_000_000_000 / max(total, 1)) flips/s, mean \(milliseconds(total / Int64(count))), worst \(milliseconds(worst))")
    }

    if let saved {
        let c = saved.pointee
        if c.mode_valid != 0 && c.buffer_id != 0 {
            var savedMode = c.mode
            let r = drmModeSetCrtc(card.fd, c.crtc_id, c.buffer_id, c.x, c.y, &connectorID, 1, &savedMode)
            if drmErrno(r) != 0 { throw ProbeError("restoring CRTC \(c.crtc_id) (framebuffer \(c.buffer_id))", errno: drmErrno(r)) }
            guard let now = drmModeGetCrtc(card.fd, c.crtc_id) else { throw ProbeError("drmModeGetCrtc after restoring", errno: fbr_errno()) }
            defer { drmModeFreeCrtc(now) }
            guard now.pointee.buffer_id == c.buffer_id else {
                throw ProbeError("CRTC \(c.crtc_id) shows framebuffer \(now.pointee.buffer_id) after restoring \(c.buffer_id)")
            }
            print("kmsprobe: restored CRTC \(c.crtc_id) to framebuffer \(c.buffer_id), mode \(cString(c.mode.name))")
        } else {
            let r = drmModeSetCrtc(card.fd, c.crtc_id, 0, 0, 0, nil, 0, nil)
            if drmErrno(r) != 0 { throw ProbeError("disabling CRTC \(c.crtc_id)", errno: drmErrno(r)) }
            print("kmsprobe: CRTC \(c.crtc_id) was off at start; turned it off again")
        }
    }
    // Swift may end a lifetime at the last use; removing a framebuffer that
    // is still on screen would switch the CRTC off, so the buffers live
    // until the CRTC shows something else.
    withExtendedLifetime(front) {}
    withExtendedLifetime(back) {}
}

/// The arguments after the program name. Embedded Swift has no
/// `CommandLine`, so they come from /proc/self/cmdline.
func commandLineArguments() -> [String] {
    let fd = fbr_open("/proc/self/cmdline", O_RDONLY)
    guard fd >= 0 else { return [] }
    defer { _ = close(fd) }
    var bytes: [UInt8] = []
    var chunk = [UInt8](repeating: 0, count: 4096)
    while true {
        let n = chunk.withUnsafeMutableBytes { read(fd, $0.baseAddress, $0.count) }
        if n < 0 && fbr_errno() == EINTR { continue }
        if n <= 0 { break }
        bytes += chunk[0..<n]
    }
    let fields = bytes.split(separator: 0, omittingEmptySubsequences: false).map { String(decoding: $0, as: UTF8.self) }
    return Array(fields.dropFirst().dropLast(bytes.last == 0 ? 1 : 0))
}

do throws(ProbeError) {
    try run(Options.parse(commandLineArguments()))
    print("kmsprobe: ok")
} catch {
    print("kmsprobe: error: \(error.description)")
    exit(1)
}
