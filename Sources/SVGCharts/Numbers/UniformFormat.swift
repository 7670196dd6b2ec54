/// One unit and one precision for a set of values read together: a table
/// column, a heatmap's cells and its colour bar.
///
/// Printing each value in its own unit misleads: 101.2, 101.7 and 102.4 s
/// become "1.69min", "1.7min" and "1.71min", and a column mixing "ms" and
/// "s" cannot be scanned. ``fitting(_:format:scale:significantDigits:maxExtraDigits:unit:)``
/// picks the unit once (durations), then the precision:
/// - on a linear set, fixed decimals: enough for `significantDigits` of the
///   largest magnitude, then more (up to `maxExtraDigits`) until distinct
///   values print distinctly: "101.2", "101.7", "102.4" s. Trailing zeros
///   stay, so a column lines up ("100.0");
/// - on a set spanning decades (`scale: .log`), `significantDigits`
///   significant digits per value, raised the same way, trailing zeros
///   dropped ("0.0012", "3.5", "120"); plain numbers then take an SI suffix
///   per value ("1.2k", "100k") as ``NumberFormat/compact(_:)`` does.
/// Numbers are written by ``HumanNumber``'s rule, so a value prints the same
/// here as anywhere else at the same precision.
public struct UniformFormat: Sendable, Equatable {
    public let format: Axis.Format
    /// The unit of every duration value; nil for numbers and percentages.
    public let unit: DurationUnit?
    /// How each value (in `unit`, or as a percentage) is written.
    public let number: HumanNumber
    /// Numbers in a linear set: the SI power of ten shared by all values
    /// (3 for "k" when every non-zero value is at least 1000); 0 otherwise.
    public let sharedExponent: Int
    /// Numbers in a log set: each value takes its own SI suffix.
    public let suffixPerValue: Bool

    /// The format for `values` (non-finite ones ignored; they print "n/a",
    /// "∞" or "-∞").
    ///
    /// - Parameters:
    ///   - format: what the values are: seconds, fractions or plain numbers.
    ///   - scale: `.log` for sets spanning decades (significant digits per
    ///     value); anything else gives fixed decimals.
    ///   - significantDigits: digits shown of the largest value (linear) or
    ///     of every value (log), 1…17.
    ///   - maxExtraDigits: how many more digits may be added so that
    ///     distinct values print distinctly; beyond that, values closer than
    ///     the precision share a label.
    ///   - unit: a duration unit to use instead of choosing one.
    public static func fitting(
        _ values: [Double], format: Axis.Format, scale: Axis.Scale = .linear, significantDigits: Int = 3,
        maxExtraDigits: Int = 3, unit: DurationUnit? = nil
    ) -> UniformFormat {
        let finite = values.filter(\.isFinite)
        let magnitudes = finite.map { Swift.min(Axis.magnitudeLimit, abs($0)) }
        let largest = magnitudes.max() ?? 0
        let smallestPositive = magnitudes.filter { $0 > 0 }.min() ?? 0
        let logSet = scale == .log
        var chosenUnit: DurationUnit?
        if format == .duration {
            chosenUnit =
                unit
                ?? (logSet && smallestPositive > 0
                    ? DurationUnit.forLog(lo: smallestPositive, hi: largest)
                    : DurationUnit.forLinear(maxMagnitude: largest))
        }
        let digits = Swift.min(17, Swift.max(1, significantDigits))
        let extra = Swift.max(0, maxExtraDigits)
        var shared = 0
        if format == .number, !logSet, smallestPositive >= 1000 {
            shared = NumberFormat.suffixes[NumberFormat.suffixIndex(for: smallestPositive)].exponent
        }
        func make(_ number: HumanNumber) -> UniformFormat {
            UniformFormat(
                format: format, unit: chosenUnit, number: number, sharedExponent: shared,
                suffixPerValue: format == .number && logSet)
        }
        var candidate: UniformFormat
        if logSet {
            candidate = make(HumanNumber(.significant(digits), trimsTrailingZeros: true))
            for more in 0...extra {
                candidate = make(HumanNumber(.significant(Swift.min(17, digits + more)), trimsTrailingZeros: true))
                if candidate.printsDistinctly(finite) { break }
            }
        } else {
            let top = make(HumanNumber(.decimals(0))).digits(largest)
            let base = top.isZero ? 0 : Swift.max(0, digits - top.point)
            candidate = make(HumanNumber(.decimals(base)))
            for more in 0...extra {
                candidate = make(HumanNumber(.decimals(base + more)))
                if candidate.printsDistinctly(finite) { break }
            }
        }
        return candidate
    }

    /// The value for a cell, tick or table: in the unit without its symbol
    /// for durations (the title names it), with "%" for percentages, with
    /// the SI suffix for numbers: "101.2", "12.5%", "45.0k".
    public func string(_ value: Double) -> String {
        guard value.isFinite else { return number.format(value) }
        if suffixPerValue {
            let magnitude = Swift.min(Axis.magnitudeLimit, abs(value))
            if NumberFormat.needsScientific(magnitude) { return number.format(value) }
            let suffixes = NumberFormat.suffixes
            var index = NumberFormat.suffixIndex(for: magnitude)
            // Rounding can carry into the next suffix: 999_999 -> "1M", not "1000k".
            if case .significant(let n) = number.precision, index > 0,
                DecimalDigits(value).shifted(by: -suffixes[index].exponent).rounded(significant: n).point > 3
            {
                index -= 1
            }
            return number.format(DecimalDigits(value).shifted(by: -suffixes[index].exponent)) + suffixes[index].symbol
        }
        let text = number.format(digits(value))
        switch format {
        case .percent: return text + "%"
        case .number: return text + (sharedExponent == 0 ? "" : Self.symbol(forExponent: sharedExponent))
        case .duration: return text
        }
    }

    /// The value with its unit, for text outside a titled axis or column:
    /// "101.2 s", "12.5%", "45.0k".
    public func stringWithUnit(_ value: Double) -> String {
        guard let unit, value.isFinite else { return string(value) }
        return string(value) + " " + unit.symbol
    }

    /// A title naming the unit the values are printed in: "p99 (s)", by
    /// ``AxisTitle``'s rules (the unit's name alone for an empty label);
    /// `label` unchanged when values carry their own unit (percentages,
    /// numbers).
    public func title(_ label: String) -> String {
        AxisTitle.compose(label, unit: unit)
    }

    /// The value as exact decimal digits in the unit (percent: ×100, a
    /// shared SI prefix: ÷10^k).
    package func digits(_ value: Double) -> DecimalDigits {
        if let unit { return unit.digits(value) }
        switch format {
        case .percent: return DecimalDigits(value).shifted(by: 2)
        default: return DecimalDigits(value).shifted(by: -sharedExponent)
        }
    }

    /// Whether values that differ print differently.
    package func printsDistinctly(_ values: [Double]) -> Bool {
        // Rounding is monotonic: only neighbours in sorted order can collide.
        var previous: (value: Double, text: String)?
        for v in values.sorted() {
            let text = string(v)
            if let previous, previous.value != v, previous.text == text { return false }
            previous = (v, text)
        }
        return true
    }

    package static func symbol(forExponent exponent: Int) -> String {
        NumberFormat.suffixes.first { $0.exponent == exponent }?.symbol ?? ""
    }
}
