extension Axis {
    /// Values larger than this are clamped so spans never overflow.
    package static let magnitudeLimit = 1e300

    /// Chooses the domain and ticks for `values` (non-finite ones ignored).
    ///
    /// - Parameters:
    ///   - pixelLength: length of the axis on screen.
    ///   - horizontal: ticks along x need room for their label widths; along
    ///     y only for their height.
    ///   - forcedDomain: a domain the chart imposes (a CDF's 0…1); explicit
    ///     `min`/`max` still win.
    ///   - unit: the duration unit to use instead of choosing one, so that a
    ///     heatmap's colour bar and its cells share the unit.
    package func resolve(
        values: [Double], pixelLength: Double, horizontal: Bool, fontSize: Double,
        forcedDomain: (Double, Double)? = nil, unit forced: DurationUnit? = nil
    ) -> ResolvedAxis {
        // A unit the label already names is the unit of the ticks.
        let unit = forced ?? (format == .duration ? AxisTitle.namedUnit(in: label) : nil)
        switch scale {
        case .linear: return resolveLinear(values, pixelLength, horizontal, fontSize, forcedDomain, unit)
        case .log: return resolveLog(values, pixelLength, horizontal, fontSize, forcedDomain, unit)
        case .tailPercentile: return resolveTail(values, pixelLength, horizontal, fontSize)
        }
    }

    private func resolveLinear(
        _ values: [Double], _ pixelLength: Double, _ horizontal: Bool, _ fontSize: Double,
        _ forcedDomain: (Double, Double)?, _ forcedUnit: DurationUnit?
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
        let unit =
            format == .duration
            ? forcedUnit ?? DurationUnit.forLinear(maxMagnitude: Swift.max(abs(lo), abs(hi))) : nil
        let scaleBy = unit?.seconds ?? 1
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
            let ticks = values.map { Tick(value: $0 * scaleBy, label: label(forTick: $0, step: nice.step)) }
            let axis = ResolvedAxis(scale: .linear, lo: domainLo, hi: domainHi, ticks: ticks, unit: unit)
            if ticks.count < 2 { return axis }
            let gap = length / Double(ticks.count - 1)
            let needed = horizontal ? axis.maxLabelWidth(fontSize: fontSize) + 12 : fontSize + 4
            if needed <= gap { return axis }
            if count <= 2 {
                // Even two steps collide (a very short axis): label every k-th tick only.
                var labels = ticks.map(\.label)
                Self.thin(
                    &labels, at: ticks.map(\.value), probe: axis, pixelLength: length, horizontal: horizontal,
                    fontSize: fontSize)
                let thinned = zip(ticks, labels).map { Tick(value: $0.value, label: $1) }
                return ResolvedAxis(scale: .linear, lo: domainLo, hi: domainHi, ticks: thinned, unit: unit)
            }
            count -= 1
        }
    }

    private func resolveLog(
        _ values: [Double], _ pixelLength: Double, _ horizontal: Bool, _ fontSize: Double,
        _ forcedDomain: (Double, Double)?, _ forcedUnit: DurationUnit?
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
            if fixedLo != nil, fixedHi == nil {
                hi = lo * 10
            } else if fixedHi != nil, fixedLo == nil {
                lo = hi / 10
            } else {
                lo = 1
                hi = 10
            }
        }
        if lo > hi { swap(&lo, &hi) }
        // Durations: powers of ten of one unit for the whole axis.
        let unit = format == .duration ? forcedUnit ?? DurationUnit.forLog(lo: lo, hi: hi) : nil
        let unitSeconds = unit?.seconds ?? 1
        let (firstDecade, lastDecade) = Ticks.decadeBounds(lo / unitSeconds, hi / unitSeconds)
        let candidates = Ticks.log(lo / unitSeconds, hi / unitSeconds).map { $0 * unitSeconds }
        let domainLo = fixedLo ?? candidates.first ?? lo
        var domainHi = fixedHi ?? candidates.last ?? hi
        if domainHi <= domainLo { domainHi = domainLo * 10 }
        var tickValues: [Double] = []
        var labels: [String] = []
        for (k, value) in zip(firstDecade...lastDecade, candidates)
        where value >= domainLo * (1 - 1e-12) && value <= domainHi * (1 + 1e-12) {
            tickValues.append(value)
            labels.append(logLabel(value, decade: k))
        }
        // Thin labels (keeping the gridlines) when they would collide.
        let probe = ResolvedAxis(scale: .log, lo: domainLo, hi: domainHi, ticks: [])
        Self.thin(
            &labels, at: tickValues, probe: probe, pixelLength: pixelLength, horizontal: horizontal,
            fontSize: fontSize)
        var minor: [Double] = []
        let (a, b) = Ticks.decadeBounds(domainLo / unitSeconds, domainHi / unitSeconds)
        if b - a <= 3 {
            for k in a..<b {
                for m in 2...9 {
                    let v = Double(m) * DecimalMath.pow10(k) * unitSeconds
                    if v > domainLo, v < domainHi { minor.append(v) }
                }
            }
        }
        let ticks = zip(tickValues, labels).map { Tick(value: $0, label: $1) }
        return ResolvedAxis(scale: .log, lo: domainLo, hi: domainHi, ticks: ticks, minorTicks: minor, unit: unit)
    }

    /// Percentile ticks of a tail axis, widest first to narrowest: p0 is the
    /// minimum, then one tick per further nine.
    package static let tailTicks: [Double] = [0, 50, 90, 99, 99.9, 99.99, 99.999, 99.9999]

    private func resolveTail(
        _ values: [Double], _ pixelLength: Double, _ horizontal: Bool, _ fontSize: Double
    ) -> ResolvedAxis {
        let top = ResolvedAxis.maxPercentile
        func clamp(_ v: Double) -> Double { Swift.min(top, Swift.max(0, v)) }
        var lo = Double.infinity
        var hi = -Double.infinity
        for v in values where v.isFinite {
            lo = Swift.min(lo, clamp(v))
            hi = Swift.max(hi, clamp(v))
        }
        if let m = min, m.isFinite { lo = clamp(m) }
        if let m = max, m.isFinite { hi = clamp(m) }
        if lo > hi {
            lo = 50
            hi = 99.9
        }
        // Out to the enclosing ticks unless fixed, as log axes go out to decades.
        let candidates = Self.tailTicks
        if min == nil { lo = candidates.last { $0 <= lo + 1e-9 } ?? 0 }
        if max == nil { hi = candidates.first { $0 >= hi - 1e-9 } ?? top }
        if hi <= lo {
            let below = candidates.last { $0 < lo } ?? 0
            let above = candidates.first { $0 > hi } ?? top
            if lo > 0 { lo = below } else { hi = above }
        }
        let tickValues = candidates.filter { $0 >= lo - 1e-9 && $0 <= hi + 1e-9 }
        // A little room past derived ends, so marks on the first and last
        // percentile are not cut by the plot's edge.
        let span = ResolvedAxis.transform(hi, .tailPercentile) - ResolvedAxis.transform(lo, .tailPercentile)
        if min == nil { lo = Self.percentile(at: ResolvedAxis.transform(lo, .tailPercentile) - span * Self.tailPadding) }
        if max == nil { hi = Self.percentile(at: ResolvedAxis.transform(hi, .tailPercentile) + span * Self.tailPadding) }
        var labels = tickValues.map { "p" + HumanNumber(.decimals(4), trimsTrailingZeros: true).format($0) }
        let probe = ResolvedAxis(scale: .tailPercentile, lo: lo, hi: hi, ticks: [])
        Self.thin(
            &labels, at: tickValues, probe: probe, pixelLength: pixelLength, horizontal: horizontal,
            fontSize: fontSize)
        let ticks = zip(tickValues, labels).map { Tick(value: $0, label: $1) }
        return ResolvedAxis(scale: .tailPercentile, lo: lo, hi: hi, ticks: ticks)
    }

    /// Share of a derived tail axis's span added beyond each end.
    package static let tailPadding = 0.03

    /// The percentile whose tail coordinate is `t` (the inverse of
    /// −log10(1 − q/100)); may be negative, below p0, for padding.
    package static func percentile(at t: Double) -> Double {
        100 * (1 - DecimalMath.exp(-t * 2.302585092994046))
    }

    /// Blanks labels (keeping their gridlines) so that neighbours do not
    /// collide: every k-th label is kept for the smallest k that fits.
    package static func thin(
        _ labels: inout [String], at values: [Double], probe: ResolvedAxis, pixelLength: Double,
        horizontal: Bool, fontSize: Double
    ) {
        guard values.count > 1 else { return }
        var minGap = Double.infinity
        for i in 1..<values.count {
            let gap = (probe.fraction(values[i]) - probe.fraction(values[i - 1])) * pixelLength
            minGap = Swift.min(minGap, gap)
        }
        let needed =
            horizontal
            ? (labels.map { TextMetrics.width($0, fontSize: fontSize) }.max() ?? 0) + 12
            : fontSize + 8
        if minGap > 0, minGap < needed {
            let every = Int(Swift.min(1000, DecimalMath.ceil(needed / minGap)))
            for i in labels.indices where i % every != 0 { labels[i] = "" }
        }
    }

    /// Label for a linear tick at `value` (in the axis unit for durations),
    /// with exactly the decimals the step needs, so 1000 and 1200 read "1k"
    /// and "1.2k" and 100_000 and 100_200 do not collapse to one label.
    package func label(forTick value: Double, step: TickStep) -> String {
        if value == 0 { return "0" }
        func plain(_ x: Double, decimals: Int) -> String {
            HumanNumber(.decimals(Swift.max(0, decimals)), trimsTrailingZeros: true).format(x)
        }
        switch format {
        case .number:
            if NumberFormat.needsScientific(abs(value)) {
                let decimals = DecimalMath.decade(abs(value)) - step.exponent
                return NumberFormat.scientific(value, maxFractionDigits: Swift.max(0, Swift.min(3, decimals)))
            }
            let suffix = NumberFormat.suffixes[NumberFormat.suffixIndex(for: abs(value))]
            let number = HumanNumber(.decimals(Swift.max(0, suffix.exponent - step.exponent)), trimsTrailingZeros: true)
            return number.format(DecimalDigits(value).shifted(by: -suffix.exponent)) + suffix.symbol
        case .percent:
            return HumanNumber(.decimals(Swift.max(0, -(step.exponent + 2))), trimsTrailingZeros: true)
                .format(DecimalDigits(value).shifted(by: 2)) + "%"
        case .duration:
            return plain(value, decimals: -step.exponent)
        }
    }

    /// Label for the log tick `value` = 10^`decade` (times the unit on a
    /// duration axis).
    private func logLabel(_ value: Double, decade: Int) -> String {
        switch format {
        case .number: return NumberFormat.compact(value)
        case .duration:
            return HumanNumber(.decimals(Swift.max(0, -decade)), trimsTrailingZeros: true).format(DecimalMath.pow10(decade))
        case .percent:
            let k = DecimalMath.decade(value)
            return NumberFormat.percent(value, maxFractionDigits: Swift.max(0, -(k + 2)))
        }
    }
}
