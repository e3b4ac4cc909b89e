import CPosix
import Raster

/// A basic animation driven by a damped spring (CASpringAnimation): the
/// value moves from the start to the end value like a mass on a spring
/// released at the start, possibly overshooting and oscillating.
///
/// The motion is the closed-form solution of
///
///     m·y″ + c·y′ + k·y = 0,   y(0) = 1,   y′(0) = −initialVelocity
///
/// where `y` is the remaining part of the way (1 at the start value, 0 at
/// the end value), so the interpolation fraction is `1 − y(t)` with `t` the
/// animation's local time in seconds. With ω₀ = √(k/m) and
/// ζ = c / (2√(k·m)):
///
/// - ζ < 1 (under-damped): `y = e^(−ζω₀t)·(cos ωd·t + B·sin ωd·t)`,
///   ωd = ω₀√(1−ζ²), B = (y′(0) + ζω₀)/ωd — overshoots and rings;
/// - ζ = 1 (critically damped, within 1e-9): `y = e^(−ω₀t)·(1 + (y′(0) + ω₀)·t)`;
/// - ζ > 1 (over-damped): `y = C₁e^(r₁t) + C₂e^(r₂t)`, r = −ω₀(ζ ∓ √(ζ²−1)).
///
/// Endpoints, `isAdditive`, `isCumulative`, value functions and timing are
/// those of `BasicAnimation` (the fields forward to `basic`); the
/// `timingFunction` is ignored (the spring is the pacing). A `duration`
/// that is not positive (the default) means `settlingDuration`; a shorter
/// one cuts the motion off, as in CA.
///
/// Bad input is clamped, never trapped on: a mass or stiffness that is not
/// positive and finite takes the default (1, 100); a negative or NaN
/// damping is 0 (an undamped spring never settles: `settlingDuration` is
/// then `maximumSettlingDuration`); a non-finite initial velocity is 0.
public struct SpringAnimation: MediaTimed, Sendable {
    /// Key, values and timing, as for a basic animation.
    public var basic: BasicAnimation
    /// kg-like units; default 1.
    public var mass: Double = 1
    /// Spring constant k; default 100.
    public var stiffness: Double = 100
    /// Damping coefficient c; default 10.
    public var damping: Double = 10
    /// Speed at the start, in whole distances (start to end) per second,
    /// positive towards the end value; default 0.
    public var initialVelocity: Double = 0

    /// `settlingDuration` never exceeds this many seconds.
    public static let maximumSettlingDuration = 60.0
    /// The spring counts as settled once it stays within this fraction of
    /// the distance from the end value.
    public static let settlingTolerance = 0.001

    public init(key: AnimatableKey, from: AnimatableValue? = nil, to: AnimatableValue? = nil, by: AnimatableValue? = nil) {
        basic = BasicAnimation(key: key, from: from, to: to, by: by, duration: 0)
    }

    // The BasicAnimation fields, forwarded.
    public var key: AnimatableKey { get { basic.key } set { basic.key = newValue } }
    public var fromValue: AnimatableValue? { get { basic.fromValue } set { basic.fromValue = newValue } }
    public var toValue: AnimatableValue? { get { basic.toValue } set { basic.toValue = newValue } }
    public var byValue: AnimatableValue? { get { basic.byValue } set { basic.byValue = newValue } }
    public var isAdditive: Bool { get { basic.isAdditive } set { basic.isAdditive = newValue } }
    public var isCumulative: Bool { get { basic.isCumulative } set { basic.isCumulative = newValue } }
    public var valueFunction: ValueFunction? { get { basic.valueFunction } set { basic.valueFunction = newValue } }
    public var timing: MediaTiming { get { basic.timing } set { basic.timing = newValue } }
    public var isRemovedOnCompletion: Bool { get { basic.isRemovedOnCompletion } set { basic.isRemovedOnCompletion = newValue } }
    public var delegate: (any AnimationDelegate)? { get { basic.delegate } set { basic.delegate = newValue } }

    /// The spring's parameters after the documented clamps.
    struct Parameters {
        var omega0: Double      // √(k/m), rad/s
        var zeta: Double        // damping ratio
        var v0: Double          // y′(0) = −initialVelocity
    }

    var parameters: Parameters {
        let m = mass.isFinite && mass > 0 ? mass : 1
        let k = stiffness.isFinite && stiffness > 0 ? stiffness : 100
        let c = damping.isFinite && damping > 0 ? damping : 0
        let v = initialVelocity.isFinite ? initialVelocity : 0
        return Parameters(omega0: (k / m).squareRoot(), zeta: c / (2 * (k * m).squareRoot()), v0: -v)
    }

    /// The remaining part of the way at local time `t` seconds: 1 at the
    /// start value, 0 at the end value (negative past it: overshoot).
    public func displacement(at t: Double) -> Double {
        let p = parameters
        let w0 = p.omega0, z = p.zeta
        if Swift.abs(z - 1) < 1e-9 {
            return fbr_exp(-w0 * t) * (1 + (p.v0 + w0) * t)
        }
        if z < 1 {
            let wd = w0 * (1 - z * z).squareRoot()
            let b = (p.v0 + z * w0) / wd
            let sc = FloatMath.sinCos(wd * t)
            return fbr_exp(-z * w0 * t) * (sc.cos + b * sc.sin)
        }
        let s = (z * z - 1).squareRoot()
        let r1 = -w0 * (z - s), r2 = -w0 * (z + s)
        let c2 = (p.v0 - r1) / (r2 - r1), c1 = 1 - c2
        return c1 * fbr_exp(r1 * t) + c2 * fbr_exp(r2 * t)
    }

    /// The interpolation fraction at local time `t`: `1 − displacement`.
    public func fraction(at t: Double) -> Double { 1 - displacement(at: t) }

    /// Seconds until the spring stays within `settlingTolerance` of the end
    /// value for good (CASpringAnimation's `settlingDuration`), from an
    /// upper bound of |y(t)| (the decay envelope), so at that time and
    /// after the motion is settled; at most `maximumSettlingDuration`.
    public var settlingDuration: Double {
        let p = parameters
        let w0 = p.omega0, z = p.zeta, eps = SpringAnimation.settlingTolerance
        let cap = SpringAnimation.maximumSettlingDuration
        // The envelope: decreasing from `start` on.
        let envelope: (Double) -> Double
        var start = 0.0
        if Swift.abs(z - 1) < 1e-9 {
            let a = 1.0, b = Swift.abs(p.v0 + w0)
            envelope = { t in (a + b * t) * fbr_exp(-w0 * t) }
            if b > 0 { start = Swift.max(0, 1 / w0 - a / b) }
        } else if z < 1 {
            guard z > 0 else { return cap }
            let wd = w0 * (1 - z * z).squareRoot()
            let b = (p.v0 + z * w0) / wd
            let amplitude = (1 + b * b).squareRoot()
            let t = fbr_log(amplitude / eps) / (z * w0)
            return Swift.min(cap, Swift.max(0, t))
        } else {
            let s = (z * z - 1).squareRoot()
            let r1 = -w0 * (z - s), r2 = -w0 * (z + s)
            let c2 = (p.v0 - r1) / (r2 - r1), c1 = 1 - c2
            envelope = { t in Swift.abs(c1) * fbr_exp(r1 * t) + Swift.abs(c2) * fbr_exp(r2 * t) }
        }
        if envelope(start) <= eps { return start > 0 && envelope(0) > eps ? start : 0 }
        var lo = start, hi = Swift.max(start, 1 / w0)
        while envelope(hi) > eps {
            lo = hi
            hi *= 2
            if hi >= cap { return envelope(cap) > eps ? cap : bisect(envelope, lo, cap, eps) }
        }
        return bisect(envelope, lo, hi, eps)
    }

    private func bisect(_ f: (Double) -> Double, _ lo: Double, _ hi: Double, _ eps: Double) -> Double {
        var lo = lo, hi = hi
        for _ in 0..<60 {
            let mid = (lo + hi) / 2
            if f(mid) > eps { lo = mid } else { hi = mid }
        }
        return hi
    }

    /// The animated value at `time` (the parent's time), or `nil` where the
    /// animation has no effect (see `BasicAnimation.value(at:base:)`).
    public func value(at time: MediaTime, base: AnimatableValue? = nil) -> AnimatableValue? {
        basic.value(at: time, base: base, default: settlingDuration) { state in fraction(at: state.localTime) }
    }

    public func hasFinished(at time: MediaTime) -> Bool {
        timing.hasFinished(atParentTime: time, default: settlingDuration)
    }
}
