import FBRuntime

/// An open display for the render loop: the presenter, the panel's size in
/// pixels (touch maps from it through the board's rotation) and how to
/// give the screen back.
final class AppDisplay {
    let presenter: FramePresenter
    let panelWidth: Int, panelHeight: Int
    /// One line saying what was opened.
    let description: String
    private let closeBody: () -> String?

    private init(presenter: FramePresenter, panelWidth: Int, panelHeight: Int, description: String,
                 close: @escaping () -> String?) {
        self.presenter = presenter
        self.panelWidth = panelWidth
        self.panelHeight = panelHeight
        self.description = description
        self.closeBody = close
    }

    /// Closes the presenter and gives the screen back (KMS: the CRTC's
    /// previous framebuffer; fbdev: the pan offset found at open). Returns
    /// an error line when the screen was not restored.
    func close() -> String? { closeBody() }

    /// Opens the display `choice` names, configured by `board`.
    static func open(_ choice: DisplayBackendChoice, board: BoardConfig) throws(KMSError) -> AppDisplay? {
        switch choice {
        case .kms: return try openKMS(board)
        case .fbdev(let path): return try openFBDev(path, board: board)
        case .headless: return nil
        }
    }

    private static func openKMS(_ config: BoardConfig) throws(KMSError) -> AppDisplay {
        let device: DRMDevice
        if case .path(let path) = config.drmDevice { device = try DRMDevice(path: path) } else {
            device = try DRMDevice.openFirstConnected()
        }
        let output = try KMSOutput(device: device, connectorName: config.connector, mode: config.mode)
        let (committer, _) = try config.kmsAPI.makeCommitter(for: output)
        let presenter = try KMSPresenter(output: output, format: config.pixelFormat, bufferCount: config.buffers,
                                         committer: committer, rotation: DisplayRotation(degrees: config.rotation))
        // Where there is a VT: a switch away drops DRM master, back retakes it.
        presenter.vtSwitcher = try? VTSwitcher()
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

    private static func openFBDev(_ path: String, board: BoardConfig) throws(KMSError) -> AppDisplay {
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
