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
import CPosix
import FBRuntime
import Raster

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
    if options.askHost { try ScreendumpHandshake.request(first.name) }

    let flip = Flipper(output: output)
    let (latency, timestamp) = try flip.flip(to: back.framebufferID)
    print("kmsprobe: page flip to \(second.name): event after \(milliseconds(latency)), kernel timestamp \(timestamp / 1000) us, "
          + "vblank events: \(output.hasVBlankEvents() ? "yes" : "no")")
    if options.askHost { try ScreendumpHandshake.request(second.name) }

    // Front-buffer rendering: draw into the buffer on screen and report
    // the damage. virtio-gpu shows it only after DirtyFB (its scan-out is
    // a host-side copy); bochs scans out of VRAM and has no dirty hook.
    let damage = Pattern.damageRect(width: output.width, height: output.height)
    back.fill(x: damage.x, y: damage.y, width: damage.width, height: damage.height, Pattern.damageSquare)
    try back.markDirty(IntRect(x: damage.x, y: damage.y, width: damage.width, height: damage.height))
    print("kmsprobe: drew a \(damage.width)x\(damage.height) checkerboard into the buffer on screen, drmModeDirtyFB on that rectangle")
    if options.askHost { try ScreendumpHandshake.request(second.name + "-damaged") }

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

do throws(KMSError) {
    try run(Options.parse(Array(System.arguments().dropFirst())))
    print("kmsprobe: ok")
} catch {
    print("kmsprobe: error: \(error.description)")
    exit(1)
}
