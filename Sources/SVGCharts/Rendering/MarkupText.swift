/// The one escaper of text put into markup: SVG charts (``SVGWriter``) and RetryStorm's HTML
/// report. Output is fixed per input, so the same data gives the same bytes.
public enum MarkupText {
    /// Where the escaped text goes.
    public enum Context: Sendable {
        /// SVG (XML 1.0) text or attribute values: `'` as `&apos;`; tab, line feed and carriage
        /// return as a space (a chart's text is one line, and attribute values would fold them
        /// anyway); the other control characters XML 1.0 forbids, and U+FFFE and U+FFFF, dropped,
        /// since one of them makes the whole document invalid.
        case svg
        /// HTML text or attribute values: `'` as `&#39;` (HTML 4 has no `&apos;`) and every other
        /// character as it is, line breaks included (the report's `<pre>` keeps a scenario's lines).
        case html
    }

    /// `text` with `&`, `<`, `>`, `"` and `'` escaped for `context`, so it can stand in element
    /// content and in quoted attribute values alike.
    public static func escape(_ text: String, for context: Context) -> String {
        var result = ""
        result.reserveCapacity(text.utf8.count)
        for scalar in text.unicodeScalars {
            switch scalar {
            case "&": result += "&amp;"
            case "<": result += "&lt;"
            case ">": result += "&gt;"
            case "\"": result += "&quot;"
            case "'": result += context == .svg ? "&apos;" : "&#39;"
            case "\t", "\n", "\r":
                if context == .svg { result += " " } else { result.unicodeScalars.append(scalar) }
            default:
                if context == .svg && (scalar.value < 0x20 || scalar.value == 0xFFFE || scalar.value == 0xFFFF) { continue }
                result.unicodeScalars.append(scalar)
            }
        }
        return result
    }
}
