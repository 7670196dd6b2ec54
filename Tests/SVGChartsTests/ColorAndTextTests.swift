import SVGCharts
import Testing

struct ColorAndTextTests {
    @Test func viridisAtStops() {
        #expect(ColorScale.viridis(0).hex == "#440154")
        #expect(ColorScale.viridis(0.5).hex == "#21918c")
        #expect(ColorScale.viridis(1).hex == "#fde725")
        #expect(ColorScale.viridis(0.1).hex == "#482475")
        #expect(ColorScale.viridis(-3).hex == "#440154")
        #expect(ColorScale.viridis(7).hex == "#fde725")
        #expect(ColorScale.viridis(.nan).hex == "#440154")
    }

    @Test func viridisBetweenStops() {
        // Halfway between #440154 and #482475: (68+72)/2 = 70, (1+36)/2 = 18.5 → 19, (84+117)/2 = 100.5 → 101.
        #expect(ColorScale.viridis(0.05) == Color(red: 70, green: 19, blue: 101))
        #expect(ColorScale.viridis(0.05).hex == "#461365")
    }

    @Test func paletteOrderAndDashes() {
        #expect(
            Palette.okabeIto.map(\.hex) == [
                "#0072b2", "#c48700", "#009e73", "#f45c9a", "#d8440f", "#1b99ea", "#737e3d", "#000000"
            ])
        #expect(
            Palette.okabeItoPublished.map(\.hex) == [
                "#0072b2", "#e69f00", "#009e73", "#cc79a7", "#d55e00", "#56b4e9", "#f0e442", "#000000"
            ])
        #expect(Palette.dash(at: 1, of: 4) == "")
        #expect(Palette.dash(at: 1, of: 5) == "8 4")
        #expect(Palette.color(at: 8) == Palette.color(at: 0))
        #expect(Palette.dash(at: 8, of: 9) != Palette.dash(at: 0, of: 9))
    }

    /// Sixteen lines (a 12-variant comparison's time-to-success charts, up to the 16 panels of the
    /// charts over time): colours cycle after eight, so lines 9–16 take the colour of lines 1–8
    /// with another dash; no two lines share colour and dash, and none of lines 10–16 looks like
    /// any of the first nine.
    @Test func sixteenLinesDifferByColourOrDash() {
        let styles = (0..<16).map { "\(Palette.color(at: $0).hex) \(Palette.dash(at: $0, of: 16))" }
        #expect(
            styles == [
                "#0072b2 ", "#c48700 8 4", "#009e73 2 3", "#f45c9a 10 3 2 3", "#d8440f ", "#1b99ea 8 4", "#737e3d 2 3", "#000000 10 3 2 3",
                "#0072b2 8 4", "#c48700 2 3", "#009e73 10 3 2 3", "#f45c9a ", "#d8440f 8 4", "#1b99ea 2 3", "#737e3d 10 3 2 3", "#000000 "
            ])
        for count in 5...32 {
            let pairs = (0..<count).map { "\(Palette.color(at: $0).hex) \(Palette.dash(at: $0, of: count))" }
            #expect(Set(pairs).count == count, "\(count) lines")
        }
        // A series' legend swatch carries its dash.
        let legend = StyledSeries.assign((0..<16).map { Series(name: "v\($0)", x: [1], y: [1]) }).map(\.legendItem.swatch)
        #expect(legend[8] == .line(color: Palette.okabeIto[0], dash: "8 4"))
        #expect(legend[15] == .line(color: Palette.okabeIto[7], dash: ""))
    }

    @Test func xmlEscaping() {
        #expect(SVGWriter.escape("a < b && c > \"d\" 'e'") == "a &lt; b &amp;&amp; c &gt; &quot;d&quot; &apos;e&apos;")
        #expect(SVGWriter.escape("bell\u{7}tab\there") == "belltab here")
        #expect(SVGWriter.escape("outage 60–90 s µ") == "outage 60–90 s µ")
    }

    /// The report's HTML (RetryStormKit) escapes with the same function: `&#39;` for `'` (HTML 4
    /// has no `&apos;`), and line breaks, tabs and other characters kept as they are, as before
    /// the two escapers became one.
    @Test func htmlEscaping() {
        #expect(MarkupText.escape("a < b && c > \"d\" 'e'", for: .html) == "a &lt; b &amp;&amp; c &gt; &quot;d&quot; &#39;e&#39;")
        #expect(MarkupText.escape("line\nnext\ttab\r\u{7}µ", for: .html) == "line\nnext\ttab\r\u{7}µ")
        #expect(MarkupText.escape("line\nnext", for: .svg) == "line next")
    }

    @Test func truncation() {
        #expect(TextMetrics.truncate("short", maxWidth: 100, fontSize: 10) == "short")
        let cut = TextMetrics.truncate(String(repeating: "x", count: 50), maxWidth: 60, fontSize: 10)
        #expect(cut == "xxxxxxxx…")
        #expect(TextMetrics.width(cut, fontSize: 10) <= 60)
        #expect(TextMetrics.truncate("abc", maxWidth: 1, fontSize: 10) == "")
    }

    /// A subtitle says what the marks mean, so it wraps rather than being cut: between its " · "
    /// parts onto a second line (a 960 px chart has 928 px at 13 px; this one, from a 12-variant
    /// comparison, was cut after "replications ·" on one line), and only past two lines is the end
    /// cut with "…". The header grows by one line (13 + 4 px).
    @Test func subtitleWrapsBetweenPartsOntoTwoLines() {
        let long =
            "shaded: capacity 20% 60–90 s · dashed: recovery, s after the drop · first 9 of 12 variants · 10,000 clients · mean of 3 replications · 1s buckets"
        #expect(
            Header.subtitleLines(long, width: 960) == [
                "shaded: capacity 20% 60–90 s · dashed: recovery, s after the drop · first 9 of 12 variants · 10,000 clients · mean of 3 replications",
                "1s buckets"
            ])
        #expect(Header.bottom(subtitle: long, width: 960) - Header.bottom(subtitle: "short", width: 960) == 17)
        #expect(Header.subtitleLines("short", width: 960) == ["short"])
        #expect(Header.subtitleLines("", width: 960) == [])
        let lines = Header.subtitleLines(Array(repeating: long, count: 3).joined(separator: " · "), width: 960)
        #expect(lines.count == 2 && lines[0] == Header.subtitleLines(long, width: 960)[0] && lines[1].hasSuffix("…"))
        #expect(TextMetrics.width(lines[1], fontSize: Theme.subtitleSize) <= 928)
    }
}
