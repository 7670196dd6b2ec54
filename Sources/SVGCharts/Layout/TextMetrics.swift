/// Text width estimates for layout without a font engine.
///
/// The renderer (browser or librsvg) picks the real font, so widths are
/// estimated per character class with advances close to DejaVu Sans, the
/// widest common fallback (system-ui, Segoe UI, Roboto and Helvetica are
/// all narrower): layout computed this way leaves room on every platform.
package enum TextMetrics {
    /// Bold (600–700) glyphs run up to about 10% wider than regular ones.
    package static let boldFactor = 1.1

    package static func width(_ text: String, fontSize: Double) -> Double {
        var ems = 0.0
        for character in text {
            ems += advance(of: character)
        }
        return ems * fontSize
    }

    /// `text` unchanged if it fits in `maxWidth`, else cut at a character
    /// boundary with "…" appended. Returns "" when not even "…" fits.
    package static func truncate(_ text: String, maxWidth: Double, fontSize: Double) -> String {
        if width(text, fontSize: fontSize) <= maxWidth { return text }
        let ellipsis = "…"
        var budget = maxWidth - width(ellipsis, fontSize: fontSize)
        if budget < 0 { return "" }
        var result = ""
        for character in text {
            let w = advance(of: character) * fontSize
            if w > budget { break }
            budget -= w
            result.append(character)
        }
        while result.last == " " { result.removeLast() }
        return result + ellipsis
    }

    /// Greedy word wrap into lines of at most `maxWidth`; nil when the text
    /// needs more than `maxLines` lines or has a word wider than a line
    /// (the caller then falls back to turning or cutting the text).
    package static func wrap(_ text: String, maxWidth: Double, fontSize: Double, maxLines: Int) -> [String]? {
        var lines: [String] = []
        var current = ""
        for word in text.split(separator: " ", omittingEmptySubsequences: true).map(String.init) {
            if width(word, fontSize: fontSize) > maxWidth { return nil }
            let candidate = current.isEmpty ? word : current + " " + word
            if width(candidate, fontSize: fontSize) <= maxWidth {
                current = candidate
            } else {
                lines.append(current)
                current = word
            }
        }
        if !current.isEmpty || lines.isEmpty { lines.append(current) }
        return lines.count <= maxLines ? lines : nil
    }

    /// Advance of one character in em.
    private static func advance(of character: Character) -> Double {
        guard let scalar = character.unicodeScalars.first else { return 0 }
        let value = scalar.value
        if value < 0x80 {
            switch scalar {
            case " ": return 0.32
            case "i", "l", "j", "I", ".", ",", ":", ";", "'", "|", "!", "`": return 0.3
            case "f", "t", "r", "(", ")", "[", "]", "{", "}", "/", "\\", "-", "\"": return 0.42
            case "m", "w", "M", "W", "@", "%": return 0.98
            case "<", ">", "=", "+", "~", "&", "#", "^", "*": return 0.84
            case "A"..."Z": return 0.74
            case "0"..."9": return 0.64
            default: return 0.62
            }
        }
        if value == 0x2026 { return 1.0 }  // "…"
        let isWide =
            (0x1100...0x115F).contains(value) || (0x2E80...0xA4CF).contains(value)
            || (0xAC00...0xD7A3).contains(value) || (0xF900...0xFAFF).contains(value)
            || (0xFE30...0xFE4F).contains(value) || (0xFF00...0xFF60).contains(value)
            || (0x1F300...0x1FAFF).contains(value) || (0x20000...0x3FFFD).contains(value)
        return isWide ? 1.0 : 0.8
    }
}
