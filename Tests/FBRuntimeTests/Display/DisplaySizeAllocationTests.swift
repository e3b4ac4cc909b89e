import FBRuntime
import FBRuntimeTestSupport
import MallocCounter
import Raster
import TestSupport
import XCTest

/// The render loop's frames allocate nothing in steady state, before and
/// after the display changed size (the change itself allocates: a back
/// buffer, the post to the app thread). Counted on the optimised build
/// (`XCTAssertNoAllocations`, scripts/test's allocation run).
final class DisplaySizeAllocationTests: XCTestCase {
    /// A display that keeps nothing (no frame copies, no logs), so that
    /// what is counted is the loop's own work: flips complete at the next
    /// 60 Hz vblank of a simulated clock; `nextSize` takes effect at the
    /// next `ensureAccess()`, as a presenter following a new mode.
    final class QuietPresenter: FramePresenter {
        private(set) var width: Int, height: Int
        let refreshIntervalNanoseconds: Int64 = 16_666_667
        let flipsWaitForVBlank = true
        private(set) var isFlipPending = false
        var nextSize: (width: Int, height: Int)?
        private(set) var preparedWidth = 0
        let time = SimulatedFrameTime(startNanoseconds: 1_000_000)

        init(width: Int, height: Int) { self.width = width; self.height = height }

        func prepare(_ frame: PixelView<ARGB8888>, damage: IntRect, pieces: DamageList?) { preparedWidth = frame.width }
        func commit() throws(PresentError) -> PresentOutcome { isFlipPending = true; return .flipQueued }
        func waitForFlip(timeoutNanoseconds: Int64) throws(PresentError) -> Int64 {
            isFlipPending = false
            let now = time.nanoseconds()
            let vblank = (now / refreshIntervalNanoseconds + 1) * refreshIntervalNanoseconds
            time.sleep(untilNanoseconds: vblank)
            return vblank
        }
        func ensureAccess() -> Bool {
            if let size = nextSize { (width, height) = size; nextSize = nil }
            return true
        }
    }

    func testFramesAllocateNothingBeforeAndAfterADisplaySizeChange() {
        let root = Layer(name: "root")
        root.bounds = Rect(x: 0, y: 0, width: 160, height: 120)
        root.position = Point(x: 80, y: 60)
        root.backgroundColor = Color(rgb: 0x203040)
        let square = Layer(name: "square")
        square.bounds = Rect(x: 0, y: 0, width: 20, height: 20)
        square.backgroundColor = Color(rgb: 0xFFFFFF)
        var slide = BasicAnimation(key: .position, from: .point(Point(x: 20, y: 60)), to: .point(Point(x: 140, y: 60)), duration: 0.5)
        slide.autoreverses = true
        slide.repeatCount = .infinity
        square.add(slide, forKey: "slide", at: 0)
        try! root.addSublayer(square)
        let display = QuietPresenter(width: 160, height: 120)
        let loop = RenderLoop(root: root, presenter: display, time: display.time)
        loop.renderBudgetNanoseconds = 2_000_000

        func countedFrames(_ n: Int) -> [UInt64] {
            var counts: [UInt64] = []
            counts.reserveCapacity(n)
            for _ in 0..<n {
                fbr_malloc_counter_begin()
                let going = loop.runOnce()
                counts.append(fbr_malloc_counter_end())
                XCTAssertTrue(going)
            }
            return counts
        }
        for _ in 0..<60 { XCTAssertTrue(loop.runOnce()) }   // warm-up: one period of the slide
        XCTAssertNoAllocations(countedFrames(30), "frames at 160x120")

        display.nextSize = (200, 90)
        let change = countedFrames(1)[0]
        if AllocationChecks.areAsserted {
            XCTAssertGreaterThan(change, 0, "the change allocates (a back buffer): the counter sees the loop's work")
        }
        for _ in 0..<60 { XCTAssertTrue(loop.runOnce()) }
        XCTAssertEqual(loop.statistics.displaySizeChanges, 1)
        XCTAssertEqual(display.preparedWidth, 200)
        XCTAssertNoAllocations(countedFrames(30), "frames at 200x90, after the change")
        XCTAssertNil(loop.error)
    }
}
