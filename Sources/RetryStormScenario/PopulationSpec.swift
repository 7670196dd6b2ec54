import RetryPolicy
import RetryStormEngine
import RetryStormVocabulary

/// One declared population while a scenario is resolved: its size as given and its own keys.
struct PopulationSpec {
    var name: String
    var declaredAt: SourceLocation
    var share: Double?
    var count: Int?
    /// Where the share or count was last set.
    var sizeAt: SourceLocation
    /// Its `clients.*` and `policy.*` entries, in order (paths still `populations.NAME.KEY`).
    var entries: [Entry] = []

    /// The populations of a scenario from all its entries (file, variant, options, in order),
    /// checked and built on `base` (the scenario's draft) into engine values. Empty when the
    /// file declares none.
    ///
    /// A share set again after the population was declared (a variant, `--set`, `--vary`,
    /// `--grid`) scales the other shares so that they keep adding up to 1, or splits the rest
    /// equally when they are all 0. Client counts from shares: largest remainder, ties to the
    /// population declared first.
    static func resolve(
        _ entries: [Entry], base: ScenarioDraft, locations: [String: SourceLocation],
        scenario: Scenario, inputs: InputFiles
    ) throws(ScenarioError) -> [Scenario.Population] {
        var specs: [PopulationSpec] = []
        for e in entries where e.path.hasPrefix(ScenarioSchema.populationPrefix) && ScenarioSchema.populationPath(e.path) == nil {
            let name = String(e.path.dropFirst(ScenarioSchema.populationPrefix.count))
            specs.append(PopulationSpec(name: name, declaredAt: e.location, sizeAt: e.location))
        }
        for e in entries {
            guard let (name, key) = ScenarioSchema.populationPath(e.path) else { continue }
            guard let k = specs.firstIndex(where: { $0.name == name }) else {
                let known = specs.isEmpty ? "the scenario declares no populations" : "populations: \(specs.map(\.name).joined(separator: ", "))"
                throw ScenarioError(e.location, field: e.path, "names no population ('\(name)'; \(known))")
            }
            guard let field = ScenarioSchema.field(at: e.path) else { continue }
            let value: FieldValue
            do { value = try field.parse(e.text) } catch { throw ScenarioError(e.location, field: e.path, error.message) }
            switch key {
            case "share":
                let again = specs[k].share != nil || specs[k].count != nil
                specs[k].share = value.double
                specs[k].count = nil
                specs[k].sizeAt = e.location
                if again { rescale(&specs, keeping: k) }
            case "count":
                specs[k].count = value.int
                specs[k].share = nil
                specs[k].sizeAt = e.location
            default:
                specs[k].entries.append(e)
            }
        }
        guard !specs.isEmpty else { return [] }
        let counts = try clientCounts(specs, total: base.clientsCount, totalAt: locations["clients.count"])
        var out: [Scenario.Population] = []
        for (var spec, count) in zip(specs, counts) {
            var draft = base
            let scope = ScenarioSchema.populationPrefix + spec.name + "."
            spec.entries = try PolicyImportKeys.expand(spec.entries, scope: scope, inputs: inputs)
            // Its own preset (its own policy file's too): the policy starts from that preset's
            // defaults, not the scenario's keys.
            if spec.entries.contains(where: { ScenarioSchema.populationPath($0.path)?.key == "policy.preset" }) {
                draft.policy = PolicyDraft()
            }
            var own = locations
            let prefix = ScenarioSchema.populationPrefix + spec.name + "."
            try ScenarioLoader.apply(spec.entries, to: &draft, locations: &own) { String($0.path.dropFirst(prefix.count)) }
            draft.clientsCount = count
            // Name the population's key when the problem is one it set.
            let set = Set(spec.entries.map { String($0.path.dropFirst(prefix.count)) })
            let built = try ScenarioLoader.scoped(prefix, owns: set) { () throws(ScenarioError) in try draft.build(locations: own, inputs: inputs) }
            out.append(Scenario.Population(name: spec.name, clients: built.clients, policy: built.policy))
        }
        return out
    }

    /// Scales the shares of the populations other than `k` to add up to 1 − share(k); splits it
    /// equally when they are all 0.
    static func rescale(_ specs: inout [PopulationSpec], keeping k: Int) {
        let others = specs.indices.filter { $0 != k && specs[$0].share != nil }
        guard !others.isEmpty, let mine = specs[k].share else { return }
        let rest = max(0, 1 - mine)
        let sum = others.reduce(0.0) { $0 + specs[$1].share! }
        for i in others { specs[i].share = sum > 0 ? specs[i].share! * rest / sum : rest / Double(others.count) }
    }

    /// Clients per population: counts as given; shares split what the counts leave of `total` by
    /// largest remainder (ties to the earlier population). With counts only, their sum is the fleet.
    static func clientCounts(_ specs: [PopulationSpec], total: Int, totalAt: SourceLocation?) throws(ScenarioError) -> [Int] {
        let counted = specs.reduce(0) { $0 + ($1.count ?? 0) }
        let shared = specs.filter { $0.share != nil }
        guard !shared.isEmpty else {
            if let totalAt, counted != total {
                throw ScenarioError(
                    specs.last!.sizeAt, field: "populations.\(specs.last!.name).count",
                    "the populations' counts add up to \(counted), but clients.count is \(total) (at \(totalAt)): make them agree or drop clients.count"
                )
            }
            guard counted > 0 else {
                throw ScenarioError(specs.last!.sizeAt, field: "populations.\(specs.last!.name).count", "the populations have no clients at all")
            }
            return specs.map { $0.count! }
        }
        let sum = shared.reduce(0.0) { $0 + $1.share! }
        if abs(sum - 1) > 1e-9 {
            let last = shared.last!
            throw ScenarioError(
                last.sizeAt, field: "populations.\(last.name).share",
                "the populations' shares add up to \(Format.trimmed(Format.fixed(sum, 6))), not 1 (\(shared.map { "\($0.name) \(Format.trimmed(Format.fixed($0.share!, 6)))" }.joined(separator: ", ")))"
            )
        }
        guard counted <= total else {
            let last = specs.last { $0.count != nil }!
            throw ScenarioError(
                last.sizeAt, field: "populations.\(last.name).count",
                "the populations' counts add up to \(counted), more than clients.count (\(total)) that the shares split")
        }
        let rest = total - counted
        let quotas = specs.map { ($0.share ?? 0) * Double(rest) }
        var counts = specs.indices.map { specs[$0].count ?? Int(quotas[$0].rounded(.down)) }
        var left = rest - specs.indices.filter { specs[$0].share != nil }.reduce(0) { $0 + counts[$1] }
        let byRemainder = specs.indices.filter { specs[$0].share != nil }
            .sorted { (quotas[$0] - quotas[$0].rounded(.down), -$0) > (quotas[$1] - quotas[$1].rounded(.down), -$1) }
        for i in byRemainder where left > 0 {
            counts[i] += 1
            left -= 1
        }
        return counts
    }
}
