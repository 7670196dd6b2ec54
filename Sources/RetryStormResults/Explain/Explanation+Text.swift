import Foundation
import RetryStormVocabulary

extension Explanation {
    /// The laws in a few lines for the terminal: per server the sustain, trigger and collapse
    /// laws (or why they do not hold), the budget, and the warnings.
    package var text: String {
        var lines: [String] = []
        for s in services {
            let head =
                "\(s.name): \(Self.rate(s.load)) of first attempts against \(Self.rate(s.capacity)), "
                + "\(s.timeout.isFinite ? "a \(Self.seconds(s.timeout)) timeout" : "no timeout"), \(s.attempts) attempt\(s.attempts == 1 ? "" : "s")"
            lines.append(head)
            if let r = s.reason {
                lines.append("  no laws: \(r)")
                continue
            }
            if let u = s.sustain {
                lines.append(
                    "  sustain   an overload sustained by retries persists above \(Self.rate(u.maxFirstAttemptLoad)) of first attempts "
                        + "(past the critical backlog of \(Self.number(u.criticalBacklog)) requests it serves as little as \(Self.rate(u.slowestRate))): "
                        + (u.persists ? "at \(Self.rate(s.load)) it can persist" : "at \(Self.rate(s.load)) it cannot"))
            }
            if let t = s.trigger {
                var line = "  trigger   \(t.what) for \(Self.seconds(t.duration)): "
                if let c = t.criticalDuration, let l = t.longestTipping {
                    line +=
                        "tips if it lasts \(Self.seconds(c)) to \(Self.seconds(l)) (longer, the full queue's refusals end operations before they retry); "
                } else if let c = t.criticalDuration {
                    line += "tips after \(Self.seconds(c)); "
                } else if s.sustain?.persists == true && !t.tips {
                    line += "no trigger of this depth tips it; "
                }
                line += t.tips ? "this one tips it" : "this one does not tip it"
                if !t.tips && !t.timesOut {
                    line += ": no attempt times out"
                } else if !t.tips {
                    line +=
                        t.drainTime.map { ", and the backlog drains \(Self.seconds($0)) after it" }
                        ?? ", and the backlog drains more than an hour after the horizon"
                    if t.drainsAfterHorizon { line += " (after the horizon: stuck at the horizon, recovering slowly)" }
                }
                lines.append(line)
            } else if let r = s.triggerReason {
                lines.append("  trigger   no law: \(r)")
            }
            if let c = s.collapse {
                lines.append(
                    "  collapse  from a healthy start the backlog first reaches the critical backlog after "
                        + (c.meanTime.isFinite ? Self.seconds(c.meanTime) : "more than 10^308 s") + " on average")
            } else if let r = s.collapseReason {
                lines.append("  collapse  no law: \(r)")
            }
        }
        var b = "budget: \(budget.kind)"
        if let f = budget.drainFailureRate {
            b += ", drains when more than \(Self.percent(f)) of attempts fail"
        } else if let n = budget.note {
            b += ", \(n)"
        }
        if let r = budget.drainedRetryRate { b += "; drained, it lets \(Self.rate(r)) retries through" }
        lines.append(b)
        for w in warnings { lines.append("warning: \(w)") }
        return lines.joined(separator: "\n") + "\n"
    }

    /// Whether ``verdict`` decides: the laws say the server tips or recovers (not "no verdict").
    package var decided: Bool {
        guard let s = services.first, s.reason == nil, let u = s.sustain else { return false }
        return s.trigger != nil || !u.persists
    }

    /// The one-line verdict `run` and `compare` print beside their own: the first server's
    /// trigger law, or why there is none.
    package var verdict: String {
        guard let s = services.first else { return "explain: no server" }
        if let r = s.reason { return "explain: no verdict (\(r))" }
        guard let u = s.sustain else { return "explain: no verdict" }
        guard let t = s.trigger else {
            if !u.persists {
                return
                    "explain: recovers: \(Self.rate(s.load)) of first attempts is below the \(Self.rate(u.maxFirstAttemptLoad)) that sustains an overload, whatever the trigger"
            }
            return "explain: no verdict on the trigger (\(s.triggerReason ?? "no trigger"))"
        }
        if t.tips {
            let critical = t.criticalDuration.map { " (tips after \(Self.seconds($0)))" } ?? ""
            return
                "explain: tips: \(Self.rate(s.load)) of first attempts is above the \(Self.rate(u.maxFirstAttemptLoad)) that sustains an overload, and \(t.what) for \(Self.seconds(t.duration)) reaches it\(critical)"
        }
        var why: String
        if !u.persists {
            why = "\(Self.rate(s.load)) of first attempts is below the \(Self.rate(u.maxFirstAttemptLoad)) that sustains an overload"
        } else if let c = t.criticalDuration, t.duration < c {
            why = "\(t.what) for \(Self.seconds(t.duration)) is shorter than the \(Self.seconds(c)) that tips it"
        } else if let l = t.longestTipping, t.duration > l {
            why =
                "\(t.what) for \(Self.seconds(t.duration)) outlasts the \(Self.seconds(l)) that still tips it: the full queue's refusals end operations before they retry"
        } else {
            why = "\(t.what) never tips it"
        }
        if !t.timesOut { return "explain: recovers: \(why); no attempt times out" }
        why += t.drainTime.map { "; drains \(Self.seconds($0)) after the trigger" } ?? "; drains more than an hour after the horizon"
        if t.drainsAfterHorizon { why += ", after the horizon (recovering slowly)" }
        return "explain: recovers: \(why)"
    }

    /// "170.8/s": requests per second to four significant figures.
    static func rate(_ x: Double) -> String { "\(number(x))/s" }

    /// A figure to four significant figures without an exponent below 10^9, grouped.
    static func number(_ x: Double) -> String {
        guard x.isFinite else { return x.isNaN ? "nan" : "inf" }
        if x == 0 { return "0" }
        let digits = Swift.max(0, 3 - Int(log10(abs(x)).rounded(.down)))
        if abs(x) >= 1e9 { return String(format: "%.3g", x) }
        return digits == 0 ? Format.grouped(x.rounded()) : Format.trimmed(Format.fixed(x, Swift.min(digits, 6)))
    }

    /// "42%", "4.2%", "0.42%".
    static func percent(_ f: Double) -> String { "\(number(f * 100))%" }

    /// Seconds, minutes, hours, days or years, whichever reads best; powers of ten past 10^6 years.
    static func seconds(_ s: Double) -> String {
        let year = 365.25 * 86_400
        if s < 120 { return "\(number(s)) s" }
        if s < 7_200 { return "\(number(s / 60)) min" }
        if s < 172_800 { return "\(number(s / 3_600)) h" }
        if s < year { return "\(number(s / 86_400)) days" }
        if s < 1e6 * year { return "\(number(s / year)) years" }
        return "10^\(Int(log10(s / year).rounded(.down))) years"
    }
}
