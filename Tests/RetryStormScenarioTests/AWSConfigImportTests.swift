import Foundation
import RetryPolicy
import RetryStormScenario
import RetryStormVocabulary
import Testing

/// The AWS SDKs' shared config file (`~/.aws/config`) as the SDKs read it: `[default]` and
/// `[profile NAME]` sections, a profile's `retry_mode` and `max_attempts` (the AWS SDKs and Tools
/// Reference Guide, "Retry behavior": standard mode, 3 attempts by default; "Shared config and
/// credentials files" for the format).
struct AWSConfigImportTests {
    typealias S = PolicyFormatSupport

    static let file = """
        # Shared by every tool on the host.
        [default]
        region = eu-west-1
        retry_mode = standard
        max_attempts = 5

        [profile ci]
        region = us-east-1
        retry_mode = standard
        s3 =
          max_concurrent_requests = 20

        [sso-session corp]
        sso_region = us-east-1

        """

    /// Standard mode is the 2026 one in every SDK released since 10 November 2026 but Java 2.x
    /// and Kotlin (the AWS Developer Tools Blog, "Updated default retry behavior for AWS SDKs and
    /// tools"), so a profile reads as `aws-standard-2026`, and a note names the exceptions.
    @Test("a profile's retry_mode standard and max_attempts are the aws-standard-2026 preset with that many attempts")
    func profiles() throws {
        let imported = try S.importing(Self.file, file: "config")
        #expect(imported.format == .awsConfig)
        #expect(S.values(imported) == ["policy.preset=aws-standard-2026", "policy.max_attempts=5"])
        #expect(imported.keys.map(\.source) == ["default.retry_mode", "default.max_attempts"])
        #expect(imported.keys.map(\.line) == [4, 5] && imported.keys.map(\.column) == [14, 16])
        var standard = RetryPolicy.awsStandard2026
        standard.maxAttempts = 5
        #expect(try S.policy(imported) == standard)
        // [profile ci] leaves max_attempts out: standard mode's default, 3 (the Reference Guide).
        let ci = try S.importing(Self.file, PolicyImportRequest(profile: "ci"), file: "config")
        #expect(S.values(ci) == ["policy.preset=aws-standard-2026", "policy.max_attempts=3"])
        #expect(try S.policy(ci) == RetryPolicy.awsStandard2026)
        #expect(ci.notes.contains { $0.contains("Java 2.x, Kotlin and older SDKs run the pre-2026 one: policy.preset aws-standard") })
    }

    @Test("every refusal of the profile at once: a misspelt setting, a mode that is not one, attempts below 1, a setting given twice")
    func refusals() {
        let text = "[default]\nretry_mode = adaptve\nmax_attempt = 4\nmax_attempts = 0\nregion = a\nregion = b\n"
        do {
            _ = try S.importing(text, file: "config")
            Issue.record("accepted")
        } catch {
            #expect(
                ([error] + error.more).map(\.description) == [
                    "config:2:14: field 'default.retry_mode': must be standard, adaptive or legacy, the SDKs' retry modes (got 'adaptve'); did you mean 'adaptive'?",
                    "config:3:15: field 'default.max_attempt': is not a setting of the AWS shared config file; did you mean 'max_attempts'?",
                    "config:4:16: field 'default.max_attempts': must be at least 1: it counts attempts, the first included (got 0)",
                    "config:6:1: field 'default.region': is given twice in [default]"
                ], "\(([error] + error.more).map(\.description))")
        }
        let settings = "[default]\nretry_mode = adaptve\nmax_attempt = 4\nmax_attempts = 0\n"
        do {
            _ = try S.importing(settings, file: "config")
            Issue.record("accepted")
        } catch {
            #expect(
                ([error] + error.more).map(\.description) == [
                    "config:2:14: field 'default.retry_mode': must be standard, adaptive or legacy, the SDKs' retry modes (got 'adaptve'); did you mean 'adaptive'?",
                    "config:3:15: field 'default.max_attempt': is not a setting of the AWS shared config file; did you mean 'max_attempts'?",
                    "config:4:16: field 'default.max_attempts': must be at least 1: it counts attempts, the first included (got 0)"
                ], "\(([error] + error.more).map(\.description))")
        }
        #expect(
            S.refusal(Self.file, PolicyImportRequest(profile: "cl"), file: "config")
                == "config: has no profile 'cl' (profiles: default, ci); did you mean 'ci'?; name one with --profile (policy.import.profile)")
        #expect(
            S.refusal("max_attempts = 3\n[default]\n", file: "config")
                == "config:1:1: field 'max_attempts': comes before any [section]: the SDKs read settings only in a [default] or [profile NAME] section"
        )
        #expect(
            S.refusal(Self.file, PolicyImportRequest(route: "r"), file: "config")
                == "config: is an AWS shared config file, which has no route to pick (--route, policy.import.route)")
    }

    @Test("adaptive adds a client-side rate limiter the simulator does not model: refused, or read as standard when listed to ignore")
    func adaptive() throws {
        let text = "[default]\nretry_mode = adaptive\n"
        #expect(
            S.refusal(text, file: "config")
                == "config:2:14: field 'default.retry_mode': adaptive mode is standard mode plus a client-side rate limiter (CUBIC), which the simulator does not model (to import it as standard, list it to ignore: --ignore retry_mode)"
        )
        let ignored = try S.importing(text, PolicyImportRequest(ignore: ["retry_mode"]), file: "config")
        #expect(ignored.value(of: "policy.preset") == "aws-standard-2026")
        #expect(ignored.notes.contains { $0.hasPrefix("default.retry_mode: ignored as asked") })
    }

    @Test("a scenario imports a profile; export writes the profile back and says what the file cannot hold")
    func scenarioAndExport() throws {
        let dir = FileManager.default.temporaryDirectory.appendingPathComponent("aws-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: dir, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: dir) }
        try Self.file.write(to: dir.appendingPathComponent("config"), atomically: true, encoding: .utf8)
        let loaded = try ScenarioLoader.parse(
            text: "horizon: 60s\npolicy.import: {file: config, profile: ci}\n", path: dir.appendingPathComponent("s.yaml").path)
        #expect(loaded.base.policy == RetryPolicy.awsStandard2026)
        try S.checkRoundTrip(Self.file, PolicyImportRequest(), file: "config")
        let grpc = PolicyExporter.export(.grpc, attemptTimeout: nil, format: .awsConfig)
        // The grpc preset's 4 attempts (A6's example).
        #expect(grpc.text == "[default]\nretry_mode = standard\nmax_attempts = 4\n")
        #expect(grpc.notes.contains { $0.hasPrefix("policy.budget.kind is \"grpc\", which aws-config does not carry") }, "\(grpc.notes)")
    }
}
