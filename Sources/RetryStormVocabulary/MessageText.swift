/// Text from users (file names, scenario and variant names, values) as it may appear in a
/// message: control characters would move the cursor, ring the bell or forge a new line in a log,
/// so they are written as escapes.
package enum MessageText {
    /// `text` with C0 and C1 control characters, DEL and the Unicode line and bidirectional
    /// overrides written as `\n`, `\t`, `\r` or `\u{XX}`; everything else as it is.
    package static func escaped(_ text: String) -> String {
        guard text.unicodeScalars.contains(where: needsEscape) else { return text }
        var out = ""
        for c in text.unicodeScalars {
            guard needsEscape(c) else {
                out.unicodeScalars.append(c)
                continue
            }
            switch c {
            case "\n": out += "\\n"
            case "\t": out += "\\t"
            case "\r": out += "\\r"
            default: out += "\\u{" + String(c.value, radix: 16, uppercase: true) + "}"
            }
        }
        return out
    }

    /// A message whose lines are kept (an expectations report) with every other control escaped.
    package static func escapedKeepingLines(_ text: String) -> String {
        text.split(separator: "\n", omittingEmptySubsequences: false).map { escaped(String($0)) }.joined(separator: "\n")
    }

    package static func needsEscape(_ c: Unicode.Scalar) -> Bool {
        switch c.value {
        case 0..<0x20, 0x7F..<0xA0, 0x2028, 0x2029, 0x202A...0x202E, 0x2066...0x2069: return true
        default: return false
        }
    }
}
