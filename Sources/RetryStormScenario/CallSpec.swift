import RetryPolicy
import RetryStormEngine
import RetryStormVocabulary

/// One declared call of a service while a scenario is resolved: the service it names and its own
/// keys, built into a ``Scenario/Call`` once every service is known.
struct CallSpec {
    /// The called service's name, as `to` gave it.
    var to: String
    /// Where `to` was written.
    var declaredAt: SourceLocation
    /// Its own and `policy.*` entries, in order (paths still `services.NAME.calls.TO.KEY`).
    var entries: [Entry] = []

    /// The call of the service `caller` (at index `index` of `names`, the services in order) as an
    /// engine value: `to` must name a later service, each key as its field reads it, the last
    /// value winning. The edge's policy starts from the policy defaults (``PolicyDraft``), not the
    /// scenario's `policy:`; its own preset or policy file starts it again, as a population's does.
    func build(caller: String, index: Int, names: [String], inputs: InputFiles) throws(ScenarioError) -> Scenario.Call {
        let scope = ScenarioSchema.servicePrefix + caller + ".calls." + to + "."
        guard let target = names.firstIndex(of: to) else {
            let hint = Suggest.nearest(to, in: names).map { " Did you mean '\($0)'?" } ?? ""
            throw ScenarioError(
                declaredAt, field: ScenarioSchema.servicePrefix + caller + ".calls.to",
                "'\(to)' names no service (services: \(names.joined(separator: ", "))).\(hint)")
        }
        guard target > index else {
            let which = target == index ? "the service itself" : "'\(to)', listed before '\(caller)'"
            throw ScenarioError(
                declaredAt, field: ScenarioSchema.servicePrefix + caller + ".calls.to",
                "calls \(which): calls go down the list: a call to an earlier service would make a cycle")
        }
        var call = Scenario.Call(to: target, timeout: nil, policy: PolicyPresets.none)
        // The import first: a file may decide a key of the call itself (its timeout), which the
        // call's later keys (a variant's, --set) change as any imported key.
        let own = try PolicyImportKeys.expand(entries.filter { $0.path.hasPrefix(scope) }, scope: scope, inputs: inputs)
        for f in ScenarioSchema.callOwn {
            let set = own.last { $0.path == scope + f.path }
            let text = set?.text ?? f.defaultText
            let value: FieldValue
            do { value = try f.parse(text) } catch {
                throw ScenarioError(set?.location ?? SourceLocation(origin: .defaultValue), field: scope + f.path, error.message)
            }
            switch f.path {
            case "count": call.count = value.int
            case "parallel": call.parallel = value.bool
            case "stage": call.stage = value.optionalInt
            case "timeout": call.timeout = value.nanoseconds
            case "failure_status": call.failureStatus = Int(value.string) ?? call.failureStatus
            case "cancellation": call.propagateCancellation = value.string == "propagate"
            default: call.propagateDeadline = value.string == "propagate"
            }
        }
        let policyEntries = own.filter { $0.path.hasPrefix(scope + "policy.") }
        var draft = ScenarioDraft()
        var locations: [String: SourceLocation] = [:]
        try ScenarioLoader.apply(policyEntries, to: &draft, locations: &locations) { String($0.path.dropFirst(scope.count)) }
        call.policy = try ScenarioLoader.scoped(scope, owns: ScenarioSchema.policyKeys) { () throws(ScenarioError) in
            try draft.policy.build(locations: locations)
        }
        return call
    }
}
