@testable import FBRuntime
import Raster
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
}
