import CInput
import CPosix
import DemoScenes
import DemoTouchScripts
import FBRuntime

/// A short script of touches for `scripts/qemu-board` (`--tap X,Y`,
/// `--drag X0,Y0,X1,Y1`, in the order given; screen pixels of the mode,
/// origin top left): fbcheck makes a one-finger uinput touchscreen in the
/// guest, reads it through libinput's path backend (the board's
/// `touch-device` set to its node, so it works without udevd: the udev
/// database entry libinput asks for is written as udevd would, unless
/// udevd runs) and writes the touches to it, so they take the production
/// path: kernel evdev → libinput → `TouchEventMapper` → `TouchRouter` and
/// the scene's gestures (`TouchControl`: a drag moves the layer under the
/// finger). Coordinates out of the screen are clamped to its edges.
///
/// Needs write access to /dev/uinput (root in the test guest): this is test
/// scaffolding standing in for a finger, not something a board needs.
struct TouchScript {
    enum Step {
        case tap(x: Int, y: Int)
        /// `check`: require the top-level layer under the start to move by
        /// exactly the drag (the generic drag of `SceneTouch`).
        case drag(x0: Int, y0: Int, x1: Int, y1: Int, check: Bool)
        case wait(milliseconds: Int)
        /// Two fingers on the row `y`, at `xa0` and `xb0`, moved together
        /// in `dragSteps` steps to `xa1` and `xb1`, lifted together.
        case pinch(y: Int, xa0: Int, xb0: Int, xa1: Int, xb1: Int)
    }
    var steps: [Step] = []
    /// How long the scene takes to come to rest after the last step.
    var restMilliseconds = 600

    var isEmpty: Bool { steps.isEmpty }

    /// Parses "X,Y" (a tap) or "X0,Y0,X1,Y1" (a drag): whole pixels, each
    /// 0…65535; nil for anything else.
    static func parse(_ text: String, drag: Bool) -> Step? {
        let numbers = text.split(separator: ",").map { Int($0) }
        guard numbers.count == (drag ? 4 : 2), numbers.allSatisfy({ $0 != nil && $0! >= 0 && $0! <= 65_535 }) else { return nil }
        let n = numbers.map { $0! }
        return drag ? .drag(x0: n[0], y0: n[1], x1: n[2], y1: n[3], check: true) : .tap(x: n[0], y: n[1])
    }

    /// An empty script (steps come from --tap and --drag).
    init() {}

    /// A scene's own script (`DemoTouchScripts.steps(for:)`, fractions of the
    /// screen) in pixels of a `width` × `height` panel.
    init(scene: any DemoScene, width: Int, height: Int) {
        func px(_ f: Double, _ size: Int) -> Int {
            guard f.isFinite else { return 0 }
            return Int((min(max(f, 0), 1) * Double(size - 1)).rounded())
        }
        for step in DemoTouchScripts.steps(for: scene) {
            switch step {
            case let .tap(x, y): steps.append(.tap(x: px(x, width), y: px(y, height)))
            case let .drag(x0, y0, x1, y1, check):
                steps.append(.drag(x0: px(x0, width), y0: px(y0, height), x1: px(x1, width), y1: px(y1, height), check: check))
            case let .wait(seconds):
                steps.append(.wait(milliseconds: seconds.isFinite ? Int(min(max(seconds, 0), 60) * 1000) : 0))
            case let .pinch(x, y, startSpread, endSpread):
                let s0 = startSpread.isFinite ? min(max(startSpread, 0), 1) / 2 : 0
                let s1 = endSpread.isFinite ? min(max(endSpread, 0), 1) / 2 : 0
                steps.append(.pinch(y: px(y, height), xa0: px(x - s0, width), xb0: px(x + s0, width),
                                    xa1: px(x - s1, width), xb1: px(x + s1, width)))
            }
        }
        let rest = DemoTouchScripts.restSeconds(for: scene)
        restMilliseconds = rest.isFinite ? Int(min(max(rest, 0), 60) * 1000) : 600
    }

    /// Touch events each step makes the router see (down, moves, up).
    static let dragSteps = 8
    var expectedTouchEvents: Int {
        steps.reduce(0) { sum, step in
            switch step {
            case .tap: return sum + 2
            case .drag: return sum + 2 + TouchScript.dragSteps
            case .wait: return sum
            case .pinch: return sum + 2 * (2 + TouchScript.dragSteps)
            }
        }
    }
}

/// The uinput touchscreen a `TouchScript` writes to: two slots (a pinch
/// writes both contacts in one frame, `ABS_MT_SLOT` 0 and 1), both axes
/// 0…4095 over the screen (libinput scales them to the mode size).
final class ScriptedTouchscreen {
    static let axisMaximum: Int32 = 4095
    let fd: Int32
    /// The event node (/dev/input/eventN).
    let node: String
    private let width: Int, height: Int
    private var trackingID: Int32 = 1

    /// Makes the device and waits for its node; nil with a message on failure.
    init?(width: Int, height: Int) {
        self.width = max(width, 1)
        self.height = max(height, 1)
        let handle: Int32
        do { handle = try System.open("/dev/uinput", O_WRONLY | O_NONBLOCK) } catch {
            print("fbcheck: error: touch script: \(error.description)")
            return nil
        }
        let r = "fbcheck scripted touchscreen".withCString {
            fbr_uinput_create_touchscreen(handle, $0, Self.axisMaximum, Self.axisMaximum, 16, 2)
        }
        guard r >= 0 else { print("fbcheck: error: uinput create failed (errno \(-r))"); System.close(handle); return nil }
        fd = handle
        // The event node is a child of the input device in sysfs: eventN.
        var buffer = [CChar](repeating: 0, count: 64)
        var found: (String, String)?
        if fbr_uinput_sysname(handle, &buffer, 64) >= 0 {
            let sysname = buffer.withUnsafeBufferPointer { String(cString: $0.baseAddress!) }
            for n in 0..<256 where System.exists("/sys/class/input/\(sysname)/event\(n)/dev") {
                let bytes = (try? System.readFile("/sys/class/input/\(sysname)/event\(n)/dev", limit: 64)) ?? []
                found = ("/dev/input/event\(n)", String(decoding: bytes.filter { $0 != 0x0A }, as: UTF8.self))
                break
            }
        }
        guard let (node, deviceNumber) = found else {
            print("fbcheck: error: touch script: no event node for the uinput device")
            _ = fbr_uinput_destroy(handle); System.close(handle)
            return nil
        }
        self.node = node
        for _ in 0..<100 where !System.exists(node) { fbr_sleep_ns(20_000_000) }
        // No udevd (a busybox guest): libinput ignores a device without a
        // udev database entry, so write the one udevd would.
        if !System.exists("/run/udev/control") {
            let path = "/run/udev/data/c" + deviceNumber
            do throws(SystemError) {
                try System.makeDirectories("/run/udev/data")
                let file = try System.open(path, O_WRONLY | O_CREAT | O_TRUNC)
                var bytes = Array("I:1\nE:ID_INPUT=1\nE:ID_INPUT_TOUCHSCREEN=1\n".utf8)
                let count = bytes.count
                try bytes.withUnsafeMutableBufferPointer { (b: inout UnsafeMutableBufferPointer<UInt8>) throws(SystemError) in
                    try System.writeAll(file, UnsafeRawBufferPointer(start: b.baseAddress, count: count))
                }
                System.close(file)
            } catch { print("fbcheck: warning: touch script: writing \(path): \(error.description)") }
        }
    }

    deinit {
        _ = fbr_uinput_destroy(fd)
        System.close(fd)
    }

    /// Screen pixels to axis units (libinput maps raw · size / 4096 back).
    private func axis(_ v: Int, _ size: Int) -> Int32 {
        Int32(min(max(0, v * 4096 / size), Int(Self.axisMaximum)))
    }

    /// One hardware frame: the finger down or moved to (x, y), or lifted.
    func contact(x: Int, y: Int, down: Bool, first: Bool) {
        emit(FBR_EV_ABS, FBR_ABS_MT_SLOT, 0)
        if !down {
            emit(FBR_EV_ABS, FBR_ABS_MT_TRACKING_ID, -1)
            emit(FBR_EV_KEY, FBR_BTN_TOUCH, 0)
            emit(FBR_EV_SYN, FBR_SYN_REPORT, 0)
            return
        }
        if first { emit(FBR_EV_ABS, FBR_ABS_MT_TRACKING_ID, trackingID); trackingID += 1 }
        let ax = axis(x, width), ay = axis(y, height)
        emit(FBR_EV_ABS, FBR_ABS_MT_POSITION_X, ax)
        emit(FBR_EV_ABS, FBR_ABS_MT_POSITION_Y, ay)
        emit(FBR_EV_KEY, FBR_BTN_TOUCH, 1)
        emit(FBR_EV_ABS, FBR_ABS_X, ax)
        emit(FBR_EV_ABS, FBR_ABS_Y, ay)
        emit(FBR_EV_SYN, FBR_SYN_REPORT, 0)
    }

    /// One hardware frame with two fingers (slots 0 and 1): both down or
    /// moved to their points, or both lifted.
    func contacts(_ a: (x: Int, y: Int), _ b: (x: Int, y: Int), down: Bool, first: Bool) {
        for (slot, p) in [(Int32(0), a), (Int32(1), b)] {
            emit(FBR_EV_ABS, FBR_ABS_MT_SLOT, slot)
            if !down { emit(FBR_EV_ABS, FBR_ABS_MT_TRACKING_ID, -1); continue }
            if first { emit(FBR_EV_ABS, FBR_ABS_MT_TRACKING_ID, trackingID); trackingID += 1 }
            emit(FBR_EV_ABS, FBR_ABS_MT_POSITION_X, axis(p.x, width))
            emit(FBR_EV_ABS, FBR_ABS_MT_POSITION_Y, axis(p.y, height))
        }
        emit(FBR_EV_KEY, FBR_BTN_TOUCH, down ? 1 : 0)
        if down {
            emit(FBR_EV_ABS, FBR_ABS_X, axis(a.x, width))
            emit(FBR_EV_ABS, FBR_ABS_Y, axis(a.y, height))
        }
        emit(FBR_EV_SYN, FBR_SYN_REPORT, 0)
    }

    private func emit(_ type: Int32, _ code: Int32, _ value: Int32) {
        let r = fbr_uinput_emit(fd, type, code, value)
        if r < 0 { print("fbcheck: warning: uinput write failed: errno \(-r)") }
    }
}

extension TouchScript {
    /// Plays the script on `screen` while `touch` (reading that device)
    /// routes what comes, then waits for the scene to come to rest (the
    /// implicit animations the touches started end in 0.25 s). Returns the
    /// exit status: 1 if the router saw fewer touch events than written, or
    /// if a dragged top-level layer (the one under the drag's start, as
    /// `TouchControl` picks it) did not move by exactly the drag (pixels are
    /// points here: contents scale 1), as read back from the model tree.
    func play(on screen: ScriptedTouchscreen, _ touch: TouchControl, _ loop: RenderLoop) -> Int32 {
        /// Routes what libinput has for `milliseconds`.
        func pump(_ milliseconds: Int) {
            let end = System.monotonicNanoseconds() + Int64(milliseconds) * 1_000_000
            while System.monotonicNanoseconds() < end { touch.waitAndDispatch(loop, timeoutMilliseconds: 10) }
        }
        pump(200)   // the device added
        let before = touch.touchCount
        /// The top-level layer (a sublayer of the root) at (x, y), if any.
        func topLevelLayer(_ x: Int, _ y: Int) -> Layer? {
            loop.update { root in SceneTouch.topLevelLayer(at: Point(x: Double(x), y: Double(y)), in: root) }
        }
        var status: Int32 = 0
        for step in steps {
            switch step {
            case let .tap(x, y):
                print("fbcheck: touch script: tap at \(x),\(y)")
                screen.contact(x: x, y: y, down: true, first: true)
                pump(60)
                screen.contact(x: x, y: y, down: false, first: false)
                pump(200)
            case let .wait(milliseconds):
                print("fbcheck: touch script: wait \(milliseconds) ms")
                pump(milliseconds)
            case let .pinch(y, xa0, xb0, xa1, xb1):
                print("fbcheck: touch script: pinch on row \(y) from \(xa0)…\(xb0) to \(xa1)…\(xb1)")
                screen.contacts((xa0, y), (xb0, y), down: true, first: true)
                pump(60)
                for i in 1...TouchScript.dragSteps {
                    screen.contacts((xa0 + (xa1 - xa0) * i / TouchScript.dragSteps, y),
                                    (xb0 + (xb1 - xb0) * i / TouchScript.dragSteps, y), down: true, first: false)
                    pump(40)
                }
                screen.contacts((xa1, y), (xb1, y), down: false, first: false)
                pump(200)
            case let .drag(x0, y0, x1, y1, check):
                print("fbcheck: touch script: drag from \(x0),\(y0) to \(x1),\(y1)")
                let dragged = check ? topLevelLayer(x0, y0) : nil
                let start: Point? = dragged.map { layer in loop.update { _ in layer.position } }
                screen.contact(x: x0, y: y0, down: true, first: true)
                pump(60)
                for i in 1...TouchScript.dragSteps {
                    screen.contact(x: x0 + (x1 - x0) * i / TouchScript.dragSteps,
                                   y: y0 + (y1 - y0) * i / TouchScript.dragSteps, down: true, first: false)
                    pump(40)
                }
                screen.contact(x: x1, y: y1, down: false, first: false)
                pump(200)
                if let dragged, let start {
                    let end: Point = loop.update { _ in dragged.position }
                    let dx = end.x - start.x, dy = end.y - start.y
                    // Integers only: Embedded Swift prints no Double.
                    print("fbcheck: touch script: \(dragged.name) moved by \(Int(dx.rounded())),\(Int(dy.rounded())) (the drag: \(x1 - x0),\(y1 - y0))")
                    if !(abs(dx - Double(x1 - x0)) < 0.5 && abs(dy - Double(y1 - y0)) < 0.5) {
                        print("fbcheck: error: the dragged layer did not move by the drag")
                        status = 1
                    }
                }
            }
        }
        pump(restMilliseconds)   // e.g. implicit animations (0.25 s) end; the scene is at rest
        let routed = touch.touchCount - before
        print("fbcheck: touch script: \(routed) touch events routed (\(expectedTouchEvents) written)")
        if routed < expectedTouchEvents {
            print("fbcheck: error: the touch script's events did not all reach the router")
            return 1
        }
        return status
    }
}
