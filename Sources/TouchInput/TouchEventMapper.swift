import Seat
import FBRuntime
import Input

/// Turns libinput's events (Input's `InputEvent`: panel pixels,
/// microseconds) into the runtime's `TouchEvent`s (UI points, media-time
/// seconds) through a `DisplayOrientation` — calibration, then the display
/// rotation, the same transform the screen uses.
///
/// Why a module of its own: FBRuntime must not depend on libinput (a
/// display-only program would have to link libinput and libudev) and
/// Input must not depend on FBRuntime (device reading stays a leaf); this
/// is the one place that knows both.
public struct TouchEventMapper: Sendable {
    public var orientation: DisplayOrientation

    public init(orientation: DisplayOrientation) { self.orientation = orientation }

    /// The touch `event` is, or nil for frames, keys, pointer hover and
    /// device events. Ups and cancels carry no location (NaN): the router
    /// keeps the last one.
    public func touchEvent(_ event: InputEvent) -> TouchEvent? {
        switch event {
        case let .touchDown(slot, x, y, time):
            return TouchEvent(id: slot, phase: .began, location: orientation.uiPoint(touchX: x, touchY: y),
                              timestamp: Self.mediaTime(time))
        case let .touchMotion(slot, x, y, time):
            return TouchEvent(id: slot, phase: .moved, location: orientation.uiPoint(touchX: x, touchY: y),
                              timestamp: Self.mediaTime(time))
        case let .touchUp(slot, time):
            return TouchEvent(id: slot, phase: .ended, location: Point(x: .nan, y: .nan), timestamp: Self.mediaTime(time))
        case let .touchCancel(slot, time):
            return TouchEvent(id: slot, phase: .cancelled, location: Point(x: .nan, y: .nan), timestamp: Self.mediaTime(time))
        default:
            return nil
        }
    }

    /// Where a `CursorLayer` goes for `event` (a pointer move: UI points
    /// through the same orientation as touches), or nil for other events.
    public func cursorLocation(_ event: InputEvent) -> Point? {
        guard case let .pointerMoved(x, y, _) = event else { return nil }
        return orientation.uiPoint(touchX: x, touchY: y)
    }

    /// libinput's microseconds of CLOCK_MONOTONIC as media time (seconds of
    /// the same clock).
    public static func mediaTime(_ microseconds: UInt64) -> MediaTime { Double(microseconds) / 1_000_000 }
}

extension InputSeat {
    /// Input for a board's `touch-device` setting: a device node path
    /// (starts with "/") opens just that node through libinput's path
    /// backend, for systems without udevd; anything else (a name
    /// substring, or none) opens udev's "seat0" with every input device.
    /// With `session`, the nodes are opened by its seat manager.
    public static func open(touchDevice: String?, session: SeatSession? = nil) throws(InputError) -> InputSeat {
        if let touchDevice, touchDevice.hasPrefix("/") { return try InputSeat(devicePaths: [touchDevice], session: session) }
        return try InputSeat(seat: session?.name ?? "seat0", session: session)
    }
}
