import CInput
import CPosix
import DemoScenes
import FBRuntime
import Input
import TouchInput

/// fbcheck's touch: drag a layer of the scene with a finger (or the mouse,
/// as one touch), pinch to zoom it (`SceneTouch`, shared with fbsim).
/// Input comes from the board's `touch-device` (a device node: libinput's
/// path backend; otherwise udev's seat0), mapped through the board's
/// rotation and calibration (`DisplayOrientation`), and routed on the app
/// thread inside `RenderLoop.update`, since the hit test reads the tree the
/// render thread draws and the gestures change it.
final class TouchControl {
    private let seat: InputSeat
    private let touch: SceneTouch
    private let width: UInt32, height: UInt32
    /// Touch events routed so far.
    var touchCount: Int { touch.touchCount }
    /// Names of the touch and pointer devices libinput added so far.
    var addedDevices: [String] { touch.addedDevices }
    /// Names of the devices libinput removed so far.
    private(set) var removedDevices: [String] = []
    /// Sees each input event before it is routed; false drops it (idle
    /// blanking's swallowed wake, `IdleBlankCheck`).
    var admit: ((InputEvent) -> Bool)?
    /// The name of the touchscreen `uinputDragCheck` makes.
    static let uinputTouchscreenName = "fbcheck uinput touchscreen"

    /// How many times a device called `name` was added / removed.
    func addedCount(of name: String) -> Int { count(name, in: addedDevices) }
    func removedCount(of name: String) -> Int { count(name, in: removedDevices) }
    private func count(_ name: String, in names: [String]) -> Int {
        var n = 0
        for other in names where other == name { n += 1 }
        return n
    }

    /// nil (with a message) when no input can be opened.
    /// `chrome`: the HUD, whose overlay toggle joins the scene's gestures.
    init?(board: BoardConfig, scene: any DemoScene, width: Int, height: Int, chrome: DemoChrome? = nil) {
        do { seat = try InputSeat.open(touchDevice: board.touchDevice, session: seatSession) } catch {
            print("fbcheck: no touch input: \(error.description)")
            return nil
        }
        self.width = UInt32(max(width, 1))
        self.height = UInt32(max(height, 1))
        touch = SceneTouch(scene: scene, orientation: DisplayOrientation(board: board, panelWidth: width, panelHeight: height))
        chrome?.installToggle(in: touch.router)
    }

    /// Waits up to `timeoutMilliseconds` for input (or a recogniser's
    /// deadline) and routes what came, with the scene lock held. Returns
    /// the timestamp (media time) of the last touch move routed, if any.
    @discardableResult
    func waitAndDispatch(_ loop: RenderLoop, timeoutMilliseconds: Int32) -> MediaTime? {
        var lastMove: MediaTime?
        var timeout = timeoutMilliseconds
        let now = MonotonicClock().now
        if let deadline = touch.nextDeadline {
            timeout = Int32(min(Double(timeout), max(0, (deadline - now) * 1000)))
        }
        // An animation a gesture started ends by then: its transaction's
        // completion handler runs in the turn after.
        timeout = Int32(appWaitNanoseconds(Int64(timeout) * 1_000_000) / 1_000_000)
        var revents: Int16 = 0
        _ = fbr_poll1(seat.fd, Int16(POLLIN), timeout, &revents)
        loop.update { _ in
            // A turn of the app's run loop: the gestures' changes are
            // committed (their animations begin) and the completion
            // handlers of finished transactions run.
            AppRunLoop.current.runTurn {
                seat.dispatch(width: width, height: height) { event in
                    if case .deviceRemoved(let name, _) = event { removedDevices.append(name) }
                    if let admit, !admit(event) { return }
                    if let routed = touch.handle(event, log: { print("fbcheck: \($0)") }), routed.phase == .moved {
                        lastMove = routed.timestamp
                    }
                }
                touch.advance(to: MonotonicClock().now)
            }
        }
        return lastMove
    }

    /// Routes what libinput has if it becomes readable within
    /// `timeoutMilliseconds`, committing only then (`waitAndDispatch`
    /// commits, and so asks for a frame, on every call).
    func dispatchIfReadable(_ loop: RenderLoop, timeoutMilliseconds: Int32) {
        var revents: Int16 = 0
        if fbr_poll1(seat.fd, Int16(POLLIN), timeoutMilliseconds, &revents) > 0 {
            waitAndDispatch(loop, timeoutMilliseconds: 0)
        }
    }

    /// The drag check of scripts/vm-test (`--drag-check`, on a still
    /// scene): asks the host to drag QEMU's tablet from the top-level layer
    /// at 20 %, 30 % of the screen 160/640 of its width to the right
    /// (`READY-FOR-POINTER`, answered over QMP), then requires that layer
    /// to have moved by that much. Prints the touch-to-photon latency: from
    /// the kernel's timestamp of the move to the app thread seeing the page
    /// flip of the first frame after it (still scene: nothing else renders).
    /// Returns the exit status.
    func dragCheck(_ loop: RenderLoop, width: Int, height: Int) -> Int32 {
        let start = Point(x: Double(width) * 0.2, y: Double(height) * 0.3)
        let target: Layer? = loop.update { root in SceneTouch.topLevelLayer(at: start, in: root) }
        guard let target else { print("fbcheck: error: no layer at 20 %, 30 % to drag"); return 1 }
        let before: Point = loop.update { _ in target.position }
        // Tablet units 0…32767 over the screen: 6554 ≈ 20 %, 9830 ≈ 30 %;
        // 8192 units right is a quarter of the width.
        print("READY-FOR-POINTER fbcheck-drag 6554 9830 14746 9830")
        fbr_flush_stdout()
        var line: [UInt8] = []
        var byte: UInt8 = 0
        var answered = false
        var latency: Double?
        // As long as a screendump handshake waits (a loaded host's QMP).
        let deadline = System.monotonicNanoseconds() + 30_000_000_000
        while !answered && System.monotonicNanoseconds() < deadline {
            var revents: Int16 = 0
            let r = fbr_poll1(0, Int16(POLLIN), 5, &revents)
            if r == 0 {
                let shown = loop.statistics.framesShown
                if let moved = waitAndDispatch(loop, timeoutMilliseconds: 0), latency == nil {
                    _ = loop.waitUntil(timeoutNanoseconds: 1_000_000_000) { $0.framesShown > shown }
                    latency = MonotonicClock().now - moved
                }
                continue
            }
            if r < 0 { if fbr_errno() == EINTR { continue }; break }
            guard read(0, &byte, 1) == 1 else { break }
            if byte == UInt8(ascii: "\n") {
                answered = String(decoding: line, as: UTF8.self) == "POINTER-DONE fbcheck-drag"
                line.removeAll()
            } else if byte != UInt8(ascii: "\r") {
                line.append(byte)
            }
        }
        for _ in 0..<20 { waitAndDispatch(loop, timeoutMilliseconds: 10) }   // the release
        let after: Point = loop.update { _ in target.position }
        let want = Double(width) * 8192 / 32768
        let moved = after.x - before.x
        let period = Double(loop.presenter.refreshIntervalNanoseconds) / 1e9
        /// One decimal (Embedded Swift prints no Double).
        func tenths(_ v: Double) -> String {
            guard v.isFinite else { return "?" }
            let t = Int((v * 10).rounded())
            return (t < 0 ? "-" : "") + "\(abs(t) / 10).\(abs(t) % 10)"
        }
        print("fbcheck: drag: \(target.name) moved \(tenths(moved)) points right (want \(tenths(want))), "
              + "\(tenths(after.y - before.y)) down; touch-to-photon "
              + (latency.map { "\(tenths($0 * 1000)) ms (\(tenths($0 / period)) refresh periods)" } ?? "not measured"))
        guard answered, abs(moved - want) < 0.5, abs(after.y - before.y) < 0.5, latency != nil else {
            print("fbcheck: error: the drag did not move the layer as sent\(answered ? "" : " (no answer from the host)")")
            return 1
        }
        return 0
    }

    /// The uinput drag check (`--uinput-drag-check`, on a still scene, in
    /// the VM with udevd running): makes a multitouch touchscreen with
    /// /dev/uinput after the seat is open, waits for libinput to hot-plug
    /// it, puts a finger down on the top-level layer at 20 %, 30 % of the
    /// screen and moves it right in steps (a quarter of the width in all),
    /// then requires that layer to have moved by as much. Prints the
    /// touch-to-photon latency of each step: from just before the uinput
    /// write of the move to the app thread seeing the page flip of the
    /// first frame after it (each step starts with no frame pending, the
    /// scene being still). Returns the exit status.
    func uinputDragCheck(_ loop: RenderLoop, width: Int, height: Int) -> Int32 {
        let name = TouchControl.uinputTouchscreenName
        let known = addedCount(of: name)   // a device of that name may have come and gone
        let fd: Int32
        do { fd = try System.open("/dev/uinput", O_WRONLY | O_NONBLOCK) } catch {
            print("fbcheck: error: \(error.description)"); return 1
        }
        defer { _ = fbr_uinput_destroy(fd); System.close(fd) }
        let r = name.withCString { fbr_uinput_create_touchscreen(fd, $0, 4095, 4095, 16, 10) }
        guard r >= 0 else { print("fbcheck: error: uinput create failed (errno \(-r))"); return 1 }
        let created = MonotonicClock().now
        while addedCount(of: name) == known && MonotonicClock().now - created < 5 { waitAndDispatch(loop, timeoutMilliseconds: 50) }
        guard addedCount(of: name) > known else { print("fbcheck: error: the seat did not add the uinput touchscreen (no udevd?)"); return 1 }
        func emit(_ type: Int32, _ code: Int32, _ value: Int32) { _ = fbr_uinput_emit(fd, type, code, value) }
        func contact(x: Int32, y: Int32, trackingID: Int32?) {
            emit(FBR_EV_ABS, FBR_ABS_MT_SLOT, 0)
            if let trackingID { emit(FBR_EV_ABS, FBR_ABS_MT_TRACKING_ID, trackingID) }
            emit(FBR_EV_ABS, FBR_ABS_MT_POSITION_X, x)
            emit(FBR_EV_ABS, FBR_ABS_MT_POSITION_Y, y)
            emit(FBR_EV_KEY, FBR_BTN_TOUCH, 1)
            emit(FBR_EV_ABS, FBR_ABS_X, x)
            emit(FBR_EV_ABS, FBR_ABS_Y, y)
            emit(FBR_EV_SYN, FBR_SYN_REPORT, 0)
        }
        /// Routes what libinput has once it is readable (1 s at most),
        /// asking for a frame only then: `waitAndDispatch` asks for one each
        /// call, and frames asked for while idle would flip without the move.
        /// Whether a touch move was routed.
        func route() -> Bool {
            let deadline = MonotonicClock().now + 1
            while MonotonicClock().now < deadline {
                var revents: Int16 = 0
                if fbr_poll1(seat.fd, Int16(POLLIN), 10, &revents) > 0 {
                    if waitAndDispatch(loop, timeoutMilliseconds: 0) != nil { return true }
                }
            }
            return false
        }
        /// Lets what the last write caused reach the screen; afterwards no frame is pending.
        func settle(_ milliseconds: Int64) { fbr_sleep_ns(milliseconds * 1_000_000) }

        let start = Point(x: Double(width) * 0.2, y: Double(height) * 0.3)
        let target: Layer? = loop.update { root in SceneTouch.topLevelLayer(at: start, in: root) }
        guard let target else { print("fbcheck: error: no layer at 20 %, 30 % to drag"); return 1 }
        let before: Point = loop.update { _ in target.position }
        // Axes 0…4095 over the screen; libinput's transformed coordinate is
        // raw · size / 4096. 819 ≈ 20 %, 1228 ≈ 30 %; 8 steps of 128 units
        // are a quarter of the width.
        let x0: Int32 = 819, y0: Int32 = 1228, step: Int32 = 128, steps: Int32 = 8
        contact(x: x0, y: y0, trackingID: 1)
        _ = route()
        settle(150)
        var latencies: [Double] = []
        for i in 1...steps {
            settle(100)   // no frame pending: the next flip is this move's
            let idle = loop.statistics
            let shown = idle.framesShown
            let written = MonotonicClock().now
            contact(x: x0 + i * step, y: y0, trackingID: nil)
            let routed = route()
            if routed && idle.framesRendered == shown && loop.waitUntil(timeoutNanoseconds: 1_000_000_000, { $0.framesShown > shown }) {
                latencies.append(MonotonicClock().now - written)
            }
        }
        emit(FBR_EV_ABS, FBR_ABS_MT_SLOT, 0)
        emit(FBR_EV_ABS, FBR_ABS_MT_TRACKING_ID, -1)
        emit(FBR_EV_KEY, FBR_BTN_TOUCH, 0)
        emit(FBR_EV_SYN, FBR_SYN_REPORT, 0)
        for _ in 0..<20 { waitAndDispatch(loop, timeoutMilliseconds: 10) }   // the release
        let after: Point = loop.update { _ in target.position }
        let want = Double(steps * step) * Double(width) / 4096
        let moved = after.x - before.x
        let period = Double(loop.presenter.refreshIntervalNanoseconds) / 1e9
        func tenths(_ v: Double) -> String {
            guard v.isFinite else { return "?" }
            let t = Int((v * 10).rounded())
            return (t < 0 ? "-" : "") + "\(abs(t) / 10).\(abs(t) % 10)"
        }
        let sorted = latencies.sorted()
        print("fbcheck: uinput drag: \(target.name) moved \(tenths(moved)) points right (want \(tenths(want))), "
              + "\(tenths(after.y - before.y)) down; touch-to-photon (uinput write → flip) over \(sorted.count) moves: "
              + (sorted.isEmpty ? "not measured"
                 : "min \(tenths(sorted[0] * 1000)) ms, median \(tenths(sorted[sorted.count / 2] * 1000)) ms, max \(tenths(sorted[sorted.count - 1] * 1000)) ms "
                   + "(median \(tenths(sorted[sorted.count / 2] / period)) refresh periods)"))
        guard abs(moved - want) < 0.5, abs(after.y - before.y) < 0.5, !sorted.isEmpty else {
            print("fbcheck: error: the uinput drag did not move the layer as sent")
            return 1
        }
        return 0
    }
}
