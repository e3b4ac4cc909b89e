@testable import FBRuntime
import Raster
import XCTest

/// `GradientLayer` interpolates a plain animation of `colors` or
/// `locations` into storage it keeps; the oracle is the general evaluation
/// (`customPresentationValue`), which makes new lists: equal values at
/// every time, under several timing set-ups, and the general evaluation
/// wherever the animation is not plain.
final class GradientPlainAnimationTests: XCTestCase {
    private func layer() -> GradientLayer {
        let g = GradientLayer()
        g.bounds = Rect(x: 0, y: 0, width: 100, height: 40)
        g.colors = [Color(rgb: 0xE84855), Color(red: 0.2, green: 0.5, blue: 0.9, alpha: 0.5), Color(rgb: 0xF2A541)]
        g.locations = [0, 0.4, 1]
        return g
    }

    private func assertAgree(_ g: GradientLayer, _ what: String, from: Double = 9.5, to: Double = 12.5) {
        var t = from
        while t <= to {
            XCTAssertEqual(g.presentedColors(at: t), g.customPresentationValue(forKey: "colors", atLocalTime: t), "\(what) at \(t)")
            XCTAssertEqual(g.presentedLocations(at: t), g.customPresentationValue(forKey: "locations", atLocalTime: t), "\(what) at \(t)")
            t += 0.01
        }
    }

    func testPlainAnimationsEqualTheGeneralEvaluation() {
        let targets: [AnimatableValue] = [.colors([Color(rgb: 0x000000), Color(rgb: 0xFFFFFF), Color(red: 0, green: 1, blue: 0, alpha: 0)])]
        var setups: [(String, (inout MediaTiming) -> Void, TimingFunction)] = []
        setups.append(("eased", { $0.duration = 1 }, .easeInEaseOut))
        setups.append(("repeating, autoreversing", { $0.duration = 0.3; $0.repeatCount = 4.5; $0.autoreverses = true }, .linear))
        setups.append(("overshooting", { $0.duration = 0.7 }, TimingFunction(0.3, -0.6, 0.7, 1.8)))
        setups.append(("speed and offset", { $0.duration = 1; $0.speed = 2; $0.timeOffset = 0.25 }, .easeIn))
        setups.append(("fill both, begins late", { $0.duration = 0.5; $0.beginTime = 0.8; $0.fillMode = .both }, .linear))
        setups.append(("removed after", { $0.duration = 0.5; $0.fillMode = .removed }, .easeOut))
        for (name, configure, function) in setups {
            let g = layer()
            var colors = BasicAnimation(key: .custom("colors"), from: .colors(g.colors), to: targets[0])
            configure(&colors.timing)
            colors.timingFunction = function
            g.add(colors, forKey: "colors", at: 10)
            var locations = BasicAnimation(key: .custom("locations"), from: .scalars([0, 0.4, 1]), to: .scalars([0.1, 0.2, 0.9]))
            configure(&locations.timing)
            locations.timingFunction = function
            g.add(locations, forKey: "locations", at: 10)
            if case .lerp = g.plainInterpolation(ofCustomKey: "colors", at: 10.2) {} else { XCTFail("\(name): a plain animation") }
            assertAgree(g, name)
        }
    }

    func testOtherAnimationsTakeTheGeneralEvaluation() {
        // Additive; by-value; two animations of one key; lists of another count.
        let g1 = layer()
        var additive = BasicAnimation(key: .custom("locations"), from: .scalars([0, 0, 0]), to: .scalars([0.1, 0.1, -0.1]))
        additive.isAdditive = true
        additive.timing.duration = 1
        g1.add(additive, forKey: "a", at: 10)
        let g2 = layer()
        var by = BasicAnimation(key: .custom("locations"), from: nil, to: nil, by: .scalars([0.1, 0.1, 0.1]))
        by.timing.duration = 1
        g2.add(by, forKey: "b", at: 10)
        let g3 = layer()
        var first = BasicAnimation(key: .custom("colors"), from: .colors(g3.colors), to: .colors(g3.colors.reversed()))
        first.timing.duration = 1
        g3.add(first, forKey: "1", at: 10)
        g3.add(first, forKey: "2", at: 10.5)
        let g4 = layer()
        var longer = BasicAnimation(key: .custom("colors"), from: .colors(g4.colors), to: .colors(g4.colors + g4.colors))
        longer.timing.duration = 1
        g4.add(longer, forKey: "c", at: 10)
        for (g, name) in [(g1, "additive"), (g2, "by-value"), (g3, "two animations"), (g4, "counts differ")] {
            let key = name == "additive" || name == "by-value" ? "locations" : "colors"
            if case .notPlain = g.plainInterpolation(ofCustomKey: key, at: 10.2) {} else { XCTFail("\(name): not plain") }
            assertAgree(g, name)
        }
    }

    func testKeyframeListsEqualTheGeneralEvaluation() {
        for mode in [CalculationMode.linear, .paced] {
            let g = layer()
            var colors = KeyframeAnimation(key: .custom("colors"), values: [
                .colors(g.colors), .colors([Color(rgb: 0x000000), Color(rgb: 0xFFFFFF), Color(rgb: 0x00FF00)]),
                .colors([Color(rgb: 0x102030), Color(rgb: 0x405060), Color(red: 1, green: 0, blue: 0, alpha: 0.2)]),
            ], duration: 1.2)
            colors.calculationMode = mode
            colors.keyTimes = [0, 0.3, 1]
            colors.timingFunctions = [.easeIn, .easeOut]
            colors.timing.repeatCount = 2
            g.add(colors, forKey: "colors", at: 10)
            var locations = KeyframeAnimation(key: .custom("locations"), values: [.scalars([0, 0.4, 1]), .scalars([0.2, 0.3, 0.8]), .scalars([0, 0.9, 1])])
            locations.calculationMode = mode
            g.add(locations, forKey: "locations", at: 10)
            if case .lerp = g.plainInterpolation(ofCustomKey: "colors", at: 10.5) {} else { XCTFail("\(mode): plain keyframes") }
            assertAgree(g, "keyframes, \(mode)")
        }
    }
}
