import RetryStormVocabulary

/// The retry settings of the AWS SDKs' shared config file (`~/.aws/config`) as scenario keys:
/// a profile's `retry_mode` and `max_attempts` (the AWS SDKs and Tools Reference Guide, "Retry
/// behavior", `feature-retry-behavior.html`; the file's format, "Shared config and credentials
/// files", `file-format.html`).
///
/// The file is read as the SDKs read it (botocore's `raw_config_parse`, Python's
/// `configparser`): `[default]` and `[profile NAME]` sections of `name = value` lines, comments
/// on lines of their own starting with `#` or `;`, indented lines continuing a nested setting
/// (`s3 =` and its subsettings). A section or setting given twice is refused, as configparser's
/// strict mode refuses it.
///
/// | setting (default) | key |
/// |---|---|
/// | `retry_mode` (`standard` here; the SDKs' defaults differ) | `policy.preset: aws-standard-2026` |
/// | `max_attempts` (3 in standard mode; attempts, the first included) | `policy.max_attempts` |
///
/// `adaptive` (standard with a client-side rate limiter) and `legacy` (each SDK's own) are
/// refused as not modelled unless listed to ignore; the profile's other settings (region,
/// credentials, endpoints) are not about retrying and are left out, and a setting the SDKs do not
/// document is refused with the nearest one that they do.
struct AWSConfigImport {
    var builder: ImportBuilder
    /// Every refusal found, listed at once.
    var refusals: [ScenarioError] = []

    init(request: PolicyImportRequest, file: String) {
        builder = ImportBuilder(request: request, file: file)
    }

    /// One `name = value` line: where the value starts, for messages.
    struct Setting {
        var name: String
        var value: String
        var line: Int
        var column: Int
    }

    /// One `[name]` section and its settings.
    struct Section {
        var name: String
        var line: Int
        var settings: [Setting] = []
    }

    /// The settings a profile of the shared config file may hold (the Reference Guide's
    /// "Settings reference" and the AWS CLI's own): anything else is refused as a misspelling.
    static let knownSettings = [
        "region", "output", "aws_access_key_id", "aws_secret_access_key", "aws_session_token", "aws_account_id", "role_arn",
        "source_profile", "credential_source", "role_session_name", "external_id", "mfa_serial", "duration_seconds",
        "web_identity_token_file", "credential_process", "sso_session", "sso_account_id", "sso_role_name", "sso_region", "sso_start_url",
        "sso_registration_scopes", "ca_bundle", "cli_pager", "cli_timestamp_format", "cli_auto_prompt", "cli_binary_format", "cli_history",
        "cli_follow_urlparam", "defaults_mode", "endpoint_url", "ignore_configured_endpoint_urls", "endpoint_discovery_enabled",
        "max_attempts", "retry_mode", "parameter_validation", "use_dualstack_endpoint", "use_fips_endpoint", "sts_regional_endpoints",
        "s3", "services", "metadata_service_timeout", "metadata_service_num_attempts", "ec2_metadata_service_endpoint",
        "ec2_metadata_service_endpoint_mode", "ec2_metadata_v1_disabled", "disable_request_compression",
        "request_min_compression_size_bytes", "sdk_ua_app_id", "account_id_endpoint_mode", "auth_scheme_preference",
        "sigv4a_signing_region_set", "request_checksum_calculation", "response_checksum_validation", "tcp_keepalive", "api_versions",
        "s3_use_arn_region", "s3_disable_multiregion_access_points", "disable_s3_express_session_auth", "login_session"
    ]

    /// The standard mode's default attempts (the Reference Guide: "max_attempts … default 3").
    static let defaultAttempts = 3

    /// Whether `text` looks like an INI file: its first line that is not blank or a comment is a
    /// `[section]` header or a `name = value` setting. A JSON or YAML policy file never starts so
    /// (a YAML key ends with a colon; a flow list holds commas or quotes).
    static func looksLikeINI(_ text: String) -> Bool {
        for raw in text.split(separator: "\n", omittingEmptySubsequences: false) {
            let line = String(raw).trimmingWhitespace()
            if line.isEmpty || line.hasPrefix("#") || line.hasPrefix(";") { continue }
            if line.hasPrefix("[") { return line.hasSuffix("]") && !line.contains(",") && !line.contains("\"") && !line.dropFirst().hasPrefix("{") }
            guard let eq = line.firstIndex(of: "=") else { return false }
            let name = String(line[..<eq]).trimmingWhitespace()
            return !name.isEmpty && name.allSatisfy { $0.isLetter || $0.isNumber || $0 == "_" || $0 == "-" }
        }
        return false
    }

    mutating func run(_ text: String) throws(ScenarioError) -> ImportedPolicy {
        let sections = parse(text)
        let wanted = builder.request.profile ?? "default"
        let names = sections.compactMap { Self.profileName($0.name) }
        let matches = sections.filter { Self.profileName($0.name) == wanted }
        guard let profile = matches.first else {
            let hint = Suggest.nearest(wanted, in: names).map { "; did you mean '\($0)'?" } ?? ""
            throw ScenarioError(
                SourceLocation(origin: .file(builder.file)),
                "has no profile '\(MessageText.escaped(wanted))' (profiles: \(names.isEmpty ? "none" : names.joined(separator: ", ")))\(hint); name one with --profile (policy.import.profile)"
            )
        }
        if matches.count > 1 {
            refuse(
                matches[1].line, 1, matches[1].name,
                "gives profile '\(wanted)' a second time (line \(profile.line) gives it first): the SDKs would not read this file")
        }
        var mode: Setting?
        var attempts: Setting?
        for s in profile.settings {
            let path = profile.name + "." + s.name
            switch s.name {
            case "retry_mode": mode = s
            case "max_attempts": attempts = s
            case _ where Self.knownSettings.contains(s.name) || builder.request.ignores(path): continue
            default:
                let hint = Suggest.nearest(s.name, in: Self.knownSettings).map { "; did you mean '\($0)'?" } ?? ""
                refuse(s.line, s.column, path, "is not a setting of the AWS shared config file\(hint)")
            }
        }
        importMode(mode, in: profile)
        importAttempts(attempts, in: profile)
        // Which standard mode the profile means is the SDK's version, not the file's: since 10
        // November 2026 every SDK but Java 2.x and Kotlin runs the 2026 one by default (the AWS
        // Developer Tools Blog, "Updated default retry behavior for AWS SDKs and tools").
        builder.note(
            nil,
            "standard mode reads as the SDKs' 2026 standard mode, their default since November 2026 (botocore 1.44.0, aws-sdk-go-v2 v1.48.0, JavaScript 3.1166.0 and the others); Java 2.x, Kotlin and older SDKs run the pre-2026 one: policy.preset aws-standard simulates it"
        )
        // In the order of the file, as the other formats list theirs.
        let ordered = refusals.sorted { ($0.location.line ?? 0, $0.location.column ?? 0) < ($1.location.line ?? 0, $1.location.column ?? 0) }
        if var first = ordered.first {
            first.more = Array(ordered.dropFirst().prefix(PolicyImporter.maxRefusals - 1))
            throw first
        }
        return try builder.finish(.awsConfig)
    }

    /// `default` for `[default]` and `[profile default]`, `NAME` for `[profile NAME]`; nil for
    /// the file's other sections (`[sso-session NAME]`, `[services NAME]`).
    static func profileName(_ section: String) -> String? {
        if section == "default" { return "default" }
        let parts = section.split(separator: " ", maxSplits: 1, omittingEmptySubsequences: true)
        guard parts.count == 2, parts[0] == "profile" else { return nil }
        return String(parts[1]).trimmingWhitespace()
    }

    mutating func importMode(_ mode: Setting?, in profile: Section) {
        guard let mode else {
            builder.set(
                "policy.preset", "aws-standard-2026",
                default: "no retry_mode: read as standard, the SDKs' default since November 2026 (Java 2.x's is still legacy)")
            return
        }
        let path = profile.name + ".retry_mode"
        switch mode.value {
        case "standard":
            builder.set("policy.preset", "aws-standard-2026", source: path, line: mode.line, column: mode.column)
        case "adaptive", "legacy":
            let why =
                mode.value == "adaptive"
                ? "adaptive mode is standard mode plus a client-side rate limiter (CUBIC), which the simulator does not model"
                : "legacy retries are each SDK's own (botocore's, the Java SDK's …), with no one behaviour to simulate"
            guard builder.request.ignores(path) else {
                refuse(mode.line, mode.column, path, "\(why) (to import it as standard, list it to ignore: --ignore retry_mode)")
                return
            }
            builder.set("policy.preset", "aws-standard-2026", source: path, line: mode.line, column: mode.column)
            builder.note(nil, "\(path): ignored as asked: \(why); read as standard")
        default:
            let hint = Suggest.nearest(mode.value, in: ["standard", "adaptive", "legacy"]).map { "; did you mean '\($0)'?" } ?? ""
            refuse(
                mode.line, mode.column, path,
                "must be standard, adaptive or legacy, the SDKs' retry modes (got '\(MessageText.escaped(mode.value))')\(hint)")
        }
    }

    mutating func importAttempts(_ attempts: Setting?, in profile: Section) {
        guard let attempts else {
            builder.set("policy.max_attempts", String(Self.defaultAttempts), default: "max_attempts default 3 (standard mode)")
            return
        }
        let path = profile.name + ".max_attempts"
        let range = ImportBuilder.range(of: "policy.max_attempts")
        guard let n = Int(attempts.value), attempts.value.allSatisfy(\.isNumber) else {
            refuse(
                attempts.line, attempts.column, path,
                "expected a whole number of attempts, the first included (got '\(MessageText.escaped(attempts.value))')")
            return
        }
        guard n >= 1 else {
            refuse(attempts.line, attempts.column, path, "must be at least 1: it counts attempts, the first included (got \(n))")
            return
        }
        guard n <= range.upperBound else {
            refuse(attempts.line, attempts.column, path, ImportBuilder.aboveKey("policy.max_attempts", attempts.value))
            return
        }
        builder.set("policy.max_attempts", String(n), source: path, line: attempts.line, column: attempts.column)
    }

    /// `path` nil: a line that is no setting.
    mutating func refuse(_ line: Int, _ column: Int, _ path: String?, _ message: String) {
        refusals.append(ScenarioError(SourceLocation(origin: .file(builder.file), line: line, column: column), field: path, message))
    }

    /// The sections of `text`, as configparser reads them; what it would refuse is added to
    /// ``refusals``, and the reading goes on.
    mutating func parse(_ text: String) -> [Section] {
        var sections: [Section] = []
        var lineNumber = 0
        var continuing = false
        for raw in text.split(separator: "\n", omittingEmptySubsequences: false) {
            lineNumber += 1
            let line = String(raw.hasSuffix("\r") ? raw.dropLast() : raw)
            let trimmed = line.trimmingWhitespace()
            if trimmed.isEmpty || trimmed.hasPrefix("#") || trimmed.hasPrefix(";") { continue }
            let indent = line.prefix { $0 == " " || $0 == "\t" }.count
            // An indented line continues the setting above it (a nested setting such as s3's).
            if indent > 0 && continuing { continue }
            if trimmed.hasPrefix("[") {
                guard trimmed.hasSuffix("]") else {
                    refuse(lineNumber, indent + 1, nil, "a section header must end with ]")
                    continuing = false
                    continue
                }
                let name = String(trimmed.dropFirst().dropLast()).trimmingWhitespace()
                sections.append(Section(name: name, line: lineNumber))
                continuing = false
                continue
            }
            guard let eq = trimmed.firstIndex(where: { $0 == "=" || $0 == ":" }) else {
                refuse(lineNumber, indent + 1, nil, "expected a [section] or a name = value line (got '\(MessageText.escaped(trimmed))')")
                continue
            }
            let name = String(trimmed[..<eq]).trimmingWhitespace().lowercased()
            let rest = trimmed[trimmed.index(after: eq)...]
            let value = String(rest).trimmingWhitespace()
            let valueColumn = indent + trimmed.distance(from: trimmed.startIndex, to: eq) + 2 + rest.prefix { $0 == " " || $0 == "\t" }.count
            guard !sections.isEmpty else {
                refuse(
                    lineNumber, indent + 1, name, "comes before any [section]: the SDKs read settings only in a [default] or [profile NAME] section")
                continue
            }
            let here = sections.count - 1
            if sections[here].settings.contains(where: { $0.name == name }) {
                refuse(lineNumber, indent + 1, sections[here].name + "." + name, "is given twice in [\(sections[here].name)]")
            }
            sections[here].settings.append(Setting(name: name, value: value, line: lineNumber, column: valueColumn))
            // configparser reads every indented line after a setting as its continuation.
            continuing = true
        }
        return sections
    }
}
