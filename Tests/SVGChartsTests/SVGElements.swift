import Foundation
import SVGCharts

#if canImport(FoundationXML)
    import FoundationXML
#endif

/// The elements of a rendered SVG, in document order, for tests that check
/// geometry (text boxes, marks inside cells).
struct SVGElement {
    var name: String
    var attributes: [String: String]
    var text: String

    func number(_ key: String) -> Double? { attributes[key].flatMap(Double.init) }
}

enum SVGElements {
    static func parse(_ svg: String) -> [SVGElement] {
        let parser = XMLParser(data: Data(svg.utf8))
        let collector = Collector()
        parser.delegate = collector
        _ = parser.parse()
        return collector.elements
    }

    private final class Collector: NSObject, XMLParserDelegate {
        var elements: [SVGElement] = []
        var open: [Int] = []

        func parser(
            _ parser: XMLParser, didStartElement elementName: String, namespaceURI: String?,
            qualifiedName qName: String?, attributes attributeDict: [String: String] = [:]
        ) {
            var attributes = attributeDict
            // Legend text takes its size from the enclosing group.
            if attributes["font-size"] == nil, let parent = open.last, let size = elements[parent].attributes["font-size"] {
                attributes["font-size"] = size
            }
            elements.append(SVGElement(name: elementName, attributes: attributes, text: ""))
            open.append(elements.count - 1)
        }

        func parser(_ parser: XMLParser, foundCharacters string: String) {
            if let last = open.last { elements[last].text += string }
        }

        func parser(
            _ parser: XMLParser, didEndElement elementName: String, namespaceURI: String?,
            qualifiedName qName: String?
        ) {
            _ = open.popLast()
        }
    }
}

/// The box a `<text>` element covers, from the same width estimate the
/// layout uses (``TextMetrics``), ascent 0.8 and descent 0.25 of the size,
/// turned by its `rotate(…)` about the anchor point: four corners.
struct TextBox {
    var text: String
    var corners: [PixelPoint]

    init?(_ element: SVGElement) {
        guard element.name == "text", let x = element.number("x"), let y = element.number("y"),
            let size = element.number("font-size")
        else { return nil }
        text = element.text
        var width = TextMetrics.width(text, fontSize: size)
        if let weight = element.attributes["font-weight"], Int(weight) ?? 400 >= 600 { width *= TextMetrics.boldFactor }
        let start: Double
        switch element.attributes["text-anchor"] {
        case "middle": start = -width / 2
        case "end": start = -width
        default: start = 0
        }
        let local = [
            (start, -0.8 * size), (start + width, -0.8 * size), (start + width, 0.25 * size),
            (start, 0.25 * size)
        ]
        var angle = 0.0
        if let transform = element.attributes["transform"], transform.hasPrefix("rotate(") {
            let inner = transform.dropFirst(7).split(separator: " ").first.map(String.init) ?? "0"
            angle = (Double(inner) ?? 0) * Double.pi / 180
        }
        let (c, s) = (Foundation.cos(angle), Foundation.sin(angle))
        corners = local.map { PixelPoint(x: x + $0.0 * c - $0.1 * s, y: y + $0.0 * s + $0.1 * c) }
    }

    var bounds: Rect {
        let xs = corners.map(\.x)
        let ys = corners.map(\.y)
        return Rect(x: xs.min()!, y: ys.min()!, width: xs.max()! - xs.min()!, height: ys.max()! - ys.min()!)
    }

    /// Separating-axis test for two convex quadrilaterals; boxes that only
    /// touch, or overlap by less than `tolerance` px, do not count.
    func overlaps(_ other: TextBox, tolerance: Double = 0.5) -> Bool {
        for polygon in [corners, other.corners] {
            for i in 0..<4 {
                let a = polygon[i]
                let b = polygon[(i + 1) % 4]
                let (nx, ny) = (b.y - a.y, a.x - b.x)
                let length = (nx * nx + ny * ny).squareRoot()
                guard length > 0 else { continue }
                let p1 = corners.map { ($0.x * nx + $0.y * ny) / length }
                let p2 = other.corners.map { ($0.x * nx + $0.y * ny) / length }
                if p1.max()! <= p2.min()! + tolerance || p2.max()! <= p1.min()! + tolerance { return false }
            }
        }
        return true
    }
}

/// Text problems in a rendered chart: labels overlapping other labels, or
/// leaving the canvas. Pairs drawn at the same place with the same text
/// (a halo under its text) are one label.
enum TextLayoutCheck {
    static func problems(_ svg: String) -> [String] {
        let elements = SVGElements.parse(svg)
        guard let root = elements.first, let width = root.number("width"), let height = root.number("height")
        else { return ["no canvas size"] }
        var boxes: [TextBox] = []
        var seen: Set<String> = []
        for element in elements where element.name == "text" {
            let key = "\(element.attributes["x"] ?? "") \(element.attributes["y"] ?? "") \(element.text)"
            guard seen.insert(key).inserted, let box = TextBox(element), !box.text.isEmpty else { continue }
            boxes.append(box)
        }
        var found: [String] = []
        for box in boxes {
            let b = box.bounds
            if b.minX < -0.5 || b.minY < -0.5 || b.maxX > width + 0.5 || b.maxY > height + 0.5 {
                found.append("\"\(box.text)\" leaves the canvas: \(b)")
            }
        }
        for i in boxes.indices {
            for j in boxes.indices where j > i && boxes[i].overlaps(boxes[j]) {
                found.append("\"\(boxes[i].text)\" overlaps \"\(boxes[j].text)\"")
            }
        }
        return found
    }
}
