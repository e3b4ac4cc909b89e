/// One finger's change, in the UI's terms: where (UI points, see
/// `DisplayOrientation`) and when (media time, seconds of the monotonic
/// clock, the time base of animations).
///
/// Device-neutral on purpose: FBRuntime does not depend on the Input
/// module (a display-only program need not link libinput), so whatever
/// reads a device turns its events into these (`TouchInput` does it for
/// libinput), and tests make them by hand.
public struct TouchEvent: Equatable, Sendable {
    public enum Phase: Equatable, Sendable {
        case began, moved, ended, cancelled
    }
    /// Identifies one finger from its `began` to its `ended`/`cancelled`
    /// (libinput's seat slot); may be reused afterwards.
    public var id: Int32
    public var phase: Phase
    /// UI points. Ignored for `ended` and `cancelled` (the last `moved`
    /// location counts); NaN there is fine.
    public var location: Point
    public var timestamp: MediaTime

    public init(id: Int32, phase: Phase, location: Point, timestamp: MediaTime) {
        self.id = id; self.phase = phase; self.location = location; self.timestamp = timestamp
    }
}

/// One finger being tracked: where it began and where it is now.
public struct Touch: Equatable, Sendable {
    public var id: Int32
    /// UI points.
    public var startLocation: Point
    public var location: Point
    public var startTimestamp: MediaTime
    public var timestamp: MediaTime
}
