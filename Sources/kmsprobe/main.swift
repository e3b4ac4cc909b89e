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
// Usage: kmsprobe [--device PATH] [--no-host] [--flips N] [--take-master]
//   --no-host   do not wait for screendumps (running by hand on a board)
//   --take-master  the second process of fbcheck's --master-handoff test:
//               wait (≤ 15 s) until DRM master is free, take it, show the
//               quadrants (screendump master-taken), give master back and
//               wait until another framebuffer is on the CRTC (the first
//               process took the display back); no restore.
//   --ready-file PATH  with --take-master: create PATH once polling for
//               master (the first process drops it only then).
//   --vt-back N  with --take-master: after giving master back, switch to
//               VT N (VT_ACTIVATE), where the first process waits.
import CPosix
import FBRuntime
import FBRuntimeKMS
import FBRuntimeTesting
import Raster

fbr_line_buffer_stdout()

struct Options {
    var devicePath = "/dev/dri/card0"
    var askHost = true
    var burstFlips = 60
    var takeMaster = false
    var vtBack: Int32?
    var readyFile: String?

    static func parse(_ arguments: [String]) -> Options {
        var options = Options()
        var iterator = arguments.makeIterator()
        while let argument = iterator.next() {
            switch argument {
            case "--device": options.devicePath = iterator.next() ?? options.devicePath
            case "--no-host": options.askHost = false
            case "--take-master": options.takeMaster = true
            case "--vt-back": options.vtBack = Int32(iterator.next() ?? "")
            case "--ready-file": options.readyFile = iterator.next()
            case "--flips": options.burstFlips = Int(iterator.next() ?? "") ?? options.burstFlips
            default:
                fbr_write_stderr("usage: kmsprobe [--device PATH] [--no-host] [--flips N] [--take-master]\n")
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

/// The host's screendump of `name` (`ScreendumpHandshake`); a failed
/// handshake ends the probe as a failed KMS step does.
func screendump(_ name: String) throws(KMSError) {
    do { try ScreendumpHandshake.request(name) } catch { throw KMSError(.callFailed, error.description) }
}

func run(_ options: Options) throws(KMSError) {
    let device = try DRMDevice(path: options.devicePath)
    print("kmsprobe: \(options.devicePath): driver \(device.driverName)")
    // Finds the first connected connector, its preferred mode and a CRTC,
    // and saves what the CRTC shows (the console) to put back at the end.
    let output = try KMSOutput(device: device)
    print("kmsprobe: connector \(output.connectorName) (id \(output.connectorID)), CRTC \(output.crtcID), mode \(output.modeDescription)")

    let front = try DumbBuffer(device: device, width: output.width, height: output.height, format: .xrgb8888)
    let back = try DumbBuffer(device: device, width: output.width, height: output.height, format: .xrgb8888)
    print("kmsprobe: two dumb buffers \(output.width)x\(output.height) XRGB8888, pitch \(front.pitch), framebuffers \(front.framebufferID) and \(back.framebufferID)")

    let first = Pattern.quadrants, second = Pattern.bars
    front.fill { first.color(x: $0, y: $1, width: output.width, height: output.height) }
    back.fill { second.color(x: $0, y: $1, width: output.width, height: output.height) }

    let setStart = fbr_monotonic_ns()
    try LegacyKMSCommitter().modeset(output, framebufferID: front.framebufferID)
    try front.markDirty()
    print("kmsprobe: drmModeSetCrtc showed \(first.name) in \(milliseconds(fbr_monotonic_ns() - setStart))")
    if options.askHost { try screendump(first.name) }

    let flip = Flipper(output: output)
    let (latency, timestamp) = try flip.flip(to: back.framebufferID)
    print("kmsprobe: page flip to \(second.name): event after \(milliseconds(latency)), kernel timestamp \(timestamp / 1000) us, "
          + "vblank events: \(output.hasVBlankEvents() ? "yes" : "no")")
    if options.askHost { try screendump(second.name) }

    // Front-buffer rendering: draw into the buffer on screen and report
    // the damage. virtio-gpu shows it only after DirtyFB (its scan-out is
    // a host-side copy); bochs scans out of VRAM and has no dirty hook.
    let damage = Pattern.damageRect(width: output.width, height: output.height)
    back.fill(x: damage.x, y: damage.y, width: damage.width, height: damage.height, Pattern.damageSquare)
    try back.markDirty(IntRect(x: damage.x, y: damage.y, width: damage.width, height: damage.height))
    print("kmsprobe: drew a \(damage.width)x\(damage.height) checkerboard into the buffer on screen, drmModeDirtyFB on that rectangle")
    if options.askHost { try screendump(second.name + "-damaged") }

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

    let saved = output.savedFramebufferID
    try output.restore()
    let now = output.currentFramebufferID()
    guard now == saved else { throw KMSError(.callFailed, "CRTC \(output.crtcID) shows framebuffer \(now) after restoring \(saved)") }
    print(saved == 0 ? "kmsprobe: CRTC \(output.crtcID) was off at start; turned it off again"
                     : "kmsprobe: restored CRTC \(output.crtcID) to framebuffer \(saved)")
    // Swift may end a lifetime at the last use; removing a framebuffer that
    // is still on screen would switch the CRTC off, so the buffers live
    // until the CRTC shows something else.
    withExtendedLifetime(front) {}
    withExtendedLifetime(back) {}
}

/// `--take-master`: see the usage notes above.
func takeMaster(_ options: Options) throws(KMSError) {
    let device = try DRMDevice(path: options.devicePath, requireMaster: false)
    let deadline = fbr_monotonic_ns() + 15_000_000_000
    let start = fbr_monotonic_ns()
    var attempts = 0
    if let path = options.readyFile {
        let fd = path.withCString { fbr_open_mode($0, O_WRONLY | O_CREAT | O_TRUNC, 0o644) }
        guard fd >= 0 else { throw KMSError(.callFailed, "creating \(path)", errno: fbr_errno()) }
        _ = close(fd)
    }
    while true {
        attempts += 1
        do { try device.acquireMaster(); break } catch {
            if fbr_monotonic_ns() > deadline { throw error }
            fbr_sleep_ns(2_000_000)
        }
    }
    print("kmsprobe: DRM master after \(milliseconds(fbr_monotonic_ns() - start)), \(attempts) attempts")
    let output = try KMSOutput(device: device)
    let previous = output.currentFramebufferID()
    let buffer = try DumbBuffer(device: device, width: output.width, height: output.height, format: .xrgb8888)
    buffer.fill { Pattern.quadrants.color(x: $0, y: $1, width: output.width, height: output.height) }
    try LegacyKMSCommitter().modeset(output, framebufferID: buffer.framebufferID)
    try buffer.markDirty()
    print("kmsprobe: showing quadrants on CRTC \(output.crtcID) instead of framebuffer \(previous)")
    if options.askHost { try screendump("master-taken") }
    try device.dropMaster()
    if let vt = options.vtBack {
        let tty0 = "/dev/tty0".withCString { fbr_open($0, O_RDWR | O_NOCTTY) }
        guard tty0 >= 0, fbr_vt_activate(tty0, vt) == 0 else {
            throw KMSError(.callFailed, "VT_ACTIVATE \(vt)", errno: fbr_errno())
        }
        _ = close(tty0)
        print("kmsprobe: switched back to VT \(vt)")
    }
    let back = fbr_monotonic_ns()
    while output.currentFramebufferID() == buffer.framebufferID {
        guard fbr_monotonic_ns() < back + 15_000_000_000 else {
            throw KMSError(.timedOut, "nobody took the display back within 15 s")
        }
        fbr_sleep_ns(5_000_000)
    }
    print("kmsprobe: master given back; CRTC \(output.crtcID) shows framebuffer \(output.currentFramebufferID()) "
          + "after \(milliseconds(fbr_monotonic_ns() - back))")
    withExtendedLifetime(buffer) {}
}

do throws(KMSError) {
    let options = Options.parse(Array(System.arguments().dropFirst()))
    if options.takeMaster { try takeMaster(options) } else { try run(options) }
    print("kmsprobe: ok")
} catch {
    print("kmsprobe: error: \(error.description)")
    exit(1)
}
