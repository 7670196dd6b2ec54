import RetryStormVocabulary

/// How a results column writes its numbers: the one fixed format of the deterministic outputs
/// (``Format``), so the same value always gives the same bytes, and reading gives back exactly the
/// value written.
public enum ValueFormat: Sendable, Equatable {
    /// A whole number (a count).
    case whole
    /// Fixed decimals: `nan`, `inf` and `-inf` spelled out.
    case fixed(Int)

    /// The text of `x`.
    public func text(_ x: Double) -> String {
        switch self {
        case .whole: Format.fixed(x, 0)
        case .fixed(let d): Format.fixed(x, d)
        }
    }

    /// `x` as it reads back from its text: statistics are computed from these, so a merged set of
    /// shards, read from files, gives exactly what the unsharded run computed in memory.
    public func rounded(_ x: Double) -> Double {
        Double(text(x)) ?? x
    }

    /// The value of `field`: a number in this format (`nan`, `inf`, `-inf` included).
    package func value(_ field: Substring) -> Double? {
        guard let x = Double(field) else { return nil }
        if case .whole = self, x.isFinite, x != x.rounded() { return nil }
        return x
    }
}

/// Compares number lists treating NaN as equal to NaN: an undefined metric read back is the same
/// undefined metric.
func sameNumbers(_ a: [Double], _ b: [Double]) -> Bool {
    a.count == b.count && zip(a, b).allSatisfy { $0 == $1 || ($0.isNaN && $1.isNaN) }
}

/// ``sameNumbers(_:_:)`` column by column: two time series' values (one array per column).
func sameColumns(_ a: [[Double]], _ b: [[Double]]) -> Bool {
    a.count == b.count && zip(a, b).allSatisfy { sameNumbers($0, $1) }
}
