/// The motion of a scroll offset along one axis after the finger has let go,
/// in closed form: a value of time, so the app thread (cell reuse, the
/// indicators) and the render thread (the keyframes `ScrollView` hands it)
/// evaluate the same curve and never drift apart.
///
/// Two phases, either of which may be empty:
///
/// 1. **Deceleration** (exponential, as UIKit's): the velocity decays as
///    `v(t) = v₀·e^(−t/τ)`, so `x(t) = x₀ + v₀·τ·(1 − e^(−t/τ))` and the
///    offset would come to rest at `x₀ + v₀·τ`. UIKit's "normal" rate
///    (0.998 of the velocity kept per millisecond) is τ ≈ 0.4995 s.
/// 2. **Spring** (critically damped, angular frequency ω): from `x₁` at
///    velocity `v₁` to `target`, `x(s) = target + (c₁ + c₂·s)·e^(−ω·s)` with
///    `c₁ = x₁ − target`, `c₂ = v₁ + ω·c₁`. It settles without oscillating
///    (at most one overshoot, when it starts moving away from the target):
///    spring-back from a rubber band, the bounce at an edge, paging and
///    snapping.
///
/// Units: points (of content offset) and seconds of media time. Invariant:
/// `value(at:)` is `start` before `beginTime` and exactly `target` from
/// `endTime` on, and is continuous in between.
public struct ScrollAxisMotion: Equatable, Sendable {
    /// Media time the motion begins at, seconds.
    public var beginTime: Double
    /// Offset at `beginTime`, points.
    public var start: Double
    /// Velocity at `beginTime`, points per second.
    public var velocity: Double
    /// The deceleration's time constant τ, seconds.
    public var timeConstant: Double
    /// Seconds of deceleration before the spring takes over (0: none).
    public var decelerationDuration: Double
    /// Where the spring phase starts and how fast, points and points per
    /// second (the deceleration's end).
    public var springStart: Double
    public var springVelocity: Double
    /// Where the motion rests, points.
    public var target: Double
    /// The spring's angular frequency ω, radians per second.
    public var springFrequency: Double
    /// Seconds the spring phase lasts before the value is `target`.
    public var springDuration: Double

    /// Seconds from `beginTime` to rest.
    public var duration: Double { decelerationDuration + springDuration }
    /// Media time from which the value is `target`.
    public var endTime: Double { beginTime + duration }

    /// No motion: `value` is `offset` at all times.
    public static func resting(at offset: Double, time: Double = 0) -> ScrollAxisMotion {
        ScrollAxisMotion(beginTime: time, start: offset, velocity: 0, timeConstant: 1, decelerationDuration: 0,
                         springStart: offset, springVelocity: 0, target: offset, springFrequency: 1, springDuration: 0)
    }

    /// Offset at media time `time`, points.
    public func value(at time: Double) -> Double {
        let t = time - beginTime
        guard t > 0 else { return start }
        guard time < endTime else { return target }   // exactly, whatever the rounding of the phases
        if t < decelerationDuration {
            return start + velocity * timeConstant * (1 - ScrollMath.exp(-t / timeConstant))
        }
        let s = t - decelerationDuration
        guard s < springDuration else { return target }
        let c1 = springStart - target, c2 = springVelocity + springFrequency * c1
        return target + (c1 + c2 * s) * ScrollMath.exp(-springFrequency * s)
    }

    /// Velocity at media time `time`, points per second (0 outside the
    /// motion).
    public func velocity(at time: Double) -> Double {
        let t = time - beginTime
        guard t >= 0, t < duration else { return 0 }
        if t < decelerationDuration { return velocity * ScrollMath.exp(-t / timeConstant) }
        let s = t - decelerationDuration
        let w = springFrequency, c1 = springStart - target, c2 = springVelocity + w * c1
        return (c2 - w * (c1 + c2 * s)) * ScrollMath.exp(-w * s)
    }

    /// Within this distance of its rest (points) the motion counts as
    /// settled and ends on the target: a quarter of a point is below what a
    /// 1× panel can show.
    public static let restingDistance = 0.25

    // MARK: Making motions

    /// The spring phase alone: from `offset` moving at `velocity` to
    /// `target`, beginning at `time`.
    public static func spring(from offset: Double, velocity: Double, to target: Double, at time: Double,
                              frequency: Double) -> ScrollAxisMotion {
        var m = ScrollAxisMotion.resting(at: offset, time: time)
        m.velocity = velocity.isFinite ? velocity : 0
        m.springStart = offset
        m.springVelocity = m.velocity
        m.target = target
        m.springFrequency = frequency > 0 && frequency.isFinite ? frequency : 10
        m.springDuration = springSettlingTime(c1: offset - target, v: m.velocity, w: m.springFrequency)
        return m
    }

    /// A free deceleration from `offset` at `velocity`, with time constant
    /// `timeConstant`, that rests at `offset + velocity·τ` rounded to a
    /// whole point (a non-zero velocity adjusted by at most ½ pt / τ) — unless that is
    /// outside `minimum…maximum`: then the content decelerates until it
    /// reaches the edge and springs back to it from there, its overshoot
    /// past the edge at most `maximumOvershoot` points (the velocity at the
    /// edge is limited so: a critically damped spring leaving the rest at
    /// velocity `v` goes out at most `v / (ω·e)`). Starting outside the
    /// range (let go while rubber-banded), it springs to the nearest edge;
    /// a velocity pointing further out is limited the same way, so the
    /// content goes on past where it was let go by at most about
    /// `maximumOvershoot` (a flick that ends past the end would otherwise
    /// throw it out by `v / (ω·e)`: 150 points at 5,000 points/s).
    public static func deceleration(from offset: Double, velocity v0: Double, timeConstant tau: Double,
                                    minimum: Double, maximum: Double, at time: Double,
                                    springFrequency w: Double, maximumOvershoot: Double) -> ScrollAxisMotion {
        var v = v0.isFinite ? v0 : 0
        let lo = Swift.min(minimum, maximum), hi = Swift.max(minimum, maximum)
        let limit = Swift.max(0, maximumOvershoot) * w * 2.718_281_828_459_045
        if offset < lo || offset > hi {
            if (offset < lo && v < 0) || (offset > hi && v > 0) { v = Swift.min(Swift.max(v, -limit), limit) }
            return spring(from: offset, velocity: v, to: offset < lo ? lo : hi, at: time, frequency: w)
        }
        let rest = offset + v * tau
        if rest >= lo && rest <= hi {
            // The rest on a whole point (a whole pixel at integer scales),
            // as UIKit's scroll views come to rest on pixels: the content is
            // not left between pixels, and its text and shapes are drawn
            // there from the masks the same rest made before (at a new
            // fraction each time, every glyph's mask would be made anew).
            // The release velocity changes by at most ½ pt / τ (1 pt/s).
            // A release without velocity (a caught fling let go) stays.
            let whole = snapped(rest, interval: 1, minimum: lo, maximum: hi)
            if v != 0 && whole != rest { v = (whole - offset) / tau }
            return decelerating(from: offset, velocity: v, timeConstant: tau, at: time, springFrequency: w)
        }
        // Reaches the edge at tc: x0 + v·τ·(1 − e^(−tc/τ)) = edge.
        let edge = rest > hi ? hi : lo
        let remaining = 1 - (edge - offset) / (v * tau)   // e^(−tc/τ), in (0, 1]
        let tc = remaining > 0 ? -tau * ScrollMath.log(remaining) : 0
        let vc = Swift.min(Swift.max(v * remaining, -limit), limit)
        var m = spring(from: edge, velocity: vc, to: edge, at: time, frequency: w)
        m.start = offset
        m.velocity = v
        m.timeConstant = tau
        m.decelerationDuration = tc
        return m
    }

    /// A deceleration that comes to rest on `target`: the time constant is
    /// chosen so that `offset + velocity·τ = target` when the velocity
    /// points at it and τ stays within ½…2× `timeConstant`; otherwise
    /// (a slow release, a target behind) a spring takes it there. Paging
    /// and snapping use it.
    public static func landing(from offset: Double, velocity v0: Double, on target: Double, timeConstant tau: Double,
                               at time: Double, springFrequency w: Double) -> ScrollAxisMotion {
        let v = v0.isFinite ? v0 : 0
        let distance = target - offset
        if v != 0, distance != 0, (distance > 0) == (v > 0) {
            let fitted = distance / v
            if fitted >= tau / 2 && fitted <= tau * 2 {
                var m = decelerating(from: offset, velocity: v, timeConstant: fitted, at: time, springFrequency: w)
                m.target = target   // the spring phase ends exactly on it
                m.springDuration = springSettlingTime(c1: m.springStart - target, v: m.springVelocity, w: w)
                return m
            }
        }
        return spring(from: offset, velocity: v, to: target, at: time, frequency: w)
    }

    /// Deceleration to `offset + velocity·τ`; the last quarter point is a
    /// spring with the deceleration's velocity there, so the end is smooth
    /// and exactly on the rest.
    private static func decelerating(from offset: Double, velocity v: Double, timeConstant tau: Double, at time: Double,
                                     springFrequency w: Double) -> ScrollAxisMotion {
        let rest = offset + v * tau
        // Remaining distance |v|·τ·e^(−t/τ) falls to the resting distance at:
        let ratio = Swift.abs(v) * tau / restingDistance
        let td = ratio > 1 ? tau * ScrollMath.log(ratio) : 0
        var m = ScrollAxisMotion.resting(at: rest, time: time)
        m.start = offset
        m.velocity = v
        m.timeConstant = tau
        m.decelerationDuration = td
        let e = ScrollMath.exp(-td / tau)
        m.springStart = offset + v * tau * (1 - e)
        m.springVelocity = v * e
        m.springFrequency = w
        m.springDuration = springSettlingTime(c1: m.springStart - rest, v: m.springVelocity, w: w)
        return m
    }

    /// Seconds until `|c₁ + c₂·s|·e^(−ω·s)` stays below a tenth of the
    /// resting distance (stepping by 1/240 s; at most 10 s).
    private static func springSettlingTime(c1: Double, v: Double, w: Double) -> Double {
        let c2 = v + w * c1
        let tolerance = restingDistance / 10
        if Swift.abs(c1) < tolerance && Swift.abs(v) < tolerance { return 0 }
        // The envelope |c1| + |c2|·s decays once s > 1/ω; step until it is small.
        var s = 0.0
        while s < 10 {
            s += 1.0 / 240
            if (Swift.abs(c1) + Swift.abs(c2) * s) * ScrollMath.exp(-w * s) < tolerance { return s }
        }
        return 10
    }
}

/// The offset a finger dragging the content to `raw` shows past the ends
/// of `minimum…maximum`: the excess `x` is shown as
/// `(1 − 1 / (x·c/d + 1))·d` (UIKit's rubber band, c = 0.55, `d` the
/// view's size on the axis), so the content follows the finger less and
/// less and never goes more than `d` past the edge. Inside the range it is
/// `raw`. Points.
public func rubberBandedOffset(_ raw: Double, minimum: Double, maximum: Double, dimension: Double) -> Double {
    let d = Swift.max(dimension, 1)
    let c = 0.55
    func band(_ x: Double) -> Double { (1 - 1 / (x * c / d + 1)) * d }
    let hi = Swift.max(minimum, maximum)
    if raw < minimum { return minimum - band(minimum - raw) }
    if raw > hi { return hi + band(raw - hi) }
    return raw
}
