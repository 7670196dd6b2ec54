/// The version printed by `--version` and recorded in reports.
public enum RetryStormVersion {
    /// This build's version, semantic-versioning `major.minor.patch`.
    public static let current = "0.2.0"
}
