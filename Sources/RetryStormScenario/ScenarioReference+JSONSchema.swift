import Foundation
import RetryStormVocabulary

extension ScenarioReference {
    /// A JSON Schema (draft 2020-12) of the scenario format, generated from the same schema as the
    /// parser, so editors can complete and check scenario files. Keys are nested objects; the
    /// parser also accepts dotted keys (`clients.count: 5`), which the schema allows as
    /// `patternProperties` without checking them.
    package static func jsonSchema() -> String {
        var root: [String: Any] = [
            "$schema": "https://json-schema.org/draft/2020-12/schema",
            "$id": "https://retrystorm.dev/schema/scenario-\(RetryStormVersion.current).json",
            "title": "RetryStorm scenario",
            "description": "A retry-storm simulation: clients, server, retry policy, and optional variants, gates and grids.",
            "type": "object",
            "additionalProperties": false,
            "patternProperties": [dottedKeyPattern: [String: Any]()]
        ]
        var properties: [String: Any] = [:]
        for f in ScenarioSchema.fields { insert(f, path: f.path.split(separator: ".").map(String.init), into: &properties) }
        let list: [String: Any] = ["type": "array", "items": ["type": "string"]]
        properties["variants"] = [
            "type": "array",
            "description": "Named sets of overrides, compared by `retrystorm compare`.",
            "items": ["type": "object", "required": ["name"], "properties": ["name": ["type": "string", "pattern": "^[A-Za-z0-9_.+=:@%/-]{1,120}$"]]]
        ]
        properties["services"] = services(server: properties["server"], policy: properties["policy"])
        properties["expect"] = list.merging(["description": "Release gates: [variant:]metric<=value, judged on the mean over replications."]) { $1 }
        properties["grid"] = list.merging(["description": "Swept keys: path=v1,v2,… or path=LO...HI:log:N."]) { $1 }
        properties["constraints"] = list.merging(["description": "Conditions the `tune` choice must meet."]) { $1 }
        properties["objective"] = ["type": "string", "description": "The metric `tune` minimises (max:metric maximises)."]
        root["properties"] = properties
        // JSONSerialization with sorted keys gives the same bytes every time.
        let data = (try? JSONSerialization.data(withJSONObject: root, options: [.prettyPrinted, .sortedKeys, .withoutEscapingSlashes])) ?? Data()
        return String(decoding: data, as: UTF8.self) + "\n"
    }

    /// `services:`: a list of services, each a name, a server (the `server` section with the
    /// service's own key) and calls (each a `to`, the call's own keys and the `policy` section).
    private static func services(server: Any?, policy: Any?) -> [String: Any] {
        let dotted: [String: Any] = [dottedKeyPattern: [String: Any]()]
        let name: [String: Any] = ["type": "string", "pattern": "^[A-Za-z0-9_-]{1,64}$"]
        var serverSection = server as? [String: Any] ?? [:]
        var serverKeys = serverSection["properties"] as? [String: Any] ?? [:]
        for f in ScenarioSchema.serviceOwn { serverKeys[String(f.path.dropFirst("server.".count))] = property(f) }
        serverSection["properties"] = serverKeys
        var callKeys: [String: Any] = ["to": name.merging(["description": "The service called: one listed later."]) { $1 }]
        for f in ScenarioSchema.callOwn { callKeys[f.path] = property(f) }
        callKeys["policy"] = policy
        let call: [String: Any] = [
            "type": "object", "required": ["to"], "additionalProperties": false, "patternProperties": dotted, "properties": callKeys
        ]
        let service: [String: Any] = [
            "type": "object", "required": ["name"], "additionalProperties": false, "patternProperties": dotted,
            "properties": [
                "name": name, "server": serverSection,
                "calls": [
                    "type": "array", "maxItems": ScenarioSchema.maxCalls, "items": call, "description": "What one request does downstream, in order."
                ]
            ]
        ]
        return [
            "type": "array", "minItems": 1, "maxItems": ScenarioSchema.maxServices, "items": service,
            "description": "A call graph: the clients call the first service; each service calls services listed after it."
        ]
    }

    private static func insert(_ f: Field, path: [String], into properties: inout [String: Any]) {
        if path.count == 1 {
            properties[path[0]] = property(f)
            return
        }
        var section = properties[path[0]] as? [String: Any] ?? ["type": "object", "additionalProperties": false, "properties": [String: Any]()]
        var inner = section["properties"] as? [String: Any] ?? [:]
        insert(f, path: Array(path.dropFirst()), into: &inner)
        section["properties"] = inner
        properties[path[0]] = section
    }

    /// Dotted keys (`server.capacity: 50/s`), allowed without being checked.
    static let dottedKeyPattern = "^[a-z_]+(\\.[a-z0-9_]+)+$"
    static let durationPattern = "^\\s*[0-9][0-9_]*(\\.[0-9]+)?([eE][-+]?[0-9]+)?\\s*(ns|us|µs|ms|s|min|m|h|d)\\s*$|^\\s*0\\s*$"
    /// `p95`, `p99.9`: a percentile strictly between p0 and p100.
    static let percentilePattern = "^\\s*p(0*[1-9][0-9]?(\\.[0-9]+)?|0+\\.[0-9]*[1-9][0-9]*)\\s*$"
    static let ratePattern = "^\\s*[0-9][0-9_]*(\\.[0-9]+)?([eE][-+]?[0-9]+)?\\s*/\\s*(s|m|min|h|ms)\\s*$"

    private static func property(_ f: Field) -> [String: Any] {
        var p: [String: Any] = ["description": f.doc]
        if !f.defaultText.isEmpty { p["default"] = f.defaultText }
        switch f.kind {
        case .integer(let lo, let hi, let none):
            let number: [String: Any] = ["type": "integer", "minimum": lo, "maximum": hi]
            if none { p["anyOf"] = [number, ["const": "none"]] } else { p.merge(number) { $1 } }
        case .number(let lo, let hi):
            p.merge(["type": "number", "minimum": lo, "maximum": hi]) { $1 }
        case .fraction:
            p["anyOf"] = [["type": "number", "minimum": 0, "maximum": 1], ["type": "string", "pattern": "^[0-9.]+%$"]]
        case .duration(_, _, let none):
            let duration: [String: Any] = ["type": "string", "pattern": durationPattern]
            if none { p["anyOf"] = [duration, ["enum": ["none", "never", "unlimited"]]] } else { p.merge(duration) { $1 } }
        case .delayOrPercentile:
            p["anyOf"] = [["type": "string", "pattern": durationPattern], ["type": "string", "pattern": percentilePattern], ["const": "none"]]
        case .rate(_, _, let none):
            let rate: [String: Any] = ["type": "string", "pattern": ratePattern]
            if none { p["anyOf"] = [rate, ["enum": ["none", "unlimited"]]] } else { p.merge(rate) { $1 } }
        case .choice(let options):
            // A choice of numbers (server.errors.status: 500 | 503) is written bare in YAML, an integer.
            p["enum"] = options.flatMap { option -> [Any] in Int(option).map { [$0, option] } ?? [option] }
        case .boolean:
            p["type"] = "boolean"
        case .text:
            p["type"] = "string"
        case .points:
            let pair: [String: Any] = [
                "type": "array", "minItems": 2, "maxItems": 2,
                "prefixItems": [["type": "string", "pattern": durationPattern], ["type": "number", "minimum": 0]]
            ]
            p["anyOf"] = [["type": "array", "items": pair], ["const": "none"]]
        case .file:
            p["type"] = "string"
        }
        return p
    }
}
