import CAppShell
import FBRuntime
import FBRuntimeFBDev
import FBRuntimeKMS
import Seat

/// An open display for the render loop: the presenter, the panel's size in
/// pixels (touch maps from it through the board's rotation) and how to
/// give the screen back.
final class AppDisplay {
    let presenter: FramePresenter
    let panelWidth: Int, panelHeight: Int
    /// One line saying what was opened.
    let description: String
    /// The desktop simulator's window, when that is the display.
    let window: SimWindowPresenter?
    private let closeBody: () -> String?

    private init(presenter: FramePresenter, panelWidth: Int, panelHeight: Int, description: String,
                 window: SimWindowPresenter? = nil, close: @escaping () -> String?) {
        self.presenter = presenter
        self.window = window
        self.panelWidth = panelWidth
        self.panelHeight = panelHeight
        self.description = description
        self.closeBody = close
    }

    /// Closes the presenter and gives the screen back (KMS: the CRTC's
    /// previous framebuffer; fbdev: the pan offset found at open). Returns
    /// an error line when the screen was not restored.
    func close() -> String? { closeBody() }

    /// Opens the display `choice` names, configured by `board`. A KMS
    /// failure is reported as `PresentError.init(_:)` sorts it (the
    /// message and errno kept).
    /// With `seat`, a DRM device is opened through its seat manager, which
    /// also switches VTs (no `VTSwitcher` then).
    static func open(_ choice: DisplayBackendChoice, board: BoardConfig, seat: SeatSession?) throws(PresentError) -> AppDisplay? {
        switch choice {
        case .kms:
            do { return try openKMS(board, seat: seat) } catch { throw PresentError(error) }
        case .fbdev(let path): return try openFBDev(path, board: board)
        case .headless: return nil
        }
    }

    /// The desktop simulator: a `width` × `height` window (the frame's
    /// pixels, 60 Hz pacing), or the reason there is none (no display, no
    /// SDL2, a board build).
    static func openWindow(width: Int, height: Int, title: String) -> (AppDisplay?, String) {
        var error = [CChar](repeating: 0, count: 256)
        guard fbr_sim_open(Int32(width), Int32(height), title, &error, Int32(error.count)) != 0 else {
            return (nil, String(decoding: error.prefix { $0 != 0 }.map { UInt8(bitPattern: $0) }, as: UTF8.self))
        }
        guard let presenter = SimWindowPresenter(width: width, height: height, refreshMillihertz: 60_000) else {
            fbr_sim_close()
            return (nil, "cannot allocate a \(width)x\(height) frame")
        }
        presenter.onCommit = { fbr_sim_wake() }
        let display = AppDisplay(presenter: presenter, panelWidth: width, panelHeight: height,
                                 description: "desktop simulator window \(width)x\(height) (close it or press Escape to end)",
                                 window: presenter) {
            fbr_sim_close()
            return nil
        }
        return (display, "")
    }

    private static func openKMS(_ config: BoardConfig, seat: SeatSession?) throws(KMSError) -> AppDisplay {
        let device: DRMDevice
        if case .path(let path) = config.drmDevice { device = try DRMDevice(path: path, seat: seat) } else {
            device = try DRMDevice.openFirstConnected(seat: seat)
        }
        let output = try KMSOutput(device: device, connectorName: config.connector, mode: config.mode)
        let (committer, _) = try config.kmsAPI.makeCommitter(for: output)
        let presenter = try KMSPresenter(output: output, format: config.pixelFormat, bufferCount: config.buffers,
                                         committer: committer, rotation: DisplayRotation(degrees: config.rotation))
        // Where there is a VT: a switch away drops DRM master, back retakes
        // it. Under a seat manager, VT switches are its own.
        if seat == nil { presenter.vtSwitcher = try? VTSwitcher() }
        let description = "\(device.path) (\(device.driverName)), connector \(output.connectorName), "
            + "mode \(output.modeDescription), \(config.pixelFormat.name) ×\(config.buffers), rotation \(config.rotation)"
        return AppDisplay(presenter: presenter, panelWidth: output.width, panelHeight: output.height,
                          description: description) {
            presenter.close()
            let showing = output.currentFramebufferID()
            withExtendedLifetime(presenter) {}
            return showing == output.savedFramebufferID ? nil
                : "CRTC \(output.crtcID) shows framebuffer \(showing), not \(output.savedFramebufferID) as before"
        }
    }

    private static func openFBDev(_ path: String, board: BoardConfig) throws(PresentError) -> AppDisplay {
        let device = try FBDevice(path: path)
        let presenter = FBDevPresenter(device: device, rotation: DisplayRotation(degrees: board.rotation))
        let m = device.mode
        return AppDisplay(presenter: presenter, panelWidth: m.width, panelHeight: m.height,
                          description: "\(path) (fbdev, \(device.driverName)), \(m.width)x\(m.height), \(m.format.name), rotation \(board.rotation)") {
            presenter.close()
            withExtendedLifetime(presenter) {}
            return device.panOffset == device.savedPanOffset ? nil
                : "\(path) pan offset \(device.panOffset), not \(device.savedPanOffset) as before"
        }
    }
}
