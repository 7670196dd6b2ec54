import RetryStormResults

/// The ★ of a per-variant chart, given by ``BestMarks`` — the one rule behind the terminal
/// tables' `*` and the report's findings: only with two or more replications, never to a
/// variant that loses clearly more operations, never to one another beats clearly, never by
/// default; shared among variants about the same as each other.
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

    /// For the subtitle: "★ lowest p99", "★ shared: lowest p99, about the same", "no ★: about the
    /// same", plus "no ★ for 2 losing clearly more" (the caption says it in full; a subtitle is one
    /// line and is cut beyond it); "" when no mark is possible.
    var subtitle: String {
        var parts: [String] = []
        switch marks.verdict {
        case .single: parts.append("★ \(meaning)")
        case .shared: parts.append("★ shared: \(meaning), about the same")
        case .withheld:
            switch marks.withheld {
            case .aboutTheSame?, nil: parts.append("no ★: about the same")
            case .aheadLosesMore?: parts.append("no ★: the leaders lose more")
            case .aheadLoadsMore?: parts.append("no ★: the leaders load \(marks.focus ?? "the focus") more")
            case .noClearLeader?: parts.append("no ★: no clear leader")
            }
        case .none: break
        }
        let n = marks.losesMore.count
        if n > 0 && marks.withheld != .aheadLosesMore { parts.append("no ★ for \(n) losing clearly more") }
        let heavy = marks.loadsMore.count
        if heavy > 0 && marks.withheld != .aheadLoadsMore { parts.append("no ★ for \(heavy) loading \(marks.focus ?? "the focus") more") }
        return parts.joined(separator: " · ")
    }

    /// For the caption: the verdict as a sentence naming the variants ("" when no mark is possible).
    var sentence: String {
        let marked = marks.marked.sorted().map { names[$0] }
        let clearly = "by paired 95% intervals and by more than \(marks.minimum)"
        var text: String
        switch marks.verdict {
        case .single:
            text = "★ \(marked.joined()): \(meaning), clearly ahead of \(BestMarks.list(marks.behind, names)) (\(clearly))"
            let same = marks.aboutTheSame.sorted().map { names[$0] }
            text += same.isEmpty ? "." : "; about the same as \(BestMarks.list(same))."
        case .shared:
            text =
                "★ shared by \(BestMarks.list(marked)): \(meaning), about the same as each other and clearly ahead of \(BestMarks.list(marks.behind, names))."
        case .withheld:
            switch marks.withheld {
            case .aheadLosesMore?, .aheadLoadsMore?:
                let barred = marks.barred.sorted()
                let ahead = barred.map { "\(names[$0]) is clearly ahead of \(BestMarks.list(marks.clearlyAhead[$0] ?? [], names))" }
                let one = barred.count == 1
                var why = one ? "it loses" : "they lose"
                why += " clearly more operations"
                if marks.withheld == .aheadLoadsMore {
                    why += " or put\(one ? "s" : "") clearly more requests per user operation on \(marks.focus ?? "the focus")"
                }
                text = "No ★: \(BestMarks.list(ahead)), with none clearly ahead of \(one ? "it" : "them"), but \(why)."
            case .noClearLeader?: text = "No ★: no variant is clearly ahead of every other (\(clearly))."
            case .aboutTheSame?, nil: text = "No ★: every difference is within noise or under \(marks.minimum) — about the same."
            }
        case .none: return ""
        }
        if !marks.losesMore.isEmpty {
            let who = marks.losesMore.sorted().map { names[$0] }
            text +=
                " Not for \(BestMarks.list(who)), which lose\(who.count == 1 ? "s" : "") clearly more operations (fewer survivors look faster and retry less)."
        }
        if let focus = marks.focus, !marks.loadsMore.isEmpty {
            text += " Not for " + BestMarks.loadNote(marks.loadsMore, names, focus: focus) + " (a user outcome bought with the focus's load)."
        }
        return text
    }
}
