/// Appends SVG elements to a string in the order they are written.
///
/// Attributes are an ordered list, never a dictionary, so output order is
/// fixed. Numbers reach the text only through ``NumberFormat/fixed(_:maxFractionDigits:)``.
/// The writer emits no `id`s: several charts can sit inline in one HTML page
/// without clashing.
package struct SVGWriter {
    private(set) var output = ""
    private var openElements: [String] = []

    package typealias Attributes = [(String, String)]

    /// Starts the document with a white background, so charts stay legible
    /// on dark HTML pages and in `rsvg-convert` without `-b`.
    package init(width: Double, height: Double, title: String, fontFamily: String) {
        let w = Self.number(width)
        let h = Self.number(height)
        output += "<svg xmlns=\"http://www.w3.org/2000/svg\" width=\"\(w)\" height=\"\(h)\" viewBox=\"0 0 \(w) \(h)\""
        output += " font-family=\"\(Self.escape(fontFamily))\" role=\"img\">\n"
        openElements.append("svg")
        element("title", text: title)
        element("rect", [("x", "0"), ("y", "0"), ("width", w), ("height", h), ("fill", "#ffffff")])
    }

    /// Coordinates and sizes: two decimals are far below a pixel.
    package static func number(_ x: Double) -> String {
        NumberFormat.fixed(x, maxFractionDigits: 2)
    }

    /// Escapes text and attribute values (``MarkupText/Context/svg``).
    package static func escape(_ text: String) -> String {
        MarkupText.escape(text, for: .svg)
    }

    mutating func open(_ name: String, _ attributes: Attributes = []) {
        output += indentation + "<" + name + Self.render(attributes) + ">\n"
        openElements.append(name)
    }

    package mutating func close() {
        guard let name = openElements.popLast() else { return }
        output += indentation + "</" + name + ">\n"
    }

    /// An empty element, or one holding escaped `text`.
    package mutating func element(_ name: String, _ attributes: Attributes = [], text: String? = nil) {
        output += indentation + "<" + name + Self.render(attributes)
        if let text {
            output += ">" + Self.escape(text) + "</" + name + ">\n"
        } else {
            output += "/>\n"
        }
    }

    /// Closes every open element and returns the document.
    package mutating func finish() -> String {
        while !openElements.isEmpty { close() }
        return output
    }

    private var indentation: String {
        String(repeating: " ", count: max(0, openElements.count - 1))
    }

    private static func render(_ attributes: Attributes) -> String {
        var text = ""
        for (name, value) in attributes {
            text += " " + name + "=\"" + escape(value) + "\""
        }
        return text
    }
}
