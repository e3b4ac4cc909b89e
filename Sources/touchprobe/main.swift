// touchprobe: the touch test for the VM harness (scripts/vm-test). It makes
// a virtual multitouch touchscreen with /dev/uinput, opens its event node
// through libinput's path backend (the guest has no udevd, so it writes
// the udev database entry libinput needs, as udevd would), replays taps, a
// double tap, a drag and a two-finger pinch, and checks what comes back:
// libinput's events (slots, order, positions scaled to the mode size), the
// layers the TouchRouter delivers them to (hit testing on the presentation
// tree, capture) and the gestures recognised. Then it hot-plugs a second
// touchscreen while the context is open, taps on it, unplugs it in the
// middle of a drag (the touch and the pan must be cancelled, nothing left
// pressed), plugs it in again (a new drag is a whole new pan), and unplugs
// the first device.
// With --udev it opens udev's seat0 instead (libinput's udev backend, the
// production path) and writes no udev entries: systemd-udevd must be
// running (scripts/vm/with-udevd), and devices come and go through its
// netlink events.
// One `VMTEST-CHECK PASS|FAIL …` line per check (scripts/vm/run.py counts
// them); exit status 1 if any failed.
//
// Usage: touchprobe [--size WxH] [--pointer] [--udev]
//   --size     the mode size touches are scaled to (default 640x480, the
//              VM's display)
//   --pointer  also check a pointer as one touch: QEMU's virtio tablet,
//              driven by scripts/vm/run.py over QMP (READY-FOR-POINTER)
//   --udev     libinput's udev seat ("seat0") with udevd running, instead
//              of the path backend with hand-written udev entries
import CInput
import CPosix
import FBRuntime
import Input
import TouchInput

fbr_line_buffer_stdout()
exit(probe())

/// Runs every check; the exit status.
func probe() -> Int32 {

    var panelWidth: UInt32 = 640
    var panelHeight: UInt32 = 480
    let pointerTest = System.arguments().contains("--pointer")
    let udevSeat = System.arguments().contains("--udev")
    do {
        let arguments = System.arguments()
        if let i = arguments.firstIndex(of: "--size"), i + 1 < arguments.count {
            let parts = arguments[i + 1].split(separator: "x")
            if parts.count == 2, let w = UInt32(parts[0]), let h = UInt32(parts[1]), w > 0, h > 0 { panelWidth = w; panelHeight = h }
        }
    }

    var failures = 0
    func check(_ passed: Bool, _ name: String, _ detail: String) {
        print("VMTEST-CHECK \(passed ? "PASS" : "FAIL") touch \(name): \(detail)")
        if !passed { failures += 1 }
    }
    func fatal(_ message: String) -> Never {
        print("touchprobe: error: \(message)")
        check(false, "setup", message)
        exit(1)
    }
    /// `value` with two decimals (Embedded Swift prints no Double).
    func decimal(_ value: Double) -> String {
        guard value.isFinite else { return value.isNaN ? "nan" : "inf" }
        let hundredths = Int((value * 100).rounded())
        let sign = hundredths < 0 ? "-" : ""
        let a = abs(hundredths)
        return "\(sign)\(a / 100).\(a % 100 < 10 ? "0" : "")\(a % 100)"
    }
    func list(_ items: [String]) -> String { "[" + items.joined(separator: ", ") + "]" }
    func distinct(_ items: [String]) -> [String] {
        var seen: [String] = []
        for i in items where !seen.contains(i) { seen.append(i) }
        return seen
    }
    func sleep(milliseconds: Int64) { fbr_sleep_ns(milliseconds * 1_000_000) }
    func now() -> MediaTime { Double(System.monotonicNanoseconds()) / 1e9 }
    /// Writes a udev database entry as udevd would, unless one is there.
    func writeUdevEntry(_ path: String, _ text: String) {
        if System.exists(path) { return }
        do throws(SystemError) {
            try System.makeDirectories("/run/udev/data")
            // World-readable, as udevd writes its database: a program run
            // as another user (fbcheck-seatd, as nobody) reads it too.
            let fd = path.withCString { fbr_open_mode($0, O_WRONLY | O_CREAT | O_TRUNC, 0o644) }
            guard fd >= 0 else { throw SystemError("open " + path, errno: fbr_errno()) }
            var bytes = Array(text.utf8)
            let count = bytes.count
            try bytes.withUnsafeMutableBufferPointer { (b: inout UnsafeMutableBufferPointer<UInt8>) throws(SystemError) in
                try System.writeAll(fd, UnsafeRawBufferPointer(start: b.baseAddress, count: count))
            }
            System.close(fd)
        } catch { fatal("writing \(path): \(error.description)") }
    }
    /// Prints `ask NAME` and waits (10 s at most) for the host's line
    /// `answer NAME` on stdin (the serial console; scripts/vm/run.py),
    /// calling `meanwhile` every 10 ms (libinput's timers, such as button
    /// debouncing, want a dispatch while the host acts).
    func askHost(_ ask: String, _ answer: String, _ name: String, meanwhile: () -> Void = {}) -> Bool {
        print("\(ask) \(name)")
        fbr_flush_stdout()
        let deadline = System.monotonicNanoseconds() + 10_000_000_000
        var line: [UInt8] = []
        var byte: UInt8 = 0
        while System.monotonicNanoseconds() < deadline {
            var revents: Int16 = 0
            let r = fbr_poll1(0, Int16(POLLIN), 10, &revents)
            if r == 0 { meanwhile(); continue }
            if r < 0 { if fbr_errno() == EINTR { continue }; return false }
            let n = read(0, &byte, 1)
            if n <= 0 { if n < 0 && fbr_errno() == EINTR { continue }; return false }
            if byte == UInt8(ascii: "\n") {
                if String(decoding: line, as: UTF8.self) == "\(answer) \(name)" { return true }
                line.removeAll()
            } else if byte != UInt8(ascii: "\r") {
                line.append(byte)
            }
        }
        return false
    }

    // MARK: The device

    let screen: VirtualTouchscreen
    do { screen = try VirtualTouchscreen(name: "FBRuntime touchprobe", slots: 10) } catch { fatal("uinput: \(error.description)") }
    print("touchprobe: uinput touchscreen at \(screen.node) (\(screen.deviceNumber))")
    for _ in 0..<100 where !System.exists(screen.node) { sleep(milliseconds: 20) }

    // libinput (its path backend too) asks udev about the device and ignores
    // one udev has not initialised; with no udevd, write the entry udevd would:
    // initialised, an input device, a touchscreen. With udevd (--udev) the
    // seat finds the device itself, once udevd has processed it.
    if !udevSeat {
        writeUdevEntry("/run/udev/data/c" + screen.deviceNumber, "I:1\nE:ID_INPUT=1\nE:ID_INPUT_TOUCHSCREEN=1\n")
    }

    let seat: InputSeat
    do {
        seat = udevSeat ? try InputSeat(seat: "seat0") : try InputSeat(devicePaths: [screen.node])
    } catch { fatal("libinput: \(error.description)") }
    let backend = udevSeat ? "udev seat0" : "path backend"

    var received: [InputEvent] = []
    /// Reads what libinput has, waiting up to `milliseconds` for the first event.
    func pump(milliseconds: Int32 = 0) {
        var revents: Int16 = 0
        _ = fbr_poll1(seat.fd, Int16(POLLIN), milliseconds, &revents)
        seat.dispatch(width: panelWidth, height: panelHeight) { received.append($0) }
    }
    /// Whether `events` has the touch device `name` added.
    func hasAdded(_ events: [InputEvent], _ name: String) -> Bool {
        events.contains {
            if case let .deviceAdded(n, _, capabilities) = $0 { return n == name && capabilities.contains(.touch) }
            return false
        }
    }
    /// Pumps until libinput adds the touch device `name` (5 s at most); the
    /// milliseconds it took, nil if it did not come. Other events are dropped.
    func waitForDevice(_ name: String) -> Double? {
        let start = now()
        var found = false
        while !found && now() - start < 5 {
            pump(milliseconds: 100)
            found = hasAdded(received, name)
            received.removeAll()
        }
        return found ? (now() - start) * 1000 : nil
    }
    let firstAdded = waitForDevice("FBRuntime touchprobe")
    check(firstAdded != nil, "device-added", "libinput (\(backend)) added \(screen.node) as a touch device")
    let added = firstAdded != nil
    if !added { fatal("libinput did not add the touchscreen (\(received.count) events)") }
    received.removeAll()

    // MARK: The scene: what the user sees

    let size = (width: Double(panelWidth), height: Double(panelHeight))
    let root = Layer(name: "root")
    root.anchorPoint = .zero
    root.bounds = Rect(x: 0, y: 0, width: size.width, height: size.height)
    let left = Layer(name: "left"), right = Layer(name: "right"), mover = Layer(name: "mover")
    left.frame = Rect(x: 0, y: 0, width: size.width / 2, height: size.height)
    right.frame = Rect(x: size.width / 2, y: 0, width: size.width / 2, height: size.height)
    mover.bounds = Rect(x: 0, y: 0, width: 60, height: 60)
    mover.position = Point(x: size.width * 0.75, y: size.height * 0.8)   // the model: on the right
    try! root.addSublayer(left)
    try! root.addSublayer(right)
    try! root.addSublayer(mover)
    // On screen the mover is on the left (an animation holds it there): a tap
    // there must land on it.
    let shownAt = Point(x: size.width * 0.25, y: size.height * 0.8)
    mover.add(BasicAnimation(key: .position, from: .point(shownAt), to: .point(shownAt), duration: 3600),
              forKey: "held", at: now())

    let mapper = TouchEventMapper(orientation: DisplayOrientation(panelWidth: size.width, panelHeight: size.height))
    let router = TouchRouter(root: root)
    var deliveries: [(layer: String, event: TouchEvent)] = []
    router.onTouch = { layer, event in deliveries.append((layer.name, event)) }

    var log: [String] = []
    let single = TapGestureRecognizer(taps: 1) { r in log.append("tap1 \(r.state)") }
    let double = TapGestureRecognizer(taps: 2) { r in log.append("tap2 \(r.state)") }
    single.requireFailure(of: double)
    let pan = PanGestureRecognizer { r in log.append("pan \(r.state)") }
    let pinch = PinchGestureRecognizer { r in log.append("pinch \(r.state)") }
    for r in [single, double, pan, pinch] as [GestureRecognizer] { router.add(r, to: root) }

    /// Routes what libinput delivered; returns the events for the checks.
    func route() -> [InputEvent] {
        pump()
        let events = received
        received.removeAll()
        for e in events { if let t = mapper.touchEvent(e) { router.handle(t) } }
        return events
    }

    // MARK: The replay

    /// Raw axis value for a UI coordinate (rotation 0), and the oracle: what
    /// libinput's transformed coordinate of that raw value is —
    /// (raw − minimum) · size / (maximum − minimum + 1).
    func raw(_ ui: Double, _ extent: Double) -> Int32 { Int32((ui * 4096 / extent).rounded(.down)) }
    func expected(_ raw: Int32, _ extent: Double) -> Double { Double(raw) * extent / 4096 }

    /// The touch events (no times) of `events`, as text, for comparing orders.
    func shape(_ events: [InputEvent]) -> [String] {
        events.compactMap { e in
            switch e {
            case let .touchDown(s, x, y, _): return "down \(s) \(decimal(x)) \(decimal(y))"
            case let .touchMotion(s, x, y, _): return "motion \(s) \(decimal(x)) \(decimal(y))"
            case let .touchUp(s, _): return "up \(s)"
            case let .touchCancel(s, _): return "cancel \(s)"
            case .touchFrame: return "frame"
            default: return nil
            }
        }
    }

    func tap(x: Int32, y: Int32, holdMilliseconds: Int64 = 40) -> [InputEvent] {
        screen.frame([.down(slot: 0, trackingID: 1, x: x, y: y)], touching: true)
        var events = route()
        sleep(milliseconds: holdMilliseconds)
        screen.frame([.up(slot: 0)], touching: false)
        events += route()
        return events
    }

    // 1. A single tap on the left layer: libinput's events, the layer, the
    //    recognisers (the single tap waits for the double tap to fail).
    do {
        let x = raw(size.width * 0.25, size.width), y = raw(size.height * 0.25, size.height)
        let ex = expected(x, size.width), ey = expected(y, size.height)
        let written = now()
        deliveries.removeAll(); log.removeAll()
        let events = tap(x: x, y: y)
        let latency = deliveries.first.map { ($0.event.timestamp - written) * 1000 } ?? .nan
        let want = ["down 0 \(decimal(ex)) \(decimal(ey))", "frame", "up 0", "frame"]
        check(shape(events) == want, "tap-events", "\(list(shape(events))) (want \(list(want)))")
        check(deliveries.count == 2 && deliveries.allSatisfy { $0.layer == "left" }, "tap-layer",
              "delivered to \(list(deliveries.map { $0.layer })) (want left, left)")
        sleep(milliseconds: 450)                    // past the double tap's interval
        router.advance(to: now())
        check(log == ["tap1 ended"] && single.state == .ended && double.state == .failed && single.tapCount == 1,
              "tap-recognised", "\(list(log)), single \(single.state) (count \(single.tapCount)), double \(double.state); uinput write → kernel stamp \(decimal(latency)) ms")
    }

    // 2. A double tap: the double-tap recogniser fires, the single does not.
    do {
        let x = raw(size.width * 0.25, size.width), y = raw(size.height * 0.5, size.height)
        log.removeAll()
        _ = tap(x: x, y: y)
        sleep(milliseconds: 80)
        _ = tap(x: x, y: y)
        sleep(milliseconds: 450)
        router.advance(to: now())
        check(log == ["tap2 ended"] && double.tapCount == 2 && single.state == .failed, "double-tap",
              "\(list(log)), double \(double.state) (count \(double.tapCount)), single \(single.state)")
    }

    // 3. A tap where the moving layer is shown (not where its model is).
    do {
        deliveries.removeAll()
        _ = tap(x: raw(shownAt.x, size.width), y: raw(shownAt.y, size.height))
        let modelHit = root.hitTest(mover.position, at: now())
        check(deliveries.first?.layer == "mover" && modelHit !== mover, "tap-presentation",
              "tap at the mover's screen position went to \(deliveries.first?.layer ?? "nothing"); its model position hits \(modelHit?.name ?? "nothing")")
        sleep(milliseconds: 450)
        router.advance(to: now())
    }

    // 4. A drag from the left layer across into the right one: captured by
    //    the left layer; the pan follows with the sent translation.
    do {
        let y = raw(size.height * 0.25, size.height)
        let x0 = raw(size.width * 0.125, size.width), step: Int32 = 64, steps: Int32 = 30
        deliveries.removeAll(); log.removeAll()
        screen.frame([.down(slot: 0, trackingID: 2, x: x0, y: y)], touching: true)
        var events = route()
        for i in 1...steps {
            sleep(milliseconds: 10)
            screen.frame([.move(slot: 0, x: x0 + i * step, y: y)], touching: true)
            events += route()
        }
        let translation = pan.translation, velocity = pan.velocity
        screen.frame([.up(slot: 0)], touching: false)
        events += route()
        var want = ["down 0 \(decimal(expected(x0, size.width))) \(decimal(expected(y, size.height)))", "frame"]
        for i in 1...steps { want += ["motion 0 \(decimal(expected(x0 + i * step, size.width))) \(decimal(expected(y, size.height)))", "frame"] }
        want += ["up 0", "frame"]
        check(shape(events) == want, "drag-events", "\(events.count) events, \(shape(events) == want ? "as sent" : "differ: \(list(shape(events)))")")
        let ends = Double(x0 + steps * step) * size.width / 4096
        check(deliveries.count == Int(steps) + 2 && deliveries.allSatisfy { $0.layer == "left" } && ends > size.width / 2, "drag-capture",
              "\(deliveries.count) deliveries, all to \(list(distinct(deliveries.map { $0.layer }))) though it ends at x \(decimal(ends)) over the right layer")
        let wantDX = expected(x0 + steps * step, size.width) - expected(x0, size.width)
        let states = log.filter { $0.hasPrefix("pan") }
        check(states.first == "pan began" && states.last == "pan ended" && abs(translation.x - wantDX) < 0.01 && abs(translation.y) < 0.01
              && velocity.x > 0, "pan",
              "\(states.count) pan actions (\(states.first ?? "-") … \(states.last ?? "-")), translation \(decimal(translation.x)), \(decimal(translation.y)) (want \(decimal(wantDX)), 0), velocity \(decimal(velocity.x)) pt/s")
    }

    // 5. A two-finger pinch about the centre: two seat slots, the pinch's scale.
    do {
        let cx = size.width / 2, cy = size.height / 2, y = raw(cy, size.height)
        let start = 40.0, end = 120.0, steps = 20
        deliveries.removeAll(); log.removeAll()
        screen.frame([.down(slot: 0, trackingID: 3, x: raw(cx - start, size.width), y: y),
                      .down(slot: 1, trackingID: 4, x: raw(cx + start, size.width), y: y)], touching: true)
        var events = route()
        var scaleWhileDown = 1.0
        for i in 1...steps {
            sleep(milliseconds: 10)
            let d = start + (end - start) * Double(i) / Double(steps)
            screen.frame([.move(slot: 0, x: raw(cx - d, size.width), y: y), .move(slot: 1, x: raw(cx + d, size.width), y: y)], touching: true)
            events += route()
            scaleWhileDown = pinch.scale
        }
        screen.frame([.up(slot: 0), .up(slot: 1)], touching: false)
        events += route()
        let s = shape(events)
        let downs = s.prefix(3).map { String($0.prefix(6)) }
        check(downs == ["down 0", "down 1", "frame"] && s.suffix(3) == ["up 0", "up 1", "frame"]
              && s.filter({ $0.hasPrefix("motion 1") }).count == steps, "pinch-events",
              "first \(list(Array(s.prefix(3)))), last \(list(Array(s.suffix(3)))), \(s.filter { $0.hasPrefix("motion") }.count) motions in seat slots 0 and 1")
        let spread = (expected(raw(cx + end, size.width), size.width) - expected(raw(cx - end, size.width), size.width))
            / (expected(raw(cx + start, size.width), size.width) - expected(raw(cx - start, size.width), size.width))
        let states = log.filter { $0.hasPrefix("pinch") }
        check(states.first == "pinch began" && states.last == "pinch ended" && abs(scaleWhileDown - spread) < 0.001, "pinch",
              "\(states.count) pinch actions, scale \(decimal(scaleWhileDown)) (want \(decimal(spread)))")
    }

    // 6. The display turned 90° clockwise: a tap on the screen's top-left
    //    corner hits the layer the UI shows there — its bottom-left one.
    do {
        let turned = DisplayOrientation(rotation: .clockwise90, panelWidth: size.width, panelHeight: size.height)
        let uiRoot = Layer(name: "ui-root")
        uiRoot.anchorPoint = .zero
        uiRoot.bounds = Rect(x: 0, y: 0, width: turned.uiSize.width, height: turned.uiSize.height)
        let corner = Layer(name: "bottom-left")
        corner.frame = Rect(x: 0, y: turned.uiSize.height - 100, width: 100, height: 100)
        try! uiRoot.addSublayer(corner)
        let turnedRouter = TouchRouter(root: uiRoot)
        var hit = "nothing"
        turnedRouter.onTouch = { layer, _ in if hit == "nothing" { hit = layer.name } }
        let turnedMapper = TouchEventMapper(orientation: turned)
        pump()
        received.removeAll()
        screen.frame([.down(slot: 0, trackingID: 5, x: 64, y: 64)], touching: true)
        pump()
        screen.frame([.up(slot: 0)], touching: false)
        pump()
        for e in received { if let t = turnedMapper.touchEvent(e) { turnedRouter.handle(t) } }
        received.removeAll()
        check(hit == "bottom-left", "rotated-90", "UI \(decimal(turned.uiSize.width))x\(decimal(turned.uiSize.height)); a tap at the screen's top-left went to \(hit)")
    }

    // 6b. Appliance buttons: a keys-only device (power, volume up) joins
    //     the seat; a press and a release of power come out as key events.
    do {
        let name = "FBRuntime touchprobe keys"
        let power: Int32 = 116, volumeUp: Int32 = 115       // KEY_POWER, KEY_VOLUMEUP
        let keys: VirtualKeys
        do { keys = try VirtualKeys(name: name, codes: [power, volumeUp]) } catch { fatal("uinput (keys): \(error.description)") }
        for _ in 0..<100 where !System.exists(keys.node) { sleep(milliseconds: 20) }
        if !udevSeat {
            writeUdevEntry("/run/udev/data/c" + keys.deviceNumber, "I:1\nE:ID_INPUT=1\nE:ID_INPUT_KEY=1\n")
            do { try seat.addDevice(path: keys.node) } catch { check(false, "keys", error.description) }
        }
        var added = false
        let start = now()
        while !added && now() - start < 5 {
            pump(milliseconds: 100)
            added = received.contains {
                if case let .deviceAdded(n, _, capabilities) = $0 { return n == name && capabilities.contains(.keyboard) }
                return false
            }
            received.removeAll()
        }
        keys.key(power, pressed: true)
        keys.key(power, pressed: false)
        var presses: [String] = []
        for _ in 0..<20 where presses.count < 2 {
            pump(milliseconds: 100)
            for e in received { if case let .key(code, pressed, _) = e { presses.append("\(code) \(pressed ? "down" : "up")") } }
            received.removeAll()
        }
        let want = ["\(power) down", "\(power) up"]
        check(added && presses == want, "keys", "\(backend): buttons device added \(added), events \(list(presses)) (want \(list(want)))")
        // Unplug it (and drop its udev entry, as udevd would on removal)
        // and wait until libinput has let go of it: the next device made
        // may reuse its event node.
        keys.destroy()
        if !udevSeat { _ = unlink("/run/udev/data/c" + keys.deviceNumber) }
        var gone = false
        for _ in 0..<50 where !gone {
            pump(milliseconds: 100)
            gone = received.contains { if case let .deviceRemoved(n, _) = $0 { return n == name }; return false }
            received.removeAll()
        }
        check(gone, "keys-removed", "\(backend): the buttons device unplugged and removed \(gone)")
    }

    // 7. Hotplug: a second touchscreen appears while the context is open
    //    (udev seat: through udevd's netlink event; path backend: the
    //    caller adds the node), a tap on it is routed, and it disappears
    //    in the middle of a drag: the touch and the pan are cancelled, the
    //    device removed, nothing crashes. Then it comes back.
    do {
        let name = "FBRuntime touchprobe 2"
        let written = now()
        let second: VirtualTouchscreen
        do { second = try VirtualTouchscreen(name: name, slots: 10) } catch { fatal("uinput (second): \(error.description)") }
        for _ in 0..<100 where !System.exists(second.node) { sleep(milliseconds: 20) }
        if !udevSeat {
            writeUdevEntry("/run/udev/data/c" + second.deviceNumber, "I:1\nE:ID_INPUT=1\nE:ID_INPUT_TOUCHSCREEN=1\n")
            do { try seat.addDevice(path: second.node) } catch { check(false, "hotplug-added", error.description) }
        }
        let took = waitForDevice(name)
        check(took != nil, "hotplug-added", "\(backend) added \(second.node) (\(second.deviceNumber)) \(decimal((now() - written) * 1000)) ms after it was created")
        if took != nil {
            deliveries.removeAll()
            let x = raw(size.width * 0.75, size.width), y = raw(size.height * 0.25, size.height)
            second.frame([.down(slot: 0, trackingID: 1, x: x, y: y)], touching: true)
            var events = route()
            sleep(milliseconds: 40)
            second.frame([.up(slot: 0)], touching: false)
            events += route()
            let want = ["down 0 \(decimal(expected(x, size.width))) \(decimal(expected(y, size.height)))", "frame", "up 0", "frame"]
            check(shape(events) == want && deliveries.count == 2 && deliveries.allSatisfy { $0.layer == "right" }, "hotplug-tap",
                  "\(list(shape(events))) (want \(list(want))), delivered to \(list(deliveries.map { $0.layer })) (want right, right)")
            sleep(milliseconds: 450)
            router.advance(to: now())

            // Unplugged mid-gesture: a drag under way (the pan began and
            // changed), then the device goes. The touch is cancelled, so
            // is the pan, and nothing is left pressed.
            log.removeAll()
            second.frame([.down(slot: 0, trackingID: 2, x: x, y: y)], touching: true)
            _ = route()
            for i in Int32(1)...6 {
                sleep(milliseconds: 10)
                second.frame([.move(slot: 0, x: x - i * 64, y: y)], touching: true)
                _ = route()
            }
            let held = router.activeTouches.count, panning = pan.state
            second.destroy()
            var removed = false, cancelled = false
            for _ in 0..<50 where !removed {
                pump(milliseconds: 100)
                for e in received {
                    if case let .deviceRemoved(n, _) = e, n == name { removed = true }
                    if case .touchCancel = e { cancelled = true }
                    if let t = mapper.touchEvent(e) { router.handle(t) }
                }
                received.removeAll()
            }
            check(held == 1 && removed && cancelled && router.activeTouches.isEmpty, "hotplug-removed",
                  "unplugged with \(held) touch held: removed \(removed), touch cancelled \(cancelled), \(router.activeTouches.count) touches left")
            let states = log.filter { $0.hasPrefix("pan") }
            check(panning == .changed && states.first == "pan began" && states.last == "pan cancelled"
                  && !states.contains("pan ended"), "hotplug-removed-mid-gesture",
                  "pan \(panning) when unplugged; its actions \(list(states)) (want began … cancelled, never ended)")

            // Re-added: the same touchscreen comes back and a new drag on
            // it is a new pan from began to ended (the cancelled one left
            // nothing behind).
            let again: VirtualTouchscreen
            do { again = try VirtualTouchscreen(name: name, slots: 10) } catch { fatal("uinput (re-added): \(error.description)") }
            for _ in 0..<100 where !System.exists(again.node) { sleep(milliseconds: 20) }
            if !udevSeat {
                writeUdevEntry("/run/udev/data/c" + again.deviceNumber, "I:1\nE:ID_INPUT=1\nE:ID_INPUT_TOUCHSCREEN=1\n")
                do { try seat.addDevice(path: again.node) } catch { check(false, "hotplug-readded", error.description) }
            }
            if waitForDevice(name) != nil {
                log.removeAll(); deliveries.removeAll()
                again.frame([.down(slot: 0, trackingID: 3, x: x, y: y)], touching: true)
                _ = route()
                for i in Int32(1)...6 {
                    sleep(milliseconds: 10)
                    again.frame([.move(slot: 0, x: x - i * 64, y: y)], touching: true)
                    _ = route()
                }
                again.frame([.up(slot: 0)], touching: false)
                _ = route()
                let states = log.filter { $0.hasPrefix("pan") }
                check(states.first == "pan began" && states.last == "pan ended" && router.activeTouches.isEmpty
                      && deliveries.allSatisfy { $0.layer == "right" }, "hotplug-readded",
                      "re-added \(name): pan \(list(states)) (want began … ended), \(deliveries.count) deliveries to \(list(distinct(deliveries.map { $0.layer }))), \(router.activeTouches.count) touches left")
            } else {
                check(false, "hotplug-readded", "\(backend) did not add \(name) again")
            }
            again.destroy()
            for _ in 0..<20 {
                pump(milliseconds: 50)
                let gone = received.contains { if case let .deviceRemoved(n, _) = $0 { return n == name }; return false }
                for e in received { if let t = mapper.touchEvent(e) { router.handle(t) } }
                received.removeAll()
                if gone { break }
            }
        }
    }

    // 8. The touchscreen goes away: libinput reports it removed; nothing
    //    crashes and the context keeps working.
    do {
        screen.frame([.down(slot: 0, trackingID: 6, x: 100, y: 100)], touching: true)
        _ = route()
        screen.destroy()
        var removed = false, cancelled = false
        for _ in 0..<20 where !removed {
            pump(milliseconds: 100)
            for e in received {
                if case .deviceRemoved = e { removed = true }
                if case .touchCancel = e { cancelled = true }
                if let t = mapper.touchEvent(e) { router.handle(t) }
            }
            received.removeAll()
        }
        pump()
        check(removed && router.activeTouches.isEmpty, "unplug",
              "device removed: \(removed), the touch held was \(cancelled ? "cancelled" : "ended") by libinput, \(router.activeTouches.count) touches left")
    }

    // 9. A pointer as one touch (--pointer, in the VM): QEMU's virtio
    //    tablet, driven by the host over QMP (input-send-event), read
    //    through libinput as an absolute pointer: left button down, a move,
    //    up must come out as one touch. The tablet's axes are 0…32767, so
    //    libinput's transformed x is value · width / 32768.
    if pointerTest {
        var tablet = ""
        var tabletNumber = ""
        for n in 0..<32 {
            let base = "/sys/class/input/event\(n)"
            guard let name = try? System.readFile(base + "/device/name", limit: 256),
                  String(decoding: name, as: UTF8.self).hasPrefix("QEMU Virtio Tablet") else { continue }
            tablet = "/dev/input/event\(n)"
            let bytes = (try? System.readFile(base + "/dev", limit: 64)) ?? []
            tabletNumber = String(decoding: bytes.filter { $0 != 0x0A }, as: UTF8.self)
            break
        }
        if tablet.isEmpty {
            check(false, "pointer", "no tablet among /sys/class/input/event* (QEMU's -device virtio-tablet-pci)")
        } else {
            writeUdevEntry("/run/udev/data/c" + tabletNumber, "I:1\nE:ID_INPUT=1\nE:ID_INPUT_MOUSE=1\n")
            let pointerSeat: InputSeat?
            do { pointerSeat = try InputSeat(devicePaths: [tablet]) } catch { pointerSeat = nil; check(false, "pointer", "libinput: \(error.description)") }
            if let pointerSeat {
                var events: [InputEvent] = []
                func pumpPointer(_ milliseconds: Int32) {
                    var revents: Int16 = 0
                    _ = fbr_poll1(pointerSeat.fd, Int16(POLLIN), milliseconds, &revents)
                    pointerSeat.dispatch(width: panelWidth, height: panelHeight) { events.append($0) }
                }
                pumpPointer(500)
                events.removeAll()
                // The host moves to (16384, 8192), presses, moves to
                // (24576, 8192), releases.
                let answered = askHost("READY-FOR-POINTER", "POINTER-DONE", "tablet-drag") { pumpPointer(0) }
                for _ in 0..<20 {
                    pumpPointer(50)
                    if events.contains(where: { if case .touchUp = $0 { return true }; return false }) { break }
                }
                let touches = shape(events)
                let want = ["down \(InputEvent.pointerSlot) \(decimal(size.width / 2)) \(decimal(size.height / 4))", "frame",
                            "motion \(InputEvent.pointerSlot) \(decimal(size.width * 3 / 4)) \(decimal(size.height / 4))", "frame",
                            "up \(InputEvent.pointerSlot)", "frame"]
                check(answered && touches == want, "pointer",
                      "\(tablet) as one touch: \(list(touches)) (want \(list(want)))\(answered ? "" : "; the host did not answer")")
            }
        }
    }

    print("touchprobe: \(failures == 0 ? "all checks passed" : "\(failures) checks failed")")
    return failures == 0 ? 0 : 1
}
