import Foundation
import RetryPolicy

/// One swept parameter: a scenario key and the values it takes, written as in a scenario file.
///
/// Syntax (`--grid`, `--vary`, the scenario's `grid:` list): `path=v1,v2,v3` lists values;
/// `path=LO...HI:log:N` or `path=LO...HI:lin:N` spaces N values logarithmically or linearly from
/// LO to HI inclusive (typed by the key: durations, rates, numbers, fractions, whole numbers), each
/// rounded to three significant digits so that labels stay readable.
public struct GridSpec: Sendable {
    public var path: String
    public var values: [String]
    public var location: SourceLocation

    /// The last component of the path, for short variant names (`base=100ms`).
    public var leaf: String { String(path.split(separator: ".").last ?? Substring(path)) }

    public static func parse(_ text: String, at location: SourceLocation) throws(ScenarioError) -> GridSpec {
        guard let eq = text.firstIndex(of: "=") else {
            throw ScenarioError(location, "expected path=v1,v2,… or path=LO...HI:log:N (got '\(text)')")
        }
        let path = String(text[..<eq]).trimmingWhitespace()
        let spec = String(text[text.index(after: eq)...]).trimmingWhitespace()
        guard let field = ScenarioSchema.byPath[path] else {
            let hint = Suggest.nearest(path, in: ScenarioSchema.fields.map(\.path)).map { " Did you mean '\($0)'?" } ?? ""
            throw ScenarioError(location, field: path, "is not a scenario key.\(hint)")
        }
        let values: [String]
        if spec.contains("...") {
            values = try range(spec, field: field, at: location)
        } else {
            values = spec.split(separator: ",", omittingEmptySubsequences: false).map { String($0).trimmingWhitespace() }
        }
        guard !values.isEmpty, values.allSatisfy({ !$0.isEmpty }) else {
            throw ScenarioError(location, field: path, "needs at least one value (got '\(spec)')")
        }
        guard values.count <= 1000 else { throw ScenarioError(location, field: path, "has \(values.count) values; at most 1000") }
        for v in values {
            do { _ = try field.parse(v) } catch { throw ScenarioError(location, field: path, error.message) }
            guard VariantName.isValid("\(path.split(separator: ".").last!)=\(v)") else {
                throw ScenarioError(location, field: path, "value '\(v)' may hold only letters, digits and \(VariantName.punctuation)")
            }
        }
        if Set(values).count != values.count {
            throw ScenarioError(location, field: path, "lists a value twice (\(values.joined(separator: ",")))")
        }
        return GridSpec(path: path, values: values, location: location)
    }

    /// `LO...HI:log:N` / `LO...HI:lin:N` / `LO...HI:N` (linear).
    static func range(_ spec: String, field: Field, at location: SourceLocation) throws(ScenarioError) -> [String] {
        let parts = spec.split(separator: ":").map(String.init)
        let bounds = parts[0].components(separatedBy: "...")
        let scale = parts.count == 3 ? parts[1] : "lin"
        guard bounds.count == 2, parts.count >= 2, parts.count <= 3, scale == "log" || scale == "lin",
              let n = Int(parts[parts.count - 1]), n >= 2, n <= 1000 else {
            throw ScenarioError(location, field: field.path, "a range is LO...HI:log:N or LO...HI:lin:N with 2 ≤ N ≤ 1000 (got '\(spec)')")
        }
        let lo: Double, hi: Double
        let render: (Double) -> String
        do throws(Units.Invalid) {
            switch field.kind {
            case .duration:
                lo = Double(try Units.duration(bounds[0]))
                hi = Double(try Units.duration(bounds[1]))
                render = { Format.duration(Int64(significant($0))) }
            case .rate:
                lo = try Units.rate(bounds[0])
                hi = try Units.rate(bounds[1])
                render = { Format.trimmed(Format.fixed(significant($0), 6)) + "/s" }
            case .integer:
                lo = Double(try Units.integer(bounds[0]))
                hi = Double(try Units.integer(bounds[1]))
                render = { String(Int(significant($0).rounded())) }
            case .number, .fraction:
                lo = try Units.number(bounds[0])
                hi = try Units.number(bounds[1])
                render = { Format.trimmed(Format.fixed(significant($0), 6)) }
            default:
                throw Units.Invalid(message: "is not numeric: list its values instead")
            }
        } catch {
            throw ScenarioError(location, field: field.path, error.message)
        }
        guard hi > lo else { throw ScenarioError(location, field: field.path, "a range needs LO < HI (got '\(spec)')") }
        if scale == "log" && lo <= 0 { throw ScenarioError(location, field: field.path, "a log range needs LO > 0 (got '\(spec)')") }
        var out: [String] = []
        for i in 0..<n {
            let f = Double(i) / Double(n - 1)
            let v = scale == "log" ? exp(log(lo) + f * (log(hi) - log(lo))) : lo + f * (hi - lo)
            let text = render(v)
            if out.last != text { out.append(text) }
        }
        return out
    }

    /// `x` rounded to three significant digits.
    static func significant(_ x: Double) -> Double {
        guard x != 0, x.isFinite else { return x }
        let magnitude = pow(10, floor(log10(abs(x))) - 2)
        return (x / magnitude).rounded() * magnitude
    }

    /// Refuses a product of more than ``ResourceGuard/maxPoints`` combinations before any is built.
    static func checkSize(_ specs: [GridSpec]) throws(ScenarioError) {
        var count = 1.0
        for s in specs { count *= Double(s.values.count) }
        guard count > Double(ResourceGuard.maxPoints), let first = specs.first else { return }
        let sizes = specs.map { "\($0.values.count)" }.joined(separator: " × ")
        throw ScenarioError(first.location, field: first.path,
            "makes \(sizes) = \(Format.grouped(count)) points; at most \(Format.grouped(ResourceGuard.maxPoints)): use fewer values")
    }

    /// Every combination of the specs' values, first spec slowest, with their point names.
    public static func product(_ specs: [GridSpec]) -> [(name: String, values: [String])] {
        var combos: [[String]] = [[]]
        for spec in specs {
            combos = combos.flatMap { prefix in spec.values.map { prefix + [$0] } }
        }
        return combos.map { values in
            (zip(specs, values).map { "\($0.leaf)=\($1)" }.joined(separator: "+"), values)
        }
    }
}
