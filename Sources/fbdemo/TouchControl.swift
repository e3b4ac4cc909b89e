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
    /// deadline) and routes what came, with the scene lock held.
    func waitAndDispatch(_ loop: RenderLoop, timeoutMilliseconds: Int32) {
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
                }
            }
            router.advance(to: MonotonicClock().now)
        }
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
