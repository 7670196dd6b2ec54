import Foundation

#if canImport(FoundationXML)
    import FoundationXML
#endif

/// Checks that rendered SVG is a well-formed, standalone document.
enum SVGCheck {
    /// Problems found (empty when the document is fine): XMLParser errors,
    /// a missing root or `xmlns`, and any "nan"/"inf" text.
    static func problems(_ svg: String) -> [String] {
        var found: [String] = []
        let parser = XMLParser(data: Data(svg.utf8))
        let delegate = RootCollector()
        parser.delegate = delegate
        if !parser.parse() {
            found.append("XMLParser: \(parser.parserError.map { "\($0)" } ?? "unknown error")")
        }
        if delegate.root != "svg" { found.append("root element is \(delegate.root ?? "none")") }
        if delegate.depth != 0 { found.append("unbalanced elements (depth \(delegate.depth))") }
        if !svg.hasPrefix("<svg xmlns=\"http://www.w3.org/2000/svg\"") { found.append("missing xmlns") }
        let lower = svg.lowercased()
        for bad in ["nan", "inf"] where lower.contains(bad) {
            // "inf" may legitimately occur inside words; look for it as a token.
            if containsToken(bad, in: lower) { found.append("contains \(bad)") }
        }
        return found
    }

    /// True when `token` appears not surrounded by letters.
    static func containsToken(_ token: String, in text: String) -> Bool {
        let chars = Array(text)
        let t = Array(token)
        guard chars.count >= t.count else { return false }
        for i in 0...(chars.count - t.count) where Array(chars[i..<(i + t.count)]) == t {
            let before = i > 0 ? chars[i - 1] : " "
            let after = i + t.count < chars.count ? chars[i + t.count] : " "
            if !before.isLetter && !after.isLetter { return true }
        }
        return false
    }
}

private final class RootCollector: NSObject, XMLParserDelegate {
    var root: String?
    var depth = 0

    func parser(
        _ parser: XMLParser, didStartElement elementName: String, namespaceURI: String?,
        qualifiedName qName: String?, attributes attributeDict: [String: String] = [:]
    ) {
        if root == nil { root = elementName }
        depth += 1
    }

    func parser(
        _ parser: XMLParser, didEndElement elementName: String, namespaceURI: String?,
        qualifiedName qName: String?
    ) {
        depth -= 1
    }
}
