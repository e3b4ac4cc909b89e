/// How one board drives its display and touch screen, read from a file in
/// `board-configs/` (see `board-configs/README.md` for the format).
///
/// The parser works on bytes (from `System.readFile`), so it runs under
/// Embedded Swift: no Foundation, no `Double(String)`.
public struct BoardConfig: Equatable, Sendable {
    /// Where to find the DRM device.
    public enum Device: Equatable, Sendable {
        /// The first /dev/dri/card* with a connected connector.
        case auto
        case path(String)
    }

    /// Which display backend drives the screen.
    public enum Backend: Equatable, Sendable {
        /// KMS when a DRM card with a connected connector exists, else
        /// fbdev when the framebuffer device exists, else headless.
        case auto
        case kms
        case fbdev
    }

    public var name: String
    public var backend: Backend = .auto
    public var drmDevice: Device = .auto
    /// The fbdev framebuffer for the fbdev backend (and its fallback).
    public var fbDevice = "/dev/fb0"
    /// A connector name such as "HDMI-A-1"; nil: the first connected one.
    public var connector: String?
    public var mode: ModeRequest = .preferred
    public var pixelFormat: ScanoutFormat = .xrgb8888
    /// Clockwise, in degrees: 0, 90, 180 or 270.
    public var rotation = 0
    /// Scan-out buffers: 2 or 3.
    public var buffers = 2
    /// A substring of the touch device's name (libinput, udev seat), or a
    /// device node path ("/dev/input/event0": libinput's path backend, for
    /// systems without udevd); nil: none.
    public var touchDevice: String?
    /// libinput's calibration matrix, row-major: the first two rows of a
    /// 3×3 affine map in normalised device coordinates.
    public var calibration: [Double] = [1, 0, 0, 0, 1, 0]
    /// How frames are committed: atomic, legacy, or atomic where the
    /// driver has it (`auto`, the default).
    public var kmsAPI: KMSAPIChoice = .auto
    /// Panel pixels per point of the UI (0.5…8, default 1): the app
    /// shell's screen is the panel's size divided by it, in points, and is
    /// drawn magnified by it, so one app's layout looks alike on a small
    /// and a dense panel.
    public var scale = 1.0
    /// The hardware keyboard's xkb layout ("us", "de", "fr"; a
    /// comma-separated list for several groups), its variant ("" for the
    /// layout's default; "nodeadkeys", "intl") and options
    /// ("compose:ralt,ctrl:nocaps"), as in the xkb data's
    /// `rules/evdev.lst`. Whether they exist is found when the keymap is
    /// compiled (a layout that does not falls back to `us`, with a warning).
    public var keyboardLayout = "us"
    public var keyboardVariant = ""
    public var keyboardOptions = ""
    /// The locale whose compose table serves dead keys and the Compose key
    /// ("" for none).
    public var keyboardLocale = "en_US.UTF-8"
    /// Idle blanking (`IdleBlanker`): seconds without input before the
    /// backlight dims, and before the display turns off (counted from the
    /// last input, so later than the dim when both are set); nil: never.
    public var idleDimAfterSeconds: Double?
    public var idleOffAfterSeconds: Double?
    /// The backlight while dimmed, percent of its maximum (1…100).
    public var idleDimBrightnessPercent = 30
    /// The backlight idle blanking dims (`auto`: the first device under
    /// /sys/class/backlight, if there is one).
    public var backlight: BacklightChoice = .auto
    /// Threads that paint each frame's damage (`Compositor.paintThreads`,
    /// 1…8); nil (`auto`): the processors online, at most 4
    /// (`resolvedPaintThreads`).
    public var paintThreads: Int?

    /// `paintThreads`, or for `auto` the processors online, at most 4.
    public var resolvedPaintThreads: Int { paintThreads ?? Swift.min(4, System.onlineProcessors) }

    public init(name: String) { self.name = name }

    /// The board's idle blanking, nil when neither `idle-dim-after` nor
    /// `idle-off-after` is set (the screen never blanks).
    public var idleTimeouts: IdleTimeouts? {
        guard idleDimAfterSeconds != nil || idleOffAfterSeconds != nil else { return nil }
        func ns(_ seconds: Double?) -> Int64? { seconds.map { Int64(($0 * 1e9).rounded()) } }
        return IdleTimeouts(dimAfterNanoseconds: ns(idleDimAfterSeconds), offAfterNanoseconds: ns(idleOffAfterSeconds),
                            dimPercent: idleDimBrightnessPercent)
    }

    /// The keys the format knows, in the order the files list them.
    public static let keys = ["name", "backend", "drm-device", "fb-device", "connector", "mode", "pixel-format", "rotation",
                              "buffers", "touch-device", "calibration", "kms-api", "scale",
                              "keyboard-layout", "keyboard-variant", "keyboard-options", "keyboard-locale",
                              "idle-dim-after", "idle-off-after", "idle-dim-brightness", "backlight", "paint-threads"]
}

/// A board file that does not parse: `file:line: message`, like a compiler.
public struct BoardConfigError: Error, Equatable, CustomStringConvertible {
    public let file: String
    /// 1-based; 0 for a problem with the file as a whole.
    public let line: Int
    public let message: String

    public init(file: String, line: Int, message: String) {
        self.file = file; self.line = line; self.message = message
    }

    public var description: String { line > 0 ? "\(file):\(line): \(message)" : "\(file): \(message)" }
}

extension BoardConfig {
    /// Parses a board file.
    ///
    /// One `key = value` per line; `#` starts a comment (whole-line or after
    /// a value); blank lines are ignored. Every key at most once; `name` is
    /// required. Unknown keys and bad values are errors naming the line.
    /// - Parameter file: the file's name, for error messages.
    public static func parse(_ bytes: [UInt8], file: String) throws(BoardConfigError) -> BoardConfig {
        var config = BoardConfig(name: "")
        var seen: [String] = []
        var lineNumber = 0
        var idleOffLine = 0
        for rawLine in bytes.split(separator: UInt8(ascii: "\n"), omittingEmptySubsequences: false) {
            lineNumber += 1
            func error(_ message: String) -> BoardConfigError {
                BoardConfigError(file: file, line: lineNumber, message: message)
            }
            var line = Array(rawLine)
            if let hash = line.firstIndex(of: UInt8(ascii: "#")) { line.removeSubrange(hash...) }
            let text = trimmed(String(decoding: line, as: UTF8.self))
            if text.isEmpty { continue }
            guard let equals = text.firstIndex(of: "=") else {
                throw error("expected 'key = value', got '\(text)'")
            }
            let key = trimmed(String(text[..<equals]))
            let value = trimmed(String(text[text.index(after: equals)...]))
            guard BoardConfig.keys.contains(key) else {
                throw error("unknown key '\(key)' (known: \(BoardConfig.keys.joined(separator: ", ")))")
            }
            guard !seen.contains(key) else { throw error("'\(key)' is set twice") }
            seen.append(key)
            guard !value.isEmpty else { throw error("'\(key)' has no value") }

            switch key {
            case "name":
                guard value.utf8.allSatisfy({ isNameByte($0) }) else {
                    throw error("name '\(value)': use letters, digits, '-' and '_'")
                }
                config.name = value
            case "drm-device":
                if value == "auto" { config.drmDevice = .auto }
                else if value.hasPrefix("/") { config.drmDevice = .path(value) }
                else { throw error("drm-device '\(value)': an absolute path or 'auto'") }
            case "backend":
                switch value {
                case "auto": config.backend = .auto
                case "kms": config.backend = .kms
                case "fbdev": config.backend = .fbdev
                default: throw error("backend '\(value)': auto, kms or fbdev")
                }
            case "fb-device":
                guard value.hasPrefix("/") else { throw error("fb-device '\(value)': an absolute path such as /dev/fb0") }
                config.fbDevice = value
            case "connector":
                config.connector = value == "auto" ? nil : value
            case "mode":
                guard let mode = parseMode(value) else {
                    throw error("mode '\(value)': 'preferred' or WIDTHxHEIGHT[@HZ], e.g. 800x480@60")
                }
                config.mode = mode
            case "pixel-format":
                switch value {
                case "xrgb8888": config.pixelFormat = .xrgb8888
                case "rgb565": config.pixelFormat = .rgb565
                default: throw error("pixel-format '\(value)': xrgb8888 or rgb565")
                }
            case "rotation":
                guard let r = Int(value), r == 0 || r == 90 || r == 180 || r == 270 else {
                    throw error("rotation '\(value)': 0, 90, 180 or 270")
                }
                config.rotation = r
            case "buffers":
                guard let n = Int(value), n == 2 || n == 3 else { throw error("buffers '\(value)': 2 or 3") }
                config.buffers = n
            case "touch-device":
                config.touchDevice = value == "none" ? nil : value
            case "calibration":
                let fields = value.split(separator: " ", omittingEmptySubsequences: true)
                var numbers: [Double] = []
                for f in fields {
                    guard let n = parseDecimal(String(f)) else { throw error("calibration: '\(f)' is not a number") }
                    numbers.append(n)
                }
                guard numbers.count == 6 else {
                    throw error("calibration: 6 numbers (a b c d e f), got \(numbers.count)")
                }
                config.calibration = numbers
            case "kms-api":
                guard let api = KMSAPIChoice(value) else { throw error("kms-api '\(value)': atomic, legacy or auto") }
                config.kmsAPI = api
            case "scale":
                guard let s = parseDecimal(value), s >= 0.5, s <= 8 else {
                    throw error("scale '\(value)': panel pixels per point, a number from 0.5 to 8 (1, 1.5, 2)")
                }
                config.scale = s
            case "keyboard-layout", "keyboard-variant", "keyboard-options", "keyboard-locale":
                guard value.utf8.allSatisfy({ isKeyboardNameByte($0) }) else {
                    throw error("\(key) '\(value)': xkb names use letters, digits and - _ , : . @ ( ) +")
                }
                switch key {
                case "keyboard-layout": config.keyboardLayout = value
                case "keyboard-variant": config.keyboardVariant = value
                case "keyboard-options": config.keyboardOptions = value
                default: config.keyboardLocale = value == "none" ? "" : value
                }
            case "idle-dim-after", "idle-off-after":
                var seconds: Double?
                if value != "never" {
                    guard let t = parseDecimal(value), t > 0, t <= 86_400 else {
                        throw error("\(key) '\(value)': seconds without input, more than 0 and at most 86400 (0.5, 60), or 'never'")
                    }
                    seconds = t
                }
                if key == "idle-dim-after" { config.idleDimAfterSeconds = seconds } else {
                    config.idleOffAfterSeconds = seconds
                    idleOffLine = lineNumber
                }
            case "idle-dim-brightness":
                var digits = Array(value.utf8)
                if digits.last == UInt8(ascii: "%") { digits.removeLast() }
                guard let p = Int(String(decoding: digits, as: UTF8.self)), p >= 1, p <= 100 else {
                    throw error("idle-dim-brightness '\(value)': percent of the backlight's maximum, 1 to 100")
                }
                config.idleDimBrightnessPercent = p
            case "backlight":
                if value == "auto" { config.backlight = .auto }
                else if value == "none" { config.backlight = .none }
                else if value.hasPrefix("/") { config.backlight = .directory(value) }
                else if value.utf8.allSatisfy({ isKeyboardNameByte($0) }) { config.backlight = .named(value) }
                else { throw error("backlight '\(value)': auto, none, a device name under /sys/class/backlight or an absolute path") }
            case "paint-threads":
                if value == "auto" { config.paintThreads = nil } else {
                    guard let n = Int(value), n >= 1, n <= Compositor.maximumPaintThreads else {
                        throw error("paint-threads '\(value)': auto, or 1 to \(Compositor.maximumPaintThreads)")
                    }
                    config.paintThreads = n
                }
            default:
                preconditionFailure("key list and switch disagree")
            }
        }
        guard seen.contains("name") else {
            throw BoardConfigError(file: file, line: 0, message: "no 'name' line")
        }
        if let dim = config.idleDimAfterSeconds, let off = config.idleOffAfterSeconds, off <= dim {
            throw BoardConfigError(file: file, line: idleOffLine,
                                   message: "idle-off-after (\(Int(off * 1000)) ms) must be later than idle-dim-after (\(Int(dim * 1000)) ms): both count from the last input")
        }
        return config
    }

    /// Reads and parses `path`.
    public static func load(path: String) throws(BoardConfigError) -> BoardConfig {
        let bytes: [UInt8]
        do { bytes = try System.readFile(path, limit: 64 * 1024) } catch {
            throw BoardConfigError(file: path, line: 0, message: error.description)
        }
        return try parse(bytes, file: path)
    }

    /// The board named by `--board NAME` (in `arguments`) or else the
    /// FBRUNTIME_BOARD environment variable; nil when neither is set.
    /// NAME is a file path if it contains '/', else a file `NAME.conf` in
    /// FBRUNTIME_BOARD_DIR, ./board-configs or /etc/fbruntime/boards.
    public static func selected(arguments: [String]) throws(BoardConfigError) -> BoardConfig? {
        var name = System.environment("FBRUNTIME_BOARD")
        if let i = arguments.firstIndex(of: "--board"), i + 1 < arguments.count { name = arguments[i + 1] }
        guard let name, !name.isEmpty else { return nil }
        if name.contains("/") { return try load(path: name) }
        var directories = ["board-configs", "/etc/fbruntime/boards"]
        if let dir = System.environment("FBRUNTIME_BOARD_DIR") { directories.insert(dir, at: 0) }
        for dir in directories where System.exists(dir + "/" + name + ".conf") {
            return try load(path: dir + "/" + name + ".conf")
        }
        throw BoardConfigError(file: name, line: 0,
                               message: "no board file \(name).conf in \(directories.joined(separator: ", "))")
    }

    // MARK: Pieces

    static func trimmed(_ s: String) -> String {
        var bytes = Array(s.utf8)
        while let last = bytes.last, last == 0x20 || last == 0x09 || last == 0x0D { bytes.removeLast() }
        var start = 0
        while start < bytes.count && (bytes[start] == 0x20 || bytes[start] == 0x09) { start += 1 }
        return String(decoding: bytes[start...], as: UTF8.self)
    }

    public static func isNameByte(_ b: UInt8) -> Bool {
        (b >= 0x30 && b <= 0x39) || (b >= 0x41 && b <= 0x5A) || (b >= 0x61 && b <= 0x7A)
            || b == UInt8(ascii: "-") || b == UInt8(ascii: "_")
    }

    /// A byte of an xkb layout, variant, option list or locale name:
    /// "de", "us,de", "compose:ralt,ctrl:nocaps", "sr_RS.UTF-8@latin",
    /// "lv3:ralt_switch", "us(intl)".
    static func isKeyboardNameByte(_ b: UInt8) -> Bool {
        isNameByte(b) || b == UInt8(ascii: ",") || b == UInt8(ascii: ":") || b == UInt8(ascii: ".") || b == UInt8(ascii: "@")
            || b == UInt8(ascii: "(") || b == UInt8(ascii: ")") || b == UInt8(ascii: "+")
    }

    /// "preferred", "800x480" or "800x480@60" / "1920x1080@59.94".
    static func parseMode(_ s: String) -> ModeRequest? {
        if s == "preferred" { return .preferred }
        let at = s.split(separator: "@", omittingEmptySubsequences: false)
        guard at.count <= 2 else { return nil }
        let size = at[0].split(separator: "x", omittingEmptySubsequences: false)
        guard size.count == 2, let w = Int(size[0]), let h = Int(size[1]), w > 0, h > 0,
              w <= 16_384, h <= 16_384 else { return nil }
        var refresh: Int?
        if at.count == 2 {
            guard let hz = parseDecimal(String(at[1])), hz > 0, hz <= 1000 else { return nil }
            refresh = Int((hz * 1000).rounded())
        }
        return .size(width: w, height: h, refreshMillihertz: refresh)
    }

    /// A decimal number: optional sign, digits, optional '.' and digits
    /// ("-0.5", "1", "1024.25"). No exponent, no hex, no spaces.
    static func parseDecimal(_ s: String) -> Double? {
        var bytes = Array(s.utf8)[...]
        var negative = false
        if let first = bytes.first, first == UInt8(ascii: "-") || first == UInt8(ascii: "+") {
            negative = first == UInt8(ascii: "-")
            bytes = bytes.dropFirst()
        }
        var value = 0.0, scale = 1.0, digits = 0, seenPoint = false
        for b in bytes {
            if b == UInt8(ascii: "."), !seenPoint { seenPoint = true; continue }
            guard b >= 0x30 && b <= 0x39 else { return nil }
            digits += 1
            guard digits <= 15 else { return nil }   // beyond Double's exact integers
            value = value * 10 + Double(b - 0x30)
            if seenPoint { scale *= 10 }
        }
        guard digits > 0 else { return nil }
        return (negative ? -value : value) / scale
    }
}
