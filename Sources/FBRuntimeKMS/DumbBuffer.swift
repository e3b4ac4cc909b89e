import CDRM
import CPosix
import FBRuntime
import Raster

extension ScanoutFormat {
    /// The DRM fourcc code of the format (AddFB2).
    var fourcc: UInt32 { self == .xrgb8888 ? fbr_drm_format_xrgb8888() : fbr_drm_format_rgb565() }
}

/// A CPU-mapped scan-out buffer: a dumb buffer object, the shared mapping
/// of its pages and a framebuffer (AddFB2) that wraps it.
///
/// The mapping may be write-combined or uncached on real hardware (reads
/// are very slow): write it in rows, never read it back, and render
/// elsewhere first (STYLE.md, "scan-out memory").
public final class DumbBuffer {
    /// Strong: the device must stay open until the buffer is destroyed.
    public let device: DRMDevice
    public let width: Int
    public let height: Int
    public let format: ScanoutFormat
    /// Bytes per row, as the kernel chose it (at least width × bpp).
    public let pitch: Int
    public let size: Int
    public let handle: UInt32
    public private(set) var framebufferID: UInt32 = 0
    public let pixels: UnsafeMutableRawPointer

    public init(device: DRMDevice, width: Int, height: Int, format: ScanoutFormat) throws(KMSError) {
        self.device = device
        self.width = width
        self.height = height
        self.format = format
        let fd = device.fd

        var create = drm_mode_create_dumb()
        create.width = UInt32(width)
        create.height = UInt32(height)
        create.bpp = UInt32(format.bytesPerPixel * 8)
        guard drmIoctl(fd, fbr_drm_ioctl_mode_create_dumb(), &create) == 0 else {
            throw KMSError.call("DRM_IOCTL_MODE_CREATE_DUMB \(width)x\(height) \(format.name)", errno: fbr_errno())
        }
        handle = create.handle
        pitch = Int(create.pitch)
        size = Int(create.size)

        var map = drm_mode_map_dumb()
        map.handle = handle
        guard drmIoctl(fd, fbr_drm_ioctl_mode_map_dumb(), &map) == 0 else {
            let e = fbr_errno()
            DumbBuffer.destroy(fd, handle)
            throw KMSError.call("DRM_IOCTL_MODE_MAP_DUMB", errno: e)
        }
        guard let mapped = fbr_mmap_shared(fd, size, Int64(bitPattern: map.offset)) else {
            let e = fbr_errno()
            DumbBuffer.destroy(fd, handle)
            throw KMSError.call("mmap of a \(size)-byte dumb buffer", errno: e)
        }
        pixels = mapped

        var handles: (UInt32, UInt32, UInt32, UInt32) = (handle, 0, 0, 0)
        var pitches: (UInt32, UInt32, UInt32, UInt32) = (UInt32(pitch), 0, 0, 0)
        var offsets: (UInt32, UInt32, UInt32, UInt32) = (0, 0, 0, 0)
        var fb: UInt32 = 0
        let r = withUnsafePointer(to: &handles) { h in
            withUnsafePointer(to: &pitches) { p in
                withUnsafePointer(to: &offsets) { o in
                    drmModeAddFB2(fd, UInt32(width), UInt32(height), format.fourcc,
                                  UnsafeRawPointer(h).assumingMemoryBound(to: UInt32.self),
                                  UnsafeRawPointer(p).assumingMemoryBound(to: UInt32.self),
                                  UnsafeRawPointer(o).assumingMemoryBound(to: UInt32.self), &fb, 0)
                }
            }
        }
        guard r == 0 else {
            let e = drmErrno(r)
            _ = munmap(mapped, size)
            DumbBuffer.destroy(fd, handle)
            throw KMSError.call("drmModeAddFB2 \(format.name) \(width)x\(height)", errno: e)
        }
        framebufferID = fb
    }

    deinit {
        if framebufferID != 0 { _ = drmModeRmFB(device.fd, framebufferID) }
        _ = munmap(pixels, size)
        DumbBuffer.destroy(device.fd, handle)
    }

    private static func destroy(_ fd: Int32, _ handle: UInt32) {
        var destroy = drm_mode_destroy_dumb()
        destroy.handle = handle
        _ = drmIoctl(fd, fbr_drm_ioctl_mode_destroy_dumb(), &destroy)
    }

    /// The mapping as XRGB8888 pixels (`format` must be `.xrgb8888`).
    /// No owner: the buffer must outlive the view.
    public var xrgbView: PixelView<XRGB8888> {
        precondition(format == .xrgb8888)
        return PixelView(base: pixels.assumingMemoryBound(to: UInt32.self), width: width, height: height,
                         rowStride: pitch / 4, owner: nil)
    }

    /// The mapping as RGB565 pixels (`format` must be `.rgb565`).
    public var rgb565View: PixelView<RGB565> {
        precondition(format == .rgb565)
        return PixelView(base: pixels.assumingMemoryBound(to: UInt16.self), width: width, height: height,
                         rowStride: pitch / 2, owner: nil)
    }

    /// Tells the driver `rect` changed (nil: all of it). Drivers that scan
    /// out from a shadow copy (virtio-gpu's host resource) show CPU writes
    /// to a buffer already on screen only after this or a flip; drivers
    /// with no dirty hook answer ENOSYS or EOPNOTSUPP, which is fine.
    public func markDirty(_ rect: IntRect? = nil) throws(KMSError) {
        let r: Int32
        if let rect {
            var clip = drmModeClip(x1: UInt16(clamping: rect.x), y1: UInt16(clamping: rect.y),
                                   x2: UInt16(clamping: rect.maxX), y2: UInt16(clamping: rect.maxY))
            r = drmModeDirtyFB(device.fd, framebufferID, &clip, 1)
        } else {
            r = drmModeDirtyFB(device.fd, framebufferID, nil, 0)
        }
        let e = drmErrno(r)
        if e != 0 && e != ENOSYS && e != EOPNOTSUPP { throw KMSError.call("drmModeDirtyFB", errno: e) }
    }
}
