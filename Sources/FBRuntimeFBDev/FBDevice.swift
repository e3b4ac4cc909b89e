import CPosix
import FBRuntime
import Raster

/// What an fbdev framebuffer shows and how its memory is laid out, from
/// the driver's var and fix screen info (`linux/fb.h`).
public struct FBMode: Equatable, Sendable {
    /// Visible size, pixels.
    public var width: Int
    public var height: Int
    /// Rows of pixel memory the driver gives us (`yres_virtual`): at least
    /// `2 × height` allows a panning double buffer.
    public var virtualHeight: Int
    /// Bytes per row (`line_length`).
    public var lineLength: Int
    public var format: ScanoutFormat
    /// One refresh period, nanoseconds: from the mode timings (pixel clock
    /// and margins) when the driver gives them, else 60 Hz.
    public var refreshIntervalNanoseconds: Int64

    /// A 60 Hz frame, the period used when the driver reports no timings.
    public static let defaultRefreshIntervalNanoseconds: Int64 = 16_666_667

    /// The mode of a var/fix screen info pair; nil (with the reason in
    /// `reason`) when it is not a true-colour XRGB8888 or RGB565 layout.
    public static func from(variable v: fb_var_screeninfo, fixed f: fb_fix_screeninfo,
                            reason: inout String) -> FBMode? {
        let format: ScanoutFormat
        if v.bits_per_pixel == 32 && v.red.offset == 16 && v.red.length == 8 && v.green.offset == 8
            && v.green.length == 8 && v.blue.offset == 0 && v.blue.length == 8 {
            format = .xrgb8888
        } else if v.bits_per_pixel == 16 && v.red.offset == 11 && v.red.length == 5 && v.green.offset == 5
            && v.green.length == 6 && v.blue.offset == 0 && v.blue.length == 5 {
            format = .rgb565
        } else {
            reason = "\(v.bits_per_pixel) bpp with red \(v.red.length)@\(v.red.offset), green \(v.green.length)@\(v.green.offset), "
                + "blue \(v.blue.length)@\(v.blue.offset): not XRGB8888 or RGB565"
            return nil
        }
        guard f.visual == UInt32(FB_VISUAL_TRUECOLOR) || f.visual == UInt32(FB_VISUAL_DIRECTCOLOR) else {
            reason = "visual \(f.visual) is not true colour"
            return nil
        }
        let width = Int(v.xres), height = Int(v.yres)
        guard width > 0, height > 0, width <= RasterLimits.maxDimension, height <= RasterLimits.maxDimension,
              Int(f.line_length) >= width * format.bytesPerPixel else {
            reason = "bad geometry \(v.xres)x\(v.yres), \(f.line_length) bytes per row"
            return nil
        }
        // Rows the memory really holds, whatever yres_virtual claims.
        let rowsInMemory = Int(f.smem_len) / Int(f.line_length)
        let virtualHeight = min(max(Int(v.yres_virtual), height), rowsInMemory)
        guard virtualHeight >= height else {
            reason = "\(f.smem_len) bytes of memory hold fewer than \(height) rows"
            return nil
        }
        return FBMode(width: width, height: height, virtualHeight: virtualHeight, lineLength: Int(f.line_length),
                      format: format, refreshIntervalNanoseconds: refreshInterval(v))
    }

    /// The refresh period from the timings: `pixclock` (picoseconds per
    /// pixel) × the whole frame (visible area, margins and sync, in
    /// pixels). 0 (no timings, as DRM's fbdev emulation reports) or a
    /// result outside 20–240 Hz gives 60 Hz.
    public static func refreshInterval(_ v: fb_var_screeninfo) -> Int64 {
        let columns = Int64(v.xres) + Int64(v.left_margin) + Int64(v.right_margin) + Int64(v.hsync_len)
        let rows = Int64(v.yres) + Int64(v.upper_margin) + Int64(v.lower_margin) + Int64(v.vsync_len)
        guard v.pixclock > 0 else { return defaultRefreshIntervalNanoseconds }
        // In Double: pixclock × columns × rows can exceed Int64 for nonsense.
        let ns = Double(v.pixclock) * Double(columns) * Double(rows) / 1000
        guard ns >= 4_166_667, ns <= 50_000_000 else { return defaultRefreshIntervalNanoseconds }
        return Int64(ns.rounded())
    }
}

/// What `FBDevPresenter` needs of a framebuffer: its mode, its buffers'
/// pixels, panning, vsync waits and giving the screen back. `FBDevice` is
/// the kernel's (`/dev/fbN`); the presenter's tests drive an in-memory one
/// of their own (class-bound, so it works in Embedded Swift too).
public protocol FramebufferDevice: AnyObject {
    var mode: FBMode { get }
    /// The pan offset last asked for (`y`, rows).
    var panOffset: Int { get }
    /// Buffer `index` (0, or 1 when `canPan`) as pixels of the mode's
    /// format; the device must outlive the view.
    func xrgbView(buffer index: Int) -> PixelView<XRGB8888>
    func rgb565View(buffer index: Int) -> PixelView<RGB565>
    /// Shows the rows from `y` on (the second buffer: `y` = `mode.height`).
    func pan(toY y: Int) throws(PresentError)
    /// Whether vsync waits really wait for a vblank (see `FBDevice.probeVSync`).
    func probeVSync() -> Bool
    /// Waits for the next vblank and returns its time (monotonic ns); nil
    /// when the device cannot wait for one.
    func waitForVSync(timeoutNanoseconds: Int64) throws(PresentError) -> Int64?
    /// Powers the display down (`true`: FB_BLANK_POWERDOWN, dark, nothing
    /// scanned out; the memory keeps its pixels) or up again (`false`).
    func setBlanked(_ blanked: Bool) throws(PresentError)
    /// Gives the screen back as it was found. Idempotent.
    func restore()
}

extension FramebufferDevice {
    /// Whether a second buffer fits below the first (panning double buffer).
    public var canPan: Bool { mode.virtualHeight >= 2 * mode.height }
}

/// An open fbdev framebuffer (`/dev/fbN`) with its memory mapped.
///
/// On open it asks for a virtual height of twice the visible one
/// (FBIOPUT_VSCREENINFO) so frames can be flipped by panning; drivers that
/// refuse leave one buffer, which the presenter then updates by copying.
/// `restore()` (also deinit) puts back the var screen info found at open
/// (resolution, pan offset) and the console's text mode.
///
/// Not thread-safe: one thread at a time (the render thread, once the loop
/// runs).
public final class FBDevice: FramebufferDevice {
    public let path: String
    /// The driver's name (`fix.id`, e.g. "virtio_gpudrmfb", "bochs-drmdrmfb").
    public let driverName: String
    public let mode: FBMode
    /// The mapped pixel memory: `mode.virtualHeight` rows of
    /// `mode.lineLength` bytes.
    public let memory: UnsafeMutableRawPointer
    public let memoryLength: Int
    /// The pan offset last asked for (`y`, rows), or the one found at open.
    public private(set) var panOffset: Int = 0
    /// Pans asked for so far (restore included).
    public private(set) var panCount = 0
    /// Whether FBIO_WAITFORVSYNC works; found on the first wait.
    public private(set) var supportsVSyncWait: Bool?

    private let fd: Int32
    private var saved: fb_var_screeninfo
    private var current: fb_var_screeninfo
    /// /dev/tty0, switched to KD_GRAPHICS so the console stops drawing.
    private var ttyFD: Int32 = -1
    private var ttySavedMode: Int32 = 0
    private var isRestored = false

    /// Opens and maps `path` (e.g. "/dev/fb0").
    /// - Throws: `PresentError` (fbdev needs no error type of its own):
    ///   `.failed` when it cannot be opened, for a layout other than
    ///   XRGB8888/RGB565 or a failed call (EBUSY, EACCES/EPERM: `.busy`,
    ///   `.masterLost`, as `PresentError.call` sorts them).
    public init(path: String) throws(PresentError) {
        let fd = path.withCString { fbr_open($0, O_RDWR) }
        guard fd >= 0 else { throw PresentError(.failed, "open \(path)", errno: fbr_errno()) }
        var ok = false
        defer { if !ok { _ = close(fd) } }

        var variable = fb_var_screeninfo()
        var fixed = fb_fix_screeninfo()
        guard fbr_ioctl(fd, fbr_fbioget_vscreeninfo(), &variable) == 0 else {
            throw PresentError.call("\(path): FBIOGET_VSCREENINFO", errno: fbr_errno())
        }
        let original = variable
        // A second buffer below the first, for panning. Some drivers refuse
        // (DRM's fbdev emulation without overallocation); that is fine.
        if variable.yres_virtual < 2 * variable.yres {
            var wanted = variable
            wanted.yres_virtual = 2 * variable.yres
            wanted.yoffset = 0
            wanted.activate = UInt32(FB_ACTIVATE_NOW)
            if fbr_ioctl(fd, fbr_fbioput_vscreeninfo(), &wanted) == 0 {
                _ = fbr_ioctl(fd, fbr_fbioget_vscreeninfo(), &variable)
            }
        }
        guard fbr_ioctl(fd, fbr_fbioget_fscreeninfo(), &fixed) == 0 else {
            throw PresentError.call("\(path): FBIOGET_FSCREENINFO", errno: fbr_errno())
        }
        var reason = ""
        guard let mode = FBMode.from(variable: variable, fixed: fixed, reason: &reason) else {
            var restore = original
            _ = fbr_ioctl(fd, fbr_fbioput_vscreeninfo(), &restore)
            throw PresentError(.failed, "\(path): \(reason)")
        }
        let length = Int(fixed.smem_len)
        guard let mapped = fbr_mmap_shared(fd, length, 0) else {
            let e = fbr_errno()
            var restore = original
            _ = fbr_ioctl(fd, fbr_fbioput_vscreeninfo(), &restore)
            throw PresentError.call("\(path): mmap of \(length) bytes", errno: e)
        }
        self.fd = fd
        self.path = path
        // `fix.id`: a char array, NUL-padded.
        self.driverName = withUnsafeBytes(of: fixed.id) { String(decoding: $0.prefix { $0 != 0 }, as: UTF8.self) }
        self.mode = mode
        self.memory = mapped
        self.memoryLength = length
        self.saved = original
        self.current = variable
        self.panOffset = Int(variable.yoffset)
        ok = true
        enterGraphicsMode()
    }

    deinit {
        restore()
        _ = munmap(memory, memoryLength)
        _ = close(fd)
    }

    /// Buffer `index` (0 or 1: rows 0… or `height`…) as pixels of the
    /// mode's format. No owner: the device must outlive the view.
    public func xrgbView(buffer index: Int) -> PixelView<XRGB8888> {
        precondition(mode.format == .xrgb8888 && (index == 0 || (index == 1 && canPan)))
        return PixelView(base: (memory + index * mode.height * mode.lineLength).assumingMemoryBound(to: UInt32.self),
                         width: mode.width, height: mode.height, rowStride: mode.lineLength / 4, owner: nil)
    }

    public func rgb565View(buffer index: Int) -> PixelView<RGB565> {
        precondition(mode.format == .rgb565 && (index == 0 || (index == 1 && canPan)))
        return PixelView(base: (memory + index * mode.height * mode.lineLength).assumingMemoryBound(to: UInt16.self),
                         width: mode.width, height: mode.height, rowStride: mode.lineLength / 2, owner: nil)
    }

    /// Shows the rows from `y` on (FBIOPAN_DISPLAY): most drivers latch
    /// the new offset at the next vblank.
    /// FBIOBLANK: FB_BLANK_POWERDOWN or FB_BLANK_UNBLANK (DRM's fbdev
    /// emulation turns it into DPMS on the CRTCs it drives, while no DRM
    /// master is active).
    public func setBlanked(_ blanked: Bool) throws(PresentError) {
        var r: Int32
        repeat { r = fbr_fb_blank(fd, blanked ? 1 : 0) } while r < 0 && fbr_errno() == EINTR
        if r < 0 { throw PresentError.call("FBIOBLANK \(blanked ? "powerdown" : "unblank") on \(path)", errno: fbr_errno()) }
    }

    public func pan(toY y: Int) throws(PresentError) {
        precondition(y >= 0 && y + mode.height <= mode.virtualHeight, "FBDevice: pan outside the virtual screen")
        panOffset = y
        panCount += 1
        var v = current
        v.xoffset = 0
        v.yoffset = UInt32(y)
        guard fbr_ioctl(fd, fbr_fbiopan_display(), &v) == 0 else {
            throw PresentError.call("\(path): FBIOPAN_DISPLAY to y \(y)", errno: fbr_errno())
        }
        current.yoffset = UInt32(y)
    }

    /// Waits for the next vblank (FBIO_WAITFORVSYNC) and returns its time
    /// (monotonic ns, read on return); nil when the driver does not
    /// support it (remembered in `supportsVSyncWait`). The drivers bound
    /// the wait themselves (typically 100 ms), since an ioctl takes no
    /// timeout; a wait that takes longer than `timeoutNanoseconds` throws
    /// `.timedOut`.
    public func waitForVSync(timeoutNanoseconds: Int64) throws(PresentError) -> Int64? {
        if supportsVSyncWait == false { return nil }
        let start = System.monotonicNanoseconds()
        var crtc: UInt32 = 0
        var r: Int32
        repeat { r = fbr_ioctl(fd, fbr_fbio_waitforvsync(), &crtc) } while r < 0 && fbr_errno() == EINTR
        let now = System.monotonicNanoseconds()
        if r < 0 {
            let e = fbr_errno()
            if supportsVSyncWait == nil || e == ENOTTY || e == EINVAL || e == EOPNOTSUPP || e == ENOSYS {
                supportsVSyncWait = false
                return nil
            }
            throw PresentError.call("\(path): FBIO_WAITFORVSYNC", errno: e)
        }
        supportsVSyncWait = true
        if now - start > timeoutNanoseconds {
            throw PresentError(.timedOut, "\(path): FBIO_WAITFORVSYNC took \((now - start) / 1_000_000) ms")
        }
        return now
    }

    /// Finds out whether FBIO_WAITFORVSYNC really waits for a vblank, and
    /// returns that (also kept in `supportsVSyncWait`). Two waits in a row:
    /// a real one makes the second take about a refresh period. DRM's fbdev
    /// emulation answers the ioctl on drivers without vblank interrupts
    /// (virtio-gpu, bochs) by returning 0 at once (measured in QEMU), which
    /// must count as no vsync, or nothing would pace the frames.
    /// - Complexity: blocks for up to two refresh periods.
    public func probeVSync() -> Bool {
        let timeout = 4 * mode.refreshIntervalNanoseconds
        guard (try? waitForVSync(timeoutNanoseconds: timeout)) != nil else {
            supportsVSyncWait = false
            return false
        }
        let start = System.monotonicNanoseconds()
        guard (try? waitForVSync(timeoutNanoseconds: timeout)) != nil,
              System.monotonicNanoseconds() - start >= mode.refreshIntervalNanoseconds / 4 else {
            supportsVSyncWait = false
            return false
        }
        return true
    }

    /// The pan offset found at open.
    public var savedPanOffset: Int { Int(saved.yoffset) }

    /// Puts back the var screen info found at open (virtual size, pan
    /// offset) and the console's text mode. Idempotent; deinit calls it.
    public func restore() {
        guard !isRestored else { return }
        isRestored = true
        var v = saved
        v.activate = UInt32(FB_ACTIVATE_NOW)
        if fbr_ioctl(fd, fbr_fbioput_vscreeninfo(), &v) != 0 {
            // A driver that refuses the put may still pan back.
            var p = saved
            _ = fbr_ioctl(fd, fbr_fbiopan_display(), &p)
        }
        _ = fbr_ioctl(fd, fbr_fbioget_vscreeninfo(), &current)
        panOffset = Int(current.yoffset)
        panCount += 1
        leaveGraphicsMode()
    }

    /// Stops the console drawing over the framebuffer (text, the blinking
    /// cursor): KD_GRAPHICS on /dev/tty0, where there is one.
    private func enterGraphicsMode() {
        let tty = "/dev/tty0".withCString { fbr_open($0, O_RDWR) }
        guard tty >= 0 else { return }
        var mode: Int32 = 0
        if fbr_ioctl(tty, fbr_kdgetmode(), &mode) == 0,
           fbr_ioctl(tty, fbr_kdsetmode(), UnsafeMutableRawPointer(bitPattern: UInt(fbr_kd_graphics()))) == 0 {
            ttyFD = tty
            ttySavedMode = mode
        } else {
            _ = close(tty)
        }
    }

    private func leaveGraphicsMode() {
        guard ttyFD >= 0 else { return }
        _ = fbr_ioctl(ttyFD, fbr_kdsetmode(), UnsafeMutableRawPointer(bitPattern: UInt(ttySavedMode)))
        _ = close(ttyFD)
        ttyFD = -1
    }
}
