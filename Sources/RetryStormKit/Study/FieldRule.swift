/// What a field of a shard's CSV may hold: the values retrystorm writes there, within bounds that
/// keep every later step total (the statistics, `Int64` conversions in the tables, the charts).
///
/// Numbers are decimal as ``Format/fixed(_:_:)`` writes them — digits, optionally a point and
/// up to nine decimals, no exponent — with at most 15 digits before the point (below 10^15,
/// far beyond any count or time a simulation writes and far from `Int64`'s 9.2 × 10^18).
enum FieldRule: Sendable, CustomStringConvertible {
    /// `variant` and `replication`, checked against the study instead; a population's or a service's name.
    case identifier
    /// summary.csv's `seed`: an unsigned 64-bit integer.
    case seed
    /// summary.csv's metrics: a number of either sign, or `nan`, `inf`, `-inf` (a time to
    /// success when nothing succeeded, a recovery that never came).
    case metric
    /// timeseries.csv's counts and times, tts_quantiles.csv's times: a finite number ≥ 0.
    case nonNegative
    /// tts_quantiles.csv's `quantile`: a number from 0 to 1.
    case level

    init(file: String, column: String) {
        switch (file, column) {
        case (_, "variant"), (_, "replication"): self = .identifier
        case ("summary.csv", "seed"): self = .seed
        case ("summary.csv", _): self = .metric
        // A population's name is checked by nothing but its place in the study's rows; its
        // metrics are summary.csv's, per population (NaN where nothing succeeded).
        case (_, "population"): self = .identifier
        case ("populations.csv", _): self = .metric
        // A service's name likewise; its ratios are `nan` without operations or calls.
        case (_, "service"): self = .identifier
        case ("services.csv", _): self = .metric
        // An edge's services likewise; its latencies are `nan` without calls.
        case (_, "caller"), (_, "callee"): self = .identifier
        case ("edges.csv", _): self = .metric
        case ("tts_quantiles.csv", "quantile"): self = .level
        default: self = .nonNegative
        }
    }

    var description: String {
        switch self {
        case .identifier: "an identifier"
        case .seed: "a seed (a whole number below 2^64)"
        case .metric: "a number as retrystorm writes it (below 10^15 in size, or nan, inf, -inf)"
        case .nonNegative: "a number ≥ 0 as retrystorm writes it (below 10^15)"
        case .level: "a quantile level from 0 to 1"
        }
    }

    func admits(_ field: ArraySlice<UInt8>) -> Bool {
        switch self {
        case .identifier: return true
        case .seed: return !field.isEmpty && field.count <= 20 && UInt64(String(decoding: field, as: UTF8.self)) != nil
        case .metric:
            if field.elementsEqual("nan".utf8) || field.elementsEqual("inf".utf8) || field.elementsEqual("-inf".utf8) { return true }
            return Self.isDecimal(field.first == UInt8(ascii: "-") ? field.dropFirst() : field)
        case .nonNegative: return Self.isDecimal(field)
        case .level:
            // 0 or 0.ddd, or 1 with only zeros after the point; read without a Double parse (a
            // shard holds a thousand levels per replication).
            guard Self.isDecimal(field) else { return false }
            let point = field.firstIndex(of: UInt8(ascii: ".")) ?? field.endIndex
            if field[..<point].elementsEqual("0".utf8) { return true }
            return field[..<point].elementsEqual("1".utf8) && field[point...].allSatisfy { $0 == UInt8(ascii: ".") || $0 == UInt8(ascii: "0") }
        }
    }

    /// `D{1,15}` or `D{1,15}.D{1,9}`, D a decimal digit.
    static func isDecimal(_ field: ArraySlice<UInt8>) -> Bool {
        let point = field.firstIndex(of: UInt8(ascii: "."))
        let whole = field[..<(point ?? field.endIndex)]
        guard (1...15).contains(whole.count), whole.allSatisfy(isDigit) else { return false }
        guard let point else { return true }
        let fraction = field[(point + 1)...]
        return (1...9).contains(fraction.count) && fraction.allSatisfy(isDigit)
    }

    /// A replication index as written: digits without a leading zero (or `0`), at most six.
    static func replication(_ field: ArraySlice<UInt8>) -> Int? {
        guard (1...6).contains(field.count), field.allSatisfy(isDigit), field.first != UInt8(ascii: "0") || field.count == 1 else { return nil }
        return field.reduce(0) { $0 * 10 + Int($1 - UInt8(ascii: "0")) }
    }

    static func isDigit(_ b: UInt8) -> Bool { b >= UInt8(ascii: "0") && b <= UInt8(ascii: "9") }
}
