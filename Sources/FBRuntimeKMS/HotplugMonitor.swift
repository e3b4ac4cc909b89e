import CPosix
import FBRuntime

/// DRM hotplug events from the kernel: a netlink socket on the kernel's
/// uevent group (what udevd reads; no udevd needed, no privileges).
///
/// The kernel sends `change` on a card with `HOTPLUG=1` when a connector's
/// state may have changed: a cable unplugged or plugged (the driver's
/// hotplug interrupt or connector polling), or a connector's sysfs
/// `status` written, where the driver polls connectors — virtio-gpu and
/// bochs do not, so `KMSPresenter` also reads its connector's state a few
/// times a second. The event does not say which connector or what
/// changed: the presenter probes its connector after it.
///
/// Threading: one thread at a time (the presenter's, the render thread).
/// No allocation after init: `takeDRMHotplug()` reads into a fixed buffer.
public final class HotplugMonitor {
    /// The netlink socket, non-blocking.
    public let fd: Int32
    private let buffer: UnsafeMutableRawBufferPointer

    /// Opens the socket. Fails (with the errno) where netlink is not
    /// allowed (a sandbox without AF_NETLINK): then disconnections are
    /// noticed only by a commit failing.
    public init() throws(KMSError) {
        let fd = fbr_uevent_socket()
        guard fd >= 0 else { throw KMSError(.unsupported, "kernel uevent socket (netlink)", errno: -fd) }
        self.fd = fd
        buffer = UnsafeMutableRawBufferPointer.allocate(byteCount: 8192, alignment: 8)
    }

    deinit {
        System.close(fd)
        buffer.deallocate()
    }

    /// Reads every waiting uevent; true when one of them is a DRM hotplug
    /// (`SUBSYSTEM=drm` with `HOTPLUG=1`). Never blocks.
    public func takeDRMHotplug() -> Bool {
        var found = false
        while true {
            let n = fbr_recv_nonblocking(fd, buffer.baseAddress, buffer.count)
            if n == -Int(EINTR) { continue }
            if n <= 0 { return found }   // -EAGAIN: nothing more; other errors: try next time
            if HotplugMonitor.isDRMHotplug(UnsafeRawBufferPointer(rebasing: buffer[0..<n])) { found = true }
        }
    }

    /// Whether one kernel uevent datagram is a DRM hotplug: NUL-separated
    /// fields, "ACTION@DEVPATH" then "KEY=VALUE"s. Bad or truncated input
    /// is just not a hotplug.
    public static func isDRMHotplug(_ message: UnsafeRawBufferPointer) -> Bool {
        var subsystemDRM = false, hotplug = false
        var start = 0
        while start < message.count {
            var end = start
            while end < message.count && message[end] != 0 { end += 1 }
            let field = UnsafeRawBufferPointer(rebasing: message[start..<end])
            if equals(field, "SUBSYSTEM=drm") { subsystemDRM = true }
            if equals(field, "HOTPLUG=1") { hotplug = true }
            start = end + 1
        }
        return subsystemDRM && hotplug
    }

    private static func equals(_ field: UnsafeRawBufferPointer, _ text: StaticString) -> Bool {
        guard field.count == text.utf8CodeUnitCount else { return false }
        let t = text.utf8Start
        var i = 0
        while i < field.count { if field[i] != t[i] { return false }; i += 1 }
        return true
    }
}
