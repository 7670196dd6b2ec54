import Foundation
import RetryPolicy

/// One swept parameter: a scenario key and the values it takes, written as in a scenario file.
///
/// Syntax (`--grid`, `--vary`, the scenario's `grid:` list): `path=v1,v2,v3` lists values;
/// `path=LO...HI:log:N` or `path=LO...HI:lin:N` spaces N values logarithmically or linearly from
/// LO to HI inclusive (typed by the key: durations, rates, numbers, fractions, whole numbers), each
/// rounded to three significant digits so that labels stay readable.
package struct GridSpec: Sendable {
    /// How the values were laid out: a log or linear range, or a list.
    package enum Scale: String, Sendable { case log, lin, list }

    package var path: String
    package var values: [String]
    package var location: SourceLocation
    package var scale: Scale = .list

    package init(path: String, values: [String], location: SourceLocation, scale: Scale = .list) {
        self.path = path
        self.values = values
        self.location = location
        self.scale = scale
    }

    /// The last component of the path, for short variant names (`base=100ms`).
    package var leaf: String { String(path.split(separator: ".").last ?? Substring(path)) }

    package static func parse(_ text: String, at location: SourceLocation) throws(ScenarioError) -> GridSpec {
        guard let eq = text.firstIndex(of: "=") else {
            throw ScenarioError(location, "expected path=v1,v2,… or path=LO...HI:log:N (got '\(text)')")
        }
        let path = String(text[..<eq]).trimmingWhitespace()
        let spec = String(text[text.index(after: eq)...]).trimmingWhitespace()
        guard let field = ScenarioSchema.field(at: path) else {
            throw ScenarioError(location, field: path, ScenarioSchema.unknownKeyMessage(path))
        }
        if path == "focus" { throw ScenarioError(location, field: path, ScenarioLoader.focusPerStudy) }
        let values: [String]
        var scale = Scale.list
        if spec.contains("...") {
            values = try range(spec, field: field, at: location)
            scale = spec.contains(":log:") ? .log : .lin
        } else {
            values = try split(spec, field: path, at: location)
        }
        guard !values.isEmpty, values.allSatisfy({ !$0.isEmpty }) else {
            throw ScenarioError(location, field: path, "needs at least one value (got '\(spec)')")
        }
        guard values.count <= 1000 else { throw ScenarioError(location, field: path, "has \(values.count) values; at most 1000") }
        for v in values {
            do { _ = try field.parse(v) } catch { throw ScenarioError(location, field: path, error.message) }
            guard VariantName.isValid("\(path.split(separator: ".").last!)=\(label(v))") else {
                throw ScenarioError(location, field: path, "value '\(v)' may hold only letters, digits and \(VariantName.punctuation)")
            }
        }
        // Two lists that differ only in spacing would make two points of one name.
        if Set(values.map(label)).count != values.count {
            throw ScenarioError(location, field: path, "lists a value twice (\(values.joined(separator: ",")))")
        }
        return GridSpec(path: path, values: values, location: location, scale: scale)
    }

    /// The values of a list: split at the commas outside brackets, so that a value can itself
    /// be a list (`load.profile=[[0s,1],[10s,3]],[[0s,1],[10s,5]]` is two values). Without
    /// brackets every comma splits, as it always has.
    static func split(_ spec: String, field: String, at location: SourceLocation) throws(ScenarioError) -> [String] {
        var values: [String] = []
        var current = ""
        var open: [Character] = []
        for c in spec {
            switch c {
            case "[", "{": open.append(c)
            case "]", "}":
                guard let last = open.popLast(), (last == "[") == (c == "]") else {
                    throw ScenarioError(location, field: field, "has a '\(c)' without its opening bracket (got '\(spec)')")
                }
            case "," where open.isEmpty:
                values.append(current.trimmingWhitespace())
                current = ""
                continue
            default: break
            }
            current.append(c)
        }
        if let last = open.last {
            throw ScenarioError(location, field: field, "has a '\(last)' that is not closed (got '\(spec)')")
        }
        values.append(current.trimmingWhitespace())
        return values
    }

    /// How a value appears in a point's name and in sweep.csv, which allow neither brackets nor
    /// commas: a list of lists `[[0s, 1], [10s, 3]]` as `0s:1/10s:3` (a point's fields joined by
    /// `:`, points by `/`). Other values are unchanged.
    package static func label(_ value: String) -> String {
        guard value.contains("[") else { return value }
        return value.filter { !$0.isWhitespace }
            .replacingOccurrences(of: "],[", with: "/")
            .filter { $0 != "[" && $0 != "]" }
            .replacingOccurrences(of: ",", with: ":")
    }

    /// `LO...HI:log:N` / `LO...HI:lin:N` / `LO...HI:N` (linear).
    static func range(_ spec: String, field: Field, at location: SourceLocation) throws(ScenarioError) -> [String] {
        let parts = spec.split(separator: ":").map(String.init)
        let bounds = parts[0].components(separatedBy: "...")
        let scale = parts.count == 3 ? parts[1] : "lin"
        guard bounds.count == 2, parts.count >= 2, parts.count <= 3, scale == "log" || scale == "lin",
            let n = Int(parts[parts.count - 1]), n >= 2, n <= 1000
        else {
            throw ScenarioError(location, field: field.path, "a range is LO...HI:log:N or LO...HI:lin:N with 2 ≤ N ≤ 1000 (got '\(spec)')")
        }
        guard numeric(field.kind) else {
            throw ScenarioError(location, field: field.path, "is not numeric: list its values instead")
        }
        let lo: Double
        let hi: Double
        do throws(Units.Invalid) {
            lo = try value(bounds[0], field.kind)
            hi = try value(bounds[1], field.kind)
        } catch {
            throw ScenarioError(location, field: field.path, error.message)
        }
        guard hi > lo else { throw ScenarioError(location, field: field.path, "a range needs LO < HI (got '\(spec)')") }
        if scale == "log" && lo <= 0 { throw ScenarioError(location, field: field.path, "a log range needs LO > 0 (got '\(spec)')") }
        var out: [String] = []
        for i in 0..<n {
            let f = Double(i) / Double(n - 1)
            let v = scale == "log" ? exp(log(lo) + f * (log(hi) - log(lo))) : lo + f * (hi - lo)
            let text = render(v, field.kind)
            if out.last != text { out.append(text) }
        }
        return out
    }

    /// Whether values of `kind` are numbers a range can space out.
    static func numeric(_ kind: FieldKind) -> Bool {
        switch kind {
        case .duration, .rate, .number, .fraction, .integer: true
        default: false
        }
    }

    /// The number `text` stands for in `kind`: nanoseconds for a duration, per second for a
    /// rate, the value otherwise.
    static func value(_ text: String, _ kind: FieldKind) throws(Units.Invalid) -> Double {
        switch kind {
        case .duration: Double(try Units.duration(text))
        case .rate: try Units.rate(text)
        case .integer(let lo, let hi, _): Double(try Units.integer(text, in: lo...hi))
        case .fraction: try Units.fraction(text)
        default: try Units.number(text)
        }
    }

    /// `x` (as ``value(_:_:)`` reads it) written back for `kind`, rounded to three significant digits.
    static func render(_ x: Double, _ kind: FieldKind) -> String {
        switch kind {
        case .duration: Format.duration(Time.nanoseconds(seconds: significant(x) / 1e9))
        case .rate: Format.trimmed(Format.fixed(significant(x), 6)) + "/s"
        case .integer: Format.fixed(significant(x).rounded(), 0)
        default: Format.trimmed(Format.fixed(significant(x), 6))
        }
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
        throw ScenarioError(
            first.location, field: first.path,
            "makes \(sizes) = \(Format.grouped(count)) points; at most \(Format.grouped(ResourceGuard.maxPoints)): use fewer values")
    }

    /// Every combination of the specs' values, first spec slowest, with their point names.
    package static func product(_ specs: [GridSpec]) -> [(name: String, values: [String])] {
        var combos: [[String]] = [[]]
        for spec in specs {
            combos = combos.flatMap { prefix in spec.values.map { prefix + [$0] } }
        }
        return combos.map { values in
            (zip(specs, values).map { "\($0.leaf)=\(label($1))" }.joined(separator: "+"), values)
        }
    }
}
