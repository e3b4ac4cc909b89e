import TestSupport
import XCTest
import CPosix
@testable import FBRuntime
@testable import FBRuntimeFBDev
import FBRuntimeTestSupport
import MallocCounter
import Raster

final class FBDevPresenterTests: XCTestCase {
    func mode(_ w: Int, _ h: Int, virtualHeight: Int? = nil, format: ScanoutFormat = .xrgb8888) -> FBMode {
        FBMode(width: w, height: h, virtualHeight: virtualHeight ?? 2 * h,
               lineLength: (w + 5) * format.bytesPerPixel,   // padded rows, as drivers have
               format: format, refreshIntervalNanoseconds: FBMode.defaultRefreshIntervalNanoseconds)
    }

    /// A frame of random pixels; `change` repaints a rectangle of it.
    final class Frame {
        let surface: Surface<ARGB8888>
        var rng = SplitMix64(seed: 6)
        init(_ w: Int, _ h: Int) {
            surface = Surface(width: w, height: h)!
            change(surface.view.bounds)
        }
        func change(_ r: IntRect) {
            for y in r.y..<r.maxY { for x in r.x..<r.maxX { surface.view[x, y] = rng.premultipliedColor().argb } }
        }
    }

    /// What buffer `index` of the device shows, as XRGB8888 or RGB565
    /// values widened to UInt32.
    func shown(_ device: SimulatedFramebuffer, buffer index: Int) -> [UInt32] {
        var out: [UInt32] = []
        switch device.mode.format {
        case .xrgb8888:
            let v = device.xrgbView(buffer: index)
            for y in 0..<v.height { for x in 0..<v.width { out.append(v[x, y]) } }
        case .rgb565:
            let v = device.rgb565View(buffer: index)
            for y in 0..<v.height { for x in 0..<v.width { out.append(UInt32(v[x, y])) } }
        }
        return out
    }

    /// The whole frame turned and converted by the reference kernels: what
    /// the panel must show after every flip, whatever the damage history.
    func expected(_ frame: PixelView<ARGB8888>, _ mode: FBMode, _ rotation: DisplayRotation) -> [UInt32] {
        let turn = QuarterTurn(rawValue: rotation.rawValue)!
        var out: [UInt32] = []
        switch mode.format {
        case .xrgb8888:
            let s = Surface<XRGB8888>(width: mode.width, height: mode.height)!
            RotatedCopy.copy(frame, into: s.view, rect: frame.bounds, turn: turn, family: .reference)
            for y in 0..<mode.height { for x in 0..<mode.width { out.append(s.view[x, y]) } }
        case .rgb565:
            let s = Surface<RGB565>(width: mode.width, height: mode.height)!
            RotatedCopy.copyDithered(frame, into: s.view, rect: frame.bounds, turn: turn, family: .reference)
            for y in 0..<mode.height { for x in 0..<mode.width { out.append(UInt32(s.view[x, y])) } }
        }
        return out
    }

    /// Panning double buffer: frames alternate between the two halves of
    /// the virtual screen, each flip pans to the one just filled, and after
    /// every flip the shown half holds the whole current frame although only
    /// the damage was handed over (the other half's missed damage is caught
    /// up), in every rotation and both formats.
    func testPanningShowsTheWholeFrameAfterEachFlip() throws {
        for format in [ScanoutFormat.xrgb8888, .rgb565] {
            for rotation in DisplayRotation.allCases {
                let m = mode(24, 14, format: format)
                let device = SimulatedFramebuffer(m, vsync: false)
                let presenter = FBDevPresenter(device: device, rotation: rotation)
                XCTAssertEqual(presenter.strategy, .panning)
                let swapped = rotation == .clockwise90 || rotation == .clockwise270
                XCTAssertEqual(presenter.width, swapped ? 14 : 24)
                XCTAssertEqual(presenter.height, swapped ? 24 : 14)
                let frame = Frame(presenter.width, presenter.height)
                var damage = frame.surface.view.bounds
                var rng = SplitMix64(seed: 12)
                for n in 0..<8 {
                    let outcome = try presenter.present(frame.surface.view, damage: damage)
                    if n == 0 { guard case .shown = outcome else { return XCTFail("first frame: \(outcome)") } }
                    else {
                        XCTAssertEqual(outcome, .flipQueued)
                        XCTAssertTrue(presenter.isFlipPending)
                        _ = try presenter.waitForFlip(timeoutNanoseconds: 1_000_000)
                    }
                    let showing = device.panOffset / m.height
                    XCTAssertEqual(device.panOffset, (n % 2) * m.height, "\(format) \(rotation) frame \(n)")
                    XCTAssertEqual(presenter.bufferStates[showing], .onScreen)
                    XCTAssertEqual(presenter.bufferStates[1 - showing], .free)
                    XCTAssertEqual(shown(device, buffer: showing), expected(frame.surface.view, m, rotation),
                                   "\(format) \(rotation) frame \(n)")
                    damage = IntRect(x: rng.below(presenter.width - 3), y: rng.below(presenter.height - 3),
                                     width: 1 + rng.below(3), height: 1 + rng.below(3))
                    frame.change(damage)
                }
                XCTAssertFalse(presenter.flipsWaitForVBlank)   // the device has no vsync wait
                presenter.close()
                XCTAssertEqual(device.panOffset, device.savedPanOffset, "close pans back to the offset found at open")
            }
        }
    }

    /// Without room for a second buffer the presenter copies into the
    /// visible one: no pans, and the screen holds the whole frame after
    /// each present, from damage alone.
    func testCopyStrategyWithoutVirtualRoom() throws {
        let m = mode(20, 12, virtualHeight: 12)
        let device = SimulatedFramebuffer(m, vsync: true)
        XCTAssertFalse(device.canPan)
        let presenter = FBDevPresenter(device: device, rotation: .clockwise180)
        XCTAssertEqual(presenter.strategy, .copy)
        let frame = Frame(20, 12)
        var damage = frame.surface.view.bounds
        for n in 0..<5 {
            _ = try presenter.present(frame.surface.view, damage: damage)
            if n > 0 { _ = try presenter.waitForFlip(timeoutNanoseconds: 1_000_000) }
            XCTAssertEqual(shown(device, buffer: 0), expected(frame.surface.view, m, .clockwise180))
            damage = IntRect(x: n * 3, y: n * 2, width: 4, height: 3)
            frame.change(damage)
        }
        XCTAssertEqual(device.panCount, 0)
        XCTAssertTrue(presenter.flipsWaitForVBlank)   // the device answers vsync waits
        // Panning may also be turned down on a device that has room.
        XCTAssertEqual(FBDevPresenter(device: SimulatedFramebuffer(mode(8, 8), vsync: false), allowPanning: false).strategy, .copy)
    }

    /// The render loop on an fbdev presenter turned by 90°: the UI is laid
    /// out at the turned size, and after each frame the panel shows the
    /// compositor's render of the tree at that frame's time, turned.
    func testRenderLoopOnRotatedFBDev() throws {
        let m = mode(40, 30)
        let device = SimulatedFramebuffer(m, vsync: false)
        let time = SimulatedFrameTime(startNanoseconds: 1_000_000)
        let presenter = FBDevPresenter(device: device, rotation: .clockwise90, time: time)
        XCTAssertEqual(presenter.width, 30); XCTAssertEqual(presenter.height, 40)
        let root = Layer(name: "root")
        root.bounds = Rect(x: 0, y: 0, width: 30, height: 40)
        root.position = Point(x: 15, y: 20)
        root.backgroundColor = Color(rgb: 0x102030)
        let square = Layer(name: "square")
        square.bounds = Rect(x: 0, y: 0, width: 6, height: 6)
        square.position = Point(x: 5, y: 5)
        square.backgroundColor = Color(rgb: 0xFFC040)
        square.add(BasicAnimation(key: .position, from: .point(Point(x: 5, y: 5)), to: .point(Point(x: 25, y: 35)), duration: 0.2),
                   forKey: "slide", at: 0)
        try root.addSublayer(square)
        let loop = RenderLoop(root: root, presenter: presenter, time: time)
        for _ in 0..<6 {
            XCTAssertTrue(loop.runOnce())
            // The device has no vsync wait, so the loop holds each pan until
            // its target time and renders at that time: the clock now.
            let upright = Surface<ARGB8888>(width: 30, height: 40)!
            Compositor().render(root, at: Double(time.nanoseconds()) / 1e9, into: upright.view)
            XCTAssertEqual(shown(device, buffer: device.panOffset / m.height), expected(upright.view, m, .clockwise90))
        }
    }

    /// Idle blanking on fbdev: the render loop powered off blanks the
    /// device (FBIOBLANK powerdown) and pans nothing; on again it unblanks
    /// and the next frame shows the whole current state; `close()`
    /// unblanks a display left blanked.
    func testDisplayPowerBlanksAndUnblanks() throws {
        let m = mode(40, 30)
        let device = SimulatedFramebuffer(m, vsync: false)
        let time = SimulatedFrameTime(startNanoseconds: 1_000_000)
        let presenter = FBDevPresenter(device: device, time: time)
        let root = Layer(name: "root")
        root.bounds = Rect(x: 0, y: 0, width: 40, height: 30)
        root.position = Point(x: 20, y: 15)
        root.backgroundColor = Color(rgb: 0x102030)
        let square = Layer(name: "square")
        square.bounds = Rect(x: 0, y: 0, width: 6, height: 6)
        square.position = Point(x: 5, y: 5)
        square.backgroundColor = Color(rgb: 0xFFC040)
        try root.addSublayer(square)
        let loop = RenderLoop(root: root, presenter: presenter, time: time)
        loop.idleTimeoutNanoseconds = 100_000
        // Both buffers hold frames, so only the damage would be copied to
        // them next: the device's cleared memory must be repainted whole.
        for x in [8.0, 11, 14] {
            loop.update { _ in square.position = Point(x: x, y: 5) }
            XCTAssertTrue(loop.runOnce())
            time.advance(byNanoseconds: 16_000_000)
        }
        XCTAssertEqual(loop.statistics.framesRendered, 3)
        loop.setDisplayPowered(false)
        let pans = device.panCount
        XCTAssertTrue(loop.runOnce())
        XCTAssertTrue(device.isBlanked)
        XCTAssertTrue(presenter.isBlanked)
        loop.update { _ in square.position = Point(x: 30, y: 20) }
        for _ in 0..<5 { XCTAssertTrue(loop.runOnce()); time.advance(byNanoseconds: 16_000_000) }
        XCTAssertEqual(device.panCount, pans, "nothing shown while blanked")
        loop.setDisplayPowered(true)
        XCTAssertTrue(loop.runOnce())
        XCTAssertFalse(device.isBlanked)
        XCTAssertGreaterThan(device.panCount, pans)
        let upright = Surface<ARGB8888>(width: 40, height: 30)!
        Compositor().render(root, at: Double(time.nanoseconds()) / 1e9, into: upright.view)
        XCTAssertEqual(shown(device, buffer: device.panOffset / m.height), expected(upright.view, m, .none))
        XCTAssertEqual(device.blankChanges, 2)

        loop.setDisplayPowered(false)
        while presenter.isFlipPending || !presenter.isBlanked { XCTAssertTrue(loop.runOnce()) }
        presenter.close()
        XCTAssertFalse(device.isBlanked, "the console gets a lit screen back")
    }

    /// Presenting a frame (rotated copy into RGB565 with dithering, pan,
    /// flip) allocates nothing on the heap once running (issue 4's rule
    /// for the render path; the MallocCounter hook is the oracle, see
    /// SteadyStateAllocationTests).
    func testSteadyStatePresentAllocatesNothing() throws {
        let device = SimulatedFramebuffer(mode(64, 40, format: .rgb565), vsync: false)
        let presenter = FBDevPresenter(device: device, rotation: .clockwise90)
        let frame = Frame(presenter.width, presenter.height)
        let damage = IntRect(x: 3, y: 5, width: 20, height: 30)
        for _ in 0..<3 {
            _ = try presenter.present(frame.surface.view, damage: damage)
            if presenter.isFlipPending { _ = try presenter.waitForFlip(timeoutNanoseconds: 1_000_000) }
        }
        let pansBefore = device.panCount
        fbr_malloc_counter_begin()
        var k = 0
        while k < 10 {
            _ = try presenter.present(frame.surface.view, damage: damage)
            _ = try presenter.waitForFlip(timeoutNanoseconds: 1_000_000)
            k += 1
        }
        XCTAssertNoAllocations(fbr_malloc_counter_end())
        XCTAssertEqual(device.panCount - pansBefore, 10, "each present flipped")
    }

    /// The panel rectangle of a damage rectangle and the copy's pixel
    /// mapping agree with `DisplayOrientation.uiToPanel` (the transform
    /// touch inverts), the independent oracle: each UI pixel's centre maps
    /// into the panel pixel that receives it.
    func testScanoutRotationMatchesDisplayOrientation() {
        for rotation in DisplayRotation.allCases {
            let r = ScanoutRotation(rotation, panelWidth: 9, panelHeight: 5)
            let orientation = DisplayOrientation(rotation: rotation, panelWidth: 9, panelHeight: 5)
            XCTAssertEqual(Double(r.frameWidth), orientation.uiSize.width)
            XCTAssertEqual(Double(r.frameHeight), orientation.uiSize.height)
            let frame = Surface<ARGB8888>(width: r.frameWidth, height: r.frameHeight)!
            for y in 0..<r.frameHeight { for x in 0..<r.frameWidth { frame.view[x, y] = 0xFF00_0000 | UInt32(y * 100 + x) } }
            let panel = Surface<XRGB8888>(width: 9, height: 5)!
            r.copy(frame.view, frame.view.bounds, into: panel.view)
            let t = orientation.uiToPanel
            for v in 0..<r.frameHeight { for u in 0..<r.frameWidth {
                let cx = Double(u) + 0.5, cy = Double(v) + 0.5
                let px = Int((t.a * cx + t.c * cy + t.tx).rounded(.down)), py = Int((t.b * cx + t.d * cy + t.ty).rounded(.down))
                XCTAssertEqual(panel.view[px, py], frame.view[u, v], "\(rotation) (\(u), \(v))")
            } }
            // A damage rectangle's panel rectangle: the bounding box of its
            // corners under uiToPanel.
            let damage = IntRect(x: 1, y: 2, width: 2, height: 3)
            let corners = [(1.0, 2.0), (3.0, 2.0), (1.0, 5.0), (3.0, 5.0)].map { (x, y) in
                (t.a * x + t.c * y + t.tx, t.b * x + t.d * y + t.ty)
            }
            let minX = corners.map { $0.0 }.min()!, maxX = corners.map { $0.0 }.max()!
            let minY = corners.map { $0.1 }.min()!, maxY = corners.map { $0.1 }.max()!
            XCTAssertEqual(r.panelRect(damage), IntRect(x: Int(minX), y: Int(minY), width: Int(maxX - minX), height: Int(maxY - minY)),
                           "\(rotation)")
        }
    }

    /// The mode from var/fix screen info: the two layouts we scan out,
    /// others refused with a reason; the refresh period from the timings
    /// against the pixel-clock arithmetic done in hertz.
    func testModeFromScreenInfo() {
        var v = fb_var_screeninfo()
        var f = fb_fix_screeninfo()
        v.xres = 640; v.yres = 480; v.xres_virtual = 640; v.yres_virtual = 960
        v.bits_per_pixel = 32
        v.red = fb_bitfield(offset: 16, length: 8, msb_right: 0)
        v.green = fb_bitfield(offset: 8, length: 8, msb_right: 0)
        v.blue = fb_bitfield(offset: 0, length: 8, msb_right: 0)
        f.visual = UInt32(FB_VISUAL_TRUECOLOR)
        f.line_length = 640 * 4
        f.smem_len = 640 * 4 * 960
        var reason = ""
        let m = FBMode.from(variable: v, fixed: f, reason: &reason)
        XCTAssertEqual(m?.format, .xrgb8888)
        XCTAssertEqual(m?.virtualHeight, 960)
        XCTAssertEqual(m?.refreshIntervalNanoseconds, FBMode.defaultRefreshIntervalNanoseconds)   // no pixclock
        // yres_virtual beyond the memory counts only the rows that fit.
        f.smem_len = 640 * 4 * 500
        XCTAssertEqual(FBMode.from(variable: v, fixed: f, reason: &reason)?.virtualHeight, 500)
        // VESA 640x480@60: 25.175 MHz, 800 × 525 pixels a frame.
        v.pixclock = 39_722
        v.left_margin = 48; v.right_margin = 16; v.hsync_len = 96
        v.upper_margin = 33; v.lower_margin = 10; v.vsync_len = 2
        let hz = 1e12 / 39_722 / (800 * 525)
        XCTAssertEqual(Double(FBMode.refreshInterval(v)), 1e9 / hz, accuracy: 1)
        v.pixclock = 4_000_000_000   // nonsense: 60 Hz, no overflow
        XCTAssertEqual(FBMode.refreshInterval(v), FBMode.defaultRefreshIntervalNanoseconds)

        v.bits_per_pixel = 16
        v.red = fb_bitfield(offset: 11, length: 5, msb_right: 0)
        v.green = fb_bitfield(offset: 5, length: 6, msb_right: 0)
        v.blue = fb_bitfield(offset: 0, length: 5, msb_right: 0)
        f.line_length = 640 * 2
        XCTAssertEqual(FBMode.from(variable: v, fixed: f, reason: &reason)?.format, .rgb565)
        v.bits_per_pixel = 24
        XCTAssertNil(FBMode.from(variable: v, fixed: f, reason: &reason))
        XCTAssertTrue(reason.contains("24 bpp"), reason)
        v.bits_per_pixel = 16
        f.visual = UInt32(FB_VISUAL_PSEUDOCOLOR)
        XCTAssertNil(FBMode.from(variable: v, fixed: f, reason: &reason))
        XCTAssertTrue(reason.contains("visual"), reason)
    }
}
