import CDRM
import FBRuntime
import XCTest
@testable import FBRuntimeKMS

/// Which mode the presenter follows when a connector comes back
/// (`KMSOutput.modeOnReconnection`): the board's request resolved as at
/// start, nil when that is the mode already shown.
final class ModeOnReconnectionTests: XCTestCase {
    /// A mode of `width` × `height` at 60 Hz (CVT-like totals), preferred
    /// or not.
    func mode(_ width: Int, _ height: Int, refresh: Int = 60, preferred: Bool = false) -> drmModeModeInfo {
        var m = drmModeModeInfo()
        m.hdisplay = UInt16(width)
        m.hsync_start = UInt16(width + 16)
        m.hsync_end = UInt16(width + 80)
        m.htotal = UInt16(width + 160)
        m.vdisplay = UInt16(height)
        m.vsync_start = UInt16(height + 3)
        m.vsync_end = UInt16(height + 7)
        m.vtotal = UInt16(height + 30)
        m.vrefresh = UInt32(refresh)
        m.clock = UInt32((width + 160) * (height + 30) * refresh / 1000)
        m.type = preferred ? UInt32(DRM_MODE_TYPE_PREFERRED) : 0
        return m
    }

    func follow(_ request: ModeRequest, current: drmModeModeInfo, _ offered: [drmModeModeInfo]) -> (Int, Int)? {
        offered.withUnsafeBufferPointer { modes in
            KMSOutput.modeOnReconnection(request, current: current, offered: modes).map { (Int($0.hdisplay), Int($0.vdisplay)) }
        }
    }

    func testPreferredRequestFollowsTheNewPreferredMode() {
        let old = mode(640, 480, preferred: true)
        // The display is gone for good: only 800x600.
        XCTAssertTrue(follow(.preferred, current: old, [mode(800, 600, preferred: true)]).map { $0 == (800, 600) } ?? false)
        // Still offers the old one but prefers another (QEMU's virtio-gpu
        // after a host resize): a program started now would show 800x600.
        XCTAssertTrue(follow(.preferred, current: old, [mode(800, 600, preferred: true), mode(640, 480)]).map { $0 == (800, 600) } ?? false)
        // No mode marked preferred: the first, as at start.
        XCTAssertTrue(follow(.preferred, current: old, [mode(1024, 768), mode(640, 480)]).map { $0 == (1024, 768) } ?? false)
    }

    func testSameDisplayBackKeepsItsMode() {
        let old = mode(640, 480, preferred: true)
        XCTAssertNil(follow(.preferred, current: old, [mode(640, 480, preferred: true), mode(800, 600)]))
        // The name and type do not count, the timings do.
        var renamed = mode(640, 480)
        renamed.type = 0
        XCTAssertNil(follow(.preferred, current: old, [renamed]))
        XCTAssertTrue(follow(.preferred, current: old, [mode(640, 480, refresh: 75, preferred: true)]).map { $0 == (640, 480) } ?? false,
                      "the same size at another refresh rate is another mode")
        XCTAssertNil(follow(.preferred, current: old, []), "a connector offering nothing keeps the old mode")
    }

    func testPinnedSizeIsKeptWhileOfferedElseThePreferredMode() {
        let pinned = ModeRequest.size(width: 640, height: 480, refreshMillihertz: nil)
        let old = mode(640, 480)
        XCTAssertNil(follow(pinned, current: old, [mode(1024, 768, preferred: true), mode(640, 480)]))
        XCTAssertTrue(follow(pinned, current: old, [mode(1024, 768, preferred: true), mode(800, 600)]).map { $0 == (1024, 768) } ?? false,
                      "the pinned size is not offered: the display's preferred mode")
    }
}
