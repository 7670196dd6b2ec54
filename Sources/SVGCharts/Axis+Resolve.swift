extension Axis {
    /// Values larger than this are clamped so spans never overflow.
    static let magnitudeLimit = 1e300

    /// Chooses the domain and ticks for `values` (non-finite ones ignored).
    ///
    /// - Parameters:
    ///   - pixelLength: length of the axis on screen.
    ///   - horizontal: ticks along x need room for their label widths; along
    ///     y only for their height.
    ///   - forcedDomain: a domain the chart imposes (a CDF's 0…1); explicit
    ///     `min`/`max` still win.
    func resolve(
        values: [Double], pixelLength: Double, horizontal: Bool, fontSize: Double,
        forcedDomain: (Double, Double)? = nil
    ) -> ResolvedAxis {
        switch scale {
        case .linear: return resolveLinear(values, pixelLength, horizontal, fontSize, forcedDomain)
        case .log: return resolveLog(values, pixelLength, horizontal, fontSize, forcedDomain)
        }
    }

    private func resolveLinear(
        _ values: [Double], _ pixelLength: Double, _ horizontal: Bool, _ fontSize: Double,
        _ forcedDomain: (Double, Double)?
    ) -> ResolvedAxis {
        let limit = Self.magnitudeLimit
        var lo = Double.infinity
        var hi = -Double.infinity
        for v in values where v.isFinite {
            let c = Swift.min(limit, Swift.max(-limit, v))
            lo = Swift.min(lo, c)
            hi = Swift.max(hi, c)
        }
        if let forcedDomain {
            lo = forcedDomain.0
            hi = forcedDomain.1
        }
        if lo > hi {
            lo = 0
            hi = 1
        }
        if includesZero {
            lo = Swift.min(lo, 0)
            hi = Swift.max(hi, 0)
        }
        let fixedLo = min.flatMap { $0.isFinite ? Swift.min(limit, Swift.max(-limit, $0)) : nil }
        let fixedHi = max.flatMap { $0.isFinite ? Swift.min(limit, Swift.max(-limit, $0)) : nil }
        if let fixedLo { lo = fixedLo }
        if let fixedHi { hi = fixedHi }
        if lo > hi { swap(&lo, &hi) }
        if lo == hi {
            // Zero range: show the value inside a small window, widening only
            // the sides the caller left free.
            let pad = lo == 0 ? 1 : abs(lo) * 0.1
            if lo == 0 {
                if fixedHi != nil, fixedLo == nil { lo = -pad } else { hi = pad }
            } else if fixedLo != nil, fixedHi == nil {
                hi += pad
            } else if fixedHi != nil, fixedLo == nil {
                lo -= pad
            } else {
                lo -= pad
                hi += pad
            }
        }
        let seconds = DurationUnit.all[3]
        let unit = format == .duration ? Self.durationUnit(maxMagnitude: Swift.max(abs(lo), abs(hi))) : seconds
        let scaleBy = unit.seconds
        let spacing = horizontal ? 80.0 : 45.0
        let length = pixelLength.isFinite ? Swift.max(0, pixelLength) : 0
        var count = Int(Swift.max(2, Swift.min(10, length / spacing)))
        while true {
            let nice = Ticks.nice(
                lo / scaleBy, hi / scaleBy, count: count,
                extendLow: fixedLo == nil, extendHigh: fixedHi == nil)
            let domainLo = nice.lo * scaleBy
            let domainHi = nice.hi * scaleBy
            let values = Ticks.values(nice.lo, nice.hi, step: nice.step)
            let ticks = values.map { Tick(value: $0 * scaleBy, label: label(forTick: $0, step: nice.step, unit: unit)) }
            let axis = ResolvedAxis(scale: .linear, lo: domainLo, hi: domainHi, ticks: ticks)
            if count <= 2 || !horizontal || ticks.count < 2 { return axis }
            let gap = length / Double(ticks.count - 1)
            if axis.maxLabelWidth(fontSize: fontSize) + 12 <= gap { return axis }
            count -= 1
        }
    }

    private func resolveLog(
        _ values: [Double], _ pixelLength: Double, _ horizontal: Bool, _ fontSize: Double,
        _ forcedDomain: (Double, Double)?
    ) -> ResolvedAxis {
        let limit = Self.magnitudeLimit
        var lo = Double.infinity
        var hi = -Double.infinity
        for v in values where v.isFinite && v > 0 {
            let c = Swift.min(limit, Swift.max(1 / limit, v))
            lo = Swift.min(lo, c)
            hi = Swift.max(hi, c)
        }
        if let forcedDomain, forcedDomain.0 > 0, forcedDomain.1 > forcedDomain.0 {
            lo = forcedDomain.0
            hi = forcedDomain.1
        }
        let fixedLo = min.flatMap { $0.isFinite && $0 > 0 ? Swift.min(limit, $0) : nil }
        let fixedHi = max.flatMap { $0.isFinite && $0 > 0 ? Swift.min(limit, $0) : nil }
        if let fixedLo { lo = fixedLo }
        if let fixedHi { hi = fixedHi }
        if lo > hi {
            if fixedLo != nil, fixedHi == nil { hi = lo * 10 }
            else if fixedHi != nil, fixedLo == nil { lo = hi / 10 }
            else { lo = 1; hi = 10 }
        }
        if lo > hi { swap(&lo, &hi) }
        let candidates = format == .duration ? Ticks.logDuration(lo, hi) : Ticks.log(lo, hi)
        let domainLo = fixedLo ?? candidates.first ?? lo
        var domainHi = fixedHi ?? candidates.last ?? hi
        if domainHi <= domainLo { domainHi = domainLo * 10 }
        let tickValues = candidates.filter { $0 >= domainLo * (1 - 1e-12) && $0 <= domainHi * (1 + 1e-12) }
        var labels = tickValues.map(logLabel)
        // Thin labels (keeping the gridlines) when they would collide.
        if tickValues.count > 1 {
            let probe = ResolvedAxis(scale: .log, lo: domainLo, hi: domainHi, ticks: [])
            var minGap = Double.infinity
            for i in 1..<tickValues.count {
                let gap = (probe.fraction(tickValues[i]) - probe.fraction(tickValues[i - 1])) * pixelLength
                minGap = Swift.min(minGap, gap)
            }
            let needed = horizontal
                ? (labels.map { TextMetrics.width($0, fontSize: fontSize) }.max() ?? 0) + 12
                : fontSize + 8
            if minGap > 0, minGap < needed {
                let every = Int(Swift.min(1000, DecimalMath.ceil(needed / minGap)))
                for i in labels.indices where i % every != 0 { labels[i] = "" }
            }
        }
        var minor: [Double] = []
        if format != .duration {
            let (a, b) = Ticks.decadeBounds(domainLo, domainHi)
            if b - a <= 3 {
                for k in a..<b {
                    for m in 2...9 {
                        let v = Double(m) * DecimalMath.pow10(k)
                        if v > domainLo, v < domainHi { minor.append(v) }
                    }
                }
            }
        }
        let ticks = zip(tickValues, labels).map { Tick(value: $0, label: $1) }
        return ResolvedAxis(scale: .log, lo: domainLo, hi: domainHi, ticks: ticks, minorTicks: minor)
    }

    /// Label for a linear tick at `value` (in `unit`s for durations), with
    /// exactly the decimals the step needs, so 1000 and 1200 read "1k" and
    /// "1.2k" and 100_000 and 100_200 do not collapse to one label.
    func label(forTick value: Double, step: TickStep, unit: DurationUnit) -> String {
        if value == 0 { return "0" }
        switch format {
        case .number:
            if NumberFormat.needsScientific(abs(value)) {
                let decimals = DecimalMath.decade(abs(value)) - step.exponent
                return NumberFormat.scientific(value, maxFractionDigits: Swift.max(0, Swift.min(3, decimals)))
            }
            let index = NumberFormat.suffixIndex(for: abs(value))
            let suffix = NumberFormat.suffixes[index]
            let decimals = Swift.max(0, suffix.exponent - step.exponent)
            return NumberFormat.fixed(value / suffix.scale, maxFractionDigits: decimals) + suffix.symbol
        case .percent:
            return NumberFormat.fixed(value * 100, maxFractionDigits: Swift.max(0, -(step.exponent + 2))) + "%"
        case .duration:
            return NumberFormat.fixed(value, maxFractionDigits: Swift.max(0, -step.exponent)) + unit.symbol
        }
    }

    private func logLabel(_ value: Double) -> String {
        switch format {
        case .number: return NumberFormat.compact(value)
        case .duration: return NumberFormat.duration(value)
        case .percent:
            let k = DecimalMath.decade(value)
            return NumberFormat.percent(value, maxFractionDigits: Swift.max(0, -(k + 2)))
        }
    }

    /// The unit for a whole linear duration axis, chosen from its largest
    /// magnitude so ticks stay round in that unit (0, 20, 40 s; 0, 2, 4 min).
    static func durationUnit(maxMagnitude: Double) -> DurationUnit {
        let all = DurationUnit.all
        if maxMagnitude < 1e-6 { return all[0] }
        if maxMagnitude < 1e-3 { return all[1] }
        if maxMagnitude < 1 { return all[2] }
        if maxMagnitude < 600 { return all[3] }
        if maxMagnitude < 6 * 3600 { return all[4] }
        if maxMagnitude < 3 * 86400 { return all[5] }
        return all[6]
    }
}
