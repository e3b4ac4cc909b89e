import FBRuntime
import Raster

/// Two nested cubes turning in one 3-D space, the 2008 Core Animation demo:
/// each cube is six face layers under a `TransformLayer`, the small one
/// inside the big one (a `TransformLayer` nested in the other, so both
/// share one rendering context and their faces are sorted together); the
/// big cube's faces are translucent, so the small one shows through.
///
/// Layers: `stage` (a plain layer whose `sublayerTransform` is the
/// perspective) → `spinner` (turns about y with the scene's animation) →
/// `outer` (the drag's rotation; the big cube's faces) → `innerTilt` (a fixed
/// tilt) → `innerSpin` (turns about its own y, faster, the other way) →
/// the small cube's faces.
///
/// **Drag to spin**: a pan anywhere sets the outer cube's rotation, yaw
/// (about the screen's vertical) by `degreesPerPoint` × the horizontal
/// translation and pitch by −`degreesPerPoint` × the vertical one (pitch
/// clamped to ±80°); on release the cube stays where the finger left it.
public final class CubeScene: DemoScene {
    public let root = Layer(name: "root")
    private let width: Double, height: Double
    private let stage = Layer(name: "stage")
    private let spinner = TransformLayer(name: "spinner")
    private let outer = TransformLayer(name: "outer cube")
    private let innerTilt = TransformLayer(name: "inner tilt")
    private let innerSpin = TransformLayer(name: "inner cube")
    private let pan = PanGestureRecognizer()
    /// Degrees of rotation per point of drag.
    public static let degreesPerPoint = 0.4
    /// The outer cube's rotation, degrees: about y first, then about x.
    public private(set) var yawDegrees = 30.0, pitchDegrees = -20.0
    private var dragStart = (yaw: 0.0, pitch: 0.0)
    /// The big cube's edge, points.
    public let edge: Double

    public init(width: Double, height: Double) {
        self.width = width
        self.height = height
        let u = Swift.min(width, height)
        edge = u * 0.42
        root.bounds = Rect(x: 0, y: 0, width: width, height: height)
        root.position = Point(x: width / 2, y: height / 2)
        root.backgroundColor = Color(rgb: 0x070A12)
        let font = try? Font(path: OrbitScene.fontPath)

        let backdrop = GradientLayer(name: "backdrop")
        SceneParts.place(backdrop, frame: root.bounds)
        backdrop.type = .radial
        backdrop.colors = [Color(rgb: 0x22304F), Color(rgb: 0x070A12)]
        backdrop.startPoint = Point(x: 0.5, y: 0.5)
        backdrop.endPoint = Point(x: 1.1, y: 1.1)
        try! root.addSublayer(backdrop)
        if let title = SceneParts.label("drag to spin", font: font, size: height * 0.045, color: Color(rgb: 0x8793AD),
                                        frame: Rect(x: 0, y: height * 0.9, width: width, height: height * 0.07)) {
            try! root.addSublayer(title)
        }

        SceneParts.place(stage, frame: root.bounds)
        stage.sublayerTransform = Transform3D.perspective(distance: u * 2.4)
        for l in [spinner, outer, innerTilt, innerSpin] as [Layer] { l.bounds = Rect(x: 0, y: 0, width: 0, height: 0) }
        spinner.position = Point(x: width / 2, y: height / 2)
        outer.position = .zero
        innerTilt.position = .zero
        innerSpin.position = .zero
        innerTilt.transform = Transform3D(rotationAngle: 0.6, x: 1, y: 0, z: 1)

        let outerColors: [UInt32] = [0x3DA5FF, 0xFF6B6B, 0x5BE37D, 0xFFC94D, 0xB07CFF, 0x4DE0D2]
        for (i, t) in CubeScene.faceTransforms(edge: edge).enumerated() {
            let face = SceneParts.layer("face \(i + 1)", frame: Rect(x: -edge / 2, y: -edge / 2, width: edge, height: edge),
                                        color: Color(rgb: outerColors[i], alpha: 0.28))
            face.borderWidth = Swift.max(2, u * 0.006)
            face.borderColor = Color(rgb: outerColors[i], alpha: 0.95)
            face.transform = t
            if let n = SceneParts.label("\(i + 1)", font: font, size: edge * 0.22, color: Color(rgb: 0xFFFFFF, alpha: 0.8),
                                        frame: Rect(x: 0, y: edge * 0.04, width: edge * 0.22, height: edge * 0.26)) {
                try! face.addSublayer(n)
            }
            try! outer.addSublayer(face)
        }
        let small = edge * 0.4
        let innerColors: [UInt32] = [0xFF8A3D, 0xFFD23D, 0xFF4F6E, 0xFF8A3D, 0xFFD23D, 0xFF4F6E]
        for (i, t) in CubeScene.faceTransforms(edge: small).enumerated() {
            // Plain colours and square corners: under perspective each is
            // one projected quad (gradients and rounded corners cost a
            // resampled image or a path per face and frame).
            let face = SceneParts.layer("inner face \(i + 1)", frame: Rect(x: -small / 2, y: -small / 2, width: small, height: small),
                                        color: Color(rgb: innerColors[i], alpha: 0.9))
            face.borderWidth = 1
            face.borderColor = Color(rgb: 0xFFFFFF, alpha: 0.7)
            face.transform = t
            try! innerSpin.addSublayer(face)
        }
        try! innerTilt.addSublayer(innerSpin)
        try! outer.addSublayer(innerTilt)
        try! spinner.addSublayer(outer)
        try! stage.addSublayer(spinner)
        try! root.addSublayer(stage)
        applyRotation()
    }

    /// The six faces of a cube of edge `edge` centred on the origin: each
    /// pushed out by half the edge, then turned to its side.
    static func faceTransforms(edge: Double) -> [Transform3D] {
        let out = Transform3D(translationX: 0, y: 0, z: edge / 2)
        let h = Double.pi / 2
        return [out,
                out.concatenating(Transform3D(rotationAngle: h, x: 0, y: 1, z: 0)),
                out.concatenating(Transform3D(rotationAngle: Double.pi, x: 0, y: 1, z: 0)),
                out.concatenating(Transform3D(rotationAngle: -h, x: 0, y: 1, z: 0)),
                out.concatenating(Transform3D(rotationAngle: h, x: 1, y: 0, z: 0)),
                out.concatenating(Transform3D(rotationAngle: -h, x: 1, y: 0, z: 0))]
    }

    /// The outer cube's transform for a yaw and pitch in degrees.
    public static func rotation(yawDegrees yaw: Double, pitchDegrees pitch: Double) -> Transform3D {
        Transform3D(rotationAngle: yaw * Double.pi / 180, x: 0, y: 1, z: 0)
            .concatenating(Transform3D(rotationAngle: pitch * Double.pi / 180, x: 1, y: 0, z: 0))
    }

    /// The outer cube's layer (tests read its transform).
    public var outerCube: Layer { outer }

    private func applyRotation() {
        let t = CubeScene.rotation(yawDegrees: yawDegrees, pitchDegrees: pitchDegrees)
        Transaction.withoutActions { outer.transform = t }
    }

    /// The whole scene turns slowly about y (20 s a turn); the small cube
    /// spins the other way about its own axis (6 s a turn). Both start at
    /// angle 0, the still scene's pose.
    public func startAnimations(at time: MediaTime) {
        var turn = BasicAnimation(key: .transformRotationY, from: .scalar(0), to: .scalar(2 * Double.pi), duration: 20)
        turn.repeatCount = .infinity
        spinner.add(turn, forKey: "turn", at: time)
        var spin = BasicAnimation(key: .transformRotationY, from: .scalar(0), to: .scalar(-2 * Double.pi), duration: 6)
        spin.repeatCount = .infinity
        innerSpin.add(spin, forKey: "spin", at: time)
    }

    public func installGestures(in router: TouchRouter) -> Bool {
        pan.action = { [unowned(unsafe) self] _ in self.panned() }
        router.add(pan, to: root)
        return true
    }

    private func panned() {
        switch pan.state {
        case .began:
            dragStart = (yawDegrees, pitchDegrees)
            fallthrough
        case .changed:
            yawDegrees = dragStart.yaw + pan.translation.x * CubeScene.degreesPerPoint
            pitchDegrees = Swift.min(Swift.max(dragStart.pitch - pan.translation.y * CubeScene.degreesPerPoint, -80), 80)
            applyRotation()
        default:
            break
        }
    }
}
