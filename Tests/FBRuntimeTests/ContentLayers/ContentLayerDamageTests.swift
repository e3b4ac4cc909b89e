@testable import FBRuntime
import Raster
import XCTest

/// Damage tracking with the content layers, rendering contexts,
/// replicators, emitters, backdrop blur and drawn layers: every frame of
/// one compositor (redrawing only the damage) equals a full render by a
/// fresh compositor, while animations run and properties change.
final class ContentLayerDamageTests: XCTestCase {
    final class Dial: Layer {
        var angle = 0.0
        override func draw(in context: DrawingContext) {
            var p = Path()
            p.move(to: PathPoint(x: 15, y: 15))
            p.line(to: PathPoint(x: 15 + 12 * cos(angle), y: 15 + 12 * sin(angle)))
            context.stroke(p, style: StrokeStyle(width: 2), color: .white)
        }
    }

    func box(_ l: Layer, _ x: Double, _ y: Double, _ w: Double, _ h: Double) -> Layer {
        l.bounds = Rect(x: 0, y: 0, width: w, height: h)
        l.anchorPoint = .zero
        l.position = Point(x: x, y: y)
        return l
    }

    func testEveryFrameEqualsAFullRender() throws {
        let root = box(Layer(name: "root"), 0, 0, 200, 150)
        root.backgroundColor = Color(red: 0.1, green: 0.12, blue: 0.15)
        let shape = box(ShapeLayer(), 10, 10, 60, 60) as! ShapeLayer
        var star = Path()
        star.move(to: PathPoint(x: 30, y: 2)); star.line(to: PathPoint(x: 58, y: 58)); star.line(to: PathPoint(x: 2, y: 20))
        star.line(to: PathPoint(x: 58, y: 20)); star.line(to: PathPoint(x: 2, y: 58)); star.close()
        shape.path = star
        shape.strokeColor = .white
        shape.lineWidth = 3
        shape.add(BasicAnimation(key: .custom("strokeEnd"), from: .scalar(0), to: .scalar(1), duration: 1), forKey: "end", at: 0)
        let gradient = box(GradientLayer(), 80, 10, 50, 40) as! GradientLayer
        gradient.colors = [Color(red: 1, green: 0, blue: 0), Color(red: 0, green: 0, blue: 1)]
        let replicator = box(ReplicatorLayer(), 10, 80, 80, 60) as! ReplicatorLayer
        replicator.instanceCount = 3
        replicator.instanceTransform = Transform3D(translationX: 25, y: 0)
        replicator.instanceDelay = 0.1
        replicator.instanceGreenOffset = -0.3
        let dot = box(Layer(), 0, 0, 15, 15)
        dot.backgroundColor = .white
        dot.add(BasicAnimation(key: .positionY, from: .scalar(0), to: .scalar(40), duration: 0.8), forKey: "y", at: 0)
        try replicator.addSublayer(dot)
        let cube = TransformLayer()
        cube.position = Point(x: 160, y: 100)
        for k in 0..<2 {
            let face = box(Layer(), 0, 0, 30, 30)
            face.anchorPoint = Point(x: 0.5, y: 0.5)
            face.backgroundColor = k == 0 ? Color(red: 0.9, green: 0.7, blue: 0.1) : Color(red: 0.2, green: 0.8, blue: 0.3)
            face.transform = Transform3D(rotationAngle: k == 0 ? 0.5 : -0.5, x: 0, y: 1, z: 0)
            try cube.addSublayer(face)
        }
        cube.add(BasicAnimation(key: .transformRotationY, from: .scalar(0), to: .scalar(3), duration: 1), forKey: "spin", at: 0)
        let emitter = box(EmitterLayer(), 100, 60, 50, 50) as! EmitterLayer
        let cell = EmitterCell()
        let spark = Surface<ARGB8888>(width: 2, height: 2)!
        spark.clear(to: 0xFFFF_FF80)
        cell.contents = LayerContents(spark)
        cell.birthRate = 30; cell.lifetime = 0.5; cell.velocity = 40; cell.emissionRange = 6.3
        emitter.emitterCells = [cell]
        emitter.emitterPosition = Point(x: 25, y: 25)
        let dial = box(Dial(name: "dial"), 140, 10, 30, 30) as! Dial
        dial.setNeedsDisplay()
        for l in [shape, gradient, replicator, cube, emitter, dial] as [Layer] { try root.addSublayer(l) }

        let compositor = Compositor()
        let target = Surface<ARGB8888>(width: 200, height: 150)!
        var t = 0.0
        for step in 0..<24 {
            t += 1.0 / 15
            switch step {
            case 5: gradient.position.x += 7
            case 8: gradient.colors = [.white, .black, .white]
            case 10: dial.angle = 1.2; dial.setNeedsDisplay()
            case 12:
                let glass = box(Layer(name: "glass"), 60, 40, 70, 50)
                glass.backgroundBlurRadius = 6
                glass.cornerRadius = 8
                try root.addSublayer(glass)
            case 16: replicator.instanceCount = 2
            case 19: shape.lineWidth = 6
            default: break
            }
            compositor.render(root, at: t, into: target.view, clearColor: .black)
            let full = Surface<ARGB8888>(width: 200, height: 150)!
            Compositor().render(root, at: t, into: full.view, clearColor: .black)
            XCTAssertEqual(pixelChecksum(target.view), pixelChecksum(full.view), "step \(step)")
        }
    }
}
