import CInput
import CPosix
import FBRuntime

/// A multitouch touchscreen made with /dev/uinput: direct (a screen, not
/// a touchpad), `slots` contacts, both axes 0…`axisMaximum` at
/// `resolution` units per mm. Frames are written as a type-B multitouch
/// driver writes them; the kernel stamps the times.
final class VirtualTouchscreen {
    static let axisMaximum: Int32 = 4095
    static let resolution: Int32 = 16
    let fd: Int32
    /// The event node, e.g. /dev/input/event2, and its "major:minor".
    private(set) var node = ""
    private(set) var deviceNumber = ""
    private var currentSlot: Int32 = -1
    private var destroyed = false

    init(name: String, slots: Int32) throws(SystemError) {
        fd = try System.open("/dev/uinput", O_WRONLY | O_NONBLOCK)
        let r = name.withCString { fbr_uinput_create_touchscreen(fd, $0, Self.axisMaximum, Self.axisMaximum, Self.resolution, slots) }
        if r < 0 { System.close(fd); throw SystemError("uinput create", errno: -r) }
        (node, deviceNumber) = try eventNode(ofUinput: fd)
    }

    deinit { destroy() }

    /// Removes the device from the kernel (a touchscreen unplugged).
    func destroy() {
        guard !destroyed else { return }
        destroyed = true
        _ = fbr_uinput_destroy(fd)
        System.close(fd)
    }

    enum Contact {
        case down(slot: Int32, trackingID: Int32, x: Int32, y: Int32)
        case move(slot: Int32, x: Int32, y: Int32)
        case up(slot: Int32)
    }

    /// Writes one hardware frame: the contacts' changes, BTN_TOUCH and the
    /// single-touch axes of the first contact, SYN_REPORT.
    func frame(_ contacts: [Contact], touching: Bool) {
        var first: (Int32, Int32)?
        for c in contacts {
            switch c {
            case let .down(slot, id, x, y):
                select(slot)
                emit(FBR_EV_ABS, FBR_ABS_MT_TRACKING_ID, id)
                emit(FBR_EV_ABS, FBR_ABS_MT_POSITION_X, x)
                emit(FBR_EV_ABS, FBR_ABS_MT_POSITION_Y, y)
                if first == nil { first = (x, y) }
            case let .move(slot, x, y):
                select(slot)
                emit(FBR_EV_ABS, FBR_ABS_MT_POSITION_X, x)
                emit(FBR_EV_ABS, FBR_ABS_MT_POSITION_Y, y)
                if first == nil { first = (x, y) }
            case let .up(slot):
                select(slot)
                emit(FBR_EV_ABS, FBR_ABS_MT_TRACKING_ID, -1)
            }
        }
        emit(FBR_EV_KEY, FBR_BTN_TOUCH, touching ? 1 : 0)
        if let (x, y) = first {
            emit(FBR_EV_ABS, FBR_ABS_X, x)
            emit(FBR_EV_ABS, FBR_ABS_Y, y)
        }
        emit(FBR_EV_SYN, FBR_SYN_REPORT, 0)
    }

    private func select(_ slot: Int32) {
        guard slot != currentSlot else { return }
        currentSlot = slot
        emit(FBR_EV_ABS, FBR_ABS_MT_SLOT, slot)
    }

    private func emit(_ type: Int32, _ code: Int32, _ value: Int32) {
        let r = fbr_uinput_emit(fd, type, code, value)
        if r < 0 { print("touchprobe: uinput write failed: errno \(-r)") }
    }
}

/// The event node (/dev/input/eventN) of the uinput device `fd` made and
/// its "major:minor", from sysfs.
func eventNode(ofUinput fd: Int32) throws(SystemError) -> (node: String, deviceNumber: String) {
    var buffer = [CChar](repeating: 0, count: 64)
    let s = fbr_uinput_sysname(fd, &buffer, 64)
    if s < 0 { throw SystemError("UI_GET_SYSNAME", errno: -s) }
    let sysname = buffer.withUnsafeBufferPointer { String(cString: $0.baseAddress!) }
    // The event node is a child of the input device in sysfs: eventN.
    for n in 0..<256 where System.exists("/sys/class/input/\(sysname)/event\(n)/dev") {
        let bytes = (try? System.readFile("/sys/class/input/\(sysname)/event\(n)/dev", limit: 64)) ?? []
        return ("/dev/input/event\(n)", String(decoding: bytes.filter { $0 != 0x0A }, as: UTF8.self))
    }
    throw SystemError("no event node under /sys/class/input/\(sysname)", errno: 2)
}

/// Appliance buttons made with /dev/uinput: a device with only `codes`.
final class VirtualKeys {
    let fd: Int32
    let node: String
    let deviceNumber: String

    init(name: String, codes: [Int32]) throws(SystemError) {
        let handle = try System.open("/dev/uinput", O_WRONLY | O_NONBLOCK)
        let r = name.withCString { n in codes.withUnsafeBufferPointer { fbr_uinput_create_keys(handle, n, $0.baseAddress, UInt32($0.count)) } }
        if r < 0 { System.close(handle); throw SystemError("uinput create", errno: -r) }
        do { (node, deviceNumber) = try eventNode(ofUinput: handle) } catch { _ = fbr_uinput_destroy(handle); System.close(handle); throw error }
        fd = handle
    }

    /// Presses (`true`) or releases a key, one report.
    func key(_ code: Int32, pressed: Bool) {
        _ = fbr_uinput_emit(fd, FBR_EV_KEY, code, pressed ? 1 : 0)
        _ = fbr_uinput_emit(fd, FBR_EV_SYN, FBR_SYN_REPORT, 0)
    }

    /// Unplugs it.
    func destroy() {
        _ = fbr_uinput_destroy(fd)
        System.close(fd)
    }
}
