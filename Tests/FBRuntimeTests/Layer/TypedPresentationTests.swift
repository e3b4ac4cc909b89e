import XCTest
@testable import FBRuntime
import Raster

/// The typed properties of a presentation layer show what is on screen
/// (Core Animation's presentation layer), not the model values: a shape's
/// stroke end, a text layer's font size, a gradient's end points and a
/// replicator's instance delay mid-animation.
final class TypedPresentationTests: XCTestCase {
    func basic(_ key: String, _ from: AnimatableValue, _ to: AnimatableValue) -> BasicAnimation {
        BasicAnimation(key: .custom(key), from: from, to: to, duration: 1)
    }

    func testSubclassPropertiesOfPresentationLayersArePresented() throws {
        let root = Layer(name: "root")
        let shape = ShapeLayer()
        shape.strokeEnd = 1
        shape.lineWidth = 2
        shape.add(basic("strokeEnd", .scalar(0), .scalar(1)), forKey: "draw", at: 0)
        shape.add(basic("lineWidth", .scalar(2), .scalar(6)), forKey: "width", at: 0)
        let text = TextLayer()
        text.fontSize = 20
        text.add(basic("fontSize", .scalar(10), .scalar(30)), forKey: "size", at: 0)
        let gradient = GradientLayer()
        gradient.add(basic("startPoint", .point(Point(x: 0, y: 0)), .point(Point(x: 1, y: 0))), forKey: "start", at: 0)
        let replicator = ReplicatorLayer()
        replicator.add(basic("instanceDelay", .scalar(0), .scalar(0.4)), forKey: "delay", at: 0)
        for l in [shape, text, gradient, replicator] as [Layer] { try root.addSublayer(l) }

        let p = root.presentation(at: 0.25)
        let ps = try XCTUnwrap(p.sublayers[0] as? ShapeLayer)
        XCTAssertEqual(ps.strokeEnd, 0.25, accuracy: 1e-9, "the stroke end on screen")
        XCTAssertEqual(ps.lineWidth, 3, accuracy: 1e-9)
        XCTAssertEqual(shape.strokeEnd, 1, "the model keeps its value")
        let pt = try XCTUnwrap(p.sublayers[1] as? TextLayer)
        XCTAssertEqual(pt.fontSize, 15, accuracy: 1e-9)
        XCTAssertEqual(text.fontSize, 20)
        let pg = try XCTUnwrap(p.sublayers[2] as? GradientLayer)
        XCTAssertEqual(pg.startPoint.x, 0.25, accuracy: 1e-9)
        let pr = try XCTUnwrap(p.sublayers[3] as? ReplicatorLayer)
        XCTAssertEqual(pr.instanceDelay, 0.1, accuracy: 1e-9)
        // The untyped accessor agrees.
        if case let .scalar(v)? = ps.value(forKey: "strokeEnd") { XCTAssertEqual(v, 0.25, accuracy: 1e-9) } else { XCTFail() }
        // Without animations the model values show.
        XCTAssertEqual((root.presentation(at: 5).sublayers[0] as? ShapeLayer)?.strokeEnd, 1)
    }
}
