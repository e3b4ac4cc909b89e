import XCTest
@testable import FBRuntimeKMS

/// The DRM hotplug test of a kernel uevent datagram (`HotplugMonitor`).
final class HotplugMonitorTests: XCTestCase {
    func uevent(_ fields: [String]) -> [UInt8] { fields.flatMap { Array($0.utf8) + [0] } }

    func testHotplugParserFindsDRMHotplugsOnly() {
        let hotplug = uevent(["change@/devices/pci0000:00/0000:00:02.0/virtio0/drm/card0", "ACTION=change",
                              "DEVPATH=/devices/pci0000:00/0000:00:02.0/virtio0/drm/card0", "SUBSYSTEM=drm",
                              "HOTPLUG=1", "DEVNAME=dri/card0", "DEVTYPE=drm_minor", "SEQNUM=1791", "MAJOR=226", "MINOR=0"])
        let cases: [([UInt8], Bool)] = [
            (hotplug, true),
            (Array(hotplug.dropLast()), true),   // no final NUL
            (uevent(["change@/devices/x/drm/card0", "ACTION=change", "SUBSYSTEM=drm", "DEVNAME=dri/card0"]), false),
            (uevent(["add@/devices/virtual/input/input7", "ACTION=add", "SUBSYSTEM=input", "HOTPLUG=1"]), false),
            (uevent(["change@/x", "SUBSYSTEM=drm2", "HOTPLUG=10"]), false),
            (uevent(["libudev", "SUBSYSTEM=drm", "HOTPLUG=1"]), true),
            ([], false),
        ]
        for (message, expected) in cases {
            XCTAssertEqual(message.withUnsafeBytes { HotplugMonitor.isDRMHotplug($0) }, expected,
                           String(decoding: message.map { $0 == 0 ? 0x7C : $0 }, as: UTF8.self))
        }
        // Random bytes: never a crash; a hotplug only if both fields are there.
        var seed: UInt64 = 0xFA017
        for _ in 0..<2000 {
            var bytes: [UInt8] = []
            let n = Int(seed % 200)
            for _ in 0..<n {
                seed = seed &* 6364136223846793005 &+ 1442695040888963407
                bytes.append(seed >> 61 == 0 ? 0 : UInt8(truncatingIfNeeded: seed >> 33))
            }
            let fields = bytes.split(separator: 0, omittingEmptySubsequences: false).map { String(decoding: $0, as: UTF8.self) }
            let expected = fields.contains("SUBSYSTEM=drm") && fields.contains("HOTPLUG=1")
            XCTAssertEqual(bytes.withUnsafeBytes { HotplugMonitor.isDRMHotplug($0) }, expected)
        }
    }
}
