import RetryStormScenario
import Testing

/// A service config's status codes read as grpc-go reads them: `codes.Code`'s `UnmarshalJSON`
/// takes a JSON number of plain digits below 17 (`strconv.ParseUint(b, 10, 32)`, then
/// `ci >= _maxCode` refused) or a JSON string that is exactly a key of its `strToCode` table
/// (`"UNAVAILABLE"`, upper snake case). Anything else makes grpc-go refuse the whole config, so
/// the importer refuses it, stating that rule, where it once imported `"unavailable"` and `"14"`
/// without a word and suggested OK for 17.
struct GRPCStatusCodeRuleTests {
    typealias S = PolicyFormatSupport

    /// A retry policy whose codes list holds `code`, on the second line at column 28.
    static func config(_ code: String) -> String {
        """
        {"methodConfig": [{"retryPolicy": {"maxAttempts": 3, "initialBackoff": "0.1s", "maxBackoff": "1s", "backoffMultiplier": 2,
          "retryableStatusCodes": [\(code)]}}]}
        """
    }

    static let rule = "grpc-go takes a code's name in upper case as text (\"UNAVAILABLE\") or its number 0…16 unquoted (14)"
    static let field = "svc.json:2:28: field 'methodConfig[0].retryPolicy.retryableStatusCodes[0]':"

    @Test(
        "the name in upper case and the bare number are the same code: UNAVAILABLE is 14, UNAUTHENTICATED 16 (google/rpc/code.proto)",
        arguments: [
            ("\"UNAVAILABLE\"", "502-503", "true"), ("14", "502-503", "true"), ("\"UNAUTHENTICATED\"", "401", "false"),
            ("16", "401", "false")
        ])
    func accepted(_ code: String, _ statuses: String, _ transport: String) throws {
        let imported = try S.importing(Self.config(code))
        #expect(imported.value(of: "policy.classify.retryable_statuses") == statuses)
        #expect(imported.value(of: "policy.classify.retry_transport") == transport)
    }

    @Test(
        "what grpc-go refuses is refused with the rule, one line naming file, line and field; no suggestion for a number",
        arguments: [
            ("\"unavailable\"", "'unavailable' is not a gRPC status code: \(rule); write \"UNAVAILABLE\""),
            ("\"Unavailable\"", "'Unavailable' is not a gRPC status code: \(rule); write \"UNAVAILABLE\""),
            ("\"14\"", "'14' is not a gRPC status code: \(rule); write 14 without quotes, or \"UNAVAILABLE\""),
            ("\"17\"", "'17' is not a gRPC status code: \(rule)"),
            ("17", "the number 17 is not a gRPC status code: \(rule)"),
            ("14.0", "the number 14.0 is not a gRPC status code: \(rule)"),
            ("-1", "the number -1 is not a gRPC status code: \(rule)"),
            ("9223372036854775808", "the number 9223372036854775808 is not a gRPC status code: \(rule)"),
            ("\"UNAVAILBLE\"", "'UNAVAILBLE' is not a gRPC status code: \(rule); did you mean UNAVAILABLE?"),
            ("true", "true is not a gRPC status code: \(rule)")
        ])
    func refused(_ code: String, _ message: String) {
        #expect(S.refusal(Self.config(code)) == "\(Self.field) \(message)")
    }
}
