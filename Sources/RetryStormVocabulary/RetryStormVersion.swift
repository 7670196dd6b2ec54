/// The version printed by `--version` and recorded in reports.
public enum RetryStormVersion {
    public static let current = "0.1.0"
}
