/// Warnings about bad input the runtime clamped or skipped (a huge layer,
/// a zero contents scale, a keymap that does not exist, …): each names the
/// layer (or the part of the runtime), and each (layer, kind) pair is
/// reported once, so a bad value set every frame does not flood
/// the log. By default they go to standard error; tests and apps can
/// install a `sink`.
///
/// Threading: warnings may come from the render thread; the sink is called
/// under a lock.
public enum Diagnostics {
    /// Receives each warning once. `nil`: write a line to standard error.
    nonisolated(unsafe) public static var sink: ((String) -> Void)?

    nonisolated(unsafe) static var reported: [(id: ObjectIdentifier, kind: String)] = []
    static let lock = Lock()
    /// Distinct warnings remembered; beyond it the oldest are forgotten
    /// (and could be reported again).
    static let memory = 256

    /// Reports `message` about `layer` unless this `kind` was already
    /// reported for it. The message is built only when it is reported, so
    /// a repeated warning costs no allocation (the render path calls this
    /// every frame for a bad layer).
    public static func warn(_ layer: Layer, _ kind: String, _ message: @autoclosure () -> String) {
        let id = ObjectIdentifier(layer)
        lock.withLock {
            // Checked before the line is built: a bad value seen every frame
            // costs no allocation after its first report.
            var i = 0
            while i < reported.count {
                if reported[i].id == id && reported[i].kind == kind { return }
                i += 1
            }
            let line = "FBRuntime warning: layer \"\(layer.name)\": \(message())"
            if reported.count >= memory { reported.removeFirst() }
            reported.append((id, kind))
            emit(line)
        }
    }

    /// Reports `message` about `subject`, a part of the runtime rather than
    /// a layer ("keyboard"), every time it is called: for a problem found
    /// once while setting something up (a board's keymap that does not
    /// exist), not for one seen every frame.
    public static func warn(_ subject: String, _ message: String) {
        lock.withLock { emit("FBRuntime warning: \(subject): \(message)") }
    }

    /// To the sink, else a line on standard error. Called under `lock`.
    private static func emit(_ line: String) {
        if let sink { sink(line) } else {
            let text = line + "\n"
            var bytes = Array(text.utf8)
            bytes.withUnsafeMutableBytes { try? System.writeAll(2, UnsafeRawBufferPointer($0)) }
        }
    }

    /// Forgets what was reported (tests).
    public static func reset() { lock.withLock { reported.removeAll() } }
}
