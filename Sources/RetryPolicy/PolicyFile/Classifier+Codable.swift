/// A classification table in a policy file (``RetryPolicyFile``): the status lists as text
/// (`"500,502-504"`, `"none"`) and the switches, named as the scenario's `policy.classify.*` keys,
/// plus `retry_transient_codes` and `throttling_codes`, which only the presets set.
extension Classifier {
    static let fields = [
        "retryable_statuses", "throttling_statuses", "auth_statuses", "permanent_statuses", "hinted_statuses", "retry_conflict",
        "retry_timeouts", "retry_transport", "retry_transient_codes", "throttling_codes", "retry_everything", "retry_unlisted",
        "only_unprocessed"
    ]

    /// Reads every field strictly, e.g. the default table:
    ///
    /// ```json
    /// {"retryable_statuses": "500,502-504", "throttling_statuses": "429", "auth_statuses": "401,403",
    ///  "permanent_statuses": "none", "hinted_statuses": "none", "retry_conflict": false,
    ///  "retry_timeouts": true, "retry_transport": true, "retry_transient_codes": true,
    ///  "throttling_codes": true, "retry_everything": false, "retry_unlisted": false, "only_unprocessed": false}
    /// ```
    ///
    /// - Throws: `DecodingError` naming the field that is missing, unknown or malformed.
    public init(from decoder: any Decoder) throws {
        let r = try PolicyJSON.Reader(decoder, fields: Self.fields)
        self.init(
            retryableStatuses: try r.decode(StatusSet.self, "retryable_statuses"),
            throttlingStatuses: try r.decode(StatusSet.self, "throttling_statuses"),
            authRefreshStatuses: try r.decode(StatusSet.self, "auth_statuses"), retryConflict: try r.bool("retry_conflict"),
            retryTimeouts: try r.bool("retry_timeouts"), retryTransport: try r.bool("retry_transport"),
            retryTransientCodes: try r.bool("retry_transient_codes"), throttlingCodes: try r.bool("throttling_codes"),
            retryEverything: try r.bool("retry_everything"), permanentStatuses: try r.decode(StatusSet.self, "permanent_statuses"),
            hintedStatuses: try r.decode(StatusSet.self, "hinted_statuses"), retryUnlistedStatuses: try r.bool("retry_unlisted"),
            onlyUnprocessed: try r.bool("only_unprocessed"))
    }

    /// Writes every field, the status lists as text (``StatusSet/text``).
    public func encode(to encoder: any Encoder) throws {
        var w = PolicyJSON.Writer(encoder)
        try w.encode(retryableStatuses, "retryable_statuses")
        try w.encode(throttlingStatuses, "throttling_statuses")
        try w.encode(authRefreshStatuses, "auth_statuses")
        try w.encode(permanentStatuses, "permanent_statuses")
        try w.encode(hintedStatuses, "hinted_statuses")
        try w.encode(retryConflict, "retry_conflict")
        try w.encode(retryTimeouts, "retry_timeouts")
        try w.encode(retryTransport, "retry_transport")
        try w.encode(retryTransientCodes, "retry_transient_codes")
        try w.encode(throttlingCodes, "throttling_codes")
        try w.encode(retryEverything, "retry_everything")
        try w.encode(retryUnlistedStatuses, "retry_unlisted")
        try w.encode(onlyUnprocessed, "only_unprocessed")
    }
}
