import Foundation
import RetryPolicy
import Testing

/// ``Hedging`` in the policy file: the `hedging` object as written, both delay kinds back equal,
/// files without the field (written before hedging existed) unchanged, bad values refused with
/// the field named.
struct HedgingFileTests {
    typealias F = PolicyFileTests

    static func hedged(_ hedging: Hedging) -> RetryPolicy {
        var p = RetryPolicy.grpc
        p.hedging = hedging
        return p
    }

    static func decode(_ text: String) throws -> RetryPolicyFile {
        try JSONDecoder().decode(RetryPolicyFile.self, from: Data(text.utf8))
    }

    /// The `"hedging" : {…}` lines of a file written with `F.encode`'s formatting.
    static func hedgingObject(_ text: String) -> String? {
        guard let start = text.range(of: "    \"hedging\" : {") else { return nil }
        guard let end = text.range(of: "    },\n", range: start.upperBound..<text.endIndex) else { return nil }
        return String(text[start.lowerBound..<end.upperBound])
    }

    @Test(
        "a fixed delay and a percentile over a window: written as shown, read back equal",
        arguments: [
            (
                Hedging(delay: .fixed(50_000_000), maxAttempts: 3),
                "    \"hedging\" : {\n      \"delay\" : \"50ms\",\n      \"max_attempts\" : 3,\n      \"percentile\" : null,\n      \"window\" : null\n    },\n"
            ),
            (
                Hedging(delay: .percentile(0.95, window: 30_000_000_000), maxAttempts: 2),
                "    \"hedging\" : {\n      \"delay\" : null,\n      \"max_attempts\" : 2,\n      \"percentile\" : 0.95,\n      \"window\" : \"30s\"\n    },\n"
            ),
            (
                Hedging(delay: .percentile(0.999, window: 1_500_000_000), maxAttempts: 5),
                "    \"hedging\" : {\n      \"delay\" : null,\n      \"max_attempts\" : 5,\n      \"percentile\" : 0.999,\n      \"window\" : \"1500ms\"\n    },\n"
            ),
            (
                Hedging(delay: .fixed(0), maxAttempts: 4),
                "    \"hedging\" : {\n      \"delay\" : \"0s\",\n      \"max_attempts\" : 4,\n      \"percentile\" : null,\n      \"window\" : null\n    },\n"
            )
        ])
    func roundTrip(_ hedging: Hedging, _ written: String) throws {
        let file = RetryPolicyFile(policy: Self.hedged(hedging), source: "hedged")
        let text = try F.encode(file)
        #expect(Self.hedgingObject(text) == written)
        let back = try Self.decode(text)
        #expect(back == file)
        #expect(back.policy.hedging == hedging)
        #expect(try F.encode(back) == text)
    }

    @Test("a file without hedging has no hedging field, decodes to nil and is written back byte for byte; null reads as nil too")
    func absent() throws {
        let text = try F.encode(RetryPolicyFile(policy: .offlineFirst, source: "preset offline-first"))
        #expect(!text.contains("hedging"))
        let back = try Self.decode(text)
        #expect(back.policy.hedging == nil)
        #expect(back.policy == .offlineFirst)
        #expect(try F.encode(back) == text)
        let null = try F.edited { F.set(&$0, ["policy", "hedging"], NSNull()) }
        #expect(try Self.decode(null).policy == .offlineFirst)
    }

    static let h = ["policy", "hedging"]

    /// Bad values in a file whose hedging has a fixed delay (50 ms, 3 copies).
    static let badFixed: [F.BadFile] = [
        .init("1 copy", h + ["max_attempts"], .int(1), "policy.hedging.max_attempts: must be from 2 to 5 (got 1)"),
        .init("6 copies", h + ["max_attempts"], .int(6), "policy.hedging.max_attempts: must be from 2 to 5 (got 6)"),
        .init(
            "a percentile too", h + ["percentile"], .number(0.95), "policy.hedging.delay: give either a delay or a percentile, not both or neither"),
        .init("no delay field", h + ["delay"], .remove, "policy.hedging.delay: missing"),
        .init("neither", h + ["delay"], .null, "policy.hedging.delay: give either a delay or a percentile, not both or neither"),
        .init("negative delay", h + ["delay"], .string("-1ms"), #"policy.hedging.delay: must not be negative (got "-1ms")"#),
        .init("a window with a fixed delay", h + ["window"], .string("30s"), "policy.hedging.window: must be null with a fixed delay"),
        .init(
            "unknown field", h + ["speed"], .int(1), "policy.hedging.speed: unknown field (this object has delay, percentile, window, max_attempts)")
    ]

    /// Bad values in a file whose hedging is p95 over 30 s (2 copies).
    static let badPercentile: [F.BadFile] = [
        .init("percentile 1", h + ["percentile"], .number(1), "policy.hedging.percentile: must be below 1 (got 1.0)"),
        .init(
            "percentile 0", h + ["percentile"], .number(0), "policy.hedging.percentile: must be a number more than 0.0 and at most 1.0 (got 0.0)"),
        .init(
            "percentile 95", h + ["percentile"], .number(95),
            "policy.hedging.percentile: must be a number more than 0.0 and at most 1.0 (got 95.0)"),
        .init("no window field", h + ["window"], .remove, "policy.hedging.window: missing"),
        .init("null window", h + ["window"], .null, "policy.hedging.window: must be a duration with a percentile"),
        .init("window 0s", h + ["window"], .string("0s"), #"policy.hedging.window: must be at least 1ns (got "0s")"#),
        .init("a delay too", h + ["delay"], .string("50ms"), "policy.hedging.delay: give either a delay or a percentile, not both or neither")
    ]

    @Test("bad hedging objects are refused with the field named", arguments: badFixed.map { ($0, false) } + badPercentile.map { ($0, true) })
    func refusals(_ c: F.BadFile, percentile: Bool) throws {
        let hedging =
            percentile
            ? Hedging(delay: .percentile(0.95, window: 30_000_000_000), maxAttempts: 2) : Hedging(delay: .fixed(50_000_000), maxAttempts: 3)
        let json = try F.edited(Self.hedged(hedging)) { F.set(&$0, c.path, c.value.json) }
        #expect(F.refusal(json) == c.message)
    }
}
