import RetryStormEngine

/// The rows of tts_quantiles.csv of one replication of one point: the time to success at the levels
/// 0, 0.001, …, 1 (empty when nothing succeeded).
public struct QuantileRecord: Sendable, Equatable {
    /// The point's name (`variant`): `base` for `run`, else a variant's or a swept point's name.
    public var variant: String
    /// The replication index (`replication`), 0-based.
    public var replication: Int
    /// Levels, written with three decimals.
    public var levels: [Double]
    /// Seconds, written with six decimals.
    public var seconds: [Double]

    package static let columnNames = ["variant", "replication", "quantile", "tts_s"]
    static let levelFormat = ValueFormat.fixed(3)
    static let secondsFormat = ValueFormat.fixed(6)

    package init(variant: String, replication: Int, levels: [Double], seconds: [Double]) {
        self.variant = variant
        self.replication = replication
        self.levels = levels
        self.seconds = seconds
    }

    /// Replication `r` of point `variant`, rounded as written.
    package init(_ r: ReplicationResult, variant: String) {
        self.init(
            variant: variant, replication: r.replication,
            levels: r.ttsQuantiles.indices.map { Self.levelFormat.rounded(Double($0) / 1000) },
            seconds: r.ttsQuantiles.map(Self.secondsFormat.rounded))
    }

    func append(to table: inout CSVTable) {
        for (level, t) in zip(levels, seconds) {
            table.append([variant, String(replication), Self.levelFormat.text(level), Self.secondsFormat.text(t)])
        }
    }

    /// Keys equal, levels and seconds equal value by value (NaN equal to NaN).
    public static func == (a: QuantileRecord, b: QuantileRecord) -> Bool {
        a.variant == b.variant && a.replication == b.replication && sameNumbers(a.levels, b.levels) && sameNumbers(a.seconds, b.seconds)
    }
}
