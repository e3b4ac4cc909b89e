import CInput
import CPosix

/// Why input could not be opened.
public struct InputError: Error, CustomStringConvertible {
    public let description: String
    public init(_ description: String) { self.description = description }
}

/// A touch or pointer event from libinput, in the device's transformed
/// coordinates (0…`width` × 0…`height` of the size given to `dispatch`).
/// Calibration and display rotation are applied later by the runtime.
public enum InputEvent: Equatable, Sendable {
    case touchDown(slot: Int32, x: Double, y: Double, timeMicroseconds: UInt64)
    case touchMotion(slot: Int32, x: Double, y: Double, timeMicroseconds: UInt64)
    case touchUp(slot: Int32, timeMicroseconds: UInt64)
    case touchCancel(slot: Int32, timeMicroseconds: UInt64)
    case touchFrame(timeMicroseconds: UInt64)
    case deviceAdded(name: String)
    case deviceRemoved(name: String)
    case key(code: UInt32, pressed: Bool, timeMicroseconds: UInt64)
}

/// libinput on a udev seat: devices are found and hot-plugged through udev.
/// The file descriptor `fd` goes on the app thread's poll loop; when it is
/// readable, `dispatch` drains the pending events. No thread of its own.
public final class InputSeat {
    private let udev: OpaquePointer
    private let context: OpaquePointer
    /// Readable when events are pending.
    public var fd: Int32 { libinput_get_fd(context) }

    /// Opens `seat` (usually "seat0").
    /// - Throws: `InputError` when udev or libinput cannot be set up or the
    ///   seat cannot be assigned (no udev data, no permission).
    public init(seat: String = "seat0") throws(InputError) {
        guard let u = udev_new() else { throw InputError("udev_new failed") }
        guard let c = libinput_udev_create_context(fbr_input_default_interface(), nil, u) else {
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
    }

    deinit {
        libinput_unref(context)
        udev_unref(udev)
    }

    /// Reads what the kernel has and returns the events, touch coordinates
    /// scaled to `width` × `height` (the display mode size).
    public func dispatch(width: UInt32, height: UInt32) -> [InputEvent] {
        var events: [InputEvent] = []
        _ = libinput_dispatch(context)
        while let event = libinput_get_event(context) {
            defer { libinput_event_destroy(event) }
            let type = libinput_event_get_type(event)
            switch type {
            case LIBINPUT_EVENT_DEVICE_ADDED, LIBINPUT_EVENT_DEVICE_REMOVED:
                let device = libinput_event_get_device(event)
                let name = libinput_device_get_name(device).map { String(cString: $0) } ?? "?"
                events.append(type == LIBINPUT_EVENT_DEVICE_ADDED ? .deviceAdded(name: name) : .deviceRemoved(name: name))
            case LIBINPUT_EVENT_TOUCH_DOWN, LIBINPUT_EVENT_TOUCH_MOTION:
                let t = libinput_event_get_touch_event(event)
                let slot = libinput_event_touch_get_seat_slot(t)
                let x = libinput_event_touch_get_x_transformed(t, width)
                let y = libinput_event_touch_get_y_transformed(t, height)
                let time = libinput_event_touch_get_time_usec(t)
                events.append(type == LIBINPUT_EVENT_TOUCH_DOWN
                              ? .touchDown(slot: slot, x: x, y: y, timeMicroseconds: time)
                              : .touchMotion(slot: slot, x: x, y: y, timeMicroseconds: time))
            case LIBINPUT_EVENT_TOUCH_UP:
                let t = libinput_event_get_touch_event(event)
                events.append(.touchUp(slot: libinput_event_touch_get_seat_slot(t), timeMicroseconds: libinput_event_touch_get_time_usec(t)))
            case LIBINPUT_EVENT_TOUCH_CANCEL:
                let t = libinput_event_get_touch_event(event)
                events.append(.touchCancel(slot: libinput_event_touch_get_seat_slot(t), timeMicroseconds: libinput_event_touch_get_time_usec(t)))
            case LIBINPUT_EVENT_TOUCH_FRAME:
                let t = libinput_event_get_touch_event(event)
                events.append(.touchFrame(timeMicroseconds: libinput_event_touch_get_time_usec(t)))
            case LIBINPUT_EVENT_KEYBOARD_KEY:
                let k = libinput_event_get_keyboard_event(event)
                events.append(.key(code: libinput_event_keyboard_get_key(k),
                                   pressed: libinput_event_keyboard_get_key_state(k) == LIBINPUT_KEY_STATE_PRESSED,
                                   timeMicroseconds: libinput_event_keyboard_get_time_usec(k)))
            default:
                break   // pointer, gesture, tablet events: the touch issue
            }
        }
        return events
    }
}
