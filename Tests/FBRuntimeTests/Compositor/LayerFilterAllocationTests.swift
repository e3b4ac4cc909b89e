@testable import FBRuntime
import MallocCounter
import Raster
import TestSupport
import XCTest

/// A filtered layer animating (blur radius and saturation driven by
/// animations, a sublayer moving inside it, the whole layer moving)
/// allocates nothing per frame once the pools and the blur's scratch have
/// grown: counted with the MallocCounter hook, asserted on the release
/// build (`AllocationChecks`; `scripts/test` step 1b).
final class LayerFilterAllocationTests: XCTestCase {
    func repeating(_ key: AnimatableKey, _ from: AnimatableValue, _ to: AnimatableValue) -> BasicAnimation {
        var a = BasicAnimation(key: key, from: from, to: to, duration: 0.5)
        a.autoreverses = true
        a.repeatCount = .infinity
        return a
    }

    func testAnimatedFiltersAllocateNothingPerFrame() throws {
        let start: MediaTime = 5
        let root = Layer(name: "root")
        root.bounds = Rect(x: 0, y: 0, width: 200, height: 150)
        root.anchorPoint = .zero
        root.backgroundColor = Color(red: 0.2, green: 0.2, blue: 0.25, alpha: 1)
        let card = Layer(name: "card")
        card.bounds = Rect(x: 0, y: 0, width: 80, height: 60)
        card.position = Point(x: 100, y: 75)
        card.cornerRadius = 10
        card.backgroundColor = Color(red: 0.9, green: 0.4, blue: 0.1, alpha: 1)
        card.filters = [.saturation(1), .contrast(1.2), .gaussianBlur(radius: 2),
                        .colorMatrix(ColorMatrix([0.9, 0.1, 0, 0, 0, 0, 1, 0, 0, 0, 0.1, 0, 0.9, 0, 0.02, 0, 0, 0, 1, 0]))]
        try root.addSublayer(card)
        let dot = Layer(name: "dot")
        dot.bounds = Rect(x: 0, y: 0, width: 16, height: 16)
        dot.cornerRadius = 8
        dot.backgroundColor = Color(red: 0.1, green: 0.5, blue: 0.9, alpha: 1)
        try card.addSublayer(dot)
        card.add(repeating(.filterBlurRadius, .scalar(0), .scalar(8)), forKey: "blur", at: start)
        card.add(repeating(.filterSaturation, .scalar(1), .scalar(0)), forKey: "grey", at: start)
        card.add(repeating(.positionX, .scalar(80), .scalar(120)), forKey: "slide", at: start)
        dot.add(repeating(.position, .point(Point(x: 10, y: 10)), .point(Point(x: 70, y: 50))), forKey: "move", at: start)

        let surface = try XCTUnwrap(Surface<ARGB8888>(width: 200, height: 150))
        let compositor = Compositor()
        let frames = 30                                     // 0.5 s at 60 Hz: one way of every animation
        for i in 0..<(2 * frames) { compositor.render(root, at: start + Double(i) / 60, into: surface.view) }
        var perFrame: [UInt64] = []
        perFrame.reserveCapacity(2 * frames)
        var passes = 0
        let trace = ProcessInfo.processInfo.environment["FBR_ALLOC_TRACE"] == "1"
        for i in (2 * frames)..<(4 * frames) {
            fbr_malloc_counter_trace(trace && i == 2 * frames ? 1 : 0)
            fbr_malloc_counter_begin()
            compositor.render(root, at: start + Double(i) / 60, into: surface.view)
            perFrame.append(fbr_malloc_counter_end())
            fbr_malloc_counter_trace(0)
            passes = max(passes, compositor.statistics.offscreenPasses)
        }
        XCTAssertNoAllocations(perFrame, "heap allocations per frame")
        XCTAssertGreaterThan(passes, 0, "the filtered layer was drawn offscreen")
    }
}
