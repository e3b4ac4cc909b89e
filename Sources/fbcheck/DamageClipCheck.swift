import CPosix
import DemoScenes
import FBRuntime
import FBRuntimeKMS
import Raster

/// The damage-clip test's scene (`--scene blink`): a still background
/// (a panel and a bar, so the screen is not one colour) and one small
/// square whose colour pulses, pixel-aligned and untransformed, so each
/// frame's damage is that square and nothing else. `changingRect` is where
/// it is, in frame pixels.
final class BlinkScene: DemoScene {
    let root = Layer(name: "root")
    private let panel = Layer(name: "panel")
    private let bar = Layer(name: "bar")
    private let light = Layer(name: "light")
    /// The pulsing square, in frame pixels (whole numbers: no edge blends
    /// into its neighbours).
    let changingRect: IntRect

    init(width: Double, height: Double) {
        root.bounds = Rect(x: 0, y: 0, width: width, height: height)
        root.position = Point(x: width / 2, y: height / 2)
        root.backgroundColor = Color(rgb: 0x1C2433)
        panel.bounds = Rect(x: 0, y: 0, width: (width * 0.6).rounded(), height: (height * 0.5).rounded())
        panel.position = Point(x: (width / 2).rounded(), y: (height / 2).rounded())
        panel.cornerRadius = 12
        panel.backgroundColor = Color(rgb: 0x2E86AB)
        bar.bounds = Rect(x: 0, y: 0, width: (width * 0.8).rounded(), height: 16)
        bar.position = Point(x: (width / 2).rounded(), y: (height * 0.85).rounded())
        bar.backgroundColor = Color(rgb: 0x8AA1B1)
        let side = 24, x = Int((width * 0.7).rounded()), y = Int((height * 0.15).rounded())
        changingRect = IntRect(x: x, y: y, width: side, height: side)
        light.bounds = Rect(x: 0, y: 0, width: Double(side), height: Double(side))
        light.anchorPoint = Point(x: 0, y: 0)
        light.position = Point(x: Double(x), y: Double(y))
        light.backgroundColor = Color(rgb: 0xF2A541)
        for layer in [panel, bar, light] { try! root.addSublayer(layer) }
    }

    func startAnimations(at time: MediaTime) {
        var pulse = BasicAnimation(key: .backgroundColor, from: .color(Color(rgb: 0xF2A541)),
                                   to: .color(Color(rgb: 0xD7263D)), duration: 0.5)
        pulse.autoreverses = true
        pulse.repeatCount = .infinity
        light.add(pulse, forKey: "pulse", at: time)
    }

    func turn(at time: MediaTime) {}
}

/// `--damage-clips-check` (scripts/vm-test's 6.12 guest): what each flip's
/// FB_DAMAGE_CLIPS named, from frame 3 on — frame 1 is the modeset (the
/// whole screen), frame 2 the first flip to the second buffer, which has
/// never held a frame and takes it whole. Recorded on the render thread
/// (`onFrameShown`) from the presenter's cumulative statistics, one flip
/// at a time.
final class DamageClipLog {
    static let firstFrame = 3
    private(set) var flips = 0
    private(set) var flipsWithClips = 0
    private(set) var rects = 0
    private(set) var pixels = 0
    private(set) var mostRects = 0
    private(set) var mostPixels = 0
    /// The union of every logged flip's clip bounding box.
    private(set) var bounds = IntRect.zero
    private var previous = KMSPresenterStatistics()

    /// Render thread, after frame `n` is on screen.
    func record(frame n: Int, _ now: KMSPresenterStatistics) {
        defer { previous = now }
        guard n >= DamageClipLog.firstFrame, now.flips > previous.flips else { return }
        flips += now.flips - previous.flips
        let newRects = now.damageClipRects - previous.damageClipRects
        let newPixels = now.damageClipPixels - previous.damageClipPixels
        flipsWithClips += now.damageClipCommits - previous.damageClipCommits
        rects += newRects
        pixels += newPixels
        mostRects = max(mostRects, newRects)
        mostPixels = max(mostPixels, newPixels)
        bounds = bounds.union(now.lastDamageClipBounds)
    }
}

/// Pixels allowed around the pulsing layer: edge antialiasing may reach
/// one beyond its bounds.
let damageMargin = 2

/// The pulsing layer grown by `damageMargin`: where damage may be.
func damageAllowedRect(_ r: IntRect) -> IntRect {
    IntRect(x: r.x - damageMargin, y: r.y - damageMargin, width: r.width + 2 * damageMargin, height: r.height + 2 * damageMargin)
}

/// The end of `--damage-clips-check`: the plane must have FB_DAMAGE_CLIPS,
/// every logged flip must have carried clips, and they must name only the
/// pulsing square (allowing `damageMargin` pixels around it), at most twice its area per flip (this frame's damage and
/// the buffer's stale area: the previous frame's). Prints the figures and
/// one VMTEST-CHECK line; returns 1 on a failure.
func damageClipCheck(_ log: DamageClipLog, changingRect: IntRect, screenWidth: Int, screenHeight: Int,
                     canClip: Bool) -> Int32 {
    let allowed = damageAllowedRect(changingRect)
    let screen = screenWidth * screenHeight
    func percent(_ p: Int) -> String {
        let hundredths = screen > 0 ? (p * 10_000 + screen / 2) / screen : 0
        return "\(hundredths / 100).\(zeroPadded(hundredths % 100, 2)) %"
    }
    let box = log.bounds
    print("fbcheck: damage clips, flips \(DamageClipLog.firstFrame - 1)…: \(log.flips) flips, \(log.flipsWithClips) with clips, "
          + "\(log.rects) rects (at most \(log.mostRects) a flip), \(log.pixels) px in all, at most \(log.mostPixels) a flip "
          + "(\(percent(log.mostPixels)) of the \(screenWidth)x\(screenHeight) screen); all within \(box.x),\(box.y) \(box.width)x\(box.height); "
          + "the pulsing layer \(changingRect.x),\(changingRect.y) \(changingRect.width)x\(changingRect.height)")
    var problems: [String] = []
    if !canClip { problems.append("the primary plane has no FB_DAMAGE_CLIPS (or the commits are not atomic)") }
    if log.flips < 10 { problems.append("\(log.flips) flips logged, fewer than 10") }
    if log.flipsWithClips != log.flips { problems.append("\(log.flips - log.flipsWithClips) flips without clips") }
    if !box.isEmpty && box.intersection(allowed) != box {
        problems.append("clips reach \(box.x),\(box.y) \(box.width)x\(box.height), beyond the pulsing layer ±\(damageMargin) px")
    }
    if log.mostPixels > 2 * allowed.area { problems.append("a flip named \(log.mostPixels) px, more than twice the layer's \(allowed.area)") }
    if problems.isEmpty {
        print("VMTEST-CHECK PASS fbcheck damage clips: \(log.flipsWithClips) flips each named only the pulsing layer "
              + "(at most \(log.mostPixels) px, \(percent(log.mostPixels)) of the screen)")
        return 0
    }
    print("VMTEST-CHECK FAIL fbcheck damage clips: " + problems.joined(separator: "; "))
    return 1
}

/// What virtio-gpu sent the host for each flip, read from the kernel: a
/// kprobe on `virtio_gpu_cmd_transfer_to_host_2d` (the guest-to-host copy
/// the plane update issues for the damage it merged from the clips; its
/// arguments in Linux 6.12: device, offset, width, height, x, y), through
/// tracefs (`/sys/kernel/tracing`, mounted by the VM's init). Where there is
/// no tracefs, no kprobe support or no virtio-gpu module, `start` says why
/// and the check relies on the clips alone.
final class TransferTrace {
    static let tracing = "/sys/kernel/tracing"
    static let probe = "p:fbr/transfer virtio_gpu:virtio_gpu_cmd_transfer_to_host_2d "
        + "width=$arg3:u32 height=$arg4:u32 x=$arg5:u32 y=$arg6:u32"
    private(set) var isRunning = false

    /// Defines the probe and starts tracing with an empty buffer; returns
    /// nil, or why it could not.
    func start() -> String? {
        let t = TransferTrace.tracing
        guard writeSysfs(t + "/kprobe_events", TransferTrace.probe + "\n") else {
            return "no kprobe on virtio_gpu_cmd_transfer_to_host_2d (\(t)/kprobe_events: no tracefs, no kprobes or no virtio-gpu)"
        }
        // O_TRUNC on `trace` empties the buffer.
        if let fd = try? System.open(t + "/trace", O_WRONLY | O_TRUNC) { System.close(fd) }
        guard writeSysfs(t + "/events/fbr/transfer/enable", "1") else { return "could not enable the fbr/transfer event" }
        isRunning = true
        return nil
    }

    /// Stops tracing and returns each transfer's rectangle (framebuffer
    /// pixels), oldest first; removes the probe.
    func stop() -> [IntRect] {
        let t = TransferTrace.tracing
        guard isRunning else { return [] }
        isRunning = false
        _ = writeSysfs(t + "/events/fbr/transfer/enable", "0")
        let text = (try? System.readFile(t + "/trace", limit: 4 << 20)).map { String(decoding: $0, as: UTF8.self) } ?? ""
        _ = writeSysfs(t + "/kprobe_events", "-:fbr/transfer\n")
        // Lines such as "kworker/0:1-25 [000] ..... 12.3: transfer:
        // (virtio_gpu_cmd_transfer_to_host_2d+0x0/0x110 [virtio_gpu])
        // width=24 height=24 x=448 y=72".
        var rects: [IntRect] = []
        for line in text.utf8.split(separator: UInt8(ascii: "\n")) where line.first != UInt8(ascii: "#") {
            var x: Int?, y: Int?, w: Int?, h: Int?
            for word in line.split(separator: UInt8(ascii: " ")) {
                guard let eq = word.firstIndex(of: UInt8(ascii: "=")),
                      let n = Int(String(decoding: word[word.index(after: eq)...], as: UTF8.self)) else { continue }
                switch String(decoding: word[..<eq], as: UTF8.self) {
                case "x": x = n
                case "y": y = n
                case "width": w = n
                case "height": h = n
                default: break
                }
            }
            if let x, let y, let w, let h { rects.append(IntRect(x: x, y: y, width: w, height: h)) }
        }
        return rects
    }
}

/// The transfers of `--damage-clips-check`, summed up: printed, not
/// asserted — they show what the driver made of the clips, which is its
/// choice (see docs/display-and-kms.md: virtio-gpu sends the whole plane
/// when a commit changes the framebuffer, as every page flip does).
func reportTransfers(_ transfers: [IntRect], allowed: IntRect, screenWidth: Int, screenHeight: Int) {
    var box = IntRect.zero, pixels = 0, largest = 0, within = 0
    for r in transfers {
        box = box.union(r)
        pixels += r.area
        largest = max(largest, r.area)
        if r.intersection(allowed) == r { within += 1 }
    }
    print("fbcheck: virtio-gpu transfers to the host (TRANSFER_TO_HOST_2D, kprobe), flips \(DamageClipLog.firstFrame - 1)…: "
          + "\(transfers.count), \(within) of them within the clips' \(allowed.x),\(allowed.y) \(allowed.width)x\(allowed.height); "
          + "\(pixels) px in all, at most \(largest) (the screen: \(screenWidth * screenHeight)); all within \(box.x),\(box.y) \(box.width)x\(box.height)")
}

/// After the run, one atomic commit of the framebuffer already on screen
/// with one clip, `rect`, traced like the flips: what the driver sends
/// when the framebuffer does not change. Returns the transfers, or nil
/// with the reason printed. The commit's flip event is left unread (the
/// presenter is closed next; its events are not waited for any more).
func sameFramebufferTransfers(_ kms: KMSPresenter, rect: IntRect, trace: TransferTrace) -> [IntRect]? {
    let fb = kms.output.currentFramebufferID()
    if let problem = trace.start() {
        print("fbcheck: no transfer trace for the same-framebuffer commit: \(problem)")
        return nil
    }
    let clips = DamageClips(width: kms.output.width, height: kms.output.height)
    clips.add(rect)
    do {
        let clipped = try kms.committer.pageFlip(kms.output, framebufferID: fb, damage: clips, userData: nil)
        if !clipped { print("fbcheck: the same-framebuffer commit carried no clips") }
    } catch {
        _ = trace.stop()
        print("fbcheck: the same-framebuffer commit failed: \(error.description)")
        return nil
    }
    // The plane update runs in the kernel's commit worker: give it time.
    MonotonicFrameTime().sleep(untilNanoseconds: System.monotonicNanoseconds() + 100_000_000)
    return trace.stop()
}
