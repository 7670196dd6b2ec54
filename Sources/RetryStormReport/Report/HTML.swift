import RetryStormResults
import SVGCharts

/// Building blocks of the report's HTML: escaping and small element helpers. Output is plain
/// text assembled in a fixed order, so the same inputs give the same bytes.
enum HTML {
    /// Escapes text and attribute values (`&`, `<`, `>`, `"`, `'`; ``MarkupText/Context/html``).
    static func escape(_ text: String) -> String {
        MarkupText.escape(text, for: .html)
    }

    /// `<tag class="…">escaped text</tag>`.
    static func element(_ tag: String, _ text: String, class name: String? = nil) -> String {
        let attribute = name.map { " class=\"\($0)\"" } ?? ""
        return "<\(tag)\(attribute)>\(escape(text))</\(tag)>"
    }
}
