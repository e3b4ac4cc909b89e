@testable import FBRuntime
import Raster
import XCTest

/// The render thread's arithmetic on animatable values (fixed-arity
/// weighted sums, `distanceBetween`, `KeyTimeWalk`) against the reference
/// forms with arrays it replaces: equal bit for bit, on random values of
/// every kind, including mismatched kinds and non-finite components. The
/// array `weightedSum` is still the runtime's form for lists; the distance
/// and the key times with arrays are the earlier implementations, kept
/// here.
final class AnimatableArithmeticTests: XCTestCase {
    /// The earlier distance: Euclidean over `components`.
    static func referenceDistance(_ a: AnimatableValue, _ b: AnimatableValue) -> Double? {
        guard a.isSameKind(as: b), !a.components.isEmpty else { return nil }
        var s = 0.0
        for (x, y) in zip(a.components, b.components) { s += (x - y) * (x - y) }
        return s.squareRoot()
    }

    /// The earlier `effectiveKeyTimes()`, with its arrays.
    static func referenceKeyTimes(_ a: KeyframeAnimation) -> [Double] {
        let n = a.values.count
        let even = (0..<n).map { Double($0) / Double(n - 1) }
        if a.calculationMode == .paced || a.calculationMode == .cubicPaced {
            var lengths: [Double] = [0]
            for k in 1..<n {
                guard let d = referenceDistance(a.values[k - 1], a.values[k]), d.isFinite else { return even }
                lengths.append(lengths[k - 1] + d)
            }
            let total = lengths[n - 1]
            return total > 0 ? lengths.map { $0 / total } : even
        }
        guard let given = a.keyTimes, given.count == n, KeyframeAnimation.isWellFormed(given) else { return even }
        return given
    }

    private var rng = SplitMix64(seed: 0xa11_0c8)

    private func number() -> Double {
        switch Int.random(in: 0..<40, using: &rng) {
        case 0: return .nan
        case 1: return .infinity
        case 2: return -0.0
        case 3: return 1e300
        default: return Double.random(in: -500...500, using: &rng)
        }
    }

    private func value(kind: Int, listCount: Int) -> AnimatableValue {
        switch kind {
        case 0: return .scalar(number())
        case 1: return .point(Point(x: number(), y: number()))
        case 2: return .rect(Rect(x: number(), y: number(), width: number(), height: number()))
        case 3: return .color(Color(red: number(), green: number(), blue: number(), alpha: number()))
        case 4: return .colors((0..<listCount).map { _ in Color(red: number(), green: number(), blue: number(), alpha: number()) })
        case 5: return .scalars((0..<listCount).map { _ in number() })
        default: return .transform(Transform3D(translationX: number(), y: 0))
        }
    }

    /// Mostly one kind, sometimes another or another list length.
    private func values(_ n: Int) -> [AnimatableValue] {
        let kind = Int.random(in: 0..<7, using: &rng), count = Int.random(in: 1...3, using: &rng)
        return (0..<n).map { _ in
            Int.random(in: 0..<10, using: &rng) == 0
                ? value(kind: Int.random(in: 0..<7, using: &rng), listCount: Int.random(in: 1...3, using: &rng))
                : value(kind: kind, listCount: count)
        }
    }

    /// Equal, NaN components included (`==` on Double says NaN ≠ NaN).
    private func same(_ a: AnimatableValue?, _ b: AnimatableValue?) -> Bool {
        guard let a, let b else { return a == nil && b == nil }
        guard a.isSameKind(as: b) else { return false }
        let x = a.components, y = b.components
        if x.isEmpty { return a == b }
        return x.count == y.count && zip(x, y).allSatisfy { $0.bitPattern == $1.bitPattern }
    }

    func testFixedAritySumsEqualTheArrayForm() {
        var nonNil = 0
        for i in 0..<8_000 {
            let v = values(4)
            let w = (0..<4).map { _ in number() }
            let pairs: [(AnimatableValue?, AnimatableValue?)] = [
                (AnimatableValue.weightedSum(v[0], w[0]), AnimatableValue.weightedSum([v[0]], [w[0]])),
                (AnimatableValue.weightedSum(v[0], w[0], v[1], w[1]), AnimatableValue.weightedSum(Array(v[0..<2]), Array(w[0..<2]))),
                (AnimatableValue.weightedSum(v[0], w[0], v[1], w[1], v[2], w[2]),
                 AnimatableValue.weightedSum(Array(v[0..<3]), Array(w[0..<3]))),
                (AnimatableValue.weightedSum(v[0], w[0], v[1], w[1], v[2], w[2], v[3], w[3]), AnimatableValue.weightedSum(v, w)),
            ]
            for (k, (got, want)) in pairs.enumerated() {
                XCTAssertTrue(same(got, want), "case \(i), \(k + 1) terms: \(String(describing: got)) ≠ \(String(describing: want))")
                if got != nil { nonNil += 1 }
            }
        }
        XCTAssertGreaterThan(nonNil, 10_000, "most sums are of one kind")
    }

    func testDistanceBetweenEqualsTheArrayForm() {
        var measured = 0
        for i in 0..<20_000 {
            let v = values(2)
            let got = AnimatableValue.distanceBetween(v[0], v[1]), want = AnimatableArithmeticTests.referenceDistance(v[0], v[1])
            XCTAssertEqual(got?.bitPattern, want?.bitPattern, "case \(i): \(v)")
            if got != nil { measured += 1 }
        }
        XCTAssertGreaterThan(measured, 10_000)
    }

    /// `KeyTimeWalk` gives the reference key times one at a time, in every
    /// calculation mode, with given key times good and bad.
    func testKeyTimeWalkEqualsEffectiveKeyTimes() {
        let modes: [CalculationMode] = [.linear, .discrete, .paced, .cubic, .cubicPaced]
        var paced = 0
        for i in 0..<5_000 {
            let n = Int.random(in: 2...6, using: &rng)
            var a = KeyframeAnimation(key: .position, values: values(n))
            a.calculationMode = modes[i % modes.count]
            switch Int.random(in: 0..<4, using: &rng) {
            case 0: a.keyTimes = nil
            case 1: a.keyTimes = (0..<n).map { Double($0) / Double(n - 1) }.map { $0 * $0 }    // well-formed
            case 2: a.keyTimes = (0..<n).map { _ in number() }                                   // mostly malformed
            default: a.keyTimes = [0, 1]
            }
            let want = AnimatableArithmeticTests.referenceKeyTimes(a)
            var walk = KeyTimeWalk(a)
            let got = (0..<n).map { walk.time($0) }
            XCTAssertEqual(got.map(\.bitPattern), want.map(\.bitPattern), "case \(i): \(a.calculationMode) \(a.values) \(String(describing: a.keyTimes))")
            XCTAssertEqual(a.effectiveKeyTimes().map(\.bitPattern), want.map(\.bitPattern), "case \(i): effectiveKeyTimes()")
            if a.calculationMode == .paced && want != (0..<n).map({ Double($0) / Double(n - 1) }) { paced += 1 }
        }
        XCTAssertGreaterThan(paced, 100, "paced times that are not the even ones were compared")
    }
}
