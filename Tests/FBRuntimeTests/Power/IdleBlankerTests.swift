import Foundation
import XCTest
@testable import FBRuntime
import FBRuntimeTestSupport
import Raster

/// Idle blanking end to end on the host: the real `RenderLoop` on a
/// `SimulatedPresenter` and a manual clock (`SimulatedFrameTime`), and a
/// `Backlight` on a temporary directory shaped like
/// /sys/class/backlight/NAME (the host has no backlight to drive).
final class IdleBlankerTests: XCTestCase {
    let s: Int64 = 1_000_000_000
    var directories: [URL] = []

    override func tearDown() {
        for d in directories { try? FileManager.default.removeItem(at: d) }
        directories = []
    }

    /// A class directory holding one device `name`.
    func backlightClass(_ name: String = "panel", max: Int = 100, brightness: Int = 80) throws -> URL {
        let root = FileManager.default.temporaryDirectory.appendingPathComponent("fbr-backlight-\(getpid())-\(UUID().uuidString)")
        directories.append(root)
        let device = root.appendingPathComponent(name)
        try FileManager.default.createDirectory(at: device, withIntermediateDirectories: true)
        try "\(max)\n".write(to: device.appendingPathComponent("max_brightness"), atomically: false, encoding: .utf8)
        try "\(brightness)\n".write(to: device.appendingPathComponent("brightness"), atomically: false, encoding: .utf8)
        return root
    }

    func brightnessFile(_ device: URL) -> String {
        (try? String(contentsOf: device.appendingPathComponent("brightness"), encoding: .utf8)) ?? "?"
    }

    /// 64×48: a background and a square.
    func scene() -> (Layer, Layer) {
        let root = Layer(name: "root")
        root.bounds = Rect(x: 0, y: 0, width: 64, height: 48)
        root.position = Point(x: 32, y: 24)
        root.backgroundColor = Color(rgb: 0x203040)
        let square = Layer(name: "square")
        square.bounds = Rect(x: 0, y: 0, width: 8, height: 8)
        square.position = Point(x: 20, y: 24)
        square.backgroundColor = Color(rgb: 0xFFFFFF)
        try! root.addSublayer(square)
        return (root, square)
    }

    func expectedScreen(_ root: Layer, at t: Int64) -> UInt64 {
        let reference = Surface<ARGB8888>(width: 64, height: 48)!
        Compositor().render(root, at: Double(t) / 1e9, into: reference.view)
        let shown = Surface<XRGB8888>(width: 64, height: 48)!
        ScanoutConversion.copy(reference.view, into: shown.view, rect: reference.view.bounds)
        return pixelChecksum(shown.view)
    }

    func testBacklightOpensFirstDeviceWritesAndClamps() throws {
        let dir = try backlightClass("b-second")
        try FileManager.default.createDirectory(at: dir.appendingPathComponent("a-first"), withIntermediateDirectories: true)
        try "255\n".write(to: dir.appendingPathComponent("a-first/max_brightness"), atomically: false, encoding: .utf8)
        try "7\n".write(to: dir.appendingPathComponent("a-first/brightness"), atomically: false, encoding: .utf8)
        let (auto, reason) = Backlight.open(.auto, classDirectory: dir.path)
        XCTAssertNil(reason)
        XCTAssertEqual(auto?.directory, dir.path + "/a-first", "the first by name")
        XCTAssertEqual(auto?.maxBrightness, 255)
        XCTAssertEqual(try auto?.brightness(), 7)
        let named = try XCTUnwrap(Backlight.open(.named("b-second"), classDirectory: dir.path).backlight)
        XCTAssertEqual(named.maxBrightness, 100)
        try named.setBrightness(250)
        XCTAssertEqual(brightnessFile(dir.appendingPathComponent("b-second")), "100\n", "clamped to max_brightness")
        try named.setBrightness(-3)
        XCTAssertEqual(try named.brightness(), 0)
        XCTAssertEqual(named.steps(percent: 25), 25)
        XCTAssertEqual(named.steps(percent: 0), 0)
        XCTAssertEqual(try Backlight(directory: dir.path + "/a-first").steps(percent: 1), 3)   // 2.55 → 3
        XCTAssertNil(Backlight.open(.none).backlight)
        XCTAssertNotNil(Backlight.open(.auto, classDirectory: dir.path + "/missing").reason)
        XCTAssertNotNil(Backlight.open(.named("nope"), classDirectory: dir.path).reason)
    }

    /// Dim, off (0 frames, 0 flips, even with a commit and an animation
    /// meanwhile), a touch wakes it: not delivered, the display powered on
    /// with a whole frame showing the current state, then the brightness
    /// restored; the next touch is delivered.
    func testDimOffAndWakeByTouch() throws {
        let classDir = try backlightClass(max: 100, brightness: 80)
        let device = classDir.appendingPathComponent("panel")
        let time = SimulatedFrameTime(startNanoseconds: 1_000_000)
        let display = SimulatedPresenter(width: 64, height: 48, flipsWaitForVBlank: false, time: time, bufferCount: 2)!
        let (root, square) = scene()
        let loop = RenderLoop(root: root, presenter: display, time: time)
        loop.renderBudgetNanoseconds = 2_000_000
        loop.idleTimeoutNanoseconds = 100_000   // real time: the clock is simulated
        for _ in 0..<3 { XCTAssertTrue(loop.runOnce()) }
        XCTAssertEqual(loop.statistics.framesShown, 1)

        let backlight = try Backlight(directory: device.path)
        let blanker = IdleBlanker(timeouts: IdleTimeouts(dimAfterNanoseconds: 10 * s, offAfterNanoseconds: 20 * s, dimPercent: 25),
                                  backlight: backlight, loop: loop)
        time.advance(byNanoseconds: 10 * s - 1)
        blanker.tick()
        XCTAssertEqual(blanker.state, .active)
        time.advance(byNanoseconds: 1)
        blanker.tick()
        XCTAssertEqual(blanker.state, .dimmed)
        XCTAssertEqual(brightnessFile(device), "25\n")
        XCTAssertEqual(blanker.rememberedBrightness, 80)
        XCTAssertTrue(loop.isDisplayPowerRequested, "dimmed: still on")

        time.advance(byNanoseconds: 10 * s)
        blanker.tick()
        XCTAssertEqual(blanker.state, .off)
        XCTAssertEqual(brightnessFile(device), "0\n")
        XCTAssertFalse(loop.isDisplayPowerRequested)

        // Off: the loop turns the display off and draws nothing, whatever
        // is asked of it.
        let rendered = loop.statistics.framesRendered
        let commits = display.presentTimes.count, flips = display.flipTimes.count
        XCTAssertTrue(loop.runOnce())
        XCTAssertFalse(display.isDisplayOn)
        XCTAssertEqual(display.powerOffs, 1)
        XCTAssertEqual(loop.statistics.displayPowerOffs, 1)
        loop.update { _ in
            square.position = Point(x: 44, y: 24)
            try? square.add(BasicAnimation(key: .opacity, from: .scalar(0.2), duration: 0.5), forKey: "fade")
        }
        for _ in 0..<30 {
            XCTAssertTrue(loop.runOnce())
            time.advance(byNanoseconds: 16_000_000)
        }
        loop.setNeedsRender()
        XCTAssertTrue(loop.runOnce())
        XCTAssertEqual(loop.statistics.framesRendered, rendered, "no frame rendered while off")
        XCTAssertEqual(display.presentTimes.count, commits, "no commit while off")
        XCTAssertEqual(display.flipTimes.count, flips, "no flip while off")
        XCTAssertGreaterThanOrEqual(loop.statistics.displayOffWaits, 31)

        // The wake: a touch-down, swallowed.
        time.advance(byNanoseconds: 5 * s)
        XCTAssertFalse(blanker.admit(.touch(id: 3, phase: .began)))
        XCTAssertEqual(blanker.state, .waking)
        XCTAssertTrue(loop.isDisplayPowerRequested)
        XCTAssertEqual(brightnessFile(device), "0\n", "dark until a frame is shown")
        XCTAssertFalse(blanker.admit(.touch(id: 3, phase: .moved)))
        blanker.tick()
        XCTAssertEqual(blanker.state, .waking)
        XCTAssertTrue(loop.runOnce())
        XCTAssertEqual(display.powerOns, 1)
        XCTAssertEqual(loop.statistics.displayPowerOns, 1)
        XCTAssertEqual(loop.statistics.framesShown, 2, "one frame: the modeset")
        XCTAssertEqual(display.damages.count, commits + 1)
        // The whole frame, at the state of now: the fade ran out while off,
        // the square stands where the commit put it.
        XCTAssertEqual(pixelChecksum(display.screen.view), expectedScreen(root, at: time.nanoseconds()))
        blanker.tick()
        XCTAssertEqual(blanker.state, .active)
        XCTAssertEqual(brightnessFile(device), "80\n", "restored once the frame is on screen")
        XCTAssertFalse(blanker.admit(.touch(id: 3, phase: .ended)), "the waking touch's up")
        XCTAssertTrue(blanker.admit(.touch(id: 4, phase: .began)))
        XCTAssertTrue(blanker.admit(.touch(id: 4, phase: .ended)))
        XCTAssertNil(blanker.lastBacklightError)
        XCTAssertNil(loop.error)
    }

    /// A key press wakes it (swallowed with its release); a display
    /// without a backlight still blanks; leaving while off restores the
    /// backlight.
    func testKeyWakeAndRestoreOnExit() throws {
        let time = SimulatedFrameTime(startNanoseconds: 1_000_000)
        let display = SimulatedPresenter(width: 64, height: 48, flipsWaitForVBlank: false, time: time)!
        let loop = RenderLoop(root: scene().0, presenter: display, time: time)
        loop.renderBudgetNanoseconds = 2_000_000
        loop.idleTimeoutNanoseconds = 100_000
        for _ in 0..<3 { XCTAssertTrue(loop.runOnce()) }
        let blanker = IdleBlanker(timeouts: IdleTimeouts(dimAfterNanoseconds: nil, offAfterNanoseconds: 3 * s), backlight: nil, loop: loop)
        XCTAssertEqual(blanker.nextDeadlineNanoseconds, time.nanoseconds() + 3 * s)
        time.advance(byNanoseconds: 3 * s)
        blanker.tick()
        XCTAssertEqual(blanker.state, .off)
        XCTAssertTrue(loop.runOnce())
        XCTAssertFalse(display.isDisplayOn)
        XCTAssertFalse(blanker.admit(.key(code: 28, pressed: true)))
        XCTAssertTrue(loop.runOnce())
        XCTAssertTrue(display.isDisplayOn)
        blanker.tick()
        XCTAssertEqual(blanker.state, .active)
        XCTAssertFalse(blanker.admit(.key(code: 28, pressed: false)))
        XCTAssertTrue(blanker.admit(.key(code: 28, pressed: true)))

        // Ending while off gives the backlight back.
        let classDir = try backlightClass(max: 10, brightness: 6)
        let device = classDir.appendingPathComponent("panel")
        let other = IdleBlanker(timeouts: IdleTimeouts(dimAfterNanoseconds: 1 * s, offAfterNanoseconds: 2 * s),
                                backlight: try Backlight(directory: device.path), loop: loop)
        time.advance(byNanoseconds: 1 * s)
        other.tick()
        XCTAssertEqual(brightnessFile(device), "3\n")   // 30 % of 10
        time.advance(byNanoseconds: 1 * s)
        other.tick()
        XCTAssertEqual(brightnessFile(device), "0\n")
        other.restoreBacklight()
        XCTAssertEqual(brightnessFile(device), "6\n", "the level before dimming")
    }
}
