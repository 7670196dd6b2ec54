import Foundation
import RetryStormVocabulary

/// One input file of a study, as results record it (shard.json's `inputs`, inputs.json): the
/// scenario key that names it, who set the key, the path as written, the SHA-256 of the bytes
/// that were parsed, and the name of the copy the results directory keeps.
///
/// ```json
/// { "bytes" : 27, "copy" : "input-load-csv-5d8f3c1e0b2a4f6d.csv", "file" : "traffic.csv",
///   "from" : "scenario", "key" : "load.csv", "sha256" : "5d8f3c1e0b2a4f6d…" }
/// ```
package struct InputRecord: Codable, Sendable, Hashable {
    /// The scenario key, a field of kind `.file` (`load.csv`, `server.capacity_csv`).
    package var key: String
    /// `scenario` when the scenario file (its keys, a variant's) set the key, and the path is
    /// relative to the file; else the option that did (`--set`, `--vary`, `--grid`), and the path
    /// is relative to the working directory.
    package var from: String
    /// The path as written.
    package var file: String
    /// Of every byte read, lowercase hex.
    package var sha256: String
    /// How many bytes were read.
    package var bytes: Int
    /// The copy's file name in a results directory: ``copyName(key:sha256:)``.
    package var copy: String

    package init(key: String, from: String, file: String, sha256: String, bytes: Int) {
        self.key = key
        self.from = from
        self.file = file
        self.sha256 = sha256
        self.bytes = bytes
        copy = Self.copyName(key: key, sha256: sha256)
    }

    /// `from` of a key the scenario file sets.
    package static let scenario = "scenario"

    /// The largest input file read (``CurveFile/maxBytes``).
    package static let maxBytes = CurveFile.maxBytes

    /// Who set a key at `location`: ``scenario``, or the option (`--set`, `--vary`, `--grid`).
    static func setter(_ location: SourceLocation) -> String {
        guard case .option(let text) = location.origin else { return scenario }
        return String(text.prefix { $0 != " " })
    }

    /// `input-<key>-<16 hex digits>.csv`: the key in lowercase with `.` and `_` as `-`, and the
    /// first 16 hex digits of the SHA-256, so that files with other contents get other names and
    /// the same contents always the same one (a results directory never depends on where the
    /// file was). The copy name is a plain YAML scalar and a safe file name. A policy file
    /// (`policy.import.file`) ends in `.txt` instead: it may be JSON or YAML, and is told apart
    /// by its contents.
    package static func copyName(key: String, sha256: String) -> String {
        let slug = String(
            key.lowercased().unicodeScalars.map { scalar -> Character in
                let c = Character(scalar)
                return c.isASCII && (c.isLetter || c.isNumber) ? c : "-"
            })
        return "input-\(slug)-\(sha256.prefix(16)).\(key.hasSuffix("policy.import.file") ? "txt" : "csv")"
    }

    /// Whether `name` has the form of a copy's name (``copyName(key:sha256:)``).
    package static func isCopyName(_ name: String) -> Bool {
        guard name.hasPrefix("input-"), name.hasSuffix(".csv") || name.hasSuffix(".txt") else { return false }
        let middle = name.dropFirst(6).dropLast(4)
        guard let dash = middle.lastIndex(of: "-") else { return false }
        let slug = middle[..<dash]
        let hex = middle[middle.index(after: dash)...]
        return !slug.isEmpty && slug.allSatisfy { $0.isASCII && ($0.isLowercase || $0.isNumber || $0 == "-") }
            && hex.count == 16 && hex.allSatisfy { $0.isHexDigit && !$0.isUppercase }
    }

    /// The name of the file listing the inputs that options named (`--set`, `--vary`, `--grid`),
    /// which scenario.yaml does not: written only when there are such inputs.
    package static let listName = "inputs.json"

    /// `records` as inputs.json holds them: `{"inputs": [...]}`, keys sorted, one line per key.
    package static func json(_ records: [InputRecord]) -> String {
        struct List: Encodable { var inputs: [InputRecord] }
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.prettyPrinted, .sortedKeys]
        // Encoding plain values cannot fail.
        return String(decoding: (try? encoder.encode(List(inputs: records))) ?? Data(), as: UTF8.self) + "\n"
    }

    /// Reads inputs.json's text (`file` names it in messages): the records, each checked, and
    /// the text exactly as ``json(_:)`` writes it.
    package static func decode(_ bytes: [UInt8], file: String) throws(ScenarioError) -> [InputRecord] {
        struct List: Decodable { var inputs: [InputRecord] }
        let here = SourceLocation(origin: .file(file))
        guard let list = try? JSONDecoder().decode(List.self, from: Data(bytes)) else {
            throw ScenarioError(here, "is not a list of input files as retrystorm writes it")
        }
        for r in list.inputs where !r.isSound {
            throw ScenarioError(here, field: r.key, "the input \(MessageText.escaped(r.file)) is not recorded as retrystorm records it")
        }
        guard Array(json(list.inputs).utf8) == bytes else { throw ScenarioError(here, "is not as retrystorm writes it (it was edited)") }
        return list.inputs
    }

    /// Whether the record could have been written: a file key, a known setter, a path without
    /// control characters, a digest, a size within what is read, and the copy's name.
    package var isSound: Bool {
        guard case .file? = ScenarioSchema.field(at: key)?.kind,
            from == Self.scenario || ["--set", "--vary", "--grid"].contains(from),
            !file.isEmpty, !file.unicodeScalars.contains(where: MessageText.needsEscape),
            sha256.utf8.count == 64, sha256.utf8.allSatisfy({ (0x30...0x39).contains($0) || (0x61...0x66).contains($0) }),
            (0...Self.maxBytes).contains(bytes)
        else { return false }
        return copy == Self.copyName(key: key, sha256: sha256)
    }
}
