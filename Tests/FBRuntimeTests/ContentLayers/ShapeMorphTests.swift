import XCTest
@testable import FBRuntime
import Raster

/// `ShapeLayer.plainMorph`, the allocation-free evaluation of a path
/// morph, against the general evaluation (`customPresentationValue`, which
/// goes through `Animation.values` and `AnimatableValue.interpolate`): the
/// same path, point for point, at every time tried.
final class ShapeMorphTests: XCTestCase {
    func star(_ n: Int, inner: Double, turn: Double) -> Path {
        var p = Path()
        for i in 0..<(2 * n) {
            let a = Double(i) / Double(2 * n) * 2 * Double.pi + turn
            let r = i % 2 == 0 ? 50 : inner
            let point = PathPoint(x: 60 + r * cos(a), y: 60 + r * sin(a))
            if i == 0 { p.move(to: point) } else if i % 3 == 0 { p.quad(to: point, control: PathPoint(x: 60, y: 60)) } else { p.line(to: point) }
        }
        p.close()
        p.move(to: PathPoint(x: 5, y: 5 + inner))       // an open second subpath
        p.line(to: PathPoint(x: 15, y: 9))
        return p
    }

    func shape(_ configure: (inout BasicAnimation) -> Void) throws -> ShapeLayer {
        let layer = ShapeLayer()
        layer.path = star(7, inner: 20, turn: 0)
        var morph = BasicAnimation(key: .custom("path"), from: .path(star(7, inner: 20, turn: 0)),
                                   to: .path(star(7, inner: 35, turn: 0.4)), duration: 0.8)
        configure(&morph)
        layer.add(morph, forKey: "morph", at: 2)
        return layer
    }

    /// The general evaluation's path at `t` (the model's when no animation
    /// applies).
    func general(_ layer: ShapeLayer, _ t: MediaTime) -> Path? {
        if case let .path(p)? = layer.customPresentationValue(forKey: "path", atLocalTime: t) { return p }
        return nil
    }

    /// Compares the fast path with the general evaluation every 37 ms from
    /// 0 to 7 s (the layers' animations start at 2); counts the times it
    /// morphed and the times no animation applied.
    func sweep(_ layer: ShapeLayer, _ name: String) -> (morphed: Int, inactive: Int) {
        var storage = Path()
        var morphed = 0, inactive = 0
        var t: MediaTime = 0
        while t < 7 {
            switch layer.plainMorph(at: t, into: &storage) {
            case .morphed:
                morphed += 1
                XCTAssertEqual(storage, general(layer, t), "\(name) at \(t)")
            case .inactive:
                inactive += 1
                XCTAssertEqual(layer.path, general(layer, t), "\(name) at \(t): the model's path")
            case .notAMorph:
                XCTFail("\(name): a plain morph")
            }
            // And through the memoised entry point the compositor uses.
            XCTAssertEqual(layer.presentedPath(at: t), general(layer, t), "\(name) at \(t), presentedPath")
            t += 0.037
        }
        return (morphed, inactive)
    }

    func testAPlainMorphEqualsTheGeneralEvaluationAtEveryTime() throws {
        let configurations: [(String, (inout BasicAnimation) -> Void)] = [
            ("linear", { _ in }),
            ("eased, repeating, autoreversing", { $0.timingFunction = .easeInEaseOut; $0.repeatCount = 2.5; $0.autoreverses = true }),
            ("overshooting timing function", { $0.timingFunction = TimingFunction(0.3, -0.8, 0.6, 1.9) }),
            ("speed and time offset", { $0.speed = 1.7; $0.timeOffset = 0.3 }),
            ("fills both ways", { $0.fillMode = .both; $0.beginTime = 3 }),
            ("fills forwards", { $0.fillMode = .forwards }),
        ]
        for (name, configure) in configurations {
            let (morphed, inactive) = sweep(try shape(configure), name)
            XCTAssertGreaterThan(morphed, 10, name)
            if name != "fills both ways" { XCTAssertGreaterThan(inactive, 10, "\(name): before the start or after the end") }
        }
    }

    func testOtherPathAnimationsTakeTheGeneralEvaluation() throws {
        var storage = Path()
        let additive = try shape { $0.isAdditive = true }
        XCTAssertEqual(additive.plainMorph(at: 2.2, into: &storage), .notAMorph)
        let by = try shape { $0.toValue = nil; $0.byValue = .path(self.star(7, inner: 1, turn: 0)) }
        XCTAssertEqual(by.plainMorph(at: 2.2, into: &storage), .notAMorph)
        let mismatched = try shape { $0.toValue = .path(self.star(8, inner: 20, turn: 0)) }
        XCTAssertEqual(mismatched.plainMorph(at: 2.2, into: &storage), .notAMorph)
        XCTAssertEqual(mismatched.presentedPath(at: 2.2), general(mismatched, 2.2), "mismatched paths jump as the general evaluation says")
        let two = try shape { _ in }
        two.add(BasicAnimation(key: .custom("path"), from: .path(star(7, inner: 10, turn: 0)), to: .path(star(7, inner: 30, turn: 1)), duration: 1),
                forKey: "second", at: 2)
        XCTAssertEqual(two.plainMorph(at: 2.2, into: &storage), .notAMorph)
        XCTAssertEqual(two.presentedPath(at: 2.2), general(two, 2.2))
    }

    /// Keyframe morphs in linear and paced mode, with key times and
    /// per-segment timing functions, take the fast path too.
    func testAKeyframeMorphEqualsTheGeneralEvaluationAtEveryTime() {
        let configurations: [(String, (inout KeyframeAnimation) -> Void)] = [
            ("linear, even", { _ in }),
            ("linear, key times and timing functions", {
                $0.keyTimes = [0, 0.1, 0.7, 1]
                $0.timingFunctions = [.easeIn, TimingFunction(0.3, -0.8, 0.6, 1.9), .easeOut]
            }),
            ("paced, repeating, autoreversing", {
                $0.calculationMode = .paced; $0.timing.repeatCount = 2.5; $0.timing.autoreverses = true
            }),
            ("linear, overall timing function, fills forwards", {
                $0.timingFunction = .easeInEaseOut; $0.timing.fillMode = .forwards
            }),
        ]
        for (name, configure) in configurations {
            let layer = ShapeLayer()
            layer.path = star(7, inner: 20, turn: 0)
            var morph = KeyframeAnimation(key: .custom("path"), values: [
                .path(star(7, inner: 20, turn: 0)), .path(star(7, inner: 35, turn: 0.4)),
                .path(star(7, inner: 5, turn: 0.1)), .path(star(7, inner: 28, turn: -0.3)),
            ], duration: 0.9)
            configure(&morph)
            layer.add(morph, forKey: "morph", at: 2)
            XCTAssertGreaterThan(sweep(layer, name).morphed, 20, name)
        }
        // Cubic keyframes (four values per point) take the general evaluation.
        let cubic = ShapeLayer()
        cubic.path = star(7, inner: 20, turn: 0)
        var spline = KeyframeAnimation(key: .custom("path"), values: [.path(star(7, inner: 20, turn: 0)), .path(star(7, inner: 35, turn: 0.4))])
        spline.calculationMode = .cubic
        cubic.add(spline, forKey: "spline", at: 2)
        var storage = Path()
        XCTAssertEqual(cubic.plainMorph(at: 2.1, into: &storage), .notAMorph)
        XCTAssertEqual(cubic.presentedPath(at: 2.1), general(cubic, 2.1))
    }
}
