import CPosix

/// Why a presenter could not put a frame on screen, or its flip did not
/// complete: the render loop's view of a display failure, the same for
/// every backend. KMS maps its own `KMSError` onto it where it leaves
/// `KMSPresenter`; fbdev, the simulator window and the test doubles throw
/// it directly.
///
/// `RenderLoop` acts on `kind` alone: `.busy` drops the frame and draws it
/// again one period later; `.masterLost` and `.displayLost` suspend
/// rendering until `FramePresenter.ensureAccess()` says the display is
/// back; `.timedOut` and `.failed` end the loop (`RenderLoop.error`).
public struct PresentError: Error, CustomStringConvertible, Equatable, Sendable {
    public enum Kind: Equatable, Sendable {
        /// The display was busy (EBUSY from a flip): nothing was queued and
        /// the buffer is free again; try next frame.
        case busy
        /// Another process holds the display (EACCES or EPERM from a
        /// commit: DRM master taken by a VT switch or a second compositor):
        /// nothing was queued; the presenter asks for the display again.
        case masterLost
        /// The presenter has stopped using the display until it recovers
        /// (its connector unplugged, or a failed commit to be retried as a
        /// modeset): nothing was queued, the last good frame stays on
        /// screen. Not an error that ends the render loop.
        case displayLost
        /// A flip event did not arrive in time.
        case timedOut
        /// Anything else: a call failed (`errno` says why), a mode or format
        /// the display refuses, a device that cannot be opened.
        case failed
    }

    public let kind: Kind
    /// What was attempted, for logs.
    public let message: String
    /// The errno of the failed call; 0 when there was none.
    public let errno: Int32

    public init(_ kind: Kind, _ message: String, errno: Int32 = 0) {
        self.kind = kind; self.message = message; self.errno = errno
    }

    /// `message`, then the errno and its text when there is one.
    public var description: String { System.describe(message, errno: errno) }

    /// A failed call by its errno: `.busy` for EBUSY, `.masterLost` for
    /// EACCES or EPERM (the display is someone else's), else `.failed`.
    public static func call(_ message: String, errno: Int32) -> PresentError {
        let kind: Kind = errno == EBUSY ? .busy : (errno == EACCES || errno == EPERM ? .masterLost : .failed)
        return PresentError(kind, message, errno: errno)
    }
}
