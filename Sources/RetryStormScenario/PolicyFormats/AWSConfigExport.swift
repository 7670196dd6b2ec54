import RetryPolicy

/// A policy as a profile of the AWS SDKs' shared config file: `retry_mode = standard` and
/// `max_attempts`, the two retry settings the file has (``AWSConfigImport``). Everything else the
/// policy does — its backoff, its quota — is the SDK's own, so the reading back names every
/// difference from the standard mode's.
enum AWSConfigExport {
    static func text(_ p: RetryPolicy) -> String {
        let most = ImportBuilder.range(of: "policy.max_attempts").upperBound
        return "[default]\nretry_mode = standard\nmax_attempts = \(min(max(1, p.maxAttempts), most))\n"
    }
}
