import CPosix
import FBRuntime

/// A failed read or write of a settings file: one line naming the file and
/// the cause (with errno's text where a system call failed).
public struct SettingsError: Error, CustomStringConvertible {
    public let description: String
    public init(_ description: String) { self.description = description }
}

/// An app's small key–value settings (the temperature unit, the brightness,
/// "eco mode"), kept in one file that survives power loss: every change is
/// written to a temporary file beside it, flushed to the storage
/// (`fsync`), renamed over the file, and the directory flushed too, so
/// after a crash or a power cut at any point the file holds either the
/// settings before the change or those after it, never a mix or a torn
/// file.
///
///     let settings = try app.openSettings()
///     let celsius = settings.bool(forKey: "celsius") ?? true
///     try settings.set(false, forKey: "celsius")
///
/// **Keys** are 1–64 ASCII letters, digits, `.`, `_` or `-`; **values** are
/// strings (any text; `bool` and `int` read and write their text forms:
/// keep a fraction as an integer percentage or per mille). The file is UTF-8 text, one `key=value` line per setting
/// between a header line and an end line that counts them (a file
/// without it is refused as incomplete); in values, `\` and line breaks
/// are written `\\` and `\n`.
///
/// Each `set` writes the whole file (settings are few and change rarely:
/// a few hundred bytes, one `fsync` each). A store belongs to one thread,
/// the app thread; two processes must not write one file.
public final class SettingsStore {
    /// The settings file.
    public let path: String
    private var entries: [(key: String, value: String)] = []

    /// Opens the settings at `path`: an absent file is an empty store (it
    /// is created by the first `set`); a file that cannot be read or is
    /// not a complete settings file is an error, and the file is left as
    /// it is.
    public init(path: String) throws(SettingsError) {
        self.path = path
        try load()
    }

    /// The settings, in the order they were first set.
    public var all: [(key: String, value: String)] { entries }

    public func string(forKey key: String) -> String? {
        var i = 0
        while i < entries.count {
            if entries[i].key == key { return entries[i].value }
            i += 1
        }
        return nil
    }

    /// `true` for the text "true", `false` for "false", else `nil`.
    public func bool(forKey key: String) -> Bool? {
        switch string(forKey: key) {
        case "true": return true
        case "false": return false
        default: return nil
        }
    }

    public func int(forKey key: String) -> Int? { string(forKey: key).flatMap { Int($0) } }


    /// Sets `key` to `value` (`nil` removes it) and writes the file
    /// atomically (see the type). On an error the store and the file keep
    /// the settings they had.
    public func set(_ value: String?, forKey key: String) throws(SettingsError) {
        guard SettingsStore.isValidKey(key) else {
            throw SettingsError("\(path): invalid settings key '\(key)' (1-64 letters, digits, '.', '_' or '-')")
        }
        let before = entries
        var i = 0
        while i < entries.count && entries[i].key != key { i += 1 }
        if let value {
            if i < entries.count { entries[i].value = value } else { entries.append((key, value)) }
        } else if i < entries.count {
            entries.remove(at: i)
        }
        do throws(SettingsError) {
            try save()
        } catch {
            entries = before
            throw error
        }
    }

    public func set(_ value: Bool, forKey key: String) throws(SettingsError) { try set(value ? "true" : "false", forKey: key) }
    public func set(_ value: Int, forKey key: String) throws(SettingsError) { try set(String(value), forKey: key) }

    // MARK: The file

    static let header = "fbruntime-settings 1"

    static func isValidKey(_ key: String) -> Bool {
        var count = 0
        for b in key.utf8 {
            count += 1
            let ok = (b >= 0x30 && b <= 0x39) || (b >= 0x41 && b <= 0x5A) || (b >= 0x61 && b <= 0x7A)
                || b == 0x2E || b == 0x5F || b == 0x2D
            if !ok || count > 64 { return false }
        }
        return count > 0
    }

    /// The file's bytes for the current entries.
    func encoded() -> [UInt8] {
        var out: [UInt8] = []
        out.append(contentsOf: SettingsStore.header.utf8)
        out.append(0x0A)
        var i = 0
        while i < entries.count {
            out.append(contentsOf: entries[i].key.utf8)
            out.append(0x3D)                                        // =
            for b in entries[i].value.utf8 {
                switch b {
                case 0x5C: out.append(0x5C); out.append(0x5C)       // \ → \\
                case 0x0A: out.append(0x5C); out.append(0x6E)       // line feed → \n
                case 0x0D: out.append(0x5C); out.append(0x72)       // carriage return → \r
                default: out.append(b)
                }
            }
            out.append(0x0A)
            i += 1
        }
        out.append(contentsOf: "end \(entries.count)\n".utf8)
        return out
    }

    /// Reads the file into `entries`.
    func load() throws(SettingsError) {
        let fd = fbr_open(path, O_RDONLY)
        if fd < 0 {
            let e = fbr_errno()
            if e == ENOENT { entries = []; return }
            throw SettingsError(System.describe("\(path): cannot open the settings file", errno: e))
        }
        defer { close(fd) }
        var bytes: [UInt8] = []
        var chunk = [UInt8](repeating: 0, count: 4096)
        while true {
            let n = chunk.withUnsafeMutableBytes { read(fd, $0.baseAddress, $0.count) }
            if n < 0 {
                let e = fbr_errno()
                if e == EINTR { continue }
                throw SettingsError(System.describe("\(path): cannot read the settings file", errno: e))
            }
            if n == 0 { break }
            bytes.append(contentsOf: chunk[0..<n])
            if bytes.count > SettingsStore.maximumFileSize {
                throw SettingsError("\(path): not a settings file (larger than \(SettingsStore.maximumFileSize) bytes)")
            }
        }
        entries = try SettingsStore.decode(bytes, path: path)
    }

    /// Settings files are small; a larger one is refused rather than read.
    static let maximumFileSize = 1 << 20

    static func decode(_ bytes: [UInt8], path: String) throws(SettingsError) -> [(key: String, value: String)] {
        // Lines, each ending in a line feed.
        var lines: [ArraySlice<UInt8>] = []
        var start = 0, i = 0
        while i < bytes.count {
            if bytes[i] == 0x0A { lines.append(bytes[start..<i]); start = i + 1 }
            i += 1
        }
        func corrupt(_ why: String) -> SettingsError { SettingsError("\(path): not a complete settings file (\(why))") }
        guard start == bytes.count else { throw corrupt("the last line has no end") }
        guard let first = lines.first, Array(first) == Array(SettingsStore.header.utf8) else {
            throw corrupt("no '\(SettingsStore.header)' header")
        }
        guard lines.count >= 2, let last = lines.last, last.starts(with: Array("end ".utf8)),
              let count = Int(String(decoding: last.dropFirst(4), as: UTF8.self)), count == lines.count - 2 else {
            throw corrupt("no end line counting its \(Swift.max(0, lines.count - 2)) settings")
        }
        var entries: [(key: String, value: String)] = []
        var k = 1
        while k < lines.count - 1 {
            let line = lines[k]
            guard let eq = line.firstIndex(of: 0x3D) else { throw corrupt("line \(k + 1) has no '='") }
            let key = String(decoding: line[line.startIndex..<eq], as: UTF8.self)
            guard isValidKey(key) else { throw corrupt("line \(k + 1): invalid key") }
            var value: [UInt8] = []
            var j = eq + 1
            while j < line.endIndex {
                let b = line[j]
                if b == 0x5C {
                    j += 1
                    guard j < line.endIndex else { throw corrupt("line \(k + 1) ends in '\\'") }
                    switch line[j] {
                    case 0x5C: value.append(0x5C)
                    case 0x6E: value.append(0x0A)
                    case 0x72: value.append(0x0D)
                    default: throw corrupt("line \(k + 1): unknown escape")
                    }
                } else {
                    value.append(b)
                }
                j += 1
            }
            entries.append((key, String(decoding: value, as: UTF8.self)))
            k += 1
        }
        return entries
    }

    /// Writes the file atomically: a temporary file beside it, written,
    /// flushed (`fsync`) and closed, renamed over the file, then the
    /// directory flushed so the rename itself is on the storage.
    func save() throws(SettingsError) {
        let temporary = path + ".tmp"
        let bytes = encoded()
        let fd = fbr_open_mode(temporary, O_WRONLY | O_CREAT | O_TRUNC, 0o644)
        guard fd >= 0 else {
            throw SettingsError(System.describe("\(path): cannot create \(temporary)", errno: fbr_errno()))
        }
        var written = 0
        while written < bytes.count {
            let n = bytes.withUnsafeBytes { write(fd, $0.baseAddress! + written, $0.count - written) }
            if n < 0 {
                let e = fbr_errno()
                if e == EINTR { continue }
                close(fd)
                unlink(temporary)
                throw SettingsError(System.describe("\(path): cannot write \(temporary)", errno: e))
            }
            written += n
        }
        if fsync(fd) != 0 {
            let e = fbr_errno()
            close(fd)
            unlink(temporary)
            throw SettingsError(System.describe("\(path): cannot flush \(temporary)", errno: e))
        }
        close(fd)
        if rename(temporary, path) != 0 {
            let e = fbr_errno()
            unlink(temporary)
            throw SettingsError(System.describe("\(path): cannot rename \(temporary) over it", errno: e))
        }
        let directory = SettingsStore.directory(of: path)
        let dfd = fbr_open(directory, O_RDONLY | O_DIRECTORY)
        guard dfd >= 0 else {
            throw SettingsError(System.describe("\(path): cannot open its directory \(directory) to flush it", errno: fbr_errno()))
        }
        defer { close(dfd) }
        if fsync(dfd) != 0 {
            throw SettingsError(System.describe("\(path): cannot flush its directory \(directory)", errno: fbr_errno()))
        }
    }

    /// The directory part of `path` ("." for a bare file name, "/" at the root).
    static func directory(of path: String) -> String {
        let bytes = Array(path.utf8)
        var i = bytes.count - 1
        while i >= 0 && bytes[i] != 0x2F { i -= 1 }
        if i < 0 { return "." }
        if i == 0 { return "/" }
        return String(decoding: bytes[0..<i], as: UTF8.self)
    }
}
