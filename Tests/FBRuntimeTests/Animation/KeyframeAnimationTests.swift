import XCTest
import Raster
import Foundation
@testable import FBRuntime

final class KeyframeAnimationTests: XCTestCase {
    private func scalar(_ v: AnimatableValue?) -> Double? {
        if case let .scalar(s)? = v { return s }
        return nil
    }

    func testLinearWithKeyTimesAndSegmentTimingFunctions() {
        var a = KeyframeAnimation(key: .opacity, values: [.scalar(0), .scalar(10), .scalar(20)], duration: 1)
        a.keyTimes = [0, 0.8, 1]
        XCTAssertEqual(scalar(a.value(atProgress: 0.4))!, 5, accuracy: 1e-12)
        XCTAssertEqual(scalar(a.value(atProgress: 0.9))!, 15, accuracy: 1e-12)
        XCTAssertEqual(scalar(a.value(atProgress: 1)), 20)
        a.timingFunctions = [.easeIn]
        XCTAssertEqual(scalar(a.value(atProgress: 0.4))!, 10 * TimingFunction.easeIn.value(at: 0.5), accuracy: 1e-12)
        XCTAssertEqual(scalar(a.value(atProgress: 0.9))!, 15, accuracy: 1e-12)   // second segment linear
        // Malformed key times fall back to even spacing.
        for bad: [Double] in [[0, 0.9], [0, 1.2, 1], [0, 0.7, 0.5], [0, .nan, 1]] {
            a.keyTimes = bad
            a.timingFunctions = nil
            XCTAssertEqual(scalar(a.value(atProgress: 0.25))!, 5, accuracy: 1e-12, "\(bad)")
        }
    }

    func testDiscreteInBothKeyTimeForms() {
        var a = KeyframeAnimation(key: .opacity, values: [.scalar(1), .scalar(2), .scalar(3)])
        a.calculationMode = .discrete
        XCTAssertEqual(scalar(a.value(atProgress: 0.3)), 1)     // even thirds
        XCTAssertEqual(scalar(a.value(atProgress: 0.34)), 2)
        XCTAssertEqual(scalar(a.value(atProgress: 1)), 3)
        a.keyTimes = [0, 0.1, 0.2, 1]                              // CA's n + 1 form
        XCTAssertEqual(scalar(a.value(atProgress: 0.15)), 2)
        XCTAssertEqual(scalar(a.value(atProgress: 0.5)), 3)
        a.keyTimes = [0, 0.5, 0.9]                                 // n form: value i from keyTimes[i]
        XCTAssertEqual(scalar(a.value(atProgress: 0.6)), 2)
        XCTAssertEqual(scalar(a.value(atProgress: 0.95)), 3)
    }

    func testPacedMovesAtConstantSpeed() {
        var a = KeyframeAnimation(key: .position, values: [.point(Point(x: 0, y: 0)), .point(Point(x: 30, y: 40)),
                                                           .point(Point(x: 30, y: 60))])
        a.calculationMode = .paced
        a.keyTimes = [0, 0.1, 1]                                   // ignored
        XCTAssertEqual(a.effectiveKeyTimes(), [0, 50.0 / 70, 1])
        guard case let .point(p)? = a.value(atProgress: 0.5) else { return XCTFail() }
        // 35 of 70 units along: 0.7 of the first 50-unit leg.
        XCTAssertEqual(p.x, 21, accuracy: 1e-9); XCTAssertEqual(p.y, 28, accuracy: 1e-9)
    }

    func testCubicPassesThroughTheValuesWithContinuousSlope() {
        var a = KeyframeAnimation(key: .opacity, values: [.scalar(0), .scalar(4), .scalar(1), .scalar(3)])
        a.calculationMode = .cubic
        for (k, v) in [(0.0, 0.0), (1.0 / 3, 4.0), (2.0 / 3, 1.0), (1.0, 3.0)] {
            XCTAssertEqual(scalar(a.value(atProgress: k))!, v, accuracy: 1e-12)
        }
        // C¹ at the inner knots: left and right difference quotients agree.
        let h = 1e-6
        for knot in [1.0 / 3, 2.0 / 3] {
            let left = (scalar(a.value(atProgress: knot))! - scalar(a.value(atProgress: knot - h))!) / h
            let right = (scalar(a.value(atProgress: knot + h))! - scalar(a.value(atProgress: knot))!) / h
            XCTAssertEqual(left, right, accuracy: 1e-3)
        }
        // Catmull-Rom at the middle knot: slope (p2 − p0)/2 per segment.
        let slope = (scalar(a.value(atProgress: 1.0 / 3 + h))! - 4) / h * (1.0 / 3)
        XCTAssertEqual(slope, (1.0 - 0.0) / 2, accuracy: 1e-3)
        // Full tension flattens the tangents: the curve stops at each value.
        a.tensionValues = [1, 1, 1, 1]
        let flat = (scalar(a.value(atProgress: 1.0 / 3 + h))! - 4) / h
        XCTAssertEqual(flat, 0, accuracy: 1e-3)
    }

    /// Issue 22: with uneven key times the cubic modes stay smooth in
    /// time. The velocity (value per unit of progress) just before and just
    /// after each interior key agrees, for TCB parameters with continuity 0
    /// as well; before, the tangents were per segment, and with key times
    /// [0, 0.8, 1] the velocity jumped from 125 to 500 units at the middle
    /// key. Evenly spaced keys are unchanged (Catmull-Rom, as above).
    func testCubicVelocityIsContinuousInTimeAtUnevenKeys() throws {
        let h = 1e-7
        func velocities(_ a: KeyframeAnimation, at knot: Double) throws -> (left: Double, right: Double) {
            let v = try XCTUnwrap(scalar(a.value(atProgress: knot)))
            let l = try XCTUnwrap(scalar(a.value(atProgress: knot - h))), r = try XCTUnwrap(scalar(a.value(atProgress: knot + h)))
            return ((v - l) / h, (r - v) / h)
        }
        var a = KeyframeAnimation(key: .opacity, values: [.scalar(0), .scalar(100), .scalar(200)])
        a.calculationMode = .cubic
        a.keyTimes = [0, 0.8, 1]
        var (left, right) = try velocities(a, at: 0.8)
        // Catmull-Rom's tangent at the middle key, (200 − 0) / 2 per
        // average interval 0.5: 200 units per unit of progress both sides.
        XCTAssertEqual(left, 200, accuracy: 1e-3)
        XCTAssertEqual(right, 200, accuracy: 1e-3)
        XCTAssertEqual(scalar(a.value(atProgress: 0.8))!, 100, accuracy: 1e-12)

        // Five keys at uneven times, a wiggle, with tension and bias.
        a.values = [.scalar(0), .scalar(40), .scalar(-10), .scalar(70), .scalar(20)]
        a.keyTimes = [0, 0.1, 0.55, 0.7, 1]
        let settings: [(tension: Double, bias: Double)] = [(0, 0), (0.4, 0), (0, 0.5), (-0.3, -0.4)]
        for parameters in settings {
            a.tensionValues = Array(repeating: parameters.tension, count: 5)
            a.biasValues = Array(repeating: parameters.bias, count: 5)
            for (k, knot) in [0.1, 0.55, 0.7].enumerated() {
                (left, right) = try velocities(a, at: knot)
                XCTAssertEqual(left, right, accuracy: 1e-3 * max(1, abs(left)), "key \(k + 1), \(parameters)")
                XCTAssertEqual(scalar(a.value(atProgress: knot))!, scalar(a.values[k + 1])!, accuracy: 1e-9)
            }
        }

        // Cubic paced: key times from the distances (10, 90, 20 units), so
        // uneven; the speed is continuous at both inner keys.
        a = KeyframeAnimation(key: .opacity, values: [.scalar(0), .scalar(10), .scalar(100), .scalar(80)])
        a.calculationMode = .cubicPaced
        let times = a.effectiveKeyTimes()
        XCTAssertEqual(times[1], 10.0 / 120, accuracy: 1e-12)
        for knot in [times[1], times[2]] {
            (left, right) = try velocities(a, at: knot)
            XCTAssertEqual(left, right, accuracy: 1e-3 * max(1, abs(left)))
        }

        // A non-zero continuity makes a corner, as intended: the two sides differ.
        a.calculationMode = .cubic
        a.keyTimes = nil
        a.continuityValues = [0, 0.8, 0, 0]
        (left, right) = try velocities(a, at: 1.0 / 3)
        XCTAssertGreaterThan(abs(left - right), 1)
    }

    func testEdgeCases() {
        var a = KeyframeAnimation(key: .opacity, values: [])
        XCTAssertNil(a.value(atProgress: 0.5))
        a.values = [.scalar(7)]
        XCTAssertEqual(scalar(a.value(atProgress: 0.9)), 7)
        a.values = [.scalar(1), .point(.zero)]                     // different kinds: a jump at the midpoint
        XCTAssertEqual(scalar(a.value(atProgress: 0.49)), 1)
        XCTAssertEqual(a.value(atProgress: 0.51), .point(.zero))
        a.values = [.scalar(0), .scalar(1)]
        XCTAssertEqual(scalar(a.value(atProgress: .nan)), 0)
    }

    func testGroupsRunMembersOnTheGroupsTimeline() {
        var fade = BasicAnimation(key: .opacity, from: .scalar(0), to: .scalar(1), duration: 1)
        fade.beginTime = 1                                       // one second into the group
        var move = KeyframeAnimation(key: .position, values: [.point(.zero), .point(Point(x: 10, y: 0))], duration: 4)
        move.timing.fillMode = .forwards
        var group = AnimationGroup([.basic(fade), .keyframe(move)], duration: 2)
        group.timing.beginTime = 10
        group.timing.speed = 2                                   // the whole group twice as fast
        let animation = Animation.group(group)
        var out: [(key: AnimatableKey, value: AnimatableValue)] = []
        animation.values(at: 10.75, into: &out)                  // group local time 1.5
        XCTAssertEqual(out.count, 2)
        XCTAssertEqual(out[0].value, .scalar(0.5))
        XCTAssertEqual(out[1].value, .point(Point(x: 3.75, y: 0)))
        out.removeAll()
        animation.values(at: 11.5, into: &out)                   // past the group's 2 s (1 s of parent time)
        XCTAssertTrue(out.isEmpty)
        XCTAssertTrue(animation.hasFinished(at: 11))
        XCTAssertFalse(animation.hasFinished(at: 10.99))
    }
}

/// Keyframes along a path, with rotationMode.
final class KeyframePathTests: XCTestCase {
    func presented(_ layer: Layer, _ t: MediaTime) -> (Point, Double) {
        guard case let .point(p)? = layer.presentationValue(for: .position, at: t),
              case let .transform(m)? = layer.presentationValue(for: .transform, at: t) else { return (.zero, .nan) }
        return (p, atan2(m.m12, m.m11))      // the rotation about z of the presented transform
    }

    /// An L-shaped path walked at constant speed; the layer turns to follow
    /// it (auto) or faces backwards (autoReverse).
    func testConstantSpeedAlongThePathAndRotationModes() {
        var l = Path()
        l.move(to: PathPoint(x: 0, y: 0)); l.line(to: PathPoint(x: 100, y: 0)); l.line(to: PathPoint(x: 100, y: 100))
        for (mode, offset) in [(RotationMode.auto, 0.0), (.autoReverse, Double.pi)] {
            let layer = Layer()
            var a = KeyframeAnimation(key: .position, values: [], duration: 2)
            a.path = l
            a.rotationMode = mode
            layer.add(a, forKey: "walk", at: 0)
            let (p1, r1) = presented(layer, 0.5)
            XCTAssertEqual(p1.x, 50, accuracy: 1e-9); XCTAssertEqual(p1.y, 0, accuracy: 1e-9)
            XCTAssertEqual(cos(r1), cos(offset), accuracy: 1e-5); XCTAssertEqual(sin(r1), sin(offset), accuracy: 1e-5)
            let (p2, r2) = presented(layer, 1.5)
            XCTAssertEqual(p2.x, 100, accuracy: 1e-9); XCTAssertEqual(p2.y, 50, accuracy: 1e-9)
            XCTAssertEqual(cos(r2), cos(offset + .pi / 2), accuracy: 1e-5); XCTAssertEqual(sin(r2), sin(offset + .pi / 2), accuracy: 1e-5)
        }
    }

    /// Along a circle the point stays on the circle and covers equal arcs
    /// in equal times.
    func testCurvedPathIsPaced() {
        let circle = Path(circleCenter: PathPoint(x: 50, y: 50), radius: 40)
        var a = KeyframeAnimation(key: .position, values: [], duration: 1)
        a.path = circle
        let layer = Layer()
        layer.add(a, forKey: "orbit", at: 0)
        var previous: Double?
        var steps: [Double] = []
        for i in 0...10 {
            guard case let .point(p)? = layer.presentationValue(for: .position, at: Double(i) / 10 * 0.999) else { return XCTFail() }
            XCTAssertEqual(((p.x - 50) * (p.x - 50) + (p.y - 50) * (p.y - 50)).squareRoot(), 40, accuracy: 0.02)
            let angle = atan2(p.y - 50, p.x - 50)
            if let previous {
                var d = angle - previous
                while d < 0 { d += 2 * .pi }
                steps.append(d)
            }
            previous = angle
        }
        for d in steps.dropLast() { XCTAssertEqual(d, steps[0], accuracy: 0.01) }
    }

    func testBadPathsHaveNoEffect() {
        var bad = Path()
        bad.move(to: PathPoint(x: .nan, y: 0)); bad.line(to: PathPoint(x: 1, y: 1))
        var a = KeyframeAnimation(key: .position, values: [.point(Point(x: 7, y: 7))], duration: 1)
        a.path = bad
        XCTAssertNil(a.pathSampler, "a non-finite path is refused; the values apply")
        a.path = Path()
        XCTAssertNil(a.pathSampler)
    }
}
