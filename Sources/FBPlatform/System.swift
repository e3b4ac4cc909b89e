import CPosix

/// A failed system call: the call's name and `errno`.
public struct SystemError: Error, CustomStringConvertible {
    public let call: String
    public let errno: Int32
    public init(_ call: String, errno: Int32) { self.call = call; self.errno = errno }
    public var description: String { System.describe("\(call) failed", errno: errno) }
}

/// Thin wrappers for the system calls FBRuntime makes (swift-nio's
/// `System.swift` pattern): EINTR is retried, EAGAIN comes back as `nil`,
/// errors that mean a programming bug (EBADF, EFAULT) trap, the rest throw.
public enum System {
    /// `message`, then `: errno N (text)` when `errno` is not 0: how every
    /// error type of the runtime words a failed call.
    public static func describe(_ message: String, errno: Int32) -> String {
        guard errno != 0 else { return message }
        var text = "\(message): errno \(errno)"
        if let s = strerror(errno) { text += " (" + String(cString: s) + ")" }
        return text
    }

    @inline(__always)
    static func check(_ call: String, _ result: Int) throws(SystemError) -> Int? {
        if result >= 0 { return result }
        let e = fbr_errno()
        if e == EAGAIN || e == EWOULDBLOCK { return nil }
        precondition(e != EBADF && e != EFAULT, "\(call): programming error, errno \(e)")
        throw SystemError(call, errno: e)
    }

    /// Opens `path` with `flags` (O_CLOEXEC is always added).
    public static func open(_ path: String, _ flags: Int32) throws(SystemError) -> Int32 {
        while true {
            let fd = path.withCString { fbr_open($0, flags) }
            if fd >= 0 { return fd }
            if fbr_errno() == EINTR { continue }
            throw SystemError("open " + path, errno: fbr_errno())
        }
    }

    public static func close(_ fd: Int32) {
        _ = CPosix.close(fd)   // close is not retried on EINTR on Linux
    }

    /// Reads up to `count` bytes; `nil` on EAGAIN, 0 at end of file.
    public static func read(_ fd: Int32, _ buffer: UnsafeMutableRawPointer, _ count: Int) throws(SystemError) -> Int? {
        while true {
            let n = CPosix.read(fd, buffer, count)
            if n < 0 && fbr_errno() == EINTR { continue }
            return try check("read", n)
        }
    }

    /// Writes all of `buffer`, retrying short writes and EINTR.
    public static func writeAll(_ fd: Int32, _ buffer: UnsafeRawBufferPointer) throws(SystemError) {
        var offset = 0
        while offset < buffer.count {
            let n = CPosix.write(fd, buffer.baseAddress! + offset, buffer.count - offset)
            if n < 0 && fbr_errno() == EINTR { continue }
            guard let written = try check("write", n) else { continue }
            offset += written
        }
    }

    /// `ioctl` with EINTR retried; returns the result or throws.
    public static func ioctl(_ fd: Int32, _ request: UInt, _ argument: UnsafeMutableRawPointer?) throws(SystemError) -> Int32 {
        while true {
            let r = fbr_ioctl(fd, request, argument)
            if r < 0 && (fbr_errno() == EINTR || fbr_errno() == EAGAIN) { continue }
            if r < 0 { throw SystemError("ioctl", errno: fbr_errno()) }
            return r
        }
    }

    /// Reads a whole (small) file such as one under /proc or a board config.
    public static func readFile(_ path: String, limit: Int = 1 << 20) throws(SystemError) -> [UInt8] {
        let fd = try open(path, O_RDONLY)
        defer { close(fd) }
        var bytes: [UInt8] = []
        let chunk = UnsafeMutableRawPointer.allocate(byteCount: 4096, alignment: 8)
        defer { chunk.deallocate() }
        while bytes.count < limit {
            let n = try read(fd, chunk, 4096) ?? 0
            if n == 0 { break }
            bytes.append(contentsOf: UnsafeRawBufferPointer(start: chunk, count: n))
        }
        return bytes
    }

    /// Creates a directory and its parents (`mkdir -p`).
    public static func makeDirectories(_ path: String) throws(SystemError) {
        var prefix = ""
        for part in path.split(separator: "/", omittingEmptySubsequences: false) {
            prefix += prefix.isEmpty && part.isEmpty ? "/" : (prefix.isEmpty || prefix == "/" ? "" : "/") + String(part)
            if prefix.isEmpty || prefix == "/" { continue }
            let r = prefix.withCString { mkdir($0, 0o755) }
            if r != 0 && fbr_errno() != EEXIST { throw SystemError("mkdir " + prefix, errno: fbr_errno()) }
        }
    }

    /// True when something exists at `path`.
    public static func exists(_ path: String) -> Bool {
        path.withCString { access($0, F_OK) } == 0
    }

    /// The value of an environment variable.
    public static func environment(_ name: String) -> String? {
        guard let value = name.withCString({ getenv($0) }) else { return nil }
        return String(cString: value)
    }

    /// The process's arguments, program name first. Embedded Swift has no
    /// `CommandLine`, so they are read from /proc/self/cmdline (Linux).
    public static func arguments() -> [String] {
        guard let bytes = try? readFile("/proc/self/cmdline") else { return [] }
        var result: [String] = []
        var current: [UInt8] = []
        for b in bytes {
            if b == 0 { result.append(String(decoding: current, as: UTF8.self)); current.removeAll() } else { current.append(b) }
        }
        if !current.isEmpty { result.append(String(decoding: current, as: UTF8.self)) }
        return result
    }

    /// The working directory, or "." if it cannot be read.
    public static func currentDirectory() -> String {
        let buffer = UnsafeMutablePointer<CChar>.allocate(capacity: 4096)
        defer { buffer.deallocate() }
        guard getcwd(buffer, 4096) != nil else { return "." }
        return String(cString: buffer)
    }

    /// `path` made absolute against the working directory.
    public static func absolutePath(_ path: String) -> String {
        path.hasPrefix("/") ? path : currentDirectory() + "/" + path
    }

    /// Monotonic time in nanoseconds (CLOCK_MONOTONIC).
    @inline(__always) public static func monotonicNanoseconds() -> Int64 { fbr_monotonic_ns() }

    /// Processors online now (`sysconf(_SC_NPROCESSORS_ONLN)`), at least 1.
    public static var onlineProcessors: Int { Swift.max(1, fbr_online_processors()) }
}
