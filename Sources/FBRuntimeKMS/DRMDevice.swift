import CDRM
import CPosix
import FBRuntime
import Seat

/// A failed step of the KMS backend: what was attempted, why, and the
/// errno where a call failed. The render loop never sees one:
/// `KMSPresenter` throws `PresentError` (`PresentError.init(_:)`).
public struct KMSError: Error, CustomStringConvertible, Equatable {
    public enum Kind: Equatable, Sendable {
        /// No device, connector, CRTC or mode fits what was asked for.
        case notFound
        /// The device lacks something required (dumb buffers, DRM master).
        case unsupported
        /// A DRM call failed; `errno` says why.
        case callFailed
        /// The device is busy (EBUSY from a flip): try again next frame.
        case busy
        /// An event did not arrive in time.
        case timedOut
        /// This process is not DRM master (EACCES or EPERM from a commit):
        /// another process (a VT switch, a second compositor) took the
        /// display. The presenter waits and asks for master again.
        case masterLost
    }
    public let kind: Kind
    public let message: String
    public let errno: Int32

    public init(_ kind: Kind, _ message: String, errno: Int32 = 0) {
        self.kind = kind; self.message = message; self.errno = errno
    }

    public var description: String { System.describe(message, errno: errno) }

    /// A failed call: `.busy` when the errno is EBUSY, `.masterLost` when
    /// it is EACCES or EPERM (the ioctls that need DRM master), else
    /// `.callFailed`.
    public static func call(_ message: String, errno: Int32) -> KMSError {
        let kind: Kind = errno == EBUSY ? .busy : (errno == EACCES || errno == EPERM ? .masterLost : .callFailed)
        return KMSError(kind, message, errno: errno)
    }
}

extension PresentError {
    /// `error` in the render loop's terms, where it leaves `KMSPresenter`:
    /// `.busy`, `.masterLost` and `.timedOut` as they are, everything else
    /// (`.notFound`, `.unsupported`, `.callFailed`) `.failed`; the message
    /// and errno kept. (`.displayLost` is the presenter's own verdict on a
    /// failed commit, never a `KMSError`.)
    public init(_ error: KMSError) {
        let kind: Kind
        switch error.kind {
        case .busy: kind = .busy
        case .masterLost: kind = .masterLost
        case .timedOut: kind = .timedOut
        case .notFound, .unsupported, .callFailed: kind = .failed
        }
        self.init(kind, error.message, errno: error.errno)
    }
}

/// libdrm reports failure either as -1 with errno set (drmIoctl and the
/// calls that return it directly) or as -errno (the calls built on its
/// DRM_IOCTL macro). Both become an errno here; 0 means success.
@inline(__always)
func drmErrno(_ result: Int32) -> Int32 {
    if result >= 0 { return 0 }
    return result == -1 ? fbr_errno() : -result
}

/// A fixed-size C char array (a tuple) as a String, up to its first NUL.
func stringFromCArray<T>(_ tuple: T) -> String {
    withUnsafeBytes(of: tuple) { raw in
        let bytes = raw.bindMemory(to: UInt8.self)
        let end = bytes.firstIndex(of: 0) ?? bytes.count
        return String(decoding: bytes[0..<end], as: UTF8.self)
    }
}

/// An open DRM primary node (/dev/dri/cardN) on which this process is DRM
/// master, with the capabilities the backend cares about.
///
/// The descriptor stays open for the device's lifetime: closing it drops
/// master and the kernel gives the screen back to the console. Buffers and
/// outputs hold a strong reference to their device for that reason.
/// Not thread-safe: use a device from one thread at a time (the render
/// thread, once the loop runs).
///
/// Opened through a `SeatSession`, the seat manager opens the node (no
/// `video` group needed) and gives and takes DRM master itself on the
/// seat's enable and disable; `KMSPresenter` follows the seat's events.
public final class DRMDevice {
    public let fd: Int32
    public let path: String
    /// The seat manager that opened the device, or nil (opened directly).
    public let seat: SeatSession?
    private let seatDeviceID: Int32
    /// The kernel driver's name ("virtio_gpu", "bochs-drm", "vc4", "tilcdc").
    public let driverName: String
    /// DRM_CAP_DUMB_BUFFER: CPU-mapped scan-out buffers are available.
    public let supportsDumbBuffers: Bool
    /// The driver accepted DRM_CLIENT_CAP_ATOMIC (probed, then left off
    /// until `enableAtomic()`: the legacy path needs nothing).
    public let supportsAtomic: Bool
    /// True once `enableAtomic()` succeeded: the universal-planes and
    /// atomic client capabilities are on for this descriptor.
    public private(set) var atomicEnabled = false

    /// Opens `path` read-write and checks it is a KMS device with dumb
    /// buffers on which we are (or can become) DRM master. With
    /// `requireMaster` false, a device another process is master of opens
    /// too (`acquireMaster()` later; kmsprobe --take-master). With `seat`,
    /// the seat manager opens it (and makes us master while the seat is
    /// enabled).
    public init(path: String, requireMaster: Bool = true, seat: SeatSession? = nil) throws(KMSError) {
        let (fd, seatDeviceID) = try DRMDevice.openNode(path, seat: seat)
        var ok = false
        defer { if !ok { DRMDevice.closeNode(fd, seatDeviceID: seatDeviceID, seat: seat) } }

        var name = "?"
        if let version = drmGetVersion(fd) {
            name = version.pointee.name.map { String(cString: $0) } ?? "?"
            drmFreeVersion(version)
        }
        var dumb: UInt64 = 0
        guard drmGetCap(fd, UInt64(DRM_CAP_DUMB_BUFFER), &dumb) == 0, dumb != 0 else {
            throw KMSError(.unsupported, "\(path) (\(name)) has no dumb buffers")
        }
        // The first process to open a primary node becomes master on its
        // own; otherwise ask (it fails while a compositor holds it).
        if requireMaster && drmIsMaster(fd) == 0 && drmSetMaster(fd) != 0 {
            throw KMSError(.unsupported, "\(path): cannot become DRM master (is another compositor running?)", errno: fbr_errno())
        }
        let atomic = drmSetClientCap(fd, UInt64(DRM_CLIENT_CAP_ATOMIC), 1) == 0
        if atomic { _ = drmSetClientCap(fd, UInt64(DRM_CLIENT_CAP_ATOMIC), 0) }

        self.fd = fd
        self.path = path
        self.seat = seat
        self.seatDeviceID = seatDeviceID
        self.driverName = name
        self.supportsDumbBuffers = true
        self.supportsAtomic = atomic
        ok = true
    }

    deinit { DRMDevice.closeNode(fd, seatDeviceID: seatDeviceID, seat: seat) }

    /// Opens the node `path` read-write: through `seat`'s manager when
    /// given (its device id, for `closeNode`), else directly (id -1).
    private static func openNode(_ path: String, seat: SeatSession?) throws(KMSError) -> (fd: Int32, seatDeviceID: Int32) {
        guard let seat else {
            let fd = path.withCString { fbr_open($0, O_RDWR) }
            guard fd >= 0 else { throw KMSError(.notFound, "open \(path)", errno: fbr_errno()) }
            return (fd, -1)
        }
        do throws(SeatDeviceError) {
            let opened = try seat.openDevice(path)
            return (opened.fd, opened.deviceID)
        } catch {
            throw KMSError(.notFound, "open \(path) through the seat (\(seat.backend))", errno: error.errno)
        }
    }

    /// Closes what `openNode` opened (the seat manager's device first).
    private static func closeNode(_ fd: Int32, seatDeviceID: Int32, seat: SeatSession?) {
        if seatDeviceID >= 0 { seat?.closeDevice(seatDeviceID) }
        _ = close(fd)
    }

    /// Turns on DRM_CLIENT_CAP_UNIVERSAL_PLANES and DRM_CLIENT_CAP_ATOMIC
    /// (so primary planes are listed and atomic commits accepted). Returns
    /// false, leaving both off, where the driver refuses either.
    public func enableAtomic() -> Bool {
        if atomicEnabled { return true }
        guard drmSetClientCap(fd, UInt64(DRM_CLIENT_CAP_UNIVERSAL_PLANES), 1) == 0 else { return false }
        guard drmSetClientCap(fd, UInt64(DRM_CLIENT_CAP_ATOMIC), 1) == 0 else {
            _ = drmSetClientCap(fd, UInt64(DRM_CLIENT_CAP_UNIVERSAL_PLANES), 0)
            return false
        }
        atomicEnabled = true
        return true
    }

    /// True while this descriptor is the device's DRM master.
    public var isMaster: Bool { drmIsMaster(fd) != 0 }

    /// Asks to become DRM master again (after a VT switch, or once another
    /// process gave it up). Fails with `.masterLost` (EBUSY: someone else
    /// holds it; EACCES/EPERM: not allowed) without side effects.
    public func acquireMaster() throws(KMSError) {
        if drmIsMaster(fd) != 0 { return }
        if drmSetMaster(fd) != 0 {
            throw KMSError(.masterLost, "drmSetMaster on \(path)", errno: fbr_errno())
        }
    }

    /// Gives up DRM master (a VT switch away; tests). Our framebuffers
    /// stay; another process may now take the display.
    public func dropMaster() throws(KMSError) {
        if drmIsMaster(fd) == 0 { return }
        if drmDropMaster(fd) != 0 {
            throw KMSError(.callFailed, "drmDropMaster on \(path)", errno: fbr_errno())
        }
    }

    /// The primary nodes that exist, /dev/dri/card0 … card15.
    public static func cardPaths() -> [String] {
        var paths: [String] = []
        for i in 0..<16 where System.exists("/dev/dri/card\(i)") { paths.append("/dev/dri/card\(i)") }
        return paths
    }

    /// The /dev/dri/card* nodes this process cannot open, with the errno
    /// (`EACCES`: the user lacks the `video` group or a seat).
    public static func unopenableCards() -> [(path: String, errno: Int32)] {
        var result: [(path: String, errno: Int32)] = []
        for path in cardPaths() {
            let fd = path.withCString { fbr_open($0, O_RDWR) }
            if fd < 0 { result.append((path, fbr_errno())) } else { _ = close(fd) }
        }
        return result
    }

    /// True when some /dev/dri/card* has a connected connector with a
    /// mode. Opens each card only to read its resources (no DRM master
    /// needed), and closes it; with `seat`, through its seat manager.
    public static func hasConnectedCard(seat: SeatSession? = nil) -> Bool {
        for path in cardPaths() {
            guard let (fd, deviceID) = try? openNode(path, seat: seat) else { continue }
            defer { closeNode(fd, seatDeviceID: deviceID, seat: seat) }
            guard let resources = drmModeGetResources(fd) else { continue }
            defer { drmModeFreeResources(resources) }
            for i in 0..<Int(resources.pointee.count_connectors) {
                guard let c = drmModeGetConnector(fd, resources.pointee.connectors[i]) else { continue }
                defer { drmModeFreeConnector(c) }
                if c.pointee.connection == DRM_MODE_CONNECTED && c.pointee.count_modes > 0 { return true }
            }
        }
        return false
    }

    /// Opens the first card that has a connected connector with a mode
    /// (a board with a GPU render node and a separate display controller
    /// lists both as cards; only the display one has connectors). With
    /// `seat`, through its seat manager.
    public static func openFirstConnected(seat: SeatSession? = nil) throws(KMSError) -> DRMDevice {
        var lastError = KMSError(.notFound, "no DRM device (/dev/dri/card*)")
        for path in cardPaths() {
            do {
                let device = try DRMDevice(path: path, seat: seat)
                if device.hasConnectedConnector() { return device }
                lastError = KMSError(.notFound, "\(path) (\(device.driverName)) has no connected connector")
            } catch {
                lastError = error
            }
        }
        throw lastError
    }

    func hasConnectedConnector() -> Bool {
        guard let resources = drmModeGetResources(fd) else { return false }
        defer { drmModeFreeResources(resources) }
        for i in 0..<Int(resources.pointee.count_connectors) {
            guard let c = drmModeGetConnector(fd, resources.pointee.connectors[i]) else { continue }
            defer { drmModeFreeConnector(c) }
            if c.pointee.connection == DRM_MODE_CONNECTED && c.pointee.count_modes > 0 { return true }
        }
        return false
    }
}
