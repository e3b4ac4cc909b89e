import FBRuntime
import Raster

/// Vector shapes that stay sharp: three arrows (`ShapeLayer`s) morphing
/// between a straight and a bent outline (a `path` animation, point by
/// point — both outlines have the same verbs —, autoreversing), a
/// selection rectangle round the middle one with marching ants (its
/// `lineDashPhase` animated by one dash period, repeating), and pinch to
/// zoom the whole stage.
///
/// Zooming scales the stage's `transform`; shape layers are filled and
/// stroked through their full map to the display every frame (see
/// `ShapeLayer`), so at 3× the outlines are as sharp as paths drawn 3×
/// larger, never a magnified bitmap. The zoom is `zoomRange`-clamped while
/// pinching and snapped to a multiple of `zoomStep` when the fingers lift
/// (so a scripted pinch ends on an exact zoom whatever the touch
/// positions' rounding).
public final class ShapesScene: DemoScene {
    public let root = Layer(name: "root")
    private let width: Double, height: Double
    private let u: Double
    /// The layer pinched: it holds the arrows and the selection.
    public let stage = Layer(name: "stage")
    public private(set) var arrows: [ShapeLayer] = []
    /// The selection's outline: a solid white line with black dashes on it.
    public let selection = ShapeLayer(name: "selection")
    public let ants = ShapeLayer(name: "ants")
    /// The dash pattern of the ants (points: on, off).
    public let dashPattern: [Double]
    /// Stage zoom limits while pinching, and the step it snaps to on lift.
    public static let zoomRange = 0.5...4.0
    public static let zoomStep = 0.25
    private let pinch = PinchGestureRecognizer()
    private var zoomAtStart = 1.0
    /// The stage's zoom (its transform's scale), as set.
    public private(set) var zoom = 1.0
    /// The arrows' two outlines (in a `box` × `box` layer).
    public let straightPath: Path, bentPath: Path
    private let box: Double

    public init(width: Double, height: Double) {
        self.width = width
        self.height = height
        u = Swift.max(Swift.min(width, height), 1) / 272
        root.bounds = Rect(x: 0, y: 0, width: width, height: height)
        root.position = Point(x: width / 2, y: height / 2)
        root.backgroundColor = Color(rgb: 0x16161D)
        let font = try? Font(path: OrbitScene.fontPath)

        stage.bounds = Rect(x: 0, y: 0, width: width, height: height * 0.8)
        stage.position = Point(x: width / 2, y: height * 0.55)
        try! root.addSublayer(stage)

        // A faint grid on the stage: its hairlines show the zoom stays sharp.
        let grid = ShapeLayer(name: "grid")
        grid.anchorPoint = .zero
        grid.bounds = stage.bounds
        var gridPath = Path()
        let pitch = (24 * u).rounded()
        var gx = (stage.bounds.width / 2).truncatingRemainder(dividingBy: pitch) + 0.5
        while gx < stage.bounds.width {
            gridPath.move(to: PathPoint(x: gx, y: 0)); gridPath.line(to: PathPoint(x: gx, y: stage.bounds.height)); gx += pitch
        }
        var gy = (stage.bounds.height / 2).truncatingRemainder(dividingBy: pitch) + 0.5
        while gy < stage.bounds.height {
            gridPath.move(to: PathPoint(x: 0, y: gy)); gridPath.line(to: PathPoint(x: stage.bounds.width, y: gy)); gy += pitch
        }
        grid.path = gridPath
        grid.fillColor = nil
        grid.strokeColor = Color(rgb: 0x262633)
        grid.lineWidth = 1
        try! stage.addSublayer(grid)

        box = Swift.min(width / 3.3, height * 0.42).rounded()
        straightPath = ShapesScene.arrow(box, bend: 0)
        bentPath = ShapesScene.arrow(box, bend: 1)
        let colors: [(UInt32, UInt32)] = [(0xE84855, 0xFFB3BA), (0xF2A541, 0xFFE2B0), (0x2E86AB, 0xB5E2F5)]
        for i in 0..<3 {
            let arrow = ShapeLayer(name: "arrow")
            arrow.bounds = Rect(x: 0, y: 0, width: box, height: box)
            arrow.position = Point(x: width * (Double(i) + 0.5) / 3, y: stage.bounds.height / 2)
            arrow.path = straightPath
            arrow.fillColor = Color(rgb: colors[i].0)
            arrow.strokeColor = Color(rgb: colors[i].1)
            arrow.lineWidth = Swift.max(1.5 * u, 1)
            arrow.lineJoin = .round
            try! stage.addSublayer(arrow)
            arrows.append(arrow)
        }
        let margin = 10 * u
        let middle = arrows[1].position
        let sel = Rect(x: (middle.x - box / 2 - margin).rounded() + 0.5, y: (middle.y - box / 2 - margin).rounded() + 0.5,
                       width: (box + 2 * margin).rounded(), height: (box + 2 * margin).rounded())
        let rectPath = Path(rect: sel.minX, sel.minY, sel.width, sel.height)
        dashPattern = [(5 * u).rounded(), (4 * u).rounded()]
        for (shape, color, dashed) in [(selection, Color.white, false), (ants, Color.black, true)] {
            shape.anchorPoint = .zero
            shape.bounds = stage.bounds
            shape.path = rectPath
            shape.fillColor = nil
            shape.strokeColor = color
            shape.lineWidth = 1
            if dashed { shape.lineDashPattern = dashPattern }
            try! stage.addSublayer(shape)
        }

        let title = TextLayer(name: "title")
        title.font = font
        title.string = "Shapes · pinch to zoom"
        title.fontSize = 13 * u
        title.foregroundColor = Color(rgb: 0xE8EEF7)
        title.anchorPoint = .zero
        title.position = Point(x: 8 * u, y: 6 * u)
        title.bounds = Rect(x: 0, y: 0, width: width - 16 * u, height: 20 * u)
        try! root.addSublayer(title)
    }

    /// An arrow pointing right in a `size` square: a shaft and a head, seven
    /// corners; `bend` 1 tilts the head up and kinks the shaft (the same
    /// verbs, so the two morph point by point).
    public static func arrow(_ size: Double, bend: Double) -> Path {
        let s = size
        let lift = bend * 0.22 * s, grow = 1 + 0.25 * bend
        let pts: [(Double, Double)] = [
            (0.08, 0.42 + 0.1 * bend), (0.55, 0.42 - 0.05 * bend), (0.55, 0.22 - 0.1 * (grow - 1) * 4 * 0.25),
            (0.94, 0.5), (0.55, 0.78 + 0.1 * (grow - 1) * 4 * 0.25), (0.55, 0.58 - 0.05 * bend), (0.08, 0.58 + 0.1 * bend),
        ]
        var path = Path()
        for (i, p) in pts.enumerated() {
            // The head (points 1…5) rises by `lift` towards its tip.
            let headLift = i >= 1 && i <= 5 ? lift * (i == 3 ? 1.4 : 0.6) : 0
            let point = PathPoint(x: p.0 * s, y: p.1 * s - headLift)
            if i == 0 { path.move(to: point) } else { path.line(to: point) }
        }
        path.close()
        return path
    }

    public func startAnimations(at time: MediaTime) {
        for (i, arrow) in arrows.enumerated() {
            var morph = BasicAnimation(key: .shapePath, from: .path(straightPath), to: .path(bentPath), duration: 1.2)
            morph.timingFunction = .easeInEaseOut
            morph.autoreverses = true
            morph.repeatCount = .infinity
            // Staggered: each arrow a third of a cycle behind the last.
            morph.beginTime = time + 0.4 * Double(i)
            morph.timing.fillMode = .backwards
            arrow.add(morph, forKey: "morph", at: time)
        }
        var march = BasicAnimation(key: .lineDashPhase, from: .scalar(0),
                                   to: .scalar(dashPattern[0] + dashPattern[1]), duration: 0.6)
        march.repeatCount = .infinity
        ants.add(march, forKey: "march", at: time)
    }

    public func installGestures(in router: TouchRouter) -> Bool {
        pinch.action = { [unowned(unsafe) self] _ in self.pinched() }
        router.add(pinch, to: root)
        return true
    }

    private func setZoom(_ z: Double) {
        zoom = z
        stage.transform = Transform3D(scaleX: z, y: z)
    }

    private func pinched() {
        switch pinch.state {
        case .began:
            zoomAtStart = zoom
            fallthrough
        case .changed:
            let z = zoomAtStart * (pinch.scale.isFinite ? pinch.scale : 1)
            Transaction.withoutActions {
                setZoom(Swift.min(Swift.max(z, ShapesScene.zoomRange.lowerBound), ShapesScene.zoomRange.upperBound))
            }
        case .ended, .cancelled:
            // Snap to the step, animated (the implicit transform action).
            let snapped = Swift.min(Swift.max((zoom / ShapesScene.zoomStep).rounded() * ShapesScene.zoomStep,
                                              ShapesScene.zoomRange.lowerBound), ShapesScene.zoomRange.upperBound)
            Transaction.flush()
            Transaction.begin()
            Transaction.animationDuration = 0.2
            setZoom(snapped)
            Transaction.commit()
        default:
            break
        }
        Transaction.flush()
    }
}
