import RetryStormVocabulary
import Testing

/// The typed values of scenario files.
struct UnitsTests {
    @Test(
        "durations need a unit and convert exactly",
        arguments: [
            ("250ms", Int64(250_000_000)), ("2s", 2_000_000_000), ("1.5s", 1_500_000_000), ("5m", 300_000_000_000),
            ("1h", 3_600_000_000_000), ("10us", 10_000), ("7ns", 7), ("0", 0), ("1_000ms", 1_000_000_000), ("2min", 120_000_000_000)
        ])
    func durations(text: String, ns: Int64) throws {
        #expect(try Units.duration(text) == ns)
    }

    @Test(
        "bad durations say why",
        arguments: [
            ("60", "needs a unit"), ("-2s", "must not be negative"), ("nans", "expected a duration"),
            ("infs", "expected a duration"), ("2 parsecs", "expected a duration"), ("1e300s", "must be at most 720h (got 1e300s)")
        ])
    func badDurations(text: String, fragment: String) {
        #expect(throws: Units.Invalid.self) { try Units.duration(text) }
        do { _ = try Units.duration(text) } catch { #expect(error.message.contains(fragment), "\(error.message)") }
    }

    @Test("rates: /s, /m, /min, /h, /ms", arguments: [("1000/s", 1000.0), ("60/m", 1), ("30/min", 0.5), ("3600/h", 1), ("2/ms", 2000)])
    func rates(text: String, perSecond: Double) throws {
        #expect(try Units.rate(text) == perSecond)
    }

    @Test("fractions as decimals or percentages, within [0, 1]")
    func fractions() throws {
        #expect(try Units.fraction("0.2") == 0.2)
        #expect(try Units.fraction("20%") == 0.2)
        #expect(throws: Units.Invalid.self) { try Units.fraction("1.5") }
        #expect(throws: Units.Invalid.self) { try Units.fraction("nan") }
    }

    @Test("integers accept digit groups and whole exponents, reject fractions and overflow")
    func integers() throws {
        #expect(try Units.integer("1_000_000") == 1_000_000)
        #expect(try Units.integer("1e6") == 1_000_000)
        #expect(throws: Units.Invalid.self) { try Units.integer("2.5") }
        #expect(throws: Units.Invalid.self) { try Units.integer("1e30") }
        #expect(throws: Units.Invalid.self) { try Units.integer("0x10") }
    }

    @Test("nearest key suggestion by edit distance")
    func suggestions() {
        #expect(Suggest.distance("kitten", "sitting") == 3)
        #expect(Suggest.nearest("clients.cuont", in: ["clients.count", "clients.rate"]) == "clients.count")
        #expect(Suggest.nearest("zzzzzz", in: ["clients.count"]) == nil)
    }
}
