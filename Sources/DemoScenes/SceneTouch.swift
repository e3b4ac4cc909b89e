import FBRuntime
import Input
import TouchInput

/// The demo scenes' touch handling, the same for every input source
/// (fbcheck's libinput seat, fbsim's mouse): an `InputEvent` (device terms:
/// panel pixels, libinput's seat slots) goes through `TouchEventMapper`
/// (the board's rotation and calibration) to `TouchRouter`, whose pan and
/// pinch recognisers drag a top-level layer of the scene and zoom it. A
/// pointer device shows a `CursorLayer` that follows it. (fbdemo gets
/// touches from the app shell already in UI points, and attaches the same
/// gestures to its screen's router: `SceneDragAndPinch.install`.)
///
/// Threading: the app thread, inside `RenderLoop.update` (the hit test reads
/// the tree the render thread draws, and the gestures change it).
public final class SceneTouch {
    public let mapper: TouchEventMapper
    public let router: TouchRouter
    private let root: Layer
    /// The generic drag and pinch, when the scene has no gestures of its own.
    private let generic: SceneDragAndPinch?
    /// Shown while a pointer device is present (its arrow follows it).
    private var cursor: CursorLayer?
    /// Touch events routed so far.
    public private(set) var touchCount = 0
    /// Names of the touch and pointer devices added so far.
    public private(set) var addedDevices: [String] = []

    /// `orientation`: the panel's size, rotation and calibration; touches
    /// come in its panel pixels and reach the tree in UI points.
    public init(root: Layer, orientation: DisplayOrientation) {
        self.root = root
        mapper = TouchEventMapper(orientation: orientation)
        router = TouchRouter(root: root)
        generic = SceneDragAndPinch(root: root, router: router)
    }

    /// The touch of `scene`: its own recognisers
    /// (`DemoScene.installGestures(in:)`), or, when it has none, the generic
    /// drag and pinch of any top-level layer.
    public init(scene: any DemoScene, orientation: DisplayOrientation) {
        root = scene.root
        mapper = TouchEventMapper(orientation: orientation)
        router = TouchRouter(root: root)
        generic = SceneDragAndPinch.install(for: scene, in: router)
    }

    /// The earliest deadline of a recogniser (media time), if any: call
    /// `advance(to:)` by then.
    public var nextDeadline: MediaTime? { router.nextDeadline }

    /// Routes one input event. `log` gets a line for each touch or pointer
    /// device added. Returns the touch routed, if the event was one.
    @discardableResult
    public func handle(_ event: InputEvent, log: (String) -> Void = { _ in }) -> TouchEvent? {
        if case let .deviceAdded(name, node, capabilities) = event, capabilities.contains(.touch) || capabilities.contains(.pointer) {
            log("input \(name) (\(node))")
            addedDevices.append(name)
            if capabilities.contains(.pointer) && cursor == nil {
                let c = CursorLayer()
                Transaction.withoutActions { try? root.addSublayer(c) }
                cursor = c
            }
        }
        if let location = mapper.cursorLocation(event) { cursor?.move(to: location) }
        guard let touch = mapper.touchEvent(event) else { return nil }
        touchCount += 1
        router.handle(touch)
        return touch
    }

    /// Lets the recognisers' timers run to `time` (media time).
    public func advance(to time: MediaTime) { router.advance(to: time) }

    /// The sublayer of `root` that `layer` is in (`layer` itself when it is
    /// one); nil for `root`.
    public static func topLevelAncestor(of layer: Layer, in root: Layer) -> Layer? {
        var layer = layer
        while let parent = layer.superlayer, parent !== root { layer = parent }
        return layer === root ? nil : layer
    }

    /// The top-level layer under `point` (in `root`'s space, points) on the
    /// presentation tree now; nil where only `root` is hit.
    public static func topLevelLayer(at point: Point, in root: Layer) -> Layer? {
        root.hitTest(point, at: MonotonicClock().now).flatMap { topLevelAncestor(of: $0, in: root) }
    }
}

/// The generic touch of a demo scene without gestures of its own: a pan
/// drags the top-level layer (a sublayer of `root`) the touch began in,
/// taking over from its animations where it is on screen; a pinch zooms it
/// (its transform scaled, 0.2…5×). The recognisers are attached to `root`
/// in `router`, whose tree holds `root`: the router's own root (fbsim,
/// fbcheck: `SceneTouch`) or a layer under it (an app's screen, where
/// `root` is the scene's root among other layers: fbdemo).
///
/// Ownership: the recognisers' actions do not keep this object; keep it
/// as long as they are in the router.
/// Threading: the app thread, as the router.
public final class SceneDragAndPinch {
    private let root: Layer
    private let router: TouchRouter
    private let pan = PanGestureRecognizer()
    private let pinch = PinchGestureRecognizer()
    private var dragged: Layer?
    private var dragStart = Point(x: 0, y: 0)
    private var zoomed: Layer?
    private var zoomStart = Transform3D.identity

    /// Attaches the drag and the pinch to `root` in `router`.
    public init(root: Layer, router: TouchRouter) {
        self.root = root
        self.router = router
        pan.action = { [unowned(unsafe) self] _ in self.panned() }
        pinch.action = { [unowned(unsafe) self] _ in self.pinched() }
        router.add(pan, to: root)
        router.add(pinch, to: root)
    }

    /// The touch of `scene` in `router`: its own recognisers
    /// (`DemoScene.installGestures(in:)`) and nil, or, when it has none,
    /// the generic drag and pinch on its root, returned (keep it).
    public static func install(for scene: any DemoScene, in router: TouchRouter) -> SceneDragAndPinch? {
        scene.installGestures(in: router) ? nil : SceneDragAndPinch(root: scene.root, router: router)
    }

    /// The top-level layer (a sublayer of the root) a touch began in.
    private func topLevelLayer(under id: Int32?) -> Layer? {
        guard let id, let layer = router.capturingLayer(of: id) else { return nil }
        return SceneTouch.topLevelAncestor(of: layer, in: root)
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
