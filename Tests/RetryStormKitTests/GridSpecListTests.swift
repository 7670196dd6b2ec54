import RetryStormKit
import Testing

/// `--vary`, `--grid` and `grid:` values that are lists themselves (issue 15: a `load.profile`
/// per point): commas inside brackets belong to the value, and every input without brackets
/// splits as it always did.
@Suite("Grid values that are lists")
struct GridSpecListTests {
    static func parse(_ text: String) throws(ScenarioError) -> GridSpec {
        try GridSpec.parse(text, at: RetryStormVocabulary.SourceLocation(origin: .option("--vary \(text)")))
    }

    static func message(_ text: String) -> String? {
        do { _ = try parse(text) } catch { return error.description }
        return nil
    }

    @Test("two profiles are two values, spaces trimmed around each; their names read 0s:1/10s:3/20s:1")
    func twoProfiles() throws {
        let spec = try Self.parse("load.profile=[[0s,1],[10s,3],[20s,1]], [[0s, 1], [10s, 5], [20s, 1]]")
        #expect(spec.values == ["[[0s,1],[10s,3],[20s,1]]", "[[0s, 1], [10s, 5], [20s, 1]]"])
        #expect(GridSpec.product([spec]).map(\.name) == ["profile=0s:1/10s:3/20s:1", "profile=0s:1/10s:5/20s:1"])
        // The scenario gets the value as written, not its label.
        #expect(GridSpec.product([spec]).map(\.values) == [["[[0s,1],[10s,3],[20s,1]]"], ["[[0s, 1], [10s, 5], [20s, 1]]"]])
    }

    @Test("values without brackets split at every comma, as before")
    func plainValues() throws {
        #expect(try Self.parse("policy.max_attempts=1,2, 3").values == ["1", "2", "3"])
        #expect(try Self.parse("clients.timeout=500ms,2s").values == ["500ms", "2s"])
        #expect(
            Self.message("policy.max_attempts=1,,3")
                == "--vary policy.max_attempts=1,,3: field 'policy.max_attempts': needs at least one value (got '1,,3')")
    }

    /// Issue 40: a study has one focus, so that every point is judged at the same service.
    @Test("focus cannot vary")
    func focusCannotVary() {
        #expect(
            Self.message("focus=api,db")
                == "--vary focus=api,db: field 'focus': is one per study, so that every point is judged at the same service: set it at the top level or with --focus"
        )
    }

    @Test("labels leave plain values alone and spell a list of points with : and /")
    func labels() {
        #expect(GridSpec.label("250ms") == "250ms")
        #expect(GridSpec.label("[[0s, 1], [20s, 2], [25s, 1]]") == "0s:1/20s:2/25s:1")
    }

    @Test("unbalanced brackets, a bad point and a profile given twice are one message naming the option and field")
    func badLists() {
        #expect(
            Self.message("load.profile=[[0s,1],[10s,3]")
                == "--vary load.profile=[[0s,1],[10s,3]: field 'load.profile': has a '[' that is not closed (got '[[0s,1],[10s,3]')")
        #expect(
            Self.message("load.profile=[[0s,1]]],[[0s,2]]")
                == "--vary load.profile=[[0s,1]]],[[0s,2]]: field 'load.profile': has a ']' without its opening bracket (got '[[0s,1]]],[[0s,2]]')")
        #expect(
            Self.message("load.profile=[[0s,1],[5s,x]],[[0s,1]]")
                == "--vary load.profile=[[0s,1],[5s,x]],[[0s,1]]: field 'load.profile': point 2, multiplier: expected a number (got 'x')")
        // The same points spaced differently would make two points of one name.
        #expect(
            Self.message("load.profile=[[0s,1],[5s,2]],[[0s, 1], [5s, 2]]")
                == "--vary load.profile=[[0s,1],[5s,2]],[[0s, 1], [5s, 2]]: field 'load.profile': lists a value twice ([[0s,1],[5s,2]],[[0s, 1], [5s, 2]])"
        )
    }
}
