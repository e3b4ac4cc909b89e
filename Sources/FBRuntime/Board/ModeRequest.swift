/// Which display mode to use (a board file's `mode`; `KMSOutput` picks it
/// from the connector's modes).
public enum ModeRequest: Equatable, Sendable {
    /// The mode the connector marks preferred (its first mode if none is).
    case preferred
    /// A mode of this size; with `refreshMillihertz`, the one whose refresh
    /// rate is within 0.5 Hz of it, else the connector's first of that size.
    case size(width: Int, height: Int, refreshMillihertz: Int?)
}
