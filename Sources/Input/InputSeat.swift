import CInput
import CPosix
import CSeat
import Seat

/// libinput's device opening through the seat manager (CSeat keeps each
/// descriptor's libseat device id for the close). Made once, never freed:
/// libinput keeps the pointer for the context's lifetime; nothing writes it
/// after it is made.
nonisolated(unsafe) private let seatInterface: UnsafeMutablePointer<libinput_interface> = {
    let interface = UnsafeMutablePointer<libinput_interface>.allocate(capacity: 1)
    interface.initialize(to: libinput_interface(open_restricted: fbr_seat_open_restricted,
                                                close_restricted: fbr_seat_close_restricted))
    return interface
}()

/// Why input could not be opened.
public struct InputError: Error, CustomStringConvertible {
    public let description: String
    public init(_ description: String) { self.description = description }
}

/// One libinput context, from either of libinput's two backends:
///
/// - **udev seat** (`init(seat:)`): devices are found and hot-plugged
///   through udev. Needs udevd to have initialised the devices (libinput
///   ignores a device whose udev database entry is missing).
/// - **path** (`init(devicePaths:)`): the device nodes given, opened
///   directly, for systems without udevd (a busybox initramfs, a minimal
///   board image). Hotplug is the caller's: `addDevice(path:)` when a node
///   appears; a node that goes away is removed by libinput itself
///   (`deviceRemoved`, after its touches are cancelled), not a crash.
///
/// Threading: one thread (the app thread). `fd` goes on that thread's poll
/// loop; when it is readable, `dispatch` drains the pending events. No
/// thread of its own.
public final class InputSeat {
    private let udev: OpaquePointer?
    private let context: OpaquePointer
    /// The seat manager the devices were opened through (kept open while
    /// the context lives).
    private let session: SeatSession?
    private var pointer = PointerAsTouch()
    /// Readable when events are pending.
    public var fd: Int32 { libinput_get_fd(context) }

    /// Opens `seat` (usually "seat0") through udev. With `session`, the
    /// device nodes are opened by its seat manager (no `input` group
    /// needed); without, directly.
    /// - Throws: `InputError` when udev or libinput cannot be set up or the
    ///   seat cannot be assigned (no udev data, no permission).
    public init(seat: String = "seat0", session: SeatSession? = nil) throws(InputError) {
        guard let u = udev_new() else { throw InputError("udev_new failed") }
        let interface = session == nil ? fbr_input_default_interface() : UnsafePointer(seatInterface)
        guard let c = libinput_udev_create_context(interface, nil, u) else {
            udev_unref(u)
            throw InputError("libinput_udev_create_context failed")
        }
        if seat.withCString({ libinput_udev_assign_seat(c, $0) }) != 0 {
            libinput_unref(c)
            udev_unref(u)
            throw InputError("libinput_udev_assign_seat(\(seat)) failed")
        }
        udev = u
        context = c
        self.session = session
    }

    /// Opens the device nodes `devicePaths` (e.g. "/dev/input/event0")
    /// through libinput's path backend. An empty list is allowed: add
    /// devices later with `addDevice(path:)`.
    /// - Throws: `InputError` when the context cannot be made or a node
    ///   cannot be opened (missing, no permission, not an input device).
    /// With `session`, the nodes are opened by its seat manager.
    public init(devicePaths: [String], session: SeatSession? = nil) throws(InputError) {
        let interface = session == nil ? fbr_input_default_interface() : UnsafePointer(seatInterface)
        guard let c = libinput_path_create_context(interface, nil) else {
            throw InputError("libinput_path_create_context failed")
        }
        udev = nil
        context = c
        self.session = session
        for path in devicePaths { try addDevice(path: path) }
    }

    deinit {
        libinput_unref(context)
        if let udev { udev_unref(udev) }
    }

    /// Closes every device (the seat was disabled: its seat manager revokes
    /// them). Touches in progress end as the devices go.
    public func suspend() { libinput_suspend(context) }

    /// Opens the devices again after `suspend()` (the seat is back).
    /// Returns false when libinput could not.
    @discardableResult
    public func resume() -> Bool { libinput_resume(context) == 0 }

    /// True for a context made by `init(devicePaths:)`.
    public var isPathBackend: Bool { udev == nil }

    /// Adds a device node to a path-backend context. Its `deviceAdded`
    /// event comes with the next `dispatch`.
    /// - Throws: `InputError` for a udev-seat context, or when libinput
    ///   cannot open the node or does not handle it.
    public func addDevice(path: String) throws(InputError) {
        guard isPathBackend else { throw InputError("addDevice(path:) needs the path backend (init(devicePaths:))") }
        if path.withCString({ libinput_path_add_device(context, $0) }) == nil {
            throw InputError("libinput_path_add_device(\(path)) failed (missing, no permission or not an input device)")
        }
    }

    /// Reads what the kernel has and passes each event to `handle`, in
    /// order: touch coordinates scaled to `width` × `height` (the display
    /// mode size, pixels). Allocates nothing for touch, pointer and key
    /// events (device names are copied into Strings).
    public func dispatch(width: UInt32, height: UInt32, _ handle: (InputEvent) -> Void) {
        _ = libinput_dispatch(context)
        while let event = libinput_get_event(context) {
            translate(event, width: width, height: height, handle)
            libinput_event_destroy(event)
        }
    }

    /// `dispatch(width:height:_:)` collecting the events into an array.
    public func dispatch(width: UInt32, height: UInt32) -> [InputEvent] {
        var events: [InputEvent] = []
        dispatch(width: width, height: height) { events.append($0) }
        return events
    }

    private func translate(_ event: OpaquePointer, width: UInt32, height: UInt32, _ emit: (InputEvent) -> Void) {
        let type = libinput_event_get_type(event)
        switch type {
        case LIBINPUT_EVENT_DEVICE_ADDED, LIBINPUT_EVENT_DEVICE_REMOVED:
            let device = libinput_event_get_device(event)
            let name = libinput_device_get_name(device).map { String(cString: $0) } ?? "?"
            let node = libinput_device_get_sysname(device).map { String(cString: $0) } ?? "?"
            if type == LIBINPUT_EVENT_DEVICE_ADDED {
                var capabilities: DeviceCapabilities = []
                if libinput_device_has_capability(device, LIBINPUT_DEVICE_CAP_KEYBOARD) != 0 { capabilities.insert(.keyboard) }
                if libinput_device_has_capability(device, LIBINPUT_DEVICE_CAP_POINTER) != 0 { capabilities.insert(.pointer) }
                if libinput_device_has_capability(device, LIBINPUT_DEVICE_CAP_TOUCH) != 0 { capabilities.insert(.touch) }
                emit(.deviceAdded(name: name, node: node, capabilities: capabilities))
            } else {
                if libinput_device_has_capability(device, LIBINPUT_DEVICE_CAP_POINTER) != 0 {
                    pointer.removed(time: UInt64(max(0, fbr_monotonic_ns() / 1000)), emit)
                }
                emit(.deviceRemoved(name: name, node: node))
            }
        case LIBINPUT_EVENT_TOUCH_DOWN, LIBINPUT_EVENT_TOUCH_MOTION:
            let t = libinput_event_get_touch_event(event)
            let slot = libinput_event_touch_get_seat_slot(t)
            let x = libinput_event_touch_get_x_transformed(t, width)
            let y = libinput_event_touch_get_y_transformed(t, height)
            let time = libinput_event_touch_get_time_usec(t)
            emit(type == LIBINPUT_EVENT_TOUCH_DOWN
                 ? .touchDown(slot: slot, x: x, y: y, timeMicroseconds: time)
                 : .touchMotion(slot: slot, x: x, y: y, timeMicroseconds: time))
        case LIBINPUT_EVENT_TOUCH_UP:
            let t = libinput_event_get_touch_event(event)
            emit(.touchUp(slot: libinput_event_touch_get_seat_slot(t), timeMicroseconds: libinput_event_touch_get_time_usec(t)))
        case LIBINPUT_EVENT_TOUCH_CANCEL:
            let t = libinput_event_get_touch_event(event)
            emit(.touchCancel(slot: libinput_event_touch_get_seat_slot(t), timeMicroseconds: libinput_event_touch_get_time_usec(t)))
        case LIBINPUT_EVENT_TOUCH_FRAME:
            let t = libinput_event_get_touch_event(event)
            emit(.touchFrame(timeMicroseconds: libinput_event_touch_get_time_usec(t)))
        case LIBINPUT_EVENT_POINTER_MOTION:
            let p = libinput_event_get_pointer_event(event)
            pointer.moved(dx: libinput_event_pointer_get_dx(p), dy: libinput_event_pointer_get_dy(p),
                          width: Double(width), height: Double(height),
                          time: libinput_event_pointer_get_time_usec(p), emit)
        case LIBINPUT_EVENT_POINTER_MOTION_ABSOLUTE:
            let p = libinput_event_get_pointer_event(event)
            pointer.moved(x: libinput_event_pointer_get_absolute_x_transformed(p, width),
                          y: libinput_event_pointer_get_absolute_y_transformed(p, height),
                          width: Double(width), height: Double(height),
                          time: libinput_event_pointer_get_time_usec(p), emit)
        case LIBINPUT_EVENT_POINTER_BUTTON:
            let p = libinput_event_get_pointer_event(event)
            pointer.button(libinput_event_pointer_get_button(p),
                           pressed: libinput_event_pointer_get_button_state(p) == LIBINPUT_BUTTON_STATE_PRESSED,
                           time: libinput_event_pointer_get_time_usec(p), emit)
        case LIBINPUT_EVENT_KEYBOARD_KEY:
            let k = libinput_event_get_keyboard_event(event)
            emit(.key(code: libinput_event_keyboard_get_key(k),
                      pressed: libinput_event_keyboard_get_key_state(k) == LIBINPUT_KEY_STATE_PRESSED,
                      timeMicroseconds: libinput_event_keyboard_get_time_usec(k)))
        case LIBINPUT_EVENT_POINTER_SCROLL_WHEEL:
            // Detents from libinput's v120 values (120 a click).
            let p = libinput_event_get_pointer_event(event)
            var h = 0.0, v = 0.0
            if libinput_event_pointer_has_axis(p, LIBINPUT_POINTER_AXIS_SCROLL_HORIZONTAL) != 0 {
                h = libinput_event_pointer_get_scroll_value_v120(p, LIBINPUT_POINTER_AXIS_SCROLL_HORIZONTAL) / 120
            }
            if libinput_event_pointer_has_axis(p, LIBINPUT_POINTER_AXIS_SCROLL_VERTICAL) != 0 {
                v = libinput_event_pointer_get_scroll_value_v120(p, LIBINPUT_POINTER_AXIS_SCROLL_VERTICAL) / 120
            }
            emit(.wheel(horizontal: h, vertical: v, timeMicroseconds: libinput_event_pointer_get_time_usec(p)))
        default:
            break   // finger and continuous scroll, gesture (touchpad), tablet, switch events: not used yet
        }
    }
}
