/// Units for duration labels, smallest first.
struct DurationUnit: Equatable {
    let seconds: Double
    let symbol: String

    static let all: [DurationUnit] = [
        DurationUnit(seconds: 1e-9, symbol: "ns"),
        DurationUnit(seconds: 1e-6, symbol: "µs"),
        DurationUnit(seconds: 1e-3, symbol: "ms"),
        DurationUnit(seconds: 1, symbol: "s"),
        DurationUnit(seconds: 60, symbol: "m"),
        DurationUnit(seconds: 3600, symbol: "h"),
        DurationUnit(seconds: 86400, symbol: "d"),
    ]

    /// The largest unit not larger than `magnitude` (nanoseconds below that).
    static func forValue(_ magnitude: Double) -> DurationUnit {
        all.last { magnitude >= $0.seconds } ?? all[0]
    }

    var next: DurationUnit? {
        guard let i = Self.all.firstIndex(of: self), i + 1 < Self.all.count else { return nil }
        return Self.all[i + 1]
    }
}
