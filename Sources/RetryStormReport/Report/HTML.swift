import RetryStormResults
import RetryStormScenario
/// Building blocks of the report's HTML: escaping and small element helpers. Output is plain
/// text assembled in a fixed order, so the same inputs give the same bytes.
enum HTML {
    /// Escapes text and attribute values (`&`, `<`, `>`, `"`, `'`).
    static func escape(_ text: String) -> String {
        var result = ""
        result.reserveCapacity(text.utf8.count)
        for c in text.unicodeScalars {
            switch c {
            case "&": result += "&amp;"
            case "<": result += "&lt;"
            case ">": result += "&gt;"
            case "\"": result += "&quot;"
            case "'": result += "&#39;"
            default: result.unicodeScalars.append(c)
            }
        }
        return result
    }

    /// `<tag class="…">escaped text</tag>`.
    static func element(_ tag: String, _ text: String, class name: String? = nil) -> String {
        let attribute = name.map { " class=\"\($0)\"" } ?? ""
        return "<\(tag)\(attribute)>\(escape(text))</\(tag)>"
    }
}
