import Foundation

/// The smallest difference between two points that a verdict counts: below it two points are
/// "about the same", however tight their paired interval. A difference can be real (the paired
/// 95% interval excludes 0) and still too small to choose by — 102 more lost operations in
/// 250,000 is 0.04 points, statistically clear and practically nothing.
///
/// Two thresholds, one per kind of metric:
/// - a share (``Metric/Kind/fraction``: gave up, lost, wasted, …): the difference of the means in
///   share points, absolute (0.001 = 0.1 points, the default);
/// - every other metric: the difference of the means relative to the larger of the two means'
///   magnitudes (0.01 = 1%, the default), so 1.41× against 1.40× is about the same.
///
/// A difference to or from never (+∞) always exceeds it; two points whose means are both never
/// are about the same (the tables print "never" for both). Zero for both
/// leaves the paired interval alone to decide. `--min-difference` sets them
/// (``init(parsing:)``: `2%`, `0.5pt`, or both, comma-separated).
public struct MinimumDifference: Sendable, Hashable, CustomStringConvertible {
    /// Relative, for every metric but shares: 0.01 is 1%.
    public var relative: Double
    /// Absolute, in units of a share (0…1), for shares: 0.001 is 0.1 points.
    public var sharePoints: Double

    /// - Parameters:
    ///   - relative: the smallest relative difference that counts for metrics other than shares
    ///     (0.01: 1%); 0 lets the interval alone decide.
    ///   - sharePoints: the smallest difference that counts for shares, in units of a share (0.001: 0.1 points).
    public init(relative: Double, sharePoints: Double) {
        self.relative = relative
        self.sharePoints = sharePoints
    }

    /// 1% relative, 0.1 points for shares.
    public static let standard = MinimumDifference(relative: 0.01, sharePoints: 0.001)

    /// Whether `difference` (mean of the paired differences) between two points whose means are
    /// `a` and `b` is larger than the minimum for `metric`.
    package func matters(_ difference: Double, between a: Double, and b: Double, metric: Metric) -> Bool {
        // Two means of never are the same "never" in every table, whatever replications differ.
        guard !difference.isNaN, !(a.isInfinite && b.isInfinite) else { return false }
        if difference.isInfinite || a.isInfinite || b.isInfinite { return difference != 0 }
        if metric.kind == .fraction { return abs(difference) > sharePoints }
        return abs(difference) > relative * max(abs(a), abs(b))
    }

    /// Parses `--min-difference`: `N%` sets the relative minimum, `Npt` the share points (`0.1pt`
    /// is 0.001), both comma-separated in either order; the one not given keeps its default.
    /// Nil for anything else, or a negative or non-finite number.
    package init?(parsing text: String) {
        var out = Self.standard
        let parts = text.split(separator: ",", omittingEmptySubsequences: false).map { $0.trimmingCharacters(in: .whitespaces) }
        var seen: Set<Character> = []
        for part in parts {
            if part.hasSuffix("%"), let x = Double(part.dropLast()), x.isFinite, x >= 0, seen.insert("%").inserted {
                out.relative = x / 100
            } else if part.hasSuffix("pt"), let x = Double(part.dropLast(2)), x.isFinite, x >= 0, x <= 100, seen.insert("p").inserted {
                out.sharePoints = x / 100
            } else {
                return nil
            }
        }
        self = out
    }

    /// "1% relative, 0.1 points for shares": the words a footnote or a caption uses.
    public var description: String {
        "\(Self.number(relative * 100))% relative, \(Self.number(sharePoints * 100)) points for shares"
    }

    /// The minimum that applies to `metric`, in words: "1%" or "0.1 points".
    package func words(for metric: Metric) -> String {
        metric.kind == .fraction ? "\(Self.number(sharePoints * 100)) points" : "\(Self.number(relative * 100))%"
    }

    /// Compact, for an option's value: "1%,0.1pt".
    package var optionValue: String { "\(Self.number(relative * 100))%,\(Self.number(sharePoints * 100))pt" }

    /// Up to four decimals, trailing zeros dropped: 1, 0.1, 2.5.
    static func number(_ x: Double) -> String {
        var s = String(format: "%.4f", x)
        while s.hasSuffix("0") { s.removeLast() }
        if s.hasSuffix(".") { s.removeLast() }
        return s
    }
}
