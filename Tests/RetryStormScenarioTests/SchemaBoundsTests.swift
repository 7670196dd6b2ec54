import RetryStormScenario
import RetryStormVocabulary
import Testing

/// Every key stays within the one longest duration and largest count (``InputBounds``), so that
/// a key added later cannot take a value the engine's sums and products overflow on.
struct SchemaBoundsTests {
    @Test("no duration key takes more than 30 days, and the horizon takes exactly that")
    func durations() {
        for field in ScenarioSchema.fields {
            switch field.kind {
            case .duration(_, let hi, _), .delayOrPercentile(let hi):
                #expect(hi <= InputBounds.maxDuration, "\(field.path) takes up to \(hi) ns")
            default: continue
            }
        }
        #expect(
            ScenarioSchema.byPath["horizon"].map { "\($0.kind)" }
                == "\(FieldKind.duration(min: 1_000_000, max: InputBounds.maxDuration, allowsNone: false))")
    }

    @Test("no count key takes more than 10^9 (the seed, a name for a random stream, is no count), and clients.count takes exactly that")
    func counts() {
        for field in ScenarioSchema.fields where field.path != "seed" {
            guard case .integer(let lo, let hi, _) = field.kind else { continue }
            #expect(hi <= InputBounds.maxCount && lo >= -InputBounds.maxCount, "\(field.path) takes \(lo)…\(hi)")
        }
        #expect(ScenarioSchema.byPath["clients.count"].map { "\($0.kind)" } == "\(FieldKind.integer(min: 1, max: InputBounds.maxCount))")
    }
}
