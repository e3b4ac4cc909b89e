import CPosix
import FBRuntime
import FBRuntimeFBDev
import Raster

/// A framebuffer in memory for `FBDevPresenter`'s tests (the deterministic
/// double; it used to live in the shipped fbdev module as
/// `FBDevice(simulating:)`): `mode.virtualHeight` rows allocated and
/// cleared, pans recorded instead of made, and a vsync wait that succeeds
/// at once when `vsync` is true, else fails as on a driver without it.
final class SimulatedFramebuffer: FramebufferDevice {
    let mode: FBMode
    let memory: UnsafeMutableRawPointer
    let memoryLength: Int
    private(set) var panOffset = 0
    /// Pans asked for so far (restore included).
    private(set) var panCount = 0
    /// The pan offset "found at open".
    let savedPanOffset = 0
    private let vsync: Bool
    private var isRestored = false

    init(_ mode: FBMode, vsync: Bool) {
        precondition(mode.width > 0 && mode.height > 0 && mode.virtualHeight >= mode.height
                     && mode.lineLength >= mode.width * mode.format.bytesPerPixel, "SimulatedFramebuffer: bad mode")
        self.mode = mode
        self.vsync = vsync
        memoryLength = mode.lineLength * mode.virtualHeight
        memory = UnsafeMutableRawPointer.allocate(byteCount: memoryLength, alignment: 16)
        memory.initializeMemory(as: UInt8.self, repeating: 0, count: memoryLength)
    }

    deinit { memory.deallocate() }

    func xrgbView(buffer index: Int) -> PixelView<XRGB8888> {
        precondition(mode.format == .xrgb8888 && (index == 0 || (index == 1 && canPan)))
        return PixelView(base: (memory + index * mode.height * mode.lineLength).assumingMemoryBound(to: UInt32.self),
                         width: mode.width, height: mode.height, rowStride: mode.lineLength / 4, owner: nil)
    }

    func rgb565View(buffer index: Int) -> PixelView<RGB565> {
        precondition(mode.format == .rgb565 && (index == 0 || (index == 1 && canPan)))
        return PixelView(base: (memory + index * mode.height * mode.lineLength).assumingMemoryBound(to: UInt16.self),
                         width: mode.width, height: mode.height, rowStride: mode.lineLength / 2, owner: nil)
    }

    func pan(toY y: Int) throws(PresentError) {
        precondition(y >= 0 && y + mode.height <= mode.virtualHeight, "SimulatedFramebuffer: pan outside the virtual screen")
        panOffset = y
        panCount += 1
    }

    func probeVSync() -> Bool { vsync }

    func waitForVSync(timeoutNanoseconds: Int64) throws(PresentError) -> Int64? {
        vsync ? System.monotonicNanoseconds() : nil
    }

    /// Whether the display is blanked (FBIOBLANK powerdown), and how
    /// often that changed. An unblank clears the memory, as QEMU's bochs
    /// does when its mode is enabled again: the presenter must not count
    /// on the pixels surviving.
    private(set) var isBlanked = false
    private(set) var blankChanges = 0

    func setBlanked(_ blanked: Bool) throws(PresentError) {
        if isBlanked && !blanked { memory.initializeMemory(as: UInt8.self, repeating: 0, count: memoryLength) }
        isBlanked = blanked
        blankChanges += 1
    }

    func restore() {
        guard !isRestored else { return }
        isRestored = true
        panOffset = savedPanOffset
        panCount += 1
    }
}
