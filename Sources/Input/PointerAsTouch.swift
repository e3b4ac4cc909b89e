/// Turns a pointer (mouse, tablet, QEMU's virtio-tablet) into one touch:
/// the left button down is a touch down at the pointer, motion while it is
/// held is touch motion, its release a touch up; every touch event is
/// followed by a frame, as a touchscreen's would be. Pure logic, no
/// libinput, so it is tested without a device.
///
/// Relative motion moves a position kept inside 0…`width` × 0…`height`
/// (clamped; NaN and infinite deltas are ignored); absolute motion is
/// taken as it is (libinput's transformed coordinates).
struct PointerAsTouch {
    /// The pointer's position, in the coordinates of `InputEvent`.
    private(set) var x = 0.0
    private(set) var y = 0.0
    private(set) var pressed = false
    /// BTN_LEFT in linux/input-event-codes.h.
    static let leftButton: UInt32 = 0x110

    mutating func moved(dx: Double, dy: Double, width: Double, height: Double, time: UInt64,
                        _ emit: (InputEvent) -> Void) {
        guard dx.isFinite, dy.isFinite else { return }
        moved(x: x + dx, y: y + dy, width: width, height: height, time: time, emit)
    }

    mutating func moved(x newX: Double, y newY: Double, width: Double, height: Double, time: UInt64,
                        _ emit: (InputEvent) -> Void) {
        guard newX.isFinite, newY.isFinite else { return }
        x = min(max(newX, 0), max(width, 0))
        y = min(max(newY, 0), max(height, 0))
        emit(.pointerMoved(x: x, y: y, timeMicroseconds: time))
        if pressed {
            emit(.touchMotion(slot: InputEvent.pointerSlot, x: x, y: y, timeMicroseconds: time))
            emit(.touchFrame(timeMicroseconds: time))
        }
    }

    mutating func button(_ code: UInt32, pressed isPressed: Bool, time: UInt64, _ emit: (InputEvent) -> Void) {
        guard code == Self.leftButton, isPressed != pressed else { return }
        pressed = isPressed
        emit(isPressed ? .touchDown(slot: InputEvent.pointerSlot, x: x, y: y, timeMicroseconds: time)
                       : .touchUp(slot: InputEvent.pointerSlot, timeMicroseconds: time))
        emit(.touchFrame(timeMicroseconds: time))
    }

    /// The pointer device went away with the button held.
    mutating func removed(time: UInt64, _ emit: (InputEvent) -> Void) {
        guard pressed else { return }
        pressed = false
        emit(.touchCancel(slot: InputEvent.pointerSlot, timeMicroseconds: time))
        emit(.touchFrame(timeMicroseconds: time))
    }
}
