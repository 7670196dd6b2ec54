import RetryStormResults

/// The ★ of a per-variant chart, given by ``BestMarks`` — the one rule behind the terminal
/// tables' `*` and the report's findings: only with two or more replications, never to a
/// variant that loses clearly more operations on a time, shared among the variants within noise
/// of the leader, withheld when every difference is within noise.
struct ChartStar {
    let marks: BestMarks
    let names: [String]
    /// What the mark means, e.g. "lowest p99".
    let meaning: String

    /// The marks of `metric` among `points` (indices into `table.names`).
    init(_ table: MetricTable, metric: Metric, among points: [Int], meaning: String) {
        marks = BestMarks(table, metric: metric, among: points)
        names = table.names
        self.meaning = meaning
    }

    func isMarked(_ point: Int) -> Bool { marks.marked.contains(point) }

    /// `name` with "★ " before it when `point` is marked.
    func label(_ name: String, point: Int) -> String { isMarked(point) ? "★ " + name : name }

    /// The one marked point when the mark is not shared (the chart shades it).
    var single: Int? { marks.verdict == .single ? marks.marked.first : nil }

    /// For the subtitle: "★ lowest p99", "★ shared: lowest p99 within noise", "no ★: differences
    /// within noise", plus "no ★ for 2 losing clearly more" (the caption says it in full; a
    /// subtitle is one line and is cut beyond it); "" when no mark is possible.
    var subtitle: String {
        var parts: [String] = []
        switch marks.verdict {
        case .single: parts.append("★ \(meaning)")
        case .shared: parts.append("★ shared: \(meaning) within noise")
        case .withheld: parts.append("no ★: differences within noise")
        case .none: break
        }
        let n = marks.losesMore.count
        if n > 0 { parts.append("no ★ for \(n) losing clearly more") }
        return parts.joined(separator: " · ")
    }

    /// For the caption: the verdict as a sentence naming the variants ("" when no mark is possible).
    var sentence: String {
        let marked = marks.marked.sorted().map { names[$0] }
        var text: String
        switch marks.verdict {
        case .single: text = "★ \(marked.joined()): \(meaning), clear of the others by paired 95% intervals."
        case .shared: text = "★ shared by \(Self.list(marked)): \(meaning), their paired differences within noise."
        case .withheld: text = "No ★: every paired difference from the leader is within noise."
        case .none: return ""
        }
        if !marks.losesMore.isEmpty {
            let who = marks.losesMore.sorted().map { names[$0] }
            text += " Not for \(Self.list(who)), which lose\(who.count == 1 ? "s" : "") clearly more operations (fewer survivors look faster)."
        }
        return text
    }

    /// "a", "a and b", "a, b and c", "a, b, c and 4 more".
    static func list(_ items: [String]) -> String {
        if items.count > 4 { return items.prefix(3).joined(separator: ", ") + " and \(items.count - 3) more" }
        guard let last = items.last else { return "" }
        return items.count == 1 ? last : items.dropLast().joined(separator: ", ") + " and " + last
    }
}
