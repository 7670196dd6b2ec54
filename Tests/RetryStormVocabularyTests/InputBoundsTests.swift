import RetryStormVocabulary
import Testing

/// The one longest duration and largest count every parser takes (``InputBounds``): at the bound
/// a value is taken exactly, one past it is refused naming the bound, and no text, however long,
/// reaches a conversion that traps.
struct InputBoundsTests {
    @Test("30 days is 2,592,000 s, 2.592e15 ns; three of them and a count of them fit in Int64 (9.22e18) with room to spare")
    func bounds() {
        #expect(InputBounds.maxDuration == 2_592_000_000_000_000)
        #expect(InputBounds.maxDurationSeconds == 2_592_000)
        // horizon + a timeout + a backoff: the largest time the engine adds up from three inputs.
        #expect(InputBounds.maxDuration.multipliedReportingOverflow(by: 3).overflow == false)
        // attempts × clients: the product of two counts.
        #expect(Int64(InputBounds.maxCount).multipliedReportingOverflow(by: Int64(InputBounds.maxCount)).overflow == false)
    }

    @Test("a duration at the bound is taken to the nanosecond, in any unit", arguments: ["30d", "720h", "43200m", "2592000s", "2592000000ms"])
    func atBound(_ text: String) throws {
        #expect(try Units.duration(text) == InputBounds.maxDuration)
    }

    @Test(
        "a duration past the bound is refused naming it, however far past (2^63 ns, 1e30 s, 10,000 years)",
        arguments: ["2592000.001s", "9223372036854775807ns", "9223372036854775808ns", "1e30s", "315576000000s", "1e300h"])
    func pastBound(_ text: String) {
        #expect(throws: Units.Invalid(message: "must be at most 720h (got \(text))")) { try Units.duration(text) }
    }

    @Test(
        "a whole number outside its range is refused naming the end it is past, even beyond Int (2^63, 2^64, 1e30)",
        arguments: [
            ("9223372036854775807", "must be at most 1000000000 (got 9223372036854775807)"),
            ("9223372036854775808", "must be at most 1000000000 (got 9223372036854775808)"),
            ("18446744073709551616", "must be at most 1000000000 (got 18446744073709551616)"),
            ("1e30", "must be at most 1000000000 (got 1e30)"),
            ("-9223372036854775808", "must be at least 1 (got -9223372036854775808)"),
            ("-9223372036854775809", "must be at least 1 (got -9223372036854775809)"),
            ("-1e30", "must be at least 1 (got -1e30)")
        ])
    func integerRange(_ text: String, _ message: String) {
        #expect(throws: Units.Invalid(message: message)) { try Units.integer(text, in: 1...InputBounds.maxCount) }
    }
}
