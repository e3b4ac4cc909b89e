/// What a finger's release does on one axis: the one place the scroll
/// physics is decided, shared by `ScrollView` and by scenes that draw
/// from a scroll position of their own (the coverflow demo turns covers
/// in 3-D from it, with no scroll view layer). Offsets in points,
/// velocities in points of offset per second, times media time.
extension ScrollAxisMotion {
    /// UIKit's normal deceleration rate as a time constant τ, seconds:
    /// 0.998 of the velocity kept per millisecond, τ = −0.001 / ln 0.998.
    public static let normalDecelerationTimeConstant = 0.4995
    /// The spring of a bounce, a spring-back or a landing that the
    /// deceleration cannot fit: ω, radians per second (critically damped,
    /// about 4.7/ω seconds to settle).
    public static let defaultSpringFrequency = 12.0
    /// The farthest past an end a fling's bounce goes by default, as a
    /// fraction of the view's size along the axis.
    public static let defaultMaximumOvershootFraction = 0.15

    /// Where a free deceleration from `offset` at `velocity` rests:
    /// `offset + velocity·τ` (a non-finite velocity counts as 0).
    public static func projectedRest(from offset: Double, velocity: Double, timeConstant tau: Double) -> Double {
        offset + (velocity.isFinite ? velocity : 0) * tau
    }

    /// The multiple of `interval` nearest to `rest`, within
    /// `minimum…maximum` (an end that is not a multiple is a rest too: a
    /// list whose last row is shorter still ends on its bottom). A
    /// non-positive interval snaps nothing: `rest` clamped.
    public static func snapped(_ rest: Double, interval: Double, minimum: Double, maximum: Double) -> Double {
        let lo = Swift.min(minimum, maximum), hi = Swift.max(minimum, maximum)
        var target = interval > 0 ? (rest / interval).rounded() * interval : rest
        if !target.isFinite { target = lo }
        return Swift.min(Swift.max(target, lo), hi)
    }

    /// The motion after a release from `offset` at `velocity`:
    ///
    /// - no `target` (free scrolling): `deceleration`, bouncing at an end
    ///   by at most `maximumOvershoot`;
    /// - a `target` (paging, snapping): `landing` on it exactly — except
    ///   when the target is the end the free rest would pass, from inside
    ///   the range: then the fling decelerates into that end and bounces
    ///   there like a free one (by at most `maximumOvershoot`), instead of
    ///   a spring thrown at the end with the release's whole velocity.
    ///
    /// `maximumOvershoot` 0 stops at the ends (no bounce). The motion
    /// begins at media time `time` and ends exactly on its target.
    public static func release(from offset: Double, velocity: Double, target: Double?, minimum: Double, maximum: Double,
                               timeConstant tau: Double, springFrequency w: Double, maximumOvershoot: Double,
                               at time: Double) -> ScrollAxisMotion {
        let lo = Swift.min(minimum, maximum), hi = Swift.max(minimum, maximum)
        guard let target else {
            return .deceleration(from: offset, velocity: velocity, timeConstant: tau, minimum: lo, maximum: hi, at: time,
                                 springFrequency: w, maximumOvershoot: maximumOvershoot)
        }
        let rest = projectedRest(from: offset, velocity: velocity, timeConstant: tau)
        let inside = offset >= lo && offset <= hi
        if inside && ((target == hi && rest > hi) || (target == lo && rest < lo)) {
            return .deceleration(from: offset, velocity: velocity, timeConstant: tau, minimum: lo, maximum: hi, at: time,
                                 springFrequency: w, maximumOvershoot: maximumOvershoot)
        }
        return .landing(from: offset, velocity: velocity, on: target, timeConstant: tau, at: time, springFrequency: w)
    }
}
