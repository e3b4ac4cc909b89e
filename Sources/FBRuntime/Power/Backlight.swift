import CPosix

/// Which backlight a board drives (its board file's `backlight`).
public enum BacklightChoice: Equatable, Sendable {
    /// The first device under /sys/class/backlight (by name), if any.
    case auto
    /// None: idle blanking turns the display off but touches no backlight.
    case none
    /// A device under /sys/class/backlight by name ("intel_backlight",
    /// "10-0045").
    case named(String)
    /// A device directory given whole (it holds `brightness` and
    /// `max_brightness`): a backlight elsewhere in sysfs, or a directory
    /// shaped like one where a test has no real device.
    case directory(String)
}

/// A Linux backlight device (`/sys/class/backlight/NAME`): its
/// `brightness` file read and written as a decimal number of 0…
/// `maxBrightness` steps (the driver's own units: PWM duty steps, often
/// 0…255, or a panel's 0…100). 0 is dark on most drivers; some keep a
/// faint glow at 0, which is why display power goes off too
/// (`IdleBlanker`).
///
/// Each call opens the file, reads or writes it and closes it again:
/// a few syscalls at a state change, nothing per frame.
public final class Backlight {
    /// The device's directory.
    public let directory: String
    /// The largest brightness the driver takes (`max_brightness`), ≥ 1.
    public let maxBrightness: Int

    /// Opens the device at `directory`: reads `max_brightness`.
    /// - Throws: when it cannot be read or is not a positive number.
    public init(directory: String) throws(SystemError) {
        self.directory = directory
        let max = try Backlight.readNumber(directory + "/max_brightness")
        guard max > 0 else { throw SystemError("reading a positive \(directory)/max_brightness (got \(max))", errno: EINVAL) }
        maxBrightness = max
    }

    /// The device a board's choice names, or nil (none chosen, or none
    /// found: `reason` says why, for a log line). `classDirectory`:
    /// where named devices live (tests pass a temporary directory).
    public static func open(_ choice: BacklightChoice, classDirectory: String = "/sys/class/backlight")
        -> (backlight: Backlight?, reason: String?) {
        var directory: String
        switch choice {
        case .none:
            return (nil, nil)
        case .directory(let path):
            directory = path
        case .named(let name):
            directory = classDirectory + "/" + name
        case .auto:
            var name = [CChar](repeating: 0, count: 256)
            let r = fbr_first_directory_entry(classDirectory, &name, name.count)
            guard r == 0 else { return (nil, "no backlight device in \(classDirectory)") }
            directory = classDirectory + "/" + name.withUnsafeBufferPointer { String(cString: $0.baseAddress!) }
        }
        do { return (try Backlight(directory: directory), nil) } catch {
            return (nil, error.description)
        }
    }

    /// The brightness now, 0…`maxBrightness`.
    public func brightness() throws(SystemError) -> Int {
        try Backlight.readNumber(directory + "/brightness")
    }

    /// Sets the brightness; `value` is clamped to 0…`maxBrightness`.
    public func setBrightness(_ value: Int) throws(SystemError) {
        let text = Array("\(min(max(value, 0), maxBrightness))\n".utf8)
        // O_TRUNC: sysfs ignores it; a plain file standing in for one needs it.
        let fd = try System.open(directory + "/brightness", O_WRONLY | O_TRUNC)
        defer { System.close(fd) }
        // sysfs takes a value in one write.
        var failure: SystemError?
        text.withUnsafeBytes { bytes in
            do throws(SystemError) { try System.writeAll(fd, bytes) } catch { failure = error }
        }
        if let failure { throw failure }
    }

    /// `percent` (0…100) of `maxBrightness`, rounded to the nearest step,
    /// and at least 1 for any percent above 0 (so "dim" never means dark).
    public func steps(percent: Int) -> Int {
        let p = min(max(percent, 0), 100)
        guard p > 0 else { return 0 }
        return max(1, (maxBrightness * p + 50) / 100)
    }

    static func readNumber(_ path: String) throws(SystemError) -> Int {
        let bytes = try System.readFile(path, limit: 64)
        var value = 0, digits = 0
        for b in bytes {
            if b == 0x0A || b == 0x20 { if digits > 0 { break } else { continue } }
            guard b >= 0x30 && b <= 0x39, digits < 12 else { throw SystemError("reading a number from \(path)", errno: EINVAL) }
            value = value * 10 + Int(b - 0x30)
            digits += 1
        }
        guard digits > 0 else { throw SystemError("reading a number from \(path) (empty)", errno: EINVAL) }
        return value
    }
}
