@testable import FBRuntime
import FBRuntimeTestSupport
import Raster
import Synchronization
import XCTest

final class PixelBufferLayerTests: XCTestCase {
    func render(_ root: Layer, _ compositor: Compositor, _ target: Surface<ARGB8888>) {
        compositor.render(root, at: 0, into: target.view, clearColor: .black)
    }

    /// What the app writes and presents is what the screen shows, frame
    /// after frame (through damage tracking), and the app never writes the
    /// buffer on screen.
    func testPresentedFramesReachTheScreen() throws {
        let root = Layer(name: "root")
        root.bounds = Rect(x: 0, y: 0, width: 64, height: 48)
        root.anchorPoint = .zero
        let video = try XCTUnwrap(PixelBufferLayer(width: 32, height: 24, isOpaque: true))
        video.bounds = Rect(x: 0, y: 0, width: 32, height: 24)
        video.anchorPoint = .zero
        video.position = Point(x: 8, y: 8)
        try root.addSublayer(video)
        let compositor = Compositor()
        let target = try XCTUnwrap(Surface<ARGB8888>(width: 64, height: 48))
        var onScreen: [ObjectIdentifier] = []
        for frame in 0..<5 {
            let color: UInt32 = 0xFF00_0000 | UInt32(frame * 40) << 16 | 0x80
            video.withBackBuffer { view in
                if let shown = video.contents { XCTAssertFalse(view.base == shown.image.view.base, "never the buffer on screen") }
                for y in 0..<view.height { view.row(y).update(repeating: color, count: view.width) }
            }
            video.present()
            onScreen.append(ObjectIdentifier(video.contents!))
            render(root, compositor, target)
            XCTAssertEqual(target.view.row(20)[20], color, "frame \(frame)")
            XCTAssertEqual(target.view.row(2)[2], 0xFF00_0000)
        }
        XCTAssertEqual(Set(onScreen).count, 3, "three buffers rotate")
        XCTAssertEqual(video.presentCount, 5)
    }

    /// Presenting in a displayed tree starts no fade (a video frame is not
    /// a contents change to animate).
    func testPresentRunsNoAction() throws {
        let saved = AppRunLoop.current
        defer { AppRunLoop.current = saved }
        let loop = AppRunLoop(clock: ManualClock(now: 0))
        AppRunLoop.current = loop
        let root = Layer(name: "root")
        let video = try XCTUnwrap(PixelBufferLayer(width: 8, height: 8))
        try root.addSublayer(video)
        root.isDisplayRoot = true
        loop.runTurn { video.present() }
        XCTAssertTrue(video.animations.isEmpty)
    }

    func testBadSizesAreRefused() {
        XCTAssertNil(PixelBufferLayer(width: 0, height: 10))
        XCTAssertNil(PixelBufferLayer(width: -3, height: 10))
        XCTAssertNil(PixelBufferLayer(width: 100_000, height: 100_000))
    }

    /// A writer at full speed on this thread, the render loop drawing on
    /// its own (issue 23): every frame that reaches the screen is one whole
    /// presented frame, never two mixed, however many commits are queued,
    /// because the app only gets a buffer back once the render side let go
    /// of it. (With the three buffers simply rotating, the writer caught up
    /// with frames still queued or being drawn.)
    func testAWriterAtFullSpeedNeverTearsAFrameOnScreen() throws {
        let root = Layer(name: "root")
        root.bounds = Rect(x: 0, y: 0, width: 480, height: 320)
        root.anchorPoint = .zero
        let video = try XCTUnwrap(PixelBufferLayer(width: 480, height: 320, isOpaque: true))
        video.frame = root.bounds
        try root.addSublayer(video)
        let display = try XCTUnwrap(SimulatedPresenter(width: 480, height: 320, time: SimulatedFrameTime()))
        let checked = Mutex<(frames: Int, torn: Int, kinds: Set<UInt32>)>((0, 0, []))
        display.onScreenChanged = { screen in
            // Render thread: one colour over the whole screen, or torn.
            let first = screen.view.row(0)[0]
            var uniform = true
            for y in 0..<screen.height where uniform {
                let row = screen.view.row(y)
                for x in 0..<screen.width where row[x] != first { uniform = false; break }
            }
            checked.withLock { c in
                c.frames += 1
                if !uniform { c.torn += 1 }
                c.kinds.insert(first)
            }
        }
        let loop = RenderLoop(root: root, presenter: display, time: display.time)
        loop.commit()
        try loop.start()
        let frames = 1500
        for k in 1...frames {
            let colour = 0xFF00_0000 | UInt32(truncatingIfNeeded: k &* 0x9E3779B1) & 0x00FF_FFFF
            video.withBackBuffer { view in
                for y in 0..<view.height { view.row(y).update(repeating: colour, count: view.width) }
            }
            video.present()
            loop.commit()
        }
        XCTAssertTrue(loop.waitUntil(timeoutNanoseconds: 10_000_000_000) { $0.framesRendered >= 2 })
        loop.stop()
        let c = checked.withLock { $0 }
        XCTAssertGreaterThan(c.frames, 1)
        XCTAssertEqual(c.torn, 0, "frames shown with two presented frames mixed")
        XCTAssertLessThanOrEqual(video.bufferCount, PixelBufferLayer.maximumBufferCount + 1)
    }
}
