/// What a device can do, from libinput's capabilities.
public struct DeviceCapabilities: OptionSet, Equatable, Sendable {
    public let rawValue: UInt8
    public init(rawValue: UInt8) { self.rawValue = rawValue }
    public static let keyboard = DeviceCapabilities(rawValue: 1 << 0)
    public static let pointer = DeviceCapabilities(rawValue: 1 << 1)
    public static let touch = DeviceCapabilities(rawValue: 1 << 2)
}

/// One event from libinput, in device terms: no calibration, no display
/// rotation, no layers (the runtime adds those; see FBRuntime's
/// `DisplayOrientation` and `TouchRouter`).
///
/// Positions are libinput's *transformed* coordinates: 0…`width` ×
/// 0…`height` of the size given to `InputSeat.dispatch` (the display mode
/// size, pixels, in the panel's own unrotated orientation). Times are
/// libinput's, microseconds of CLOCK_MONOTONIC (the runtime's media-time
/// clock, in other units).
///
/// Touch slots are libinput *seat* slots: unique across every touch device
/// of the context, ≥ 0, reused after an up or cancel. A pointer device
/// acts as one more touch with slot `InputEvent.pointerSlot` while its left
/// button is held.
public enum InputEvent: Equatable, Sendable {
    case touchDown(slot: Int32, x: Double, y: Double, timeMicroseconds: UInt64)
    case touchMotion(slot: Int32, x: Double, y: Double, timeMicroseconds: UInt64)
    case touchUp(slot: Int32, timeMicroseconds: UInt64)
    case touchCancel(slot: Int32, timeMicroseconds: UInt64)
    /// The end of one hardware frame: the touch events before it happened
    /// together (two fingers of a pinch move in the same frame).
    case touchFrame(timeMicroseconds: UInt64)
    /// Where a pointer is, button held or not (for a cursor layer), in the
    /// same coordinates as touches.
    case pointerMoved(x: Double, y: Double, timeMicroseconds: UInt64)
    /// `node` is the kernel's name for the device node ("event3").
    case deviceAdded(name: String, node: String, capabilities: DeviceCapabilities)
    /// The device is gone (unplugged, or its node failed): libinput has
    /// already cancelled its touches (`touchCancel` events came first).
    case deviceRemoved(name: String, node: String)
    /// A key of a keyboard or an appliance button; `code` is the kernel's
    /// KEY_* code (linux/input-event-codes.h).
    case key(code: UInt32, pressed: Bool, timeMicroseconds: UInt64)
    /// A wheel turned: a mouse wheel, or a rotary encoder that the kernel
    /// reports as one (`rotary-encoder` with `REL_WHEEL`). In detents (one
    /// click of a wheel is 1; high-resolution wheels send fractions),
    /// positive is down (vertical) and right (horizontal), as libinput.
    case wheel(horizontal: Double, vertical: Double, timeMicroseconds: UInt64)

    /// The slot of a pointer device acting as a touch: above any seat slot
    /// libinput hands out (those count up from 0 with the touches down).
    public static let pointerSlot: Int32 = 0x10000
}
