/// Warnings about bad input the runtime clamped or skipped (a huge layer,
/// a zero contents scale, …): each names the layer, and each (layer, kind)
/// pair is reported once, so a bad value set every frame does not flood
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
    /// reported for it.
    public static func warn(_ layer: Layer, _ kind: String, _ message: String) {
        let id = ObjectIdentifier(layer)
        let line = "FBRuntime warning: layer \"\(layer.name)\": \(message)"
        lock.withLock {
            if reported.contains(where: { $0.id == id && $0.kind == kind }) { return }
            if reported.count >= memory { reported.removeFirst() }
            reported.append((id, kind))
            if let sink { sink(line) } else {
                let text = line + "\n"
                var bytes = Array(text.utf8)
                bytes.withUnsafeMutableBytes { try? System.writeAll(2, UnsafeRawBufferPointer($0)) }
            }
        }
    }

    /// Forgets what was reported (tests).
    public static func reset() { lock.withLock { reported.removeAll() } }
}
