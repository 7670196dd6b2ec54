/// The command that made a result directory, as `command.txt` holds it: one line, the program
/// named `retrystorm`, then the arguments as they were typed, each quoted for a POSIX shell where
/// it needs quoting, so the line can be pasted to reproduce the results.
///
/// Options that change no byte of the results (where they go, how many threads, progress, the
/// shard slice, invariant checks, event limits, the event queue) are left out by the recorder
/// (``init(argv:leavingOut:flags:)``): the line then stays a deterministic output like the CSVs —
/// the same study gives the same bytes whatever `--out` or `--jobs` said, and merged shards give
/// exactly what the unsharded command writes.
package struct StudyCommand: Sendable, Equatable {
    /// The most bytes of command.txt read (its reader's cap): one command line, which Linux
    /// refuses to run beyond ARG_MAX (2 MiB with the default 8 MiB stack); twice that for the
    /// shell quoting.
    package static let maxBytes = 4 << 20

    /// The arguments after the program name.
    package var arguments: [String]

    package init(arguments: [String]) {
        self.arguments = arguments
    }

    /// Records `argv` (program first) without the options named in `valued` (each with its value,
    /// whether given as `--name value` or `--name=value`) and the flags named in `flags`.
    package init(argv: [String], leavingOut valued: Set<String>, flags: Set<String>) {
        var kept: [String] = []
        var i = 1
        while i < argv.count {
            let a = argv[i]
            let name = a.split(separator: "=", maxSplits: 1).first.map(String.init) ?? a
            if valued.contains(a) {
                i += 2
                continue
            }
            if a.contains("="), valued.contains(name) || flags.contains(name) {
                i += 1
                continue
            }
            if flags.contains(a) {
                i += 1
                continue
            }
            kept.append(a)
            i += 1
        }
        arguments = kept
    }

    /// The minimum difference `--min-difference` asked for (its last value), else the standard one:
    /// what every verdict on these results counts as "clearly" (``MinimumDifference``). A value
    /// that does not parse was refused when the command ran; here it falls back to the standard.
    package var minimumDifference: MinimumDifference {
        values(of: "--min-difference").last.flatMap(MinimumDifference.init(parsing:)) ?? .standard
    }

    /// The scenario keys the command set: each `--set path=value`, then `--focus NAME` (its last
    /// value) as `focus=NAME`, as the command applied them.
    package var scenarioOverrides: [String] {
        values(of: "--set") + values(of: "--focus").suffix(1).map(Self.focusOverride)
    }

    /// `--focus NAME` as the `--set` override of the scenario's `focus` key.
    package static func focusOverride(_ name: String) -> String { "focus=\(name)" }

    /// `retrystorm` and the arguments, each quoted where a shell would split or expand it.
    package var line: String {
        (["retrystorm"] + arguments.map(Self.quoted)).joined(separator: " ")
    }

    /// The values given to option `name` (`--name value` or `--name=value`), in order.
    package func values(of name: String) -> [String] {
        var out: [String] = []
        var i = 0
        while i < arguments.count {
            let a = arguments[i]
            if a == name, i + 1 < arguments.count {
                out.append(arguments[i + 1])
                i += 2
                continue
            }
            if a.hasPrefix(name + "=") { out.append(String(a.dropFirst(name.count + 1))) }
            i += 1
        }
        return out
    }

    /// Characters a POSIX shell leaves alone outside quotes.
    static let plain = Set("abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789-_./:=,+@%^")

    /// `word` as is when every character is plain, else in single quotes (a `'` inside written
    /// `'\''`); the empty word as `''`.
    static func quoted(_ word: String) -> String {
        if !word.isEmpty, word.allSatisfy({ plain.contains($0) }) { return word }
        return "'" + word.replacingOccurrences(of: "'", with: "'\\''") + "'"
    }

    /// Reads a line written by ``line``: words split at unquoted blanks, single quotes taken
    /// literally, double quotes with `\` escaping `"`, `\`, `$` and `` ` ``, and `\` escaping the
    /// next character outside quotes. The first word (the program) is dropped.
    /// - Returns: nil for an empty line or an unclosed quote.
    package init?(line: String) {
        var words: [String] = []
        var word = ""
        var inWord = false
        var chars = line.trimmingTrailingNewlines()[...]
        while let c = chars.popFirst() {
            switch c {
            case " ", "\t":
                if inWord { words.append(word) }
                word = ""
                inWord = false
            case "'":
                inWord = true
                guard let end = chars.firstIndex(of: "'") else { return nil }
                word += chars[..<end]
                chars = chars[chars.index(after: end)...]
            case "\"":
                inWord = true
                var closed = false
                while let d = chars.popFirst() {
                    if d == "\"" {
                        closed = true
                        break
                    }
                    if d == "\\", let e = chars.first, "\"\\$`".contains(e) {
                        word.append(e)
                        chars = chars.dropFirst()
                    } else {
                        word.append(d)
                    }
                }
                if !closed { return nil }
            case "\\":
                inWord = true
                if let e = chars.popFirst() { word.append(e) }
            default:
                inWord = true
                word.append(c)
            }
        }
        if inWord { words.append(word) }
        guard !words.isEmpty else { return nil }
        arguments = Array(words.dropFirst())
    }
}

extension String {
    /// Without the line breaks at its end.
    func trimmingTrailingNewlines() -> String {
        var s = self
        while s.last?.isNewline == true { s.removeLast() }
        return s
    }
}
