import Raster

/// How a keyframe animation moves between its values (CAKeyframeAnimation's
/// `calculationMode`).
public enum CalculationMode: Equatable, Sendable {
    /// Straight between neighbouring values, at the key times.
    case linear
    /// Jumps: each value holds until the next key time.
    case discrete
    /// Linear, with key times replaced so the speed (distance per second,
    /// components as a vector) is constant; `keyTimes` and
    /// `timingFunctions` are ignored.
    case paced
    /// A Catmull-Rom spline through the values (Kochanek–Bartels with the
    /// optional tension/continuity/bias arrays), at the key times; smooth
    /// in time at every interior key (continuity 0) however unevenly the
    /// key times are spaced, as Core Animation's.
    case cubic
    /// Cubic, with paced key times.
    case cubicPaced
}

/// Animates one property through a list of values (CAKeyframeAnimation).
///
/// `keyTimes` (0…1 fractions of one pass) say when each value is reached;
/// when they are missing or malformed (wrong count, not increasing, outside
/// 0…1, NaN) the values are spaced evenly — the documented clamp, where CA
/// would ignore the animation. In `discrete` mode `keyTimes` may also have
/// one more entry than `values` (CA's form: value i holds from key time i
/// to i+1). `timingFunctions` pace each segment (count `values.count − 1`;
/// missing entries are linear) and the animation's overall
/// `timingFunction` applies first to the whole pass.
///
/// Values of different kinds cannot be interpolated: such a segment jumps at
/// its midpoint (CA: "something weird"; a clean jump is our documented
/// behaviour). Fewer than one value gives no effect; one value holds.
public struct KeyframeAnimation: MediaTimed, Sendable {
    public var key: AnimatableKey
    public var values: [AnimatableValue]
    public var keyTimes: [Double]?
    public var timingFunctions: [TimingFunction]?
    public var timingFunction: TimingFunction = .linear
    public var calculationMode: CalculationMode = .linear
    /// Kochanek–Bartels parameters per value for the cubic modes (missing
    /// entries are 0: Catmull-Rom).
    public var tensionValues: [Double]?
    public var continuityValues: [Double]?
    public var biasValues: [Double]?
    /// Turns the interpolated scalar or point into a transform.
    public var valueFunction: ValueFunction?
    /// A path to move a point property along (CAKeyframeAnimation's
    /// `path`): when set, `values` and `keyTimes` are ignored and the point
    /// moves along the path at constant speed (by arc length, after the
    /// timing function) — CA's paced mode, which is what a path is used
    /// with. Curves are flattened to 0.01 points. An empty or non-finite
    /// path has no effect.
    public var path: Path? { didSet { pathSampler = path.flatMap(PathSampler.init) } }
    /// With a `path`, also turns the layer to the path's direction
    /// (`transform.rotation.z`): `.auto` along it, `.autoReverse` against
    /// it (CA's `rotationMode`).
    public var rotationMode: RotationMode?
    var pathSampler: PathSampler?
    public var timing = MediaTiming()
    public var isRemovedOnCompletion = true
    /// Told on the app thread when the animation starts and stops; held
    /// strongly (CAAnimation's `delegate`).
    public var delegate: (any AnimationDelegate)? {
        get { delegateReference?.object }
        set { delegateReference = newValue.map(AnimationDelegateReference.init) }
    }
    var delegateReference: AnimationDelegateReference?

    public init(key: AnimatableKey, values: [AnimatableValue], duration: Double = 0.25) {
        self.key = key
        self.values = values
        timing.duration = duration
    }

    public func hasFinished(at time: MediaTime) -> Bool {
        timing.hasFinished(atParentTime: time, default: BasicAnimation.defaultDuration)
    }

    /// The value at `time`, or `nil` where the animation has no effect.
    public func value(at time: MediaTime) -> AnimatableValue? {
        guard let state = timing.state(atParentTime: time, default: BasicAnimation.defaultDuration),
              let v = value(atProgress: timingFunction.value(at: state.progress)) else { return nil }
        if let f = valueFunction, let t = f.transform(for: v) { return .transform(t) }
        return v
    }

    /// The point along `path` and the path's direction there (radians from
    /// +x towards +y) at `time`; `nil` without a path or where the
    /// animation has no effect.
    func pathSample(at time: MediaTime) -> (point: Point, angle: Double)? {
        guard let sampler = pathSampler,
              let state = timing.state(atParentTime: time, default: BasicAnimation.defaultDuration) else { return nil }
        return sampler.sample(atFraction: timingFunction.value(at: state.progress))
    }

    /// The value at progress `p` (0…1) through one pass.
    public func value(atProgress p: Double) -> AnimatableValue? {
        let n = values.count
        guard n > 0 else { return nil }
        if n == 1 { return values[0] }
        let p = KeyframeAnimation.clamped(progress: p)
        if calculationMode == .discrete { return discreteValue(p) }
        let (i, local) = segment(atProgress: p)
        let a = values[i], b = values[i + 1]
        guard a.isSameKind(as: b) else { return local < 0.5 ? a : b }
        switch calculationMode {
        case .cubic, .cubicPaced:
            return cubicValue(segment: i, local) ?? AnimatableValue.interpolate(a, b, local)
        default:
            return AnimatableValue.interpolate(a, b, local)
        }
    }

    /// The segment (values `index` → `index + 1`) holding progress `p`
    /// (0…1, not NaN) and the fraction through it, its timing function
    /// applied: the first half of `value(atProgress:)` for the continuous
    /// modes, with two values or more.
    func segment(atProgress p: Double) -> (index: Int, local: Double) {
        let n = values.count
        // The segment holding p: times[i] <= p <= times[i+1], with the key
        // times found one at a time (no arrays).
        var walk = KeyTimeWalk(self)
        var i = 0
        var t0 = walk.time(0), t1 = walk.time(1)
        while i < n - 2 && p >= t1 { i += 1; t0 = t1; t1 = walk.time(i + 1) }
        let span = t1 - t0
        var local = span > 0 ? (p - t0) / span : 1
        local = Swift.min(1, Swift.max(0, local))
        if calculationMode == .linear || calculationMode == .cubic,
           let functions = timingFunctions, i < functions.count {
            local = functions[i].value(at: local)
        }
        return (i, local)
    }

    /// Key times as used: paced ones for the paced modes, the given ones when
    /// well-formed, evenly spaced otherwise. Always `values.count` entries
    /// from 0 to 1 (`KeyTimeWalk`'s, gathered).
    func effectiveKeyTimes() -> [Double] {
        var walk = KeyTimeWalk(self)
        return (0..<values.count).map { walk.time($0) }
    }

    /// A pass's progress as the evaluation uses it: NaN is 0, the rest is
    /// clamped to 0…1.
    static func clamped(progress p: Double) -> Double { p.isNaN ? 0 : Swift.min(1, Swift.max(0, p)) }

    static func isWellFormed(_ times: [Double]) -> Bool {
        var previous = -Double.infinity
        var k = 0
        while k < times.count {
            let t = times[k]
            guard t >= 0, t <= 1, t >= previous else { return false }   // NaN fails the comparisons
            previous = t
            k += 1
        }
        return true
    }

    /// Value i holds from edge i to edge i + 1 of n + 1 edges: the given
    /// key times (n + 1 of them, or n and a last edge at 1) when they are
    /// well-formed, evenly spaced otherwise.
    private func discreteValue(_ p: Double) -> AnimatableValue {
        let n = values.count
        var i = 0
        if let given = keyTimes, given.count == n + 1 || given.count == n, KeyframeAnimation.isWellFormed(given) {
            while i < n - 1 && p >= given[i + 1] { i += 1 }     // edge n (1 when not given) is never reached
        } else {
            while i < n - 1 && p >= Double(i + 1) / Double(n) { i += 1 }
        }
        return values[i]
    }

    /// Kochanek–Bartels (TCB) spline on segment `i` (values i → i+1) at
    /// local parameter `s`; end tangents use the segment itself (clamped).
    ///
    /// Smooth in time, not only in each segment's parameter: a key between
    /// intervals of unequal length Δ₋ (before) and Δ₊ (after) scales its
    /// outgoing tangent by 2Δ₊ / (Δ₋ + Δ₊) and its incoming one by
    /// 2Δ₋ / (Δ₋ + Δ₊) (Kochanek and Bartels' adjustment for unequal
    /// spacing), so with continuity 0 the velocity, value per unit of
    /// progress, is the same on both sides of every interior key whatever
    /// the key times. Evenly spaced keys scale by 1 (plain Catmull-Rom).
    private func cubicValue(segment i: Int, _ s: Double) -> AnimatableValue? {
        let n = values.count
        let p0 = values[Swift.max(0, i - 1)], p1 = values[i], p2 = values[i + 1], p3 = values[Swift.min(n - 1, i + 2)]
        // The key times around the segment: t(i−1) … t(i+2), where there are keys.
        var walk = KeyTimeWalk(self)
        let before = i > 0 ? walk.time(i - 1) : nil
        let ti = walk.time(i), tj = walk.time(i + 1)
        let after = i + 2 < n ? walk.time(i + 2) : nil
        let span = tj - ti
        /// 2Δ / (Δ + other), 1 at an end key or where the intervals vanish.
        func spacing(_ other: Double?) -> Double {
            guard let other, other.isFinite, span.isFinite, span + other > 0 else { return 1 }
            return 2 * span / (span + other)
        }
        let f1 = spacing(before.map { ti - $0 }), f2 = spacing(after.map { $0 - tj })
        func param(_ array: [Double]?, _ k: Int) -> Double {
            guard let array, k < array.count, array[k].isFinite else { return 0 }
            return array[k]
        }
        // Outgoing tangent at p1 and incoming tangent at p2 as weighted sums.
        let t1 = param(tensionValues, i), c1 = param(continuityValues, i), b1 = param(biasValues, i)
        let t2 = param(tensionValues, i + 1), c2 = param(continuityValues, i + 1), b2 = param(biasValues, i + 1)
        let a1 = (1 - t1) * (1 + b1) * (1 + c1) / 2, d1 = (1 - t1) * (1 - b1) * (1 - c1) / 2
        let a2 = (1 - t2) * (1 + b2) * (1 - c2) / 2, d2 = (1 - t2) * (1 - b2) * (1 + c2) / 2
        // m1 = f1·(a1·(p1 − p0) + d1·(p2 − p1));  m2 = f2·(a2·(p2 − p1) + d2·(p3 − p2))
        // Hermite: h00·p1 + h10·m1 + h01·p2 + h11·m2 (f1, f2 folded into h10, h11)
        let s2 = s * s, s3 = s2 * s
        let h00 = 2 * s3 - 3 * s2 + 1, h10 = (s3 - 2 * s2 + s) * f1, h01 = -2 * s3 + 3 * s2, h11 = (s3 - s2) * f2
        let w0 = -h10 * a1
        let w1 = h00 + h10 * (a1 - d1) - h11 * a2
        let w2 = h01 + h10 * d1 + h11 * (a2 - d2)
        let w3 = h11 * d2
        return AnimatableValue.weightedSum(p0, w0, p1, w1, p2, w2, p3, w3)
    }
}

/// The key times of a keyframe animation (`effectiveKeyTimes()`), one at a
/// time in increasing order, without building an array: the render thread
/// evaluates keyframes every frame. Paced times sum the segment lengths
/// once for the total, then again up to the key asked for (no array to
/// keep them in); `AnimatableArithmeticTests` compare them bit for bit with
/// the array form this replaced.
struct KeyTimeWalk {
    private enum Source { case even, given([Double]), paced(total: Double) }
    private let source: Source
    private let values: [AnimatableValue]
    /// Paced: the summed length up to the last key asked for.
    private var length = 0.0, lengthIndex = 0

    init(_ a: KeyframeAnimation) {
        values = a.values
        let n = a.values.count
        if a.calculationMode == .paced || a.calculationMode == .cubicPaced {
            var total = 0.0, k = 1, finite = true
            while k < n {
                guard let d = AnimatableValue.distanceBetween(a.values[k - 1], a.values[k]), d.isFinite else { finite = false; break }
                total += d
                k += 1
            }
            source = finite && total > 0 ? .paced(total: total) : .even
        } else if let given = a.keyTimes, given.count == n, KeyframeAnimation.isWellFormed(given) {
            source = .given(given)
        } else {
            source = .even
        }
    }

    /// Key time `k`; `k` never decreases from one call to the next.
    mutating func time(_ k: Int) -> Double {
        switch source {
        case .even: return Double(k) / Double(values.count - 1)
        case let .given(times): return times[k]
        case let .paced(total):
            while lengthIndex < k {
                lengthIndex += 1
                length += AnimatableValue.distanceBetween(values[lengthIndex - 1], values[lengthIndex]) ?? 0
            }
            return length / total
        }
    }
}

/// How a keyframe animation along a path turns the layer.
public enum RotationMode: Sendable {
    /// The layer's rotation follows the path's direction.
    case auto
    /// The same, turned half a turn (facing backwards).
    case autoReverse
}

/// A path flattened once, for sampling by arc length.
final class PathSampler: Sendable {
    let points: [Point]
    /// `lengths[i]`: arc length from the start to `points[i]`.
    let lengths: [Double]

    init?(_ path: Path) {
        var pts: [Point] = []
        for piece in path.flattened(tolerance: 0.01) {
            for p in piece.points {
                let q = Point(x: p.x, y: p.y)
                guard q.isFinite else { return nil }
                if let last = pts.last, last == q { continue }
                pts.append(q)
            }
            if piece.closed, let first = piece.points.first { pts.append(Point(x: first.x, y: first.y)) }
        }
        guard !pts.isEmpty else { return nil }
        var lengths = [0.0]
        for i in 1..<max(1, pts.count) where pts.count > 1 {
            let dx = pts[i].x - pts[i - 1].x, dy = pts[i].y - pts[i - 1].y
            lengths.append(lengths[i - 1] + (dx * dx + dy * dy).squareRoot())
        }
        points = pts
        self.lengths = lengths
    }

    /// The point at fraction `f` (0…1, clamped) of the length, and the
    /// direction of the segment it lies on.
    func sample(atFraction f: Double) -> (point: Point, angle: Double) {
        let total = lengths[lengths.count - 1]
        guard points.count > 1, total > 0 else { return (points[0], 0) }
        let target = (f.isNaN ? 0 : Swift.min(1, Swift.max(0, f))) * total
        var lo = 0, hi = lengths.count - 1          // the segment [lo, lo + 1] holding `target`
        while hi - lo > 1 {
            let mid = (lo + hi) / 2
            if lengths[mid] <= target { lo = mid } else { hi = mid }
        }
        let a = points[lo], b = points[lo + 1]
        let span = lengths[lo + 1] - lengths[lo]
        let t = span > 0 ? (target - lengths[lo]) / span : 0
        let angle = FloatMath.atan2Turns(b.y - a.y, b.x - a.x) * FloatMath.twoPi
        return (Point(x: a.x + (b.x - a.x) * t, y: a.y + (b.y - a.y) * t), angle)
    }
}
