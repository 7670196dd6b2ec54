/// A retry policy as a versioned JSON file: what `retrystorm policy export` prints, and what an
/// app decodes with `JSONDecoder` to run the policy it simulated ("what you simulate is what you
/// ship"). docs/policy-library.md (Policy files) documents every field.
///
/// ```json
/// {
///   "policy" : { "max_attempts" : 3, "backoff" : { "kind" : "exponential", "base" : "1s", … }, … },
///   "retrystorm_policy" : 1,
///   "source" : "experiments/mobile-fleet.yaml, variant naive"
/// }
/// ```
///
/// ```swift
/// let file = try JSONDecoder().decode(RetryPolicyFile.self, from: data)
/// let profile = try await retrying(file.policy) { _ in try await api.loadProfile() }
/// ```
///
/// Decoding is strict: the version must be one this library reads (``oldestVersion`` through
/// ``version``), every field of the policy must be there (`null` for an absent part), no unknown
/// field and no field newer than the file's version, every value in range. The `DecodingError`'s
/// coding path names the field; ``message(for:)`` makes one line of it.
///
/// The version rises only when a file carries a field that older readers refuse, and a file is
/// written with the oldest version that holds it (``writtenVersion``): a policy without hedging is
/// still version 1, which RetryStorm 0.2.0's readers take.
///
/// | version | since | what it adds |
/// |---|---|---|
/// | 1 | 0.1.0 | the format |
/// | 2 | 0.3.0 | `policy.hedging` |
public struct RetryPolicyFile: Sendable, Hashable, Codable {
    /// The newest version of the format this library reads and writes, in the `retrystorm_policy`
    /// field. A newer file is refused, naming its version: its fields' meaning may have changed.
    public static let version = 2
    /// The oldest version this library reads.
    public static let oldestVersion = 1
    /// The version that added `policy.hedging` (RetryStorm 0.3.0): a version 1 file with it is refused.
    public static let hedgingVersion = 2

    /// The version this file is written with: the oldest that holds every field it carries, so
    /// that a reader as old as that version takes it.
    public var writtenVersion: Int { policy.hedging == nil ? Self.oldestVersion : Self.hedgingVersion }

    /// The policy the file carries, in the `policy` field.
    public var policy: RetryPolicy
    /// Where the policy came from (scenario, variant), for people reading the file; optional, and
    /// not used by the library.
    public var source: String?

    /// A file for `policy`, with an optional note of where it came from.
    ///
    /// ```swift
    /// let encoder = JSONEncoder()
    /// encoder.outputFormatting = [.prettyPrinted, .sortedKeys]
    /// let data = try encoder.encode(RetryPolicyFile(policy: .grpc, source: "preset grpc"))
    /// ```
    public init(policy: RetryPolicy, source: String? = nil) {
        self.policy = policy
        self.source = source
    }

    /// Reads a policy file: the `retrystorm_policy` version first (``oldestVersion`` through
    /// ``version``), then `policy` and the optional `source`, refusing any other field and any
    /// field the file's version does not have.
    ///
    /// - Throws: `DecodingError`; ``message(for:)`` turns it into one line naming the field.
    public init(from decoder: any Decoder) throws {
        // The version first: a newer file is refused as such, not for the fields it added.
        let c = try decoder.container(keyedBy: PolicyJSON.Key.self)
        let versionKey = PolicyJSON.Key("retrystorm_policy")
        guard c.contains(versionKey) else {
            throw DecodingError.dataCorrupted(
                .init(
                    codingPath: c.codingPath, debugDescription: "not a RetryStorm policy file (no \"retrystorm_policy\" version field)"))
        }
        let v = try c.decode(Int.self, forKey: versionKey)
        guard (Self.oldestVersion...Self.version).contains(v) else {
            let newer = v > Self.version ? ", a newer format than this library's: update RetryPolicy" : ""
            throw DecodingError.dataCorrupted(
                .init(
                    codingPath: c.codingPath + [versionKey],
                    debugDescription:
                        "version \(v) is not supported: this RetryPolicy reads versions \(Self.oldestVersion) to \(Self.version)\(newer)"))
        }
        let r = try PolicyJSON.Reader(decoder, fields: ["retrystorm_policy", "source", "policy"])
        source = c.contains(PolicyJSON.Key("source")) ? try r.optional(String.self, "source") : nil
        policy = try r.decode(RetryPolicy.self, "policy")
        if v < Self.hedgingVersion && policy.hedging != nil {
            throw DecodingError.dataCorrupted(
                .init(
                    codingPath: c.codingPath + [PolicyJSON.Key("policy"), PolicyJSON.Key("hedging")],
                    debugDescription:
                        "not in version \(v) of the format: hedging came in version \(Self.hedgingVersion) (set \"retrystorm_policy\": \(Self.hedgingVersion))"
                ))
        }
    }

    /// Writes `retrystorm_policy` (``writtenVersion``), `source` (`null` when nil) and `policy`.
    public func encode(to encoder: any Encoder) throws {
        var w = PolicyJSON.Writer(encoder)
        try w.encode(writtenVersion, "retrystorm_policy")
        try w.optional(source, "source")
        try w.encode(policy, "policy")
    }

    /// One line saying what is wrong with a policy file and where, for an error thrown while
    /// decoding it: `policy.backoff.base: must not be negative (got "-1s")`,
    /// `policy.breaker.kind: missing`, `retrystorm_policy: version 3 is not supported: …`.
    public static func message(for error: any Error) -> String {
        guard let e = error as? DecodingError else { return "\(error)" }
        switch e {
        case .keyNotFound(let key, let context):
            return "\(path(context.codingPath + [key])): missing"
        case .valueNotFound(let type, let context):
            return "\(path(context.codingPath)): expected \(describe(type)), not null"
        case .typeMismatch(let type, let context):
            return "\(path(context.codingPath)): expected \(describe(type))"
        case .dataCorrupted(let context):
            if context.codingPath.isEmpty, let underlying = context.underlyingError {
                return "not valid JSON: \(underlying)"
            }
            return context.codingPath.isEmpty ? context.debugDescription : "\(path(context.codingPath)): \(context.debugDescription)"
        @unknown default:
            return "\(e)"
        }
    }

    /// A coding path as dotted field names, list positions in brackets: `policy.breaker.records[2]`.
    static func path(_ keys: [any CodingKey]) -> String {
        var text = ""
        for key in keys {
            if let i = key.intValue { text += "[\(i)]" } else { text += (text.isEmpty ? "" : ".") + key.stringValue }
        }
        return text.isEmpty ? "the file" : text
    }

    static func describe(_ type: Any.Type) -> String {
        switch type {
        case is String.Type: "a string"
        case is Int.Type, is Int64.Type: "a whole number"
        case is Double.Type: "a number"
        case is Bool.Type: "true or false"
        case is [Any].Type: "a list"
        default: "an object"
        }
    }
}
