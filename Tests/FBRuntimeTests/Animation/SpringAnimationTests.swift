import XCTest
@testable import FBRuntime
import Raster

/// The spring's closed form against a numerical integration of its ODE
/// (classic Runge–Kutta, small steps) — the independent oracle.
final class SpringAnimationTests: XCTestCase {
    /// y(t) for m·y″ + c·y′ + k·y = 0, y(0) = 1, y′(0) = −v0, by RK4.
    private func integrate(mass m: Double, stiffness k: Double, damping c: Double, velocity v0: Double,
                           until end: Double, step h: Double = 1e-4) -> [Double: Double] {
        var y = 1.0, v = -v0, t = 0.0
        var samples: [Double: Double] = [0: 1]
        func acc(_ y: Double, _ v: Double) -> Double { (-c * v - k * y) / m }
        let every = Int((0.05 / h).rounded())
        var n = 0
        while t < end - h / 2 {
            let k1y = v, k1v = acc(y, v)
            let k2y = v + h / 2 * k1v, k2v = acc(y + h / 2 * k1y, v + h / 2 * k1v)
            let k3y = v + h / 2 * k2v, k3v = acc(y + h / 2 * k2y, v + h / 2 * k2v)
            let k4y = v + h * k3v, k4v = acc(y + h * k3y, v + h * k3v)
            y += h / 6 * (k1y + 2 * k2y + 2 * k3y + k4y)
            v += h / 6 * (k1v + 2 * k2v + 2 * k3v + k4v)
            t += h
            n += 1
            if n % every == 0 { samples[(Double(n / every) * 0.05 * 100).rounded() / 100] = y }
        }
        return samples
    }

    private func spring(mass: Double = 1, stiffness: Double = 100, damping: Double, velocity: Double = 0) -> SpringAnimation {
        var s = SpringAnimation(key: .positionX, from: .scalar(0), to: .scalar(100))
        s.mass = mass; s.stiffness = stiffness; s.damping = damping; s.initialVelocity = velocity
        return s
    }

    func testClosedFormMatchesTheIntegratedODE() {
        // ζ = c / (2√(km)): 0.25 (under), 1 (critical), 2.5 (over); with and
        // without an initial push either way.
        for (m, k, c) in [(1.0, 100.0, 5.0), (1.0, 100.0, 20.0), (2.0, 50.0, 50.0), (0.5, 300.0, 3.0)] {
            for v0 in [0.0, 4.0, -3.0] {
                let s = spring(mass: m, stiffness: k, damping: c, velocity: v0)
                let oracle = integrate(mass: m, stiffness: k, damping: c, velocity: v0, until: 2)
                for (t, y) in oracle {
                    XCTAssertEqual(s.displacement(at: t), y, accuracy: 1e-7, "m \(m) k \(k) c \(c) v0 \(v0) t \(t)")
                }
            }
        }
    }

    func testUnderDampedOvershootsAndOverDampedDoesNot() {
        let under = spring(damping: 5), over = spring(damping: 40)
        let times = stride(from: 0.0, through: 3, by: 0.01)
        XCTAssertTrue(times.contains { under.fraction(at: $0) > 1.01 })
        XCTAssertFalse(times.contains { over.fraction(at: $0) > 1 })
    }

    func testSettledFromSettlingDurationOn() {
        for (c, v0) in [(5.0, 0.0), (10.0, 2.0), (20.0, 0.0), (20.0, -8.0), (45.0, 1.0), (1.0, 0.0)] {
            let s = spring(damping: c, velocity: v0)
            let d = s.settlingDuration
            XCTAssertGreaterThan(d, 0)
            XCTAssertLessThan(d, SpringAnimation.maximumSettlingDuration)
            var t = d
            while t < d + 5 {
                XCTAssertLessThanOrEqual(abs(s.displacement(at: t)), SpringAnimation.settlingTolerance, "c \(c) t \(t)")
                t += 0.001
            }
            // Not settled long before (the bound is not absurdly loose).
            XCTAssertGreaterThan((0..<Int(d * 1000 * 0.5)).map { abs(s.displacement(at: Double($0) / 1000)) }.max() ?? 1,
                                 SpringAnimation.settlingTolerance)
        }
    }

    func testSpringOnALayerSettlesAtTheTarget() {
        let layer = Layer(name: "l")
        var s = SpringAnimation(key: .position, from: .point(.zero), to: .point(Point(x: 100, y: 50)))
        s.damping = 8
        s.beginTime = 1
        layer.add(s, forKey: "spring", at: 0)
        let d = s.settlingDuration
        guard case let .point(p)? = layer.presentationValue(for: .position, at: 1 + d) else { return XCTFail() }
        XCTAssertEqual(p.x, 100, accuracy: 100 * SpringAnimation.settlingTolerance)
        XCTAssertEqual(p.y, 50, accuracy: 50 * SpringAnimation.settlingTolerance)
        // Mid-way it is where the closed form says (per component).
        guard case let .point(q)? = layer.presentationValue(for: .position, at: 1.2) else { return XCTFail() }
        XCTAssertEqual(q.x, 100 * s.fraction(at: 0.2), accuracy: 1e-9)
        XCTAssertFalse(layer.animations[0].animation.hasFinished(at: 1 + d * 0.99))
        XCTAssertTrue(layer.animations[0].animation.hasFinished(at: 1 + d + 1e-9))
        // A set duration cuts it off.
        var short = s
        short.duration = 0.1
        XCTAssertTrue(Animation.spring(short).hasFinished(at: 1.1))
    }

    func testSpringAsAnImplicitAction() {
        let saved = AppRunLoop.current
        defer { AppRunLoop.current = saved }
        let clock = ManualClock()
        let loop = AppRunLoop(clock: clock)
        AppRunLoop.current = loop
        let root = Layer(name: "root"), layer = Layer(name: "l")
        try! root.addSublayer(layer)
        root.isDisplayRoot = true
        var template = SpringAnimation(key: .opacity)
        template.damping = 12
        layer.actions[.opacity] = .animation(.spring(template))
        loop.runTurn { layer.opacity = 0 }
        guard case let .spring(added)? = layer.animation(forKey: "opacity") else { return XCTFail("no spring") }
        XCTAssertEqual(added.fromValue, .scalar(1))                 // from the screen
        clock.set(0.1)
        XCTAssertEqual(layer.presentationValue(for: .opacity), .scalar(1 - template.fraction(at: 0.1)))
        clock.set(added.settlingDuration + 0.01)
        loop.runTurn()
        XCTAssertNil(layer.animation(forKey: "opacity"))            // removed once settled
        withExtendedLifetime(root) {}
    }

    func testBadParametersAreClamped() {
        let reference = spring(damping: 10)
        var bad = reference
        bad.mass = .nan
        bad.stiffness = -4
        bad.initialVelocity = .infinity
        for t in stride(from: 0.0, through: 2, by: 0.1) {
            XCTAssertEqual(bad.displacement(at: t), reference.displacement(at: t))
        }
        var undamped = reference
        undamped.damping = -1
        XCTAssertEqual(undamped.settlingDuration, SpringAnimation.maximumSettlingDuration)
        XCTAssertTrue(undamped.displacement(at: 1000).isFinite)
        XCTAssertThrowsError(try Layer().add(SpringAnimation(key: .opacity, to: .point(.zero)), forKey: "bad"))
    }
}
