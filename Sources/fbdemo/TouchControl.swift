import CPosix
import FBRuntime
import Input
import TouchInput

/// fbdemo's touch: drag a layer of the scene with a finger (or the mouse,
/// as one touch), pinch to zoom it. Input comes from the board's
/// `touch-device` (a device node: libinput's path backend; otherwise
/// udev's seat0), mapped through the board's rotation and calibration
/// (`DisplayOrientation`), and routed on the app thread inside
/// `RenderLoop.update`, since the hit test reads the tree the render
/// thread draws and the gestures change it.
final class TouchControl {
    private let seat: InputSeat
    private let mapper: TouchEventMapper
    private let router: TouchRouter
    private let root: Layer
    private let width: UInt32, height: UInt32
    private let pan = PanGestureRecognizer()
    private let pinch = PinchGestureRecognizer()
    private var dragged: Layer?
    private var dragStart = Point(x: 0, y: 0)
    private var zoomed: Layer?
    private var zoomStart = Transform3D.identity
    /// Touch events routed so far.
    private(set) var touchCount = 0

    /// nil (with a message) when no input can be opened.
    init?(board: BoardConfig, root: Layer, width: Int, height: Int) {
        do { seat = try InputSeat.open(touchDevice: board.touchDevice) } catch {
            print("fbdemo: no touch input: \(error.description)")
            return nil
        }
        self.root = root
        self.width = UInt32(max(width, 1))
        self.height = UInt32(max(height, 1))
        mapper = TouchEventMapper(orientation: DisplayOrientation(board: board, panelWidth: width, panelHeight: height))
        router = TouchRouter(root: root)
        pan.action = { [unowned(unsafe) self] _ in self.panned() }
        pinch.action = { [unowned(unsafe) self] _ in self.pinched() }
        router.add(pan, to: root)
        router.add(pinch, to: root)
    }

    /// Waits up to `timeoutMilliseconds` for input (or a recogniser's
    /// deadline) and routes what came, with the scene lock held. Returns
    /// the timestamp (media time) of the last touch move routed, if any.
    @discardableResult
    func waitAndDispatch(_ loop: RenderLoop, timeoutMilliseconds: Int32) -> MediaTime? {
        var lastMove: MediaTime?
        var timeout = timeoutMilliseconds
        let now = MonotonicClock().now
        if let deadline = router.nextDeadline {
            timeout = Int32(min(Double(timeout), max(0, (deadline - now) * 1000)))
        }
        var revents: Int16 = 0
        _ = fbr_poll1(seat.fd, Int16(POLLIN), timeout, &revents)
        loop.update { _ in
            seat.dispatch(width: width, height: height) { event in
                if case let .deviceAdded(name, node, capabilities) = event, capabilities.contains(.touch) || capabilities.contains(.pointer) {
                    print("fbdemo: input \(name) (\(node))")
                }
                if let touch = mapper.touchEvent(event) {
                    touchCount += 1
                    router.handle(touch)
                    if touch.phase == .moved { lastMove = touch.timestamp }
                }
            }
            router.advance(to: MonotonicClock().now)
        }
        return lastMove
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
        let target: Layer? = loop.update { root in
            guard var layer = root.hitTest(start, at: MonotonicClock().now), layer !== root else { return nil }
            while let parent = layer.superlayer, parent !== root { layer = parent }
            return layer
        }
        guard let target else { print("fbdemo: error: no layer at 20 %, 30 % to drag"); return 1 }
        let before: Point = loop.update { _ in target.position }
        // Tablet units 0…32767 over the screen: 6554 ≈ 20 %, 9830 ≈ 30 %;
        // 8192 units right is a quarter of the width.
        print("READY-FOR-POINTER fbdemo-drag 6554 9830 14746 9830")
        fbr_flush_stdout()
        var line: [UInt8] = []
        var byte: UInt8 = 0
        var answered = false
        var latency: Double?
        let deadline = System.monotonicNanoseconds() + 10_000_000_000
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
                answered = String(decoding: line, as: UTF8.self) == "POINTER-DONE fbdemo-drag"
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
        print("fbdemo: drag: \(target.name) moved \(tenths(moved)) points right (want \(tenths(want))), "
              + "\(tenths(after.y - before.y)) down; touch-to-photon "
              + (latency.map { "\(tenths($0 * 1000)) ms (\(tenths($0 / period)) refresh periods)" } ?? "not measured"))
        guard answered, abs(moved - want) < 0.5, abs(after.y - before.y) < 0.5, latency != nil else {
            print("fbdemo: error: the drag did not move the layer as sent\(answered ? "" : " (no answer from the host)")")
            return 1
        }
        return 0
    }

    /// The top-level layer (a sublayer of the root) a touch began in.
    private func topLevelLayer(under id: Int32?) -> Layer? {
        guard let id, var layer = router.capturingLayer(of: id) else { return nil }
        while let parent = layer.superlayer, parent !== root { layer = parent }
        return layer === root ? nil : layer
    }

    private func panned() {
        switch pan.state {
        case .began:
            dragged = topLevelLayer(under: pan.touches.first?.id)
            guard let layer = dragged else { return }
            // Take over from any animation where it is on screen now.
            if case let .point(p)? = layer.presentationValue(for: .position, at: MonotonicClock().now) { layer.position = p }
            layer.removeAllAnimations()
            dragStart = layer.position
            fallthrough
        case .changed:
            dragged?.position = Point(x: dragStart.x + pan.translation.x, y: dragStart.y + pan.translation.y)
        default:
            dragged = nil
        }
    }

    private func pinched() {
        switch pinch.state {
        case .began:
            zoomed = topLevelLayer(under: pinch.touches.first?.id)
            guard let layer = zoomed else { return }
            layer.removeAllAnimations()
            zoomStart = layer.transform
            fallthrough
        case .changed:
            let s = min(max(pinch.scale, 0.2), 5)   // keep the layer on a sane scale
            zoomed?.transform = zoomStart.concatenating(Transform3D(scaleX: s, y: s))
        default:
            zoomed = nil
        }
    }
}
