/// Which KMS commit interface to use (`--kms-api`, the board file's
/// `kms-api`). The KMS backend makes the committer
/// (`FBRuntimeKMS`, `KMSAPIChoice.makeCommitter(for:)`).
public enum KMSAPIChoice: Equatable, Sendable {
    /// Atomic where the driver accepts DRM_CLIENT_CAP_ATOMIC and a primary
    /// plane with the needed properties is found, else legacy.
    case auto
    case atomic
    case legacy

    /// Parses "auto", "atomic" or "legacy".
    public init?(_ text: String) {
        switch text {
        case "auto": self = .auto
        case "atomic": self = .atomic
        case "legacy": self = .legacy
        default: return nil
        }
    }
}
