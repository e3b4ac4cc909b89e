import CDRM
import CPosix

/// A CPU-mapped XRGB8888 scan-out buffer: a dumb buffer object, a
/// framebuffer that wraps it, and a shared mapping of its pages.
///
/// The mapping may be write-combined on real hardware; kmsprobe only ever
/// writes it, once per pattern.
final class DumbBuffer {
    /// Strong: the device must stay open until the buffer is destroyed.
    let card: Card
    let width: Int
    let height: Int
    /// Bytes per row, as the kernel chose it (at least `width * 4`).
    let pitch: Int
    let size: Int
    let handle: UInt32
    private(set) var framebufferID: UInt32 = 0
    let pixels: UnsafeMutableRawPointer

    init(card: Card, width: Int, height: Int) throws(ProbeError) {
        self.card = card
        self.width = width
        self.height = height

        var create = drm_mode_create_dumb()
        create.width = UInt32(width)
        create.height = UInt32(height)
        create.bpp = 32
        guard drmIoctl(card.fd, fbr_drm_ioctl_mode_create_dumb(), &create) == 0 else {
            throw ProbeError("DRM_IOCTL_MODE_CREATE_DUMB \(width)x\(height)", errno: fbr_errno())
        }
        handle = create.handle
        pitch = Int(create.pitch)
        size = Int(create.size)

        var map = drm_mode_map_dumb()
        map.handle = handle
        guard drmIoctl(card.fd, fbr_drm_ioctl_mode_map_dumb(), &map) == 0 else {
            let e = fbr_errno()
            DumbBuffer.destroy(card.fd, handle)
            throw ProbeError("DRM_IOCTL_MODE_MAP_DUMB", errno: e)
        }
        guard let mapped = fbr_mmap_shared(card.fd, size, Int64(bitPattern: map.offset)) else {
            let e = fbr_errno()
            DumbBuffer.destroy(card.fd, handle)
            throw ProbeError("mmap of a \(size)-byte dumb buffer", errno: e)
        }
        pixels = mapped

        var handles: (UInt32, UInt32, UInt32, UInt32) = (handle, 0, 0, 0)
        var pitches: (UInt32, UInt32, UInt32, UInt32) = (UInt32(pitch), 0, 0, 0)
        var offsets: (UInt32, UInt32, UInt32, UInt32) = (0, 0, 0, 0)
        var fb: UInt32 = 0
        let r = withUnsafePointer(to: &handles) { h in
            withUnsafePointer(to: &pitches) { p in
                withUnsafePointer(to: &offsets) { o in
                    drmModeAddFB2(card.fd, UInt32(width), UInt32(height), fbr_drm_format_xrgb8888(),
                                  UnsafeRawPointer(h).assumingMemoryBound(to: UInt32.self),
                                  UnsafeRawPointer(p).assumingMemoryBound(to: UInt32.self),
                                  UnsafeRawPointer(o).assumingMemoryBound(to: UInt32.self), &fb, 0)
                }
            }
        }
        guard r == 0 else {
            let e = drmErrno(r)
            _ = munmap(pixels, size)
            DumbBuffer.destroy(card.fd, handle)
            throw ProbeError("drmModeAddFB2 XRGB8888 \(width)x\(height)", errno: e)
        }
        framebufferID = fb
    }

    deinit {
        if framebufferID != 0 { _ = drmModeRmFB(card.fd, framebufferID) }
        _ = munmap(pixels, size)
        DumbBuffer.destroy(card.fd, handle)
    }

    private static func destroy(_ fd: Int32, _ handle: UInt32) {
        var destroy = drm_mode_destroy_dumb()
        destroy.handle = handle
        _ = drmIoctl(fd, fbr_drm_ioctl_mode_destroy_dumb(), &destroy)
    }

    /// Sets every pixel to `color(x, y)` (0x00RRGGBB), row by row.
    func fill(_ color: (Int, Int) -> UInt32) {
        for y in 0..<height {
            let row = (pixels + y * pitch).assumingMemoryBound(to: UInt32.self)
            for x in 0..<width { row[x] = color(x, y) }
        }
    }

    /// Sets the pixels of one rectangle (clipped to the buffer) to
    /// `color(x, y)`, with x and y relative to the rectangle.
    func fill(x: Int, y: Int, width w: Int, height h: Int, _ color: (Int, Int) -> UInt32) {
        for row in max(0, y)..<min(height, y + h) {
            let pixels = (self.pixels + row * pitch).assumingMemoryBound(to: UInt32.self)
            for column in max(0, x)..<min(width, x + w) { pixels[column] = color(column - x, row - y) }
        }
    }

    /// Tells the driver one rectangle changed (see `markDirty()`).
    func markDirty(x: Int, y: Int, width w: Int, height h: Int) throws(ProbeError) {
        var clip = drmModeClip(x1: UInt16(x), y1: UInt16(y), x2: UInt16(x + w), y2: UInt16(y + h))
        let e = drmErrno(drmModeDirtyFB(card.fd, framebufferID, &clip, 1))
        if e != 0 && e != ENOSYS && e != EOPNOTSUPP { throw ProbeError("drmModeDirtyFB", errno: e) }
    }

    /// Tells the driver the whole buffer changed. Drivers that scan out
    /// from a shadow copy (virtio-gpu's host resource) show CPU writes to a
    /// buffer already on screen only after this or a flip. Drivers with no
    /// dirty hook answer ENOSYS, which is fine.
    func markDirty() throws(ProbeError) {
        let e = drmErrno(drmModeDirtyFB(card.fd, framebufferID, nil, 0))
        if e != 0 && e != ENOSYS && e != EOPNOTSUPP { throw ProbeError("drmModeDirtyFB", errno: e) }
    }
}
