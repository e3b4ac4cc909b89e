import FBRuntime
import MallocCounter
import Raster
import TestSupport
import XCTest

/// A gauge: a layer with a custom animatable property, `progress`, that it
/// draws itself (CA's `needsDisplay(forKey:)` pattern): a filled
/// background, and a ring stroked up to `progress`.
final class GaugeLayer: Layer {
    let ring: Path = {
        var p = Path()
        p.addEllipse(10, 10, 60, 60)
        return p
    }()
    override class func defaultValue(forKey key: String) -> AnimatableValue? {
        key == "progress" ? .scalar(0) : super.defaultValue(forKey: key)
    }
    override class func needsDisplay(forKey key: String) -> Bool {
        key == "progress" || super.needsDisplay(forKey: key)
    }
    override func draw(in context: DrawingContext) {
        context.fill(Rect(x: 0, y: 0, width: 80, height: 80), color: Color(rgb: 0x202830))
        var style = StrokeStyle(width: 8, cap: .round, join: .round)
        style.end = context.scalar(forKey: "progress") ?? 0
        context.stroke(ring, style: style, color: Color(rgb: 0xF2A541))
    }
}

/// Redrawing a custom-drawn layer every frame while its property animates
/// (the app thread's `displayIfNeeded`, then the frame) allocates nothing
/// once warm.
final class CustomDrawingAllocationTests: XCTestCase {
    func testAnimatedCustomDrawingAllocatesNothingPerFrame() throws {
        let root = Layer(name: "root")
        root.bounds = Rect(x: 0, y: 0, width: 120, height: 100)
        root.anchorPoint = .zero
        let gauge = GaugeLayer(name: "gauge")
        gauge.bounds = Rect(x: 0, y: 0, width: 80, height: 80)
        gauge.position = Point(x: 60, y: 50)
        try root.addSublayer(gauge)
        let start: MediaTime = 10
        var fill = BasicAnimation(key: .custom("progress"), from: .scalar(0.05), to: .scalar(0.95))
        fill.timing.duration = 0.5
        fill.timing.repeatCount = .infinity
        gauge.add(fill, forKey: "fill", at: start)
        let surface = try XCTUnwrap(Surface<ARGB8888>(width: 120, height: 100))
        let compositor = Compositor()
        let frames = 30
        func frame(_ i: Int) {
            let t = start + Double(i) / 60
            root.displayIfNeeded(at: t)
            compositor.render(root, at: t, into: surface.view)
        }
        for i in 0..<frames { frame(i) }
        var perFrame: [UInt64] = []
        perFrame.reserveCapacity(frames)
        let trace = ProcessInfo.processInfo.environment["FBR_ALLOC_TRACE"] == "1"
        var k = frames
        while k < 2 * frames {
            fbr_malloc_counter_trace(trace && k == frames ? 1 : 0)
            fbr_malloc_counter_begin()
            frame(k)
            perFrame.append(fbr_malloc_counter_end())
            fbr_malloc_counter_trace(0)
            k += 1
        }
        XCTAssertNoAllocations(perFrame, "heap allocations per frame")
        // The ring grows: the pixels on its path differ between two times.
        XCTAssertGreaterThan(compositor.statistics.pixelsWritten, 0)
    }
}
