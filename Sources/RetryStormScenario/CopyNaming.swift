import RetryStormVocabulary

/// The scenario text a results directory keeps (its scenario.yaml): the file as written, with the
/// value of every key that names an input file replaced by the name of the copy kept beside it
/// (``InputRecord/copyName(key:sha256:)``), so that `report`, `chart`, `merge` and
/// `retrystorm run DIR/scenario.yaml` read the copies, from any working directory.
///
/// Only those values change — comments, order, quoting of everything else stay as written; a
/// scenario that names no file is kept byte for byte. Each value is found where the YAML parser
/// says it starts (line and column), as a plain, single- or double-quoted scalar on one line
/// (after any anchor or tag), and replaced by the copy's name, a plain scalar. The new text is
/// then parsed again and must give the same entries but those values: anything else (a value
/// over several lines, a block scalar, an alias shared with another key) is refused with a
/// message saying how to write the path.
enum CopyNaming {
    /// `text` (parsed as `entries`, from `file`) with each of `copies`' entries' values replaced
    /// by its copy's name.
    static func text(_ text: String, entries: ScenarioEntries, file: String, copies: [(entry: Entry, copy: String)]) throws(ScenarioError) -> String {
        guard !copies.isEmpty else { return text }
        let scalars = Array(text.unicodeScalars)
        let starts = lineStarts(scalars)
        var spans: [Int: (end: Int, copy: String)] = [:]
        for (entry, copy) in copies {
            guard let line = entry.location.line, let column = entry.location.column, line >= 1, line <= starts.count, column >= 1,
                let span = span(scalars, at: starts[line - 1] + column - 1, value: entry.text)
            else {
                throw refusal(entry)
            }
            if let other = spans[span.lowerBound], other.copy != copy || other.end != span.upperBound { throw refusal(entry) }
            spans[span.lowerBound] = (span.upperBound, copy)
        }
        var out = scalars
        for (start, replacement) in spans.sorted(by: { $0.key > $1.key }) {
            out.replaceSubrange(start..<replacement.end, with: replacement.copy.unicodeScalars)
        }
        var result = ""
        result.unicodeScalars.append(contentsOf: out)
        try check(result, against: entries, file: file, copies: copies)
        return result
    }

    /// Refuses when `result` does not parse into `entries` with exactly the copies' values changed.
    static func check(_ result: String, against entries: ScenarioEntries, file: String, copies: [(entry: Entry, copy: String)]) throws(ScenarioError)
    {
        func at(_ e: Entry) -> [Int?] { [e.location.line, e.location.column] }
        var named: [[Int?]: String] = [:]
        for (e, copy) in copies { named[at(e)] = copy }
        func same(_ a: [Entry], _ b: [Entry]) -> Bool {
            a.count == b.count && zip(a, b).allSatisfy { x, y in x.path == y.path && y.text == (named[at(x)] ?? x.text) }
        }
        guard let again = try? ScenarioEntries(text: result, file: file), same(entries.entries, again.entries),
            entries.variants.count == again.variants.count,
            zip(entries.variants, again.variants).allSatisfy({ $0.name == $1.name && same($0.entries, $1.entries) }),
            entries.studyKeys.mapValues({ $0.map(\.value) }) == again.studyKeys.mapValues({ $0.map(\.value) })
        else {
            throw refusal(copies[0].entry)
        }
    }

    static func refusal(_ entry: Entry) -> ScenarioError {
        ScenarioError(
            entry.location, field: entry.path,
            "results keep a copy of this file and name it here in their scenario.yaml, which needs the path written on one line as a plain or quoted value of its own (not a block scalar, nor an alias another key shares)"
        )
    }

    /// The index of the first scalar of every line, as the YAML parser counts lines: a line
    /// ends at `\n`, `\r\n`, a lone `\r`, U+0085, U+2028 or U+2029; a byte order mark is not a column.
    static func lineStarts(_ s: [Unicode.Scalar]) -> [Int] {
        var starts = [s.first == "\u{FEFF}" ? 1 : 0]
        var i = 0
        while i < s.count {
            if isBreak(s[i]) {
                if s[i] == "\r", i + 1 < s.count, s[i + 1] == "\n" { i += 1 }
                starts.append(i + 1)
            }
            i += 1
        }
        return starts
    }

    static func isBreak(_ c: Unicode.Scalar) -> Bool {
        c == "\n" || c == "\r" || c == "\u{85}" || c == "\u{2028}" || c == "\u{2029}"
    }

    /// The scalars of the value starting at `start` (after an anchor or a tag): a quoted scalar to
    /// its closing quote, a plain one that is exactly `value`; nil for anything else.
    static func span(_ s: [Unicode.Scalar], at start: Int, value: String) -> Range<Int>? {
        var i = start
        while i < s.count, s[i] == "&" || s[i] == "!" {
            while i < s.count, s[i] != " ", s[i] != "\t", !isBreak(s[i]) { i += 1 }
            while i < s.count, s[i] == " " || s[i] == "\t" { i += 1 }
        }
        guard i < s.count else { return nil }
        switch s[i] {
        case "'", "\"":
            let quote = s[i]
            var j = i + 1
            while j < s.count, !isBreak(s[j]) {
                if quote == "\"" && s[j] == "\\" {
                    j += 2
                    continue
                }
                if s[j] == quote {
                    if quote == "'", j + 1 < s.count, s[j + 1] == "'" {
                        j += 2
                        continue
                    }
                    return i..<(j + 1)
                }
                j += 1
            }
            return nil
        case "|", ">":
            return nil
        default:
            let v = Array(value.unicodeScalars)
            guard !v.isEmpty, i + v.count <= s.count, Array(s[i..<(i + v.count)]) == v else { return nil }
            return i..<(i + v.count)
        }
    }
}
