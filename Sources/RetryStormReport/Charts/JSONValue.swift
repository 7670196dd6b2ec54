import RetryStormResults
import RetryStormScenario
import Foundation

/// A JSON document as plain values, decoded with `JSONDecoder` so that numbers, booleans and
/// strings keep their JSON types on every platform (Foundation's `JSONSerialization` hands back
/// `NSNumber`s that blur booleans and numbers differently on Linux and Darwin).
enum JSONValue: Decodable, Equatable {
    case null
    case bool(Bool)
    case number(Double)
    case string(String)
    case array([JSONValue])
    /// Keys in sorted order, so that iterating never depends on dictionary order.
    case object([(key: String, value: JSONValue)])

    init(from decoder: Decoder) throws {
        let container = try decoder.singleValueContainer()
        if container.decodeNil() {
            self = .null
        } else if let b = try? container.decode(Bool.self) {
            self = .bool(b)
        } else if let n = try? container.decode(Double.self) {
            self = .number(n)
        } else if let s = try? container.decode(String.self) {
            self = .string(s)
        } else if let a = try? container.decode([JSONValue].self) {
            self = .array(a)
        } else {
            let map = try container.decode([String: JSONValue].self)
            self = .object(map.keys.sorted().map { ($0, map[$0]!) })
        }
    }

    static func == (a: JSONValue, b: JSONValue) -> Bool {
        switch (a, b) {
        case (.null, .null): true
        case let (.bool(x), .bool(y)): x == y
        case let (.number(x), .number(y)): x == y
        case let (.string(x), .string(y)): x == y
        case let (.array(x), .array(y)): x == y
        case let (.object(x), .object(y)): x.map(\.key) == y.map(\.key) && x.map(\.value) == y.map(\.value)
        default: false
        }
    }

    /// The member `key` of an object, nil otherwise.
    subscript(key: String) -> JSONValue? {
        guard case let .object(members) = self else { return nil }
        return members.first { $0.key == key }?.value
    }

    var string: String? {
        if case let .string(s) = self { return s }
        return nil
    }

    var number: Double? {
        if case let .number(n) = self { return n }
        return nil
    }

    var members: [(key: String, value: JSONValue)]? {
        if case let .object(m) = self { return m }
        return nil
    }
}
